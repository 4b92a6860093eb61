"""Sheets on paper: player sheets and aids centred on the page (two-sided ones with a page of
mirrored backs after each page of fronts), boards tiled over several pages with overlap, alignment
marks and an assembly diagram, and press pages with TrimBox and BleedBox.

The sheet's face is drawn once, as a Form XObject, and placed on every page that shows part of it.
"""

from __future__ import annotations

import io
import math
import re

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printshop.layout.imposition import (
    ImpositionError,
    SheetRoom,
    Tiling,
    mirrored,
    sheet_placement,
    sheet_too_big,
    tiling_for,
)
from printshop.layout.plan import FaceLayout, GameLayout, SheetLayout
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
        _place(
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
    canvas.setStrokeColor(settings.paints.fill(marks.colour))
    canvas.setLineWidth(marks.width)
    for x in xs:
        canvas.line(x, top + start, x, min(top + start + marks.length, height - edge))
        canvas.line(x, bottom - start, x, max(bottom - start - marks.length, low))
    for y in ys:
        canvas.line(left - start, y, max(left - start - marks.length, edge), y)
        canvas.line(right + start, y, min(right + start + marks.length, width - edge), y)
    canvas.restoreState()


def _place(
    canvas: Canvas,
    form: str,
    x: float,
    y: float,
    scale: float,
    clip: tuple[float, float, float, float] | None = None,
) -> None:
    canvas.saveState()
    if clip is not None:
        path = canvas.beginPath()
        path.rect(*clip)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    canvas.doForm(form)
    canvas.restoreState()


ASSEMBLY_PAGE = (
    1  # a tiled sheet's file opens with its assembly diagram; the how-to-print page says so
)


def sheet_tiling(sheet: SheetLayout, settings: SheetSettings, assets=None) -> Tiling:
    """The fewest tiles the paper allows, each seam moved within the paper's slack off the sheet's
    text lines and the small boxes round them, then off the blocks they make (render/seams.py);
    a stand-in face without frames (a
    size only) gets seams that step evenly."""
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
    tiling = sheet_tiling(sheet, settings, game.localized.data.dir)
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
    _assembly_page(canvas, game, sheet, tiling, form, settings)
    _footer(
        canvas, game, settings, width, ASSEMBLY_PAGE, pages, game.localized.label("assembly_title")
    )
    canvas.showPage()
    ink = settings.paints.fill(settings.media.print_and_play.crop_marks.colour)
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
        _triangle(canvas, x, oy + h + marks.gap, 0, 1, size)
        _triangle(canvas, x, oy - marks.gap, 0, -1, size)
    if (
        tile.row + 1 < tiling.rows
    ):  # the lower neighbour's top edge, marked left and right of the window
        y = oy + tiling.tops[tile.row + 1] - tile.bottom
        _triangle(canvas, ox - marks.gap, y, -1, 0, size)
        _triangle(canvas, ox + w + marks.gap, y, 1, 0, size)
    canvas.restoreState()


def _triangle(canvas: Canvas, x: float, y: float, dx: int, dy: int, size: float) -> None:
    """A filled triangle with its tip at (x, y), pointing back against (dx, dy): at the window's
    edge."""
    path = canvas.beginPath()
    path.moveTo(x, y)
    path.lineTo(x + dx * size - dy * size / 2, y + dy * size - dx * size / 2)
    path.lineTo(x + dx * size + dy * size / 2, y + dy * size + dx * size / 2)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _assembly_page(
    canvas: Canvas,
    game: GameLayout,
    sheet: SheetLayout,
    tiling: Tiling,
    form: str,
    settings: SheetSettings,
) -> None:
    """The instructions (a heading, then numbered steps, where the label `assembly` holds them as
    paragraphs), then, right under them, the whole sheet scaled to the page, divided into the part
    of the board each tile shows once assembled (the cells do not overlap), with row letters at the
    left and column numbers above, outside the board, where they hide no game text. Where the
    diagram leaves a band of the page free (a wide board on an upright page), one join is shown
    below it at actual size (`_join_detail`): two tiles laid together, their names, the triangle
    and the cut marks as the tiles print them."""
    pnp = settings.media.print_and_play
    footer = pnp.footer
    m = pnp.tile_margin
    width = tiling.page_width - 2 * m
    size = footer.size * 1.6
    bold = f"{footer.font}-bold" if not footer.font.endswith("-bold") else footer.font
    paragraphs = [p for p in game.localized.label("assembly").split("\n\n") if p.strip()]
    heading = paragraphs.pop(0) if len(paragraphs) > 1 else None
    heading_size = size * 1.5
    number_width = stringWidth("8.", bold, size) + size * 0.6 if len(paragraphs) > 1 else 0.0
    blocks = [
        _wrapped(paragraph, footer.font, size, width - number_width) for paragraph in paragraphs
    ]
    leading = size * 1.25
    text_height = (heading_size * 1.6 if heading else 0.0) + sum(
        len(lines) * leading + size * 0.45 for lines in blocks
    )
    text_height += size * 0.8
    label_size = 11.0
    gutter = label_size * 1.8  # the row letters' column and the column numbers' row
    bottom = footer.baseline + footer.size * 0.8 + pnp.crop_marks.gap * 2
    scale = min(
        (width - gutter) / tiling.sheet_width,
        (tiling.page_height - m - bottom - text_height - gutter) / tiling.sheet_height,
    )
    x0 = (tiling.page_width - tiling.sheet_width * scale + gutter) / 2
    # the diagram right under the instructions, which it illustrates
    y0 = tiling.page_height - m - text_height - gutter - tiling.sheet_height * scale
    # (the face's bleed stays off the page's margins)
    _place(
        canvas,
        form,
        x0,
        y0,
        scale,
        (x0, y0, tiling.sheet_width * scale, tiling.sheet_height * scale),
    )
    # each tile shows, once assembled, from its own cut edges to its right and lower neighbours' cut
    # edges
    xs, tops = tiling.xs, tiling.tops
    canvas.saveState()
    for colour, line_width in (
        ("white", 1.8),
        ("ink", 0.6),
    ):  # a white halo keeps the lines clear on the art
        canvas.setStrokeColor(settings.paints.fill(colour))
        canvas.setLineWidth(line_width)
        for x in xs:
            canvas.line(x0 + x * scale, y0, x0 + x * scale, y0 + tiling.sheet_height * scale)
        for y in tops:
            canvas.line(x0, y0 + y * scale, x0 + tiling.sheet_width * scale, y0 + y * scale)
    # each cell named as its tile's footer names it, on a white chip at its centre
    chip = label_size * 0.8
    canvas.setFont(bold, chip)
    for row in range(tiling.rows):
        for column in range(tiling.columns):
            name = f"{chr(ord('A') + row)}{column + 1}"
            cx = x0 + (xs[column] + xs[column + 1]) / 2 * scale
            cy = y0 + (tops[row] + tops[row + 1]) / 2 * scale
            half = stringWidth(name, bold, chip) / 2 + chip * 0.5
            canvas.setFillColor(settings.paints.fill("white"))
            canvas.setStrokeColor(settings.paints.fill("ink"))
            canvas.setLineWidth(0.6)
            canvas.roundRect(cx - half, cy - chip * 0.8, 2 * half, chip * 1.6, chip * 0.4, 1, 1)
            canvas.setFillColor(settings.paints.text("ink"))
            canvas.drawCentredString(cx, cy - chip * 0.35, name)
    canvas.setFillColor(settings.paints.text("ink"))
    canvas.setFont(bold, label_size)
    top = y0 + tiling.sheet_height * scale
    for column in range(tiling.columns):
        centre = x0 + (xs[column] + xs[column + 1]) / 2 * scale
        canvas.drawCentredString(centre, top + label_size * 0.6, str(column + 1))
    for row in range(tiling.rows):
        middle = y0 + (tops[row] + tops[row + 1]) / 2 * scale
        canvas.drawCentredString(
            x0 - label_size * 0.9, middle - label_size * 0.35, chr(ord("A") + row)
        )
    canvas.restoreState()
    canvas.saveState()
    canvas.setFillColor(settings.paints.text("ink"))
    y = tiling.page_height - m
    if heading:
        y -= heading_size
        canvas.setFont(bold, heading_size)
        canvas.drawString(m, y, heading)
        y -= heading_size * 0.6
    for number, lines in enumerate(blocks, start=1):
        if number_width:
            canvas.setFont(bold, size)
            canvas.drawRightString(m + number_width - size * 0.6, y - size, f"{number}.")
        canvas.setFont(footer.font, size)
        for line in lines:
            y -= leading
            canvas.drawString(m + number_width, y + leading - size, line)
        y -= size * 0.45
    canvas.restoreState()
    room = y0 - bottom - label_size * 2.4
    if room >= _DETAIL_LEAST and (tiling.columns > 1 or tiling.rows > 1):
        zoom = min(1.0, 2 * scale)
        _join_detail(canvas, tiling, form, settings, bold, label_size, zoom, bottom, room)


_DETAIL_LEAST = 40 * 72 / 25.4  # the least height a join's detail is drawn in


def _join_detail(
    canvas: Canvas,
    tiling: Tiling,
    form: str,
    settings: SheetSettings,
    bold: str,
    label_size: float,
    zoom: float,
    bottom: float,
    room: float,
) -> None:
    """The first join (tile A2 laid over A1, or B1 over A1 on a board of one column) enlarged
    `zoom` times (twice the diagram's scale, at most actual size), in the page's free band, framed:
    the board's own picture running on across the cut edge, the edge drawn as the tiles meet, the
    triangle in A1's kept margin that points at where A2's edge goes, and the two tiles' names."""
    marks = settings.media.print_and_play.crop_marks
    ink = settings.paints.fill(settings.media.print_and_play.crop_marks.colour)
    across = tiling.columns > 1  # the seam runs up and down between columns 1 and 2
    strip = marks.gap + marks.length  # A1's margin above the board, as printed
    height = (room - strip) / zoom  # in sheet units
    width = min(tiling.page_width * 0.62, tiling.sheet_width * zoom) / zoom
    seam = tiling.xs[1] if across else tiling.tops[1]
    if across:  # the region of the board shown: the seam in the middle, from the board's top
        clip = (
            max(0.0, seam - width / 2),
            max(0.0, tiling.sheet_height - height),
            min(width, tiling.sheet_width),
            min(height, tiling.sheet_height),
        )
    else:
        clip = (0.0, max(0.0, seam - height / 2), min(width, tiling.sheet_width), height)
    shown = (clip[2] * zoom, clip[3] * zoom)
    left = (tiling.page_width - shown[0]) / 2
    base = bottom + label_size * 1.2
    x, y = left - clip[0] * zoom, base - clip[1] * zoom  # where the sheet's origin falls
    _place(canvas, form, x, y, zoom, (left, base, *shown))
    canvas.saveState()
    canvas.setStrokeColor(settings.paints.fill("ink"))
    canvas.setLineWidth(0.6)
    canvas.rect(left, base, *shown, stroke=1, fill=0)
    canvas.restoreState()
    seam *= zoom
    canvas.saveState()
    canvas.setLineWidth(marks.width)
    canvas.setStrokeColor(ink)
    canvas.setFillColor(ink)
    top = base + shown[1]
    size = min(marks.length, 3 * 72 / 25.4)
    if across:
        edge = x + seam
        for colour, line_width in (("white", 2.4), ("ink", 0.8)):
            canvas.setStrokeColor(settings.paints.fill(colour))
            canvas.setLineWidth(line_width)
            canvas.line(edge, base, edge, top)
        # A1's kept top margin: its cut mark at its own left edge is off this view; the triangle
        # over the seam says where A2's cut edge lies
        _triangle(canvas, edge, top + marks.gap, 0, 1, size)
        names = (("A1", edge - label_size * 2.2), ("A2", edge + label_size * 2.2))
        canvas.setFillColor(settings.paints.text("ink"))
        canvas.setFont(bold, label_size)
        for name, centre in names:
            canvas.drawCentredString(centre, top + marks.gap, name)
    else:
        edge = y + seam
        for colour, line_width in (("white", 2.4), ("ink", 0.8)):
            canvas.setStrokeColor(settings.paints.fill(colour))
            canvas.setLineWidth(line_width)
            canvas.line(left, edge, left + shown[0], edge)
        _triangle(canvas, left - marks.gap, edge, -1, 0, size)
        canvas.setFillColor(settings.paints.text("ink"))
        canvas.setFont(bold, label_size)
        canvas.drawRightString(left - marks.gap - size * 1.4, edge + label_size * 0.6, "A1")
        canvas.drawRightString(left - marks.gap - size * 1.4, edge - label_size * 1.2, "B1")
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


_BREAKS = re.compile(
    r"[ \t\r\n]+"
)  # where a line may break: never at a no-break space (U+00A0, U+202F)


def _wrapped(text: str, font: str, size: float, width: float) -> list[str]:
    """`text` broken into lines `width` wide at its plain spaces. ReportLab's simpleSplit breaks at
    every space Python knows, the no-break ones too, and joins with plain ones: French "Assemblage :
    imprimez" lost the narrow no-break space its typography puts before the colon, which could then
    begin a line."""
    lines: list[str] = []
    for word in _BREAKS.split(text.strip()):
        if lines and stringWidth(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines
