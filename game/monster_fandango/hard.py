"""Monster Fandango's hooks for the Hard computer player (``game/engine/search.py``).

Nothing in Monster Fandango is hidden: every unit, item (a chest is just a chest until it is
opened), quest and its progress, lair and searched hex is on the table for everyone.  What a
chest holds, what a search finds and every other die are rolled when they happen, and the
search reseeds the copy's generator, so no future roll is known.  A determinization therefore
has nothing to redraw: :func:`determinize` changes nothing, whatever the state, so two states
that look the same to a seat stay the same.

:func:`standing` is the estimate of an unfinished game that lets the search's playouts stop
after a few actions.  A seat's worth is its quests done, plus the fraction of the way through
each open quest (its progress over its goal: chests brought home, kills, rounds held, ...),
plus ``UNIT_WORTH`` for each unit it has (units win ties at the round limit, do the questing,
and a seat with none has lost).  A share of the win follows from the worths by a softmax whose
temperature grows with the square root of the rounds left.  The constants were fitted by
maximum likelihood to 60 seeded games of Normal players (40 with two seats, 20 with three;
1,307 round starts): log-loss 0.697 against 0.832 for "everyone alike".
"""

from __future__ import annotations

import math
from typing import Any

from .data import QUESTS

#: Worth of one open quest's whole progress (a done quest is worth 1).
PROGRESS_WORTH = 1.0
#: Worth of one unit.
UNIT_WORTH = 0.2
#: The softmax temperature: ``SPREAD * sqrt(rounds left) + FLOOR`` quests.
SPREAD = 0.2
FLOOR = 0.1
#: With no round limit, the rounds still to play are taken to be this many.
OPEN_ENDED = 15
#: How ``search.outcome`` scores a finished game: 0.9 for a win, 0.1 for the rank.
WIN_PART = 0.9


def determinize(game: Any, seat: int, rng: Any) -> None:
    """Nothing is hidden from any seat (see the module's text): nothing to redraw."""
    return None


def worths(game: Any) -> list[float]:
    """Each seat's quests done, progress on the open ones, and units (see the module)."""
    out = []
    for s in range(game.n):
        done = part = 0.0
        for q in game.quests[s]:
            if q["done"]:
                done += 1
            else:
                part += min(1.0, q["progress"] / QUESTS[q["roll"]]["goal"])
        out.append(done + PROGRESS_WORTH * part + UNIT_WORTH * len(game.seat_units(s)))
    return out


def rounds_left(game: Any) -> float:
    limit = game.opts["round_limit"]
    if not limit:
        return float(OPEN_ENDED)
    return float(max(0, limit - game.round + 1))


def standing(game: Any) -> list[float]:
    """Every seat's expected score (0..1, as ``search.outcome`` would give it) in a game that
    has not ended."""
    n = game.n
    values = worths(game)
    if n == 1:  # alone: the three quests before the round limit, or nothing
        done = sum(q["done"] for q in game.quests[0])
        return [WIN_PART * min(1.0, (done + 0.5 * (values[0] - done)) / 3) + 0.05]
    alive = [bool(game.seat_units(s)) for s in range(n)]
    temperature = SPREAD * math.sqrt(rounds_left(game)) + FLOOR
    top = max(v for v, a in zip(values, alive) if a) if any(alive) else 0.0
    weights = [math.exp((v - top) / temperature) if a else 0.0 for v, a in zip(values, alive)]
    total = sum(weights) or 1.0
    out = []
    for s in range(n):
        win = weights[s] / total
        rank = sum(weights[s] / (weights[s] + weights[o]) if weights[s] + weights[o] else 0.5
                   for o in range(n) if o != s)
        out.append(WIN_PART * win + (1 - WIN_PART) * rank / (n - 1))
    return out


def evaluate(game: Any, seat: int) -> float:
    """How well ``seat`` is doing, 0..1 (a finished game: its outcome's scale)."""
    if game.phase == "over":
        winners = game.winners
        return WIN_PART / len(winners) if seat in winners else 0.0
    return standing(game)[seat]


#: The Hard player's budget per decision in the search's work units (``game/engine/search.py``,
#: ``SearchSettings.work``: an action played in a playout is one, a playout's copy and estimate
#: four, a redrawn world four).  Counted, never timed: the same save gives the same choices on
#: any machine.  Fitted (issue 27) so that a decision takes at most about 1 s of CPU at the 95th
#: percentile and 2.5 s at most on the 2-core development machine under load, every table size:
#: before, 96 playouts spent about 1,750 units (0.14 s median, 0.2 s p95 at two seats).
WORK_BUDGET = 3500
