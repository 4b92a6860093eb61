"""A tiled sheet's assembly page: the instructions, the whole board scaled to the page and divided
into the part each tile shows once assembled, and one join enlarged; with the two drawing helpers
the tile pages share (a form placed, scaled and clipped; the alignment triangle).
"""

from __future__ import annotations

import re

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printshop.layout.imposition import Tiling
from printshop.layout.plan import GameLayout, SheetLayout
from printshop.render.sheets import SheetSettings


def place(
    canvas: Canvas,
    form: str,
    x: float,
    y: float,
    scale: float,
    clip: tuple[float, float, float, float] | None = None,
) -> None:
    """The form `form` at (x, y), `scale` times its size, clipped to `clip` if given."""
    canvas.saveState()
    if clip is not None:
        path = canvas.beginPath()
        path.rect(*clip)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    canvas.doForm(form)
    canvas.restoreState()


def triangle(canvas: Canvas, x: float, y: float, dx: int, dy: int, size: float) -> None:
    """A filled triangle with its tip at (x, y), pointing back against (dx, dy): at the window's
    edge."""
    path = canvas.beginPath()
    path.moveTo(x, y)
    path.lineTo(x + dx * size - dy * size / 2, y + dy * size - dx * size / 2)
    path.lineTo(x + dx * size + dy * size / 2, y + dy * size + dx * size / 2)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def assembly_page(
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
    place(
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
    place(canvas, form, x, y, zoom, (left, base, *shown))
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
        triangle(canvas, edge, top + marks.gap, 0, 1, size)
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
        triangle(canvas, left - marks.gap, edge, -1, 0, size)
        canvas.setFillColor(settings.paints.text("ink"))
        canvas.setFont(bold, label_size)
        canvas.drawRightString(left - marks.gap - size * 1.4, edge + label_size * 0.6, "A1")
        canvas.drawRightString(left - marks.gap - size * 1.4, edge - label_size * 1.2, "B1")
    canvas.restoreState()


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
