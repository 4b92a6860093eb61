"""Tabletop Simulator's table: where the all-in-one save puts each object (apart, from their
real extents), and the README.txt of a tts/ folder, in the kit's language."""

from __future__ import annotations

from collections.abc import Mapping

from printshop.layout.plan import FaceLayout, GameLayout, SheetLayout
from printshop.project.models.targets import TtsTarget
from printshop.render.raster import rgb_colour
from printshop.typeset.richtext import Para, Table, plain_text

README = "README.txt"
TABLE = 50.0  # TTS units across the layout should take: the standard table's play area, x -25 to 25
PIECE = 2.0  # TTS units a built-in piece (a die, a bag) is given on the table, about its size
GAP = 1.0  # TTS units between two objects of the all-in-one save


def footprint(state: dict, target: TtsTarget, aspect: float = 1.0) -> tuple[float, float]:
    """An object's width and depth on the table in TTS units (an inch of `card_at_scale_1` or
    `tile_at_scale_1` is a unit): from its scale, and a tile's `aspect` (height over width)."""
    transform = state["Transform"]
    if not {"CustomImage", "CustomDeck", "CustomPDF"} & set(state):  # a bag, a die: TTS's own
        return PIECE, PIECE
    if "CustomImage" in state or "CustomPDF" in state:  # (a PDF is scaled as a tile)
        width = transform["scaleX"] * target.tile_at_scale_1 / 72
        return width, width * aspect
    card = target.card_at_scale_1
    across, down = (card.height, card.width) if state["SidewaysCard"] else (card.width, card.height)
    return transform["scaleX"] * across / 72, transform["scaleZ"] * down / 72


def lay_out_table(objects: list[tuple[dict, tuple[float, float]]]) -> None:
    """Place the all-in-one save's objects (each with its footprint) apart by GAP, the whole
    centred on the table's origin. Without boards: the objects in rows TABLE wide. With boards:
    the boards in a row in the middle, the other objects in rows on both sides of them, the first
    half of their area (decks, bags) on the left, the rest (sheets, pieces) on the right, each
    side as wide as TABLE leaves (review 5-K: every piece on one side, the board off centre)."""
    boards = [item for item in objects if item[0]["Name"] == "Custom_Board"]
    others = [item for item in objects if item[0]["Name"] != "Custom_Board"]
    if not boards:
        _rows(others, 0.0, TABLE)
        centre(objects)
        return
    left = 0.0
    for state, (width, depth) in boards:
        _place(state, left + width / 2, -depth / 2)
        left += width + GAP
    widest = max([width for _, (width, _) in others], default=0.0)
    side = max((TABLE - left) / 2, widest)
    areas = [width * depth for _, (width, depth) in others]
    half, total, split = sum(areas) / 2, 0.0, len(others)
    for index, area in enumerate(areas):
        if total + area / 2 > half:
            split = index
            break
        total += area
    _rows(others[:split], -GAP - side, side)
    _rows(others[split:], left, side)
    centre(objects)


def _rows(objects: list[tuple[dict, tuple[float, float]]], start: float, row_width: float) -> None:
    """Place `objects` in rows from x = `start` (their left edge), at most `row_width` wide (one
    object a row where it is wider), downwards from z = 0, GAP apart."""
    x, z, row_depth = start, 0.0, 0.0
    for state, (width, depth) in objects:
        if x > start and x + width > start + row_width:
            x, z, row_depth = start, z - row_depth - GAP, 0.0
        _place(state, x + width / 2, z - depth / 2)
        x += width + GAP
        row_depth = max(row_depth, depth)


def lay_out_row(states: list[dict]) -> None:
    """Place the objects of one saved object (a deck's bags) in a row, GAP apart, centred."""
    step = PIECE + GAP
    for index, state in enumerate(states):
        _place(state, (index - (len(states) - 1) / 2) * step, 0.0)


def centre(objects: list[tuple[dict, tuple[float, float]]]) -> None:
    """Move the whole layout so that its middle is the table's origin (TTS drops a saved object's
    states where they say: a layout from the origin corner ran past the table's edge)."""
    if not objects:
        return
    spans = [
        (state["Transform"]["posX"], state["Transform"]["posZ"], width / 2, depth / 2)
        for state, (width, depth) in objects
    ]
    mid_x = (min(x - w for x, _, w, _ in spans) + max(x + w for x, _, w, _ in spans)) / 2
    mid_z = (min(z - d for _, z, _, d in spans) + max(z + d for _, z, _, d in spans)) / 2
    for (state, _), (x, z, _, _) in zip(objects, spans):
        _place(state, x - mid_x, z - mid_z)


HAND = (11.0, 5.0, 4.0)  # TTS units a seat's hand zone spans: along the edge, up, and in depth
HAND_ROOM = 3.0  # TTS units between the layout's edge and the hand zones at its ends
# ... and before a long side's seats: room to lay a card before you (Comrade's committee: a word
# and a role card, 3.4 units long) clear of the piles and of your own hand (review 6-S)
SEAT_ROOM = 4.5


def hand_zones(objects: list[tuple[dict, tuple[float, float]]], target: TtsTarget, stem: str):
    """A hand zone (HandTrigger) per seat colour, round the laid-out table: a game TTS opens
    from a save has the hands its save holds and no others, and every game here keeps cards in
    hand. Clockwise from the near side's left: four along the near side, one at the right end,
    four along the far side, one at the left end (ten colours; more go round again), each
    facing the middle, SEAT_ROOM clear of the layout along the sides, HAND_ROOM at the ends."""
    from printshop.render.tts import _common, _transform, guid

    spans = [
        (s["Transform"]["posX"], s["Transform"]["posZ"], w / 2, d / 2) for s, (w, d) in objects
    ]
    right = max([x + w for x, _, w, _ in spans], default=0.0)
    far = max([z + d for _, z, _, d in spans], default=0.0)
    along, _, deep = HAND
    side = max(right, 2 * along + 1.0)  # four zones a side, GAP apart at least
    step = side / 2
    near_z, end_x = far + SEAT_ROOM + deep / 2, side + HAND_ROOM + deep / 2
    seats = [(x * step - 1.5 * step, -near_z, 0.0) for x in range(4)]
    seats += [(end_x, 0.0, 270.0)]
    seats += [(1.5 * step - x * step, near_z, 180.0) for x in range(4)]
    seats += [(-end_x, 0.0, 90.0)]
    zones = []
    for number, (colour, rgb) in enumerate(target.player_colours.items()):
        x, z, turn = seats[number % len(seats)]
        place = _transform(x, z, along, deep, turn=turn, y=3.0, scale_y=HAND[1])
        zone = _common("HandTrigger", "", place, guid(stem, "hand", colour))
        zone.update(
            {
                "ColorDiffuse": {**dict(zip("rgb", rgb)), "a": 0.0},
                "Locked": True,
                "FogColor": colour,
            }
        )
        zones.append(zone)
    return zones


def stock(
    game: GameLayout, target: TtsTarget, palette: Mapping[str, str] | None = None
) -> list[tuple[dict, tuple[float, float]]]:
    """The target's `stock` pieces for the game (TTS's own objects: a die, a bag of tokens), each
    named by its text in the kit's language, tinted with its `colour` of the `palette` (hex
    values by name), with its footprint."""
    from printshop.render.tts import _common, _transform, guid

    pieces = []
    for number, piece in enumerate(target.stock.get(game.game_id, [])):
        texts = game.localized.texts
        name = game.localized.plain(piece.name) if piece.name in texts else piece.name
        each = game.localized.plain(piece.piece) if piece.piece in texts else name
        stem = f"{game.game_id}-{game.lang}"
        state = _common(piece.object, name, _transform(0, 0), guid(stem, "stock", str(number)))
        if piece.object == "Bag":  # an empty bag (a ballot box)
            state["ContainedObjects"] = []
        if piece.colour is not None and palette and piece.colour in palette:
            state["ColorDiffuse"] = diffuse(palette[piece.colour])
        if piece.count > 1:
            state["Name"] = "Bag"
            state["ContainedObjects"] = [
                _common(piece.object, each, _transform(0, 0), guid(stem, "stock", f"{number}/{n}"))
                for n in range(piece.count)
            ]
            for item in state["ContainedObjects"]:
                item["Hands"] = True  # a player may hold one in hand, unseen (a token, a ballot)
        pieces.append((state, footprint(state, target)))
    return pieces


def diffuse(hex_colour: str) -> dict[str, float]:
    """A colour as TTS tints an object with it (`ColorDiffuse`: red, green, blue from 0 to 1)."""
    return dict(zip("rgb", (channel / 255 for channel in rgb_colour(hex_colour))))


def _place(state: dict, x: float, z: float) -> None:
    for item in [state, *state.get("ContainedObjects", [])]:
        item["Transform"]["posX"], item["Transform"]["posZ"] = round(x, 4), round(z, 4)


LINK_OPEN = '": "'  # what comes before every link of a save (FaceURL, ImageURL, PDFUrl...), as JSON


def link_start(stem: str) -> str:
    """How every link of a save begins, as it is written in the JSON: each is the name of a file
    of the folder, and every such name begins with the stem ("comrade-en-"), which no other value
    of a save does, so that one Replace All of it reaches every link and nothing else."""
    return f"{LINK_OPEN}{stem}-"


BLANK = "____"  # a box or strip the sheet prints to write in, as a line of the Notebook's text


def notebook_sheets(game: GameLayout, target: TtsTarget) -> list[SheetLayout]:
    """The game's sheets a player fills in secret (the target's `notebook`)."""
    wanted = target.notebook.get(game.game_id, [])
    return [sheet for sheet in game.sheets if sheet.id in wanted]


def sheet_text(face: FaceLayout, skip: tuple[str, ...] = ("title", "name")) -> str:
    """What a sheet prints, as the Notebook's plain text: each frame (but its title) a paragraph,
    a table a line per row, its cells apart by " · ", an empty cell (a box to write in) BLANK."""
    paragraphs = []
    for frame in face.frames:
        if frame.name in skip:
            continue
        lines = []
        for block in frame.blocks:
            if isinstance(block, Para):
                lines.append(_spaced(plain_text(block.markup)))
            elif isinstance(block, Table):
                lines += [
                    " · ".join(_spaced(plain_text(cell)) or BLANK for _, cell in row)
                    for row in block.rows
                ]
        if any(lines):
            paragraphs.append("\n".join(line for line in lines if line))
    return "\n\n".join(paragraphs) + "\n"


def _spaced(text: str) -> str:
    return " ".join(text.split(" ")).strip()


def online_paragraphs(game: GameLayout) -> list[str]:
    """What a game asks of players online, as the note's paragraphs: its text `table.online`, or
    the texts under it (`table.online.setup`, `table.online.vote`: a phase each), in the order of
    the source language's file (a translator's file may list them in any order)."""
    localized = game.localized
    source = localized.data.source
    ids = dict.fromkeys([*(source.entries if source is not None else ()), *localized.texts])
    return [
        localized.plain(text_id)
        for text_id in ids
        if text_id in localized.texts
        and (text_id == "table.online" or text_id.startswith("table.online."))
    ]


def game_settings(game: GameLayout, target: TtsTarget, stem: str) -> dict:
    """What makes the all-in-one save a game TTS opens with Games > Save & Load: its table and
    sky, a note (players, where the rules are, where secrets go) and the Notebook: the rules tab,
    then a tab per seat colour, private to its player, holding the sheets the player fills in
    secret (the target's `notebook`), else empty as in a new game."""
    from printshop.render.tts_names import face_title

    label, data = game.localized.label, game.localized.data.game
    secret = notebook_sheets(game, target)
    titles = [face_title(sheet.faces[0], sheet.id) for sheet in secret]
    players, seats = data.players, len(target.player_colours)
    note = [label("tts_note", title=game.title, min=players.min, max=players.max)]
    if players.max > seats:
        note.append(label("tts_note_seats", seats=seats, most=players.max))
    if game.booklet is not None and target.rules:  # the booklet lies on the table too
        name = f"{game.title} – {label('tts_rules_tab')}"
        note.append(label("tts_note_rules_table", book=name, rules=f"{stem}-rules.pdf"))
    elif game.booklet is not None:
        note.append(label("tts_note_rules", rules=f"{stem}-rules-*.pdf"))
    note += online_paragraphs(game)  # what this game asks of players online
    note.append(
        label("tts_note_secret", sheet=", ".join(titles)) if secret else label("tts_note_tabs")
    )
    body = "\n\n".join(sheet_text(sheet.faces[0]).strip() for sheet in secret)
    tabs = [(label("tts_rules_tab"), "Grey", (0.5, 0.5, 0.5), "\n\n".join(note))]
    labels = game.localized.language.labels

    def seat(colour: str) -> str:  # the seat's colour in the kit's language, else TTS's own word
        key = f"tts_seat_{colour.lower()}"
        return label(key) if key in labels else colour

    tabs += [
        (" · ".join(titles) if secret else seat(colour), colour, rgb, body)
        for colour, rgb in target.player_colours.items()
    ]
    return {
        "Table": target.table,
        "Sky": target.sky,
        "Note": "\n\n".join(note),
        "TabStates": {
            str(number): {
                "title": title,
                "body": text,
                "color": colour,
                "visibleColor": dict(zip("rgb", rgb)),
                "id": number,
            }
            for number, (title, colour, rgb, text) in enumerate(tabs)
        },
    }


def readme(game: GameLayout, target: TtsTarget, stem: str) -> bytes:
    """README.txt of a tts/ folder, in the kit's language: how to upload the images, point the
    saves at them and load the saves."""
    label = game.localized.label
    steps = (
        [label("tts_readme_base", base=target.base_url)]
        if target.base_url
        else [
            label("tts_readme_upload"),
            # (filled after the language's typography, which would space a French colon in it)
            label("tts_readme_urls")
            .replace("{find}", link_start(stem))
            .replace("{open}", LINK_OPEN)
            .replace("{stem}", f"{stem}-")
            .replace("{all}", f"{stem}-all"),
        ]
    )
    steps += [
        label("tts_readme_saves", all=f"{stem}-all"),
        label("tts_readme_load", all=f"{stem}-all")
        # (only where a sheet is filled in secret: a game without one has nothing for its tab)
        + (" " + label("tts_readme_secret") if notebook_sheets(game, target) else ""),
        label("tts_readme_workshop", all=f"{stem}-all"),
    ]
    lines = [label("tts_readme_title", title=game.title)]
    lines += [f"{number}. {step}" for number, step in enumerate(steps, start=1)]
    return ("\n\n".join(lines) + "\n").encode("utf-8")
