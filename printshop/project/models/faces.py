"""The schema of data/<game>/faces.yaml: card face layouts, their frames and shapes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from printshop.project.models.styles import TextStyle
from printshop.project.models.values import Extent, Size
from printshop.project.schema import Length, Node


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
    """How the fitted size is chosen across a deck: `deck` fits every card and sets all at the
    smallest size found, so one deck reads at one size; `card` lets each card take its own largest
    size, on purpose (a title). Left out, cards whose sizes differ are reported (deck-size-varies)."""


class Shape(Node):
    kind: Literal["rect", "line", "circle", "motif", "rays", "image"]
    """What to draw: rect (x, y, width, height, optional radius for round corners), line (from x, y
    by width across and height down), circle (centre x, y and radius), motif (a motif from
    motifs.yaml in the box x, y, width, height), rays (a sunburst of `count` wedges round x, y out
    to radius) or image (the file `src` in the box)."""
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
    """image: a file in the game's folder, e.g. images/seal.png: a PNG or JPEG, or an SVG
    (images/seal.svg), drawn as vectors at any size, its colours converted as the palette's are
    for a CMYK shop; stretched to the box, so give the box the picture's proportions."""
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
    """Another face whose keys this one starts from; its own keys are merged over them, deeply, and
    `null` removes one."""
    template: str | None = None
    """The Jinja template under templates/ that fills the frames: one `{% block %}` per frame;
    none for a face of shapes alone (no frames)."""
    background: str | None = None
    """Colour that fills the whole face, bleed included: a name from colours.yaml."""
    shapes: dict[str, Shape] = {}
    """Shapes by name, drawn under the text."""
    frames: dict[str, Frame] = {}
    """Text frames by name; the template's block of the same name fills each."""


class FacesFile(Node):
    faces: dict[str, Face]
    """Faces by name; cards, backs and sheets name them."""
