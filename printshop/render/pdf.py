"""PDF settings every document shares: reproducible bytes, embedded fonts only, metadata.

Dates and /ID: `invariant=1` gives every PDF the fixed date 2000-01-01 and an /ID hashed from it and
the content. ReportLab reads `SOURCE_DATE_EPOCH` itself (reportlab.lib.utils.TimeStamp): when it is
set, the creation and modification dates are that moment (UTC) and the /ID derives from it, as
reproducible-builds.org describes. build.check_environment refuses a value that is not whole seconds
(ReportLab would fail on every file), and cache.py puts the variable in every key.
"""

from __future__ import annotations

import hashlib
import io
import threading
import zlib

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfgen.canvas import Canvas

from printshop.memo import SizedMemo

# Streams are Flate-compressed binary, not also ASCII85-encoded (ReportLab's default), which made every
# stream a quarter larger and took time to encode. Read when a document is formatted, so it is set for
# the process: every PDF printshop writes goes through this module.
rl_config.useA85 = 0

# Flate compression remembered by content, for the process. The same streams are compressed again and again:
# a card face's form, a font subset, a rules page, in the A4 and the Letter kit of one build (838 of a catalogue
# build's 1,644 streams, 8 of its 13.6 MB), and in every build a long-running process makes again (a session
# writing after an edit, a program building twice). zlib.compress gives the same bytes for the same input, so
# an input met before is given its bytes again: a digest costs a seventh (a page of
# form references) to a thirtieth (a font subset) of compressing. The last 48 MB of
# compressed streams are kept (a catalogue build makes about 2 MB); streams under 512 bytes are compressed.
COMPRESSED_KEPT = 48 << 20
_SMALL_STREAM = 512
_COMPRESSED = SizedMemo(COMPRESSED_KEPT)


def _flate(self, text) -> bytes:
    """PDFStreamFilterZCompress.encode (zlib.compress of the UTF-8 bytes), remembered (see above)."""
    data = text.encode("utf8") if isinstance(text, str) else text
    if len(data) < _SMALL_STREAM:
        return zlib.compress(data)
    return _COMPRESSED.remembered(
        hashlib.blake2b(data, digest_size=20).digest(), lambda: zlib.compress(data)
    )


pdfdoc.PDFStreamFilterZCompress.encode = _flate

# Font subset tags. A subset's name is six capitals, '+', the font's name ("AAAAAA+NotoSans-Bold"); ReportLab
# numbers a font's subsets AAAAAA, AAAAAB, ... in every document, so the French and the English cards both embed
# an "AAAAAA+NotoSans-Bold" holding other glyphs under other codes. A print shop that gangs files on one sheet,
# or a RIP that keeps fonts by name, can then print one file's text with the other's subset: wrong letters. The
# tag is made from what the subset holds instead (the font, its version, the characters at their codes, as pdfTeX
# does): the same name always stands for the same subset, in any file, and the bytes stay reproducible.
_TAGS = threading.local()
_SUBSET_NUMBER = ttfonts.SUBSETN


def _subset_tag(number: int) -> bytes:
    """ttfonts.SUBSETN: the tag `TTFont.addObjects` (below) worked out for its `number`-th subset, else ReportLab's."""
    tags = getattr(_TAGS, "tags", None)
    return tags[number] if tags is not None and number < len(tags) else _SUBSET_NUMBER(number)


def subset_tag(face, codes) -> bytes:
    """Six capitals from a digest of the face (its name, version and glyph count) and the subset's characters in
    code order."""
    key = repr((face.name, getattr(face, "uniqueFontID", ""), face.numGlyphs, tuple(codes))).encode(
        "utf-8"
    )
    number = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
    letters = bytearray()
    for _ in range(6):
        number, letter = divmod(number, 26)
        letters.append(65 + letter)
    return bytes(letters)


_ADD_OBJECTS = ttfonts.TTFont.addObjects


def _add_objects(self, doc) -> None:
    state = self.state.get(doc)
    _TAGS.tags = (
        [subset_tag(self.face, codes) for codes in state.subsets] if state is not None else None
    )
    try:
        _ADD_OBJECTS(self, doc)
    finally:
        _TAGS.tags = None


ttfonts.SUBSETN = _subset_tag
ttfonts.TTFont.addObjects = _add_objects

INITIAL_FONT = "sans"  # a registered TrueType face, so the PDF never names an unembedded Helvetica


def new_canvas(
    buffer: io.BytesIO,
    width: float,
    height: float,
    *,
    title: str,
    subject: str,
    lang: str,
    keywords: str = "",
) -> Canvas:
    """`keywords` name what a press file holds ("printshop:cards", "printshop:booklet", ...), which
    `printshop preflight` reads to know what to check."""
    canvas = Canvas(
        buffer,
        pagesize=(width, height),
        invariant=1,
        pageCompression=1,
        initialFontName=INITIAL_FONT,
        initialFontSize=8,
        lang=lang,
    )
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("printshop")
    canvas.setCreator("printshop")
    if keywords:
        canvas.setKeywords(keywords)
    from printshop.render.replay import remember_page_streams

    remember_page_streams(
        canvas
    )  # in a session: each page stream compressed and formatted once per content
    return canvas
