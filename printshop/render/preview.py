"""Image sets: one PNG per distinct face of every deck and sheet, for a web page (previews, with the
cards' rounded corners and a contact sheet per deck) or an online table (Tabletopia, Screentop:
square corners, every face of a component the same pixel size). The numbers are data
(data/print/targets/images/<name>.yaml); the faces are drawn by render/faces.py through
render/raster.py.
"""

from __future__ import annotations

import math

from printshop.layout.plan import DeckLayout, GameLayout
from printshop.project.models.art import Motif
from printshop.project.models.targets import ImageTarget
from printshop.render.colour import Paints
from printshop.render.raster import (
    corner_mask,
    face_images,
    file_part,
    pixels_within,
    png,
    rgb_colour,
    rounded,
    sheet_file_names,
)


def deck_images(
    game: GameLayout,
    deck: DeckLayout,
    target: ImageTarget,
    paints: Paints,
    motifs: dict[str, Motif],
):
    """[(face key, image)] for each distinct face of the deck: the fronts in deck order, then the
    backs."""
    keys = list(
        dict.fromkeys([front for front, _ in deck.cards] + [back for _, back in deck.cards if back])
    )
    size = pixels_within(
        deck.size.width,
        deck.size.height,
        target.card_dpi,
        target.min_card_pixels,
        target.max_pixels,
    )
    pictures = face_images(
        [deck.faces[key] for key in keys],
        [size] * len(keys),
        paints,
        motifs,
        game.localized.data.dir,
        lang=game.lang,
    )
    if target.rounded:
        radius = deck.size.corner_radius * size[0] / deck.size.width
        mask = corner_mask(size, radius) if radius > 0 else None  # one mask for the whole deck
        pictures = [rounded(picture, mask) for picture in pictures]
    return list(zip(keys, pictures))


def contact_sheet(pictures: list, target: ImageTarget):
    """Every picture in a grid of `columns`, `gap` pixels apart and round the edge, on the
    background."""
    from PIL import Image

    sheet = target.contact_sheet
    assert sheet is not None  # asked for only by targets that have one
    width, height = pictures[0].size
    columns = min(sheet.columns, len(pictures))
    rows = math.ceil(len(pictures) / columns)
    canvas = Image.new(
        "RGB",
        (columns * width + (columns + 1) * sheet.gap, rows * height + (rows + 1) * sheet.gap),
        rgb_colour(sheet.background),
    )
    for index, picture in enumerate(pictures):
        x = sheet.gap + (index % columns) * (width + sheet.gap)
        y = sheet.gap + (index // columns) * (height + sheet.gap)
        canvas.paste(picture, (x, y), picture if picture.mode == "RGBA" else None)
    return canvas


def render_image_set(
    game: GameLayout, target: ImageTarget, paints: Paints, motifs: dict[str, Motif], stem: str
) -> list[tuple[str, bytes, str]]:
    """(file name, bytes, description) of every image: <stem>-<deck>-<face>.png,
    <stem>-<deck>-contact.png, <stem>-<sheet>[-<item>].png."""
    files = []
    for deck in game.decks:
        images = deck_images(game, deck, target, paints, motifs)
        for key, picture in images:
            files.append(
                (
                    f"{stem}-{deck.id}-{file_part(key)}.png",
                    png(picture),
                    f"{deck.id}: {target.label}",
                )
            )
        if target.contact_sheet is not None and images:
            files.append(
                (
                    f"{stem}-{deck.id}-contact.png",
                    png(contact_sheet([p for _, p in images], target)),
                    f"{deck.id}: contact sheet, {target.label}",
                )
            )
    for sheet in game.sheets:
        first = sheet.faces[0]
        size = pixels_within(first.width, first.height, target.sheet_dpi, 1, target.max_pixels)
        pictures = face_images(
            sheet.faces,
            [size] * len(sheet.faces),
            paints,
            motifs,
            game.localized.data.dir,
            lang=game.lang,
        )
        names = sheet_file_names(stem, sheet.id, [face.key for face in sheet.faces])
        for name, picture in zip(names, pictures):
            files.append((f"{name}.png", png(picture), f"{sheet.id}: {target.label}"))
        if sheet.backs:  # two-sided sheets: each item's back beside it
            backs = face_images(
                sheet.backs,
                [size] * len(sheet.backs),
                paints,
                motifs,
                game.localized.data.dir,
                lang=game.lang,
            )
            for name, picture in zip(names, backs):
                files.append(
                    (f"{name}-back.png", png(picture), f"{sheet.id}, back: {target.label}")
                )
    return files
