"""Balance report for TRAP: Mothership Fantasia: how often a table of bots escapes.

``report(games)`` plays ``games`` seeded games (default 500) for every
difficulty and seat count (2, 3, 4) with the cooperative bot in every seat,
using the controller directly (no saves, no log) so the whole report takes
a minute or two.  ``format(report)`` prints the table.  Run it with
``python -m game.bench --balance mothership [--games N]``.
"""

from __future__ import annotations

from typing import Any

from game.engine import Rng

from .data import DIFFICULTY_IDS
from .rules import MothershipController

DEFAULT_GAMES = 500
SEAT_COUNTS = (2, 3, 4)


def play_one(seed: int, seats: int, difficulty: str) -> dict[str, Any]:
    """One bot game; returns its result (plus the number of actions)."""
    cls = MothershipController
    game = cls([{"name": f"Bot {n + 1}", "kind": "bot"} for n in range(seats)],
               {"difficulty": difficulty}, Rng(seed))
    actions = 0
    while not game.is_over():
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        rng = Rng.derive(seed, actions, seat, 0xB07)
        action = cls.policy(game.view(seat), legal, rng) or rng.choice(legal)
        game.apply(seat, action)
        actions += 1
    result = game.result()
    assert result is not None
    return {**result, "actions": actions}


def report(games: int | None = None) -> dict[str, Any]:
    """Win rates per difficulty and seat count, as plain data."""
    games = DEFAULT_GAMES if games is None else games
    cells = []
    for difficulty in DIFFICULTY_IDS:
        for seats in SEAT_COUNTS:
            results = [play_one(10_000 * seats + seed, seats, difficulty)
                       for seed in range(games)]
            endings = {key: sum(r["ending"] == key for r in results)
                       for key in ("none", "one", "two", "three", "all")}
            cells.append({
                "difficulty": difficulty, "seats": seats, "games": games,
                "won": endings["all"], "some_escaped": games - endings["none"],
                "endings": endings,
                "generators_found_all": sum(r["objectives_done"] == r["objectives_total"]
                                            for r in results),
                "mean_rounds": round(sum(r["rounds_played"] for r in results)
                                     / max(games, 1), 2),
                "mean_actions": round(sum(r["actions"] for r in results) / max(games, 1), 1),
            })
    return {"games_per_cell": games, "cells": cells}


def format(report: dict[str, Any]) -> str:  # noqa: A001 - the bench calls it by this name
    """The report as a table: all escaped (win) and at least one escaped, per cell."""
    lines = [f"{'difficulty':10} {'seats':>5} {'games':>6} {'all escaped':>12} "
             f"{'some escaped':>13} {'generators off':>15} {'rounds':>7}"]
    for cell in report["cells"]:
        n = max(cell["games"], 1)
        lines.append(f"{cell['difficulty']:10} {cell['seats']:>5} {cell['games']:>6} "
                     f"{cell['won'] / n:>12.0%} {cell['some_escaped'] / n:>13.0%} "
                     f"{cell['generators_found_all'] / n:>15.0%} {cell['mean_rounds']:>7}")
    return "\n".join(lines)
