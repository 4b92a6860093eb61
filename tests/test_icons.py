"""Inline icons (issue 50, item 2): `<icon name="…"/>` in templates and in data texts, a motif of
motifs.yaml drawn as vector paths (or an image of images/) on the baseline at the cap height of
the text around it (or a style's `icon_size`), in the text's colour, counted by fitting and
justification as an unbreakable item of its width; translations checked like placeholders; bad
icons reported at their file and line.

What is drawn is read back from rasterised pages (pypdfium2) and from the PDF's bytes."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import polib
import pypdfium2
import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from printshop.pipeline.build import build, check
from printshop.project.models.booklet import TextStyle
from printshop.typeset.fitting import fit, make_flowables
from printshop.typeset.icons import IconSet, icon_scale, resolve_blocks, using
from printshop.typeset.richtext import Para, RichTextError, parse_blocks
from tests.conftest import edit, fixture_project, line_of

SQUARE = '<icon name="square" aspect="1" art="100 100;n M0 0 L100 0 L100 100 L0 100 Z"/>'
SCALE = 4  # pixels per point when rasterising


def _raster(draw, width: float = 300, height: float = 120) -> np.ndarray:
    """What `draw(canvas)` draws on a page of `width` × `height` points, as RGB pixels."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(width, height))
    draw(canvas)
    canvas.save()
    page = pypdfium2.PdfDocument(out.getvalue())[0]
    return np.asarray(page.render(scale=SCALE).to_pil().convert("RGB")).astype(int)


def _red(pixels: np.ndarray) -> np.ndarray:
    return (pixels[..., 0] > 150) & (pixels[..., 1] < 100) & (pixels[..., 2] < 100)


def _runs(columns: np.ndarray) -> list[tuple[int, int]]:
    """The runs of True in a row of booleans, as (first, last)."""
    runs, start = [], None
    for index, on in enumerate(list(columns) + [False]):
        if on and start is None:
            start = index
        elif not on and start is not None:
            runs.append((start, index - 1))
            start = None
    return runs


# --- drawn: on the baseline, at the cap height, in the text's colour, as vectors ----------------
def test_an_icon_stands_on_the_baseline_as_tall_as_a_capital_in_the_texts_colour(paints):
    style = ParagraphStyle("t", fontName="sans", fontSize=40, leading=48, textColor="#cc0000")
    paragraph = Paragraph(f"H {SQUARE} H", style)

    _, height = paragraph.wrap(280, 100)

    def draw(canvas):
        paragraph.drawOn(canvas, 10, 20)

    red = _red(_raster(draw))
    letter, icon, other = _runs(red.any(axis=0))
    rows = [np.nonzero(red[:, first : last + 1].any(axis=1))[0] for first, last in (letter, icon)]
    (h_top, h_bottom), (i_top, i_bottom) = [(r.min(), r.max()) for r in rows]
    assert abs(i_bottom - h_bottom) <= 1, "the icon's foot is on the baseline"
    assert abs(i_top - h_top) <= 1, "the icon is as tall as a capital letter"
    width = icon[1] - icon[0] + 1
    assert abs(width - (i_bottom - i_top + 1)) <= 1, "a square motif is drawn square"
    # inside the box the paragraph was given (10 pt from the left, 20 pt up a 120 pt page)
    assert 10 * SCALE <= icon[0] and icon[1] <= 290 * SCALE
    assert (120 - 20 - height) * SCALE <= i_top and i_bottom <= (120 - 20) * SCALE


def test_an_icon_drawn_is_vector_and_the_same_bytes_twice(paints):
    def pdf() -> bytes:
        out = io.BytesIO()
        canvas = Canvas(out, pagesize=(200, 100), invariant=1)
        paragraph = Paragraph(f"Gain 2 {SQUARE}.", ParagraphStyle("t", fontName="sans"))
        paragraph.wrap(180, 80)
        paragraph.drawOn(canvas, 10, 50)
        canvas.save()
        return out.getvalue()

    first = pdf()
    assert first == pdf()
    assert b"/Subtype /Image" not in first  # paths, not a picture


def test_an_icon_size_is_a_multiple_of_the_text_size():
    from types import SimpleNamespace

    from printshop.typeset.icons import icon_fragment

    frag = SimpleNamespace(fontSize=20.0, fontName="sans", textColor=None)
    defn = icon_fragment({"size": "0.5", "aspect": "2", "art": "2 1;n M0 0 L2 0 L2 1 Z"}, frag)
    assert (defn.height, defn.width, defn.valign) == (10.0, 20.0, "baseline")
    assert icon_scale(5.0, 10.0) == 0.5 and icon_scale(None, 10.0) is None


# --- counted like a glyph: width, unbreakable, justified flush ----------------------------------
def test_fitting_counts_an_icon_as_wide_as_it_draws(paints):
    style = ParagraphStyle("t", fontName="sans", fontSize=10)
    plain, with_icon = Paragraph("Gain 2", style), Paragraph(f"Gain 2{SQUARE}", style)
    plain.wrap(200, 100)
    with_icon.wrap(200, 100)
    cap = 714 / 1000 * 10  # NotoSans's cap height at 10 pt

    def room(line) -> float:
        return line[0] if isinstance(line, tuple) else line.extraSpace

    grown = room(plain.blPara.lines[0]) - room(with_icon.blPara.lines[0])
    assert grown == pytest.approx(cap, abs=0.01)


def test_a_word_and_its_icons_are_never_broken_apart(paints):
    style = ParagraphStyle("t", fontName="sans", fontSize=10)
    for width in range(40, 120, 3):
        paragraph = Paragraph(f"one two three ({SQUARE}{SQUARE}) four five six seven", style)
        paragraph.wrap(width, 500)
        for line in paragraph.blPara.lines:
            printed = "".join(
                "#" if hasattr(w, "cbDefn") else (getattr(w, "text", "") or "") for w in line.words
            ).strip()
            assert "(##)" in printed or ("#" not in printed and "(" not in printed), printed


def test_a_justified_line_with_icons_ends_flush(paints):
    text = TextStyle(font="serif", size="10pt", align="justify", colour="ink")
    markup = (
        f"Pay {SQUARE}{SQUARE} or {SQUARE} to heal. Crosses measure illness: one cross ({SQUARE}) "
        f"marks a sick politician, two "
        f"({SQUARE}{SQUARE}) a very sick one. First remove last year’s markers: a patient who "
        f"is still sick may stay another year ({SQUARE}), while one who has recovered goes back."
    )
    width = 240.0
    (paragraph,) = make_flowables([Para("p", markup)], text, 10, paints, width)
    _, height = paragraph.wrap(width, 500)
    lines = paragraph.blPara.lines
    assert len(lines) >= 3 and any(hasattr(w, "cbDefn") for w in lines[0].words)

    def draw(canvas):
        paragraph.drawOn(canvas, 20, 400 - height)

    pixels = _raster(draw, 300, 420)
    ink = pixels.sum(axis=2) < 300
    leading = 10 * text.leading * SCALE
    top = (420 - 400) * SCALE
    for index in range(len(lines) - 1):
        band = ink[int(top + index * leading) : int(top + (index + 1) * leading)]
        right = np.nonzero(band.any(axis=0))[0].max()
        # flush: at the frame's edge, short of it by no more than a glyph's side bearing
        gap = right / SCALE - (20 + width)
        assert -1.25 <= gap <= 0.5, f"line {index + 1} ends {gap:+.2f} pt from the edge"


def test_fit_takes_more_room_for_more_icons(paints):
    text = TextStyle(font="serif", size="10pt", min_size="6pt", colour="ink")
    words = "Gain two coins and pay one. " * 3
    few = fit([Para("p", words)], text, 100, 200, paints)
    many = fit([Para("p", words.replace(" ", f" {SQUARE}"))], text, 100, 200, paints)
    assert many.height > few.height


# --- the sampler: icons in a card's frame, from a data text, in two languages ---------------------
COIN = """motifs:
  coin:
    viewbox: [100, 100]
    paths:
      - circle: [50, 50, 46]
"""


@pytest.fixture
def sampler(tmp_path) -> tuple[Path, Path]:
    data, templates = fixture_project(tmp_path)
    game = data / "sampler"
    (game / "print").mkdir(exist_ok=True)
    (game / "print" / "motifs.yaml").write_text(COIN, encoding="utf-8")
    edit(
        game / "text" / "en.yaml",
        '"Keep this token in front of you."',
        "\"Gain 2 <icon name='coin'/>, then pay <icon name='coin'/>.\"",
    )
    edit(
        game / "text" / "fr.yaml",
        '"Gardez ce jeton devant vous."',
        "\"Gagnez 2 <icon name='coin'/>, puis payez <icon name='coin'/>.\"",
    )
    return data, templates


def _diagnostics(data: Path, templates: Path, code: str) -> list:
    report, _ = check(data, games=["sampler"], templates_dir=templates)
    return [d for d in report.items if d.code == code]


def _built_tokens(data: Path, templates: Path, out: Path, langs: list[str]) -> list[Path]:
    """The sampler built in `langs` on A4 (no error): its tokens' card sheets."""
    result = build(
        data, out, templates_dir=templates, games=["sampler"], langs=langs, papers=["a4"], jobs=1
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return sorted((out / "sampler").rglob("*tokens*a4.pdf"))


def test_icons_in_data_texts_validate_and_build_as_vectors_in_both_languages(sampler, tmp_path):
    data, templates = sampler
    report, _ = check(data, games=["sampler"], templates_dir=templates)
    assert not report.has_errors, [d.format() for d in report.errors]
    first, second = (_built_tokens(data, templates, tmp_path / run, ["en", "fr"]) for run in "12")
    assert len(first) == 2  # English and French
    for one, other in zip(first, second):
        assert one.read_bytes() == other.read_bytes()
        assert b"/Subtype /Image" not in one.read_bytes()


def test_an_icon_of_images_draws_the_image(sampler, tmp_path):
    from PIL import Image

    data, templates = sampler
    (data / "sampler" / "images").mkdir(exist_ok=True)
    Image.new("RGB", (40, 20), (10, 120, 10)).save(data / "sampler" / "images" / "medal.png")
    for lang in ("en", "fr"):
        edit(
            data / "sampler" / "text" / f"{lang}.yaml",
            "<icon name='coin'/>.",
            "<icon name='medal'/>.",
        )
    (pdf,) = _built_tokens(data, templates, tmp_path, ["en"])
    assert b"/Subtype /Image" in pdf.read_bytes()


def test_a_name_both_motif_and_image_draws_the_motif_and_warns(sampler):
    from PIL import Image

    data, templates = sampler
    (data / "sampler" / "images").mkdir(exist_ok=True)
    Image.new("RGB", (10, 10)).save(data / "sampler" / "images" / "coin.png")
    warned = _diagnostics(data, templates, "ambiguous-icon")
    assert warned and "draws the motif" in warned[0].message


# --- bad input: at the data text's line, or the template's ---------------------------------------
def test_an_unknown_icon_in_a_text_is_reported_at_its_line_with_the_nearest_name(sampler):
    data, templates = sampler
    english = data / "sampler" / "text" / "en.yaml"
    edit(english, "then pay <icon name='coin'/>", "then pay <icon name='con'/>")
    (problem,) = _diagnostics(data, templates, "unknown-reference")
    assert problem.location.path.endswith("en.yaml")
    assert problem.location.line == line_of(english, "icon name='con'")
    assert "'con'" in problem.message and "did you mean 'coin'" in problem.message
    assert "images/" in problem.hint


def test_known_icons_give_no_diagnostic(sampler):
    data, templates = sampler
    report, _ = check(data, games=["sampler"], templates_dir=templates)
    assert not [d for d in report.items if "icon" in d.message], [d.format() for d in report.items]


@pytest.mark.parametrize(
    "written, said",
    [
        ("<icon/>", "names no icon"),
        ("<icon name='coin' size='3'/>", "takes only a name, not 'size'"),
        ("<icon name='coin'>", "is not closed"),
        ("<icon name='a coin'/>", "is not an icon's name"),
    ],
)
def test_a_badly_written_icon_in_a_text_is_a_markup_error_at_its_line(sampler, written, said):
    data, templates = sampler
    english = data / "sampler" / "text" / "en.yaml"
    edit(english, "then pay <icon name='coin'/>", f"then pay {written}")
    problems = _diagnostics(data, templates, "markup")
    assert problems and all(p.location.line == line_of(english, written) for p in problems)
    assert any(said in p.message for p in problems), [p.message for p in problems]


def _template_body(templates: Path, body: str) -> Path:
    path = templates / "sampler" / "token.j2"
    path.write_text(
        "{% block title %}{{ t.token.name }}{% endblock %}\n"
        "{% block body %}{{ t.token.body }}\n" + body + "{% endblock %}\n",
        encoding="utf-8",
    )
    return path


def test_an_unknown_icon_a_template_writes_is_reported_at_the_template_line(sampler):
    data, templates = sampler
    _template_body(templates, 'Keep <icon name="coins"/> hidden.\n')
    problems = _diagnostics(data, templates, "unknown-reference")
    assert problems and all(p.location.path.endswith("token.j2") for p in problems)
    assert problems[0].location.line == 3 and "did you mean 'coin'" in problems[0].message


def test_an_icon_a_template_writes_well_is_drawn(sampler):
    data, templates = sampler
    _template_body(templates, 'Keep <icon name="coin"/> hidden.\n')
    report, _ = check(data, games=["sampler"], templates_dir=templates)
    assert not report.has_errors, [d.format() for d in report.errors]


@pytest.mark.parametrize(
    "written, said",
    [
        ("<icon/>", "names no icon"),
        ('<icon name="coin" colour="red"/>', "takes only a name, not 'colour'"),
        ('<icon name="coin">2</icon>', "holds nothing"),
    ],
)
def test_a_badly_written_icon_in_a_template_is_reported_at_its_line(sampler, written, said):
    data, templates = sampler
    _template_body(templates, f"\n\nKeep {written} hidden.\n")
    (problem,) = _diagnostics(data, templates, "template")
    assert problem.location.path.endswith("token.j2") and problem.location.line == 5
    assert said in problem.message and "<icon name=" in problem.hint


def test_the_parser_refuses_what_an_icon_cannot_hold():
    assert parse_blocks('<p>Gain <icon name="coin"/>.</p>')[0].markup == 'Gain <icon name="coin"/>.'
    with pytest.raises(RichTextError):
        parse_blocks('<p><icon name="coin" art="x"/></p>')


# --- translations: the same icons, as many times, in any order ------------------------------------
@pytest.mark.parametrize(
    "french, wrong",
    [
        ("Gagnez 2 <icon name='coin'/>, puis payez.", "×2, the translation ×1"),
        ("Gagnez 2 <icon name='coin'/>, payez <icon name='coin'/><icon name='coin'/>.", "×3"),
        ("Gagnez 2 <icon name='coin'/>, puis payez <icon name='coni'/>.", "'coni'"),
    ],
)
def test_a_translation_with_other_icons_is_an_error_at_its_line(sampler, french, wrong):
    data, templates = sampler
    path = data / "sampler" / "text" / "fr.yaml"
    edit(path, "Gagnez 2 <icon name='coin'/>, puis payez <icon name='coin'/>.", french)
    (problem,) = _diagnostics(data, templates, "icon-mismatch")
    assert problem.location.path.endswith("fr.yaml")
    assert problem.location.line == line_of(path, "Gagnez 2")
    assert wrong in problem.message and problem.severity.name == "ERROR"
    assert "<icon" in problem.hint


def test_a_translation_with_its_icons_in_another_order_passes(sampler):
    data, templates = sampler
    game = data / "sampler"
    (game / "print" / "motifs.yaml").write_text(
        COIN + "  star:\n    viewbox: [10, 10]\n    paths:\n      - d: 'M0 0 L10 0 L5 10 Z'\n",
        encoding="utf-8",
    )
    edit(game / "text" / "en.yaml", "then pay <icon name='coin'/>", "then pay <icon name='star'/>")
    edit(
        game / "text" / "fr.yaml",
        "Gagnez 2 <icon name='coin'/>, puis payez <icon name='coin'/>.",
        "Payez <icon name='star'/>, puis gagnez 2 <icon name='coin'/>.",
    )
    assert not _diagnostics(data, templates, "icon-mismatch")


def test_po_export_and_import_keep_icons(sampler, tmp_path):
    from printshop.language.po import export_po, import_po
    from printshop.project.loader import load_project

    data, _ = sampler
    project = load_project(data, games=["sampler"])
    game = project.games["sampler"]
    po = polib.pofile(export_po(game, "fr").decode("utf-8"))
    entry = next(e for e in po if e.msgctxt == "token.body")
    assert entry.msgid.count("<icon name='coin'/>") == 2
    entry.msgstr = "Payez <icon name='coin'/>, puis gagnez 2 <icon name='coin'/>."
    path = tmp_path / "sampler-fr.po"
    po.save(str(path))
    result = import_po(game, "fr", path, project=project)
    assert result.changed == ["token.body"], [d.format() for d in result.report.items]
    french = (data / "sampler" / "text" / "fr.yaml").read_text(encoding="utf-8")
    assert "<icon name='coin'/>, puis gagnez 2 <icon name='coin'/>." in french
    assert load_project(data, games=["sampler"]).games["sampler"].catalogues["fr"]


# --- layout: a style's icon_size, resolved into the markup ----------------------------------------
def test_a_frames_icon_size_sets_the_icons_height_and_shrinks_with_the_text(sampler):
    from printshop.project.loader import load_project

    data, _ = sampler
    motifs = (
        load_project(data, games=["sampler"])
        .view(load_project(data, games=["sampler"]).games["sampler"])
        .motifs.motifs
    )
    unknown: list[str] = []
    with using(IconSet(motifs, data / "sampler" / "images")):
        (block,) = resolve_blocks(
            [Para("p", 'Gain <icon name="coin"/> <icon name="nothing"/>')],
            lambda block: icon_scale(12.0, 10.0),
            unknown,
        )
    assert 'size="1.2"' in block.markup and 'art="100 100;c 50 50 46"' in block.markup
    assert unknown == ["nothing"]


# --- a rules booklet: its paragraphs and tables set icons too ------------------------------------
def _with_booklet(data: Path, templates: Path, body: str) -> Path:
    with (data / "sampler" / "game.yaml").open("a", encoding="utf-8") as game:
        game.write("\nbooklet:\n  template: sampler/rules.xml.j2\n")
    path = templates / "sampler" / "rules.xml.j2"
    path.write_text("<title>Icons</title>\n<p>{{ t.token.body }}</p>\n" + body, encoding="utf-8")
    return path


def test_a_booklet_sets_icons_in_paragraphs_and_cells(sampler, tmp_path):
    data, templates = sampler
    _with_booklet(
        data, templates, '<table><tr><td>Pay <icon name="coin"/></td><td>2</td></tr></table>\n'
    )
    result = build(data, tmp_path, templates_dir=templates, games=["sampler"], langs=["en"], jobs=1)
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    (rules,) = (tmp_path / "sampler").rglob("*rules-a5.pdf")
    page = pypdfium2.PdfDocument(rules.read_bytes())[0]
    assert "Gain 2" in page.get_textpage().get_text_range()
    assert b"/Subtype /Image" not in rules.read_bytes()


def test_an_unknown_icon_in_a_booklet_template_is_reported_at_its_line(sampler):
    data, templates = sampler
    _with_booklet(data, templates, '<p>A line.</p>\n<p>Pay <icon name="cion"/>.</p>\n')
    (problem,) = _diagnostics(data, templates, "unknown-reference")
    assert problem.location.path.endswith("rules.xml.j2") and problem.location.line == 4
    assert "did you mean 'coin'" in problem.message


def test_an_icon_image_that_cannot_be_read_is_reported_at_the_text(sampler):
    data, templates = sampler
    (data / "sampler" / "images").mkdir(exist_ok=True)
    (data / "sampler" / "images" / "medal.png").write_bytes(b"not a picture")
    english = data / "sampler" / "text" / "en.yaml"
    edit(english, "then pay <icon name='coin'/>", "then pay <icon name='medal'/>")
    problems = [d for d in _diagnostics(data, templates, "wrong-type") if "medal" in d.message]
    assert len(problems) == 1 and problems[0].location.line == line_of(english, "'medal'")
    assert "cannot be read" in problems[0].message


def test_an_icon_alone_on_a_last_line_is_a_runt_and_is_tied_back(paints):
    from printshop.typeset.runts import ends_with_runt

    text = TextStyle(font="serif", size="10pt", colour="ink")
    markup = f"Each player gains two coins and then {SQUARE}."
    style = ParagraphStyle("t", fontName="serif", fontSize=10)
    widths = []
    for width in range(60, 260):
        plain = Paragraph(markup, style)
        plain.wrap(width, 500)
        if len(plain.blPara.lines) >= 2 and ends_with_runt(plain):
            widths.append(width)
    assert widths, "some measure leaves the icon alone on the last line"
    for width in widths:
        (paragraph,) = make_flowables([Para("p", markup)], text, 10, paints, width)
        paragraph.wrap(width, 500)
        assert not ends_with_runt(paragraph), width
        last = paragraph.blPara.lines[-1]
        assert any(getattr(w, "text", "").strip() for w in last.words), width


# --- a session (watch, serve): a motif saved lays out again the faces whose texts set it ---------
def test_a_motif_an_icon_draws_saved_lays_out_the_faces_that_set_it_as_a_cold_build(tmp_path):
    from printshop.live.session import Session
    from printshop.project.paths import DEFAULT_DATA_DIR
    from printshop.render.faces import face_icons

    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    settings = {"games": ["kremlin"], "langs": ["en"], "papers": ["a4"]}
    session = Session(data, tmp_path / "live", **settings)
    assert session.refresh().ok
    setting = {
        name
        for name, laid in session._laid.items()
        if laid.face is not None and "cross" in face_icons(laid.face)
    }
    assert 0 < len(setting) < len(session._laid) / 2, (len(setting), len(session._laid))
    motifs = data / "kremlin" / "print" / "motifs.yaml"
    edit(motifs, '"M35 4 L65 4 L65 35 L96 35', '"M38 4 L62 4 L62 38 L96 38')
    edit(
        motifs,
        "L96 65 L65 65 L65 96 L35 96 L35 65 L4 65 L4 35 L35 35 Z",
        "L96 62 L62 62 L62 96 L38 96 L38 62 L4 62 L4 38 L38 38 Z",
    )
    update = session.refresh({motifs})
    assert update.ok and update.faces_laid_out >= len(setting), update
    cold = build(data, tmp_path / "cold", force=True, **settings)
    assert not cold.report.has_errors
    live = sorted(p.relative_to(tmp_path / "live") for p in (tmp_path / "live").rglob("*.pdf"))
    assert live == sorted(
        p.relative_to(tmp_path / "cold") for p in (tmp_path / "cold").rglob("*.pdf")
    )
    for name in live:
        assert (tmp_path / "live" / name).read_bytes() == (tmp_path / "cold" / name).read_bytes(), (
            name
        )
