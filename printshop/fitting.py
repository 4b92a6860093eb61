"""Fitting text into a frame: the one function the validator and the renderer share.

`fit` tries the frame's font size, then smaller sizes in quarter points down to the layout's
minimum, and returns the first that fits (height and longest word). If none does, it returns
the result at the minimum with `fits=False` and how much is left over; the renderer refuses to
draw such a frame and the validator reports it. Nothing is ever shrunk below the minimum.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle

from printshop.colour import Paints
from printshop.fonts import with_fallback
from printshop.model import TextStyle
from printshop.richtext import Block, Para, Table, column_widths, uppercase

NO_BREAK_SPACES = "\u00a0\u202f"


def _keep_no_break_spaces() -> None:
    """Make ReportLab's word splitting respect U+202F NARROW NO-BREAK SPACE, as it does U+00A0.

    ReportLab breaks lines at every Unicode space but the no-break space, so French text would
    break before ; : ! ? at the narrow no-break space the typography puts there. Its module-level
    splitting helpers are replaced with ones that leave both no-break spaces inside words.
    """
    import re

    from reportlab.platypus import paragraph

    if getattr(paragraph, "_printshop_no_break", False):
        return
    breaking = "".join(ch for ch in paragraph._wsc if ch not in NO_BREAK_SPACES)
    split_re = re.compile(f"[{re.escape(breaking)}]+")
    paragraph._wsc = breaking
    paragraph._wsc_re_split = split_re.split
    paragraph._wsc_end_search = re.compile(f"[{re.escape(breaking)}]+$").search

    def split(text: str, delim: str | None = None) -> list[str]:
        # as ReportLab's own: its regex split where no-break spaces occur, str.split() elsewhere
        if delim is None and any(ch in text for ch in NO_BREAK_SPACES):
            return split_re.split(text)
        return text.split(delim)

    paragraph.split = split
    paragraph._printshop_no_break = True


_keep_no_break_spaces()

ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
STEP = 0.25


@dataclass
class Fit:
    size: float
    fits: bool
    height: float  # the height the text takes at `size`
    available: float  # (the flowables measured are not kept: a renderer sets the text again in its colours)
    overflow_lines: int = 0
    too_wide: bool = False

    @property
    def overflow(self) -> float:
        return max(0.0, self.height - self.available)


def paragraph_style(style: TextStyle, size: float, paints: Paints, *, name: str = "frame") -> ParagraphStyle:
    return ParagraphStyle(
        name, fontName=style.font, bulletFontName=style.font, fontSize=size, leading=size * style.leading,
        alignment=ALIGN[style.align], textColor=paints.text(style.colour),
        spaceBefore=style.space_before, spaceAfter=style.space_after, allowWidows=0, allowOrphans=0,
        splitLongWords=0, hyphenationLang=None, embeddedHyphenation=0,
    )


def make_flowables(blocks: list[Block], style: TextStyle, size: float, paints: Paints,
                   width: float = 0.0) -> list[Flowable]:
    """Flowables for a frame's blocks at `size`; tables use the frame's font, headers in bold."""
    flowables: list[Flowable] = []
    base = paragraph_style(style, size, paints)
    for block in blocks:
        if isinstance(block, Para):
            markup = uppercase(block.markup) if style.uppercase else block.markup
            flowables.append(Paragraph(with_fallback(markup), base))
        elif isinstance(block, Table):
            cell = ParagraphStyle("cell", parent=base, alignment=TA_CENTER, spaceBefore=0, spaceAfter=0)
            head = ParagraphStyle("head", parent=cell, alignment=TA_LEFT)
            rows = [[Paragraph(with_fallback(f"<b>{markup}</b>" if is_head else markup), head if is_head else cell)
                     for is_head, markup in row] for row in block.rows]
            table = RLTable(rows, hAlign="CENTER", colWidths=column_widths(block, width))
            table.setStyle(TableStyle([
                ("LINEBELOW", (0, 0), (-1, -2), 0.4, paints.fill(style.colour)),
                ("LEFTPADDING", (0, 0), (-1, -1), size * 0.25), ("RIGHTPADDING", (0, 0), (-1, -1), size * 0.25),
                ("TOPPADDING", (0, 0), (-1, -1), size * 0.15), ("BOTTOMPADDING", (0, 0), (-1, -1), size * 0.3),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("FONTNAME", (0, 0), (-1, -1), style.font),  # else tables name an unembedded Helvetica
                ("TEXTCOLOR", (0, 0), (-1, -1), paints.text(style.colour)),  # else an RGB black
            ]))
            flowables.append(table)
    return flowables


def measure(flowables: list[Flowable], width: float) -> tuple[float, bool]:
    """Total height of `flowables` stacked in `width`, and whether any is wider than `width`."""
    height, too_wide, previous_after = 0.0, False, 0.0
    for index, flowable in enumerate(flowables):
        try:
            w, h = flowable.wrap(width, 1e6)
        except ValueError:  # ReportLab refuses a table whose columns cannot fit at all
            return 1e6, True
        if isinstance(flowable, Paragraph):
            too_wide |= flowable.minWidth() > width + 0.01
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
            if any(isinstance(item, Paragraph) and item.minWidth() > room + 0.01 for item in contents):
                return True
    return False


def fit(blocks: list[Block], style: TextStyle, width: float, height: float, paints: Paints) -> Fit:
    """The largest size, in quarter points from `size` down to `min_size`, at which the text fits."""
    minimum = style.min_size if style.min_size is not None else style.size
    steps = max(0, int(round((style.size - minimum) / STEP)))  # sizes: size - k * STEP, k = 0..steps

    def attempt(k: int) -> Fit:
        size = round(style.size - k * STEP, 4)
        flowables = make_flowables(blocks, style, size, paints, width)
        needed, too_wide = measure(flowables, width)
        fits = needed <= height + 0.01 and not too_wide
        lines = 0 if fits else math.ceil(max(0.0, needed - height) / (size * style.leading))
        return Fit(size, fits, needed, height, lines, too_wide)

    best = attempt(0)
    if best.fits or steps == 0:
        return best
    smallest = attempt(steps)
    if not smallest.fits:
        return smallest
    low, high = 0, steps  # attempt(low) fails, attempt(high) fits; the height grows with the size
    best = smallest
    while high - low > 1:
        middle = (low + high) // 2
        result = attempt(middle)
        if result.fits:
            high, best = middle, result
        else:
            low = middle
    return best
