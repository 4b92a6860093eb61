"""Inline icons: `<icon name="coin"/>` in a paragraph, list item, table cell, frame or label.

The name is looked up (`IconSet.art`) first among the motifs the game sees (data/print/motifs.yaml
under the game's own print/motifs.yaml), then as an image of the game's folder, images/<name>.png,
.jpg or .jpeg, in that order: a motif and an image of one name is the motif (`IconSet.ambiguous`
names them, for validate's warning). A name is letters, digits, `_` and `-` (`ICON_NAME`).

Markup keeps the icon as written until layout, which sets `IconSet` around a game (`using`) and
resolves each paragraph's icons (`resolve_blocks`): the tag gets what drawing it needs, so that a
paragraph's markup says all it draws (a changed motif is a changed markup, for every memo of set
text): `aspect` (width over height), `size` (its height as a multiple of the text's size, or none:
the cap height of the font the icon sits in) and `art` (a motif's view box and paths, `MOTIF_ART`)
or `src` (an image's file).

ReportLab reads the resolved tag (reportlab_patches.py's `icon_tag`) as an inline image fragment:
an item of its width that lines break around but never through, whose bottom sits on the baseline.
Its `image` is an `InlineMotif` for a motif, drawn as vector paths in the text's colour (or the
motif's own `colour`, in the output's paints, `painting`) at the place ReportLab gives (the `inline_drawings` patch of Canvas.drawImage), or an ImageReader for an
image.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from html import escape
from pathlib import Path
from typing import Any

ICON_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
# an icon as texts and templates write it: the only form there is
# (the name in double or single quotes: a YAML text in double quotes writes <icon name='coin'/>)
WRITTEN = re.compile(r"""<icon\s+name=(?:"|')([A-Za-z0-9][A-Za-z0-9_-]*)(?:"|')\s*/>""")
# any tag named icon, well formed or not (for the markup check)
ANY_ICON = re.compile(r"</?icon\b[^<>]*>", re.IGNORECASE)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
# an icon's `art`: the view box, then its own colour's name if it has one (p), then each path as its
# rule (n nonzero, e evenodd) or circle (c, C: evenodd) and its data, separated by ';' (SVG path
# data has none)
MOTIF_ART = ";"


def written_icons(text: str) -> list[str]:
    """The names of the icons `text` writes, in order (a data text or a template's markup)."""
    return WRITTEN.findall(text)


def icon_tag_problems(tag: str) -> list[str]:
    """What is wrong with one tag named icon (as ANY_ICON finds it): [] when it is
    `<icon name="…"/>` with a name of letters, digits, _ and -."""
    if WRITTEN.fullmatch(tag):
        return []
    if tag.startswith("</"):
        return [f'{tag} closes nothing: an icon is one tag, <icon name="…"/>']
    attributes = {
        key: double or single
        for key, double, single in re.findall(
            r"""([A-Za-z_:][-\w:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)')""", tag
        )
    }
    problems = []
    extra = sorted(set(attributes) - {"name"})
    if extra:
        problems.append(
            f"{_clip(tag)}: an icon takes only a name, not "
            + ", ".join(f"'{name}'" for name in extra)
        )
    name = attributes.get("name")
    if name is None:
        problems.append(f'{_clip(tag)} names no icon: write <icon name="coin"/>')
    elif not ICON_NAME.match(name):
        problems.append(f"{_clip(tag)}: '{name}' is not an icon's name (letters, digits, _ and -)")
    if not problems and not tag.rstrip(">").rstrip().endswith("/"):
        problems.append(f'{_clip(tag)} is not closed: write <icon name="{name}"/>')
    if not problems:
        problems.append(f'{_clip(tag)}: write an icon as <icon name="coin"/>')
    return problems


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


@dataclass(frozen=True)
class IconArt:
    """What an icon draws: a motif (`art`, MOTIF_ART) or an image file (`src`), `aspect` its width
    over its height."""

    aspect: float
    art: str = ""
    src: str = ""


@dataclass
class IconSet:
    """The icons a game may name: its motifs (the project's under its own) and its images folder."""

    motifs: Mapping[str, Any]
    images: Path | None = None
    _found: dict[str, IconArt | None] = field(default_factory=dict, repr=False)

    def image(self, name: str) -> Path | None:
        """images/<name>.png, .jpg or .jpeg in the game's folder, the first there is."""
        if self.images is None:
            return None
        for suffix in IMAGE_SUFFIXES:
            path = self.images / f"{name}{suffix}"
            if path.is_file():
                return path
        return None

    def art(self, name: str) -> IconArt | None:
        """What the icon `name` draws; None: no motif and no image of that name. A motif is read
        each time (a session notes which motifs a face reads); an image once per set."""
        motif = self.motifs.get(name) if name in self.motifs else None
        if motif is not None:
            return IconArt(motif.viewbox[0] / motif.viewbox[1], art=motif_art(motif))
        if name not in self._found:
            self._found[name] = self._image_art(name)
        return self._found[name]

    def _image_art(self, name: str) -> IconArt | None:
        path = self.image(name)
        if path is None:
            return None
        size = _image_size(path)
        if size is None:
            return None
        return IconArt(size[0] / size[1], src=str(path))

    def unreadable(self, name: str) -> bool:
        """Whether `name` is an image, but one that cannot be read (or lies outside the data)."""
        return name not in self.motifs and self.image(name) is not None and self.art(name) is None

    def ambiguous(self, name: str) -> bool:
        """Whether `name` is both a motif (which wins) and an image."""
        return name in self.motifs and self.image(name) is not None

    def names(self) -> list[str]:
        """Every name an icon may take, for a did-you-mean."""
        found = list(self.motifs)
        if self.images is not None and self.images.is_dir():
            found += sorted(
                path.stem for path in self.images.iterdir() if path.suffix in IMAGE_SUFFIXES
            )
        return list(dict.fromkeys(found))


def _image_size(path: Path) -> tuple[int, int] | None:
    """An image's pixels, if it lies inside the project's data folder (symlinks followed) and
    reads."""
    from PIL import Image

    from printshop.write.commit import inside

    if not inside(path, path.parent.parent.parent):  # data/<game>/images/<name>
        return None
    try:
        with Image.open(path) as image:
            width, height = image.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return (width, height) if width > 0 and height > 0 else None


def motif_art(motif: Any) -> str:
    """A motif as an icon's `art` attribute (MOTIF_ART); a motif with its own `colour` names it
    first (p and the name)."""
    parts = [f"{motif.viewbox[0]:g} {motif.viewbox[1]:g}"]
    if getattr(motif, "colour", None):
        parts.append(f"p {motif.colour}")
    for path in motif.paths:
        evenodd = path.rule == "evenodd"
        if path.circle:
            parts.append(("C " if evenodd else "c ") + " ".join(f"{n:g}" for n in path.circle))
        else:
            parts.append(("e " if evenodd else "n ") + " ".join(path.d.split()))
    return MOTIF_ART.join(parts)


_ACTIVE: contextvars.ContextVar[IconSet | None] = contextvars.ContextVar("icons", default=None)
# the output's colours while it draws (`painting`): what an icon with a colour of its own is drawn in
_PAINTS: contextvars.ContextVar[Any] = contextvars.ContextVar("icon_paints", default=None)


@contextmanager
def painting(paints: Any) -> Iterator[None]:
    """Draw meanwhile the icons whose motif has a colour of its own in `paints` (render.colour's
    Paints: a home print's RGB, a shop's CMYK, a low-ink kit's); elsewhere an icon takes its text's
    colour."""
    token = _PAINTS.set(paints)
    try:
        yield
    finally:
        _PAINTS.reset(token)


@contextmanager
def using(icons: IconSet) -> Iterator[IconSet]:
    """`icons` the set layout resolves icons from meanwhile."""
    token = _ACTIVE.set(icons)
    try:
        yield icons
    finally:
        _ACTIVE.reset(token)


def active() -> IconSet | None:
    return _ACTIVE.get()


def resolved(markup: str, size: float | None, unknown: list[str]) -> str:
    """`markup` with each written icon given what it draws (module docstring); `size`: the icon's
    height as a multiple of the text's size (None: the font's cap height). A name no motif or image
    has is noted in `unknown` and drawn as nothing of the text's cap height, square."""
    if "<icon" not in markup:
        return markup
    icons = _ACTIVE.get()

    def one(match: re.Match) -> str:
        name = match.group(1)
        art = icons.art(name) if icons is not None else None
        if art is None:
            unknown.append(name)
            art = IconArt(1.0)
        scale = f' size="{size:g}"' if size else ""
        what = f' art="{art.art}"' if art.art else f' src="{escape(art.src)}"' if art.src else ""
        return f'<icon name="{name}" aspect="{art.aspect:.6g}"{scale}{what}/>'

    return WRITTEN.sub(one, markup)


def resolve_blocks(
    blocks: list, scale_of: Callable[[Any], float | None], unknown: list[str]
) -> list:
    """`blocks` (typeset.richtext) with their paragraphs' and table cells' icons `resolved`, each
    block's at `scale_of(block)` (`icon_scale`)."""
    from printshop.typeset.richtext import Para, Table

    out = []
    for block in blocks:
        if isinstance(block, Para) and "<icon" in block.markup:
            block = replace(block, markup=resolved(block.markup, scale_of(block), unknown))
        elif isinstance(block, Table) and any("<icon" in m for row in block.rows for _, m in row):
            size = scale_of(block)
            rows = [[(head, resolved(m, size, unknown)) for head, m in row] for row in block.rows]
            block = replace(block, rows=rows)
        out.append(block)
    return out


_NAMED = re.compile(r"""<icon\b[^<>]*?name=["']([^"'<>]*)["']""")


def icons_in_blocks(blocks: list) -> set[str]:
    """The names of the icons set in `blocks` (paragraphs and table cells), resolved or not."""
    return _found_in_blocks(_NAMED, blocks)


_OWN_COLOUR = re.compile(r"""art="[^"]*?;p ([A-Za-z0-9_-]+)""")


def icon_colours(blocks: list) -> set[str]:
    """The palette's names the resolved icons of `blocks` are drawn in (a motif's own `colour`)."""
    return _found_in_blocks(_OWN_COLOUR, blocks)


def _found_in_blocks(pattern: re.Pattern, blocks: list) -> set[str]:
    """What `pattern` finds in the markup of `blocks`' paragraphs and table cells."""
    from printshop.typeset.richtext import Para, Table

    found: set[str] = set()
    for block in blocks:
        if isinstance(block, Para):
            found.update(pattern.findall(block.markup))
        elif isinstance(block, Table):
            found.update(n for row in block.rows for _, m in row for n in pattern.findall(m))
    return found


def draws_images(blocks: list) -> bool:
    """Whether an icon of `blocks` draws an image file (an image the document stores, which a
    face's recording cannot replay: render/replay.py)."""
    from printshop.typeset.richtext import Para, Table

    return any(
        " src=" in block.markup
        if isinstance(block, Para)
        else isinstance(block, Table) and any(" src=" in m for row in block.rows for _, m in row)
        for block in blocks
    )


def icon_key(markup: str) -> tuple:
    """What the icons `markup` names draw, for a memo of set text (a changed motif or image sets
    the text again)."""
    if "<icon" not in markup:
        return ()
    icons = _ACTIVE.get()
    return tuple(
        (name, icons.art(name) if icons is not None and ICON_NAME.match(name) else None)
        for name in _NAMED.findall(markup)
    )


def icon_scale(icon_size: float | None, text_size: float) -> float | None:
    """A style's `icon_size` (a length at its `size`) as a multiple of the text's size: the icon
    shrinks with the text."""
    return icon_size / text_size if icon_size and text_size > 0 else None


# --- drawn by ReportLab -----------------------------------------------------------------------
class InlineMotif:
    """A motif set in a line: what an icon's image fragment holds, drawn as vector paths (never
    rasterised) in the colour of the text around it."""

    def __init__(self, art: str, colour: Any):
        box, *paths = art.split(MOTIF_ART)
        width, height = (float(n) for n in box.split())
        self.viewbox = (width, height)
        parts = [(path[0], path[2:]) for path in paths if path]
        self.paths = [(kind, data) for kind, data in parts if kind != "p"]
        self.paint = next((data for kind, data in parts if kind == "p"), None)
        self.colour = colour

    def getSize(self) -> tuple[float, float]:  # (as ReportLab's ImageReader)
        return self.viewbox

    def draw_inline(self, canvas: Any, x: float, y: float, width: float, height: float) -> None:
        """The paths filled in the text's colour, the view box stretched over (x, y, width,
        height), its y pointing down."""
        from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO

        from printshop.render.faces import trace_svg_path

        vw, vh = self.viewbox
        canvas.saveState()
        paints = _PAINTS.get()
        if self.paint and paints is not None and self.paint in paints.palette:
            canvas.setFillColor(paints.text(self.paint))  # the icon's own colour
        elif self.colour is not None:
            canvas.setFillColor(self.colour)
        canvas.translate(x, y + height)
        canvas.scale(width / vw, -height / vh)
        for kind, data in self.paths:
            path = canvas.beginPath()
            if kind in "cC":
                cx, cy, r = (float(n) for n in data.split())
                path.circle(cx, cy, r)
            else:
                trace_svg_path(path, data)
            canvas.drawPath(
                path, stroke=0, fill=1, fillMode=FILL_EVEN_ODD if kind in "eC" else FILL_NON_ZERO
            )
        canvas.restoreState()


DEFAULT_CAP_HEIGHT = 700  # thousandths of the size, for a font that gives none


def icon_fragment(attributes: Mapping[str, str], frag: Any) -> Any:
    """The image definition (ReportLab's cbDefn) of a resolved icon set in `frag`'s font and
    colour: its height the font's cap height (or `size` times the font size), its width by its
    aspect, its bottom on the baseline."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase.pdfmetrics import getFont
    from reportlab.platypus.paraparser import ABag

    font_size = frag.fontSize
    size = attributes.get("size")
    if size:
        height = float(size) * font_size
    else:
        try:
            face = getattr(getFont(frag.fontName), "face", None)
        except (KeyError, ValueError):  # (a font ReportLab cannot find: reported where it is named)
            face = None
        cap = getattr(face, "capHeight", 0) or DEFAULT_CAP_HEIGHT
        height = cap / 1000 * font_size
    aspect = float(attributes.get("aspect") or 1)
    defn = ABag()
    defn.kind = "img"
    art, src = attributes.get("art"), attributes.get("src")
    defn.image = ImageReader(src) if src else InlineMotif(art or "1 1", frag.textColor)
    defn.width = round(height * aspect, 4)
    defn.height = round(height, 4)
    # a cell of icons alone centres them on its line (`centred_icons`); elsewhere on the baseline
    defn.valign = "middle" if attributes.get("valign") == "middle" else "baseline"
    return defn


_TAGS = re.compile(r"<[^<>]*>")


def centred_icons(markup: str) -> str:
    """`markup` made of resolved icons and nothing else (a table cell's box to write in) with its
    icons centred on the line's middle, as the text of the cells beside it is; else unchanged."""
    if "<icon" not in markup or _TAGS.sub("", markup).strip():
        return markup
    return markup.replace("<icon ", '<icon valign="middle" ')
