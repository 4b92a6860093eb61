"""Insets: no text closer than the design's `inset` (1.5 mm) to the edge of the band or box it sits in.

Read from the layout plan, as the cards and sheets print: each frame's text where its fit set it
(`fitting.extent`: its lines across, from the first line's cap height to the last baseline, or its
descenders), placed in the frame by its `valign` and turned with it; the boxes are the face's filled
or outlined rects and circles, at any layer (a band under the title, a ring round a word, a card's
border), measured from the inside of their outline. A text sits in every box that holds its middle
(a band inside a card's border sits in both); its room is the least distance from its text to the
edge of any of them (less than none where it crosses one). One warning per frame and box, at the frame, naming the cards and how close.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from printshop.diagnostics import Report
from printshop.layout.plan import FaceLayout, FrameLayout, GameLayout
from printshop.project.models.faces import Shape
from printshop.project.units import to_mm
from printshop.typeset.fitting import extent

# the sides of a rect, as the message names them
_SIDES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Inset:
    """How much room a frame's text leaves inside the box it sits in, on its tightest side."""

    frame: str
    box: str
    side: str
    room: float  # points; below 0: the text crosses the box's edge


def text_box(laid: FrameLayout) -> tuple[float, float, float, float] | None:
    """Where a frame's text prints on its face, as (left, top, right, bottom) in points from the
    trim's top-left corner; None: nothing printed (an empty frame, a text that does not fit)."""
    frame, fit = laid.frame, laid.fit
    if not fit.fits:
        return None
    box = extent(fit, frame.width)
    if box is None:
        return None
    offset = {"top": 0.0, "middle": (frame.height - fit.height) / 2}.get(
        frame.valign, frame.height - fit.height
    )
    left, top, right, bottom = box
    top, bottom = top + offset, bottom + offset
    if frame.rotate == 180:  # turned about the frame's middle
        left, right = frame.width - right, frame.width - left
        top, bottom = frame.height - bottom, frame.height - top
    return frame.x + left, frame.y + top, frame.x + right, frame.y + bottom


def _boxes(face: FaceLayout) -> list[tuple[str, Shape]]:
    return [
        (name, shape)
        for name, shape in face.face.shapes.items()
        if shape.kind in ("rect", "circle")
        and (shape.fill is not None or (shape.stroke is not None and shape.stroke_width > 0))
    ]


def _inner(shape: Shape) -> float:
    """How far inside a shape's edge its inside begins: half its outline."""
    return shape.stroke_width / 2 if shape.stroke is not None else 0.0


def _holds(shape: Shape, x: float, y: float) -> bool:
    if shape.kind == "circle":
        return math.hypot(x - shape.x, y - shape.y) < shape.radius
    return shape.x < x < shape.x + shape.width and shape.y < y < shape.y + shape.height


def _room(shape: Shape, text: tuple[float, float, float, float]) -> tuple[str, float]:
    """The tightest side and the room the text leaves inside the shape there."""
    left, top, right, bottom = text
    inner = _inner(shape)
    if shape.kind == "circle":
        farthest = max(
            math.hypot(x - shape.x, y - shape.y) for x in (left, right) for y in (top, bottom)
        )
        return "edge", shape.radius - inner - farthest
    rooms = (
        left - shape.x - inner,
        top - shape.y - inner,
        shape.x + shape.width - inner - right,
        shape.y + shape.height - inner - bottom,
    )
    least = min(range(4), key=lambda index: rooms[index])
    return _SIDES[least], rooms[least]


def face_insets(face: FaceLayout, inset: float) -> list[Inset]:
    """The frames of a face whose text comes closer than `inset` to the edge of its box."""
    boxes = _boxes(face)
    found = []
    for laid in face.frames:
        text = text_box(laid)
        if text is None:
            continue
        middle = ((text[0] + text[2]) / 2, (text[1] + text[3]) / 2)
        rooms = [(*_room(shape, text), name) for name, shape in boxes if _holds(shape, *middle)]
        if not rooms:
            continue
        side, room, name = min(rooms, key=lambda found: found[1])
        if room < inset - 0.01:
            found.append(Inset(laid.name, name, side, room))
    return found


def report_insets(
    layout: GameLayout,
    inset: float,
    report: Report,
    named: Callable[[str], str] = str,
    media: dict | None = None,
) -> None:
    """One warning per frame and box whose text comes closer than `inset` to the box's edge, at the
    frame, naming the faces it happens on (`named`: a face's key as people say it) and the least
    room found. `media`: design.media, whose `inset` a deck's or sheet's medium may set."""

    def inset_of(medium: str) -> float:
        own = getattr((media or {}).get(medium), "inset", None)
        return inset if own is None else own

    found: dict[tuple, tuple[FrameLayout, list[str], float]] = {}
    faces = [
        (face, inset_of(deck.size.medium)) for deck in layout.decks for face in deck.faces.values()
    ]
    faces += [
        (face, inset_of(sheet.spec.medium))
        for sheet in layout.sheets
        for face in sheet.faces + sheet.backs
    ]
    found_in: dict[tuple, float] = {}
    for face, least_room in faces:
        for item in face_insets(face, least_room):
            laid = next(laid for laid in face.frames if laid.name == item.frame)
            key = (laid.frame.where(), item.box, item.side)
            _, pieces, least = found.get(key, (laid, [], math.inf))
            found[key] = (laid, [*pieces, named(face.key)], min(least, item.room))
            found_in[key] = least_room
    for (where, box, side), (laid, pieces, least) in found.items():
        kept = found_in[(where, box, side)]
        shown = list(dict.fromkeys(pieces))
        closeness = (
            f"crosses its {side} by {to_mm(-least):.1f} mm"
            if least < 0
            else f"comes {to_mm(least):.1f} mm from its {side}"
            if side != "edge"
            else f"comes {to_mm(least):.1f} mm from its edge"
        )
        report.add(
            "text-inset",
            where,
            f"the text of frame '{laid.name}' sits in shape '{box}' and {closeness} "
            f"(language {layout.lang}; {', '.join(shown[:3])}{' …' if len(shown) > 3 else ''}); "
            f"the design keeps {to_mm(kept):g} mm",
            hint="move the frame in or narrow it, or give the band or box more room",
        )
