"""Measuring set text: how tall a frame's flowables stack in a width, whether a word sticks out of
it, and how far a list's items are indented so that their bullets or numbers hang (typeset.fitting,
render.booklet).
"""

from __future__ import annotations

import math

from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_RIGHT
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.platypus import Flowable, Paragraph
from reportlab.platypus import Table as RLTable

from printshop.project.models.booklet import TextStyle
from printshop.typeset.richtext import Block, Para


def list_indent(blocks: list[Block], style: TextStyle, size: float) -> float:
    """How far a frame's list items are indented, their bullet or number hanging at the frame's
    edge: the frame's `indent`, as a booklet's `li` style gives it, widened where its widest bullet
    or number does not hang in it (`hang`)."""
    return hang(
        [block.bullet for block in blocks if isinstance(block, Para) and block.bullet],
        style.font,
        size,
        style.indent,
    )


BULLET_GAP = (
    0.6  # ems ReportLab leaves after a bullet or number before the item's first line (paragraph.py)
)


def hang(bullets: list[str], font: str, size: float, indent: float = 0.0) -> float:
    """The indent of a list's items: `indent`, or the widest of its bullets or numbers and the gap
    ReportLab leaves after one, whichever is more. A number wider than the indent ("1." at 9.5 pt
    and its gap take 14 pt, a booklet's `li` indents 12) pushed that item's first line right of its
    others, each item by its own number."""
    widest = max((stringWidth(bullet, font, size) for bullet in bullets), default=0.0)
    return max(indent, widest + size * BULLET_GAP)


def measure(
    flowables: list[Flowable], width: float, sizes: list | None = None
) -> tuple[float, bool]:
    """Total height of `flowables` stacked in `width`, and whether any is wider than `width`; each
    one's (width, height) as wrapped is appended to `sizes` when it is given."""
    height, too_wide, previous_after = 0.0, False, 0.0
    for index, flowable in enumerate(flowables):
        try:  # a paragraph wrapped at this width already (without_runt) keeps that wrap
            w, h = (
                (flowable.width, flowable.height)
                if getattr(flowable, "wrapped_width", None) == width
                else flowable.wrap(width, 1e6)
            )
        except ValueError:  # ReportLab refuses a table whose columns cannot fit at all
            return 1e6, True
        if sizes is not None:
            sizes.append((w, h))
        if isinstance(flowable, Paragraph):
            too_wide |= _paragraph_too_wide(flowable, width)
        else:
            too_wide |= w > width + 0.01 or _cell_too_narrow(flowable)
        before = flowable.getSpaceBefore() if index else 0.0
        height += h + max(before, previous_after)
        previous_after = flowable.getSpaceAfter()
    return height, too_wide


def _cell_too_narrow(table: Flowable) -> bool:
    """After wrap, whether a table cell's longest word is wider than its column (ReportLab would
    let it spill over the neighbouring cell)."""
    if not isinstance(table, RLTable):
        return False
    widths = getattr(table, "_colWidths", None) or []
    for row_index, row in enumerate(table._cellvalues):
        for column, cell in enumerate(row):
            if column >= len(widths):
                continue
            style = table._cellStyles[row_index][column]
            room = widths[column] - style.leftPadding - style.rightPadding
            contents = cell if isinstance(cell, (list, tuple)) else [cell]
            if any(
                isinstance(item, Paragraph) and _paragraph_too_wide(item, room) for item in contents
            ):
                return True
    return False


def _paragraph_too_wide(paragraph: Paragraph, width: float) -> bool:
    """Whether a word sticks out of `width`. Without hyphenation, the widest word says so; with it,
    a long word may have been broken, so the lines as wrapped are read: a word that could not be
    broken enough sits alone on a line that runs past the frame."""
    if not paragraph.style.hyphenationLang:  # a list item's words have its indent less room
        return (
            paragraph.minWidth() + paragraph.style.leftIndent + paragraph.style.rightIndent
            > width + 0.01
        )
    paragraph.wrap(width, 1e6)
    for line in paragraph.blPara.lines:
        if isinstance(line, tuple):  # a paragraph of one font: (unused space, words)
            extra, count = line[0], len(line[1])
        else:
            extra, count = line.extraSpace, line.wordCount
        if count <= 1 and extra < -0.01:
            return True
    return False


def text_extent(
    flowables: list[Flowable], sizes: list, width: float
) -> tuple[float, float, float, float] | None:
    """Where the text of stacked flowables prints, as (left, top, right, bottom) in points from the
    stack's top-left corner, the flowables wrapped in `width` with their measured `sizes` (as
    `measure` gives them): across, from where the leftmost line starts to where the rightmost ends
    (a list item's bullet included); down, from the cap height of the first line to the last line's
    baseline, or its descenders unless the text is in capitals. A table counts from its cells'
    paddings in; spacers and images are not text. None: no text."""
    left = top = math.inf
    right = bottom = -math.inf
    y, previous_after = 0.0, 0.0
    for index, (flowable, (w, h)) in enumerate(zip(flowables, sizes)):
        if index:
            y += max(flowable.getSpaceBefore(), previous_after)
        x = (width - w) / 2 if w < width - 0.01 else 0.0  # as render.faces.draw_frame places it
        box = _flowable_text_box(flowable, w, h)
        if box is not None:
            left, right = min(left, x + box[0]), max(right, x + box[2])
            top, bottom = min(top, y + box[1]), max(bottom, y + box[3])
        y += h
        previous_after = flowable.getSpaceAfter()
    return None if left == math.inf else (left, top, right, bottom)


def _flowable_text_box(flowable: Flowable, w: float, h: float):
    if isinstance(flowable, Paragraph):
        return _paragraph_text_box(flowable, w)
    if isinstance(flowable, RLTable) and flowable._cellvalues:
        styles = flowable._cellStyles
        return (
            min(row[0].leftPadding for row in styles),
            min(cell.topPadding for cell in styles[0]),
            w - min(row[-1].rightPadding for row in styles),
            h - min(cell.bottomPadding for cell in styles[-1]),
        )
    return None


def _paragraph_text_box(paragraph: Paragraph, width: float):
    lines = paragraph.blPara.lines
    if not lines:
        return None
    style = paragraph.style
    measure_ = width - style.leftIndent - style.rightIndent
    offsets = list(getattr(paragraph, "_offsets", None) or [0.0])
    offsets += [offsets[-1]] * (len(lines) - len(offsets))
    left, right = math.inf, -math.inf
    for index, line in enumerate(lines):
        extra = line[0] if isinstance(line, tuple) else line.extraSpace
        start = style.leftIndent + offsets[index] + (style.firstLineIndent if index == 0 else 0.0)
        length = measure_ - extra
        if style.alignment == TA_JUSTIFY and index < len(lines) - 1:
            length = measure_
        elif style.alignment == TA_CENTER:
            start += extra / 2
        elif style.alignment == TA_RIGHT:
            start += extra
        left, right = min(left, start), max(right, start + length)
    if paragraph.bulletText:
        left = min(left, style.bulletIndent)
    size, font = style.fontSize, style.fontName
    face = getFont(font).face
    cap = getattr(face, "capHeight", 700) / 1000 * size
    descent = 0.0 if _capitals(paragraph) else -getattr(face, "descent", -200) / 1000 * size
    first = size  # the first baseline, its font size below the top (paraFontSizeHeightOffset)
    last = first + (len(lines) - 1) * style.leading
    return left, first - cap, right, last + descent


def _capitals(paragraph: Paragraph) -> bool:
    text = paragraph.getPlainText()
    return text == text.upper()
