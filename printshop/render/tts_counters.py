"""Tabletop Simulator's counters: a deck of one-sided chits (its card size's `medium` one of the
target's `tiles`, Kremlin's 16 mm markers) goes on the table as thick, stackable Custom_Tiles at
their real size, their corners cut as the chit's, in bags: a bag for each part of the deck that
the target's `split_by` makes (a faction's markers), and for the chits without that var a bag per
face, named by what it prints ("Sick (one cross)"). As cards, review 4-J found 87 shared markers
of eleven kinds in one face-up pile to search every year, and 16 mm squares that read as cards.

A tile takes one image, never a slot of a sheet: each face the deck prints is its own PNG
(`<stem>-<deck>-<card id>.png`), drawn once however many chits show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printshop.layout.plan import DeckLayout
from printshop.render.raster import face_images, png
from printshop.render.tts_table import diffuse

if TYPE_CHECKING:
    from printshop.render.tts import TtsExport

TILE_TYPES = {
    "square": 0,
    "rounded": 3,
}  # TTS's CustomTile "Type": 0 box, 1 hex, 2 circle, 3 rounded
THICKNESS = 0.1  # TTS units (inches) a counter tile is thick: about card stock's 2.5 mm


def is_counters(deck: DeckLayout, tiles: list[str]) -> bool:
    """Whether the deck goes on the table as tiles: one-sided chits of a medium in `tiles`."""
    return deck.size.medium in tiles and not any(back for _, back in deck.cards)


class CounterTiles:
    """One counter deck's tiles: each face's image once, each chit a tile, bags of them."""

    def __init__(self, export: TtsExport, deck: DeckLayout):
        self.export, self.deck = export, deck
        self.urls: dict[str, str] = {}
        keys = list(dict.fromkeys(front for front, _ in deck.cards))
        from printshop.render.tts import card_pixels

        game = export.game
        pictures = face_images(
            [deck.faces[key] for key in keys],
            [card_pixels(deck, export.target)] * len(keys),
            export.paints,
            export.motifs,
            game.localized.data.dir,
            lang=game.lang,
        )
        for key, picture in zip(keys, pictures):
            card_id = key.split("/")[1]  # <deck>/<card id>/front
            file_name = f"{export.stem}-{deck.id}-{card_id}.png"
            export.files.append((file_name, png(picture), f"{deck.id}: the counter {card_id}"))
            self.urls[key] = export.url(file_name)

    def bags(self, part: DeckLayout, name: str, by_face: bool) -> list[dict]:
        """The bags of a part of the deck: one named `name` holding every chit, or (`by_face`: the
        chits no var split off, the shared supply) one per face, named by its chits' name."""
        names = self.export.names.card_names(part, self.deck.id)
        chits = list(zip(part.cards, names))
        if not by_face:
            return [self._bag(part.id, name, chits)]
        by_front: dict[str, list] = {}
        for chit in chits:
            by_front.setdefault(chit[0][0], []).append(chit)
        return [
            self._bag(f"{part.id}/{front}", group[0][1], group) for front, group in by_front.items()
        ]

    def _bag(self, bag_id: str, name: str, chits: list) -> dict:
        from printshop.render.tts import _common, _transform, guid

        stem = self.export.stem
        bag = _common("Bag", name, _transform(0, 0), guid(stem, "bag", bag_id))
        first = self.deck.faces[chits[0][0][0]]
        background = first.face.background
        palette = self.export.paints.palette
        if (
            background is not None and background in palette
        ):  # the bag takes its chits' colour: a faction's, the paper's
            bag["ColorDiffuse"] = diffuse(palette[background])
        bag["ContainedObjects"] = [
            self._tile(f"{bag_id}/{index}", front, chit_name)
            for index, ((front, _), chit_name) in enumerate(chits)
        ]
        return bag

    def _tile(self, tile_id: str, front: str, name: str) -> dict:
        from printshop.render.tts import WHITE, _common, _transform, guid

        size, target = self.deck.size, self.export.target
        scale = size.width / target.tile_at_scale_1
        tile = _common(
            "Custom_Tile",
            name,
            _transform(0, 0, scale, scale),
            guid(self.export.stem, "tile", tile_id),
            self.export.names.deck_name(self.deck),
            tint=WHITE,
        )
        tile["CustomImage"] = {
            "ImageURL": self.urls[front],
            "ImageSecondaryURL": self.urls[front],  # one-sided: its face on both sides
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
            "CustomTile": {
                "Type": TILE_TYPES["rounded" if size.corner_radius > 0 else "square"],
                "Thickness": THICKNESS,
                "Stackable": True,
                "Stretch": True,
            },
        }
        return tile
