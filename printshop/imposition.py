"""Where cards go on a sheet of paper: the grid, the mirrored back positions, the cut lines.

Pure geometry in points, PDF coordinates (origin bottom-left). Long-edge duplex turns the sheet
about its vertical axis, so a back lies at x_back = page_width - x_front - card_width, same y.
"""
from __future__ import annotations

from dataclasses import dataclass


class ImpositionError(ValueError):
    pass


@dataclass(frozen=True)
class Grid:
    page_width: float
    page_height: float
    card_width: float
    card_height: float
    columns: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def left(self) -> float:
        return (self.page_width - self.columns * self.card_width) / 2

    @property
    def bottom(self) -> float:
        return (self.page_height - self.rows * self.card_height) / 2

    def cell(self, index: int) -> tuple[int, int]:
        """(column, row) of the index-th card; rows count from the top."""
        return index % self.columns, index // self.columns

    def front(self, index: int) -> tuple[float, float]:
        column, row = self.cell(index)
        x = self.left + column * self.card_width
        y = self.bottom + (self.rows - 1 - row) * self.card_height
        return x, y

    def back(self, index: int, flip: str = "long-edge") -> tuple[float, float]:
        x, y = self.front(index)
        if flip == "long-edge":
            return self.page_width - x - self.card_width, y
        return x, self.page_height - y - self.card_height

    def cut_xs(self) -> list[float]:
        return [self.left + i * self.card_width for i in range(self.columns + 1)]

    def cut_ys(self) -> list[float]:
        return [self.bottom + i * self.card_height for i in range(self.rows + 1)]


def grid_for(page_width: float, page_height: float, card_width: float, card_height: float, margin: float) -> Grid:
    columns = int((page_width - 2 * margin + 1e-6) // card_width)
    rows = int((page_height - 2 * margin + 1e-6) // card_height)
    if columns < 1 or rows < 1:
        raise ImpositionError("the card does not fit on the paper inside the margins")
    return Grid(page_width, page_height, card_width, card_height, columns, rows)
