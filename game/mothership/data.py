"""Static data of TRAP: Mothership Fantasia, loaded and checked once.

Two sources, both beside the code: ``mothership.yaml`` (tiles, characters,
difficulties, endings) and the board map ``boards/mothership.tmx`` (which
grid cells are tile spaces, gaps, the start and finish tiles and the round
tracker), read through :func:`game.board.tmxmap.load_board`.  The rules
import the checked constants from here and never touch a file themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from game.board.tmxmap import load_board
from game.resources import board_path

HERE = Path(__file__).resolve().parent
BOARD_PATH = board_path("mothership.tmx")
TRAPS = ("blind", "confuse", "corrode", "fear", "freeze", "jettison", "mystery", "sever")
KINDS = ("safe", "objective") + TRAPS
CHARACTER_IDS = ("barbarian", "knight", "mage", "ranger", "thief", "tinkerer")
DIFFICULTY_IDS = ("easy", "medium", "hard")
ENDING_IDS = ("none", "one", "two", "three", "all")
TILE_SPACES = 33

Cell = tuple[int, int]


class DataError(ValueError):
    """The game's data file or board map is inconsistent."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DataError(f"mothership data: {message}")


def load_data(text: str) -> dict[str, Any]:
    """Parse and validate the YAML text."""
    data = yaml.safe_load(text)
    _check(isinstance(data, dict), "the file must be a mapping")
    _check(set(data["tiles"]) == set(KINDS), "tiles must list every tile kind")
    _check(set(data["characters"]) == set(CHARACTER_IDS), "six characters are needed")
    _check(set(data["difficulties"]) == set(DIFFICULTY_IDS), "three difficulties are needed")
    _check(set(data["endings"]) == set(ENDING_IDS), "five endings are needed")
    _check(set(data["box"]["traps"]) == set(TRAPS), "the box must count every trap")
    for key, level in data["difficulties"].items():
        _check(sum(level.values()) == TILE_SPACES, f"{key} must lay out {TILE_SPACES} tiles")
        _check(level["safe"] + data["draw_pile"]["safe"] <= data["box"]["safe"],
               f"{key} needs more safe tiles than the box holds")
        _check(level["trap"] + data["draw_pile"]["trap"] <= sum(data["box"]["traps"].values()),
               f"{key} needs more trap tiles than the box holds")
        _check(level["objective"] <= data["box"]["objective"], f"{key}: too many objectives")
    for key, char in data["characters"].items():
        _check(set(char["immune"]) <= set(TRAPS), f"{key} is immune to an unknown trap")
    _check(data["tracker"]["places"] > max(data["tracker"]["start_place"].values()),
           "the tracker must have room to move")
    return data


@dataclass(frozen=True)
class Layout:
    """Where everything is on the board map (cells are (x, y) map cells)."""

    width: int
    height: int
    tile_spaces: tuple[Cell, ...]
    gaps: frozenset[Cell]
    start: Cell
    finish: Cell
    track: tuple[Cell, ...]          # place 1..N -> cell
    red_from: int                    # first red place

    def walkable(self) -> frozenset[Cell]:
        return frozenset(self.tile_spaces) | {self.start, self.finish}


def load_layout(path: Path = BOARD_PATH) -> Layout:
    """Read the board map's tile properties into a :class:`Layout`."""
    board = load_board(path)
    _check(board.kind == "grid", "the board must be a grid map")
    spaces: dict[str, list[Cell]] = {"tile": [], "gap": [], "start": [], "finish": []}
    track: dict[int, tuple[Cell, str]] = {}
    for cell in board.cells():
        props = board.cell_properties(cell)
        kind = props.get("space")
        if kind == "track":
            track[int(props["place"])] = (cell, props["zone"])
        elif kind is not None:
            spaces[kind].append(cell)
    _check(len(spaces["tile"]) == TILE_SPACES, f"the map needs {TILE_SPACES} tile spaces")
    _check(len(spaces["start"]) == 1 and len(spaces["finish"]) == 1,
           "the map needs one start tile and one finish tile")
    places = sorted(track)
    _check(places == list(range(1, len(places) + 1)), "tracker places must run 1..N")
    zones = [track[p][1] for p in places]
    _check(zones == sorted(zones, key=lambda z: z != "green") and zones[-1] == "red",
           "the tracker runs green, then red")
    return Layout(board.width, board.height, tuple(sorted(spaces["tile"])),
                  frozenset(spaces["gap"]), spaces["start"][0], spaces["finish"][0],
                  tuple(track[p][0] for p in places), zones.index("red") + 1)


DATA = load_data((HERE / "mothership.yaml").read_text(encoding="utf-8"))
LAYOUT = load_layout()
_check(len(LAYOUT.track) == DATA["tracker"]["places"], "the map's tracker must match the data")
TILES: dict[str, dict[str, Any]] = DATA["tiles"]
CHARACTERS: dict[str, dict[str, Any]] = DATA["characters"]
DIFFICULTIES: dict[str, dict[str, int]] = DATA["difficulties"]
ENDINGS: dict[str, str] = DATA["endings"]
