"""A face drawn for a low-ink kit (`--low-ink`): paper-white grounds, and everything that told one
face from another kept in a few lines and small accents (docs/design.md, "Derived files").

A face is read in its drawing order, and every shape and frame is given its ground: the last filled
shape drawn before it whose box holds its centre, else the face's background. Then:

- the background is not printed; a coloured one (not light) survives as a band of thin diagonal
  hatching in its colour round the face's edge, but on a face that a sunburst covers;
- a sunburst that covers the whole face (`covers`: a card's back, the board) is not printed at
  all: such a face is drawn as outlines, its frame and emblem, a light touch (no line broader than
  twice `outline`), and a larger filled shape on it keeps no tint, only its outline (a light shape on
  a light ground, a watermark, goes);
- a smaller sunburst (behind a front's emblem) is its wedges' outlines in hairlines of its colour,
  no fill, kept to the trim, from where they stand a hatching's pitch apart (no blot at the
  centre);
- a knock-out (a near-white shape on a coloured ground, as an emblem in white on a faction's
  colour) is paper white outlined in its ground's colour, at full strength: dark on white, where
  it would otherwise vanish with its ground;
- a small filled shape (no wider or higher than the rules' `accent`: pips, stars, icons) keeps its
  full colour; a larger one (a band) keeps a tint of it, outlined in the full colour; but a small
  coloured shape that holds light type (a numbered square) is paper white outlined in its colour
  (never thinner than twice `outline`), the type set in that colour: the number stays;
- outlines and lines keep their full colour;
- light type on a coloured ground takes the ground's colour (Paints.text makes any other light type
  black).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from printshop.layout.plan import FaceLayout, FrameLayout
from printshop.project.models.art import Motif
from printshop.project.models.faces import Face, Shape
from printshop.render.colour import Paints

KNOCKOUT = 0.8  # a colour lighter than this (paper, white) vanishes on paper white
LIGHT = 0.6  # a ground darker than this is a colour its light type and knock-outs were set on
_GROUND_KINDS = {"rect", "circle", "motif", "rays"}


def _box(shape: Shape) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of `shape`, data coordinates (y down)."""
    if shape.kind in ("circle", "rays"):
        r = shape.radius
        return shape.x - r, shape.y - r, shape.x + r, shape.y + r
    return shape.x, shape.y, shape.x + shape.width, shape.y + shape.height


def _holds(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def drawing_order(face: Face) -> list[Shape]:
    """The face's shapes in the order draw_face paints them."""
    return sorted(face.shapes.values(), key=lambda shape: shape.layer)


def ground(face: Face, below: list[Shape], x: float, y: float) -> str | None:
    """The colour under the point (x, y) once `below` (shapes painted earlier) are painted: the last
    filled one whose box holds it, else the background (None: none)."""
    return ground_of(below, face.background, x, y)


def ground_of(below: list[Shape], background: str | None, x: float, y: float) -> str | None:
    """`ground` on any drawing: a face's, or a booklet page style's."""
    for shape in reversed(below):
        if shape.kind in _GROUND_KINDS and shape.fill is not None and _holds(_box(shape), x, y):
            return shape.fill
    return background


def covers(shape: Shape, width: float, height: float) -> bool:
    """Whether `shape` is a sunburst reaching every corner of a face `width` × `height`: the whole
    face's art (a back's, the board's), not a burst behind one emblem."""
    corners = ((0, 0), (width, 0), (0, height), (width, height))
    return shape.kind == "rays" and all(
        math.hypot(x - shape.x, y - shape.y) <= shape.radius for x, y in corners
    )


def _coloured(paints: Paints, name: str | None) -> bool:
    return name is not None and paints.luminance(name) < LIGHT


def draw_low_ink_face(
    canvas: Canvas,
    face: FaceLayout,
    paints: Paints,
    motifs: dict[str, Motif],
    assets: Path | None,
    *,
    stand_ins: bool,
) -> list[FrameLayout]:
    """Draw `face`'s background and shapes by the rules above; return its frames, light type on a
    coloured ground given that ground's colour, for draw_face to set."""
    from printshop.render.faces import draw_geometry  # (faces.py calls this module)

    rules, model = paints.mode.low_ink_rules, face.face
    shapes = drawing_order(model)
    background = model.background if _coloured(paints, model.background) else None
    covered = any(covers(shape, face.width, face.height) and shape.fill for shape in shapes)
    if background is not None and not covered:
        _hatch(
            canvas,
            face,
            paints.full(background),
            rules.hatch_width,
            rules.hatch_pitch,
            rules.hatch_band,
        )
    holders = _type_holders(face, shapes, paints, rules.accent)
    for index, shape in enumerate(shapes):
        if covered and shape.kind == "rays" and covers(shape, face.width, face.height):
            continue  # the face is drawn as outlines: its sunburst goes
        fill, stroke, width = None, None, shape.stroke_width
        if shape.stroke is not None and shape.stroke_width > 0:
            stroke = paints.full(shape.stroke)
        left, top, right, bottom = _box(shape)
        under = ground(model, shapes[:index], (left + right) / 2, (top + bottom) / 2)
        if index in holders and shape.fill is not None:  # its light number would vanish on it
            fill, stroke = paints.white(), paints.full(shape.fill)
            width = max(width, 2 * rules.outline)
        elif shape.kind == "rays" and shape.fill is not None:
            stroke, width = paints.full(shape.fill), rules.hatch_width
        elif shape.fill is not None and paints.luminance(shape.fill) >= KNOCKOUT:
            fill = paints.white()
            if under is not None and _coloured(paints, under):
                if stroke is None:
                    stroke, width = paints.full(under), rules.outline
            elif covered:  # a light shape on a light ground: a watermark, gone with the tints
                fill = None if stroke is None else paints.white()
            elif paints.luminance(shape.fill) < 1.0:  # paper on paper: its tint, as before
                fill = paints.fill(shape.fill)
        elif shape.fill is not None and max(right - left, bottom - top) <= rules.accent:
            fill = paints.full(shape.fill)
        elif shape.fill is not None:
            fill = paints.white() if covered else paints.fill(shape.fill)
            if stroke is None:
                stroke, width = paints.full(shape.fill), rules.outline
        if covered and stroke is not None:  # a broad frame is a light line too: twice an outline
            width = min(width, 2 * rules.outline)
        if shape.kind == "rays":  # its lines would run on past the face, over its neighbours
            canvas.saveState()
            _clip_to_trim(canvas, face)
        draw_geometry(
            canvas,
            shape,
            face.height,
            fill,
            stroke,
            width,
            motifs,
            assets,
            stand_ins=stand_ins,
            rays_apart=rules.hatch_pitch,
            mode=paints.mode,
        )
        if shape.kind == "rays":
            canvas.restoreState()
    frames = []
    for laid in face.frames:
        frame = laid.frame
        under = ground(model, shapes, frame.x + frame.width / 2, frame.y + frame.height / 2)
        if (
            under is not None
            and _coloured(paints, under)
            and paints.luminance(frame.colour) >= LIGHT
        ):
            laid = replace(laid, frame=frame.model_copy(update={"colour": under}))
        frames.append(laid)
    return frames


def _type_holders(face: FaceLayout, shapes: list[Shape], paints: Paints, accent: float) -> set[int]:
    """The indices (in drawing order) of the small coloured shapes light type is set on: the ground
    under a light frame's centre, no wider or higher than `accent`."""
    holders = set()
    for laid in face.frames:
        frame = laid.frame
        if paints.luminance(frame.colour) < LIGHT:
            continue
        x, y = frame.x + frame.width / 2, frame.y + frame.height / 2
        for index in reversed(range(len(shapes))):
            shape = shapes[index]
            if shape.kind in _GROUND_KINDS and shape.fill is not None and _holds(_box(shape), x, y):
                left, top, right, bottom = _box(shape)
                if _coloured(paints, shape.fill) and max(right - left, bottom - top) <= accent:
                    holders.add(index)
                break
    return holders


def _clip_to_trim(canvas: Canvas, face: FaceLayout) -> None:
    """(Not the bleed: cards on a sheet abut, each one's bleed under its neighbour's face.)"""
    box = canvas.beginPath()
    box.rect(0, 0, face.width, face.height)
    canvas.clipPath(box, stroke=0, fill=0)


def _hatch(
    canvas: Canvas, face: FaceLayout, colour, width: float, pitch: float, band: float
) -> None:
    """Lines at 45° every `pitch`, in `colour`, across the face's edge: from its bleed to `band`
    inside its trim (the whole face if it is no larger than twice `band`). The middle stays white,
    for what is written there, and a cut that drifts still leaves the colour all round."""
    bleed = face.bleed
    x0, y0 = -bleed, -bleed
    w, h = face.width + 2 * bleed, face.height + 2 * bleed
    canvas.saveState()
    box = canvas.beginPath()  # the band between the bleed's edge and `band` inside the trim
    box.rect(x0, y0, w, h)
    inner_w, inner_h = face.width - 2 * band, face.height - 2 * band
    if inner_w > 0 and inner_h > 0:
        box.rect(band, band, inner_w, inner_h)
    canvas.clipPath(box, stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(width)
    path = canvas.beginPath()
    steps = int((w + h) / pitch) + 1
    for step in range(steps + 1):
        start = step * pitch  # where the line meets the bottom edge, or the left one past it
        path.moveTo(x0 + start, y0)
        path.lineTo(x0 + start - h, y0 + h)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()
