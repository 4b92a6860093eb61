"""Write data/kremlin/images/board.svg, the schematic of Kremlin's board its rules booklet shows,
from the board's own data: the shapes of the face `board` in data/kremlin/faces.yaml (rectangles,
circles, sunbursts and motifs), in the palette's colours, without its text. The board's layout
changes there; run this again (tests/test_images.py checks the file is what it writes):

    python tests/make_kremlin_board.py
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    from tests.face_svg import MM, shapes_svg
except ImportError:  # run as a script, from tests/
    from face_svg import MM, shapes_svg  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "data" / "kremlin" / "images" / "board.svg"


def board_svg() -> str:
    from printshop.project.loader import load_project

    whole = load_project(REPO / "data", REPO / "templates", games=["kremlin"])
    game = whole.games["kremlin"]
    project = whole.view(game)  # its own colours and motifs over the project's
    face = game.faces["board"]
    sheet = game.game.sheets["board"]
    palette = project.colours.palette
    motifs = project.motifs.motifs
    width, height = sheet.width, sheet.height

    def n(value: float) -> str:  # millimetres, to a hundredth
        return f"{value / MM:.2f}".rstrip("0").rstrip(".")

    def paint(shape) -> str:
        fill = f'fill="{palette[shape.fill]}"' if shape.fill else 'fill="none"'
        if shape.stroke and shape.stroke_width > 0:
            # at its size in the booklet, no line under 1.6 mm of the board (0.26 pt printed):
            # the shops' thinnest printable line is 0.15–0.25 pt
            width = max(shape.stroke_width, 1.6 * MM)
            fill += f' stroke="{palette[shape.stroke]}" stroke-width="{n(width)}"'
        elif shape.fill and light(palette[shape.fill]) and shape.kind != "rays":
            # a pale place on the pale board: at a sixth of its size it needs an outline to show
            fill += f' stroke="{palette["grey"]}" stroke-width="{n(1.6 * MM)}"'
        return fill

    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{n(width)}mm" height="{n(height)}mm" viewBox="0 0 {n(width)} {n(height)}">',
        "<!-- written by tests/make_kremlin_board.py from data/kremlin/faces.yaml (face board) -->",
        f'<rect x="0" y="0" width="{n(width)}" height="{n(height)}" '
        f'fill="{palette[face.background or "paper"]}"/>',
        # what runs into the bleed (the sunburst, the bands) is cut at the trim
        f'<defs><clipPath id="trim"><rect x="0" y="0" width="{n(width)}" height="{n(height)}"/>'
        "</clipPath></defs>",
        '<g clip-path="url(#trim)">',
    ]
    parts += shapes_svg(face, motifs, paint)
    parts.append("</g>")
    parts += callouts(face, palette, n)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# the board's parts the figure's caption names by number: the shape each disc sits on, at its top-left
# corner (the frames that label the parts on the board are left out: the figure's words are the
# caption's, in each language)
CALLOUTS = (
    "place_1-band",  # the party chief
    "place_2-band",  # the first level's offices
    "place_5-band",  # the second level's
    "cand_1-band",  # the candidates' places
    "people-box",  # the People's row
    "sanatorium-box",
    "siberia-box",
    "wall-box",
    "year-1",  # the October Parade's years
)


def callouts(face, palette, n) -> list[str]:
    """A numbered disc on the top-left corner of each shape CALLOUTS names, in ink ringed with paper:
    it stands out on the red bands and the pale places alike."""
    radius, parts = 12 * MM, []
    for number, name in enumerate(CALLOUTS, start=1):
        shape = face.shapes[name]
        x, y = max(shape.x, radius + 1 * MM), max(shape.y, radius + 1 * MM)
        parts.append(
            f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(radius)}" fill="{palette["ink"]}" '
            f'stroke="{palette["paper"]}" stroke-width="{n(2 * MM)}"/>'
        )
        parts.append(
            f'<text x="{n(x)}" y="{n(y + 6 * MM)}" font-size="{n(17 * MM)}" font-weight="bold" '
            f'fill="{palette["paper"]}" text-anchor="middle">{number}</text>'
        )
    return parts


def light(hex_value: str) -> bool:
    red, green, blue = (int(hex_value[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.75


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(board_svg(), encoding="utf-8")
    sys.stdout.write(f"wrote {OUT.relative_to(REPO)}\n")
