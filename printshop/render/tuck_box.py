"""A deck's tuck box on one page: the net of layout/tuck_box.py, centred in the printable area
(upright, or across the paper where only that fits), cut lines solid and fold lines dashed, in the
crop marks' colour and width; the deck's name on the front and the lid, its back face on the back.
"""

from __future__ import annotations

import io
from collections import Counter

from reportlab.pdfbase.pdfmetrics import stringWidth

from printshop.checks.tuck_boxes import deck_net, tuck_box_room
from printshop.layout.imposition import ImpositionError
from printshop.layout.plan import DeckLayout, GameLayout
from printshop.layout.tuck_box import Panel, net_overflow
from printshop.project.units import to_mm
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas
from printshop.render.sheets import SheetSettings, page_footer

TITLE_FONT = "sans-bold"
DASH = (4, 3)  # the fold lines' dash, as the gutterfold's fold


def box_title(game: GameLayout, deck: DeckLayout) -> str:
    """The deck's name in the kit's language: its tuck box's title text, else the game's title."""
    box = deck.deck.tuck_box
    if box is not None and box.title is not None:
        return game.localized.plain(box.title)
    return game.title


def _label(
    canvas, text: str, panel: Panel, left: float, bottom: float, colour, turned: bool = False
) -> None:
    """`text` centred in `panel`, as large as fits its width (less a tenth) and half its height;
    `turned`: upside down (the lid, which folds over towards the front, reads from the front)."""
    room = panel.width * 0.8
    size = min(panel.height * 0.5, 18.0)
    width = stringWidth(text, TITLE_FONT, size)
    if width > room:
        size *= room / width
    canvas.saveState()
    canvas.setFont(TITLE_FONT, size)
    canvas.setFillColor(colour)
    canvas.translate(left + panel.x + panel.width / 2, bottom + panel.y + panel.height / 2)
    if turned:
        canvas.rotate(180)
    canvas.drawCentredString(0, -size * 0.35, text)
    canvas.restoreState()


def _back(canvas, game: GameLayout, deck: DeckLayout, panel: Panel, left, bottom, settings):
    """The deck's most common back face, centred on the back panel and cut at its trim."""
    backs = Counter(back for _, back in deck.cards if back is not None)
    if not backs:
        return
    face = deck.faces[backs.most_common(1)[0][0]]
    x = left + panel.x + (panel.width - face.width) / 2
    y = bottom + panel.y + (panel.height - face.height) / 2
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, face.width, face.height)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(x, y)
    draw_face(canvas, face, settings.paints, settings.motifs, game.localized.data.dir)
    canvas.restoreState()


def render_tuck_box(
    game: GameLayout, deck: DeckLayout, settings: SheetSettings, project
) -> tuple[bytes, int]:
    pnp = settings.media.print_and_play
    net = deck_net(project, deck.deck)
    if net is None:
        raise ImpositionError("the deck has no tuck box")
    room = tuck_box_room(pnp)
    paper = settings.paper
    across, wide, high = net_overflow(net, paper.width, paper.height, room)
    if wide or high:
        raise ImpositionError(
            f"the tuck box's net ({to_mm(net.width):.1f} × {to_mm(net.height):.1f} mm) does not fit"
        )
    width, height = (
        (max(paper.width, paper.height), min(paper.width, paper.height))
        if across
        else (paper.width, paper.height)
    )
    title = box_title(game, deck)
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        width,
        height,
        lang=game.lang,
        title=f"{game.title}: {deck.id} (tuck box)",
        subject="print-and-play tuck box",
    )
    side, top, bottom_room = room
    left = (width - net.width) / 2
    bottom = bottom_room + (height - top - bottom_room - net.height) / 2
    _back(canvas, game, deck, net.panel("back"), left, bottom, settings)
    ink = settings.paints.text(pnp.footer.colour)
    for name in ("front", "lid"):
        _label(canvas, title, net.panel(name), left, bottom, ink, turned=name == "lid")
    marks = pnp.crop_marks
    canvas.saveState()
    canvas.setStrokeColor(settings.paints.fill(marks.colour))
    canvas.setLineWidth(marks.width)
    canvas.setLineCap(1)
    for x1, y1, x2, y2 in net.cuts:
        canvas.line(left + x1, bottom + y1, left + x2, bottom + y2)
    canvas.setDash(*DASH)
    for x1, y1, x2, y2 in net.folds:
        canvas.line(left + x1, bottom + y1, left + x2, bottom + y2)
    canvas.restoreState()
    page_footer(
        canvas,
        game,
        settings,
        width,
        pnp.footer.baseline,
        1,
        1,
        game.localized.label(
            "tuck_box" if "tuck_box" in game.localized.language.labels else "fold"
        ),
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue(), 1
