"""The schema of data/print/media.yaml: card sizes, papers, crop marks, the print-and-play kit and
the design rules every face follows.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from printshop.project.models.values import Extent, Identifier, Size
from printshop.project.schema import Node
from printshop.project.units import mm


# --- data/print/media.yaml --------------------------------------------------------------
class CardSize(Node):
    width: Size
    """Width of the card at the trim, where it is cut."""
    height: Size
    """Height of the card at the trim."""
    label: str = ""
    """The name printed for people, e.g. "poker 63 × 88 mm"."""
    corner_radius: Extent = 0.0
    """The radius the corners are rounded to when cut: drawn on previews and cut outlines only,
    never on print-and-play sheets or press files (a shop that rounds corners does it with its own
    die)."""
    medium: str = "card"
    """How the card is read, for the design rules (`design.media` in media.yaml): `card` in the
    hand, `counter` for a small chit on the table."""


class Paper(Node):
    width: Size
    """Width of the sheet of paper."""
    height: Size
    """Height of the sheet of paper."""
    label: str = ""
    """The name printed for people, e.g. "A4"."""


class CropMarks(Node):
    length: Extent
    """How long each crop mark is."""
    gap: Extent
    """Space left between the card's corner and its crop mark."""
    width: Extent
    """Line width of the crop marks."""
    colour: str = "ink"
    """Colour of the marks: a name from colours.yaml."""


class LowInk(Node):
    """How a `--low-ink` kit keeps each face's identity with little ink (docs/design.md, "Derived
    files"): backgrounds white, a coloured one kept as a band of hatching, knock-outs outlined,
    sunbursts as lines."""

    tint: float = Field(default=0.25, gt=0, le=1)
    """The share of its colour a large filled area keeps (0.25: a quarter)."""
    accent: Extent = mm(15)
    """A filled shape no wider or higher than this (a pip, a star, an emblem) keeps its full colour;
    a larger one its tint, outlined in the full colour."""
    outline: Size = mm(0.25)
    """Width of the outlines that stand for fills: knock-outs and large areas."""
    hatch_width: Size = mm(0.2)
    """Width of the hatching lines that stand for a coloured background, and of a sunburst's lines."""
    hatch_pitch: Size = mm(1.4)
    """From one hatching line to the next; a sunburst's lines start where they stand this far
    apart."""
    hatch_band: Extent = mm(2)
    """How far inside the trim the hatching reaches; the face's middle stays white."""
    coverage: float = Field(default=15, gt=0, le=100)
    """The most ink a low-ink file may lay on average over its pages, in percent of the page (the
    densest channel's tone): what the tests hold every low-ink file of the project to."""
    back_coverage: float = Field(default=10, gt=0, le=100)
    """The most ink one card back of a low-ink file may lay, in percent of the card: a back is drawn
    as outlines (its frame and emblem), a light touch, so that a duplex page of backs costs little."""


class Calibration(Node):
    """The duplex calibration page's rulers (render/calibration.py): a millimetre ruler across the
    front's upright line and one along its level line, on the back."""

    reach: Extent = mm(50)
    """How far each ruler runs on either side of its zero: 50 mm makes rulers 100 mm long."""
    tick: Size = mm(1)
    """From one tick to the next; every fifth is longer and numbered, every tenth longer still."""


class PageFooter(Node):
    font: str
    """Font face of the footer (a family from fonts.yaml, optionally with -bold, -italic or
    -bold-italic)."""
    size: Size
    """Type size."""
    colour: str = "ink"
    """Text colour: a name from colours.yaml."""
    baseline: Extent = 0.0
    """The lowest the text may sit above the paper's bottom edge."""


class CardSheetLayout(Node):
    """How a card sheet lays one card size out on one paper."""

    turn: Literal[0, 90, 270] = 0
    """How far the cards are turned on the page, in degrees counter-clockwise: 90 puts a card's top
    at the page's left edge (270 at its right), for a card size that fits more to a page lying on
    its side. Each back is turned so that its top lies behind its front's top once the sheet is
    turned over for the duplex `--flip`."""


class PrintAndPlay(Node):
    papers: list[str]
    """The papers (names from `papers`) print-and-play kits are built for."""
    margin: Extent
    """No card comes closer to the paper's edge than this."""
    outer_bleed: Extent = 0.0
    """How far the outer cards of a sheet are drawn past their trim."""
    tile_margin: Extent
    """Tiled sheets: the paper's margin around each printed window."""
    tile_cover: float = Field(default=0.6, ge=0, lt=1)
    """Tiled sheets: how much paper white veils the strip of a tile that its neighbour lies over
    once taped (0.6: the board shows at 40 %), with a hatching of a third of that strength: what prints twice reads as
    the margin to glue under, not as words cut at the window's edge."""
    gutterfold_bleed: Extent = 0.0
    """Gutterfold sheets: bleed round each card, halved if it does not fit."""
    fold_gap: Extent = 0.0
    """Gutterfold sheets: from the fold line to the nearest bleed."""
    min_dpi: float = Field(default=150, gt=0)
    """The least resolution of an image at its placed size for a home print: below it, validate and
    build refuse the image (`image-resolution`). Print shops need more, checked per shop
    (`press-art`, their `min_dpi`)."""
    crop_marks: CropMarks
    """How crop marks are drawn in the margins."""
    card_sheets: dict[Identifier, dict[Identifier, CardSheetLayout]] = {}
    """Card sheets laid out otherwise than upright, by paper then card size (names from `papers` and
    `card_sizes`): `letter: {poker-eu: {turn: 90}}` puts poker cards on their side on Letter, 2 × 4
    to a page where upright cards leave room for 3 × 2 only."""
    footer: PageFooter
    """The footer of every page (file name and page number)."""
    low_ink: LowInk = LowInk()
    """How `--low-ink` kits draw faces with little ink."""
    calibration: Calibration = Calibration()
    """The duplex calibration page's rulers."""
    press_profile: str = "eu-3mm"
    """The print-shop profile (data/print/profiles/) the kit's press pages (boards, role sheets)
    follow: its bleed, colours and PDF/X, so a kit's press file is what that shop takes."""


class DesignMedium(Node):
    """What type on one medium (card, counter, sheet, board) must be to read at its distance."""

    min_type: Size
    """The smallest type size any frame of this medium may print (its `min_size`, or its `size` when
    it never shrinks): `validate` reports a smaller one (type-too-small)."""
    reading: str = ""
    """How far the medium is read from, for people: "in the hand", "across the table (60 cm)"."""
    inset: Extent | None = None
    """The least room between a text and its band's or box's edge on this medium; none: the
    design's `inset`. 0 checks only that no text crosses an edge."""


class Design(Node):
    """The measurable part of the design system (docs/design.md), checked by `validate`."""

    media: dict[Identifier, DesignMedium] = {}
    """The media by name: a card size's `medium` and a sheet's `medium` name one of them."""
    inset: Size = mm(1.5)
    """The least room between a text and the edge of the band or box it sits in (a filled or
    outlined rect or circle of its face, the inside of its outline): `validate` reports a text that
    comes closer (text-inset)."""


class Media(Node):
    card_sizes: dict[Identifier, CardSize]
    """Card sizes by name (the name is what a deck's `card_size` says)."""
    papers: dict[Identifier, Paper]
    """Paper sizes by name (`a4`, `letter`)."""
    print_and_play: PrintAndPlay
    """Settings of the print-and-play sheets."""
    design: Design = Design()
    """The design rules every face follows: the smallest type per medium (docs/design.md)."""
