"""Rule booklets: the booklet template's blocks flowed over pages (A5 by default) with folios.

Paragraph styles come from data/print/booklet.yaml; inner and outer margins alternate so that
the pages can be bound. Tables get a coloured header row. Art blocks draw a vector motif.

The A5 rules a kit writes have an even number of pages (`LEAVES`: printed double-sided, the back
cover is the back of the last leaf). A booklet's last page never holds a scrap (a paragraph, two lines), and is at least half full where a
spacing allows: the space between paragraphs is tightened until its lines go back a page, or loosened
until the last page holds more. A saddle-stitched booklet (`pad_to` 4) is balanced instead: of the
same spacings, one with no scrap that needs the fewest blank pages to reach a multiple of four, then
one whose last page is half full, then the spacing nearest the template's. The last page is a back cover (the
cover's emblem and title); pages still missing are notes pages before the back cover
(render.booklet_pages.Padding), never a blank page; the back cover carries no folio nor running
head. A template that declares its back cover
(`<spacer height="back-cover"/>`, render.booklet_covers) has it on the last page of every booklet, stitched
or not. Neither cover carries a folio or the file's name; their colours and art are booklet.yaml's `pages`.

Justified paragraphs never stretch a word space beyond twice the font's own
(printshop/typeset/justify.py), and the characters the booklet style names under `characters` (the
red suits ♥ ♦) print in their colour (except in table headers, white on the accent). A stretch of
the template that begins with `<spacer height="print-and-play"/>` (the home-printing section) runs
to the next `<h1>` after its own first one, and is left out of press booklets (`bleed`): a shop's
booklet is printed.

Here: a booklet rendered once for what it is made from (`_remembered`), and the spacing its pages
are set with, found by measuring (`booklet_flow`). Its pages, folios and canvases are set in
render.booklet_pages; its blocks become flowables in render.booklet_flowables.
"""

from __future__ import annotations

import math
from dataclasses import replace

from printshop import memos
from printshop.layout.plan import BookletLayout, GameLayout
from printshop.memo import Memo, Reads, unchanged, values_of
from printshop.project.models.art import Motif
from printshop.project.models.media import Paper
from printshop.render.booklet_covers import image_stamps, split_back_cover
from printshop.render.booklet_flowables import back_cover_blocks, character_colours
from printshop.render.booklet_pages import set_booklet
from printshop.render.colour import Paints, StandIn
from printshop.render.replay import motif_key, recordings
from printshop.typeset.fonts import state as fonts_state
from printshop.typeset.richtext import BACK_COVER, HOME_ONLY, Para, Spacer
from printshop.typeset.richtext import PageBreak as PageBreakBlock


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
    """The booklet; with `pad_to` (4 for saddle stitching) its pages balanced to a multiple of
    `pad_to`, blank pages and a back cover completing the last sheet; with `bleed`, pages grow by it
    on every side and carry TrimBox and BleedBox (press files). `folio` names the document in the
    running foot (default: the language's word for rules).

    In a session (`serve`, `watch`: render/replay.py's store is set), a booklet is rendered once for
    what it is made from and given again while the colours and motifs it read keep their values
    (`_remembered`): a card's text saved, or a colour the rules do not use, sets no booklet again.
    The process also remembers its last booklets the same way (`_BOOKLETS`), in a session or not: a
    `printshop build` renders each once anyway, but a program that builds again in the same process
    (the test suite does, a hundred times, and starts a session on a copy of the same data fifty
    times) is given them."""
    folio = folio if folio is not None else game.localized.label("rules")
    store = recordings.get()
    # a palette, or one standing in for the names it lacks (serve's colour.StandIn), whose colours
    # can be copied to be compared; another mapping is read as it is, never remembered
    kept_in = [_BOOKLETS] if isinstance(_beneath(paints.palette), dict) else []
    if store is not None:
        kept_in.insert(0, store.booklets)
    if not kept_in:
        return _render_whole(game, booklet, paper, paints, motifs, file_name, pad_to, bleed, folio)
    return _remembered(
        kept_in, game, booklet, paper, paints, motifs, file_name, pad_to, bleed, folio
    )


# the booklets this process rendered last (a few hundred KB each at most; a catalogue's kits have
# about 40)
_BOOKLETS = memos.BOOKLETS


def _remembered(
    kept_in: list[Memo],
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
    """`_render_whole`, remembered by everything it reads but the palette and the motifs (the
    blocks, the style, the page, the colour mode, the names and options, what it reads of the game,
    the fonts registered) and, for each booklet made so, the colours and motifs it read, with their
    values (memo.Reads): a booklet is given again only where every one of them is as it was. Looked
    up in each of `kept_in` in turn (a session's, then the process's); one found in a later memo, or
    rendered, is kept in the earlier ones too."""
    localized = game.localized
    stand_in = isinstance(
        paints.palette, StandIn
    )  # (a name it lacks is magenta, where a palette has none at all)
    key = (
        repr(booklet.blocks),
        booklet.cover,
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
        localized.hyphenation,
        fonts_state(),
        stand_in,
        image_stamps(booklet.style, localized.data.dir),
    )
    for depth, booklets in enumerate(kept_in):
        made = booklets.get(key, ())
        for entry in made:
            colours, drawn, result = entry
            if unchanged(colours, paints.palette) and unchanged(drawn, motifs, motif_key):
                _keep(kept_in[:depth], key, entry)
                return result
    # the colours it reads are noted on a copy; kept with the values `paints.palette` itself gives
    # for them (a stand-in its magenta for a name it lacks; a palette that notes its reads, serve's,
    # notes them as on a hit)
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
        kept_in,
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


def _keep(kept_in: list[Memo], key, entry) -> None:
    for booklets in kept_in:
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
    # home prints name their file on every page; a press booklet is the printed product, and does
    # not
    marked = None if bleed else file_name
    booklet = _for_target(booklet, press=bool(bleed))

    def render(
        spacing: float,
        blank_pages: int = 0,
        content_pages: int | None = None,
        back_cover: bool = False,
    ) -> bytes:
        return set_booklet(
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
            stitched=pad_to >= STITCHED,
        )[0]

    spacing, pages = booklet_flow(game, booklet, paper, paints, motifs, pad_to)
    declared = split_back_cover(booklet.blocks)[1] is not None
    missing = _missing(pages, declared, pad_to)
    if not missing:
        return render(spacing), pages
    # the last one a back cover, if the cover has anything to show on it; blank pages before it
    back = declared or bool(back_cover_blocks(booklet.blocks))
    return render(spacing, missing - 1 if back else missing, pages, back), pages + missing


# the rules a kit writes page by page (the A5 file) have an even number of pages: printed
# double-sided, the back cover is the back of the last leaf, never a page of its own facing up
LEAVES = 2
# a booklet padded to a multiple of this many pages or more is folded and stitched
STITCHED = 4


def _missing(pages: int, declared: bool, pad_to: int) -> int:
    """The pages after `pages` of text that complete a booklet of a multiple of `pad_to` pages: the
    back cover (always, where the template declares one) and the blank pages before it."""
    if declared:
        return (-(pages + 1)) % pad_to + 1
    return (-pages) % pad_to


def booklet_pages(
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    pad_to: int = 1,
) -> int:
    """The pages `render_booklet` gives the booklet (no bleed), measured without writing it: what a
    kit on another paper lists on its how-to page for the A5 rules one kit writes (`pad_to`
    LEAVES), or whether the how-to page fits on one."""
    home = _for_target(booklet, press=False)
    pages = booklet_flow(game, home, paper, paints, motifs, pad_to)[1]
    return pages + _missing(pages, split_back_cover(booklet.blocks)[1] is not None, pad_to)


def booklet_sets(
    game: GameLayout, booklet: BookletLayout, paper: Paper, paints: Paints, motifs: dict[str, Motif]
) -> None:
    """Set the home booklet with its back cover, without drawing it: raises BookletTooLarge where a
    build would (a block taller than a page, a cover's or back cover's text longer than its page).
    validate's look at the booklet, so that what validates builds. Remembered per process like the
    measures (`_measure`), by the blocks, style, page, hyphenation, colours and fonts."""
    home = _for_target(booklet, press=False)
    key = (*_setting_key(game, home, paper, paints), "sets")
    if key in _MEASURED:
        return
    back = split_back_cover(home.blocks)[1] is not None
    set_booklet(game, home, paper, paints, motifs, 0, 0.0, "", None, back_cover=back, measure=True)
    _MEASURED[key] = (0, 0.0, 0)


def check_booklet_sets(game: GameLayout, project, report) -> None:
    """validate: the game's home booklet set on its paper (`booklet_sets`); what would fail the
    build is a text-overflow at the booklet's styles, as the build reports it."""
    from printshop.layout.problems import report_once, too_tall_at
    from printshop.render.booklet_pages import BookletTooLarge

    if game.booklet is None:
        return
    paper = project.media.papers.get(project.booklet.paper)
    if paper is None:
        return  # an unknown booklet paper: reported by the checks of the data
    try:
        booklet_sets(
            game, game.booklet, paper, Paints(project.colours.palette), project.motifs.motifs
        )
    except BookletTooLarge as error:
        where, also = too_tall_at(error, game.localized)
        report_once(
            report,
            "text-overflow",
            where,
            f"{error} ({game.game_id}, '{game.lang}')",
            hint=error.hint or _TOO_TALL_HINT,
            also=also,
        )


# what to do about a paragraph too tall for any page of the booklet
_TOO_TALL_HINT = (
    "shorten the text or split it in two, or lower the type size, leading or spaces of "
    "booklet.yaml's styles (print/booklet.yaml)"
)


def booklet_flow(
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    pad_to: int = 1,
) -> tuple[float, int]:
    """The spacing the booklet is set with and its pages of text (blank pages and back cover not
    counted): the template's spacing, unless the last page would be less than half full (then
    tighter or looser), or, with `pad_to`, the one `_balanced` chooses. Each spacing is tried by setting the
    pages without writing a PDF (`_measure`), and once per process for the same text on the same
    page: a booklet written for A4 and Letter, or as a standalone A5 and as one imposed, is measured
    once."""

    def measure(spacing: float) -> tuple[int, float, int]:
        return _measure(game, booklet, paper, paints, motifs, spacing)

    spacing = 1.0
    first = measure(spacing)
    pages, tail = first[:2]
    if pad_to > 1:
        back = split_back_cover(booklet.blocks)[1] is not None
        best, spacing = _balanced(measure, first, pad_to, back)
        pages, tail = best[:2]
    elif pages > 1 and tail < LAST_PAGE_FULL:
        for tighter in TIGHTER:  # the last page's few lines move back onto the page before
            candidate = measure(tighter)
            if candidate[0] < pages:
                (pages, tail), spacing = candidate[:2], tighter
                break
        else:
            # or lines move forward onto the last page: half full where a spacing does it, else
            # no scrap
            for least in (LAST_PAGE_FULL, LAST_PAGE_LEAST):
                if tail >= least:
                    break
                found = _looser_filling(measure, pages, least)
                if found is not None:
                    (pages, tail), spacing = found[0][:2], found[1]
                    break
    return spacing, pages


def _looser_filling(measure, pages: int, least: float) -> tuple[tuple, float] | None:
    """The first of the LOOSER spacings that keeps the booklet's `pages` and fills at least `least`
    of its last page; with its spacing."""
    for looser in LOOSER:
        candidate = measure(looser)
        if candidate[0] == pages and candidate[1] >= least:
            return candidate, looser
    return None


def _measure(
    game: GameLayout,
    booklet: BookletLayout,
    paper: Paper,
    paints: Paints,
    motifs: dict[str, Motif],
    spacing: float,
) -> tuple[int, float, int]:
    """(pages, how much of the last page's frame the text fills, tables over a page turn) of the
    booklet set with `spacing`,
    remembered by everything that moves a line or a page break: the blocks, the style, the page, the
    language's hyphenation, the fonts and the colours written into the text (a home booklet's RGB, a
    shop's CMYK). The file name, folio and bleed are drawn outside the frames and change nothing, as
    do the motifs' shapes (their blocks give their sizes)."""
    key = (*_setting_key(game, booklet, paper, paints), spacing)
    known = _MEASURED.get(key)
    if known is None:
        _, pages, tail, turns = set_booklet(
            game, booklet, paper, paints, motifs, 0, 0.0, "", None, spacing=spacing, measure=True
        )
        known = _MEASURED[key] = (pages, tail, turns)
    return known


_MEASURED = memos.BOOKLET_MEASURES


def _setting_key(game: GameLayout, booklet: BookletLayout, paper: Paper, paints: Paints) -> tuple:
    """What moves a line or a page break of a booklet: its blocks, style, page, the language's
    hyphenation, the colours written into the text and the fonts."""
    return (
        repr(booklet.blocks),
        booklet.cover,
        repr(booklet.style),
        paper.width,
        paper.height,
        game.localized.hyphenation,
        tuple(character_colours(booklet.style.characters, paints).items()),
        fonts_state(),
    )


def _balanced(measure, first: tuple, pad_to: int, back_cover: bool = False) -> tuple[tuple, float]:
    """Of the template's spacing and the tighter and looser ones, a booklet whose last page holds no
    scrap (a page with two lines on it is worse than a blank one), then the one that needs the
    fewest blank pages to fill its last sheet (the back cover is not one; with `back_cover`, the
    template's, it is always there), then one whose last page is half full, then the spacing
    nearest the template's; with its spacing. Padded to leaves only (`pad_to` under STITCHED),
    a half-full last page comes before the fewest blank pages (a blank side costs no paper), then
    the fewest leaves; a spacing beyond the first steps (`MILD`) is taken for a fuller last page or
    a leaf less, never only to spare a blank side. A stitched booklet takes, after the fewest blank
    pages, the fewest tables split or moved over a page turn from the text that leads to them
    (review 4: a thin last page before a notes page reads better than a table overleaf); a
    booklet of leaves counts them last before the distance."""

    def score(result: tuple, spacing: float) -> tuple:
        pages, tail = result[:2]
        turns = result[2] if len(result) > 2 else 0  # tables over a page turn (booklet_pages)
        blanks = (-(pages + 1)) % pad_to if back_cover else max(0, (-pages) % pad_to - 1)
        scrap = pages > 1 and tail < LAST_PAGE_LEAST
        thin = pages > 1 and tail < LAST_PAGE_FULL
        distance = abs(math.log(spacing))
        if pad_to < STITCHED:  # a leaf's blank side costs no paper: a half-full last page first,
            # then the fewest leaves; a spacing far from the template's is never taken only to
            # spare a blank side (review 3-D: Kremlin FR set 1.5 times looser, for the same seven
            # leaves, read loose beside EN)
            leaves = -(-(pages + back_cover + blanks) // pad_to)
            return scrap, thin, leaves, distance > MILD + 1e-9, blanks, turns, distance
        return scrap, blanks, turns, thin, distance

    def done(found: tuple) -> bool:  # nothing left to better but the distance (a leaf less is
        # not looked for once the last sheet is full)
        if pad_to < STITCHED:
            scrap, thin, _, far, blanks, turns, _ = found
            return (scrap, thin, far, blanks, turns) == (False, False, False, 0, 0)
        return found[:4] == (False, 0, 0, False)

    best, best_spacing = first, 1.0
    best_score = score(first, 1.0)
    for spacing in sorted((*TIGHTER, *LOOSER), key=lambda factor: abs(math.log(factor))):
        if done(best_score):
            break
        candidate = measure(spacing)
        candidate_score = score(candidate, spacing)
        if candidate_score < best_score:
            best, best_spacing, best_score = candidate, spacing, candidate_score
    return best, best_spacing


# the least share of the last page's frame that its text fills: less reads as a scrap left over
LAST_PAGE_LEAST = 0.25
# the share a last page fills where a spacing allows: less leaves half a page empty before the back
# cover (docs/design.md, "Spacing and composition")
LAST_PAGE_FULL = 0.5
TIGHTER = (0.85, 0.7, 0.55)  # factors on the space before and after paragraphs, tried in turn
LOOSER = (1.25, 1.5, 1.8)
# the farthest from the template's spacing (as a log of the factor) that a booklet of leaves is set
# with to spare a blank side: the first tighter and looser steps
MILD = abs(math.log(LOOSER[0]))


def _for_target(booklet: BookletLayout, press: bool) -> BookletLayout:
    """The booklet without the home-only markers; for a press booklet, also without the sections
    they open (from the marker to the `h1` that follows the section's own heading)."""
    kept, skipping, headings = [], False, 0
    for block in booklet.blocks:
        if isinstance(block, Spacer) and block.height == HOME_ONLY:
            skipping, headings = press, 0
            continue
        if skipping and isinstance(block, Para) and block.style == "h1":
            headings += 1
            if headings > 1:
                skipping = False
        if isinstance(block, Spacer) and block.height == BACK_COVER:
            skipping = False  # the back cover is never part of a home-only section
        if not skipping:
            kept.append(block)
    while kept and isinstance(
        kept[-1], PageBreakBlock
    ):  # a break after the last page breaks nothing (ReportLab
        # counted an empty page after it in one pass and not in the other: a stitched booklet's
        # pages
        kept.pop()
    return BookletLayout(
        kept, booklet.style, booklet.text_ids, booklet.cover
    )  # were then not a multiple of four)
