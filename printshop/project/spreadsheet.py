"""Cards from a spreadsheet: a deck's `spreadsheet` (models/game.py's `CardSheet`) read into the
cards it holds, when the game is read, so that every later stage (composition, layout, build, TTS,
texts) sees only cards, listed or read alike.

CSV is read with the csv module, XLSX with openpyxl (values only; a formula without a value the
program that saved it computed, an error value and a merged cell are reported), ODS with
python-calamine (the values its program saved; a merged cell is not told apart there: the cells it
covers read as empty). The
first row names the columns; each later row that is not empty is a card. A card's place is the
file, at the row's number as line and the column's as column (the `id` column for the card, each
key's column for that key), and a diagnostic made here names the sheet and the cell
(`cards.xlsx:Market!C12`). A sheet with any fault gives none of its cards (the load fails).
"""

from __future__ import annotations

import csv
import datetime
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from printshop.diagnostics import Location, Report, did_you_mean
from printshop.project.models.game import CardEntry, CardSheet, Game

KEYS = ("id", "kind", "count", "front", "back")
COUNT_NAMES = ("count", "copies", "qty")
SUFFIXES = (".csv", ".xlsx", ".ods")
_TEXT_COLUMN = re.compile(r"^(.+)@([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]+)?)$")
_WHOLE = re.compile(r"^\s*-?\d+\s*$")
CODE = "spreadsheet-cards"


class SheetFault(Exception):
    """A fault that stops the sheet being read: said at `where`."""

    def __init__(self, where: Location, message: str, hint: str) -> None:
        super().__init__(message)
        self.where, self.message, self.hint = where, message, hint


class Grid:
    """A sheet's cells as read: rows of values (None for an empty cell), each with its row number,
    and the cells that hold no value to read (a formula without one, a merged cell)."""

    def __init__(self, name: str) -> None:
        self.name = name  # "cards.csv" or "cards.xlsx:Market"
        self.rows: list[tuple[int, list[Any]]] = []
        self.unreadable: dict[tuple[int, int], tuple[str, str]] = {}  # (row, col) -> (why, hint)


def column_letters(col: int) -> str:
    """The spreadsheet's name of a 1-based column: 1 -> A, 27 -> AA."""
    letters = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def expand_sheets(game: Game, game_dir: Path, report: Report) -> None:
    """Every deck's spreadsheet cards put before its listed ones, in `deck.cards`; faults reported."""
    for deck_id, deck in game.decks.items():
        if deck.spreadsheet is None:
            continue
        try:
            cards = read_cards(deck_id, deck.spreadsheet, game_dir)
        except SheetFault as fault:
            report.add(CODE, fault.where, fault.message, hint=fault.hint)
            continue
        deck.cards = cards + deck.cards


def read_cards(deck_id: str, sheet: CardSheet, game_dir: Path) -> list[CardEntry]:
    """The cards of one deck's spreadsheet; SheetFault when it cannot give them."""
    path = _path(deck_id, sheet, game_dir)
    grid = _read(path, sheet)
    return _cards(deck_id, grid, path)


def _path(deck_id: str, sheet: CardSheet, game_dir: Path) -> Path:
    where = sheet.where("file")
    name = sheet.file
    path = (game_dir / name).resolve()
    folder = game_dir.resolve()
    if Path(name).is_absolute() or folder not in path.parents:
        raise SheetFault(
            where,
            f"deck '{deck_id}': the spreadsheet '{name}' is outside the game's folder",
            f"put the file in {game_dir.name}/ (or a folder in it) and name it from there, "
            "e.g. file: cards.xlsx",
        )
    if path.suffix.lower() not in SUFFIXES:
        raise SheetFault(
            where,
            f"deck '{deck_id}': '{name}' is not a spreadsheet printshop reads (.csv, .xlsx, .ods)",
            "save the sheet as CSV, XLSX or ODS (a Google Sheet: File > Download)",
        )
    if not path.is_file():
        raise SheetFault(
            where,
            f"deck '{deck_id}': no spreadsheet '{name}' in {game_dir.name}/",
            "put the file in the game's folder, or correct the name",
        )
    if path.suffix.lower() == ".csv" and sheet.sheet is not None:
        raise SheetFault(
            sheet.where("sheet"),
            f"deck '{deck_id}': '{name}' is a CSV file, which has no sheet '{sheet.sheet}'",
            "leave 'sheet' out for a CSV file",
        )
    return path


def _read(path: Path, sheet: CardSheet) -> Grid:
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            return _read_csv(path)
        if suffix == ".xlsx":
            return _read_xlsx(path, sheet)
        return _read_ods(path, sheet)
    except SheetFault:
        raise
    except Exception as error:  # a file the library cannot read: damaged, or not what it says
        raise SheetFault(
            Location.of(path),
            f"{path.name} cannot be read as {suffix[1:].upper()}: {error}",
            "open it in a spreadsheet program and save it again in that format",
        ) from error


def _read_csv(path: Path) -> Grid:
    grid = Grid(path.name)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise SheetFault(
            Location.of(path),
            f"{path.name} is not UTF-8 text",
            "save the CSV as UTF-8 (a Google Sheet's download is)",
        ) from error
    reader = csv.reader(text.splitlines(keepends=True))
    line = 1
    for row in reader:
        grid.rows.append((line, [cell if cell.strip() else None for cell in row]))
        line = reader.line_num + 1
    return grid


def _sheet_name(path: Path, names: list[str], sheet: CardSheet) -> str:
    if not names:
        raise SheetFault(Location.of(path), f"{path.name} has no sheet", "add a sheet of cards")
    if sheet.sheet is None:
        return names[0]
    if sheet.sheet not in names:
        raise SheetFault(
            sheet.where("sheet"),
            f"{path.name} has no sheet '{sheet.sheet}'{did_you_mean(sheet.sheet, names)} "
            f"(sheets: {', '.join(names)})",
            "name one of the workbook's sheets, as its tab shows it",
        )
    return sheet.sheet


_MERGED = ("is part of merged cells {range}", "unmerge the cells: give each card its own value")


def _read_xlsx(path: Path, sheet: CardSheet) -> Grid:
    import openpyxl

    values = openpyxl.load_workbook(path, data_only=True)
    formulas = openpyxl.load_workbook(path, data_only=False)
    name = _sheet_name(path, values.sheetnames, sheet)
    grid = Grid(f"{path.name}:{name}")
    cells, written = values[name], formulas[name]
    for row in written.iter_rows():
        for cell in row:
            if cell.data_type == "f" and cells.cell(cell.row, cell.column).value is None:
                grid.unreadable[(cell.row, cell.column)] = (
                    f"holds the formula {cell.value} with no value saved",
                    "open the file in a spreadsheet program and save it (which stores the "
                    "formula's value), or write the value itself",
                )
    for row in cells.iter_rows():
        for cell in row:
            if cell.data_type == "e":  # an error value saved for a formula: #DIV/0!, #REF!
                grid.unreadable[(cell.row, cell.column)] = (
                    f"holds the error {cell.value}",
                    "correct the formula in the spreadsheet program, save, and build again",
                )
    for merged in cells.merged_cells.ranges:
        for row_number, col in merged.cells:
            grid.unreadable[(row_number, col)] = (_MERGED[0].format(range=merged.coord), _MERGED[1])
    for number, row in enumerate(cells.iter_rows(values_only=True), start=1):
        grid.rows.append((number, list(row)))
    return grid


def _read_ods(path: Path, sheet: CardSheet) -> Grid:
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    name = _sheet_name(path, book.sheet_names, sheet)
    grid = Grid(f"{path.name}:{name}")
    cells = book.get_sheet_by_name(name)
    # skip_empty_area=False: the rows start at A1, so a row's index is its number less one
    for index, row in enumerate(cells.to_python(skip_empty_area=False)):
        grid.rows.append((index + 1, [None if value == "" else value for value in row]))
    for merged in getattr(cells, "merged_cell_ranges", None) or []:
        (top, left), (bottom, right) = merged
        coord = f"{column_letters(left + 1)}{top + 1}:{column_letters(right + 1)}{bottom + 1}"
        for row_number in range(top + 1, bottom + 2):
            for col in range(left + 1, right + 2):
                grid.unreadable[(row_number, col)] = (_MERGED[0].format(range=coord), _MERGED[1])
    return grid


def _cell(grid: Grid, row: int, col: int) -> str:
    return f"{grid.name}!{column_letters(col)}{row}"


def _fault(grid: Grid, path: Path, row: int, col: int, message: str, hint: str) -> SheetFault:
    return SheetFault(Location.of(path, row, col), f"{_cell(grid, row, col)}: {message}", hint)


def _columns(grid: Grid, path: Path) -> tuple[int, dict[str, int]]:
    """The header row's number and each column's name -> its 1-based number."""
    rows = [(number, row) for number, row in grid.rows if any(v is not None for v in row)]
    if not rows:
        raise SheetFault(
            Location.of(path),
            f"{grid.name} is empty: it has no row of column names and no card",
            "write the column names (id, kind, count, front, …) in the first row, then a card "
            "a row",
        )
    number, header = rows[0]
    columns: dict[str, int] = {}
    for col, value in enumerate(header, start=1):
        if (number, col) in grid.unreadable:
            why, hint = grid.unreadable[(number, col)]
            raise _fault(grid, path, number, col, f"the column name {why}", hint)
        if value is None:
            continue
        name = str(value).strip()
        text = _TEXT_COLUMN.match(name)
        if text:
            raise _fault(
                grid,
                path,
                number,
                col,
                f"the column '{name}' would hold the cards' {text.group(1)} in "
                f"{text.group(2)}: texts are not read from a spreadsheet",
                f"write each card's texts in text/{text.group(2)}.yaml under its id "
                f"(card: {{<id>: {{{text.group(1)}: …}}}}), where printshop i18n tracks and "
                "translates them; remove the column",
            )
        if name in columns:
            raise _fault(
                grid,
                path,
                number,
                col,
                f"the column '{name}' is named twice (first in column "
                f"{column_letters(columns[name])})",
                "give every column its own name",
            )
        columns[name] = col
    counts = [name for name in COUNT_NAMES if name in columns]
    if len(counts) > 1:
        raise _fault(
            grid,
            path,
            number,
            columns[counts[1]],
            f"the columns {' and '.join(counts)} both give the number of copies",
            "keep one of them",
        )
    if "id" not in columns:
        raise _fault(
            grid,
            path,
            number,
            1,
            f"no column 'id' in the first row (columns: {', '.join(columns) or 'none'})"
            f"{did_you_mean('id', list(columns))}",
            "name a column id and give every card an id of its own (lower-case letters, digits, "
            "'-' and '_')",
        )
    return number, columns


def _value(grid: Grid, path: Path, row: int, col: int, value: Any, name: str) -> str | int:
    """A cell's value as a card holds it: text, or a whole number; other cells are faults."""
    if isinstance(value, bool) or isinstance(value, (datetime.date, datetime.time)):
        raise _fault(
            grid,
            path,
            row,
            col,
            f"'{name}' is {value!r}, which a card cannot hold",
            "write text or a whole number in the cell (format it as plain text or a number)",
        )
    if isinstance(value, float):
        if not value.is_integer():
            raise _fault(
                grid,
                path,
                row,
                col,
                f"'{name}' is {value}, not a whole number",
                "a card's values are text or whole numbers: write a whole number, or the "
                "value as text",
            )
        return int(value)
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if _WHOLE.match(text) and grid.name.endswith(".csv") else text


def _row_card(
    grid: Grid, path: Path, row: int, cells: list[Any], columns: dict[str, int]
) -> CardEntry:
    data: dict[str, Any] = {"vars": {}}
    places: dict[str, Location] = {}
    for name, col in columns.items():
        if (row, col) in grid.unreadable:
            why, hint = grid.unreadable[(row, col)]
            raise _fault(grid, path, row, col, f"'{name}' {why}", hint)
        raw = cells[col - 1] if col - 1 < len(cells) else None
        if raw is None:
            continue
        value = _value(grid, path, row, col, raw, name)
        key = "count" if name in COUNT_NAMES else name
        if key == "count" and not isinstance(value, int):
            raise _fault(
                grid,
                path,
                row,
                col,
                f"'{name}' is {value!r}, not a whole number of copies",
                "write how many copies of the card the deck holds, e.g. 3",
            )
        if key in KEYS:
            data[key] = str(value) if key != "count" else value
            places[key] = Location.of(path, row, col)
        else:
            data["vars"][name] = value
            places.setdefault("vars", Location.of(path, row, col))
    if "id" not in data:
        raise _fault(grid, path, row, columns["id"], "the card has no id", "give every card an id")
    try:
        card = CardEntry.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "id"
        message = first["msg"].removeprefix("Value error, ")
        col = columns.get(field) or next(
            (columns[name] for name in COUNT_NAMES if field == "count" and name in columns),
            columns["id"],
        )
        if first["type"] == "missing":
            raise _fault(
                grid,
                path,
                row,
                col,
                f"card '{data['id']}' has no {field}",
                f"add a column '{field}' and fill it for every card",
            ) from error
        raise _fault(
            grid, path, row, col, f"card '{data['id']}': its {field} {message}", _HINTS[field]
        ) from error
    where = Location.of(path, row, columns["id"])
    object.__setattr__(
        card, "__pydantic_private__", {"_where": where, "_field_where": {"id": where, **places}}
    )
    return card


_HINTS = {
    "id": "an id is lower-case letters, digits, '-' and '_' (ship-2)",
    "kind": "a kind is lower-case letters, digits, '-' and '_' (goods)",
    "count": "a count is a whole number from 1 to 1000",
    "front": "name a face of faces.yaml",
    "back": "name a face of faces.yaml, or leave the cell empty for the deck's back",
    "vars": "write text or a whole number",
}


def _cards(deck_id: str, grid: Grid, path: Path) -> list[CardEntry]:
    header, columns = _columns(grid, path)
    cards: list[CardEntry] = []
    seen: dict[str, int] = {}
    named = set(columns.values())
    for row, cells in grid.rows:
        if row <= header or all(value is None for value in cells):
            continue
        stray = next(
            (col for col, v in enumerate(cells, 1) if v is not None and col not in named), 0
        )
        if stray:
            raise _fault(
                grid,
                path,
                row,
                stray,
                f"a value in column {column_letters(stray)}, which has no name in row {header}",
                "name the column in the first row (it is then a card var), or empty its cells",
            )
        card = _row_card(grid, path, row, cells, columns)
        if card.id in seen:
            raise _fault(
                grid,
                path,
                row,
                columns["id"],
                f"card id '{card.id}' is used twice in deck '{deck_id}' (first in row "
                f"{seen[card.id]}, {_cell(grid, seen[card.id], columns['id'])})",
                "give each card one row and its own id; for copies, give the row a count",
            )
        seen[card.id] = row
        cards.append(card)
    if not cards:
        raise SheetFault(
            Location.of(path, header, 1),
            f"{grid.name} names its columns but holds no card",
            "write one card a row below the column names",
        )
    return cards
