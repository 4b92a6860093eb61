"""Font files ReportLab cannot read as they are, made into TrueType on load: OpenType fonts with
PostScript outlines (`.otf`, CFF: most commercial fonts), and WOFF and WOFF2 web fonts.

ReportLab embeds and subsets TrueType outlines only. A CFF font's cubic curves are turned into
TrueType's quadratic ones with fontTools (its cu2qu conversion, within one font unit of the
original curve, contours reversed to TrueType's direction); the horizontal metrics keep their
advances, each glyph's left side bearing becomes its new outline's left edge, and the font's
own dates are kept, so the same file always gives the same bytes (byte-identical PDFs). A WOFF
or WOFF2 file is unwrapped (WOFF2 through Brotli) and, when its outlines are CFF, converted too.

The result is kept in the user's cache folder (`fonts/`), by a digest of the file's bytes and
of fontTools' version: the conversion of a large font takes a second, its reading back a few
milliseconds. A font collection (`.ttc`, `.otc`) and a variable CFF2 font are refused with what
to do, as is a file fontTools cannot read.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

TRUETYPE = (b"\x00\x01\x00\x00", b"true")
CONVERTED = {b"OTTO": "OpenType (PostScript outlines)", b"wOFF": "WOFF", b"wOF2": "WOFF2"}
COLLECTIONS = (b"ttcf",)


class FontFileError(ValueError):
    """A font file that cannot be made into TrueType; the message says why and what to do."""


def needs_conversion(data: bytes) -> bool:
    """Whether the file's bytes are a font format this module converts (not TrueType)."""
    return data[:4] in CONVERTED or data[:4] in COLLECTIONS


def truetype(data: bytes, cache_folder: Path | None) -> bytes:
    """TrueType bytes for a font file's `data` (OTF with CFF outlines, WOFF, WOFF2), from the cache
    folder where this file was converted before."""
    import fontTools

    key = hashlib.blake2b(data, digest_size=20, person=b"printshop-otf")
    key.update(f"\n{fontTools.version}\n1".encode())
    entry = cache_folder / f"{key.hexdigest()}.ttf" if cache_folder is not None else None
    if entry is not None:
        try:
            kept = entry.read_bytes()
        except OSError:
            kept = b""
        if kept[:4] in TRUETYPE:
            return kept
    converted = _convert(data)
    if entry is not None:
        from printshop.project.paths import keep_newest
        from printshop.write.commit import write_atomically

        try:
            write_atomically(entry, converted)
            keep_newest(entry.parent, "*.ttf", 32)
        except OSError:  # a full or read-only cache costs the next run the conversion only
            pass
    return converted


def _convert(data: bytes) -> bytes:
    from fontTools.ttLib import TTFont, TTLibError

    if data[:4] in COLLECTIONS:
        raise FontFileError(
            "a font collection (several fonts in one file): printshop reads one font per file"
        )
    try:
        font = TTFont(io.BytesIO(data), recalcTimestamp=False, lazy=False)
    except (TTLibError, OSError, ValueError, KeyError, ImportError) as error:
        raise FontFileError(f"fontTools cannot read it ({error})") from error
    font.flavor = None  # WOFF and WOFF2 unwrapped: the tables as a plain font holds them
    if "CFF2" in font:
        raise FontFileError(
            "a variable font with CFF2 outlines: export a static instance (one weight) as .otf or .ttf"
        )
    if "CFF " in font:
        try:
            _quadratic_outlines(font)
        except Exception as error:  # noqa: BLE001 - a damaged charstring: not a usable font
            raise FontFileError(f"its PostScript outlines cannot be converted ({error})") from error
    elif "glyf" not in font:
        raise FontFileError("it has neither TrueType nor PostScript outlines")
    out = io.BytesIO()
    font.save(out, reorderTables=True)
    return out.getvalue()


def _quadratic_outlines(font) -> None:
    """Replace a font's CFF table by glyf and loca tables drawing the same glyphs in quadratic
    curves, with the tables TrueType outlines need (maxp 1.0, post without glyph names' CFF)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    drawn = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        # a tolerance of one font unit: invisible at any printed size (a 1000-unit em at 72 pt
        # makes a unit 0.025 mm); TrueType winds outer contours clockwise, PostScript the other way
        drawn[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    metrics = font["hmtx"].metrics
    for name, glyph in glyphs.items():
        glyph.recalcBounds(glyf)
        advance = metrics[name][0]
        metrics[name] = (advance, getattr(glyph, "xMin", 0))
    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.numGlyphs = len(order)
    for field in (
        "maxZones",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
        "maxPoints",
        "maxContours",
        "maxCompositePoints",
        "maxCompositeContours",
        "maxComponentDepth",
    ):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    font["maxp"] = maxp  # (its point and contour counts are worked out when the font is saved)
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
