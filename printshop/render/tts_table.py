"""Tabletop Simulator's table: where the all-in-one save puts each object (apart, from their
real extents), and the README.txt of a tts/ folder, in the kit's language."""

from __future__ import annotations

from printshop.layout.plan import GameLayout
from printshop.project.models.targets import TtsTarget

README = "README.txt"
TABLE = 50.0  # TTS units across the layout should take: the standard table's play area, x -25 to 25
PIECE = 2.0  # TTS units a built-in piece (a die, a bag) is given on the table, about its size
GAP = 1.0  # TTS units between two objects of the all-in-one save


def footprint(state: dict, target: TtsTarget, aspect: float = 1.0) -> tuple[float, float]:
    """An object's width and depth on the table in TTS units (an inch of `card_at_scale_1` or
    `tile_at_scale_1` is a unit): from its scale, and a tile's `aspect` (height over width)."""
    transform = state["Transform"]
    if "CustomImage" in state:
        width = transform["scaleX"] * target.tile_at_scale_1 / 72
        return width, width * aspect
    card = target.card_at_scale_1
    across, down = (card.height, card.width) if state["SidewaysCard"] else (card.width, card.height)
    return transform["scaleX"] * across / 72, transform["scaleZ"] * down / 72


def lay_out_table(objects: list[tuple[dict, tuple[float, float]]]) -> None:
    """Place the all-in-one save's objects (each with its footprint) apart by GAP: the boards in a
    row, the decks and the other tiles in rows beside them, as wide as the boards are deep (at
    least what TABLE leaves beside the boards), the whole centred on the table's origin."""
    boards = [item for item in objects if item[0]["Name"] == "Custom_Board"]
    others = [item for item in objects if item[0]["Name"] != "Custom_Board"]
    left = 0.0
    for state, (width, depth) in boards:
        _place(state, left + width / 2, -depth / 2)
        left += width + GAP
    deep = max([depth for _, (_, depth) in boards], default=0.0)
    start, row_width = left, max(TABLE - left, deep)
    x, z, row_depth = start, 0.0, 0.0
    for state, (width, depth) in others:
        if x > start and x + width > start + row_width:
            x, z, row_depth = start, z - row_depth - GAP, 0.0
        _place(state, x + width / 2, z - depth / 2)
        x += width + GAP
        row_depth = max(row_depth, depth)
    _centre(objects)


def _centre(objects: list[tuple[dict, tuple[float, float]]]) -> None:
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


def stock(game: GameLayout, target: TtsTarget) -> list[tuple[dict, tuple[float, float]]]:
    """The target's `stock` pieces for the game (TTS's own objects: a die, a bag of tokens), each
    named by its text in the kit's language, with its footprint."""
    from printshop.render.tts import _common, _transform, guid

    pieces = []
    for number, piece in enumerate(target.stock.get(game.game_id, [])):
        texts = game.localized.texts
        name = game.localized.plain(piece.name) if piece.name in texts else piece.name
        stem = f"{game.game_id}-{game.lang}"
        state = _common(piece.object, name, _transform(0, 0), guid(stem, "stock", str(number)))
        if piece.count > 1:
            state["Name"] = "Bag"
            state["ContainedObjects"] = [
                _common(piece.object, name, _transform(0, 0), guid(stem, "stock", f"{number}/{n}"))
                for n in range(piece.count)
            ]
        pieces.append((state, (PIECE, PIECE)))
    return pieces


def _place(state: dict, x: float, z: float) -> None:
    for item in [state, *state.get("ContainedObjects", [])]:
        item["Transform"]["posX"], item["Transform"]["posZ"] = round(x, 4), round(z, 4)


def readme(game: GameLayout, target: TtsTarget, stem: str) -> bytes:
    """README.txt of a tts/ folder, in the kit's language: how to upload the images, point the
    saves at them and load the saves."""
    label = game.localized.label
    steps = (
        [label("tts_readme_base", base=target.base_url)]
        if target.base_url
        else [label("tts_readme_upload"), label("tts_readme_urls")]
    )
    steps += [
        label("tts_readme_saves"),
        label("tts_readme_load", all=f"{stem}-all"),
        label("tts_readme_workshop", all=f"{stem}-all"),
    ]
    lines = [label("tts_readme_title", title=game.title)]
    lines += [f"{number}. {step}" for number, step in enumerate(steps, start=1)]
    return ("\n\n".join(lines) + "\n").encode("utf-8")
