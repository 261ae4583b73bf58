"""Fantasy Racing's hooks for the Hard computer player (``game/engine/search.py``).

Nothing in the race is hidden: every racer, object, trap and chest is on the table, so a
determinization has nothing to redraw (the search reseeds the copy's generator, so no future
die is known).  What the search needs from the game is a quick estimate of how a race that
has not ended will end, so its playouts can stop after a few turns instead of playing the
race out.

:func:`standing` is that estimate.  A racer's worth is its points plus ``ROW_WORTH`` points
for every row of the track it has covered (a lap is ``height`` rows and pays 10 points, and
the racers cover the same distance on average in the turns left), plus what its character
is worth over the turns left; a share of the win follows from the worths by a softmax whose
temperature grows with the square root of the turns left (much can still happen in a long
race).  The constants were fitted by maximum likelihood to 600 seeded games of Normal
players (2 to 6 racers, 10 turns), at the start of every turn: log-loss 0.773 against 0.951
for "everyone alike"; a racer's objects, clovers and shields did not improve the fit (they
are spent as fast as they come).  Counting the rows a racer has still to move in the turn a
playout stops in did not help (40 seeded duels: 0.525 of the wins against 0.625 without).

The character pick of a two-racer race is no search: :func:`pick_values` reads it from
``MATCHUP``, every character's measured share of the wins against every other (the Normal
player picks at random, so the first to pick takes the halfling and the second answers a
rival's halfling with the sorceress).  With Normal play after it, the table's picks alone win
0.635 of two-racer races (0.651 picking first, 0.619 second), where Hard as a whole won 0.67
(seeds 700001-700100).

In the race itself the Hard racer plays by its own numbers (:data:`HARD_STYLE`), the Normal
player's heuristic tuned to win, and looks one turn further: a move is worth what the next
turn's rolls can pick up from where it ends (``bot.World.ahead``), less the fights a rival's
next roll can bring to it (``bot.World.threat``).  That look ahead is most of what the numbers
gain over the Normal player's.  For a move's steps the Hard racer trusts that heuristic (it
plans every path and the next turn, where playouts of a turn or so see only the points at
hand); the other decisions (objects, shields, a clover's reroll, the winner's skid) and every
decision of the last game turn, whose playouts reach the finish and count wins, are searched:
the search starts from the heuristic's choice, plays the Hard seat's part of every playout
with it, and overrules it only where the playouts show a clear gain.
"""

from __future__ import annotations

import math
from typing import Any

from .bot import Style

#: Points a row of the track is worth (a 10-point lap over 16 rows, fitted: 0.5 to 0.6).
ROW_WORTH = 0.55
#: The softmax temperature: ``SPREAD * sqrt(turns left) + FLOOR`` points.
SPREAD = 4.0
FLOOR = 0.5
#: How ``search.outcome`` scores a finished game: 0.9 for a win, 0.1 for the rank.
WIN_PART = 0.9
#: What racing as each character is worth in points over a whole race of ``TURNS_FITTED``
#: turns (fitted like the rest: the halfling wins 1.22 times its fair share with Normal
#: players, the knight 0.88); it counts in proportion to the turns left, so that a Hard
#: player choosing a character picks a strong one.
CHARACTER_WORTH = {"dwarf": -1.0, "elf": -1.0, "goblin": -3.0, "halfling": 5.0, "knight": -3.0,
                   "orc": 0.0, "sorceress": -2.0, "thief": 0.0}
TURNS_FITTED = 10


def worths(race: Any) -> list[float]:
    """Each racer's points plus the worth of the distance it has covered and of its
    character over the turns left."""
    share = turns_left(race) / TURNS_FITTED
    return [race.points[s] + ROW_WORTH * race.progress(s)
            + share * CHARACTER_WORTH.get(race.chars[s], 0.0) for s in range(race.n)]


def turns_left(race: Any) -> float:
    """Game turns still to play, counting the unplayed part of this one."""
    if race.phase == "pick" or not race.order:
        return float(race.turns)
    done = race.index / len(race.order)
    return max(0.0, race.turns - race.turn + 1 - done)


def standing(race: Any) -> list[float]:
    """Every racer's expected score (0..1, as ``search.outcome`` would give it) in a race
    that has not ended: its share of the win and of the ranking, from :func:`worths`."""
    n = race.n
    values = worths(race)
    temperature = SPREAD * math.sqrt(turns_left(race)) + FLOOR
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    out = []
    for s in range(n):
        win = weights[s] / total
        rank = sum(weights[s] / (weights[s] + weights[o]) for o in range(n) if o != s)
        out.append(WIN_PART * win + (1 - WIN_PART) * (rank / (n - 1) if n > 1 else 0.5))
    return out


#: The Hard player's budget per decision in the search's work units (``game/engine/search.py``,
#: ``SearchSettings.work``: an action played in a playout is one, a playout's copy and estimate
#: four, a redrawn world four).  Counted, never timed: the same save gives the same choices on
#: any machine.  Fitted (issue 27) so that a decision takes at most about 1 s of CPU at the 95th
#: percentile and 2.5 s at most on the 2-core development machine under load, every table size:
#: before, 300 playouts spent about 6,800 units, 0.45-1.14 s at six racers (load 9).  4,800
#: units measured p50 0.29 s, p95 0.50 s, max 0.86 s at load 6-9 (seeds 700001+); with the
#: quicker view (about 6% less CPU per unit at six racers), 6,800 units measured p95 0.43-0.47 s
#: at load 2.5 (about 0.65-0.7 s expected at load 7, leaving head room under the 1.0 s target).
WORK_BUDGET = 6800

#: Each character's share of the wins against each other one in two-racer races of Normal
#: players (``MATCHUP[mine][rival]``; 10 turns, characters chosen, both seat orders pooled:
#: 1,200 seeded races a pair, seeds 3001-3600, a share's standard error about 0.015).  The
#: halfling wins 0.61-0.68 against every rival; against the halfling the sorceress does best
#: (0.39) and the thief, which the playouts used to pick there, nearly worst (0.34).
MATCHUP: dict[str, dict[str, float]] = {
    "dwarf": {"elf": 0.466, "goblin": 0.474, "halfling": 0.327, "knight": 0.444,
              "orc": 0.456, "sorceress": 0.435, "thief": 0.449},
    "elf": {"dwarf": 0.534, "goblin": 0.511, "halfling": 0.377, "knight": 0.467,
            "orc": 0.482, "sorceress": 0.462, "thief": 0.48},
    "goblin": {"dwarf": 0.526, "elf": 0.489, "halfling": 0.316, "knight": 0.442,
               "orc": 0.481, "sorceress": 0.441, "thief": 0.486},
    "halfling": {"dwarf": 0.673, "elf": 0.623, "goblin": 0.684, "knight": 0.654,
                 "orc": 0.652, "sorceress": 0.609, "thief": 0.664},
    "knight": {"dwarf": 0.556, "elf": 0.533, "goblin": 0.558, "halfling": 0.346,
               "orc": 0.527, "sorceress": 0.499, "thief": 0.506},
    "orc": {"dwarf": 0.544, "elf": 0.518, "goblin": 0.519, "halfling": 0.348,
            "knight": 0.473, "sorceress": 0.481, "thief": 0.495},
    "sorceress": {"dwarf": 0.565, "elf": 0.538, "goblin": 0.559, "halfling": 0.391,
                  "knight": 0.501, "orc": 0.519, "thief": 0.507},
    "thief": {"dwarf": 0.551, "elf": 0.52, "goblin": 0.514, "halfling": 0.336,
              "knight": 0.494, "orc": 0.505, "sorceress": 0.493},
}


def pick_values(chars: list[str | None], seat: int, options: list[str]) -> list[float] | None:
    """How good each character in ``options`` is for ``seat`` to pick in a two-racer race:
    its measured share of the wins (``MATCHUP``) against the rival's character, or, when
    the rival has still to pick (the Normal player picks at random), against each character
    left to it, averaged.  None for more racers (the playouts and ``CHARACTER_WORTH``
    decide there)."""
    if len(chars) != 2:
        return None
    rival = chars[1 - seat]
    values = []
    for mine in options:
        row = MATCHUP[mine]
        if rival is not None:
            values.append(row[rival])
        else:
            left = [row[c] for c in row if c != mine and c not in chars]
            values.append(sum(left) / len(left) if left else 0.5)
    return values


#: The numbers the Hard racer plays its own moves by (``bot.Style``; the Normal player's are
#: ``bot.NORMAL``): the search starts from this player's choice and plays the Hard seat's
#: playouts with it (``RacingController.hard_policy``), and a move's steps are this player's
#: alone outside the last turn (``RacingController.trusts_policy``).  Tuned (issue 27) in
#: two-racer races of this player against Normal, the Hard seat picking by ``MATCHUP`` and both
#: seat orders played, one number at a time, 2,000 to 6,000 races a trial (seeds 20001-21000,
#: 40001-42000, 50001-52000, 60001-62000, 90001-106000; 9-15 ms a race): a coin is worth more
#: than its 2 points (the rival does not get it), a chest less; objects wait for a better use
#: early in the race; a clover rerolls only a chest's weakest objects; a shield is not spent
#: on a big shock; fights are valued by both characters' rules (a timid halfling who ends on a
#: rival is attacked, a frail sorceress takes a big shock, the crowd's favourite scores one
#: more) and by what the rival loses; the treasure hunter counts his point for a chest; where
#: a move ends is worth 0.6 of what the next turn's rolls can pick up from there (``ahead``:
#: 0.45 to 0.8 did as well; a second turn ahead added nothing) and whatever fight a rival's
#: next roll can bring there (``threat``).  Share of two-racer races, the same picks: Normal
#: play 0.631 (seeds 30001-32000, 4,000 races); these numbers without the look ahead 0.680 and
#: 0.682 (50001-52000, 60001-62000); with it, before the coin and chest were tuned again,
#: 0.713 and 0.719 (94001-98000, 4,000 races each), and as they stand 0.727 (110001-114000,
#: 8,000 races, a share's standard error about 0.005).  With three racers (characters dealt,
#: one racer playing these numbers against Normal ones, 2,000 races) 1.47 times the fair share
#: (seeds 120001-122000; Normal numbers 0.97 on 70001-72000).
HARD_STYLE = Style(coin=3.5, chest=1.0, use_early=1.5, reroll_below=1, shield_big=False,
                   barrier_shot=0.6, rules_aware=True, chest_bonus=1.0, ahead=0.6, threat=1.0)
