"""Shadings and images: the colours they can paint, to find the one with the most ink (a shading's
function sampled or its mesh's vertices; an image's samples decoded, distinct colours evaluated)."""

from __future__ import annotations

import pikepdf

from printshop.checks.preflight.functions import Function
from printshop.checks.preflight.spaces import (
    Space,
)


# --- shadings and images: their colours at the worst point ----------------------------------------
def worst_ink(space: Space, colours) -> tuple[float, ...] | None:
    """The colour with the most total ink among `colours` (component tuples)."""
    best = None
    for colour in colours:
        ink = space.ink(colour)
        if ink is not None and (best is None or sum(ink) > sum(best)):
            best = ink
    return best


def shading_colours(shading, space: Space) -> list[tuple[float, ...]]:
    """Colours a shading can paint. With a function: its values sampled over the domain (a shading
    interpolates between them). Mesh shadings without one: every vertex's colour (the colours
    between vertices are interpolated, so the total ink is worst at a vertex)."""
    kind = int(shading.get("/ShadingType", 0))
    function = Function(shading.Function) if "/Function" in shading else None
    if function is not None:
        if kind == 1:
            domain = [float(v) for v in shading.get("/Domain", [0, 1, 0, 1])]
            steps = [i / 16 for i in range(17)]
            return [
                tuple(
                    function(
                        [
                            domain[0] + s * (domain[1] - domain[0]),
                            domain[2] + t * (domain[3] - domain[2]),
                        ]
                    )
                )
                for s in steps
                for t in steps
            ]
        if kind in (2, 3):
            domain = [float(v) for v in shading.get("/Domain", [0, 1])]
        else:
            domain = [float(v) for v in shading.Decode[4:6]]
        return [tuple(function([domain[0] + i / 64 * (domain[1] - domain[0])])) for i in range(65)]
    if kind in (4, 5, 6, 7):
        return _mesh_colours(shading, space.components, kind)
    return []


class _Bits:
    def __init__(self, data: bytes):
        self.data, self.position = data, 0

    def read(self, bits: int) -> int:
        value = 0
        for _ in range(bits):
            byte = self.data[self.position >> 3]
            value = (value << 1) | ((byte >> (7 - (self.position & 7))) & 1)
            self.position += 1
        return value

    def align(self) -> None:
        self.position = (self.position + 7) & ~7

    def left(self) -> int:
        return len(self.data) * 8 - self.position


def _mesh_colours(shading, components: int, kind: int) -> list[tuple[float, ...]]:
    """Vertex colours of a mesh shading (types 4 to 7), each vertex or patch starting on a byte."""
    coordinate, component = int(shading.BitsPerCoordinate), int(shading.BitsPerComponent)
    flag_bits = int(shading.get("/BitsPerFlag", 0)) if kind != 5 else 0
    decode = [float(v) for v in shading.Decode][4:]
    top = (1 << component) - 1
    reader, colours = _Bits(shading.read_bytes()), []

    def colour():
        raw = [reader.read(component) for _ in range(components)]
        return tuple(
            decode[2 * i] + v * (decode[2 * i + 1] - decode[2 * i]) / top for i, v in enumerate(raw)
        )

    while True:
        if kind in (4, 5):
            needed = flag_bits + 2 * coordinate + components * component
            if reader.left() < needed:
                break
            reader.read(flag_bits)
            reader.read(2 * coordinate)
            colours.append(colour())
        else:
            if reader.left() < flag_bits:
                break
            flag = reader.read(flag_bits)
            points = (12 if kind == 6 else 16) if flag == 0 else (8 if kind == 6 else 12)
            count = 4 if flag == 0 else 2
            if reader.left() < points * 2 * coordinate + count * components * component:
                break
            reader.read(points * 2 * coordinate)
            colours.extend(colour() for _ in range(count))
        reader.align()
    return colours


_MAX_DISTINCT = (
    4096  # distinct colours of an Indexed, Separation or DeviceN image evaluated one by one
)


def image_colours(
    samples, space: Space, width: int, height: int, bits: int, decode: list[float] | None
):
    """The distinct colours an image's samples hold, as component tuples (numpy), or None."""
    import numpy

    n = space.components
    row = (width * n * bits + 7) // 8
    if len(samples) < row * height:
        return None
    data = numpy.frombuffer(samples, dtype=numpy.uint8)[: row * height].reshape(height, row)
    if bits == 8:
        values = data[:, : width * n].reshape(-1, n).astype(numpy.float64)
    elif bits == 16:
        values = data.view(">u2")[:, : width * n].reshape(-1, n).astype(numpy.float64)
    else:
        bitplanes = numpy.unpackbits(data, axis=1)[:, : width * n * bits].reshape(
            height, width * n, bits
        )
        weights = 1 << numpy.arange(bits - 1, -1, -1)
        values = (bitplanes * weights).sum(axis=2).reshape(-1, n).astype(numpy.float64)
    top = (1 << bits) - 1
    if decode is None:
        decode = [0, top] if space.family == "Indexed" else [0, 1] * n
    low = numpy.array(decode[0::2][:n])
    high = numpy.array(decode[1::2][:n])
    return low + values * (high - low) / top


def worst_image_ink(colours, space: Space):
    import numpy

    if space.process == "cmyk":
        totals = numpy.clip(colours, 0, 1).sum(axis=1)
        return space.ink(colours[int(numpy.argmax(totals))]) if len(colours) else None
    if space.process == "gray":
        return space.ink([float(numpy.clip(colours, 0, 1).min())]) if len(colours) else None
    distinct = numpy.unique(numpy.round(colours, 4), axis=0)
    if len(distinct) > _MAX_DISTINCT:  # assume more tint is more ink: keep the heaviest
        distinct = distinct[numpy.argsort(-distinct.sum(axis=1))[:_MAX_DISTINCT]]
    return worst_ink(space, [tuple(c) for c in distinct])


def image_samples(obj, raw: bytes | None = None) -> tuple[bytes, bool] | None:
    """An image's decoded samples and whether a JPEG's CMYK came back inverted from Pillow's reading
    of an Adobe marker; None when the data cannot be decoded here (JPEG 2000, JBIG2 ...)."""
    filters = obj.get("/Filter")
    filters = (
        [str(f) for f in filters]
        if isinstance(filters, pikepdf.Array)
        else [str(filters)]
        if filters
        else []
    )
    if raw is not None:  # an inline image: its data, filters still applied
        scratch = pikepdf.new()
        stream = pikepdf.Stream(scratch, raw)
        for key in ("/Filter", "/DecodeParms"):
            if key in obj:
                stream[key] = obj[key]
        obj = stream
    if filters and filters[-1] in ("/DCTDecode", "/DCT"):
        import io

        from PIL import Image

        encoded = obj.read_bytes(decode_level=pikepdf.StreamDecodeLevel.generalized)
        with Image.open(io.BytesIO(encoded)) as picture:
            inverted = picture.mode == "CMYK" and "adobe" in picture.info
            return picture.tobytes(), inverted
    try:
        return obj.read_bytes(), False
    except pikepdf.PdfError:
        return None


def invert(samples: bytes) -> bytes:
    import numpy

    return (255 - numpy.frombuffer(samples, dtype=numpy.uint8)).tobytes()
