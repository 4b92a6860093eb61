"""Image sets: one PNG per distinct face of every deck and sheet, for a web page (previews, with the
cards' rounded corners and a contact sheet per deck) or an online table (Tabletopia, Screentop:
square corners, every face of a component the same pixel size). The numbers are data
(data/print/targets/images/<name>.yaml); the faces are drawn by render/faces.py through
render/raster.py.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter

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


def contact_sheets(pictures: list, target: ImageTarget) -> list:
    """Every picture in a grid of `columns`, `gap` pixels apart and round the edge, on the
    background, in as many sheets as keep each within the target's `max_pixels` on either side:
    the pictures are first scaled down (never up) until a row of `columns` fits across, then the
    rows are shared out evenly over the fewest sheets that each fit down."""
    from PIL import Image

    sheet = target.contact_sheet
    assert sheet is not None  # asked for only by targets that have one
    limit, gap = target.max_pixels, sheet.gap
    width, height = pictures[0].size
    columns = min(sheet.columns, len(pictures))
    scale = min(
        1.0,
        (limit - (columns + 1) * gap) / (columns * width),
        (limit - 2 * gap) / height,
    )
    if scale < 1.0:
        width, height = max(1, int(width * scale)), max(1, int(height * scale))
        pictures = [
            picture.resize((width, height), Image.Resampling.LANCZOS) for picture in pictures
        ]
    rows, most = math.ceil(len(pictures) / columns), max(1, (limit - gap) // (height + gap))
    per_sheet = columns * math.ceil(rows / math.ceil(rows / most))  # rows shared out evenly
    sheets = []
    for first in range(0, len(pictures), per_sheet):
        chunk = pictures[first : first + per_sheet]
        rows = math.ceil(len(chunk) / columns)
        canvas = Image.new(
            "RGB",
            (columns * width + (columns + 1) * gap, rows * height + (rows + 1) * gap),
            rgb_colour(sheet.background),
        )
        for index, picture in enumerate(chunk):
            x = gap + (index % columns) * (width + gap)
            y = gap + (index // columns) * (height + gap)
            canvas.paste(picture, (x, y), picture if picture.mode == "RGBA" else None)
        sheets.append(canvas)
    return sheets


MANIFEST_COLUMNS = ("file", "component", "face", "side", "count", "back", "width_mm", "height_mm")


def _manifest(rows: list[tuple]) -> bytes:
    """The image set's manifest.csv: one row per image with what an online table's room needs to
    build the game (how many of each, which back goes with a front, the real size)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MANIFEST_COLUMNS)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _mm(points: float) -> str:
    return f"{points * 25.4 / 72:.1f}"


def _sized(face) -> tuple[str, str]:
    return _mm(face.width), _mm(face.height)


def render_image_set(
    game: GameLayout, target: ImageTarget, paints: Paints, motifs: dict[str, Motif], stem: str
) -> list[tuple[str, bytes, str]]:
    """(file name, bytes, description) of every image: <stem>-<deck>-<face>.png,
    <stem>-<deck>-contact.png (-contact-1.png, -contact-2.png… where a deck's faces take more than
    one sheet), <stem>-<sheet>[-<item>].png; and <stem>-manifest.csv, which says of each face's
    image its deck or sheet, how many of it the game holds, its back's image and its size (the
    images alone give one picture per distinct face, not how many to make)."""
    files = []
    rows: list[tuple] = []
    for deck in game.decks if target.digital_table else game.printed_decks:
        images = deck_images(game, deck, target, paints, motifs)
        fronts = Counter(front for front, _ in deck.cards)
        backs_of = {front: back for front, back in deck.cards}
        with_back = Counter(back for _, back in deck.cards if back)
        card = (_mm(deck.size.width), _mm(deck.size.height))
        for key, picture in images:
            name = f"{stem}-{deck.id}-{file_part(key)}.png"
            files.append((name, png(picture), f"{deck.id}: {target.label}"))
            if key in fronts:
                back = backs_of.get(key)
                back_file = f"{stem}-{deck.id}-{file_part(back)}.png" if back else ""
                rows.append((name, deck.id, key, "front", fronts[key], back_file, *card))
            else:
                rows.append((name, deck.id, key, "back", with_back[key], "", *card))
        if target.contact_sheet is not None and images:
            sheets = contact_sheets([p for _, p in images], target)
            for number, sheet in enumerate(sheets, 1):
                part = f"-{number}" if len(sheets) > 1 else ""
                files.append(
                    (
                        f"{stem}-{deck.id}-contact{part}.png",
                        png(sheet),
                        f"{deck.id}: contact sheet{part.replace('-', ' ')}, {target.label}",
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
        for name, picture, face in zip(names, pictures, sheet.faces):
            files.append((f"{name}.png", png(picture), f"{sheet.id}: {target.label}"))
            back_file = f"{name}-back.png" if sheet.backs else ""
            rows.append((f"{name}.png", sheet.id, face.key, "front", 1, back_file, *_sized(face)))
        if sheet.backs:  # two-sided sheets: each item's back beside it
            backs = face_images(
                sheet.backs,
                [size] * len(sheet.backs),
                paints,
                motifs,
                game.localized.data.dir,
                lang=game.lang,
            )
            for name, picture, face in zip(names, backs, sheet.backs):
                files.append(
                    (f"{name}-back.png", png(picture), f"{sheet.id}, back: {target.label}")
                )
                rows.append((f"{name}-back.png", sheet.id, face.key, "back", 1, "", *_sized(face)))
    files.append(
        (
            f"{stem}-manifest.csv",
            _manifest(rows),
            f"what each image is and how many: {target.label}",
        )
    )
    return files
