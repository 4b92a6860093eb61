"""Tables drawn the one way booklets and card and sheet frames share.

A `<table>` (richtext.Table) is set by `designed_table`: its cells as the caller made them (a
booklet's th and td styles, a frame's font at its fitted size), its look (`TableLook`, the
attributes the template wrote) over the look of its place (`TableDefaults`: a booklet's `tables`
style in booklet.yaml, or a frame's rows), its writing rows (rows="12" row-height="8mm": empty
rows under the written ones, a score pad) and its lines:

- rules="grid": every line, around the table and between its rows and columns;
- rules="rows": a line between rows; with column-rules="yes" one between columns, with
  last-rule="yes" one under the last row;
- rules="none": no line but those column-rules and last-rule ask for.

The header cells (th) are filled with header-fill's colour ("none": not filled). A table split over
two booklet pages (`KeptTable`) has more than KEEP_WHOLE_ROWS rows under its header, and leaves at
least MIN_ROWS rows on each side; a shorter one goes whole to the next page, unless that would
leave more than ROOM_LEFT of the page's frame empty: then it splits where SHORT_SPLIT_ROWS rows at
least stay on each side (a table of fewer than twice as many never splits). A split table repeats
its header rows on the next page (docs/design.md, "Tables whole"). With no attribute written,
booklets and frames draw tables as they always did, to the byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.platypus import Flowable, TableStyle
from reportlab.platypus import Table as RLTable

from printshop.project.units import parse_length
from printshop.render.colour import Paints
from printshop.typeset.richtext import Table, column_widths

# rows a table split over two pages keeps together on each side of the break
MIN_ROWS = 2
# a table of up to this many rows below its header never splits: it goes whole to the next page
# (docs/design.md, "Tables whole")
KEEP_WHOLE_ROWS = 10
# ... unless going whole would leave more than this share of the page's frame empty: then it splits
# where this many rows at least stay on each side
ROOM_LEFT = 0.25
SHORT_SPLIT_ROWS = 3
# attributes of a canvas drawing a booklet read in spreads (render/booklet_pages.py sets the first):
# true while it does; and how many tables it saw split or moved off a right-hand page, over a page
# turn from the text before them (what a booklet's balancing counts against a spacing)
SPREADS = "printshop_spreads"
TURNS = "printshop_turns"
# a writing row's height where the table gives no row-height
ROW_HEIGHT = "8mm"


@dataclass(frozen=True)
class TableDefaults:
    """How a place draws a table no attribute changes."""

    rules: str  # grid, rows or none
    header_fill: str | None  # a colour name; None: no fill
    column_rules: bool
    last_rule: bool
    rule_colour: str  # the lines' colour name
    rule_width: float
    top_padding: float
    bottom_padding: float
    side_padding: float | None = None  # None: ReportLab's own (6 pt)


class KeptTable(RLTable):
    """A table that splits between pages where MIN_ROWS rows stay on each side if it has more than
    KEEP_WHOLE_ROWS rows under its header; a shorter one only where going whole would leave more
    than ROOM_LEFT of the frame empty, and SHORT_SPLIT_ROWS rows stay on each side. Its header rows
    are repeated. Each part it splits into is judged again by its own rows (ReportLab's
    rowSplitRange, set from them whenever the table splits)."""

    def split(self, availWidth: float, availHeight: float) -> list:
        repeat = self.repeatRows or 0
        head = repeat if isinstance(repeat, int) else max(repeat) + 1
        rows = len(self._cellvalues)
        frame = getattr(self, "_frame", None)  # (ReportLab's frame sets it while it splits)
        body = rows - head
        roomy = frame is not None and availHeight > ROOM_LEFT * frame._height
        canvas = getattr(self, "canv", None)
        if canvas is not None and getattr(canvas, SPREADS, False) and canvas.getPageNumber() % 2:
            setattr(canvas, TURNS, getattr(canvas, TURNS, 0) + 1)
        if body > KEEP_WHOLE_ROWS:
            self._rowSplitRange = (head + MIN_ROWS, rows - MIN_ROWS)
        elif roomy and body >= 2 * SHORT_SPLIT_ROWS:
            self._rowSplitRange = (head + SHORT_SPLIT_ROWS, rows - SHORT_SPLIT_ROWS)
        else:
            self._rowSplitRange = (rows, rows)  # no row it may split at: it goes whole
        return super().split(availWidth, availHeight)


def header_rows(block: Table) -> int:
    """How many of the table's first rows are all header cells (th): what a page break repeats."""
    count = 0
    for row in block.rows:
        if not row or not all(head for head, _ in row):
            break
        count += 1
    return count


def designed_table(
    block: Table,
    cells: list[list[Flowable]],
    empty: Any,
    defaults: TableDefaults,
    paints: Paints,
    width: float,
    shared: list[tuple],
    repeat_rows: int = 0,
) -> RLTable:
    """The ReportLab table of `block`: `cells` (its rows' flowables), `empty` (a flowable maker:
    one cell of a writing row) in as many writing rows as the table asks, its lines and header fill
    as its look says over `defaults`; `shared` are the caller's own style commands (font, colour,
    alignment), placed after the paddings."""
    look = block.look
    columns = max((len(row) for row in cells), default=0) or len(block.widths or ()) or 1
    height = parse_length(block.row_height or ROW_HEIGHT)
    body = len(cells) - block.foot_rows  # the foot (a total) goes under the writing rows
    writing = [[empty() for _ in range(columns)] for _ in range(block.writing_rows)]
    rows = cells[:body] + writing + cells[body:]
    heights = None
    if block.writing_rows:
        heights = [None] * body + [height] * (block.writing_rows + block.foot_rows)
    table = KeptTable(
        rows,
        hAlign="CENTER",
        repeatRows=repeat_rows,
        colWidths=column_widths(block, width),
        rowHeights=heights,
    )
    rules = look.rules or defaults.rules
    colour = paints.line(defaults.rule_colour)
    line = (defaults.rule_width, colour)
    commands: list[tuple] = []
    if rules == "grid":
        commands.append(("GRID", (0, 0), (-1, -1), *line))
    else:
        if rules == "rows":
            commands.append(("LINEBELOW", (0, 0), (-1, -2), *line))
        if _chosen(look.column_rules, defaults.column_rules):
            commands.append(("LINEAFTER", (0, 0), (-2, -1), *line))
        if _chosen(look.last_rule, defaults.last_rule):
            commands.append(("LINEBELOW", (0, -1), (-1, -1), *line))
    commands.extend(_paddings(look.padding, defaults))
    commands.extend(shared)
    fill = look.header_fill or defaults.header_fill
    if fill is not None and fill != "none":
        paint = paints.fill(fill)
        for r, row in enumerate(block.rows):
            at = r if r < body else r + block.writing_rows
            for c, (head, _) in enumerate(row):
                if head:
                    commands.append(("BACKGROUND", (c, at), (c, at), paint))
    table.setStyle(TableStyle(commands))
    return table


def _chosen(asked: bool | None, default: bool) -> bool:
    return default if asked is None else asked


def _paddings(padding: str | None, defaults: TableDefaults) -> list[tuple]:
    """The cells' paddings: the table's padding above and below the text, else the place's."""
    top, bottom = defaults.top_padding, defaults.bottom_padding
    if padding is not None:
        top = bottom = parse_length(padding)
    sides = []
    if defaults.side_padding is not None:
        sides = [
            ("LEFTPADDING", (0, 0), (-1, -1), defaults.side_padding),
            ("RIGHTPADDING", (0, 0), (-1, -1), defaults.side_padding),
        ]
    return [
        *sides,
        ("TOPPADDING", (0, 0), (-1, -1), top),
        ("BOTTOMPADDING", (0, 0), (-1, -1), bottom),
    ]
