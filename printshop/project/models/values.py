"""The kinds of value the data files share: colours, ids, file names, sizes, extents, expressions.

Each is an annotated type whose validator says, in the message a publisher reads, what is wrong.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

from printshop.project.schema import Length

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _hex_colour(value: str) -> str:
    if not _HEX.match(value):
        raise ValueError(f"'{value}' is not a colour: write #rrggbb, for example #b3261e")
    return value.lower()


def _identifier(value: str) -> str:
    from printshop.project.paths import unportable

    if not _ID.match(value):
        raise ValueError(
            f"'{value}' is not a valid id: use lower-case letters, digits, '-' and '_'"
        )
    why = unportable(value)  # it names files: one every common system can make
    if why is not None:
        raise ValueError(f"'{value}' is not a valid id: {why}; choose another")
    return value


def _in_mm(points: float) -> str:
    """A length for a message, in millimetres to the hundredth: -3pt reads -1.06 mm, not -1.05833
    mm."""
    return f"{round(points * 25.4 / 72, 2):g} mm"


def _positive(value: float) -> float:
    if not value > 0:  # also refuses nan
        raise ValueError(f"a size must be more than 0, not {_in_mm(value)}")
    return value


def _not_negative(value: float) -> float:
    if not value >= 0:
        raise ValueError(f"a length here cannot be negative ({_in_mm(value)})")
    return value


def _file_name(value: str) -> str:
    if (
        not value
        or len(value) > 200
        or any(ch in value for ch in "/\\\x00")
        or value in (".", "..")
    ):
        raise ValueError("the name of a file in printshop/icc/ (no folder, at most 200 characters)")
    return value


HexColour = Annotated[str, AfterValidator(_hex_colour)]
FileName = Annotated[
    str, AfterValidator(_file_name)
]  # a file in a folder printshop names (an ICC profile)
# ids that become parts of file names (decks, sheets, variants, papers, card sizes) are Identifiers
# too: nothing in them can climb out of the output folder or be read as a format field
Identifier = Annotated[str, AfterValidator(_identifier)]
Size = Annotated[Length, AfterValidator(_positive)]  # widths, heights, type sizes: more than 0
Extent = Annotated[Length, AfterValidator(_not_negative)]  # bleeds, margins, gaps: 0 or more
Expression = Annotated[str, Field(min_length=1)]
