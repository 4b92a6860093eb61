"""Issue 50, item 6: a deck written as a product of axes (`generate`) instead of a card list. A new
project made with `printshop init` and `printshop new`, its game's files replaced by inline text: a
44-card suited deck from a few lines (with a joker listed beside it) validates, builds (its PDF holds
every card, named), goes to Tabletop Simulator, and its composition rules see the generated vars;
each kind of bad `generate` is a diagnostic at the data that causes it, and its valid neighbour
passes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pypdf import PdfReader

from printshop.cli import main
from printshop.diagnostics import Report, StageFailed
from printshop.pipeline.build import check
from printshop.project.loader import load_project
from tests.pdfinspect import page_texts

DECK = """\
title: game.title
source_language: en
players: {min: 2, max: 5}
minutes: 30

decks:
  market:
    card_size: poker-eu
    bleed: 0.125in
    safe: 4mm
    back: back
    generate:
      axes:
        suit: [herring, salt, amber, spice]
        value: 1..11
      kind: goods
      front: "{suit}"
    cards:
      - {id: joker, kind: joker, front: joker}

composition:
  - deck: market
    total: 45
    kinds: {goods: 44, joker: 1}
    allowed:
      - {var: suit, values: [herring, salt, amber, spice]}

booklet:
  template: market/rules.xml.j2
"""

FACES = """\
faces:
  card:
    abstract: true
    background: paper
    template: market/faces/card.j2
    frames:
      title: {x: 6mm, y: 6mm, width: 51mm, height: 12mm, font: sans-bold, size: 14pt,
              min_size: 10pt, align: center, valign: middle, uppercase: true}
      value: {x: 6mm, y: 30mm, width: 51mm, height: 20mm, font: sans-bold, size: 28pt,
              min_size: 20pt, align: center, valign: middle}
  herring: {extends: card}
  salt: {extends: card}
  amber: {extends: card}
  spice: {extends: card}
  joker: {extends: card}
  back:
    background: signature
    template: market/faces/back.j2
    frames:
      title: {x: 8mm, y: 36mm, width: 47mm, height: 16mm, font: sans-bold, size: 18pt,
              min_size: 11pt, colour: white, align: center, valign: middle, uppercase: true}
"""

TEXTS = {
    "en": """\
game:
  title: "Market"  # accept untranslated: the game's name
  players: "{min}–{max} players"
  duration: "About {minutes} minutes"
suit:
  herring: "Herring"
  salt: "Salt"
  amber: "Amber"
  spice: "Spice"
card:
  joker:
    name: "Joker"
rules:
  heading: "How to play"
  p1: "Deal the {total} cards; the highest value of the suit led wins the trick."
""",
    "fr": """\
game:
  title: "Market"  # accept untranslated: the game's name
  players: "{min} à {max} joueurs"
  duration: "Environ {minutes} minutes"
suit:
  herring: "Hareng"
  salt: "Sel"
  amber: "Ambre"
  spice: "Épice"
card:
  joker:
    name: "Joker"  # accept untranslated: the same word in French
rules:
  heading: "Comment jouer"
  p1: "Distribuez les {total} cartes ; la plus haute valeur de la couleur demandée remporte le pli."
""",
}

CARD = """\
{% block title %}{% if card.kind == "joker" %}{{ t.card.joker.name }}\
{% else %}{{ t.suit[card.vars.suit] }}{% endif %}{% endblock %}
{% block value %}{{ card.vars.value if card.kind == "goods" else "★" }}{% endblock %}
"""

RULES = """\
<title>{{ t.game.title }}</title>
<meta>{{ t.game.players | fill(min=game.players.min, max=game.players.max) }} · \
{{ t.game.duration | fill(minutes=game.minutes) }}</meta>
<h1>{{ t.rules.heading }}</h1>
<p>{{ t.rules.p1 | fill(total=decks.market.total) }}</p>
"""


def make_game(root: Path, game: str = DECK, faces: str = FACES) -> Path:
    """A project made with `printshop init` and `printshop new market`, its game's files replaced;
    the data folder."""
    assert main(["init", str(root)]) == 0
    cwd = Path.cwd()
    try:
        os.chdir(root)
        assert main(["new", "market"]) == 0
    finally:
        os.chdir(cwd)
    data = root / "data" / "market"
    (data / "game.yaml").write_text(game, encoding="utf-8")
    (data / "faces.yaml").write_text(faces, encoding="utf-8")
    for lang, text in TEXTS.items():
        (data / "text" / f"{lang}.yaml").write_text(text, encoding="utf-8")
    (data / "text" / "fr.sources.yaml").unlink()
    (root / "templates" / "market" / "faces" / "card.j2").write_text(CARD, encoding="utf-8")
    (root / "templates" / "market" / "faces" / "aid.j2").unlink()
    (root / "templates" / "market" / "rules.xml.j2").write_text(RULES, encoding="utf-8")
    return root / "data"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("generated") / "games"
    make_game(root)
    cwd = Path.cwd()
    try:
        os.chdir(root)
        assert main(["i18n", "sync", "fr", "market"]) == 0
        assert main(["validate", "--strict"]) == 0
        assert main(["build", "--quiet", "--jobs", "1", "--paper", "a4"]) == 0
        assert main(["build", "--quiet", "--jobs", "1", "--target", "tts", "--lang", "en"]) == 0
    finally:
        os.chdir(cwd)
    return root


def test_a_generated_deck_is_its_product_in_order_with_its_vars(tmp_path):
    data = make_game(tmp_path / "games")
    project = load_project(data)
    cards = project.games["market"].game.decks["market"].cards
    assert len(cards) == 45
    assert [card.id for card in cards[:12]] == [f"herring-{n}" for n in range(1, 12)] + ["salt-1"]
    assert cards[-2].id == "spice-11" and cards[-1].id == "joker"  # generated first, then listed
    assert cards[13].vars == {"suit": "salt", "value": 3} and cards[13].front == "salt"
    assert {card.kind for card in cards[:44]} == {"goods"} and cards[0].count == 1
    # a generated card is placed at its generate: the game.yaml lines of `front`
    assert cards[5].where("front").line == 17 and cards[5].where().line == 13


def test_the_generated_deck_validates_and_builds_with_every_card_named(built):
    out = built / "output" / "market"
    for lang, names in (("en", ("HERRING", "SPICE")), ("fr", ("HARENG", "ÉPICE"))):
        sheet = out / lang / f"market-{lang}-market-a4.pdf"
        texts = page_texts(sheet)
        # 45 poker cards, 9 to an A4 page: 5 pages of fronts, each with its page of backs
        assert len(PdfReader(sheet).pages) == 10
        fronts = "\n".join(texts[0::2])
        for name in names:
            assert fronts.count(name) == 11, (name, fronts)
        assert "JOKER" in fronts
        for value in range(1, 12):
            assert str(value) in fronts


def test_the_generated_deck_goes_to_tabletop_simulator(built):
    saved = built / "output" / "market" / "en" / "tts" / "market-en-market.json"
    deck = json.loads(saved.read_text(encoding="utf-8"))["ObjectStates"][0]
    names = [card["Nickname"] for card in deck["ContainedObjects"]]
    assert len(deck["DeckIDs"]) == 45 and names[:2] == ["Herring", "Herring"]  # printed titles
    assert names[11] == "Salt" and names[-1] == "Joker"


def _rule_fails(tmp_path: Path, game: str) -> list[str]:
    data = make_game(tmp_path / "games", game=game)
    report, _ = check(data)
    return [d.format() for d in report.errors]


def test_composition_rules_see_the_generated_vars(tmp_path):
    wrong = DECK.replace("values: [herring, salt, amber, spice]", "values: [herring, salt, amber]")
    errors = _rule_fails(tmp_path, wrong)
    assert any("spice" in error and "composition" in error for error in errors), errors
    assert any(":13:" in error or ":17:" in error for error in errors), errors  # at the generate


def test_a_listed_deck_beside_a_generated_one_still_passes(tmp_path):
    report, _ = check(make_game(tmp_path / "games"))
    assert not report.has_errors, [d.format() for d in report.errors]


# --- bad input: each a diagnostic at its place, and the valid neighbour that passes
GOOD_AXES = """      axes:
        suit: [herring, salt, amber, spice]
        value: 1..11"""


def _load_errors(tmp_path: Path, game: str, faces: str = FACES) -> list:
    data = make_game(tmp_path / "games", game=game, faces=faces)
    report = Report()
    try:
        load_project(data, report=report)
    except StageFailed as failed:
        return [d for d in failed.report.errors]
    return [d for d in report.errors]


def _one(errors: list, code: str = "generated-deck"):
    found = [d for d in errors if d.code == code]
    assert len(found) == 1, [d.format() for d in errors]
    assert found[0].hint, found[0].format()
    return found[0]


CASES = {
    # name: (what replaces GOOD_AXES or a line of DECK, line, column, words in the message)
    "unknown axis in a pattern": (
        ('front: "{suit}"', 'front: "{suits}"'),
        17,
        14,
        ["'{suits}'", "did you mean 'suit'"],
    ),
    "unknown axis in the id": (
        ("kind: goods", 'kind: goods\n      id: "{suit}-{valu}"'),
        17,
        11,
        ["'{valu}'"],
    ),
    "empty axis": (("suit: [herring, salt, amber, spice]", "suit: []"), 14, 15, ["no values"]),
    "a range that runs down": (("value: 1..11", "value: 11..1"), 15, 16, ["runs down"]),
    "a range that is no range": (("value: 1..11", "value: 1..x"), 15, 16, ["'1..x'"]),
    "too many cards": (("value: 1..11", "value: 1..300"), 14, 9, ["1200 cards", "4 × 300"]),
    "a value no id can hold": (
        ("[herring, salt, amber, spice]", "[herring, Salt, amber, spice]"),
        14,
        25,
        ["'Salt-1' is not a valid id"],
    ),
    "a kind that is no id": (("kind: goods", 'kind: "{suit}X"'), 16, 13, ["'herringX'"]),
    "a brace left open": (
        ("kind: goods", 'kind: goods\n      id: "{suit}-{value"'),
        17,
        11,
        ["brace"],
    ),
    "an axis named as a var": (
        ("kind: goods", "kind: goods\n      vars: {suit: x}"),
        14,
        9,
        ["both an axis and"],
    ),
    "an id made twice": (("kind: goods", 'kind: goods\n      id: "{suit}"'), 17, 11, ["twice"]),
    "a value twice": (
        ("[herring, salt, amber, spice]", "[herring, salt, herring]"),
        14,
        31,
        ["twice"],
    ),
    "no face for a value": (
        ('front: "{suit}"', "front: {by: suit, faces: {herring: herring, salt: salt}}"),
        17,
        32,
        ["amber, spice"],
    ),
    "a map keyed by no value": (
        (
            'front: "{suit}"',
            "front: {by: suit, faces: {herring: herring, salt: salt, amber: amber, spice: spice,"
            " pepper: spice}}",
        ),
        17,
        91,
        ["'pepper'"],
    ),
    "a map by no axis": (
        ('front: "{suit}"', "front: {by: colour, faces: {herring: herring}}"),
        17,
        19,
        ["'by: colour'"],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_generate_is_said_at_its_place(tmp_path, case):
    (old, new), line, col, words = CASES[case]
    assert old in DECK
    error = _one(_load_errors(tmp_path, DECK.replace(old, new)))
    assert (error.location.line, error.location.col) == (line, col), error.format()
    assert error.location.path.endswith("market/game.yaml")
    for word in words:
        assert word in error.message, error.format()


def test_a_face_per_value_that_does_not_exist_is_said_at_the_pattern(tmp_path):
    faces = FACES.replace("  spice: {extends: card}\n", "")
    error = _one(_load_errors(tmp_path, DECK, faces), "unknown-reference")
    assert (error.location.line, error.location.col) == (17, 14), error.format()
    assert "no face 'spice'" in error.message


def test_a_face_per_value_in_a_map_that_does_not_exist_is_said_at_its_entry(tmp_path):
    picked = DECK.replace(
        'front: "{suit}"',
        "front: {by: suit, faces: {herring: herring, salt: salt, amber: amber, spice: spicy}}",
    )
    error = _one(_load_errors(tmp_path, picked), "unknown-reference")
    assert (error.location.line, error.location.col) == (17, 84), error.format()
    assert "no face 'spicy'" in error.message and "did you mean 'spice'" in error.message


def test_a_listed_card_with_a_generated_id_is_said_at_the_listed_card(tmp_path):
    error = _one(
        _load_errors(tmp_path, DECK.replace("{id: joker,", "{id: salt-3,")), "duplicate-id"
    )
    assert error.location.line == 19 and "suit salt, value 3" in error.message, error.format()


@pytest.mark.parametrize(
    "old, new",
    [
        (
            'front: "{suit}"',
            "front: {by: suit, faces: {herring: herring, salt: salt, amber: amber, spice: spice}}",
        ),  # a face per value, every value given
        ("kind: goods", 'kind: goods\n      id: "{value}-of-{suit}"'),  # an id pattern
        ("value: 1..11", "value: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]"),  # the range as a list
        ("kind: goods", "kind: goods\n      count: 1\n      vars: {colour: none}"),  # more vars
    ],
)
def test_valid_generates_pass(tmp_path, old, new):
    assert old in DECK
    assert _load_errors(tmp_path, DECK.replace(old, new)) == []


def test_a_generate_holding_the_whole_limit_passes(tmp_path):
    # 4 × 250 = 1000 cards, the most one generate makes
    game = DECK.replace("value: 1..11", "value: 1..250")
    assert _load_errors(tmp_path, game) == []


def test_axes_written_beside_the_other_keys_are_said_to_go_under_axes(tmp_path):
    game = DECK.replace(GOOD_AXES + "\n", "      suit: [herring, salt]\n      value: 1..3\n")
    assert game != DECK
    error = _one(_load_errors(tmp_path, game), "wrong-type")
    assert error.location.line == 13, error.format()
    assert "'suit, value' must be written under 'axes'" in error.message, error.format()


def test_an_axis_neither_listed_nor_a_range_is_said_at_its_value(tmp_path):
    error = _one(_load_errors(tmp_path, DECK.replace("value: 1..11", "value: 5")), "wrong-type")
    assert (error.location.line, error.location.col) == (15, 16), error.format()
    assert "a list of values" in error.message and "1..11" in error.message


def test_a_session_makes_the_cards_again_when_the_generate_is_saved(tmp_path):
    from printshop.live.session import Session

    data = make_game(tmp_path / "games")
    session = Session(data, None, langs=["en"], render=False)
    assert session.refresh().ok
    assert session.project is not None
    assert len(session.project.games["market"].game.decks["market"].cards) == 45
    game_yaml = data / "market" / "game.yaml"
    game_yaml.write_text(DECK.replace("value: 1..11", "value: 1..10"), encoding="utf-8")
    assert session.refresh({game_yaml}).ok is False  # the composition still says 45 and 44
    game_yaml.write_text(
        DECK.replace("value: 1..11", "value: 1..10").replace("45", "41").replace("44", "40"),
        encoding="utf-8",
    )
    update = session.refresh({game_yaml})
    assert update.ok, [d.format() for d in update.report.errors]
    cards = session.project.games["market"].game.decks["market"].cards
    assert len(cards) == 41 and cards[10].id == "salt-1"


def test_a_deck_with_neither_cards_nor_generate_is_said(tmp_path):
    game = DECK[: DECK.index("    generate:")] + DECK[DECK.index("\ncomposition:") :]
    assert "generate" not in game and "cards:" not in game
    error = _one(_load_errors(tmp_path, game), "missing-field")
    assert error.location.line == 8 and "neither 'cards' nor 'generate'" in error.message
