"""Where a tiled sheet's seams must not go: the boxes of its text lines, each grown to the small box
it sits in (a chip, a banner, a numbered square), read from the sheet's face drawn alone into a PDF
in memory (pypdfium2's text runs, no rasterising). `Tiling.choose_seams` (layout/imposition.py)
moves the seams off them."""

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
