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

from .data import CHARACTER_IDS, CHARACTERS, DIFFICULTY_IDS
from .rules import MothershipController

DEFAULT_GAMES = 500
SEAT_COUNTS = (2, 3, 4)


MOVES = ("move", "skip", "sneak")
#: Actions that get something done besides walking and looking.
DEEDS = ("deactivate", "assist", "disarm", "break_free")


def play_one(seed: int, seats: int, difficulty: str) -> dict[str, Any]:
    """One bot game; returns its result, the number of actions and turn figures.

    A *turn* here is a run of actions by one seat (a deferred seat's return is
    a turn of its own).  A turn is *wasted* when the seat walked in it and in
    its previous turn, of its own free will both times (no fear or confusion
    pulling it, no Jettison throwing it), did nothing in either turn but walk and
    peek (no deactivating, assisting or disarming), and ends it where that
    previous turn began: walking there and back again for nothing.  Turning
    back because the pod opened in between is not waste.
    """
    cls = MothershipController
    game = cls([{"name": f"Bot {n + 1}", "kind": "bot"} for n in range(seats)],
               {"difficulty": difficulty}, Rng(seed))
    actions = 0
    turns: list[dict[str, Any]] = []
    last: dict[int, dict[str, Any]] = {}
    current: dict[str, Any] | None = None
    wasted = 0
    while not game.is_over():
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        rng = Rng.derive(seed, actions, seat, 0xB07)
        view = game.view(seat)
        action = cls.policy(view, legal, rng) or rng.choice(legal)
        if game.phase == "play" and (current is None or current["seat"] != seat):
            current = {"seat": seat, "start": game.pos[seat], "walked": False,
                       "forced": False, "deeds": False, "open": game.finish_open()}
            turns.append(current)
        pulled = game.phase == "play" and game.pull(seat) is not None
        events = game.apply(seat, action)
        if current is not None and current["seat"] == seat:
            current["deeds"] |= action["type"] in DEEDS
            if action["type"] in MOVES:
                current["walked"] = True
                current["forced"] |= pulled
            current["forced"] |= any(e.get("trap") in ("jettison", "mystery") for e in events)
            current["end"] = game.pos[seat]
            if game.to_act() != [seat]:        # the turn is over: judge it
                before = last.get(seat)
                if (before is not None and current["walked"] and before["walked"]
                        and not current["forced"] and not before["forced"]
                        and not current["deeds"] and not before["deeds"]
                        and current["open"] == before["open"]
                        and before["end"] != before["start"]
                        and current["end"] == before["start"]):
                    wasted += 1
                last[seat] = current
                current = None
        actions += 1
    result = game.result()
    assert result is not None
    return {**result, "actions": actions, "turns": len(turns), "wasted_turns": wasted}


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
                "turns": sum(r["turns"] for r in results),
                "wasted_turns": sum(r["wasted_turns"] for r in results),
                "stranded": sum(r["objectives_done"] == r["objectives_total"]
                                and r["ending"] != "all" for r in results),
                "characters": {c: sum(c in r["characters"] for r in results)
                               for c in CHARACTER_IDS},
            })
    return {"games_per_cell": games, "cells": cells}


def format(report: dict[str, Any]) -> str:  # noqa: A001 - the bench calls it by this name
    """The report as a table: all escaped (win) and at least one escaped, per cell; then the
    share of wasted back-and-forth turns, games left with every generator off but someone
    aboard, and how often each character was played."""
    lines = [f"{'difficulty':10} {'seats':>5} {'games':>6} {'all escaped':>12} "
             f"{'some escaped':>13} {'generators off':>15} {'stranded':>9} {'rounds':>7} "
             f"{'wasted turns':>13}"]
    for cell in report["cells"]:
        n = max(cell["games"], 1)
        lines.append(f"{cell['difficulty']:10} {cell['seats']:>5} {cell['games']:>6} "
                     f"{cell['won'] / n:>12.0%} {cell['some_escaped'] / n:>13.0%} "
                     f"{cell['generators_found_all'] / n:>15.0%} {cell['stranded']:>9} "
                     f"{cell['mean_rounds']:>7} "
                     f"{cell['wasted_turns'] / max(cell['turns'], 1):>13.2%}")
    turns = sum(c["turns"] for c in report["cells"])
    wasted = sum(c["wasted_turns"] for c in report["cells"])
    lines.append(f"wasted back-and-forth turns: {wasted} of {turns} "
                 f"({wasted / max(turns, 1):.2%}; target under 0.5%)")
    picks = {c: sum(cell["characters"][c] for cell in report["cells"]) for c in CHARACTER_IDS}
    total = max(sum(picks.values()), 1)
    lines.append("character use: " + ", ".join(f"{CHARACTERS[c]['name']} {picks[c] / total:.0%}"
                                              for c in CHARACTER_IDS))
    return "\n".join(lines)
