"""Deck composition: each deck holds the kinds and counts its composition declares, and the cards'
variables keep its rules (allowed values, ties, unique values, sequences, one of each).
"""

from __future__ import annotations

from collections import Counter

from printshop.diagnostics import Report
from printshop.project.loader import GameData
from printshop.project.models.game import (
    Allowed,
    CardEntry,
    Composition,
    Deck,
    OneEach,
    Sequence,
    Tie,
)


def check_composition(game: GameData, report: Report) -> None:
    for rule in game.game.composition:
        deck = game.game.decks.get(rule.deck)
        if deck is None:
            report.add("unknown-reference", rule.where("deck"), f"no deck '{rule.deck}'")
            continue
        declared = sum(rule.kinds.values())
        if rule.total is not None and rule.kinds and declared != rule.total:
            # the declaration itself is wrong: no deck can meet it, whatever the cards say
            report.add(
                "composition",
                rule.where("total"),
                f"deck '{rule.deck}': its kinds add up to {declared} cards "
                f"({' + '.join(str(n) for n in rule.kinds.values())}), but its total says {rule.total}",
                hint="correct the total or the kinds' counts in the composition",
            )
        actual: Counter[str] = Counter()
        for card in deck.cards:
            actual[card.kind] += card.count
        for kind, expected in rule.kinds.items():
            if actual[kind] != expected:
                report.add(
                    "composition",
                    rule.where("kinds"),
                    f"deck '{rule.deck}' should hold {expected} '{kind}' card(s) but holds {actual[kind]}",
                )
        for kind in sorted(set(actual) - set(rule.kinds)):
            report.add(
                "composition",
                rule.where("kinds"),
                f"deck '{rule.deck}' holds {actual[kind]} '{kind}' card(s), a kind the composition does not declare",
            )
        total = sum(actual.values())
        if rule.total is not None and total != rule.total:
            report.add(
                "composition",
                rule.where("total"),
                f"deck '{rule.deck}' should hold {rule.total} cards in all but holds {total}",
            )
        _check_card_vars(rule, deck, report, game)


def _card_values(deck: Deck, var: str) -> list[tuple[str | int, CardEntry]]:
    """(value, card) for every physical card that has `var` (a card with count 3 counts three
    times)."""
    return [
        (card.vars[var], card) for card in deck.cards if var in card.vars for _ in range(card.count)
    ]


def _check_card_vars(rule: Composition, deck: Deck, report: Report, game: GameData) -> None:
    """The composition's rules on card variables, each kind of rule in turn."""
    offices = [office.id for office in game.game.board.offices] if game.game.board else []
    for allowed in rule.allowed:
        _check_allowed(allowed, deck, offices, report)
    for tie in rule.ties:
        _check_tie(tie, deck, report)
    for var in rule.unique:
        _check_unique(var, deck, report)
    for sequence in rule.sequence:
        _check_sequence(sequence, deck, report)
    for each in rule.one_each:
        _check_one_each(each, deck, report)


def _check_allowed(allowed: Allowed, deck: Deck, offices: list[str], report: Report) -> None:
    values = [str(v) for v in allowed.values] + (offices if allowed.offices else [])
    for value, card in _card_values(deck, allowed.var):
        if str(value) not in values:
            report.add(
                "unknown-reference",
                card.where("vars"),
                f"card '{card.id}': {allowed.var} '{value}' is not one of {', '.join(values)}",
            )


def _check_tie(tie: Tie, deck: Deck, report: Report) -> None:
    first: dict[str | int, CardEntry] = {}
    for value, card in _card_values(deck, tie.var):
        if value in first and first[value] is not card:
            other = first[value]
            report.add(
                "tie",
                other.where("vars"),
                f"cards '{other.id}' and '{card.id}' share {tie.var} {value} ('{card.id}' at "
                f"{card.where('vars')}); {tie.rule}",
                acknowledged=tie.acknowledged or "",
            )
        first.setdefault(value, card)


def _check_unique(var: str, deck: Deck, report: Report) -> None:
    seen: dict[str | int, CardEntry] = {}
    for value, card in _card_values(deck, var):
        if value in seen:
            report.add(
                "composition",
                card.where("vars"),
                f"card '{card.id}' repeats {var} {value!r} of card '{seen[value].id}' ({seen[value].where('vars')})",
            )
        else:
            seen[value] = card


def _check_sequence(sequence: Sequence, deck: Deck, report: Report) -> None:
    values = [value for value, _ in _card_values(deck, sequence.var)]
    numbers = sorted(v for v in values if isinstance(v, int))
    if len(numbers) != len(values):
        report.add(
            "composition",
            sequence.where("var"),
            f"every '{sequence.var}' must be a whole number",
        )
        return
    expected = list(range(sequence.start, sequence.start + len(numbers)))
    if numbers != expected:
        missing = sorted(set(expected) - set(numbers))
        extra = sorted(set(numbers) - set(expected)) or sorted(
            {n for n in numbers if numbers.count(n) > 1}
        )
        report.add(
            "composition",
            sequence.where("var"),
            f"'{sequence.var}' should run {sequence.start}–{expected[-1] if expected else sequence.start} "
            f"without gaps: missing {missing or 'none'}, unexpected or repeated {extra or 'none'}",
        )


def _check_one_each(each: OneEach, deck: Deck, report: Report) -> None:
    values = [value for value, _ in _card_values(deck, each.var)]
    wanted = [str(v) for v in each.values]
    counts = {w: sum(1 for v in values if str(v) == w) for w in wanted}
    wrong = [f"{w} ×{n}" for w, n in counts.items() if n != 1]
    strangers = sorted({str(v) for v in values} - set(wanted))
    if wrong or strangers:
        report.add(
            "composition",
            each.where("var"),
            f"each {each.var} should appear once: {', '.join(wrong) or 'all once'}"
            f"{'; not expected: ' + ', '.join(strangers) if strangers else ''}",
        )
