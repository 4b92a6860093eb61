"""Kremlin: its rules in the validator, and both decks in French (source) and English."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from printshop.pipeline.build import build, check
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.conftest import (
    copy_data,
    edit,
    found,
    kit_view,
    line_of,
    one,
    real_project,
    tiled_sheet,
    tiling_of,
)
from tests.pdfinspect import page_drawing, page_texts, words


def test_the_age_tie_of_h_and_i_is_a_warning_naming_both_cards():
    report, _ = check(DEFAULT_DATA_DIR, games=["kremlin"])
    [tie] = [d for d in report.items if d.code == "tie"]
    game = DEFAULT_DATA_DIR / "kremlin" / "game.yaml"
    assert tie.severity.value == "warning"
    assert tie.location.line == line_of(game, "{id: h,")
    assert (
        f"'i' at {tie.location.path}:{line_of(game, '{id: i,')}" in tie.message
        and "share age 69" in tie.message
    )


def test_kremlin_data_is_otherwise_clean():
    report, _ = check(DEFAULT_DATA_DIR, games=["kremlin"])
    # the board's office banners are being redrawn apart from issue 51's insets (test_insets.py)
    left = [
        d for d in report.items if not (d.code == "text-inset" and "sheet 'board'" in d.message)
    ]
    assert {d.code for d in left if not d.acknowledged} <= {"tie", "reconstructed"}, [
        d.format() for d in report.items
    ]


def test_a_missing_letter(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    edit(game, "vars: {letter: Q,", "vars: {letter: P,")
    items = found(data_copy, "composition", games=["kremlin"])
    assert any("P ×2" in d.message and "Q ×0" in d.message for d in items)
    assert all(d.location.line == line_of(game, "one_each:") for d in items)


def test_a_strength_that_is_no_office(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    line = edit(
        game,
        "vars: {letter: G, age: 70, strong: sport,",
        "vars: {letter: G, age: 70, strong: chess,",
    )
    item = one(data_copy, "unknown-reference", games=["kremlin"])
    assert item.location.line == line and "strong 'chess'" in item.message


def test_a_gap_in_the_intrigue_numbers(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    edit(game, "vars: {number: 17}", "vars: {number: 35}")
    item = one(data_copy, "composition", games=["kremlin"])
    assert item.location.line == line_of(game, "sequence:") and "missing [17]" in item.message


def test_succession_orders_name_real_offices_once(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    line = edit(
        game,
        "succession: [ideology, kgb, industry, economy, sport, defence]",
        "succession: [ideology, kgb, ideology, economy, sport, defence]",
    )
    item = one(data_copy, "succession", games=["kremlin"])
    assert item.location.line == line and "'ideology' appears twice" in item.message
    edit(game, "promotions: [kgb, foreign, defence,", "promotions: [kgb, kgb, defence,")
    assert any(
        "missing ['foreign']" in d.message
        for d in found(data_copy, "succession", games=["kremlin"])
    )


def test_an_office_that_does_not_exist(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    line = edit(game, "acts: defence, succession: [foreign,", "acts: army, succession: [foreign,")
    assert one(data_copy, "unknown-reference", games=["kremlin"]).location.line == line


@pytest.fixture(scope="module")
def kremlin_kit(tmp_path_factory):
    return kit_view(
        tmp_path_factory, ["kremlin"]
    )  # the files `build(..., games=["kremlin"])` writes


def _texts(kit, lang, deck, paper="a4"):
    path = kit / "kremlin" / lang / f"kremlin-{lang}-{deck}-{paper}.pdf"
    return words(path), PdfReader(path)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_politician_name_is_printed(kremlin_kit, lang):
    text, reader = _texts(kremlin_kit, lang, "politicians")
    game = real_project(["kremlin"]).games["kremlin"]
    names = [
        e.text
        for i, e in game.catalogues[lang].entries.items()
        if re.fullmatch(r"politician\.[a-z]\.name", i)
    ]
    assert len(names) == 26
    for name in names:
        assert " ".join(name.split()) in text, name
    assert sum(len(page_drawing(reader, i)[0]) for i in range(0, len(reader.pages), 2)) == 26


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_intrigue_title_is_printed(kremlin_kit, lang):
    text, reader = _texts(kremlin_kit, lang, "intrigue", "letter")
    game = real_project(["kremlin"]).games["kremlin"]
    titles = [
        e.text
        for i, e in game.catalogues[lang].entries.items()
        if re.fullmatch(r"intrigue\.n\d\d\.title", i)
    ]
    assert len(titles) == 34
    for title in titles:
        assert " ".join(title.replace("’", "’").split()) in text, title
    assert sum(len(page_drawing(reader, i)[0]) for i in range(0, len(reader.pages), 2)) == 34


def test_french_names_are_the_pun_names(kremlin_kit):
    french, _ = _texts(kremlin_kit, "fr", "politicians")
    english, _ = _texts(kremlin_kit, "en", "politicians")
    assert "Goferbrok" in english and "Goferbrok" not in french and "Aparatschik" in french


# --- the board, the sheets, the markers ----------------------------------------------------------
def _kremlin():
    return real_project(["kremlin"]).games["kremlin"]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_tiles_reassemble_the_whole_board_with_the_stated_overlap(kremlin_kit, lang, paper):
    checked, layout, sheet = tiled_sheet("kremlin", lang, "board")
    spec = sheet.spec
    tiling = tiling_of(checked, layout, sheet, paper)
    reader = PdfReader(kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-board-{paper}.pdf")
    windows = []  # each page's window on the board, read from where the page places the board
    for index, tile in enumerate(tiling.tiles(), start=1):  # page 1 is the assembly diagram
        [placement], _ = page_drawing(reader, index)
        ox, oy = tiling.origin_of(tile)
        left, bottom = ox - placement.x, oy - placement.y
        windows.append((left, bottom, left + tile.width, bottom + tile.height))
    by_row = [windows[r * tiling.columns : (r + 1) * tiling.columns] for r in range(tiling.rows)]
    for row in by_row:  # neighbours share the overlap, whatever the seams' places
        for a, b in zip(row, row[1:]):
            assert a[2] - b[0] == pytest.approx(spec.overlap, abs=0.01)
        assert row[0][0] == pytest.approx(0, abs=0.01)
        assert row[-1][2] == pytest.approx(spec.width, abs=0.01)
    for upper, lower in zip(by_row, by_row[1:]):
        assert lower[0][3] - upper[0][1] == pytest.approx(spec.overlap, abs=0.01)
    # the windows cover the board exactly: no empty strip at any edge
    assert by_row[0][0][3] == pytest.approx(spec.height, abs=0.01)
    assert by_row[-1][0][1] == pytest.approx(0, abs=0.01)
    assert len(windows) == len(reader.pages) - 1


def test_the_press_board_is_one_page_with_trim_and_bleed_boxes(kremlin_kit):
    from printshop.project.units import mm

    reader = PdfReader(kremlin_kit / "kremlin" / "fr" / "kremlin-fr-board-press.pdf")
    [page] = reader.pages
    b = mm(3)  # the kit's press pages follow media.yaml's press_profile, eu-3mm: 3 mm bleed
    assert float(page.mediabox.width) == pytest.approx(mm(600) + 2 * b, abs=0.01)
    assert [float(v) for v in page.trimbox] == pytest.approx(
        [b, b, b + mm(600), b + mm(540)], abs=0.01
    )
    assert [float(v) for v in page.bleedbox] == pytest.approx(
        [0, 0, mm(600) + 2 * b, mm(540) + 2 * b], abs=0.01
    )


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_board_and_phase_reference_print_the_numbers_of_the_data(kremlin_kit, lang):
    from printshop.language.resolve import board_view

    board = board_view(_kremlin())
    texts = {}
    for what in ("board-press", "reference-a4"):
        texts[what] = words(kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-{what}.pdf")
    codes = [step["code"] for phase in board["phases"] for step in phase["order"]]
    assert codes == [
        "2A",
        "2B",
        "2C",
        "3A",
        "3B",
        "3C",
        "3D",
        "5A",
        "5B",
        "5C",
        "5D",
        "5E",
        "5F",
        "6A",
        "6B",
        "6C",
        "6D",
        "6E",
        "6F",
        "6G",
    ]
    for code in codes:
        assert code in texts["reference-a4"], code
        assert code in texts["board-press"], code
    for purge in {office["purge"] for office in board["offices"]} | {board["candidate_purge"]}:
        assert re.search(rf"PURGE {purge}\b", texts["board-press"], re.IGNORECASE), purge
    assert (
        "20" in texts["board-press"] and "18–20" in texts["board-press"]
    )  # the health table's last row


def test_the_influence_sheet_lists_every_controllable_politician(kremlin_kit):
    reader = PdfReader(kremlin_kit / "kremlin" / "en" / "kremlin-en-influence-a4.pdf")
    text = " ".join(
        page_texts(kremlin_kit / "kremlin" / "en" / "kremlin-en-influence-a4.pdf")[0].split()
    )
    game = _kremlin()
    names = [
        game.catalogues["en"].entries[f"politician.{letter}.name"].text
        for letter in "bcdefghijklmnopqrstuvwxyz"
    ]
    assert (
        all(name in text for name in names) and "Nestor Aparatschik" not in text
    )  # only named in the instructions
    assert len(reader.pages) == game.game.sheets["influence"].copies


MARGIN = 5 * 72 / 25.4  # media.yaml's print_and_play.margin: the band home printers cannot print
CHIT = 16 * 72 / 25.4


def blank_share(path, page: int) -> float:
    """The share of a page's printable area (inside the margin) that no chit covers: the chits
    placed on it (faces in the PDF), each 16 mm square, against the page less its margin band."""
    reader = PdfReader(path)
    box = reader.pages[page].mediabox
    printable = (float(box.width) - 2 * MARGIN) * (float(box.height) - 2 * MARGIN)
    return 1 - len(page_drawing(reader, page)[0]) * CHIT * CHIT / printable


def test_the_markers_fill_their_pages_with_spares_beside_each_marker(kremlin_kit):
    """Issue 51: the 195 markers left 35 % of their sheets empty (9 rows of the 17 an A4 page holds,
    to spread them evenly). With `spares`, each page takes every row its marks leave room for (11 x
    17 on A4, 12 x 15 on Letter) and the slots left are spares, given to every marker in turn, each
    beside its own: under a quarter of the printable area is left blank (docs/design.md, "Filling
    the page")."""
    for lang, paper, (columns, rows) in (("fr", "a4", (11, 17)), ("en", "letter", (12, 15))):
        path = kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-markers-{paper}.pdf"
        reader = PdfReader(path)
        assert len(reader.pages) == 2  # the deck's pages, no more
        for page in range(2):
            placements, segments = page_drawing(reader, page)
            assert len(placements) == columns * rows  # every slot holds a marker or a spare
            assert len(segments) == 2 * (columns + 1 + rows + 1)  # a pair of marks a cut line
            assert blank_share(path, page) < 0.25, (paper, page, blank_share(path, page))
        # the first marker (f1-1, three of them) has its spares right after it, before f1-2's
        names = [placed.name for placed in page_drawing(reader, 0)[0]]
        assert names[0] == names[3] and names[3] != names[6]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_spares_are_shared_evenly_between_the_factions(kremlin_kit, paper):
    """Review 3: the spares went to every marker in deck order, so a round cut short gave the first
    factions 45 numbered markers and the last 35. A round that does not go all the way round goes
    by face in turn: no faction has more markers than another but by one of each kind."""
    from collections import Counter

    from tests.test_derived_files import factions

    path = kremlin_kit / "kremlin" / "en" / f"kremlin-en-markers-{paper}.pdf"
    counts = Counter(name for name in factions(path) if name is not None)
    assert len(counts) == 6 and max(counts.values()) - min(counts.values()) <= 2, counts


def test_the_spares_guard_catches_spares_given_in_deck_order():
    """Must-catch: the spares given in deck order (each card its own face) favour the first."""
    from collections import Counter
    from types import SimpleNamespace

    from printshop.render.sheets import sheet_cards

    cards = [(f"f{f}-{v}", None) for f in range(1, 4) for v in range(1, 5)]
    deck = SimpleNamespace(spares=True)
    grid = SimpleNamespace(per_page=20)  # 12 cards, 8 spares: not a whole round
    for faces, spread in (
        ({card: SimpleNamespace(face_name=card) for card, _ in cards}, 4),
        ({card: SimpleNamespace(face_name=card.split("-")[0]) for card, _ in cards}, 1),
    ):
        laid = SimpleNamespace(cards=cards, deck=deck, faces=faces)
        counts = Counter(card.split("-")[0] for card, _ in sheet_cards(laid, grid))
        assert max(counts.values()) - min(counts.values()) == spread, counts


def test_the_fill_guard_catches_markers_spread_thin(tmp_path):
    """Must-catch: without `spares` the markers are spread over the two pages, 9 rows of 11 (99
    and 96), and more than a third of each page's printable area is blank."""
    data = copy_data(tmp_path / "data", ["kremlin"])
    game = data / "kremlin" / "game.yaml"
    text = game.read_text("utf-8")
    assert "    spares: true\n" in text
    game.write_text(text.replace("    spares: true\n", ""), "utf-8")
    result = build(data, tmp_path / "out", games=["kremlin"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors
    path = tmp_path / "out" / "kremlin" / "en" / "kremlin-en-markers-a4.pdf"
    assert len(page_drawing(PdfReader(path), 0)[0]) == 99
    assert blank_share(path, 0) > 0.25 and blank_share(path, 1) > 0.25


BOX_DPI = 150


def drawn_boxes(grey) -> list[tuple[float, list[float], list[tuple[float, float]]]]:
    """The boxes drawn down the right half of a page (`grey`, a numpy array at BOX_DPI), column by
    column from the left: (width, [height of each box], [(room above, room below) each box]) in
    millimetres. A box's upright sides are the columns inked far more than the rest (the table's
    rules cross every column once a row); its height is each run dark down both its sides; its
    room, the light run from its top and bottom edges to the next ink (a row's rule) just left of
    it."""
    import numpy as np

    px = BOX_DPI / 25.4
    half = grey[:, grey.shape[1] // 2 :] < 128
    profile = half[half.mean(axis=1) < 0.5].sum(axis=0)  # (not the title's band, nor the rules)
    strong = np.flatnonzero(profile > max(4 * np.median(profile), 0.3 * profile.max(), 1))
    groups: list[list[int]] = []
    for column in strong:
        if groups and column - groups[-1][-1] <= 2:
            groups[-1].append(int(column))
        else:
            groups.append([int(column)])
    boxes = []
    for left, right in zip(groups[::2], groups[1::2]):
        # dark down both sides at once: a box (a letter of the header crosses one side, not both)
        side = (half[:, left[len(left) // 2]] & half[:, right[len(right) // 2]]).astype(np.int8)
        edges = np.diff(np.concatenate(([0], side, [0])))
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        middle = (left[-1] + right[0]) // 2
        outside = half[:, max(left[0] - round(0.8 * px), 0)]  # beside the box: the rules only
        span = slice(left[0], right[-1] + 1)
        kept = [  # an outline, light inside (not a filled band, such as the header's), closed above
            (start, end)  # and below (not two letters of the header that cross both sides)
            for start, end in zip(starts, ends)
            if (end - start) / px >= 1
            and not half[(start + end) // 2, middle]
            and half[start, span].mean() > 0.8
            and half[end - 1, span].mean() > 0.8
        ]
        rooms = []
        for start, end in kept:
            above = np.flatnonzero(outside[:start])
            below = np.flatnonzero(outside[end:])
            rooms.append(
                (
                    (start - above[-1] - 1) / px if above.size else 99.0,
                    below[0] / px if below.size else 99.0,
                )
            )
        heights = [(end - start) / px for start, end in kept]
        boxes.append(((right[-1] - left[0] + 1) / px, heights, rooms))
    return boxes


# the influence sheet: the secret figure's box, then a strip of one box per influence point a row
# may be declared in instalments up to (data/kremlin/text: the values 1 to 10)
TICKS = 10


def box_problems(
    grey, rows: int, figure: tuple[float, float] = (11.5, 5.5), tick: float = 3.5
) -> list[str]:
    """Why the influence sheet's page (`grey`) is no place to write and tick on: not a column of
    `rows` boxes for the secret figure (`figure`: its least width and height in millimetres) and
    TICKS columns of boxes to tick (`tick` mm or more each way: 3.8 mm drawn, less a little where
    the fit takes a smaller size), or a figure's box not centred in its row with 0.8 mm or more clear
    above and below."""
    boxes = drawn_boxes(grey)
    if len(boxes) != 1 + TICKS:
        return [f"{len(boxes)} columns of boxes, not {1 + TICKS} (the secret figure and the ticks)"]
    problems = []
    for index, (width, heights, rooms) in enumerate(boxes):
        name = "secret figure" if index == 0 else f"tick {index}"
        wide, high = figure if index == 0 else (tick, tick)
        if len(heights) != rows:
            problems.append(f"{name}: {len(heights)} boxes for {rows} politicians")
        if width < wide or min(heights, default=0) < high:
            problems.append(f"{name}: boxes {width:.1f} × {min(heights, default=0):.1f} mm")
        if index == 0:
            for row, (above, below) in enumerate(rooms[:-1]):  # (no rule under the last)
                if min(above, below) < 0.8 or abs(above - below) > 0.35:
                    problems.append(
                        f"{name}, row {row + 1}: {above:.1f} mm clear above, {below:.1f} below"
                    )
    return problems


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_influence_sheet_has_boxes_to_write_and_tick_on(kremlin_kit, lang, paper):
    """Issue 51: the tick "boxes" were a 3 mm glyph and the secret figure had no place; then one
    tick box a row, where a player declares in several goes. Each of the 25 controllable
    politicians gets a drawn box for the secret figure, 12 × 6 mm, centred in its row with 1 mm
    clear above and below, and ten boxes of 3.5 mm or more to tick (must-pass); the measure finds
    boxes of 3 mm, a missing column and a box set high in its row (must-catch)."""
    import numpy as np
    import pypdfium2

    path = kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-influence-{paper}.pdf"
    document = pypdfium2.PdfDocument(str(path))
    grey = document[0].render(scale=BOX_DPI / 72, grayscale=True).to_numpy()
    document.close()
    assert box_problems(grey, 25) == []
    assert "☐" not in page_texts(path)[0]  # (the glyph is gone)

    px = BOX_DPI / 25.4
    small = np.full((round(260 * px), round(200 * px)), 255, dtype=np.uint8)
    for row in range(25):  # 3 mm boxes, set high in 8 mm rows, where the sheet has its own
        top = round((50 + 8 * row) * px)
        small[top, round(100 * px) :] = 0  # the row's rule
        for left in (120, *range(150, 150 + 5 * TICKS, 5)):
            box, x = top + round(0.3 * px), round(left * px)
            side = round(3 * px)
            small[box : box + side, x : x + side] = 0
            small[box + 1 : box + side - 1, x + 1 : x + side - 1] = 255
    found = box_problems(small, 25)
    assert found and all("3.0" in problem or "clear above" in problem for problem in found), found
    assert any("clear above" in problem for problem in found)
    one_column = small.copy()
    one_column[:, round(140 * px) :] = 255
    assert box_problems(one_column, 25) == [
        "1 columns of boxes, not 11 (the secret figure and the ticks)"
    ]


def test_the_influence_sheet_s_columns_line_up():
    """Each header is set like its column."""
    _, checked = check(DEFAULT_DATA_DIR, games=["kremlin"], langs=["fr"], variant=None)
    sheet = next(s for layout in checked.layouts for s in layout.sheets if s.id == "influence")
    [table] = [
        block for frame in sheet.faces[0].frames for block in frame.blocks if hasattr(block, "rows")
    ]
    assert table.aligns == ["center", "left", "center", "center"]


def test_a_table_column_alignment_is_checked():
    from printshop.typeset.richtext import RichTextError, parse_blocks

    [table] = parse_blocks('<table align="left,right"><tr><td>a</td><td>b</td></tr></table>')
    assert table.aligns == ["left", "right"]
    with pytest.raises(RichTextError, match="one of left, center, right"):
        parse_blocks('<table align="left,middle"><tr><td>a</td><td>b</td></tr></table>')
