"""A booklet's `<box>`: a summary set apart, on a fill and inside a rule (booklet.yaml's style `box`:
`background`, `border`, `padding`). The rules of a box, as a reader and a prepress engineer see it:
the box spans the text column and no more; its text keeps `padding` clear of the box's edge on
every side; the paragraphs around it keep clear of the box; a box is never broken over two pages;
a colour the style names is one of the palette's, or `validate` says so at the style's line."""

from __future__ import annotations

import io
import shutil

import numpy as np
import pypdfium2
from reportlab.lib.pagesizes import A5
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph

from printshop.pipeline.build import check
from printshop.project.models.booklet import TextStyle
from printshop.project.paths import DEFAULT_DATA_DIR, DEFAULT_TEMPLATES_DIR
from printshop.project.units import mm
from printshop.render.booklet_flowables import Boxed
from printshop.render.colour import Paints
from printshop.typeset.fitting import paragraph_style
from tests.conftest import edit, line_of, shared_build, with_defaults

PALETTE = {"ink": "#000000", "paper-deep": "#e8dcbc", "accent": "#b22a1e", "white": "#ffffff"}
FILL = (0xE8, 0xDC, 0xBC)
DPI = 150


def box_problems(page, needle: str, padding: float) -> list[str]:
    """What breaks a box's rules on a pypdfium2 `page`: the box is the largest region of the fill
    colour; the characters of the paragraph that begins with `needle` must lie `padding` (less
    0.4 mm for anti-aliasing) inside it (every character whose middle is in the box), and no
    other character may touch it."""
    px = DPI / 72
    picture = np.asarray(page.render(scale=px).to_pil().convert("RGB")).astype(int)
    filled = np.abs(picture - np.array(FILL)).sum(axis=2) < 12
    rows, columns = np.flatnonzero(filled.any(axis=1)), np.flatnonzero(filled.any(axis=0))
    if not len(rows):
        return ["no box drawn"]
    height = picture.shape[0]
    # the box in PDF points, bottom-left origin
    left, right = columns[0] / px, (columns[-1] + 1) / px
    top, bottom = (height - rows[0]) / px, (height - rows[-1] - 1) / px
    text = page.get_textpage()
    content = text.get_text_range()
    problems = []
    room = padding - mm(0.4)
    x0, y0, x1, y1 = text.get_charbox(content.index(needle))
    if not (left < (x0 + x1) / 2 < right and bottom < (y0 + y1) / 2 < top):
        problems.append(f"'{needle}' is not in the box")
    for index, char in enumerate(content):
        if not char.strip():
            continue
        x0, y0, x1, y1 = text.get_charbox(index)
        if left < (x0 + x1) / 2 < right and bottom < (y0 + y1) / 2 < top:
            if min(x0 - left, right - x1, y0 - bottom, top - y1) < room:
                problems.append(f"'{char}' within {padding / mm(1):.1f} mm of the box's edge")
        elif x1 > left and x0 < right and y1 > bottom and y0 < top:
            problems.append(f"'{char}' of another paragraph on the box")
    return problems


def _page(padding: float) -> pypdfium2.PdfPage:
    """An A5 column: a paragraph, a boxed one with `padding`, a paragraph."""
    paints = Paints(PALETTE)
    body = TextStyle(font="Helvetica", size="9pt", space_after="1.5mm")
    boxed = TextStyle(
        font="Helvetica",
        size="9pt",
        leading=1.35,
        space_before="1.5mm",
        space_after="2mm",
        background="paper-deep",
        border="accent",
        border_width="0.6pt",
        padding=f"{padding / mm(1)}mm",
    )
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A5)
    story = [
        Paragraph("Before the box, a paragraph " * 6, paragraph_style(body, 9, paints)),
        Boxed(
            Paragraph("Inside the box, a summary " * 8, paragraph_style(boxed, 9, paints)),
            boxed,
            paints,
        ),
        Paragraph("After the box, a paragraph " * 6, paragraph_style(body, 9, paints)),
    ]
    Frame(mm(15), mm(16), A5[0] - mm(28), A5[1] - mm(30), showBoundary=0).addFromList(story, canvas)
    canvas.save()
    return pypdfium2.PdfDocument(buffer.getvalue())[0]


def test_a_box_keeps_its_text_padding_inside_and_its_neighbours_outside():
    assert box_problems(_page(mm(3.5)), "Inside the box", mm(3.5)) == []


def test_the_measure_finds_text_against_the_box_s_edge():
    """must-catch: a box without padding has its text on its edge."""
    found = box_problems(_page(0.0), "Inside the box", mm(3.5))
    assert found and all("of the box's edge" in problem for problem in found)


def test_a_box_is_never_split_over_two_pages():
    paints = Paints(PALETTE)
    style = TextStyle(font="Helvetica", size="9pt", background="paper-deep", padding="3mm")
    boxed = Boxed(Paragraph("Word " * 200, paragraph_style(style, 9, paints)), style, paints)
    assert boxed.split(mm(120), mm(40)) == []


def test_comrade_stalin_s_killing_summary_is_boxed_in_both_languages(tmp_path_factory):
    out, _ = shared_build(tmp_path_factory, games=["comrade-stalin"], papers=["a4"])
    for lang, needle in (("en", "An attempted killing, step by step"), ("fr", "pas à pas")):
        path = out / "comrade-stalin" / lang / f"comrade-stalin-{lang}-rules-a5.pdf"
        document = pypdfium2.PdfDocument(str(path))
        pages = [page for page in document if needle in page.get_textpage().get_text_range()]
        assert len(pages) == 1, (lang, len(pages))
        text = pages[0].get_textpage().get_text_range()
        assert "4." in text[text.index(needle) :]  # the four steps on the box's page
        assert box_problems(pages[0], needle[:12], mm(3.5)) == [], lang
        document.close()


def test_a_box_colour_that_is_not_in_the_palette_is_reported_at_its_line(tmp_path):
    data, templates = tmp_path / "data", tmp_path / "templates"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    with_defaults(data)
    shutil.copytree(DEFAULT_TEMPLATES_DIR, templates)
    booklet = data / "print" / "booklet.yaml"
    edit(booklet, "background: paper-deep", "background: paper-deeep")
    report, _ = check(data, templates_dir=templates, games=["comrade-stalin"])
    found = [(d.code, d.location.line, d.message) for d in report.errors]
    assert (
        found == [("unknown-reference", line_of(booklet, "paper-deeep"), found[0][2])]
        and "did you mean 'paper-deep'" in found[0][2]
    ), found


def test_a_box_too_tall_for_a_page_is_named_by_its_words():
    """ReportLab names a flowable that no page holds by its identity: a box's is its paragraph's,
    so the text-overflow error quotes the box's words (it said '...')."""
    paints = Paints(PALETTE)
    style = TextStyle(font="Helvetica", size="9pt", background="paper-deep", padding="3mm")
    boxed = Boxed(
        Paragraph("Inside the box " * 3, paragraph_style(style, 9, paints)), style, paints
    )
    assert "Inside the box" in boxed.identity(60)


def test_a_box_too_tall_for_any_page_is_reported_at_its_text(data_copy, tmp_path, capsys):
    """A boxed paragraph is never split: made taller than a page, validate and build refuse it at
    the text the box begins with (the translator's file:line), the booklet's styles said beside it,
    and the build writes nothing."""
    from printshop.cli import main

    texts = data_copy / "comrade-stalin" / "text" / "en.yaml"
    step = "Announce the target. Stalin may aim at anyone but himself and the Protégé;"
    edit(texts, step, step + " Aim, count and declare again." * 200)
    report, _ = check(data_copy, games=["comrade-stalin"], keep_layouts=False)  # (validate's)
    errors = [d for d in report.errors if d.code == "text-overflow"]
    title = line_of(texts, 'title: "An attempted killing, step by step"')
    assert [
        (d.location.path.endswith("comrade-stalin/text/en.yaml"), d.location.line) for d in errors
    ] == [(True, title)], [d.format() for d in errors]
    assert "print/booklet.yaml" in errors[0].also and "step by step" in errors[0].message
    out = tmp_path / "out"
    args = ["build", "comrade-stalin", "--lang", "en", "--data", str(data_copy), "--out", str(out)]
    assert main([*args, "-q"]) != 0 and not list(out.rglob("*.pdf"))
    said = capsys.readouterr().err
    assert said.count("error[text-overflow]") == 1 and "text/en.yaml:" in said, said
