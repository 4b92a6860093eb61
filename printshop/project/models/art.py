"""The schema of what faces draw with: data/print/fonts.yaml, colours.yaml and motifs.yaml (vector
art in SVG path syntax, checked here).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from printshop import memos
from printshop.project.models.values import HexColour
from printshop.project.schema import Node


# --- data/print/fonts.yaml --------------------------------------------------------------
class FontFamily(Node):
    regular: str
    """The font file of the regular face (.ttf; .otf, .woff and .woff2 are made TrueType when
    read), looked up in data/fonts/, then in printshop's own fonts."""
    bold: str
    """The file of the bold face."""
    italic: str
    """The file of the italic face."""
    bold_italic: str
    """The file of the bold italic face."""


class FontFallback(Node):
    file: str
    """The font file (.ttf, .otf, .woff or .woff2) that sets the characters the families lack."""
    characters: str
    """The characters it sets (card suits, stars…)."""


class Fonts(Node):
    families: dict[str, FontFamily]
    """Font families by name; each registers the faces <family>, <family>-bold, <family>-italic and
    <family>-bold-italic."""
    fallback: FontFallback | None = None
    """A face for characters the families lack."""


# --- data/print/colours.yaml ------------------------------------------------------------
class Colours(Node):
    palette: dict[str, HexColour]
    """Colours by name, as sRGB `#rrggbb`; every other file names colours from here."""


# --- data/print/motifs.yaml: vector art, SVG path syntax in a view box ------------------
_PATH_ARGUMENTS = {
    "M": 2,
    "L": 2,
    "H": 1,
    "V": 1,
    "C": 6,
    "Q": 4,
    "Z": 0,
}  # numbers each command takes
_PATH_TOKEN = re.compile(r"\s*(?:([A-Za-z])|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))\s*,?")


MAX_MOTIF_NUMBER = 1_000_000  # a motif's numbers, view box and coordinates alike


@memos.SVG_PATHS  # (a check reads every motif of the project: each path is parsed once per process)
def _svg_path(value: str) -> str:
    """Path data as render/faces.trace_svg_path draws it: absolute M L H V C Q Z, each with its
    numbers (a command repeated needs no letter), starting with M. A relative command (lower case)
    would be drawn as absolute, and a number short made the build fail while rendering, far from the
    line that has it."""
    position, command, given = 0, None, 0

    def numbers_complete() -> None:
        wanted = _PATH_ARGUMENTS[command] if command is not None else 0
        if wanted and (given == 0 or given % wanted):
            raise ValueError(
                f"the command {command} takes {wanted} numbers (or a multiple), given {given}"
            )

    while position < len(value):
        token = _PATH_TOKEN.match(value, position)
        if token is None or token.end() == position:
            raise ValueError(
                f"'{value[position : position + 12]}' is not SVG path data (absolute M L H V C Q Z commands "
                f"and numbers)"
            )
        position = token.end()
        letter = token.group(1)
        if letter is None:
            if command is None:
                raise ValueError("path data must start with a command, M (move to)")
            if _PATH_ARGUMENTS[command] == 0:
                raise ValueError(f"a number after {command}, which takes none")
            if (
                not abs(float(token.group(2))) <= MAX_MOTIF_NUMBER
            ):  # (inf too: a PDF cannot hold it)
                raise ValueError(
                    f"'{token.group(2)}' is beyond the ±{MAX_MOTIF_NUMBER:,} a motif's numbers "
                    f"may take"
                )
            given += 1
            continue
        if letter not in _PATH_ARGUMENTS:
            hint = (
                " (relative commands are not drawn: write the absolute one)"
                if letter.upper() in _PATH_ARGUMENTS
                else ""
            )
            raise ValueError(
                f"'{letter}' is not a path command printshop draws: M L H V C Q Z{hint}"
            )
        if command is None and letter != "M":
            raise ValueError(f"path data must start with M (move to), not {letter}")
        numbers_complete()
        command, given = letter, 0
    numbers_complete()
    return value


class MotifPath(Node):
    d: Annotated[str, AfterValidator(_svg_path)] = ""
    """SVG path data in the motif's view box (absolute M L H V C Q Z commands)."""
    circle: (
        list[
            Annotated[float, Field(ge=-MAX_MOTIF_NUMBER, le=MAX_MOTIF_NUMBER, allow_inf_nan=False)]
        ]
        | None
    ) = Field(None, min_length=3, max_length=3)
    """A circle instead of a path: cx, cy, r in the view box."""
    rule: Literal["nonzero", "evenodd"] = "nonzero"
    """How overlapping parts fill: nonzero, or evenodd to leave holes."""


class Motif(Node):
    viewbox: list[Annotated[float, Field(ge=0.001, le=MAX_MOTIF_NUMBER, allow_inf_nan=False)]] = (
        Field(min_length=2, max_length=2)
    )
    """Width and height of the view box the paths are drawn in (y points down), each from 0.001 to
    1,000,000."""
    paths: list[MotifPath]
    """The filled shapes of the motif, painted in order."""
    colour: str | None = None
    """The colour (a name from colours.yaml) the motif is drawn in where a text sets it as an inline
    icon (`<icon name="…"/>`), as a game piece is printed; none: the text's own colour."""


class Motifs(Node):
    motifs: dict[str, Motif]
    """Motifs by name; a face's shape of kind `motif` and the booklet's `<art>` name them."""
