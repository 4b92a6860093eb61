"""Write data/comrade/images/vote-card.svg, the figure of the vote card Comrade's rules booklet
shows: both sides of the card side by side (the secret vote, then the committee), drawn from the
faces `vote-secret` and `vote-committee` of data/comrade/faces.yaml in the palette's colours,
without their words (the figure's words are its caption's, in each language). The faces change
there; run this again (tests/test_images.py checks the file is what it writes):

    python tests/make_comrade_vote_card.py
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    from tests.face_svg import MM, mm, shapes_svg
except ImportError:  # run as a script, from tests/
    from face_svg import MM, mm, shapes_svg  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "data" / "comrade" / "images" / "vote-card.svg"
SIDES = ("vote-secret", "vote-committee")
GAP = 8 * MM  # between the two sides
CORNER = 3 * MM  # a cut card's rounded corner


def vote_card_svg() -> str:
    from printshop.project.loader import load_project

    whole = load_project(REPO / "data", REPO / "templates", games=["comrade"])
    game = whole.games["comrade"]
    project = whole.view(game)
    palette = project.colours.palette
    motifs = project.motifs.motifs
    size = project.media.card_sizes[game.game.decks["cards"].card_size]
    width, height = size.width, size.height
    total = 2 * width + GAP

    def paint(shape) -> str:
        fill = f'fill="{palette[shape.fill]}"' if shape.fill else 'fill="none"'
        if shape.stroke and shape.stroke_width > 0:
            fill += f' stroke="{palette[shape.stroke]}" stroke-width="{mm(shape.stroke_width)}"'
        return fill

    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{mm(total)}mm" height="{mm(height)}mm" viewBox="0 0 {mm(total)} {mm(height)}">',
        "<!-- written by tests/make_comrade_vote_card.py from data/comrade/faces.yaml "
        f"(faces {', '.join(SIDES)}) -->",
    ]
    for number, name in enumerate(SIDES):
        face = game.faces[name]
        trim = f'x="0" y="0" width="{mm(width)}" height="{mm(height)}" rx="{mm(CORNER)}"'
        parts += [
            f'<g transform="translate({mm(number * (width + GAP))} 0)">',
            f'<defs><clipPath id="trim-{number}"><rect {trim}/></clipPath></defs>',
            f'<rect {trim} fill="{palette[face.background or "paper"]}"/>',
            f'<g clip-path="url(#trim-{number})">',
            *shapes_svg(face, motifs, paint, kinds=("rect", "line", "circle", "rays", "motif")),
            "</g>",
            # the cut card's edge, so the paper-white card shows on the page's paper
            f'<rect {trim} fill="none" stroke="{palette["grey"]}" stroke-width="{mm(0.6 * MM)}"/>',
            "</g>",
        ]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(vote_card_svg(), encoding="utf-8")
    sys.stdout.write(f"wrote {OUT.relative_to(REPO)}\n")
