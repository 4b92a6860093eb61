"""Press files for print shops, following a profile (data/print/profiles/): every card face on its
own page at trim size plus the shop's bleed, in the shop's page order and colour space, with
TrimBox and BleedBox and no marks at all."""
from __future__ import annotations

import io

from reportlab.pdfbase.pdfdoc import PDFPageLabel

from printshop.colour import Paints
from printshop.layout import DeckLayout, GameLayout
from printshop.imposition import cover
from printshop.model import CardSize, Motif, Profile
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas

START_AT = PDFPageLabel.ARABIC  # page labels: a prefix then a decimal number


def render_face_images(game: GameLayout, deck: DeckLayout, profile: Profile, trim: CardSize, paints: Paints,
                       motifs: dict[str, Motif]) -> list[tuple[str, bytes]]:
    """One PNG per card face, numbered in deck order (001-front, 001-back, 002-front, ...), at the
    profile's exact pixel size: the press page rasterized at 300 dpi or more, then resampled."""
    import pypdfium2
    from PIL import Image

    front_first = profile.model_copy(update={"page_order": "front-back"})
    data, _ = render_press_cards(game, [deck], front_first, trim, paints, motifs, deck.id)
    document = pypdfium2.PdfDocument(data)
    images, page = [], 0
    width, height = profile.pixels.width, profile.pixels.height
    for number, (_, back) in enumerate(deck.cards, start=1):
        for side in ("front", "back") if back else ("front",):
            pdf_page = document[page]
            scale = max(width / pdf_page.get_width(), height / pdf_page.get_height(), 300 / 72)
            picture = pdf_page.render(scale=scale).to_pil().convert("RGB")
            picture = picture.resize((width, height), Image.LANCZOS)
            buffer = io.BytesIO()
            picture.save(buffer, format="PNG", optimize=False)
            images.append((f"{deck.id}-{number:03d}-{side}.png", buffer.getvalue()))
            page += 1
    document.close()
    return images


def render_press_cards(game: GameLayout, decks: list[DeckLayout], profile: Profile, trim: CardSize, paints: Paints,
                       motifs: dict[str, Motif], title: str) -> tuple[bytes, int]:
    """The decks' cards on pages of the shop's `trim` plus its bleed, each card's faces in the profile's
    order (e.g. back 1, front 1, back 2, ...). Faces are scaled about their centre to cover the trim
    (validation has checked that bleed and safe zone survive it). Each page is labelled with its
    side and card number ("back 1", "front 1"), which preflight uses to check the order."""
    bleed = profile.bleed
    width, height = trim.width + 2 * bleed, trim.height + 2 * bleed
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, width, height, lang=game.lang, title=f"{game.title}: {title}",
                        subject=f"press file: {profile.label}", keywords="printshop:cards")
    names: dict[str, str] = {}
    for deck in decks:
        for key, face in deck.faces.items():
            names[key] = f"face{len(names)}"
            canvas.beginForm(names[key], -face.bleed, -face.bleed, face.width + face.bleed, face.height + face.bleed)
            draw_face(canvas, face, paints, motifs, game.localized.data.dir)
            canvas.endForm()
    pages, number = 0, 0
    for deck in decks:
        fitted = cover(deck.size.width, deck.size.height, 0, trim.width, trim.height)
        for front, back in deck.cards:
            number += 1
            sides = [("front", front), ("back", back)] if back else [("front", front)]
            if profile.page_order == "back-front" and back:
                sides.reverse()
            for side, key in sides:
                canvas.setTrimBox((bleed, bleed, bleed + trim.width, bleed + trim.height))
                canvas.setBleedBox((0, 0, width, height))
                canvas.addPageLabel(pages, START_AT, number, f"{side} ")
                canvas.saveState()
                canvas.translate(width / 2, height / 2)
                canvas.scale(fitted.scale, fitted.scale)
                canvas.translate(-deck.size.width / 2, -deck.size.height / 2)
                canvas.doForm(names[key])
                canvas.restoreState()
                canvas.showPage()
                pages += 1
    canvas.save()
    return buffer.getvalue(), pages
