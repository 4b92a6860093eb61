"""What fitting each text came to, kept between runs of `printshop validate`.

`validate` lays out every game in every language to find texts that do not fit, and fitting (trying
sizes, wrapping, mending runts) is most of that work. A translator runs it again after each change,
when nearly every text is as it was. The store keeps, in the user's cache folder
(paths.user_cache_dir, `fits/`), the outcome of each fit: the size chosen, whether it fits, the
height it takes, the lines too many, whether a word is too wide, the hyphenation used, the runts
left and where the text prints (fitting.extent); not the wrapped lines, which only a renderer needs (layout's results are thrown away by
`validate`, and a renderer given such a fit sets its text again at that size, as it does for every
output in other colours).

An outcome is found by a digest of everything `fitting.fit` remembers a fit by within a process (the
text's blocks, the frame's style and size, the hyphenation, the colours, the font files registered
with their modified times and sizes) and of the code: printshop's modules (their modified times and
sizes, as Python's own compiled files are checked) and the versions of ReportLab and pyphen. Change
any of them and the digest changes, so an outcome is never given for another text, style, font or
code. Builds and sessions do not use the store.

The file is JSON, read once per run and written again (atomically) when the run added outcomes; a
file that cannot be read or was written by other code is ignored and replaced. It keeps the last
`LIMIT` outcomes used or added. `PRINTSHOP_CACHE=off` turns the store off with the rest of the
cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

VERSION = 2
# outcomes kept (about 1 MB, read in 0.02-0.03 s); the four games in two languages use 1,100
LIMIT = 10_000
FILE_NAME = "fits.json"

ACTIVE: "FitStore | None" = (
    None  # the store fitting.fit consults, set by `kept_fits` around a validation
)


class FitStore:
    def __init__(self, path: Path, code: str):
        self.path, self.code = path, code
        self.known: dict[str, list] = self._read()
        self.used: dict[str, None] = {}  # digests looked up and found, in order
        self.new: dict[str, list] = {}
        self.hits = self.misses = 0

    def _read(self) -> dict[str, list]:
        try:
            stored = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if (
            not isinstance(stored, dict)
            or stored.get("version") != VERSION
            or stored.get("code") != self.code
        ):
            return {}
        fits = stored.get("fits")
        return fits if isinstance(fits, dict) else {}

    def digest(self, key: tuple) -> str:
        return hashlib.blake2b(
            f"{self.code}\n{key!r}".encode("utf-8", "surrogatepass"), digest_size=20
        ).hexdigest()

    def get(self, digest: str) -> list | None:
        found = self.new.get(digest) or self.known.get(digest)
        if found is not None and _well_formed(found):
            self.used[digest] = None
            self.hits += 1
            return found
        self.misses += 1
        return None

    def put(self, digest: str, outcome: list) -> None:
        self.new[digest] = outcome

    def take_new(self) -> dict[str, list]:
        """The outcomes added since the last call (a forked process sends them to the one that
        saves)."""
        new, self.new = self.new, {}
        return new

    def merge(self, outcomes: dict[str, list]) -> None:
        self.new.update(outcomes)

    def save(self) -> None:
        """Write the outcomes back if this run added any: those not used this run first, then those
        used, then the new ones, the oldest dropped beyond LIMIT. A store that cannot be written is
        only slower."""
        if not self.new:
            return
        fits = {
            digest: outcome for digest, outcome in self.known.items() if digest not in self.used
        }
        fits.update((digest, self.known[digest]) for digest in self.used if digest in self.known)
        fits.update(self.new)
        if len(fits) > LIMIT:
            fits = dict(list(fits.items())[-LIMIT:])
        payload = json.dumps(
            {"version": VERSION, "code": self.code, "fits": fits}, separators=(",", ":")
        )
        from printshop.write.commit import write_atomically

        try:
            write_atomically(self.path, payload.encode("utf-8"))
        except OSError:
            pass


def _well_formed(outcome) -> bool:
    return (
        isinstance(outcome, list)
        and len(outcome) == 9
        and all(isinstance(v, (int, float)) for v in outcome[:4])
        and isinstance(outcome[4], int)
        and isinstance(outcome[5], bool)
        and (outcome[6] is None or isinstance(outcome[6], str))
        and isinstance(outcome[7], list)
        and all(isinstance(word, str) for word in outcome[7])
        and isinstance(outcome[8], list)
        and len(outcome[8]) in (0, 4)
        and all(isinstance(v, (int, float)) for v in outcome[8])
    )


def code_key() -> str:
    """printshop's modules (modified times and sizes) and the versions of what fitting depends on."""
    from printshop.project.paths import PACKAGE_DIR
    from printshop.write.cache import installed_versions

    parts = [f"v{VERSION}", sys.version]
    for root, folders, files in os.walk(
        PACKAGE_DIR
    ):  # every module, in every subpackage (a millisecond)
        folders[:] = sorted(folder for folder in folders if folder != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(root, name))
                parts.append(
                    f"{os.path.relpath(root, PACKAGE_DIR)}/{name}:{stat.st_mtime_ns}:{stat.st_size}"
                )
    versions = installed_versions()
    parts.extend(f"{name}={versions.get(name, 'absent')}" for name in ("reportlab", "pyphen"))
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=20).hexdigest()


@contextmanager
def kept_fits():
    """Within this block fitting.fit looks outcomes up in the user's store and adds the new ones,
    which are written when the block ends; without a usable cache folder, fits are worked out as
    always."""
    global ACTIVE
    from printshop.project.paths import user_cache_dir

    folder = user_cache_dir("fits")
    if folder is None:
        yield None
        return
    store = FitStore(folder / FILE_NAME, code_key())
    previous, ACTIVE = ACTIVE, store
    try:
        yield store
    finally:
        ACTIVE = previous
        store.save()
