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
