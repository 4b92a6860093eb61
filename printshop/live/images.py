"""The preview's images: faces drawn by render/faces.py into one PDF a batch and rasterised by
pdfium, a rules page rasterised from its booklet, and the text of a booklet's pages (`page_texts`).

pdfium may be called from one thread at a time (`_PDFIUM`); the drawing itself runs side by side.
"""

from __future__ import annotations

import dataclasses
import io
import threading
from typing import TYPE_CHECKING, cast

from printshop import memos
from printshop.live.booklet_pages import BookletPage, words
from printshop.render.colour import StandIn

if TYPE_CHECKING:  # (views.py reads page texts from here)
    from printshop.layout.faces import FaceLayout
    from printshop.live.views import FaceView


PREVIEW_DPI = 110  # enough to read a card's smallest text on screen


ZOOM_DPI = (
    2 * PREVIEW_DPI
)  # the image a click on a face opens: a sheet or board read closely, a card's detail


def page_texts(data: bytes) -> list[str]:
    """Each page's text of a PDF, as `words` gives it; once per process for the same bytes (a
    booklet rendered before, in this session or another, is given again as the same bytes:
    render/booklet.py)."""
    import pypdfium2

    known = _PAGE_TEXTS.get(data)
    if known is not None:
        return list(known)
    with _PDFIUM:
        document = pypdfium2.PdfDocument(data)
        try:
            texts = [
                words(document[index].get_textpage().get_text_range())
                for index in range(len(document))
            ]
        finally:
            document.close()
    _PAGE_TEXTS[data] = tuple(texts)
    return texts


def page_sizes(data: bytes) -> tuple[tuple[float, float], ...]:
    """Each page's width and height of a PDF, in points (the page lays out its images' room before
    they load; a Booklet keeps them)."""
    import pypdfium2

    with _PDFIUM:
        document = pypdfium2.PdfDocument(data)
        try:
            return tuple(document.get_page_size(index) for index in range(len(document)))
        finally:
            document.close()


# the page texts of the booklets read last, by their bytes (held by the key: a booklet is 100 KB or
# so)
_PAGE_TEXTS = memos.PAGE_TEXTS


def face_png(view: FaceView, dpi: int = PREVIEW_DPI) -> bytes:
    """The face alone, with its bleed, as a PNG (`face_pngs` of this face alone)."""
    return face_pngs([view], dpi)[0]


def face_pngs(views: list[FaceView], dpi: int = PREVIEW_DPI) -> list[bytes]:
    """The images of `views`: the faces drawn together (`_face_pngs`), a rules page rasterised from
    its booklet."""
    faces = iter(
        _face_pngs([view for view in views if not isinstance(view.face, BookletPage)], dpi)
    )
    return [
        page_png(view.face, dpi) if isinstance(view.face, BookletPage) else next(faces)
        for view in views
    ]


def page_png(page: BookletPage, dpi: int = PREVIEW_DPI) -> bytes:
    """A page of a rules booklet as a PNG, from the PDF `build` would write."""
    import pypdfium2

    from printshop.render.raster import png

    with _PDFIUM:
        document = pypdfium2.PdfDocument(page.booklet.data)
        try:
            image = (
                document[page.index].render(scale=dpi / 72, rev_byteorder=True).to_numpy()
            )  # RGB rows
        finally:
            document.close()
    return png(image, level=1)


def _face_pngs(views: list[FaceView], dpi: int = PREVIEW_DPI) -> list[bytes]:
    """Each face alone, with its bleed, as a PNG: drawn into one PDF, a page each, rasterised by
    pdfium. A text that does not fit is drawn cut at its frame, with the (magenta) overset mark
    (render/faces.py), not left out.

    The faces share the PDF, so each font is embedded once for all of them: drawn a PDF each, the
    font subsets were most of an image's time (a dozen faces together take a third of the time they
    take one by one). The PDF is not compressed either: it lives only until pdfium has read it. The
    images are those of a PDF each."""
    if not views:
        return []
    import pypdfium2
    from reportlab.pdfgen.canvas import Canvas

    from printshop.render.faces import draw_face
    from printshop.render.raster import png

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName="sans", pageCompression=0)
    for view in views:
        face = cast("FaceLayout", view.face)  # (the rules pages are not drawn here: `face_pngs`)
        canvas.setPageSize((face.width + 2 * face.bleed, face.height + 2 * face.bleed))
        canvas.translate(face.bleed, face.bleed)
        # a text too long shows how far it runs (`overset`); a colour the palette lacks (a name
        # mistyped, or taken out of colours.yaml while faces still use it) is drawn in the overset's
        # magenta, and an image or motif that is not there is an empty frame in magenta, crossed and
        # named (`stand_ins`): not a broken image
        paints = dataclasses.replace(view.paints, palette=StandIn(view.paints.palette))
        draw_face(canvas, face, paints, view.motifs, view.assets, overset=True, stand_ins=True)
        canvas.showPage()
    canvas.save()
    with _PDFIUM:
        document = pypdfium2.PdfDocument(buffer.getvalue())
        try:
            images = [
                document[index].render(scale=dpi / 72, rev_byteorder=True).to_numpy()  # RGB rows
                for index in range(len(views))
            ]
        finally:
            document.close()
    return [
        png(image, level=1) for image in images
    ]  # shown at once on this machine: the fastest deflate


def drawn_alone(view: FaceView, dpi: int) -> bytes | None:
    """`face_png`, or None for a face that cannot be drawn."""
    try:
        return face_png(view, dpi)
    except Exception:  # noqa: BLE001 - the page shows it as not drawn, beside its errors
        return None


# pdfium may not be called from two threads at once, not even on two documents (pypdfium2's
# documentation): the page asks for its faces' images all together, and the server draws them on a
# pool of threads. Unguarded, a Kremlin page failed some ("Failed to load page") and crashed the
# server now and then (malloc: heap corrupted). The drawing itself (ReportLab, each face its own
# canvas) runs side by side; only the rasterising waits its turn.
_PDFIUM = threading.Lock()
