"""A rules booklet's page styles (booklet.yaml's `pages`: cover, text, back_cover) drawn: each page's
background to the edge of its bleed, its art (a face's shapes: rects, rays, motifs, images) over it,
and the colours its text takes; and the template's back cover, the blocks after
`<spacer height="back-cover"/>`.

Text on a background takes the colour its page style names for its paragraph style or, where it
names none, ink or white, whichever stands out more from the background (`legible_on`: the contrast
ratio of WCAG 2, which checks.look also holds declared colours to). render.booklet_pages calls
`draw_page` from its pages' `onPage`, before their text is set.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.styles import ParagraphStyle

from printshop.memo import file_stamp
from printshop.project.models.art import Motif
from printshop.project.models.booklet import BookletStyle, PageStyle
from printshop.project.models.media import Paper
from printshop.render.colour import Paints
from printshop.render.faces import draw_geometry, draw_shape
from printshop.render.low_ink import ground_of
from printshop.typeset.richtext import BACK_COVER, Spacer

# the least contrast ratio (WCAG 2's, for large type: 3; body text asks 4.5) text on a page style's
# background must have with it
LEAST_CONTRAST = 3.0


def relative_luminance(hex_value: str) -> float:
    """WCAG 2's relative luminance of an sRGB `#rrggbb`."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(hex_value[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """WCAG 2's contrast ratio of two `#rrggbb` colours: 1 (the same) to 21 (black on white)."""
    light, dark = sorted((relative_luminance(one), relative_luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def legible_on(background: str, palette) -> str | None:
    """Of the palette's `ink` and `white`, the name that stands out more from `background` (a
    name); None if the palette has neither (a project may take printshop's own colours away)."""
    fill = palette[background]
    names = [name for name in ("ink", "white") if name in palette]
    return max(names, key=lambda name: contrast(palette[name], fill)) if names else None


def page_styles(
    page: PageStyle, styles: dict[str, ParagraphStyle], paints: Paints, cover: bool = False
) -> dict[str, ParagraphStyle]:
    """The paragraph styles as a page style sets them: each named in its `colours` in that colour;
    on a background, each other one in ink or white, whichever is more legible on it; each named in
    its `sizes` at that size. On a `cover`, words are never hyphenated (a title, a blurb set whole)."""
    if page.background is None and not page.colours and not page.sizes and not cover:
        return styles
    default = legible_on(page.background, paints.palette) if page.background else None
    on_page = {}
    for name, style in styles.items():
        colour, size = page.colours.get(name, default), page.sizes.get(name)
        changes: dict = {"hyphenationLang": None, "embeddedHyphenation": 0} if cover else {}
        if colour is not None:
            changes["textColor"] = paints.text(colour)
        if size is not None:
            changes.update(fontSize=size, leading=style.leading * size / style.fontSize)
        # (the same name: headings are known by it)
        on_page[name] = ParagraphStyle(name, parent=style, **changes) if changes else style
    return on_page


def art_box(
    paper: Paper, bleed: float, inset: float, stitched: bool, page: int
) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of what a page style paints on page `page`, from the page's own
    corner: a press page's whole page, its bleed too; a home print's page less `inset` on every side
    (home printers leave a band along the paper's edge unprinted: an even frame of paper shows
    instead of an uneven one), except, `stitched`, the side of the fold (an odd page's left, an even
    page's right), where facing pages meet."""
    if bleed:
        return 0.0, 0.0, paper.width + 2 * bleed, paper.height + 2 * bleed
    left = right = inset
    if stitched:
        if page % 2:
            left = 0.0
        else:
            right = 0.0
    return left, inset, paper.width - right, paper.height - inset


def draw_page(
    canvas,
    page: PageStyle,
    box: tuple[float, float, float, float],
    height: float,
    bleed: float,
    paints: Paints,
    motifs: dict[str, Motif],
    assets: Path | None,
) -> None:
    """The page style's background over `box` (`art_box`), then its shapes, placed from the trim's
    top-left corner and cut at the box; `canvas` at the page's own origin (the bleed's corner)."""
    if page.background is None and not page.shapes:
        return
    left, bottom, right, top = box
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(left, bottom, right - left, top - bottom)
    canvas.clipPath(clip, stroke=0, fill=0)
    if page.background is not None:
        canvas.setFillColor(paints.background(page.background))
        canvas.rect(left, bottom, right - left, top - bottom, stroke=0, fill=1)
    canvas.translate(bleed, bleed)
    outline = paints.mode.low_ink_rules.outline
    shapes = sorted(page.shapes.values(), key=lambda shape: shape.layer)
    for index, shape in enumerate(shapes):
        if paints.mode.low_ink and shape.kind == "motif" and shape.fill and shape.stroke is None:
            # an emblem keeps an outline at full strength, in the darker of its colour and its
            # ground's: its tint alone vanished on the tinted disc under it (review 3)
            x, y = shape.x + shape.width / 2, shape.y + shape.height / 2
            under = ground_of(shapes[:index], page.background, x, y)
            line = min(
                (name for name in (shape.fill, under) if name is not None), key=paints.luminance
            )
            draw_geometry(
                canvas, shape, height, paints.fill(shape.fill), paints.full(line),
                2 * outline, motifs, assets, mode=paints.mode,
            )  # fmt: skip
        elif paints.mode.low_ink and _neutral_dark(paints, shape):
            # a black or grey band or disc would print as a flat mid-grey, the heaviest ink of the
            # booklet (review 3-D on Comrade Stalin's covers): paper white, outlined in the colour
            # of what it stands on where that is a colour (the rays' red), else in its own
            x, y = _centre(shape)
            under = ground_of(shapes[:index], page.background, x, y)
            edge = under if under is not None and not _neutral(paints, under) else shape.fill
            draw_geometry(
                canvas, shape, height, paints.white(), paints.full(edge or "ink"),
                2 * outline, motifs, assets, mode=paints.mode,
            )  # fmt: skip
        else:
            draw_shape(canvas, shape, height, paints, motifs, assets)
    canvas.restoreState()


# a fill whose channels differ by less than this share reads as grey, not as a colour
NEUTRAL_SPREAD = 0.08
# and one darker than this, tinted for low ink, a flat mid-grey
NEUTRAL_DARK = 0.35


def _neutral(paints: Paints, name: str) -> bool:
    """Whether the palette's `name` is a grey (black and white included), not a colour."""
    return paints.spread(name) < NEUTRAL_SPREAD


def _neutral_dark(paints: Paints, shape) -> bool:
    """Whether `shape` is a band or disc filled with a dark grey or black."""
    if shape.kind not in ("rect", "circle") or not shape.fill or shape.fill not in paints.palette:
        return False
    return _neutral(paints, shape.fill) and paints.luminance(shape.fill) < NEUTRAL_DARK


def _centre(shape) -> tuple[float, float]:
    if shape.kind == "circle":
        return shape.x, shape.y
    return shape.x + shape.width / 2, shape.y + shape.height / 2


def split_back_cover(blocks: list) -> tuple[list, list | None]:
    """The template's blocks before `<spacer height="back-cover"/>` and those after it (the back
    cover's); None for the second when the template declares no back cover."""
    for index, block in enumerate(blocks):
        if isinstance(block, Spacer) and block.height == BACK_COVER:
            return blocks[:index], blocks[index + 1 :]
    return blocks, None


def image_stamps(style: BookletStyle, folder: Path) -> tuple:
    """(file, modified, size) of each image the page styles draw: what tells a booklet remembered
    from one whose cover art was saved since."""
    stamps = []
    for page in (style.pages.cover, style.pages.text, style.pages.back_cover):
        for shape in page.shapes.values():
            if shape.kind == "image" and shape.src:
                stamps.append((shape.src, file_stamp(folder / shape.src)))
    return tuple(stamps)
