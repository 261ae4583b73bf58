"""The computer player for Fantasy Expedition: it plays for its team from its own view.

It knows only what its view shows: its own team, everyone's public starting
Position, which seats are computers, and the trading so far.  Nobody else's team
or choice is known, so it imagines them: it samples a few dozen *worlds* in which
the other eight seats are dealt the remaining teams at random (two more of its
own, three of each other team); a computer seat is expected to make the
:data:`TYPICAL` choice for its team and start, a person to choose anything.  It
scores each of its own possible choices by climbing from its starting Position
through every world with the kernel's rules (mines, portals, fear, the communal
items), and makes the choice with the best average score for itself: its team's
goal (the best of each team wins; the lowest score of all is the Elimination
Candidate).

- Secret choices: its item's slot, its communal number and, as a Werewolf, its
  marker's direction are chosen together (all 81 or 162 combinations); the
  communal vote is then the direction that scores best with them.
- Team plans: its trading has no chance in it, so it usually shows everyone its
  team.  When the public trading shows all three members of its team, all Normal
  computers, the three play one plan for their whole row, worked out by each from
  public facts only (:func:`shown_plans`, :func:`_team_plan`).  Against six people the
  plan also counts their points against the team's, at half a point (:data:`PUSH`).
- Trading: :data:`START_VALUE` holds what each starting Position is worth to
  each team when the bot then chooses well (see :func:`start_values`).  On its
  turn it offers a swap for the Position with the best expected gain (the gain
  times the chance of a yes: a computer says yes only if its team gains, each team
  as likely as its trading so far shows; a person is taken to say yes half the
  time), never twice to the same player; it accepts an offer only when the
  Position offered is worth more to it.
- The Elimination vote (teams are public by then): it spares its own team and
  names the first tied player of another team.

All randomness comes from the generator the engine hands it, so a replay needs
only the recorded actions.  A secret choice takes a few milliseconds (rows are
bit masks and each row's effect is cached), trading far less.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import combinations, permutations, product
from typing import Any

from game.engine import Action, Rng, View

from .kernel import POSITIONS, TEAMS, fear_moves, jump_moves, majority, score

#: Imagined worlds per secret choice (more: steadier, slower).
WORLDS = 64
#: A starting Position must be worth this much more to offer a swap for it ...
OFFER_MARGIN = 0.1
#: ... and this much more to accept one.
ACCEPT_MARGIN = 0.1

#: The choice (slot, communal number, direction, vote) a computer makes from each start
#: when the others choose at random (``typical_choices()``); a bot expects other computers
#: to choose this.
TYPICAL = {
    "dwarf": ((1, 9, 'L', 'L'), (2, 9, 'L', 'L'), (3, 8, 'L', 'L'), (9, 9, 'L', 'L'), (8, 8, 'L', 'L'), (5, 1, 'L', 'L'), (6, 7, 'L', 'L'), (6, 6, 'L', 'L'), (7, 8, 'L', 'L')),
    "magician": ((2, 6, 'L', 'L'), (3, 9, 'L', 'L'), (4, 9, 'L', 'L'), (5, 9, 'L', 'L'), (1, 1, 'L', 'L'), (1, 3, 'L', 'L'), (7, 1, 'L', 'L'), (8, 1, 'L', 'L'), (9, 1, 'L', 'L')),
    "werewolf": ((2, 1, 'L', 'L'), (2, 3, 'R', 'R'), (3, 5, 'R', 'R'), (4, 5, 'R', 'R'), (9, 1, 'L', 'L'), (6, 8, 'L', 'L'), (7, 7, 'L', 'L'), (7, 6, 'R', 'R'), (8, 9, 'R', 'R')),
}
#: Expected score of a bot that starts on Position 1..9 and then chooses well, while the
#: other eight choose at random (``start_values()``, rounded).  Used for trading.
START_VALUE = {
    "dwarf": (6.44, 5.57, 4.92, 4.82, 5.28, 5.47, 6.12, 6.4, 7.02),
    "magician": (6.99, 6.41, 5.98, 5.76, 5.34, 5.01, 4.35, 5.38, 6.18),
    "werewolf": (4.33, 5.23, 5.64, 6.34, 6.12, 5.93, 5.57, 4.88, 4.06),
}


# ------------------------------------------------------------------ fast climbing
# Rows are bit masks (bit p set: an item on slot p); the fear row is two masks, the
# markers pointing left and those pointing right.  Each row's effect on 1..9 is
# worked out once by the kernel and cached as a tuple (index 0 unused).
@lru_cache(maxsize=1024)
def _jumps(mask: int, step: int) -> tuple[int, ...]:
    """Where a climber on 1..9 lands on a mine (step -1) or portal (+1) row."""
    moves = jump_moves([p for p in POSITIONS if mask >> p & 1], step)
    return (0, *(moves.get(p, p) for p in POSITIONS))


@lru_cache(maxsize=20000)
def _fear(left: int, right: int) -> tuple[int, ...]:
    """Where a climber on 1..9 ends on a fear row with these markers."""
    fears = {p: "L" for p in POSITIONS if left >> p & 1}
    fears.update({p: "R" for p in POSITIONS if right >> p & 1})
    moves = fear_moves(fears)
    return (0, *(moves.get(p, p) for p in POSITIONS))


@lru_cache(maxsize=512 * 28)
def _nearest_empty(occupied: int, total: int) -> int:
    """The communal slot: nearest empty slot to ``total / 3``, the lower one on a tie."""
    return min((s for s in POSITIONS if not occupied >> s & 1),
               key=lambda s: (abs(3 * s - total), s))


def climb(start: int, mines: int, portals: int, left: int, right: int) -> int:
    """Where the climber from ``start`` finishes."""
    return _fear(left, right)[_jumps(portals, +1)[_jumps(mines, -1)[start]]]


# ------------------------------------------------------------------------ worlds
class World:
    """The others' secret choices as the bot imagines them: per row the slots the others
    chose, the sum of their communal numbers, the other Werewolves' directions and votes.

    ``others`` lists the other eight seats as (start, is a computer); None means eight
    players who choose at random.  The others' teams are dealt at random (two more of the
    bot's own team, three of each other team); a computer is expected to make its
    :data:`TYPICAL` choice for its team and start, anyone else to choose at random.
    """

    def __init__(self, team: str, rng: Rng,
                 others: list[tuple[int, bool]] | None = None) -> None:
        self.slots: dict[str, list[int]] = {t: [] for t in TEAMS}
        self.totals: dict[str, int] = {t: 0 for t in TEAMS}
        self.dirs: list[str] = []
        self.votes: list[str] = []
        deal = [t for t in TEAMS for _ in range(2 if t == team else 3)]
        if others is None:
            others = [(0, False)] * 8
        else:
            rng.shuffle(deal)
        for (start, computer), other in zip(others, deal):
            if computer:
                slot, number, direction, vote = TYPICAL[other][start - 1]
            else:
                slot, number = rng.randint(1, 9), rng.randint(1, 9)
                direction, vote = rng.choice("LR"), rng.choice("LR")
            self.slots[other].append(slot)
            self.totals[other] += number
            if other == "werewolf":
                self.dirs.append(direction)
                self.votes.append(vote)


def _mask(slots: list[int]) -> int:
    mask = 0
    for s in slots:
        mask |= 1 << s
    return mask


def _markers(slots: list[int], dirs: list[str]) -> tuple[int, int]:
    """(left, right) masks of the markers placed: a slot whose markers disagree stays empty."""
    left = right = 0
    for s, d in zip(slots, dirs):
        if d == "L":
            left |= 1 << s
        else:
            right |= 1 << s
    both = left & right
    return left & ~both, right & ~both


def _full_row(mask: int, total: int) -> int:
    return mask | 1 << _nearest_empty(mask, total)


@lru_cache(maxsize=512 * 20)
def _communal_bits(mask: int, base: int) -> tuple[int, ...]:
    """The communal item's bit for each of the bot's numbers 1..9 (others' sum ``base``)."""
    return tuple(1 << _nearest_empty(mask, base + n) for n in POSITIONS)


#: Score by team and finishing Position (index 0 unused).
SCORES = {team: (0, *(score(team, p) for p in POSITIONS)) for team in TEAMS}


def scores(team: str, start: int, worlds: list[World]) -> dict[tuple, int]:
    """Summed score over ``worlds`` of each secret choice (slot, number[, direction]).

    For a Werewolf the vote is taken to agree with its marker's direction.
    """
    points = SCORES[team]
    wolf = team == "werewolf"
    sums = [0] * (2 * 100 if wolf else 100)  # index: (direction) * 100 + slot * 10 + number
    for w in worlds:
        mines = _full_row(_mask(w.slots["dwarf"]), w.totals["dwarf"])
        portals = _full_row(_mask(w.slots["magician"]), w.totals["magician"])
        if wolf:
            landed = _jumps(portals, +1)[_jumps(mines, -1)[start]]
            for d, direction in enumerate("LR"):
                to_left = majority(w.votes + [direction]) == "L"
                for slot in POSITIONS:
                    left, right = _markers(w.slots["werewolf"] + [slot], w.dirs + [direction])
                    bits = _communal_bits(left | right, w.totals["werewolf"])
                    at = d * 100 + slot * 10
                    for n in range(9):
                        c = bits[n]
                        final = _fear(left | c, right) if to_left else _fear(left, right | c)
                        sums[at + n + 1] += points[final[landed]]
            continue
        left, right = _markers(w.slots["werewolf"], w.dirs)
        c = 1 << _nearest_empty(left | right, w.totals["werewolf"])
        if majority(w.votes) == "L":
            left |= c
        else:
            right |= c
        fear = _fear(left, right)
        own, base = _mask(w.slots[team]), w.totals[team]
        if team == "dwarf":
            portal = _jumps(portals, +1)
            after = [points[fear[portal[p]]] for p in range(10)]
            for slot in POSITIONS:
                mask = own | 1 << slot
                bits = _communal_bits(mask, base)
                at = slot * 10
                for n in range(9):
                    sums[at + n + 1] += after[_jumps(mask | bits[n], -1)[start]]
        else:
            landed = _jumps(mines, -1)[start]
            after = [points[fear[p]] for p in range(10)]
            for slot in POSITIONS:
                mask = own | 1 << slot
                bits = _communal_bits(mask, base)
                at = slot * 10
                for n in range(9):
                    sums[at + n + 1] += after[_jumps(mask | bits[n], +1)[landed]]
    out: dict[tuple, int] = {}
    for d, direction in enumerate("LR" if wolf else "-"):
        for slot in POSITIONS:
            for number in POSITIONS:
                key = (slot, number, direction) if wolf else (slot, number)
                out[key] = sums[d * 100 + slot * 10 + number]
    return out


def _vote_score(team: str, start: int, worlds: list[World], slot: int, number: int,
                direction: str, vote: str) -> int:
    total = 0
    for w in worlds:
        mines = _full_row(_mask(w.slots["dwarf"]), w.totals["dwarf"])
        portals = _full_row(_mask(w.slots["magician"]), w.totals["magician"])
        landed = _jumps(portals, +1)[_jumps(mines, -1)[start]]
        left, right = _markers(w.slots["werewolf"] + [slot], w.dirs + [direction])
        c = 1 << _nearest_empty(left | right, w.totals["werewolf"] + number)
        if majority(w.votes + [vote]) == "L":
            left |= c
        else:
            right |= c
        total += score(team, _fear(left, right)[landed])
    return total


def best_choice(team: str, start: int, rng: Rng, worlds: int = WORLDS,
                others: list[tuple[int, bool]] | None = None) -> tuple[Action, float]:
    """The secret choice with the best average score over sampled worlds, and that score
    (``others``: the other seats' starts and whether each is a computer; see :class:`World`)."""
    sampled = [World(team, rng, others) for _ in range(worlds)]
    table = scores(team, start, sampled)
    key = max(table, key=lambda k: (table[k], -k[0], -k[1]))
    total = table[key]
    action: Action = {"type": "choose", "slot": key[0], "communal": key[1]}
    if team == "werewolf":
        direction = key[2]
        action.update(direction=direction, vote=direction)
        other = "R" if direction == "L" else "L"
        flipped = _vote_score(team, start, sampled, key[0], key[1], direction, other)
        if flipped > total:
            total, action["vote"] = flipped, other
    return action, total / worlds


def typical_choices(worlds: int = 500) -> dict[str, tuple[tuple, ...]]:
    """The choice from each start against random players (regenerates :data:`TYPICAL`)."""
    out = {}
    for team in TEAMS:
        rows = []
        for start in POSITIONS:
            a, _ = best_choice(team, start, Rng.derive(11, start, TEAMS.index(team)), worlds)
            rows.append((a["slot"], a["communal"], a.get("direction", "L"), a.get("vote", "L")))
        out[team] = tuple(rows)
    return out


def start_values(worlds: int = 300, seed: int = 7) -> dict[str, tuple[float, ...]]:
    """What each starting Position is worth to each team (regenerates :data:`START_VALUE`):
    the bot's choice from there, scored over fresh worlds it did not choose with."""
    out = {}
    for team in TEAMS:
        values = []
        for start in POSITIONS:
            chosen, _ = best_choice(team, start, Rng.derive(seed, start, TEAMS.index(team)))
            fresh = Rng.derive(seed, start, TEAMS.index(team), 1)
            fresh_worlds = [World(team, fresh) for _ in range(worlds)]
            if team == "werewolf":
                total = _vote_score(team, start, fresh_worlds, chosen["slot"],
                                    chosen["communal"], chosen["direction"], chosen["vote"])
            else:
                table = scores(team, start, fresh_worlds)
                total = table[(chosen["slot"], chosen["communal"])]
            values.append(round(total / worlds, 2))
        out[team] = tuple(values)
    return out


#: How many different choices :func:`normal_choice` remembers for each team, start and table,
VARIANTS = 8
#: ... each worked out over this many imagined worlds.
MEMO_WORLDS = 64


@lru_cache(maxsize=4096)
def normal_choice(team: str, start: int, computers: int, variant: int) -> tuple:
    """(slot, number, direction, vote): a choice the Normal player makes for ``team`` from
    ``start`` when the Positions in the bit mask ``computers`` hold computer players (the
    ``variant``-th of :data:`VARIANTS` draws of its imagined worlds).  The Hard player's
    search uses it to redraw hidden choices and to play quick rollouts: it is the same
    player, remembered, since its choice depends only on these."""
    others = [(p, bool(computers >> p & 1)) for p in POSITIONS if p != start]
    rng = Rng.derive(0xE4B, TEAMS.index(team), start, computers, variant)
    action, _ = best_choice(team, start, rng, MEMO_WORLDS, others)
    return (action["slot"], action["communal"], action.get("direction"), action.get("vote"))


def finals(teams: list[str], starts: list[int], choices: list[dict[str, Any]]) -> list[int]:
    """Every seat's finishing Position for these teams, starts and secret choices (the
    kernel's rules on bit masks: a quick stand-in for the controller's resolution)."""
    slots: dict[str, list[int]] = {t: [] for t in TEAMS}
    totals = {t: 0 for t in TEAMS}
    dirs, votes = [], []
    for team, choice in zip(teams, choices):
        slots[team].append(choice["slot"])
        totals[team] += choice["communal"]
        if team == "werewolf":
            dirs.append(choice["direction"])
            votes.append(choice["vote"])
    mine = _jumps(_full_row(_mask(slots["dwarf"]), totals["dwarf"]), -1)
    portal = _jumps(_full_row(_mask(slots["magician"]), totals["magician"]), +1)
    left, right = _markers(slots["werewolf"], dirs)
    communal = 1 << _nearest_empty(left | right, totals["werewolf"])
    if majority(votes) == "L":
        left |= communal
    else:
        right |= communal
    fear = _fear(left, right)
    return [fear[portal[mine[p]]] for p in starts]


def outcome_value(teams: list[str], points: list[int], me: int) -> float:
    """``search.outcome`` for ``me`` had the game ended with these points: a third of 0.9 for
    the best score of its team (a Token of Life; teammates never tie), plus 0.1 for the rank
    of its score."""
    mine, team = points[me], teams[me]
    best = all(points[s] < mine for s in range(9) if s != me and teams[s] == team)
    below = sum(1 for p in points if p < mine)
    equal = sum(1 for p in points if p == mine) - 1
    return 0.3 * best + 0.1 * (below + equal / 2) / 8


def choice_values(teams: list[str], starts: list[int], choices: list[dict[str, Any] | None],
                  me: int, legal: list[Action]) -> list[float]:
    """What each of ``me``'s secret choices in ``legal`` is worth (:func:`outcome_value`) when
    the other eight seats' teams and choices are these (``choices[me]`` is ignored): the
    climb worked out exactly, row by row, for every candidate.  The Hard player averages
    this over imagined tables (``ExpeditionController.action_values``)."""
    team = teams[me]
    slots: dict[str, list[int]] = {t: [] for t in TEAMS}
    totals = {t: 0 for t in TEAMS}
    dirs: list[str] = []
    votes: list[str] = []
    for s, (t, choice) in enumerate(zip(teams, choices)):
        if s == me or choice is None:
            continue
        slots[t].append(choice["slot"])
        totals[t] += choice["communal"]
        if t == "werewolf":
            dirs.append(choice["direction"])
            votes.append(choice["vote"])
    own = _mask(slots[team])
    mine = portal = fear = None
    if team != "dwarf":
        mine = _jumps(_full_row(_mask(slots["dwarf"]), totals["dwarf"]), -1)
    if team != "magician":
        portal = _jumps(_full_row(_mask(slots["magician"]), totals["magician"]), +1)
    if team != "werewolf":
        left, right = _markers(slots["werewolf"], dirs)
        c = 1 << _nearest_empty(left | right, totals["werewolf"])
        fear = _fear(left | c, right) if majority(votes) == "L" else _fear(left, right | c)
    memo: dict[tuple, float] = {}
    out = []
    for action in legal:
        slot, number = action["slot"], action["communal"]
        direction, vote = action.get("direction"), action.get("vote")
        key = (slot, number, direction, vote)
        value = memo.get(key)
        if value is None:
            if team == "werewolf":
                left, right = _markers(slots["werewolf"] + [slot], dirs + [direction])
                c = 1 << _nearest_empty(left | right, totals["werewolf"] + number)
                rows = (mine, portal, _fear(left | c, right) if majority(votes + [vote]) == "L"
                        else _fear(left, right | c))
            else:
                row = _jumps(_full_row(own | 1 << slot, totals[team] + number),
                             -1 if team == "dwarf" else +1)
                rows = (row, portal, fear) if team == "dwarf" else (mine, row, fear)
            m, pt, f = rows
            points = [SCORES[t][f[pt[m[p]]]] for t, p in zip(teams, starts)]
            value = memo[key] = outcome_value(teams, points, me)
        out.append(value)
    return out


# --------------------------------------------------------------------- team plans
#: A computer's team counts as shown by its trading when that team carries this share of the
#: three teams' likelihoods (:func:`shown_plans`).
SHOWN = 0.9
#: Imagined worlds a team plan is worked out over.
PLAN_WORLDS = 500
#: When the other six are all people, a team plan counts each of their points against the
#: team this much (half a point: the team's three members against six others).  Not against
#: computers: their choices are modelled (:data:`TYPICAL`), and pushing them down there made
#: the Werewolves the Elimination Candidate far too often.
PUSH = 0.5


def _plans(team: str) -> tuple[tuple[Any, tuple[int, int, int], int, tuple[str, ...], str], ...]:
    """Every row a whole team can make, once each: (row, three slots, communal slot, three
    directions, vote).  ``row`` is the bit mask of the items (Werewolves: the (left, right)
    masks).  The three members take the slots in turn (fewer than three different slots:
    some share one, which simply gets one item), all send the communal slot as their number,
    so the average is that slot, and all vote one way."""
    out: list[tuple[Any, tuple[int, int, int], int, tuple[str, ...], str]] = []
    seen: set[Any] = set()
    for size in (1, 2, 3):
        for chosen in combinations(POSITIONS, size):
            slots = (chosen * 3)[:3]
            for dirs in product("LR", repeat=size) if team == "werewolf" else [("L",) * size]:
                pointing = dict(zip(chosen, dirs))
                for communal in POSITIONS:
                    if communal in chosen:
                        continue
                    for vote in "LR" if team == "werewolf" else "L":
                        if team == "werewolf":
                            left = sum(1 << s for s in chosen if pointing[s] == "L")
                            right = sum(1 << s for s in chosen if pointing[s] == "R")
                            row: Any = (left | (1 << communal if vote == "L" else 0),
                                        right | (1 << communal if vote == "R" else 0))
                        else:
                            row = _mask(list(chosen)) | 1 << communal
                        if row in seen:
                            continue
                        seen.add(row)
                        out.append((row, slots, communal,
                                    tuple(pointing[s] for s in slots), vote))
    return tuple(out)


PLANS = {team: _plans(team) for team in TEAMS}


@lru_cache(maxsize=1024)
def _team_plan(team: str, members: tuple[int, ...],
               others: tuple[tuple[int, bool, tuple[float, ...] | None], ...],
               push: float | None = None) -> tuple[tuple[tuple[int, int, str, str], ...], float]:
    """The team's joint secret choices, (slot, number, direction, vote) for each member (by
    their starts ``members``), and the points they are worth to the three members together:
    the row of items worth the most, on average over imagined worlds.

    ``others``: the other six seats as (start, is a computer, team odds or None for a
    person).  Each world deals them the two other teams (three each, each split as likely as
    the odds make it); a computer makes its :data:`TYPICAL` choice, a person chooses at
    random.  The other two rows are then fixed, so how often each member reaches our row on
    each Position, and what leaving it from each Position is worth, are summed once, and each
    possible row is scored from those sums (a few tens of milliseconds).

    ``push``: how much each point of the others counts against the team's (None: :data:`PUSH`
    when all six others are people, else 0).  Against six people the plan is chosen for the
    team's points less half the others' (a player of either other team, as likely), since
    the same row moves them too; the value returned is the team's points alone."""
    rng = Rng.derive(0x7EA, TEAMS.index(team), *members, *(o[0] for o in others))
    foes = [t for t in TEAMS if t != team]
    splits = []  # (which of the six are foes[0], weight)
    for first in combinations(range(6), 3):
        weight = 1.0
        for i, (_start, _computer, odds) in enumerate(others):
            if odds is not None:
                weight *= odds[TEAMS.index(foes[0] if i in first else foes[1])]
        splits.append((set(first), weight))
    running, total = [], 0.0
    for _first, weight in splits:
        total += weight
        running.append(total)
    reach = [[0] * 10 for _ in members]  # how often a member reaches our row on each Position
    worth_at = [0] * 10  # the points for leaving our row on each Position, summed
    if push is None:
        push = PUSH if all(not computer for _start, computer, _odds in others) else 0.0
    reach_o = [0] * 10  # how often one of the others reaches our row on each Position
    theirs_at = [0.0] * 10  # an other's points for leaving our row there (either foe team)
    identity = list(range(10))
    for _world in range(PLAN_WORLDS):
        mark = rng.randbelow(1 << 40) / (1 << 40) * total
        first = splits[min(bisect_right(running, mark), len(running) - 1)][0]
        slots: dict[str, list[int]] = {t: [] for t in TEAMS}
        totals = {t: 0 for t in TEAMS}
        dirs: list[str] = []
        votes: list[str] = []
        for i, (start, computer, _odds) in enumerate(others):
            other = foes[0] if i in first else foes[1]
            if computer:
                slot, number, direction, vote = TYPICAL[other][start - 1]
            else:
                slot, number = rng.randint(1, 9), rng.randint(1, 9)
                direction, vote = rng.choice("LR"), rng.choice("LR")
            slots[other].append(slot)
            totals[other] += number
            if other == "werewolf":
                dirs.append(direction)
                votes.append(vote)
        mine = portal = fear = identity
        if team != "dwarf":
            mine = list(_jumps(_full_row(_mask(slots["dwarf"]), totals["dwarf"]), -1))
        if team != "magician":
            portal = list(_jumps(_full_row(_mask(slots["magician"]), totals["magician"]), +1))
        if team != "werewolf":
            left, right = _markers(slots["werewolf"], dirs)
            c = 1 << _nearest_empty(left | right, totals["werewolf"])
            to_left = majority(votes) == "L"
            fear = list(_fear(left | c, right) if to_left else _fear(left, right | c))
        if team == "dwarf":
            before, after = identity, [fear[portal[p]] for p in range(10)]
        elif team == "magician":
            before, after = mine, fear
        else:
            before, after = [portal[mine[p]] for p in range(10)], identity
        for i, start in enumerate(members):
            reach[i][before[start]] += 1
        points = SCORES[team]
        for p in POSITIONS:
            worth_at[p] += points[after[p]]
        if push:
            for start, _computer, _odds in others:
                reach_o[before[start]] += 1
            a, b = SCORES[foes[0]], SCORES[foes[1]]
            for p in POSITIONS:
                theirs_at[p] += (a[after[p]] + b[after[p]]) / 2
    # The row before ours and the row after it come from different teams' choices, drawn
    # apart (only the deal of the two other teams links them), so a row is taken to be
    # worth how often each member reaches each place on it times the points for leaving
    # from where the row sends it.
    best, best_value = None, None
    spots = [(p, n) for r in reach for p, n in enumerate(r) if n]
    spots_o = [(p, n * push) for p, n in enumerate(reach_o) if n] if push else []
    for plan in PLANS[team]:
        row = plan[0]
        moves = _fear(*row) if team == "werewolf" else _jumps(row, -1 if team == "dwarf" else +1)
        value = sum(n * worth_at[moves[p]] for p, n in spots)
        if spots_o:  # against six people: their points count against the team's
            value -= sum(n * theirs_at[moves[p]] for p, n in spots_o)
        if best_value is None or value > best_value:
            best, best_value = plan, value
    assert best is not None and best_value is not None
    row, slots3, communal, dirs3, vote = best
    if spots_o:  # what the chosen row is worth to the team alone
        moves = _fear(*row) if team == "werewolf" else _jumps(row, -1 if team == "dwarf" else +1)
        best_value = sum(n * worth_at[moves[p]] for p, n in spots)
    return (tuple((slot, communal, direction, vote) for slot, direction in zip(slots3, dirs3)),
            best_value / PLAN_WORLDS ** 2)


def shown_plans(seats: list[dict[str, Any]], trading: dict[str, Any]
                ) -> dict[int, tuple[str, tuple[int, int, str, str]]]:
    """The team plans every player can work out from the public trading: for each seat in a
    team whose three members are all shown, (team, (slot, number, direction, vote)).

    The Normal player trades by its team alone, so on most tables each of its offers,
    answers and passes fits one team only (:func:`team_likelihoods`, judged from public
    moves alone, the same for everyone).  A Normal computer counts as shown when one team
    explains its moves :data:`SHOWN` of the three teams' total; Hard and Easy computers and
    people never count (they do not follow a team plan).  When all three members of a team
    are shown, each of them works out the same plan (:func:`_team_plan`) from the same
    public facts and plays its part."""
    return _shown_plans(*_public(seats, trading))


@lru_cache(maxsize=256)
def _shown_plans(table: tuple[tuple[Any, ...], ...], trades: tuple[tuple[int, int, bool], ...],
                 turns: tuple[tuple[int, int | None], ...]
                 ) -> dict[int, tuple[str, tuple[int, int, str, str]]]:
    likely = _likelihoods(table, trades, turns)
    shown: dict[int, str] = {}
    for seat, kind, level, _start in table:
        if kind != "bot" or level not in (None, "normal"):
            continue
        odds = likely[seat]
        team = max(TEAMS, key=lambda t: odds[t])
        if odds[team] >= SHOWN * sum(odds.values()):
            shown[seat] = team
    starts = {seat: start for seat, _kind, _level, start in table}
    out: dict[int, tuple[str, tuple[int, int, str, str]]] = {}
    for team in TEAMS:
        members = sorted(s for s, t in shown.items() if t == team)
        if len(members) != 3:
            continue
        others = tuple((start, kind == "bot",
                        tuple(likely[seat][t] for t in TEAMS) if seat in likely else None)
                       for seat, kind, _level, start in table if seat not in members)
        plan, _value = _team_plan(team, tuple(starts[s] for s in members), others)
        for seat, part in zip(members, plan):
            out[seat] = (team, part)
    return out


def team_choice(view: View, me: int, team: str) -> Action | None:
    """The seat's part of its team's plan (:func:`shown_plans`), or None when its team has
    no plan."""
    planned = shown_plans(view["seats"], view["trading"]).get(me)
    if planned is None or planned[0] != team:
        return None
    slot, number, direction, vote = planned[1]
    action: Action = {"type": "choose", "slot": slot, "communal": number}
    if team == "werewolf":
        action.update(direction=direction, vote=vote)
    return action


# ---------------------------------------------------------------------- the policy
def choose(view: View, legal: list[Action], rng: Rng) -> Action | None:
    """The bot's action for ``view`` (the engine's ``policy``); None leaves it to chance."""
    if not legal:
        return None
    me = view["viewer"]
    seat = view["seats"][me]
    team = seat["team"]
    phase = view["phase"]
    if team is None:
        return None
    if phase == "trading":
        return _trade(view, me, team)
    if phase == "choice":
        planned = team_choice(view, me, team)
        if planned is not None:
            return planned
        others = [(s["start"], s["kind"] == "bot") for s in view["seats"] if s["seat"] != me]
        action, _ = best_choice(team, seat["start"], rng, others=others)
        return action
    if phase == "vote":
        # Teams are public by now: spare its own team, else the first tied seat.
        tied = view["vote"]["tied"]
        return {"type": "vote", "candidate": min(tied, key=lambda s: (
            view["seats"][s]["team"] == team, s))}
    return None


def worth(team: str, start: int) -> float:
    return START_VALUE[team][start - 1]


#: How likely a Normal computer is taken to make a trading move its team would not make.
SLIP = 0.05
#: ... a Hard one, whose search may overrule the Normal player's trading.
HARD_SLIP = 0.3
#: An Easy one makes a random move this often (``engine.bots.EASY_SLIP``).
EASY_RANDOM = 0.3


def team_likelihoods(seats: list[dict[str, Any]], trading: dict[str, Any],
                     me: int | None) -> dict[int, dict[str, float]]:
    """How well each team explains each other computer seat's public trading (see
    :func:`_likelihoods`; worked out once for each table and trading so far, since the Hard
    player's search redraws hundreds of tables from one view)."""
    return {s: dict(odds) for s, odds in _likelihoods(*_public(seats, trading)).items()
            if s != me}


def _public(seats: list[dict[str, Any]], trading: dict[str, Any]
            ) -> tuple[tuple[tuple[Any, ...], ...], tuple[tuple[int, int, bool], ...],
                       tuple[tuple[int, int | None], ...]]:
    """The public facts the trading inference reads, as keys for its caches: each seat's
    (seat, kind, level, start), the trades (from, to, accepted) and the trading turns."""
    table = tuple((s["seat"], s["kind"], s.get("level"), s["start"]) for s in seats)
    trades = tuple((t["from"], t["to"], t["accepted"]) for t in trading["history"])
    turns = tuple((seat, target) for seat, target in trading.get("turns", []))
    return table, trades, turns


@lru_cache(maxsize=256)
def _likelihoods(table: tuple[tuple[Any, ...], ...], trades: tuple[tuple[int, int, bool], ...],
                 turns: tuple[tuple[int, int | None], ...]) -> dict[int, dict[str, float]]:
    """How well each team explains each computer seat's public trading.

    The Normal player's trading has no chance in it: from the starts and the trades so far
    it offers, passes, accepts or declines by its team alone.  So every trading turn is
    replayed from the starts everyone had then, and each computer's move (whom it asked or
    that it passed, what it answered) is compared with the move each team would have made:
    a team that makes it scores 1, one that does not :data:`SLIP` (an Easy player's random
    moves and a Hard player's search are allowed for).  People are not judged.
    """
    def fit(level: str | None, same: bool, choices: int) -> float:
        if level == "easy":
            return (1 - EASY_RANDOM) * same + EASY_RANDOM / choices
        return 1.0 if same else HARD_SLIP if level == "hard" else SLIP

    likely = {seat: {t: 1.0 for t in TEAMS} for seat, kind, _level, _start in table
              if kind == "bot"}
    levels = {seat: level for seat, _kind, level, _start in table}
    kinds = {seat: kind for seat, kind, _level, _start in table}
    history = [{"from": a, "to": b, "accepted": yes} for a, b, yes in trades]
    at = {seat: start for seat, _kind, _level, start in table}
    for trade in reversed(history):  # back to the starts before the first trade
        if trade["accepted"]:
            a, b = trade["from"], trade["to"]
            at[a], at[b] = at[b], at[a]
    done: list[dict[str, Any]] = []
    answered = 0
    for seat, target in turns:
        then = {"seats": [{"seat": s, "start": at[s], "kind": kinds[s]} for s in sorted(at)],
                "trading": {"pending": None, "history": done}}
        if seat in likely:
            made = {"type": "pass"} if target is None else {"type": "propose", "to": target}
            # The odds as they stood then: only this seat's own change below, and its own
            # move never reads them.
            for t in TEAMS:
                likely[seat][t] *= fit(levels[seat], _trade(then, seat, t, likely) == made, 9)
        if target is None:
            continue
        if answered >= len(history):
            break  # the offer still waits for its answer
        trade = history[answered]
        answered += 1
        if target in likely:
            then["trading"]["pending"] = {"from": seat, "to": target}
            for t in TEAMS:
                says = _trade(then, target, t)["type"] == "accept"
                likely[target][t] *= fit(levels[target], says == trade["accepted"], 2)
        done.append(trade)
        if trade["accepted"]:
            at[seat], at[target] = at[target], at[seat]
    return likely


@lru_cache(maxsize=3)
def _deals(own: str) -> tuple[tuple[str, ...], ...]:
    """Every way to deal the other eight seats their teams: two more of ``own``, three of
    each other team (8! / (2! 3! 3!) = 560 deals)."""
    pool = [t for t in TEAMS for _ in range(2 if t == own else 3)]
    return tuple(sorted(set(permutations(pool))))


@lru_cache(maxsize=64)
def _deal_odds(own: str, likely: tuple[tuple[float, ...] | None, ...]) -> tuple[float, ...]:
    """The running total of the deals' weights (``likely`` per other seat, None: a person)."""
    index = {t: i for i, t in enumerate(TEAMS)}
    out, total = [], 0.0
    for deal in _deals(own):
        weight = 1.0
        for team, odds in zip(deal, likely):
            if odds is not None:
                weight *= odds[index[team]]
        total += weight
        out.append(total)
    return tuple(out)


def draw_deal(own: str, others: tuple[int, ...], likely: dict[int, dict[str, float]],
              rng: Rng) -> tuple[str, ...]:
    """The other seats' teams (in the order of ``others``), drawn from all 560 deals, each
    as likely as the product of its seats' ``likely`` values."""
    key = tuple(tuple(likely[s][t] for t in TEAMS) if s in likely else None for s in others)
    running = _deal_odds(own, key)
    mark = rng.randbelow(1 << 40) / (1 << 40) * running[-1]
    return _deals(own)[min(bisect_right(running, mark), len(running) - 1)]


def accept_chance(team: str, mine: int, theirs: int, computer: bool,
                  odds: dict[str, float] | None = None) -> float:
    """How likely the player on ``theirs`` says yes to taking ``mine``: a computer says yes
    when its team gains by it, each team as likely as two more of ours and three of each
    other team, times how well the team explains its trading so far (``odds``, from
    :func:`team_likelihoods`; None: not judged yet); anyone else is taken to say yes half
    the time."""
    if not computer:
        return 0.5
    weights = {t: (2 if t == team else 3) * (odds[t] if odds else 1.0) for t in TEAMS}
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    chance = 0.0
    for other in TEAMS:
        if worth(other, mine) > worth(other, theirs) + ACCEPT_MARGIN:
            chance += weights[other] / total
    return chance


def _trade(view: View, me: int, team: str,
           likely: dict[int, dict[str, float]] | None = None) -> Action:
    """The trading move for ``team`` (``likely``: every computer's public team odds so far,
    see :func:`team_likelihoods`, read only when offering; None: worked out from the
    view)."""
    trading = view["trading"]
    mine = view["seats"][me]["start"]
    pending = trading["pending"]
    if pending is not None:
        offered = view["seats"][pending["from"]]["start"]
        better = worth(team, offered) > worth(team, mine) + ACCEPT_MARGIN
        return {"type": "accept" if better else "decline"}
    asked = {t["to"] for t in trading["history"] if t["from"] == me}
    if likely is None:
        likely = team_likelihoods(view["seats"], trading, None)
    best, target = 0.0, None
    for other in view["seats"]:
        seat, theirs = other["seat"], other["start"]
        gain = worth(team, theirs) - worth(team, mine)
        if seat == me or seat in asked or gain <= OFFER_MARGIN:
            continue
        expected = gain * accept_chance(team, mine, theirs, other["kind"] == "bot",
                                        likely.get(seat))
        if expected > best:
            best, target = expected, seat
    if target is not None:
        return {"type": "propose", "to": target}
    return {"type": "pass"}
