"""The schema of data/print/targets/: outputs that are neither kits nor press files (Tabletop
Simulator, cutters, contact sheets, images).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from printshop.project.models.values import Extent, HexColour, Identifier, Size
from printshop.project.schema import Node


# --- data/print/targets/: outputs that are neither kits nor press files -------------------------
class Box(Node):
    width: Size
    """Width."""
    height: Size
    """Height."""


class TtsPiece(Node):
    """A piece Tabletop Simulator has built in, which a game's all-in-one save adds."""

    object: str
    """Its name in TTS's saves: `Die_20`, `Chip_10`, ...."""
    count: int = Field(default=1, ge=1, le=200)
    """How many; more than one come in a bag."""
    name: str
    """The game's text that names it (the bag, for more than one); else this id."""
    piece: str | None = None
    """For more than one: the game's text that names each piece in the bag ("Token"); none: as
    the bag."""
    colour: str | None = None
    """A colour of the palette it is tinted with (a ballot box in the party's red, apart from the
    grey bag beside it); none: TTS's own."""


class TtsTarget(Node):
    """data/print/targets/tts.yaml: Tabletop Simulator's custom decks, boards and tiles."""

    label: str
    """The target's name as printed in messages."""
    max_columns: int = Field(default=10, ge=2, le=10)
    """The most cards across a face sheet (Tabletop Simulator reads at most 10)."""
    max_rows: int = Field(default=7, ge=2, le=7)
    """The most cards down a face sheet (Tabletop Simulator reads at most 7)."""
    min_columns: int = Field(default=2, ge=1, le=10)
    """The fewest cards across a sheet (its import dialogue starts at 2)."""
    min_rows: int = Field(default=2, ge=1, le=7)
    """The fewest cards down a sheet."""
    max_pixels: int = Field(default=4096, ge=256, le=16384)
    """The most pixels on either side of any image."""
    card_dpi: float = Field(default=300, gt=0)
    """Resolution of the cards in face sheets: a sheet takes fewer cards across and down where ten
    by seven would exceed `max_pixels` (the deck takes more sheets); lowered only where even the
    least grid would."""
    min_card_pixels: int = Field(default=256, ge=16)
    """Small cards (counters) get at least this many pixels on their shorter side."""
    sheet_dpi: float = Field(default=100, gt=0)
    """Resolution of boards and player sheets, lowered where an image would exceed `max_pixels`."""
    hidden: str = "ink-soft"
    """A one-sided deck's hidden-card image (the last slot of each face sheet): a plain colour from
    colours.yaml."""
    card_at_scale_1: Box
    """The size a card has in Tabletop Simulator at scale 1; other card sizes are scaled from it."""
    min_card_scale: float = Field(default=0.5, gt=0)
    """Cards smaller than this share of that size are enlarged to it (counters would be too small to
    read)."""
    tile_at_scale_1: Size
    """The width a custom tile or board has at scale 1; sheets are scaled from it."""
    base_url: str = ""
    """What FaceURL, BackURL and ImageURL start with: the web folder the images are uploaded to
    (empty: bare file names, to be replaced after uploading; see the README). `file://`: each
    file's absolute file:/// URL in the output folder, for a table on this machine only."""
    stock: dict[str, list[TtsPiece]] = {}
    """Pieces the rules need that the kit does not print, by game id (a die, tokens the players
    supply): each added to the game's all-in-one save."""
    split_by: list[str] = []
    """Card vars that split a deck on the table: a deck whose cards hold one becomes one deck per
    value, named by the text `<deck>.<var>.<value>` (markers.faction.f1), and one of the cards
    without it."""
    tiles: list[str] = ["counter"]
    """Card media (a card size's `medium`) whose one-sided chits go on the table as thick,
    stackable tiles in bags, not cards: a bag per part `split_by` makes, and for the chits without
    its var a bag per face, named by what it prints."""
    notebook: dict[str, list[Identifier]] = {}
    """Sheets a player fills in secret, by game id: in the all-in-one save, the sheet's text in a
    Notebook tab of each player colour (only that player reads it) and one tile of the sheet to
    look at, not a tile per copy."""
    table: str = "Table_RPG"
    """The table the all-in-one save opens on (Games > Save & Load): TTS's name for it."""
    sky: str = "Sky_Museum"
    """The surroundings it opens in: TTS's name for them."""
    player_colours: dict[str, tuple[float, float, float]] = {}
    """TTS's seat colours and their red, green and blue (0 to 1), in its order: a Notebook tab
    of one of them is private to the player in that seat."""
    rules: bool = True
    """The rule booklet on the table: `<game>-<lang>-rules.pdf` (the kit's booklet, one page
    after another, on the booklet's paper) beside the saves, and a PDF object in the all-in-one
    save (and `-rules.json`) whose pages players turn in Tabletop Simulator."""


class RegistrationMarks(Node):
    """A cutter's optical marks, as its software draws them: they must match its settings exactly."""

    style: Literal["silhouette"]
    """silhouette: a filled square at the top left, L-shaped corners at the top right and bottom
    left."""
    inset: Extent
    """From the paper's edges to the outer edges of the marks."""
    square: Size
    """Side of the filled square."""
    length: Size
    """Length of each arm of the L-shaped marks."""
    thickness: Size
    """Line width of the L-shaped marks."""
    clearance: Extent = 0.0
    """No face comes closer to a mark's line than this (the sensor needs white round it)."""


class CutTarget(Node):
    """data/print/targets/cut/<cutter>.yaml: pages and cut files for a print-and-cut machine."""

    label: str
    """The cutter's name as printed in messages."""
    papers: list[str]
    """The papers (names from media.yaml) pages are laid out for."""
    marks: RegistrationMarks | None = None
    """The registration marks printed on each page of fronts; none: the cutter's software prints its
    own."""
    area: Box | None = None
    """The largest area the cutter's software prints and cuts (Cricut's Print Then Cut): pages are
    this size and the faces stay inside it; none: the paper, inside the marks."""
    gap: Extent = 0.0
    """Space between neighbouring faces' printed bleeds, so the blade never cuts a neighbour."""
    bleed: Extent = 0.0
    """Bleed printed round each face (at most the face's own): the cut may wander this far."""
    image_dpi: int | None = Field(default=None, ge=72, le=1200)
    """Also write each page of fronts as a PNG at this resolution (for software that takes images,
    not PDFs)."""
    outline_colour: HexColour = "#ff0000"
    """Stroke colour of the outlines in the SVG cut files."""


class ContactSheet(Node):
    columns: int = Field(ge=1, le=50)
    """Cards across."""
    gap: int = Field(ge=0, le=500)
    """Pixels between cards and round the edge."""
    background: HexColour = "#ffffff"
    """Colour behind the cards."""


class ImageTarget(Node):
    """data/print/targets/images/<name>.yaml: one image per face, for a web page or an online table."""

    label: str
    """The target's name as printed in messages."""
    card_dpi: float = Field(gt=0, le=1200)
    """Resolution of card faces; every face of a deck gets the same pixel size."""
    min_card_pixels: int = Field(default=64, ge=1, le=8192)
    """Small cards (counters) get at least this many pixels on their longer side."""
    sheet_dpi: float = Field(gt=0, le=1200)
    """Resolution of sheets (boards, player sheets); every item of a sheet gets the same pixel size."""
    max_pixels: int = Field(default=4096, ge=16, le=16384)
    """The most pixels on either side of any image (large boards are held to it)."""
    rounded: bool = False
    """Cut the corners round (card size's corner_radius) and leave them transparent."""
    contact_sheet: ContactSheet | None = None
    """Also one image per deck with every distinct face of it."""
    digital_table: bool = False
    """The images are for a table played online (Tabletopia, Screentop): they hold the decks made
    only for digital tables (a deck's `digital_only`) too; else (previews for a web page) only the
    decks paper gets."""
