"""Generated decks: a deck's `generate` (models/game.py's `Generate`) made into the cards it stands
for, when the game is read, so that every later stage (composition, layout, build, TTS, texts) sees
only cards, listed or generated alike.

The cards are the product of the axes in the order written (the first axis varies slowest). Each
card is a `CardEntry` placed at its `generate` (schema.place_as): a diagnostic about a card's
`front`, `kind` or `vars` points at the key of the same name in `generate`. Everything that keeps
the cards from being made is reported here, at the data that causes it: an axis that is empty, a
range written wrong, too many cards, a pattern naming no axis, an id made twice or taken by a
listed card, a face that does not exist. A deck with such a fault gets none of its generated cards
(the load fails with the diagnostics).
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from printshop.diagnostics import Location, Report, did_you_mean
from printshop.project.models.faces import Face
from printshop.project.models.game import CardEntry, Deck, FacePick, Game, Generate
from printshop.project.schema import node_of, place_as

MAX_GENERATED = 1000
"""The most cards one `generate` may make: a product past it is a typo (`1..1000` for `1..10`)."""

_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
_AXIS_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_ID_PART = re.compile(r"^[a-z0-9_-]+$")  # what a value may be to be part of an id

_RANGE_HINT = "write a range of whole numbers as a..b with a <= b (1..11), or list the values"


def expand_decks(game: Game, faces: dict[str, Face] | None, report: Report) -> None:
    """Every deck's generated cards put before its listed ones, in `deck.cards`; faults reported."""
    for deck_id, deck in game.decks.items():
        if (
            deck.generate is None
            and deck.spreadsheet is None
            and "cards" not in deck.model_fields_set
        ):
            report.add(
                "missing-field",
                deck.where(),
                f"deck '{deck_id}' has neither 'cards' nor 'generate' nor 'spreadsheet'",
                hint="list the deck's cards under 'cards', make them with 'generate', or read "
                "them from a spreadsheet",
            )
        if deck.generate is not None:
            cards = _generated(deck_id, deck, deck.generate, faces, report)
            if cards is not None:
                deck.cards = cards + deck.cards


def _at(where: Location, node: Any, key: Any, *, key_itself: bool = False) -> Location:
    """The place of `key` (a map's key, or a list's index) in `node`, in `where`'s file; `where`
    when the node does not say."""
    position = None
    if isinstance(node, CommentedMap) and key in node:
        position = node.lc.key(key) if key_itself else node.lc.value(key)
    elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
        position = node.lc.item(key)
    if position is None:
        return where
    return Location(where.path, position[0] + 1, position[1] + 1)


def _axes_node(generate: Generate) -> Any:
    node = node_of(generate)
    return node.get("axes") if isinstance(node, CommentedMap) else None


def _axis_place(generate: Generate, name: str, *, key_itself: bool = False) -> Location:
    return _at(generate.where("axes"), _axes_node(generate), name, key_itself=key_itself)


def _item_place(generate: Generate, name: str, index: int) -> Location:
    axes = _axes_node(generate)
    values = axes.get(name) if isinstance(axes, CommentedMap) else None
    return _at(_axis_place(generate, name), values, index)


def _generated(
    deck_id: str, deck: Deck, generate: Generate, faces: dict[str, Face] | None, report: Report
) -> list[CardEntry] | None:
    """The cards `generate` makes, or None when it cannot make them (reported)."""
    before = len(report.errors)
    axes = _axes(deck_id, generate, report)
    if axes is None:
        return None
    for field in ("id", "kind", "front", "back"):
        pattern = getattr(generate, field)
        if isinstance(pattern, str):
            _check_pattern(deck_id, generate, field, pattern, axes, report)
        elif isinstance(pattern, FacePick):
            _check_pick(deck_id, generate, field, pattern, axes, report)
    if len(report.errors) > before:
        return None
    cards = _cards(deck_id, generate, axes, report)
    if cards is None:
        return None
    _check_faces(deck_id, generate, cards, faces, report)
    _check_listed(deck_id, deck, generate, cards, report)
    return cards if len(report.errors) == before else None


def _axes(deck_id: str, generate: Generate, report: Report) -> dict[str, list] | None:
    """Each axis's values, in order; None when one cannot be read (reported)."""
    where = f"deck '{deck_id}', generate"
    if not generate.axes:
        report.add(
            "generated-deck",
            generate.where("axes"),
            f"{where}: 'axes' names no axis, so it makes no card",
            hint="name at least one axis, e.g. axes: {suit: [herring, salt], value: 1..11}",
        )
        return None
    axes: dict[str, list] = {}
    for name, spec in generate.axes.items():
        values = _axis_values(where, generate, name, spec, report)
        if values is not None:
            axes[name] = values
    if len(axes) < len(generate.axes):
        return None
    total = math.prod(len(values) for values in axes.values())
    if total > MAX_GENERATED:
        sizes = " × ".join(str(len(values)) for values in axes.values())
        report.add(
            "generated-deck",
            generate.where("axes"),
            f"{where}: the axes make {total} cards ({sizes}); a deck's generate makes at most "
            f"{MAX_GENERATED}",
            hint="check the ranges for a typo (1..100 for 1..10), or split the deck",
        )
        return None
    return axes


def _axis_values(
    where: str, generate: Generate, name: str, spec: list | str, report: Report
) -> list | None:
    """One axis's values: its list, or its range made a list; None when wrong (reported)."""
    if not _AXIS_NAME.match(name):
        report.add(
            "generated-deck",
            _axis_place(generate, name, key_itself=True),
            f"{where}: '{name}' cannot name an axis: templates read it as card.vars.{name}",
            hint="name an axis with letters, digits and '_', starting with a letter (suit, value)",
        )
        return None
    if name in generate.vars:
        report.add(
            "generated-deck",
            _axis_place(generate, name, key_itself=True),
            f"{where}: '{name}' is both an axis and one of the cards' vars",
            hint="rename the axis or the var: a card holds one value of each name",
        )
        return None
    if isinstance(spec, str):
        return _range(where, generate, name, spec, report)
    if not spec:
        report.add(
            "generated-deck",
            _axis_place(generate, name),
            f"{where}: the axis '{name}' has no values, so the deck would have no cards",
            hint="list the axis's values, e.g. [herring, salt], or write a range such as 1..11",
        )
        return None
    seen: dict[str, int] = {}
    for index, value in enumerate(spec):
        if str(value) in seen:
            report.add(
                "generated-deck",
                _item_place(generate, name, index),
                f"{where}: the axis '{name}' lists {value!r} twice (first as value "
                f"{seen[str(value)] + 1}): every card it makes would be made twice",
                hint="list each value once; for copies of a card, give generate a count",
            )
            return None
        seen[str(value)] = index
    return list(spec)


def _range(where: str, generate: Generate, name: str, spec: str, report: Report) -> list | None:
    found = _RANGE.match(spec)
    if found is None:
        report.add(
            "generated-deck",
            _axis_place(generate, name),
            f"{where}: the axis '{name}' is {spec!r}, neither a list of values nor a range of "
            "whole numbers a..b",
            hint=_RANGE_HINT,
        )
        return None
    low, high = int(found.group(1)), int(found.group(2))
    if low > high:
        report.add(
            "generated-deck",
            _axis_place(generate, name),
            f"{where}: the range {spec!r} of axis '{name}' runs down, from {low} to {high}, "
            "so it holds no value",
            hint=f"write the smaller number first: {high}..{low}",
        )
        return None
    if high - low + 1 > MAX_GENERATED:
        report.add(
            "generated-deck",
            _axis_place(generate, name),
            f"{where}: the range {spec!r} of axis '{name}' holds {high - low + 1} values; a "
            f"deck's generate makes at most {MAX_GENERATED} cards",
            hint="check the range for a typo (1..100 for 1..10)",
        )
        return None
    return list(range(low, high + 1))


def _check_pattern(
    deck_id: str, generate: Generate, field: str, pattern: str, axes: dict, report: Report
) -> None:
    """Every `{name}` in a pattern names an axis, and no brace is left unmatched."""
    where = f"deck '{deck_id}', generate"
    for name in _PLACEHOLDER.findall(pattern):
        if name not in axes:
            report.add(
                "generated-deck",
                generate.where(field),
                f"{where}: the {field} pattern {pattern!r} names '{{{name}}}', which is no axis"
                f"{did_you_mean(name, list(axes))} (axes: {', '.join(axes)})",
                hint="write {axis} with the name of one of the generate's axes",
            )
    if "{" in _PLACEHOLDER.sub("", pattern) or "}" in _PLACEHOLDER.sub("", pattern):
        report.add(
            "generated-deck",
            generate.where(field),
            f"{where}: the {field} pattern {pattern!r} has a brace that encloses no axis name",
            hint="write each axis as {name}, with one opening and one closing brace",
        )


def _check_pick(
    deck_id: str, generate: Generate, field: str, pick: FacePick, axes: dict, report: Report
) -> None:
    """A face per value: its axis exists, each of its values has a face, and each key is a value."""
    where = f"deck '{deck_id}', generate, {field}"
    if pick.by not in axes:
        report.add(
            "generated-deck",
            pick.where("by"),
            f"{where}: 'by: {pick.by}' names no axis{did_you_mean(pick.by, list(axes))} "
            f"(axes: {', '.join(axes)})",
            hint="choose the face by one of the generate's axes",
        )
        return
    values = [str(value) for value in axes[pick.by]]
    keys = [str(key) for key in pick.faces]
    missing = [value for value in values if value not in keys]
    if missing:
        report.add(
            "generated-deck",
            pick.where("faces"),
            f"{where}: no face for {pick.by} {', '.join(missing)}",
            hint=f"give a face for every value of '{pick.by}': {', '.join(values)}",
        )
    faces_node = node_of(pick)
    faces_node = faces_node.get("faces") if isinstance(faces_node, CommentedMap) else None
    for key in pick.faces:
        if str(key) not in values:
            report.add(
                "generated-deck",
                _at(pick.where("faces"), faces_node, key, key_itself=True),
                f"{where}: '{key}' is not a value of {pick.by}"
                f"{did_you_mean(str(key), values)} ({pick.by}: {', '.join(values)})",
                hint=f"key the faces by the values of '{pick.by}'",
            )


def _fill(pattern: str, values: dict[str, Any]) -> str:
    return _PLACEHOLDER.sub(lambda found: str(values[found.group(1)]), pattern)


def _face(choice: str | FacePick | None, values: dict[str, Any]) -> str | None:
    if choice is None:
        return None
    if isinstance(choice, str):
        return _fill(choice, values)
    faces = {str(key): face for key, face in choice.faces.items()}
    return faces[str(values[choice.by])]


def _cards(
    deck_id: str, generate: Generate, axes: dict[str, list], report: Report
) -> list[CardEntry] | None:
    """The cards, one per combination of the axes' values; None when one cannot be made (an id or a
    kind that is not an id, an id made twice: reported)."""
    where = f"deck '{deck_id}', generate"
    names = list(axes)
    cards: list[CardEntry] = []
    made: dict[str, dict] = {}
    for combination in itertools.product(*axes.values()):
        values = dict(zip(names, combination))
        card_id = (
            _fill(generate.id, values)
            if generate.id is not None
            else "-".join(str(value) for value in combination)
        )
        if card_id in made:
            report.add(
                "generated-deck",
                generate.where("id") if generate.id is not None else generate.where("axes"),
                f"{where}: the id '{card_id}' is made twice, for {_said(made[card_id])} and for "
                f"{_said(values)}",
                hint='name every axis in the id pattern, e.g. "{suit}-{value}"'
                if generate.id is not None
                else "the values joined by '-' must differ: rename a value",
            )
            return None
        made[card_id] = values
        try:
            card = CardEntry.model_validate(
                {
                    "id": card_id,
                    "kind": _fill(generate.kind, values),
                    "count": generate.count,
                    "front": _face(generate.front, values),
                    "back": _face(generate.back, values),
                    "vars": {**generate.vars, **values},
                }
            )
        except ValidationError as error:
            field = str(error.errors()[0]["loc"][0])
            message = error.errors()[0]["msg"].removeprefix("Value error, ")
            report.add(
                "generated-deck",
                _made_from(generate, field, axes, values),
                f"{where}: the card of {_said(values)} cannot be made: its {field} {message}",
                hint="keep to lower-case letters, digits, '-' and '_' in the values and patterns "
                "an id or kind is made of",
            )
            return None
        place_as(card, generate)
        cards.append(card)
    return cards


def _made_from(generate: Generate, field: str, axes: dict[str, list], values: dict) -> Location:
    """Where an id or kind that is not an id comes from: its pattern, or (an id made of the values
    joined) the first value that cannot be part of an id."""
    if field == "id" and generate.id is None:
        for name, value in values.items():
            if not _ID_PART.match(str(value)):
                return _item_place(generate, name, axes[name].index(value))
    return generate.where(field if field in ("id", "kind") else "axes")


def _said(values: dict[str, Any]) -> str:
    return ", ".join(f"{name} {value}" for name, value in values.items())


def _check_faces(
    deck_id: str,
    generate: Generate,
    cards: list[CardEntry],
    faces: dict[str, Face] | None,
    report: Report,
) -> None:
    """Each face the cards name is in faces.yaml (said once per face, at the pattern or the map's
    entry that names it)."""
    if faces is None:  # faces.yaml did not load: said there
        return
    said: set[tuple[str, str]] = set()
    for card in cards:
        for field in ("front", "back"):
            name = getattr(card, field)
            if name is None or name in faces or (field, name) in said:
                continue
            said.add((field, name))
            report.add(
                "unknown-reference",
                _face_place(generate, field, name, card),
                f"deck '{deck_id}', generate: no face '{name}' in faces.yaml for the {field} of "
                f"'{card.id}'{did_you_mean(name, list(faces))} (faces: {', '.join(faces)})",
                hint="add the face to faces.yaml, or correct the pattern or the face per value",
            )


def _face_place(generate: Generate, field: str, name: str, card: CardEntry) -> Location:
    choice = getattr(generate, field)
    if isinstance(choice, FacePick):
        node = node_of(choice)
        faces = node.get("faces") if isinstance(node, CommentedMap) else None
        value = card.vars[choice.by]
        key = next((key for key in choice.faces if str(key) == str(value)), value)
        return _at(choice.where("faces"), faces, key)
    return generate.where(field)


def _check_listed(
    deck_id: str, deck: Deck, generate: Generate, cards: list[CardEntry], report: Report
) -> None:
    """No listed card takes an id the generate makes."""
    made = {card.id: card for card in cards}
    for card in deck.cards:
        if card.id in made:
            report.add(
                "duplicate-id",
                card.where("id"),
                f"card id '{card.id}' is used twice in deck '{deck_id}': the deck's generate makes "
                f"it too, for {_said({name: made[card.id].vars[name] for name in generate.axes})} "
                f"(at {generate.where('id') if generate.id is not None else generate.where()})",
                hint="give the listed card another id, or change the generate's id pattern",
            )
