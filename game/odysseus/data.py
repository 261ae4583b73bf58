"""Odysseus: Winds of Fate's static data: ``cards.yaml`` and the sea map's graph.

Loaded once at import, validated here, and handed to the rules as plain
Python values (the rules module itself never reads a file).

>>> len(CARDS), len(REWARDS), len(OLYMPUS)
(54, 12, 6)
>>> sorted(LINKS["troy"])
['calm', 'stormy']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from game.board.tmxmap import load_board
from game.resources import board_path

HERE = Path(__file__).resolve().parent
DATA_FILE = HERE / "cards.yaml"
BOARD_FILE = board_path("odysseus.tmx")

DECKS = ("help", "hinder")
SPECIAL_KINDS = ("draw2", "vp2", "advance")
REWARD_KINDS = ("vp", "draw", "chip", "destiny")
ENDINGS = ("safe", "dead", "stranded")
EFFECT_KEYS = {"title", "text", "bet", "circe", "destiny", "vp_per_chip", "advance", "lose_crew",
               "return_crew", "draw", "hinder", "help", "olympus_factor", "win_return", "jump",
               "double"}


class DataError(ValueError):
    """cards.yaml or the map does not hold what the game needs."""


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise DataError(f"odysseus data: {what}")


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def build_cards(adventure: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Card id -> card, from the deck recipes (ids like ``help-07``)."""
    cards: dict[str, dict[str, Any]] = {}
    for deck in DECKS:
        recipe = adventure.get(deck)
        _need(isinstance(recipe, dict), f"adventure deck {deck!r} missing")
        entries: list[dict[str, Any]] = []
        for value, copies in sorted(recipe.get("numbers", {}).items()):
            _need(_count(value) and value > 0 and _count(copies), f"bad {deck} number {value}")
            entries += [{"deck": deck, "value": value, "special": None}] * copies
        for kind, copies in recipe.get("specials", {}).items():
            _need(kind in SPECIAL_KINDS and _count(copies), f"bad {deck} special {kind!r}")
            entries += [{"deck": deck, "value": 0, "special": kind}] * copies
        for n, entry in enumerate(entries, 1):
            cards[f"{deck}-{n:02d}"] = {"id": f"{deck}-{n:02d}", **entry}
    return cards


def load(path: Path = DATA_FILE) -> dict[str, Any]:
    """Read and validate cards.yaml."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    _need(isinstance(raw, dict), "cards.yaml is not a mapping")
    cards = build_cards(raw["adventure"])
    _need(len(cards) == 54, f"there must be 54 Adventure cards, not {len(cards)}")
    olympus = raw["olympus"]
    _need(len(olympus) == 6 and all(o["god"] in ("athena", "poseidon") and _count(o["value"])
                                    for o in olympus), "the Olympus deck needs 6 valid cards")
    rewards = raw["rewards"]
    _need(len(rewards) == 12, "there must be 12 Reward tiles")
    for r in rewards:
        _need(r["kind"] in REWARD_KINDS and _count(r["amount"]) and _count(r["red"]),
              f"bad reward tile {r}")
    tiles = raw["tiles"]
    _need(len(tiles) == 10 and len(set(tiles)) == 10, "there must be 10 Encounter tiles")
    encounters = raw["encounters"]
    for name in [*tiles, "troy", "ithaca"]:
        _need(name in encounters, f"encounter {name!r} has no effect")
        _need(set(encounters[name]) <= EFFECT_KEYS, f"encounter {name!r} has unknown keys")
    turn = raw["turn_tiles"]
    _need(sorted(turn) == [1, 2, 3, 4, 5], "turn tiles 1-5 needed")
    _need(sorted(raw["crew"]) == [3, 4, 5], "crew for 3, 4 and 5 seats needed")
    _need(sorted(raw["destinies"]) == sorted(ENDINGS), "three destinies needed")
    return {**raw, "cards": cards}


def load_graph(path: Path = BOARD_FILE) -> tuple[dict[str, dict[str, str]], dict[str, Any]]:
    """(space -> {"calm": target, "stormy": target}, space -> properties) from the map."""
    board = load_board(path)
    _need(board.kind == "track", "the sea map must be a track board")
    track = board.track
    links: dict[str, dict[str, str]] = {}
    props: dict[str, Any] = {}
    for name, space in track.spaces.items():
        kind = space.properties.get("kind")
        if kind not in ("troy", "sea", "ithaca"):
            continue
        props[name] = dict(space.properties)
        links[name] = {l.kind: l.target for l in track.links_from(name)
                       if l.kind in ("calm", "stormy")}
    seas = [n for n, p in props.items() if p["kind"] == "sea"]
    _need(len(seas) == 9, "the map needs nine sea spaces")
    _need([n for n, p in props.items() if p["kind"] == "troy"] == ["troy"], "one Troy")
    _need([n for n, p in props.items() if p["kind"] == "ithaca"] == ["ithaca"], "one Ithaca")
    for name in ["troy", *seas]:
        _need(sorted(links[name]) == ["calm", "stormy"],
              f"space {name!r} needs one calm and one stormy path")
    return links, props


DATA = load()
CARDS: dict[str, dict[str, Any]] = DATA["cards"]
OLYMPUS: list[dict[str, Any]] = [dict(o, id=f"olympus-{n}") for n, o in
                                 enumerate(DATA["olympus"], 1)]
OLYMPUS_BY_ID = {o["id"]: o for o in OLYMPUS}
REWARDS: dict[int, dict[str, Any]] = {n: dict(r, id=n) for n, r in
                                      enumerate(DATA["rewards"], 1)}
ENCOUNTERS: dict[str, dict[str, Any]] = DATA["encounters"]
TILES: list[str] = list(DATA["tiles"])
TURN_TILES: dict[int, dict[str, int]] = DATA["turn_tiles"]
CREW: dict[int, int] = DATA["crew"]
DESTINIES: dict[str, str] = DATA["destinies"]
LINKS, SPACE_PROPS = load_graph()
SEA_SPACES: list[str] = sorted((n for n, p in SPACE_PROPS.items() if p["kind"] == "sea"),
                               key=lambda n: SPACE_PROPS[n].get("index", 0))
