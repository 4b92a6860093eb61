"""What a print shop takes of a game, and what it leaves out and why.

One answer for three readers: `validate` warns about each item a profile leaves out
(`press-left-out`, acknowledged when the profile's `leaves_out` says why), the shop job renders only
what is taken, and each profile folder's manifest.json lists both. A shop leaves out a deck whose
card size it does not make (its `products`), and an image shop (`png-per-face`) takes card faces
only: no sheets, no booklet. Sheets without `press: true` go to no shop; the manifest says so, but
that is the game's choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from printshop.diagnostics import Location
from printshop.project.models.game import Game
from printshop.project.models.profile import Profile


@dataclass(frozen=True)
class LeftOut:
    kind: str  # "deck", "sheet", "tuck box" or "booklet"
    id: str  # the deck's or sheet's id; "rules" for the booklet
    # what the profile's `leaves_out` acknowledges it by: the card size, "sheets", "tuck-boxes" or
    # "booklets"
    key: str
    why: str
    where: Location
    warn: bool = True  # False: the game itself sends it to no shop (a sheet without press: true)

    @property
    def what(self) -> str:
        return "the rules booklet" if self.kind == "booklet" else f"{self.kind} '{self.id}'"


def takes_deck(profile: Profile, card_size: str) -> bool:
    return profile.product(card_size) is not None


def takes_sheets(profile: Profile) -> bool:
    return profile.files != "png-per-face"


def sizes_made(profile: Profile) -> str:
    return ", ".join(profile.products) if profile.products else "every card size"


def left_out(game: Game, profile: Profile) -> list[LeftOut]:
    """Every deck, sheet and booklet of `game` that `profile`'s files will not hold, in the game's
    order."""
    items = []
    for deck_id, deck in game.printed_decks().items():
        if not takes_deck(profile, deck.card_size):
            items.append(
                LeftOut(
                    "deck",
                    deck_id,
                    deck.card_size,
                    f"{profile.label} makes no {deck.card_size} cards (it makes {sizes_made(profile)})",
                    deck.where("card_size"),
                )
            )
        elif deck.tuck_box is not None and not takes_sheets(profile):
            items.append(
                LeftOut(
                    "tuck box",
                    deck_id,
                    "tuck-boxes",
                    f"{profile.label} takes one image per card face, no tuck box",
                    deck.where("tuck_box"),
                )
            )
    for sheet_id, sheet in game.sheets.items():
        if not sheet.press:
            items.append(
                LeftOut(
                    "sheet",
                    sheet_id,
                    "sheets",
                    "the sheet is not marked press: true in game.yaml",
                    sheet.where(),
                    warn=False,
                )
            )
        elif not takes_sheets(profile):
            items.append(
                LeftOut(
                    "sheet",
                    sheet_id,
                    "sheets",
                    f"{profile.label} takes one image per card face, no sheets",
                    sheet.where("press"),
                )
            )
    if game.booklet is not None and not takes_sheets(profile):
        items.append(
            LeftOut(
                "booklet",
                "rules",
                "booklets",
                f"{profile.label} takes one image per card face, no booklet",
                game.where("booklet"),
            )
        )
    return items
