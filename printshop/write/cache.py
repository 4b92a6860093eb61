"""The build cache: content-addressed, so a build with nothing changed renders nothing, and a
changed text re-renders only the files that show it.

Two levels, both under `<out>/.printshop-cache/`:

- **Jobs.** A build is a list of jobs (game x language x target x paper or profile). A job's key is a
  hash of everything its files are made from: the bytes of its input files (the shared print data,
  its language, the game's folder without other languages' texts, the game's and the common
  templates, the fonts), the build options, and the code (printshop's sources and the versions of
  the libraries that write the bytes). `jobs/<key>.json` lists the job's files by content hash;
  `objects/<hash>` holds each file's bytes. A hit serves those bytes, each checked against its hash.
- **The whole build.** `last-build.json` records the hash of every input of the last successful build
  with its options, and what it wrote. When nothing differs and every written file is still on disk
  as it was left, `printshop build` stops at once, before loading anything.

A key covers every byte a job reads, so a stale file cannot be served: change any input and the key
changes. That includes hidden files in the data (a `.png` starting with a dot is still art), the art
a game's faces name wherever it lies in the project, and the environment that changes bytes:
`SOURCE_DATE_EPOCH` (ReportLab dates the PDFs and derives their /ID from it, as
reproducible-builds.org describes). `--force` ignores both levels (and refreshes them).

Everything read back from the cache is checked: a record of the wrong shape is a miss, and a stored
path that is not a plain relative path (no '..', nothing absolute or hidden) is refused: the cache
never makes the build write a path the build did not compute itself.

A file's hash is remembered for the process by its stamp (size, times, inode: `_STAMPED`) once its
last change is a few seconds old: a file changed since has a new change time, and is read and hashed
again. A process that builds or refreshes again (`serve`, `watch`, the test suite) then reads the 5
MB of fonts printshop ships, and the rest of what did not change, once. A file changed within the
last seconds is read every time, so two saves in the same tick of the file system's clock are never
taken for one.

`outputs.json` keeps, per project and set of build settings, the files the last build with those
settings wrote (with their hashes), the project named in each record by its data folder's real path,
so that a build which no longer makes one of them (its language or game file was deleted) removes
it, and only it (build.py, `stale_outputs`), and so that a file is replaced only where printshop
wrote it (pipeline/outputs.py, `foreign_files`). A record of another project, or of the form before
projects were named, is never obeyed for removal.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from printshop import memos
from printshop.project.paths import (
    BUNDLED_FONTS_DIR,
    CACHE_DIR_NAME,
    PACKAGE_DEFAULTS_DIR,
    PACKAGE_DIR,
    templates_for,
)

LIBRARIES = (
    "reportlab",
    "pypdf",
    "pikepdf",
    "pypdfium2",
    "pillow",
    "jinja2",
    "pyphen",
)  # pyphen: its patterns decide hyphens


def _hash_bytes(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


# path -> (stamp, hash) of files whose last change had settled when they were hashed (see the
# module's text)
_STAMPED = memos.STAMPED
# seconds since a file's last change (its mtime and ctime) before its stamp stands for its bytes
SETTLED = 3.0
_now = time.time  # (tests move it on)


def _file_hash(name: str) -> str:
    try:
        stat = os.stat(name)
    except OSError:
        return "absent"
    stamp = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev)
    kept = _STAMPED.get(name)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    try:
        with open(name, "rb") as handle:
            digest = _hash_bytes(handle.read())
    except OSError:
        return "absent"
    if _now() - max(stat.st_mtime, stat.st_ctime) > SETTLED:
        _STAMPED[name] = (stamp, digest)
    return digest


_REFERENCES = memos.TEMPLATE_REFERENCES  # (template file, hash) -> the templates it names


class Digests:
    """File hashes, each file read once per build."""

    def __init__(self):
        self._known: dict[str, str] = {}  # by the path as a string: a build asks for thousands

    def known(self) -> dict[str, str]:
        """The hashes read so far, by path (to `adopt` into another build's Digests)."""
        return dict(self._known)

    def adopt(self, hashes: dict[str, str]) -> None:
        """Take these hashes as read (files that do not change while the process runs: printshop's
        fonts)."""
        self._known.update(hashes)

    def file(self, path: Path | str) -> str:
        name = os.fspath(path)
        digest = self._known.get(name)
        if digest is None:
            digest = self._known[name] = _file_hash(name)
        return digest

    def templates(self, names, folders: list[Path]) -> list[tuple[str, str, str]] | None:
        """(name, file, hash) of the templates `names` and of every template they extend, include or
        import, as the loader finds them in `folders` (templating.template_folders); None when one
        names a template by an expression: then any template may be read."""
        from printshop.typeset.templating import referenced_templates, template_file

        files, seen = [], set(names)
        waiting = sorted(seen)
        while waiting:
            name = waiting.pop()
            path = template_file(folders, name)
            if path is None:
                files.append((name, "", "absent"))  # a template written later changes the key
                continue
            digest = self.file(path)
            references = _REFERENCES.get((path, digest))
            if references is None:
                try:
                    references = referenced_templates(path.read_text(encoding="utf-8"))
                except (
                    OSError,
                    UnicodeDecodeError,
                ):  # rendering reports it; meanwhile, it may read any
                    references = [None]
                _REFERENCES[(path, digest)] = references
            files.append((name, str(path), digest))
            for reference in references:
                if reference is None:
                    return None
                if reference not in seen:
                    seen.add(reference)
                    waiting.append(reference)
        return sorted(files)

    def tree(self, root: Path, skip: Callable[[Path], bool] | None = None) -> list[tuple[str, str]]:
        """(relative path, hash) of every file under root, in the order of `os.walk` with each
        folder's files and subfolders sorted, hidden ones included (a job may read them); only
        version control, Python's caches and printshop's own cache and lock are left out. A symbolic
        link to a folder is not followed, as `os.walk` does not follow it; `skip` is asked about
        each file."""
        root = Path(root)
        if not root.is_dir():
            return [(str(root), self.file(root))] if root.is_file() else []
        found: list[tuple[str, str]] = []
        self._walk(os.fspath(root), "", root, skip, found)
        return found

    def _walk(self, folder: str, relative: str, root: Path, skip, found: list) -> None:
        # os.scandir tells files from folders and links without a stat of each (os.walk's own way),
        # and the paths stay strings: a build walks its inputs several times (a few thousand files)
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            return
        files, folders = [], []
        for entry in entries:
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            if not is_folder:
                files.append(entry)
            elif entry.name not in _NOT_INPUTS and not entry.is_symlink():
                folders.append(entry)
        for entry in sorted(files, key=lambda entry: entry.name):
            name = entry.name
            if name.endswith((".pyc", ".pyo")) or name == ".DS_Store":
                continue
            if skip is not None and skip(Path(entry.path)):
                continue
            inner = f"{relative}{name}"
            if entry.is_symlink() and not _inside(
                Path(entry.path), root
            ):  # refused by the build; never read
                found.append((inner, "outside"))
                continue
            found.append((inner, self.file(entry.path)))
        for entry in sorted(folders, key=lambda entry: entry.name):
            self._walk(entry.path, f"{relative}{entry.name}{os.sep}", root, skip, found)


_NOT_INPUTS = {".git", ".hg", ".svn", "__pycache__", CACHE_DIR_NAME}
# the environment that changes the bytes written (ReportLab reads SOURCE_DATE_EPOCH for the PDF
# dates and /ID); TZ, LANG and PYTHONHASHSEED do not, and tests keep it so
ENVIRONMENT = ("SOURCE_DATE_EPOCH",)


def environment() -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in ENVIRONMENT}


def code_version(digests: Digests) -> str:
    """printshop's own sources, the versions of the libraries that shape the bytes, and the
    environment variables that change them."""
    # the .py sources and the defaults every project shares (print data, languages, common
    # templates)
    parts = [_running_code(), digests.tree(PACKAGE_DEFAULTS_DIR), environment()]
    installed = _installed_libraries()
    parts.extend((name, installed.get(name, "absent")) for name in LIBRARIES)
    return key_of(parts)


@memos.RUNNING_CODE
def _running_code() -> list[tuple[str, str]]:
    """printshop's .py sources, hashed once per process: the code that runs is the code imported
    when the process started (an edit of a source takes effect in the next process, and is hashed
    there). A build, a check and each refresh of a session used to hash the sixty files again: about
    3 ms each time."""
    return Digests().tree(PACKAGE_DIR, skip=lambda path: path.suffix != ".py")


@memos.INSTALLED_LIBRARIES
def _installed_libraries() -> dict[str, str]:
    """installed_versions(), once per process: the libraries a process runs are the ones it
    imported."""
    return installed_versions()


def installed_versions() -> dict[str, str]:
    """{distribution: version} for LIBRARIES, from the names of the `NAME-VERSION.dist-info` folders
    on sys.path (the first found wins, as for imports), without importing importlib.metadata and its
    email parser (a tenth of a cold build's start-up); a library installed another way is asked the
    slow way."""
    import sys

    wanted = {name.lower().replace("-", "_"): name for name in LIBRARIES}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if not folder.endswith(".dist-info"):
                continue
            distribution, _, version = folder[: -len(".dist-info")].partition("-")
            name = wanted.get(distribution.lower().replace("-", "_").replace(".", "_"))
            if name is not None and name not in found:
                found[name] = version
    for name in LIBRARIES:
        if name not in found:
            from importlib import metadata

            try:
                found[name] = metadata.version(name)
            except metadata.PackageNotFoundError:
                pass
    return found


def key_of(*parts) -> str:
    return _hash_bytes(json.dumps(parts, sort_keys=True, default=str).encode())


def font_inputs(digests: Digests, data_dir: Path) -> list:
    return [digests.tree(Path(data_dir) / "fonts"), digests.tree(BUNDLED_FONTS_DIR)]


def whole_build_key(
    digests: Digests, data_dir: Path, templates_dir: Path | None, settings: dict
) -> str:
    """Every input of a build and every setting (the same names as `build.build`'s), for the no-op
    check."""
    settings = {
        **settings,
        "back_offset": list(settings.get("back_offset") or (0.0, 0.0)),
        "shard": list(settings["shard"]) if settings.get("shard") else None,
    }
    return key_of(
        settings,
        digests.tree(data_dir),
        digests.tree(templates_dir or templates_for(data_dir)),
        digests.tree(BUNDLED_FONTS_DIR),
        code_version(digests),
    )


def nothing_to_do(
    out_dir: Path, data_dir: Path, templates_dir: Path | None, settings: dict
) -> list[str] | None:
    """The files of the last build, when it had these inputs and settings and left them untouched.
    With no record of a last build (a first build, a new output folder) there is nothing to compare:
    no input is read."""
    cache = Cache(out_dir)
    if not cache.has_build_record():
        return None
    return cache.up_to_date(whole_build_key(Digests(), Path(data_dir), templates_dir, settings))


@dataclass
class CachedFile:
    path: str  # relative to the output folder
    digest: str
    pages: int
    description: str
    kind: str


class Cache:
    def __init__(self, out_dir: Path):
        self.out_dir = Path(out_dir)
        self.root = self.out_dir / CACHE_DIR_NAME

    # --- jobs -------------------------------------------------------------------------------------
    def load_job(self, key: str) -> list[tuple[CachedFile, bytes]] | None:
        """The job's files, or None on a miss or if any stored object no longer matches its hash."""
        try:
            records = json.loads((self.root / "jobs" / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(records, list):
            return None
        files = []
        for record in records:
            entry = _cached_file(record)
            if entry is None:
                return (
                    None  # a record of another shape, or naming a path the build would not: a miss
                )
            try:
                data = (self.root / "objects" / entry.digest).read_bytes()
            except OSError:
                return None
            if _hash_bytes(data) != entry.digest:  # a damaged object is a miss, never a stale file
                return None
            files.append((entry, data))
        return files

    def has_job(self, key: str) -> bool:
        return (self.root / "jobs" / f"{key}.json").is_file()

    def store_outputs(self, key: str, outputs) -> None:
        """`store_job` of a job's rendered files (jobs.Output: path, data, pages, description,
        kind)."""
        self.store_job(
            key,
            [
                (
                    CachedFile(
                        str(output.path),
                        digest_of(output.data),
                        output.pages,
                        output.description,
                        output.kind,
                    ),
                    output.data,
                )
                for output in outputs
            ],
        )

    def store_job(self, key: str, files: list[tuple[CachedFile, bytes]]) -> None:
        from printshop.write.commit import write_atomically

        for entry, data in files:
            target = self.root / "objects" / entry.digest
            if not target.exists():
                write_atomically(target, data)
        write_atomically(
            self.root / "jobs" / f"{key}.json",
            json.dumps([entry.__dict__ for entry, _ in files], indent=1).encode(),
        )

    # --- the whole build --------------------------------------------------------------------------
    def has_build_record(self) -> bool:
        return (self.root / "last-build.json").is_file()

    def up_to_date(self, key: str) -> list[str] | None:
        """The files the last build wrote, if it had this key and they are all still as it left
        them."""
        try:
            last = json.loads((self.root / "last-build.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if (
            not isinstance(last, dict)
            or last.get("key") != key
            or not isinstance(last.get("files"), dict)
        ):
            return None  # another key, or a record of another shape: load and build
        for path, stamp in last["files"].items():
            if not (_plain_path(path) and isinstance(stamp, list) and len(stamp) == 2):
                return None
            try:
                stat = (self.out_dir / path).stat()
            except OSError:
                return None
            if [stat.st_size, stat.st_mtime_ns] != stamp:
                return None
        return sorted(last["files"])

    def record_build(self, key: str, paths: list[str]) -> None:
        from printshop.write.commit import write_atomically

        files = {}
        for path in paths:
            stat = (self.out_dir / path).stat()
            files[path] = [stat.st_size, stat.st_mtime_ns]
        write_atomically(
            self.root / "last-build.json",
            json.dumps({"key": key, "files": files}, indent=1).encode(),
        )

    # --- what each kind of build wrote, for removing what a later one no longer makes -------------
    def outputs_of(
        self, settings_key: str, project: str, stamp: list[int]
    ) -> dict[str, str] | None:
        """{path: content hash} of the files the last build of `project` (its data folder's real
        path) with these settings wrote; {} if none, or if the record's `stamp` (the data and
        output folders' device and inode numbers when it was written) is not this one: a record
        copied with the folders, shipped, or of a project moved elsewhere; None if the record names
        a path no build of a project could have written (`plausible_output`): a record made to have
        a build delete other files, refused whole."""
        entry = self._outputs().get(_record_name(settings_key, project))
        if not (
            isinstance(entry, dict)
            and entry.get("project") == project
            and entry.get("stamp") == stamp
        ):
            return {}
        files = entry.get("files")
        if not isinstance(files, dict):
            return {}
        if not all(
            plausible_output(path) and isinstance(digest, str) and _DIGEST.match(digest)
            for path, digest in files.items()
        ):
            return None
        return dict(files)

    def owners(self) -> list[tuple[str | None, object, dict[str, str]]]:
        """(project, stamp, {path: content hash}) of every record kept, of every project that built
        here; project None: a record of the form before projects were named."""
        found: list[tuple[str | None, object, dict[str, str]]] = []
        for entry in self._outputs().values():
            if not isinstance(entry, dict):
                continue
            project, files = entry.get("project"), entry.get("files")
            if isinstance(project, str) and isinstance(files, dict):
                found.append(
                    (
                        project,
                        entry.get("stamp"),
                        {k: v for k, v in files.items() if isinstance(v, str)},
                    )
                )
            elif "project" not in entry:  # {path: hash}, as builds before issue 54 kept it
                found.append((None, None, {k: v for k, v in entry.items() if isinstance(v, str)}))
        return found

    def record_outputs(
        self, settings_key: str, project: str, stamp: list[int], files: dict[str, str]
    ) -> None:
        from printshop.write.commit import write_atomically

        record = self._outputs()
        name = _record_name(settings_key, project)
        record.pop(name, None)
        # the newest last; only the most recent settings are kept
        record[name] = {"project": project, "stamp": stamp, "files": files}
        while len(record) > MAX_RECORDED_SETTINGS:
            record.pop(next(iter(record)))
        write_atomically(self.root / "outputs.json", json.dumps(record, indent=1).encode())

    def _outputs(self) -> dict:
        try:
            record = json.loads((self.root / "outputs.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return record if isinstance(record, dict) else {}


def _record_name(settings_key: str, project: str) -> str:
    return f"{settings_key}@{key_of(project)[:16]}"


# what a build writes: <game>/<lang>/<file> (press files in <game>/<lang>/press/<profile>/), and
# calibration/duplex-calibration-<lang>-<paper>.pdf; PDFs, images and TTS's JSON
_OUTPUT = re.compile(
    r"^(?:[a-z0-9][a-z0-9_-]*/[a-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*/(?:press/[a-z0-9][a-z0-9_-]*/)?"
    r"(?:[^/]+/)?[^/]+|calibration/duplex-calibration-[^/]+)\.(?:pdf|png|json|svg|jpg)$"
)


def plausible_output(path) -> bool:
    """Whether `path` (relative to the output folder) has the form of a file a build writes."""
    return _plain_path(path) and bool(_OUTPUT.match(path))


MAX_RECORDED_SETTINGS = 64
_DIGEST = re.compile(r"^[0-9a-f]{40}$")


def _inside(path: Path, root: Path) -> bool:
    from printshop.write.commit import inside

    return inside(path, root)


def _plain_path(path) -> bool:
    from printshop.write.commit import safe_relative

    return isinstance(path, str) and safe_relative(path)


def _cached_file(record) -> CachedFile | None:
    """A job record's entry, if it has exactly the shape store_job writes and a plain relative path."""
    if not isinstance(record, dict) or set(record) != {
        "path",
        "digest",
        "pages",
        "description",
        "kind",
    }:
        return None
    entry = CachedFile(**record)
    if not (
        _plain_path(entry.path)
        and isinstance(entry.digest, str)
        and _DIGEST.match(entry.digest)
        and type(entry.pages) is int
        and isinstance(entry.description, str)
        and isinstance(entry.kind, str)
    ):
        return None
    return entry


def digest_of(data: bytes) -> str:
    return _hash_bytes(data)
