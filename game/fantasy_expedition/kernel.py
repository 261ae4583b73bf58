"""The expedition's pure kernel: where items land and where every player ends.

Positions are 1..9, left to right.  Each function works on positions only (the
rows hold one player per position), so each row's moves form a permutation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

POSITIONS = tuple(range(1, 10))
ROWS = ("mine", "portal", "fear")
TEAMS = ("dwarf", "magician", "werewolf")
TEAM_ITEM = {"dwarf": "mine", "magician": "portal", "werewolf": "fear"}
DIRECTIONS = ("L", "R")
WEREWOLF_SCORES = {5: 9, 4: 8, 6: 7, 3: 6, 7: 5, 2: 4, 8: 3, 1: 2, 9: 1}


def score(team: str, position: int) -> int:
    """A player's score for finishing at ``position``.

    >>> score("dwarf", 7), score("magician", 7), score("werewolf", 7)
    (7, 3, 5)
    """
    if team == "dwarf":
        return position
    if team == "magician":
        return 10 - position
    return WEREWOLF_SCORES[position]


def _wrap(position: int) -> int:
    return (position - 1) % 9 + 1


def jump_moves(items: Iterable[int], step: int) -> dict[int, int]:
    """Moves of a mine (``step=-1``) or portal (``step=+1``) row.

    Each player on an item goes to the nearest item strictly in that
    direction, wrapping around; a lone item keeps its player.

    >>> jump_moves({1, 8}, -1)
    {1: 8, 8: 1}
    >>> jump_moves({4}, +1)
    {4: 4}
    """
    items = set(items)
    moves = {}
    for start in sorted(items):
        for distance in range(1, 10):
            target = _wrap(start + step * distance)
            if target in items:
                moves[start] = target
                break
    return moves


def fear_moves(fears: Mapping[int, str]) -> dict[int, int]:
    """Moves of the fear row, resolved from Position 1 to 9.

    A run of adjacent markers pointing the same way moves its players one
    step that way and sends the player pointed to to the far end of the run.
    A marker on the pointed-to position that points back belongs to the run.
    Nobody moves twice; a run pointing off the board does nothing.

    >>> fear_moves({1: "R", 2: "R"})
    {1: 2, 2: 3, 3: 1}
    >>> fear_moves({1: "R", 2: "R", 3: "R"})
    {1: 2, 2: 3, 3: 4, 4: 1}
    >>> fear_moves({4: "R", 5: "L"})
    {4: 5, 5: 4}
    """
    moves: dict[int, int] = {}
    moved: set[int] = set()
    i = 1
    while i <= 9:
        direction = fears.get(i)
        if direction is None:
            i += 1
            continue
        j = i
        while j + 1 <= 9 and fears.get(j + 1) == direction:
            j += 1
        if direction == "R":
            target = j + 1
            if target <= 9 and target not in moved:
                moves.update({p: p + 1 for p in range(i, j + 1)})
                moves[target] = i
                moved.update(range(i, target + 1))
            # A marker on the target pointing back is part of this run.
            i = target + 1 if fears.get(target) == "L" else j + 1
        else:
            target = i - 1
            if target >= 1 and target not in moved:
                moves.update({p: p - 1 for p in range(i, j + 1)})
                moves[target] = j
                moved.update(range(target, j + 1))
            i = j + 1
    return moves


def trace_expedition(mines: Iterable[int], portals: Iterable[int],
                     fears: Mapping[int, str]) -> list[tuple[str, dict[int, int]]]:
    """The three rows' moves in order: ``[("mine", {from: to}), ...]``.

    Moves that keep a player in place (a lone mine or portal) are left out.
    """
    rows = [("mine", jump_moves(mines, -1)), ("portal", jump_moves(portals, +1)),
            ("fear", fear_moves(fears))]
    return [(row, {a: b for a, b in moves.items() if a != b}) for row, moves in rows]


def resolve_expedition(mines: set[int], portals: set[int],
                       fears: dict[int, str]) -> dict[int, int]:
    """Map each starting position 1..9 to its final position.

    The rule text's worked example: the player from Position 1 tunnels to
    the mine at 8, finds no portal there, and is swapped left by the fear
    marker on 7.

    >>> resolve_expedition({1, 4, 8}, {2, 5}, {7: "R"})[1]
    7
    """
    final = {p: p for p in POSITIONS}
    for _row, moves in trace_expedition(mines, portals, fears):
        final = {start: moves.get(now, now) for start, now in final.items()}
    return final


def nearest_empty_slot(occupied: Iterable[int], numbers: Iterable[int]) -> int:
    """The communal item's slot: the empty slot nearest the numbers' average.

    A tie between two slots goes to the lower-numbered one.

    >>> nearest_empty_slot({5}, [4, 5, 6])
    4
    >>> nearest_empty_slot({2}, [1, 1, 2])
    1
    """
    numbers = list(numbers)
    occupied = set(occupied)
    total, count = sum(numbers), len(numbers)
    empty = [s for s in POSITIONS if s not in occupied]
    return min(empty, key=lambda s: (abs(s * count - total), s))


def place_fears(chosen: Iterable[tuple[int, str]]) -> tuple[dict[int, str], list[int]]:
    """Werewolves' markers: one per slot, unless they disagree on the direction.

    Returns the markers placed and the slots where markers failed.

    >>> place_fears([(3, "L"), (3, "L"), (6, "R")])
    ({3: 'L', 6: 'R'}, [])
    >>> place_fears([(3, "L"), (3, "R"), (6, "R")])
    ({6: 'R'}, [3])
    """
    by_slot: dict[int, set[str]] = {}
    for slot, direction in chosen:
        by_slot.setdefault(slot, set()).add(direction)
    fears = {s: d.pop() for s, d in sorted(by_slot.items()) if len(d) == 1}
    failed = sorted(s for s, d in by_slot.items() if len(d) > 1)
    return fears, failed


def majority(votes: Iterable[str]) -> str:
    """The direction most votes name (three votes always have a majority)."""
    counts = Counter(votes)
    return max(DIRECTIONS, key=lambda d: (counts[d], d == "R"))
