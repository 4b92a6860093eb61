"""Faces and sheets as drawn: colours, fonts, motifs and images named, frames' sizes and indents,
type no smaller than its medium allows, and the backs of two-sided sheets.
"""

from __future__ import annotations

from printshop.checks.images import check_image
from printshop.checks.references import colour_ref, face_ref, font_ref
from printshop.checks.zones import (
    deck_faces,
)
from printshop.diagnostics import Report, did_you_mean
from printshop.project.loader import GameData, Project
from printshop.project.models.faces import Face
from printshop.project.units import to_mm

# TextStyle's keys for a booklet paragraph's box, which a frame (a TextStyle placed on a face) shares
_BOX_KEYS = frozenset({"background", "border", "border_width", "padding"})


def check_type_sizes(project: Project, game: GameData, report: Report) -> None:
    """No frame prints smaller than its medium allows (media.yaml's `design.media`): a deck's faces
    are read as its card size's medium, a sheet's as the sheet's. A frame is judged by the smallest
    size it may take (`min_size`, or `size` when it never shrinks); each frame once per face and
    medium."""
    media = project.media.design.media
    seen: set[tuple[str, str]] = set()

    def check(face_name: str, medium: str, where_medium) -> None:
        face = game.faces.get(face_name)
        if face is None or not media:
            return
        rule = media.get(medium)
        if rule is None:
            report.add(
                "unknown-reference",
                where_medium,
                f"no medium '{medium}' in media.yaml's design.media (media: {', '.join(media)})",
            )
            return
        for frame_name, frame in face.frames.items():
            smallest = frame.min_size if frame.min_size is not None else frame.size
            where = frame.where("min_size" if frame.min_size is not None else "size")
            if (
                smallest + 0.001 < rule.min_type and (str(where), medium) not in seen
            ):  # an inherited frame once
                seen.add((str(where), medium))
                report.add(
                    "type-too-small",
                    where,
                    f"frame '{frame_name}' of face '{face_name}' may print at {smallest:g} pt; type on a "
                    f"{medium} must be at least {rule.min_type:g} pt ({rule.reading or 'its reading distance'})",
                )

    for deck in game.game.decks.values():
        size = project.media.card_sizes.get(deck.card_size)
        if size is not None:
            for name in deck_faces(game, deck):
                check(name, size.medium, size.where("medium"))
    for sheet in game.game.sheets.values():
        for name in sorted(
            {sheet.face}
            | {item.face for item in sheet.items if item.face}
            | ({sheet.back} if sheet.back else set())
            | {item.back for item in sheet.items if item.back}
        ):
            check(name, sheet.medium, sheet.where("medium"))


def check_face(project: Project, game: GameData, name: str, face: Face, report: Report) -> None:
    if face.background is not None:
        colour_ref(project, face.background, face, "background", report)
    for shape in face.shapes.values():
        colour_ref(project, shape.fill, shape, "fill", report)
        colour_ref(project, shape.stroke, shape, "stroke", report)
        if shape.kind == "image" and not face.abstract:
            check_image(game, shape, project.media.print_and_play.min_dpi, report)
        if shape.kind == "motif" and not face.abstract and shape.motif not in project.motifs.motifs:
            report.add(
                "unknown-reference",
                shape.where("motif"),
                f"no motif '{shape.motif}'{did_you_mean(str(shape.motif), project.motifs.motifs)} "
                f"(motifs: {', '.join(project.motifs.motifs)})",
            )
    for frame in face.frames.values():
        font_ref(project, frame.font, frame, "font", report)
        colour_ref(project, frame.colour, frame, "colour", report)
        if frame.min_size is not None and frame.min_size > frame.size:
            report.add("wrong-type", frame.where("min_size"), "min_size is larger than size")
        for key in _BOX_KEYS & frame.model_fields_set:  # a booklet style's box: a frame draws none
            report.add(
                "unknown-key",
                frame.where(key),
                f"'{key}' draws a booklet paragraph's box; a face's frame draws no box",
                hint="draw the box as a shape under the frame (kind: rect with fill and stroke), "
                "or remove the key",
            )
        if frame.indent > frame.width / 2:
            report.add(
                "text-overflow",
                frame.where("indent"),
                f"the frame indents its list items {to_mm(frame.indent):.1f} mm, and it is "
                f"{to_mm(frame.width):.1f} mm wide",
                hint="an indent holds a bullet or a number: a few millimetres",
            )
    if not face.abstract and face.template is None and face.frames:
        report.add(
            "missing-field",
            face.where(),
            f"face '{name}' has frames ({', '.join(face.frames)}) but no template to fill them",
            hint="name the template with a block per frame (template: GAME/faces/NAME.j2), or "
            "remove the frames: a face of shapes alone needs no template",
        )


def check_sheet_backs(game: GameData, sheet_id: str, sheet, report: Report) -> None:
    """A two-sided sheet (a `back` on the sheet or on an item): every back names a face, every item
    has one (its own or the sheet's), and the sheet is not tiled (a tile's back would land behind
    another tile)."""
    if sheet.back is not None:
        face_ref(game, sheet, "back", report)
    for item in sheet.items:
        if item.back is not None:
            face_ref(game, item, "back", report)
    backed = [item for item in sheet.items if item.back is not None]
    if sheet.back is None and not backed:
        return
    if sheet.tiled:
        where = sheet.where("back") if sheet.back is not None else backed[0].where("back")
        report.add(
            "wrong-type",
            where,
            f"sheet '{sheet_id}' is tiled and has a back: tiled sheets print one-sided",
            hint="remove `tiled` (a sheet the paper holds), or print the back as a sheet of its own",
        )
    if sheet.back is None:
        for item in sheet.items:
            if item.back is None:
                report.add(
                    "missing-field",
                    item.where(),
                    f"sheet '{sheet_id}', item '{item.id}' has no back, but other items of the sheet have one",
                    hint="give the sheet a `back` for every item, or this item its own",
                )
