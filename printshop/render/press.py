"""Press files for print shops, following a profile (data/print/profiles/): every card face on its
own page at trim size plus the shop's bleed, in the shop's page order and colour space, with
TrimBox and BleedBox and no marks at all."""
from __future__ import annotations

import io

from printshop.colour import Paints
from printshop.layout import DeckLayout, GameLayout
from printshop.model import Motif, Profile
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas


def render_press_cards(game: GameLayout, decks: list[DeckLayout], profile: Profile, paints: Paints,
                       motifs: dict[str, Motif], title: str) -> tuple[bytes, int]:
    """The decks' cards, each card's faces in the profile's order (e.g. back 1, front 1, back 2, ...)."""
    bleed = profile.bleed
    first = decks[0]
    width, height = first.size.width + 2 * bleed, first.size.height + 2 * bleed
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, width, height, lang=game.lang, title=f"{game.title}: {title}",
                        subject=f"press file: {profile.label}")
    names: dict[str, str] = {}
    for deck in decks:
        for key, face in deck.faces.items():
            names[key] = f"face{len(names)}"
            canvas.beginForm(names[key], -face.bleed, -face.bleed, face.width + face.bleed, face.height + face.bleed)
            draw_face(canvas, face, paints, motifs, game.localized.data.dir)
            canvas.endForm()
    pages = 0
    for deck in decks:
        for front, back in deck.cards:
            sides = [front, back] if back else [front]
            if profile.page_order == "back-front" and back:
                sides.reverse()
            for key in sides:
                canvas.setTrimBox((bleed, bleed, bleed + deck.size.width, bleed + deck.size.height))
                canvas.setBleedBox((0, 0, width, height))
                canvas.saveState()
                canvas.translate(bleed, bleed)
                canvas.doForm(names[key])
                canvas.restoreState()
                canvas.showPage()
                pages += 1
    canvas.save()
    return buffer.getvalue(), pages
