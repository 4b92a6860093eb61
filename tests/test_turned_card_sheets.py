"""Issue 16: card sheets laid out from data (`print_and_play.card_sheets` in media.yaml). On Letter
poker cards lie on their side, 2 × 4 to a page instead of 3 × 2, and each back, turned the other way
for long-edge duplex (the same way for short-edge), lies behind its front with its top behind the
front's top. Read from the pixels: the page of backs is turned over as the printer turns the sheet
and laid on its page of fronts.

Built from the sampler fixture game (tests/fixtures/sampler) with 16 tokens, each face marked with a
dark band along its top edge, and the first token given a gold back of its own.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pypdfium2
import pytest
from pypdf import PdfReader

from printshop.layout.imposition import back_turn, turned_origin
from printshop.pipeline.build import build, check
from printshop.project.units import mm
from printshop.render.sheets import deck_grid
from tests.conftest import edit, fixture_project, found

DPI = 72
CARDS = 16


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("turned")
    data, templates = fixture_project(root)
    game, faces = data / "sampler" / "game.yaml", data / "sampler" / "faces.yaml"
    edit(
        game,
        "{id: order, kind: order, front: token-order}",
        "{id: order, kind: order, front: token-order, back: token-back-gold}",
    )
    edit(
        game,
        "{id: plain, kind: plain, count: 3, front: token}",
        f"{{id: plain, kind: plain, count: {CARDS - 1}, front: token}}",
    )
    band = "    shapes:\n      top: {kind: rect, x: -3.175mm, y: -3.175mm, width: 69.35mm, height: 15mm, fill: ink, layer: -1}\n"
    edit(
        faces,
        "    template: sampler/token.j2\n    background: paper\n",
        "    template: sampler/token.j2\n    background: paper\n" + band,
    )
    edit(
        faces,
        "    template: sampler/token-back.j2\n    background: red\n",
        "    template: sampler/token-back.j2\n    background: red\n" + band,
    )
    edit(
        faces,
        "  aid-front:",
        "  token-back-gold: {extends: token-back, background: gold}\n\n  aid-front:",
    )
    return SimpleNamespace(data=data, templates=templates, root=root)


@pytest.fixture(scope="module")
def kits(project):
    built = {}
    for flip in ("long-edge", "short-edge"):
        out = project.root / flip
        result = build(
            project.data,
            out,
            templates_dir=project.templates,
            langs=["en"],
            papers=["a4", "letter"],
            flip=flip,
            jobs=1,
        )
        assert not result.report.has_errors, [d.format() for d in result.report.errors]
        built[flip] = out / "sampler" / "en"
    return built


@pytest.fixture(scope="module")
def grids(project):
    report, checked = check(
        project.data, templates_dir=project.templates, games=["sampler"], langs=["en"], variant=None
    )
    [deck] = [deck for layout in checked.layouts for deck in layout.decks]
    media = checked.project.media
    return {
        paper: deck_grid(
            deck, SimpleNamespace(paper_id=paper, paper=media.papers[paper], media=media)
        )
        for paper in ("a4", "letter")
    }


def test_letter_turns_poker_cards_to_hold_eight_a_page_and_a4_keeps_nine_upright(grids):
    letter, a4 = grids["letter"], grids["a4"]
    assert (letter.turn, letter.columns, letter.rows) == (90, 2, 4)
    assert (letter.card_width, letter.card_height) == pytest.approx((mm(88), mm(63)))
    assert (a4.turn, a4.columns, a4.rows, a4.card_width) == (0, 3, 3, pytest.approx(mm(63)))


@pytest.mark.parametrize(
    "count, paper, grid",
    [
        (2, "a4", (2, 1)),
        (4, "a4", (3, 2)),
        (9, "a4", (3, 3)),
        (3, "letter", (2, 2)),
        (1, "letter", (1, 1)),
    ],
)
def test_a_deck_of_one_page_takes_the_rows_and_columns_its_cards_fill(project, count, paper, grid):
    """A deck of four cards on A4 was set in the whole 3 × 3 grid: its crop marks ran down both
    margins beside the rows no card was in, and under columns none was in, as if cards were missing.
    Its cut lines are now its cards' only; several pages keep the full grid (the other tests)."""
    from dataclasses import replace

    report, checked = check(
        project.data, templates_dir=project.templates, games=["sampler"], langs=["en"], variant=None
    )
    [deck] = [deck for layout in checked.layouts for deck in layout.decks]
    media = checked.project.media
    settings = SimpleNamespace(paper_id=paper, paper=media.papers[paper], media=media)
    made = deck_grid(replace(deck, cards=deck.cards[:count]), settings)
    assert (made.columns, made.rows) == grid
    assert (
        len(made.cut_xs()) == grid[0] + 1 and len(made.cut_ys()) == grid[1] + 1
    )  # the marks drawn: its cut lines


def _image(path, number: int) -> np.ndarray:
    document = pypdfium2.PdfDocument(str(path))
    image = np.asarray(document[number].render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)
    document.close()
    return image


def _box(grid, index: int, inset: float = 0.0) -> tuple[slice, slice]:
    """Rows and columns of pixels of the index-th cell of the fronts' page (inset by `inset`
    points)."""
    x, y = grid.front(index)
    scale = DPI / 72
    top = (grid.page_height - y - grid.card_height + inset) * scale
    bottom = (grid.page_height - y - inset) * scale
    return slice(round(top), round(bottom)), slice(
        round((x + inset) * scale), round((x + grid.card_width - inset) * scale)
    )


def _band_side(image: np.ndarray, grid, index: int) -> str:
    """Which edge of the cell the dark band runs along: the face's top edge, as it lies on the page."""
    rows, columns = _box(grid, index, mm(1))
    cell = image[rows, columns].mean(axis=2)
    depth = round(mm(4) * DPI / 72)
    strips = {
        "top": cell[:depth],
        "bottom": cell[-depth:],
        "left": cell[:, :depth],
        "right": cell[:, -depth:],
    }
    return min(strips, key=lambda side: strips[side].mean())


def _turned_over(image: np.ndarray, flip: str) -> np.ndarray:
    """The page of backs as it lies under its fronts once the printer turned the (upright) sheet
    over: about its vertical axis for long-edge duplex, its horizontal one for short-edge."""
    return image[:, ::-1] if flip == "long-edge" else image[::-1, :]


@pytest.mark.parametrize("flip", ["long-edge", "short-edge"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_back_lies_behind_its_front_top_behind_top(kits, grids, paper, flip):
    grid = grids[paper]
    path = kits[flip] / f"sampler-en-tokens-{paper}.pdf"
    pages = len(PdfReader(path).pages)
    assert pages == 4  # 16 tokens: two pages of fronts, each followed by its backs
    on_page = [grid.per_page, CARDS - grid.per_page]  # 8 and 8 on Letter, 9 and 7 on A4
    for sheet in range(2):
        fronts, backs = _image(path, 2 * sheet), _turned_over(_image(path, 2 * sheet + 1), flip)
        upright_top = "left" if grid.turn == 90 else "top"
        for index in range(on_page[sheet]):
            # the fronts lie as the layout says: a card's top at the page's left on Letter
            assert _band_side(fronts, grid, index) == upright_top, (sheet, index)
            # the back under it: the same cell, its top edge behind the front's top edge
            assert _band_side(backs, grid, index) == upright_top, (paper, flip, sheet, index)
            rows, columns = _box(grid, index, mm(1))
            colours = backs[rows, columns].reshape(-1, 3)
            gold = ((np.abs(colours - (0xD9, 0xA5, 0x2B)) < 40).all(axis=1)).mean()
            red = ((colours[:, 0] > 120) & (colours[:, 1] < 90) & (colours[:, 2] < 90)).mean()
            if sheet == 0 and index == 0:  # the first token's own back
                assert gold > 0.5 and red < 0.05, (paper, flip, gold, red)
            else:
                assert red > 0.5 and gold < 0.05, (paper, flip, index, gold, red)
        # nothing of the backs strays beside the cards: their area, and the outer bleed, is all the
        # backs cover
        scale = DPI / 72
        grow = mm(2.5)
        used_rows = -(-on_page[sheet] // grid.columns)
        top = grid.page_height - grid.bottom - grid.rows * grid.card_height - grow
        area = (
            slice(
                round(top * scale), round((top + used_rows * grid.card_height + 2 * grow) * scale)
            ),
            slice(
                round((grid.left - grow) * scale),
                round((grid.left + grid.columns * grid.card_width + grow) * scale),
            ),
        )
        inked = lambda image: (image[area] < 250).any(axis=2)  # noqa: E731
        assert (inked(fronts) != inked(backs)).mean() < 0.003, (paper, flip, sheet)


@pytest.mark.parametrize("flip", ["long-edge", "short-edge"])
def test_turned_pages_keep_every_mark_out_of_the_band_printers_cannot_print(kits, flip):
    band = round(mm(5) * DPI / 72)
    path = kits[flip] / "sampler-en-tokens-letter.pdf"
    for number in range(len(PdfReader(path).pages)):
        image = _image(path, number)
        edges = np.ones(image.shape[:2], dtype=bool)
        edges[band:-band, band:-band] = False
        assert not ((image < 255).any(axis=2) & edges).any(), number


def test_turning_geometry():
    # a quarter turn fills the cell from its bottom-right corner; a back turned the other way from
    # its top-left
    assert turned_origin(10, 20, 88, 63, 90) == (98, 20)
    assert turned_origin(10, 20, 88, 63, 270) == (10, 83)
    assert turned_origin(10, 20, 63, 88, 180) == (73, 108)
    portrait = (612, 792)
    assert (
        back_turn(90, "long-edge", *portrait) == 270
        and back_turn(90, "short-edge", *portrait) == 90
    )
    assert (
        back_turn(0, "long-edge", *portrait) == 0 and back_turn(0, "short-edge", *portrait) == 180
    )
    assert back_turn(90, "long-edge", 792, 612) == 90  # a landscape page turns over top to bottom


def test_a_card_sheet_layout_names_a_known_paper_and_card_size(data_copy):
    media = data_copy / "print" / "media.yaml"
    line = edit(media, "      poker-us: {turn: 90}", "      poker-xx: {turn: 90}")
    items = [d for d in found(data_copy, "unknown-reference") if "card_sheets" in d.message]
    assert (
        len(items) == 1
        and "no card size 'poker-xx'" in items[0].message
        and items[0].location.line == line
    )


def _sized(root, card: str, sheets: str = ""):
    """The sampler fixture game with its deck's cards of size `card` (media.yaml's form, in the
    project's own data/print/media.yaml laid over printshop's), and print_and_play.card_sheets
    `sheets` if given."""
    data, templates = fixture_project(root)
    media = f"card_sizes:\n  big: {card}\n" + (
        f"print_and_play:\n  card_sheets:\n{sheets}" if sheets else ""
    )
    (data / "print" / "media.yaml").write_text(media, encoding="utf-8")
    line = edit(data / "sampler" / "game.yaml", "card_size: poker-eu", "card_size: big")
    return data, templates, line


def test_a_card_no_paper_of_the_kit_holds_is_refused_by_validate_with_the_largest_that_fits(
    tmp_path,
):
    """A card larger than a print-and-play paper holds with its crop marks and footer: `validate`
    said nothing, and the build failed with 'unknown-reference' and a hint to pick one of names it
    did not list."""
    data, templates, line = _sized(tmp_path, "{width: 200mm, height: 290mm}")
    report, _ = check(data, templates_dir=templates, games=["sampler"], variant=None)
    items = [d for d in report.items if d.code == "paper-too-small"]
    assert [(d.location.path.endswith("sampler/game.yaml"), d.location.line) for d in items] == [
        (True, line)
    ] * 2
    a4, letter = (d.message for d in items)
    assert a4 == (
        "deck 'tokens' on a4: a big card (200 × 290 mm) does not fit on A4 (210 × 297 mm) with room for "
        "the crop marks and the footer: the largest card it holds is 190 × 272.8 mm"
    ), a4
    assert letter.startswith(
        "deck 'tokens' on letter: a big card (200 × 290 mm) does not fit on US Letter "
        "(215.9 × 279.4 mm)"
    ), letter
    result = build(data, tmp_path / "out", templates_dir=templates, langs=["en"], jobs=1)
    assert [d.code for d in result.report.errors] == ["paper-too-small"] * 2 and not (
        tmp_path / "out"
    ).exists()
    # as its hint says, a larger paper built alone holds it: the papers a build prints are the ones
    # checked
    media = data / "print" / "media.yaml"
    media.write_text(
        media.read_text() + "papers:\n  a3: {width: 297mm, height: 420mm, label: A3}\n"
    )
    result = build(
        data, tmp_path / "out", templates_dir=templates, langs=["en"], papers=["a3"], jobs=1
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    assert (tmp_path / "out" / "sampler" / "en" / "sampler-en-tokens-a3.pdf").is_file()
    # the largest card it names is held: no error for it, and its sheets are built
    data, templates, _ = _sized(tmp_path / "largest", "{width: 190mm, height: 272.8mm}")
    result = build(
        data,
        tmp_path / "largest" / "out",
        templates_dir=templates,
        langs=["en"],
        papers=["a4"],
        jobs=1,
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]


def test_a_card_a_paper_holds_only_turned_is_held_where_card_sheets_turn_it(tmp_path):
    """250 × 180 mm is too wide for A4 upright and fits turned a quarter: the check follows
    card_sheets."""
    card = "{width: 250mm, height: 180mm}"
    data, templates, _ = _sized(tmp_path / "upright", card)
    report, _ = check(data, templates_dir=templates, games=["sampler"], variant=None)
    assert {d.message.split(":")[0] for d in report.items if d.code == "paper-too-small"} == {
        "deck 'tokens' on a4",
        "deck 'tokens' on letter",
    }
    data, templates, _ = _sized(
        tmp_path / "turned", card, "    a4: {big: {turn: 90}}\n    letter: {big: {turn: 90}}\n"
    )
    report, _ = check(data, templates_dir=templates, games=["sampler"], variant=None)
    assert not [d for d in report.items if d.code == "paper-too-small"], [
        d.format() for d in report.items
    ]
    result = build(
        data,
        tmp_path / "turned" / "out",
        templates_dir=templates,
        langs=["en"],
        papers=["a4"],
        jobs=1,
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
