"""The expedition's pure kernel: where items land and where every player ends.

Positions are 1..9, left to right.  Each function works on positions only (the
rows hold one player per position), so each row's moves form a permutation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

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


def fear_groups(fears: Mapping[int, str]) -> list[dict[str, Any]]:
    """The fear row worked out run by run, from Position 1 to 9.

    Each group is a run of adjacent markers pointing the same way:
    ``start``..``end`` (the markers' positions), ``direction``, ``target`` (the
    position pointed at, None off the board), ``facing`` (a marker on the target
    points back), ``outcome`` ("swap" for one marker or a facing pair, "chain" for
    a longer run, "edge" when it points off the board, "blocked" when its target
    has already moved) and ``moves`` ({from: to}, empty unless it moved anyone).

    >>> [(g["outcome"], g["moves"]) for g in fear_groups({1: "R", 3: "L"})]
    [('swap', {1: 2, 2: 1}), ('blocked', {})]
    """
    groups: list[dict[str, Any]] = []
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
        target = j + 1 if direction == "R" else i - 1
        group: dict[str, Any] = {"start": i, "end": j, "direction": direction,
                                 "target": target if 1 <= target <= 9 else None,
                                 "facing": False, "moves": {}}
        if not 1 <= target <= 9:
            group["outcome"] = "edge"
        elif target in moved:
            group["outcome"] = "blocked"
        else:
            step = 1 if direction == "R" else -1
            group["moves"] = {p: p + step for p in range(i, j + 1)}
            group["moves"][target] = i if direction == "R" else j
            moved.update(range(min(i, target), max(j, target) + 1))
            group["outcome"] = "swap" if i == j else "chain"
        if direction == "R":
            # A marker on the target pointing back is part of this run.
            group["facing"] = fears.get(target) == "L"
            i = target + 1 if group["facing"] else j + 1
        else:
            i = j + 1
        groups.append(group)
    return groups


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
    for group in fear_groups(fears):
        moves.update(group["moves"])
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


def communal_choice(occupied: Iterable[int], numbers: Iterable[int]) -> dict[str, Any]:
    """Why the communal item lands where it does.

    ``average`` of the numbers, the ``slot`` chosen, ``taken``: the occupied
    slots nearer the average than that slot (or as near), and ``tied``: the
    other empty slot exactly as near, which lost because it is higher.

    >>> communal_choice({5}, [4, 5, 6])
    {'average': 5.0, 'slot': 4, 'taken': [5], 'tied': 6}
    >>> communal_choice(set(), [4, 5, 5])
    {'average': 4.666666666666667, 'slot': 5, 'taken': [], 'tied': None}
    """
    numbers = list(numbers)
    occupied = set(occupied)
    total, count = sum(numbers), len(numbers)
    slot = nearest_empty_slot(occupied, numbers)
    gap = abs(slot * count - total)
    taken = sorted(s for s in occupied if abs(s * count - total) <= gap)
    tied = next((s for s in POSITIONS if s != slot and s not in occupied
                 and abs(s * count - total) == gap), None)
    return {"average": total / count, "slot": slot, "taken": taken, "tied": tied}


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
