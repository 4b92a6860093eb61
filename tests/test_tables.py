"""Designed tables (issue 50, item 3), the same in booklets and in card and sheet frames: rules
(grid, rows, none), column rules, a line under the last row, a header fill, cell padding and empty
writing rows (typeset/tables.py); a booklet table split over two pages keeps two rows on each side
and repeats its header; bad attributes are diagnostics at the template's line.

The lines are counted in the PDF's content stream (ReportLab draws a table's rules as `m … l`
segments); the header fill is read from a rasterized page."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from pypdf import PdfReader
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from printshop.pipeline.build import build, check
from printshop.typeset.richtext import (
    MAX_WRITING_ROWS,
    RichTextError,
    Table,
    TableLook,
    parse_blocks,
)
from printshop.typeset.tables import KEEP_WHOLE_ROWS, MIN_ROWS, KeptTable
from tests.conftest import fixture_project, line_of

MM = 72 / 25.4
GOLD = (0xD9, 0xA5, 0x2B)  # data/print/colours.yaml


# --- the attributes parsed, and refused with the place they stand -------------------------------
def test_the_attributes_are_read_into_the_tables_look():
    (table,) = parse_blocks(
        '<table rules="rows" header-fill="gold" column-rules="yes" last-rule="no" padding="2mm" '
        'rows="12" row-height="8mm"><tr><th>Name</th><th>Score</th></tr></table>'
    )
    assert isinstance(table, Table)
    assert table.look == TableLook("rows", "gold", True, False, "2mm")
    assert (table.writing_rows, table.row_height) == (12, "8mm")
    (plain,) = parse_blocks("<table><tr><td>a</td></tr></table>")
    assert plain.look == TableLook() and plain.writing_rows == 0


@pytest.mark.parametrize(
    "attributes, needle",
    [
        ('rules="grod"', 'rules="grod"'),
        ('column-rules="maybe"', 'column-rules="maybe"'),
        ('last-rule="1"', 'last-rule="1"'),
        ('padding="3"', 'padding="3"'),
        ('padding="-1mm"', 'padding="-1mm"'),
        ('row-height="tall"', 'row-height="tall"'),
        ('row-height="0mm"', 'row-height="0mm"'),
        ('rows="0"', 'rows="0"'),
        ('rows="-3"', 'rows="-3"'),
        ('rows="twelve"', 'rows="twelve"'),
        (f'rows="{MAX_WRITING_ROWS + 1}"', f'rows="{MAX_WRITING_ROWS + 1}"'),
        ('header-fill=""', 'header-fill=""'),
    ],
)
def test_a_bad_attribute_is_refused_where_it_stands(attributes, needle):
    fragment = f"<p>x</p>\n<table {attributes}><tr><td>a</td></tr></table>"
    with pytest.raises(RichTextError) as error:
        parse_blocks(fragment)
    assert error.value.needle == needle and error.value.line == 2
    assert error.value.hint  # what to write instead


def test_the_largest_score_pad_is_taken():
    (table,) = parse_blocks(f'<table rows="{MAX_WRITING_ROWS}" rules="grid"></table>')
    assert table.writing_rows == MAX_WRITING_ROWS and table.look.rules == "grid"


def test_a_tfoot_is_read_as_the_last_rows():
    (table,) = parse_blocks(
        '<table rows="3"><tr><th>Name</th><th>Score</th></tr>'
        "<tfoot><tr><th>Total</th><td></td></tr></tfoot></table>"
    )
    assert table.foot_rows == 1 and [row[0] for row in table.rows] == [
        (True, "Name"),
        (True, "Total"),
    ]
    (plain,) = parse_blocks("<table><tr><td>a</td></tr></table>")
    assert plain.foot_rows == 0


@pytest.mark.parametrize(
    "inside",
    [
        "<tfoot><tr><td>t</td></tr></tfoot><tr><td>a</td></tr>",  # not at the end
        "<tr><td>a</td></tr><tfoot><tr><td>t</td></tr></tfoot><tfoot><tr><td>u</td></tr></tfoot>",
        "<tr><td>a</td></tr><tfoot><td>t</td></tfoot>",  # a cell straight in the foot
    ],
)
def test_a_misplaced_tfoot_is_refused_where_it_stands(inside):
    with pytest.raises(RichTextError) as error:
        parse_blocks(f"<p>x</p>\n<table>{inside}</table>")
    assert error.value.line == 2 and error.value.hint


def test_the_foot_is_set_under_the_writing_rows_with_their_height():
    """A score pad's total comes after its empty rows, as tall as they are (a number is written
    in it), and its header cells are filled like the header's."""
    from printshop.typeset.tables import TableDefaults, designed_table

    (table,) = parse_blocks(
        '<table rules="grid" header-fill="gold" rows="4" row-height="9mm">'
        "<tr><th>Who</th><th>Score</th></tr><tfoot><tr><th>Total</th><td></td></tr></tfoot></table>"
    )
    style = ParagraphStyle("cell", fontName="Helvetica", fontSize=10, leading=12)
    cells = [[Paragraph(text or " ", style) for _, text in row] for row in table.rows]

    class Paints:
        def fill(self, name):
            return name

        def line(self, name):
            return name

    drawn = designed_table(
        table,
        cells,
        lambda: Paragraph(" ", style),
        TableDefaults("grid", None, False, False, "black", 0.5, 2.0, 2.0),
        Paints(),
        100 * MM,
        [],
    )
    values = drawn._cellvalues
    assert len(values) == 1 + 4 + 1
    assert values[0][0].getPlainText() == "Who" and values[-1][0].getPlainText() == "Total"
    assert all(not row[0].getPlainText().strip() for row in values[1:-1])
    assert drawn._argH[1:] == [9 * MM] * 5
    fills = [cmd[1] for cmd in drawn._bkgrndcmds]
    assert (0, 5) in fills and (0, 0) in fills and (0, 1) not in fills


# --- a table split over two pages ------------------------------------------------------------------
def _kept(rows: int) -> KeptTable:
    style = ParagraphStyle("cell", fontName="Helvetica", fontSize=10, leading=12)
    data = [[Paragraph("Head", style)]] + [[Paragraph(f"row {n}", style)] for n in range(rows)]
    table = KeptTable(data, repeatRows=1, rowHeights=[20] * (rows + 1))
    table.wrap(100, 1e6)
    return table


@pytest.mark.parametrize("room_rows", range(1, 15))
def test_a_split_table_leaves_no_lone_row_and_repeats_its_header(room_rows):
    table = _kept(13)  # a header and 13 rows of 20 pt: more than KEEP_WHOLE_ROWS
    parts = table.split(100, room_rows * 20 + 1)
    if not parts:  # moved whole to the next page
        assert room_rows - 1 < MIN_ROWS
        return
    if len(parts) == 1:
        assert room_rows >= 14
        return
    first, rest = parts
    assert len(first._cellvalues) - 1 >= MIN_ROWS  # a header, then at least two rows
    assert len(rest._cellvalues) - 1 >= MIN_ROWS
    assert rest._cellvalues[0][0].text == "Head"  # the header again on the next page
    assert len(first._cellvalues) + len(rest._cellvalues) == 14 + 1
    # the part on the next page splits by the same rule
    assert isinstance(rest, KeptTable)


def test_room_for_all_but_one_row_moves_two():
    """Where a plain table would leave its last row alone on the next page, two go."""
    first, rest = _kept(13).split(100, 13 * 20 + 1)  # room for the header and 12 rows
    assert len(first._cellvalues) == 1 + 11 and len(rest._cellvalues) == 1 + 2


@pytest.mark.parametrize("rows", [3, 8, KEEP_WHOLE_ROWS])
def test_a_table_of_up_to_ten_rows_never_splits(rows):
    """It goes whole to the next page, wherever the page ends inside it (must-pass: a table one row
    longer splits)."""
    for room_rows in range(1, rows + 1):
        assert _kept(rows).split(100, room_rows * 20 + 1) == []
    assert len(_kept(KEEP_WHOLE_ROWS + 1).split(100, 8 * 20 + 1)) == 2


# --- in produced PDFs: a booklet and a sheet frame -------------------------------------------------
BOOKLET = """<title>Tables</title>
<p>Intro.</p>
<table rules="rows" column-rules="yes" header-fill="gold" widths="1,1,1">
<tr><th>Alpha</th><th>Beta</th><th>Gamma</th></tr>
{rows}
</table>
<pagebreak/>
<p>Plain.</p>
<table rules="none" widths="1,1"><tr><th>One</th><th>Two</th></tr><tr><td>a</td><td>b</td></tr></table>
<pagebreak/>
<p>Styled.</p>
<table widths="1,1"><tr><th>One</th><th>Two</th></tr><tr><td>a</td><td>b</td></tr></table>
"""

SCORE_PAD = """{% block title %}{{ t.aid.title }}{% endblock %}
{% block body %}<table rules="rows" column-rules="yes" last-rule="yes" header-fill="gold"
 widths="1,1,1,1" rows="12" row-height="6mm"><tr><th>P1</th><th>P2</th><th>P3</th><th>P4</th></tr>
</table>{% endblock %}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    data, templates = fixture_project(tmp_path_factory.mktemp("tables"))
    with (data / "sampler" / "game.yaml").open("a", encoding="utf-8") as game:
        game.write("\nbooklet:\n  template: sampler/rules.xml.j2\n")
    rows = "\n".join(
        f"<tr><td>row {n:02d}</td><td>{n}</td><td>{n * 2}</td></tr>" for n in range(1, 61)
    )
    (templates / "sampler" / "rules.xml.j2").write_text(
        BOOKLET.replace("{rows}", rows), encoding="utf-8"
    )
    (templates / "sampler" / "aid-front.j2").write_text(SCORE_PAD, encoding="utf-8")
    return data, templates


def _build(data: Path, templates: Path, out: Path) -> Path:
    result = build(
        data, out, templates_dir=templates, games=["sampler"], langs=["en"], papers=["a4"], jobs=1
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out / "sampler" / "en"


@pytest.fixture(scope="module")
def built(project, tmp_path_factory) -> Path:
    return _build(*project, tmp_path_factory.mktemp("out"))


def _copy(project: tuple[Path, Path], root: Path) -> tuple[Path, Path]:
    import shutil

    data, templates = (root / "data", root / "templates")
    shutil.copytree(project[0], data)
    shutil.copytree(project[1], templates)
    return data, templates


def _styled_page(booklet: Path):
    return next(page for page in PdfReader(booklet).pages if "Styled." in page.extract_text())


SEGMENT = re.compile(rb"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l")


def _long_lines(page, length: float, form: str = "") -> tuple[set[float], set[float]]:
    """The y of the horizontal and the x of the vertical segments drawn on `page` (in its form
    XObject `form`: a sheet's face) at least `length` long all told (a table's rules; crop marks
    and the like are short)."""
    if form:
        content = page["/Resources"]["/XObject"][form].get_object().get_data()
    else:
        content = page.get_contents().get_data()
    across: dict[float, float] = {}
    down: dict[float, float] = {}
    for match in SEGMENT.finditer(content):
        x1, y1, x2, y2 = (float(value) for value in match.groups())
        if abs(y1 - y2) < 0.01 and abs(x1 - x2) > 0.01:
            across[round(y1, 1)] = across.get(round(y1, 1), 0) + abs(x2 - x1)
        elif abs(x1 - x2) < 0.01 and abs(y1 - y2) > 0.01:
            down[round(x1, 1)] = down.get(round(x1, 1), 0) + abs(y2 - y1)
    return (
        {y for y, total in across.items() if total >= length},
        {x for x, total in down.items() if total >= length},
    )


def _gold_pixels(path: Path, page: int) -> int:
    document = pypdfium2.PdfDocument(str(path))
    image = np.asarray(document[page].render(scale=1).to_pil().convert("RGB")).astype(int)
    document.close()
    return int((np.abs(image - np.array(GOLD)).sum(axis=2) < 30).sum())


def test_a_booklet_table_split_over_pages_repeats_its_header_and_leaves_no_lone_row(built):
    booklet = PdfReader(built / "sampler-en-rules-a5.pdf")
    pages = [page.extract_text() for page in booklet.pages]
    holding = [index for index, text in enumerate(pages) if re.search(r"row \d\d", text)]
    assert len(holding) >= 2, pages  # 60 rows do not fit one A5 page
    for index in holding:
        assert "Alpha" in pages[index]  # the header on every page the table reaches
        assert len(re.findall(r"row \d\d", pages[index])) >= MIN_ROWS
    # its rules: three columns, rules="rows" column-rules="yes": two lines between columns, none
    # around; its header filled in gold
    _, columns = _long_lines(booklet.pages[holding[0]], 100)
    assert len(columns) == 2, columns
    assert _gold_pixels(built / "sampler-en-rules-a5.pdf", holding[0]) > 500


def test_a_booklet_table_with_rules_none_draws_no_line(built):
    booklet = PdfReader(built / "sampler-en-rules-a5.pdf")
    page = next(page for page in booklet.pages if "Plain." in page.extract_text())
    rows, columns = _long_lines(page, 30)
    folio = {y for y in rows if y < 20 * MM}  # the folio's rule, in the foot margin
    assert folio and not columns and not rows - folio, (rows, columns)


def test_a_score_pad_in_a_sheet_frame_draws_its_writing_rows_and_rules(built):
    sheet = built / "sampler-en-aid-a4.pdf"
    first = PdfReader(sheet).pages[0]
    rows, columns = _long_lines(first, 70 * MM, "/FormXob.sheet0")  # the first face on the page
    # a header and 12 writing rows, each 6 mm: a line under each row but the last (12), and one
    # under the last (last-rule); three between four columns; nothing around
    assert len(columns) == 3, columns
    assert len(rows) == 13, rows
    ys = sorted(rows)
    gaps = {round((b - a) / MM, 1) for a, b in zip(ys, ys[1:-1])}
    assert gaps == {6.0}, gaps  # the writing rows' height
    assert _gold_pixels(sheet, 0) > 300


def test_a_table_without_attributes_takes_the_booklet_styles_look(built, project, tmp_path):
    # printshop's booklet.yaml: every line (grid), as booklets always drew them: 3 column lines
    _, columns = _long_lines(_styled_page(built / "sampler-en-rules-a5.pdf"), 10)
    assert len(columns) == 3, columns
    data, templates = _copy(project, tmp_path)
    from tests.conftest import edit

    edit(
        data / "print" / "booklet.yaml",
        "grid_width: 0.4pt}",
        "grid_width: 0.4pt, rules: none, column_rules: true, header_fill: none}",
    )
    restyled = _build(data, templates, tmp_path / "out") / "sampler-en-rules-a5.pdf"
    page = _styled_page(restyled)
    rows, columns = _long_lines(page, 10)
    assert len(columns) == 1, columns  # only the line between the two columns
    assert not {y for y in rows if y > 20 * MM}, rows  # no line between rows (the folio's aside)


@pytest.mark.parametrize(
    "style, code, needle",
    [
        ("header_fill: golden", "unknown-reference", "golden"),
        ("rules: grod", "wrong-type", "tables.rules"),
    ],
)
def test_a_bad_booklet_table_style_is_reported_at_booklet_yaml(
    project, tmp_path, style, code, needle
):
    from tests.conftest import edit

    data, templates = _copy(project, tmp_path)
    line = edit(
        data / "print" / "booklet.yaml", "grid_width: 0.4pt}", f"grid_width: 0.4pt, {style}}}"
    )
    report, _ = check(data, templates_dir=templates, games=["sampler"])
    found = [d for d in report.items if needle in d.message or needle in d.format()]
    assert found, [d.format() for d in report.items]
    assert found[0].location.path.endswith("booklet.yaml") and found[0].location.line == line
    assert found[0].code == code


# --- unknown colours: at the template's line -----------------------------------------------------
def test_an_unknown_header_fill_is_reported_at_the_booklets_template_line(project, tmp_path):
    import shutil

    data, templates = (tmp_path / "data", tmp_path / "templates")
    shutil.copytree(project[0], data)
    shutil.copytree(project[1], templates)
    rules = templates / "sampler" / "rules.xml.j2"
    rules.write_text(rules.read_text().replace('header-fill="gold"', 'header-fill="golden"'))
    report, _ = check(data, templates_dir=templates, games=["sampler"])
    found = [d for d in report.items if d.code == "unknown-reference" and "golden" in d.message]
    assert found and found[0].location.path.endswith("rules.xml.j2")
    assert found[0].location.line == line_of(rules, 'header-fill="golden"')
    assert "gold" in found[0].message and found[0].hint


def test_an_unknown_header_fill_is_reported_at_the_faces_template_line(project, tmp_path):
    import shutil

    data, templates = (tmp_path / "data", tmp_path / "templates")
    shutil.copytree(project[0], data)
    shutil.copytree(project[1], templates)
    face = templates / "sampler" / "aid-front.j2"
    face.write_text(face.read_text().replace('header-fill="gold"', 'header-fill="gilt"'))
    report, _ = check(data, templates_dir=templates, games=["sampler"])
    found = [d for d in report.items if d.code == "unknown-reference" and "gilt" in d.message]
    assert found and found[0].location.path.endswith("aid-front.j2")
    assert found[0].location.line == line_of(face, 'header-fill="gilt"')


def test_a_bad_rules_value_is_reported_at_the_templates_line(project, tmp_path):
    import shutil

    data, templates = (tmp_path / "data", tmp_path / "templates")
    shutil.copytree(project[0], data)
    shutil.copytree(project[1], templates)
    face = templates / "sampler" / "aid-front.j2"
    face.write_text(face.read_text().replace('rules="rows"', 'rules="rowz"'))
    report, _ = check(data, templates_dir=templates, games=["sampler"])
    found = [d for d in report.items if d.code == "template" and "rowz" in d.message]
    assert found and found[0].location.path.endswith("aid-front.j2")
    assert found[0].location.line == line_of(face, 'rules="rowz"')
    assert "grid, rows, none" in found[0].message and "rules=" in found[0].hint


def test_the_valid_project_checks_clean(project):
    report, _ = check(*project[:1], templates_dir=project[1], games=["sampler"])
    assert not report.has_errors, [d.format() for d in report.errors]


def test_padding_sets_the_space_above_and_below_each_cells_text(paints):
    from printshop.project.models.booklet import TextStyle
    from printshop.typeset.fitting import make_flowables

    style = TextStyle(font="serif", size="10pt")

    def height(table: str) -> float:
        (flowable,) = make_flowables(parse_blocks(table), style, 10, paints, 200)
        return flowable.wrap(200, 1e6)[1]

    plain = height("<table><tr><td>a</td></tr></table>")
    padded = height('<table padding="5mm"><tr><td>a</td></tr></table>')
    # a frame's cell: 2.5 pt above and 3.5 pt below its text (a quarter and 0.35 of the size)
    assert padded - plain == pytest.approx(10 * MM - 6, abs=0.01)
    pad = height('<table rows="3" row-height="9mm"></table>')
    assert pad == pytest.approx(3 * 9 * MM, abs=0.01)  # a score pad of three writing rows
