"""The vars a deck declares (`vars:` in game.yaml) against every card's: a var the deck does not
declare (a misspelling, `cots` for `cost`, that a template would read as missing and report at the
template), a declared var a card lacks, a value of the wrong type or outside the declared values.
Each is said where the card is written: its `vars` in game.yaml, its row and column of a
spreadsheet, its deck's `generate`. A deck that declares nothing is not checked (any vars)."""

from __future__ import annotations

from collections.abc import Collection

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


def check_table_names(
    deck_id: str, deck: Deck, texts: Collection[str] | None, report: Report
) -> None:
    """A deck's `names` and `apart` (what a digital table calls its cards and keeps apart) name
    kinds its cards have and texts the game has (`texts`: its source language's ids; None: no
    text file, said elsewhere); a text id
    that takes a card's var (`role.{role}.name`) is read card by card, and not checked here."""
    kinds = {card.kind for card in deck.cards}
    named = [(kind, text_id, "names") for kind, text_id in deck.names.items()]
    named += [(kind, apart.name, "apart") for apart in deck.apart for kind in apart.kinds]
    for kind, text_id, key in named:
        if kind not in kinds:
            report.add(
                "unknown-reference",
                deck.where(key),
                f"deck '{deck_id}' has no card of kind '{kind}'{did_you_mean(kind, kinds)} "
                f"(kinds: {', '.join(sorted(kinds))})",
            )
        elif texts is not None and "{" not in text_id and text_id not in texts:
            report.add(
                "unknown-reference",
                deck.where(key),
                f"deck '{deck_id}' names its '{kind}' cards by the text '{text_id}', which the "
                f"game does not have{did_you_mean(text_id, texts)}",
            )


def check_table_stock(project, game, report: Report) -> None:
    """The pieces print/targets/tts.yaml's `stock` adds to this game's table are named by texts
    the game has (a misspelt id named a d20 'table.d2O' on the table, silently), and its
    `notebook` names sheets the game has (a misspelt one left the secret values no private
    place, silently)."""
    target = project.targets.tts
    source = game.catalogues.get(game.game.source_language)
    if target is None or source is None:
        return
    for index, piece in enumerate(target.stock.get(game.id, [])):
        for text_id in (piece.name, piece.piece):
            if text_id is not None and text_id not in source.entries:
                report.add(
                    "unknown-reference",
                    target.where("stock"),
                    f"stock['{game.id}'][{index}] ({piece.object}) is named by the text "
                    f"'{text_id}', which the game does not have"
                    f"{did_you_mean(text_id, source.entries)}",
                    hint=f"add '{text_id}' to the game's texts, or name the piece by a text it has",
                )
        if piece.colour is not None and piece.colour not in project.colours.palette:
            report.add(
                "unknown-reference",
                target.where("stock"),
                f"stock['{game.id}'][{index}] ({piece.object}) is tinted '{piece.colour}', which "
                f"the palette does not have{did_you_mean(piece.colour, project.colours.palette)}",
                hint="name a colour of print/colours.yaml's palette, or take `colour` out",
            )
    for sheet_id in target.notebook.get(game.id, []):
        if sheet_id not in game.game.sheets:
            report.add(
                "unknown-reference",
                target.where("notebook"),
                f"notebook['{game.id}'] names the sheet '{sheet_id}', which the game does not "
                f"have{did_you_mean(sheet_id, game.game.sheets)}",
                hint="name one of the game's sheets (game.yaml's `sheets`), or take it out",
            )
