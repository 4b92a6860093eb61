"""Safe zones and trims: what must stay inside a face's safe zone, how far it comes in, reported
once per frame and face; and backgrounds that end between the bleed's edge and the safe zone.
"""

from __future__ import annotations

from printshop.diagnostics import Report
from printshop.project.loader import GameData, Project
from printshop.project.schema import Node
from printshop.project.units import to_mm


def content_boxes(face):
    """What must stay inside a safe zone, from the face's top-left corner: text frames and icons
    (motifs and images not laid below the background layer), as (what, node, box, code); and the
    other shapes (rules, borders, rings, bands) on layer 0 or above, their outline included, under
    `shape-outside-safe-zone`. Shapes below layer 0 are backgrounds, meant to run into the bleed."""
    for name, frame in face.frames.items():
        yield (
            f"frame '{name}'",
            frame,
            (frame.x, frame.y, frame.width, frame.height),
            "outside-safe-zone",
        )
    for name, shape in face.shapes.items():
        if shape.layer < 0:
            continue
        if shape.kind in ("motif", "image"):
            yield (
                f"icon '{name}'",
                shape,
                (shape.x, shape.y, shape.width, shape.height),
                "outside-safe-zone",
            )
        else:
            yield f"shape '{name}'", shape, shape_box(shape), "shape-outside-safe-zone"


def shape_box(shape) -> tuple[float, float, float, float]:
    """The box a shape paints (x, y, width, height from the top-left corner), half its outline
    included."""
    edge = shape.stroke_width / 2 if shape.stroke is not None else 0.0
    if shape.kind in ("circle", "rays"):
        r = shape.radius + (edge if shape.kind == "circle" else 0.0)
        return shape.x - r, shape.y - r, 2 * r, 2 * r
    return shape.x - edge, shape.y - edge, shape.width + 2 * edge, shape.height + 2 * edge


def intrusion(box, width: float, height: float, safe: float) -> float:
    """How far a box comes closer to the trim than `safe` (<= 0 when it keeps its distance)."""
    x, y, w, h = box
    return max(safe - x, safe - y, x + w - (width - safe), y + h - (height - safe))


def deck_faces(game: GameData, deck) -> list[str]:
    names = (
        ({deck.back} if deck.back else set())
        | {card.front for card in deck.cards}
        | {card.back for card in deck.cards if card.back}
    )
    return sorted(n for n in names if n in game.faces)


class Intrusions:
    """Text and icons too close to the trim, gathered from the deck's own safe zone and every
    shop's, and reported once per frame and face, naming each safe zone it breaks."""

    def __init__(self) -> None:
        # (id of the node, owner) -> (node, what, owner, breaches, code, [how far past the trim])
        self.found: dict[tuple[int, str], tuple[Node, str, str, list[str], str, list[float]]] = {}

    def add(
        self,
        node: Node,
        what: str,
        owner: str,
        worst: float,
        zone: str,
        code: str = "outside-safe-zone",
        safe: float | None = None,
    ) -> None:
        """`worst`: how far the box comes inside the zone `safe` from the trim; beyond `safe`, it
        crosses the trim (told with `safe` for the trim as drawn, not for a shop's, to which the
        face is scaled)."""
        entry = self.found.setdefault((id(node), owner), (node, what, owner, [], code, [0.0]))
        entry[3].append(f"{to_mm(worst):.1f} mm closer to the trim than {zone}")
        if safe is not None:
            entry[5][0] = max(entry[5][0], worst - safe)

    def report(self, report: Report) -> None:
        # a frame written once in a face that others extend is each one's: one report, naming them
        # all
        owners: dict[tuple, list[str]] = {}
        for node, what, owner, breaches, code, (past,) in self.found.values():
            owners.setdefault(
                (code, node.where(), what, tuple(breaches), round(past, 4)), []
            ).append(owner)
        for (code, where, what, breaches, past), named in owners.items():
            # past the trim itself, the closeness to a safe zone understates it: the cut goes
            # through it
            crossing = (
                f"runs {to_mm(past):.1f} mm past the trim, where it is cut off: it "
                if past > 0.01
                else ""
            )
            report.add(
                code, where, f"{what} of {_owners(named)} {crossing}comes {'; '.join(breaches)}"
            )


def _owners(named: list[str]) -> str:
    """["face 'a'", "face 'b'", "face 'c'"] -> "faces 'a', 'b' and 'c'"; other owners as they are."""
    if len(named) == 1:
        return named[0]
    if all(owner.startswith("face '") for owner in named):
        names = [owner.removeprefix("face ") for owner in named]
        return f"faces {', '.join(names[:-1])} and {names[-1]}"
    return f"{', '.join(named[:-1])} and {named[-1]}"


def check_background_edges(project: Project, game: GameData, report: Report) -> None:
    """A background (a rectangle below layer 0, exempt from the safe zone) must run to the edge of
    the deck's bleed or keep inside its safe zone on each side: an edge between the two (Comrade's
    vote cards had their lower half filled to 3 mm inside the trim, 1 mm past the card's frame) is
    where a cut that drifts by a millimetre leaves a sliver of paper on one card and none on the
    next."""
    said: set[str] = set()
    for deck in game.game.decks.values():
        size = project.media.card_sizes.get(deck.card_size)
        if size is None:
            continue
        for name in deck_faces(game, deck):
            for shape_name, shape in game.faces[name].shapes.items():
                if shape.layer >= 0 or shape.kind != "rect":
                    continue
                x, y, w, h = shape_box(shape)
                sides = (
                    ("left", x),
                    ("top", y),
                    ("right", size.width - x - w),
                    ("bottom", size.height - y - h),
                )
                between = [
                    (side, gap)
                    for side, gap in sides
                    if -deck.bleed + 0.01 < gap < deck.safe - 0.01
                ]
                where = shape.where()
                if not between or str(where) in said:
                    continue
                said.add(str(where))
                edges = ", ".join(
                    f"{side} {to_mm(abs(gap)):.1f} mm {'inside' if gap >= 0 else 'past'} the trim"
                    for side, gap in between
                )
                report.add(
                    "shape-outside-safe-zone",
                    where,
                    f"background '{shape_name}' of face '{name}' ends between the edge of the bleed "
                    f"({to_mm(deck.bleed):.1f} mm past the trim) and the deck's safe zone "
                    f"({to_mm(deck.safe):.1f} mm inside it): {edges}; a cut that drifts leaves that edge uneven",
                    hint="run the background to the edge of the bleed, or keep it inside the safe zone",
                )
