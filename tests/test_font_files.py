"""Issue 56, item 2: fonts as publishers have them. An OpenType font with PostScript outlines (.otf,
CFF), a WOFF and a WOFF2 file are made TrueType on load (fontTools, cu2qu) and cached; the PDF
embeds a subset as for a .ttf, prints the same glyphs at the same advances, and builds
byte-identically; a file that cannot be converted is a diagnostic at the data that names it.

The .otf files are made here from printshop's own Noto Sans (its outlines drawn as cubic CFF
charstrings with fontTools' FontBuilder), so the tests need no font from the system."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pypdfium2
import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.ttLib import TTFont as ToolsFont

from printshop.pipeline.build import build, check
from printshop.typeset.font_files import FontFileError, needs_conversion, truetype
from tests.conftest import REPO
from tests.pdfinspect import page_texts

NOTO = REPO / "printshop" / "fonts" / "NotoSans-Regular.ttf"
CHARACTERS = (
    "".join(chr(c) for c in range(32, 127)) + "ÀÂÇÉÈÊËÎÏÔÙÛÜàâçéèêëîïôùûüœŒ’«»–—…\u00a0\u202f·×"
)


@pytest.fixture(scope="module")
def otf_bytes() -> bytes:
    """Noto Sans, cut to the characters a French and English kit prints, as a CFF-flavoured
    OpenType font: every glyph drawn through a cubic (T2) pen."""
    source = ToolsFont(str(NOTO))
    cmap = {code: name for code, name in source.getBestCmap().items() if chr(code) in CHARACTERS}
    order = [".notdef", *sorted(set(cmap.values()) - {".notdef"})]
    glyphs = source.getGlyphSet()
    charstrings, metrics = {}, {}
    for name in order:
        advance = source["hmtx"][name][0]
        pen = T2CharStringPen(advance, glyphs)
        glyphs[name].draw(pen)
        charstrings[name] = pen.getCharString()
        metrics[name] = (advance, source["hmtx"][name][1])
    builder = FontBuilder(source["head"].unitsPerEm, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap(cmap)
    builder.setupCFF("TestSansCFF-Regular", {"FullName": "Test Sans CFF"}, charstrings, {})
    builder.setupHorizontalMetrics(metrics)
    hhea = source["hhea"]
    builder.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent)
    builder.setupNameTable({"familyName": "Test Sans CFF", "styleName": "Regular"})
    os2 = source["OS/2"]
    builder.setupOS2(
        sTypoAscender=os2.sTypoAscender,
        sTypoDescender=os2.sTypoDescender,
        usWinAscent=os2.usWinAscent,
        usWinDescent=os2.usWinDescent,
        sCapHeight=getattr(os2, "sCapHeight", 714),
        fsType=0,
    )
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    data = out.getvalue()
    assert data[:4] == b"OTTO"
    return data


def _flavoured(data: bytes, flavor: str) -> bytes:
    font = ToolsFont(io.BytesIO(data))
    font.flavor = flavor
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def test_a_cff_font_becomes_truetype_with_the_same_characters_and_advances(otf_bytes):
    assert needs_conversion(otf_bytes) and not needs_conversion(NOTO.read_bytes())
    converted = truetype(otf_bytes, None)
    assert converted[:4] == b"\x00\x01\x00\x00"
    made, original = ToolsFont(io.BytesIO(converted)), ToolsFont(io.BytesIO(otf_bytes))
    assert "glyf" in made and "CFF " not in made
    assert made.getBestCmap() == original.getBestCmap()
    for name in ("A", "eacute", "quoteright"):
        assert made["hmtx"][name][0] == original["hmtx"][name][0]
        assert made["glyf"][name].numberOfContours > 0


def test_the_conversion_is_the_same_bytes_every_time_and_is_cached(otf_bytes, tmp_path):
    first = truetype(otf_bytes, tmp_path)
    assert [p.suffix for p in tmp_path.iterdir()] == [".ttf"]
    assert truetype(otf_bytes, tmp_path) == first == truetype(otf_bytes, None)
    # a damaged entry in the cache is converted again, not trusted
    next(tmp_path.iterdir()).write_bytes(b"garbage")
    assert truetype(otf_bytes, tmp_path) == first


@pytest.mark.parametrize("flavor", ["woff", "woff2"])
def test_web_fonts_are_unwrapped_and_converted(otf_bytes, flavor):
    plain = truetype(_flavoured(NOTO.read_bytes(), flavor), None)
    assert plain[:4] == b"\x00\x01\x00\x00" and "glyf" in ToolsFont(io.BytesIO(plain))
    cff = ToolsFont(io.BytesIO(truetype(_flavoured(otf_bytes, flavor), None)))
    direct = ToolsFont(io.BytesIO(truetype(otf_bytes, None)))
    assert cff.getBestCmap() == direct.getBestCmap()
    for name in ("A", "g", "eacute"):
        drawn = cff["glyf"][name].getCoordinates(cff["glyf"])[0]
        assert list(drawn) == list(direct["glyf"][name].getCoordinates(direct["glyf"])[0])


def test_a_collection_and_an_unreadable_file_are_refused_with_why():
    with pytest.raises(FontFileError, match="collection"):
        truetype(b"ttcf" + b"\0" * 60, None)
    with pytest.raises(FontFileError, match="cannot read|neither"):
        truetype(b"OTTO" + b"\0" * 60, None)


# --- in a project --------------------------------------------------------------------------------
def _with_font(data: Path, file_name: str, data_bytes: bytes) -> Path:
    """The project's sans family set in `file_name` (every face the same file)."""
    (data / "fonts").mkdir(exist_ok=True)
    (data / "fonts" / file_name).write_bytes(data_bytes)
    fonts = data / "print" / "fonts.yaml"
    fonts.write_text(
        "families:\n  sans:\n"
        + "".join(
            f"    {variant}: {file_name}\n"
            for variant in ("regular", "bold", "italic", "bold_italic")
        ),
        encoding="utf-8",
    )
    return fonts


@pytest.mark.parametrize("name, flavor", [("Test.otf", None), ("Test.woff2", "woff2")])
def test_a_kit_set_in_an_otf_builds_embeds_it_and_builds_the_same_bytes_again(
    data_copy, tmp_path, otf_bytes, name, flavor
):
    _with_font(data_copy, name, _flavoured(otf_bytes, flavor) if flavor else otf_bytes)
    first = build(data_copy, tmp_path / "one", games=["comrade"], langs=["fr"], papers=["a4"])
    assert not first.report.has_errors, first.report.errors
    cards = tmp_path / "one" / "comrade" / "fr" / "comrade-fr-cards-a4.pdf"
    text = " ".join(page_texts(cards))
    assert "INFORMATEUR" in text.upper()
    import pikepdf

    with pikepdf.open(cards) as pdf:
        embedded = [
            (str(obj.BaseFont), "/FontFile2" in obj.FontDescriptor)
            for obj in pdf.objects
            if isinstance(obj, pikepdf.Dictionary)
            and obj.get("/Type") == "/Font"
            and "Test-Sans-CFF" in str(obj.get("/BaseFont", ""))
        ]
    # a subset (a tag of six capitals before the name) of TrueType outlines, embedded
    assert embedded and all(name[7] == "+" and file for name, file in embedded), embedded
    again = build(
        data_copy, tmp_path / "two", games=["comrade"], langs=["fr"], papers=["a4"], force=True
    )
    assert again.rendered_jobs and not again.report.has_errors
    assert (
        tmp_path / "two" / cards.relative_to(tmp_path / "one")
    ).read_bytes() == cards.read_bytes()


def test_the_converted_glyphs_print_as_the_original_ones(data_copy, tmp_path, otf_bytes):
    """The same page set in Noto Sans as a .ttf and as the .otf made from it: the pixels agree
    (the conversion is within a font unit, the advances are the same)."""
    pages = []
    for name, font in (("Noto.ttf", NOTO.read_bytes()), ("Noto.otf", otf_bytes)):
        out = tmp_path / name
        shutil.rmtree(data_copy / "fonts", ignore_errors=True)
        _with_font(data_copy, name, font)
        result = build(data_copy, out, games=["comrade"], langs=["en"], papers=["a4"])
        assert not result.report.has_errors
        pdf = pypdfium2.PdfDocument(out / "comrade" / "en" / "comrade-en-cards-a4.pdf")
        pages.append(pdf[0].render(scale=100 / 72).to_pil().convert("L"))
    from PIL import ImageChops

    difference = ImageChops.difference(*pages)
    histogram = difference.histogram()
    differing = sum(histogram[40:])
    assert differing < 0.002 * pages[0].width * pages[0].height, differing


def test_an_otf_that_cannot_be_converted_is_said_at_fonts_yaml(data_copy, otf_bytes):
    fonts = _with_font(data_copy, "Broken.otf", otf_bytes[:2000])
    report, _ = check(data_copy, games=["comrade"], langs=["en"], variant=None)
    found = [d for d in report.items if "Broken.otf" in d.message]
    assert found and all(d.code == "wrong-type" for d in found)
    assert found[0].location.path.endswith("fonts.yaml") and found[0].location.line > 1
    assert "internal" not in {d.code for d in report.items}
    assert "cannot be used" in found[0].message and ".otf or .ttf" in found[0].hint
    assert fonts.is_file()
