"""The TrueType faces kept between runs (printshop/typeset/fontcache.py): a face from the cache is
the face ReportLab reads from the file, a kit drawn with it is the kit drawn without, and the cache
never gives a face for other bytes than its own."""

from __future__ import annotations

import pickle
import shutil
from pathlib import Path

import pytest
import reportlab
from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import TTFont

from printshop import memo
from printshop.pipeline.build import build
from printshop.project.paths import BUNDLED_FONTS_DIR, DEFAULT_DATA_DIR
from printshop.typeset import fontcache, fonts

FONT_FILES = sorted(BUNDLED_FONTS_DIR.glob("*.ttf"))
# ReportLab's own Vera: 2048 units to the em (printshop's Noto fonts have 1000), so faces scaled by
# ReportLab
VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PRINTSHOP_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "fonts"


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The font files ReportLab reads (a face made from the file, not from the cache)."""
    read, real = [], ttfonts.TTFontFace.__init__

    def counted(self, filename, *args, **kwargs):
        read.append(Path(filename).name)
        real(self, filename, *args, **kwargs)

    monkeypatch.setattr(ttfonts.TTFontFace, "__init__", counted)
    return read


def _attributes(font: TTFont) -> dict:
    # (less the scale, made again, and makeSubset, which printshop remembers for each face it reads)
    face = {
        key: value
        for key, value in font.face.__dict__.items()
        if key not in ("_pdfScale", "makeSubset")
    }
    names = {
        key: value.ustr for key, value in face.items() if isinstance(value, ttfonts.TTFNameBytes)
    }
    return {
        "font": sorted(set(font.__dict__) - {"face"}),
        "face": face,
        "types": {k: type(v) for k, v in face.items()},
        "names": names,
    }


def test_a_face_from_the_cache_is_the_face_reportlab_reads(cache, parses):
    files = [*FONT_FILES, VERA]
    assert len(FONT_FILES) >= 4 and TTFont("vera", str(VERA)).face.unitsPerEm != 1000
    parses.clear()
    first = [fontcache.read_font(f"first-{path.stem}", path) for path in files]
    assert sorted(parses) == sorted(path.name for path in files)  # read from the files, then kept
    assert len(list(cache.glob("*.pickle"))) == len(files)
    parses.clear()
    again = [fontcache.read_font(f"again-{path.stem}", path) for path in files]
    assert parses == []  # every face from the cache
    fresh = [TTFont(f"fresh-{path.stem}", str(path)) for path in files]
    for kept, read in zip(again, fresh):
        assert _attributes(kept) == _attributes(read), read.face.filename
        for units in (0, 1, 7, 250, 1000, 2048, -317):
            assert kept.face._pdfScale(units) == read.face._pdfScale(units)
        assert kept.stringWidth("Élection du Président — « 1953 »", 9.5) == read.stringWidth(
            "Élection du Président — « 1953 »", 9.5
        )
    assert [font.fontName for font in first] == [f"first-{path.stem}" for path in files]


def _reread_fonts() -> None:
    """Forget which files the process registered: the next check registers every face again."""
    fonts._registered.clear()


def test_a_kit_drawn_with_faces_from_the_cache_is_the_kit_drawn_without(
    cache, parses, tmp_path, monkeypatch
):
    settings = dict(games=["comrade"], langs=["fr"], papers=["a4"], jobs=1)
    _reread_fonts()
    assert not build(DEFAULT_DATA_DIR, tmp_path / "filling", **settings).report.has_errors
    assert parses and list(cache.glob("*.pickle"))
    parses.clear()
    _reread_fonts()
    kept = build(DEFAULT_DATA_DIR, tmp_path / "kept", **settings)
    assert parses == [] and not kept.report.has_errors  # every face from the cache
    monkeypatch.setenv("PRINTSHOP_CACHE", "off")
    _reread_fonts()
    read = build(DEFAULT_DATA_DIR, tmp_path / "read", **settings)
    assert parses and not read.report.has_errors
    assert [o.path for o in kept.outputs] == [o.path for o in read.outputs] and len(
        read.outputs
    ) >= 3
    for ours, theirs in zip(kept.outputs, read.outputs):
        assert ours.data == theirs.data, ours.path


def test_a_font_file_saved_over_is_read_again(cache, parses, tmp_path):
    regular, bold = (
        next(p for p in FONT_FILES if p.name == name)
        for name in ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf")
    )
    path = tmp_path / "house.ttf"
    shutil.copyfile(regular, path)
    assert (
        fontcache.read_font("house-1", path).face.name.ustr
        == TTFont("r", str(regular)).face.name.ustr
    )
    shutil.copyfile(bold, path)  # the same name, other bytes: never the regular face from the cache
    parses.clear()
    assert (
        fontcache.read_font("house-2", path).face.name.ustr == TTFont("b", str(bold)).face.name.ustr
    )
    assert parses.count("house.ttf") == 1


@pytest.mark.parametrize(
    "content",
    [b"", b"\x80\x05truncated", pickle.dumps(["a", "list"]), pickle.dumps({"unitsPerEm": "2048"})],
)
def test_an_entry_that_cannot_be_used_is_read_again_from_the_font(cache, parses, content):
    path = FONT_FILES[0]
    fontcache.read_font("before", path)
    [entry] = cache.glob("*.pickle")
    entry.write_bytes(content)
    parses.clear()
    font = fontcache.read_font("after", path)
    assert (
        parses == [path.name]
        and font.face.charToGlyph == TTFont("fresh", str(path)).face.charToGlyph
    )
    assert (
        pickle.loads(entry.read_bytes())["unitsPerEm"] == font.face.unitsPerEm
    )  # and written again


def test_a_file_that_is_not_a_font_is_refused_as_without_the_cache_and_never_kept(cache, tmp_path):
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(FONT_FILES[0].read_bytes()[:5000])
    with pytest.raises(Exception) as without:
        TTFont("plain", str(broken))
    with pytest.raises(type(without.value)):
        fontcache.read_font("cached", broken)
    assert not list(cache.glob("*.pickle"))


def test_no_cache_when_it_is_turned_off(monkeypatch, tmp_path, parses):
    monkeypatch.setenv("PRINTSHOP_CACHE", "off")
    fontcache.read_font("one", FONT_FILES[0])
    fontcache.read_font("two", FONT_FILES[0])
    assert parses == [FONT_FILES[0].name] * 2


@pytest.mark.parametrize("kept", [True, False], ids=["cache", "cache-off"])
def test_a_subset_is_made_once_per_file_and_glyphs_and_is_the_subset_reportlab_makes(
    kept, cache, tmp_path, monkeypatch
):
    """A PDF embeds the glyphs it sets of each face; the same file and glyphs are subset once per
    process, whichever name the face was registered under, and the bytes are ReportLab's own."""
    if not kept:
        monkeypatch.setenv("PRINTSHOP_CACHE", "off")
    made, real = [], ttfonts.TTFontFace.makeSubset

    def counted(self, subset):
        made.append((Path(self.filename).name, tuple(subset)))
        return real(self, subset)

    monkeypatch.setattr(ttfonts.TTFontFace, "makeSubset", counted)
    memo.clear("font_subsets")
    regular, bold = FONT_FILES[0], FONT_FILES[1]
    copy = tmp_path / "elsewhere.ttf"  # the same bytes at another path: the same subsets
    shutil.copyfile(regular, copy)
    glyphs, others = [ord(c) for c in "Camarade Élu"], [ord(c) for c in "Kremlin"]
    first = fontcache.read_font("one", regular).face.makeSubset(glyphs)
    assert first == real(TTFont("plain", str(regular)).face, glyphs) and len(made) == 1
    assert fontcache.read_font("two", regular).face.makeSubset(glyphs) == first
    assert fontcache.read_font("three", copy).face.makeSubset(glyphs) == first and len(made) == 1
    assert fontcache.read_font("four", regular).face.makeSubset(others) != first and len(made) == 2
    bolder = fontcache.read_font("five", bold).face.makeSubset(glyphs)
    assert bolder != first and len(made) == 3 and made[-1] == (bold.name, tuple(glyphs))
