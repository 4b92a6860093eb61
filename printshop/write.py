"""Stage 6, write: put rendered files in place atomically, only once everything has rendered.

Each file is written to a temporary name in its final folder and renamed over the target, so a
reader never sees half a PDF and a failed build leaves the previous files untouched.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _file_mode() -> int:
    """What a plain open() would give a new file: 0666 less the umask (mkstemp makes 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


FILE_MODE = _file_mode()


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        os.fchmod(handle, FILE_MODE)  # readable by the print shop's account too, as any file the user saves
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
