"""Monster Fandango's balance report: computer players in every seat.

``report(None)`` plays 200 seeded games with 2 seats and 200 with 4 seats
(default options: 30-round limit) and measures the average number of rounds,
each turn-order position's share of the wins (a shared win is split), and how
the games ended: by quests, by exhaustion (every hex searched, last standing),
or by the round limit, and how often the computer players use each ability and item
(per game, and in all).  Run it with ``python -m game.bench --balance
monster_fandango [--games N]``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from game.engine import Match
from game.engine.bots import choose_action

GAME = "monster_fandango"
SEAT_COUNTS = (2, 4)
DEFAULT_GAMES = 200
#: Ability and item uses counted from the actions: name -> test on (action, events).
ABILITIES = ("rally", "ride", "shoot", "rampage", "fury", "burrow", "heal", "sacrifice",
             "lucky", "escape", "give", "buy", "open", "pickup")
ENDINGS = {"quests": "quests", "last standing": "exhaustion", "exhaustion": "exhaustion",
           "wiped out": "exhaustion", "round limit": "round limit"}


def play_one(seats: int, seed: int) -> dict[str, Any]:
    match = Match.new(GAME, [{"name": f"P{i + 1}", "kind": "bot"} for i in range(seats)],
                      seed=seed)
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    result = match.result()
    order = match.controller.order
    return {"rounds": result["rounds"], "ending": ENDINGS[result["reason"]],
            "positions": [order.index(w) for w in result["winners"]],
            "actions": len(match.actions), "uses": ability_uses(match.actions)}


def ability_uses(actions: list[dict[str, Any]]) -> Counter:
    """How often each ability or item was used in a list of recorded actions."""
    uses: Counter = Counter()
    for record in actions:
        action = record["action"]
        kind = action["type"]
        if kind == "select":
            uses["ride"] += "ride" in action
        elif kind == "lucky":
            uses["lucky"] += action["change"] != 0  # a roll left as it is uses nothing
        elif kind in ABILITIES:
            uses[kind] += 1
    return uses


def report(games: int | None = None) -> dict[str, Any]:
    games = DEFAULT_GAMES if games is None else max(1, int(games))
    out: dict[str, Any] = {"games": games, "seats": {}}
    for seats in SEAT_COUNTS:
        rounds = 0
        actions = 0
        wins = [0.0] * seats
        endings: Counter = Counter()
        uses: Counter = Counter()
        for seed in range(1, games + 1):
            game = play_one(seats, seed * 7919 + seats)
            uses.update(game["uses"])
            rounds += game["rounds"]
            actions += game["actions"]
            endings[game["ending"]] += 1
            for position in game["positions"]:
                wins[position] += 1 / len(game["positions"])
        out["seats"][seats] = {
            "average_rounds": round(rounds / games, 2),
            "average_actions": round(actions / games, 1),
            "win_share_by_position": [round(w / games, 3) for w in wins],
            "no_winner": round(1 - sum(wins) / games, 3),
            "endings": {k: round(endings[k] / games, 3)
                        for k in ("quests", "exhaustion", "round limit")},
            "ability_uses": {k: uses[k] for k in ABILITIES},
        }
    return out


def format(report: dict[str, Any]) -> str:  # noqa: A001 - the bench calls it so
    lines = [f"{report['games']} games per seat count, computer players, 30-round limit",
             f"{'seats':>5} {'rounds':>7} {'actions':>8}  win share by turn position"
             f"{'':12} quests  exhaust.  limit"]
    for seats, row in report["seats"].items():
        shares = " ".join(f"{s:5.1%}" for s in row["win_share_by_position"])
        end = row["endings"]
        lines.append(f"{seats:>5} {row['average_rounds']:>7} {row['average_actions']:>8}  "
                     f"{shares:<38} {end['quests']:6.1%} {end['exhaustion']:8.1%} "
                     f"{end['round limit']:6.1%}")
    lines.append("ability and item use per game (total in brackets; lucky counts changed rolls)")
    for seats, row in report["seats"].items():
        uses = row.get("ability_uses", {})
        parts = [f"{k} {n / report['games']:.2f} ({n})" for k, n in uses.items()]
        for start in range(0, len(parts), 5):
            head = f"{seats:>5} " if start == 0 else " " * 6
            lines.append(head + ", ".join(parts[start:start + 5]))
    return "\n".join(lines)
