"""Insets (docs/design.md, "Spacing"): no text within 1.5 mm of the edge of the band or box it sits in.

The guard (`text-inset`, layout/insets.py) reads the layout plan: each frame's text where its fit set
it, and the face's filled or outlined rects and circles. It catches a frame moved onto its band's edge
and a word grown over its ring, passes every face of every game in both languages, and the box it
measures holds every glyph the PDF prints for that frame."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from reportlab.pdfgen.canvas import Canvas

from printshop.diagnostics import Severity
from printshop.layout.insets import face_insets, text_box
from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.project.units import mm
from printshop.render.faces import draw_face
from tests.conftest import edit, found
from tests.pdfinspect import char_boxes

INSET = mm(1.5)


def test_a_letter_moved_onto_the_edge_of_its_band_is_caught(data_copy):
    faces = data_copy / "kremlin" / "faces.yaml"
    line = edit(
        faces,
        "      letter: {x: 6mm, y: 4mm, width: 13mm,",
        "      letter: {x: 4.5mm, y: 4mm, width: 14mm,",
    )
    items = [
        d for d in found(data_copy, "text-inset", games=["kremlin"]) if "'letter'" in d.message
    ]
    assert {d.location.line for d in items} == {line} and len(items) == 2  # in English and French
    for item in items:
        assert item.severity is Severity.WARNING
        # the band lies inside the card's border: the border's inside is the nearer edge
        assert "shape 'border'" in item.message and "from its left" in item.message
        assert "card 'a'" in item.message and "1.5 mm" in item.message


def test_a_word_grown_over_its_ring_is_caught(data_copy):
    """The CURE marker's word in its frame of 10 mm (as issue 51 found it) touches its ring."""
    faces = data_copy / "kremlin" / "faces.yaml"
    line = edit(
        faces,
        "main: {x: 4mm, y: 3.5mm, width: 8mm, height: 9mm, colour: red",
        "main: {x: 3mm, y: 3.5mm, width: 10mm, height: 9mm, colour: red",
    )
    items = [
        d for d in found(data_copy, "text-inset", games=["kremlin"]) if d.location.line == line
    ]
    assert items and all("shape 'ring'" in d.message and "its edge" in d.message for d in items)
    assert any("card 'cure'" in d.message for d in items)


def test_a_designer_may_ask_for_more_room(data_copy):
    """The inset is data: media.yaml's design.inset, and a medium's own (the board's)."""
    media = data_copy / "print" / "media.yaml"
    edit(media, "  inset: 1.5mm", "  inset: 2.5mm")
    assert any("keeps 2.5 mm" in d.message for d in found(data_copy, "text-inset", ["comrade"]))
    edit(media, '(60 cm and more)"}', '(60 cm and more)", inset: 3mm}')
    board = [d for d in found(data_copy, "text-inset", ["kremlin"]) if "sheet 'board'" in d.message]
    assert board and all("keeps 3 mm" in d.message for d in board)


def test_every_face_of_every_game_keeps_its_text_off_the_edges():
    """Every card, sheet, board and back of the four games, in English and French."""
    report, _ = check(DEFAULT_DATA_DIR)
    assert [d.format() for d in report.items if d.code == "text-inset"] == []


def test_the_measured_text_holds_every_glyph_the_pdf_prints():
    """The guard's box for a frame (its lines across, from the cap height to the descenders) holds
    the glyphs pdfium finds in a PDF of the face: what it measures is what prints."""
    report, checked = check(DEFAULT_DATA_DIR, games=["kremlin"], langs=["en"], variant=None)
    assert checked is not None and not report.has_errors
    [layout] = checked.layouts
    deck = next(deck for deck in layout.decks if deck.id == "politicians")
    face = deck.faces["politicians/a/front"]
    assert face_insets(face, INSET) == []
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(face.width, face.height))
    draw_face(canvas, face, _paints(), _motifs())
    canvas.showPage()
    canvas.save()
    page = pdfium.PdfDocument(buffer.getvalue())[0]
    glyphs = _glyphs(page, face.height)
    for name in ("letter", "age", "name", "status"):
        laid = next(laid for laid in face.frames if laid.name == name)
        left, top, right, bottom = text_box(laid)
        inside = [
            (x0, y0, x1, y1)
            for x0, y0, x1, y1 in glyphs
            if laid.frame.x <= (x0 + x1) / 2 <= laid.frame.x + laid.frame.width
            and laid.frame.y <= (y0 + y1) / 2 <= laid.frame.y + laid.frame.height
        ]
        assert inside, name
        tolerance = 0.6  # points: pdfium's boxes are the glyphs' own, a hair past their advance
        assert min(x0 for x0, *_ in inside) >= left - tolerance, name
        assert max(x1 for _, _, x1, _ in inside) <= right + tolerance, name
        assert min(y0 for _, y0, _, _ in inside) >= top - tolerance, name
        assert max(y1 for *_, y1 in inside) <= bottom + tolerance, name
    # and the letter keeps its 1.5 mm from the band's left edge, in the PDF itself
    band = face.face.shapes["band"]
    letter = next(laid for laid in face.frames if laid.name == "letter")
    first = min(
        x0
        for x0, y0, x1, y1 in glyphs
        if letter.frame.x <= x0 and (y0 + y1) / 2 < band.y + band.height
    )
    assert first - band.x >= INSET - 0.01


def _glyphs(page, height: float) -> list[tuple[float, float, float, float]]:
    """Every printed character's box, from the page's top-left corner, y down."""
    return [
        (left, height - top, right, height - bottom)
        for left, bottom, right, top in char_boxes(page)
    ]


def _paints():
    from printshop.project.loader import load_project
    from printshop.render.colour import Paints

    return Paints(load_project(DEFAULT_DATA_DIR, games=[]).colours.palette)


def _motifs():
    from printshop.project.loader import load_project

    project = load_project(DEFAULT_DATA_DIR, games=["kremlin"])
    return project.motifs.motifs
