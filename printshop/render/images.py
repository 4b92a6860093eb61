"""Image files drawn in a box: `draw_image` is the one way printshop draws a PNG, JPEG or SVG file
(a face's `kind: image` shape, an `<img>` in a booklet or a frame, a cover's art).

An SVG is read by svglib into a ReportLab drawing and drawn as vectors, never rasterised. Its own
colours are converted as the palette's are for the output (render/colour.py): in a CMYK shop's
files each becomes the CMYK its flat colours get, so the press file holds no RGB; in a low-ink
kit it is lightened as fills are. A raster image is drawn as it is, or converted to the shop's CMYK
by render/press_art.py, flattened over the colour beneath it.

Text in an SVG is set in printshop's sans (PDF's standard fonts, which svglib names, are not
embedded, and shops refuse them): convert an SVG's text to paths to keep its own lettering.
"""

from __future__ import annotations

import inspect
import logging
import re
from pathlib import Path
from typing import Any

from reportlab.graphics import renderPDF
from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.utils import ImageReader
from reportlab.platypus import Flowable

from printshop import memos
from printshop.memo import file_stamp
from printshop.render.colour import RGB, ColourMode, fill_colour
from printshop.render.pdf import INITIAL_FONT
from printshop.typeset.images import placed_size
from printshop.typeset.richtext import Img

WHITE = (0.0, 0.0, 0.0, 0.0)
SVG_SUFFIXES = (".svg",)


def is_svg(path: str | Path) -> bool:
    return str(path).lower().endswith(SVG_SUFFIXES)


# an SVG's link to another file (href="x.png", xlink:href="../y.svg"); "#id" and data: URIs are
# its own
_FILE_LINK = re.compile(r"""\bhref\s*=\s*["']\s*(?!#|data:)([^"']+)["']""", re.IGNORECASE)


def read_svg(path: str | Path):
    """The SVG file as a ReportLab drawing, or the reason it cannot be drawn (a str). An SVG that
    links other files is refused: what it would read could lie outside the project, and a change to
    it would go unseen."""
    from svglib.svglib import SvgRenderer, svg2rlg

    try:
        linked = _FILE_LINK.search(Path(path).read_text(encoding="utf-8", errors="replace"))
    except OSError as error:
        return f"it cannot be read: {error.strerror or error}"
    if linked:
        return (
            f"it links the file '{linked.group(1).strip()[:60]}': embed linked pictures in the "
            "SVG (data: URIs) or draw them in, so that it is drawn from its own file"
        )
    options: dict[str, Any] = {}
    if "external_reference_root" in inspect.signature(SvgRenderer.__init__).parameters:
        options["external_reference_root"] = str(Path(path).parent)  # (none is linked: kept so)
    quiet = logging.getLogger("svglib.svglib")
    level, quiet.level = quiet.level, logging.CRITICAL  # its complaints are said as a diagnostic
    try:
        drawing = svg2rlg(str(path), **options)
    except Exception as error:  # noqa: BLE001 - svglib raises what its XML and CSS parsers raise
        return f"svglib cannot read it: {str(error) or type(error).__name__}"
    finally:
        quiet.level = level
    if drawing is None:
        return "svglib cannot read it (not an SVG document, or XML that is not well formed)"
    if not drawing.width or not drawing.height or drawing.width <= 0 or drawing.height <= 0:
        return "it has no size: give its <svg> a width and height, or a viewBox"
    return drawing


@memos.SVG_DRAWINGS
def _drawing(path: str, when: tuple[int, ...], mode: ColourMode):
    """The SVG at `path` as a drawing in `mode`'s colours; `when` (its stamp) keys the memo."""
    drawing = read_svg(path)
    if isinstance(drawing, str):
        raise ValueError(f"{path}: {drawing}")  # layout and validate refused such a file before
    convert = mode.space == "cmyk" or mode.low_ink
    # the state ReportLab sets before drawing (black, Helvetica) in the output's colours and font
    black = fill_colour("#000000", mode) if convert else Color(0, 0, 0)
    # (read by ReportLab's StateTracker from the drawing, whose attribute checks refuse them)
    drawing.__dict__.update(
        initialFillColor=black, initialStrokeColor=black, initialFontName=INITIAL_FONT
    )
    if mode.low_ink:
        _low_ink_callouts(drawing)
    _converted(drawing, mode, convert)
    return drawing


# a callout's colours as a low-ink kit prints them: white disc, a ring in the disc's colour this
# share of its radius wide (about 0.5 pt on the rules' board figure), and the numeral in that colour
CALLOUT_RING = 1 / 12
_LIGHT_TEXT = 0.75  # text lighter than this on a dark disc is a knock-out numeral


def _low_ink_callouts(node) -> None:
    """A numbered disc of `node` (a dark circle, then light text drawn over it: the rules' board
    figure's callouts) made a white disc ringed thin in the disc's colour, its numeral in that
    colour, both at full strength (`_full`): lightened as fills are, light on a pale tint would
    hardly read."""
    from reportlab.graphics.shapes import Circle

    contents = list(getattr(node, "contents", ()))
    for disc, over in zip(contents, contents[1:]):
        if not isinstance(disc, Circle) or not _plain(disc.fillColor):
            continue
        numerals = _strings(over)
        if not numerals or _luminance(disc.fillColor) > 1 - _LIGHT_TEXT:
            continue
        if not all(
            _plain(text.fillColor) and _luminance(text.fillColor) > _LIGHT_TEXT for text in numerals
        ):
            continue
        ink = disc.fillColor
        disc.fillColor, disc.strokeColor = Color(1, 1, 1), ink
        disc.strokeWidth = disc.r * CALLOUT_RING
        disc._full = True
        for text in numerals:
            text.fillColor, text._full = ink, True
    for child in contents:
        _low_ink_callouts(child)


def _plain(colour) -> bool:
    return isinstance(colour, Color) and not isinstance(colour, CMYKColor)


def _luminance(colour: Color) -> float:
    return 0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue


def _strings(node) -> list:
    """The texts `node` is or holds, if it holds nothing else."""
    from reportlab.graphics.shapes import Group, String

    if isinstance(node, String):
        return [node]
    if isinstance(node, Group) and node.contents:
        found = [_strings(child) for child in node.contents]
        if all(found):
            return [text for texts in found for text in texts]
    return []


def _converted(node, mode: ColourMode, colours: bool) -> None:
    """Each fill and stroke colour of `node` and what it holds as the output's fills are (with
    `colours`), and its text in a face the PDF embeds (svglib names PDF's standard fonts)."""
    if hasattr(node, "fontName"):
        node.fontName = INITIAL_FONT
    for attribute in ("fillColor", "strokeColor") if colours else ():
        colour = getattr(node, attribute, None)
        if isinstance(colour, Color) and not isinstance(colour, CMYKColor):
            alpha = colour.alpha
            # (a low-ink callout's colours at full strength: `_low_ink_callouts`)
            made = fill_colour("#" + colour.hexval()[2:], _full_strength(mode, node))
            if isinstance(made, CMYKColor):
                made = CMYKColor(*made.cmyk(), alpha=alpha)
            setattr(node, attribute, made)
    for child in getattr(node, "contents", ()):
        _converted(child, mode, colours)


def _full_strength(mode: ColourMode, node) -> ColourMode:
    """`mode`, but not lightened for a node `_low_ink_callouts` keeps at full strength."""
    if mode.low_ink and getattr(node, "_full", False):
        from dataclasses import replace

        return replace(mode, low_ink=False)
    return mode


def draw_image(
    canvas,
    path: str | Path,
    x: float,
    y: float,
    width: float,
    height: float,
    mode: ColourMode = RGB,
    beneath: tuple[float, float, float, float] = WHITE,
) -> None:
    """The image file at `path` drawn to fill the box (x, y: its bottom-left corner) in `mode`'s
    colours: an SVG as vectors; a raster image as it is, or in a CMYK shop's colours (flattened over
    `beneath`, C, M, Y, K from 0 to 1). ReportLab stores a raster file drawn again in one PDF once."""
    if is_svg(path):
        drawing = _drawing(str(path), file_stamp(path), mode)
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(width / drawing.width, height / drawing.height)
        renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)
        canvas.restoreState()
        return
    if mode.space == "cmyk":
        from printshop.render.press_art import PressArt

        picture = PressArt(icc=mode.icc, ink_limit=mode.ink_limit).convert(Path(path), beneath)
        canvas.drawImage(ImageReader(picture), x, y, width, height)
        return
    canvas.drawImage(str(path), x, y, width, height, mask="auto")


class ImageFlowable(Flowable):
    """An `<img>` laid out (its `file` read): as wide as `placed_size` says in the width given, set
    left, centred or right in it."""

    def __init__(self, img: Img, mode: ColourMode = RGB):
        super().__init__()
        self.img, self.mode = img, mode
        self.available = self.placed_width = self.placed_height = 0.0

    def wrap(self, available_width, available_height):
        self.available = available_width
        self.placed_width, self.placed_height = placed_size(self.img, available_width)
        return available_width, self.placed_height

    def draw(self):
        assert self.img.file is not None  # (layout reads the file before anything is drawn)
        slack = self.available - self.placed_width
        x = {"left": 0.0, "center": slack / 2, "right": slack}[self.img.align]
        draw_image(
            self.canv,
            self.img.file.path,
            x,
            0,
            self.placed_width,
            self.placed_height,
            self.mode,
        )
