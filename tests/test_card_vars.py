"""Issue 56, item 5: a deck may declare the vars of its cards, so that a misspelt var is reported
where the card is written (not at the template that reads the right name), as is a declared var
a card lacks and a value of the wrong type or outside the declared values."""

from __future__ import annotations

import re

import pytest

from printshop.pipeline.build import check
from tests.conftest import edit, line_of

DECLARED = "    back: back\n    vars: {cost: number, suit: [herring, salt], motto: {type: text, optional: true}}\n"
CARDS = (
    "      - {id: sun, kind: sun, count: 3, front: card, vars: {cost: 2, suit: herring}}\n"
    '      - {id: moon, kind: moon, count: 3, front: card, vars: {cost: 3, suit: salt, motto: "Up"}}\n'
)


@pytest.fixture
def game(scaffolded):
    path = scaffolded / "data" / "tiny" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"    back: back[^\n]*\n", lambda _: DECLARED, text, count=1)
    start = text.index("      - {id: sun")
    end = text.index("\n", text.index("      - {id: moon")) + 1
    path.write_text(text[:start] + CARDS + text[end:], encoding="utf-8")
    return path


def _errors(scaffolded):
    report, _ = check(scaffolded / "data", games=["tiny"], langs=["en"])
    return [d for d in report.items if d.severity.value == "error"]


def test_cards_that_hold_what_the_deck_declares_pass(game, scaffolded):
    assert _errors(scaffolded) == []


@pytest.mark.parametrize(
    "old, new, code, said",
    [
        (
            "vars: {cost: 2, suit: herring}",
            "vars: {cots: 2, suit: herring}",
            "unknown-key",
            "did you mean 'cost'",
        ),
        (
            "vars: {cost: 2, suit: herring}",
            "vars: {suit: herring}",
            "missing-field",
            "lacks the var cost",
        ),
        (
            "vars: {cost: 2, suit: herring}",
            'vars: {cost: "two", suit: herring}',
            "wrong-type",
            "not a whole number",
        ),
        (
            "vars: {cost: 2, suit: herring}",
            "vars: {cost: 2, suit: amber}",
            "wrong-type",
            "not one of herring, salt",
        ),
        ('motto: "Up"', "motto: 7", "wrong-type", "not a text"),
    ],
)
def test_a_card_against_its_decks_declaration_is_said_at_the_card(
    game, scaffolded, old, new, code, said
):
    edit(game, old, new)
    [error] = _errors(scaffolded)
    assert error.code == code and said in error.message, error
    assert error.location.path.endswith("game.yaml") and error.location.line == line_of(game, new)


def test_a_deck_that_declares_nothing_is_not_checked(game, scaffolded):
    edit(game, DECLARED.split("\n")[1] + "\n", "")
    edit(game, "vars: {cost: 2, suit: herring}", "vars: {anything: 2}")
    assert _errors(scaffolded) == []
