"""The schema of data/print/booklet.yaml: the rules booklet's text styles, margins and tables."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from printshop.project.models.faces import Shape
from printshop.project.models.media import PageFooter
from printshop.project.models.styles import TextStyle
from printshop.project.models.values import Extent, Size
from printshop.project.schema import Node


# --- data/print/booklet.yaml ------------------------------------------------------------
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
    rules: Literal["grid", "rows", "none"] = "grid"
    """Which lines a table draws: `grid` every line (around it, between rows and columns), `rows`
    a line between rows, `none` only those `column_rules` and `last_rule` ask for. A table's own
    `rules="…"` attribute wins."""
    header_fill: str | None = None
    """Colour the header cells (th) are filled with: a name from colours.yaml, or `none` (default:
    `rule_colour`). A table's own `header-fill="…"` wins."""
    column_rules: bool = False
    """With `rules` rows or none: a line between columns too."""
    last_rule: bool = False
    """With `rules` rows or none: a line under the last row too."""


class BookletLists(Node):
    least_items: int = Field(default=2, ge=1)
    """The fewest items of a list on either side of a page break: a list split over a page turn
    leaves at least this many items on each page (a single item alone reads as an afterthought)."""
    keep_items: int = Field(default=6, ge=0)
    """A list of at most this many items, and no taller than `keep_share` of the page's frame, is
    never split: it stays on one page with the paragraph that introduces it (one ending with a
    colon; its last two lines or more, where it is long) and the heading above them."""
    keep_share: float = Field(default=0.34, ge=0, le=1)
    """The share of the page's frame a list kept whole may take (0.34: about a third)."""
    room_left: float = Field(default=0.25, ge=0, le=1)
    """A list kept whole splits after all (at least `least_items` on each side) where moving it to
    the next page would leave more than this share of the page's frame empty below its lead (0.25,
    as a table: review 4 saw a page end mid-sentence, 35 % empty, before a list of five items)."""


class PageStyle(Node):
    background: str | None = None
    """Colour the whole page is filled with, to the edge of its bleed where it has one: a name from
    colours.yaml (none: the paper's white)."""
    shapes: dict[str, Shape] = {}
    """Art drawn over the background and under the text, as a face's shapes (a rect, circle, rays,
    a motif of motifs.yaml or an image of the game's folder): x and y from the trim's top-left
    corner; a shape may run past the trim into the bleed."""
    sizes: dict[str, Size] = {}
    """Type size on these pages by paragraph style (a cover's title larger than the booklet's); the
    style's leading keeps its proportion."""
    colours: dict[str, str] = {}
    """Text colour on these pages by paragraph style (title, subtitle, meta…): a name from
    colours.yaml. A style not named keeps its own colour on a page without background, and on a
    background takes ink or white, whichever stands out more from it."""


class BookletPages(Node):
    cover: PageStyle = PageStyle()
    """The first page. Its text (the template's blocks before the first `<pagebreak/>`) is set in
    the page's margins; its titles are balanced over their lines (no word alone on the last)."""
    text: PageStyle = PageStyle()
    """Every page of the rules, and the blank pages that complete a stitched booklet."""
    inset: Extent = 0.0
    """On a home print (no bleed), how far inside the paper's edge the page styles' backgrounds and
    art stop: home printers leave a band along the edge unprinted (media.yaml's
    `print_and_play.margin`), and an even frame of paper looks better than a ragged one. A booklet
    imposed for stitching at home fills its pages to the fold."""
    back_cover: PageStyle = PageStyle()
    """The last page, when the booklet has one: the template's blocks after
    `<spacer height="back-cover"/>`, or, without that, the cover's emblem and title on a stitched
    booklet that needs a page to complete its last sheet."""


class BookletStyle(Node):
    paper: str
    """The booklet's page: a name from `papers` in media.yaml."""
    margins: BookletMargins
    """The page margins."""
    styles: dict[str, TextStyle]
    """Paragraph styles by tag name: every block tag a booklet template emits (p, h1, h2, li, th,
    td, title, subtitle, meta, box) uses the style of its name."""
    folio: PageFooter
    """The page number at the foot of each page."""
    tables: BookletTables = BookletTables()
    """How tables look."""
    lists: BookletLists = BookletLists()
    """How lists (`ol`, `ul`) break over pages."""
    heading_lines: int = Field(default=3, ge=1)
    """A heading at the foot of a page carries at least this many lines of the paragraph under it;
    a longer paragraph then breaks after the lines that fit rather than move whole with its
    heading to the next page (which left the page's foot empty). Where fewer fit, the heading moves
    with its paragraph."""
    rule_colour: str = "red"
    """Colour of the folio rules and table headers."""
    pages: BookletPages = BookletPages()
    """How the cover, the pages of rules and the back cover are coloured and drawn."""
    characters: dict[str, str] = {}
    """Characters that print in a colour of their own wherever booklet text sets them, by colour
    name from colours.yaml; a key may name several characters. Card suits keep their colours:
    `"♥♦♡♢": accent` sets hearts and diamonds in the red the cards and setup sheets draw them in."""
