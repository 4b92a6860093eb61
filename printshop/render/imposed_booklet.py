"""Saddle-stitch imposition: booklet pages two to a landscape sheet in printing order, so that the
printed stack, folded in the middle and stapled, reads 1, 2, 3, ...

For n pages (a multiple of four), sheet i (from 0) carries on its front n-2i (left) and 2i+1
(right), and on its back 2i+2 (left) and n-2i-1 (right). Pages are scaled down to fit half the
paper when they are larger (A5 on Letter), and centred in their half.
"""
from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter, Transformation

from printshop.model import Paper


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers, 1-based, for each printed side in order."""
    if pages % 4:
        raise ValueError("a saddle-stitched booklet needs a multiple of four pages")
    order = []
    for i in range(pages // 4):
        order.append((pages - 2 * i, 2 * i + 1))
        order.append((2 * i + 2, pages - 2 * i - 1))
    return order


def impose_saddle_stitch(booklet: bytes, paper: Paper, title: str) -> tuple[bytes, int]:
    reader = PdfReader(io.BytesIO(booklet))
    pages = list(reader.pages)
    width, height = max(paper.width, paper.height), min(paper.width, paper.height)  # landscape
    page_w, page_h = float(pages[0].mediabox.width), float(pages[0].mediabox.height)
    scale = min(1.0, (width / 2) / page_w, height / page_h)
    writer = PdfWriter()
    for left, right in booklet_order(len(pages)):
        sheet = writer.add_blank_page(width, height)
        for half, number in enumerate((left, right)):
            x = half * width / 2 + (width / 2 - page_w * scale) / 2
            y = (height - page_h * scale) / 2
            sheet.merge_transformed_page(pages[number - 1], Transformation().scale(scale).translate(x, y))
    writer.add_metadata({"/Title": title, "/Creator": "printshop", "/Producer": "printshop"})
    # a fixed file identifier keeps the output byte-identical from build to build
    writer._ID = None
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue(), len(writer.pages)
