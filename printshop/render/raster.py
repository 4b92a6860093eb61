"""Faces as images: each face drawn by render/faces.py onto a one-page PDF, then rasterised by
pdfium.

The targets that need pictures rather than paper (Tabletop Simulator, previews, Tabletopia and
Screentop, the Cricut upload) all come through here, so there is one renderer and every image shows
exactly what the PDFs print. PNGs are written with fixed settings and no timestamps or text chunks:
the same face gives the same bytes on every build.
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import TYPE_CHECKING

from printshop.layout.plan import FaceLayout
from printshop.project.models.art import Motif
from printshop.render.colour import Paints
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas

if TYPE_CHECKING:  # Pillow and numpy are imported when an image is made, not when jobs.py is
    import numpy
    from PIL import Image as PILImage

SUPERSAMPLE = (
    4  # rounded-corner masks are drawn this much larger, then reduced: smooth, deterministic edges
)


def pixels_for(width: float, height: float, long_side: int) -> tuple[int, int]:
    """The pixel size of a `width` x `height` (points) picture whose longer side is `long_side`
    pixels."""
    if width >= height:
        return long_side, max(1, round(long_side * height / width))
    return max(1, round(long_side * width / height)), long_side


def pixels_at(width: float, height: float, dpi: float) -> tuple[int, int]:
    return max(1, round(width / 72 * dpi)), max(1, round(height / 72 * dpi))


def pixels_within(
    width: float, height: float, dpi: float, least: int, most: int
) -> tuple[int, int]:
    """`dpi`, raised until the longer side has `least` pixels, lowered until no side has more than
    `most`."""
    longer = max(width, height) / 72 * dpi
    long_side = min(most, max(least, round(longer)))
    return pixels_for(width, height, long_side)


def face_images(
    faces: list[FaceLayout],
    sizes: list[tuple[int, int]],
    paints: Paints,
    motifs: dict[str, Motif],
    assets,
    *,
    bleed: float = 0.0,
    lang: str = "en",
) -> list[PILImage.Image]:
    """Each face (trim, plus `bleed` points of its own bleed on every side, at most the face's) as
    an RGB image of exactly its size in `sizes`. The faces share one PDF, so fonts and art are
    embedded once."""
    import pypdfium2

    buffer = io.BytesIO()
    first = faces[0]
    canvas = new_canvas(
        buffer, first.width, first.height, title="faces", subject="face images", lang=lang
    )
    for face in faces:
        edge = min(bleed, face.bleed)
        canvas.setPageSize((face.width + 2 * edge, face.height + 2 * edge))
        canvas.saveState()
        canvas.translate(edge, edge)
        draw_face(canvas, face, paints, motifs, assets)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    document = pypdfium2.PdfDocument(buffer.getvalue())
    images = []
    try:
        for index, (width, height) in enumerate(sizes):
            page = document[index]
            images.append(render_exact(page, width, height))
            page.close()
    finally:
        document.close()
    return images


def corner_mask(size: tuple[int, int], radius: float) -> PILImage.Image:
    """An alpha mask of `size` with rounded corners (radius in pixels), edges smoothed by
    supersampling."""
    from PIL import Image, ImageDraw

    width, height = size
    mask = Image.new("L", (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, width * SUPERSAMPLE - 1, height * SUPERSAMPLE - 1),
        radius=radius * SUPERSAMPLE,
        fill=255,
    )
    return mask.reduce(SUPERSAMPLE)


def render_pixels(page, width: int, height: int):
    """A pdfium page as RGB pixels, a numpy array of `height` rows of `width` pixels of three bytes:
    pdfium maps the page onto exactly that many pixels itself (rendering at a scale gives ceil(page
    size x scale) pixels, one too many on one side as often as not once the pixel size is rounded)
    and writes them, in the order a PNG stores them, into a buffer Python owns: `png` deflates them
    as they lie. (Rendered four bytes a pixel and made a Pillow image, they were copied twice more,
    dropping the fourth byte, then packing them for numpy: half of the time a picture took. The
    pixels are the same either way.)"""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    bitmap = pypdfium2.PdfBitmap.new_native(
        width, height, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True
    )
    pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)  # white paper
    pdfium_c.FPDF_RenderPageBitmap(
        bitmap, page, 0, 0, width, height, 0, pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER
    )
    return bitmap.to_numpy()  # (a view of the buffer, which it keeps: the bitmap may go)


def render_exact(page, width: int, height: int) -> PILImage.Image:
    """A pdfium page as an RGB Pillow image of exactly `width` x `height` pixels (see
    render_pixels), for the pictures that are worked on further (corners cut round, set in a sheet)."""
    from PIL import Image

    return Image.frombuffer(
        "RGB", (width, height), render_pixels(page, width, height), "raw", "RGB", 0, 1
    )


def rounded(picture: PILImage.Image, mask: PILImage.Image | None) -> PILImage.Image:
    """`picture` as RGBA, transparent where `mask` (from corner_mask) is: its corners cut round."""
    result = picture.convert("RGBA")
    if mask is not None:
        result.putalpha(mask)
    return result


# Pillow mode -> (PNG colour type, samples per pixel), the 8-bit modes `png` writes itself
_PNG_COLOUR_TYPES = {"L": (0, 1), "LA": (4, 2), "RGB": (2, 3), "RGBA": (6, 4)}
# numpy pixels: the samples of a pixel -> the PNG colour type (the table above, read the other way)
_COLOUR_TYPES_BY_SAMPLES = {
    samples: colour_type for colour_type, samples in _PNG_COLOUR_TYPES.values()
}
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    checksum = zlib.crc32(
        data, zlib.crc32(kind)
    )  # the chunk's type and data, without joining them first
    return b"".join((struct.pack(">I", len(data)), kind, data, struct.pack(">I", checksum)))


def png(picture: PILImage.Image | numpy.ndarray, dpi: float | None = None, level: int = 3) -> bytes:
    """PNG bytes that depend on the pixels only (and the stated resolution, when given): no time, no
    text, no colour profile. `level` is zlib's (1 fastest, 9 smallest).

    `picture` is a Pillow image, or pixels as numpy gives them (render_pixels: rows of RGB, RGBA or
    grey). 8-bit grey and colour pictures, with or without alpha, are written here: every row is
    filtered by its difference from the row above (PNG's "Up" filter, one array subtraction), then
    deflated. Pillow tries all five filters on each row and keeps the best, which is most of its
    time on a 300 dpi page; on these flat-coloured pages "Up" deflates within a few per cent of its
    size in under half the time. The rows are deflated by zlib-ng, which reads as zlib and writes
    these pages three times as fast, a few per cent smaller. Other modes (palettes, one bit, 16
    bits) go through Pillow."""
    import numpy

    if isinstance(picture, numpy.ndarray):
        height, width = picture.shape[:2]
        samples = picture.shape[2] if picture.ndim == 3 else 1
        return _png_of_rows(
            numpy.ascontiguousarray(picture, dtype=numpy.uint8).reshape(height, width * samples),
            width,
            _COLOUR_TYPES_BY_SAMPLES[samples],
            dpi,
            level,
        )
    kind = _PNG_COLOUR_TYPES.get(picture.mode)
    if kind is None:
        buffer = io.BytesIO()
        options = {"dpi": (round(dpi), round(dpi))} if dpi else {}
        picture.save(buffer, format="PNG", optimize=False, compress_level=level, **options)
        return buffer.getvalue()
    colour_type, samples = kind
    width, height = picture.size
    return _png_of_rows(
        numpy.asarray(picture, dtype=numpy.uint8).reshape(height, width * samples),
        width,
        colour_type,
        dpi,
        level,
    )


def _png_of_rows(rows, width: int, colour_type: int, dpi: float | None, level: int) -> bytes:
    import numpy

    height = rows.shape[0]
    filtered = numpy.empty((height, rows.shape[1] + 1), dtype=numpy.uint8)
    filtered[:, 0] = 2  # the filter of each row: Up
    filtered[0, 1:] = rows[0]  # the row above the first is taken as zeros
    numpy.subtract(
        rows[1:], rows[:-1], out=filtered[1:, 1:]
    )  # modulo 256, as the filter is defined
    chunks = [_png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))]
    if dpi:
        per_metre = int(
            round(dpi) / 0.0254 + 0.5
        )  # as Pillow writes it, from the resolution rounded
        chunks.append(_png_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))
    from zlib_ng import (
        zlib_ng,
    )  # zlib's format, deflated three times as fast and a few per cent smaller

    chunks.append(_png_chunk(b"IDAT", zlib_ng.compress(filtered, level)))
    chunks.append(_png_chunk(b"IEND", b""))
    return b"".join((_PNG_SIGNATURE, *chunks))


def rgb_colour(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def file_part(key: str) -> str:
    """A face key ('cards/informer/front') as part of a file name ('informer-front')."""
    parts = key.split("/")
    if len(parts) > 1:
        parts = parts[1:]  # the deck's id leads every key, and already leads the file's name
    return "-".join(part for part in parts if part)


def sheet_file_names(stem: str, sheet_id: str, keys: list[str]) -> list[str]:
    """<stem>-<sheet>.png for a single sheet; <stem>-<sheet>-<item>.png for each item of a set."""
    if len(keys) == 1:
        return [f"{stem}-{sheet_id}"]
    return [
        f"{stem}-{sheet_id}-{key.rstrip('/').split('/')[-1] or index + 1}"
        for index, key in enumerate(keys)
    ]
