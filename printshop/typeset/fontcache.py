"""What ReportLab reads from a TrueType file, kept between runs.

ReportLab reads a TrueType file's tables (names, metrics, the character map, every glyph's width and
position) in Python, a value at a time: 60-100 ms for the nine fonts printshop ships, at the start
of every `build`, `validate` and session. This module keeps what that reading gives (the face's
attributes, without the file's bytes) in the user's cache folder (paths.user_cache_dir, `fonts/`),
found by a digest of the file's bytes, of ReportLab's version and of `VERSION`; the next run reads
the file's bytes and hashes them (a few milliseconds), then takes the face from the cache.

A face from the cache is the face ReportLab would have read: its attributes are the ones ReportLab
set, and the only one that is not plain data (the scale from font units to PDF units) is made again
as ReportLab makes it (tests/test_fonts_cache.py compares every attribute and the PDFs built either
way). A file that ReportLab cannot read is never kept (the error comes from ReportLab, as without
the cache); an entry that cannot be read, or was written by other code, is read again from the font.
`PRINTSHOP_CACHE=off` turns the cache off with the rest.

Every PDF embeds a subset of each face it sets (the glyphs it prints), which ReportLab's
TTFontFile.makeSubset builds a table at a time in Python. The same face and glyphs give the same
bytes, and a process that writes many PDFs asks for the same subsets again (a rules booklet's face
in the A4 and the Letter kit, a session's every refresh, the test suite's builds): memos.SUBSETS
remembers them for the process, by the file's digest and the glyphs, the least recently used
forgotten first past 16 MB (reportlab_patches.remember_subsets).
"""

from __future__ import annotations

import hashlib
import io
import pickle
import threading
from pathlib import Path

from reportlab import Version as REPORTLAB_VERSION
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

from printshop.reportlab_patches import faces_given, remember_subsets
from printshop.typeset import font_files

VERSION = 1
KEPT = 64  # entries kept (about 100 KB each): past that, the least recently written go, down to 48
_NOT_KEPT = (
    "_ttf_data",
    "_pdfScale",
    "makeSubset",
)  # the file's bytes (read again), functions (made again)
_lock = (
    threading.Lock()
)  # held while a TTFont is made: ReportLab's TTFontFace may be swapped meanwhile


def read_font(name: str, path: Path) -> TTFont:
    """`TTFont(name, path)`, its face taken from the cache when this file was read before."""
    from printshop.project.paths import user_cache_dir

    folder = user_cache_dir("fonts")
    data = path.read_bytes()
    source: str | io.BytesIO = str(path)
    if font_files.needs_conversion(data):  # .otf (CFF), WOFF, WOFF2: made TrueType (font_files)
        data = font_files.truetype(data, folder)
        source = _named(io.BytesIO(data), path)
    if folder is None:
        with _lock:
            font = TTFont(name, _again(source))
        return remember_subsets(font, _font_digest(font.face._ttf_data))
    digest = _font_digest(data)
    entry = folder / f"{digest.hexdigest()}.pickle"
    face = _kept_face(entry, data, path)
    if face is not None:
        with _lock, faces_given(face):
            font = TTFont(name, _again(source))
        return remember_subsets(font, digest)
    with _lock:  # (never while another thread has ReportLab's TTFontFace swapped)
        font = TTFont(
            name, _again(source)
        )  # raises for a file that is not a usable font: nothing is kept
    _keep(
        folder,
        entry,
        {key: value for key, value in font.face.__dict__.items() if key not in _NOT_KEPT},
    )
    return remember_subsets(font, digest)


def _named(stream: io.BytesIO, path: Path) -> io.BytesIO:
    """The converted bytes as a file ReportLab reads, under the font file's own name (its
    messages and the face's `filename` name the file the data names)."""
    stream.name = str(path)
    return stream


def _again(source: str | io.BytesIO) -> str | io.BytesIO:
    """`source` read from its start (a converted font's bytes may be given to ReportLab twice)."""
    if isinstance(source, io.BytesIO):
        source.seek(0)
    return source


def _font_digest(data: bytes):
    digest = hashlib.blake2b(data, digest_size=20, person=b"printshop-font")
    digest.update(f"\n{VERSION}\n{REPORTLAB_VERSION}".encode())
    return digest


def _kept_face(entry: Path, data: bytes, path: Path) -> TTFontFace | None:
    try:
        attributes = pickle.loads(entry.read_bytes())
    except Exception:  # noqa: BLE001 - missing, truncated, or pickled by other code: read the font instead
        return None
    if (
        not isinstance(attributes, dict)
        or not isinstance(attributes.get("unitsPerEm"), int)
        or not isinstance(attributes.get("charToGlyph"), dict)
    ):
        return None
    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(attributes)
    face._ttf_data = data
    face.filename = str(path)  # (the same bytes may have been read from another path)
    face._pdfScale = pdf_scale(attributes["unitsPerEm"])
    return face


def pdf_scale(units_per_em: int):
    """Font units to PDF's thousandths of an em, computed as ReportLab's TTFontFile does."""
    if units_per_em == 1000:
        return lambda x: x
    factor = 1000 / units_per_em
    return lambda x: x * factor


def _keep(folder: Path, entry: Path, attributes: dict) -> None:
    from printshop.project.paths import keep_newest
    from printshop.write.commit import write_atomically

    try:
        write_atomically(entry, pickle.dumps(attributes, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # noqa: BLE001 - a full disk, or a face another ReportLab made unpicklable: only
        return  # costs the next run the reading
    keep_newest(folder, "*.pickle", KEPT)
