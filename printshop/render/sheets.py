"""Print-and-play card sheets: fronts and their mirrored backs, crop marks in the margins.

A face that appears more than once (a shared back, a card with copies) is drawn once into a Form
XObject and placed wherever it appears; a face that appears once is drawn in place in its page's
content, which compresses together with its neighbours (a form costs a dictionary and a stream of
its own: a thousand one-off faces as forms made the file twice as large). A card is clipped
to its trim, except on sides with no neighbour, where its bleed runs `outer_bleed` into the
margin so that a slightly-off cut shows no white. The empty slots of a partly filled last row
are filled with the last card's background, bleed and all, so that the cards' field stays a
rectangle (a white notch in a cream field looked unfinished). Crop marks sit outside the cards' area only.

Nothing is drawn in the band of `print_and_play.margin` along the paper's edges, which most home
printers cannot print: the grid keeps room outside the bleed for crop marks at least half their
`length` long (fewer cards per row or column where it cannot), marks are shortened to stop at that
band, and the footer sits between the band and the lower ends of the bottom marks.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from printshop.layout.imposition import (
    Grid,
    ImpositionError,
    card_room,
    footer_clear,
    mark_room,
    mirrored,
    too_small,
    turned_origin,
)
from printshop.layout.plan import DeckLayout, GameLayout
from printshop.project.models.art import Motif
from printshop.project.models.media import Media, Paper
from printshop.render.colour import Paints
from printshop.render.helper import HELPER_SHARE, MIN_FACES, Helper, helpers_allowed, seed
from printshop.render.pdf import new_canvas
from printshop.render.replay import draw_face_form, has_images, record_face, recordings, replay


@dataclass
class SheetSettings:
    paper_id: str
    paper: Paper
    media: Media
    paints: Paints
    motifs: dict[str, Motif]
    file_name: str
    flip: str = "long-edge"  # how the duplex printer turns the sheet: long-edge or short-edge
    back_offset: tuple[float, float] = (
        0.0,
        0.0,
    )  # points added to every back, to undo a printer's drift


def deck_grid(deck: DeckLayout, settings: SheetSettings) -> Grid:
    """As many cards as fit with room for the marks on every side and, at the bottom, for the footer
    below the marks (the grid is raised from the centre when it needs that room:
    imposition.card_room); the cards turned as `print_and_play.card_sheets` says for this paper and
    card size. A deck takes as many rows as spreading it over its pages needs, so that no last page
    is nearly empty where fewer rows make the same pages (195 markers: 99 and 96, not 187 and 8),
    and a deck of one page only the rows and columns its cards fill: its crop marks mark the cards
    it has, not the rows below them (four cards had marks down the empty page). A deck with
    `spares` takes every row and column instead, its spares filling them (`sheet_cards`)."""
    paper, pnp = settings.paper, settings.media.print_and_play
    layout = pnp.card_sheets.get(settings.paper_id, {}).get(deck.deck.card_size)
    turn = layout.turn if layout is not None else 0
    problem = too_small(
        deck.deck.card_size,
        deck.size.width,
        deck.size.height,
        paper.label or settings.paper_id,
        paper.width,
        paper.height,
        pnp,
        turn,
    )
    if problem is not None:
        raise ImpositionError(problem)
    width, height = (
        (deck.size.height, deck.size.width) if turn % 180 else (deck.size.width, deck.size.height)
    )
    across, up = card_room(paper.width, paper.height, pnp)
    columns, rows = int((across + 1e-6) // width), int((up + 1e-6) // height)
    count = len(deck.cards)
    if not with_spares(deck, settings):  # (spares fill every page's rows instead: sheet_cards)
        pages = max(1, -(-count // (columns * rows)))
        rows = max(
            1, -(-count // (pages * columns))
        )  # a deck of one page, too, takes the rows it fills
        columns = max(1, min(columns, count))  # fewer cards than a row holds: the columns they fill
    bottom_room = footer_clear(pnp) + mark_room(pnp) - pnp.margin
    lift = max(0.0, bottom_room - (paper.height - rows * height) / 2)
    return Grid(paper.width, paper.height, width, height, columns, rows, lift, turn)


def with_spares(deck: DeckLayout, settings: SheetSettings) -> bool:
    """Whether the deck's sheets are filled with spares: it asks for them, and the kit is not a
    low-ink one (a page full of chits lays 19 % of ink, over low ink's 15 %: the ink comes first)."""
    return deck.deck.spares and not settings.paints.mode.low_ink


def sheet_cards(deck: DeckLayout, grid: Grid, spares: bool = True) -> list[tuple[str, str | None]]:
    """The cards the deck's sheets hold, in order: its cards, and with `spares` (for a deck that
    asks for them) spare copies until its last page is full, given one to each of its cards (each
    front and back once) before a second to any, each spare beside its card; a round that does
    not go all the way round goes by face in turn (the first card of each face, then the second…),
    so that no face (a faction's markers) gets more spares than another but by one."""
    cards = list(deck.cards)
    if not (spares and deck.deck.spares) or not cards:
        return cards
    kinds = _in_turn(list(dict.fromkeys(cards)), deck)
    given = Counter(kinds[index % len(kinds)] for index in range(-len(cards) % grid.per_page))
    last = {card: index for index, card in enumerate(cards)}
    filled = []
    for index, card in enumerate(cards):
        filled.append(card)
        if last[card] == index:
            filled.extend([card] * given[card])
    return filled


def _in_turn(kinds: list[tuple[str, str | None]], deck: DeckLayout) -> list[tuple[str, str | None]]:
    """`kinds` (distinct cards, deck order) taken face by face in turn: the first card drawn with
    each face of faces.yaml (its front's), then the second of each, and so on."""
    by_face: dict[str, list] = {}
    for kind in kinds:
        front = deck.faces.get(kind[0])
        by_face.setdefault(front.face_name if front is not None else kind[0], []).append(kind)
    rounds = max((len(group) for group in by_face.values()), default=0)
    return [group[n] for n in range(rounds) for group in by_face.values() if n < len(group)]


def render_card_sheets(
    game: GameLayout, deck: DeckLayout, settings: SheetSettings
) -> tuple[bytes, int]:
    """The deck on `settings.paper`: a page of fronts, then its page of backs, and so on."""
    paper = settings.paper
    grid = deck_grid(deck, settings)
    buffer = io.BytesIO()
    title = f"{game.title}: {deck.id} ({paper.label})"
    canvas = new_canvas(
        buffer,
        paper.width,
        paper.height,
        lang=game.lang,
        title=title,
        subject="print-and-play cards",
    )
    # fonts named, characters numbered, before any face is drawn (render/helper.py)
    seed(canvas, deck.faces.values(), footer_characters(game, settings))
    cards = sheet_cards(deck, grid, with_spares(deck, settings))
    uses = Counter(front for front, _ in cards) + Counter(back for _, back in cards if back)
    labels = {key: f"face{index}" for index, key in enumerate(deck.faces)}
    names = {key: label for key, label in labels.items() if uses[key] > 1}  # the forms
    assets = game.localized.data.dir
    chunks = [cards[i : i + grid.per_page] for i in range(0, len(cards), grid.per_page)]
    helper = _helper(game, deck, chunks, names, settings, assets, title=title)
    helped = set(helper.keys) if helper is not None else set()
    drawn_by_helper: dict | None = None

    def helpers_recording(key):
        nonlocal drawn_by_helper
        if drawn_by_helper is None:
            answer = helper.answer()
            drawn_by_helper = answer if isinstance(answer, dict) else {}
        return drawn_by_helper.get(key)

    try:
        for key, face in deck.faces.items():
            if key not in names:
                continue  # drawn in place, on its page
            canvas.beginForm(
                names[key],
                -face.bleed,
                -face.bleed,
                face.width + face.bleed,
                face.height + face.bleed,
            )
            # drawn, or replayed when a long-running session has the face's recording
            # (render/replay.py)
            draw_face_form(canvas, face, settings.paints, settings.motifs, assets)
            canvas.endForm()

        def show(key) -> None:
            if key in names:
                canvas.doForm(names[key])
            else:  # in the page's content, in the state a form starts in, marked as the face it is
                canvas._code.append(f"/Face <</Name /{labels[key]}>> BDC")
                canvas.push_state_stack()
                canvas.init_graphics_state()
                recording = helpers_recording(key) if key in helped else None
                if recording is None or not replay(
                    canvas, recording
                ):  # (a sealed one is placed unasked)
                    draw_face_form(
                        canvas,
                        deck.faces[key],
                        settings.paints,
                        settings.motifs,
                        assets,
                        form=False,
                    )
                canvas.pop_state_stack()
                canvas._code.append("EMC")

        two_sided = any(back for _, back in deck.cards)
        sides = 2 if two_sided else 1
        pages = sides * len(chunks)
        for number, chunk in enumerate(chunks):
            fronts = [front for front, _ in chunk]
            _fill_empty(
                canvas, grid, len(chunk), deck.faces[fronts[-1]], back=False, settings=settings
            )
            _place(canvas, grid, fronts, show, back=False, settings=settings)
            _crop_marks(canvas, grid, settings)
            _footer(
                canvas,
                grid,
                game,
                settings,
                sides * number + 1,
                pages,
                game.localized.label("fronts") if two_sided else "",
            )
            canvas.showPage()
            if two_sided:
                last_back = [back for _, back in chunk if back][-1]
                _fill_empty(
                    canvas, grid, len(chunk), deck.faces[last_back], back=True, settings=settings
                )
                _place(
                    canvas, grid, [back for _, back in chunk], show, back=True, settings=settings
                )
                _footer(
                    canvas,
                    grid,
                    game,
                    settings,
                    2 * number + 2,
                    pages,
                    game.localized.label("backs"),
                )
                canvas.showPage()
    finally:
        if helper is not None:
            helper.close()
    canvas.save()
    return buffer.getvalue(), pages


def _helper(
    game: GameLayout,
    deck: DeckLayout,
    chunks: list,
    names: dict,
    settings: SheetSettings,
    assets,
    *,
    title: str,
) -> Helper | None:
    """A helper process drawing the last HELPER_SHARE of the faces drawn in place
    (render/helper.py), when the build allows one and the deck has enough of them; None otherwise."""
    if not helpers_allowed.get() or recordings.get() is not None:
        return None  # (a long-running session replays its own recordings)
    in_place = [
        key
        for chunk in chunks
        for side in (0, 1)
        for key in (card[side] for card in chunk)
        if key and key not in names and not has_images(deck.faces[key])
    ]
    if len(in_place) < MIN_FACES:
        return None
    paper = settings.paper

    def work(keys) -> dict:
        """{key: recording}, in the helper."""
        scratch = new_canvas(
            io.BytesIO(),
            paper.width,
            paper.height,
            lang=game.lang,
            title=title,
            subject="print-and-play cards",
        )
        seed(
            scratch, deck.faces.values(), footer_characters(game, settings)
        )  # as the build's canvas is
        found = {}
        for key in keys:
            # each face's stream, colours and shadings its own, as if it began a page
            scratch._code, scratch._colorsUsed, scratch._shadingUsed = [], {}, {}
            scratch.push_state_stack()
            scratch.init_graphics_state()
            recording = record_face(
                scratch, deck.faces[key], settings.paints, settings.motifs, assets
            )
            scratch.pop_state_stack()
            if not recording.shadings:  # a shading's name is the document's: drawn by the build
                found[key] = recording
        return found

    return Helper(in_place[len(in_place) - int(len(in_place) * HELPER_SHARE) :], work)


def _place(
    canvas: Canvas, grid: Grid, faces: list, show, *, back: bool, settings: SheetSettings
) -> None:
    """Each face in its cell, clipped to its trim (and its outer bleed where no card abuts), drawn
    by `show`."""
    outer = settings.media.print_and_play.outer_bleed
    occupied = {grid.cell(i) for i in range(len(faces))}
    turn = (
        grid.back_turn(settings.flip) if back else grid.turn
    )  # each back's top behind its front's
    for index, face in enumerate(faces):
        x, y = grid.back(index, settings.flip) if back else grid.front(index)
        if back:
            x, y = x + settings.back_offset[0], y + settings.back_offset[1]
        column, row = grid.cell(index)
        left = outer if (column - 1, row) not in occupied else 0.0
        right = outer if (column + 1, row) not in occupied else 0.0
        top = outer if (column, row - 1) not in occupied else 0.0
        bottom = outer if (column, row + 1) not in occupied else 0.0
        if (
            back and settings.flip == "long-edge"
        ):  # the back of a card's left neighbour lies on its right
            left, right = right, left
        elif back:  # short edge: the back of the card above lies below
            top, bottom = bottom, top
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(
            x - left, y - bottom, grid.card_width + left + right, grid.card_height + top + bottom
        )
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(*turned_origin(x, y, grid.card_width, grid.card_height, turn))
        if turn:
            canvas.rotate(turn)
        show(face)
        canvas.restoreState()


def empty_slots(grid: Grid, count: int, outer: float) -> list[tuple[float, float, float, float]]:
    """The front's empty slots in the last row of a page of `count` cards, each as (x, y, width,
    height) with the outer bleed (`outer`) on the sides at the edge of the cards' field."""
    rows = -(-count // grid.columns)
    slots = []
    for index in range(count, rows * grid.columns):
        x, y = grid.front(index)
        column, row = grid.cell(index)
        left, right = (
            (outer if column == 0 else 0.0),
            (outer if column == grid.columns - 1 else 0.0),
        )
        top, bottom = (outer if row == 0 else 0.0), (outer if row == rows - 1 else 0.0)
        slots.append(
            (x - left, y - bottom, grid.card_width + left + right, grid.card_height + top + bottom)
        )
    return slots


def _fill_empty(
    canvas: Canvas, grid: Grid, count: int, face, *, back: bool, settings: SheetSettings
) -> None:
    """The empty slots of a page of `count` cards filled with `face`'s background (none drawn for a
    face without one), on the back where a back's would be."""
    if not face.face.background:
        return
    outer = settings.media.print_and_play.outer_bleed
    canvas.saveState()
    canvas.setFillColor(settings.paints.background(face.face.background))
    for x, y, width, height in empty_slots(grid, count, outer):
        if back:
            x, y = mirrored(grid.page_width, grid.page_height, x, y, width, height, settings.flip)
            x, y = x + settings.back_offset[0], y + settings.back_offset[1]
        canvas.rect(x, y, width, height, stroke=0, fill=1)
    canvas.restoreState()


def _crop_marks(canvas: Canvas, grid: Grid, settings: SheetSettings) -> None:
    """One pair of short lines per cut line, in the margins, never across a card."""
    pnp = settings.media.print_and_play
    marks = pnp.crop_marks
    start = pnp.outer_bleed + marks.gap
    edge = pnp.margin + marks.width  # a mark ends before the band printers cannot print
    canvas.saveState()
    canvas.setStrokeColor(settings.paints.full(marks.colour))
    canvas.setLineWidth(marks.width)
    left, right = grid.left, grid.left + grid.columns * grid.card_width
    bottom, top = grid.bottom, grid.bottom + grid.rows * grid.card_height
    for x in grid.cut_xs():
        canvas.line(x, top + start, x, min(top + start + marks.length, grid.page_height - edge))
        canvas.line(x, bottom - start, x, _marks_end(grid, settings))
    for y in grid.cut_ys():
        canvas.line(left - start, y, max(left - start - marks.length, edge), y)
        canvas.line(right + start, y, min(right + start + marks.length, grid.page_width - edge), y)
    canvas.restoreState()


def _marks_end(grid: Grid, settings: SheetSettings) -> float:
    """Where the bottom crop marks end: `length` below the bleed and its gap, or above the footer."""
    pnp = settings.media.print_and_play
    marks = pnp.crop_marks
    return max(grid.bottom - pnp.outer_bleed - marks.gap - marks.length, footer_clear(pnp))


def _footer(
    canvas: Canvas,
    grid: Grid,
    game: GameLayout,
    settings: SheetSettings,
    page: int,
    pages: int,
    side: str,
) -> None:
    footer = settings.media.print_and_play.footer
    # centred between the bottom crop marks' ends and the unprintable band, never lower than its
    # baseline, so that the footer meets no mark (it runs across the cut lines' x positions)
    marks_end = _marks_end(grid, settings)
    y = max(
        (marks_end + settings.media.print_and_play.margin) / 2 - footer.size / 3, footer.baseline
    )
    page_footer(canvas, game, settings, settings.paper.width, y, page, pages, side)


def footer_characters(game: GameLayout, settings: SheetSettings) -> dict[str, str]:
    """{font: the characters} page footers set (their words; page numbers are digits), for seeding."""
    labels = game.localized.label
    words = [
        game.localized.draft or "",
        settings.file_name,
        labels("page", page=1, pages=1),
        labels("fronts"),
        labels("backs"),
        " · ",
    ]
    return {settings.media.print_and_play.footer.font: "".join(words)}


def page_footer(
    canvas: Canvas,
    game: GameLayout,
    settings: SheetSettings,
    page_width: float,
    y: float,
    page: int,
    pages: int,
    what: str,
) -> None:
    """File name, page number and what the page holds, so a loose page finds its way back; a draft's
    mark first, so that no page of it passes for a finished translation."""
    footer = settings.media.print_and_play.footer
    canvas.saveState()
    canvas.setFont(footer.font, footer.size)
    canvas.setFillColor(settings.paints.text(footer.colour))
    draft = [game.localized.draft] if game.localized.draft else []
    parts = (
        draft
        + [settings.file_name, game.localized.label("page", page=page, pages=pages)]
        + ([what] if what else [])
    )
    canvas.drawCentredString(page_width / 2, y, " · ".join(parts))
    canvas.restoreState()
