"""The tests' own quick reader of content streams (pdfinspect._operations) reads what pypdf reads."""

from __future__ import annotations

import io

from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.pdfgen.canvas import Canvas

from tests.pdfinspect import _operations


def _plain(value):
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, (int, float)):
        return round(float(value), 4)
    return str(value)


def test_the_quick_reader_gives_pypdfs_operations():
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    canvas.setLineWidth(0.5)
    canvas.line(10, 20.5, -30, 0.25)
    canvas.drawString(50, 60, "a (nested (paren)) \\ back-slash, tab\t and ÿ")
    canvas._code.append(
        "/Face <</Name /face3 /Kind (front) /Size [1 2.5 -3]>> BDC 0 0 m 1 1 l S EMC"
    )
    canvas._code.append("% a comment\n/Span <</ActualText <FEFF00E9>>> BDC EMC")
    canvas.showPage()
    canvas.save()
    reader = PdfReader(io.BytesIO(buffer.getvalue()))
    contents = reader.pages[0].get_contents()
    quick, slow = _operations(contents.get_data()), ContentStream(contents, reader).operations
    assert [operator for _, operator in quick] == [operator for _, operator in slow]
    assert [_plain(list(operands)) for operands, _ in quick] == [
        _plain(list(operands)) for operands, _ in slow
    ]
    assert any(operator == b"BDC" for _, operator in quick) and any(
        operator == b"Tj" for _, operator in quick
    )


def test_what_it_cannot_read_is_left_to_pypdf():
    assert _operations(b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI") is None
    assert _operations(b"(unclosed Tj") is None
    assert _operations(b"[1 2 >> d") is None
