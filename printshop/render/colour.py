"""Colours are defined once, by name, in data/print/colours.yaml (sRGB hex) and converted here for
each output: RGB for home printing, CMYK for print shops.

CMYK goes through the shop's ICC profile exactly as raster art does (render/press_colour.py: the
same transform, rendering intent and ink limit), so a flat area matches art of its colour; greys
are built as the profile builds them. Pure black (#000000) text and lines print as K100 only (no
registration problems on small type and hairlines); pure black fills print as the profile's rich
black when it gives one, so large dark areas stay deep. docs/colour.md says it all in one place.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from dataclasses import dataclass

from reportlab.lib.colors import CMYKColor, Color, HexColor

from printshop import memos
from printshop.memo import Reads, noting
from printshop.project.units import mm


@dataclass(frozen=True)
class LowInkRules:
    """How a low-ink kit draws a face (render/low_ink.py), from media.yaml's print_and_play.low_ink;
    lengths in points."""

    tint: float = 0.25  # the share of its colour a large filled area keeps
    accent: float = mm(15)  # a filled shape no wider or higher keeps its full colour
    outline: float = mm(0.25)  # outlines that stand for fills (knock-outs, large areas, rays)
    hatch_width: float = mm(0.2)  # the lines that stand for a coloured background
    hatch_pitch: float = mm(1.4)  # from one hatching line to the next
    hatch_band: float = mm(2)  # how far inside the trim the hatching reaches

    @classmethod
    def of(cls, low_ink) -> LowInkRules:
        """The rules media.yaml's print_and_play.low_ink (models/media.py LowInk) gives."""
        return cls(
            low_ink.tint,
            low_ink.accent,
            low_ink.outline,
            low_ink.hatch_width,
            low_ink.hatch_pitch,
            low_ink.hatch_band,
        )


@dataclass(frozen=True)
class ColourMode:
    space: str = "rgb"  # rgb | cmyk
    ink_limit: float | None = None  # percent, e.g. 240
    rich_black: tuple[float, ...] | None = None  # percent C, M, Y, K for black fills (four)
    low_ink: bool = False  # home printing on a budget: white backgrounds, fills lightened
    low_ink_rules: LowInkRules = LowInkRules()  # how faces keep their identity when low_ink
    icc: str | None = None  # a CMYK shop's ICC profile (printshop/icc/) for art and flat colours


RGB = ColourMode()


# while set (`noting_colours`, around a session's job): the palette names every output's Paints look
# up
_noted: contextvars.ContextVar[list | None] = contextvars.ContextVar("noted_colours", default=None)


def noting_colours():
    """Note the palette's names each `Paints` made meanwhile looks up (`[]`, `in`, `get`), in the
    list yielded: what a session's job reads of the palette, so that it runs again only when one of
    those changes. A Paints given a palette that already notes its reads (memo.Reads: a face's
    recording, a booklet) is left as it is: whoever made it asks the job's palette again for what it
    read (render/replay.py, render/booklet.py)."""
    return noting(_noted)


@dataclass
class Paints:
    """The palette resolved for one output: `fill(name)` for areas and strokes, `text(name)` for
    type."""

    palette: Mapping[str, str]
    mode: ColourMode = RGB

    def __post_init__(self):
        log = _noted.get()
        if log is not None and type(self.palette) is dict:
            self.palette = Reads(self.palette, log=log)

    def fill(self, name: str) -> Color:
        value = self.palette[name]
        if self.mode.low_ink:
            value = _lighten(value, 1 - self.mode.low_ink_rules.tint)
        return _convert(value, self.mode, text=False)

    def full(self, name: str) -> Color:
        """`name` at its full strength, low ink or not: outlines and small accents (low_ink.py)."""
        return _convert(self.palette[name], self.mode, text=False)

    def white(self) -> Color:
        """Paper white, in this output's colour space."""
        return _convert("#ffffff", self.mode, text=False)

    def luminance(self, name: str) -> float:
        """How light `name` is, 0 (black) to 1 (white)."""
        return _luminance(self.palette[name])

    def spread(self, name: str) -> float:
        """How far apart `name`'s red, green and blue are, 0 (a grey) to 1: how much hue it has."""
        channels = _channels(self.palette[name])
        return (max(channels) - min(channels)) / 255

    def background(self, name: str) -> Color:
        """A face's background: in low-ink mode, paper white (no full-bleed fills)."""
        return _convert(
            "#ffffff" if self.mode.low_ink else self.palette[name], self.mode, text=False
        )

    def line(self, name: str) -> Color:
        """A stroke: `fill`'s colour, but pure black as K100 only, as type is (a hairline in four
        inks shows every misregistration)."""
        value = self.palette[name]
        if self.mode.low_ink:
            value = _lighten(value, 1 - self.mode.low_ink_rules.tint)
        return _convert(value, self.mode, text=True)

    def text(self, name: str) -> Color:
        value = self.palette[name]
        if self.mode.low_ink and _luminance(value) > 0.6:
            # light type was set on dark fills, which low ink makes light: keep it readable
            value = "#000000"
        return _convert(value, self.mode, text=True)


OVERSET_COLOUR = (
    0.9,
    0.0,
    0.5,
)  # the overset mark: magenta, apart from every red of the games; on screen only
OVERSET_HEX = "#" + "".join(
    f"{round(channel * 255):02x}" for channel in OVERSET_COLOUR
)  # as a palette gives it


class StandIn(Mapping):
    """`palette`, giving the overset's magenta for a name it lacks: what a preview draws a colour
    with that the palette does not have (a name mistyped, or taken out of colours.yaml while faces
    still use it), beside the validator's error naming it. Never for a file: a build refuses such
    data. Each name is looked up in `palette` itself, so a palette that notes what is read
    (memo.Reads) notes it; `in` says what it has."""

    def __init__(self, palette: Mapping[str, str]):
        self.palette = palette

    def __getitem__(self, name: str) -> str:
        return self.palette[name] if name in self.palette else OVERSET_HEX

    def __contains__(self, name) -> bool:
        return name in self.palette

    def __iter__(self):
        return iter(self.palette)

    def __len__(self) -> int:
        return len(self.palette)


def _channels(hex_value: str) -> list[int]:
    """The red, green and blue of an sRGB hex colour ("#rrggbb"), 0 to 255."""
    return [int(hex_value[i : i + 2], 16) for i in (1, 3, 5)]


def _luminance(hex_value: str) -> float:
    r, g, b = (channel / 255 for channel in _channels(hex_value))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _lighten(hex_value: str, amount: float) -> str:
    channels = _channels(hex_value)
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in channels)


def fill_colour(hex_value: str, mode: ColourMode) -> Color:
    """An sRGB hex colour as a fill in `mode` (what `Paints.fill` gives a palette's colour): an
    SVG drawing's own colours, converted as the palette's are (render/images.py)."""
    if mode.low_ink:
        hex_value = _lighten(hex_value, 1 - mode.low_ink_rules.tint)
    return _convert(hex_value, mode, text=False)


K100 = CMYKColor(0, 0, 0, 1)


@memos.COLOURS  # a deck asks for its few colours thousands of times; Colors are not changed
def _convert(hex_value: str, mode: ColourMode, *, text: bool) -> Color:
    if mode.space == "rgb":
        return HexColor(hex_value)
    if hex_value.lower() == "#000000":
        if text:
            return K100
        if mode.rich_black:
            c, m, y, k = mode.rich_black
            return CMYKColor(c / 100, m / 100, y / 100, k / 100)
    from printshop.render.press_colour import flat_cmyk  # (Pillow: loaded for press files only)

    c8, m8, y8, k8 = flat_cmyk(hex_value.lower(), mode.icc, ink_limit=mode.ink_limit)
    return CMYKColor(c8 / 255, m8 / 255, y8 / 255, k8 / 255)
