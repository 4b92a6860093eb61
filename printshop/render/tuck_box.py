"""A deck's tuck box: the net of layout/tuck_box.py dressed and drawn, on a kit's page or as a press
page.

The dress is the same on both: the wrap colour fills every panel, the glue flap too, and reaches a
bleed past every cut line, the same all round; the front (the thumb notch's panel, what a player
sees first) carries the deck's most common back face, scaled to fit below the notch and above a
band naming the game and the deck; the back the game's title over the deck's name and, under them,
what the box holds ("26 cards · 3–6 players": the deck's cards and the game's players, in the
language's `tuck_box_contents` label); each spine both names, reading upwards; the lid the deck's
name, upside down in the net so that it reads from the front once folded; the glue flap its word
(`tuck_box_glue`), small and grey. Names are set in the box's text colour, as large as their panel
allows.

The kit's page (`render_tuck_box`): the net centred in the printable area (upright, or across the
paper where only that fits), cut lines solid and fold lines dashed in the text colour, the footer
below. The press page (`render_press_tuck_box`): the net alone with the shop's bleed round its
outer cut (TrimBox the net's bounds, BleedBox the page), in the profile's colours with its art
converted, and the die line over it in the profile's two spot colours (`dieline`: Separation
spaces, cut and crease), set to overprint so that they never knock out the art; the glue flap
bare unless the profile's `dieline.glue_flap` says `printed` (glue holds on bare board).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from typing import Any

from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import FILL_NON_ZERO

from printshop.checks.tuck_boxes import deck_net, tuck_box_room
from printshop.layout.imposition import ImpositionError
from printshop.layout.plan import DeckLayout, FaceLayout, GameLayout
from printshop.layout.tuck_box import Panel, TuckBoxNet, net_overflow
from printshop.project.models.art import Motif
from printshop.project.models.profile import Profile
from printshop.project.units import to_mm
from printshop.render.colour import Paints
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas
from printshop.render.press_art import PressArt
from printshop.render.sheets import SheetSettings, page_footer

TITLE_FONT = "sans-bold"
NAME_FONT = "sans"
DASH = (4, 3)  # the fold lines' dash, as the gutterfold's fold
SEPARATOR = " · "  # between the game's title and the deck's name on one line
GLUE_SIZE = 6.0  # the glue flap's word: small, grey
GLUE_COLOUR = "grey"

DrawFace = Callable[[Any, FaceLayout], None]  # a face drawn at the origin, in its own units


def box_title(game: GameLayout, deck: DeckLayout) -> str:
    """The deck's name in the kit's language: its tuck box's title text, else the game's title."""
    box = deck.deck.tuck_box
    if box is not None and box.title is not None:
        return game.localized.plain(box.title)
    return game.title


def _back_face(deck: DeckLayout) -> FaceLayout | None:
    """The deck's most common back face, or None for a one-sided deck."""
    backs = Counter(back for _, back in deck.cards if back is not None)
    return deck.faces[backs.most_common(1)[0][0]] if backs else None


def box_colours(deck: DeckLayout, paints: Paints) -> tuple[str, str]:
    """The wrap's and the names' colours (palette names): the box's own, else the back face's
    background and white or ink, whichever stands out on it."""
    box = deck.deck.tuck_box
    assert box is not None
    back = _back_face(deck)
    wrap = box.colour or (back.face.background if back is not None else None) or "white"
    text = box.text_colour or ("white" if paints.luminance(wrap) < 0.5 else "ink")
    return wrap, text


def _line(canvas, text: str, font: str, x: float, y: float, room: float, size: float) -> float:
    """`text` centred on (x, y) (its middle, not its baseline), at `size` or smaller to fit `room`
    wide; the size it took."""
    width = stringWidth(text, font, size)
    if width > room:
        size *= room / width
    canvas.setFont(font, size)
    canvas.drawCentredString(x, y - size * 0.35, text)
    return size


def _names(canvas, panel: Panel, game: str, name: str | None, contents: str) -> None:
    """The back: the game's title over the deck's name, and under them what the box holds; the
    title alone when the deck has no name of its own."""
    x, room = panel.x + panel.width / 2, panel.width * 0.82
    big = min(panel.width * 0.14, 30.0)
    if name is None:
        _line(canvas, game, TITLE_FONT, x, panel.y + panel.height * 0.55, room, big)
    else:
        middle = panel.y + panel.height * 0.55  # the block's optical centre a little above half
        size = _line(canvas, name, TITLE_FONT, x, middle, room, big)
        top = middle + size * 1.6
        small = _line(canvas, game, NAME_FONT, x, top, room, big * 0.5)
        canvas.setLineWidth(max(0.5, small / 14))
        rule = middle + (top - middle) / 2 + size * 0.1
        canvas.line(x - panel.width * 0.12, rule, x + panel.width * 0.12, rule)
    if contents:
        _line(canvas, contents, NAME_FONT, x, panel.y + panel.height * 0.3, room,
              min(big * 0.38, 10.0))  # fmt: skip


def _turned(canvas, panel: Panel, angle: int, text: str, font: str, share: float) -> None:
    """`text` centred in `panel` turned by `angle` degrees, as high as `share` of the panel's side
    across it (at most 16 pt) and no longer than nine tenths of its side along it."""
    along, across = (panel.height, panel.width) if angle % 180 else (panel.width, panel.height)
    canvas.saveState()
    canvas.translate(panel.x + panel.width / 2, panel.y + panel.height / 2)
    canvas.rotate(angle)
    _line(canvas, text, font, 0, 0, along * 0.9, min(across * share, 16.0))
    canvas.restoreState()


def _art(
    canvas, panel: Panel, notch: float, face: FaceLayout | None, line: str, draw: DrawFace
) -> None:
    """The front: the back face, scaled to fit the panel below the thumb notch less a margin, and
    under it a band naming the game and the deck; the face cut at its trim."""
    margin = panel.width * 0.06
    band = panel.height * 0.11
    if face is not None:
        room_w = panel.width - 2 * margin
        room_h = panel.height - 2 * margin - band - notch
        scale = min(room_w / face.width, room_h / face.height)
        w, h = face.width * scale, face.height * scale
        x = panel.x + (panel.width - w) / 2
        y = panel.y + band + margin + (room_h - h) / 2
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(x, y, w, h)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        draw(canvas, face)
        canvas.restoreState()
    size = min(band * 0.38, 12.0)
    _line(canvas, line, TITLE_FONT, panel.x + panel.width / 2, panel.y + band * 0.55 + margin / 2,
          panel.width - 2 * margin, size)  # fmt: skip


def contents_line(game: GameLayout, deck: DeckLayout) -> str:
    """What the box holds, from the game's data in the kit's language ("26 cards · 3–6 players"):
    the language's `tuck_box_contents` label (`tuck_box_contents_one` for a game of one player
    count); empty when the language has neither."""
    labels = game.localized.language.labels
    players = game.localized.data.game.players
    label = "tuck_box_contents" if players.min != players.max else "tuck_box_contents_one"
    if label not in labels:
        return ""
    cards = sum(card.count for card in deck.deck.cards)
    return game.localized.label(label, cards=cards, min=players.min, max=players.max)


def _glue(canvas, panel: Panel, word: str, paints: Paints) -> None:
    """The glue flap's word, small and grey, reading upwards along it."""
    if not word:
        return
    canvas.saveState()
    canvas.setFillColor(paints.text(GLUE_COLOUR))
    canvas.translate(panel.x + panel.width / 2, panel.y + panel.height / 2)
    canvas.rotate(90)
    _line(canvas, word, NAME_FONT, 0, 0, panel.height * 0.5, min(GLUE_SIZE, panel.width * 0.6))
    canvas.restoreState()


def draw_box(
    canvas, game: GameLayout, deck: DeckLayout, net: TuckBoxNet, paints: Paints, bleed: float,
    draw: DrawFace, glue_word: bool = True,
) -> str:  # fmt: skip
    """The net's dress at the origin: the wrap `bleed` past the cuts, the back face (drawn with
    `draw`), the names (the glue flap's word unless `glue_word` is false); the text colour's
    palette name."""
    wrap, text = box_colours(deck, paints)
    canvas.saveState()
    canvas.setFillColor(paints.background(wrap))
    path = canvas.beginPath()
    for x, y, width, height in net.wrap(bleed):
        path.rect(x, y, width, height)
    canvas.drawPath(path, stroke=0, fill=1, fillMode=FILL_NON_ZERO)  # the rectangles' union
    ink = paints.text(text)
    canvas.setFillColor(ink)
    canvas.setStrokeColor(ink)
    title = game.title
    name = box_title(game, deck) if deck.deck.tuck_box.title is not None else None  # type: ignore[union-attr]
    both = SEPARATOR.join(dict.fromkeys(part for part in (title, name) if part))
    _art(canvas, net.panel("front"), net.notch, _back_face(deck), both, draw)
    canvas.setFillColor(ink)
    _names(canvas, net.panel("back"), title, name, contents_line(game, deck))
    for side in ("side-left", "side-right"):
        _turned(canvas, net.panel(side), 90, both, TITLE_FONT, 0.42)
    _turned(canvas, net.panel("lid"), 180, name or title, TITLE_FONT, 0.5)
    labels = game.localized.language.labels
    glue = game.localized.label("tuck_box_glue") if "tuck_box_glue" in labels and glue_word else ""
    _glue(canvas, net.panel("glue"), glue, paints)
    canvas.restoreState()
    return text


def _canvas(buffer, game: GameLayout, deck: DeckLayout, width: float, height: float, subject: str):
    return new_canvas(
        buffer,
        width,
        height,
        lang=game.lang,
        title=f"{game.title}: {deck.id} (tuck box)",
        subject=subject,
        keywords="printshop:tuck-box",
    )


def _cut_path(canvas, net: TuckBoxNet):
    path = canvas.beginPath()
    first, *rest = net.outline()
    path.moveTo(*first)
    for point in rest[:-1]:
        path.lineTo(*point)
    path.close()
    return path


def _folds(canvas, net: TuckBoxNet) -> None:
    for x1, y1, x2, y2 in net.folds:
        canvas.line(x1, y1, x2, y2)


def render_tuck_box(
    game: GameLayout, deck: DeckLayout, settings: SheetSettings, project
) -> tuple[bytes, int]:
    pnp = settings.media.print_and_play
    net = deck_net(project, deck.deck)
    box = deck.deck.tuck_box
    if net is None or box is None:
        raise ImpositionError("the deck has no tuck box")
    room = tuck_box_room(pnp)
    paper = settings.paper
    across, wide, high = net_overflow(net, paper.width, paper.height, room, box.bleed)
    if wide or high:
        raise ImpositionError(
            f"the tuck box's net ({to_mm(net.width):.1f} × {to_mm(net.height):.1f} mm) does not fit"
        )
    width, height = (
        (max(paper.width, paper.height), min(paper.width, paper.height))
        if across
        else (paper.width, paper.height)
    )
    buffer = io.BytesIO()
    canvas = _canvas(buffer, game, deck, width, height, "print-and-play tuck box")
    side, top, bottom_room = room
    canvas.saveState()
    canvas.translate(
        (width - net.width) / 2, bottom_room + (height - top - bottom_room - net.height) / 2
    )
    assets = game.localized.data.dir
    text = draw_box(
        canvas, game, deck, net, settings.paints, box.bleed,
        lambda c, face: draw_face(c, face, settings.paints, settings.motifs, assets),
    )  # fmt: skip
    canvas.setStrokeColor(settings.paints.text(text))
    canvas.setLineWidth(pnp.crop_marks.width)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    canvas.drawPath(_cut_path(canvas, net), stroke=1, fill=0)
    canvas.setDash(*DASH)
    _folds(canvas, net)
    canvas.setDash()
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


def _bare_glue(canvas, net: TuckBoxNet, bleed: float, overlap: float, paints: Paints) -> None:
    """Takes the ink off the glue flap: white over it from `overlap` past its fold to the bleed's
    edge, and over its own bleed above and below (not over a dust flap's)."""
    glue = net.panel("glue")
    start = glue.x + min(overlap, glue.width)
    canvas.saveState()
    canvas.setFillColor(paints.white())
    path = canvas.beginPath()
    path.rect(start, glue.y, glue.x + glue.width + bleed - start, glue.height)
    right = glue.x + bleed
    if right < glue.x + glue.width + bleed:
        path.rect(right, glue.y - bleed, glue.width, bleed)
        path.rect(right, glue.y + glue.height, glue.width, bleed)
    canvas.drawPath(path, stroke=0, fill=1, fillMode=FILL_NON_ZERO)
    canvas.restoreState()


def _spot(name: str, alternate: list[float]) -> CMYKColorSep:
    c, m, y, k = (value / 100 for value in alternate)
    return CMYKColorSep(c, m, y, k, spotName=name, density=1)


def render_press_tuck_box(
    game: GameLayout, deck: DeckLayout, net: TuckBoxNet, profile: Profile, paints: Paints,
    motifs: dict[str, Motif], art: PressArt | None,
) -> tuple[bytes, int]:  # fmt: skip
    """The press page: the dressed net with the profile's bleed round its outer cut, its back face
    drawn as the shop's card faces are (a form, raster art converted by `art`), and the die line
    in the profile's spot colours, overprinted, over it."""
    from printshop.render.press import draw_press_face

    bleed, line = profile.bleed, profile.dieline
    width, height = net.width + 2 * bleed, net.height + 2 * bleed
    buffer = io.BytesIO()
    canvas = _canvas(buffer, game, deck, width, height, f"press file: {profile.label}")
    back = _back_face(deck)
    if back is not None:
        canvas.beginForm("back", -back.bleed, -back.bleed, back.width + back.bleed,
                         back.height + back.bleed)  # fmt: skip
        draw_press_face(canvas, back, paints, motifs, game.localized.data.dir, art)
        canvas.endForm()
    canvas.setTrimBox((bleed, bleed, bleed + net.width, bleed + net.height))
    canvas.setBleedBox((0, 0, width, height))
    canvas.saveState()
    canvas.translate(bleed, bleed)
    bare = line.glue_flap == "bare"
    draw_box(canvas, game, deck, net, paints, bleed, lambda c, face: c.doForm("back"),
             glue_word=not bare)  # fmt: skip
    if bare:
        _bare_glue(canvas, net, bleed, line.glue_overlap, paints)
    canvas.setStrokeOverprint(True)
    canvas.setLineWidth(line.width)
    canvas.setLineJoin(1)
    canvas.setStrokeColor(_spot(line.crease, line.crease_alternate))
    if line.crease_dashed:
        canvas.setDash(*DASH)
    _folds(canvas, net)
    canvas.setDash()
    canvas.setStrokeColor(_spot(line.cut, line.cut_alternate))
    canvas.drawPath(_cut_path(canvas, net), stroke=1, fill=0)
    canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return buffer.getvalue(), 1
