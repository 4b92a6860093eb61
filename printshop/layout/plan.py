"""The layout plan: what stage 4 (lay out) hands the renderers, with every decision made.

For each deck, the faces (each drawn once) with the chosen font size of every frame and the cards in
deck order; for each sheet, its faces and their backs; the booklet's blocks and style. A renderer
follows it without further decisions. Made by layout.game.lay_out_game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from printshop.language.resolve import LocalizedGame
from printshop.project.models.booklet import BookletStyle
from printshop.project.models.faces import Face, Frame
from printshop.project.models.game import Deck, SheetSpec
from printshop.project.models.media import CardSize
from printshop.typeset.fitting import Fit
from printshop.typeset.richtext import Block


@dataclass
class FrameLayout:
    name: str
    frame: Frame
    fit: Fit
    blocks: list[Block]  # kept so a renderer can set the text again in its own colours, at fit.size
    text_ids: tuple[
        str, ...
    ] = ()  # the texts the frame prints, in the order the template read them


@dataclass
class FaceLayout:
    key: str
    face_name: str
    face: Face
    width: float
    height: float
    bleed: float
    frames: list[FrameLayout]


@dataclass
class DeckLayout:
    id: str
    deck: Deck
    size: CardSize
    faces: dict[str, FaceLayout]
    cards: list[
        tuple[str, str | None]
    ]  # (front face key, back face key or None), one per physical card


@dataclass
class SheetLayout:
    id: str
    spec: SheetSpec
    faces: list[FaceLayout]  # one per item (a single one for a sheet without items)
    backs: list[FaceLayout] = field(
        default_factory=list
    )  # the back of each face, in the same order; none: one-sided


@dataclass
class BookletLayout:
    blocks: list[Block]
    style: BookletStyle
    text_ids: tuple[
        str, ...
    ] = ()  # the texts the template printed, in the order it read them (serve: a page's sources)
    # its first page a cover (page styles' `cover`, balanced lines, no file name on it); a one-page
    # document set as a booklet (the how-to-print sheet) has none
    cover: bool = True


@dataclass
class GameLayout:
    game_id: str
    lang: str
    localized: LocalizedGame
    title: str
    decks: list[DeckLayout] = field(default_factory=list)
    sheets: list[SheetLayout] = field(default_factory=list)
    booklet: BookletLayout | None = None

    @property
    def printed_decks(self) -> list[DeckLayout]:
        """The decks paper gets (kits, press, cut files, previews): all but those made only for
        digital tables (a deck's `digital_only`)."""
        return [deck for deck in self.decks if not deck.deck.digital_only]
