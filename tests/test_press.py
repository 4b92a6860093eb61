"""Press files for print shops: profiles as data, CMYK, TrimBox and BleedBox, page order, preflight."""

from __future__ import annotations

import io

import pypdfium2
import pytest
from pypdf import PdfReader
from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from printshop.checks.preflight import preflight, shop_trims
from printshop.cli import main
from printshop.pipeline.build import build
from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.project.units import mm
from tests.conftest import PRESS_PROFILES, shared_build, unknown
from tests.pdfinspect import page_drawing


@pytest.fixture(scope="module")
def press(tmp_path_factory):
    return shared_build(tmp_path_factory, target="shop", profiles=PRESS_PROFILES)[
        0
    ]  # every game, two shops


@pytest.fixture(scope="module")
def profiles():
    return load_project(DEFAULT_DATA_DIR, games=[]).profiles


def test_every_press_file_passes_preflight(press, profiles):
    project = load_project(DEFAULT_DATA_DIR)
    media = project.media
    files = list(press.rglob("*.pdf"))
    games = {path.relative_to(press).parts[0] for path in files}
    # every game of the data folder with something to press (the EU profile takes every deck, sheet
    # and booklet)
    pressed = {
        game_id
        for game_id, game in project.games.items()
        if game.game.decks
        or game.game.booklet
        or any(sheet.press for sheet in game.game.sheets.values())
    }
    assert games == pressed and pressed and len(files) >= 4 * len(pressed)
    for path in files:
        profile = profiles[path.parent.name]
        found = preflight(path, profile, shop_trims(media, profile))
        assert unknown(found, path.parent.name) == [], path


def test_drivethrucards_files_are_pdfx_1a_with_an_output_intent(press):
    reader = PdfReader(
        press / "kremlin" / "fr" / "press" / "drivethrucards" / "kremlin-fr-politicians.pdf"
    )
    assert reader.pdf_header == "%PDF-1.4"
    assert (
        reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
        and reader.metadata["/Trapped"] == "/False"
    )
    [intent] = reader.trailer["/Root"]["/OutputIntents"]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 001"
    eu = PdfReader(press / "kremlin" / "fr" / "press" / "eu-3mm" / "kremlin-fr-poker-eu.pdf")
    assert "/OutputIntents" not in eu.trailer["/Root"]  # only profiles that ask for PDF/X get it


def test_a_shop_that_makes_no_counters_gets_no_markers(press):
    assert not list(press.glob("kremlin/*/press/drivethrucards/*markers*"))
    assert (
        len(
            PdfReader(
                press / "kremlin" / "en" / "press" / "eu-3mm" / "kremlin-en-chit-16.pdf"
            ).pages
        )
        == 195
    )


def test_drivethrucards_pages_are_back_then_front_on_2_75_by_3_75_inch_pages(press):
    reader = PdfReader(
        press / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-cards.pdf"
    )
    assert len(reader.pages) == 2 * 18
    page = reader.pages[0]
    assert [float(v) for v in page.mediabox] == pytest.approx(
        [0, 0, 2.75 * 72, 3.75 * 72], abs=0.01
    )
    assert [float(v) for v in page.trimbox] == pytest.approx(
        [9, 9, 9 + 2.5 * 72, 9 + 3.5 * 72], abs=0.01
    )
    assert list(reader.page_labels[:4]) == ["back 1", "front 1", "back 2", "front 2"]
    forms = [page_drawing(reader, i)[0][0].name for i in range(len(reader.pages))]
    backs = forms[0:6:2]
    assert len(set(backs)) == 1 and backs[0] not in forms[1:6:2]  # the common back leads each pair


def test_eu_profile_is_front_then_back_with_3mm_bleed(press):
    reader = PdfReader(press / "comrade" / "fr" / "press" / "eu-3mm" / "comrade-fr-poker-eu.pdf")
    forms = [page_drawing(reader, i)[0][0].name for i in range(4)]
    assert forms[1] == forms[3] and forms[0] != forms[1]  # front, common back, front, common back
    assert float(reader.pages[0].mediabox.height) == pytest.approx(mm(88 + 6), abs=0.01)


def test_cmyk_press_files_set_body_text_in_pure_black(press):
    reader = PdfReader(
        press / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-cards.pdf"
    )
    data = b"".join(
        x.get_object().get_data()
        for page in reader.pages[:2]
        for x in page["/Resources"]["/XObject"].values()
    )
    assert b"0 0 0 1 k" in data and b" rg" not in data


def test_the_back_fills_its_bleed(press):
    document = pypdfium2.PdfDocument(
        str(press / "comrade" / "en" / "press" / "drivethrucards" / "comrade-en-cards.pdf")
    )
    # page 1 is a back: its ground (paper, and the sunburst's rays) to the edge, not the sheet's white
    image = document[0].render(scale=2).to_pil().convert("RGB")
    for x, y in (
        (1, 1),
        (image.width - 2, 1),
        (1, image.height - 2),
        (image.width - 2, image.height - 2),
    ):
        r, g, b = image.getpixel((x, y))
        assert b < 235 and (r, g, b) != (255, 255, 255), (x, y, (r, g, b))


def test_booklet_press_files_have_a_multiple_of_four_pages(press):
    for path in press.rglob("*-rules.pdf"):
        assert len(PdfReader(path).pages) % 4 == 0, path


def test_cmyk_conversion_respects_the_ink_limit():
    from printshop.render.press_colour import flat_cmyk

    icc = "swop-tr003-300.icc"
    # the profile builds sRGB black with about 287 % ink: over DriveThruCards' 240 before the limit
    assert sum(flat_cmyk("#000000", icc)) * 100 / 255 > 260
    for colour in ("#000000", "#7d1a12", "#1f4e79", "#3d6b35", "#2b2b2b", "#b22a1e", "#161b27"):
        assert sum(flat_cmyk(colour, icc, ink_limit=240)) * 100 / 255 <= 240.01


# --- preflight on deliberately broken files
# ---------------------------------------------------------
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
    [item] = {
        d for d in result.report.errors if d.code == "press-bleed" and "EU print shops" in d.message
    }
    assert item.location.line == line_of(game, "    bleed: 2mm") and "needs 3.00 mm" in item.message
    assert not any(tmp_path.rglob("*.pdf"))


@pytest.mark.parametrize(
    "profile, size", [("thegamecrafter", (825, 1125)), ("makeplayingcards", (822, 1122))]
)
def test_image_profiles_write_one_png_per_face_at_the_exact_size(tmp_path, profile, size):
    from PIL import Image

    result = build(
        DEFAULT_DATA_DIR,
        tmp_path,
        games=["comrade"],
        langs=["en"],
        target="shop",
        profiles=[profile],
    )
    assert not result.report.has_errors
    files = sorted(
        (tmp_path / "comrade" / "en" / "press" / profile).glob("*.png")
    )  # and manifest.json
    assert len(files) == 2 * 18
    assert (
        files[0].name == "comrade-en-cards-001-back.png"
        and files[1].name == "comrade-en-cards-001-front.png"
    )
    for path in files[:4] + files[-2:]:
        with Image.open(path) as image:
            assert image.size == size and image.mode == "RGB"
    with Image.open(
        tmp_path / "comrade" / "en" / "press" / profile / "comrade-en-cards-001-back.png"
    ) as back:
        # the back's ground reaches the edge, not the sheet's white (a role card's back: the turn
        # summary, 018, has its own)
        assert back.getpixel((1, 1))[2] < 235 and back.getpixel((1, 1)) != (255, 255, 255)


def test_a_deck_too_far_from_the_shops_trim_is_refused(data_copy):
    from tests.conftest import edit, found

    edit(
        data_copy / "print" / "profiles" / "drivethrucards.yaml",
        "poker-eu: {trim: poker-us}",
        "poker-eu: {trim: tarot}",
    )
    items = found(data_copy, "press-trim")
    poker_decks = [
        deck
        for game in load_project(data_copy).games.values()
        for deck in game.game.printed_decks().values()
        if deck.card_size == "poker-eu"
    ]
    assert len(items) == len(poker_decks) > 0  # every printed poker deck of every game
    assert any(
        "deck 'cards' (poker-eu) would be scaled by 1.371 to DriveThruCards's trim 'tarot'"
        in d.message
        and d.location.path == str(data_copy / "comrade" / "game.yaml")
        for d in items
    )


def test_text_is_checked_against_each_shops_safe_zone(data_copy):
    from tests.conftest import edit, found, line_of

    profile = data_copy / "print" / "profiles" / "eu-3mm.yaml"
    edit(profile, "safe: 4mm", "safe: 5mm")
    items = [d for d in found(data_copy, "outside-safe-zone") if "EU print shops" in d.message]
    faces = data_copy / "comrade" / "faces.yaml"
    assert any(
        d.location.path == str(faces)
        and d.location.line == line_of(faces, "      title: {x: 5mm, y: 4.5mm")
        and "0.5 mm closer to the trim than EU print shops, 3 mm bleed's safe zone of 5.0 mm"
        in d.message
        for d in items
    )


# --- preflight: page order, booklets, PDF/X, transparency, image resolution ----------------------
def _labelled(tmp_path, labels, keywords="printshop:cards", size=(198, 270)):
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=size, invariant=1)
    canvas.setKeywords(keywords)
    for number, label in enumerate(labels):
        canvas.setTrimBox((9, 9, size[0] - 9, size[1] - 9))
        canvas.setBleedBox((0, 0, *size))
        if label:
            side, card = label.split()
            canvas.addPageLabel(number, "D", int(card), side + " ")
        canvas.showPage()
    canvas.save()
    path = tmp_path / "cards.pdf"
    path.write_bytes(buffer.getvalue())
    return path


def test_preflight_checks_page_order_and_completeness(tmp_path, profiles):
    eu = profiles["eu-3mm"]
    dtc = profiles["drivethrucards"]
    good = _labelled(
        tmp_path, ["front 1", "back 1", "front 2", "back 2"], size=(mm(63 + 6), mm(88 + 6))
    )
    assert not [p for p in preflight(good, eu) if "card" in p.message]
    problems = [p.format("f") for p in preflight(good, dtc)]
    assert "f: page 1: card 1: front before back; DriveThruCards wants back then front" in problems
    missing = _labelled(
        tmp_path,
        ["front 1", "back 1", "front 3", "back 3", "front 4"],
        size=(mm(63 + 6), mm(88 + 6)),
    )
    messages = [p.format("f") for p in preflight(missing, eu)]
    assert "f: page 3: card 3 follows card 1: a card is missing or out of order" in messages
    assert any("some cards have a back and some do not" in m for m in messages)


def test_preflight_checks_the_trim_against_the_shops_products(tmp_path, profiles):
    media = load_project(DEFAULT_DATA_DIR, games=[]).media
    eu_sized = _labelled(tmp_path, ["back 1", "front 1"], size=(mm(63) + 18, mm(88) + 18))
    problems = [
        p.format("f")
        for p in preflight(
            eu_sized, profiles["drivethrucards"], shop_trims(media, profiles["drivethrucards"])
        )
    ]
    assert any(
        "page 1: trim is 63.0 × 88.0 mm; the shop makes" in m and "63.5 × 88.9" in m
        for m in problems
    )


def test_preflight_wants_booklets_in_fours_and_pdfx_keys(tmp_path, profiles):
    booklet = _labelled(tmp_path, [None] * 6, keywords="printshop:booklet")
    messages = [p.message for p in preflight(booklet, profiles["drivethrucards"])]
    assert "a booklet of 6 pages: saddle stitching needs a multiple of 4" in messages
    assert any("no PDF/X output intent" in m for m in messages)
    assert any("no GTS_PDFXVersion 'PDF/X-1a:2003'" in m for m in messages)
    assert not any("PDF/X" in p.message for p in preflight(booklet, profiles["eu-3mm"]))


def _with_image(tmp_path, pixels, placed, alpha=False):
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    picture = Image.new(
        "RGBA" if alpha else "CMYK", (pixels, pixels), (0, 0, 0, 0) if alpha else (0, 80, 80, 0)
    )

    def draw(canvas):
        canvas.setTrimBox((10, 10, 190, 190))
        canvas.setBleedBox((0, 0, 200, 200))
        canvas.saveState()
        canvas.translate(20, 20)
        canvas.scale(2, 2)  # the image's placed size is twice what drawImage is told
        canvas.drawImage(
            ImageReader(picture), 0, 0, placed / 2, placed / 2, mask="auto" if alpha else None
        )
        canvas.restoreState()

    return _pdf(tmp_path, draw)


def test_preflight_measures_images_at_their_placed_size(tmp_path, profiles):
    profile = profiles["eu-3mm"]
    low = _with_image(tmp_path, 100, 72)  # 100 px over one inch
    assert any(
        p.page == 1 and "is 100 dpi where it is placed; the shop needs 300" in p.message
        for p in preflight(low, profile)
    )
    sharp = _with_image(tmp_path, 400, 72)
    assert not [p for p in preflight(sharp, profile) if "dpi" in p.message]


def test_preflight_refuses_transparency_where_the_shop_does(tmp_path, profiles):
    path = _with_image(tmp_path, 400, 72, alpha=True)
    assert any(
        "alpha channel or mask" in p.message for p in preflight(path, profiles["drivethrucards"])
    )
    assert not any("alpha" in p.message for p in preflight(path, profiles["thegamecrafter"]))


# --- pixels: between the safe zone and the trim lies nothing but background -----------------------
def _strip_content(face):
    """The face with its text frames and icons taken away: what may lie outside the safe zone."""
    import dataclasses

    shapes = {
        name: shape
        for name, shape in face.face.shapes.items()
        if not (shape.kind in ("motif", "image") and shape.layer >= 0)
    }
    return dataclasses.replace(
        face, frames=[], face=face.face.model_copy(update={"shapes": shapes})
    )


def _ring_differences(
    full: bytes, bare: bytes, bleed: float, safe: float, scale: float = 2.0
) -> list[int]:
    """Per page, how many pixels between the safe zone and the trim differ between the two files."""
    from PIL import Image, ImageChops, ImageDraw

    counts = []
    a, b = pypdfium2.PdfDocument(full), pypdfium2.PdfDocument(bare)
    for index in range(len(a)):
        x = a[index].render(scale=scale).to_pil().convert("RGB")
        y = b[index].render(scale=scale).to_pil().convert("RGB")
        red, green, blue = ImageChops.difference(x, y).split()
        changed = ImageChops.lighter(ImageChops.lighter(red, green), blue).point(
            lambda v: 255 if v > 24 else 0
        )
        width, height = x.size
        outer, inner = round(bleed * scale) + 2, round((bleed + safe) * scale) - 2
        ring = Image.new("L", x.size, 0)
        draw = ImageDraw.Draw(ring)
        draw.rectangle((outer, outer, width - outer - 1, height - outer - 1), fill=255)
        draw.rectangle((inner, inner, width - inner - 1, height - inner - 1), fill=0)
        counts.append(ImageChops.multiply(changed, ring).histogram()[255])
    return counts


def test_nothing_but_background_lies_between_the_safe_zone_and_the_trim():
    import dataclasses

    from printshop.pipeline.build import check
    from printshop.render.colour import ColourMode, Paints
    from printshop.render.press import render_press_cards

    report, checked = check(
        DEFAULT_DATA_DIR, games=["comrade", "assassin"], langs=["fr"], variant=None
    )
    project = checked.project
    profile = project.profiles["drivethrucards"]
    trim = project.media.card_sizes["poker-us"]
    paints = Paints(project.colours.palette, ColourMode())
    for layout in checked.layouts:
        for deck in layout.decks:
            bare = dataclasses.replace(
                deck, faces={k: _strip_content(f) for k, f in deck.faces.items()}
            )
            full_pdf, _ = render_press_cards(
                layout, [deck], profile, trim, paints, project.motifs.motifs, "t"
            )
            bare_pdf, _ = render_press_cards(
                layout, [bare], profile, trim, paints, project.motifs.motifs, "t"
            )
            assert max(_ring_differences(full_pdf, bare_pdf, profile.bleed, profile.safe)) == 0, (
                layout.game_id
            )
    # and the test sees a frame that strays: the first front's frames moved to the trim
    deck = checked.layouts[0].decks[0]
    key = deck.cards[0][0]
    face = deck.faces[key]
    # (moved 1 mm past the trim: a centred paragraph set in its balanced measure keeps its lines off
    # its frame's sides, so a frame at 1 mm from the trim no longer puts text there)
    frames = [
        dataclasses.replace(f, frame=f.frame.model_copy(update={"x": mm(-1)})) for f in face.frames
    ]
    strayed = dataclasses.replace(
        deck, faces={key: dataclasses.replace(face, frames=frames)}, cards=[(key, None)]
    )
    bare = dataclasses.replace(strayed, faces={key: _strip_content(face)})
    full_pdf, _ = render_press_cards(
        checked.layouts[0], [strayed], profile, trim, paints, project.motifs.motifs, "t"
    )
    bare_pdf, _ = render_press_cards(
        checked.layouts[0], [bare], profile, trim, paints, project.motifs.motifs, "t"
    )
    assert _ring_differences(full_pdf, bare_pdf, profile.bleed, profile.safe)[0] > 20


def _subsets(paths) -> dict[str, set[str]]:
    """Each embedded font's name ("ABCDEF+NotoSans-Bold") -> the digests of the font programs it
    names, over every file in `paths`."""
    import hashlib

    import pikepdf

    found: dict[str, set[str]] = {}
    for path in paths:
        with pikepdf.open(path) as pdf:
            for item in pdf.objects:
                if (
                    isinstance(item, pikepdf.Dictionary)
                    and item.get("/Type") == "/FontDescriptor"
                    and "/FontFile2" in item
                ):
                    digest = hashlib.blake2b(
                        item.FontFile2.read_bytes(), digest_size=16
                    ).hexdigest()
                    found.setdefault(str(item.FontName), set()).add(digest)
    return found


def test_a_font_subsets_name_stands_for_one_subset_across_every_file(press, built):
    """ReportLab named every font's first subset AAAAAA+ in every file: the French and the English
    cards each embedded an "AAAAAA+NotoSans-Bold" holding other glyphs at other codes, and a shop
    that gangs files on one sheet, or a RIP that keeps fonts by name, prints one file's text with
    the other's glyphs. Over every press file of every game, two shops, and a home kit in both
    languages, one name is one font program; names are six capitals and '+', and differ from file to
    file only where the subsets do."""
    import re

    files = sorted(press.rglob("*.pdf")) + sorted((built / "comrade").rglob("*.pdf"))
    subsets = _subsets(files)
    assert (
        len(subsets) > 20
        and [name for name in subsets if not re.fullmatch(r"/[A-Z]{6}\+[\w-]+", name)] == []
    )
    assert {name: digests for name, digests in subsets.items() if len(digests) > 1} == {}
    bold = {name for name in subsets if name.endswith("+NotoSans-Bold")}
    assert (
        len(bold) > 2
    )  # (the languages' and games' different subsets of one font: different names)
