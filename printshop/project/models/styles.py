"""The paragraph style booklet.yaml's styles and a face's frames share (a frame is one, placed)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from printshop.project.models.values import Extent, Size
from printshop.project.schema import Node


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
    background: str | None = None
    """Booklets: a colour of colours.yaml filling the paragraph's box (the style `box` of a
    summary or an example); none: no fill."""
    border: str | None = None
    """Booklets: a colour of colours.yaml for a rule round the paragraph's box; none: no rule."""
    border_width: Extent = 0.0
    """The width of that rule (with `border`)."""
    padding: Extent = 0.0
    """Booklets, with `background` or `border`: room between the box's edge and its text; the box
    stays inside the page's text column (its text is indented by as much) and keeps clear of the
    paragraphs around it. A boxed paragraph is kept on one page."""
    icon_size: Size | None = None
    """The height of an inline `<icon>` at `size` (it shrinks with the text); none: the font's
    cap height, so that an icon stands as tall as a capital letter."""
