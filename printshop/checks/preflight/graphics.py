"""The graphics state a page's content is read through: the transformation matrix, the colours
set for filling and stroking, overprint and the text render mode.
"""

from __future__ import annotations

from dataclasses import dataclass

from printshop.checks.preflight.spaces import Space


def multiply(m, n):
    """m × n for PDF matrices [a b c d e f] (m applied first)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return [
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    ]


@dataclass
class Colour:
    space: Space
    values: tuple
    how: str  # the operator that set it, for messages
    pattern: str = ""  # the pattern's name when the space is Pattern


@dataclass
class State:
    ctm: list
    fill: Colour
    stroke: Colour
    overprint_fill: bool = False
    overprint_stroke: bool = False
    overprint_mode: int = 0
    render_mode: int = 0


# --- where paint lands: device-space boxes, read only for pages that overprint
# -----------------------
PATH_OPERATORS = {"m", "l", "c", "v", "y", "re", "h", "n", "W", "W*"}
ANYWHERE = None  # a paint whose extent is not followed (text, 'sh'): it may land anywhere


def transform(ctm, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = ctm
    return a * x + c * y + e, b * x + d * y + f


def extent(points) -> tuple[float, float, float, float] | None:
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def path_points(op: str, operands, ctm) -> list[tuple[float, float]]:
    """The device-space points a path operator adds (a Bézier's control points bound its curve)."""
    values = [float(v) for v in operands]
    if op == "re" and len(values) == 4:
        x, y, w, h = values
        return [transform(ctm, x, y), transform(ctm, x + w, y + h),
                transform(ctm, x + w, y), transform(ctm, x, y + h)]  # fmt: skip
    return [transform(ctm, values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]


def meet(one, other) -> bool:
    """Two extents overlap (ANYWHERE meets everything)."""
    if one is ANYWHERE or other is ANYWHERE:
        return True
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]
