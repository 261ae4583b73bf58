"""Balance report: how often each ending happens with computer players in every seat.

``python -m game.bench --balance odysseus [--games N]`` runs it: N seeded games
(default 1,000) at each seat count (3, 4 and 5), played by the bot directly on
the controller (no saves, no deep copies); each computer decision imagines a few
hundred voyages, so the default report takes several minutes (300 games: two).

The tuned values in ``cards.yaml`` with the forecasting bot gave (300 games per seat
count)::

    seats  Safe Return    Dead  Stranded  won adv.  top score  aim true  last aim  target
        3        34.7%   43.7%     21.7%     42.6%       41.9     76.2%     98.6%  ok
        4        35.0%   34.7%     30.3%     41.9%       35.9     44.0%     97.6%  ok
        5        38.0%   23.3%     38.7%     47.2%       34.9     40.9%     99.3%  ok

"aim true": how often the Destiny card a computer put most of its chips on matched the
ending (the old fixed-aim bot: about 50%; a blind guess: 33%).  "last aim": how often the
ending it was playing for at its last decision came true (made late, often with the end
in sight, so it says that the bot re-aims rather than that it foresaw the end).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from game.engine import Rng

from .bot import aim as bot_aim
from .rules import ENDINGS, OdysseusController

DEFAULT_GAMES = 1000
SEAT_COUNTS = (3, 4, 5)
TARGET = 0.15


def play(seats: int, seed: int, aims: dict[int, str] | None = None) -> OdysseusController:
    """One whole game with the bot in every seat; returns the finished controller.
    ``aims`` (if given) receives each seat's aim as of its last decision."""
    game = OdysseusController([{"name": f"P{i + 1}", "kind": "bot"} for i in range(seats)],
                              {}, Rng(seed))
    steps = 0
    while not game.is_over():
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        action = OdysseusController.policy(view, legal, Rng.derive(seed, steps, seat, 0xB07))
        if aims is not None and view["seats"][seat]["destiny"] is not None:
            aims[seat] = bot_aim(view)[0]
        game.apply(seat, action if action is not None else legal[0])
        steps += 1
        if steps > 5000:
            raise RuntimeError(f"game {seats}/{seed} did not end")
    return game


def report(games: int | None = None) -> dict[str, Any]:
    """Per seat count: share of each ending, mean final round, mean winning score."""
    games = DEFAULT_GAMES if games is None else games
    out: dict[str, Any] = {"games": games, "target": TARGET, "seats": {}}
    for seats in SEAT_COUNTS:
        endings: Counter[str] = Counter()
        rounds = {e: 0 for e in ENDINGS}
        won_adventures = adventures = top_score = aimed = aims_true = backed_true = 0
        for seed in range(games):
            aims: dict[int, str] = {}
            g = play(seats, 1_000_003 * seats + seed, aims)
            aimed += len(aims)
            aims_true += sum(a == g.ending for a in aims.values())
            for p in g.final["destiny_payouts"]:  # the card it put most chips on
                chips = p["chips"]
                backed_true += p["cards"][max(range(3), key=lambda i: (chips[i], -i))] \
                    == g.ending
            endings[g.ending] += 1
            rounds[g.ending] += g.round
            adventures += len(g.history)
            won_adventures += sum(h["outcome"] == "won" for h in g.history)
            top_score += max(g.final["scores"])
        out["seats"][seats] = {
            "endings": {e: round(endings[e] / games, 4) for e in ENDINGS},
            "mean_round": {e: round(rounds[e] / endings[e], 2) if endings[e] else None
                           for e in ENDINGS},
            "adventures_won": round(won_adventures / max(1, adventures), 4),
            "mean_winning_score": round(top_score / games, 2),
            # How often a computer's final aim (the ending it last played for) came true;
            # backing an ending at random would be right about one time in three.
            "aim_came_true": round(backed_true / (games * seats), 4),
            # The aim at its very last decision (often made with the end in plain sight).
            "last_aim_true": round(aims_true / max(1, aimed), 4),
            "ok": all(endings[e] / games >= TARGET for e in ENDINGS),
        }
    return out


def format(report: dict[str, Any]) -> str:  # noqa: A001 - the bench's name for it
    lines = [f"{report['games']} seeded bot games per seat count; target: every ending "
             f">= {report['target']:.0%}",
             f"{'seats':>5}  {'Safe Return':>11}  {'Dead':>6}  {'Stranded':>8}  "
             f"{'won adv.':>8}  {'top score':>9}  {'aim true':>8}  {'last aim':>8}  target"]
    for seats, row in report["seats"].items():
        e = row["endings"]
        lines.append(f"{seats:>5}  {e['safe']:>11.1%}  {e['dead']:>6.1%}  {e['stranded']:>8.1%}"
                     f"  {row['adventures_won']:>8.1%}  {row['mean_winning_score']:>9.1f}  "
                     f"{row['aim_came_true']:>8.1%}  {row['last_aim_true']:>8.1%}  "
                     f"{'ok' if row['ok'] else 'MISSED'}")
    return "\n".join(lines)
