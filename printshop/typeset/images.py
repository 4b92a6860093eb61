"""`<img>` and `<figure>` in templates' markup, parsed into `Img` and `Figure` blocks.

`<img src="images/board.svg" width="90mm"/>` places a PNG, JPEG or SVG file of the game's folder;
`height` is optional (the image keeps its proportions), and with both the image fits in that box;
with neither it takes the width available. An image wider than its frame or booklet column is
scaled down to fit it, never cut. `align` is left, center (the default) or right.
`<figure><img …/><caption>text</caption></figure>` holds exactly one of each; a booklet keeps
them on one page. The file itself is read by layout (layout/images.py); here only the markup is
checked, each fault a RichTextError at the attribute or tag.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from printshop.typeset.richtext import (
    ALIGNS,
    Figure,
    Img,
    RichTextError,
    length_attribute,
    only_tags,
    paragraph_markup,
)

IMAGE_ATTRIBUTES = ("src", "width", "height", "align")


def image_block(element: ET.Element, fragment: str) -> Img | Figure:
    """The block an <img> or a <figure> makes (a <caption> outside a figure is an error)."""
    if element.tag == "img":
        return _img(element, fragment)
    if element.tag == "caption":
        raise RichTextError.at(
            "<caption> stands only inside a <figure>, after its <img/>",
            fragment,
            "<caption",
            'write <figure><img src="…" width="…"/><caption>…</caption></figure>',
        )
    return _figure(element, fragment)


def _img(element: ET.Element, fragment: str) -> Img:
    from printshop.diagnostics import did_you_mean  # (only for a template in error)

    for name in element.attrib:
        if name not in IMAGE_ATTRIBUTES:
            raise RichTextError.at(
                f"<img {name}=…>: an <img> takes {', '.join(IMAGE_ATTRIBUTES)}"
                f"{did_you_mean(name, list(IMAGE_ATTRIBUTES))}",
                fragment,
                f"{name}=",
            )
    src = element.get("src", "").strip()
    if not src:
        raise RichTextError.at(
            "<img> names no file: write src with a PNG, JPEG or SVG file of the game's folder",
            fragment,
            "<img",
            'write <img src="images/board.svg" width="90mm"/>',
        )
    if len(element) or (element.text or "").strip():
        raise RichTextError.at(
            "an <img/> holds nothing: close it at once (<img …/>)", fragment, "<img"
        )
    width, height = element.get("width"), element.get("height")
    for attribute, value in (("width", width), ("height", height)):
        if value is not None and length_attribute("img", attribute, value, fragment) <= 0:
            raise RichTextError.at(
                f'<img {attribute}="{value}">: a {attribute} must be more than 0',
                fragment,
                f'{attribute}="{value}"',
                f'write a length with its unit, such as {attribute}="60mm"',
            )
    align = element.get("align", "center")
    if align not in ALIGNS:
        raise RichTextError.at(
            f'<img align="{align}">: align is one of {", ".join(ALIGNS)}'
            f"{did_you_mean(align, list(ALIGNS))}",
            fragment,
            f'align="{align}"',
            'write align="left", "center" or "right"',
        )
    return Img(src, width, height, align)


def _figure(element: ET.Element, fragment: str) -> Figure:
    """A <figure>: exactly one <img/> then one <caption>, nothing else."""
    hint = 'write <figure><img src="…" width="…"/><caption>…</caption></figure>'
    only_tags(element, ("img", "caption"), fragment)
    tags = [child.tag for child in element]
    for tag in ("img", "caption"):
        if tags.count(tag) != 1:
            said = "has no" if tag not in tags else f"has {tags.count(tag)} of"
            raise RichTextError.at(
                f"a <figure> {said} <{tag}>: it holds exactly one <img/> and one <caption>",
                fragment,
                "<figure",
                hint,
            )
    image = element.find("img")
    caption = element.find("caption")
    assert image is not None and caption is not None  # (counted above)
    markup = paragraph_markup(caption)
    if not markup:
        raise RichTextError.at(
            "a <figure>'s <caption> is empty: say what the picture shows",
            fragment,
            "<caption",
            hint,
        )
    return Figure(_img(image, fragment), markup)


def placed_size(img: Img, available: float) -> tuple[float, float]:
    """(width, height) in points the image of `img` (its file read by layout) takes in `available`
    width: as its attributes ask, its proportions kept, scaled down to `available` if wider."""
    from printshop.project.units import parse_length

    assert img.file is not None  # (read by layout before anything is measured)
    natural_width, natural_height = img.file.size
    aspect = natural_height / natural_width
    width = parse_length(img.width) if img.width else None
    height = parse_length(img.height) if img.height else None
    if width is not None and height is not None:  # the box it fits in
        if height / width < aspect:
            width = height / aspect
        else:
            height = width * aspect
    elif width is not None:
        height = width * aspect
    elif height is not None:
        width = height / aspect
    else:
        width, height = available, available * aspect
    if width > available:
        width, height = available, available * aspect
    return width, height
