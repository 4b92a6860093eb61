"""Drawing one card face (background, shapes, vector motifs, fitted text) onto a canvas.

The face is drawn with its trim's bottom-left corner at the origin; its background covers the
bleed. Data coordinates run from the top-left corner downwards and are flipped here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas
from reportlab.platypus import Flowable, Paragraph

from printshop.layout.plan import FaceLayout, FrameLayout
from printshop.project.models.art import Motif
from printshop.project.models.faces import Shape
from printshop.render.colour import OVERSET_COLOUR, RGB, ColourMode, Paints
from printshop.render.images import draw_image
from printshop.typeset.fitting import make_flowables
from printshop.typeset.icons import icon_colours, painting


def draw_face(
    canvas: Canvas,
    face: FaceLayout,
    paints: Paints,
    motifs: dict[str, Motif],
    assets: Path | None = None,
    *,
    overset: bool = False,
    stand_ins: bool = False,
) -> None:
    """`overset`: a text that does not fit is drawn anyway, cut at its frame, which is outlined in
    magenta with an overset mark (the preview's proof of how far over it runs); without it such a
    face is refused, as a build stops before drawing one. `stand_ins`: an image file that is not
    there or cannot be read, and a motif there is not, are drawn as an empty frame in the same
    magenta, crossed and named (`draw_stand_in`), as a layout program shows a picture not yet
    placed; without it a missing image fails the drawing (a build has refused the data before)."""
    with painting(paints):  # an icon with its own colour, in this output's
        _draw_face(canvas, face, paints, motifs, assets, overset=overset, stand_ins=stand_ins)


def _draw_face(
    canvas: Canvas,
    face: FaceLayout,
    paints: Paints,
    motifs: dict[str, Motif],
    assets: Path | None,
    *,
    overset: bool,
    stand_ins: bool,
) -> None:
    w, h, bleed = face.width, face.height, face.bleed
    frames = face.frames
    if paints.mode.low_ink:  # paper-white grounds, identity kept in lines and accents
        from printshop.render.low_ink import draw_low_ink_face

        frames = draw_low_ink_face(canvas, face, paints, motifs, assets, stand_ins=stand_ins)
    else:
        if face.face.background:
            canvas.setFillColor(paints.background(face.face.background))
            canvas.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        for shape in sorted(face.face.shapes.values(), key=lambda shape: shape.layer):
            draw_shape(canvas, shape, h, paints, motifs, assets, stand_ins=stand_ins)
    for frame in frames:
        draw_frame(canvas, frame, h, paints, overset=overset)


def face_colours(face: FaceLayout) -> set[str]:
    """The palette's names `draw_face` reads for `face` (its background, its shapes' fills and
    outlines, its frames' text): a long-running session keeps a face, and its image, while those
    colours keep their values (session.py). Kept beside `draw_face`, which a test holds it to."""
    names = {face.face.background} if face.face.background else set()
    for shape in face.face.shapes.values():
        if shape.fill is not None:
            names.add(shape.fill)
        if shape.stroke is not None and shape.stroke_width > 0:
            names.add(shape.stroke)
    names.update(laid.frame.colour for laid in face.frames)
    for laid in face.frames:  # an icon drawn in its motif's own colour
        names.update(icon_colours(laid.blocks))
    return names


def face_motifs(face: FaceLayout) -> set[str]:
    """The motifs' names `draw_face` reads for `face` (its shapes of kind motif): as `face_colours`,
    for a session to keep a face while the motifs it draws are unchanged."""
    return {
        shape.motif for shape in face.face.shapes.values() if shape.kind == "motif" and shape.motif
    }


def face_icons(face: FaceLayout) -> set[str]:
    """The names of the icons `face`'s frames set: their motifs are in the face's layout (its
    frames' markup, typeset/icons.py), which a session lays out again when one of them changes."""
    from printshop.typeset.icons import icons_in_blocks

    return {name for laid in face.frames for name in icons_in_blocks(laid.blocks)}


def draw_shape(
    canvas: Canvas,
    shape: Shape,
    card_height: float,
    paints: Paints,
    motifs: dict[str, Motif],
    assets: Path | None = None,
    *,
    stand_ins: bool = False,
) -> None:
    stroke = shape.stroke is not None and shape.stroke_width > 0
    draw_geometry(
        canvas,
        shape,
        card_height,
        paints.fill(shape.fill) if shape.fill is not None else None,
        paints.line(shape.stroke) if stroke and shape.stroke is not None else None,
        shape.stroke_width,
        motifs,
        assets,
        stand_ins=stand_ins,
        mode=paints.mode,
    )


def draw_geometry(
    canvas: Canvas,
    shape: Shape,
    card_height: float,
    fill_colour: Color | None,
    stroke_colour: Color | None,
    stroke_width: float,
    motifs: dict[str, Motif],
    assets: Path | None = None,
    *,
    stand_ins: bool = False,
    rays_apart: float = 0.0,
    mode: ColourMode = RGB,
) -> None:
    """`shape`'s outline (its kind and box) painted in the colours given, whatever its own say: none
    is not painted. Rays are filled wedges, or with a stroke and no fill their outlines (low ink),
    from where they stand `rays_apart`. An SVG image's own colours are converted for `mode`."""
    canvas.saveState()
    fill = fill_colour is not None
    stroke = stroke_colour is not None and stroke_width > 0
    if fill_colour is not None:
        canvas.setFillColor(fill_colour)
    if stroke and stroke_colour is not None:
        canvas.setStrokeColor(stroke_colour)
        canvas.setLineWidth(stroke_width)
    top = card_height - shape.y
    if shape.kind == "rect":
        if shape.radius:
            canvas.roundRect(
                shape.x,
                top - shape.height,
                shape.width,
                shape.height,
                shape.radius,
                stroke=int(stroke),
                fill=int(fill),
            )
        else:
            canvas.rect(
                shape.x,
                top - shape.height,
                shape.width,
                shape.height,
                stroke=int(stroke),
                fill=int(fill),
            )
    elif shape.kind == "line":
        canvas.line(shape.x, top, shape.x + shape.width, top - shape.height)
    elif shape.kind == "circle":
        canvas.circle(shape.x, top, shape.radius, stroke=int(stroke), fill=int(fill))
    elif shape.kind == "rays":
        _draw_rays(
            canvas,
            shape.x,
            top,
            shape.radius,
            shape.count,
            shape.rotate,
            fill=fill or not stroke,
            apart=rays_apart,
        )
    elif shape.kind == "image" and assets is not None and shape.src:
        # a PNG or JPEG (ReportLab stores one drawn again once per PDF), or an SVG as vectors
        try:
            draw_image(
                canvas,
                assets / shape.src,
                shape.x,
                top - shape.height,
                shape.width,
                shape.height,
                mode if shape.src.lower().endswith(".svg") else RGB,
            )
        except Exception:  # noqa: BLE001 - not there, not an image: ReportLab reads it before it draws anything
            if not stand_ins:
                raise
            draw_stand_in(canvas, shape.x, top - shape.height, shape.width, shape.height, shape.src)
    elif shape.kind == "motif" and shape.motif in motifs:
        draw_motif(
            canvas,
            motifs[shape.motif],
            shape.x,
            top - shape.height,
            shape.width,
            shape.height,
            shape.rotate,
            fill,
            stroke,
        )
    elif shape.kind == "motif" and stand_ins and shape.motif:
        draw_stand_in(
            canvas, shape.x, top - shape.height, shape.width, shape.height, f"motif {shape.motif}"
        )
    canvas.restoreState()


STAND_IN_FONT = (
    "Helvetica"  # one of PDF's standard fonts: always there, and a stand-in is never printed
)


def draw_stand_in(
    canvas: Canvas, x: float, y: float, width: float, height: float, name: str
) -> None:
    """An empty picture frame where art the data names is missing: the box outlined and crossed in
    the overset's magenta, the name of what is missing written in it (a preview's, beside the error
    naming the file)."""
    canvas.saveState()
    canvas.setStrokeColorRGB(*OVERSET_COLOUR)
    canvas.setFillColorRGB(*OVERSET_COLOUR)
    canvas.setLineWidth(0.75)
    canvas.rect(x, y, width, height, stroke=1, fill=0)
    canvas.line(x, y, x + width, y + height)
    canvas.line(x, y + height, x + width, y)
    size = max(4.0, min(7.0, height / 4))
    label = (
        name
        if canvas.stringWidth(name, STAND_IN_FONT, size) <= width - 4
        else name.rsplit("/", 1)[-1]
    )
    while len(label) > 1 and canvas.stringWidth(label, STAND_IN_FONT, size) > width - 4:
        label = label[:-2] + "…"
    tag = canvas.stringWidth(label, STAND_IN_FONT, size)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.rect(
        x + (width - tag) / 2 - 1.5,
        y + height / 2 - size * 0.45,
        tag + 3,
        size * 1.25,
        stroke=0,
        fill=1,
    )
    canvas.setFillColorRGB(*OVERSET_COLOUR)
    canvas.setFont(STAND_IN_FONT, size)
    canvas.drawCentredString(x + width / 2, y + height / 2 - size * 0.15, label)
    canvas.restoreState()


def _draw_rays(
    canvas: Canvas,
    cx: float,
    cy: float,
    radius: float,
    count: int,
    rotate: float,
    *,
    fill: bool = True,
    apart: float = 0.0,
) -> None:
    """A sunburst: `count` filled wedges, alternating with gaps of the same angle; without `fill`,
    the lines between wedges and gaps only, in the stroke colour set, from where they stand `apart`
    from each other (they would merge into a blot at the centre)."""
    path = canvas.beginPath()
    step = 2 * math.pi / (2 * count)
    start = math.radians(rotate) + math.pi / 2
    inner = min(radius, apart / step)
    for i in range(count):
        a0 = start + 2 * i * step
        if fill:
            path.moveTo(cx, cy)
            path.lineTo(cx + radius * math.cos(a0), cy + radius * math.sin(a0))
            path.lineTo(cx + radius * math.cos(a0 + step), cy + radius * math.sin(a0 + step))
            path.close()
            continue
        for angle in (a0, a0 + step):  # the wedge's two edges
            path.moveTo(cx + inner * math.cos(angle), cy + inner * math.sin(angle))
            path.lineTo(cx + radius * math.cos(angle), cy + radius * math.sin(angle))
    canvas.drawPath(path, stroke=int(not fill), fill=int(fill))


_TOKEN = re.compile(r"[MLHVCQZmlhvcqz]|-?\d*\.?\d+(?:[eE][-+]?\d+)?")


def draw_motif(
    canvas: Canvas,
    motif: Motif,
    x: float,
    y: float,
    width: float,
    height: float,
    rotate: float,
    fill: bool,
    stroke: bool,
) -> None:
    vw, vh = motif.viewbox
    canvas.saveState()
    canvas.translate(x + width / 2, y + height / 2)
    if rotate:
        canvas.rotate(-rotate)  # data angles turn clockwise, as on screen
    canvas.scale(width / vw, -height / vh)  # view box y points down
    canvas.translate(-vw / 2, -vh / 2)
    if stroke:
        canvas.setLineWidth(canvas._lineWidth * vw / width)
    for item in motif.paths:
        path = canvas.beginPath()
        if item.circle:
            cx, cy, r = item.circle
            path.circle(cx, cy, r)
        else:
            trace_svg_path(path, item.d)
        canvas.drawPath(
            path,
            stroke=int(stroke),
            fill=int(fill),
            fillMode=FILL_EVEN_ODD if item.rule == "evenodd" else FILL_NON_ZERO,
        )
    canvas.restoreState()


def trace_svg_path(path, d: str) -> None:
    """Absolute SVG path commands M L H V C Q Z into a ReportLab path."""
    tokens = _TOKEN.findall(d)
    i, command, x, y = 0, "M", 0.0, 0.0

    def number() -> float:
        nonlocal i
        value = float(tokens[i])
        i += 1
        return value

    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i].upper()
            i += 1
            if command == "Z":
                path.close()
                continue
        if command == "M":
            x, y = number(), number()
            path.moveTo(x, y)
            command = "L"
        elif command == "L":
            x, y = number(), number()
            path.lineTo(x, y)
        elif command == "H":
            x = number()
            path.lineTo(x, y)
        elif command == "V":
            y = number()
            path.lineTo(x, y)
        elif command == "C":
            x1, y1, x2, y2, x, y = (number() for _ in range(6))
            path.curveTo(x1, y1, x2, y2, x, y)
        elif command == "Q":
            qx, qy, ex, ey = (number() for _ in range(4))
            path.curveTo(
                x + 2 / 3 * (qx - x),
                y + 2 / 3 * (qy - y),
                ex + 2 / 3 * (qx - ex),
                ey + 2 / 3 * (qy - ey),
                ex,
                ey,
            )
            x, y = ex, ey
        else:
            i += 1


def draw_frame(
    canvas: Canvas, laid: FrameLayout, card_height: float, paints: Paints, *, overset: bool = False
) -> None:
    frame, result = laid.frame, laid.fit
    if not result.fits and not overset:
        raise ValueError(f"frame '{laid.name}' does not fit; layout should have stopped the build")
    # the flowables the fit measured, when this output has the colours layout set them in; else the
    # same text again at the fitted size, in this output's colours (CMYK for a print shop, low ink)
    measured: Sequence[tuple[Flowable, float | None, float | None]] | None = (
        result.drawable(frame, paints) if result.fits else None
    )
    if measured is None:
        measured = [
            (flowable, None, None)
            for flowable in make_flowables(
                laid.blocks, frame, result.size, paints, frame.width, result.hyphenation
            )
        ]
    top = card_height - frame.y
    slack = frame.height - result.height
    offset = (
        {"top": 0.0, "middle": slack / 2, "bottom": slack}[frame.valign] if result.fits else 0.0
    )
    canvas.saveState()
    if frame.rotate == 180:
        cx, cy = frame.x + frame.width / 2, top - frame.height / 2
        canvas.translate(cx, cy)
        canvas.rotate(180)
        canvas.translate(-cx, -cy)
    if (
        not result.fits
    ):  # overset: the text from its first line, cut where the frame ends, and the mark
        box = canvas.beginPath()
        box.rect(frame.x, top - frame.height, frame.width, frame.height)
        canvas.clipPath(box, stroke=0, fill=0)
    y = top - offset
    previous_after = 0.0
    for index, (flowable, measured_w, measured_h) in enumerate(measured):
        if measured_w is None or measured_h is None or not isinstance(flowable, Paragraph):
            w, h = flowable.wrap(frame.width, 1e6)  # a table is wrapped again, as it was measured
        else:
            w, h = measured_w, measured_h
        if index:
            y -= max(flowable.getSpaceBefore(), previous_after)
        x = frame.x + (frame.width - w) / 2 if w < frame.width - 0.01 else frame.x
        flowable.drawOn(canvas, x, y - h)
        y -= h
        previous_after = flowable.getSpaceAfter()
    canvas.restoreState()
    if not result.fits:
        _overset_mark(canvas, frame.x, top - frame.height, frame.width, frame.height)


def _overset_mark(canvas: Canvas, x: float, y: float, width: float, height: float) -> None:
    """An outline round the frame and, at its bottom right corner, a square with a plus: the sign
    layout programs give a text that runs past its frame."""
    side = 7.0
    canvas.saveState()
    canvas.setStrokeColorRGB(*OVERSET_COLOUR)
    canvas.setFillColorRGB(*OVERSET_COLOUR)
    canvas.setLineWidth(1.0)
    canvas.rect(x, y, width, height, stroke=1, fill=0)
    canvas.rect(x + width - side / 2, y - side / 2, side, side, stroke=0, fill=1)
    canvas.setStrokeColorRGB(1, 1, 1)
    canvas.setLineWidth(1.2)
    cx, cy = x + width, y
    canvas.line(cx - 2.2, cy, cx + 2.2, cy)
    canvas.line(cx, cy - 2.2, cx, cy + 2.2)
    canvas.restoreState()
