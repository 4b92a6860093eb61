"""Tabletop Simulator saves as a player meets them (review 3): a README that says how to make the
images load, an all-in-one save whose objects lie apart on the table, a faction's markers as its own
deck, and objects named in the kit's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR, discover_games
from tests.conftest import shared_build


@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    return shared_build(tmp_path_factory, target="tts")[0]  # the build tests/test_targets.py shares


@pytest.fixture(scope="module")
def project():
    return load_project(DEFAULT_DATA_DIR)


def _folders(out: Path):
    for game_id in discover_games(DEFAULT_DATA_DIR):
        for folder in sorted((out / game_id).glob("*/tts")):
            yield game_id, folder.parent.name, folder


def _all(folder: Path) -> list[dict]:
    """The objects of the all-in-one save on the table (its seats' hand zones left out)."""
    [save] = folder.glob("*-all.json")
    states = json.loads(save.read_text("utf-8"))["ObjectStates"]
    return [state for state in states if state["Name"] != "HandTrigger"]


def test_every_tts_folder_has_a_readme_in_its_language_on_how_to_load_the_images(tts):
    """The saves' URLs are bare file names when base_url is empty: TTS shows blank cards unless
    the player uploads the PNGs and points the saves at them, which README.txt tells."""
    seen = set()
    for game_id, lang, folder in _folders(tts):
        text = (folder / "README.txt").read_text("utf-8")
        assert "Saves/Saved Objects" in text and "Cloud Manager" in text
        assert "base_url" not in text  # (review 6-N: the builder's setting, not the player's)
        assert "Games > Save & Load" in text and f"{game_id}-{lang}-all.json" in text
        assert f"{game_id}-{lang}-all" in text
        if lang == "fr":
            assert "mettez en ligne chaque PNG" in text and "\u202f:" in text
            assert "barres obliques" in text and f"par-dessus {game_id}-{lang}-all" in text
        else:
            assert "upload every PNG" in text
            # review 6-N: a Windows path's backslashes break the JSON; the game saved over -all
            assert "forward slashes" in text and f"save the game over {game_id}-{lang}-all" in text
        assert '"file:///C:/Users/' in text and "\\" not in text
        seen.add(lang)
    assert seen == {"en", "fr"}


def test_a_file_base_url_writes_absolute_file_urls_of_the_output_folder(project, tmp_path):
    from printshop.render.tts import TtsExport

    target = project.targets.tts.model_copy(update={"base_url": "file://"})
    export = TtsExport(None, target, None, {}, "x", tmp_path / "tts")
    assert export.url("x-cards-faces.png") == (tmp_path / "tts" / "x-cards-faces.png").as_uri()
    assert export.url("a.png").startswith("file:///")
    plain = TtsExport(None, project.targets.tts, None, {}, "x", tmp_path)
    assert plain.url("a.png") == "a.png"


def _footprint(state: dict, folder: Path) -> tuple[float, float, float, float]:
    """(left, right, near, far) of an object in TTS units: a card 2.5 x 3.5 at scale 1 (turned
    for sideways cards), a tile, board or PDF 2 units wide at scale 1 and as deep as its image's
    (its page's) aspect."""
    transform = state["Transform"]
    if "CustomImage" in state:
        width = 2 * transform["scaleX"]
        with Image.open(folder / state["CustomImage"]["ImageURL"]) as image:
            depth = width * image.height / image.width
    elif "CustomPDF" in state:  # the rules, scaled as a tile, as deep as their first page
        width = 2 * transform["scaleX"]
        box = PdfReader(folder / state["CustomPDF"]["PDFUrl"]).pages[0].mediabox
        depth = width * float(box.height) / float(box.width)
    elif "SidewaysCard" not in state:  # one of TTS's own pieces (a die, a bag): 2 x 2 at most
        width = depth = 2.0
    else:
        across, down = (3.5, 2.5) if state["SidewaysCard"] else (2.5, 3.5)
        width, depth = across * transform["scaleX"], down * transform["scaleZ"]
    x, z = transform["posX"], transform["posZ"]
    return x - width / 2, x + width / 2, z - depth / 2, z + depth / 2


def _card_length(folder: Path) -> float:
    """The longest side of the save's largest card, in TTS units (3.5 at scale 1)."""
    return max(
        3.5 * max(state["Transform"]["scaleX"], state["Transform"]["scaleZ"])
        for state in _all(folder)
        if "SidewaysCard" in state
    )


def test_no_two_objects_of_an_all_in_one_save_overlap(tts):
    """Kremlin's tiles sat inside the board, Comrade Stalin's role tiles 2 units apart though
    each is 2.9 deep: now every pair is at least 1 unit apart (tests/test_tts_names.py: centred)."""
    for game_id, lang, folder in _folders(tts):
        states = _all(folder)
        boxes = [(state["Nickname"], _footprint(state, folder)) for state in states]
        for index, (name, (left, right, near, far)) in enumerate(boxes):
            for other, (left2, right2, near2, far2) in boxes[index + 1 :]:
                apart = max(left2 - right, left - right2, near2 - far, near - far2)
                assert apart >= 0.99, (game_id, lang, name, other, apart)


def _bags(states: list[dict]) -> dict[str, dict]:
    return {
        state["Nickname"].replace("\u202f", " "): state
        for state in states
        if state["Name"] == "Bag"
    }


def test_each_faction_has_its_own_bag_of_markers_named_in_the_kits_language(tts, project):
    """Review 4-J: the 87 shared markers of eleven kinds lay in one face-up deck, searched every
    year; each faction's 18 were a deck of cards. Now every marker is a tile, each faction's in
    its own bag, the shared supply a bag per kind of marker named by what it prints."""
    folder = tts / "kremlin" / "fr" / "tts"
    bags = _bags(_all(folder))
    texts = project.games["kremlin"].catalogues["fr"].entries
    for number in range(1, 7):
        name = str(texts[f"markers.faction.f{number}"].text).replace("\u202f", " ")
        bag = bags[name]
        tiles = bag["ContainedObjects"]
        assert len(tiles) == 15 + 3  # its influence markers and its parade markers
        assert {tile["Name"] for tile in tiles} == {"Custom_Tile"}
        assert len({tile["CustomImage"]["ImageURL"] for tile in tiles}) == 11  # 1–10, parade
        saved = json.loads((folder / f"kremlin-fr-markers-f{number}.json").read_text("utf-8"))
        assert [state["Nickname"] for state in saved["ObjectStates"]] == [bag["Nickname"]]
    shared = {
        "Soupçon ?": 10,
        "Soupçon ??": 4,
        "Soupçon ???": 3,
        "Marqueur CURE": 8,
        "Malade (une croix)": 18,
        "Points de stress +1": 10,
        "Points de stress +10": 4,
    }
    for name, count in shared.items():
        tiles = bags[name]["ContainedObjects"]
        assert len(tiles) == count, name
        assert {tile["Nickname"].replace("\u202f", " ") for tile in tiles} == {name}
        assert len({tile["CustomImage"]["ImageURL"] for tile in tiles}) == 1  # one kind a bag
    saved = json.loads((folder / "kremlin-fr-markers.json").read_text("utf-8"))["ObjectStates"]
    supply = _bags(saved)
    assert len(supply) == 11 and sum(len(b["ContainedObjects"]) for b in supply.values()) == 87
    assert set(shared) <= set(supply)


def test_french_saves_name_decks_and_cards_by_the_texts_they_print(tts):
    """Nicknames were internal ids ("cards", "f1-1", politicians "a", "b"): now the deck's name
    and each card's title, as printed."""
    folder = tts / "kremlin" / "fr" / "tts"
    [politicians] = json.loads((folder / "kremlin-fr-politicians.json").read_text("utf-8"))[
        "ObjectStates"
    ]
    names = [card["Nickname"] for card in politicians["ContainedObjects"]]
    assert "A · Nestor Aparatschik" in names and "a" not in names and "b" not in names
    assert politicians["Nickname"] not in ("politicians", "")
    assert all(
        card["Description"] == politicians["Nickname"] for card in politicians["ContainedObjects"]
    )
    [intrigue] = json.loads((folder / "kremlin-fr-intrigue.json").read_text("utf-8"))[
        "ObjectStates"
    ]
    assert not any(card["Nickname"].startswith("n0") for card in intrigue["ContainedObjects"])
    [comrade] = json.loads(
        (tts / "comrade" / "fr" / "tts" / "comrade-fr-cards.json").read_text("utf-8")
    )["ObjectStates"]
    assert comrade["Nickname"] != "cards"
    tiles = [state["Nickname"] for state in _all(tts / "kremlin" / "fr" / "tts")]
    assert "influence" not in tiles and "board" not in tiles
    # a title whose placeholders the template fills ("Setup for {n} players") is not a name
    for _, _, folder in _folders(tts):
        assert not any("{" in state["Nickname"] for state in _all(folder))


def _links(value, key: str = ""):
    """Every (field, value) of a save whose field names a link (an image's URL, the rules' PDFUrl),
    however deep."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _links(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _links(item, key)
    elif key.lower().endswith("url"):
        yield key, value


def test_one_replace_all_per_file_points_every_link_at_a_web_folder(tts):
    """The README's shortcut for a host that keeps the files' names: replacing `": "<stem>-` by
    `": "<folder>/<stem>-` in a save makes every link `<folder>/<a file of this folder>`, the
    rules' `PDFUrl` too (a find of `URL": "` missed it), and changes nothing but the links. An
    empty link (a sheet's missing back, as saves wrote it before) would stay a broken image in
    TTS."""
    from printshop.render.tts_table import LINK_OPEN, link_start

    folder_url = "https://example.org/kit/"
    for game_id, lang, folder in _folders(tts):
        stem = f"{game_id}-{lang}"
        readme = (folder / "README.txt").read_text("utf-8")
        find = link_start(stem)
        assert find in readme and f"{LINK_OPEN}https://" in readme, (game_id, lang)  # as in JSON
        for save in folder.glob("*.json"):
            text = save.read_text("utf-8")
            links = list(_links(json.loads(text.replace(find, f"{LINK_OPEN}{folder_url}{stem}-"))))
            assert links, save.name
            for field, link in links:
                assert link.startswith(folder_url), (save.name, field, link)
                assert (folder / link.removeprefix(folder_url)).is_file(), (save.name, field, link)
            assert text.count(find) == len(links), save.name  # and nothing but the links


def test_the_readme_speaks_of_a_secret_sheet_only_where_a_game_has_one(tts):
    """Review 6-P: every README said that what a sheet asks a player to write in secret goes in
    the seat's Notebook tab, in games with no such sheet. Only Kremlin's influence sheet is one."""
    sentence = {
        "en": "write in secret goes in that tab",
        "fr": "écrire en secret s’écrit dans cet onglet",
    }
    for game_id, lang, folder in _folders(tts):
        readme = (folder / "README.txt").read_text("utf-8")
        assert (sentence[lang] in readme) == (game_id == "kremlin"), (game_id, lang)


def test_the_rules_lie_on_the_table_as_the_booklet_a_player_reads_page_by_page(tts, tmp_path):
    """Reviews 5-L and 5-M: the saves held no rules; players online had to find the kit's PDF.
    The booklet is written beside the saves, at its paper's size, and lies on the table as TTS's
    PDF object (and in a saved object of its own), named in the kit's language; the note says
    where. Must-pass the other way: a target with `rules: false` writes neither."""
    for game_id, lang, folder in _folders(tts):
        stem = f"{game_id}-{lang}"
        reader = PdfReader(folder / f"{stem}-rules.pdf")
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == (420, 595)  # A5
        assert len(reader.pages) >= 4
        save = json.loads((folder / f"{stem}-all.json").read_text("utf-8"))
        [book] = [state for state in save["ObjectStates"] if state["Name"] == "Custom_PDF"]
        assert book["CustomPDF"]["PDFUrl"] == f"{stem}-rules.pdf"
        word = {"en": "Rules", "fr": "Règles"}[lang]
        assert book["Nickname"] == f"{save['SaveName']} – {word}"
        assert book["Nickname"] in save["Note"], (game_id, lang)
        [own] = json.loads((folder / f"{stem}-rules.json").read_text("utf-8"))["ObjectStates"]
        assert own["CustomPDF"] == book["CustomPDF"]
        first = reader.pages[0].extract_text()
        assert save["SaveName"].split()[0].upper() in first.upper(), (game_id, lang)
    from printshop.pipeline.build import build
    from tests.conftest import copy_data, edit

    data = copy_data(tmp_path / "data", ["comrade"])
    target = data / "print" / "targets" / "tts.yaml"
    edit(target, "stock:", "rules: false   # no booklet on the table\nstock:")
    result = build(data, tmp_path / "out", games=["comrade"], langs=["en"], target="tts", jobs=1)
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    folder = tmp_path / "out" / "comrade" / "en" / "tts"
    assert not list(folder.glob("*.pdf")) and not (folder / "comrade-en-rules.json").exists()
    save = json.loads((folder / "comrade-en-all.json").read_text("utf-8"))
    assert not [state for state in save["ObjectStates"] if state["Name"] == "Custom_PDF"]
    assert "rule booklet (comrade-en-rules-*.pdf)" in save["Note"]


def test_every_board_and_sheet_has_a_saved_object_of_its_own(tts):
    """Review 4-J: the board, the influence sheet, the reference and Comrade Stalin's sheets were
    only in the all-in-one save: a lost tile came back only with the whole table. Now each sheet
    (a set: all its items) is `<stem>-<sheet>.json`, named by what it prints or its `table.<sheet>`
    text, its tiles as in the all-in-one save, centred."""
    expected = {
        ("kremlin", "en"): {"board": ("Kremlin", 1), "influence": ("Kremlin – Influence sheet", 1)},
        ("comrade-stalin", "fr"): {
            "roles": ("Camarade Staline – Feuilles de rôle", 9),
            "setup": ("Camarade Staline – Feuilles de mise en place", 6),
        },
    }
    for (game_id, lang), sheets in expected.items():
        folder = tts / game_id / lang / "tts"
        everything = {state["GUID"]: state for state in _all(folder)}
        for sheet_id, (name, count) in sheets.items():
            save = json.loads((folder / f"{game_id}-{lang}-{sheet_id}.json").read_text("utf-8"))
            assert save["SaveName"] == name and len(save["ObjectStates"]) == count
            for state in save["ObjectStates"]:
                assert state["CustomImage"] == everything[state["GUID"]]["CustomImage"]
            xs = [state["Transform"]["posX"] for state in save["ObjectStates"]]
            assert min(xs) == -max(xs) or len(xs) == 1 and xs == [0.0]  # centred on the origin


def test_the_all_in_one_game_has_a_hand_for_every_seat_clear_of_the_table(tts, project):
    """Review 5-K: a game TTS opens from a save has only the hand zones the save holds, and the
    saves held none: no player could keep a role, a goal or an intrigue card hidden. Now every
    seat colour has one, facing the middle, around the layout and clear of every object."""
    target = project.targets.tts
    for game_id, lang, folder in _folders(tts):
        [save] = folder.glob("*-all.json")
        states = json.loads(save.read_text("utf-8"))["ObjectStates"]
        hands = [state for state in states if state["Name"] == "HandTrigger"]
        assert [hand["FogColor"] for hand in hands] == list(target.player_colours), game_id
        boxes = [_footprint(state, folder) for state in _all(folder)]
        for hand in hands:
            transform = hand["Transform"]
            assert hand["Locked"] and transform["scaleX"] > 2.5  # a hand of cards fits
            for key in ("LayoutGroupSortIndex", "Value", "LuaScript", "XmlUI", "GMNotes"):
                assert key in hand  # TTS refuses a save whose zone lacks one
            x, z = transform["posX"], transform["posZ"]
            turned = transform["rotY"] in (90.0, 270.0)
            half_x, half_z = (
                (transform["scaleZ"] / 2, transform["scaleX"] / 2)
                if turned
                else (transform["scaleX"] / 2, transform["scaleZ"] / 2)
            )
            for left, right, near, far in boxes:  # no object lies in a hand
                assert (
                    max(left - (x + half_x), (x - half_x) - right) > 0
                    or max(near - (z + half_z), (z - half_z) - far) > 0
                ), (game_id, hand["FogColor"])
            # facing the middle: a zone on the near side (z < 0) is not turned, on the far side
            # half a turn, at the ends a quarter towards the middle
            expected = 0.0 if z < -1 else 180.0 if z > 1 else 90.0 if x < 0 else 270.0
            assert transform["rotY"] == expected, (game_id, hand["FogColor"])
            if expected in (0.0, 180.0):  # review 6-S: room before a seat to lay a card down
                room = min(abs(z) - half_z - max(abs(near), abs(far)) for _, _, near, far in boxes)
                assert room > 1.2 * _card_length(folder), (game_id, hand["FogColor"], room)


def test_a_board_lies_in_the_middle_with_the_other_pieces_on_both_sides(tts):
    """Review 5-K: Kremlin's board ran from x = -24.3 to -0.7 and every other piece lay to its
    right, so half the seats faced bags rather than the board. Now the board is in the middle,
    decks and bags on one side, sheets and pieces on the other."""
    for lang in ("en", "fr"):
        folder = tts / "kremlin" / lang / "tts"
        states = _all(folder)
        [board] = [state for state in states if state["Name"] == "Custom_Board"]
        left, right, _, _ = _footprint(board, folder)
        assert abs((left + right) / 2) < 2.0, lang  # about the table's middle
        sides = {"left": 0, "right": 0}
        for state in states:
            if state is board:
                continue
            x0, x1, _, _ = _footprint(state, folder)
            assert x1 <= left - 0.99 or x0 >= right + 0.99, state["Nickname"]  # beside, not over
            sides["left" if x1 <= left else "right"] += 1
        assert sides["left"] and sides["right"], (lang, sides)
