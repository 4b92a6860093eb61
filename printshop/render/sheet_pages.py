"""Sheets on paper: player sheets and aids centred on the page (two-sided ones with a page of
mirrored backs after each page of fronts), boards tiled over several pages with overlap, alignment
marks and an assembly diagram, and press pages with TrimBox and BleedBox.

The sheet's face is drawn once, as a Form XObject, and placed on every page that shows part of it.
"""
from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from printshop.imposition import ImpositionError, Tiling, mirrored, tiling_for
from printshop.layout import GameLayout, SheetLayout
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas
from printshop.render.sheets import SheetSettings, page_footer


def _define(canvas: Canvas, face, name: str, settings: SheetSettings, assets) -> str:
    canvas.beginForm(name, -face.bleed, -face.bleed, face.width + face.bleed, face.height + face.bleed)
    draw_face(canvas, face, settings.paints, settings.motifs, assets)
    canvas.endForm()
    return name


def render_sheet(game: GameLayout, sheet: SheetLayout, settings: SheetSettings) -> tuple[bytes, int]:
    """The sheets on `settings.paper`: tiled if the spec says so; else one or two to a page, each
    item `copies` times; two to a page go side by side on turned paper, scaled to fit, cut line between.
    A two-sided sheet's page of fronts is followed by its page of backs, each back mirrored for the
    duplex flip (`settings.flip`) and moved by `settings.back_offset`, as card backs are."""
    if sheet.spec.tiled:
        if sheet.backs:  # validate refuses it first; a tile's back would need its own mirrored tiling
            raise ImpositionError("a tiled sheet cannot have a back: print its back as a sheet of its own")
        return _render_tiled(game, sheet, settings)
    paper, first = settings.paper, sheet.faces[0]
    margin = settings.media.print_and_play.margin
    per_page = sheet.spec.per_page
    width, height = paper.width, paper.height
    landscape_face = first.width > first.height
    if (landscape_face != (width > height)) if per_page == 1 else (landscape_face == (width > height)):
        width, height = height, width  # turn the paper: a landscape sheet, or two portrait ones side by side
    across = per_page == 2 and width > height
    slot_w = (width - 2 * margin) / (2 if across else 1)
    slot_h = (height - 2 * margin) / (2 if per_page == 2 and not across else 1)
    scale = min(1.0, slot_w / first.width, slot_h / first.height) if per_page == 2 else 1.0
    if per_page == 1 and (first.width > slot_w + 0.01 or first.height > slot_h + 0.01):
        raise ImpositionError(f"the sheet ({first.width / 72 * 25.4:.0f} × {first.height / 72 * 25.4:.0f} mm) does "
                              f"not fit on {paper.label} inside the margins: make it smaller, tiled or two to a page")
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, width, height, lang=game.lang, title=f"{game.title}: {sheet.id} ({paper.label})",
                        subject="print-and-play sheets")
    forms = [_define(canvas, face, f"sheet{i}", settings, game.localized.data.dir) for i, face in enumerate(sheet.faces)]
    backs = [_define(canvas, face, f"back{i}", settings, game.localized.data.dir) for i, face in enumerate(sheet.backs)]
    placed = [index for index in range(len(forms)) for _ in range(sheet.spec.copies)]
    sides = 2 if backs else 1
    sheet_pages = -(-len(placed) // per_page)
    pages = sides * sheet_pages
    w, h = first.width * scale, first.height * scale
    for page in range(sheet_pages):
        boxes = []  # (x, y, item index) of each sheet on this page
        for slot, index in enumerate(placed[page * per_page:(page + 1) * per_page]):
            if across:
                x, y = margin + slot * slot_w + (slot_w - w) / 2, (height - h) / 2
            else:
                x, y = (width - w) / 2, (height - margin - (slot + 1) * slot_h) + (slot_h - h) / 2
            _place(canvas, forms[index], x, y, scale)
            boxes.append((x, y, index))
        if per_page == 2:
            _cut_line(canvas, width, height, across, settings)
        _footer(canvas, game, settings, width, sides * page + 1, pages,
                game.localized.label("fronts") if backs else "")
        canvas.showPage()
        if backs:  # each back behind its own front once the sheet is turned over; cut from the fronts' side
            dx, dy = settings.back_offset
            for x, y, index in boxes:
                bx, by = mirrored(width, height, x, y, w, h, settings.flip)
                _place(canvas, backs[index], bx + dx, by + dy, scale)
            _footer(canvas, game, settings, width, 2 * page + 2, pages, game.localized.label("backs"))
            canvas.showPage()
    canvas.save()
    return buffer.getvalue(), pages


def _place(canvas: Canvas, form: str, x: float, y: float, scale: float) -> None:
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    canvas.doForm(form)
    canvas.restoreState()


def _cut_line(canvas: Canvas, width: float, height: float, across: bool, settings: SheetSettings) -> None:
    """A dashed line between the two sheets of a page: cut here."""
    marks = settings.media.print_and_play.crop_marks
    canvas.saveState()
    canvas.setStrokeColor(settings.paints.fill(marks.colour))
    canvas.setLineWidth(marks.width)
    canvas.setDash(3, 3)
    if across:
        canvas.line(width / 2, marks.gap, width / 2, height - marks.gap)
    else:
        canvas.line(marks.gap, height / 2, width - marks.gap, height / 2)
    canvas.restoreState()


def sheet_tiling(sheet: SheetLayout, settings: SheetSettings) -> Tiling:
    pnp = settings.media.print_and_play
    face = sheet.faces[0]
    return tiling_for(face.width, face.height, settings.paper.width, settings.paper.height, pnp.tile_margin,
                      sheet.spec.overlap)


def _render_tiled(game: GameLayout, sheet: SheetLayout, settings: SheetSettings) -> tuple[bytes, int]:
    tiling = sheet_tiling(sheet, settings)
    width, height = tiling.page_width, tiling.page_height
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, width, height, lang=game.lang, title=f"{game.title}: {sheet.id} ({settings.paper.label})",
                        subject="print-and-play board, tiled")
    form = _define(canvas, sheet.faces[0], "sheet", settings, game.localized.data.dir)
    tiles = tiling.tiles()
    pages = len(tiles) + 1
    _assembly_page(canvas, game, sheet, tiling, form, settings)
    _footer(canvas, game, settings, width, 1, pages, game.localized.label("assembly_title"))
    canvas.showPage()
    ink = settings.paints.fill(settings.media.print_and_play.crop_marks.colour)
    for number, tile in enumerate(tiles, start=2):
        m = tiling.margin
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(m, m, tiling.window_width, tiling.window_height)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(m - tile.left, m - tile.bottom)
        canvas.doForm(form)
        canvas.restoreState()
        _tile_marks(canvas, tiling, tile, ink, settings)
        _footer(canvas, game, settings, width, number, pages, game.localized.label("tile", tile=tile.label))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), pages


def _tile_marks(canvas: Canvas, tiling: Tiling, tile, ink, settings: SheetSettings) -> None:
    """Cut marks at the window's edges (in the margin), and alignment targets in the overlaps: each
    target is drawn at the same place on the sheet on both tiles that share the overlap."""
    marks = settings.media.print_and_play.crop_marks
    m, w, h = tiling.margin, tiling.window_width, tiling.window_height
    canvas.saveState()
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(marks.width)
    for x in (m, m + w):
        canvas.line(x, m - marks.gap, x, max(m - marks.gap - marks.length, 0.5))
        canvas.line(x, m + h + marks.gap, x, min(m + h + marks.gap + marks.length, tiling.page_height - 0.5))
    for y in (m, m + h):
        canvas.line(m - marks.gap, y, max(m - marks.gap - marks.length, 0.5), y)
        canvas.line(m + w + marks.gap, y, min(m + w + marks.gap + marks.length, tiling.page_width - 0.5), y)
    size = tiling.overlap * 0.35
    canvas.setLineWidth(max(marks.width, 0.5))
    for x, y in _targets(tiling, tile):
        px, py = m + x - tile.left, m + y - tile.bottom
        canvas.circle(px, py, size * 0.6, stroke=1, fill=0)
        canvas.line(px - size, py, px + size, py)
        canvas.line(px, py - size, px, py + size)
    canvas.restoreState()


def _targets(tiling: Tiling, tile) -> list[tuple[float, float]]:
    """Alignment targets (sheet coordinates) in the overlaps this tile shares with its neighbours."""
    points = []
    half = tiling.overlap / 2
    columns = [c * tiling.step_x + tiling.window_width - half for c in range(tiling.columns - 1)]
    rows = [tiling.sheet_height - tiling.window_height - r * tiling.step_y + half for r in range(tiling.rows - 1)]
    inside = lambda x, y: (tile.left <= x <= tile.left + tiling.window_width  # noqa: E731
                           and tile.bottom <= y <= tile.bottom + tiling.window_height)
    for x in columns:  # vertical overlaps: three targets down each
        for fraction in (0.2, 0.5, 0.8):
            y = tile.bottom + tiling.window_height * fraction
            if inside(x, y):
                points.append((x, y))
    for y in rows:  # horizontal overlaps: three targets across each
        for fraction in (0.2, 0.5, 0.8):
            x = tile.left + tiling.window_width * fraction
            if inside(x, y):
                points.append((x, y))
    return points


def _assembly_page(canvas: Canvas, game: GameLayout, sheet: SheetLayout, tiling: Tiling, form: str,
                   settings: SheetSettings) -> None:
    """The whole sheet, scaled to the page, with each tile's window outlined and named."""
    footer = settings.media.print_and_play.footer
    m = tiling.margin
    text_height = footer.size * 8
    scale = min((tiling.page_width - 2 * m) / tiling.sheet_width,
                (tiling.page_height - 2 * m - text_height) / tiling.sheet_height)
    x0 = (tiling.page_width - tiling.sheet_width * scale) / 2
    y0 = m
    canvas.saveState()
    canvas.translate(x0, y0)
    canvas.scale(scale, scale)
    canvas.doForm(form)
    clip = canvas.beginPath()  # windows of edge tiles reach past the sheet: show only what is on it
    clip.rect(0, 0, tiling.sheet_width, tiling.sheet_height)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setStrokeColor(settings.paints.fill("ink"))
    canvas.setLineWidth(0.6 / scale)
    canvas.setDash(4 / scale, 3 / scale)
    canvas.setFont(footer.font, 10 / scale)
    for tile in tiling.tiles():
        canvas.rect(tile.left, tile.bottom, tiling.window_width, tiling.window_height, stroke=1, fill=0)
        canvas.setFillColor(settings.paints.text("ink"))
        canvas.drawString(tile.left + 4 / scale, tile.bottom + tiling.window_height - 14 / scale, tile.label)
    canvas.restoreState()
    canvas.saveState()
    canvas.setFont(footer.font, footer.size * 1.6)
    canvas.setFillColor(settings.paints.text("ink"))
    text = canvas.beginText(m, tiling.page_height - m - footer.size * 1.6)
    for line in game.localized.label("assembly").split("\n"):
        text.textLine(line)
    canvas.drawText(text)
    canvas.restoreState()


def _footer(canvas: Canvas, game: GameLayout, settings: SheetSettings, page_width: float, page: int, pages: int,
            what: str) -> None:
    page_footer(canvas, game, settings, page_width, settings.media.print_and_play.footer.baseline, page, pages, what)


def press_pages(sheet: SheetLayout, page_order: str = "front-back") -> SheetLayout:
    """The sheet as press files take it, one page per face: each item's front and its back together (the
    two sides of one printed sheet), in the shop's `page_order` as its cards; a one-sided sheet as it is."""
    if not sheet.backs:
        return sheet
    pairs = zip(sheet.faces, sheet.backs) if page_order == "front-back" else zip(sheet.backs, sheet.faces)
    return SheetLayout(sheet.id, sheet.spec, [face for pair in pairs for face in pair])
