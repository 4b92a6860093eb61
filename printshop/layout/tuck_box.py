"""A deck's tuck box as a flat net: its panels and lines in points, nothing drawn (render/tuck_box.py
draws it).

The box is a classic reverse tuck end: four walls in a row (back, side, front, side) with a glue
flap on the last side; the lid and its tuck flap hang above the back, the bottom and its tuck flap
below the front, and each side has a dust flap above and below. Inside, the box is the deck plus
the play on every side: a wall is a card plus twice the play wide and high, a side as deep as the
deck (its cards times the stock's thickness) plus twice the play; each panel between two folds
also takes the box's own board thickness, which a fold eats. A half-round thumb notch is cut in
the front's top, drawn as short straight segments (32 to a half circle: on a 20 mm notch none
strays 0.02 mm from the arc). The net's origin is its lower-left corner; x runs right, y up. Cut lines are the net's outline, one closed path (with the
slits between the lid and the dust flaps); fold lines are where two panels meet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Segment = tuple[float, float, float, float]  # x1, y1, x2, y2


@dataclass(frozen=True)
class Panel:
    name: (
        str  # back, front, side-left, side-right, glue, lid, lid-tuck, bottom, bottom-tuck, dust-*
    )
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class TuckBoxNet:
    width: float  # the whole net
    height: float
    wall_width: float  # a card, twice the play and the board
    wall_height: float
    depth: float  # the deck's thickness, twice the play and the board
    tuck: float  # each tuck flap's height
    dust: float  # each dust flap's height
    glue: float  # the glue flap's width
    notch: float  # the thumb notch's radius (0: none)
    panels: tuple[Panel, ...]
    cuts: tuple[Segment, ...]
    folds: tuple[Segment, ...]

    def panel(self, name: str) -> Panel:
        return next(panel for panel in self.panels if panel.name == name)

    def outline(self) -> list[tuple[float, float]]:
        """The cut path's points, in order, the first repeated last (the path is closed)."""
        return [self.cuts[0][:2], *(cut[2:] for cut in self.cuts)]

    def wrap(self, bleed: float) -> list[tuple[float, float, float, float]]:
        """Rectangles (x, y, width, height) covering every panel, the glue flap too, and `bleed`
        past it: filled, the net's colour reaches `bleed` past every cut line, the same all round
        (every cut edge lies on or inside a panel's rectangle)."""
        return [
            (p.x - bleed, p.y - bleed, p.width + 2 * bleed, p.height + 2 * bleed)
            for p in self.panels
        ]


def _path(*points: tuple[float, float]) -> list[Segment]:
    return [(*a, *b) for a, b in zip(points, points[1:], strict=False)]


NOTCH_STEPS = 32  # straight segments to a half circle


def _notch(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    """The points of a half circle of `radius` centred on (x, y), below it, from left to right."""
    if radius <= 0:
        return []
    return [
        (
            x - radius * math.cos(math.pi * i / NOTCH_STEPS),
            y - radius * math.sin(math.pi * i / NOTCH_STEPS),
        )
        for i in range(NOTCH_STEPS + 1)
    ]


def tuck_box_net(
    card_width: float,
    card_height: float,
    cards: int,
    stock: float,
    play: float,
    board: float,
    tuck_flap: float,
    glue_flap: float,
    thumb_notch: float = 0.0,
) -> TuckBoxNet:
    """The net of a tuck box holding `cards` cards of `card_width` × `card_height`, each `stock`
    thick, with `play` left on every side of the deck and `board` (the box's stock) added to each
    panel between folds; its tuck flaps `tuck_flap` high, its glue flap `glue_flap` wide and a thumb
    notch `thumb_notch` wide (all in points). A dust flap is as high as the box is deep, but never
    more than half a wall's width (the two would meet under the lid); the notch is never wider than
    half the front."""
    w, h = card_width + 2 * play + board, card_height + 2 * play + board
    d = cards * stock + 2 * play + board
    dust, tuck, g = min(d, w / 2), tuck_flap, glue_flap
    x1, x2, x3, x4 = w, w + d, 2 * w + d, 2 * w + 2 * d
    x5 = x4 + g
    y1 = tuck
    y2 = y1 + d  # the walls' bottom
    y3 = y2 + h  # their top
    y4 = y3 + d  # the lid's edge
    y5 = y4 + tuck
    radius = min(thumb_notch, w / 2) / 2
    chamfer = min(tuck, w / 4) / 3  # a tuck flap's corners, cut off
    taper = dust / 3  # a dust flap narrows towards its edge
    slope = min(g, h / 4)  # the glue flap's ends
    panels = (
        Panel("back", 0, y2, w, h),
        Panel("side-left", x1, y2, d, h),
        Panel("front", x2, y2, w, h),
        Panel("side-right", x3, y2, d, h),
        Panel("glue", x4, y2, g, h),
        Panel("lid", 0, y3, w, d),
        Panel("lid-tuck", 0, y4, w, tuck),
        Panel("bottom", x2, y1, w, d),
        Panel("bottom-tuck", x2, 0, w, tuck),
        Panel("dust-left-top", x1, y3, d, dust),
        Panel("dust-right-top", x3, y3, d, dust),
        Panel("dust-left-bottom", x1, y2 - dust, d, dust),
        Panel("dust-right-bottom", x3, y2 - dust, d, dust),
    )
    cuts = _path(
        (0, y2),
        (0, y5 - chamfer),
        (chamfer, y5),
        (w - chamfer, y5),
        (w, y5 - chamfer),
        (w, y3),  # the lid's side: a slit down to the walls' top
        (x1 + taper, y3 + dust),
        (x2 - taper, y3 + dust),
        (x2, y3),
        *_notch((x2 + x3) / 2, y3, radius),  # the front's top: the box's opening
        (x3, y3),
        (x3 + taper, y3 + dust),
        (x4 - taper, y3 + dust),
        (x4, y3),
        (x5, y3 - slope),
        (x5, y2 + slope),
        (x4, y2),
        (x4 - taper, y2 - dust),
        (x3 + taper, y2 - dust),
        (x3, y2),
        (x3, chamfer),
        (x3 - chamfer, 0),
        (x2 + chamfer, 0),
        (x2, chamfer),
        (x2, y2),
        (x2 - taper, y2 - dust),
        (x1 + taper, y2 - dust),
        (x1, y2),
        (0, y2),
    )
    folds = (
        *((x, y2, x, y3) for x in (x1, x2, x3, x4)),  # the walls' corners and the glue flap
        (0, y3, x1, y3),  # the lid's hinge
        (0, y4, x1, y4),  # the lid's tuck flap
        (x1, y3, x2, y3),  # the dust flaps
        (x3, y3, x4, y3),
        (x1, y2, x2, y2),
        (x3, y2, x4, y2),
        (x2, y2, x3, y2),  # the bottom's hinge
        (x2, y1, x3, y1),  # the bottom's tuck flap
    )
    return TuckBoxNet(x5, y5, w, h, d, tuck, dust, g, radius, panels, tuple(cuts), folds)


def net_overflow(
    net: TuckBoxNet,
    paper_width: float,
    paper_height: float,
    room: tuple[float, float, float],
    bleed: float = 0.0,
) -> tuple[bool, float, float]:
    """Whether the net is printed across the paper (landscape), and by how much it (with `bleed`
    round it) is too wide and too high for the paper's printable area (0, 0: it fits), upright or
    across, whichever leaves less over. `room`: what the page keeps at the sides, at the top and at
    the bottom (the footer)."""
    side, top, bottom = room
    best: tuple[bool, float, float] | None = None
    for across in (False, True):
        width, height = (
            (max(paper_width, paper_height), min(paper_width, paper_height))
            if across
            else (paper_width, paper_height)
        )
        over = (
            max(0.0, net.width + 2 * bleed - (width - 2 * side)),
            max(0.0, net.height + 2 * bleed - (height - top - bottom)),
        )
        if best is None or sum(over) < best[1] + best[2]:
            best = (across, *over)
    assert best is not None
    return best
