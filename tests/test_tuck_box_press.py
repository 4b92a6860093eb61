"""Issue 50, item 7: a deck's tuck box as a print shop's press page. The net with the shop's bleed
round its outer cut (TrimBox the net, BleedBox the page), the wrap filling the bleed, the die line
as the profile's two spot colours (Separation spaces) set to overprint, the deck's name in each
language, the PDF/X output intent; qpdf, Ghostscript and `printshop preflight` pass it. Preflight
counts no ink for a die line and reports one that knocks out the art; a profile's `dieline` names
the spot colours (a bad name is said at its line)."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from reportlab.lib.colors import CMYKColor, CMYKColorSep
from reportlab.pdfgen.canvas import Canvas

from printshop.checks.preflight import preflight
from printshop.cli import main
from printshop.diagnostics import Report, StageFailed
from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.test_tuck_box import MM, NAMES, _game

GS = shutil.which("gs")
BOXMAKER = """\
label: "Box Maker"
files: pdf-per-deck
bleed: 3mm
safe: 3mm
colour: {space: cmyk, ink_limit: 280}
dieline: {cut: Die, crease: Score, crease_dashed: true, width: 0.5pt, glue_flap: printed}
"""


@pytest.fixture(scope="module")
def press(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tuckbox-press") / "games"
    data = _game(root)
    (data / "print" / "profiles").mkdir(parents=True, exist_ok=True)
    (data / "print" / "profiles" / "boxmaker.yaml").write_text(BOXMAKER, encoding="utf-8")
    cwd = Path.cwd()
    try:
        os.chdir(root)
        assert main(["i18n", "sync", "fr", "market"]) == 0
        assert main(["validate", "--strict"]) == 0
        assert main(["build", "--quiet", "--jobs", "1", "--target", "shop"]) == 0
    finally:
        os.chdir(cwd)
    return root / "output" / "market"


def _file(press: Path, lang: str, profile: str) -> Path:
    return press / lang / "press" / profile / f"market-{lang}-market-tuckbox.pdf"


def _spots(page) -> dict[str, object]:
    """The page's Separation colour spaces by colorant name."""
    spaces = page["/Resources"].get("/ColorSpace", {})
    return {
        str(space[1])[1:]: space
        for space in (value.get_object() for value in spaces.values())
        if str(space[0]) == "/Separation"
    }


@pytest.mark.parametrize(
    "lang,profile,cut,crease",
    [
        ("en", "drivethrucards", "CutContour", "Crease"),
        ("fr", "meinspiel", "CutContour", "Crease"),
        ("fr", "boxmaker", "Die", "Score"),
    ],
)
def test_the_press_page_has_its_boxes_its_die_line_and_the_decks_name(
    press, lang, profile, cut, crease
):
    path = _file(press, lang, profile)
    reader = PdfReader(path)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    bleed = 0.125 * 72 if profile == "drivethrucards" else 3 * MM
    media, trim, bleed_box = page.mediabox, page.trimbox, page.bleedbox
    assert [round(float(v), 2) for v in bleed_box] == [round(float(v), 2) for v in media]
    assert abs(float(trim.left) - bleed) < 0.01 and abs(float(trim.bottom) - bleed) < 0.01
    assert abs(float(media.right) - float(trim.right) - bleed) < 0.01
    assert abs(float(media.top) - float(trim.top) - bleed) < 0.01
    # the net: 2 × (63 + 2.35) + 2 × (45 × 0.3 + 2.35) + 8 mm wide
    assert abs(float(trim.width) / MM - (2 * 65.35 + 2 * 15.85 + 8)) < 0.01
    spots = _spots(page)
    assert set(spots) == {cut, crease}, spots
    assert all(str(space[2]) == "/DeviceCMYK" for space in spots.values())
    # every stroke in a spot colour is made with overprint on
    contents = page.get_contents().get_data().decode("latin-1")
    states = page["/Resources"]["/ExtGState"]
    overprinting = {name for name, state in states.items() if state.get_object().get("/OP")}
    names = _resource_names(page)
    stroked = re.findall(r"/(\S+) CS\b", contents)
    assert [names[crease], names[cut]] == stroked, stroked  # the creases, then the cut
    before = contents[: contents.index(f"/{stroked[0]} CS")]
    assert any(f"{name} gs" in before for name in overprinting), before[-300:]
    text = page.extract_text()
    assert text.count(NAMES[lang]) == 5 and "Market" in text, text
    if profile == "boxmaker":
        assert "[4 3] 0 d" in contents and "\n.5 w" in contents  # dashed creases, 0.5 pt
    with pikepdf.open(path) as pdf:
        intents = pdf.Root.get("/OutputIntents")
        assert (intents is not None) == (profile != "boxmaker")
        assert (
            list(pdf.check_pdf_syntax() if hasattr(pdf, "check_pdf_syntax") else pdf.check()) == []
        )


def _resource_names(page) -> dict[str, str]:
    """Each Separation's colorant name: its resource name (without the slash)."""
    spaces = page["/Resources"]["/ColorSpace"]
    return {
        str(value.get_object()[1])[1:]: str(name)[1:]
        for name, value in spaces.items()
        if str(value.get_object()[0]) == "/Separation"
    }


@pytest.mark.parametrize("lang,profile", [("en", "drivethrucards"), ("fr", "boxmaker")])
def test_the_wrap_fills_the_bleed(press, lang, profile):
    """Rasterised: the band between the trim and the page's edge, left of the back panel and under
    the bottom's tuck flap, is the wrap's colour (the back face's background, as 2 mm inside the
    trim), not paper; outside the net and its bleed stays paper."""
    path = _file(press, lang, profile)
    page = pdfium.PdfDocument(str(path))[0]
    scale = 150 / 72
    image = page.render(scale=scale).to_pil().convert("RGB")
    width, height = image.size
    bleed = float(PdfReader(path).pages[0].trimbox.left) * scale
    wrap = image.getpixel((int(bleed + 2 * MM * scale), height // 2))
    assert sum(wrap) < 450, wrap  # a dark colour, not paper

    def is_wrap(x: int, y: int) -> bool:
        return all(abs(a - b) <= 3 for a, b in zip(image.getpixel((x, y)), wrap))

    # left of the back panel: a column in the bleed, along the walls
    assert all(is_wrap(int(bleed / 2), y) for y in range(int(height * 0.35), int(height * 0.6), 7))
    # under the bottom tuck flap (the middle of the front's column), in the bleed
    assert is_wrap(int(width * 0.6), height - int(bleed / 2) - 1)
    # above the front's top, right of the lid: outside the net and its bleed
    assert min(image.getpixel((int(width * 0.6), int(bleed / 2)))) > 240


@pytest.mark.parametrize(
    "lang,profile,bare", [("en", "drivethrucards", True), ("fr", "boxmaker", False)]
)
def test_the_glue_flap_is_bare_unless_the_shop_wants_it_printed(press, lang, profile, bare):
    """Glue holds on bare board: by default the glue flap (the net's right-most 8 mm) prints no
    ink from 1 mm past its fold to the page's edge, and carries no word; the side wall next to it
    keeps the wrap up to that millimetre. A profile with `dieline.glue_flap: printed` (boxmaker)
    dresses it as the kit's page does: the must-catch for a check that could pass on white."""
    path = _file(press, lang, profile)
    page = pdfium.PdfDocument(str(path))[0]
    scale = 300 / 72
    image = page.render(scale=scale).to_pil().convert("RGB")
    width, height = image.size
    trim = PdfReader(path).pages[0].trimbox
    right = float(trim.right) * scale  # the glue flap's outer cut
    fold = right - 8 * MM * scale
    middle = height // 2
    flap = [image.getpixel((int(x), middle)) for x in (fold + 2 * MM * scale, right - 2 * MM * scale,
                                                       right + 1.5 * MM * scale)]  # fmt: skip
    wall = image.getpixel((int(fold - 2 * MM * scale), middle))
    assert sum(wall) < 600, wall  # the side wall is dressed
    assert image.getpixel((int(fold + 0.5 * MM * scale), middle)) == wall  # the wrap's overlap
    if bare:
        assert all(min(pixel) > 250 for pixel in flap), flap
    else:
        assert all(abs(a - b) <= 3 for pixel in flap[:2] for a, b in zip(pixel, wall)), flap
    words = PdfReader(path).pages[0].extract_text()
    assert ("glue" in words or "colle" in words) != bare, words


def test_the_press_pages_pass_preflight_qpdf_and_ghostscript(press):
    root = press.parent.parent
    files = {
        profile: _file(press, lang, profile)
        for lang, profile in (("en", "drivethrucards"), ("en", "meinspiel"), ("fr", "boxmaker"))
    }
    cwd = Path.cwd()
    try:
        os.chdir(root)
        for profile, path in files.items():
            assert main(["preflight", str(path), "--profile", profile]) == 0, profile
    finally:
        os.chdir(cwd)
    for path in files.values():
        run = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
    if GS is not None:
        run = subprocess.run(
            [GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-o", "/dev/null",
             "-sDEVICE=nullpage", *map(str, files.values())],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert run.returncode == 0 and not (run.stdout + run.stderr).strip(), run.stderr


def test_the_manifest_lists_the_tuck_box_and_image_shops_leave_it_out(press):
    import json

    manifest = json.loads((press / "en" / "press" / "drivethrucards" / "manifest.json").read_text())
    entry = next(item for item in manifest["files"] if item["product"] == "tuck-box")
    assert entry["file"] == "market-en-market-tuckbox.pdf" and entry["items"] == ["market"]
    assert entry["dieline"] == {"cut": "CutContour", "crease": "Crease"}
    images = json.loads((press / "en" / "press" / "thegamecrafter" / "manifest.json").read_text())
    assert {"kind": "tuck box", "id": "market"} == {
        key: value for key, value in images["left_out"][0].items() if key in ("kind", "id")
    }
    assert not list((press / "en" / "press" / "thegamecrafter").glob("*tuckbox*"))


# --- preflight: a die line prints no ink, and must overprint
# -------------------------------------------
def _art_and_line(spot: str, overprint: bool) -> bytes:
    """A page of 230 % CMYK art with a 2 pt line of spot colour `spot` across it (its alternate
    100 % magenta), with TrimBox and BleedBox 1/8 in apart (drivethrucards' bleed)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(100 * MM, 100 * MM))
    canvas.setTrimBox((9, 9, 100 * MM - 9, 100 * MM - 9))
    canvas.setBleedBox((0, 0, 100 * MM, 100 * MM))
    canvas.setFillColor(CMYKColor(0.7, 0.6, 0.5, 0.5))
    canvas.rect(0, 0, 100 * MM, 100 * MM, stroke=0, fill=1)
    canvas.setStrokeOverprint(overprint)
    canvas.setStrokeColor(CMYKColorSep(0, 1, 0, 0, spotName=spot, density=1))
    canvas.setLineWidth(2)
    canvas.line(10 * MM, 50 * MM, 90 * MM, 50 * MM)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


@pytest.fixture(scope="module")
def drivethrucards():
    return load_project(DEFAULT_DATA_DIR, games=[]).profiles["drivethrucards"]


def _messages(tmp_path, spot: str, overprint: bool, profile) -> list[str]:
    path = tmp_path / f"{spot}-{overprint}.pdf"
    path.write_bytes(_art_and_line(spot, overprint))
    found = preflight(path, profile.model_copy(update={"pdfx": None}))
    # (ReportLab's canvas names Helvetica, unembedded, even on a page without text)
    return [p.message for p in found if not p.warning and not p.message.startswith("font ")]


def test_preflight_reports_a_die_line_that_knocks_out_the_art(tmp_path, drivethrucards):
    found = _messages(tmp_path, "CutContour", False, drivethrucards)
    assert any("die line" in m and "knocks out" in m and "overprint" in m for m in found), found


def test_preflight_counts_no_ink_for_an_overprinted_die_line(tmp_path, drivethrucards):
    assert _messages(tmp_path, "CutContour", True, drivethrucards) == []
    assert _messages(tmp_path, "Crease", True, drivethrucards) == []


def test_preflight_still_counts_an_overprinted_spot_that_prints(tmp_path, drivethrucards):
    # 230 % beneath and 100 % of a gold ink over it: 330 %, over drivethrucards' 240 %
    found = _messages(tmp_path, "Gold", True, drivethrucards)
    assert any("total ink" in m for m in found), found


# --- the profile's dieline, bad and good
# -------------------------------------------------------------------
def _profile_errors(root: Path, dieline: str) -> list:
    data = _game(root)
    (data / "print" / "profiles").mkdir(parents=True, exist_ok=True)
    text = BOXMAKER.replace(
        "dieline: {cut: Die, crease: Score, crease_dashed: true, width: 0.5pt, glue_flap: printed}",
        dieline,
    )
    (data / "print" / "profiles" / "boxmaker.yaml").write_text(text, encoding="utf-8")
    try:
        load_project(data, report=Report())
    except StageFailed as failed:
        return list(failed.report.errors)
    return []


@pytest.mark.parametrize(
    "dieline,words",
    [
        ("dieline: {cut: Cut Contour}", ["dieline.cut"]),
        ("dieline: {crease: '#fold'}", ["dieline.crease"]),
        ("dieline: {cut_alternate: [0, 100, 0]}", ["dieline.cut_alternate"]),
        ("dieline: {width: 0pt}", ["dieline.width"]),
        ("dieline: {glue_flap: varnished}", ["dieline.glue_flap"]),
        ("dieline: {glue_overlap: -1mm}", ["dieline.glue_overlap"]),
    ],
)
def test_a_bad_dieline_is_said_at_its_line(tmp_path, dieline, words):
    errors = _profile_errors(tmp_path / "games", dieline)
    assert errors, dieline
    for error in errors:
        assert error.location.path.endswith("boxmaker.yaml"), error.format()
        assert error.location.line == 6, error.format()
        for word in words:
            assert word in error.message, error.format()


def test_a_good_dieline_passes(tmp_path):
    assert _profile_errors(tmp_path / "games", "dieline: {cut: Thru-cut, crease: Fold_1}") == []
    assert (
        _profile_errors(tmp_path / "more", "dieline: {glue_flap: bare, glue_overlap: 1.5mm}") == []
    )
