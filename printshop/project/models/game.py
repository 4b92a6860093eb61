"""The schema of data/<game>/game.yaml: decks, cards, composition, setup, boards, sheets, variants."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Discriminator, Field, Tag, model_validator

from printshop.project.models.values import Expression, Extent, Identifier, Size
from printshop.project.schema import Node


# --- data/<game>/game.yaml ----------------------------------------------------------------
class CardEntry(Node):
    id: Identifier
    """The card's id, unique in its deck."""
    kind: Identifier
    """The card's kind; composition and setup count cards by kind."""
    count: int = Field(default=1, ge=1, le=1000)
    """How many copies of the card the deck holds."""
    front: str
    """The face printed on the card's front: a name in faces.yaml."""
    back: str | None = None
    """The face printed on the card's back; none: the deck's common back."""
    vars: dict[str, str | int] = {}
    """Values the templates read as `card.vars.<name>`, and that composition rules check."""
    reconstructed: str | None = None
    """Why this card was designed by the project where the sources are silent (listed by validate)."""


class FacePick(Node):
    """A face chosen by the value of one axis of a generated deck: `{by: suit, faces: {herring:
    fish, salt: salt, amber: amber, spice: spice}}`."""

    by: str
    """The axis whose value chooses the face."""
    faces: dict[str | int, str]
    """The face (a name in faces.yaml) for each value of the axis; every value needs one."""


def _text_or_map(value: Any) -> str:
    return "dict" if isinstance(value, dict) else "str"


# a face written as a pattern ("{suit}") or chosen per value ({by: suit, faces: …}); the tags are
# named as the types, which schema.py leaves out of the path an error names
FaceChoice = Annotated[
    Annotated[str, Tag("str")] | Annotated[FacePick, Tag("dict")],
    Discriminator(_text_or_map),
]


def _axis(value: Any) -> Any:
    if not isinstance(value, (list, str)):
        raise ValueError(
            "an axis is a list of values ([herring, salt]) or a range of whole numbers (1..11)"
        )
    return value


# an axis of a generated deck: its values listed, or a range "a..b" (read by project/generate.py)
Axis = Annotated[
    Annotated[list[str | int], Tag("list")] | Annotated[str, Tag("str")],
    Discriminator(lambda value: "list" if isinstance(value, list) else "str"),
    BeforeValidator(_axis),
]


class Generate(Node):
    """Cards made as the product of named axes, instead of listed one by one: every combination of
    the axes' values, the first axis varying slowest, is a card. An axis is a list of values or a
    range of whole numbers written `a..b` (`1..11`: 1 to 11). Each card's `vars` hold its value of
    every axis (`card.vars.suit`, `card.vars.value`), so templates and composition rules read them
    as they read a listed card's. `id`, `kind`, `front` and `back` are patterns in which `{axis}`
    stands for the card's value of that axis (plain substitution, nothing else); a face may instead
    be chosen per value with `{by: axis, faces: {value: face, …}}`. The cards come first in the
    deck, in this order, then the deck's listed `cards`; a listed card (a joker) may not take a
    generated id.

    Texts are found as for any card: a template reads them by what the card holds, for example one
    text per value, `t.suit[card.vars.suit]` (a text `suit.herring` in each language file), or one
    per card, `t.card[card.id].name` (a text `card.herring-1.name` for every card).

    ```yaml
    decks:
      market:
        card_size: poker-eu
        bleed: 0.125in
        safe: 4mm
        back: back
        generate:
          axes:
            suit: [herring, salt, amber, spice]
            value: 1..11
          kind: goods
          front: "{suit}"            # faces herring, salt, amber and spice in faces.yaml
        cards:
          - {id: joker, kind: joker, front: joker}
    ```

    gives 45 cards: `herring-1` … `herring-11`, `salt-1` … `spice-11` (the default id: the values
    joined by `-`), then the joker."""

    axes: dict[str, Axis]
    """The axes by name, in the order written: each a list of values or a range `a..b` of whole
    numbers. Names are letters, digits and `_`; templates read them as `card.vars.<name>`."""
    id: str | None = None
    """The cards' ids, as a pattern (`"{suit}-{value}"`); none: every axis's value joined by `-`,
    in axis order. Each id must come out unique in the deck."""
    kind: str
    """The cards' kind, fixed (`goods`) or a pattern (`"{suit}"`)."""
    count: int = Field(default=1, ge=1, le=1000)
    """How many copies of each card the deck holds."""
    front: FaceChoice
    """The face of each card's front: a pattern (`"{suit}"`: the face named as the suit) or a
    face per value of one axis (`{by: suit, faces: {…}}`)."""
    back: FaceChoice | None = None
    """The face of each card's back, as `front`; none: the deck's common back."""
    vars: dict[str, str | int] = {}
    """More values every card holds as `card.vars.<name>`, the same on each; an axis's name may not
    be one of them."""

    @model_validator(mode="before")
    @classmethod
    def _axes_under_axes(cls, data: Any) -> Any:
        """Axes written beside the other keys (`generate: {suit: […], value: 1..11}`) are said to
        go under `axes`, rather than each reported as an unknown key."""
        if isinstance(data, dict) and "axes" not in data:
            stray = [str(key) for key in data if key not in cls.model_fields]
            if stray:
                raise ValueError(
                    f"'{', '.join(stray)}' must be written under 'axes' (generate: {{axes: "
                    f"{{{stray[0]}: …}}, kind: …, front: …}}); the other keys of generate are "
                    f"{', '.join(cls.model_fields)}"
                )
        return data


class CardSheet(Node):
    """Cards read from a spreadsheet in the game's folder (project/spreadsheet.py): a CSV file, or
    one sheet of an XLSX or ODS workbook (a Google Sheet downloaded with File > Download as CSV or
    XLSX). The first row names the columns, each later row is a card: `id` (required), `kind`,
    `count` (or `copies`, or `qty`), `front` and `back` are the card's keys as in YAML, and every
    other column is one of the card's `vars` (`card.vars.<column>`), whole numbers kept as numbers
    and an empty cell leaving the var out. The values are read, never formulas: a workbook must
    have been saved by the program that computes them. Texts do not go in the sheet: a column named
    `<field>@<lang>` (`name@en`) is refused, and a card's texts are written in text/<lang>.yaml
    under its id (`card.<id>.name`), where `printshop i18n` tracks and translates them. A
    diagnostic about a card names the file, the sheet and the cell (`cards.xlsx:Market!C12`);
    its place is the file, at the row's number as line and the column's as column.

    ```yaml
    decks:
      market:
        card_size: poker-eu
        bleed: 3mm
        safe: 4mm
        back: back
        spreadsheet: {file: cards.xlsx, sheet: Market}
    ```

    with the sheet Market:

    | id     | kind  | count | front | cost | suit    |
    |--------|-------|-------|-------|------|---------|
    | ship   | goods | 3     | goods | 2    | herring |
    | harbor | goods | 1     | goods | 5    | salt    |

    A Google Sheet: in Google Sheets choose File > Download > Comma-separated values (.csv, the
    sheet shown) or Microsoft Excel (.xlsx, every sheet), put the file in the game's folder and name
    it in `spreadsheet`. printshop never reads the network: download the file again after editing
    the sheet (`printshop watch` and `serve` read the game again when the file is saved).
    """

    file: str
    """The file, relative to the game's folder: `.csv`, `.xlsx` or `.ods`."""
    sheet: str | None = None
    """The sheet of a workbook; none: its first sheet. A CSV file has no sheets."""


class TuckBox(Node):
    """A tuck box for the deck, printed in the print-and-play kit as its own file
    (`<game>-<lang>-<deck>-tuckbox-<paper>.pdf`) and sent to print shops as a press page with its
    die line (`<game>-<lang>-<deck>-tuckbox.pdf`): a classic reverse tuck end box, its net sized
    from the card size, the number of cards (copies counted), the cards' and the box's stock and
    the play the cards need. The wrap colour covers the net, the glue flap too, and reaches `bleed`
    past every cut edge; the deck's back is on the front, below the thumb notch cut in its top; the
    back has the deck's name and the game's title over what the box holds (its cards, the game's
    players); the spines and the lid have the names, the glue flap its word. For example `tuck_box: {stock: 0.3mm, title: deck_name}`;
    `tuck_box: {}` takes every default."""

    stock: Size = Field(default="0.3mm", validate_default=True)
    """The thickness of one card (0.3 mm: a common card stock; sleeved cards are thicker)."""
    play: Extent = Field(default="1mm", validate_default=True)
    """Room left on every side of the deck, so the cards slide in and out: the box is twice this
    wider, higher and deeper inside than the deck (1 mm, as boxes for poker decks are made:
    2 to 3 mm more than the cards each way)."""
    board: Extent = Field(default="0.35mm", validate_default=True)
    """The thickness of the box's own stock, added to each panel between two folds, as a fold takes
    about that much of the inside (0.35 mm: a 300 g/m² card)."""
    tuck_flap: Size = Field(default="15mm", validate_default=True)
    """The height of the lid's and the bottom's tuck flaps (15 mm)."""
    glue_flap: Size = Field(default="8mm", validate_default=True)
    """The width of the glue flap (8 mm)."""
    thumb_notch: Extent = Field(default="20mm", validate_default=True)
    """The width of the half-round notch cut in the front's top, to reach the lid's tuck flap and
    the cards (20 mm; never more than half the front; 0mm: none)."""
    colour: str | None = None
    """The wrap: a colour from colours.yaml filling the net to its cut lines and past them; none:
    the background of the deck's back face (white when it has none)."""
    text_colour: str | None = None
    """The colour of the names on the box; none: `white` on a dark wrap, `ink` on a light one."""
    bleed: Extent = Field(default="2mm", validate_default=True)
    """How far the wrap reaches past the cut lines in the print-and-play kit, so a cut a little
    outside them shows no white edge (2 mm); press files take the shop's bleed."""
    title: str | None = None
    """The text (an id in the game's texts) printed as the deck's name on the box; none: the
    game's title alone."""


class VarSpec(Node):
    """A card var a deck declares, written out: `{type: number}`, `{values: [herring, salt]}`,
    `{type: text, optional: true}`."""

    type: Literal["number", "text"] | None = None
    """What its values are: whole numbers, or texts; none: either."""
    values: list[str | int] | None = None
    """The values it may take; none: any of its type."""
    optional: bool = False
    """A card may leave it out (by default every card of the deck holds it)."""


class Apart(Node):
    name: str
    """The text that names these cards' own deck ("Goal cards")."""
    kinds: list[Identifier]
    """The kinds of card it holds."""
    face_up: bool = False
    """It lies face up (player aids, a turn summary)."""
    on_table: bool = True
    """It lies on the all-in-one save's table; false: only in a saved object of its own, for a
    printed piece a digital table replaces (Comrade's vote cards, whose half turn the ballots do
    online)."""
    hands: bool = True
    """A player may take its cards into a hand on a digital table; false: they stay on the table,
    where everyone sees them (Comrade's chairman card, passed from chairman to chairman, which in
    a hand would read as a second role card)."""


class Deck(Node):
    card_size: str
    """The cards' size: a name from `card_sizes` in media.yaml."""
    bleed: Extent
    """How far the faces are drawn past the trim."""
    safe: Extent
    """No text closer to the trim than this."""
    back: str | None = None
    """The face printed behind every card without a back of its own; none: the deck is one-sided
    (markers) and no pages of backs are printed."""
    cards: list[CardEntry] = []
    """The cards, in deck order (after the generated ones and the spreadsheet's, when the deck has
    `generate` or `spreadsheet`)."""
    generate: Generate | None = None
    """Cards made as a product of axes (a suited deck in a few lines); they come before the listed
    `cards`. When the game is read, the deck's `cards` hold them all."""
    spreadsheet: CardSheet | None = None
    """Cards read from a spreadsheet, one row per card (`{file: cards.xlsx, sheet: Market}`); they
    come after the generated cards and before the listed `cards`, and may be used with either."""
    shops_without_size: str | None = None
    """Why it is right that print shops which do not make this card size leave the deck out (a
    custom size printed at home, or ordered elsewhere): their `press-left-out` warnings are then
    acknowledged with it."""
    tuck_box: TuckBox | None = None
    """A tuck box for the deck, in the print-and-play kit; none: no box."""
    spares: bool = False
    """Fill the print-and-play kit's card sheets with spares: every page takes all the rows it holds,
    and the slots the deck leaves empty get spare copies of its cards, one of each before a second of
    any, a last round cut short going face by face in turn so that no face (a faction's markers)
    gets more than another but by one (markers lost at the table are replaced from them); press
    files, TTS, cut
    files and low-ink kits (whose ink the spares would take over its limit) keep the deck as it
    is."""
    digital_only: bool = False
    """The deck is made only for digital tables (Tabletop Simulator, and the image sets whose
    target has `digital_table`): pieces a table online needs where paper needs none (ballots that
    hide a secret vote once dropped in a box, where a printed card is turned by hand). Kits, press
    files, cut files, gutterfolds and previews leave it out; its texts are translated and its faces
    fitted as any deck's. Such a deck has no `tuck_box` and no `spares`."""
    apart: list[Apart] = []
    """Cards kept apart from the rest on a digital table, each entry their own deck in Tabletop
    Simulator's saves (goal cards apart from role cards, player aids face up), so that no deal
    hands out an aid as a role; the other cards stay the deck."""
    names: dict[str, str] = {}
    """Each card's name on a digital table (Tabletop Simulator's hover name), by kind: a text id,
    which may hold the card's vars (`role.{role}.name`), whose text's placeholders take what the
    card's front prints in the frame of that name (`{verb}`), else the card's var, read as the text
    `<deck>.<var>.<value>` where there is one (`{faction}`: "The Planners"). A kind not named here
    takes its front's `title` or `name` frame."""
    vars: dict[str, Literal["number", "text"] | list[str | int] | VarSpec] = {}
    """The vars its cards hold, declared: each a type (`cost: number`, `motto: text`), the values
    it may take (`suit: [herring, salt, amber, spice]`) or both written out (`{type: text,
    optional: true}`). A card's var the deck does not declare (a misspelling: `cots` for `cost`),
    one it lacks, or one of the wrong type is an error where the card is written; none declared:
    cards may hold any."""

    @model_validator(mode="after")
    def _nothing_printed_for_a_digital_deck(self) -> Deck:
        """A deck no kit prints has no box and no spares on its sheets."""
        printed = [key for key in ("tuck_box", "spares") if getattr(self, key)]
        if self.digital_only and printed:
            raise ValueError(
                f"a deck with 'digital_only: true' is never printed, so its '{printed[0]}' would "
                f"do nothing: remove '{printed[0]}', or 'digital_only' if the kit is to print it"
            )
        return self


class Sequence(Node):
    var: str
    """The card var that numbers the cards."""
    start: int = 1
    """The first number."""


class OneEach(Node):
    var: str
    """The card var."""
    values: list[str | int]
    """The values it must take, each on exactly one card."""


class Allowed(Node):
    """The values a card var may take: listed, or the ids of the board's offices."""

    var: str
    """The card var."""
    values: list[str | int] = []
    """The values it may take."""
    offices: bool = False
    """It may also take the id of any office of the board."""


class Tie(Node):
    """A var that a game rule uses to break ties: equal values are a warning, not an error."""

    var: str
    """The card var that breaks ties."""
    rule: str
    """The game rule that uses it, as shown in the warning."""
    acknowledged: str | None = None
    """Why the tie is kept: still reported, but --strict passes."""


class Composition(Node):
    """What a deck must hold: counts per kind, and rules over the cards' `vars`."""

    deck: str
    """The deck these rules are about: a name under `decks`."""
    total: int | None = Field(default=None, ge=0)
    """How many cards the deck must hold."""
    kinds: dict[str, int] = {}
    """How many cards of each kind the deck must hold."""
    unique: list[str] = []
    """Vars whose values differ from card to card."""
    sequence: list[Sequence] = []
    """Vars numbered start, start+1, ... without a gap."""
    one_each: list[OneEach] = []
    """Vars taking each listed value exactly once."""
    allowed: list[Allowed] = []
    """Vars whose values must be among those listed."""
    ties: list[Tie] = []
    """Vars that game rules use to break ties: equal values are a warning."""


class SetupNeed(Node):
    deck: str
    """The deck the cards come from."""
    kind: str
    """The kind of card."""
    count: Expression | dict[int, int]
    """An expression in n, or a value per player count."""


class Players(Node):
    min: int = Field(ge=1, le=100)
    """The fewest players."""
    max: int = Field(ge=1, le=100)
    """The most players."""


class Setup(Node):
    variable: str = "n"
    """The name of the player count in expressions."""
    needs: list[SetupNeed]
    """What a game of n players takes out of the decks, per kind."""
    total: Expression | None = None
    """What the needs must add up to, e.g. "n": one card per player."""
    limits: dict[str, int] = {}
    """The most of a kind the material holds (a standard deck: 12 royal cards)"""


class BookletSpec(Node):
    template: str
    """The Jinja template under templates/ that writes the booklet."""


class Reconstructed(Node):
    """Something the sources lack that the project designed: a text id, card id or face name."""

    what: str
    """What was designed: a text id, card id or face name."""
    why: str
    """Why, and from what."""


class Office(Node):
    """A place on the board, in rank order (the first is the top)."""

    id: Identifier
    """The office's id; texts and phases name it."""
    level: str
    """The level of the board it sits on (summit, first, second…)."""
    purge: int = Field(ge=1, le=20)
    """The purge number printed on the board for this office."""


class Phase(Node):
    """A phase of the turn; `acts` is the office that acts, `succession` who acts in its place, in
    order (printed as the codes <number>A, <number>B, ...)."""

    number: int = Field(ge=1)
    """The phase's number in the turn."""
    id: Identifier
    """The phase's id; its texts are found by it."""
    acts: str | None = None
    """The office that acts in this phase."""
    succession: list[str] = []
    """Who acts in its place when that office is inactive, in order."""


class HealthRow(Node):
    """One line of the d20 health table: what a roll from..to does at work and at the cure."""

    low: int = Field(alias="from", ge=1, le=20)
    """The lowest roll of the row (written `from`)."""
    high: int = Field(alias="to", ge=1, le=20)
    """The highest roll of the row (written `to`)."""
    at_work: Identifier
    """What the roll does to a politician at work: an outcome id."""
    at_cure: Identifier
    """What the roll does to a politician at the cure: an outcome id."""


class Board(Node):
    offices: list[Office]
    """The offices in rank order, the top first."""
    candidates: int = Field(ge=0)
    """How many candidate places the board has."""
    candidate_purge: int = Field(ge=1, le=20)
    """The purge number of the candidates."""
    phases: list[Phase]
    """The phases of a turn, in order."""
    promotions: list[str] = []
    """The order in which offices are filled (codes 6A, 6B, ...)"""
    promotion_phase: int | None = None
    """The number of the phase in which offices are filled by promotion."""
    parade_years: int = Field(default=11, ge=1)
    """How many years the parade track counts."""
    health: list[HealthRow] = []
    """The health table, one row per range of rolls."""


class SheetItem(Node):
    """One sheet of a set (a role sheet, the setup for 5 players...): its own vars, maybe its own
    face."""

    id: Identifier
    """The item's id, unique in its sheet."""
    face: str | None = None
    """Its own face, instead of the sheet's."""
    back: str | None = None
    """Its own back face, instead of the sheet's `back`."""
    vars: dict[str, str | int] = {}
    """Values the template reads as `card.vars.<name>` (or `item.vars.<name>`)."""
    reconstructed: str | None = None
    """Why this item was designed by the project where the sources are silent."""


class SheetSpec(Node):
    """A page-sized (or larger) component drawn from a face: a board, player sheets, aids. With
    `items`, a set of such sheets, each with its own vars. Larger than the paper, a sheet is tiled
    for home printing; `per_page: 2` puts two side by side on turned paper, scaled to fit, with a
    cut line between; a press file gets one page per sheet with bleed. With a `back`, each page of
    fronts is followed by its page of backs, placed for duplex printing."""

    face: str
    """The face drawn: a name in faces.yaml."""
    back: str | None = None
    """The face printed on the back of every item without a back of its own, on the page after its
    front and mirrored for duplex printing like card backs; none: the sheet is one-sided."""
    items: list[SheetItem] = []
    """A set of sheets from the same face, each with its own vars; none: a single sheet."""
    width: Size
    """Width of the sheet at the trim."""
    height: Size
    """Height of the sheet at the trim."""
    bleed: Extent = 0.0
    """How far the face is drawn past the trim."""
    copies: int = Field(default=1, ge=1, le=20)
    """How many copies of the sheet (of each item, in a set) a print-and-play file holds: sheets,
    not pages (with `per_page: 2`, two copies share a page)."""
    tiled: bool = False
    """Print it over several pages, with overlap, cut marks and an assembly page."""
    overlap: Extent = 0.0
    """Tiled sheets: how much neighbouring tiles overlap."""
    per_page: Literal[1, 2] = 1
    """2 puts two sheets side by side on turned paper, scaled to fit, with a cut line between."""
    press: bool = False
    """Also write a press file: one page, trim plus bleed, TrimBox and BleedBox."""
    medium: str = "sheet"
    """How the sheet is read, for the design rules (`design.media` in media.yaml): `sheet` in the
    hand, `board` from across the table."""


class Range(Node):
    min: int = Field(ge=0)
    """The least."""
    max: int = Field(ge=0)
    """The most."""


class GoalDeck(Node):
    """A goal deck built from the roles dealt (Comrade Stalin): for each dealt role with goals, its
    rank in every goal suit; one card in `discard` set aside; the `extra_rank` of each suit added;
    `deal` to each player with goals; `remain` must be left. Checked for every roster the rules
    allow."""

    deck: str
    """The deck the goal cards come from."""
    always: list[str]
    """The roles dealt in every game."""
    others: Range
    """How many other roles may be dealt."""
    no_goal_cards: list[str] = []
    """Roles whose rank is not added and who are dealt no goal cards."""
    suits: list[str]
    """The goal suits."""
    discard: int = Field(ge=2)
    """One card in this many is set aside unseen."""
    extra_rank: str
    """The rank of each goal suit added after the roles' ranks (e.g. A)."""
    deal: int = Field(ge=1)
    """Goal cards dealt to each player with goals."""
    remain: int = Field(ge=0)
    """Goal cards that must be left over."""
    tokens: int | None = Field(default=None, ge=0)
    """Tokens the kit provides; the roster's starting tokens must fit."""


class Variant(Node):
    overrides: list[str]
    """The text ids the variant must give under `variant.<name>.`."""
    reconstructed: str | None = None
    """Why the variant was designed by the project."""


class Untranslatable(Node):
    """Texts a translation may leave as in its source: `words` (a text made only of them is never
    reported) and `ids` (each with the reason, shown as an acknowledged warning)."""

    words: list[str] = []
    """Words that read the same in every language: a text made only of them is never reported."""
    ids: dict[str, str] = {}
    """Text ids that may stay as in the source, each with the reason (shown as an acknowledged
    warning)."""


class Game(Node):
    title: str
    """The text id of the game's name."""
    source_language: str
    """The language the game's texts are written in first; translations are compared with it."""
    players: Players
    """How many players the game is for; setup is checked for every count."""
    minutes: int = Field(ge=1)
    """How long a game takes."""
    decks: dict[Identifier, Deck]
    """The decks by id."""
    composition: list[Composition] = []
    """What each deck must hold; validate compares it with the cards."""
    setup: Setup | None = None
    """What a game of n players takes out of the decks; checked for every player count."""
    booklet: BookletSpec | None = None
    """The rules booklet."""
    board: Board | None = None
    """The board's offices, phases and health table (Kremlin), printed by the board, the phase
    reference and the booklet."""
    goal_deck: GoalDeck | None = None
    """A goal deck built from the roles dealt (Comrade Stalin), checked for every allowed roster."""
    sheets: dict[Identifier, SheetSpec] = {}
    """Boards, player sheets and aids by id."""
    text_variables: dict[str, str] = {}
    """Placeholders every text may use, each standing for another text: {mafias} ->
    role.mafia.plural."""
    variants: dict[Identifier, "Variant"] = {}
    """Naming variants (build, watch and serve --variant NAME): texts under variant.NAME.* replace
    the ids they name; each variant must give every id listed in `overrides`."""
    reconstructed: list[Reconstructed] = []
    """What the project designed where the sources are silent; listed by validate for review."""
    untranslatable: Untranslatable = Untranslatable()
    """Texts that may read the same in every language: names, loanwords ("Glasnost")"""

    def printed_decks(self) -> dict[str, Deck]:
        """The decks paper gets, by id: all but those made only for digital tables."""
        return {deck_id: deck for deck_id, deck in self.decks.items() if not deck.digital_only}
