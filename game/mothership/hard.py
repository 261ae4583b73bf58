"""TRAP: Mothership Fantasia's hooks for the Hard computer player (``game/engine/search.py``).

:func:`determinize` redraws, in a copy of the game, everything nobody at the table has seen:
the tiles lying face down, the draw pile (its tiles and their order) and so which tiles stayed
in the box.  What everyone saw is kept: every tile turned face up so far (also those since
jettisoned or lifted), and the counts the set-up makes public: the difficulty lays exactly so
many safe tiles, traps and generators, and the draw pile holds three safe tiles and three
traps.  The unseen traps of the box are sorted before they are shuffled, and the piles they
are dealt into have public sizes, so two games that look alike are redrawn alike.

:func:`standing` estimates, for a game not yet over, the chance that the whole crew escapes:
a logistic model over the AP the crew still has against the AP it still needs (walks to the
running generators, the search for those not found yet, every walk to the pod), fitted by
maximum likelihood to seeded games of Normal crews (see ``WEIGHTS``).  ``evaluate`` puts
that chance on the scale ``search.outcome`` gives a finished game.
"""

from __future__ import annotations

import math
from typing import Any

from game.engine import Rng

from .data import DATA, DIFFICULTIES, LAYOUT, TRAPS
from .kernel import Cell, distances, neighbours

#: How ``search.outcome`` scores a finished game: 0.9 shared among the winners, 0.1 for rank.
WIN_PART = 0.9


def _category(kind: str) -> str:
    return kind if kind in ("safe", "objective") else "trap"


def determinize(game: Any, seat: int, rng: Rng) -> None:
    """Redraw the face-down tiles, the draw pile and the box of ``game`` (a copy),
    consistently with every tile the table has seen (see the module's docstring).  Nothing
    in Mothership is hidden from one seat and not from another, so ``seat`` changes
    nothing."""
    level = DIFFICULTIES[game.difficulty]
    box = DATA["box"]
    pile = DATA["draw_pile"]
    seen_by: dict[str, int] = {"safe": 0, "objective": 0, "trap": 0}
    pile_by: dict[str, int] = {"safe": 0, "objective": 0, "trap": 0}
    for kind, count in game.seen.items():
        seen_by[_category(kind)] += count
    for kind, count in game.pile_seen.items():
        pile_by[_category(kind)] += count
    laid = sorted(c for c, t in game.tiles.items() if not t["up"] and c not in game.from_pile)
    refilled = sorted(c for c, t in game.tiles.items() if not t["up"] and c in game.from_pile)
    # Tiles of the first lay-out not seen yet, and of the draw pile not seen yet.
    laid_safe = level["safe"] - (seen_by["safe"] - pile_by["safe"])
    laid_goal = level["objective"] - (seen_by["objective"] - pile_by["objective"])
    laid_trap = level["trap"] - (seen_by["trap"] - pile_by["trap"])
    pile_safe = pile["safe"] - pile_by["safe"]
    pile_trap = pile["trap"] - pile_by["trap"]
    if (laid_safe + laid_goal + laid_trap != len(laid)
            or pile_safe + pile_trap != len(refilled) + len(game.draw_pile)
            or min(laid_safe, laid_goal, laid_trap, pile_safe, pile_trap) < 0):
        _reshuffle(game, laid + refilled, rng)      # a floor laid by hand (tests, tools)
        return
    unseen = [kind for kind in TRAPS
              for _ in range(box["traps"][kind] - game.seen.get(kind, 0))]
    rng.shuffle(unseen)
    first = ["safe"] * laid_safe + ["objective"] * laid_goal + unseen[:laid_trap]
    later = ["safe"] * pile_safe + unseen[laid_trap:laid_trap + pile_trap]
    rng.shuffle(first)
    rng.shuffle(later)
    for cell, kind in zip(laid, first):
        game.tiles[cell]["kind"] = kind
    for cell, kind in zip(refilled, later):
        game.tiles[cell]["kind"] = kind
    game.draw_pile = later[len(refilled):]


def _reshuffle(game: Any, cells: list[Cell], rng: Rng) -> None:
    """Fallback for a floor not dealt by the set-up: the hidden tiles (face down and in the
    draw pile), sorted, are shuffled among the same places."""
    pool = sorted([game.tiles[c]["kind"] for c in cells] + list(game.draw_pile))
    rng.shuffle(pool)
    for cell, kind in zip(cells, pool):
        game.tiles[cell]["kind"] = kind
    game.draw_pile = pool[len(cells):]


# ------------------------------------------------------------------------- standing
#: Logistic weights over :func:`features`, fitted by maximum likelihood (Newton's method) to
#: 28,469 positions of 900 seeded games of Normal crews (every difficulty, 2 to 4 seats):
#: log-loss 0.52 on held-out positions against 0.66 for the base rate alone.
WEIGHTS: tuple[float, ...] = (-0.911, 0.218, -0.345, -0.497, -0.322, -0.41, -0.025)
FEATURES = ("bias", "ap_left", "to_goals", "to_find", "to_pod", "troubles", "tightest")


def _steps(game: Any, origin: Cell) -> dict[Cell, int]:
    """Fewest steps from ``origin`` over tiles on the board (face up or down), the start
    tile and the pod."""
    walk = set(game.tiles) | {LAYOUT.start, LAYOUT.finish}
    return distances([origin], lambda c: c in walk)


def features(game: Any) -> list[float]:
    """What :func:`standing` weighs, per seat still aboard (AP counted over the crew)."""
    n = len(game.seats)
    aboard = [s for s in range(n) if not game.escaped[s]]
    rounds_left = max(0, DATA["tracker"]["places"] - game.place)
    ap_left = 0.0
    to_pod = 0.0
    tightest = math.inf
    troubles = 0.0
    pod = _steps(game, LAYOUT.finish)
    for s in aboard:
        now = game.ap[s] if game._turn_ahead(s) else 0
        mine = now + max(0, rounds_left - 1) * game.ap_per_round(s)
        ap_left += mine
        way = pod.get(game.pos[s], 30)
        to_pod += way
        tightest = min(tightest, mine - way)
        troubles += (game.frozen[s] is not None) + game.afraid[s] + game.confused[s]
    running = [c for c, t in game.tiles.items()
               if t["kind"] == "objective" and t["up"] and not t["done"]]
    to_goals = 0.0
    if running and aboard:
        ways = [_steps(game, game.pos[s]) for s in aboard]
        for cell in running:
            to_goals += min(w.get(cell, 30) for w in ways) + 1
    hidden = game.objectives_total - game.objectives_done() - len(running)
    down = sum(1 for t in game.tiles.values() if not t["up"])
    to_find = hidden * (down + 1) / (hidden + 1) if hidden > 0 else 0.0
    k = max(1, len(aboard))
    return [1.0, ap_left / k, to_goals / k, to_find / k, to_pod / k, troubles,
            0.0 if tightest == math.inf else min(tightest, 20.0)]


def standing(game: Any) -> float:
    """The chance that every seat still aboard escapes (1 once all have)."""
    if all(game.escaped):
        return 1.0
    if game.is_over():
        return 0.0
    z = sum(w * f for w, f in zip(WEIGHTS, features(game)))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def evaluate(game: Any, seat: int) -> float:
    """:func:`standing` on ``search.outcome``'s scale: a crew's win is shared by all."""
    n = len(game.seats)
    win = WIN_PART / n + (1 - WIN_PART) / 2
    lose = (1 - WIN_PART) / 2 * (0.5 + 0.5 * game.escaped[seat])
    p = standing(game)
    return p * win + (1 - p) * lose


__all__ = ["determinize", "evaluate", "features", "standing"]


#: The Hard player's budget per decision in the search's work units
#: (``game/engine/search.py``, ``SearchSettings.work``: an action played in a playout is one,
#: a playout's copy and estimate four, a redrawn world four).  Counted, never timed: the
#: same save gives the same choices on any machine.  Fitted (issue 27) so that a decision
#: takes at most about 1 s of CPU at the 95th percentile and 2.5 s at most on the 2-core
#: development machine under load, every table size: 64 playouts spend about 1,700-1,800
#: units, 0.40-0.46 s at the median but 0.97 s at the 95th percentile and 1.06 s at most
#: with four seats (load 8; its estimate is dear, about 0.24 ms a unit and more with more
#: seats), so the budget cuts the longest searches to about 1,500 units.
WORK_BUDGET = 1500
