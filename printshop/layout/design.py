"""The design rules layout applies across a deck (docs/design.md): one text size per frame.

The fit chooses, card by card, the largest size at which a frame's text fits. Across a deck that
gives body text at 8.5 pt next to 6.75 pt. A frame with `size_across: deck` is set on every card at
the smallest size any card needed; `size_across: card` keeps that face's own size on purpose (it is
left out of the comparison); left out, a deck whose cards differ is reported (deck-size-varies).
"""

from __future__ import annotations

import dataclasses

from printshop.diagnostics import Report
from printshop.render.colour import Paints
from printshop.typeset.fitting import fit
from printshop.typeset.richtext import Para, Table, plain_text


def _has_text(blocks) -> bool:
    for block in blocks:
        if isinstance(block, Para) and plain_text(block.markup).strip():
            return True
        if isinstance(block, Table):
            return True
    return False


def same_size_across_deck(
    deck_id: str,
    faces: dict,
    lang: str,
    hyphenation: str | None,
    palette: dict[str, str],
    report: Report,
    resized=None,
) -> None:
    """Make every frame of `faces` (key -> FaceLayout, one deck's) that declares `size_across: deck`
    print at one size, replacing the FaceLayouts concerned (never changing them: a session may keep
    them); report the frames whose sizes differ and that declare nothing. `resized` (a session's;
    anything with `get` and item assignment) keeps each replacement by the face it replaced, the
    frame and the size: the same face set at the same size is then the same object as before, which
    a session draws once and serve shows under the same image."""
    # a frame and the frames that inherit it (through `extends`) are one group: their size is
    # written once, though a face that inherits it may change its box (the sick chief's shorter
    # text frame still takes the deck's size)
    groups: dict[tuple[str, str], list[tuple[str, int]]] = {}
    written: dict[
        int, str
    ] = {}  # id(frame) -> where it is written: the faces of a deck share their frames
    for key, face in faces.items():
        for index, laid in enumerate(face.frames):
            if laid.fit.fits and laid.frame.size_across != "card" and _has_text(laid.blocks):
                where = written.get(id(laid.frame))
                if where is None:
                    where = written[id(laid.frame)] = str(laid.frame.where("size"))
                groups.setdefault((laid.name, where), []).append((key, index))
    for (name, _), members in groups.items():
        sizes = {key: faces[key].frames[index].fit.size for key, index in members}
        if len(set(sizes.values())) < 2:
            continue
        modes = {faces[key].frames[index].frame.size_across for key, index in members}
        smallest = min(sizes.values())
        if modes == {"deck"}:
            for key, index in members:
                laid = faces[key].frames[index]
                if laid.fit.size == smallest:
                    continue
                known = (
                    resized.get((id(faces[key]), index, smallest)) if resized is not None else None
                )
                if known is not None and known[0] is faces[key]:
                    faces[key] = known[1]
                    continue
                frame = laid.frame
                fixed = frame.model_copy(update={"size": smallest, "min_size": smallest})
                result = fit(
                    laid.blocks, fixed, frame.width, frame.height, Paints(palette), hyphenation
                )
                if not result.fits:
                    # cannot happen at a smaller size than one that fitted; keep the card's own
                    continue
                frames = list(faces[key].frames)
                frames[index] = dataclasses.replace(laid, fit=result)
                replaced = dataclasses.replace(faces[key], frames=frames)
                if (
                    resized is not None
                ):  # (the face replaced kept with it: its id names no other face meanwhile)
                    resized[(id(faces[key]), index, smallest)] = (faces[key], replaced)
                faces[key] = replaced
            continue
        first_key, first_index = members[0]
        frame = faces[first_key].frames[first_index].frame
        small = sorted({key.split("/")[1] for key, size in sizes.items() if size == smallest})
        report.add(
            "deck-size-varies",
            frame.where(),
            f"frame '{name}' of deck '{deck_id}' (language {lang}) is set at sizes from {smallest:g} to "
            f"{max(sizes.values()):g} pt; cards at {smallest:g} pt: {', '.join(small[:6])}"
            + (" …" if len(small) > 6 else ""),
        )
