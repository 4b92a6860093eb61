"""Stage 6, write: put a build's files in place all at once, only once everything has rendered.

`write_atomically` writes one file (a temporary name in its folder, then a rename): a reader never
sees half a file. A build writes its whole kit with `commit`, so that an interruption at any point
leaves either the old kit or the new one, never a mix:

1. **Stage.** Every changed file is written into `<out>/.printshop-cache/staging/` (inside the output
   folder, so on its file system) and synced. Nothing in the kit has changed yet; a failure here (a
   full disk, Ctrl-C, a kill) leaves the old kit, and the staging folder is removed (at once, or by
   the next build).
2. **Check.** Each target is resolved and refused unless inside the output folder; a target that is
   a folder, or a folder that cannot be written, stops the build before anything is replaced.
3. **Journal.** `staging/journal.json` lists every (staged file, target) pair and the files to
   remove. It is written and synced whole (then renamed into place): from this point the new kit
   exists on disk, and the next build completes it if this one dies.
4. **Replace.** Each old file is moved aside into staging and the new one renamed over its place
   (renames: no copying, a few milliseconds for a kit). Ctrl-C is held back until the renames are
   done. If a rename fails, the files already replaced are put back from staging (rolled back).
   After a `kill -9` or a power cut here, the next build finds the journal and completes the
   replacement (rolls forward), and says so.
5. **Clean.** The journal is deleted (the commit is done), then the staging folder with the old files.

All of this runs under an exclusive lock on `<out>/.printshop-cache/lock`, so that two builds into
one folder take turns; holding it, a build also removes the `.part` files earlier builds left when
killed. Where the file system breaks the promise (a rename back fails), the error names exactly
which files are new.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from printshop.project.paths import CACHE_DIR_NAME


def _file_mode() -> int:
    """What a plain open() would give a new file: 0666 less the umask (mkstemp makes 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


FILE_MODE = _file_mode()
STAGING = "staging"
JOURNAL = "journal.json"
# write_atomically's temporary names: ".<name>.<8 random characters>.part"
_PART = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.part$")
STALE_PART_SECONDS = 60  # outside the cache, a .part file this old belongs to no running writer


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        os.fchmod(
            handle, FILE_MODE
        )  # readable by the print shop's account too, as any file the user saves
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# what each kind of file printshop writes outside a build holds, by which it knows it wrote one: a
# file without its mark is the user's own (or edited since: a PO file saved by Poedit names Poedit)
MARKS = {
    "docs": (b"(`printshop docs`", b"`printshop checks --markdown"),
    "schema": (b'"$schema": "http://json-schema.org/draft-07/schema#",\n  "title": "data/',),
    "po": (b'"X-Generator: printshop\\n"',),
    "xliff": (b"<!-- written by printshop i18n export",),
    "pdf": (b"/Creator (printshop)",),
}


def not_ours(files: Sequence[tuple[Path, bytes]], kind: str) -> list[Path]:
    """The files of `files` ((path, new bytes)) that writing would replace although printshop did
    not write them: a file there that holds other bytes and not the mark of the `kind` of file
    printshop writes (MARKS), a link, a folder. A command refuses them all (before writing any)
    unless `--force`."""
    refused = []
    for path, data in files:
        if not path.exists() and not path.is_symlink():
            continue
        try:
            content = path.read_bytes() if path.is_file() and not path.is_symlink() else None
        except OSError:
            content = None
        if content is None or not (content == data or any(mark in content for mark in MARKS[kind])):
            refused.append(path)
    return refused


def refusal(paths: list[Path], what: str) -> str:
    """The message a command prints for `not_ours` files."""
    from printshop.diagnostics import display_path

    named = ", ".join(display_path(path) for path in paths)
    return (
        f"{named}: not written by {what} (a file of your own, or changed since); nothing was "
        "written: move it away, name another --out, or --force to replace it"
    )


class WriteFailed(Exception):
    """The kit could not be put in place. `path` is what failed; `replaced` the files that are new
    on disk all the same (empty unless the file system refused to put old files back)."""

    def __init__(self, message: str, path: Path, replaced: list[Path] | None = None):
        super().__init__(message)
        self.path = path
        self.replaced = replaced or []


@dataclass
class Committed:
    written: list[Path] = field(default_factory=list)  # targets whose bytes changed
    unchanged: list[Path] = field(default_factory=list)  # targets already holding these bytes
    removed: list[Path] = field(default_factory=list)  # files of an earlier build that are gone now
    interrupted: bool = False  # Ctrl-C came during the replacement, which was finished first


def safe_relative(path: str | Path) -> bool:
    """A path made of plain names below a folder: not absolute, no '..', '.', empty or hidden parts."""
    text = str(path)
    if not text or "\\" in text or "\x00" in text:
        return False
    parts = PurePosixPath(text).parts
    return (
        bool(parts)
        and not PurePosixPath(text).is_absolute()
        and all(part not in ("", ".", "..") and not part.startswith(".") for part in parts)
    )


def inside(path: Path, root: Path) -> bool:
    """Whether `path`, resolved (symlinks and '..' followed), lies inside `root`, resolved."""
    try:
        resolved, base = Path(path).resolve(), Path(root).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return False
    return resolved == base or base in resolved.parents


@contextlib.contextmanager
def locked(out_dir: Path):
    """Hold `<out>/.printshop-cache/lock` exclusively (other builds into the same folder wait)."""
    import fcntl

    root = Path(out_dir) / CACHE_DIR_NAME
    root.mkdir(parents=True, exist_ok=True)
    handle = os.open(root / "lock", os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def recover(out_dir: Path) -> list[Path]:
    """Finish what a killed build left (call holding the lock): a staging folder with a journal is
    completed (its remaining files put in place: they were all written and synced before the journal
    was); one without a journal held nothing yet and is removed. Returns the files put in place."""
    out_dir = Path(out_dir)
    staging = out_dir / CACHE_DIR_NAME / STAGING
    if not staging.is_dir():
        return []
    completed = []
    try:
        journal = json.loads((staging / JOURNAL).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        journal = None
    if isinstance(journal, dict):
        for entry in journal.get("files", []):
            if not (
                isinstance(entry, list)
                and len(entry) == 2
                and all(isinstance(x, str) for x in entry)
            ):
                continue
            staged_name, relative = entry
            staged, target = staging / "new" / staged_name, out_dir / relative
            if not (
                staged_name.isdigit() and safe_relative(relative) and inside(target.parent, out_dir)
            ):
                continue  # a journal this code did not write: never follow it outside the output
            if staged.is_file() and not target.is_dir():
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staged, target)
                completed.append(target)
        for relative in journal.get("remove", []):
            target = out_dir / relative if isinstance(relative, str) else None
            if (
                target is not None
                and safe_relative(relative)
                and inside(target.parent, out_dir)
                and target.is_file()
            ):
                target.unlink()
        (staging / JOURNAL).unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)
    return completed


def remove_stale_parts(out_dir: Path) -> list[Path]:
    """Delete the `.part` files killed writers left (call holding the lock): in the cache, every one
    (only builds write there, under the lock); elsewhere in the output folder, those older than a
    minute (a proof being written beside a build is not disturbed)."""
    out_dir = Path(out_dir)
    cache = out_dir / CACHE_DIR_NAME
    removed, now = [], time.time()
    for folder, dirs, files in os.walk(out_dir):
        if Path(folder) == cache:
            dirs[:] = [d for d in dirs if d != STAGING]  # recover() owns it
        for name in files:
            if not _PART.match(name):
                continue
            path = Path(folder) / name
            try:
                in_cache = cache in path.parents
                if in_cache or now - path.lstat().st_mtime > STALE_PART_SECONDS:
                    path.unlink()
                    removed.append(path)
            except OSError:
                continue
    return removed


class _HeldInterrupt:
    """Defers Ctrl-C (SIGINT) while the renames run; `arrived` says whether one came."""

    def __init__(self):
        self.arrived = False
        self._previous = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._note)
        return self

    def _note(self, signum, frame):
        self.arrived = True

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
        return False


def commit(out_dir: Path, files: list[tuple[str, bytes]], remove: Sequence[str] = ()) -> Committed:
    """Put `files` ((path relative to `out_dir`, bytes)) in place and delete `remove` (relative
    paths of an earlier build's files), all or nothing, as the module says. Call holding
    `locked(out_dir)`. Raises WriteFailed (the old kit is left as it was, unless `replaced` says
    otherwise)."""
    out_dir = Path(out_dir)
    done = Committed()
    changed: list[tuple[Path, bytes]] = []
    folders_inside: dict[Path, bool] = {}  # a kit's files share a few folders: each resolved once

    def within(folder: Path) -> bool:
        known = folders_inside.get(folder)
        if known is None:
            known = folders_inside[folder] = inside(folder, out_dir)
        return known

    for relative, data in files:
        target = out_dir / relative
        if not safe_relative(relative) or not within(target.parent):
            raise WriteFailed(
                f"refused to write {relative}: it is not a path inside {out_dir}", target
            )
        if _same_bytes(target, data):
            done.unchanged.append(target)
        else:
            changed.append((target, data))
    removing = [
        out_dir / relative
        for relative in remove
        if safe_relative(relative)
        and within((out_dir / relative).parent)
        and (out_dir / relative).is_file()
    ]
    if not changed and not removing:
        return done
    for target, _ in changed:
        if target.is_dir():
            raise WriteFailed(
                f"cannot replace {target.name}: it is a folder; nothing was written", target
            )
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise WriteFailed(
                f"cannot create the folder {target.parent}: {error.strerror or error}; "
                "nothing was written",
                target.parent,
            ) from None
        if not os.access(target.parent, os.W_OK | os.X_OK):
            raise WriteFailed(
                f"cannot write into {target.parent}: permission denied; nothing was written",
                target.parent,
            )
    staging = out_dir / CACHE_DIR_NAME / STAGING
    shutil.rmtree(staging, ignore_errors=True)
    try:
        (staging / "new").mkdir(parents=True)
        (staging / "old").mkdir()
        for number, (target, data) in enumerate(changed):
            _write_synced(staging / "new" / str(number), data)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise WriteFailed(
            f"cannot stage the new files in {staging}: {error.strerror or error}; nothing was written",
            staging,
        ) from None
    except BaseException:  # Ctrl-C while staging: nothing replaced yet
        shutil.rmtree(staging, ignore_errors=True)
        raise
    with _HeldInterrupt() as held:  # from the journal to the last rename, Ctrl-C waits
        journal = {
            "files": [
                [str(number), str(target.relative_to(out_dir))]
                for number, (target, _) in enumerate(changed)
            ],
            "remove": [str(path.relative_to(out_dir)) for path in removing],
        }
        try:
            _write_synced(staging / f"{JOURNAL}.new", json.dumps(journal, indent=1).encode())
            os.replace(staging / f"{JOURNAL}.new", staging / JOURNAL)
            _sync_folder(staging)
        except OSError as error:
            shutil.rmtree(staging, ignore_errors=True)
            raise WriteFailed(
                f"cannot write the journal in {staging}: {error.strerror or error}; nothing was written",
                staging,
            ) from None
        _replace(out_dir, staging, changed, removing, done)
        done.interrupted = held.arrived
    (staging / JOURNAL).unlink(missing_ok=True)  # the commit point: nothing left to complete
    shutil.rmtree(staging, ignore_errors=True)
    return done


def _replace(
    out_dir: Path,
    staging: Path,
    changed: list[tuple[Path, bytes]],
    removing: list[Path],
    done: Committed,
) -> None:
    """The renames; on failure, put back every file already replaced, then raise WriteFailed."""
    moved: list[
        tuple[Path, Path | None]
    ] = []  # (target, where its old file went, or None: it had none)
    failed_at = out_dir
    try:
        for number, (target, _) in enumerate(changed):
            failed_at = target
            old = staging / "old" / str(number)
            backup = None
            if target.exists():
                os.replace(target, old)
                backup = old
            moved.append((target, backup))
            os.replace(staging / "new" / str(number), target)
        for number, path in enumerate(removing):
            failed_at = path
            old = staging / "old" / f"removed-{number}"
            os.replace(path, old)
            moved.append((path, old))
    except OSError as failure:
        still_new = []
        for target, backup in reversed(moved):
            try:
                if backup is not None:
                    os.replace(backup, target)
                elif target.exists():
                    target.unlink()
            except OSError:
                still_new.append(target)
        (staging / JOURNAL).unlink(
            missing_ok=True
        )  # rolled back: the next build must not complete it
        shutil.rmtree(staging, ignore_errors=True)
        if still_new:
            raise WriteFailed(
                f"replacing {failed_at} failed ({failure.strerror or failure}) and these files could "
                f"not be put back, so they are from this build: {', '.join(map(str, still_new))}",
                failed_at,
                still_new,
            ) from None
        raise WriteFailed(
            f"cannot replace {failed_at}: {failure.strerror or failure}; every file was put back as "
            "it was, nothing was written",
            failed_at,
        ) from None
    done.written = [target for target, _ in changed]
    done.removed = list(removing)
    for folder in {target.parent for target, _ in changed}:
        _sync_folder(folder)
    _prune(removing, out_dir)


def _prune(removed: list[Path], out_dir: Path) -> None:
    """The folders the removed files leave empty (a game taken out of the data: output/<game>/en/,
    /fr/ and output/<game>/ stayed behind, empty), up to the output folder; a folder with anything
    else in it stays."""
    root = Path(out_dir).resolve()
    for folder in sorted(
        {path.parent for path in removed}, key=lambda folder: len(folder.parts), reverse=True
    ):
        while folder.resolve() != root and root in folder.resolve().parents:
            try:
                folder.rmdir()  # only an empty folder goes
            except OSError:
                break
            folder = folder.parent


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as stream:
        os.fchmod(stream.fileno(), FILE_MODE)
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())


def _sync_folder(folder: Path) -> None:
    """Make the renames in `folder` durable (best effort: not every file system allows it)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        return path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False
