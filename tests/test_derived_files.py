"""Guards of the derived files (docs/design.md, "Derived files"), measured on the PDFs a build
writes: a low-ink kit keeps each Kremlin faction's markers apart in greyscale, with their emblems;
every low-ink file stays within the ink coverage media.yaml sets, each card back within its own (a
back is outlines, not rays), and the low-ink board has no tinted fill; --gutterfold makes no file
for a one-sided deck, and leaves out, with a warning, a deck too large to fold while the rest
builds."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from numpy.lib.stride_tricks import sliding_window_view
from pypdf import PdfReader

from printshop.pipeline.build import build
from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR, discover_games
from printshop.project.units import mm
from tests.conftest import copy_data, kit_view, shared_build
from tests.pdfinspect import page_drawing, page_texts

DPI = 150
CHIT = mm(16)
FACTIONS = 6
GAMES = discover_games(DEFAULT_DATA_DIR)


def _kremlin_low_ink(data: Path, out: Path) -> Path:
    result = build(data, out, games=["kremlin"], langs=["en"], papers=["a4"], low_ink=True)
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out / "kremlin" / "en" / "kremlin-en-markers-lowink-a4.pdf"


def _chits(path: Path) -> list[np.ndarray]:
    """Every chit of the markers' pages, in sheet order, in greyscale (0 black, 1 white)."""
    reader, document = PdfReader(path), pypdfium2.PdfDocument(str(path))
    chits = []
    for number in range(len(document)):
        placements, _ = page_drawing(reader, number)
        page = document[number]
        image = np.asarray(page.render(scale=DPI / 72).to_pil().convert("L"), dtype=float) / 255
        height = image.shape[0]
        for placed in placements:
            x, y, w, h = placed.box(CHIT, CHIT)
            left, top = round(x * DPI / 72), round(height - (y + h) * DPI / 72)
            side = round(CHIT * DPI / 72)
            chits.append(image[top : top + side, left : left + side])
    return chits


def _emblem(chit: np.ndarray) -> np.ndarray:
    """The emblem's box (4.25 to 11.75 mm across, 1.85 to 9.35 mm down: faces.yaml), below the hatched
    band round the edge (2 mm)."""
    px = DPI / 25.4
    return chit[round(2.5 * px) : round(9 * px), round(4.25 * px) : round(11.75 * px)]


def _in_sheet_order(path: Path, data: Path, field: str) -> list:
    """`field` of each chit of the markers' pages ("kind", or a var's name: None where a marker has
    no such var), in sheet order (render/sheets.py `sheet_cards`: a low-ink kit has no spares)."""
    from types import SimpleNamespace

    from printshop.render.sheets import sheet_cards

    deck = load_project(data, games=["kremlin"]).games["kremlin"].game.decks["markers"]
    of = {card.id: card.kind if field == "kind" else card.vars.get(field) for card in deck.cards}
    physical = [(card.id, None) for card in deck.cards for _ in range(card.count)]
    per_page = len(page_drawing(PdfReader(path), 0)[0])
    faces = {card.id: SimpleNamespace(face_name=card.front) for card in deck.cards}
    laid = SimpleNamespace(cards=physical, deck=deck, faces=faces)
    grid = SimpleNamespace(per_page=per_page)
    return [of[card] for card, _ in sheet_cards(laid, grid, spares="lowink" not in path.name)]


def factions(path: Path, data: Path = DEFAULT_DATA_DIR) -> list[str | None]:
    """The faction of each chit of the markers' pages (None: a marker of no faction), in sheet
    order."""
    return _in_sheet_order(path, data, "faction")


def faction_apart(path: Path, data: Path = DEFAULT_DATA_DIR) -> float:
    """The least difference, in mean grey level, between the average chits of two factions: how far
    the faction the least apart from another still stands from it in greyscale."""
    chits, of = _chits(path), factions(path, data)
    assert len(chits) == len(of)
    names = sorted({name for name in of if name is not None})
    assert len(names) == FACTIONS
    means = [
        np.mean([chit for chit, name in zip(chits, of, strict=True) if name == f], axis=0)
        for f in names
    ]
    return min(
        float(np.abs(means[a] - means[b]).mean())
        for a in range(FACTIONS)
        for b in range(a + 1, FACTIONS)
    )


def emblem_ink(path: Path, data: Path = DEFAULT_DATA_DIR) -> float:
    """The least share of non-white pixels in any faction chit's emblem box (parade markers
    included)."""
    chits, of = _chits(path), factions(path, data)
    return min(
        float((_emblem(chit) < 0.9).mean())
        for chit, name in zip(chits, of, strict=True)
        if name is not None
    )


APART = 0.02  # mean grey difference: the same face printed twice differs by 0
EMBLEM = 0.05  # a twentieth of the emblem's box inked: an outlined emblem inks about a fifth


@pytest.fixture(scope="module")
def low_ink_markers(tmp_path_factory) -> Path:
    return _kremlin_low_ink(DEFAULT_DATA_DIR, tmp_path_factory.mktemp("lowink"))


def test_low_ink_markers_keep_each_faction_apart_in_greyscale_with_its_emblem(low_ink_markers):
    assert faction_apart(low_ink_markers) > APART
    assert emblem_ink(low_ink_markers) > EMBLEM


def test_the_identity_guard_catches_factions_that_look_alike(tmp_path):
    """Must-catch: every faction's markers given one colour and one emblem (what low ink did to
    them before: all white, bare numbers) cannot be told apart; the emblems are still there."""
    data = copy_data(tmp_path / "data", ["kremlin"])
    faces = data / "kremlin" / "faces.yaml"
    text = re.sub(r"background: faction-\d", "background: faction-1", faces.read_text("utf-8"))
    text = re.sub(r"motif: faction-\d", "motif: faction-1", text)
    faces.write_text(text, encoding="utf-8")
    path = _kremlin_low_ink(data, tmp_path / "out")
    assert faction_apart(path, data) < APART
    assert emblem_ink(path, data) > EMBLEM


def test_the_emblem_guard_catches_an_emblem_gone(tmp_path):
    """Must-catch: a white emblem left white on a white chit (what low ink printed before) is no
    emblem: here the emblem is taken away."""
    data = copy_data(tmp_path / "data", ["kremlin"])
    faces = data / "kremlin" / "faces.yaml"
    text = re.sub(
        r"shapes: \{emblem: \{kind: motif, motif: faction-\d[^}]*\}\}",
        "shapes: {}",
        faces.read_text("utf-8"),
    )
    faces.write_text(text, encoding="utf-8")
    assert emblem_ink(_kremlin_low_ink(data, tmp_path / "out"), data) < EMBLEM


def stress_apart(path: Path, data: Path = DEFAULT_DATA_DIR) -> float:
    """How far, in mean grey level, the average stress marker stands from the average chit of the
    faction nearest it (the review took the dark-grey stress markers for the black faction's)."""
    chits, kinds, of = _chits(path), _in_sheet_order(path, data, "kind"), factions(path, data)
    stress = np.mean([chit for chit, kind in zip(chits, kinds, strict=True) if kind == "stress"], 0)
    return min(
        float(
            np.abs(
                stress - np.mean([c for c, f in zip(chits, of, strict=True) if f == name], 0)
            ).mean()
        )
        for name in sorted({name for name in of if name is not None})
    )


def emblem_size(path: Path, data: Path = DEFAULT_DATA_DIR) -> float:
    """The smallest, over the full-colour faction chits, of the emblem's printed size in mm (the
    larger side of the white shape's bounds, above the value: 1 to 9.3 mm down the chit)."""
    px = DPI / 25.4
    sizes = []
    for chit, name in zip(_chits(path), factions(path, data), strict=True):
        if name is None:
            continue
        ys, xs = np.nonzero(
            chit[round(1 * px) : round(9.3 * px), round(1.5 * px) : round(14.5 * px)] > 0.9
        )
        sizes.append((max(np.ptp(xs), np.ptp(ys)) + 1) / px if len(xs) else 0.0)
    return min(sizes)


STRESS_APART = 0.08  # the dark-grey stress markers stood 0.06 (colour), 0.04 (low ink) from one
EMBLEM_SIZE = 6.0  # mm: the review's "about 7 mm" (the motifs leave a margin in their box)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_markers_have_large_emblems_and_light_stress_chits(tmp_path_factory, lang, paper):
    """Review 2: the faction emblems were about 4 mm on a 16 mm chit and the stress markers, dark
    grey, were close to the black faction. Each emblem prints 6 mm or more; the stress markers
    (light grey, dark type) stand apart from every faction's, in colour and in low ink."""
    kit = kit_view(tmp_path_factory, ["kremlin"])
    path = kit / "kremlin" / lang / f"kremlin-{lang}-markers-{paper}.pdf"
    assert emblem_size(path) > EMBLEM_SIZE
    assert stress_apart(path) > STRESS_APART
    if paper == "a4":
        out, _ = shared_build(tmp_path_factory, games=GAMES, papers=["a4"], low_ink=True)
        low_ink = out / "kremlin" / lang / f"kremlin-{lang}-markers-lowink-a4.pdf"
        assert stress_apart(low_ink) > STRESS_APART


def test_the_marker_guards_catch_small_emblems_and_dark_stress_chits(tmp_path):
    """Must-catch: the markers as review 2 saw them (6 mm emblem boxes over the value; stress
    markers white on dark grey) fail both guards, in colour and in low ink."""
    data = copy_data(tmp_path / "data", ["kremlin"])
    faces = data / "kremlin" / "faces.yaml"
    text = faces.read_text("utf-8").replace(
        "x: 4.25mm, y: 1.85mm, width: 7.5mm, height: 7.5mm",
        "x: 5mm, y: 1.7mm, width: 6mm, height: 6mm",
    )
    start, end = text.index("  marker-stress:"), text.index("      sub: {y: 9mm")
    text = (
        text[:start]
        + (
            "  marker-stress:\n    extends: marker\n    background: ink-soft\n    frames:\n"
            "      main: {y: 2mm, height: 8mm}\n"
        )
        + text[text.index("\n", end) + 1 :]
    )
    faces.write_text(text, encoding="utf-8")
    result = build(data, tmp_path / "out", games=["kremlin"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    path = tmp_path / "out" / "kremlin" / "en" / "kremlin-en-markers-a4.pdf"
    assert emblem_size(path, data) < EMBLEM_SIZE
    assert stress_apart(path, data) < STRESS_APART
    assert stress_apart(_kremlin_low_ink(data, tmp_path / "low"), data) < STRESS_APART


def coverage(path: Path) -> float:
    """The file's ink coverage, in percent: over its pages, the mean tone of each pixel's densest
    channel (1 − min(R, G, B)), rasterised at 50 dpi."""
    document = pypdfium2.PdfDocument(str(path))
    pages = []
    for page in document:
        image = np.asarray(page.render(scale=50 / 72).to_pil().convert("RGB"), dtype=float)
        pages.append(float((1 - image.min(axis=2) / 255).mean()))
    return 100 * sum(pages) / len(pages)


def test_every_low_ink_file_keeps_within_the_ink_coverage(tmp_path_factory):
    out, _ = shared_build(tmp_path_factory, games=GAMES, papers=["a4"], low_ink=True)
    target = load_project(DEFAULT_DATA_DIR, games=[]).media.print_and_play.low_ink.coverage
    files = sorted(out.rglob("*-lowink-*.pdf"))
    assert len(files) > 20  # every game's cards, sheets, boards, booklets, in both languages
    over = {path.name: round(coverage(path), 1) for path in files if coverage(path) > target}
    assert not over, over


def test_the_coverage_guard_catches_a_full_colour_kit(tmp_path_factory):
    """Must-catch: the full-colour markers (what a low-ink file must not be) are over."""
    kit = kit_view(tmp_path_factory, ["kremlin"], ["a4"])
    target = load_project(DEFAULT_DATA_DIR, games=[]).media.print_and_play.low_ink.coverage
    assert coverage(kit / "kremlin" / "en" / "kremlin-en-markers-a4.pdf") > target


def _tones(document: pypdfium2.PdfDocument, page: int, dpi: float = 50) -> np.ndarray:
    """A page's ink, pixel by pixel: the tone of its densest channel (0 paper, 1 solid)."""
    image = np.asarray(document[page].render(scale=dpi / 72).to_pil().convert("RGB"), dtype=float)
    return 1 - image.min(axis=2) / 255


def back_coverages(path: Path, width: float, height: float) -> list[float]:
    """The ink coverage, in percent, of every card back of a (English) card file: each face placed on
    a page of backs, `width` x `height`, measured as `coverage` measures a page."""
    reader, document, inks = PdfReader(path), pypdfium2.PdfDocument(str(path)), []
    for number, text in enumerate(page_texts(path)):
        if "· backs" not in text:
            continue
        tones = _tones(document, number)
        placements, _ = page_drawing(reader, number)
        for placed in placements:
            x, y, w, h = (round(v * 50 / 72) for v in placed.box(width, height))
            top = tones.shape[0] - y - h
            inks.append(100 * float(tones[top : top + h, x : x + w].mean()))
    return inks


def _backed_decks(game: str) -> list[tuple[str, float, float]]:
    """(file stem, card width, card height) of each of `game`'s decks with backs."""
    project = load_project(DEFAULT_DATA_DIR, games=[game])
    sizes = project.media.card_sizes
    return [
        (f"{game}-en-{deck_id}", size.width, size.height)
        for deck_id, deck in project.games[game].game.decks.items()
        if deck.back is not None
        for size in [sizes[deck.card_size]]
    ]


def test_every_card_back_in_low_ink_is_a_light_outline(tmp_path_factory):
    """The backs were full sunbursts of hairlines, 15 to 21 % of ink each; drawn as their frame and
    emblem in outline they lay 4 to 8 %, under media.yaml's `back_coverage`."""
    out, _ = shared_build(tmp_path_factory, games=GAMES, papers=["a4"], low_ink=True)
    limit = load_project(DEFAULT_DATA_DIR, games=[]).media.print_and_play.low_ink.back_coverage
    measured = 0
    for game in GAMES:
        for stem, width, height in _backed_decks(game):
            for path in (out / game / "en").glob(f"{stem}-lowink-a4.pdf"):
                inks = back_coverages(path, width, height)
                assert inks, path.name
                assert max(inks) <= limit, (path.name, round(max(inks), 1))
                measured += len(inks)
    assert measured > 100  # every game's backs


def test_the_back_guard_catches_a_back_drawn_in_rays(tmp_path):
    """Must-catch: Comrade's back with its sunburst shrunk short of the card's corners is drawn as
    it was before, rays of hairlines over the whole card: over the limit."""
    data = copy_data(tmp_path / "data", ["comrade"])
    faces = data / "comrade" / "faces.yaml"
    text = faces.read_text("utf-8")
    assert "radius: 60mm, count: 32" in text
    faces.write_text(text.replace("radius: 60mm, count: 32", "radius: 52mm, count: 32"), "utf-8")
    result = build(
        data, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"], low_ink=True
    )
    assert not result.report.has_errors
    limit = load_project(DEFAULT_DATA_DIR, games=[]).media.print_and_play.low_ink.back_coverage
    path = tmp_path / "out" / "comrade" / "en" / "comrade-en-cards-lowink-a4.pdf"
    assert max(back_coverages(path, mm(63), mm(88))) > limit


TINT = (0.03, 0.5)  # a tone lighter than ink and darker than paper's grain: a tint
FLAT = 5  # pixels at 50 dpi (2.5 mm): a square of one tone no line (0.3 mm) fills


def tinted_share(path: Path) -> float:
    """The largest share, in percent, of a page of `path` covered by flat tints: pixels whose
    5 x 5 neighbourhood (2.5 mm) is all of a tone between TINT's bounds (lines never fill it)."""
    document, shares = pypdfium2.PdfDocument(str(path)), []
    for number in range(len(document)):
        tones = _tones(document, number)
        tinted = (tones > TINT[0]) & (tones < TINT[1])
        shares.append(
            100 * float(sliding_window_view(tinted, (FLAT, FLAT)).all(axis=(2, 3)).mean())
        )
    return max(shares)


def test_the_low_ink_board_has_no_tinted_fill(tmp_path_factory):
    """The board's sky, bands and boxes were pink and cream tints (24 to 51 % of each page); in
    outlines they are none. (The influence sheet, a front with a band, keeps its tint: 3.5 %.)"""
    out, _ = shared_build(tmp_path_factory, games=GAMES, papers=["a4"], low_ink=True)
    assert tinted_share(out / "kremlin" / "en" / "kremlin-en-board-lowink-a4.pdf") < 0.1
    assert tinted_share(out / "kremlin" / "en" / "kremlin-en-influence-lowink-a4.pdf") > 1


def test_the_tint_guard_catches_a_board_in_tints(tmp_path):
    """Must-catch: the board's sunburst shrunk short of its corners, the board is a face like any
    other, its large areas tinted as before."""
    data = copy_data(tmp_path / "data", ["kremlin"])
    faces = data / "kremlin" / "faces.yaml"
    text = faces.read_text("utf-8")
    assert "radius: 640mm, count: 36" in text
    faces.write_text(text.replace("radius: 640mm, count: 36", "radius: 500mm, count: 36"), "utf-8")
    path = _kremlin_low_ink(data, tmp_path / "out").with_name("kremlin-en-board-lowink-a4.pdf")
    assert tinted_share(path) > 10


def test_a_one_sided_deck_gets_no_gutterfold_file_nor_a_line_on_the_how_to_page(
    tmp_path_factory,
):
    """Kremlin's markers have no backs: nothing to fold. Its politicians have: they get one."""
    out, result = shared_build(tmp_path_factory, games=GAMES, gutterfold=True)
    folder = out / "kremlin" / "en"
    assert not list(folder.glob("kremlin-en-markers-gutterfold-*.pdf"))
    assert (folder / "kremlin-en-politicians-gutterfold-a4.pdf").is_file()  # (must-pass)
    how_to = page_texts(folder / "kremlin-en-how-to-print-a4.pdf")[0]
    assert "politicians-gutterfold" in how_to and "markers-gutterfold" not in how_to
    assert not [d for d in result.report.items if d.code == "gutterfold-left-out"]


def test_a_deck_too_large_to_fold_is_left_out_with_a_warning_and_the_rest_builds(tmp_path):
    """An A5 deck cannot be folded on A4 (a front above the fold, its back below): the build warned
    nothing and failed as a whole (paper-too-small); now it names the deck and why, and writes the
    rest of the kit, the other decks' gutterfold files included."""
    data = copy_data(tmp_path / "data", ["kremlin"])
    (data / "print" / "media.yaml").write_text(
        'card_sizes:\n  aid-a5: {width: 148mm, height: 210mm, label: "A5 player aid"}\n',
        encoding="utf-8",
    )
    game = data / "kremlin" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(
        text.replace("  intrigue:\n    card_size: poker-eu", "  intrigue:\n    card_size: aid-a5"),
        encoding="utf-8",
    )
    result = build(
        data, tmp_path / "out", games=["kremlin"], langs=["en"], papers=["a4"], gutterfold=True
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    [warning] = [d for d in result.report.items if d.code == "gutterfold-left-out"]
    assert "'intrigue'" in warning.message and "fold" in warning.message
    assert warning.location.path.endswith("game.yaml")
    folder = tmp_path / "out" / "kremlin" / "en"
    assert not (folder / "kremlin-en-intrigue-gutterfold-a4.pdf").exists()
    assert (folder / "kremlin-en-intrigue-a4.pdf").is_file()
    assert (folder / "kremlin-en-politicians-gutterfold-a4.pdf").is_file()
    how_to = page_texts(folder / "kremlin-en-how-to-print-a4.pdf")[0]
    assert "intrigue-gutterfold" not in how_to and "politicians-gutterfold" in how_to


def parade_box_11(path: Path) -> tuple[float, float]:
    """Inside the low-ink board's last Parade box (year 11, 1.5 mm in from its outline): the share
    of paper-white pixels and of red ones (its numeral), in percent, from the tile that holds it."""
    from tests.conftest import tiled_sheet, tiling_of

    checked, layout, sheet = tiled_sheet("kremlin", "en", "board")
    tiling = tiling_of(checked, layout, sheet, "a4")
    shape = sheet.faces[0].face.shapes["year-11"]
    inset = mm(1.5)
    left, right = shape.x + inset, shape.x + shape.width - inset
    bottom = tiling.sheet_height - (shape.y + shape.height) + inset
    top = tiling.sheet_height - shape.y - inset
    index, tile = next(
        (i, t)
        for i, t in enumerate(tiling.tiles(), start=1)
        if t.left <= left and right <= t.left + t.width and t.bottom <= bottom
        if top <= t.bottom + t.height
    )
    ox, oy = tiling.origin_of(tile)
    scale = DPI / 72
    pdf = pypdfium2.PdfDocument(str(path))
    image = np.asarray(pdf[index].render(scale=scale).to_pil().convert("RGB")).astype(int)
    pdf.close()
    height = image.shape[0]
    x0, y0 = ox - tile.left, oy - tile.bottom  # the sheet's origin on the page
    box = image[
        round(height - (y0 + top) * scale) : round(height - (y0 + bottom) * scale),
        round((x0 + left) * scale) : round((x0 + right) * scale),
    ]
    white = (box.min(axis=2) > 215).mean() * 100
    red = ((box[..., 0] > 120) & (box[..., 1] < 110) & (box[..., 2] < 110)).mean() * 100
    return float(white), float(red)


def test_the_low_ink_parade_s_box_11_is_an_outline_with_its_number_in_red(tmp_path_factory):
    """Review 2: the box was a solid red fill, its white "11" turned red on it and vanished. Now:
    paper white inside, the numeral in red."""
    out, _ = shared_build(tmp_path_factory, games=GAMES, papers=["a4"], low_ink=True)
    white, red = parade_box_11(out / "kremlin" / "en" / "kremlin-en-board-lowink-a4.pdf")
    assert white > 50 and 4 < red < 40, (white, red)


def test_the_box_11_guard_catches_a_number_lost_in_its_fill(tmp_path):
    """Must-catch: the numeral set in the box's own red (as the low-ink board printed it)."""
    data = copy_data(tmp_path / "data", ["kremlin"])
    faces = data / "kremlin" / "faces.yaml"
    text = faces.read_text("utf-8")
    old = "min_size: 14pt, colour: white, align: center, valign: middle}"
    line = next(row for row in text.splitlines() if row.strip().startswith("year_11:"))
    assert old in line
    faces.write_text(text.replace(line, line.replace("colour: white", "colour: red")), "utf-8")
    path = _kremlin_low_ink(data, tmp_path / "out").with_name("kremlin-en-board-lowink-a4.pdf")
    white, red = parade_box_11(path)
    assert white < 50 and red > 90, (white, red)


# --- review 3: a low-ink cover keeps its emblem ----------------------------------------------------
EMBLEM_CONTRAST = 1.5  # the emblem's outline against the ground around it (WCAG ratio)


def _linear(image: np.ndarray) -> np.ndarray:
    """sRGB pixels (0–255) as relative luminance (0–1)."""
    c = image / 255
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ np.array([0.2126, 0.7152, 0.0722])


def emblem_contrast(path: Path, data: Path, game: str) -> float:
    """The cover's emblems (its page style's motifs) against the ground they stand on: the
    contrast of the darkest 2 % of the pixels in their box with the box's median, on page 1 of
    the A5 rules at 100 dpi."""
    project = load_project(data, games=[game])
    style = project.view(project.games[game]).booklet
    shapes = [shape for shape in style.pages.cover.shapes.values() if shape.kind == "motif"]
    left, top = min(s.x for s in shapes), min(s.y for s in shapes)
    right, bottom = max(s.x + s.width for s in shapes), max(s.y + s.height for s in shapes)
    scale = 100 / 72
    document = pypdfium2.PdfDocument(str(path))
    image = np.asarray(document[0].render(scale=scale).to_pil().convert("RGB"), dtype=float)
    document.close()
    box = image[int(top * scale) : int(bottom * scale), int(left * scale) : int(right * scale)]
    luminance = _linear(box.reshape(-1, 3))
    dark, ground = np.percentile(luminance, 2), np.median(luminance)
    return float((ground + 0.05) / (dark + 0.05))


@pytest.mark.parametrize("game", ["comrade", "comrade-stalin", "assassin"])
def test_a_low_ink_cover_keeps_its_emblem_outlined(tmp_path_factory, game):
    """Review 3: the low-ink Comrade cover's star, its tint on a tinted disc, stood at 1.25:1 and all
    but vanished. In low ink a cover's emblem keeps an outline in its full colour."""
    out, _ = shared_build(tmp_path_factory, games=GAMES, papers=["a4"], low_ink=True)
    path = out / game / "fr" / f"{game}-fr-rules-lowink-a5.pdf"
    assert emblem_contrast(path, DEFAULT_DATA_DIR, game) > EMBLEM_CONTRAST


def test_the_emblem_guard_catches_a_cover_star_without_its_outline(tmp_path):
    """Must-catch: the star given a hairline of its own (so the low-ink outline rule leaves it to
    its tints, as before review 3) measures under the bar."""
    data = copy_data(tmp_path / "data", ["comrade"])
    booklet = data / "comrade" / "print" / "booklet.yaml"
    text = booklet.read_text("utf-8")
    star = "fill: gold, layer: 2}"
    booklet.write_text(
        text.replace(star, "fill: gold, stroke: gold, stroke_width: 0.01mm, layer: 2}", 1),
        encoding="utf-8",
    )
    result = build(
        data, tmp_path / "out", games=["comrade"], langs=["fr"], papers=["a4"], low_ink=True
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    path = tmp_path / "out" / "comrade" / "fr" / "comrade-fr-rules-lowink-a5.pdf"
    assert emblem_contrast(path, data, "comrade") < EMBLEM_CONTRAST


# --- review 3-D: no flat grey band on a low-ink cover --------------------------------------------
def grey_share(path: Path, page: int) -> float:
    """The share of a page's pixels in a neutral mid-grey: channels within 2 % of each other (a
    tint of a colour as dark as Assassin's night blue keeps more hue), neither near black (type)
    nor near white (paper)."""
    document = pypdfium2.PdfDocument(str(path))
    image = np.asarray(document[page].render(scale=40 / 72).to_pil().convert("RGB")).astype(int)
    document.close()
    spread = image.max(axis=2) - image.min(axis=2)
    level = image.mean(axis=2)
    grey = (spread < 0.02 * 255) & (level > 0.3 * 255) & (level < 0.85 * 255)
    return float(grey.mean())


GREY_COVER = 0.05  # a cover may hold some grey (an outline's antialiasing, a tint), not a band


@pytest.mark.parametrize("game", GAMES)
def test_a_low_ink_cover_has_no_flat_grey_band(tmp_path_factory, game):
    """Review 3-D: Comrade Stalin's low-ink front cover printed its black band as a flat mid-grey
    over 47 % of the page, the heaviest ink of the booklet, and its back a grey disc. On a low-ink
    cover a black or grey band or disc is paper white inside an outline."""
    out, _ = shared_build(tmp_path_factory, games=GAMES, papers=["a4"], low_ink=True)
    for lang in ("en", "fr"):
        path = out / game / lang / f"{game}-{lang}-rules-lowink-a5.pdf"
        last = len(pypdfium2.PdfDocument(str(path))) - 1
        for page in (0, last):
            assert grey_share(path, page) < GREY_COVER, (path.name, page + 1)


def test_the_grey_guard_catches_the_band_review_3d_saw(tmp_path, monkeypatch):
    """Must-catch: with black bands tinted as every other fill, Comrade Stalin's cover is grey."""
    from printshop import memos
    from printshop.render import booklet_covers

    monkeypatch.setattr(booklet_covers, "_neutral_dark", lambda paints, shape: False)
    data = copy_data(tmp_path / "data", ["comrade-stalin"])
    memos.BOOKLETS.clear()  # a booklet this process set before is not set again
    try:
        result = build(
            data, tmp_path / "out", games=["comrade-stalin"], langs=["en"], papers=["a4"],
            low_ink=True, jobs=1,
        )  # fmt: skip
    finally:
        memos.BOOKLETS.clear()  # nor is this one kept for a later build
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    path = tmp_path / "out" / "comrade-stalin" / "en" / "comrade-stalin-en-rules-lowink-a5.pdf"
    assert grey_share(path, 0) > 0.3


# --- review 3: cut guides a low-ink kit keeps dark -------------------------------------------------
def darkest_in_left_margin(path: Path, page: int = 0) -> int:
    """The darkest grey (0 black, 255 white) in the strip 5.5 to 8.5 mm from the page's left edge,
    down its middle half: on a card sheet only the crop marks of the rows stand there."""
    document = pypdfium2.PdfDocument(str(path))
    image = np.asarray(document[page].render(scale=100 / 72).to_pil().convert("L"))
    document.close()
    px = 100 / 25.4
    height = image.shape[0]
    strip = image[height // 4 : 3 * height // 4, round(5.5 * px) : round(8.5 * px)]
    return int(strip.min())


def test_a_low_ink_kit_prints_its_cut_marks_dark(tmp_path_factory):
    """Review 3: the low-ink crop marks and overlap triangles were 25 % grey (about 1.9:1 on white),
    the only guide to cut by where low ink leaves no picture. Marks print at full strength: a
    hairline costs no ink."""
    out, _ = shared_build(tmp_path_factory, games=GAMES, papers=["a4"], low_ink=True)
    path = out / "comrade" / "en" / "comrade-en-cards-lowink-a4.pdf"
    assert darkest_in_left_margin(path) < 100


def test_the_mark_guard_catches_marks_in_a_tint(tmp_path):
    """Must-catch: marks drawn in a 25 % grey measure as light."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "marks.pdf"
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setStrokeGray(0.75)
    canvas.setLineWidth(mm(0.2))
    for y in range(300, 600, 100):
        canvas.line(mm(5.5), y, mm(9.5), y)
    canvas.save()
    assert darkest_in_left_margin(path) > 150
