"""Fantasy Racing balance: each character's share of wins with computer players in every seat.

``python -m game.bench --balance fantasy_racing [--games N]``.  Game ``k`` uses
seed ``k``, ``2 + k % 5`` seats (2 to 6) and characters dealt at random by the
seed.  A shared victory gives each winner an equal part of the win.  A
character's fair share is the sum, over the games it raced in, of one over
the number of racers; no character may win more than twice its fair share.
"""

from __future__ import annotations

from typing import Any

from game.engine import Match
from game.engine.bots import play_out

from .data import CHARACTERS

GAMES = 500
GAME = "fantasy_racing"


def play(seed: int) -> Match:
    seats = [{"name": f"Bot {i + 1}", "kind": "bot"} for i in range(2 + seed % 5)]
    match = Match.new(GAME, seats, seed=seed, options={"characters": "random"})
    play_out(match)
    return match


def report(games: int | None = None) -> dict[str, Any]:
    games = GAMES if games is None else games
    wins = {k: 0.0 for k in CHARACTERS}
    fair = {k: 0.0 for k in CHARACTERS}
    raced = {k: 0 for k in CHARACTERS}
    points = {k: 0 for k in CHARACTERS}
    actions = 0
    for seed in range(games):
        match = play(seed)
        result = match.result()
        n = len(result["characters"])
        actions += len(match.actions)
        for seat, key in enumerate(result["characters"]):
            fair[key] += 1 / n
            raced[key] += 1
            points[key] += result["scores"][seat]
        for seat in result["winners"]:
            wins[result["characters"][seat]] += 1 / len(result["winners"])
    rows = {}
    for key in CHARACTERS:
        ratio = wins[key] / fair[key] if fair[key] else 0.0
        rows[key] = {"games": raced[key], "wins": round(wins[key], 2),
                     "fair_share": round(fair[key], 2), "ratio": round(ratio, 3),
                     "mean_points": round(points[key] / max(1, raced[key]), 2)}
    worst = max(r["ratio"] for r in rows.values())
    return {"games": games, "characters": rows, "max_ratio": worst, "ok": worst <= 2.0,
            "mean_actions": round(actions / max(1, games), 1)}


def format(report: dict[str, Any]) -> str:  # noqa: A001 - the bench's interface
    lines = [f"{report['games']} games, 2-6 computer racers, characters dealt by seed "
             f"({report['mean_actions']} actions a game)",
             f"{'character':<12}{'games':>7}{'wins':>9}{'fair':>9}{'ratio':>8}{'points':>8}"]
    for key, row in report["characters"].items():
        lines.append(f"{key:<12}{row['games']:>7}{row['wins']:>9.2f}{row['fair_share']:>9.2f}"
                     f"{row['ratio']:>8.2f}{row['mean_points']:>8.2f}")
    lines.append(f"largest ratio {report['max_ratio']:.2f} (limit 2.00): "
                 + ("OK" if report["ok"] else "TOO STRONG"))
    return "\n".join(lines)
