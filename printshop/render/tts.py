"""Tabletop Simulator: a game's decks as custom decks (face sheets, backs, saved objects), its
boards and sheets as custom boards and tiles, for playtesting online from the same data as the print
files.

A face sheet is TTS's grid: at most `max_columns` x `max_rows` cards (10 x 7), fewer where cards at
`card_dpi` would make the sheet wider or taller than `max_pixels` (a deck takes more sheets rather
than lose resolution), every copy of a card in its own slot, in deck order, and the grid's last
slot holding the hidden-card image (what others see of a card in your hand). A deck larger than one sheet continues on the next, under the next deck
number. Card ids are 100 x deck number + slot, as TTS counts them. A deck whose cards share one back
gets that back as one image; cards with backs of their own get a sheet of backs in the same grid
(`UniqueBack`); a one-sided deck (counters) shows its face on both sides.

Image URLs are the file names (or `base_url` + file name; base_url "file://": absolute file:/// URLs
of the output folder): TTS loads images from the web or from an absolute local path, never relative
to the JSON, so each tts/ folder's README.txt says how to upload or rewrite them. Decks, cards and
tiles are named by the texts they print (tts_table.py lays the all-in-one save out).
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from printshop.layout.plan import DeckLayout, FaceLayout, GameLayout, SheetLayout
from printshop.project.models.art import Motif
from printshop.project.models.targets import TtsTarget
from printshop.render.colour import Paints
from printshop.render.raster import face_images, pixels_at, png, rgb_colour, sheet_file_names
from printshop.render.tts_counters import CounterTiles, is_counters
from printshop.render.tts_names import Names, face_title, table_decks
from printshop.render.tts_table import (
    README,
    centre,
    footprint,
    game_settings,
    hand_zones,
    lay_out_row,
    lay_out_table,
    notebook_sheets,
    readme,
    stock,
)


@dataclass(frozen=True)
class RulesPdf:
    """The rule booklet written beside the saves: its file name and its page's size (points)."""

    file_name: str
    width: float
    height: float


CARD_TYPES = {
    "rounded": 0,
    "square": 1,
}  # TTS's CustomDeck "Type": 0 rectangle with round corners, 1 without


@dataclass(frozen=True)
class SheetGrid:
    columns: int
    rows: int
    cards: int  # cards on this sheet; the last slot (columns x rows - 1) is the hidden card

    @property
    def hidden_slot(self) -> int:
        return self.columns * self.rows - 1


def sheet_grids(
    cards: int, target: TtsTarget, cell: tuple[int, int] | None = None
) -> list[SheetGrid]:
    """The grids of a deck of `cards` cards: full sheets of the most cards across and down that
    keep cards of `cell` pixels within `max_pixels` (at most max_columns x max_rows, at least the
    least grid), less the hidden slot, then the smallest grid that holds the rest and its hidden
    slot."""
    across, down = grid_limits(cell, target)
    capacity = across * down - 1
    grids = []
    while cards > 0:
        here = min(cards, capacity)
        slots = here + 1
        columns = min(across, max(target.min_columns, slots))
        rows = max(target.min_rows, math.ceil(slots / columns))
        grids.append(SheetGrid(columns, rows, here))
        cards -= here
    return grids


def grid_limits(cell: tuple[int, int] | None, target: TtsTarget) -> tuple[int, int]:
    """The most cards of `cell` pixels across and down a sheet of at most `max_pixels` a side,
    within TTS's max_columns x max_rows and never under its least grid (None: TTS's limits)."""
    if cell is None:
        return target.max_columns, target.max_rows
    return (
        max(target.min_columns, min(target.max_columns, target.max_pixels // cell[0])),
        max(target.min_rows, min(target.max_rows, target.max_pixels // cell[1])),
    )


def card_pixels(deck: DeckLayout, target: TtsTarget) -> tuple[int, int]:
    """One card's pixels at `card_dpi`, raised for small cards to `min_card_pixels`."""
    width, height = pixels_at(deck.size.width, deck.size.height, target.card_dpi)
    short = min(width, height)
    if short < target.min_card_pixels:
        width, height = (round(side * target.min_card_pixels / short) for side in (width, height))
    return width, height


def cell_pixels(deck: DeckLayout, grids: list[SheetGrid], target: TtsTarget) -> tuple[int, int]:
    """One card's pixels in the sheets: `card_pixels`, lowered only where even the least grid would
    exceed `max_pixels` (sheet_grids splits a deck into more sheets rather than shrink its cards)."""
    width, height = card_pixels(deck, target)
    columns, rows = max(g.columns for g in grids), max(g.rows for g in grids)
    shrink = min(1.0, target.max_pixels / (columns * width), target.max_pixels / (rows * height))
    return max(1, math.floor(width * shrink)), max(1, math.floor(height * shrink))


def guid(*parts: str) -> str:
    """TTS wants a six-hex-digit GUID per object; derived from names, so every build writes the
    same."""
    return hashlib.sha1("/".join(parts).encode()).hexdigest()[:6]


def _transform(
    x: float,
    z: float,
    scale_x: float = 1.0,
    scale_z: float = 1.0,
    face_down: bool = False,
    *,
    turn: float = 180.0,
    y: float = 1.0,
    scale_y: float = 1.0,
) -> dict:
    """An object's place: at `x`, `y` (height), `z`, turned `turn` degrees about the vertical
    (TTS's 180: facing the near side), scaled; a card `face_down` lies flipped."""
    return {
        "posX": round(x, 4),
        "posY": y,
        "posZ": round(z, 4),
        "rotX": 0.0,
        "rotY": turn,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": round(scale_x, 4),
        "scaleY": scale_y,
        "scaleZ": round(scale_z, 4),
    }


CARD_TINT = 0.713235259  # the tint TTS saves on its cards (a card's image shows as drawn)
WHITE = 1.0  # a tile's or board's tint: TTS multiplies its image by it, so anything less darkens it


def _common(
    name: str,
    nickname: str,
    transform: dict,
    object_guid: str,
    description: str = "",
    tint: float = CARD_TINT,
) -> dict:
    return {
        "GUID": object_guid,
        "Name": name,
        "Transform": transform,
        "Nickname": nickname,
        "Description": description,
        "ColorDiffuse": {"r": tint, "g": tint, "b": tint},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        # read on every object (a zone without them stops a whole save loading)
        "GMNotes": "",
        "LayoutGroupSortIndex": 0,
        "Value": 0,
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
    }


def _two_sided(deck: DeckLayout) -> bool:
    """Whether the deck's cards have backs (a deck lies face down); one-sided counters lie face up,
    as they are used."""
    return any(back for _, back in deck.cards)


class TtsExport:
    """Everything of one game in one language for TTS: images as (file name, bytes), and saved
    objects."""

    def __init__(
        self,
        game: GameLayout,
        target: TtsTarget,
        paints: Paints,
        motifs: dict[str, Motif],
        stem: str,
        folder: Path | None = None,
    ):
        self.game, self.target, self.paints, self.motifs, self.stem = (
            game,
            target,
            paints,
            motifs,
            stem,
        )
        self.names = Names(game)
        self.folder = folder  # where the files are written: base_url "file://" makes absolute URLs
        self.files: list[tuple[str, bytes, str]] = []  # (file name, bytes, description)
        self.next_deck_number = (
            1  # CustomDeck keys run through the whole game, so a combined save has no clash
        )

    def url(self, file_name: str) -> str:
        """`base_url` + the file name; base_url "file://": the file's absolute file:/// URL in the
        output folder (for a table on this machine only)."""
        if self.target.base_url == "file://" and self.folder is not None:
            return (self.folder / file_name).resolve().as_uri()
        return self.target.base_url + file_name

    def deck(
        self,
        deck: DeckLayout,
        name: str,
        deck_id: str | None = None,
        face_up: bool = False,
        hands: bool = True,
    ) -> dict:
        """Render a deck's sheets and return its saved object (DeckCustom, or CardCustom for one
        card), named `name`; each card named as tts_names says (`deck_id`: the game's deck a split
        part came from), described by the deck's name; face down if its cards have backs, unless
        `face_up`; its cards kept out of players' hands unless `hands`."""
        x = 0.0  # placed by lay_out_table
        face_down = _two_sided(deck) and not face_up
        names = self.names.card_names(deck, deck_id or deck.id)
        grids = sheet_grids(len(deck.cards), self.target, card_pixels(deck, self.target))
        cell = cell_pixels(deck, grids, self.target)
        pictures = self._pictures(deck, cell)
        backs = [back for _, back in deck.cards]
        hidden = self._hidden_picture(pictures, backs, cell)
        sideways = deck.size.width > deck.size.height
        back_file = self._common_back_file(deck, pictures, backs)
        custom_decks, contained, deck_ids = {}, [], []
        start = 0
        for sheet_number, grid in enumerate(grids, start=1):
            number = self.next_deck_number
            self.next_deck_number += 1
            cards = deck.cards[start : start + grid.cards]
            suffix = f"-{sheet_number}" if len(grids) > 1 else ""
            face_file = f"{self.stem}-{deck.id}-faces{suffix}.png"
            self.files.append(
                (
                    face_file,
                    png(self._sheet(grid, cell, [pictures[front] for front, _ in cards], hidden)),
                    f"{deck.id}: face sheet {sheet_number} of {len(grids)}, {grid.columns} x {grid.rows}",
                )
            )
            back_url, unique = self._sheet_back(
                deck,
                grid,
                cell,
                cards,
                pictures,
                hidden,
                (face_file, back_file),
                sheet_number,
                len(grids),
            )
            custom = {
                "FaceURL": self.url(face_file),
                "BackURL": back_url,
                "NumWidth": grid.columns,
                "NumHeight": grid.rows,
                "BackIsHidden": True,
                "UniqueBack": unique,
                "Type": CARD_TYPES["rounded" if deck.size.corner_radius > 0 else "square"],
            }
            custom_decks[str(number)] = custom
            for slot in range(grid.cards):
                index = start + slot
                card_id = 100 * number + slot
                deck_ids.append(card_id)
                name_and_description = (names[index], name)
                custom_deck = {str(number): custom}
                contained.append(
                    self._card(
                        deck,
                        (x, face_down, hands),
                        index,
                        card_id,
                        name_and_description,
                        sideways,
                        custom_deck,
                    )
                )
            start += grid.cards
        if len(contained) == 1:  # a deck of one card is a single custom card in TTS
            return {**contained[0], "Name": "CardCustom"}
        scale_x, scale_z = self.card_scale(deck)
        whole = _common(
            "DeckCustom",
            name,
            _transform(x, 0, scale_x, scale_z, face_down=face_down),
            guid(self.stem, deck.id),
        )
        whole.update(
            {
                "SidewaysCard": sideways,
                "HideWhenFaceDown": True,
                "DeckIDs": deck_ids,
                "CustomDeck": custom_decks,
                "ContainedObjects": contained,
            }
        )
        return whole

    def _pictures(self, deck: DeckLayout, cell: tuple[int, int]) -> dict:
        """Each face the deck's cards show (fronts and backs), drawn once at the sheets' cell size."""
        keys = list(dict.fromkeys(key for card in deck.cards for key in card if key))
        return dict(
            zip(
                keys,
                face_images(
                    [deck.faces[key] for key in keys],
                    [cell] * len(keys),
                    self.paints,
                    self.motifs,
                    self.game.localized.data.dir,
                    lang=self.game.lang,
                ),
            )
        )

    def _hidden_picture(self, pictures: dict, backs: list, cell: tuple[int, int]):
        """What others see of a hidden card: the back most cards show, else a plain card in
        `hidden`'s colour."""
        from PIL import Image

        usual_back = max(
            set(filter(None, backs)),
            key=lambda key: (backs.count(key), -backs.index(key)),
            default=None,
        )
        if (
            usual_back is not None
        ):  # the back most cards show is what others should see of a hidden card
            return pictures[usual_back]
        return Image.new("RGB", cell, rgb_colour(self.paints.palette[self.target.hidden]))

    def _common_back_file(self, deck: DeckLayout, pictures: dict, backs: list) -> str | None:
        """The image of the one back every card of the deck shares, added to the files (None: no
        such back)."""
        common_back = (
            backs[0] if backs and all(back == backs[0] for back in backs) and backs[0] else None
        )
        if common_back is None:
            return None
        back_file = f"{self.stem}-{deck.id}-back.png"
        self.files.append((back_file, png(pictures[common_back]), f"{deck.id}: the back"))
        return back_file

    def _sheet_back(
        self,
        deck: DeckLayout,
        grid: SheetGrid,
        cell: tuple[int, int],
        cards: list,
        pictures: dict,
        hidden,
        files: tuple[str, str | None],
        sheet_number: int,
        sheets: int,
    ) -> tuple[str, bool]:
        """(BackURL, UniqueBack) of one face sheet: its own faces for a one-sided deck, the deck's
        common back (`files`: the face sheet's file and the common back's), or a sheet of backs in
        the same grid."""
        face_file, back_file = files
        if not any(back for _, back in deck.cards):
            return self.url(face_file), True  # a counter shows its face on both sides
        if back_file is not None:
            return self.url(back_file), False
        # backs of their own: a sheet of backs in the same grid
        suffix = f"-{sheet_number}" if sheets > 1 else ""
        backs_file = f"{self.stem}-{deck.id}-backs{suffix}.png"
        self.files.append(
            (
                backs_file,
                png(
                    self._sheet(
                        grid,
                        cell,
                        [pictures[back] if back else hidden for _, back in cards],
                        hidden,
                    )
                ),
                f"{deck.id}: back sheet {sheet_number} of {sheets}",
            )
        )
        return self.url(backs_file), True

    def _card(
        self,
        deck: DeckLayout,
        place: tuple[float, bool, bool],
        index: int,
        card_id: int,
        name_and_description: tuple[str, str],
        sideways: bool,
        custom_deck: dict,
    ) -> dict:
        """The saved object of the deck's card at `index` (`place`: its x, whether it lies face
        down and whether it may go into a hand), in its face sheet's `custom_deck`, named and
        described (its title, the deck's name)."""
        name, description = name_and_description
        x, face_down, hands = place
        card = _common(
            "Card",
            name,
            _transform(x, 0, *self.card_scale(deck), face_down=face_down),
            guid(self.stem, deck.id, str(index)),
            description,
        )
        card.update(
            {
                "CardID": card_id,
                "SidewaysCard": sideways,
                "HideWhenFaceDown": True,
                "Hands": hands,  # (true as TTS saves a card: it goes into a hand, shown only there)
                "CustomDeck": custom_deck,
            }
        )
        return card

    def card_scale(self, deck: DeckLayout) -> tuple[float, float]:
        """Scale x and z: the deck's size over a TTS card's (turned for sideways cards), so cards
        keep their proportions; small cards enlarged to at least `min_card_scale`."""
        reference = self.target.card_at_scale_1
        across, down = (
            (reference.height, reference.width)
            if deck.size.width > deck.size.height
            else (reference.width, reference.height)
        )
        scale_x, scale_z = deck.size.width / across, deck.size.height / down
        grow = max(1.0, self.target.min_card_scale / min(scale_x, scale_z))
        return scale_x * grow, scale_z * grow

    def _sheet(self, grid: SheetGrid, cell: tuple[int, int], pictures: list, hidden):
        from PIL import Image

        width, height = cell
        sheet = Image.new("RGB", (grid.columns * width, grid.rows * height), (255, 255, 255))
        for slot, picture in enumerate(pictures):
            sheet.paste(picture, ((slot % grid.columns) * width, (slot // grid.columns) * height))
        slot = grid.hidden_slot
        sheet.paste(hidden, ((slot % grid.columns) * width, (slot // grid.columns) * height))
        return sheet

    def rules(self, rules: RulesPdf) -> dict:
        """The rule booklet as TTS's PDF object, at its paper's size (a tile's scale), named
        "<game> – <the language's word for rules>"; players turn its pages with its buttons."""
        scale = rules.width / self.target.tile_at_scale_1
        title = f"{self.game.title} – {self.game.localized.label('tts_rules_tab')}"
        item = _common(
            "Custom_PDF",
            title,
            _transform(0.0, 0.0, scale, scale),
            guid(self.stem, "rules"),
            tint=WHITE,
        )
        item["CustomPDF"] = {
            "PDFUrl": self.url(rules.file_name),
            "PDFPassword": "",
            "PDFPage": 0,
            "PDFPageOffset": 0,
        }
        return item

    def sheet(self, sheet: SheetLayout, copies: int | None = None) -> list[tuple[dict, FaceLayout]]:
        """A board (a tiled sheet) as a Custom_Board, other sheets as Custom_Tiles (each with its
        face): one image per item, a tile per copy of the sheet (or `copies`: a sheet filled in
        the Notebook is one to look at), named by its title (else the sheet's id)."""
        x = 0.0  # placed by lay_out_table
        target, game = self.target, self.game
        first = sheet.faces[0]
        width, height = pixels_at(first.width, first.height, target.sheet_dpi)
        shrink = min(1.0, target.max_pixels / max(width, height))
        size = (max(1, math.floor(width * shrink)), max(1, math.floor(height * shrink)))
        pictures = face_images(
            sheet.faces,
            [size] * len(sheet.faces),
            self.paints,
            self.motifs,
            game.localized.data.dir,
            lang=game.lang,
        )
        backs = (
            face_images(
                sheet.backs,
                [size] * len(sheet.backs),
                self.paints,
                self.motifs,
                game.localized.data.dir,
                lang=game.lang,
            )
            if sheet.backs
            else []
        )
        board = sheet.spec.tiled
        objects = []
        scale = first.width / target.tile_at_scale_1
        names = sheet_file_names(self.stem, sheet.id, [face.key for face in sheet.faces])
        for index, (name, picture) in enumerate(zip(names, pictures)):
            self.files.append(
                (f"{name}.png", png(picture), f"{sheet.id}: {'board' if board else 'tile'} image")
            )
            secondary = ""
            if backs:  # a two-sided sheet: TTS shows the secondary image underneath
                self.files.append(
                    (f"{name}-back.png", png(backs[index]), f"{sheet.id}: back image")
                )
                secondary = self.url(f"{name}-back.png")
            image: dict = {"ImageURL": self.url(f"{name}.png")}
            if secondary:  # none: no empty URL, which a Replace All of the links would fill
                image["ImageSecondaryURL"] = secondary
            image.update({"ImageScalar": 1.0, "WidthScale": 0.0})
            if not board:
                image["CustomTile"] = {
                    "Type": 0,
                    "Thickness": 0.1,
                    "Stackable": False,
                    "Stretch": True,
                }
            title = face_title(
                sheet.faces[index], f"{sheet.id} {index + 1}" if len(sheet.faces) > 1 else sheet.id
            )
            for number in range(
                copies or sheet.spec.copies
            ):  # a sheet each player fills in: one each
                item = _common(
                    "Custom_Board" if board else "Custom_Tile",
                    title,
                    _transform(x, 0, scale, scale),
                    guid(self.stem, sheet.id, str(index), *([str(number)] if number else [])),
                    tint=WHITE,
                )
                item["Locked"] = board  # a board stays put when a deck is dragged across it
                item["CustomImage"] = image
                objects.append((item, sheet.faces[index]))
        return objects


def saved_object(objects: list[dict], name: str, settings: dict | None = None) -> bytes:
    """A TTS saved object: what goes in 'Saves/Saved Objects/' and appears under Objects > Saved
    Objects; with `settings` (its table, note, Notebook: tts_table.game_settings) a game too,
    which opens from 'Saves/' with Games > Save & Load."""
    document = {
        "SaveName": name,
        "GameMode": "",
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }
    document.update(settings or {})
    if settings:  # a game: its name in TTS's list of saves and on the Workshop
        document["GameMode"] = name
    return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def render_tts(
    game: GameLayout,
    target: TtsTarget,
    paints: Paints,
    motifs: dict[str, Motif],
    stem: str,
    folder: Path | None = None,
    rules: RulesPdf | None = None,
) -> list[tuple[str, bytes, str]]:
    """Every file of the game's TTS export: per deck its sheets and a saved object
    (<stem>-<deck>.json), the sheets' images, the rule booklet's PDF object (`rules`: the file
    the caller writes beside them) in <stem>-rules.json, one saved object with everything laid out
    apart (<stem>-all.json), and README.txt."""
    export = TtsExport(game, target, paints, motifs, stem, folder)
    everything: list[tuple[dict, tuple[float, float]]] = []
    for whole in game.decks:
        counters = CounterTiles(export, whole) if is_counters(whole, target.tiles) else None
        for deck, name, face_up, on_table, hands in table_decks(
            export.names, whole, target.split_by
        ):
            if counters is not None:  # bags of tiles; the chits no var split off a bag per face
                states = counters.bags(deck, name, by_face=deck.id == whole.id)
                lay_out_row(states)
            else:
                states = [export.deck(deck, name, whole.id, face_up, hands)]
            if on_table:  # (else a saved object of its own only: a piece the table replaces)
                everything += [(state, footprint(state, target)) for state in states]
            export.files.append(
                (
                    f"{stem}-{deck.id}.json",
                    saved_object(
                        states, game.title if name == game.title else f"{game.title} – {name}"
                    ),
                    f"{deck.id}: TTS saved object",
                )
            )
    secret = {sheet.id for sheet in notebook_sheets(game, target)}
    sheets = []
    for sheet in game.sheets:
        laid = [
            (state, footprint(state, target, face.height / face.width))
            for state, face in export.sheet(sheet, copies=1 if sheet.id in secret else None)
        ]
        everything += laid
        sheets.append((sheet.id, export.names.sheet_name(sheet), laid))
    if rules is not None:
        book = export.rules(rules)
        everything.append((book, footprint(book, target, rules.height / rules.width)))
        sheets.append(("rules", game.localized.label("tts_rules_tab"), [everything[-1]]))
    everything += stock(game, target, paints.palette)
    lay_out_table(everything)
    hands = hand_zones(everything, target, stem)
    for sheet_id, title, laid in sheets:  # a lost board or tile comes back on its own
        laid = copy.deepcopy(laid)  # (the all-in-one save keeps its places)
        centre(laid)
        export.files.append(
            (
                f"{stem}-{sheet_id}.json",
                saved_object(
                    [state for state, _ in laid],
                    game.title if title == game.title else f"{game.title} – {title}",
                ),
                f"{sheet_id}: TTS saved object",
            )
        )
    export.files.append(
        (
            f"{stem}-all.json",
            saved_object(
                [state for state, _ in everything] + hands,
                game.title,
                game_settings(game, target, stem),
            ),
            "every deck, board and sheet: TTS saved object",
        )
    )
    export.files.append((README, readme(game, target, stem), "how to use the saves"))
    return export.files
