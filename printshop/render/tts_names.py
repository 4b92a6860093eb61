"""Tabletop Simulator's names: what each deck, card, marker and tile is called on the table (its
Nickname, the hover tooltip and what a deck's search finds), in the kit's language, from the texts
its face prints or the game's own texts, never an internal id.

A card is named by its deck's `names` entry for its kind (a text id, which may hold the card's
vars: `role.{role}.name`): that text with its placeholders filled, each by what the card's front
prints in the frame of that name (`{verb}`), else by the card's var, read as the text
`<deck>.<var>.<value>` where there is one (`markers.faction.f1`). A kind without an entry is named
by what its front prints as its title (the frame `title` or `name`), else by its entry's id.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple

from printshop.layout.plan import DeckLayout, FaceLayout, GameLayout, SheetLayout
from printshop.project.models.game import CardEntry
from printshop.typeset.richtext import Para, plain_text

TITLE_FRAMES = ("title", "name")  # a face's frames whose text names the card or tile
_BREAKS = re.compile(r"[ \t\r\n\u00a0]+")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_-]*)\}")


def _spaces(text: str) -> str:
    """`text` with each run of plain spaces, no-break spaces and line breaks made one space (a
    name on the table never wraps, and TTS's search finds "Le Favori" typed with a plain space);
    French U+202F before a colon kept."""
    return _BREAKS.sub(" ", text).strip(" ")


def frame_text(face: FaceLayout, name: str) -> str | None:
    """The plain text a face prints in its frame `name`, placeholders filled as printed (None: no
    such frame)."""
    for frame in face.frames:
        if frame.name == name:
            parts = [plain_text(block.markup) for block in frame.blocks if isinstance(block, Para)]
            return " ".join(_spaces(part) for part in parts if part.strip())
    return None


def face_title(face: FaceLayout, fallback: str) -> str:
    """What a face prints as its title (its frame `title` or `name`, as set: "Setup for 5
    players"), else `fallback`."""
    for name in TITLE_FRAMES:
        title = frame_text(face, name)
        if title:
            return title
    return fallback


class Names:
    """The names of one game's objects in one language."""

    def __init__(self, game: GameLayout):
        self.game = game

    def text(self, text_id: str | None, fallback: str) -> str:
        """The plain localized text `text_id` (as the cards print it), else `fallback`."""
        texts = self.game.localized.texts
        return self.game.localized.plain(text_id) if text_id in texts else fallback

    def deck_name(self, deck: DeckLayout) -> str:
        """A deck's name in the kit's language: its tuck box's title, its `<deck>.title` text, the
        game's title for a game's only deck, else its id."""
        box = deck.deck.tuck_box
        fallback = self.game.title if len(self.game.decks) == 1 else deck.id
        return self.text(box.title if box else None, self.text(f"{deck.id}.title", fallback))

    def sheet_name(self, sheet: SheetLayout) -> str:
        """A sheet's name on the table, for its own save: the text `table.<sheet>` (a set: "Role
        sheets"), else the title its only face prints, else its id."""
        if len(sheet.faces) == 1:
            return self.text(f"table.{sheet.id}", face_title(sheet.faces[0], sheet.id))
        return self.text(f"table.{sheet.id}", sheet.id)

    def card_names(self, deck: DeckLayout, deck_id: str) -> list[str]:
        """Each physical card's name, in deck order (`deck_id`: the deck's id in the game's data,
        that of the deck a split part came from)."""
        entries = [entry for entry in deck.deck.cards for _ in range(entry.count)]
        if len(entries) != len(deck.cards):  # the cards do not follow the entries one by one
            return [
                face_title(deck.faces[front], f"{deck.id} {index + 1}")
                for index, (front, _) in enumerate(deck.cards)
            ]
        return [
            self.card_name(deck, deck_id, entry, deck.faces[front])
            for entry, (front, _) in zip(entries, deck.cards)
        ]

    def card_name(self, deck: DeckLayout, deck_id: str, entry: CardEntry, face: FaceLayout) -> str:
        """A card's name: its deck's `names` text for its kind, filled in; else its title."""
        pattern = deck.deck.names.get(entry.kind)
        if pattern is None:
            return face_title(face, entry.id)
        text_id = _PLACEHOLDER.sub(lambda m: str(entry.vars.get(m[1], m[0])), pattern)
        if text_id not in self.game.localized.texts:
            return face_title(face, entry.id)

        def value(match: re.Match) -> str:
            printed = frame_text(face, match[1])
            if printed:
                return printed
            if match[1] in entry.vars:
                var = str(entry.vars[match[1]])
                return self.text(f"{deck_id}.{match[1]}.{var}", var)
            return match[0]

        return _spaces(_PLACEHOLDER.sub(value, self.text(text_id, entry.id)))


class TableDeck(NamedTuple):
    """One deck a game's deck makes on a digital table."""

    deck: DeckLayout
    name: str
    face_up: bool = False
    on_table: bool = True  # false: only in a saved object of its own (Apart.on_table)
    hands: bool = True  # false: TTS keeps its cards out of a hand (Apart.hands)


def table_decks(names: Names, deck: DeckLayout, split_by: list[str]) -> list[TableDeck]:
    """The decks a game's deck makes on the table: the cards of each of its `apart` entries on
    their own (`<deck>-<first kind>`), the rest under the deck's own id and name, split as
    `split_decks` says."""
    entries = [entry for entry in deck.deck.cards for _ in range(entry.count)]
    if not deck.deck.apart or len(entries) != len(deck.cards):
        return [TableDeck(part, name) for part, name in split_decks(names, deck, split_by)]
    kept = {kind for apart in deck.deck.apart for kind in apart.kinds}
    # (the cards' kinds, the part's id, how it lies: a TableDeck whose deck is filled in below)
    groups = [(None, deck.id, TableDeck(deck, names.deck_name(deck)))] + [
        (
            set(apart.kinds),
            f"{deck.id}-{apart.kinds[0]}",
            TableDeck(
                deck,
                names.text(apart.name, apart.kinds[0]),
                apart.face_up,
                apart.on_table,
                apart.hands,
            ),
        )
        for apart in deck.deck.apart
    ]
    result = []
    for kinds, part_id, lies in groups:

        def held(entry: CardEntry, kinds: set[str] | None = kinds) -> bool:
            return entry.kind not in kept if kinds is None else entry.kind in kinds

        cards = [card for card, entry in zip(deck.cards, entries) if held(entry)]
        if not cards:
            continue
        own = [entry for entry in deck.deck.cards if held(entry)]
        part = replace(
            deck, id=part_id, deck=deck.deck.model_copy(update={"cards": own}), cards=cards
        )
        result += [
            lies._replace(deck=sub, name=label)
            for sub, label in split_decks(names, part, split_by, lies.name)
        ]
    return result


def split_decks(
    names: Names, deck: DeckLayout, split_by: list[str], name: str | None = None
) -> list[tuple[DeckLayout, str]]:
    """A deck and its name (`name`, else the deck's), or, where its cards hold a var of `split_by`
    (the target's), one deck per value (named by the text `<deck>.<var>.<value>`, e.g.
    markers.faction.f1, else the deck's name and the value) and one of the cards without it, under
    the deck's own id and name."""
    name = name or names.deck_name(deck)
    entries = [entry for entry in deck.deck.cards for _ in range(entry.count)]
    var = next((var for var in split_by if any(var in e.vars for e in entries)), None)
    if var is None or len(entries) != len(deck.cards):
        return [(deck, name)]
    values = list(dict.fromkeys(entry.vars.get(var) for entry in entries))
    values.sort(key=lambda value: value is None)  # the cards without the var last
    parts = []
    for value in values:
        cards = [card for card, entry in zip(deck.cards, entries) if entry.vars.get(var) == value]
        own = [entry for entry in deck.deck.cards if entry.vars.get(var) == value]
        part = replace(
            deck,
            id=deck.id if value is None else f"{deck.id}-{value}",
            deck=deck.deck.model_copy(update={"cards": own}),
            cards=cards,
        )
        label = name if value is None else names.text(f"{deck.id}.{var}.{value}", f"{name} {value}")
        parts.append((part, label))
    return parts
