"""Where cards go on a sheet of paper: the grid, the mirrored back positions (of cards and of
two-sided sheets), the cut lines.

Pure geometry in points, PDF coordinates (origin bottom-left). Long-edge duplex turns the sheet
about its vertical axis, so a back lies at x_back = page_width - x_front - card_width, same y. Cards
may lie turned a quarter turn on the page (`print_and_play.card_sheets` in media.yaml): the grid's
cells are then the cards' turned outline, and each back is turned so that its top lies behind its
front's top once the sheet is turned over (`back_turn`).
"""

from __future__ import annotations

from dataclasses import dataclass

from printshop.project.units import to_mm


class ImpositionError(ValueError):
    pass


@dataclass(frozen=True)
class Grid:
    page_width: float
    page_height: float
    card_width: float
    card_height: float
    columns: int
    rows: int
    lift: float = (
        0.0  # how far the grid sits above the page's centre (room for a footer below its marks)
    )
    # how far the fronts are turned counter-clockwise, in degrees (90: a card's top at the page's
    # left); the cells (card_width x card_height) are then the turned card's outline
    turn: int = 0

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def left(self) -> float:
        return (self.page_width - self.columns * self.card_width) / 2

    @property
    def bottom(self) -> float:
        return (self.page_height - self.rows * self.card_height) / 2 + self.lift

    def cell(self, index: int) -> tuple[int, int]:
        """(column, row) of the index-th card; rows count from the top."""
        return index % self.columns, index // self.columns

    def front(self, index: int) -> tuple[float, float]:
        column, row = self.cell(index)
        x = self.left + column * self.card_width
        y = self.bottom + (self.rows - 1 - row) * self.card_height
        return x, y

    def back(self, index: int, flip: str = "long-edge") -> tuple[float, float]:
        x, y = self.front(index)
        return mirrored(
            self.page_width, self.page_height, x, y, self.card_width, self.card_height, flip
        )

    def back_turn(self, flip: str = "long-edge") -> int:
        return back_turn(self.turn, flip, self.page_width, self.page_height)

    def cut_xs(self) -> list[float]:
        return [self.left + i * self.card_width for i in range(self.columns + 1)]

    def cut_ys(self) -> list[float]:
        return [self.bottom + i * self.card_height for i in range(self.rows + 1)]


def mirrored(
    page_width: float,
    page_height: float,
    x: float,
    y: float,
    width: float,
    height: float,
    flip: str = "long-edge",
) -> tuple[float, float]:
    """Where the back of a box placed at (x, y) goes on the page after it, so that it prints behind
    the box: the duplex printer turns the sheet about its long edge ("long-edge") or its short edge.
    On an upright page the long edge is vertical and the back is mirrored left to right (as
    `Grid.back`); on a turned page (landscape: boards, sheets two to a page) the long edge lies
    across, so the long edge mirrors top to bottom."""
    about_vertical_axis = (flip == "long-edge") == (page_height >= page_width)
    if about_vertical_axis:
        return page_width - x - width, y
    return x, page_height - y - height


def back_turn(turn: int, flip: str, page_width: float, page_height: float) -> int:
    """How far a card's back is turned (counter-clockwise, degrees) so that its top edge lies behind
    its front's top edge, as a player who turns the card over finds it. A sheet turned about its
    vertical axis (long-edge duplex on an upright page) mirrors left and right: a front turned +90
    (top to the left) has its back turned -90; turned about its horizontal axis (short edge), top
    and bottom: the same +90, and an upright card's back upside down (180)."""
    about_vertical_axis = (flip == "long-edge") == (page_height >= page_width)
    return (-turn if about_vertical_axis else 180 - turn) % 360


def turned_origin(
    x: float, y: float, width: float, height: float, turn: int
) -> tuple[float, float]:
    """Where a card's own origin (its bottom-left corner) lies when the card, turned `turn` degrees
    counter-clockwise, fills the cell of `width` x `height` at (x, y): translate there, then rotate."""
    return {0: (x, y), 90: (x + width, y), 180: (x + width, y + height), 270: (x, y + height)}[
        turn % 360
    ]


def mark_room(pnp) -> float:
    """How far from the paper's edge the cards' trim must stay (`pnp`: media.yaml's print_and_play):
    the unprintable band, then crop marks at least half their length, the gap before them and the
    outer bleed. Without that room the cuts cannot be found (cards abut on one background), so the
    grid loses a row or column instead."""
    return pnp.margin + pnp.crop_marks.length / 2 + pnp.crop_marks.gap + pnp.outer_bleed


def footer_clear(pnp) -> float:
    """The height below which the footer's text lies, with the marks' gap above it: no mark comes
    lower."""
    return pnp.footer.baseline + pnp.footer.size * 0.8 + pnp.crop_marks.gap


def card_room(paper_width: float, paper_height: float, pnp) -> tuple[float, float]:
    """The largest card (as placed: width across the page, height up it) a print-and-play card sheet
    of this paper holds, with room for the crop marks on every side and for the footer below them."""
    room = mark_room(pnp)
    bottom_room = footer_clear(pnp) + room - pnp.margin
    return paper_width - 2 * room, paper_height - room - max(room, bottom_room)


def too_small(
    card_size: str,
    card_width: float,
    card_height: float,
    paper_label: str,
    paper_width: float,
    paper_height: float,
    pnp,
    turn: int = 0,
) -> str | None:
    """Why a card sheet of this paper cannot hold one card of this size (its name and size as the
    data gives them; `turn`: as print_and_play.card_sheets turns it), with the largest that fits;
    None when it can."""
    across, up = card_room(paper_width, paper_height, pnp)
    width, height = (card_height, card_width) if turn % 180 else (card_width, card_height)
    if width <= across + 1e-6 and height <= up + 1e-6:
        return None
    largest = (up, across) if turn % 180 else (across, up)
    turned = f", turned {turn}°" if turn % 180 else ""
    return (
        f"a {card_size} card ({_mm(card_width)} × {_mm(card_height)} mm{turned}) does not fit on {paper_label} "
        f"({_mm(paper_width)} × {_mm(paper_height)} mm) with room for the crop marks and the footer: the largest "
        f"card it holds is {_mm(max(largest[0], 0))} × {_mm(max(largest[1], 0))} mm"
    )


def _mm(points: float) -> str:
    return f"{to_mm(points):.1f}".removesuffix(".0")


@dataclass(frozen=True)
class Cover:
    """A face of `width` x `height` (drawn `bleed` past its trim) scaled about its centre to cover a
    shop's trim of `trim_width` x `trim_height`: what reaches each edge, in the shop's points."""

    scale: float
    bleed_x: float  # how far the drawn face reaches past the shop's trim, left and right
    bleed_y: float  # and top and bottom


def cover(
    width: float, height: float, bleed: float, trim_width: float, trim_height: float
) -> Cover:
    scale = max(trim_width / width, trim_height / height)
    return Cover(
        scale,
        ((width + 2 * bleed) * scale - trim_width) / 2,
        ((height + 2 * bleed) * scale - trim_height) / 2,
    )


def placed_box(
    cover_: Cover,
    width: float,
    height: float,
    trim_width: float,
    trim_height: float,
    x: float,
    y: float,
    w: float,
    h: float,
) -> tuple[float, float, float, float]:
    """A box given from the face's top-left corner, where it lands on the shop's trim (also from
    top-left)."""
    s = cover_.scale
    return (
        (x - width / 2) * s + trim_width / 2,
        (y - height / 2) * s + trim_height / 2,
        w * s,
        h * s,
    )


# --- sheets one or two to a page
# ------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetRoom:
    """What a page keeps round its sheets. A sheet drawn with bleed (colour to its edge), and any
    sheet printed two to a page, is cut: one with bleed gets `outer_bleed`, and crop marks at least
    half their length outside it; the bottom also keeps the footer's height below the marks, so that
    the footer (centred, across the cut lines) meets none of them. Nothing comes into the band of
    `margin` along the paper's edge."""

    cut: bool
    side: float  # left, right and top
    bottom: float
    footer_top: float  # the footer's text ends below this height

    @staticmethod
    def of(bled: bool, per_page: int, pnp) -> "SheetRoom":
        marks = pnp.crop_marks
        cut = bled or per_page == 2  # two to a page are cut apart even without colour to the edge
        footer_top = pnp.footer.baseline + pnp.footer.size * 0.8  # above the ascenders
        if not cut:
            return SheetRoom(False, pnp.margin, footer_top + marks.gap, footer_top)
        marked = marks.length / 2 + marks.gap + (pnp.outer_bleed if bled else 0.0)
        return SheetRoom(True, pnp.margin + marked, footer_top + marks.gap + marked, footer_top)


@dataclass(frozen=True)
class SheetPlacement:
    """How sheets of one size go on a paper: the page (turned where that suits them), whether two go
    side by side (`across`) or one above the other, the room kept round them, each one's slot and
    the scale they are drawn at (two to a page are shrunk to their slots where need be, one to a
    page never)."""

    width: float
    height: float
    across: bool
    room: SheetRoom
    slot_width: float
    slot_height: float
    scale: float

    def holds(self, sheet_width: float, sheet_height: float) -> bool:
        """Whether a sheet of this size fits its slot at full size."""
        return sheet_width <= self.slot_width + 0.01 and sheet_height <= self.slot_height + 0.01


def sheet_placement(
    sheet_width: float,
    sheet_height: float,
    bled: bool,
    per_page: int,
    paper_width: float,
    paper_height: float,
    pnp,
) -> SheetPlacement:
    """One to a page, a landscape sheet on turned paper; two to a page, two portrait sheets side by
    side on turned paper or two landscape ones one above the other."""
    width, height = paper_width, paper_height
    landscape = sheet_width > sheet_height
    if (landscape != (width > height)) if per_page == 1 else (landscape == (width > height)):
        width, height = height, width
    across = per_page == 2 and width > height
    room = SheetRoom.of(bled, per_page, pnp)
    slot_width = (width - 2 * room.side) / (2 if across else 1)
    slot_height = (height - room.side - room.bottom) / (2 if per_page == 2 and not across else 1)
    scale = min(1.0, slot_width / sheet_width, slot_height / sheet_height) if per_page == 2 else 1.0
    return SheetPlacement(width, height, across, room, slot_width, slot_height, scale)


def sheet_too_big(
    sheet_width: float,
    sheet_height: float,
    bled: bool,
    paper_label: str,
    paper_width: float,
    paper_height: float,
    pnp,
) -> str | None:
    """Why a sheet printed one to a page does not fit on this paper inside its margins; None when it
    does."""
    if sheet_placement(sheet_width, sheet_height, bled, 1, paper_width, paper_height, pnp).holds(
        sheet_width, sheet_height
    ):
        return None
    return f"the sheet ({_mm(sheet_width)} × {_mm(sheet_height)} mm) does not fit on {paper_label} inside its margins"


# --- print-and-cut machines (render/cut.py lays the pages out; validate asks whether a card fits at
# all) ----------
def usable_area(paper, target) -> tuple[float, float, float, float, float, float]:
    """(page width, page height, left, bottom, right, top) of the region faces (with bleed) may
    occupy."""
    if target.area is not None:
        width, height = target.area.width, target.area.height
        return width, height, 0.0, 0.0, width, height
    width, height = paper.width, paper.height
    marks = target.marks
    if marks is None:
        return width, height, 0.0, 0.0, width, height
    side = marks.inset + marks.thickness + marks.clearance  # clear of the Ls' lines
    top = (
        marks.inset + max(marks.square, marks.thickness) + marks.clearance
    )  # clear of the square too
    return width, height, side, side, width - side, height - top


def cut_cells(paper, target, width: float, height: float, bleed: float) -> tuple[int, int]:
    """(columns, rows) of faces `width` x `height` with `bleed` round each that a cutter's area
    holds on `paper`."""
    _, _, left, bottom, right, top = usable_area(paper, target)
    columns = int((right - left + target.gap + 1e-6) // (width + 2 * bleed + target.gap))
    rows = int((top - bottom + target.gap + 1e-6) // (height + 2 * bleed + target.gap))
    return columns, rows


def keep_out_zones(
    paper_width: float, paper_height: float, target
) -> list[tuple[float, float, float, float]]:
    """The zones (x, y, width, height; PDF coordinates) round the registration marks that no face
    may enter: at each of the three marked corners (the square at the top left, the Ls at the top
    right and bottom left) the square from the paper's corner to the mark's far end and `clearance`
    beyond, as Silhouette Studio hatches it round each mark, the square's corner as large as the
    Ls'. None where the cutter's software prints its own marks."""
    marks = target.marks
    if marks is None or target.area is not None:
        return []
    side = marks.inset + max(marks.length, marks.square) + marks.clearance
    return [
        (0.0, paper_height - side, side, side),  # the square, top left
        (paper_width - side, paper_height - side, side, side),  # L, top right
        (0.0, 0.0, side, side),  # L, bottom left
    ]


def cut_slots(
    paper, target, width: float, height: float, bleed: float
) -> tuple[int, int, list[tuple[float, float]]]:
    """(columns, rows, slots): the grid of faces `width` x `height` with `bleed` round each that a
    cutter's area holds on `paper`, centred in it, and the bottom-left trim corner of each cell whose
    bled face stays out of every keep-out zone (`keep_out_zones`), rows from the top."""
    page_width, page_height, left, bottom, right, top = usable_area(paper, target)
    columns, rows = cut_cells(paper, target, width, height, bleed)
    cell_w, cell_h = width + 2 * bleed, height + 2 * bleed
    used_w = columns * cell_w + (columns - 1) * target.gap
    used_h = rows * cell_h + (rows - 1) * target.gap
    first_left = left + (right - left - used_w) / 2 + bleed
    first_top = top - (top - bottom - used_h) / 2 - bleed
    zones = keep_out_zones(page_width, page_height, target)
    slots = []
    for row in range(max(rows, 0)):
        for column in range(max(columns, 0)):
            x = first_left + column * (cell_w + target.gap)
            y = first_top - height - row * (cell_h + target.gap)
            box = (x - bleed, y - bleed, x + width + bleed, y + height + bleed)
            if not any(
                box[0] < zx + zw and zx < box[2] and box[1] < zy + zh and zy < box[3]
                for zx, zy, zw, zh in zones
            ):
                slots.append((x, y))
    return columns, rows, slots
