"""Rule booklets: the booklet template's blocks flowed over pages (A5 by default) with folios.

Paragraph styles come from data/print/booklet.yaml; inner and outer margins alternate so that
the pages can be bound. Tables get a coloured header row. Art blocks draw a vector motif.

A booklet's last page never holds a scrap (a paragraph, two lines): the space between paragraphs is
tightened until it goes, or loosened until the last page holds more. A saddle-stitched booklet (`pad_to`
4) is balanced instead: of the same spacings, one with no scrap that needs the fewest blank pages to reach a
multiple of four (then the spacing nearest the template's). Pages still missing go at the end: the
last page is a back cover (the cover's emblem and title), the blank pages before it are the inside back
cover, so no blank ever falls inside the rules; the back cover and the blank pages carry no folio nor running
head, and blank pages carry nothing at all (no file name either). The cover carries no folio.

Justified paragraphs never stretch a word space beyond twice the font's own (printshop/typeset/justify.py), and
the characters the booklet style names under `characters` (the red suits ♥ ♦) print in their colour
(except in table headers, white on the accent). A stretch of the template that begins with
`<spacer height="print-and-play"/>` (the home-printing section) runs to the next `<h1>` after its own
first one, and is left out of press booklets (`bleed`): a shop's booklet is printed.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import replace

from reportlab.lib.colors import CMYKColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    TableStyle,
)
from reportlab.platypus import Spacer as RLSpacer
from reportlab.platypus import Table as RLTable
from reportlab.platypus.doctemplate import LayoutError

from printshop import memos
from printshop.layout.faces import BookletLayout, GameLayout
from printshop.memo import Memo, Reads, unchanged, values_of
from printshop.project.model import Motif, Paper, TextStyle
from printshop.project.units import parse_length, to_mm
from printshop.render.colour import Paints, StandIn
from printshop.render.faces import draw_motif
from printshop.render.pdf import INITIAL_FONT
from printshop.render.replay import motif_key, recordings, remember_page_streams
from printshop.typeset.fitting import ALIGN, hang, paragraph_style
from printshop.typeset.fonts import state as fonts_state
from printshop.typeset.fonts import with_fallback
from printshop.typeset.justify import EvenParagraph
from printshop.typeset.richtext import (
    HOME_ONLY,
    Art,
    Para,
    Spacer,
    Table,
    column_widths,
    uppercase,
)
from printshop.typeset.richtext import (
    PageBreak as PageBreakBlock,
)


class _MotifFlowable(Flowable):
    def __init__(self, motif: Motif, size: float, colour: str):
        super().__init__()
        self.motif, self.size, self.colour = motif, size, colour

    def wrap(self, available_width, available_height):
        self.available_width = available_width
        return available_width, self.size

    def draw(self):
        self.canv.setFillColor(self.colour)
        draw_motif(
            self.canv,
            self.motif,
            (self.available_width - self.size) / 2,
            0,
            self.size,
            self.size,
            0,
            True,
            False,
        )


def render_booklet(
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    file_name: str,
    pad_to: int = 1,
    bleed: float = 0.0,
    folio: str | None = None,
) -> tuple[bytes, int]:
    """The booklet; with `pad_to` (4 for saddle stitching) its pages balanced to a multiple of `pad_to`,
    blank pages and a back cover completing the last sheet; with `bleed`, pages grow by it on every side
    and carry TrimBox and BleedBox (press files). `folio` names the document in the running foot (default:
    the language's word for rules).

    In a session (`serve`, `watch`: render/replay.py's store is set), a booklet is rendered once for what it is
    made from and given again while the colours and motifs it read keep their values (`_remembered`): a card's
    text saved, or a colour the rules do not use, sets no booklet again. The process also remembers its last
    booklets the same way (`_BOOKLETS`), in a session or not: a `printshop build` renders each once anyway, but
    a program that builds again in the same process (the test suite does, a hundred times, and starts a
    session on a copy of the same data fifty times) is given them."""
    folio = folio if folio is not None else game.localized.label("rules")
    store = recordings.get()
    # a palette, or one standing in for the names it lacks (serve's colour.StandIn), whose colours can be copied
    # to be compared; another mapping is read as it is, never remembered
    memos = [_BOOKLETS] if isinstance(_beneath(paints.palette), dict) else []
    if store is not None:
        memos.insert(0, store.booklets)
    if not memos:
        return _render_whole(game, booklet, paper, paints, motifs, file_name, pad_to, bleed, folio)
    return _remembered(memos, game, booklet, paper, paints, motifs, file_name, pad_to, bleed, folio)


# the booklets this process rendered last (a few hundred KB each at most; a catalogue's kits have about 40)
_BOOKLETS = memos.BOOKLETS


def _remembered(
    memos: list[Memo],
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    file_name: str,
    pad_to: int,
    bleed: float,
    folio: str,
) -> tuple[bytes, int]:
    """`_render_whole`, remembered by everything it reads but the palette and the motifs (the blocks, the style,
    the page, the colour mode, the names and options, what it reads of the game, the fonts registered) and, for
    each booklet made so, the colours and motifs it read, with their values (memo.Reads): a booklet is given
    again only where every one of them is as it was. Looked up in each of `memos` in turn (a session's, then
    the process's); one found in a later memo, or rendered, is kept in the earlier ones too."""
    localized = game.localized
    stand_in = isinstance(
        paints.palette, StandIn
    )  # (a name it lacks is magenta, where a palette has none at all)
    key = (
        repr(booklet.blocks),
        booklet.style.model_dump_json(),
        repr(paper),
        repr(paints.mode),
        file_name,
        pad_to,
        bleed,
        folio,
        game.title,
        game.lang,
        localized.draft,
        localized.language.typography.hyphenation,
        fonts_state(),
        stand_in,
    )
    for depth, booklets in enumerate(memos):
        made = booklets.get(key, ())
        for entry in made:
            colours, drawn, result = entry
            if unchanged(colours, paints.palette) and unchanged(drawn, motifs, motif_key):
                _keep(memos[:depth], key, entry)
                return result
    # the colours it reads are noted on a copy; kept with the values `paints.palette` itself gives for them (a stand-in
    # its magenta for a name it lacks; a palette that notes its reads, serve's, notes them as on a hit)
    read_colours = Reads(_beneath(paints.palette), log=[])
    read_motifs = Reads(motifs, log=[])
    result = _render_whole(
        game,
        booklet,
        paper,
        replace(paints, palette=StandIn(read_colours) if stand_in else read_colours),
        read_motifs,
        file_name,
        pad_to,
        bleed,
        folio,
    )
    _keep(
        memos,
        key,
        (
            values_of(read_colours.read, paints.palette),
            values_of(read_motifs.read, motifs, motif_key),
            result,
        ),
    )
    return result


def _beneath(palette):
    """The palette a stand-in (colour.StandIn) stands in for; any other palette itself."""
    return palette.palette if isinstance(palette, StandIn) else palette


def _keep(memos: list[Memo], key, entry) -> None:
    for booklets in memos:
        made = booklets.get(key, ())
        booklets[key] = (*made[-1:], entry)  # (and the one before: a colour saved back and forth)


def _render_whole(
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    file_name: str,
    pad_to: int,
    bleed: float,
    folio: str,
) -> tuple[bytes, int]:
    # home prints name their file on every page; a press booklet is the printed product, and does not
    marked = None if bleed else file_name
    booklet = _for_target(booklet, press=bool(bleed))

    def render(
        spacing: float,
        blank_pages: int = 0,
        content_pages: int | None = None,
        back_cover: bool = False,
    ) -> bytes:
        return _render_booklet(
            game,
            booklet,
            paper,
            paints,
            motifs,
            blank_pages,
            bleed,
            folio,
            marked,
            content_pages,
            spacing=spacing,
            back_cover=back_cover,
        )[0]

    spacing, pages = booklet_flow(game, booklet, paper, paints, motifs, pad_to)
    missing = (-pages) % pad_to
    if not missing:
        return render(spacing), pages
    # the last one a back cover, if the cover has anything to show on it; blank pages before it
    back = bool(_back_cover(booklet.blocks))
    return render(spacing, missing - 1 if back else missing, pages, back), pages + missing


def booklet_pages(
    game: GameLayout, booklet: BookletLayout, paper: Paper, paints: Paints, motifs: dict[str, Motif]
) -> int:
    """The pages `render_booklet` gives the booklet (no `pad_to`, no bleed), measured without writing it: what
    a kit on another paper lists on its how-to page for the A5 rules one kit writes."""
    return booklet_flow(game, _for_target(booklet, press=False), paper, paints, motifs)[1]


def booklet_flow(
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    pad_to: int = 1,
) -> tuple[float, int]:
    """The spacing the booklet is set with and its pages of text (blank pages and back cover not counted): the
    template's spacing, unless the last page would hold a scrap (then tighter or looser), or, with `pad_to`,
    the one `_balanced` chooses. Each spacing is tried by setting the pages without writing a PDF
    (`_measure`), and once per process for the same text on the same page: a booklet written for A4 and
    Letter, or as a standalone A5 and as one imposed, is measured once."""

    def measure(spacing: float) -> tuple[int, float]:
        return _measure(game, booklet, paper, paints, motifs, spacing)

    spacing = 1.0
    pages, tail = measure(spacing)
    if pad_to > 1:
        (pages, tail), spacing = _balanced(measure, (pages, tail), pad_to)
    elif pages > 1 and tail < LAST_PAGE_LEAST:
        for tighter in TIGHTER:  # the last page's few lines move back onto the page before
            candidate = measure(tighter)
            if candidate[0] < pages:
                (pages, tail), spacing = candidate, tighter
                break
        else:
            for looser in LOOSER:  # or more lines move forward onto the last page
                candidate = measure(looser)
                if candidate[0] == pages and candidate[1] >= LAST_PAGE_LEAST:
                    (pages, tail), spacing = candidate, looser
                    break
    return spacing, pages


def _measure(
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    spacing: float,
) -> tuple[int, float]:
    """(pages, how much of the last page's frame the text fills) of the booklet set with `spacing`, remembered
    by everything that moves a line or a page break: the blocks, the style, the page, the language's
    hyphenation, the fonts and the colours written into the text (a home booklet's RGB, a shop's CMYK). The
    file name, folio and bleed are drawn outside the frames and change nothing, as do the motifs' shapes (their
    blocks give their sizes)."""
    key = (
        repr(booklet.blocks),
        repr(booklet.style),
        paper.width,
        paper.height,
        game.localized.language.typography.hyphenation,
        tuple(character_colours(booklet.style.characters, paints).items()),
        fonts_state(),
        spacing,
    )
    known = _MEASURED.get(key)
    if known is None:
        _, pages, tail = _render_booklet(
            game, booklet, paper, paints, motifs, 0, 0.0, "", None, spacing=spacing, measure=True
        )
        known = _MEASURED[key] = (pages, tail)
    return known


_MEASURED = memos.BOOKLET_MEASURES


def _balanced(measure, first: tuple[int, float], pad_to: int) -> tuple[tuple[int, float], float]:
    """Of the template's spacing and the tighter and looser ones, a booklet whose last page holds no scrap (a
    page with two lines on it is worse than a blank one), then the one that needs the fewest blank pages to
    fill its last sheet (the back cover is not one), then the spacing nearest the template's; with its
    spacing."""

    def score(result: tuple[int, float], spacing: float) -> tuple:
        pages, tail = result
        blanks = max(0, (-pages) % pad_to - 1)
        return pages > 1 and tail < LAST_PAGE_LEAST, blanks, abs(math.log(spacing))

    best, best_spacing = first, 1.0
    best_score = score(first, 1.0)
    for spacing in sorted((*TIGHTER, *LOOSER), key=lambda factor: abs(math.log(factor))):
        if best_score[:2] == (False, 0):
            break
        candidate = measure(spacing)
        candidate_score = score(candidate, spacing)
        if candidate_score < best_score:
            best, best_spacing, best_score = candidate, spacing, candidate_score
    return best, best_spacing


# the least share of the last page's frame that its text fills: less reads as a scrap left over
LAST_PAGE_LEAST = 0.25
TIGHTER = (0.85, 0.7, 0.55)  # factors on the space before and after paragraphs, tried in turn
LOOSER = (1.25, 1.5, 1.8)


def _for_target(booklet: BookletLayout, press: bool) -> BookletLayout:
    """The booklet without the home-only markers; for a press booklet, also without the sections they open
    (from the marker to the `h1` that follows the section's own heading)."""
    kept, skipping, headings = [], False, 0
    for block in booklet.blocks:
        if isinstance(block, Spacer) and block.height == HOME_ONLY:
            skipping, headings = press, 0
            continue
        if skipping and isinstance(block, Para) and block.style == "h1":
            headings += 1
            if headings > 1:
                skipping = False
        if not skipping:
            kept.append(block)
    while kept and isinstance(
        kept[-1], PageBreakBlock
    ):  # a break after the last page breaks nothing (ReportLab
        kept.pop()  # counted an empty page after it in one pass and not in the other: a stitched booklet's pages
    return BookletLayout(kept, booklet.style, booklet.text_ids)  # were then not a multiple of four)


class _Doc(BaseDocTemplate):
    """Notes how much of the last page's frame the text fills."""

    tail = 0.0

    def afterFlowable(self, flowable):
        frame = getattr(self, "frame", None)
        if frame is None:  # between pages (a page break)
            return
        top = frame._y1 + frame._height - frame._topPadding
        self.tail = (top - frame._y) / max(frame._height, 1.0)


# the baseline of a home print's file name: 7 mm up, so that on Letter, where an imposed A5 page is shrunk,
# its descenders stay clear of the 5 mm band printers cannot print (print_and_play.margin)
FILE_NAME_BASELINE = 7 * 72 / 25.4


def _render_booklet(
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
) -> tuple[bytes, int, float]:
    """The booklet's bytes, its pages and how much of the last page's frame it fills; `spacing` scales the
    space before and after paragraphs (to balance the last page). After the `content_pages`, `blank_pages`
    empty pages, then (`back_cover`) a back cover. With `measure`, the pages are set but neither drawn nor
    written (the bytes are empty)."""
    style = booklet.style
    margins = style.margins
    buffer = io.BytesIO()
    hyphenation = game.localized.language.typography.hyphenation
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
        padding = content_pages is not None and doc.page > content_pages
        if padding and not (back_cover and doc.page == content_pages + blank_pages + 1):
            return  # a blank page completing the last sheet: nothing on it, not even the file's name
        canvas.saveState()
        canvas.translate(bleed, bleed)
        canvas.setFillColor(paints.text(style.folio.colour))
        # the file's name (home prints) on the lowest line, clear of the band printers cannot print (also once
        # the page is imposed two to a sheet and shrunk to fit Letter); the folio above it
        y = margins.bottom / 2
        if file_name:
            low = FILE_NAME_BASELINE
            canvas.setFont(style.folio.font, style.folio.size * 0.75)
            marked = f"{game.localized.draft} · {file_name}" if game.localized.draft else file_name
            canvas.drawCentredString(paper.width / 2, low, marked)
            y = max(y, low + style.folio.size * 1.3)
        # neither the cover nor the back cover carries a folio or running head
        if doc.page == 1 or padding:
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
        canvas.setStrokeColor(paints.fill(style.rule_colour))
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
    hangs = list_hangs(booklet.blocks, style.styles)
    for index, block in enumerate(booklet.blocks):
        story.extend(
            _flowables(
                block,
                style.styles,
                styles,
                paints,
                motifs,
                paints.fill(style.rule_colour),
                style.tables,
                paper.width - margins.inner - margins.outer,
                colours,
                hangs.get(index),
            )
        )
    # the text's headings kept with what follows them, among the text only: a heading that ends it (a section whose
    # paragraphs a template left out) was kept with the blank page or back cover after it, and moved to a page of
    # its own, one more than the pages measured (a stitched booklet then no multiple of four)
    story = _keep_headings_with_next(story)
    for _ in range(blank_pages):
        story.extend([PageBreak(), RLSpacer(1, 1)])
    if back_cover:
        story.append(PageBreak())
        story.extend(
            _back_cover_flowables(
                _back_cover(booklet.blocks),
                style,
                styles,
                paints,
                motifs,
                colours,
                paper.width - margins.inner - margins.outer,
                paper.height - margins.top - margins.bottom,
            )
        )
    try:
        doc.build(story, canvasmaker=_MeasuringCanvas if measure else _WrittenCanvas)
    except (
        LayoutError
    ) as error:  # a paragraph taller than a page that cannot be split: the styles', not a bug
        raise BookletTooLarge(_too_large(str(error), paper), style.where("styles")) from None
    return buffer.getvalue(), doc.page, doc.tail


class BookletTooLarge(Exception):
    """Something of the booklet cannot be set on its page at the styles' sizes and spaces; `where`: booklet.yaml's
    styles (jobs.py reports it there as text-overflow, not as a fault of printshop)."""

    def __init__(self, message: str, where):
        super().__init__(message)
        self.where = where


_TOO_LARGE = re.compile(
    r"Flowable <(\w+) at 0x[0-9a-f]+>(.*?)\(([\d.]+) x ([\d.]+)\) too large on page (\d+)", re.S
)


def _too_large(said: str, paper: Paper) -> str:
    """ReportLab's LayoutError in words, without the object's address (the message must be the same every run)."""
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
    """ReportLab's canvas; in a session, each page stream formatted once per content (render/replay.py)."""

    def __init__(self, *args, **settings):
        super().__init__(*args, **settings)
        remember_page_streams(self)


class _MeasuringCanvas(Canvas):
    """A canvas that keeps its pages to itself: measuring a booklet needs its pages counted, not written."""

    def save(self):
        pass


class _UndrawnFrame(Frame):
    """Measuring: each flowable is wrapped, split and placed as when the booklet is written, but not drawn (a
    flowable's drawing changes no later position; it was half of a measurement)."""

    def _add(self, flowable, canv, trySplit=0):
        flowable.drawOn = _not_drawn  # shadows the class's method for this flowable only
        try:
            return super()._add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn

    add = _add  # ReportLab's Frame binds `add` to its own `_add`


def _not_drawn(*args, **kwargs) -> None:
    pass


def character_colours(characters: dict[str, str], paints: Paints) -> dict[str, str]:
    """Each character the booklet style's `characters` names (a key may name several), with its colour in
    `paints` written as paragraph markup takes it: "#rrggbb", or "cmyk(c,m,y,k)" in a shop's CMYK."""
    colours = {}
    for keys, name in characters.items():
        colour = paints.text(name)
        if isinstance(colour, CMYKColor):
            written = "cmyk({})".format(",".join(f"{value:.4f}" for value in colour.cmyk()))
        else:
            written = "#" + colour.hexval()[2:]
        colours.update({character: written for character in keys})
    return colours


def _set(markup: str, colours: dict[str, str] | None) -> str:
    """`markup` with each character of `colours` in its colour (text only, never inside tags or entities),
    then the characters the families lack in the fallback face."""
    if colours and any(character in markup for character in colours):
        markup = re.sub(
            r"(<[^>]*>|&[#\w]+;)|([^<&]+)",
            lambda match: (
                match.group(1)
                or "".join(
                    f'<font color="{colours[ch]}">{ch}</font>' if ch in colours else ch
                    for ch in match.group(2)
                )
            ),
            markup,
        )
    return with_fallback(markup)


def _back_cover(blocks: list) -> list:
    """What the back cover shows: the cover's first emblem (`art`) and its `title`, from the blocks before the
    first page break; empty if the cover has neither."""
    shown: list = []
    for block in blocks:
        if isinstance(block, PageBreakBlock):
            break
        if isinstance(block, Art) and not any(isinstance(b, Art) for b in shown):
            shown.append(block)
        elif (
            isinstance(block, Para)
            and block.style == "title"
            and not any(isinstance(b, Para) for b in shown)
        ):
            shown.append(block)
    return shown


# the space between the back cover's emblem and title
BACK_COVER_GAP = 6 * 72 / 25.4


def _back_cover_flowables(
    blocks: list,
    style,
    styles: dict[str, ParagraphStyle],
    paints: Paints,
    motifs: dict[str, Motif],
    colours: dict[str, str],
    width: float,
    height: float,
) -> list[Flowable]:
    """The back cover's emblem and title, centred on the page's frame."""
    shown: list[Flowable] = []
    for block in blocks:
        if shown:
            shown.append(RLSpacer(1, BACK_COVER_GAP))
        if isinstance(block, Art):
            shown.append(
                _MotifFlowable(
                    motifs[block.motif], parse_length(block.size), paints.fill(block.colour)
                )
            )
        else:
            shown.extend(
                _flowables(
                    block, style.styles, styles, paints, motifs, None, style.tables, width, colours
                )
            )
    used = sum(flowable.wrap(width, height)[1] for flowable in shown)
    if used > height - 2:  # it would run onto another page: the back cover stays bare
        return [RLSpacer(1, 1)]
    return [RLSpacer(1, (height - used) / 2 - 1), *shown]


def list_hangs(blocks: list, text_styles: dict[str, TextStyle]) -> dict[int, float]:
    """The indent of each list item (by its index in `blocks`): one for all the items of a list (a run of items in
    one style), which its widest number hangs in (fitting.hang), so that "10." moves no item's text but its own."""
    hangs: dict[int, float] = {}
    run: list[int] = []

    def close() -> None:
        spec = text_styles.get(blocks[run[0]].style) if run else None
        if spec is not None:
            indent = hang(
                [blocks[index].bullet for index in run], spec.font, spec.size, spec.indent
            )
            hangs.update(dict.fromkeys(run, indent))
        run.clear()

    for index, block in enumerate(blocks):
        item = isinstance(block, Para) and block.bullet
        if run and not (
            item and blocks[run[-1]].style == block.style
        ):  # (anything else ends the run)
            close()
        if item:
            run.append(index)
    close()
    return hangs


def _flowables(
    block,
    text_styles: dict[str, TextStyle],
    styles: dict[str, ParagraphStyle],
    paints: Paints,
    motifs: dict[str, Motif],
    accent,
    tables,
    frame_width: float,
    colours: dict[str, str] | None = None,
    indent: float | None = None,
) -> list[Flowable]:
    if isinstance(block, Para):
        spec = text_styles[block.style]
        markup = uppercase(block.markup) if spec.uppercase else block.markup
        if block.bullet:
            indent = (
                indent
                if indent is not None
                else hang([block.bullet], spec.font, spec.size, spec.indent)
            )
            # the bullet at the margin, in the item's size (ReportLab's default is 10 pt, whatever the text's)
            bullet_style = ParagraphStyle(
                f"{block.style}-bullet",
                parent=styles[block.style],
                leftIndent=indent,
                bulletIndent=0,
                bulletFontSize=styles[block.style].fontSize,
            )
            return [EvenParagraph(_set(markup, colours), bullet_style, bulletText=block.bullet)]
        return [EvenParagraph(_set(markup, colours), styles[block.style])]
    if isinstance(block, Table):
        aligned: dict[tuple[bool, str], ParagraphStyle] = {}

        def cell_style(head: bool, column: int) -> ParagraphStyle:
            """The th or td style, in the column's own alignment where the table gives one (align="left,right")."""
            base = styles["th" if head else "td"]
            align = block.aligns[column] if block.aligns and column < len(block.aligns) else None
            if align is None:
                return base
            made = aligned.get((head, align))
            if made is None:
                made = aligned[(head, align)] = ParagraphStyle(
                    f"{base.name}-{align}", parent=base, alignment=ALIGN[align]
                )
            return made

        rows = [
            [
                Paragraph(_set(markup, None if head else colours), cell_style(head, column))
                for column, (head, markup) in enumerate(row)
            ]
            for row in block.rows
        ]
        table = RLTable(
            rows, hAlign="CENTER", repeatRows=1, colWidths=column_widths(block, frame_width)
        )
        commands = [
            ("GRID", (0, 0), (-1, -1), tables.grid_width, paints.fill(tables.grid)),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("FONTNAME", (0, 0), (-1, -1), text_styles["td"].font),  # not the default Helvetica
            ("TEXTCOLOR", (0, 0), (-1, -1), paints.text(text_styles["td"].colour)),  # not RGB black
            ("TOPPADDING", (0, 0), (-1, -1), tables.padding),
            ("BOTTOMPADDING", (0, 0), (-1, -1), tables.padding),
        ]
        for r, row in enumerate(block.rows):
            for c, (head, _) in enumerate(row):
                if head:
                    commands.append(("BACKGROUND", (c, r), (c, r), accent))
        table.setStyle(TableStyle(commands))
        return [RLSpacer(1, tables.space_before), table, RLSpacer(1, tables.space_after)]
    if isinstance(block, Spacer):
        if block.height == HOME_ONLY:  # a marker _for_target removes; nothing to draw
            return []
        return [RLSpacer(1, parse_length(block.height))]
    if isinstance(block, PageBreakBlock):
        return [PageBreak()]
    if isinstance(block, Art):
        return [
            _MotifFlowable(motifs[block.motif], parse_length(block.size), paints.fill(block.colour))
        ]
    return []


def _keep_headings_with_next(story: list[Flowable]) -> list[Flowable]:
    """A heading never ends a page: it is kept together with the flowable after it."""
    result: list[Flowable] = []
    i = 0
    while i < len(story):
        item = story[i]
        name = getattr(getattr(item, "style", None), "name", "")
        if name in ("h1", "h2") and i + 1 < len(story):
            group = [item]
            while i + 1 < len(story) and getattr(
                getattr(story[i + 1], "style", None), "name", ""
            ) in ("h1", "h2"):
                i += 1
                group.append(story[i])
            if i + 1 < len(story):
                i += 1
                group.append(story[i])
            result.append(KeepTogether(group))
        else:
            result.append(item)
        i += 1
    return result
