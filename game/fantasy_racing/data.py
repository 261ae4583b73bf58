"""Fantasy Racing's static data: characters, chest objects and the track.

Loaded once, validated here, and handed to the rules as plain data.  The
track comes from the Tiled map ``boards/fantasy_racing.tmx`` (tile
properties ``obstacle``, ``item`` and ``line``, and the ``starts`` object
layer); the characters and objects from the YAML files beside this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from game.board.tmxmap import load_board
from game.resources import board_path

HERE = Path(__file__).resolve().parent
BOARD_PATH = board_path("fantasy_racing.tmx")

ABILITIES = frozenset({"long_skid", "scrounger", "steal_on_win", "start_clover", "nimble_fingers",
                       "rapid", "steady", "start_shield", "cheap_shield", "fire_range",
                       "start_wand", "treasure_hunter", "crowd_favourite"})
WEAKNESSES = frozenset({"short_legs", "no_shield", "light", "short_stride", "unlucky", "frail",
                        "timid", "hot_headed"})
TARGETS = frozenset({"line4", "line8", "range", "area", "racer", "none"})
SHOCKS = frozenset({"small", "big", "none"})
MOODS = ("bonus", "even", "malus")
OBSTACLES = frozenset({"barrier", "rock", "hole", "shortcut"})
ITEMS = frozenset({"clover", "shield", "coin", "chest"})
#: The movement dice's faces: D6, and DRAPID for a rapid character (the rules roll them; the
#: computer player reckons with them).
D6 = [1, 2, 3, 4, 5, 6]
DRAPID = [2, 3, 4, 5]


class DataError(ValueError):
    """The game's data files are inconsistent."""


def _load(name: str) -> dict[str, Any]:
    with open(HERE / name, encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    if not isinstance(data, dict) or not data:
        raise DataError(f"{name} must be a non-empty mapping")
    return data


def check_characters(chars: dict[str, Any]) -> dict[str, Any]:
    for key, ch in chars.items():
        combat = ch.get("combat", {})
        if set(combat) != {"defeat", "simple", "overwhelming"} or sum(combat.values()) != 100:
            raise DataError(f"character {key}: combat must give defeat/simple/overwhelming "
                            f"summing to 100")
        if not 0 <= ch.get("guard", 0) <= combat["simple"]:
            raise DataError(f"character {key}: bad guard")
        unknown = set(ch.get("abilities", [])) - ABILITIES
        if unknown:
            raise DataError(f"character {key}: unknown abilities {sorted(unknown)}")
        if ch.get("weakness") not in WEAKNESSES:
            raise DataError(f"character {key}: unknown weakness {ch.get('weakness')!r}")
        for field in ("name", "strengths", "weakness_text"):
            if not isinstance(ch.get(field), str):
                raise DataError(f"character {key}: {field} is missing")
    return chars


def check_objects(objects: dict[str, Any]) -> dict[str, Any]:
    for mood in MOODS:
        total = sum(o["weights"][mood] for o in objects.values())
        if total != 100:
            raise DataError(f"objects: the {mood} weights sum to {total}, not 100")
    for key, obj in objects.items():
        if obj.get("target") not in TARGETS or obj.get("shock") not in SHOCKS:
            raise DataError(f"object {key}: bad target or shock")
        if not isinstance(obj.get("range"), int) or not isinstance(obj.get("name"), str):
            raise DataError(f"object {key}: range and name are required")
    return objects


def load_track(path: Path = BOARD_PATH) -> dict[str, Any]:
    """The track as plain data: size, terrain and items per square, start squares."""
    board = load_board(path)
    if board.kind != "grid" or not (board.grid.wrap_x and board.grid.wrap_y):
        raise DataError("the racing board must be a grid wrapping on both axes")
    terrain: dict[tuple[int, int], str] = {}
    items: dict[tuple[int, int], str] = {}
    for cell in board.cells():
        props = board.cell_properties(cell)
        if "obstacle" in props:
            if props["obstacle"] not in OBSTACLES:
                raise DataError(f"square {cell}: unknown obstacle {props['obstacle']!r}")
            terrain[cell] = props["obstacle"]
        if "item" in props:
            if props["item"] not in ITEMS:
                raise DataError(f"square {cell}: unknown item {props['item']!r}")
            items[cell] = props["item"]
    starts = {}
    for obj in board.objects:
        if obj.type == "start" or obj.layer == "starts":
            starts[int(obj.properties["slot"])] = board.cell_at(obj.x, obj.y)
    slots = [starts[n] for n in sorted(starts)]
    if len(slots) < 6 or any(y != 0 for _x, y in slots) or len(set(slots)) != len(slots):
        raise DataError("the map needs six distinct start squares on the top row")
    width, height = board.width, board.height
    for (x, y), kind in terrain.items():
        if kind == "hole" and (y == 0 or terrain.get((x, y - 1)) in ("barrier", "rock")):
            raise DataError(f"hole {(x, y)}: needs an open square above it, below the start row")
    return {"width": width, "height": height, "terrain": terrain, "items": items,
            "starts": slots}


#: What the chest icon beside each racer means (the mage-referee's bonus and malus).
MOOD_HELP = {
    "bonus": "Bonus chest: among the racers with the fewest points, so the mage-referee's "
             "chests give the powerful weapons far more often.",
    "even": "Even chest: neither first nor last on points; chests give the usual mix.",
    "malus": "Malus chest: among the racers with the most points, so chests give mostly "
             "traps, spears and purses.",
}


def character_card(key: str, chars: dict[str, Any] | None = None) -> str:
    """A character's tooltip: combat odds, guard, strengths and weakness, in plain words."""
    ch = (chars or CHARACTERS)[key]
    c = ch["combat"]
    guard = (f" Guard {ch['guard']}: an attacker's winning chance is {ch['guard']} points "
             f"lower." if ch["guard"] else "")
    return (f"{ch['name']}\nAttacking: {c['simple'] + c['overwhelming']}% to win "
            f"({c['simple']}% victory +3, {c['overwhelming']}% overwhelming +5), "
            f"{c['defeat']}% defeat.{guard}\nStrengths: {ch['strengths']}\n"
            f"Weakness: {ch['weakness_text']}")


def character_line(key: str, chars: dict[str, Any] | None = None) -> str:
    """One short paragraph per character, for the setup screen's roster."""
    ch = (chars or CHARACTERS)[key]
    c = ch["combat"]
    guard = f", guard {ch['guard']}" if ch["guard"] else ""
    return (f"{ch['name']} (wins {c['simple'] + c['overwhelming']}% of attacks, "
            f"{c['overwhelming']}% overwhelming{guard}). {ch['strengths']} "
            f"Weakness: {ch['weakness_text']}")


CHARACTERS: dict[str, Any] = check_characters(_load("characters.yaml"))
OBJECTS: dict[str, Any] = check_objects(_load("objects.yaml"))
TRACK: dict[str, Any] = load_track()
