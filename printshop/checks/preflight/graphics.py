"""The graphics state a page's content is read through: the transformation matrix, the colours
set for filling and stroking, overprint and the text render mode; what a graphics state dictionary
sets that PDF/X or the shop forbids; and where paint lands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pikepdf

from printshop.checks.preflight.spaces import PROCESS_PLATES, Space
from printshop.project.models.profile import Profile

_NORMAL_BLENDS = {"/Normal", "/Compatible"}


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
    line_width: float = 1.0
    font_size: float = 0.0
    text_matrix: tuple = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


# --- where paint lands: device-space boxes, read only for pages that overprint
# -----------------------
PATH_OPERATORS = {"m", "l", "c", "v", "y", "re", "h", "n", "W", "W*", "w"}  # w: a stroke's width
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


def scale(ctm) -> float:
    """How much the matrix enlarges a length (the larger of its axes)."""
    return max(math.hypot(ctm[0], ctm[1]), math.hypot(ctm[2], ctm[3]))


def widen(box, by: float):
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def meet(one, other) -> bool:
    """Two extents overlap (ANYWHERE meets everything)."""
    if one is ANYWHERE or other is ANYWHERE:
        return True
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


def state_problems(gs, name: str, profile: Profile) -> list[str]:
    """What graphics state `gs` sets that the profile forbids: under PDF/X transfer functions and
    halftones other than unnamed types 1 and 5; without transparency blend modes, soft masks and
    opacity."""
    problems = []
    version = profile.pdfx.version if profile.pdfx is not None else ""
    if version and ("/TR" in gs or str(gs.get("/TR2", "/Default")) != "/Default"):
        problems.append(f"a transfer function in graphics state {name} ({version} forbids it)")
    halftone = gs.get("/HT")
    if version and isinstance(halftone, (pikepdf.Dictionary, pikepdf.Stream)):
        kind = int(halftone.get("/HalftoneType", 1))
        named = "/HalftoneName" in halftone
        if kind not in (1, 5) or named:
            problems.append(
                f"a halftone of type {kind}{' with a HalftoneName' if named else ''} in graphics "
                f"state {name} ({version} allows types 1 and 5, unnamed)"
            )
    if profile.transparency:
        return problems
    blend = gs.get("/BM")
    blends = (
        [str(b) for b in blend]
        if isinstance(blend, pikepdf.Array)
        else [str(blend)]
        if blend is not None
        else []
    )
    if blends and blends[0] not in _NORMAL_BLENDS:
        problems.append(
            f"blend mode {blends[0]} in graphics state {name} (the shop allows no transparency)"
        )
    mask = gs.get("/SMask")
    if mask is not None and str(mask) != "/None":
        problems.append(f"a soft mask in graphics state {name} (the shop allows no transparency)")
    for key, what in (("/CA", "stroke"), ("/ca", "fill")):
        if key in gs and float(gs[key]) < 1:
            problems.append(
                f"{what} opacity {float(gs[key]):g} in graphics state {name} "
                "(the shop allows no transparency)"
            )
    return problems


def inherited(page, key: str):
    """A page attribute that may be set on the page or on a Pages node above it."""
    node, depth = page, 0
    while node is not None and depth < 64:
        if key in node:
            return node[key]
        node, depth = node.get("/Parent"), depth + 1
    return None


def kept_plates(ink, overprint: bool, space: Space, state: State) -> list[int]:
    """The plates an overprinted paint leaves as they were: in DeviceCMYK with overprint mode 1,
    those where its components are zero; for a spot colour, every process plate."""
    if overprint and space.family == "DeviceCMYK" and state.overprint_mode == 1:
        return [plate for plate in range(4) if ink[plate] == 0]
    if (
        overprint
        and space.process == "spot"
        and not all(n in PROCESS_PLATES for n in space.colorants)
    ):
        return [0, 1, 2, 3]
    return []
