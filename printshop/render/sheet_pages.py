"""Sheets on paper: player sheets and aids centred on the page (two-sided ones with a page of
mirrored backs after each page of fronts), boards tiled over several pages with overlap, alignment
marks and an assembly diagram, and press pages with TrimBox and BleedBox.

The sheet's face is drawn once, as a Form XObject, and placed on every page that shows part of it.
"""

from __future__ import annotations

import io
import math

from reportlab.pdfgen.canvas import Canvas

from printshop.layout.imposition import (
    ImpositionError,
    SheetRoom,
    mirrored,
    sheet_placement,
    sheet_too_big,
)
from printshop.layout.plan import FaceLayout, GameLayout, SheetLayout
from printshop.layout.tiling import Tiling, tiling_for
from printshop.render.assembly_page import assembly_page, pill, pill_size, place, triangle
from printshop.render.pdf import new_canvas
from printshop.render.replay import draw_face_form
from printshop.render.seams import blocks, keep_off
from printshop.render.sheets import SheetSettings, page_footer


def _define(canvas: Canvas, face, name: str, settings: SheetSettings, assets) -> str:
    canvas.beginForm(
        name, -face.bleed, -face.bleed, face.width + face.bleed, face.height + face.bleed
    )
    # drawn, or replayed when a long-running session has the face's recording (render/replay.py), as
    # on card sheets
    draw_face_form(canvas, face, settings.paints, settings.motifs, assets)
    canvas.endForm()
    return name


def render_sheet(
    game: GameLayout, sheet: SheetLayout, settings: SheetSettings
) -> tuple[bytes, int]:
    """The sheets on `settings.paper`: tiled if the spec says so; else one or two to a page, each
    item `copies` times; two to a page go side by side on turned paper, scaled to fit, cut line
    between. A two-sided sheet's page of fronts is followed by its page of backs, each back mirrored
    for the duplex flip (`settings.flip`) and moved by `settings.back_offset`, as card backs are."""
    if sheet.spec.tiled:
        if (
            sheet.backs
        ):  # validate refuses it first; a tile's back would need its own mirrored tiling
            raise ImpositionError(
                "a tiled sheet cannot have a back: print its back as a sheet of its own"
            )
        return _render_tiled(game, sheet, settings)
    paper, first = settings.paper, sheet.faces[0]
    pnp = settings.media.print_and_play
    per_page = sheet.spec.per_page
    bled = any(face.bleed > 0 for face in sheet.faces)
    placed_on = sheet_placement(
        first.width, first.height, bled, per_page, paper.width, paper.height, pnp
    )
    if per_page == 1 and not placed_on.holds(first.width, first.height):  # validate says so first
        too_big = sheet_too_big(
            first.width, first.height, bled, paper.label, paper.width, paper.height, pnp
        )
        raise ImpositionError(f"{too_big}: make it smaller, tiled or two to a page")
    width, height, across, room, scale = (
        placed_on.width,
        placed_on.height,
        placed_on.across,
        placed_on.room,
        placed_on.scale,
    )
    avail_h = height - room.side - room.bottom
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        width,
        height,
        lang=game.lang,
        title=f"{game.title}: {sheet.id} ({paper.label})",
        subject="print-and-play sheets",
    )
    forms = [
        _define(canvas, face, f"sheet{i}", settings, game.localized.data.dir)
        for i, face in enumerate(sheet.faces)
    ]
    backs = [
        _define(canvas, face, f"back{i}", settings, game.localized.data.dir)
        for i, face in enumerate(sheet.backs)
    ]
    placed = [index for index in range(len(forms)) for _ in range(sheet.spec.copies)]
    sides = 2 if backs else 1
    sheet_pages = -(-len(placed) // per_page)
    pages = sides * sheet_pages
    w, h = first.width * scale, first.height * scale
    # two sheets to a page abut, as cards do: one cut between them trims both
    group_w, group_h = (2 * w, h) if across else (w, h * (2 if per_page == 2 else 1))
    x0, y0 = (width - group_w) / 2, room.bottom + (avail_h - group_h) / 2
    bleed = min(pnp.outer_bleed, first.bleed * scale) if room.cut else 0.0
    for page in range(sheet_pages):
        items = placed[page * per_page : (page + 1) * per_page]
        boxes = [  # (x, y, item index) of each sheet on this page
            ((x0 + slot * w, y0) if across else (x0, y0 + group_h - (slot + 1) * h)) + (index,)
            for slot, index in enumerate(items)
        ]
        _place_all(canvas, forms, boxes, (w, h), scale, bleed if room.cut else None)
        if room.cut:
            _sheet_marks(
                canvas, [(x, y, w, h) for x, y, _ in boxes], bleed, room, width, height, settings
            )
        _footer(
            canvas,
            game,
            settings,
            width,
            sides * page + 1,
            pages,
            game.localized.label("fronts") if backs else "",
        )
        canvas.showPage()
        # each back behind its own front once the sheet is turned over; cut from the fronts' side
        if backs:
            mirrored_boxes = _behind(boxes, (width, height), (w, h), settings)
            _place_all(canvas, backs, mirrored_boxes, (w, h), scale, bleed if room.cut else None)
            _footer(
                canvas, game, settings, width, 2 * page + 2, pages, game.localized.label("backs")
            )
            canvas.showPage()
    canvas.save()
    return buffer.getvalue(), pages


def _place_all(
    canvas: Canvas,
    forms: list[str],
    boxes: list[tuple[float, float, int]],
    size: tuple[float, float],
    scale: float,
    bleed: float | None,
) -> None:
    """Each (x, y, item index) of `boxes` placed at its size `size`, its form clipped to its trim
    and `bleed` (`_clip`; None: a page without cut lines, nothing clipped)."""
    w, h = size
    for x, y, index in boxes:
        place(
            canvas,
            forms[index],
            x,
            y,
            scale,
            _clip(x, y, w, h, boxes, bleed) if bleed is not None else None,
        )


def _behind(
    boxes: list[tuple[float, float, int]],
    page: tuple[float, float],
    size: tuple[float, float],
    settings: SheetSettings,
) -> list[tuple[float, float, int]]:
    """Where each sheet's back goes on the page of backs: mirrored for the duplex flip, moved by the
    back offset, so that it falls behind its own front once the sheet is turned over."""
    (width, height), (w, h) = page, size
    dx, dy = settings.back_offset
    mirrored_boxes = []
    for x, y, index in boxes:
        bx, by = mirrored(width, height, x, y, w, h, settings.flip)
        mirrored_boxes.append((bx + dx, by + dy, index))
    return mirrored_boxes


def _clip(
    x: float, y: float, w: float, h: float, boxes, bleed: float
) -> tuple[float, float, float, float]:
    """The sheet's trim, grown by `bleed` on every side with no neighbour; where two sheets abut,
    each stops at the shared cut line (no colour of one runs over the other)."""

    def neighbour(dx: float, dy: float) -> bool:
        return any(abs(ox - (x + dx)) < 0.01 and abs(oy - (y + dy)) < 0.01 for ox, oy, _ in boxes)

    left = 0.0 if neighbour(-w, 0) else bleed
    right = 0.0 if neighbour(w, 0) else bleed
    bottom = 0.0 if neighbour(0, -h) else bleed
    top = 0.0 if neighbour(0, h) else bleed
    return x - left, y - bottom, w + left + right, h + bottom + top


def _sheet_marks(
    canvas: Canvas,
    boxes,
    bleed: float,
    room: SheetRoom,
    width: float,
    height: float,
    settings: SheetSettings,
) -> None:
    """Crop marks at every trim line of the page's sheets, outside their bleed, never in the
    unprintable band nor below the footer's top."""
    pnp = settings.media.print_and_play
    marks = pnp.crop_marks
    start = bleed + marks.gap
    xs = sorted({round(v, 3) for x, _, w, _ in boxes for v in (x, x + w)})
    ys = sorted({round(v, 3) for _, y, _, h in boxes for v in (y, y + h)})
    left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
    edge = pnp.margin + marks.width
    low = room.footer_top + marks.gap
    canvas.saveState()
    canvas.setStrokeColor(settings.paints.full(marks.colour))
    canvas.setLineWidth(marks.width)
    for x in xs:
        canvas.line(x, top + start, x, min(top + start + marks.length, height - edge))
        canvas.line(x, bottom - start, x, max(bottom - start - marks.length, low))
    for y in ys:
        canvas.line(left - start, y, max(left - start - marks.length, edge), y)
        canvas.line(right + start, y, min(right + start + marks.length, width - edge), y)
    canvas.restoreState()


ASSEMBLY_PAGE = (
    1  # a tiled sheet's file opens with its assembly diagram; the how-to-print page says so
)


def sheet_tiling(
    sheet: SheetLayout, settings: SheetSettings, assets=None, boxes: list | None = None
) -> Tiling:
    """The fewest tiles the paper allows, each seam moved within the paper's slack off the sheet's
    text lines and the small boxes round them, then off the blocks they make (render/seams.py;
    `boxes`, where the caller has read them already); a stand-in face without frames (a size only)
    gets seams that step evenly."""
    pnp = settings.media.print_and_play
    face = sheet.faces[0]
    footer_top = pnp.footer.baseline + pnp.footer.size * 0.8
    tiling = tiling_for(
        face.width,
        face.height,
        settings.paper.width,
        settings.paper.height,
        pnp.tile_margin,
        sheet.spec.overlap,
        footer_top + pnp.crop_marks.gap,
    )
    if not isinstance(face, FaceLayout):
        return tiling
    if boxes is None:
        boxes = keep_off(face, settings.paints, settings.motifs, assets)
    read_together = blocks(boxes)
    return tiling.choose_seams(
        [(left, right) for left, _, right, _ in boxes],
        [(top, bottom) for _, top, _, bottom in boxes],
        [(left, right) for left, _, right, _ in read_together],
        [(top, bottom) for _, top, _, bottom in read_together],
    )


def _render_tiled(
    game: GameLayout, sheet: SheetLayout, settings: SheetSettings
) -> tuple[bytes, int]:
    face, assets = sheet.faces[0], game.localized.data.dir
    # the text the seams keep off, which the assembly page's labels and join detail keep clear of
    boxes = (
        keep_off(face, settings.paints, settings.motifs, assets)
        if isinstance(face, FaceLayout)
        else []
    )
    tiling = sheet_tiling(sheet, settings, assets, boxes)
    width, height = tiling.page_width, tiling.page_height
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        width,
        height,
        lang=game.lang,
        title=f"{game.title}: {sheet.id} ({settings.paper.label})",
        subject="print-and-play board, tiled",
    )
    form = _define(canvas, sheet.faces[0], "sheet", settings, game.localized.data.dir)
    tiles = tiling.tiles()
    pages = len(tiles) + 1
    assembly_page(canvas, game, sheet, tiling, form, settings, boxes)
    _footer(
        canvas, game, settings, width, ASSEMBLY_PAGE, pages, game.localized.label("assembly_title")
    )
    canvas.showPage()
    ink = settings.paints.full(settings.media.print_and_play.crop_marks.colour)
    for number, tile in enumerate(tiles, start=ASSEMBLY_PAGE + 1):
        ox, oy = tiling.origin_of(tile)
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(ox, oy, tile.width, tile.height)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(ox - tile.left, oy - tile.bottom)
        canvas.doForm(form)
        _veil(canvas, tiling.covered(tile), ink, settings)
        canvas.restoreState()
        _tile_marks(canvas, tiling, tile, ink, settings)
        _tile_name(canvas, tiling, tile, settings)
        _footer(
            canvas,
            game,
            settings,
            width,
            number,
            pages,
            game.localized.label("tile", tile=tile.label),
        )
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), pages


def _veil(canvas: Canvas, strips, ink, settings: SheetSettings) -> None:
    """Paper white (`tile_cover`) and a light hatching (the crop marks' ink and width at a third of
    that strength, at 45°, a mark's length apart on one lattice for all) over the strips of a tile
    its neighbours lie over (sheet coordinates, apart): the margin to glue under."""
    pnp = settings.media.print_and_play
    if not strips or pnp.tile_cover <= 0:
        return
    canvas.saveState()
    canvas.setFillColor(settings.paints.white())
    canvas.setFillAlpha(pnp.tile_cover)
    canvas.setStrokeColor(ink)
    canvas.setStrokeAlpha(pnp.tile_cover / 3)
    canvas.setLineWidth(pnp.crop_marks.width)
    pitch = pnp.crop_marks.length
    for left, bottom, width, height in strips:
        canvas.rect(left, bottom, width, height, stroke=0, fill=1)
        path = canvas.beginPath()  # each line x - y = k * pitch, cut to the strip
        for k in range(
            math.ceil((left - bottom - height) / pitch), int((left + width - bottom) / pitch) + 1
        ):
            c = k * pitch
            start, end = max(left, bottom + c), min(left + width, bottom + height + c)
            if start < end:
                path.moveTo(start, start - c)
                path.lineTo(end, end - c)
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


TILE_NAME_SIZES = (11.0, 9.0, 7.5)  # points: as the assembly diagram's, smaller where need be


def _tile_name(canvas: Canvas, tiling: Tiling, tile, settings: SheetSettings) -> None:
    """The tile's name (`A1`) on the pill the assembly diagram draws in its cell, in the page's
    margin by the window's top-left corner (left of it where the margin is wide enough, else above
    it, else under its bottom-left corner), never nearer the paper's edge than the margin: eight
    sheets are told apart at a glance, and the name is cut away with the margin."""
    pnp = settings.media.print_and_play
    gap = pnp.crop_marks.gap
    footer = pnp.footer
    bold = f"{footer.font}-bold" if not footer.font.endswith("-bold") else footer.font
    ox, oy = tiling.origin_of(tile)
    top, edge = oy + tile.height, pnp.margin
    for size in TILE_NAME_SIZES:
        wide, tall = pill_size(tile.label, bold, size)
        if ox - gap - wide >= edge:  # left of the window, under the corner's mark
            pill(canvas, tile.label, ox - gap - wide, top - gap - tall, bold, size, settings.paints)
            return
        # above it, right of the corner's mark (1 pt from the window, its outline 1 pt more)
        if top + 1 + tall + 1 <= tiling.page_height - edge:
            pill(canvas, tile.label, ox + gap, top + 1, bold, size, settings.paints)
            return
    # a window that fills the paper's height and width: under its bottom-left corner, left of the
    # footer
    size = TILE_NAME_SIZES[0]
    wide, tall = pill_size(tile.label, bold, size)
    if oy - 1.5 - tall - 1 >= edge:
        pill(canvas, tile.label, ox + gap, oy - 1.5 - tall, bold, size, settings.paints)


def _tile_marks(canvas: Canvas, tiling: Tiling, tile, ink, settings: SheetSettings) -> None:
    """Cut marks at the window's edges, and overlap guides: where a neighbour that lies over this
    tile (the one to its right, the one below) has its cut edge, a small triangle in this tile's
    margin points at the line. Every mark is in the margin, outside the board: none prints over the
    board's labels, and none shows once the tiles are taped (the margins are cut away or lie under
    the neighbour)."""
    pnp = settings.media.print_and_play
    marks = pnp.crop_marks
    (ox, oy), w, h = tiling.origin_of(tile), tile.width, tile.height
    edge = (
        pnp.margin + marks.width
    )  # the window's corners lie far left and right of the centred footer
    canvas.saveState()
    canvas.setStrokeColor(ink)
    canvas.setFillColor(ink)
    canvas.setLineWidth(marks.width)
    for x in (ox, ox + w):
        canvas.line(x, oy - marks.gap, x, max(oy - marks.gap - marks.length, edge))
        canvas.line(
            x,
            oy + h + marks.gap,
            x,
            min(oy + h + marks.gap + marks.length, tiling.page_height - edge),
        )
    for y in (oy, oy + h):
        canvas.line(ox - marks.gap, y, max(ox - marks.gap - marks.length, edge), y)
        canvas.line(
            ox + w + marks.gap,
            y,
            min(ox + w + marks.gap + marks.length, tiling.page_width - edge),
            y,
        )
    size = min(marks.length, 3 * 72 / 25.4)
    if (
        tile.column + 1 < tiling.columns
    ):  # the right neighbour's left edge, marked above and below the window
        x = ox + tiling.xs[tile.column + 1] - tile.left
        triangle(canvas, x, oy + h + marks.gap, 0, 1, size)
        triangle(canvas, x, oy - marks.gap, 0, -1, size)
    if (
        tile.row + 1 < tiling.rows
    ):  # the lower neighbour's top edge, marked left and right of the window
        y = oy + tiling.tops[tile.row + 1] - tile.bottom
        triangle(canvas, ox - marks.gap, y, -1, 0, size)
        triangle(canvas, ox + w + marks.gap, y, 1, 0, size)
    canvas.restoreState()


def _footer(
    canvas: Canvas,
    game: GameLayout,
    settings: SheetSettings,
    page_width: float,
    page: int,
    pages: int,
    what: str,
) -> None:
    page_footer(
        canvas,
        game,
        settings,
        page_width,
        settings.media.print_and_play.footer.baseline,
        page,
        pages,
        what,
    )


def press_pages(sheet: SheetLayout, page_order: str = "front-back") -> SheetLayout:
    """The sheet as press files take it, one page per face: each item's front and its back together
    (the two sides of one printed sheet), in the shop's `page_order` as its cards; a one-sided sheet
    as it is."""
    if not sheet.backs:
        return sheet
    pairs = (
        zip(sheet.faces, sheet.backs)
        if page_order == "front-back"
        else zip(sheet.backs, sheet.faces)
    )
    return SheetLayout(sheet.id, sheet.spec, [face for pair in pairs for face in pair])
