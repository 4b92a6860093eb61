"""The schema of data/print/booklet.yaml: the rules booklet's text styles, margins and tables."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from printshop.project.models.media import PageFooter
from printshop.project.models.values import Extent, Size
from printshop.project.schema import Node


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
    icon_size: Size | None = None
    """The height of an inline `<icon>` at `size` (it shrinks with the text); none: the font's
    cap height, so that an icon stands as tall as a capital letter."""


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
    rule_colour: str = "red"
    """Colour of the folio rules and table headers."""
    characters: dict[str, str] = {}
    """Characters that print in a colour of their own wherever booklet text sets them, by colour
    name from colours.yaml; a key may name several characters. Card suits keep their colours:
    `"♥♦♡♢": accent` sets hearts and diamonds in the red the cards and setup sheets draw them in."""
