"""The proof's text pages, after its faces: the rules booklet paragraph beside paragraph, the
labels printshop prints (footers, the how-to-print sheet, the calibration page) and the game's
glossary, each line of the translation beside the same line of its reference.

The booklet's paragraphs are the blocks its template produced in each language (the same template,
so the n-th block of one is the n-th of the other); a table's rows are read as lines, cells parted
by " | "; spacers, page breaks and art are left out. Markup other than bold, italics and line
breaks is dropped (icons, fonts): a proof is read for its words. `story` makes the flowables;
`draw` sets them in a frame page after page, splitting a table between pages (and a long
paragraph within its row), and returns how many pages it took, so that the proof can number its
pages before it draws them (render/proof.py counts them on a scratch canvas first).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from itertools import zip_longest
from xml.sax.saxutils import escape

from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, Paragraph, Spacer, Table, TableStyle

from printshop.layout.plan import GameLayout
from printshop.typeset.richtext import Block, Para
from printshop.typeset.richtext import Table as RichTable

FONT, BOLD = "sans", "sans-bold"
INK, SOFT, RULE = Color(0, 0, 0), Color(0.35, 0.33, 0.31), Color(0.7, 0.68, 0.65)
TEXT_SIZE, SECTION_SIZE = 7.0, 9.0  # points
# tags a proof keeps: bold, italics, line breaks; any other (icons, fonts, colours) is dropped
_OTHER_TAG = re.compile(r"<(?!/?[bi]>|br\s*/?>)[^>]*>")


def _style(name: str, size: float, font: str = FONT, colour: Color = INK) -> ParagraphStyle:
    return ParagraphStyle(name, fontName=font, fontSize=size, leading=size * 1.3, textColor=colour)


TEXT = _style("proof-text", TEXT_SIZE)
HEADING = _style("proof-heading", TEXT_SIZE, BOLD)
NOTE = _style("proof-note", TEXT_SIZE * 0.85, colour=SOFT)
SECTION = _style("proof-section", SECTION_SIZE, BOLD)


def booklet_lines(blocks: list[Block]) -> list[tuple[bool, str]]:
    """(is a heading, markup) for each paragraph and table row of a booklet."""
    lines: list[tuple[bool, str]] = []
    for block in blocks:
        if isinstance(block, Para):
            markup = _OTHER_TAG.sub("", block.markup)
            bullet = f"{escape(block.bullet)} " if block.bullet else ""
            lines.append((block.style.startswith("h") or block.style == "title", bullet + markup))
        elif isinstance(block, RichTable):
            for row in block.rows:
                lines.append(
                    (
                        all(header for header, _ in row),
                        " | ".join(_OTHER_TAG.sub("", cell) for _, cell in row),
                    )
                )
    return lines


def story(
    translation: GameLayout, reference: GameLayout, width: float, gutter: float
) -> list[Flowable]:
    """The flowables of the text pages: booklet, labels, glossary, each a two-column table."""
    words = translation.localized
    sections: list[Flowable] = []
    if translation.booklet is not None and reference.booklet is not None:
        rows = [
            [_paragraph(left), _paragraph(right)]
            for left, right in zip_longest(
                booklet_lines(translation.booklet.blocks), booklet_lines(reference.booklet.blocks)
            )
        ]
        sections += _section(words.label("proof_booklet"), rows, width, gutter)
    left_labels = translation.localized.language.labels
    right_labels = reference.localized.language.labels
    names = list(left_labels) + [name for name in right_labels if name not in left_labels]
    rows = [
        [
            _paragraph((False, f"<i>{escape(name)}</i><br/>" + _plain(left_labels.get(name)))),
            _paragraph((False, "<br/>" + _plain(right_labels.get(name)))),
        ]
        for name in names
    ]
    sections += _section(words.label("proof_labels"), rows, width, gutter)
    glossary = translation.localized.data.glossary
    if glossary is not None and glossary.terms:
        rows = [
            [
                _term(term, translation.lang, term_id),
                _term(term, reference.lang, term_id),
            ]
            for term_id, term in glossary.terms.items()
        ]
        sections += _section(words.label("proof_glossary"), rows, width, gutter)
    return sections


def _plain(text: str | None) -> str:
    return "—" if text is None else escape(text).replace("\n", "<br/>")


def _paragraph(line: tuple[bool, str] | None) -> Paragraph:
    if line is None:
        return Paragraph("—", NOTE)
    heading, markup = line
    return Paragraph(markup or "&nbsp;", HEADING if heading else TEXT)


def _term(term, lang: str, term_id: str) -> Paragraph:
    rendering = term.renderings.get(lang)
    forms = term.forms.get(lang, [])
    about = " · ".join(escape(part) for part in (term_id, term.kind) if part)
    shown = f"<b>{escape(rendering)}</b>" if rendering else "<i>—</i>"
    also = f" ({', '.join(escape(form) for form in forms)})" if forms else ""
    return Paragraph(
        f"{shown}{also} <font color='#5a5550' size='{TEXT_SIZE * 0.85}'>{about}</font>", TEXT
    )


def _section(
    title: str, rows: list[list[Paragraph]], width: float, gutter: float
) -> list[Flowable]:
    if not rows:
        return []
    column = (width - gutter) / 2
    table = Table(
        rows,
        colWidths=[column + gutter / 2, column + gutter / 2],
        splitInRow=1,
        style=TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (0, -1), 0),
                ("RIGHTPADDING", (0, 0), (0, -1), gutter / 2),
                ("LEFTPADDING", (1, 0), (1, -1), gutter / 2),
                ("RIGHTPADDING", (1, 0), (1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ("LINEBELOW", (0, 0), (-1, -1), 0.2, RULE),
            ]
        ),
    )
    return [
        Spacer(0, SECTION_SIZE * 0.6),
        Paragraph(escape(title), SECTION),
        Spacer(0, SECTION_SIZE * 0.5),
        table,
        Spacer(0, 12),
    ]


def draw(
    canvas: Canvas,
    flowables: list[Flowable],
    box: tuple[float, float, float, float],
    page: Callable[[Canvas, int], None],
    first: int,
) -> int:
    """Set `flowables` in `box` (x, y, width, height) page after page, calling `page(canvas,
    number)` on each before its text (headings, footer); the number of pages used."""
    x, y, width, height = box
    pending = list(flowables)
    count = 0
    while pending:
        page(canvas, first + count)
        frame = Frame(x, y, width, height, 0, 0, 0, 0, showBoundary=0)
        placed = _fill(frame, pending, canvas)
        canvas.showPage()
        count += 1
        if not placed:  # taller than a page and not to be split: said, not drawn
            pending[0] = Paragraph("<i>(too long to show here)</i>", NOTE)
    return count


def _fill(frame: Frame, pending: list[Flowable], canvas: Canvas) -> bool:
    placed = False
    while pending:
        if frame.add(pending[0], canvas, trySplit=0):
            pending.pop(0)
            placed = True
            continue
        parts = frame.split(pending[0], canvas)
        if len(parts) >= 2:
            pending[0:1] = parts
            if frame.add(pending[0], canvas, trySplit=0):
                pending.pop(0)
                placed = True
        break
    return placed


def count_pages(
    make: Callable[[], list[Flowable]],
    size: tuple[float, float],
    box: tuple[float, float, float, float],
) -> int:
    """How many pages `draw` takes for the flowables `make` gives, drawn on a scratch canvas."""
    return draw(Canvas(io.BytesIO(), pagesize=size), make(), box, lambda canvas, number: None, 1)
