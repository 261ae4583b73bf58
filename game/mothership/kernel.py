"""Pure board geometry for TRAP: Mothership Fantasia: steps and shortest ways.

Cells are ``(x, y)`` map cells; moves are orthogonal.  ``open_cells`` are the
cells a character may stand on now (tiles still on the board, the start tile
and, where it matters, the finish tile).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

Cell = tuple[int, int]
STEPS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))


_NEAR: dict[Cell, tuple[Cell, ...]] = {}


def neighbours(cell: Cell) -> list[Cell]:
    """The four orthogonal neighbours (on or off the board).

    >>> neighbours((2, 2))
    [(3, 2), (2, 3), (1, 2), (2, 1)]
    """
    near = _NEAR.get(cell)
    if near is None:
        x, y = cell
        near = _NEAR[cell] = tuple((x + dx, y + dy) for dx, dy in STEPS)
    return list(near)


def steps_between(a: Cell, b: Cell) -> int:
    """Orthogonal steps from ``a`` to ``b`` on the grid, gaps counted as spaces.

    >>> steps_between((0, 0), (2, 1))
    3
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def distances(sources: Iterable[Cell], passable: Callable[[Cell], bool]) -> dict[Cell, int]:
    """Fewest steps from any source to every cell reachable through ``passable`` cells.

    The sources themselves count as distance 0 whatever ``passable`` says.

    >>> d = distances([(0, 0)], lambda c: c in {(1, 0), (2, 0), (2, 1)})
    >>> d[(2, 1)]
    3
    """
    seen: dict[Cell, int] = {}
    todo: deque[Cell] = deque()
    for source in sources:
        if source not in seen:
            seen[source] = 0
            todo.append(source)
    while todo:
        cell = todo.popleft()
        near = _NEAR.get(cell) or tuple(neighbours(cell))
        for n in near:
            if n not in seen and passable(n):
                seen[n] = seen[cell] + 1
                todo.append(n)
    return seen


def steps_towards(here: Cell, dist: dict[Cell, int], allowed: Callable[[Cell], bool]
                  ) -> list[Cell] | None:
    """The neighbours of ``here`` that lie on a shortest way down ``dist``.

    None when ``here`` has no way to the target at all (the pull has nothing
    to pull towards).

    >>> dist = {(0, 0): 0, (1, 0): 1, (0, 1): 1, (1, 1): 2}
    >>> steps_towards((1, 1), dist, lambda c: True)
    [(0, 1), (1, 0)]
    """
    if here not in dist or dist[here] == 0:
        return None
    return sorted(n for n in neighbours(here)
                  if dist.get(n) == dist[here] - 1 and allowed(n))
