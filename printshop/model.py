"""The schema of the data files: what each file may say, with units and defaults.

These models describe data only; they hold no game logic. Every model is a `Node`, so each
value can say where in which file it was written.
"""
from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from printshop.schema import Length, Node

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _hex_colour(value: str) -> str:
    if not _HEX.match(value):
        raise ValueError(f"'{value}' is not a colour: write #rrggbb, for example #b3261e")
    return value.lower()


def _identifier(value: str) -> str:
    if not _ID.match(value):
        raise ValueError(f"'{value}' is not a valid id: use lower-case letters, digits, '-' and '_'")
    return value


HexColour = Annotated[str, AfterValidator(_hex_colour)]
Identifier = Annotated[str, AfterValidator(_identifier)]
Expression = Annotated[str, Field(min_length=1)]


# --- data/print/media.yaml --------------------------------------------------------------
class CardSize(Node):
    width: Length
    height: Length
    label: str = ""


class Paper(Node):
    width: Length
    height: Length
    label: str = ""


class CropMarks(Node):
    length: Length
    gap: Length
    width: Length
    colour: str = "ink"


class PageFooter(Node):
    font: str
    size: Length
    colour: str = "ink"
    baseline: Length = 0.0  # the lowest the text may sit above the paper's bottom edge


class PrintAndPlay(Node):
    papers: list[str]
    margin: Length
    outer_bleed: Length = 0.0
    tile_margin: Length  # tiled sheets: the paper's margin around each printed window
    gutterfold_bleed: Length = 0.0  # gutterfold sheets: bleed round each card, halved if it does not fit
    fold_gap: Length = 0.0  # gutterfold sheets: from the fold line to the nearest bleed
    crop_marks: CropMarks
    footer: PageFooter


class Media(Node):
    card_sizes: dict[str, CardSize]
    papers: dict[str, Paper]
    print_and_play: PrintAndPlay


# --- data/print/profiles/<name>.yaml: what a print shop accepts ----------------------------
class ProfileColour(Node):
    space: Literal["rgb", "cmyk"] = "rgb"
    ink_limit: float | None = Field(default=None, gt=0, le=400)  # percent of total ink
    rich_black: list[float] | None = Field(default=None, min_length=4, max_length=4)  # C, M, Y, K percent


class Pixels(Node):
    width: int = Field(ge=1, le=20000)
    height: int = Field(ge=1, le=20000)


class Product(Node):
    """What the shop makes of one of our card sizes: its own trim (a card size in media.yaml), onto
    which our faces are scaled to cover, and the safe zone if it differs from the profile's."""
    trim: str
    safe: Length | None = None


class OutputIntent(Node):
    """The PDF/X output intent: a registered characterization (no ICC profile need be embedded)."""
    version: Literal["PDF/X-1a:2003"] = "PDF/X-1a:2003"
    condition: str  # OutputConditionIdentifier, e.g. "CGATS TR 001" (SWOP)
    registry: str = "http://www.color.org"
    info: str = ""


class Profile(Node):
    label: str
    files: Literal["pdf-per-deck", "pdf-per-card-size", "png-per-face"]
    bleed: Length
    safe: Length
    # our card size -> the shop's product; sizes not listed are not sent to this shop (none listed: all, as they are)
    products: dict[str, Product] = {}
    pixels: Pixels | None = None  # png-per-face: each image's exact size
    page_order: Literal["front-back", "back-front"] = "front-back"
    colour: ProfileColour = ProfileColour()
    pdfx: OutputIntent | None = None
    min_dpi: float = Field(default=300, gt=0)  # images at their placed size
    transparency: bool = True  # False: no soft masks, no alpha below 1 (PDF/X-1a)

    def product(self, card_size: str) -> Product | None:
        if not self.products:
            return Product(trim=card_size)
        return self.products.get(card_size)

    def safe_for(self, card_size: str) -> float:
        product = self.product(card_size)
        return product.safe if product is not None and product.safe is not None else self.safe


# --- data/print/fonts.yaml --------------------------------------------------------------
class FontFamily(Node):
    regular: str
    bold: str
    italic: str
    bold_italic: str


class FontFallback(Node):
    file: str
    characters: str


class Fonts(Node):
    families: dict[str, FontFamily]
    fallback: FontFallback | None = None


# --- data/print/colours.yaml ------------------------------------------------------------
class Colours(Node):
    palette: dict[str, HexColour]


# --- data/print/motifs.yaml: vector art, SVG path syntax in a view box ------------------
class MotifPath(Node):
    d: str = ""
    circle: list[float] | None = None  # cx, cy, r
    rule: Literal["nonzero", "evenodd"] = "nonzero"


class Motif(Node):
    viewbox: list[float] = Field(min_length=2, max_length=2)
    paths: list[MotifPath]


class Motifs(Node):
    motifs: dict[str, Motif]


# --- data/print/booklet.yaml ------------------------------------------------------------
class TextStyle(Node):
    font: str
    size: Length
    min_size: Length | None = None
    leading: float = Field(default=1.2, gt=0.5, lt=3)
    colour: str = "ink"
    align: Literal["left", "center", "right", "justify"] = "left"
    space_before: Length = 0.0
    space_after: Length = 0.0
    indent: Length = 0.0
    uppercase: bool = False


class BookletMargins(Node):
    top: Length
    bottom: Length
    inner: Length
    outer: Length


class BookletTables(Node):
    space_before: Length = 0.0
    space_after: Length = 0.0
    padding: Length = 0.0  # above and below each cell's text
    grid: str = "grey"
    grid_width: Length = 0.0


class BookletStyle(Node):
    paper: str
    margins: BookletMargins
    styles: dict[str, TextStyle]
    folio: PageFooter
    tables: BookletTables = BookletTables()
    rule_colour: str = "red"  # folio rules and table headers


# --- data/languages/<lang>.yaml ---------------------------------------------------------
class Typography(Node):
    space_before: str = ""  # punctuation preceded by `space` (French: ; : ! ? »)
    space_after: str = ""  # punctuation followed by `space` (French: «)
    space: str = "\u202f"
    replace: dict[str, str] = {}


class Language(Node):
    name: str
    native_name: str
    typography: Typography = Typography()
    # words printshop itself prints on pages (footers): fronts, backs, page ("{page}/{pages}")
    labels: dict[str, str]


# --- data/<game>/faces.yaml: card face layouts ------------------------------------------
class Frame(TextStyle):
    x: Length
    y: Length
    width: Length
    height: Length
    valign: Literal["top", "middle", "bottom"] = "top"
    rotate: Literal[0, 180] = 0


class Shape(Node):
    kind: Literal["rect", "line", "circle", "motif", "rays", "image"]
    x: Length = 0.0
    y: Length = 0.0
    width: Length = 0.0
    height: Length = 0.0
    radius: Length = 0.0
    fill: str | None = None
    stroke: str | None = None
    stroke_width: Length = 0.0
    motif: str | None = None
    src: str | None = None  # image: a file in the game's folder, e.g. images/seal.png
    rotate: float = 0.0
    count: int = Field(default=16, ge=2, le=128)  # rays
    layer: int = 0  # lower layers are painted first; equal layers in the order written


class Face(Node):
    abstract: bool = False
    extends: str | None = None
    template: str | None = None
    background: str | None = None
    shapes: dict[str, Shape] = {}
    frames: dict[str, Frame] = {}


class FacesFile(Node):
    faces: dict[str, Face]


# --- data/<game>/game.yaml ----------------------------------------------------------------
class CardEntry(Node):
    id: Identifier
    kind: Identifier
    count: int = Field(default=1, ge=1, le=1000)
    front: str
    back: str | None = None  # None: the deck's common back
    vars: dict[str, str | int] = {}
    reconstructed: str | None = None


class Deck(Node):
    card_size: str
    bleed: Length
    safe: Length
    back: str | None = None  # None: one-sided (markers); no pages of backs are printed
    cards: list[CardEntry]


class Sequence(Node):
    var: str
    start: int = 1


class OneEach(Node):
    var: str
    values: list[str | int]


class Allowed(Node):
    """The values a card var may take: listed, or the ids of the board's offices."""

    var: str
    values: list[str | int] = []
    offices: bool = False


class Tie(Node):
    """A var that a game rule uses to break ties: equal values are a warning, not an error."""

    var: str
    rule: str
    acknowledged: str | None = None  # why the tie is kept: still reported, but --strict passes


class Composition(Node):
    """What a deck must hold: counts per kind, and rules over the cards' `vars`."""

    deck: str
    total: int | None = Field(default=None, ge=0)
    kinds: dict[str, int] = {}
    unique: list[str] = []  # vars whose values differ from card to card
    sequence: list[Sequence] = []  # vars numbered start, start+1, ... without a gap
    one_each: list[OneEach] = []  # vars taking each listed value exactly once
    allowed: list[Allowed] = []
    ties: list[Tie] = []


class SetupNeed(Node):
    deck: str
    kind: str
    count: Expression | dict[int, int]  # an expression in n, or a value per player count


class Players(Node):
    min: int = Field(ge=1, le=100)
    max: int = Field(ge=1, le=100)


class Setup(Node):
    variable: str = "n"
    needs: list[SetupNeed]
    total: Expression | None = None  # what the needs must add up to, e.g. "n": one card per player
    limits: dict[str, int] = {}  # the most of a kind the material holds (a standard deck: 12 royal cards)


class BookletSpec(Node):
    template: str


class Reconstructed(Node):
    """Something the sources lack that the project designed: a text id, card id or face name."""

    what: str
    why: str


class Office(Node):
    """A place on the board, in rank order (the first is the top)."""

    id: Identifier
    level: str
    purge: int = Field(ge=1, le=20)


class Phase(Node):
    """A phase of the turn; `acts` is the office that acts, `succession` who acts in its place, in
    order (printed as the codes <number>A, <number>B, ...)."""

    number: int = Field(ge=1)
    id: Identifier
    acts: str | None = None
    succession: list[str] = []


class HealthRow(Node):
    """One line of the d20 health table: what a roll from..to does at work and at the cure."""

    low: int = Field(alias="from", ge=1, le=20)
    high: int = Field(alias="to", ge=1, le=20)
    at_work: Identifier
    at_cure: Identifier


class Board(Node):
    offices: list[Office]
    candidates: int = Field(ge=0)
    candidate_purge: int = Field(ge=1, le=20)
    phases: list[Phase]
    promotions: list[str] = []  # the order in which offices are filled (codes 6A, 6B, ...)
    promotion_phase: int | None = None
    parade_years: int = Field(default=11, ge=1)
    health: list[HealthRow] = []


class SheetItem(Node):
    """One sheet of a set (a role sheet, the setup for 5 players...): its own vars, maybe its own face."""

    id: Identifier
    face: str | None = None
    vars: dict[str, str | int] = {}
    reconstructed: str | None = None


class SheetSpec(Node):
    """A page-sized (or larger) component drawn from a face: a board, player sheets, aids. With
    `items`, a set of such sheets, each with its own vars. Larger than the paper, a sheet is tiled
    for home printing; `per_page: 2` puts two side by side on turned paper, scaled to fit, with a
    cut line between; a press file gets one page per sheet with bleed."""

    face: str
    items: list[SheetItem] = []
    width: Length
    height: Length
    bleed: Length = 0.0
    copies: int = Field(default=1, ge=1, le=20)  # pages of it in a print-and-play file
    tiled: bool = False
    overlap: Length = 0.0
    per_page: Literal[1, 2] = 1
    press: bool = False  # also write a press file: one page, trim plus bleed, TrimBox and BleedBox


class Range(Node):
    min: int = Field(ge=0)
    max: int = Field(ge=0)


class GoalDeck(Node):
    """A goal deck built from the roles dealt (Comrade Stalin): for each dealt role with goals, its rank
    in every goal suit; one card in `discard` set aside; the `extra_rank` of each suit added; `deal`
    to each player with goals; `remain` must be left. Checked for every roster the rules allow."""

    deck: str
    always: list[str]
    others: Range
    no_goal_cards: list[str] = []
    suits: list[str]
    discard: int = Field(ge=2)
    extra_rank: str
    deal: int = Field(ge=1)
    remain: int = Field(ge=0)
    tokens: int | None = Field(default=None, ge=0)


class Variant(Node):
    overrides: list[str]
    reconstructed: str | None = None


class Game(Node):
    title: str
    source_language: str
    players: Players
    minutes: int = Field(ge=1)
    decks: dict[str, Deck]
    composition: list[Composition] = []
    setup: Setup | None = None
    booklet: BookletSpec | None = None
    board: Board | None = None
    goal_deck: GoalDeck | None = None
    sheets: dict[str, SheetSpec] = {}
    # placeholders every text may use, each standing for another text: {mafias} -> role.mafia.plural
    text_variables: dict[str, str] = {}
    # naming variants (printshop build --variant NAME): texts under variant.NAME.* replace the ids they
    # name; each variant must give every id listed in `overrides`
    variants: dict[str, "Variant"] = {}
    reconstructed: list[Reconstructed] = []
