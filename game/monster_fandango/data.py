"""Monster Fandango's static data: ``data.yaml`` and the board ``monster_fandango.tmx``.

Loaded once, validated, and exposed as plain Python values for the rules.
Hexes are axial ``(q, r)`` tuples taken from the Tiled map through
:func:`game.board.tmxmap.load_board`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from game.board.tmxmap import load_board
from game.resources import board_path

HERE = Path(__file__).resolve().parent
BOARD_FILE = "monster_fandango.tmx"
BOARD_PATH = board_path(BOARD_FILE)

Cell = tuple[int, int]


class DataError(ValueError):
    """The game's data file or map is inconsistent."""


def _table(rows: list[dict[str, Any]], low: int, high: int,
           name: str) -> list[tuple[int, int, str]]:
    out = [(int(r["low"]), int(r["high"]), str(r["result"])) for r in rows]
    covered = [v for lo, hi, _ in out for v in range(lo, hi + 1)]
    if sorted(covered) != list(range(low, high + 1)):
        raise DataError(f"table {name} does not cover {low}-{high} exactly once")
    return out


def _load() -> dict[str, Any]:
    raw = yaml.safe_load((HERE / "data.yaml").read_text(encoding="utf-8"))
    monsters = raw["monsters"]
    if len(monsters) != 13:
        raise DataError("there must be thirteen monsters")
    for key, m in monsters.items():
        for stat in ("stack", "move", "attack", "defense", "search"):
            if not isinstance(m.get(stat), int) or not 0 <= m[stat] <= 8:
                raise DataError(f"monster {key}: bad {stat}")
        if not m.get("name") or not m.get("ability") or not m.get("text"):
            raise DataError(f"monster {key}: name, ability and text are needed")
    items = raw["items"]
    for key, it in items.items():
        if it.get("stack") not in (1, 2):
            raise DataError(f"item {key}: bad stack")
    for key in raw["buyable"]:
        if key not in items:
            raise DataError(f"buyable {key} is no item")
    tables = {
        "search": _table(raw["search_table"], 1, 8, "search"),
        "chest": _table(raw["chest_table"], 2, 16, "chest"),
        "lair": _table(raw["lair_table"], 2, 16, "lair"),
        "monster": _table(raw["monster_table"], 2, 16, "monster"),
        "weapon": _table(raw["weapon_table"], 1, 8, "weapon"),
        "missile": _table(raw["missile_table"], 1, 8, "missile"),
    }
    for _, _, res in tables["monster"]:
        if res not in monsters and res not in items:
            raise DataError(f"random monster {res} is unknown")
    rally = list(raw["rally_table"])
    if len(rally) != 8 or any(r not in monsters for r in rally):
        raise DataError("the Rally Cry table needs eight monsters")
    quests = {int(k): dict(v) for k, v in raw["quests"].items()}
    if sorted(quests) != list(range(2, 17)):
        raise DataError("quests must cover 2-16")
    return {"monsters": monsters, "items": items, "buyable": list(raw["buyable"]),
            "tables": tables, "rally": rally, "quests": quests}


def _board() -> dict[str, Any]:
    board = load_board(BOARD_PATH)
    if board.kind != "hex":
        raise DataError("the Monster Fandango map must be a hex map")
    cells: list[Cell] = [(h.q, h.r) for h in board.cells()]
    props = {(h.q, h.r): board.cell_properties(h) for h in board.cells()}
    corners = [c for c in cells if props[c].get("corner")]
    ends = {side: [c for c in cells if props[c].get("end") == side] for side in ("west", "east")}
    starts: dict[int, list[Cell]] = {}
    for obj in board.layer("starts").objects:
        cell = board.cell_at(obj.x, obj.y)
        if cell is None:
            raise DataError(f"start object {obj.name!r} is off the map")
        players, seat = int(obj.properties["players"]), int(obj.properties["seat"])
        starts.setdefault(players, [None] * players)[seat - 1] = (cell.q, cell.r)
    lairs = []
    for obj in board.layer("lairs").objects:
        cell = board.cell_at(obj.x, obj.y)
        if cell is None:
            raise DataError(f"lair object {obj.name!r} is off the map")
        lairs.append((cell.q, cell.r))
    wild = []
    for obj in board.layer("wild").objects:
        cell = board.cell_at(obj.x, obj.y)
        if cell is None:
            raise DataError(f"wild object {obj.name!r} is off the map")
        wild.append((cell.q, cell.r))
    if len(corners) != 4 or not ends["west"] or not ends["east"]:
        raise DataError("the map needs 4 corner hexes and both ends marked")
    for players in (2, 3, 4):
        if players not in starts or None in starts[players]:
            raise DataError(f"the map needs starting hexes for {players} players")
    starts[1] = starts[2][:1]
    return {"cells": cells, "terrain": {c: props[c].get("terrain", "grass") for c in cells},
            "corners": corners, "ends": ends, "starts": starts, "lairs": lairs, "wild": wild}


DATA = _load()
MAP = _board()
MONSTERS: dict[str, dict[str, Any]] = DATA["monsters"]
ITEMS: dict[str, dict[str, Any]] = DATA["items"]
BUYABLE: list[str] = DATA["buyable"]
TABLES: dict[str, list[tuple[int, int, str]]] = DATA["tables"]
RALLY: list[str] = DATA["rally"]
QUESTS: dict[int, dict[str, Any]] = DATA["quests"]


def lookup(table: str, value: int) -> str:
    """The result of ``value`` on a dice table.

    >>> lookup("search", 5), lookup("monster", 9)
    ('monster', 'troll')
    """
    for low, high, result in TABLES[table]:
        if low <= value <= high:
            return result
    raise KeyError(f"{value} is off the {table} table")
