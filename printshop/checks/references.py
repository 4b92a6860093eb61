"""References between data files: a colour, font or face named exists, and what a reconstructed
mark names is something of the game's.

Each reference's place in its file is worked out only when something is said at it: most are right.
"""

from __future__ import annotations

from dataclasses import replace

from printshop.diagnostics import Diagnostic, Report, did_you_mean
from printshop.project.loader import GameData, Project
from printshop.project.schema import Node


def colour_ref(project: Project, name: str | None, node: Node, field: str, report: Report) -> None:
    """A colour `node` names in `field` is one of the palette's (reported at the field: its place is
    read only then, as most are right)."""
    if name is not None and name not in project.colours.palette:
        palette = project.colours.palette
        report.add(
            "unknown-reference",
            node.where(field),
            f"no colour '{name}' in the palette"
            f"{did_you_mean(name, palette)} (colours: {', '.join(palette)})",
        )


def font_ref(project: Project, face: str, node: Node, field: str, report: Report) -> None:
    """A font face `node` names in `field` is one of the project's families' four (as `colour_ref`)."""
    families = project.fonts.families
    if face in families or any(
        face.endswith(style) and face[: -len(style)] in families for style in _STYLES
    ):
        return
    faces = [family + suffix for family in families for suffix in ("", *_STYLES)]
    report.add(
        "unknown-reference",
        node.where(field),
        f"no font '{face}'{did_you_mean(face, faces)} (fonts: {', '.join(faces)})",
    )


_STYLES = (
    "-bold",
    "-italic",
    "-bold-italic",
)  # a family's faces: its name, and its name with one of these


def face_ref(game: GameData, owner, field: str, report: Report) -> None:
    """`owner.<field>` names a face of faces.yaml that is not abstract (its place in the file is
    worked out only for a report: a deck of a thousand cards names its faces two thousand times)."""
    name = getattr(owner, field)
    face = game.faces.get(name)
    if (
        face is None or face.abstract
    ):  # named: the faces that can be printed (an abstract one only serves others)
        printable = [other for other, known in game.faces.items() if not known.abstract]
        said = (
            f"no face '{name}' in faces.yaml{did_you_mean(name, printable)}"
            if face is None
            else f"face '{name}' is abstract: it only serves for others to extend"
        )
        report.add(
            "unknown-reference",
            owner.where(field),
            f"{said} (faces: {', '.join(printable) or 'none'})",
        )


def said_once(found: Report) -> list[Diagnostic]:
    """`face_ref`'s diagnostics, one per missing face: a face renamed or misspelt in faces.yaml is
    named by every card that prints it, and is one fault, said at the first place that names it
    with the count of the others (their places beside it, `also`), not once per card."""
    groups: dict[tuple[str, str], list[Diagnostic]] = {}
    for item in found.items:
        groups.setdefault((item.code, item.message), []).append(item)
    kept = []
    for first, *others in groups.values():
        if others:
            places = ", ".join(str(other.location) for other in others[:_PLACES_SHOWN])
            first = replace(
                first,
                message=f"{first.message}; named {len(others)} more "
                f"time{'s' if len(others) != 1 else ''}",
                also=f"also named at {places}{', …' if len(others) > _PLACES_SHOWN else ''}",
            )
        kept.append(first)
    return kept


_PLACES_SHOWN = 5  # of the other places a missing face is named at


def check_reconstructed(game: GameData, report: Report) -> None:
    known_texts = game.source.entries if game.source else {}
    cards = {card.id for deck in game.game.decks.values() for card in deck.cards}
    for sheet_id, sheet in game.game.sheets.items():
        for entry in sheet.items:
            if entry.reconstructed:
                report.add(
                    "reconstructed",
                    entry.where("reconstructed"),
                    f"sheet '{sheet_id}/{entry.id}': {entry.reconstructed}",
                )
    for item in game.game.reconstructed:
        fields = set(type(game.game).model_fields)
        if (
            item.what not in known_texts
            and item.what not in cards
            and item.what not in game.faces
            and item.what.split(".")[0] not in fields
            and not any(text_id.startswith(item.what + ".") for text_id in known_texts)
        ):
            report.add(
                "unknown-reference",
                item.where("what"),
                f"'{item.what}' is neither a text id, a card id, a face nor a field of game.yaml in {game.id}",
            )
        report.add("reconstructed", item.where(), f"{item.what}: {item.why}")
