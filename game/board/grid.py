"""Orthogonal square grids of ``(x, y)`` cells, optionally wrapping.

Pure Python (no pygame): rules code uses it.  A wrapping axis joins its
first and last column (``wrap_x``) or row (``wrap_y``), like a racing
track drawn on a torus; neighbours, ``delta`` and ``distance`` all take the
short way round.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

__all__ = ["Cell", "Grid", "STEPS"]

Cell = tuple[int, int]

#: The four orthogonal steps: east, south, west, north.
STEPS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))


def _short(d: int, size: int) -> int:
    """Signed shortest displacement along a wrapping axis of ``size``."""
    return (d + size // 2) % size - size // 2


@dataclass(frozen=True)
class Grid:
    """A ``width`` x ``height`` board of square cells.

    >>> g = Grid(5, 3, 10, 10, wrap_x=True)
    >>> g.wrap((-1, 1)), g.neighbours((0, 0))
    ((4, 1), [(1, 0), (0, 1), (4, 0)])
    >>> g.delta((0, 0), (4, 2)), g.distance((0, 0), (4, 2))
    ((-1, 2), 3)
    >>> g.cell_center((1, 2)), g.pixel_to_cell(19.5, 5)
    ((15.0, 25.0), (1, 0))
    """

    width: int
    height: int
    tilewidth: int = 1
    tileheight: int = 1
    wrap_x: bool = False
    wrap_y: bool = False

    @property
    def pixel_size(self) -> tuple[int, int]:
        """Size of the whole grid in pixels."""
        return self.width * self.tilewidth, self.height * self.tileheight

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row."""
        for y in range(self.height):
            for x in range(self.width):
                yield x, y

    def in_bounds(self, cell: Cell) -> bool:
        """Whether ``cell`` lies on the board as given (no wrapping)."""
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def wrap(self, cell: Cell) -> Cell:
        """Bring a cell back onto the board along wrapping axes.

        Non-wrapping axes are left alone, so the result may still be out
        of bounds; check with ``in_bounds``.
        """
        x, y = cell
        if self.wrap_x:
            x %= self.width
        if self.wrap_y:
            y %= self.height
        return x, y

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The distinct on-board 4-neighbours of ``cell`` (wrap applied)."""
        x, y = cell
        found: list[Cell] = []
        for dx, dy in STEPS:
            n = self.wrap((x + dx, y + dy))
            if self.in_bounds(n) and n != cell and n not in found:
                found.append(n)
        return found

    def delta(self, a: Cell, b: Cell) -> Cell:
        """Shortest step vector from ``a`` to ``b``, going round wraps."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        if self.wrap_x:
            dx = _short(dx, self.width)
        if self.wrap_y:
            dy = _short(dy, self.height)
        return dx, dy

    def distance(self, a: Cell, b: Cell) -> int:
        """Orthogonal steps between two cells (Manhattan, wrap aware)."""
        dx, dy = self.delta(a, b)
        return abs(dx) + abs(dy)

    def cell_to_pixel(self, cell: Cell) -> tuple[int, int]:
        """Top-left pixel of a cell."""
        return cell[0] * self.tilewidth, cell[1] * self.tileheight

    def cell_center(self, cell: Cell) -> tuple[float, float]:
        """Centre pixel of a cell."""
        x, y = self.cell_to_pixel(cell)
        return x + self.tilewidth / 2, y + self.tileheight / 2

    def pixel_to_cell(self, px: float, py: float) -> Cell:
        """The cell containing a pixel (may be off the board)."""
        return (math.floor(px / self.tilewidth),
                math.floor(py / self.tileheight))
