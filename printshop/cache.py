"""The build cache: content-addressed, so a build with nothing changed renders nothing, and a changed
text re-renders only the files that show it.

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
changes. `--force` ignores both levels (and refreshes them).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from printshop.paths import BUNDLED_FONTS_DIR, CACHE_DIR_NAME, DEFAULT_TEMPLATES_DIR, PACKAGE_DIR

LIBRARIES = ("reportlab", "pypdf", "pikepdf", "pypdfium2", "pillow", "jinja2")


def _hash_bytes(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


class Digests:
    """File hashes, each file read once per build."""

    def __init__(self):
        self._known: dict[Path, str] = {}

    def file(self, path: Path) -> str:
        digest = self._known.get(path)
        if digest is None:
            try:
                digest = _hash_bytes(path.read_bytes())
            except OSError:
                digest = "absent"
            self._known[path] = digest
        return digest

    def tree(self, root: Path, skip=lambda path: False) -> list[tuple[str, str]]:
        """(relative path, hash) of every file under root, sorted; hidden files and caches left out."""
        root = Path(root)
        if not root.is_dir():
            return [(str(root), self.file(root))] if root.is_file() else []
        found = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            for name in sorted(files):
                path = Path(folder) / name
                if name.startswith(".") or name.endswith((".pyc", ".pyo")) or skip(path):
                    continue
                found.append((str(path.relative_to(root)), self.file(path)))
        return found


def code_version(digests: Digests) -> str:
    """printshop's own sources and the versions of the libraries that shape the bytes."""
    parts = [digests.tree(PACKAGE_DIR, skip=lambda path: path.suffix != ".py")]
    for name in LIBRARIES:
        try:
            parts.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            parts.append((name, "absent"))
    return key_of(parts)


def key_of(*parts) -> str:
    return _hash_bytes(json.dumps(parts, sort_keys=True, default=str).encode())


def font_inputs(digests: Digests, data_dir: Path) -> list:
    return [digests.tree(Path(data_dir) / "fonts"), digests.tree(BUNDLED_FONTS_DIR)]


def whole_build_key(digests: Digests, data_dir: Path, templates_dir: Path | None, settings: dict) -> str:
    """Every input of a build and every setting (the same names as `build.build`'s), for the no-op check."""
    settings = {**settings, "back_offset": list(settings.get("back_offset") or (0.0, 0.0)),
                "shard": list(settings["shard"]) if settings.get("shard") else None}
    return key_of(settings, digests.tree(data_dir), digests.tree(templates_dir or DEFAULT_TEMPLATES_DIR),
                  digests.tree(BUNDLED_FONTS_DIR), code_version(digests))


def nothing_to_do(out_dir: Path, data_dir: Path, templates_dir: Path | None, settings: dict) -> list[str] | None:
    """The files of the last build, when it had these inputs and settings and left them untouched."""
    return Cache(out_dir).up_to_date(whole_build_key(Digests(), Path(data_dir), templates_dir, settings))


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
        files = []
        for record in records:
            try:
                entry = CachedFile(**record)
                data = (self.root / "objects" / entry.digest).read_bytes()
            except (OSError, TypeError):
                return None
            if _hash_bytes(data) != entry.digest:  # a damaged object is a miss, never a stale file
                return None
            files.append((entry, data))
        return files

    def store_job(self, key: str, files: list[tuple[CachedFile, bytes]]) -> None:
        from printshop.write import write_atomically

        for entry, data in files:
            target = self.root / "objects" / entry.digest
            if not target.exists():
                write_atomically(target, data)
        write_atomically(self.root / "jobs" / f"{key}.json",
                         json.dumps([entry.__dict__ for entry, _ in files], indent=1).encode())

    # --- the whole build --------------------------------------------------------------------------
    def up_to_date(self, key: str) -> list[str] | None:
        """The files the last build wrote, if it had this key and they are all still as it left them."""
        try:
            last = json.loads((self.root / "last-build.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if last.get("key") != key:
            return None
        for path, (size, mtime_ns) in last.get("files", {}).items():
            try:
                stat = (self.out_dir / path).stat()
            except OSError:
                return None
            if stat.st_size != size or stat.st_mtime_ns != mtime_ns:
                return None
        return sorted(last.get("files", {}))

    def record_build(self, key: str, paths: list[str]) -> None:
        from printshop.write import write_atomically

        files = {}
        for path in paths:
            stat = (self.out_dir / path).stat()
            files[path] = [stat.st_size, stat.st_mtime_ns]
        write_atomically(self.root / "last-build.json", json.dumps({"key": key, "files": files}, indent=1).encode())


def digest_of(data: bytes) -> str:
    return _hash_bytes(data)
