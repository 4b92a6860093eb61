"""The schema of data/print/profiles/<name>.yaml: what a print shop accepts (colour, resolution,
products, output intent).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from printshop.project.models.values import Extent, FileName, Size
from printshop.project.schema import Node


# --- data/print/profiles/<name>.yaml: what a print shop accepts ----------------------------
class ProfileColour(Node):
    space: Literal["rgb", "cmyk"] = "rgb"
    """The colour space of the shop's files: rgb, or cmyk for offset and most press printers."""
    ink_limit: float | None = Field(default=None, gt=0, le=400)
    """Most total ink the shop accepts, in percent (CMYK)."""
    rich_black: list[Annotated[float, Field(ge=0, le=100)]] | None = Field(
        default=None, min_length=4, max_length=4
    )
    """The shop's rich black for large black areas: C, M, Y, K in percent (0 to 100 each)."""
    icc: FileName | None = None
    """CMYK: the ICC profile (a file in printshop/icc/) raster art is converted to; None: the
    FOGRA39 one."""


class Pixels(Node):
    width: int = Field(ge=1, le=20000)
    """Width of each image in pixels."""
    height: int = Field(ge=1, le=20000)
    """Height of each image in pixels."""


class Product(Node):
    """What the shop makes of one of our card sizes: its own trim (a card size in media.yaml), onto
    which our faces are scaled to cover, and the safe zone if it differs from the profile's."""

    trim: str
    """The shop's own card size: a name from `card_sizes` in media.yaml."""
    safe: Extent | None = None
    """The safe zone for this product, if it differs from the profile's."""


class OutputIntent(Node):
    """The PDF/X output intent: a registered characterization (no ICC profile need be embedded)."""

    version: Literal["PDF/X-1a:2003", "PDF/X-4"] = "PDF/X-1a:2003"
    """The PDF/X version; PDF/X-4 embeds the profile's CMYK ICC profile in the output intent (the
    files stay PDF 1.4)."""
    condition: str
    """The OutputConditionIdentifier, e.g. "CGATS TR 001" (SWOP)."""
    registry: str = "http://www.color.org"
    """Where the condition is registered."""
    info: str = ""
    """A free description of the printing condition."""


# a Separation's colorant: a PDF name of letters, digits, _ and - (no space, no #)
SPOT_NAME = r"^[A-Za-z][A-Za-z0-9_-]{0,62}$"


class Dieline(Node):
    """How the shop wants the die line of a die-cut piece (a tuck box's press page): the cut and the
    crease (fold) lines drawn over the art in two spot colours (Separation colour spaces) of the
    names its die maker's software looks for, set to overprint so they never knock out the art
    beneath; preflight counts no ink for them. The defaults are common names: CutContour, the one
    Roland's VersaWorks and many other cutting programs look for, and Crease; a shop whose guide
    names others gets them here."""

    cut: str = Field(default="CutContour", pattern=SPOT_NAME)
    """The spot colour's name for cut lines (the die's knives)."""
    crease: str = Field(default="Crease", pattern=SPOT_NAME)
    """The spot colour's name for crease (fold) lines."""
    cut_alternate: list[Annotated[float, Field(ge=0, le=100)]] = Field(
        default=[0, 100, 0, 0], min_length=4, max_length=4
    )
    """How a screen or proof shows the cut lines: C, M, Y, K in percent (100 % magenta)."""
    crease_alternate: list[Annotated[float, Field(ge=0, le=100)]] = Field(
        default=[100, 0, 0, 0], min_length=4, max_length=4
    )
    """How a screen or proof shows the crease lines: C, M, Y, K in percent (100 % cyan)."""
    width: Size = Field(default="0.25pt", validate_default=True)
    """The lines' width (0.25 pt: a hairline the die maker's software reads as a path)."""
    crease_dashed: bool = False
    """Draw crease lines dashed (some shops ask for it so a proof tells them from cuts); by default
    solid, as a die maker reads a line's colour, not its dash."""
    glue_flap: Literal["bare", "printed"] = "bare"
    """The glue flap's face: `bare` (the default) leaves it without ink, as glue holds on bare
    board and not on ink or varnish, the wrap reaching `glue_overlap` past its fold so a crease
    a little off shows no paper on the side wall; `printed` dresses it as the kit's page does."""
    glue_overlap: Size = Field(default="1mm", validate_default=True)
    """How far the wrap reaches onto a bare glue flap past its fold."""


# --- the shop-dependent rules preflight reads in a finished file (docs/shops.md) -------------
Severity = Literal["warning", "error"]


class SpotColours(Node):
    """Spot colours: Separation and DeviceN inks other than the process plates (Cyan, Magenta,
    Yellow, Black), All (registration) and None."""

    handling: Literal["allowed", "converted", "refused"] = "converted"
    """allowed: the shop prints them as their own inks (nothing reported); converted: the shop
    converts them to CMYK, so their colour may shift; refused: the shop takes CMYK only."""
    names: list[str] = []
    """Spot colours the shop asks for by name, always allowed: a die line's ("die-cut",
    "CutContour"), compared without case."""
    severity: Severity = "warning"
    """How a spot colour that is converted or refused is reported."""


class LineWidth(Node):
    """Lines (strokes) thinner than the press holds: their width in the content stream times the
    scale of the transformation in effect; a width of 0 (the thinnest line a device can draw) is
    a hairline too."""

    least: Extent = 0.25
    """The thinnest line the shop prints reliably, e.g. "0.5pt"."""
    severity: Severity = "warning"
    """How a thinner line is reported."""


class SmallText(Node):
    """Small text in more than one ink: its plates must register exactly, or the letters blur.
    More than one ink: a CMYK colour with two or more plates above 0 (a rich black among them),
    an RGB colour (converted to several inks by the shop), or a DeviceN of several inks."""

    below: Extent = 0
    """Text smaller than this (font size times the text and transformation matrices' scale) must
    be in one ink; 0: not checked."""
    severity: Severity = "warning"
    """How such text is reported."""


class RenderedRule(Node):
    """A rule preflight checks on the page rendered (pypdfium2, 72 dpi), or on a face image."""

    check: bool = True
    """False: not checked."""
    severity: Severity = "warning"
    """How a page that breaks it is reported."""


class ShopRules(Node):
    """The shop-dependent rules preflight reads in a finished file, each a warning or an error as
    the profile says. Values and their sources: docs/shops.md."""

    spot_colours: SpotColours = SpotColours()
    """Spot colours allowed, converted or refused."""
    line_width: LineWidth = LineWidth()
    """The thinnest line."""
    small_text: SmallText = SmallText()
    """The smallest text that may be printed in more than one ink."""
    blank_faces: RenderedRule = RenderedRule()
    """A card face whose area inside the trim is one flat colour (or empty)."""
    bleed_art: RenderedRule = RenderedRule(severity="error")
    """Art that stops at the trim: inked just inside the trim, blank paper in the bleed beside
    it. An error unless the profile says otherwise."""


class Profile(Node):
    label: str
    """The shop's name as printed in messages."""
    use: bool = True
    """False: the project does not print at this shop (a project's print/profiles/<name>.yaml
    holding `use: false` over printshop's own): no files are made for it, and nothing is checked
    against it."""
    files: Literal["pdf-per-deck", "pdf-per-card-size", "png-per-face", "pdf-fronts-backs"]
    """How the shop wants its files: pdf-per-deck (one PDF per deck), pdf-per-card-size (one PDF per
    card size), png-per-face (one image per face) or pdf-fronts-backs (per deck, a file of fronts
    and one of backs, card n on page n of each)."""
    bleed: Extent
    """How far faces are drawn past the trim in this shop's files."""
    safe: Extent
    """No text or icon closer to the trim than this."""
    products: dict[str, Product] = {}
    """Our card sizes, each with the shop's product it is sent as; sizes not listed are not sent to
    this shop (none listed: all, as they are)."""
    pixels: Pixels | None = None
    """png-per-face: each image's exact size."""
    page_order: Literal["front-back", "back-front"] = "front-back"
    """Which comes first in the file for each card: its front or its back."""
    colour: ProfileColour = ProfileColour()
    """The colours the shop's files use."""
    pdfx: OutputIntent | None = None
    """The PDF/X output intent; none: plain PDF."""
    min_dpi: float = Field(default=300, gt=0)
    """The least resolution of images at their placed size."""
    transparency: bool = True
    """Whether the shop accepts transparency; false: no soft masks and no opacity below 1
    (PDF/X-1a)."""
    image_alpha: bool = False
    """Face images (PNG, JPEG) may keep an alpha channel (a printed card has none)."""
    dieline: Dieline = Dieline()
    """How the shop wants die lines on die-cut pieces (tuck boxes): their spot colours' names, the
    colours a proof shows them in, their width."""
    rules: ShopRules = ShopRules()
    """The shop-dependent rules preflight checks in a finished file (spot colours, thin lines, small
    text in several inks, blank faces, art reaching the bleed)."""
    leaves_out: dict[str, str] = {}
    """What the shop is known not to take, and why: card sizes, "sheets", "booklets",
    "tuck-boxes". Still reported
    (press-left-out), but as acknowledged, so `validate --strict` passes; anything else left out
    fails it."""

    def product(self, card_size: str) -> Product | None:
        if not self.products:
            return Product(trim=card_size)
        return self.products.get(card_size)

    def safe_for(self, card_size: str) -> float:
        product = self.product(card_size)
        return product.safe if product is not None and product.safe is not None else self.safe
