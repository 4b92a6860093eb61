"""A card face's or board's shapes (faces.yaml) written as SVG elements, without its text: what the
scripts that draw a rules booklet's figures from the game's own faces share
(tests/make_kremlin_board.py, tests/make_comrade_vote_card.py)."""

from __future__ import annotations

import math

MM = 72 / 25.4


def mm(value: float) -> str:
    """Points as millimetres, to a hundredth."""
    return f"{value / MM:.2f}".rstrip("0").rstrip(".")


def shapes_svg(face, motifs, paint, kinds=("rect", "circle", "rays", "motif")) -> list[str]:
    """The face's shapes of `kinds`, by layer, in the face's coordinates (millimetres from its
    top-left corner); `paint(shape)` gives each its fill and stroke attributes."""
    n, parts = mm, []
    for shape in sorted(face.shapes.values(), key=lambda shape: shape.layer):
        if shape.kind not in kinds:
            continue
        if shape.kind == "rect":
            parts.append(
                f'<rect x="{n(shape.x)}" y="{n(shape.y)}" width="{n(shape.width)}" '
                f'height="{n(shape.height)}" rx="{n(shape.radius)}" {paint(shape)}/>'
            )
        elif shape.kind == "line":
            parts.append(
                f'<line x1="{n(shape.x)}" y1="{n(shape.y)}" x2="{n(shape.x + shape.width)}" '
                f'y2="{n(shape.y + shape.height)}" {paint(shape)}/>'
            )
        elif shape.kind == "circle":
            parts.append(
                f'<circle cx="{n(shape.x)}" cy="{n(shape.y)}" r="{n(shape.radius)}" {paint(shape)}/>'
            )
        elif shape.kind == "rays":
            parts.append(f'<path d="{rays(shape)}" {paint(shape)}/>')
        elif shape.kind == "motif" and shape.motif in motifs:
            motif = motifs[shape.motif]
            vw, vh = motif.viewbox
            scale = f"{shape.width / MM / vw:.5f} {shape.height / MM / vh:.5f}"
            paths = "".join(
                f'<circle cx="{p.circle[0]}" cy="{p.circle[1]}" r="{p.circle[2]}"/>'
                if p.circle
                else f'<path d="{p.d}" fill-rule="{p.rule}"/>'
                for p in motif.paths
            )
            turned = ""
            if shape.rotate:  # about the motif's centre, as the faces turn it
                cx, cy = n(shape.x + shape.width / 2), n(shape.y + shape.height / 2)
                turned = f"rotate({-shape.rotate:g} {cx} {cy}) "
            parts.append(
                f'<g transform="{turned}translate({n(shape.x)} {n(shape.y)}) scale({scale})" '
                f"{paint(shape)}>{paths}</g>"
            )
    return parts


def rays(shape) -> str:
    """The sunburst render/faces.py draws: `count` wedges from the centre, as gaps between them."""
    n = mm
    step = 2 * math.pi / (2 * shape.count)
    start = math.radians(shape.rotate) + math.pi / 2
    d = []
    for i in range(shape.count):
        a0 = start + 2 * i * step
        points = [
            (shape.x, shape.y),
            (shape.x + shape.radius * math.cos(a0), shape.y - shape.radius * math.sin(a0)),
            (
                shape.x + shape.radius * math.cos(a0 + step),
                shape.y - shape.radius * math.sin(a0 + step),
            ),
        ]
        d.append("M" + " L".join(f"{n(x)} {n(y)}" for x, y in points) + " Z")
    return " ".join(d)
