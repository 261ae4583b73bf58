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
- Trading: :data:`START_VALUE` holds what each starting Position is worth to
  each team when the bot then chooses well (see :func:`start_values`).  On its
  turn it offers a swap for the Position with the best expected gain (the gain
  times the chance of a yes: a computer says yes only if its unknown team gains,
  a person is taken to say yes half the time), never twice to the same player;
  it accepts an offer only when the Position offered is worth more to it.
- The Elimination vote (teams are public by then): it spares its own team and
  names the first tied player of another team.

All randomness comes from the generator the engine hands it, so a replay needs
only the recorded actions.  A secret choice takes a few milliseconds (rows are
bit masks and each row's effect is cached), trading far less.
"""

from __future__ import annotations

from functools import lru_cache
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
VARIANTS = 3
#: ... each worked out over this many imagined worlds.
MEMO_WORLDS = 32


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


#: How likely a computer is taken to make a trading move its team would not make.
SLIP = 0.05


def team_likelihoods(seats: list[dict[str, Any]], history: list[dict[str, Any]],
                     me: int | None) -> dict[int, dict[str, float]]:
    """How well each team explains each other computer seat's public trading.

    A computer offers a swap only for a Position its team values more than its own, and
    accepts an offer only when the Position offered is worth more to its team (declines
    otherwise), so every offer and answer it made is evidence about its team: a team that
    would have done it scores 1, one that would not :data:`SLIP`, per move.  The starts the
    seats had at each trade are worked back from today's starts.  People are not judged.
    """
    likely = {s["seat"]: {t: 1.0 for t in TEAMS} for s in seats
              if s["seat"] != me and s["kind"] == "bot"}
    at = {s["seat"]: s["start"] for s in seats}
    before = []
    for trade in reversed(history):
        if trade["accepted"]:
            a, b = trade["from"], trade["to"]
            at[a], at[b] = at[b], at[a]
        before.append(dict(at))
    for trade, where in zip(history, reversed(before)):
        proposer, answerer = trade["from"], trade["to"]
        asked, offered = where[answerer], where[proposer]
        if proposer in likely:
            for t in TEAMS:
                fits = worth(t, asked) > worth(t, offered) + OFFER_MARGIN
                likely[proposer][t] *= 1.0 if fits else SLIP
        if answerer in likely:
            for t in TEAMS:
                fits = (worth(t, offered) > worth(t, asked) + ACCEPT_MARGIN) == trade["accepted"]
                likely[answerer][t] *= 1.0 if fits else SLIP
    return likely


def accept_chance(team: str, mine: int, theirs: int, computer: bool) -> float:
    """How likely the player on ``theirs`` says yes to taking ``mine``: a computer says yes
    when its team (unknown: two more of ours, three of each other team) gains by it;
    anyone else is taken to say yes half the time."""
    if not computer:
        return 0.5
    chance = 0.0
    for other in TEAMS:
        if worth(other, mine) > worth(other, theirs) + ACCEPT_MARGIN:
            chance += (2 if other == team else 3) / 8
    return chance


def _trade(view: View, me: int, team: str) -> Action:
    trading = view["trading"]
    mine = view["seats"][me]["start"]
    pending = trading["pending"]
    if pending is not None:
        offered = view["seats"][pending["from"]]["start"]
        better = worth(team, offered) > worth(team, mine) + ACCEPT_MARGIN
        return {"type": "accept" if better else "decline"}
    asked = {t["to"] for t in trading["history"] if t["from"] == me}
    best, target = 0.0, None
    for other in view["seats"]:
        seat, theirs = other["seat"], other["start"]
        gain = worth(team, theirs) - worth(team, mine)
        if seat == me or seat in asked or gain <= OFFER_MARGIN:
            continue
        expected = gain * accept_chance(team, mine, theirs, other["kind"] == "bot")
        if expected > best:
            best, target = expected, seat
    if target is not None:
        return {"type": "propose", "to": target}
    return {"type": "pass"}
