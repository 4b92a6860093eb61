"""A rules booklet's pages: page templates with alternating inner and outer margins, folios and
running heads, the file's name on home prints, the blank pages and back cover that complete a
stitched booklet's last sheet, and ReportLab's document built on a canvas that writes (or,
measuring, only counts) the pages.

`set_booklet` sets the booklet's flowables (render.booklet_flowables) at one spacing; render.booklet
chooses the spacing and remembers what was set. A block taller than any page is `BookletTooLarge`.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
)
from reportlab.platypus import Spacer as RLSpacer
from reportlab.platypus.doctemplate import ActionFlowable, LayoutError

from printshop.layout.plan import BookletLayout, GameLayout
from printshop.project.models.art import Motif
from printshop.project.models.booklet import BookletPages
from printshop.project.models.media import Paper
from printshop.project.units import to_mm
from printshop.render.booklet_covers import art_box, draw_page, page_styles, split_back_cover
from printshop.render.booklet_flowables import (
    BackCoverTooTall,
    KeepList,
    back_cover_blocks,
    back_cover_flowables,
    block_flowables,
    character_colours,
    keep_headings_with_next,
    list_hangs,
    list_runs,
)
from printshop.render.colour import Paints
from printshop.render.pdf import INITIAL_FONT
from printshop.render.replay import remember_page_streams
from printshop.typeset.fitting import paragraph_style
from printshop.typeset.icons import painting
from printshop.typeset.richtext import PageBreak as PageBreakBlock
from printshop.typeset.tables import SPREADS, TURNS


class _Doc(BaseDocTemplate):
    """Notes how much of the last page's frame the text fills."""

    tail = 0.0

    def afterFlowable(self, flowable):
        frame = getattr(self, "frame", None)
        if frame is None:  # between pages (a page break)
            return
        top = frame._y1 + frame._height - frame._topPadding
        self.tail = (top - frame._y) / max(frame._height, 1.0)


# the baseline of a home print's file name: 7 mm up, so that on Letter, where an imposed A5 page is
# shrunk, its descenders stay clear of the 5 mm band printers cannot print (print_and_play.margin)
FILE_NAME_BASELINE = 7 * 72 / 25.4


def set_booklet(
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    blank_pages: int,
    bleed: float,
    folio_name: str,
    file_name: str | None,
    content_pages: int | None = None,
    spacing: float = 1.0,
    back_cover: bool = False,
    measure: bool = False,
    stitched: bool = False,
) -> tuple[bytes, int, float, int]:
    """The booklet's bytes, its pages, how much of the last page's frame it fills and how many
    tables stand over a page turn from the text before them (tables.TURNS); `spacing`
    scales the space before and after paragraphs (to balance the last page). After the
    `content_pages`, `blank_pages` pages that complete the last sheet (`Padding`: notes pages),
    then (`back_cover`) a back cover. With `measure`,
    the pages are set but neither drawn nor written (the bytes are empty). `stitched`: a home
    booklet imposed for saddle stitching, whose page styles' fills reach the fold (`art_box`)."""
    style = booklet.style
    margins = style.margins
    buffer = io.BytesIO()
    hyphenation = game.localized.hyphenation
    styles = {
        name: paragraph_style(s, s.size, paints, name=name, hyphenation=hyphenation)
        for name, s in style.styles.items()
    }
    for paragraph in styles.values():
        paragraph.spaceBefore *= spacing
        paragraph.spaceAfter *= spacing
        # a paragraph's last line never begins a page, nor its first line ends one
        paragraph.allowWidows, paragraph.allowOrphans = 0, 0
    colours = character_colours(style.characters, paints)  # the red suits in red, as on the cards
    # a document set as a booklet without a cover (the how-to sheet) takes none of its page styles
    pages = style.pages if booklet.cover else BookletPages()
    assets = game.localized.data.dir  # a page style's images: files of the game's folder
    blocks, declared_back = split_back_cover(booklet.blocks)
    # the template's back cover; or, where it declares none, the cover's emblem and title
    back_blocks = declared_back if declared_back is not None else back_cover_blocks(blocks)
    padding = Padding.of(blank_pages, content_pages, back_cover)
    notes_title = game.localized.label("notes")

    def frame(inner_left: bool) -> Frame:
        left = margins.inner if inner_left else margins.outer
        right = margins.outer if inner_left else margins.inner
        return (_UndrawnFrame if measure else Frame)(
            bleed + left,
            bleed + margins.bottom,
            paper.width - left - right,
            paper.height - margins.top - margins.bottom,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )

    def folio(canvas, doc):
        if bleed:
            canvas.setTrimBox((bleed, bleed, bleed + paper.width, bleed + paper.height))
            canvas.setBleedBox((0, 0, paper.width + 2 * bleed, paper.height + 2 * bleed))
        setattr(canvas, SPREADS, bool(booklet.cover))  # a covered booklet is read in spreads
        role = padding.role(doc.page)
        last = role == "back"
        front = booklet.cover and doc.page == 1
        if not measure:  # the page's background and art, under its text
            page = pages.cover if front else pages.back_cover if last else pages.text
            box = art_box(paper, bleed, pages.inset, stitched, doc.page)
            draw_page(canvas, page, box, paper.height, bleed, paints, motifs, assets)
        if role == "notes" and not measure:
            _draw_notes(canvas, doc.page, paper, bleed, margins, styles, style, paints, notes_title)
        if front or last:
            # the covers carry no folio, no running head and no file name: they are the product's
            # face; a draft says so on them too
            if file_name and game.localized.draft:
                canvas.saveState()
                canvas.translate(bleed, bleed)
                canvas.setFillColor(paints.text(style.folio.colour))
                canvas.setFont(style.folio.font, style.folio.size * 0.75)
                canvas.drawCentredString(paper.width / 2, FILE_NAME_BASELINE, game.localized.draft)
                canvas.restoreState()
            return
        canvas.saveState()
        canvas.translate(bleed, bleed)
        canvas.setFillColor(paints.text(style.folio.colour))
        # the file's name (home prints) on the lowest line, clear of the band printers cannot print
        # (also once the page is imposed two to a sheet and shrunk to fit Letter); the folio above
        # it
        y = margins.bottom / 2
        # a rules booklet (one with a cover) names its file on none of its pages: bound, it is
        # read, and its running foot already names the game; a sheet set as a booklet (the how-to
        # page) names it as every home sheet does. A draft says so on every page.
        shown = file_name if file_name and not booklet.cover else ""
        marked = " · ".join(
            part for part in (game.localized.draft if file_name else "", shown) if part
        )
        if marked:
            canvas.setFont(style.folio.font, style.folio.size * 0.75)
            canvas.drawCentredString(paper.width / 2, FILE_NAME_BASELINE, marked)
        if file_name:  # a home print's folio stands where it does above a file's name
            y = max(y, FILE_NAME_BASELINE + style.folio.size * 1.3)
        if doc.page == 1:  # a first page that is no cover (the how-to sheet): no folio either
            canvas.restoreState()
            return
        canvas.setFont(style.folio.font, style.folio.size)
        odd = doc.page % 2 == 1
        text = f"{game.title} · {folio_name}"
        if odd:
            canvas.drawRightString(paper.width - margins.outer, y, str(doc.page))
            canvas.drawString(margins.inner, y, text)
        else:
            canvas.drawString(margins.outer, y, str(doc.page))
            canvas.drawRightString(paper.width - margins.inner, y, text)
        canvas.setStrokeColor(paints.line(style.rule_colour))
        canvas.setLineWidth(0.5)
        canvas.line(
            margins.inner if odd else margins.outer,
            y + style.folio.size * 1.4,
            paper.width - (margins.outer if odd else margins.inner),
            y + style.folio.size * 1.4,
        )
        canvas.restoreState()

    doc = _Doc(
        buffer,
        pagesize=(paper.width + 2 * bleed, paper.height + 2 * bleed),
        invariant=1,
        pageCompression=1,
        initialFontName=INITIAL_FONT,
        title=f"{game.title}: {folio_name}",
        author="printshop",
        creator="printshop",
        subject=folio_name,
        lang=game.lang,
        keywords="printshop:booklet",
    )
    doc.addPageTemplates(
        [
            PageTemplate("odd", [frame(True)], onPage=folio),
            PageTemplate("even", [frame(False)], onPage=folio),
        ]
    )
    story: list[Flowable] = [NextPageTemplate(["even", "odd"])]
    hangs = list_hangs(blocks, style.styles)
    cover_styles = page_styles(pages.cover, styles, paints, cover=True)
    text_styles = page_styles(pages.text, styles, paints)
    on_cover = booklet.cover  # the blocks before the first page break: the cover's, balanced
    cover_end = _CoverEnd()
    spans: dict[int, tuple[int, int]] = {}  # each text block's flowables: where they are in `story`
    for index, block in enumerate(blocks):
        start = len(story)
        if on_cover and isinstance(block, PageBreakBlock):
            story.append(cover_end)  # the page the cover's text ended on, known once it is set
        cover_break = on_cover and isinstance(block, PageBreakBlock)
        story.extend(
            block_flowables(
                block,
                style.styles,
                cover_styles if on_cover else text_styles,
                paints,
                motifs,
                style.rule_colour,
                style.tables,
                paper.width - margins.inner - margins.outer,
                colours,
                hangs.get(index),
                balanced=on_cover,
            )
        )
        if not on_cover:
            spans[index] = (start, len(story))
        on_cover = on_cover and not cover_break
    # each list of the text with the paragraph that introduces it, kept from breaking badly
    for lead, first, end in reversed(list_runs(blocks)):
        if lead in spans:
            top, middle, bottom = spans[lead][0], spans[first][0], spans[end - 1][1]
            story[top:bottom] = [
                KeepList(
                    story[top:middle],
                    story[middle:bottom],
                    style.lists,
                    paper.height - margins.top - margins.bottom,
                )
            ]
    # the text's headings kept with what follows them, among the text only: a heading that ends it
    # (a section whose paragraphs a template left out) was kept with the blank page or back cover
    # after it, and moved to a page of its own, one more than the pages measured (a stitched booklet
    # then no multiple of four)
    story = keep_headings_with_next(story, style.heading_lines)
    for _ in range(padding.notes):
        story.extend([PageBreak(), RLSpacer(1, 1)])
    if back_cover:
        story.append(PageBreak())
        try:
            back = back_cover_flowables(
                back_blocks or [],
                style,
                page_styles(pages.back_cover, styles, paints, cover=True),
                paints,
                motifs,
                colours,
                paper.width - margins.inner - margins.outer,
                paper.height - margins.top - margins.bottom,
                declared=declared_back is not None,
            )
        except BackCoverTooTall as error:
            raise BookletTooLarge(
                f"the back cover's text does not fit on the back cover of "
                f"{paper.label or 'the page'}: {to_mm(error.used):.0f} mm of it for "
                f"{to_mm(error.height):.0f} mm",
                style.where("styles"),
                hint='give the back cover\'s opening spacer (after <spacer height="back-cover"/>) '
                "less height, shorten its texts, or give its title and subtitle smaller sizes (the "
                "back_cover page style's `sizes` in the game's print/booklet.yaml)",
            ) from None
        story.extend(back)
    try:
        with painting(paints):  # an icon with its own colour, in this booklet's
            doc.build(story, canvasmaker=_MeasuringCanvas if measure else _WrittenCanvas)
    except (
        LayoutError
    ) as error:  # a paragraph taller than a page that cannot be split: the styles', not a bug
        raise BookletTooLarge(
            _too_large(str(error), paper), style.where("styles"), words=_too_large_words(str(error))
        ) from None
    # a designed cover (a page style with a background or art) whose text ran on past it: its last
    # lines print on the next page in the cover's colours (a booklet without one just flows on)
    designed = pages.cover.background is not None or bool(pages.cover.shapes)
    if designed and cover_end.page > 1:
        raise BookletTooLarge(
            f"the cover's text does not fit on the cover: it runs onto page {cover_end.page} "
            f"of {paper.label or 'the page'}",
            style.where("styles"),
            hint="give the cover's opening spacer less height, or its title and subtitle smaller "
            "sizes (the cover page style's `sizes` in the game's print/booklet.yaml)",
        )
    return buffer.getvalue(), doc.page, doc.tail, getattr(doc.canv, TURNS, 0)


@dataclass(frozen=True)
class Padding:
    """Where the pages that complete a booklet's last sheet (or leaf) go: pages headed "Notes" with
    ruled lines, just before the back cover. None is left blank, and none is the inside front
    cover: a blank page 2 read as padding, and moved every page of the rules a side over, so that
    a table "below" stood after a page turn (review 4). `content` is the pages of text (cover
    included), `None` when nothing pads the booklet."""

    notes: int
    content: int | None
    back_cover: bool

    @classmethod
    def of(cls, padding: int, content: int | None, back_cover: bool) -> Padding:
        return cls(padding, content, back_cover)

    def role(self, page: int) -> str:
        """'notes', 'back' (the back cover) or 'text' (the cover and the rules)."""
        content = self.content or 0
        if self.back_cover and page == content + self.notes + 1:
            return "back"
        if self.content is not None and page > content:
            return "notes"
        return "text"


# the space between a notes page's ruled lines
NOTES_LINE_SPACING = 8 * 72 / 25.4


def _draw_notes(canvas, page, paper, bleed, margins, styles, style, paints, title) -> None:
    """A notes page: its title in the first heading's style at the frame's top, then ruled lines in
    the rules' colour down to the frame's foot."""
    odd = page % 2 == 1
    left = margins.inner if odd else margins.outer
    right = paper.width - (margins.outer if odd else margins.inner)
    heading = styles.get("h1") or next(iter(styles.values()))
    declared = style.styles.get("h1")
    text = title.upper() if declared is not None and declared.uppercase else title
    top = paper.height - margins.top - heading.fontSize
    canvas.saveState()
    canvas.translate(bleed, bleed)
    canvas.setFillColor(heading.textColor)
    canvas.setFont(heading.fontName, heading.fontSize)
    canvas.drawString(left, top, text)
    canvas.setStrokeColor(paints.line(style.rule_colour))
    canvas.setLineWidth(0.4)
    y = top - 1.5 * NOTES_LINE_SPACING
    while y > margins.bottom + style.folio.size * 2.5:
        canvas.line(left, y, right, y)
        y -= NOTES_LINE_SPACING
    canvas.restoreState()


class _CoverEnd(ActionFlowable):
    """A mark after the cover's blocks: the page it is met on (1, when the cover's text fits)."""

    def __init__(self):
        super().__init__()
        self.page = 0

    def apply(self, doc) -> None:
        self.page = doc.page


class BookletTooLarge(Exception):
    """Something of the booklet cannot be set on its page at the styles' sizes and spaces; `where`:
    booklet.yaml's styles (jobs.py reports it there as text-overflow, not as a fault of printshop)."""

    def __init__(self, message: str, where, hint: str = "", words: str = ""):
        super().__init__(message)
        # words: how the paragraph too tall for a page begins (ReportLab's 60 characters of it)
        self.where, self.hint, self.words = where, hint, words


_TOO_LARGE = re.compile(
    r"Flowable <(\w+) at 0x[0-9a-f]+>(.*?)\(([\d.]+) x ([\d.]+)\) too large on page (\d+)", re.S
)


def _too_large_words(said: str) -> str:
    """The words ReportLab's LayoutError quotes of the flowable too large for a page ("" if none)."""
    found = _TOO_LARGE.search(said)
    return " ".join(found.group(2).split()).strip(" .'\"") if found else ""


def _too_large(said: str, paper: Paper) -> str:
    """ReportLab's LayoutError in words, without the object's address (the message must be the same
    every run)."""
    found = _TOO_LARGE.search(said)
    if found is None:
        return f"the rules booklet cannot be set on {paper.label or 'its paper'}: a block is taller than a page"
    kind, text, height, page = (
        found.group(1),
        " ".join(found.group(2).split())[:60],
        float(found.group(4)),
        found.group(5),
    )
    what = (
        f"the paragraph '{text}…'" if text else "a paragraph" if "Paragraph" in kind else "a block"
    )
    return (
        f"the rules booklet cannot be set on {paper.label or 'its paper'}: {what} is {to_mm(height):.0f} mm "
        f"tall on page {page} and cannot be split across pages at its style's size"
    )


class _WrittenCanvas(Canvas):
    """ReportLab's canvas; in a session, each page stream formatted once per content
    (render/replay.py)."""

    def __init__(self, *args, **settings):
        super().__init__(*args, **settings)
        remember_page_streams(self)


class _MeasuringCanvas(Canvas):
    """A canvas that keeps its pages to itself: measuring a booklet needs its pages counted, not
    written."""

    def save(self):
        pass


class _UndrawnFrame(Frame):
    """Measuring: each flowable is wrapped, split and placed as when the booklet is written, but not
    drawn (a flowable's drawing changes no later position; it was half of a measurement)."""

    def _add(self, flowable, canv, trySplit=0):
        flowable.drawOn = _not_drawn  # shadows the class's method for this flowable only
        try:
            return super()._add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn

    add = _add  # ReportLab's Frame binds `add` to its own `_add`


def _not_drawn(*args, **kwargs) -> None:
    pass
