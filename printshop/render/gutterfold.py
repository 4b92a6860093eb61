"""Gutterfold sheets: fronts in a row above the fold, their backs below it turned 180°, so that
folding the sheet along the line and gluing it makes double-sided cards with no duplex printer.
Folding about a horizontal line and looking from the other side turns the lower half by 180°
about the fold, so the back of the card at (x, y) goes at (x, 2·fold − y − height), upside down.

The cut marks of the vertical cut lines stand in the fold gap, which is cut away (fronts and backs
share those lines), so no mark is needed above or below the rows: the top keeps only the band
printers cannot print, the bottom the footer, and the footer meets no mark. The horizontal lines are
marked at the sides.
"""

from __future__ import annotations

import io

from printshop.layout.imposition import ImpositionError
from printshop.layout.plan import DeckLayout, GameLayout
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas
from printshop.render.sheets import SheetSettings, page_footer


def gutterfold_room(pnp) -> tuple[float, float, float]:
    """What the page keeps outside the bleed: at the sides (the band printers cannot print, crop
    marks at least half their length and their gap), at the top (the band), at the bottom (the
    footer)."""
    marks = pnp.crop_marks
    return (
        pnp.margin + marks.length / 2 + marks.gap,
        pnp.margin,
        pnp.footer.baseline + pnp.footer.size * 0.8 + marks.gap,
    )


def gutterfold_geometry(
    paper_w: float,
    paper_h: float,
    card_w: float,
    card_h: float,
    margin: float,
    bleed: float,
    fold_gap: float,
    room: tuple[float, float, float] | None = None,
) -> tuple[float, float, int, float]:
    """Landscape page size, the bleed that fits (at most `bleed`), the cards per row, and the fold's
    y; `room` (sides, top, bottom) outside the bleed, else `margin` all round."""
    width, height = max(paper_w, paper_h), min(paper_w, paper_h)
    side, top, bottom = room if room is not None else (margin, margin, margin)
    for try_bleed in (bleed, bleed / 2, 0.0):
        columns = int((width - 2 * side) // (card_w + 2 * try_bleed))
        needed = 2 * (card_h + 2 * try_bleed + fold_gap)
        if columns >= 1 and needed <= height - top - bottom:
            return width, try_bleed, columns, (bottom + height - top) / 2
    raise ImpositionError("a front and its back do not fit above and below a fold on this paper")


def two_sided(deck: DeckLayout) -> bool:
    """Whether `deck`'s cards have backs: a one-sided deck (markers) has nothing to fold, and gets
    no gutterfold file."""
    return bool(deck.deck.back) or any(back for _, back in deck.cards)


def gutterfold_fault(deck: DeckLayout, paper, pnp) -> str | None:
    """Why `deck` cannot be folded on `paper` (a Paper), said for a warning; None: it can."""
    try:
        gutterfold_geometry(
            paper.width,
            paper.height,
            deck.size.width,
            deck.size.height,
            pnp.margin,
            pnp.gutterfold_bleed,
            pnp.fold_gap,
            gutterfold_room(pnp),
        )
    except ImpositionError as error:
        return f"{deck.size.label or 'its card'}: {error}"
    return None


def folded_decks(game: GameLayout, paper, pnp) -> list[DeckLayout]:
    """The decks a --gutterfold kit on `paper` gets a gutterfold file for: those with backs that
    fit, a front above the fold and its back below (the kit's list and its files agree)."""
    return [
        deck
        for deck in game.printed_decks
        if two_sided(deck) and gutterfold_fault(deck, paper, pnp) is None
    ]


def render_gutterfold(
    game: GameLayout, deck: DeckLayout, settings: SheetSettings
) -> tuple[bytes, int]:
    pnp = settings.media.print_and_play
    cw, ch = deck.size.width, deck.size.height
    width, bleed, columns, fold = gutterfold_geometry(
        settings.paper.width,
        settings.paper.height,
        cw,
        ch,
        pnp.margin,
        pnp.gutterfold_bleed,
        pnp.fold_gap,
        gutterfold_room(pnp),
    )
    height = min(settings.paper.width, settings.paper.height)
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        width,
        height,
        lang=game.lang,
        title=f"{game.title}: {deck.id} (gutterfold)",
        subject="print-and-play cards, gutterfold",
    )
    names = {key: f"face{i}" for i, key in enumerate(deck.faces)}
    key: str | None  # a face's key; below, a card's front then its back (None: it has none)
    for key, face in deck.faces.items():
        canvas.beginForm(
            names[key], -face.bleed, -face.bleed, face.width + face.bleed, face.height + face.bleed
        )
        draw_face(canvas, face, settings.paints, settings.motifs, game.localized.data.dir)
        canvas.endForm()
    left = (width - columns * (cw + 2 * bleed)) / 2 + bleed
    front_y = fold + pnp.fold_gap + bleed
    back_y = fold - pnp.fold_gap - bleed - ch
    chunks = [deck.cards[i : i + columns] for i in range(0, len(deck.cards), columns)]
    marks = pnp.crop_marks
    for number, chunk in enumerate(chunks, start=1):
        for index, (front, back) in enumerate(chunk):
            x = left + index * (cw + 2 * bleed)
            for key, y, turned in ((front, front_y, False), (back, back_y, True)):
                if key is None:
                    continue
                canvas.saveState()
                clip = canvas.beginPath()
                clip.rect(x - bleed, y - bleed, cw + 2 * bleed, ch + 2 * bleed)
                canvas.clipPath(clip, stroke=0, fill=0)
                if turned:  # 180° about the card's centre
                    canvas.translate(x + cw, y + ch)
                    canvas.rotate(180)
                else:
                    canvas.translate(x, y)
                canvas.doForm(names[key])
                canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(settings.paints.fill(marks.colour))
        canvas.setLineWidth(marks.width)
        right = left + len(chunk) * (cw + 2 * bleed) - 2 * bleed
        # the vertical cut lines, marked in the fold gap (cut away), each mark stopping short of the
        # fold
        tick = min(marks.length, pnp.fold_gap - marks.gap - 1 * 72 / 25.4)
        for i in range(len(chunk)):
            for x in (left + i * (cw + 2 * bleed), left + i * (cw + 2 * bleed) + cw):
                canvas.line(x, front_y - bleed - marks.gap, x, front_y - bleed - marks.gap - tick)
                canvas.line(
                    x, back_y + ch + bleed + marks.gap, x, back_y + ch + bleed + marks.gap + tick
                )
        edge = pnp.margin + marks.width
        for y in (front_y, front_y + ch, back_y, back_y + ch):
            canvas.line(
                left - bleed - marks.gap, y, max(left - bleed - marks.gap - marks.length, edge), y
            )
            canvas.line(
                right + bleed + marks.gap,
                y,
                min(right + bleed + marks.gap + marks.length, width - edge),
                y,
            )
        canvas.setDash(4, 3)  # the fold, between the rows, clear of every bleed
        canvas.line(left - bleed, fold, right + bleed, fold)
        canvas.restoreState()
        page_footer(
            canvas,
            game,
            settings,
            width,
            pnp.footer.baseline,
            number,
            len(chunks),
            game.localized.label("fold"),
        )
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), len(chunks)
