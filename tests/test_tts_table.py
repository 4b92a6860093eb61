"""Tabletop Simulator saves as a player meets them (review 3): a README that says how to make the
images load, an all-in-one save whose objects lie apart on the table, a faction's markers as its own
deck, and objects named in the kit's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

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
    [save] = folder.glob("*-all.json")
    return json.loads(save.read_text("utf-8"))["ObjectStates"]


def test_every_tts_folder_has_a_readme_in_its_language_on_how_to_load_the_images(tts):
    """The saves' URLs are bare file names when base_url is empty: TTS shows blank cards unless
    the player uploads the PNGs and points the saves at them, which README.txt tells."""
    seen = set()
    for game_id, lang, folder in _folders(tts):
        text = (folder / "README.txt").read_text("utf-8")
        assert "Saves/Saved Objects" in text and "base_url" in text and "Cloud Manager" in text
        assert f"{game_id}-{lang}-all" in text
        if lang == "fr":
            assert "mettez en ligne chaque PNG" in text and "\u202f:" in text
        else:
            assert "upload every PNG" in text
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
    for sideways cards), a tile or board 2 units wide at scale 1 and as deep as its image's
    aspect."""
    transform = state["Transform"]
    if "CustomImage" in state:
        width = 2 * transform["scaleX"]
        with Image.open(folder / state["CustomImage"]["ImageURL"]) as image:
            depth = width * image.height / image.width
    elif "SidewaysCard" not in state:  # one of TTS's own pieces (a die, a bag): 2 x 2 at most
        width = depth = 2.0
    else:
        across, down = (3.5, 2.5) if state["SidewaysCard"] else (2.5, 3.5)
        width, depth = across * transform["scaleX"], down * transform["scaleZ"]
    x, z = transform["posX"], transform["posZ"]
    return x - width / 2, x + width / 2, z - depth / 2, z + depth / 2


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


def test_each_faction_has_its_own_deck_of_markers_named_in_the_kits_language(tts, project):
    folder = tts / "kremlin" / "fr" / "tts"
    states = {state["Nickname"]: state for state in _all(folder) if state["Name"] == "DeckCustom"}
    texts = project.games["kremlin"].catalogues["fr"].entries
    for number in range(1, 7):
        name = str(texts[f"markers.faction.f{number}"].text).replace(" ", "")
        [deck] = [
            state
            for nick, state in states.items()
            if nick.replace("\u202f", "").replace(" ", "") == name
        ]
        ids = [card["CardID"] for card in deck["ContainedObjects"]]
        assert len(ids) == 15 + 3  # its influence markers and its parade markers
        saved = json.loads((folder / f"kremlin-fr-markers-f{number}.json").read_text("utf-8"))
        assert saved["ObjectStates"][0]["Nickname"] == deck["Nickname"]
    [rest] = [state for nick, state in states.items() if nick == "Marqueurs"]
    assert len(rest["ContainedObjects"]) == 195 - 6 * 18


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
