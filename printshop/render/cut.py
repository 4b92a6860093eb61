"""Print-and-cut: pages for a cutting machine that reads printed registration marks, and the SVG cut
files whose outlines fall on the printed faces' trims.

Each face is printed with a little bleed, apart from its neighbours by a gap, inside the area the
cutter can reach: the paper inside its registration marks (Silhouette), or the largest image its
software prints (Cricut Print Then Cut, which prints its own marks). No face enters the zone
Silhouette Studio keeps clear round each mark (layout/imposition.py `keep_out_zones`): the grid's
cells there stay empty. The SVG has one outline per face, in millimetres on a view box the size of the page, with the card size's rounded corners; the
PDF and the SVG come from the same placements, so they agree to the rounding of the numbers written.
A two-sided deck gets, after each page of fronts, its page of backs mirrored for long-edge duplex
(without marks: the cutter reads the fronts) where the cutter's software prints our pages.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from xml.sax.saxutils import escape

from printshop.layout.imposition import ImpositionError, cut_slots, usable_area
from printshop.layout.plan import DeckLayout, GameLayout
from printshop.project.models.art import Motif
from printshop.project.models.media import Paper
from printshop.project.models.targets import CutTarget
from printshop.render.colour import Paints
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas

MM = 72 / 25.4


@dataclass(frozen=True)
class CutGrid:
    """Where faces go on a page, in points from the page's bottom-left corner (PDF coordinates)."""

    page_width: float
    page_height: float
    card_width: float
    card_height: float
    bleed: float
    gap: float
    columns: int
    rows: int
    # the bottom-left trim corner of each place a face may take, rows from the top: the grid's
    # cells less those that would enter a registration mark's keep-out zone
    slots: tuple[tuple[float, float], ...]

    @property
    def per_page(self) -> int:
        return len(self.slots)

    def trim(self, index: int) -> tuple[float, float]:
        """Bottom-left corner of the index-th face's trim."""
        return self.slots[index]


def cut_grid(deck: DeckLayout, paper: Paper, target: CutTarget) -> CutGrid:
    page_width, page_height = usable_area(paper, target)[:2]
    width, height = deck.size.width, deck.size.height
    bleed = min(target.bleed, max((face.bleed for face in deck.faces.values()), default=0.0))
    columns, rows, slots = cut_slots(paper, target, width, height, bleed)
    if not slots:
        raise ImpositionError(
            f"a {deck.size.label or deck.deck.card_size} card with its bleed does not fit in the "
            f"area {target.label} can cut"
        )
    return CutGrid(
        page_width, page_height, width, height, bleed, target.gap, columns, rows, tuple(slots)
    )


def mark_rectangles(
    paper_width: float, paper_height: float, target: CutTarget
) -> list[tuple[float, float, float, float]]:
    """The filled rectangles (x, y, width, height; PDF coordinates) that make up the registration
    marks."""
    marks = target.marks
    if marks is None or target.area is not None:
        return []
    inset, length, thick, square = marks.inset, marks.length, marks.thickness, marks.square
    right, top = paper_width - inset, paper_height - inset
    return [
        (inset, top - square, square, square),  # the square, top left
        (right - length, top - thick, length, thick),
        (right - thick, top - length, thick, length),  # L, top right
        (inset, inset, length, thick),
        (inset, inset, thick, length),  # L, bottom left
    ]


def render_cut_pages(
    game: GameLayout,
    deck: DeckLayout,
    paper: Paper,
    target: CutTarget,
    paints: Paints,
    motifs: dict[str, Motif],
    file_name: str,
) -> tuple[bytes, int, list[list[tuple[float, float]]], CutGrid, list[int]]:
    """The deck's pages: fronts with marks (and mirrored backs where the deck has them and we print
    the marks). Returns the PDF, its page count, the trims of each page of fronts, the grid, and the
    0-based page numbers of the fronts pages."""
    grid = cut_grid(deck, paper, target)
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        grid.page_width,
        grid.page_height,
        lang=game.lang,
        title=f"{game.title}: {deck.id} ({target.label}, {paper.label})",
        subject=f"print and cut: {target.label}",
        keywords="printshop:cut",
    )
    names = {key: f"face{index}" for index, key in enumerate(deck.faces)}
    for key, face in deck.faces.items():
        canvas.beginForm(
            names[key], -face.bleed, -face.bleed, face.width + face.bleed, face.height + face.bleed
        )
        draw_face(canvas, face, paints, motifs, game.localized.data.dir)
        canvas.endForm()
    backs_too = target.area is None and any(back for _, back in deck.cards)
    chunks = [deck.cards[i : i + grid.per_page] for i in range(0, len(deck.cards), grid.per_page)]
    trims, front_pages, page = [], [], 0
    for chunk in chunks:
        placed = []
        for index, (front, _) in enumerate(chunk):
            x, y = grid.trim(index)
            _place(canvas, names[front], x, y, grid)
            placed.append((x, y))
        _marks(canvas, grid, target)
        canvas.showPage()
        trims.append(placed)
        front_pages.append(page)
        page += 1
        if backs_too:
            for index, (_, back) in enumerate(chunk):
                if back:
                    x, y = grid.trim(index)
                    _place(canvas, names[back], grid.page_width - x - grid.card_width, y, grid)
            canvas.showPage()
            page += 1
    canvas.save()
    return buffer.getvalue(), page, trims, grid, front_pages


def _place(canvas, form: str, x: float, y: float, grid: CutGrid) -> None:
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(
        x - grid.bleed,
        y - grid.bleed,
        grid.card_width + 2 * grid.bleed,
        grid.card_height + 2 * grid.bleed,
    )
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(x, y)
    canvas.doForm(form)
    canvas.restoreState()


def _marks(canvas, grid: CutGrid, target: CutTarget) -> None:
    canvas.saveState()
    canvas.setFillGray(0)  # pure black: what the optical sensor looks for
    for x, y, width, height in mark_rectangles(grid.page_width, grid.page_height, target):
        canvas.rect(x, y, width, height, stroke=0, fill=1)
    canvas.restoreState()


def cut_svg(
    trims: list[tuple[float, float]], grid: CutGrid, radius: float, colour: str, title: str
) -> bytes:
    """The outlines of one page's faces: millimetres, y downwards, on a view box the size of the
    page."""

    def number(points: float) -> str:
        text = f"{points / MM:.3f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    width, height = number(grid.page_width), number(grid.page_height)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}mm" height="{height}mm" '
        f'viewBox="0 0 {width} {height}">',
        f"  <title>{escape(title)}</title>",
        f'  <g id="cut-lines" fill="none" stroke="{colour}" stroke-width="0.1">',
    ]
    corner = min(radius, grid.card_width / 2, grid.card_height / 2)
    rounding = f' rx="{number(corner)}" ry="{number(corner)}"' if corner > 0 else ""
    for x, y in trims:
        top = grid.page_height - y - grid.card_height
        lines.append(
            f'    <rect x="{number(x)}" y="{number(top)}" width="{number(grid.card_width)}" '
            f'height="{number(grid.card_height)}"{rounding}/>'
        )
    lines += ["  </g>", "</svg>", ""]
    return "\n".join(lines).encode("utf-8")


def page_images(pdf: bytes, pages: list[int], dpi: int) -> list[bytes]:
    """The given pages as PNGs at `dpi` (the Cricut upload): pdfium's rendering, fixed PNG settings."""
    import pypdfium2

    from printshop.render.raster import pixels_at, png, render_pixels

    document = pypdfium2.PdfDocument(pdf)
    images = []
    try:
        for number in pages:
            page = document[number]
            images.append(
                png(render_pixels(page, *pixels_at(page.get_width(), page.get_height(), dpi)), dpi)
            )
            page.close()
    finally:
        document.close()
    return images
