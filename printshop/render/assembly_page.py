"""A tiled sheet's assembly page: the instructions, the whole board scaled to the page and divided
into the part each tile shows once assembled (drawn from the tiling's own cut edges, with a note
where the seams' places make the parts unequal), each part named in a corner where its name hides
no text, and one join enlarged, cropped where its frame cuts no text nor box; with the two drawing
helpers the tile pages share (a form placed, scaled and clipped; the alignment triangle).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printshop.layout.plan import FaceLayout, GameLayout, SheetLayout
from printshop.layout.tiling import Tiling
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


Rect = tuple[float, float, float, float]  # left, bottom, right, top: sheet points from bottom-left

_MM = 72 / 25.4
_PAD = 1.5 * _MM  # the room a chip or the detail's frame keeps from what it keeps clear of
_DETAIL_LEAST = 12 * _MM  # the least height of a join's detail, on paper
_UNEVEN = 0.05  # parts differ visibly where a seam lies this share of a step off the even one


def assembly_page(
    canvas: Canvas,
    game: GameLayout,
    sheet: SheetLayout,
    tiling: Tiling,
    form: str,
    settings: SheetSettings,
    boxes: Sequence[tuple[float, float, float, float]] = (),
) -> None:
    """The instructions (a heading, then numbered steps, where the label `assembly` holds them as
    paragraphs), then, right under them, the whole sheet scaled to the page, divided into the part
    of the board each tile shows once assembled (the cells do not overlap; drawn from the tiling's
    cut edges, as the tiles print), with row letters at the left and column numbers above, outside
    the board; each cell named as its tile's footer names it on a white pill in the corner of the
    cell where it covers no text of `boxes` (the text lines the seams keep off, from the top-left,
    render/seams.py) and the least of the board's small art. Where the seams' places make the parts
    unequal, the label `assembly_scale` under the diagram says it is to scale and why. Where the
    diagram leaves a band of the page free (a wide board on an upright page), one join is shown
    below it enlarged (`_join_detail`), captioned by the label `assembly_detail`."""
    pnp = settings.media.print_and_play
    footer = pnp.footer
    m = pnp.tile_margin
    width = tiling.page_width - 2 * m
    size = footer.size * 1.6
    bold = f"{footer.font}-bold" if not footer.font.endswith("-bold") else footer.font
    italic = f"{footer.font.removesuffix('-bold')}-italic"
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
    small = size * 0.9  # the note under the diagram and the detail's caption
    note = (
        _wrapped(game.localized.label("assembly_scale"), italic, small, width - gutter)
        if _uneven(tiling)
        else []
    )
    note_height = (small * 0.8 + len(note) * small * 1.25) if note else 0.0
    scale = min(
        (width - gutter) / tiling.sheet_width,
        (tiling.page_height - m - bottom - text_height - gutter - note_height)
        / tiling.sheet_height,
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
    texts, art = _board_things(sheet.faces[0], tiling, boxes)
    _diagram(canvas, tiling, settings, (x0, y0, scale), bold, label_size, texts, art)
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
    # the note, centred under the diagram it is about
    canvas.setFont(italic, small)
    centre = x0 + tiling.sheet_width * scale / 2
    for index, line in enumerate(note):
        canvas.drawCentredString(centre, y0 - small * (0.8 + 1.25 * index) - small, line)
    canvas.restoreState()
    top = y0 - note_height  # the free band's top
    # the tiles' names ("tile A2") never broken across the caption's lines
    over, under = (
        game.localized.label("tile", tile=name).replace(" ", "\u00a0")
        for name in (("A2", "A1") if tiling.columns > 1 else ("B1", "A1"))
    )
    caption = _wrapped(
        game.localized.label("assembly_detail", over=over, under=under),
        italic,
        small,
        tiling.page_width * 0.62,
    )
    caption_height = len(caption) * small * 1.25 + small * 0.6
    room = top - bottom - label_size * 2.4 - caption_height
    strip = pnp.crop_marks.gap + pnp.crop_marks.length  # A1's margin, beside the detail's frame
    if room - strip >= _DETAIL_LEAST and (tiling.columns > 1 or tiling.rows > 1):
        zoom = min(1.0, 2 * scale)
        base = _join_detail(
            canvas, tiling, form, settings, (bold, label_size), zoom, top, room, (texts, art)
        )
        canvas.saveState()
        canvas.setFillColor(settings.paints.text("ink"))
        canvas.setFont(italic, small)
        for index, line in enumerate(caption):
            canvas.drawCentredString(
                tiling.page_width / 2, base - small * (0.6 + 1.25 * index) - small, line
            )
        canvas.restoreState()


def _uneven(tiling: Tiling) -> bool:
    """Whether the seams' places (moved off the board's text) make the parts the tiles show
    visibly unequal: a seam `_UNEVEN` of a step or more off where even steps put it."""
    even = replace(tiling, cuts_x=(), cuts_y=())
    across = [
        (abs(a - b), tiling.sheet_width / tiling.columns)
        for a, b in zip(tiling.xs, even.xs, strict=True)
    ]
    down = [
        (abs(a - b), tiling.sheet_height / tiling.rows)
        for a, b in zip(tiling.tops, even.tops, strict=True)
    ]
    return any(off >= _UNEVEN * step for off, step in across + down)


def _board_things(face, tiling: Tiling, boxes) -> tuple[list[Rect], list[Rect]]:
    """The board's text lines (`boxes`, from its top-left) and its art (each rect, circle, motif
    or image drawn, smaller than half the board each way: the larger ones are its grounds and
    bands; and each rule, a shape as thin as twice `_PAD`), both as Rects within the trim."""
    w, h = tiling.sheet_width, tiling.sheet_height

    def rect(left: float, top: float, right: float, low: float) -> Rect:
        return (max(left, 0.0), max(h - low, 0.0), min(right, w), min(h - top, h))

    texts = [rect(*box) for box in boxes]
    art = []
    for shape in face.face.shapes.values() if isinstance(face, FaceLayout) else ():
        drawn = shape.fill is not None or (shape.stroke is not None and shape.stroke_width > 0)
        if shape.kind == "circle" and drawn:
            r = shape.radius
            outline = (shape.x - r, shape.y - r, shape.x + r, shape.y + r)
        elif shape.kind in ("motif", "image") or (shape.kind == "rect" and drawn):
            outline = (shape.x, shape.y, shape.x + shape.width, shape.y + shape.height)
        else:
            continue
        wide, tall = outline[2] - outline[0], outline[3] - outline[1]
        if (wide <= w / 2 and tall <= h / 2) or min(wide, tall) <= 2 * _PAD:
            clipped = rect(*outline)
            if clipped[0] < clipped[2] and clipped[1] < clipped[3]:
                art.append(clipped)
    return texts, art


def _covered(rect: Rect, things: list[Rect]) -> float:
    """How much of `things`, each grown by `_PAD`, `rect` covers (their overlaps summed)."""
    area = 0.0
    for left, low, right, high in things:
        across = min(rect[2], right + _PAD) - max(rect[0], left - _PAD)
        down = min(rect[3], high + _PAD) - max(rect[1], low - _PAD)
        if across > 0 and down > 0:
            area += across * down
    return area


def _diagram(
    canvas: Canvas,
    tiling: Tiling,
    settings: SheetSettings,
    at: tuple[float, float, float],
    bold: str,
    label_size: float,
    texts: list[Rect],
    art: list[Rect],
) -> None:
    """The seams over the scaled board placed at `at` (x, y, scale), the cells' names on their
    pills, the column numbers above and the row letters at the left."""
    x0, y0, scale = at
    # each tile shows, once assembled, from its own cut edges to its right and lower neighbours' cut
    # edges
    xs, tops = tiling.xs, tiling.tops
    canvas.saveState()
    for colour, line_width in (
        ("white", 1.8),
        ("ink", 0.6),
    ):  # a white halo keeps the lines clear on the art
        canvas.setStrokeColor(settings.paints.full(colour))
        canvas.setLineWidth(line_width)
        for x in xs:
            canvas.line(x0 + x * scale, y0, x0 + x * scale, y0 + tiling.sheet_height * scale)
        for y in tops:
            canvas.line(x0, y0 + y * scale, x0 + tiling.sheet_width * scale, y0 + y * scale)
    # each cell named as its tile's footer names it, on a white pill in a corner of the cell
    chip = label_size * 0.8
    tall = chip * 1.6
    inset = 3.0  # points between the pill and the cell's edges
    canvas.setFont(bold, chip)
    for row in range(tiling.rows):
        for column in range(tiling.columns):
            name = f"{chr(ord('A') + row)}{column + 1}"
            wide = stringWidth(name, bold, chip) + chip * 1.4
            cell = (xs[column], tops[row + 1], xs[column + 1], tops[row])
            left, low, _, _ = _chip_corner(
                cell, (wide / scale, tall / scale), inset / scale, texts, art
            )
            pill(canvas, name, x0 + left * scale, y0 + low * scale, bold, chip, settings.paints)
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


def pill_size(name: str, font: str, size: float) -> tuple[float, float]:
    """(width, height) of a tile's name on its pill, in points."""
    return stringWidth(name, font, size) + size * 1.4, size * 1.6


def pill(canvas, name: str, x: float, y: float, font: str, size: float, paints) -> None:
    """A tile's name (`A1`) on a white pill outlined in ink, its lower-left corner at (x, y): the
    assembly diagram's cells and each tile's page name their tile the same way."""
    wide, tall = pill_size(name, font, size)
    canvas.saveState()
    canvas.setFillColor(paints.fill("white"))
    canvas.setStrokeColor(paints.full("ink"))
    canvas.setLineWidth(0.6)
    canvas.roundRect(x, y, wide, tall, tall / 2, 1, 1)
    canvas.setFillColor(paints.text("ink"))
    canvas.setFont(font, size)
    canvas.drawCentredString(x + wide / 2, y + tall / 2 - size * 0.35, name)
    canvas.restoreState()


def _chip_corner(
    cell: Rect, size: tuple[float, float], inset: float, texts: list[Rect], art: list[Rect]
) -> Rect:
    """Where a cell's name goes: the corner of `cell` (top-left, top-right, bottom-left,
    bottom-right, the first of the best) where a pill of `size`, `inset` from the cell's edges,
    covers the least text, then the least art."""
    left, low, right, high = cell
    wide, tall = size
    corners = [
        (left + inset, high - inset - tall),
        (right - inset - wide, high - inset - tall),
        (left + inset, low + inset),
        (right - inset - wide, low + inset),
    ]
    pills = [(x, y, x + wide, y + tall) for x, y in corners]
    return min(pills, key=lambda pill: (_covered(pill, texts), _covered(pill, art)))


def _detail_crop(
    tiling: Tiling, across: bool, size: tuple[float, float], least: float, things
) -> Rect:
    """The part of the board a join's detail shows, at most `size` (sheet points): across (the seam
    between columns 1 and 2), from the board's top edge down, the seam in the middle; else (one
    column) from its left edge, the seam between rows A and B in the middle. Each edge of the frame
    but that one moves towards it until it cuts no text line (`things`' texts) nor small art nor
    rule (its art; the sides let art running across the seam run on), `_PAD` clear, but no nearer
    the seam than `least`; the frame then cuts what it cannot help."""
    texts, art = things
    w, h = tiling.sheet_width, tiling.sheet_height
    wide, tall = size
    if across:
        seam = tiling.xs[1]
        crop = [max(0.0, seam - wide / 2), max(0.0, h - tall), min(w, seam + wide / 2), h]
    else:
        seam = tiling.tops[1]
        crop = [0.0, max(0.0, seam - tall / 2), min(w, wide), min(h, seam + tall / 2)]
    axis = 0 if across else 1  # the seam's position is along x (across) or y
    kept = texts + art
    for _ in range(8):
        before = list(crop)
        if across:
            far, sides = (1, 3, 0, 2), ((0, seam - least, True), (2, seam + least, False))
        else:
            far, sides = (2, 0, 1, 3), ((1, seam - least, True), (3, seam + least, False))
        # the far edge (the bottom, or the right), towards the near one
        edge, near, other_low, other_high = far
        spans = [
            (thing[edge % 2], thing[edge % 2 + 2])
            for thing in kept
            if thing[other_low] < crop[other_high] and thing[other_high] > crop[other_low]
        ]
        limit = crop[near] + (least if near < edge else -least)
        crop[edge] = _clear(crop[edge], limit, spans, near > edge)
        # the sides, towards the seam; what runs across the seam the frame cannot leave out
        for edge, limit, rising in sides:
            low, high = (1, 3) if across else (0, 2)
            spans = [
                (thing[edge % 2], thing[edge % 2 + 2])
                for thing in kept
                if thing[low] < crop[high]
                and thing[high] > crop[low]
                and not (thing[axis] < seam < thing[axis + 2])
            ]
            crop[edge] = _clear(crop[edge], limit, spans, rising)
        if crop == before:
            break
    return (crop[0], crop[1], crop[2], crop[3])


def _clear(edge: float, limit: float, spans: list[tuple[float, float]], rising: bool) -> float:
    """`edge` moved up (`rising`) or down towards `limit` until it lies in none of `spans` (each
    grown by `_PAD`), or to `limit` if it must go further; as it is if it is at `limit` or past."""
    if (edge >= limit) if rising else (edge <= limit):
        return edge
    moved = True
    while moved:
        moved = False
        for low, high in spans:
            if low - _PAD < edge < high + _PAD:
                edge = high + _PAD if rising else low - _PAD
                moved = True
        if (edge >= limit) if rising else (edge <= limit):
            return limit
    return edge


def _join_detail(
    canvas: Canvas,
    tiling: Tiling,
    form: str,
    settings: SheetSettings,
    label: tuple[str, float],
    zoom: float,
    top: float,
    room: float,
    things,
) -> float:
    """The first join (tile A2 laid over A1, or B1 over A1 on a board of one column) enlarged
    `zoom` times (twice the diagram's scale, at most actual size), under `top`, framed: the board's
    own picture running on across the cut edge, cropped where the frame cuts no text nor small art
    (`_detail_crop`), the edge drawn as the tiles meet, the triangle in A1's kept margin that
    points at where the next tile's edge goes, and the two tiles' names. Its frame's bottom, where
    the caption goes."""
    bold, label_size = label
    marks = settings.media.print_and_play.crop_marks
    ink = settings.paints.fill(marks.colour)
    across = tiling.columns > 1  # the seam runs up and down between columns 1 and 2
    strip = marks.gap + marks.length  # A1's margin beside the board, as printed
    size = (min(tiling.page_width * 0.62, tiling.sheet_width * zoom) / zoom, (room - strip) / zoom)
    least = 20 * _MM / zoom  # the least the detail shows on each side of the seam, on paper
    clip = _detail_crop(tiling, across, size, least, things)
    shown = ((clip[2] - clip[0]) * zoom, (clip[3] - clip[1]) * zoom)
    left = (tiling.page_width - shown[0]) / 2
    high = top - label_size * 1.2 - (strip if across else 0.0)  # the frame's top
    base = high - shown[1]
    x, y = left - clip[0] * zoom, base - clip[1] * zoom  # where the sheet's origin falls
    place(canvas, form, x, y, zoom, (left, base, *shown))
    canvas.saveState()
    canvas.setStrokeColor(settings.paints.full("ink"))
    canvas.setLineWidth(0.6)
    canvas.rect(left, base, *shown, stroke=1, fill=0)
    canvas.restoreState()
    seam = (tiling.xs[1] if across else tiling.tops[1]) * zoom
    canvas.saveState()
    canvas.setLineWidth(marks.width)
    canvas.setStrokeColor(ink)
    canvas.setFillColor(ink)
    size_mark = min(marks.length, 3 * _MM)
    if across:
        edge = x + seam
        for colour, line_width in (("white", 2.4), ("ink", 0.8)):
            canvas.setStrokeColor(settings.paints.full(colour))
            canvas.setLineWidth(line_width)
            canvas.line(edge, base, edge, high)
        # A1's kept top margin: its cut mark at its own left edge is off this view; the triangle
        # over the seam says where A2's cut edge lies
        triangle(canvas, edge, high + marks.gap, 0, 1, size_mark)
        names = (("A1", edge - label_size * 2.2), ("A2", edge + label_size * 2.2))
        canvas.setFillColor(settings.paints.text("ink"))
        canvas.setFont(bold, label_size)
        for name, centre in names:
            canvas.drawCentredString(centre, high + marks.gap, name)
    else:
        edge = y + seam
        for colour, line_width in (("white", 2.4), ("ink", 0.8)):
            canvas.setStrokeColor(settings.paints.full(colour))
            canvas.setLineWidth(line_width)
            canvas.line(left, edge, left + shown[0], edge)
        triangle(canvas, left - marks.gap, edge, -1, 0, size_mark)
        canvas.setFillColor(settings.paints.text("ink"))
        canvas.setFont(bold, label_size)
        canvas.drawRightString(left - marks.gap - size_mark * 1.4, edge + label_size * 0.6, "A1")
        canvas.drawRightString(left - marks.gap - size_mark * 1.4, edge - label_size * 1.2, "B1")
    canvas.restoreState()
    return base


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
