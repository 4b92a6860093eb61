"""Where a tiled sheet's seams must not go: the boxes of its text lines, each grown to the small box
it sits in (a chip, a banner, a numbered square), read from the sheet's face drawn alone into a PDF
in memory (pypdfium2's text runs, no rasterising); and the blocks those lines make, read together (a
heading and the text under it, a table's rows, a stack of chips), which a seam should not part.
`Tiling.choose_seams` (layout/tiling.py) moves the seams off them."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from reportlab.pdfgen.canvas import Canvas

from printshop.layout.plan import FaceLayout
from printshop.render.faces import draw_face

# a box holds a line as its own (the seam keeps off the whole box) when it is at most this many
# times the line's height tall, and wider than the line by at most that many heights: a chip, a
# box round a number; not a banner much longer than its word, a panel or a card slot
_OWN_BOX = 3.0

# a line reads on into the one under it when the gap between them is under this many times its own
# height: a text's lines, a heading and its first line, a table's rows; not a section's space
_READ_ON = 1.5

Box = tuple[float, float, float, float]  # left, top, right, bottom, in points from the top-left


def text_lines(face: FaceLayout, paints, motifs, assets) -> list[Box]:
    """The boxes of the face's text runs as it prints (a line, or a table cell's line), from the
    trim's top-left corner."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(face.width, face.height), invariant=1)
    draw_face(canvas, face, paints, motifs, assets)
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        text = document[0].get_textpage()
        boxes = []
        for index in range(text.count_rects()):
            left, bottom, right, top = text.get_rect(index)
            if right - left > 0.1 and top - bottom > 0.1:
                boxes.append((left, face.height - top, right, face.height - bottom))
    finally:
        document.close()
    return sorted(boxes)


def keep_off(face: FaceLayout, paints, motifs, assets) -> list[Box]:
    """The boxes no seam should cross: each text line, grown to the rect or circle that holds its
    middle and hugs it (`_OWN_BOX`)."""
    shapes = [
        shape
        for shape in face.face.shapes.values()
        if shape.kind in ("rect", "circle")
        and (shape.fill is not None or (shape.stroke is not None and shape.stroke_width > 0))
    ]
    boxes = []
    for left, top, right, bottom in text_lines(face, paints, motifs, assets):
        cx, cy, tall = (left + right) / 2, (top + bottom) / 2, bottom - top
        for shape in shapes:
            if shape.kind == "circle":
                r = shape.radius
                outline = (shape.x - r, shape.y - r, shape.x + r, shape.y + r)
            else:
                outline = (shape.x, shape.y, shape.x + shape.width, shape.y + shape.height)
            if (
                outline[0] < cx < outline[2]
                and outline[1] < cy < outline[3]
                and outline[3] - outline[1] <= _OWN_BOX * tall
                and outline[2] - outline[0] <= right - left + _OWN_BOX * tall
            ):
                left, top = min(left, outline[0]), min(top, outline[1])
                right, bottom = max(right, outline[2]), max(bottom, outline[3])
        boxes.append((left, top, right, bottom))
    return boxes


def blocks(boxes: list[Box]) -> list[Box]:
    """The boxes that read together, each block the box round them: a box joins the one under it
    when they share some width and the gap between them is less than `_READ_ON` times the upper
    one's height (a heading and its first line, a paragraph's lines, a table's rows; the space
    before a heading is wider), and the one beside it on its line when the gap is less than its
    height (a table's cells)."""
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            upper, lower = (a, boxes[j]) if a[1] <= boxes[j][1] else (boxes[j], a)
            gap_down = lower[1] - upper[3]
            gap_across = max(upper[0], lower[0]) - min(upper[2], lower[2])
            tall = upper[3] - upper[1]
            if (gap_across < 0 and gap_down < _READ_ON * tall) or (
                gap_down < 0 and gap_across < tall
            ):
                parent[root(i)] = root(j)
    grouped: dict[int, Box] = {}
    for i, (left, top, right, bottom) in enumerate(boxes):
        k = root(i)
        if k in grouped:
            g = grouped[k]
            grouped[k] = (min(g[0], left), min(g[1], top), max(g[2], right), max(g[3], bottom))
        else:
            grouped[k] = (left, top, right, bottom)
    return sorted(grouped.values())
