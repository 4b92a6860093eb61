"""Issue 50, item 5: a deck's cards read from a spreadsheet (`spreadsheet: {file, sheet}`). A project
made with `printshop init` and `printshop new`: a deck from a CSV file (beside a listed joker) and one
from a sheet of an XLSX workbook validate, build (every card named in the PDF) and go to Tabletop
Simulator; composition rules see the sheet's columns as vars; a session reads the game again when
the spreadsheet is saved. Each kind of bad sheet is a diagnostic naming the file, the sheet and the
cell, at the row and column, and its valid neighbour passes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import openpyxl
import pytest

from printshop.cli import main
from printshop.diagnostics import Report, StageFailed
from printshop.pipeline.build import check
from printshop.project.loader import load_project
from printshop.project.spreadsheet import column_letters
from tests.pdfinspect import page_texts
from tests.test_generated_decks import FACES, make_game

SUITS = ("herring", "salt", "amber", "spice")

GAME = """\
title: game.title
source_language: en
players: {min: 2, max: 5}
minutes: 30

decks:
  market:
    card_size: poker-eu
    bleed: 0.125in
    safe: 4mm
    back: back
    spreadsheet: {file: cards.csv}
    cards:
      - {id: joker, kind: joker, front: joker}
  bazaar:
    card_size: poker-eu
    bleed: 0.125in
    safe: 4mm
    back: back
    spreadsheet: {file: sheets/bazaar.xlsx, sheet: Bazaar}

composition:
  - deck: market
    total: 46
    kinds: {goods: 45, joker: 1}
    allowed:
      - {var: suit, values: [herring, salt, amber, spice]}

booklet:
  template: market/rules.xml.j2
"""


def market_csv() -> str:
    rows = ["id,kind,copies,front,suit,value"]
    for suit in SUITS:
        for value in range(1, 12):
            copies = 2 if (suit, value) == ("spice", 11) else ""
            rows.append(f"{suit}-{value},goods,{copies},{suit},{suit},{value}")
    return "\n".join(rows) + "\n"


BAZAAR = [
    ["id", "kind", "qty", "front", "suit", "value"],
    ["bz-herring", "goods", 1, "herring", "herring", 12],
    ["bz-amber", "goods", 3, "amber", "amber", 13],
]


def write_xlsx(path: Path, rows: list[list], sheet: str = "Bazaar", *, setup=None) -> None:
    book = openpyxl.Workbook()
    book.active.title = "Notes"
    cells = book.create_sheet(sheet)
    for row in rows:
        cells.append(row)
    if setup is not None:
        setup(cells)
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save(path)


def make_sheet_game(root: Path, game: str = GAME, csv_text: str | None = None, rows=None) -> Path:
    data = make_game(root, game=game, faces=FACES)
    (data / "market" / "cards.csv").write_text(
        market_csv() if csv_text is None else csv_text, encoding="utf-8"
    )
    write_xlsx(data / "market" / "sheets" / "bazaar.xlsx", BAZAAR if rows is None else rows)
    return data


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sheets") / "games"
    make_sheet_game(root)
    cwd = Path.cwd()
    try:
        os.chdir(root)
        assert main(["i18n", "sync", "fr", "market"]) == 0
        assert main(["validate", "--strict"]) == 0
        assert main(["build", "--quiet", "--jobs", "1", "--paper", "a4", "--lang", "en"]) == 0
        assert main(["build", "--quiet", "--jobs", "1", "--target", "tts", "--lang", "en"]) == 0
    finally:
        os.chdir(cwd)
    return root


def test_the_rows_are_the_cards_with_their_vars_and_places(tmp_path):
    data = make_sheet_game(tmp_path / "games")
    decks = load_project(data).games["market"].game.decks
    market = decks["market"].cards
    assert len(market) == 45 and market[0].id == "herring-1" and market[-1].id == "joker"
    assert market[0].vars == {"suit": "herring", "value": 1}  # a number kept as a number
    assert market[0].count == 1 and market[43].count == 2  # copies empty: 1; copies 2
    assert (market[3].where().line, market[3].where().col) == (5, 1)  # row 5, column A
    assert market[3].where("front").col == 4 and market[3].where().path.endswith("cards.csv")
    bazaar = decks["bazaar"].cards
    assert [(c.id, c.count, c.vars["value"]) for c in bazaar] == [
        ("bz-herring", 1, 12),
        ("bz-amber", 3, 13),
    ]
    assert bazaar[1].where("kind").line == 3 and bazaar[1].where("kind").col == 2


def test_the_sheet_decks_validate_and_build_with_every_card_named(built):
    out = built / "output" / "market" / "en"
    texts = "\n".join(page_texts(out / "market-en-market-a4.pdf")[0::2])
    for suit in SUITS:
        assert texts.count(suit.upper()) == 11 + (suit == "spice"), (suit, texts)
    assert "JOKER" in texts
    bazaar = "\n".join(page_texts(out / "market-en-bazaar-a4.pdf")[0::2])
    assert bazaar.count("AMBER") == 3 and "13" in bazaar and "12" in bazaar


def test_the_sheet_decks_go_to_tabletop_simulator(built):
    saved = built / "output" / "market" / "en" / "tts" / "market-en-market.json"
    deck = json.loads(saved.read_text(encoding="utf-8"))["ObjectStates"][0]
    names = [card["Nickname"] for card in deck["ContainedObjects"]]
    assert len(deck["DeckIDs"]) == 46 and names[0] == "Herring" and names[-1] == "Joker"


def test_composition_rules_see_the_sheet_columns_at_their_cells(tmp_path):
    wrong = market_csv().replace("salt-3,goods,,salt,salt,3", "salt-3,goods,,salt,sugar,3")
    report, _ = check(make_sheet_game(tmp_path / "games", csv_text=wrong))
    errors = [d for d in report.errors if "sugar" in d.message]
    assert errors, [d.format() for d in report.errors]
    assert errors[0].location.path.endswith("cards.csv") and errors[0].location.line == 15


def test_a_session_reads_the_game_again_when_the_spreadsheet_is_saved(tmp_path):
    from printshop.live.session import Session

    data = make_sheet_game(tmp_path / "games")
    session = Session(data, None, langs=["en"], render=False)
    assert session.refresh().ok and session.project is not None
    sheet = data / "market" / "sheets" / "bazaar.xlsx"
    write_xlsx(sheet, BAZAAR + [["bz-salt", "goods", 1, "salt", "salt", 14]])
    update = session.refresh({sheet})
    assert update.ok, [d.format() for d in update.report.errors]
    cards = session.project.games["market"].game.decks["bazaar"].cards
    assert [card.id for card in cards] == ["bz-herring", "bz-amber", "bz-salt"]


# --- bad input: each a diagnostic naming file, sheet and cell, and the valid neighbour that passes
def _errors(tmp_path: Path, game: str = GAME, csv_text: str | None = None, rows=None) -> list:
    data = make_sheet_game(tmp_path / "games", game, csv_text, rows)
    return _load(data)


def _load(data: Path) -> list:
    report = Report()
    try:
        load_project(data, report=report)
    except StageFailed as failed:
        return list(failed.report.errors)
    return list(report.errors)


def _one(errors: list):
    found = [d for d in errors if d.code == "spreadsheet-cards"]
    assert len(found) == 1, [d.format() for d in errors]
    return found[0]


def _at(error, line: int, col: int, cell: str) -> None:
    assert (error.location.line, error.location.col) == (line, col), error.format()
    assert cell in error.message, error.format()
    assert error.hint


GAME_CSV_ONLY = GAME.replace("spreadsheet: {file: sheets/bazaar.xlsx, sheet: Bazaar}", "cards: []")


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("file: cards.csv", "file: nothing.csv", "no spreadsheet 'nothing.csv'"),
        ("file: cards.csv", "file: ../cards.csv", "outside the game's folder"),
        ("file: cards.csv", "file: /etc/passwd.csv", "outside the game's folder"),
        ("file: cards.csv", "file: faces.yaml", "not a spreadsheet"),
        ("sheet: Bazaar", "sheet: Bazar", "no sheet 'Bazar'"),
    ],
)
def test_a_bad_file_or_sheet_is_said_at_game_yaml(tmp_path, old, new, says):
    error = _one(_errors(tmp_path, GAME.replace(old, new)))
    assert error.location.path.endswith("game.yaml") and error.location.line in (12, 20)
    assert says in error.message and error.hint, error.format()


def test_an_unknown_sheet_names_the_sheets(tmp_path):
    error = _one(_errors(tmp_path, GAME.replace("sheet: Bazaar", "sheet: Bazar")))
    assert "(sheets: Notes, Bazaar)" in error.message, error.format()


CSV_CASES = [
    # a row's id used twice
    ("herring-2,goods,,herring,herring,2", "herring-1,goods,,herring,herring,2", (3, 1), "A3"),
    # a count that is not a whole number
    ("salt-1,goods,,salt,salt,1", "salt-1,goods,two,salt,salt,1", (13, 3), "C13"),
    ("salt-1,goods,,salt,salt,1", "salt-1,goods,1.5,salt,salt,1", (13, 3), "C13"),
    ("salt-1,goods,,salt,salt,1", "salt-1,goods,0,salt,salt,1", (13, 3), "C13"),
    # an id that is not an id, a card without a front
    ("salt-1,goods,,salt,salt,1", "Salt One,goods,,salt,salt,1", (13, 1), "A13"),
    ("salt-1,goods,,salt,salt,1", "salt-1,goods,,,salt,1", (13, 4), "D13"),
    # no id column; a text column; a column named twice
    ("id,kind,copies", "name,kind,copies", (1, 1), "A1"),
    ("front,suit,value", "front,suit,name@en", (1, 6), "F1"),
    ("front,suit,value", "front,suit,suit", (1, 6), "F1"),
    ("id,kind,copies", "id,kind,count", (1, 3), "C1"),  # with qty too: see the test
    # a value in a column without a name
    ("amber-4,goods,,amber,amber,4", "amber-4,goods,,amber,amber,4,,oops", (27, 8), "H27"),
]


@pytest.mark.parametrize(("old", "new", "place", "cell"), CSV_CASES)
def test_a_bad_csv_cell_is_said_at_its_cell(tmp_path, old, new, place, cell):
    text = market_csv().replace(old, new, 1)
    if new == "id,kind,count":  # two columns for the number of copies
        text = text.replace("id,kind,count,front,suit,value", "id,kind,count,front,qty,value")
        place, cell = (1, 5), "E1"
    assert text != market_csv()
    error = _one(_errors(tmp_path, GAME_CSV_ONLY, csv_text=text))
    _at(error, *place, f"cards.csv!{cell}")
    assert error.location.path.endswith("cards.csv")


def test_a_sheet_of_a_csv_file_is_said(tmp_path):
    game = GAME_CSV_ONLY.replace("{file: cards.csv}", "{file: cards.csv, sheet: Market}")
    error = _one(_errors(tmp_path, game))
    assert error.location.path.endswith("game.yaml") and error.location.line == 12
    assert "has no sheet 'Market'" in error.message and "leave 'sheet' out" in error.hint


def test_a_listed_card_with_a_row_s_id_is_said(tmp_path):
    game = GAME.replace("{id: joker, kind: joker", "{id: salt-2, kind: joker")
    report, _ = check(make_sheet_game(tmp_path / "games", game))
    found = [d for d in report.errors if d.code == "duplicate-id"]
    assert len(found) == 1 and "salt-2" in found[0].message, [d.format() for d in report.errors]
    assert "cards.csv:14:1" in found[0].message  # the row of salt-2, its id column


def test_a_text_column_says_texts_go_in_the_language_file(tmp_path):
    text = market_csv().replace("front,suit,value", "front,suit,name@fr", 1)
    error = _one(_errors(tmp_path, GAME_CSV_ONLY, csv_text=text))
    assert "text/fr.yaml" in error.hint and "printshop i18n" in error.hint


@pytest.mark.parametrize(
    "text",
    ["", "\n\n", "id,kind,copies,front,suit,value\n", "id,kind,copies,front,suit,value\n,,\n"],
)
def test_an_empty_csv_is_said(tmp_path, text):
    error = _one(_errors(tmp_path, GAME_CSV_ONLY, csv_text=text))
    assert error.location.path.endswith("cards.csv") and error.hint
    assert "empty" in error.message or "holds no card" in error.message


def test_valid_csv_neighbours_pass(tmp_path):
    # empty rows, a quoted cell, a whole count under 'count', an empty var cell: all read
    text = market_csv().replace("id,kind,copies", "id,kind,count")
    text = text.replace("salt-1,goods,,salt,salt,1", 'salt-1,goods,3,salt,"salt",') + "\n,,,\n"
    data = make_sheet_game(tmp_path / "games", GAME_CSV_ONLY, csv_text=text)
    assert not _load(data)
    card = load_project(data).games["market"].game.decks["market"].cards[11]
    assert card.id == "salt-1" and card.count == 3 and card.vars == {"suit": "salt"}


def _merge(cells) -> None:
    cells.merge_cells("B2:B3")


def _formula(cells) -> None:
    cells["F3"] = "=F2+1"  # openpyxl writes no value for it: a file never opened in a program


def _error_value(cells) -> None:
    cells["F2"].value = "#DIV/0!"
    cells["F2"].data_type = "e"


XLSX_CASES = [
    (BAZAAR, _error_value, (2, 6), "F2"),
    ([BAZAAR[0], BAZAAR[1], ["bz-herring", "goods", 1, "salt", "salt", 2]], None, (3, 1), "A3"),
    ([BAZAAR[0], ["bz-herring", "goods", 1.5, "herring", "herring", 1]], None, (2, 3), "C2"),
    ([BAZAAR[0], ["bz-herring", "goods", "two", "herring", "herring", 1]], None, (2, 3), "C2"),
    ([BAZAAR[0], ["bz-herring", "goods", 1, "herring", "herring", 1.25]], None, (2, 6), "F2"),
    ([BAZAAR[0], ["bz-herring", "goods", True, "herring", "herring", 1]], None, (2, 3), "C2"),
    ([["name", "kind"], ["bz-herring", "goods"]], None, (1, 1), "A1"),
    ([BAZAAR[0] + ["name@de"], BAZAAR[1] + ["Hering"]], None, (1, 7), "G1"),
    (BAZAAR, _merge, (2, 2), "B2"),
    (BAZAAR, _formula, (3, 6), "F3"),
]


@pytest.mark.parametrize(("rows", "setup", "place", "cell"), XLSX_CASES)
def test_a_bad_xlsx_cell_is_said_at_its_sheet_and_cell(tmp_path, rows, setup, place, cell):
    data = make_sheet_game(tmp_path / "games")
    write_xlsx(data / "market" / "sheets" / "bazaar.xlsx", rows, setup=setup)
    error = _one(_load(data))
    _at(error, *place, f"bazaar.xlsx:Bazaar!{cell}")
    assert error.location.path.endswith("bazaar.xlsx")


def test_an_empty_sheet_is_said(tmp_path):
    data = make_sheet_game(tmp_path / "games")
    write_xlsx(data / "market" / "sheets" / "bazaar.xlsx", [])
    error = _one(_load(data))
    assert "bazaar.xlsx:Bazaar is empty" in error.message and error.hint


def test_valid_xlsx_neighbours_pass(tmp_path):
    # a formula with its value saved, a merged cell outside the columns, a whole float, text ids
    def setup(cells) -> None:
        cells["H1"] = "note"
        cells.merge_cells("J2:K2")

    data = make_sheet_game(tmp_path / "games")
    rows = [BAZAAR[0], ["bz-herring", "goods", 2.0, "herring", "herring", 7]]
    write_xlsx(data / "market" / "sheets" / "bazaar.xlsx", rows, setup=setup)
    assert not _load(data)
    card = load_project(data).games["market"].game.decks["bazaar"].cards[0]
    assert card.count == 2 and card.vars == {"suit": "herring", "value": 7}


def test_a_formula_with_its_value_saved_is_read(tmp_path):
    import zipfile

    path = tmp_path / "f.xlsx"
    write_xlsx(path, BAZAAR, setup=_formula)
    # a program that computes formulas saves the value beside the formula: written here by hand
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    name = next(name for name, body in parts.items() if b"<f>F2+1</f><v></v>" in body)
    parts[name] = parts[name].replace(b"<f>F2+1</f><v></v>", b"<f>F2+1</f><v>14</v>")
    data = make_sheet_game(tmp_path / "games")
    with zipfile.ZipFile(data / "market" / "sheets" / "bazaar.xlsx", "w") as archive:
        for part, body in parts.items():
            archive.writestr(part, body)
    assert not _load(data)
    cards = load_project(data).games["market"].game.decks["bazaar"].cards
    assert cards[1].vars["value"] == 14


def test_an_ods_sheet_is_read_and_its_bad_cells_said(tmp_path):
    data = make_sheet_game(tmp_path / "games", GAME.replace("bazaar.xlsx", "bazaar.ods"))
    write_ods(data / "market" / "sheets" / "bazaar.ods", BAZAAR)
    assert not _load(data)
    cards = load_project(data).games["market"].game.decks["bazaar"].cards
    assert [(c.id, c.count, c.vars["value"]) for c in cards] == [
        ("bz-herring", 1, 12),
        ("bz-amber", 3, 13),
    ]
    write_ods(data / "market" / "sheets" / "bazaar.ods", [*BAZAAR, ["bz-salt", "goods", 0.5]])
    _at(_one(_load(data)), 4, 3, "bazaar.ods:Bazaar!C4")


def write_ods(path: Path, rows: list[list], sheet: str = "Bazaar") -> None:
    """A minimal OpenDocument spreadsheet (a zip of a mimetype and content.xml)."""
    import zipfile
    from xml.sax.saxutils import escape

    def cell(value) -> str:
        if isinstance(value, (int, float)):
            return (
                f'<table:table-cell office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>"
            )
        return (
            f'<table:table-cell office:value-type="string"><text:p>{escape(value)}</text:p>'
            "</table:table-cell>"
        )

    body = "".join(
        "<table:table-row>" + "".join(cell(v) for v in row) + "</table:table-row>" for row in rows
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="{sheet}">{body}'
        "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", content)
        archive.writestr("META-INF/manifest.xml", manifest)


def test_column_letters():
    assert [column_letters(n) for n in (1, 3, 26, 27, 52, 703)] == [
        "A",
        "C",
        "Z",
        "AA",
        "AZ",
        "AAA",
    ]
