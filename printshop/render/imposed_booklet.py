"""Saddle-stitch imposition: booklet pages two to a landscape sheet in printing order, so that the
printed stack, folded in the middle and stapled, reads 1, 2, 3, ...

For n pages (a multiple of four), sheet i (from 0) carries on its front n-2i (left) and 2i+1
(right), and on its back 2i+2 (left) and n-2i-1 (right). Pages are scaled down to fit half the
paper when they are larger (A5 on Letter), and centred in their half.

The imposed file depends on the booklet's bytes, the paper's size and the title alone: a process
remembers the last ones it made (`_IMPOSED`), for a booklet given again by render/booklet.py's memo
(a session's refresh, a build run again in the same process) is imposed the same again.
"""

from __future__ import annotations

import hashlib
import io

import pikepdf

from printshop import memos
from printshop.project.models.media import Paper

_IMPOSED = memos.IMPOSED  # bytes of imposed booklets a process remembers


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
    """The booklet's pages imposed two to a side of `paper` (landscape), and the number of sides."""
    key = (hashlib.blake2b(booklet, digest_size=20).digest(), paper.width, paper.height, title)
    return _IMPOSED.remembered(
        key, lambda: _impose(booklet, paper, title), lambda made: len(made[0])
    )


def imposed_scale(page_width: float, page_height: float, paper: Paper) -> float:
    """How much a booklet page of that size is reduced to fit half of `paper` turned landscape: 1
    when it fits (A5 on A4), less when it is larger (A5 on Letter, about 0.94). The how-to page
    says so."""
    width, height = max(paper.width, paper.height), min(paper.width, paper.height)
    return min(1.0, (width / 2) / page_width, height / page_height)


def _impose(booklet: bytes, paper: Paper, title: str) -> tuple[bytes, int]:
    width, height = max(paper.width, paper.height), min(paper.width, paper.height)  # landscape
    with pikepdf.open(io.BytesIO(booklet)) as source, pikepdf.new() as pdf:
        box = [float(v) for v in source.pages[0].mediabox]
        page_w, page_h = box[2] - box[0], box[3] - box[1]
        scale = imposed_scale(page_w, page_h, paper)
        forms = [pdf.copy_foreign(page.as_form_xobject()) for page in source.pages]
        for left, right in booklet_order(len(forms)):
            placed, content = {}, []
            for half, number in enumerate((left, right)):
                x = half * width / 2 + (width / 2 - page_w * scale) / 2
                y = (height - page_h * scale) / 2
                name = f"/P{number}"
                placed[name] = forms[number - 1]
                content.append(f"q {scale:.6f} 0 0 {scale:.6f} {x:.4f} {y:.4f} cm {name} Do Q")
            sheet = pikepdf.Dictionary(
                Type=pikepdf.Name.Page,
                MediaBox=pikepdf.Array([0, 0, round(width, 4), round(height, 4)]),
                Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(placed)),
                Contents=pdf.make_stream("\n".join(content).encode("ascii")),
            )
            pdf.pages.append(pikepdf.Page(sheet))
        pdf.docinfo[pikepdf.Name.Title] = pikepdf.String(title)
        pdf.docinfo[pikepdf.Name.Creator] = pikepdf.String("printshop")
        pdf.docinfo[pikepdf.Name.Producer] = pikepdf.String("printshop")
        pages = len(pdf.pages)
        buffer = io.BytesIO()
        # a deterministic /ID keeps the output byte-identical from build to build
        pdf.save(
            buffer,
            deterministic_id=True,
            compress_streams=True,
            force_version="1.4",
            object_stream_mode=pikepdf.ObjectStreamMode.disable,
        )
    return buffer.getvalue(), pages
