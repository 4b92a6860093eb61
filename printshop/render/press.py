"""Press files for print shops, following a profile (data/print/profiles/): every card face on its
own page at trim size plus the shop's bleed, in the shop's page order and colour space, with
TrimBox and BleedBox and no marks at all. On a CMYK profile raster art is converted as it is drawn
(render/press_art.py)."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

from reportlab.lib.colors import CMYKColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFPageLabel

from printshop.layout.imposition import cover
from printshop.layout.plan import DeckLayout, FaceLayout, GameLayout, SheetLayout
from printshop.project.models.art import Motif
from printshop.project.models.media import CardSize
from printshop.project.models.profile import Profile
from printshop.render.colour import ColourMode, Paints
from printshop.render.faces import draw_face
from printshop.render.images import is_svg
from printshop.render.pdf import new_canvas
from printshop.render.press_art import WHITE, PressArt, beneath
from printshop.render.raster import png as png_bytes
from printshop.render.raster import render_pixels
from printshop.render.replay import draw_face_form

START_AT = PDFPageLabel.ARABIC  # page labels: a prefix then a decimal number


def render_face_images(
    game: GameLayout,
    deck: DeckLayout,
    profile: Profile,
    trim: CardSize,
    paints: Paints,
    motifs: dict[str, Motif],
) -> list[tuple[str, bytes]]:
    """One PNG per card face, numbered in deck order (001-front, 001-back, 002-front, ...), at the
    profile's exact pixel size: pdfium maps each press page onto exactly those pixels
    (raster.render_pixels), so nothing is resampled (a picture rendered at a scale and resized to
    the shop's pixels, a pixel or two fewer, came out softer, and the resizing was most of the
    time)."""
    import pypdfium2

    front_first = profile.model_copy(update={"page_order": "front-back"})
    data, _ = render_press_cards(game, [deck], front_first, trim, paints, motifs, deck.id)
    document = pypdfium2.PdfDocument(data)
    images, page = [], 0
    # png-per-face profiles give their images' size; one without (not checked) fails here, and the
    # job reports the AttributeError as an internal error, as it always has
    width, height = profile.pixels.width, profile.pixels.height  # type: ignore[union-attr]
    made: dict[str, bytes] = {}  # by face: a shared back, or a card with copies, is rasterized once
    for number, (front, back) in enumerate(deck.cards, start=1):
        for side, face in (("front", front), ("back", back)) if back else (("front", front),):
            png = made.get(face)
            if png is None:
                picture = render_pixels(document[page], width, height)
                png = made[face] = png_bytes(picture, 300, level=6)  # pHYs: else tools read 72 dpi
            images.append((f"{deck.id}-{number:03d}-{side}.png", png))
            page += 1
    document.close()
    return images


def press_paints(palette: dict[str, str], profile: Profile) -> Paints:
    """The palette in the profile's colours: RGB, or CMYK within its ink limit with its rich black."""
    colour = profile.colour
    return Paints(
        palette,
        ColourMode(
            colour.space,
            colour.ink_limit,
            tuple(colour.rich_black) if colour.rich_black else None,
            icc=colour.icc if colour.space == "cmyk" else None,
        ),
    )


def press_art(profile: Profile) -> PressArt | None:
    """The converter of raster art for a CMYK profile; None for RGB, which takes art as it is."""
    return PressArt(profile) if profile.colour.space == "cmyk" else None


def draw_press_face(
    canvas,
    face: FaceLayout,
    paints: Paints,
    motifs: dict[str, Motif],
    assets: Path,
    art: PressArt | None,
) -> None:
    """draw_face, with each raster image converted by `art` (flattened over the plain colour beneath
    it). Shapes keep their layer order: runs of other shapes are drawn by draw_face between images."""
    images = [  # raster images (an SVG's colours are converted as draw_face draws it)
        name
        for name, shape in face.face.shapes.items()
        if shape.kind == "image" and shape.src and not is_svg(shape.src)
    ]
    if (
        art is None or not images
    ):  # (into the form begun: replayed when a session keeps the face's recording)
        draw_face_form(canvas, face, paints, motifs, assets)
        return
    ordered = sorted(
        face.face.shapes.items(), key=lambda item: item[1].layer
    )  # as draw_face orders them
    run: dict = {}
    first = True

    def flush(frames) -> None:
        nonlocal run, first
        part = face.face.model_copy(
            update={"shapes": run, "background": face.face.background if first else None}
        )
        draw_face(
            canvas, dataclasses.replace(face, face=part, frames=frames), paints, motifs, assets
        )
        run, first = {}, False

    for name, shape in ordered:
        if name not in images:
            run[name] = shape
            continue
        flush([])
        under = beneath(face.face, name)
        colour = (
            WHITE
            if under.fill is None
            else _cmyk(
                paints.background(under.fill) if under.background else paints.fill(under.fill)
            )
        )
        assert shape.src is not None  # (in `images`: an image with a file)
        picture = art.convert(assets / shape.src, colour)
        top = face.height - shape.y
        canvas.drawImage(
            ImageReader(picture), shape.x, top - shape.height, shape.width, shape.height
        )
    flush(face.frames)


def _cmyk(colour) -> tuple[float, float, float, float]:
    if isinstance(colour, CMYKColor):
        return colour.cyan, colour.magenta, colour.yellow, colour.black
    return WHITE


def render_press_sheet(
    game: GameLayout,
    sheet: SheetLayout,
    profile: Profile,
    paints: Paints,
    motifs: dict[str, Motif],
    art: PressArt | None = None,
) -> tuple[bytes, int]:
    """One page per sheet (each item of a set) at full size plus the profile's bleed, in its
    colours, with TrimBox and BleedBox; the kit's press pages and the shops' sheets alike."""
    first, bleed = sheet.faces[0], profile.bleed
    width, height = first.width + 2 * bleed, first.height + 2 * bleed
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        width,
        height,
        lang=game.lang,
        title=f"{game.title}: {sheet.id} (press)",
        subject=f"press file: {profile.label}",
        keywords="printshop:sheet",
    )
    names = []
    for index, face in enumerate(sheet.faces):
        names.append(f"sheet{index}")
        canvas.beginForm(
            names[-1], -face.bleed, -face.bleed, face.width + face.bleed, face.height + face.bleed
        )
        draw_press_face(canvas, face, paints, motifs, game.localized.data.dir, art)
        canvas.endForm()
    for name in names:
        canvas.setTrimBox((bleed, bleed, bleed + first.width, bleed + first.height))
        canvas.setBleedBox((0, 0, width, height))
        canvas.saveState()
        canvas.translate(bleed, bleed)
        canvas.doForm(name)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), len(names)


def render_press_cards(
    game: GameLayout,
    decks: list[DeckLayout],
    profile: Profile,
    trim: CardSize,
    paints: Paints,
    motifs: dict[str, Motif],
    title: str,
    art: PressArt | None = None,
    side: str | None = None,
) -> tuple[bytes, int]:
    """The decks' cards on pages of the shop's `trim` plus its bleed, each card's faces in the
    profile's order (e.g. back 1, front 1, back 2, ...). Faces are scaled about their centre to
    cover the trim (validation has checked that bleed and safe zone survive it). Each page is
    labelled with its side and card number ("back 1", "front 1"), which preflight uses to check the
    order. With `side` ("front" or "back"), only that side of each card: shops that take fronts and
    backs as two files."""
    bleed = profile.bleed
    width, height = trim.width + 2 * bleed, trim.height + 2 * bleed
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        width,
        height,
        lang=game.lang,
        title=f"{game.title}: {title}",
        subject=f"press file: {profile.label}",
        keywords="printshop:cards",
    )
    names: dict[str, str] = {}
    for deck in decks:
        # with `side`, the faces of that side only: a file of backs carries no front (nor its fonts
        # and art)
        used = {
            key
            for front, back in deck.cards
            for this_side, key in (("front", front), ("back", back))
            if key and (side is None or this_side == side)
        }
        for key, face in deck.faces.items():
            if key not in used:
                continue
            names[key] = f"face{len(names)}"
            canvas.beginForm(
                names[key],
                -face.bleed,
                -face.bleed,
                face.width + face.bleed,
                face.height + face.bleed,
            )
            draw_press_face(canvas, face, paints, motifs, game.localized.data.dir, art)
            canvas.endForm()
    pages, number = 0, 0
    for deck in decks:
        fitted = cover(deck.size.width, deck.size.height, 0, trim.width, trim.height)
        for front, back in deck.cards:
            number += 1
            sides = [("front", front), ("back", back)] if back else [("front", front)]
            if profile.page_order == "back-front" and back:
                sides.reverse()
            for this_side, key in sides:
                if side is not None and this_side != side:
                    continue
                canvas.setTrimBox((bleed, bleed, bleed + trim.width, bleed + trim.height))
                canvas.setBleedBox((0, 0, width, height))
                canvas.addPageLabel(pages, START_AT, number, f"{this_side} ")
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
