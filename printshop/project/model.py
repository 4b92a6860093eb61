"""The schema of the data files: what each file may say, with units and defaults.

These models describe data only; they hold no game logic. Every model is a `Node`, so each
value can say where in which file it was written.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from printshop import memos
from printshop.project.schema import Length, Node

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _hex_colour(value: str) -> str:
    if not _HEX.match(value):
        raise ValueError(f"'{value}' is not a colour: write #rrggbb, for example #b3261e")
    return value.lower()


def _identifier(value: str) -> str:
    if not _ID.match(value):
        raise ValueError(
            f"'{value}' is not a valid id: use lower-case letters, digits, '-' and '_'"
        )
    return value


def _in_mm(points: float) -> str:
    """A length for a message, in millimetres to the hundredth: -3pt reads -1.06 mm, not -1.05833 mm."""
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
# ids that become parts of file names (decks, sheets, variants, papers, card sizes) are Identifiers too:
# nothing in them can climb out of the output folder or be read as a format field
Identifier = Annotated[str, AfterValidator(_identifier)]
Size = Annotated[Length, AfterValidator(_positive)]  # widths, heights, type sizes: more than 0
Extent = Annotated[Length, AfterValidator(_not_negative)]  # bleeds, margins, gaps: 0 or more
Expression = Annotated[str, Field(min_length=1)]


# --- data/print/media.yaml --------------------------------------------------------------
class CardSize(Node):
    width: Size
    """Width of the card at the trim, where it is cut."""
    height: Size
    """Height of the card at the trim."""
    label: str = ""
    """The name printed for people, e.g. "poker 63 × 88 mm"."""
    corner_radius: Extent = 0.0
    """The radius the corners are rounded to when cut: drawn on previews and cut outlines only, never on print-and-play
    sheets or press files (a shop that rounds corners does it with its own die)."""
    medium: str = "card"
    """How the card is read, for the design rules (`design.media` in media.yaml): `card` in the hand, `counter` for
    a small chit on the table."""


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


class PageFooter(Node):
    font: str
    """Font face of the footer (a family from fonts.yaml, optionally with -bold, -italic or -bold-italic)."""
    size: Size
    """Type size."""
    colour: str = "ink"
    """Text colour: a name from colours.yaml."""
    baseline: Extent = 0.0
    """The lowest the text may sit above the paper's bottom edge."""


class CardSheetLayout(Node):
    """How a card sheet lays one card size out on one paper."""

    turn: Literal[0, 90, 270] = 0
    """How far the cards are turned on the page, in degrees counter-clockwise: 90 puts a card's top at the page's
    left edge (270 at its right), for a card size that fits more to a page lying on its side. Each back is turned
    so that its top lies behind its front's top once the sheet is turned over for the duplex `--flip`."""


class PrintAndPlay(Node):
    papers: list[str]
    """The papers (names from `papers`) print-and-play kits are built for."""
    margin: Extent
    """No card comes closer to the paper's edge than this."""
    outer_bleed: Extent = 0.0
    """How far the outer cards of a sheet are drawn past their trim."""
    tile_margin: Extent
    """Tiled sheets: the paper's margin around each printed window."""
    gutterfold_bleed: Extent = 0.0
    """Gutterfold sheets: bleed round each card, halved if it does not fit."""
    fold_gap: Extent = 0.0
    """Gutterfold sheets: from the fold line to the nearest bleed."""
    min_dpi: float = Field(default=150, gt=0)
    """The least resolution of an image at its placed size for a home print: below it, validate and build refuse
    the image (`image-resolution`). Print shops need more, checked per shop (`press-art`, their `min_dpi`)."""
    crop_marks: CropMarks
    """How crop marks are drawn in the margins."""
    card_sheets: dict[Identifier, dict[Identifier, CardSheetLayout]] = {}
    """Card sheets laid out otherwise than upright, by paper then card size (names from `papers` and
    `card_sizes`): `letter: {poker-eu: {turn: 90}}` puts poker cards on their side on Letter, 2 × 4 to a page
    where upright cards leave room for 3 × 2 only."""
    footer: PageFooter
    """The footer of every page (file name and page number)."""
    press_profile: str = "eu-3mm"
    """The print-shop profile (data/print/profiles/) the kit's press pages (boards, role sheets) follow: its bleed,
    colours and PDF/X, so a kit's press file is what that shop takes."""


class DesignMedium(Node):
    """What type on one medium (card, counter, sheet, board) must be to read at its distance."""

    min_type: Size
    """The smallest type size any frame of this medium may print (its `min_size`, or its `size` when it never
    shrinks): `validate` reports a smaller one (type-too-small)."""
    reading: str = ""
    """How far the medium is read from, for people: "in the hand", "across the table (60 cm)"."""


class Design(Node):
    """The measurable part of the design system (docs/design.md), checked by `validate`."""

    media: dict[Identifier, DesignMedium] = {}
    """The media by name: a card size's `medium` and a sheet's `medium` name one of them."""


class Media(Node):
    card_sizes: dict[Identifier, CardSize]
    """Card sizes by name (the name is what a deck's `card_size` says)."""
    papers: dict[Identifier, Paper]
    """Paper sizes by name (`a4`, `letter`)."""
    print_and_play: PrintAndPlay
    """Settings of the print-and-play sheets."""
    design: Design = Design()
    """The design rules every face follows: the smallest type per medium (docs/design.md)."""


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
    """CMYK: the ICC profile (a file in printshop/icc/) raster art is converted to; None: the FOGRA39 one."""


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
    """The PDF/X version; PDF/X-4 embeds the profile's CMYK ICC profile in the output intent (the files stay PDF
    1.4)."""
    condition: str
    """The OutputConditionIdentifier, e.g. "CGATS TR 001" (SWOP)."""
    registry: str = "http://www.color.org"
    """Where the condition is registered."""
    info: str = ""
    """A free description of the printing condition."""


class Profile(Node):
    label: str
    """The shop's name as printed in messages."""
    use: bool = True
    """False: the project does not print at this shop (a project's print/profiles/<name>.yaml holding `use: false`
    over printshop's own): no files are made for it, and nothing is checked against it."""
    files: Literal["pdf-per-deck", "pdf-per-card-size", "png-per-face", "pdf-fronts-backs"]
    """How the shop wants its files: pdf-per-deck (one PDF per deck), pdf-per-card-size (one PDF per card size),
    png-per-face (one image per face) or pdf-fronts-backs (per deck, a file of fronts and one of backs, card n
    on page n of each)."""
    bleed: Extent
    """How far faces are drawn past the trim in this shop's files."""
    safe: Extent
    """No text or icon closer to the trim than this."""
    products: dict[str, Product] = {}
    """Our card sizes, each with the shop's product it is sent as; sizes not listed are not sent to this shop (none
    listed: all, as they are)."""
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
    """Whether the shop accepts transparency; false: no soft masks and no opacity below 1 (PDF/X-1a)."""
    image_alpha: bool = False
    """Face images (PNG, JPEG) may keep an alpha channel (a printed card has none)."""
    leaves_out: dict[str, str] = {}
    """What the shop is known not to take, and why: card sizes, "sheets", "booklets". Still reported
    (press-left-out), but as acknowledged, so `validate --strict` passes; anything else left out fails it."""

    def product(self, card_size: str) -> Product | None:
        if not self.products:
            return Product(trim=card_size)
        return self.products.get(card_size)

    def safe_for(self, card_size: str) -> float:
        product = self.product(card_size)
        return product.safe if product is not None and product.safe is not None else self.safe


# --- data/print/targets/: outputs that are neither kits nor press files -------------------------
class Box(Node):
    width: Size
    """Width."""
    height: Size
    """Height."""


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
    card_dpi: float = Field(default=150, gt=0)
    """Resolution of the cards in face sheets, lowered where a sheet would exceed `max_pixels`."""
    min_card_pixels: int = Field(default=256, ge=16)
    """Small cards (counters) get at least this many pixels on their shorter side."""
    sheet_dpi: float = Field(default=100, gt=0)
    """Resolution of boards and player sheets, lowered where an image would exceed `max_pixels`."""
    hidden: str = "ink-soft"
    """A one-sided deck's hidden-card image (the last slot of each face sheet): a plain colour from colours.yaml."""
    card_at_scale_1: Box
    """The size a card has in Tabletop Simulator at scale 1; other card sizes are scaled from it."""
    min_card_scale: float = Field(default=0.5, gt=0)
    """Cards smaller than this share of that size are enlarged to it (counters would be too small to read)."""
    tile_at_scale_1: Size
    """The width a custom tile or board has at scale 1; sheets are scaled from it."""
    base_url: str = ""
    """What FaceURL, BackURL and ImageURL start with: the web folder the images are uploaded to (empty: bare file
    names, to be replaced after uploading; see the README)."""


class RegistrationMarks(Node):
    """A cutter's optical marks, as its software draws them: they must match its settings exactly."""

    style: Literal["silhouette"]
    """silhouette: a filled square at the top left, L-shaped corners at the top right and bottom left."""
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
    """The registration marks printed on each page of fronts; none: the cutter's software prints its own."""
    area: Box | None = None
    """The largest area the cutter's software prints and cuts (Cricut's Print Then Cut): pages are this size and
    the faces stay inside it; none: the paper, inside the marks."""
    gap: Extent = 0.0
    """Space between neighbouring faces' printed bleeds, so the blade never cuts a neighbour."""
    bleed: Extent = 0.0
    """Bleed printed round each face (at most the face's own): the cut may wander this far."""
    image_dpi: int | None = Field(default=None, ge=72, le=1200)
    """Also write each page of fronts as a PNG at this resolution (for software that takes images, not PDFs)."""
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


# --- data/print/fonts.yaml --------------------------------------------------------------
class FontFamily(Node):
    regular: str
    """The TrueType file of the regular face, looked up in data/fonts/, then in printshop's own fonts."""
    bold: str
    """The file of the bold face."""
    italic: str
    """The file of the italic face."""
    bold_italic: str
    """The file of the bold italic face."""


class FontFallback(Node):
    file: str
    """The TrueType file that sets the characters the families lack."""
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
    """Path data as render/faces.trace_svg_path draws it: absolute M L H V C Q Z, each with its numbers (a command
    repeated needs no letter), starting with M. A relative command (lower case) would be drawn as absolute, and
    a number short made the build fail while rendering, far from the line that has it."""
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
    """Width and height of the view box the paths are drawn in (y points down), each from 0.001 to 1,000,000."""
    paths: list[MotifPath]
    """The filled shapes of the motif, painted in order."""


class Motifs(Node):
    motifs: dict[str, Motif]
    """Motifs by name; a face's shape of kind `motif` and the booklet's `<art>` name them."""


# --- data/print/booklet.yaml ------------------------------------------------------------
class TextStyle(Node):
    font: str
    """Font face: a family from fonts.yaml, optionally with -bold, -italic or -bold-italic."""
    size: Size
    """Type size to try first."""
    min_size: Size | None = None
    """The smallest size the text may shrink to so it fits (none: it never shrinks)."""
    leading: float = Field(default=1.2, gt=0.5, lt=3)
    """Line spacing as a multiple of the type size."""
    colour: str = "ink"
    """Text colour: a name from colours.yaml."""
    align: Literal["left", "center", "right", "justify"] = "left"
    """Horizontal alignment."""
    space_before: Extent = 0.0
    """Space above each paragraph."""
    space_after: Extent = 0.0
    """Space below each paragraph."""
    indent: Extent = 0.0
    """Left indent (list items hang their bullet in it)."""
    uppercase: bool = False
    """Set the text in capitals."""


class BookletMargins(Node):
    top: Extent
    """Margin at the top of the page."""
    bottom: Extent
    """Margin at the bottom of the page (the folio sits in it)."""
    inner: Extent
    """Margin on the side of the fold."""
    outer: Extent
    """Margin on the side away from the fold."""


class BookletTables(Node):
    space_before: Extent = 0.0
    """Space above a table."""
    space_after: Extent = 0.0
    """Space below a table."""
    padding: Extent = 0.0
    """Space above and below each cell's text."""
    grid: str = "grey"
    """Colour of the table's lines: a name from colours.yaml."""
    grid_width: Extent = 0.0
    """Line width of the table's lines."""


class BookletStyle(Node):
    paper: str
    """The booklet's page: a name from `papers` in media.yaml."""
    margins: BookletMargins
    """The page margins."""
    styles: dict[str, TextStyle]
    """Paragraph styles by tag name: every block tag a booklet template emits (p, h1, h2, li, th, td, title,
    subtitle, meta, box) uses the style of its name."""
    folio: PageFooter
    """The page number at the foot of each page."""
    tables: BookletTables = BookletTables()
    """How tables look."""
    rule_colour: str = "red"
    """Colour of the folio rules and table headers."""
    characters: dict[str, str] = {}
    """Characters that print in a colour of their own wherever booklet text sets them, by colour name from
    colours.yaml; a key may name several characters. Card suits keep their colours: `"♥♦♡♢": accent` sets
    hearts and diamonds in the red the cards and setup sheets draw them in."""


# --- data/languages/<lang>.yaml ---------------------------------------------------------
def _hyphenation_language(value: str) -> str:
    import pyphen

    if pyphen.language_fallback(value) is None:
        near = sorted(
            name for name in pyphen.LANGUAGES if name.split("_")[0] == value.split("_")[0].lower()
        )
        raise ValueError(
            f"there are no hyphenation patterns for '{value}'"
            + (f" (there are: {', '.join(near)})" if near else " (write it like de_DE or fr_FR)")
        )
    return value


MAX_KEPT_WORDS = (
    200  # a language's short words are a few dozen; each is tried at every word of every text
)


def _one_word(value: str) -> str:
    if not value or any(ch.isspace() for ch in value):
        raise ValueError(
            f"'{value}' is not one word: list each short word on its own, e.g. [de, la, le]"
        )
    return value


class Typography(Node):
    hyphenation: Annotated[str, AfterValidator(_hyphenation_language)] | None = None
    """Hyphenation patterns (pyphen's name for them: de_DE, fr_FR, en_GB); none: words are never broken."""
    space_before: str = ""
    """Punctuation preceded by `space` (French: ; : ! ? »)."""
    space_after: str = ""
    """Punctuation followed by `space` (French: «)."""
    space: str = "\u202f"
    """The space put before or after that punctuation (a narrow no-break space by default)."""
    replace: dict[str, str] = {}
    """Characters replaced in every text, e.g. `"'": "’"` for typographic apostrophes."""
    quotes: list[tuple[str, str]] = [("\u201c", "\u201d")]
    """Quotation marks that open and close in this language, checked for balance ("«", "»")"""
    keep_with_next: list[Annotated[str, AfterValidator(_one_word)]] = Field(
        default=[], max_length=MAX_KEPT_WORDS
    )
    """Short words never left at the end of a line of ragged or centred text (a card's text, a title, a booklet's
    headings and list items), whatever their case: the space after each is set as a no-break space (French: à,
    de, le, la, un...; "LE / VIEUX GARDIEN" and "« La / lampe" are never set). Justified paragraphs keep their
    breaks: there a tie would open the spaces of the line above it wide."""
    numbers_with_next: bool = False
    """Whether a number stays on the line of the word after it in ragged or centred text ("perd 1 / lumière" is
    never set)."""


class LengthRatio(Node):
    """A translation's length over the length of the text it is made from: outside [min, max] is reported."""

    min: float = Field(gt=0)
    """The shortest a translation may be, as a share of its source's length."""
    max: float = Field(gt=0)
    """The longest a translation may be, as a multiple of its source's length."""


class TranslationChecks(Node):
    length: dict[str, LengthRatio] = {"*": LengthRatio(min=0.4, max=2.5)}
    """Per language a translation is made from ("en", or "*" for any): how much longer or shorter it may be."""
    length_from: int = Field(default=24, ge=1)
    """Texts shorter than this many characters are not compared by length: they vary too much."""
    doubled_words: list[str] = []
    """Words that may stand twice in a row ("nous nous")."""


class Language(Node):
    name: str
    """The language's name in English ("French"), used in messages."""
    native_name: str
    """The language's name in itself ("Français")."""
    typography: Typography = Typography()
    """The language's typographic conventions."""
    checks: TranslationChecks = TranslationChecks()
    """Thresholds of the translation checks (docs/checks.md)."""
    translated_from: str | None = None
    """The language translations into this one are made from ("pivot"), when a game has it and it is not this
    language; otherwise the game's source language. Fallback, staleness, PO msgids and status follow it."""
    labels: dict[str, str]
    """Words printshop itself prints on pages, by name: footers (fronts, backs, page "{page}/{pages}"), the
    how-to-print sheet, the calibration page; validate names any the language lacks."""


# --- data/<game>/faces.yaml: card face layouts ------------------------------------------
class Frame(TextStyle):
    x: Length
    """Left edge of the frame, from the trim's left edge."""
    y: Length
    """Top edge of the frame, from the trim's top edge (y grows downwards)."""
    width: Size
    """Width of the frame."""
    height: Size
    """Height of the frame."""
    valign: Literal["top", "middle", "bottom"] = "top"
    """Where the text sits in the frame when it is shorter than the frame."""
    rotate: Literal[0, 180] = 0
    """180 turns the frame's text upside down (for the far half of a card)."""
    size_across: Literal["deck", "card"] | None = None
    """How the fitted size is chosen across a deck: `deck` fits every card and sets all at the smallest size found,
    so one deck reads at one size; `card` lets each card take its own largest size, on purpose (a title). Left out,
    cards whose sizes differ are reported (deck-size-varies)."""


class Shape(Node):
    kind: Literal["rect", "line", "circle", "motif", "rays", "image"]
    """What to draw: rect (x, y, width, height, optional radius for round corners), line (from x, y by width across
    and height down), circle (centre x, y and radius), motif (a motif from motifs.yaml in the box x, y, width,
    height), rays (a sunburst of `count` wedges round x, y out to radius) or image (the file `src` in the box)."""
    x: Length = 0.0
    """Left edge, or centre for circle and rays, from the trim's left edge."""
    y: Length = 0.0
    """Top edge, or centre for circle and rays, from the trim's top edge (y grows downwards)."""
    width: Extent = 0.0
    """Width of the box (for a line: how far it goes right)."""
    height: Extent = 0.0
    """Height of the box (for a line: how far it goes down)."""
    radius: Extent = 0.0
    """Radius of a circle or of rays; corner radius of a rect."""
    fill: str | None = None
    """Fill colour: a name from colours.yaml; none: not filled."""
    stroke: str | None = None
    """Outline colour: a name from colours.yaml; none: no outline."""
    stroke_width: Extent = 0.0
    """Width of the outline."""
    motif: str | None = None
    """motif: the name of a motif in motifs.yaml."""
    src: str | None = None
    """image: a file in the game's folder, e.g. images/seal.png."""
    rotate: float = 0.0
    """Turn a motif or rays by this many degrees, clockwise."""
    count: int = Field(default=16, ge=2, le=128)
    """rays: how many wedges."""
    layer: int = 0
    """Lower layers are painted first; equal layers in the order written."""


class Face(Node):
    abstract: bool = False
    """A face only other faces extend; it is never printed itself."""
    extends: str | None = None
    """Another face whose keys this one starts from; its own keys are merged over them, deeply, and `null` removes
    one."""
    template: str | None = None
    """The Jinja template under templates/ that fills the frames: one `{% block %}` per frame."""
    background: str | None = None
    """Colour that fills the whole face, bleed included: a name from colours.yaml."""
    shapes: dict[str, Shape] = {}
    """Shapes by name, drawn under the text."""
    frames: dict[str, Frame] = {}
    """Text frames by name; the template's block of the same name fills each."""


class FacesFile(Node):
    faces: dict[str, Face]
    """Faces by name; cards, backs and sheets name them."""


# --- data/<game>/game.yaml ----------------------------------------------------------------
class CardEntry(Node):
    id: Identifier
    """The card's id, unique in its deck."""
    kind: Identifier
    """The card's kind; composition and setup count cards by kind."""
    count: int = Field(default=1, ge=1, le=1000)
    """How many copies of the card the deck holds."""
    front: str
    """The face printed on the card's front: a name in faces.yaml."""
    back: str | None = None
    """The face printed on the card's back; none: the deck's common back."""
    vars: dict[str, str | int] = {}
    """Values the templates read as `card.vars.<name>`, and that composition rules check."""
    reconstructed: str | None = None
    """Why this card was designed by the project where the sources are silent (listed by validate)."""


class Deck(Node):
    card_size: str
    """The cards' size: a name from `card_sizes` in media.yaml."""
    bleed: Extent
    """How far the faces are drawn past the trim."""
    safe: Extent
    """No text closer to the trim than this."""
    back: str | None = None
    """The face printed behind every card without a back of its own; none: the deck is one-sided (markers) and no
    pages of backs are printed."""
    cards: list[CardEntry]
    """The cards, in deck order."""
    shops_without_size: str | None = None
    """Why it is right that print shops which do not make this card size leave the deck out (a custom size
    printed at home, or ordered elsewhere): their `press-left-out` warnings are then acknowledged with it."""


class Sequence(Node):
    var: str
    """The card var that numbers the cards."""
    start: int = 1
    """The first number."""


class OneEach(Node):
    var: str
    """The card var."""
    values: list[str | int]
    """The values it must take, each on exactly one card."""


class Allowed(Node):
    """The values a card var may take: listed, or the ids of the board's offices."""

    var: str
    """The card var."""
    values: list[str | int] = []
    """The values it may take."""
    offices: bool = False
    """It may also take the id of any office of the board."""


class Tie(Node):
    """A var that a game rule uses to break ties: equal values are a warning, not an error."""

    var: str
    """The card var that breaks ties."""
    rule: str
    """The game rule that uses it, as shown in the warning."""
    acknowledged: str | None = None
    """Why the tie is kept: still reported, but --strict passes."""


class Composition(Node):
    """What a deck must hold: counts per kind, and rules over the cards' `vars`."""

    deck: str
    """The deck these rules are about: a name under `decks`."""
    total: int | None = Field(default=None, ge=0)
    """How many cards the deck must hold."""
    kinds: dict[str, int] = {}
    """How many cards of each kind the deck must hold."""
    unique: list[str] = []
    """Vars whose values differ from card to card."""
    sequence: list[Sequence] = []
    """Vars numbered start, start+1, ... without a gap."""
    one_each: list[OneEach] = []
    """Vars taking each listed value exactly once."""
    allowed: list[Allowed] = []
    """Vars whose values must be among those listed."""
    ties: list[Tie] = []
    """Vars that game rules use to break ties: equal values are a warning."""


class SetupNeed(Node):
    deck: str
    """The deck the cards come from."""
    kind: str
    """The kind of card."""
    count: Expression | dict[int, int]
    """An expression in n, or a value per player count."""


class Players(Node):
    min: int = Field(ge=1, le=100)
    """The fewest players."""
    max: int = Field(ge=1, le=100)
    """The most players."""


class Setup(Node):
    variable: str = "n"
    """The name of the player count in expressions."""
    needs: list[SetupNeed]
    """What a game of n players takes out of the decks, per kind."""
    total: Expression | None = None
    """What the needs must add up to, e.g. "n": one card per player."""
    limits: dict[str, int] = {}
    """The most of a kind the material holds (a standard deck: 12 royal cards)"""


class BookletSpec(Node):
    template: str
    """The Jinja template under templates/ that writes the booklet."""


class Reconstructed(Node):
    """Something the sources lack that the project designed: a text id, card id or face name."""

    what: str
    """What was designed: a text id, card id or face name."""
    why: str
    """Why, and from what."""


class Office(Node):
    """A place on the board, in rank order (the first is the top)."""

    id: Identifier
    """The office's id; texts and phases name it."""
    level: str
    """The level of the board it sits on (summit, first, second…)."""
    purge: int = Field(ge=1, le=20)
    """The purge number printed on the board for this office."""


class Phase(Node):
    """A phase of the turn; `acts` is the office that acts, `succession` who acts in its place, in
    order (printed as the codes <number>A, <number>B, ...)."""

    number: int = Field(ge=1)
    """The phase's number in the turn."""
    id: Identifier
    """The phase's id; its texts are found by it."""
    acts: str | None = None
    """The office that acts in this phase."""
    succession: list[str] = []
    """Who acts in its place when that office is inactive, in order."""


class HealthRow(Node):
    """One line of the d20 health table: what a roll from..to does at work and at the cure."""

    low: int = Field(alias="from", ge=1, le=20)
    """The lowest roll of the row (written `from`)."""
    high: int = Field(alias="to", ge=1, le=20)
    """The highest roll of the row (written `to`)."""
    at_work: Identifier
    """What the roll does to a politician at work: an outcome id."""
    at_cure: Identifier
    """What the roll does to a politician at the cure: an outcome id."""


class Board(Node):
    offices: list[Office]
    """The offices in rank order, the top first."""
    candidates: int = Field(ge=0)
    """How many candidate places the board has."""
    candidate_purge: int = Field(ge=1, le=20)
    """The purge number of the candidates."""
    phases: list[Phase]
    """The phases of a turn, in order."""
    promotions: list[str] = []
    """The order in which offices are filled (codes 6A, 6B, ...)"""
    promotion_phase: int | None = None
    """The number of the phase in which offices are filled by promotion."""
    parade_years: int = Field(default=11, ge=1)
    """How many years the parade track counts."""
    health: list[HealthRow] = []
    """The health table, one row per range of rolls."""


class SheetItem(Node):
    """One sheet of a set (a role sheet, the setup for 5 players...): its own vars, maybe its own face."""

    id: Identifier
    """The item's id, unique in its sheet."""
    face: str | None = None
    """Its own face, instead of the sheet's."""
    back: str | None = None
    """Its own back face, instead of the sheet's `back`."""
    vars: dict[str, str | int] = {}
    """Values the template reads as `card.vars.<name>` (or `item.vars.<name>`)."""
    reconstructed: str | None = None
    """Why this item was designed by the project where the sources are silent."""


class SheetSpec(Node):
    """A page-sized (or larger) component drawn from a face: a board, player sheets, aids. With
    `items`, a set of such sheets, each with its own vars. Larger than the paper, a sheet is tiled
    for home printing; `per_page: 2` puts two side by side on turned paper, scaled to fit, with a
    cut line between; a press file gets one page per sheet with bleed. With a `back`, each page of
    fronts is followed by its page of backs, placed for duplex printing."""

    face: str
    """The face drawn: a name in faces.yaml."""
    back: str | None = None
    """The face printed on the back of every item without a back of its own, on the page after its front and
    mirrored for duplex printing like card backs; none: the sheet is one-sided."""
    items: list[SheetItem] = []
    """A set of sheets from the same face, each with its own vars; none: a single sheet."""
    width: Size
    """Width of the sheet at the trim."""
    height: Size
    """Height of the sheet at the trim."""
    bleed: Extent = 0.0
    """How far the face is drawn past the trim."""
    copies: int = Field(default=1, ge=1, le=20)
    """Pages of it in a print-and-play file."""
    tiled: bool = False
    """Print it over several pages, with overlap, cut marks and an assembly page."""
    overlap: Extent = 0.0
    """Tiled sheets: how much neighbouring tiles overlap."""
    per_page: Literal[1, 2] = 1
    """2 puts two sheets side by side on turned paper, scaled to fit, with a cut line between."""
    press: bool = False
    """Also write a press file: one page, trim plus bleed, TrimBox and BleedBox."""
    medium: str = "sheet"
    """How the sheet is read, for the design rules (`design.media` in media.yaml): `sheet` in the hand, `board`
    from across the table."""


class Range(Node):
    min: int = Field(ge=0)
    """The least."""
    max: int = Field(ge=0)
    """The most."""


class GoalDeck(Node):
    """A goal deck built from the roles dealt (Comrade Stalin): for each dealt role with goals, its rank
    in every goal suit; one card in `discard` set aside; the `extra_rank` of each suit added; `deal`
    to each player with goals; `remain` must be left. Checked for every roster the rules allow."""

    deck: str
    """The deck the goal cards come from."""
    always: list[str]
    """The roles dealt in every game."""
    others: Range
    """How many other roles may be dealt."""
    no_goal_cards: list[str] = []
    """Roles whose rank is not added and who are dealt no goal cards."""
    suits: list[str]
    """The goal suits."""
    discard: int = Field(ge=2)
    """One card in this many is set aside unseen."""
    extra_rank: str
    """The rank of each goal suit added after the roles' ranks (e.g. A)."""
    deal: int = Field(ge=1)
    """Goal cards dealt to each player with goals."""
    remain: int = Field(ge=0)
    """Goal cards that must be left over."""
    tokens: int | None = Field(default=None, ge=0)
    """Tokens the kit provides; the roster's starting tokens must fit."""


class Variant(Node):
    overrides: list[str]
    """The text ids the variant must give under `variant.<name>.`."""
    reconstructed: str | None = None
    """Why the variant was designed by the project."""


class Untranslatable(Node):
    """Texts a translation may leave as in its source: `words` (a text made only of them is never
    reported) and `ids` (each with the reason, shown as an acknowledged warning)."""

    words: list[str] = []
    """Words that read the same in every language: a text made only of them is never reported."""
    ids: dict[str, str] = {}
    """Text ids that may stay as in the source, each with the reason (shown as an acknowledged warning)."""


class Game(Node):
    title: str
    """The text id of the game's name."""
    source_language: str
    """The language the game's texts are written in first; translations are compared with it."""
    players: Players
    """How many players the game is for; setup is checked for every count."""
    minutes: int = Field(ge=1)
    """How long a game takes."""
    decks: dict[Identifier, Deck]
    """The decks by id."""
    composition: list[Composition] = []
    """What each deck must hold; validate compares it with the cards."""
    setup: Setup | None = None
    """What a game of n players takes out of the decks; checked for every player count."""
    booklet: BookletSpec | None = None
    """The rules booklet."""
    board: Board | None = None
    """The board's offices, phases and health table (Kremlin), printed by the board, the phase reference and the
    booklet."""
    goal_deck: GoalDeck | None = None
    """A goal deck built from the roles dealt (Comrade Stalin), checked for every allowed roster."""
    sheets: dict[Identifier, SheetSpec] = {}
    """Boards, player sheets and aids by id."""
    text_variables: dict[str, str] = {}
    """Placeholders every text may use, each standing for another text: {mafias} -> role.mafia.plural."""
    variants: dict[Identifier, "Variant"] = {}
    """Naming variants (build, watch and serve --variant NAME): texts under variant.NAME.* replace the ids they name; each
    variant must give every id listed in `overrides`."""
    reconstructed: list[Reconstructed] = []
    """What the project designed where the sources are silent; listed by validate for review."""
    untranslatable: Untranslatable = Untranslatable()
    """Texts that may read the same in every language: names, loanwords ("Glasnost")"""
