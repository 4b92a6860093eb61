"""The shop-dependent rules read from a page's content as `PageInk` walks it (the profile's `rules`,
docs/shops.md): spot colours the shop converts or refuses, lines thinner than it prints, and small
text in more than one ink. Each page's findings become one problem a rule (the worst case and how
many there are), a warning or an error as the profile says, with its code (check_codes.py)."""

from __future__ import annotations

import math

from printshop.checks.preflight.graphics import Colour, State, multiply
from printshop.checks.preflight.problem import Problem
from printshop.checks.preflight.spaces import PROCESS_PLATES, Space
from printshop.project.models.profile import Profile

# the text state PageInk follows for sizes: BT resets the text matrix, Tm sets it, Tf the size
TEXT_STATE = {"BT", "Tm", "Tf"}
_NO_SPOT = {"/All", "/None", *PROCESS_PLATES}


def text_state(op: str, operands, state: State) -> None:
    """BT, Tm or Tf: the text matrix or the font size in `state`."""
    if op == "BT":
        state.text_matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    elif op == "Tm" and len(operands) == 6:
        state.text_matrix = tuple(float(v) for v in operands)
    elif op == "Tf" and len(operands) >= 2:
        state.font_size = abs(float(operands[1]))


def thinnest_scale(ctm) -> float:
    """How much the matrix shrinks a length at most (its smaller singular value)."""
    a, b, c, d = (float(v) for v in ctm[:4])
    total = a * a + b * b + c * c + d * d
    det = a * d - b * c
    root = math.sqrt(max(0.0, total * total - 4 * det * det))
    return math.sqrt(max(0.0, (total - root) / 2))


def inks(colour: Colour) -> int:
    """How many inks a colour prints with: plates above 0 for process colours (RGB and Lab go to
    several, except white), the colorants above 0 of a spot colour (All: every plate)."""
    space, values = colour.space, colour.values
    if space.family == "Indexed" and space.base is not None:
        ink = space.ink(values)
        return sum(1 for v in ink if v > 0.5) if ink is not None else 3
    if space.process == "spot":
        count = 0
        for name, value in zip(space.colorants, values):
            if name != "/None" and value > 0.005:
                count += 4 if name == "/All" else 1
        return count
    if space.process in ("rgb", "lab"):
        white = space.process == "rgb" and all(v >= 0.995 for v in values)
        return 0 if white else 3
    ink = space.ink(values)
    return sum(1 for v in ink if v > 0.5) if ink is not None else 0


class RuleFindings:
    """What one page breaks of the profile's shop rules, gathered while its content is read (a
    page read twice gives the same findings)."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self.rules = profile.rules
        self.spots: dict[str, str] = {}  # colorant -> the space it was set in
        self.lines: dict[tuple, float] = {}  # (operator, ctm, width) -> device width
        self.texts: dict[tuple, tuple[float, str]] = {}  # a text's size and colour

    def space(self, space: Space) -> None:
        """A colour space set or painted: its spot colorants (in an Indexed or Pattern space's base
        too)."""
        if space.family in ("Indexed", "Pattern") and space.base is not None:
            self.space(space.base)
            return
        if space.process != "spot":
            return
        # the shop's die line (profile `dieline`) is the one spot it always asks for, printing nothing
        dieline = self.profile.dieline
        allowed = {
            name.lower() for name in [*self.rules.spot_colours.names, dieline.cut, dieline.crease]
        }
        for name in space.colorants:
            if name not in _NO_SPOT and name.lstrip("/").lower() not in allowed:
                self.spots.setdefault(name.lstrip("/"), space.label)

    def stroke(self, state: State, operator: str) -> None:
        width = state.line_width * thinnest_scale(state.ctm)
        if width + 1e-6 < self.rules.line_width.least:
            key = (operator, tuple(round(v, 4) for v in state.ctm), state.line_width)
            self.lines[key] = width

    def text(self, state: State, colour: Colour) -> None:
        below = self.rules.small_text.below
        if not below or colour.space.family == "Pattern":
            return
        matrix = multiply(state.text_matrix, state.ctm)
        size = state.font_size * math.hypot(matrix[2], matrix[3])
        if size + 1e-6 < below and inks(colour) > 1:
            shown = " ".join(f"{float(v):g}" for v in colour.values)
            key = (round(size, 2), colour.space.label, shown)
            self.texts[key] = (size, f"{colour.space.label} {shown}")

    def problems(self, number: int) -> list[Problem]:
        rules, label = self.rules, self.profile.label
        found = []
        spot = rules.spot_colours
        if spot.handling != "allowed":
            said = {
                "converted": f"{label} converts spot colours to CMYK, so its colour may shift",
                "refused": f"{label} takes CMYK only",
            }[spot.handling]
            for name, where in sorted(self.spots.items()):
                found.append(
                    Problem(
                        number,
                        f"spot colour '{name}' ({where}): {said}; set it in CMYK",
                        spot.severity == "warning",
                        "preflight-spot-colour",
                    )
                )
        if self.lines:
            thinnest = min(self.lines.values())
            least = rules.line_width.least
            kind = "a hairline (width 0)" if thinnest == 0 else f"a line {thinnest:.3g} pt wide"
            found.append(
                Problem(
                    number,
                    f"{kind}, the thinnest of {len(self.lines)} line(s) under {least:g} pt: "
                    f"{label} prints lines of {least:g} pt or more",
                    rules.line_width.severity == "warning",
                    "preflight-thin-line",
                )
            )
        if self.texts:
            size, colour = min(self.texts.values())
            below = rules.small_text.below
            found.append(
                Problem(
                    number,
                    f"text of {size:.3g} pt in more than one ink ({colour}), the smallest of "
                    f"{len(self.texts)}: {label} wants text under {below:g} pt in one ink "
                    "(K only for black), or its plates may not register",
                    rules.small_text.severity == "warning",
                    "preflight-small-text-inks",
                )
            )
        return found
