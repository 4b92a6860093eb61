"""The vars a deck declares (`vars:` in game.yaml) against every card's: a var the deck does not
declare (a misspelling, `cots` for `cost`, that a template would read as missing and report at the
template), a declared var a card lacks, a value of the wrong type or outside the declared values.
Each is said where the card is written: its `vars` in game.yaml, its row and column of a
spreadsheet, its deck's `generate`. A deck that declares nothing is not checked (any vars)."""

from __future__ import annotations

from printshop.diagnostics import Report, closest, did_you_mean
from printshop.project.models.game import CardEntry, Deck, VarSpec


def declared(deck: Deck) -> dict[str, VarSpec]:
    """The deck's declarations written out: a type alone, or the values alone, as a VarSpec."""
    specs = {}
    for name, spec in deck.vars.items():
        if isinstance(spec, VarSpec):
            specs[name] = spec
        elif isinstance(spec, list):
            specs[name] = VarSpec(values=spec)
        else:
            specs[name] = VarSpec(type=spec)
    return specs


def check_card_vars(deck_id: str, deck: Deck, report: Report) -> None:
    specs = declared(deck)
    if not specs:
        return
    for card in deck.cards:
        meant = set()  # declared names a misspelt var stands for: said once, as the misspelling
        for name, value in card.vars.items():
            spec = specs.get(name)
            if spec is None:
                near = closest(name, [n for n in specs if n not in card.vars])
                meant.add(near)
                report.add(
                    "unknown-key",
                    card.where("vars"),
                    f"card '{card.id}' of deck '{deck_id}' holds the var '{name}', which the deck "
                    f"does not declare{did_you_mean(name, list(specs)) or ''}",
                    hint=f"correct the name, or declare it under `vars:` of deck '{deck_id}' "
                    f"(declared: {', '.join(specs)})",
                )
                continue
            problem = _wrong(value, spec)
            if problem:
                report.add(
                    "wrong-type",
                    card.where("vars"),
                    f"card '{card.id}' of deck '{deck_id}': {name} {value!r} {problem}",
                )
        lacking = [
            name
            for name, spec in specs.items()
            if not spec.optional and name not in card.vars and name not in meant
        ]
        if lacking:
            report.add(
                "missing-field",
                _where(card),
                f"card '{card.id}' of deck '{deck_id}' lacks the var"
                f"{'s' if len(lacking) > 1 else ''} {', '.join(lacking)} its deck declares",
                hint="give it the var, or declare it `{optional: true}` in the deck's `vars:`",
            )


def _wrong(value: str | int, spec: VarSpec) -> str:
    """What is wrong with a card's value for its declaration, or ''."""
    if spec.type == "number" and not isinstance(value, int):
        return "is not a whole number"
    if spec.type == "text" and not isinstance(value, str):
        return "is not a text (write it in quotes)"
    if spec.values is not None and str(value) not in {str(v) for v in spec.values}:
        return f"is not one of {', '.join(str(v) for v in spec.values)}"
    return ""


def _where(card: CardEntry):
    return card.where("vars") if card.vars else card.where()
