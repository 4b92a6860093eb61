"""Press files for print shops: profiles as data, CMYK, TrimBox and BleedBox, page order, preflight."""
from __future__ import annotations

import io

import pypdfium2
import pytest
from pypdf import PdfReader
from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from printshop.build import build
from printshop.cli import main
from printshop.colour import rgb_to_cmyk
from printshop.loader import DEFAULT_DATA_DIR, load_project
from printshop.preflight import preflight
from printshop.units import mm
from tests.pdfinspect import page_drawing


@pytest.fixture(scope="module")
def press(tmp_path_factory):
    out = tmp_path_factory.mktemp("press")
    result = build(DEFAULT_DATA_DIR, out, games=["comrade", "kremlin"], target="shop",
                   profiles=["eu-3mm", "drivethrucards"])
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out


@pytest.fixture(scope="module")
def profiles():
    return load_project(DEFAULT_DATA_DIR, games=[]).profiles


def test_every_press_file_passes_preflight(press, profiles):
    files = list(press.rglob("*.pdf"))
    assert len(files) >= 16
    for path in files:
        profile = profiles[path.parent.name]
        assert preflight(path, profile) == [], path


def test_drivethrucards_pages_are_back_then_front_at_card_size_plus_bleed(press):
    reader = PdfReader(press / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-cards.pdf")
    assert len(reader.pages) == 2 * 18
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx(mm(63) + 2 * 9, abs=0.01)  # 1/8 in = 9 pt a side
    assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 9 + mm(63), 9 + mm(88)], abs=0.01)
    forms = [page_drawing(reader, i)[0][0].name for i in range(len(reader.pages))]
    backs = forms[0:6:2]
    assert len(set(backs)) == 1 and backs[0] not in forms[1:6:2]  # the common back leads each pair


def test_eu_profile_is_front_then_back_with_3mm_bleed(press):
    reader = PdfReader(press / "comrade" / "fr" / "press" / "eu-3mm" / "comrade-fr-poker-eu.pdf")
    forms = [page_drawing(reader, i)[0][0].name for i in range(4)]
    assert forms[1] == forms[3] and forms[0] != forms[1]  # front, common back, front, common back
    assert float(reader.pages[0].mediabox.height) == pytest.approx(mm(88 + 6), abs=0.01)


def test_cmyk_press_files_set_body_text_in_pure_black(press):
    reader = PdfReader(press / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-cards.pdf")
    data = b"".join(x.get_object().get_data() for page in reader.pages[:2]
                    for x in page["/Resources"]["/XObject"].values())
    assert b"0 0 0 1 k" in data and b" rg" not in data


def test_the_back_fills_its_bleed(press):
    document = pypdfium2.PdfDocument(str(press / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-cards.pdf"))
    image = document[0].render(scale=2).to_pil().convert("RGB")  # page 1 is a back: red to the edge
    for x, y in ((1, 1), (image.width - 2, 1), (1, image.height - 2), (image.width - 2, image.height - 2)):
        r, g, b = image.getpixel((x, y))
        assert r > 100 and g < 90 and b < 90, (x, y, (r, g, b))


def test_booklet_press_files_have_a_multiple_of_four_pages(press):
    for path in press.rglob("*-rules.pdf"):
        assert len(PdfReader(path).pages) % 4 == 0, path


def test_cmyk_conversion_respects_the_ink_limit():
    assert rgb_to_cmyk("#000000", 240) == (0.0, 0.0, 0.0, 100.0)
    for colour in ("#7d1a12", "#1f4e79", "#3d6b35", "#2b2b2b", "#b22a1e"):
        assert sum(rgb_to_cmyk(colour, 240)) <= 240.01


# --- preflight on deliberately broken files ---------------------------------------------------------
def _pdf(tmp_path, draw) -> str:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200), invariant=1)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    path = tmp_path / "broken.pdf"
    path.write_bytes(buffer.getvalue())
    return path


def test_preflight_finds_missing_boxes_rgb_and_too_much_ink(tmp_path, profiles):
    def draw(canvas):
        canvas.setFillColorRGB(1, 0, 0)
        canvas.rect(10, 10, 50, 50, fill=1)
        canvas.setFillColor(CMYKColor(1, 1, 1, 1))
        canvas.rect(70, 70, 50, 50, fill=1)

    problems = [p.message for p in preflight(_pdf(tmp_path, draw), profiles["drivethrucards"])]
    assert any("no TrimBox and BleedBox" in m for m in problems)
    assert any("RGB colour in a CMYK file" in m for m in problems)
    assert any("400 % total ink (the limit is 240 %)" in m for m in problems)


def test_preflight_finds_the_wrong_bleed_and_unembedded_fonts(tmp_path, profiles):
    def draw(canvas):
        canvas.setTrimBox((5, 5, 195, 195))
        canvas.setBleedBox((0, 0, 200, 200))
        canvas.setFont("Helvetica", 10)
        canvas.drawString(20, 20, "hello")

    problems = [p.format("x") for p in preflight(_pdf(tmp_path, draw), profiles["eu-3mm"])]
    assert any("bleed is 1.76, 1.76, 1.76, 1.76 mm" in m for m in problems)
    assert any("font Helvetica is not embedded" in m for m in problems)


def test_preflight_command(press, tmp_path, capsys):
    good = str(press / "comrade" / "en" / "press" / "eu-3mm" / "comrade-en-poker-eu.pdf")
    assert main(["preflight", good, "--profile", "eu-3mm"]) == 0
    pnp = build(DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=["en"], papers=["a4"])
    assert main(["preflight", str(pnp.written[0]), "--profile", "eu-3mm"]) == 1
    assert "page 1: no TrimBox and BleedBox" in capsys.readouterr().out


def test_a_deck_drawn_with_too_little_bleed_is_refused(data_copy, tmp_path):
    from tests.conftest import edit, line_of

    game = data_copy / "comrade" / "game.yaml"
    edit(game, "    bleed: 0.125in", "    bleed: 2mm")
    result = build(data_copy, tmp_path, games=["comrade"], target="shop", profiles=["eu-3mm"])
    [item] = {d for d in result.report.errors if d.code == "press-bleed"}  # the same fault, seen per language
    assert item.location.line == line_of(game, "    bleed: 2mm") and "needs 3.00 mm" in item.message
    assert not any(tmp_path.rglob("*.pdf"))


@pytest.mark.parametrize("profile, size", [("thegamecrafter", (825, 1125)), ("makeplayingcards", (822, 1122))])
def test_image_profiles_write_one_png_per_face_at_the_exact_size(tmp_path, profile, size):
    from PIL import Image

    result = build(DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=["en"], target="shop", profiles=[profile])
    assert not result.report.has_errors
    files = sorted((tmp_path / "comrade" / "en" / "press" / profile).iterdir())
    assert len(files) == 2 * 18
    assert files[0].name == "comrade-en-cards-001-back.png" and files[1].name == "comrade-en-cards-001-front.png"
    for path in files[:4] + files[-2:]:
        with Image.open(path) as image:
            assert image.size == size and image.mode == "RGB"
    with Image.open(tmp_path / "comrade" / "en" / "press" / profile / "comrade-en-cards-018-back.png") as back:
        assert back.getpixel((1, 1))[0] > 100 and back.getpixel((1, 1))[2] < 90  # the red back reaches the edge
