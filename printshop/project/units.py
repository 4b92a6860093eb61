"""Physical lengths written in data ("63mm", "0.125in", "9pt") and their conversion to points.

Points (1/72 in) are the only unit inside the program; data always says its unit.
"""

from __future__ import annotations

import re

from printshop import memos

POINTS_PER = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}
LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(pt|in|mm|cm)\s*$")


class UnitError(ValueError):
    """A length that cannot be read; the message says what a valid one looks like."""


MAX_METRES = (
    10  # the longest length data may give (a board of several metres is still far inside it)
)
MAX_POINTS = MAX_METRES * 1000 * 72 / 25.4


# lengths already read, by their text: a deck's frames write the same few lengths thousands of
# times, and each validation of its data read them all again (in the test suite, which validates
# hundreds of copies, 0.7 % of its time)
_READ = memos.LENGTHS_READ
_READ_MAX = 4096  # distinct texts kept; past it, new ones are read each time


def parse_length(value: object) -> float:
    """Return `value` in points. Zero may be written without a unit; anything else needs one."""
    if type(value) is str:
        known = _READ.get(value)
        if known is not None:
            return known
    if isinstance(value, bool):
        raise UnitError(f"expected a length such as '3mm', got {value!r}")
    if isinstance(value, (int, float)):
        if value == 0:
            return 0.0
        raise UnitError(
            f"the length {value!r} needs a unit: write for example '{value}mm' (units: mm, cm, in, pt)"
        )
    if not isinstance(value, str):
        raise UnitError(f"expected a length such as '3mm', got {type(value).__name__}")
    match = LENGTH.match(value)
    if not match:
        raise UnitError(
            f"'{value}' is not a length: write a number and a unit, for example '3mm', '0.125in' or '9pt'"
        )
    number, unit = match.groups()
    points = float(number) * POINTS_PER[unit]
    if (
        abs(points) > MAX_POINTS
    ):  # a PDF cannot hold such a number: ReportLab failed at the first page drawn
        raise UnitError(
            f"'{value}' is longer than anything printshop prints: at most {MAX_METRES} m"
        )
    if (
        type(value) is str and len(_READ) < _READ_MAX and len(value) <= 32
    ):  # (a length, not a text padded out)
        _READ[value] = points
    return points


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * POINTS_PER["mm"]


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / POINTS_PER["mm"]
