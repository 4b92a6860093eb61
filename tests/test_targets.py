"""The targets beyond kits and press files: Tabletop Simulator, print-and-cut, previews and
online-table images. TTS runs on every game and language; the heavier geometry on two games in
English."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader
from pypdf.generic import ContentStream

from printshop.cli import main
from printshop.pipeline.build import BadRequest, build
from printshop.pipeline.plan import plan
from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR, discover_games
from printshop.render.raster import pixels_within
from tests.conftest import shared_build
from tests.pdfinspect import page_drawing

MM = 72 / 25.4
CUT_GAMES = [
    "comrade",
    "kremlin",
]  # poker cards with common and own backs; one-sided 16 mm counters


@pytest.fixture(scope="module")
def project():
    return load_project(DEFAULT_DATA_DIR)


def _build(out: Path, **settings) -> tuple[Path, object]:
    result = build(DEFAULT_DATA_DIR, out, jobs=2, **settings)
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out, result


@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    # rendered in the worker's own process (PRINTSHOP_JOBS, tests/conftest.py): forking a test
    # worker of half a gigabyte for a pool cost more than the pool gave;
    # test_tts_images_are_the_same_bytes_on_every_build builds again in a pool and compares
    return shared_build(tmp_path_factory, target="tts")


@pytest.fixture(scope="module")
def cut(tmp_path_factory):
    return shared_build(tmp_path_factory, target="cut", games=CUT_GAMES, langs=["en"])[0]


@pytest.fixture(scope="module")
def previews(tmp_path_factory):
    return shared_build(tmp_path_factory, target="preview", games=CUT_GAMES, langs=["en"])[0]


# --- Tabletop Simulator
# --------------------------------------------------------------------------------
def _built_languages(project, result) -> list[tuple[str, str]]:
    refused = {(state.game, state.lang) for state in result.refused}
    return [
        (game_id, lang)
        for game_id in discover_games(DEFAULT_DATA_DIR)
        for lang in project.games[game_id].languages
        if (game_id, lang) not in refused
    ]


def _deck_states(folder: Path, stem: str) -> list[dict]:
    """The saved objects of a deck: <stem>.json, and <stem>-<value>.json for each part of a deck
    split by the target's split_by (Kremlin's markers by faction); a file of counters holds bags
    of tiles, one or more. (A deck whose every card lies apart, Comrade's ballots, has no
    <stem>.json: its cards are all in the parts, as the callers' counts check.)"""
    whole = folder / f"{stem}.json"
    files = [*([whole] if whole.exists() else []), *sorted(folder.glob(f"{stem}-*.json"))]
    return [
        state for file in files for state in json.loads(file.read_text("utf-8"))["ObjectStates"]
    ]


def _tiles_in_bags(states: list[dict]) -> int:
    """How many counter tiles the bags among `states` hold (checking each is a tile)."""
    tiles = [
        tile for state in states if state["Name"] == "Bag" for tile in state["ContainedObjects"]
    ]
    assert all(tile["Name"] == "Custom_Tile" and tile["Nickname"] for tile in tiles)
    return len(tiles)


def test_every_deck_of_every_game_and_language_has_a_tts_object_with_every_card(tts, project):
    out, result = tts
    built = _built_languages(project, result)
    assert {game for game, _ in built} == set(discover_games(DEFAULT_DATA_DIR))
    for game_id, lang in built:
        folder = out / game_id / lang / "tts"
        for deck_id, deck in project.games[game_id].game.decks.items():
            count = sum(card.count for card in deck.cards)
            states = _deck_states(folder, f"{game_id}-{lang}-{deck_id}")
            cards = _tiles_in_bags(states)  # counters: tiles in bags
            for state in states:
                if state["Name"] == "Bag":
                    continue
                if state["Name"] == "CardCustom":
                    cards += 1
                    continue
                assert state["Name"] == "DeckCustom"
                assert len(state["DeckIDs"]) == len(state["ContainedObjects"])  # each copy a card
                assert [card["CardID"] for card in state["ContainedObjects"]] == state["DeckIDs"]
                assert all(card["Nickname"] for card in state["ContainedObjects"])
                cards += len(state["DeckIDs"])
            assert cards == count, (game_id, lang, deck_id)
        whole = json.loads((folder / f"{game_id}-{lang}-all.json").read_text(encoding="utf-8"))
        keys = [key for state in whole["ObjectStates"] for key in state.get("CustomDeck", {})]
        assert len(keys) == len(set(keys))  # deck numbers never clash in the combined save


def test_tts_sheets_keep_to_the_grid_size_and_colour_limits(tts, project):
    out, result = tts
    limits = project.targets.tts
    checked = 0
    for game_id, lang in _built_languages(project, result):
        folder = out / game_id / lang / "tts"
        for deck_id, deck in project.games[game_id].game.decks.items():
            states = _deck_states(folder, f"{game_id}-{lang}-{deck_id}")
            seen = _tiles_in_bags(states)  # counters are tiles, each its own image: no grid
            for state in states:
                if state["Name"] == "Bag":
                    continue
                ids = state.get("DeckIDs", [state.get("CardID")])
                for key, custom in state["CustomDeck"].items():
                    columns, rows = custom["NumWidth"], custom["NumHeight"]
                    assert 2 <= columns <= 10 and 2 <= rows <= 7
                    assert {
                        "FaceURL",
                        "BackURL",
                        "NumWidth",
                        "NumHeight",
                        "BackIsHidden",
                        "UniqueBack",
                    } <= set(custom)
                    assert custom["BackIsHidden"] is True
                    faces = Image.open(folder / custom["FaceURL"])
                    assert faces.mode == "RGB" and max(faces.size) <= limits.max_pixels
                    assert faces.width % columns == 0 and faces.height % rows == 0
                    cell = (faces.width // columns, faces.height // rows)
                    # ids: 100 x deck key + slot, slots from 0, never the last (hidden) slot
                    slots = [card_id % 100 for card_id in ids if card_id // 100 == int(key)]
                    assert slots == list(range(len(slots))) and len(slots) <= columns * rows - 1
                    seen += len(slots)
                    back = Image.open(folder / custom["BackURL"])
                    assert back.mode == "RGB" and max(back.size) <= limits.max_pixels
                    assert back.size == (cell if not custom["UniqueBack"] else faces.size)
                    hidden = faces.crop(
                        (
                            (columns - 1) * cell[0],
                            (rows - 1) * cell[1],
                            columns * cell[0],
                            rows * cell[1],
                        )
                    )
                    if not custom["UniqueBack"]:  # the hidden card is the deck's back
                        assert ImageChops.difference(hidden, back).getbbox() is None
                    elif deck.back is None:  # a one-sided deck: the plain hidden colour
                        assert hidden.getcolors() is not None and len(hidden.getcolors()) == 1
                    else:
                        assert (
                            hidden.getcolors(1_000_000) is not None
                            and len(hidden.getcolors(1_000_000)) > 1
                        )
                    checked += 1
            assert seen == sum(card.count for card in deck.cards)
    assert checked >= 16


@pytest.fixture(scope="module")
def counters_as_cards(tmp_path_factory):
    """Kremlin in French for TTS with the target's `tiles` empty: its 195 markers as cards, the
    one deck larger than a sheet."""
    from tests.conftest import with_defaults

    data = tmp_path_factory.mktemp("cards-data") / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    with_defaults(data)
    tts_yaml = data / "print" / "targets" / "tts.yaml"
    tts_yaml.write_text(tts_yaml.read_text("utf-8") + "tiles: []\n", "utf-8")
    out = tmp_path_factory.mktemp("cards-out")
    result = build(data, out, target="tts", games=["kremlin"], langs=["fr"])
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out / "kremlin" / "fr" / "tts"


def test_a_deck_of_more_than_69_cards_spreads_over_several_sheets(counters_as_cards):
    [state] = json.loads((counters_as_cards / "kremlin-fr-markers.json").read_text("utf-8"))[
        "ObjectStates"
    ]
    assert state["Name"] == "DeckCustom"  # `tiles: []`: counters stay cards
    assert len(state["DeckIDs"]) == 195 - 6 * 18  # the markers of no faction (split_by: faction)
    # after politicians (26 cards: 1, 2), intrigue (34: 3, 4, 5), 14 poker cards to a sheet, and
    # the six factions' 18 markers (6 to 11)
    assert sorted(state["CustomDeck"], key=int) == ["12", "13"]
    assert [
        state["CustomDeck"][key]["NumWidth"] * state["CustomDeck"][key]["NumHeight"]
        for key in ("12", "13")
    ] == [70, 20]
    assert (
        state["DeckIDs"][0] == 1200
        and state["DeckIDs"][68] == 1268
        and state["DeckIDs"][69] == 1300
    )
    assert (
        state["CustomDeck"]["12"]["BackURL"] == state["CustomDeck"]["12"]["FaceURL"]
    )  # counters: face both sides
    # 16 mm counters keep their proportions and are not shrunk below half a card
    assert state["Transform"]["scaleX"] / state["Transform"]["scaleZ"] == pytest.approx(
        88.9 / 63.5, rel=0.01
    )
    # counters (256 px at least) keep TTS's 10 x 7 grid
    customs = [state["CustomDeck"][key] for key in ("12", "13")]
    assert [(c["NumWidth"], c["NumHeight"]) for c in customs] == [(10, 7), (10, 2)]
    for custom in customs:
        faces = Image.open(counters_as_cards / custom["FaceURL"])
        assert (faces.width // custom["NumWidth"], faces.height // custom["NumHeight"]) == (
            256,
            256,
        )


def test_tts_cards_are_at_300_dpi_on_sheets_within_the_pixel_limit(tts, project):
    """The art director found the faces at 150 dpi soft: they are at `card_dpi` (300), 744 x 1039 px
    for a poker card, so 5 x 3 to a sheet of at most 4096 px (ten across would be 7440 px); the
    politicians' 26 cards take two sheets (counters as cards: the test above)."""
    out, _ = tts
    target = project.targets.tts
    assert target.card_dpi == 300
    folder = out / "kremlin" / "en" / "tts"
    for deck_id, cell, grids in (("politicians", (744, 1039), [(5, 3), (5, 3)]),):
        [state] = json.loads((folder / f"kremlin-en-{deck_id}.json").read_text("utf-8"))[
            "ObjectStates"
        ]
        customs = [state["CustomDeck"][key] for key in sorted(state["CustomDeck"], key=int)]
        assert [(c["NumWidth"], c["NumHeight"]) for c in customs] == grids
        for custom in customs:
            faces = Image.open(folder / custom["FaceURL"])
            assert max(faces.size) <= target.max_pixels
            assert (faces.width // custom["NumWidth"], faces.height // custom["NumHeight"]) == cell


def test_tts_grids_split_a_deck_rather_than_shrink_its_cards(project):
    """Must-catch and must-pass of the rule above, on the grids alone: at 300 dpi a poker card fits
    5 x 3 within 4096 px and keeps its pixels; ten across (TTS's grid at 150 dpi) would not fit."""
    from printshop.render.tts import card_pixels, cell_pixels, grid_limits, sheet_grids

    target = project.targets.tts
    poker = SimpleNamespace(size=SimpleNamespace(width=63 * MM, height=88 * MM))
    assert card_pixels(poker, target) == (744, 1039)
    assert grid_limits((744, 1039), target) == (5, 3)
    grids = sheet_grids(26, target, (744, 1039))
    assert [(g.columns, g.rows, g.cards) for g in grids] == [(5, 3, 14), (5, 3, 12)]
    assert cell_pixels(poker, grids, target) == (744, 1039)  # not shrunk
    # the 10 x 7 grid of 150 dpi would put 7440 px across: over the limit, so shrunk by half
    wide = sheet_grids(26, target)
    assert (wide[0].columns, wide[0].rows) == (10, 3)
    assert 10 * 744 > target.max_pixels and cell_pixels(poker, wide, target)[0] < 744 * 0.6
    # a card too large for even the least grid (2 x 2) within the limit is shrunk to fit
    tarot = SimpleNamespace(size=SimpleNamespace(width=200 * MM, height=300 * MM))
    big = sheet_grids(3, target, card_pixels(tarot, target))
    assert [(g.columns, g.rows) for g in big] == [(2, 2)]
    width, height = cell_pixels(tarot, big, target)
    assert 2 * width <= target.max_pixels and 2 * height <= target.max_pixels


def test_tts_boards_and_sheets_are_custom_boards_and_tiles(tts):
    out, _ = tts
    states = json.loads((out / "kremlin/en/tts/kremlin-en-all.json").read_text("utf-8"))[
        "ObjectStates"
    ]
    by_name = {state["Nickname"]: state for state in states}  # named by the titles they print
    assert (
        by_name["Kremlin"]["Name"] == "Custom_Board"
        and by_name["Influence sheet"]["Name"] == "Custom_Tile"
    )
    image = Image.open(out / "kremlin/en/tts" / by_name["Kremlin"]["CustomImage"]["ImageURL"])
    assert image.mode == "RGB" and max(image.size) <= 4096
    roles = [
        state
        for state in json.loads(
            (out / "comrade-stalin/en/tts/comrade-stalin-en-all.json").read_text("utf-8")
        )["ObjectStates"]
        if state["Name"] == "Custom_Tile"
    ]
    assert (
        len(roles) == 9 + 6
    )  # each role sheet and each setup sheet (5 counts, at a glance) a tile
    assert len({state["GUID"] for state in states}) == len(states)


def test_tts_images_are_the_same_bytes_on_every_build(tts, tmp_path):
    """Built again in a pool of two processes (the shared build rendered in the test's own)."""
    out, _ = tts
    again, _ = _build(tmp_path, target="tts", games=["comrade"], force=True)
    files = sorted((again / "comrade").rglob("*.*"))
    assert files and all(
        (out / path.relative_to(again)).read_bytes() == path.read_bytes() for path in files
    )


def test_an_unchanged_tts_build_comes_from_the_cache(tts):
    out, _ = tts
    result = build(DEFAULT_DATA_DIR, out, target="tts")
    assert result.up_to_date is not None and not result.report.has_errors


# --- print and cut
# ------------------------------------------------------------------------------------
def _filled_rectangles(reader: PdfReader, number: int) -> list[tuple[float, float, float, float]]:
    """Rectangles filled on the page itself (not inside forms): the registration marks."""
    content = ContentStream(reader.pages[number].get_contents(), reader)
    found, pending = [], []
    for operands, operator in content.operations:
        op = operator.decode()
        if op == "re":
            pending.append(tuple(float(value) for value in operands))
        elif op in ("f", "f*"):
            found.extend(pending)
            pending = []
        elif op in ("n", "S", "W", "W*"):
            pending = [] if op in ("n", "S") else pending
    return found


def _svg_rects(path: Path) -> tuple[list[float], list[dict]]:
    text = path.read_text(encoding="utf-8")
    view_box = [float(v) for v in re.search(r'viewBox="([^"]+)"', text).group(1).split()]
    rects = [
        {key: float(value) for key, value in re.findall(r'(\w+)="([-\d.]+)"', match)}
        for match in re.findall(r"<rect ([^>]*)/>", text)
    ]
    return view_box, rects


def _cut_cases(project):
    for cutter, target in sorted(project.targets.cutters.items()):
        for paper_id in ("a4", "letter"):
            assert paper_id in target.papers
            for game_id in CUT_GAMES:  # (a deck for digital tables only is never cut)
                for deck_id, deck in project.games[game_id].game.printed_decks().items():
                    yield cutter, target, paper_id, game_id, deck_id, deck


def test_cut_outlines_fall_on_the_printed_trims_within_a_tenth_of_a_millimetre(cut, project):
    checked = 0
    for cutter, target, paper_id, game_id, deck_id, deck in _cut_cases(project):
        folder = cut / game_id / "en" / "cut" / cutter
        stem = f"{game_id}-en-{deck_id}-{paper_id}"
        reader = PdfReader(folder / f"{stem}.pdf")
        size = project.media.card_sizes[deck.card_size]
        two_sided = deck.back is not None and target.marks is not None
        fronts = list(range(0, len(reader.pages), 2 if two_sided else 1))
        svgs = sorted(folder.glob(f"{stem}-*.svg"))
        assert len(svgs) == len(fronts) >= 1
        cards = 0
        for page_number, svg in zip(fronts, svgs):
            page = reader.pages[page_number]
            width, height = float(page.mediabox.width), float(page.mediabox.height)
            view_box, rects = _svg_rects(svg)
            assert view_box == pytest.approx([0, 0, width / MM, height / MM], abs=0.001)
            placements = page_drawing(reader, page_number)[0]
            printed = sorted((p.x / MM, (height - p.y) / MM - size.height / MM) for p in placements)
            outlined = sorted((rect["x"], rect["y"]) for rect in rects)
            assert len(printed) == len(outlined)
            for (px, py), (sx, sy) in zip(printed, outlined):
                assert abs(px - sx) <= 0.1 and abs(py - sy) <= 0.1
            for rect in rects:
                assert rect["width"] == pytest.approx(size.width / MM, abs=0.1)
                assert rect["height"] == pytest.approx(size.height / MM, abs=0.1)
                assert (
                    rect["rx"] == pytest.approx(size.corner_radius / MM, abs=0.01)
                    and rect["rx"] > 0
                )
            cards += len(rects)
        assert cards == sum(card.count for card in deck.cards)  # every copy is printed and outlined
        checked += 1
    assert checked == 2 * 2 * (1 + 3)


def test_silhouette_marks_stand_where_the_data_puts_them_and_faces_keep_clear(cut, project):
    target = project.targets.cutters["silhouette"]
    marks = target.marks
    for paper_id in ("a4", "letter"):
        paper = project.media.papers[paper_id]
        reader = PdfReader(
            cut / "kremlin/en/cut/silhouette" / f"kremlin-en-intrigue-{paper_id}.pdf"
        )
        width, height = (
            float(reader.pages[0].mediabox.width),
            float(reader.pages[0].mediabox.height),
        )
        assert (width, height) == pytest.approx((paper.width, paper.height), abs=0.01)
        found = sorted(_filled_rectangles(reader, 0))
        inset, top, right = marks.inset, paper.height - marks.inset, paper.width - marks.inset
        expected = sorted(
            [
                (inset, top - marks.square, marks.square, marks.square),
                (right - marks.length, top - marks.thickness, marks.length, marks.thickness),
                (right - marks.thickness, top - marks.length, marks.thickness, marks.length),
                (inset, inset, marks.length, marks.thickness),
                (inset, inset, marks.thickness, marks.length),
            ]
        )
        assert len(found) == len(expected)
        assert [v for rect in found for v in rect] == pytest.approx(
            [v for rect in expected for v in rect], abs=0.01
        )
        assert _filled_rectangles(reader, 1) == []  # the backs page: the cutter reads the fronts
        card = project.media.card_sizes["poker-eu"]
        bleed = target.bleed
        for placement in page_drawing(reader, 0)[0]:
            left, bottom = placement.x - bleed, placement.y - bleed
            box = (left, bottom, left + card.width + 2 * bleed, bottom + card.height + 2 * bleed)
            for x, y, w, h in expected:
                c = marks.clearance - 0.01
                assert (
                    box[2] <= x - c or box[0] >= x + w + c or box[3] <= y - c or box[1] >= y + h + c
                )
        # the backs are mirrored for long-edge duplex
        fronts = sorted(p.x for p in page_drawing(reader, 0)[0])
        backs = sorted(width - p.x - card.width for p in page_drawing(reader, 1)[0])
        assert backs == pytest.approx(fronts, abs=0.01)


def keep_out(
    paper_width: float, paper_height: float, marks
) -> list[tuple[float, float, float, float]]:
    """The zones Silhouette Studio keeps clear round its three marks, worked out here from the
    marks' data (not from the code that places the faces): at each marked corner, the square from
    the paper's corner to the mark's far end and its clearance beyond."""
    side = marks.inset + max(marks.length, marks.square) + marks.clearance
    return [
        (0.0, paper_height - side, side, side),
        (paper_width - side, paper_height - side, side, side),
        (0.0, 0.0, side, side),
    ]


def _entering(box, zones) -> list:
    """The zones the box (left, bottom, right, top) enters."""
    return [
        zone
        for zone in zones
        if box[0] < zone[0] + zone[2]
        and zone[0] < box[2]
        and box[1] < zone[1] + zone[3]
        and zone[1] < box[3]
    ]


def test_no_face_enters_a_registration_mark_s_keep_out_zone(cut, project):
    """Issue 51: Kremlin's chits sat inside the corner squares of Silhouette's marks. On every
    cutter, paper, game and deck, no face's printed box (trim and bleed) enters a keep-out zone
    (must-pass): the printed pages of the cut build, and the layout of every game of data/; the
    measure finds a chit where the grid put one before (must-catch)."""
    from printshop.layout.imposition import cut_slots

    checked = 0
    for cutter, target, paper_id, game_id, deck_id, deck in _cut_cases(project):
        if target.marks is None:
            continue
        paper = project.media.papers[paper_id]
        zones = keep_out(paper.width, paper.height, target.marks)
        size = project.media.card_sizes[deck.card_size]
        bleed = min(target.bleed, deck.bleed)
        reader = PdfReader(
            cut / game_id / "en" / "cut" / cutter / f"{game_id}-en-{deck_id}-{paper_id}.pdf"
        )
        for number in range(0, len(reader.pages), 2 if deck.back is not None else 1):
            for placement in page_drawing(reader, number)[0]:
                box = (
                    placement.x - bleed,
                    placement.y - bleed,
                    placement.x + size.width + bleed,
                    placement.y + size.height + bleed,
                )
                assert not _entering(box, zones), (game_id, deck_id, paper_id, number, box)
                checked += 1
    assert checked > 195 * 2  # Kremlin's markers on both papers, and the rest
    for game_id in discover_games(DEFAULT_DATA_DIR):
        for cutter, target in project.targets.cutters.items():
            for paper_id in target.papers:
                paper = project.media.papers[paper_id]
                zones = keep_out(paper.width, paper.height, target.marks) if target.marks else []
                for deck in project.games[game_id].game.printed_decks().values():
                    size = project.media.card_sizes[deck.card_size]
                    bleed = min(target.bleed, deck.bleed)
                    for x, y in cut_slots(paper, target, size.width, size.height, bleed)[2]:
                        box = (
                            x - bleed,
                            y - bleed,
                            x + size.width + bleed,
                            y + size.height + bleed,
                        )
                        assert not _entering(box, zones), (game_id, cutter, paper_id, box)
    # must-catch: the top-left chit of the grid as it was laid out before (13.5 mm from the edges,
    # clear of the marks' lines only) enters the square's zone
    target = project.targets.cutters["silhouette"]
    paper = project.media.papers["a4"]
    side = target.marks.inset + target.marks.thickness + target.marks.clearance
    chit = project.media.card_sizes[project.games["kremlin"].game.decks["markers"].card_size]
    old = (
        side,
        paper.height - side - chit.height - 2 * target.bleed,
        side + chit.width + 2 * target.bleed,
        paper.height - side,
    )
    assert _entering(old, keep_out(paper.width, paper.height, target.marks))


def test_cricut_pages_are_its_print_then_cut_area_with_an_image_to_upload(cut, project):
    target = project.targets.cutters["cricut"]
    folder = cut / "comrade/en/cut/cricut"
    reader = PdfReader(folder / "comrade-en-cards-letter.pdf")
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            (6.75 * 72, 9.25 * 72), abs=0.01
        )
    assert all(
        _filled_rectangles(reader, n) == [] for n in range(len(reader.pages))
    )  # Design Space adds its own
    for placement in page_drawing(reader, 0)[0]:
        assert placement.x - target.bleed >= 0 and placement.y - target.bleed >= 0
    image = Image.open(folder / "comrade-en-cards-letter-01.png")
    assert (
        image.size == (round(6.75 * target.image_dpi), round(9.25 * target.image_dpi))
        and image.mode == "RGB"
    )
    assert image.info["dpi"] == pytest.approx((target.image_dpi, target.image_dpi), abs=0.01)


# --- previews and online-table images
# ----------------------------------------------------------------
def test_previews_have_rounded_corners_and_a_contact_sheet_per_deck(previews, project):
    preview = project.targets.images["preview"]
    for game_id in CUT_GAMES:
        folder = previews / game_id / "en" / "preview"
        for deck_id, deck in project.games[game_id].game.printed_decks().items():
            size = project.media.card_sizes[deck.card_size]
            expected = pixels_within(
                size.width,
                size.height,
                preview.card_dpi,
                preview.min_card_pixels,
                preview.max_pixels,
            )
            faces = [
                path
                for path in folder.glob(f"{game_id}-en-{deck_id}-*.png")
                if not re.search(r"-contact(-\d+)?$", path.stem)
            ]
            assert faces
            for path in faces:
                image = Image.open(path)
                assert image.size == expected and image.mode == "RGBA"
                assert (
                    image.getpixel((0, 0))[3] == 0
                    and image.getpixel((expected[0] // 2, expected[1] // 2))[3] == 255
                )
            sheets = sorted(folder.glob(f"{game_id}-en-{deck_id}-contact*.png"))
            assert sheets
            if len(sheets) > 1:  # -contact-1.png, -contact-2.png…
                assert [p.stem.rsplit("-", 1)[1] for p in sheets] == [
                    str(n) for n in range(1, len(sheets) + 1)
                ]
            for path in sheets:
                contact = Image.open(path)
                assert contact.mode == "RGB"
                assert max(contact.size) <= preview.max_pixels


def test_contact_sheets_scale_and_paginate_within_the_limit_and_hold_every_face(project):
    """Issue 51: 12 contact sheets exceeded the preview's 2,048 px. Faces are scaled down until a
    row fits across, then rows are shared over sheets that fit down: every face on exactly one
    sheet (must-pass) and none over the limit, whatever the limit."""
    from PIL import Image

    from printshop.render.preview import contact_sheets

    preview = project.targets.images["preview"]
    faces = [Image.new("RGBA", (496, 693), (0, 0, 0, 255)) for _ in range(35)]
    sheets = contact_sheets(faces, preview)
    assert all(max(sheet.size) <= preview.max_pixels for sheet in sheets)
    assert len(sheets) == 2  # 6 across, scaled to 313 px; 4 rows a sheet fit in 2,048 px

    def placed(sheet) -> int:  # the faces on a sheet: black blocks on white, counted by corners
        import numpy as np

        grey = np.asarray(sheet.convert("L"))
        return int(((grey[1:, 1:] == 0) & (grey[1:, :-1] == 255) & (grey[:-1, 1:] == 255)).sum())

    assert sum(placed(sheet) for sheet in sheets) == 35
    small = contact_sheets(faces, preview.model_copy(update={"max_pixels": 900}))
    assert all(max(sheet.size) <= 900 for sheet in small)
    assert sum(placed(sheet) for sheet in small) == 35
    # must-catch: the one sheet of full-size faces made before is what the guard below refuses
    gap, columns = preview.contact_sheet.gap, preview.contact_sheet.columns
    assert columns * 496 + (columns + 1) * gap > preview.max_pixels


@pytest.fixture(scope="module")
def every_preview(tmp_path_factory):
    return shared_build(
        tmp_path_factory, target="preview", games=discover_games(DEFAULT_DATA_DIR), langs=["en"]
    )[0]


def test_every_image_of_every_game_is_within_its_target_s_limit(every_preview, project):
    """The guard over every game: each PNG (faces, sheets, contact sheets) of the preview,
    Tabletopia and Screentop sets is at most its target's max_pixels on either side."""
    from PIL import Image

    seen = set()
    for game_id in discover_games(DEFAULT_DATA_DIR):
        for name, target in project.targets.images.items():
            folder = every_preview / game_id / "en" / name
            images = sorted(folder.glob("*.png"))
            assert images, folder
            for path in images:
                size = Image.open(path).size
                assert max(size) <= target.max_pixels, (path.name, size, target.max_pixels)
            seen.add(name)
    assert seen == {"preview", "tabletopia", "screentop"}


@pytest.mark.parametrize("name", ["tabletopia", "screentop"])
def test_online_tables_get_one_image_per_face_the_same_size_per_component(previews, project, name):
    target = project.targets.images[name]
    folder = previews / "kremlin" / "en" / name
    game = project.games["kremlin"].game
    for deck_id, deck in game.decks.items():
        sizes = {Image.open(path).size for path in folder.glob(f"kremlin-en-{deck_id}-*.png")}
        size = project.media.card_sizes[deck.card_size]
        assert sizes == {
            pixels_within(
                size.width, size.height, target.card_dpi, target.min_card_pixels, target.max_pixels
            )
        }
    assert not list(folder.glob("*contact*"))
    for sheet_id in game.sheets:
        image = Image.open(folder / f"kremlin-en-{sheet_id}.png")
        assert image.mode == "RGB" and max(image.size) <= target.max_pixels
    role_sheets = {Image.open(path).size for path in (previews / "comrade/en" / name).glob("*.png")}
    assert len(role_sheets) == 1  # comrade: one deck, one card size


def test_every_image_set_has_a_manifest_of_what_each_image_is_and_how_many(every_preview, project):
    """Review 3: the Screentop and Tabletopia folders gave one picture per distinct face and no
    count (Comrade: 10 images for 18 cards). Each image set writes <stem>-manifest.csv: every PNG of
    a face (contact sheets aside) in it once, a front's back named, and a deck's fronts counting
    every card of the deck, its backs as many."""
    import csv

    for game_id in discover_games(DEFAULT_DATA_DIR):
        game = project.games[game_id].game
        for name in project.targets.images:
            folder = every_preview / game_id / "en" / name
            rows = list(csv.DictReader((folder / f"{game_id}-en-manifest.csv").open()))
            files = {path.name for path in folder.glob("*.png") if "-contact" not in path.name}
            assert {row["file"] for row in rows} == files, (game_id, name)
            for deck_id, deck in game.decks.items():
                total = sum(card.count for card in deck.cards)
                mine = [row for row in rows if row["component"] == deck_id]
                if deck.digital_only and not project.targets.images[name].digital_table:
                    assert not mine, (game_id, name, deck_id)  # previews show what paper gets
                    continue
                fronts = [row for row in mine if row["side"] == "front"]
                assert sum(int(row["count"]) for row in fronts) == total, (game_id, deck_id)
                assert all(row["back"] in files for row in fronts if row["back"]), (
                    game_id,
                    deck_id,
                )
                backs = [row for row in mine if row["side"] == "back"]
                if backs:
                    assert sum(int(row["count"]) for row in backs) == total, (game_id, deck_id)
    comrade = list(
        csv.DictReader((every_preview / "comrade/en/screentop/comrade-en-manifest.csv").open())
    )
    counts = {row["face"]: int(row["count"]) for row in comrade if row["side"] == "front"}
    assert counts["cards/comrade/front"] == 8 and counts["cards/vote/front"] == 5, counts


# --- sheets as images: legible and filled
# ------------------------------------------------------------------
SHEET_DPI = 150  # the least density of a player sheet's image, over the sheet's own size
BLANK_BAND = 0.15  # the largest share of an image's height that may be a band of blank rows


def sheet_image_problems(image, width_mm: float, height_mm: float, max_pixels: int) -> list[str]:
    """Why a sheet's image is no good to read at the table: fewer than SHEET_DPI pixels an inch of
    the sheet (unless held to `max_pixels`), or a band of blank rows over BLANK_BAND of its height
    (content in the top of the image only)."""
    import numpy as np

    problems = []
    dpi = image.size[0] / (width_mm / 25.4)
    if dpi < SHEET_DPI - 0.5 and max(image.size) < max_pixels:
        problems.append(f"{dpi:.0f} dpi")
    inked = (np.asarray(image.convert("L")) < 245).mean(axis=1) > 0.002
    band = longest = 0
    for row in inked:
        band = 0 if row else band + 1
        longest = max(longest, band)
    if longest > BLANK_BAND * len(inked):
        problems.append(f"a blank band of {longest / len(inked):.0%} of the height")
    return problems


def _sheet_images(folder: Path, stem: str, game) -> list[tuple[Path, object]]:
    return [
        (path, spec)
        for sheet_id, spec in game.sheets.items()
        if not spec.tiled
        for path in sorted(folder.glob(f"{stem}-{sheet_id}*.png"))
        if not path.name.endswith("-back.png")
    ]


def test_sheet_images_are_legible_and_filled_on_every_online_table(tts, every_preview, project):
    """Review 2: the influence sheet's TTS image was 748 x 1028 px (100 dpi: names 6 px tall), its
    Screentop and preview copies 449 x 617. Every player sheet's image (not the boards, held to
    max_pixels) of TTS, Screentop, Tabletopia and the previews has 150 dpi or more over the sheet
    and no blank band over 15 % of its height (must-pass); the measure finds an image at 100 dpi and
    one whose content fills only its top 60 % (must-catch)."""
    out, _ = tts
    folders = [(out, "tts", project.targets.tts.max_pixels, ["en", "fr"])] + [
        (every_preview, name, target.max_pixels, ["en"])
        for name, target in project.targets.images.items()
    ]
    seen = 0
    for root, name, max_pixels, langs in folders:
        for game_id in discover_games(DEFAULT_DATA_DIR):
            game = project.games[game_id].game
            for lang in langs:
                folder = root / game_id / lang / name
                for path, spec in _sheet_images(folder, f"{game_id}-{lang}", game):
                    width, height = spec.width / MM, spec.height / MM
                    found = sheet_image_problems(Image.open(path), width, height, max_pixels)
                    assert found == [], (path.name, found)
                    seen += 1
    assert seen >= 4 * (2 + 15)  # kremlin's two sheets, comrade stalin's fifteen, each target

    px = 100 / 25.4
    small = Image.new("RGB", (round(190 * px), round(261 * px)), "white")
    assert sheet_image_problems(small.resize((748, 1028)), 190, 261, 4096)[0] == "100 dpi"
    top = Image.new("RGB", (1496, 2055), "white")
    top.paste((0, 0, 0), (100, 0, 1400, round(2055 * 0.6)))
    for row in range(0, round(2055 * 0.6), 20):
        top.paste((255, 255, 255), (100, row, 1400, row + 10))
    assert sheet_image_problems(top, 190, 261, 4096) == ["a blank band of 40% of the height"]


# --- planning and the command line
# -------------------------------------------------------------------
def test_each_target_is_planned_as_jobs_and_only_the_kit_gets_calibration_pages():
    layouts = [
        SimpleNamespace(
            game_id="comrade",
            lang=lang,
            localized=SimpleNamespace(
                variant=None, data=SimpleNamespace(dir=Path(DEFAULT_DATA_DIR) / "comrade")
            ),
        )
        for lang in ("en", "fr")
    ]
    assert [job.label for job in plan(layouts, "tts", ["a4"], [])] == [
        "comrade en tts",
        "comrade fr tts",
    ]
    cut = plan(layouts, "cut", ["a4", "letter"], ["silhouette"])
    assert [job.label for job in cut] == [
        "comrade en silhouette a4",
        "comrade en silhouette letter",
        "comrade fr silhouette a4",
        "comrade fr silhouette letter",
    ]
    assert len(plan(layouts, "cut", ["a4"], ["eu-3mm"])) == 2 * 2  # no cutter named: every cutter
    assert [job.image_set for job in plan(layouts, "preview", ["a4"], [])][:3] == [
        "preview",
        "screentop",
        "tabletopia",
    ]
    assert not [
        job
        for target in ("tts", "cut", "preview")
        for job in plan(layouts, target, ["a4"], [])
        if job.target == "calibration"
    ]


def test_the_command_line_checks_the_cutter_and_the_profile(tmp_path, capsys):
    """A cutter or print-shop profile that does not exist is a usage error before anything is
    checked (exit 2, the names there are listed), as an unknown paper or language is; not a data
    error after the whole check."""
    for arguments, message in (
        (["--target", "cut", "--cutter", "plotter"], "no cutter 'plotter' (cutters: "),
        (["--target", "tts", "--cutter", "cricut"], "--cutter goes with --target cut"),
        (
            ["--target", "shop", "--profile", "eu-5mm"],
            "no print-shop profile 'eu-5mm' (profiles: drivethrucards, eu-3mm, ",
        ),
        (["--target", "pnp", "--profile", "eu-3mm"], "--profile goes with --target shop"),
    ):
        with pytest.raises(SystemExit) as stop:
            main(["build", "comrade", *arguments, "--out", str(tmp_path)])
        err = capsys.readouterr().err
        assert stop.value.code == 2 and message in err and "checking data" not in err, err
    assert not any(tmp_path.iterdir())
    with pytest.raises(
        BadRequest, match=r"no print-shop profile 'eu-5mm' \(profiles: drivethrucards, eu-3mm, "
    ):
        build(
            DEFAULT_DATA_DIR,
            tmp_path / "out",
            games=["comrade"],
            langs=["en"],
            target="shop",
            profiles=["eu-5mm"],
        )
    assert not (tmp_path / "out").exists()


def test_tts_grids_hold_the_hidden_slot_and_sideways_cards_keep_their_shape(project):
    from printshop.project.models.media import CardSize
    from printshop.render.tts import TtsExport, sheet_grids

    target = project.targets.tts
    assert [(g.columns, g.rows, g.cards) for g in sheet_grids(69, target)] == [(10, 7, 69)]
    assert [(g.columns, g.rows, g.cards) for g in sheet_grids(70, target)] == [
        (10, 7, 69),
        (2, 2, 1),
    ]
    assert [(g.columns, g.rows, g.cards) for g in sheet_grids(18, target)] == [(10, 2, 18)]
    export = TtsExport(None, target, None, {}, "x")
    upright = SimpleNamespace(size=CardSize(width="63mm", height="88mm"))
    sideways = SimpleNamespace(size=CardSize(width="88mm", height="63mm"))
    # a sideways card lies on TTS's turned card: x runs along its long side, so it is not stretched
    # across
    assert export.card_scale(sideways) == pytest.approx(export.card_scale(upright)[::-1], rel=1e-6)
    assert export.card_scale(upright) == pytest.approx((63 / 63.5, 88 / 88.9), rel=1e-6)


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "LA", "P", "1"])
def test_png_holds_the_pixels_and_the_resolution_and_nothing_else(mode):
    """raster.png writes 8-bit grey and colour itself (rows filtered "Up"): Pillow's own decoder,
    which checks every chunk's CRC and the deflate stream, must read back the same pixels, mode and
    dpi; other modes go through Pillow. Two calls give the same bytes, and no chunk but the pixels'
    and pHYs."""
    import io

    from PIL import ImageDraw

    from printshop.render.raster import png

    picture = Image.new("RGBA", (203, 117), (250, 246, 238, 255))
    draw = ImageDraw.Draw(picture)
    draw.ellipse((10, 8, 120, 100), fill=(180, 20, 30, 200), outline=(0, 0, 0, 255), width=3)
    draw.text((130, 40), "Éé 7", fill=(20, 40, 200, 128))
    picture = picture.convert(mode)
    data = png(picture, 299.9)
    assert data == png(picture, 299.9)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == mode and back.size == picture.size and back.tobytes() == picture.tobytes()
    assert [round(value) for value in back.info["dpi"]] == [300, 300]
    chunks = _png_chunk_kinds(data)
    assert {*chunks} <= {b"IHDR", b"PLTE", b"tRNS", b"pHYs", b"IDAT", b"IEND"} and chunks[
        -1
    ] == b"IEND", chunks
    assert b"pHYs" not in _png_chunk_kinds(png(picture))
    if mode in (
        "RGB",
        "RGBA",
        "L",
        "LA",
    ):  # numpy's pixels of the picture (as render_pixels gives) write the same
        import numpy

        assert png(numpy.asarray(picture), 299.9) == data


def _png_chunk_kinds(data: bytes) -> list[bytes]:
    import struct

    kinds, offset = [], 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset : offset + 8])
        kinds.append(kind)
        offset += 12 + length
    return kinds


@pytest.mark.parametrize("size", [(200, 100), (201, 99), (37, 19)])
def test_a_page_is_rasterized_onto_exactly_the_pixels_asked_for_without_resampling(
    size, monkeypatch
):
    """render_exact maps the page onto width x height pixels in pdfium: a rectangle filling the left
    half of the page fills the left half of the pixels, whatever the rounding, and nothing is
    resampled."""
    import io

    import numpy
    import pypdfium2
    from reportlab.pdfgen.canvas import Canvas

    from printshop.render.raster import png, render_exact, render_pixels

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(100, 50), invariant=1)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.rect(0, 0, 50, 50, stroke=0, fill=1)
    canvas.showPage()
    canvas.save()
    monkeypatch.setattr(Image.Image, "resize", lambda *args, **kwargs: pytest.fail("resampled"))
    document = pypdfium2.PdfDocument(buffer.getvalue())
    try:
        picture = render_exact(document[0], *size)
        pixels = render_pixels(document[0], *size)
    finally:
        document.close()
    width, height = size
    assert picture.size == size and picture.mode == "RGB"
    # the pixels png() deflates as they lie are the picture's, and give its PNG
    assert pixels.shape == (height, width, 3) and numpy.array_equal(pixels, numpy.asarray(picture))
    assert png(pixels, 300) == png(picture, 300)
    middle = height // 2
    assert picture.getpixel((0, middle)) == (0, 0, 0) and picture.getpixel((width - 1, middle)) == (
        255,
        255,
        255,
    )
    assert picture.getpixel((width // 2 - 2, 0)) == (0, 0, 0) and picture.getpixel(
        (width // 2 + 1, height - 1)
    ) == (255, 255, 255)


# --- found by a mutation fuzzer: what validate passed and the build refused or failed at
# ---------------------------
@pytest.mark.parametrize(
    "relative, old, new, code, said",
    [
        (
            "print/profiles/drivethrucards.yaml",
            "rich_black: [60, 40, 40, 100]",
            "rich_black: [1e300, 40, 40, 100]",
            "wrong-type",
            "less than or equal to 100",
        ),  # the build: "internal: _fp_one failed … number too large"
        (
            "print/profiles/drivethrucards.yaml",
            "icc: swop-tr003-300.icc",
            "icc: " + "W" * 300,
            "wrong-type",
            "the name of a file in printshop/icc/",
        ),  # validate: "internal: OSError: File name too long"
        (
            "print/targets/cut/cricut.yaml",
            "papers: [a4, letter]",
            "papers: [a4, letetr]",
            "unknown-reference",
            "cutter 'cricut': papers[1]: no paper 'letetr'; did you mean 'letter'?",
        ),  # pages left out
        (
            "print/targets/cut/cricut.yaml",
            "area: {width: 6.75in,",
            "area: {width: 30cm,",
            "paper-too-small",
            "cutter 'cricut': its area (300 × 235 mm) is larger than A4",
        ),  # pages wider than the paper
        (
            "print/targets/cut/silhouette.yaml",
            "square: 5mm",
            "square: 100cm",
            "cut-left-out",
            "does not fit in the area Silhouette Cameo can cut on A4",
        ),  # the build refused it
    ],
)
def test_print_data_the_build_could_not_use_is_refused_by_validate(
    tmp_path, relative, old, new, code, said
):
    from printshop.pipeline.build import check
    from printshop.project.paths import PACKAGE_DEFAULTS_DIR
    from tests.conftest import copy_data

    data = copy_data(tmp_path / "data", ["comrade"])
    path = data / relative
    if not path.exists():  # printshop's own file, copied into the project to be changed there
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            (PACKAGE_DEFAULTS_DIR / relative).read_text(encoding="utf-8"), encoding="utf-8"
        )
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    report, _ = check(data, games=["comrade"])
    errors = [d for d in report.items if d.code == code and not d.acknowledged]
    assert errors and any(said in d.message for d in errors), [d.format() for d in report.items]
    assert all(d.code == code for d in report.errors)
    assert not [d for d in report.items if d.code == "internal"]


def test_a_deck_a_cutter_cannot_hold_is_left_out_of_its_cut_files_with_a_warning(tmp_path):
    """As a deck a print shop does not make: validate warns (cut-left-out), and `build --target cut`
    writes the other decks and papers instead of failing the whole build."""
    from printshop.pipeline.build import build, check
    from printshop.project.paths import PACKAGE_DEFAULTS_DIR
    from tests.conftest import copy_data

    data = copy_data(tmp_path / "data", ["comrade"])
    cutter = data / "print" / "targets" / "cut" / "cricut.yaml"
    if not cutter.exists():
        cutter.parent.mkdir(parents=True, exist_ok=True)
        cutter.write_text(
            (PACKAGE_DEFAULTS_DIR / "print/targets/cut/cricut.yaml").read_text(encoding="utf-8")
        )
    cutter.write_text(
        cutter.read_text(encoding="utf-8").replace(
            "area: {width: 6.75in, height: 9.25in}", "area: {width: 60mm, height: 9.25in}"
        )
    )
    report, _ = check(data, games=["comrade"], langs=["en"])
    assert not report.has_errors and [d.code for d in report.items if d.code == "cut-left-out"] == [
        "cut-left-out"
    ]
    result = build(
        data, tmp_path / "out", games=["comrade"], langs=["en"], target="cut", profiles=["cricut"]
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    assert any(d.code == "cut-left-out" for d in result.report.items)
