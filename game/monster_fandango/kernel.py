"""Hex geometry on the Monster Fandango map, on axial ``(q, r)`` tuples.

Pure helpers over :mod:`game.board.hexgrid` for the rules: neighbours on the
map, distance, rings, the line of fire and the facing arcs.
"""

from __future__ import annotations

from game.board.hexgrid import DIRECTIONS, Hex, line as hex_line

from .data import MAP

Cell = tuple[int, int]
CELLS: list[Cell] = list(MAP["cells"])
CELL_SET: frozenset[Cell] = frozenset(CELLS)
ORDER: dict[Cell, int] = {c: i for i, c in enumerate(CELLS)}
STEPS: list[Cell] = [(d.q, d.r) for d in DIRECTIONS]


def on_map(cell: Cell) -> bool:
    return cell in CELL_SET


def step(cell: Cell, direction: int) -> Cell:
    """The neighbour of ``cell`` in ``direction`` (0 east, counter-clockwise)."""
    dq, dr = STEPS[direction % 6]
    return cell[0] + dq, cell[1] + dr


NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {
    c: tuple(n for n in ((c[0] + dq, c[1] + dr) for dq, dr in STEPS) if n in CELL_SET)
    for c in CELLS}


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The hexes of the map next to ``cell``, in direction order (a table look-up).

    >>> neighbours((0, 0))
    ((1, 0), (0, 1))
    """
    found = NEIGHBOURS.get(cell)
    if found is None:  # off the map: work it out
        found = tuple(n for n in (step(cell, d) for d in range(6)) if n in CELL_SET)
    return found


def distance(a: Cell, b: Cell) -> int:
    """Steps between two hexes.

    >>> distance((0, 0), (3, -1))
    3
    """
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_of(a: Cell, b: Cell) -> int | None:
    """The direction from ``a`` to an adjacent ``b`` (None if not adjacent)."""
    d = (b[0] - a[0], b[1] - a[1])
    return STEPS.index(d) if d in STEPS else None


_NEAREST: dict[Cell, tuple[Cell, ...]] = {}


def by_nearness(cell: Cell) -> tuple[Cell, ...]:
    """Every map hex, nearest to ``cell`` first (ties in map order; cached)."""
    found = _NEAREST.get(cell)
    if found is None:
        found = tuple(sorted(CELLS, key=lambda c: (distance(c, cell), ORDER[c])))
        _NEAREST[cell] = found
    return found


def within(cell: Cell, radius: int) -> list[Cell]:
    """Map hexes within ``radius`` of ``cell``, nearest first then map order."""
    out = []
    for c in by_nearness(cell):
        if distance(c, cell) > radius:
            break
        out.append(c)
    return out


def between(a: Cell, b: Cell) -> list[Cell]:
    """The hexes strictly between ``a`` and ``b`` on the line of fire.

    >>> between((0, 0), (3, 0))
    [(1, 0), (2, 0)]
    """
    found = _BETWEEN.get((a, b))
    if found is None:
        found = [(h.q, h.r) for h in hex_line(Hex(*a), Hex(*b))[1:-1]]
        if len(_BETWEEN) < 50_000:  # the map has 140 hexes: at most 19,600 pairs
            _BETWEEN[(a, b)] = found
    return list(found)


#: (a, b) -> the hexes between them (pure geometry, worked out once per pair).
_BETWEEN: dict[tuple[Cell, Cell], list[Cell]] = {}


def first_step(a: Cell, b: Cell) -> Cell:
    """The hex next to ``a`` that the line from ``a`` to ``b`` enters first."""
    return [(h.q, h.r) for h in hex_line(Hex(*a), Hex(*b))][1]


def front(facing: int) -> tuple[int, int, int]:
    """The three directions in front of a unit facing ``facing``."""
    return ((facing - 1) % 6, facing % 6, (facing + 1) % 6)


def in_front(a: Cell, facing: int, b: Cell) -> bool:
    """Whether ``b`` lies in the front arc of a unit on ``a`` facing ``facing``."""
    if a == b:
        return False
    d = direction_of(a, first_step(a, b))
    return d in front(facing)


#: The map's middle, in the coordinates ``towards_centre`` measures in.
_MIDDLE = (sum(c[0] + c[1] / 2 for c in CELLS) / len(CELLS), sum(c[1] for c in CELLS) / len(CELLS))


def towards_centre(cell: Cell) -> int:
    """The direction from ``cell`` that leads most directly to the map's middle."""
    mid = _MIDDLE

    def gap(d: int) -> float:
        n = step(cell, d)
        return (n[0] + n[1] / 2 - mid[0]) ** 2 + (n[1] - mid[1]) ** 2 * 0.75

    return min(range(6), key=gap)


_ZONES: dict[Cell, frozenset[Cell]] = {}


def zone(start: Cell) -> frozenset[Cell]:
    """A starting hex and the hexes around it (where its owner may not search)."""
    if start not in _ZONES:
        _ZONES[start] = frozenset((start,) + neighbours(start))
    return _ZONES[start]
