"""The cooperative computer player: it sees only its own view (which is public).

Every action is chosen afresh, in this order of priorities:

1. standing on a running generator: deactivate it; a frozen Knight breaks free;
2. a frozen, confused or afraid companion next to it: assist;
3. while frozen, confused or afraid: defer if a companion still to act this
   round could come and help, stay put if one can come next round (an afraid
   seat waits up to two rounds' walk for help rather than walk back to the
   start), else follow the pull (never onto a bad trap while help exists);
   peek while frozen;
4. the nearest free seat to a companion in trouble walks over to help;
5. the escape pod is open: stand by a Confuse, Fear or Freeze on a
   companion's way to assist them there (a seat whose own way is clear), else
   walk there;
6. a known running generator that this seat is nearest to (of the seats free
   to walk): walk there;
7. too little time left to reach the pod later (counted in steps, not in the
   trap-weighted cost below): head for it now;
8. generators still undiscovered: explore: peek (or far-peek) at face-down
   tiles next to it, else walk to the known space that borders the most
   face-down tiles for the AP it costs, the part of the floor furthest from
   the pod first (a blind seat, a crew of two, or anyone while a trap that
   would stop them is unlikely, steps onto the nearest face-down tile instead;
   a crew of two still peeks at one beside it that leads to no other face-down
   tile, which it would only step back from; otherwise peeking first is worth
   its AP, measured);
9. nothing left to find: wait by the pod (the generators are left to the
   seats nearest to them), deferring while companions are still to act.

Walking takes the cheapest way, where a known trap costs more the worse it
is for this character (immunities and disarmed traps cost nothing extra);
a face-down tile on the way is peeked at before stepping on it (a crew of two
steps straight on, except on the run to the open pod).  The Thief
sneaks over a trap on its way, the Tinkerer disarms one if it has the AP to
spare, and the Mage skips when that saves steps.  Character choice: Knight,
Ranger, Barbarian, Thief, Mage, Tinkerer.  The bot uses no randomness.
"""

from __future__ import annotations

import heapq

from game.engine import Action, Rng, View

from .data import CHARACTERS, DIFFICULTIES, LAYOUT, TRAPS
from .kernel import Cell, distances, neighbours, steps_between

#: Extra cost of stepping onto a known, armed trap (before immunities).
TRAP_COST = {"blind": 3, "confuse": 30, "corrode": 2, "fear": 30, "freeze": 30,
             "jettison": 40, "sever": 8, "mystery": 4}
#: Extra cost of stepping onto a face-down tile (what may lie there).
UNKNOWN_COST = 2
#: AP kept in hand for surprises when judging whether to head for the pod.
SLACK = 2
#: AP an extra face-down neighbour is worth when choosing where to stand and peek.
GAIN = 0.8
FAR = 1 << 30
#: Extra cost of walking back to where this seat began its previous turn.
BACKTRACK = 4
#: Extra cost of exploring back towards where this seat began its previous turn (it turned
#: away from there), short of a known trap's cost.
BACK_AGAIN = 6
#: Extra cost of exploring where a companion is nearer (they will look there first).
SHARE = 3
#: Step onto face-down tiles without peeking first while the chance that one holds a
#: trap that stops you (Confuse, Fear, Freeze, Jettison) is below this.
BOLD_BELOW = 0.15
#: Share of the trap tiles in the box that stop you: 11 of 20.
HARMFUL = 11 / 20
#: Crews this small always explore boldly, but peek at a face-down tile next to them that
#: leads to no other face-down tile instead of stepping on; on the way to a goal (a
#: generator, a companion, the pod) they step on without peeking too.  Measured over 1000
#: seeded games of 2 seats: peeking beside (still bold only while the odds were low) took
#: Easy from 61.6% escaped whole to 66.1%; always bold then took it to 68.1% (Medium 29.5%
#: -> 34.8%, Hard 8.6% -> 16.8% over 500); no peeking on the way to a goal then to 70.0%
#: over 3000 (68.4% without).  Larger crews keep the odds rule: there every seat that
#: peeks first is one of several looking, and Hard would pass its target.
BOLD_SEATS = 2
#: Crews this small explore close together, each step apart costing this much.
BUDDY_SEATS = 4
BUDDY = 1.0
ZONES = False
#: Explore far from the pod first: each step further from it is worth this much AP (the
#: part near the pod is explored last, on the way there).
SWEEP = 1.0
#: An afraid seat waits where it is for a companion up to this many rounds' walk away.
HELP_ROUNDS = 2
#: Extra cost of a goal (a generator, the spaces by the pod) back where this seat began
#: its previous turn: another goal is taken unless it costs this much more.
GO_BACK = 20
#: What a face-down tile on the run to the pod may cost a seat that cannot peek at it,
#: and what a Blind tile costs while face-down tiles are left.
BLIND_RISK = 4.0
#: What a Confuse, Fear or Freeze on the run to the pod costs when a companion stands by
#: it to assist.
MINDED_RISK = 2.0


def zone(cell: Cell, seats: int) -> int:
    """The part of the floor (0 .. seats-1) that ``cell`` belongs to when exploring.

    >>> zone((4, 4), 2), zone((9, 8), 2), zone((9, 4), 3), zone((5, 8), 4)
    (0, 1, 1, 1)
    """
    right = cell[0] > LAYOUT.start[0] + (LAYOUT.finish[0] - LAYOUT.start[0]) // 2 - 1
    top = cell[1] < LAYOUT.start[1]
    if seats <= 2:
        return int(right)
    if seats == 3:
        return 0 if not right else (1 if top else 2)
    return (2 if right else 0) + (0 if top else 1)


def _cell(value: list[int]) -> Cell:
    return (value[0], value[1])


class Board:
    """The view's board, indexed for one seat."""

    def __init__(self, view: View, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.me = view["seats"][seat]
        self.char = self.me["character"]
        self.immune = set(CHARACTERS[self.char]["immune"]) if self.char else set()
        self.spaces = {_cell(s["cell"]): s for s in view["spaces"]}
        self.here = _cell(self.me["cell"])
        self.start, self.finish = _cell(view["start"]), _cell(view["finish"])
        self.down = {c for c, s in self.spaces.items() if s["state"] == "down"}
        # Where this seat began its previous turn, if it walked away from there: going
        # back costs extra, so a seat does not undo the walk it just made.
        came, began = _cell(self.me["came_from"]), _cell(self.me["turn_from"])
        self.behind: Cell | None = came if came != began else None
        self.cells = set(self.spaces) | {self.start, self.finish}
        #: Memos: what a step onto each standable cell costs, and the cheapest ways.
        self._step: dict[Cell, int] | None = None
        self._costs: dict[tuple[Cell, bool, bool], tuple[dict[Cell, int], dict[Cell, Cell]]] = {}
        self._walks: dict[Cell, dict[Cell, int]] = {}

    def standable(self, cell: Cell) -> bool:
        if cell == self.start:
            return True
        if cell == self.finish:
            return self.view["finish_open"]
        space = self.spaces.get(cell)
        return space is not None and space["state"] in ("up", "down")

    def danger(self, cell: Cell) -> int:
        """Extra cost of stepping onto ``cell`` for this character."""
        space = self.spaces.get(cell)
        if space is None:
            return 0
        if space["state"] == "down":
            return UNKNOWN_COST
        kind = space["kind"]
        if kind in ("safe", "objective") or kind in self.immune:
            return 0
        until = space["disarmed_until"]
        if until is not None and until >= self.view["round"] + 1:
            return 0
        if kind == "corrode" and self.char == "barbarian":
            return 0
        if (kind == "blind" and self.me["blind"]) or (
                kind == "sever" and self.me["ap_per_round"] <= 1):
            return 0  # nothing more to lose
        return TRAP_COST.get(kind, 4)

    def backtrack(self, cell: Cell, n: Cell) -> int:
        """Extra cost of a step from ``cell`` to ``n`` that leads back towards where this
        seat began its previous turn (it walked away from there for a reason)."""
        if self.behind is None:
            return 0
        closer = steps_between(n, self.behind) < steps_between(cell, self.behind)
        return BACKTRACK if closer else 0

    def mine(self, cell: Cell) -> bool:
        """Whether ``cell`` lies in this seat's part of the floor to explore.

        The crew splits the floor (left and right of the wall, then top and bottom)
        so that each seat sweeps its own part instead of all chasing the same
        frontier and turning back whenever a companion got there first.
        """
        if not ZONES:
            return True
        return zone(cell, len(self.view["seats"])) == self.seat % len(self.view["seats"])

    def back_again(self, goal: Cell) -> bool:
        """Whether going to ``goal`` means walking back towards where this seat began its
        previous turn: explored last, so a seat keeps the direction it chose.  Counted in
        steps along the floor (around the gaps): ``goal`` is back again when the walk from
        where this seat began its previous turn would have been shorter."""
        if self.behind is None:
            return False
        there, here = self.walk(self.behind), self.walk(self.here)
        return there.get(goal, FAR) < here.get(goal, FAR)

    def walk(self, origin: Cell) -> dict[Cell, int]:
        """Fewest steps from ``origin`` to every space, through face-down tiles too."""
        if origin not in self._walks:
            self._walks[origin] = distances(
                [origin], lambda c: self.standable(c) and c != self.finish)
        return self._walks[origin]

    def costs(self, origin: Cell | None = None, through: bool = False
              ) -> tuple[dict[Cell, int], dict[Cell, Cell]]:
        """Cheapest cost from ``origin`` (default: here) to every reachable space.

        Face-down tiles can be reached but, unless ``through``, not walked
        through (stepping on one flips it); the escape pod only when it is open.
        """
        origin = origin or self.here
        mine = origin == self.here
        key = (origin, through, mine)
        if key in self._costs:
            return self._costs[key]
        if self._step is None:
            self._step = {c: 1 + self.danger(c) for c in self.cells if self.standable(c)}
        step = self._step
        best = {origin: 0}
        back: dict[Cell, Cell] = {}
        heap = [(0, origin)]
        while heap:
            cost, cell = heapq.heappop(heap)
            if cost > best.get(cell, FAR):
                continue
            if cell != origin and ((cell in self.down and not through) or cell == self.finish):
                continue
            for n in neighbours(cell):
                if n not in step:
                    continue
                total = cost + step[n] + (self.backtrack(cell, n) if mine else 0)
                if total < best.get(n, FAR):
                    best[n] = total
                    back[n] = cell
                    heapq.heappush(heap, (total, n))
        self._costs[key] = (best, back)
        return best, back

    def path_to(self, goal: Cell, back: dict[Cell, Cell]) -> list[Cell]:
        path = []
        cell = goal
        while cell != self.here:
            path.append(cell)
            cell = back[cell]
        return path[::-1]


def choose(view: View, legal: list[Action], rng: Rng) -> Action | None:
    """The bot's action (None: let the engine pick at random)."""
    if view["phase"] == "characters":
        return _choose_character(legal, rng)
    if view["phase"] != "play" or not legal:
        return None
    seat = view["current"]
    board = Board(view, seat)
    me = board.me
    kinds = {a["type"] for a in legal}
    end: Action = {"type": "end"}

    # 1. generator underfoot; the Knight breaks free
    for kind in ("deactivate", "break_free"):
        if kind in kinds:
            return {"type": kind}
    # 2. assist a companion next to us who cannot walk freely
    for action in legal:
        if action["type"] == "assist":
            other = view["seats"][action["seat"]]
            if other["frozen"] or other["afraid"] or other["confused"]:
                return action
    # 3. our own troubles
    pulled = view["pull"] is not None
    if pulled or me["frozen"]:
        if "defer" in kinds and _help_coming(view, board):
            return {"type": "defer"}
        moves = [a for a in legal if a["type"] == "move"]
        if pulled and moves:
            if _help_near(view, board):
                return end  # stay put: a companion will come and assist next round
            move = min(moves, key=lambda a: (board.danger(_cell(a["to"])), a["to"]))
            if board.danger(_cell(move["to"])) <= UNKNOWN_COST or not _helpers(view, seat):
                return move
            return end
        peek = _best_peek(board, legal, view)
        return peek or end
    best, back = board.costs()
    # 4. go to a companion in trouble when we are the nearest free helper
    for other in view["seats"]:
        if other["seat"] == seat or other["escaped"]:
            continue
        if not _worth_helping(view, other):
            continue
        there = _cell(other["cell"])
        helpers = _helpers(view, other["seat"])
        if not helpers or min(helpers, key=lambda h: (steps_between(
                _cell(view["seats"][h]["cell"]), there), h)) != seat:
            continue
        way, back_way = board.costs(through=True)
        # Only where we arrive able to assist: not over a trap that stops us on the way.
        spots = {c for c in [there, *neighbours(there)] if board.standable(c)
                 and (c == board.here or (c in way and _clear_way(
                     board, legal, board.path_to(c, back_way))))}
        near = min((len(board.path_to(c, back_way)) for c in spots if c in way), default=FAR)
        # Walk over only if we get there and assist this turn (a frozen companion: it
        # thaws by itself soon, also on the run to the open pod) or within about a round
        # (one pulled away from the way): no long walks out and back.
        pulled_off = other["afraid"] or other["confused"]
        if not pulled_off and near > me["ap"] - 1:
            continue
        act = _go(board, legal, spots, through=True)
        if act is not None:
            return act
    # 5. the pod: the way that surely fits the AP left, peeking only with time to spare
    if view["finish_open"]:
        act = _escort(view, board, legal)
        if act is not None:
            return act
        act = _escape(view, board, legal)
        if act is not None:
            return act
        return _explore(board, legal, view, best, back) or end
    # 6. generators we are nearest to
    running = [c for c, s in board.spaces.items()
               if s["state"] == "up" and s["kind"] == "objective" and not s["done"]]
    mine = {c for c in running if _nearest_seat(view, board, c) == seat}
    if mine:
        act = _go(board, legal, mine, through=True)
        if act is not None:
            return act
    # 7. running out of time: head for the pod while the others finish the search
    near_pod = {n for n in neighbours(board.finish) if board.standable(n)}
    if board.here not in near_pod and _late(view, board, near_pod):
        act = _go(board, legal, near_pod, through=True)
        if act is not None:
            return act
    # 8. explore while generators are still hidden
    hidden = view["objectives"]["total"] - view["objectives"]["done"] - len(running)
    if hidden > 0 and board.down:
        act = _explore(board, legal, view, best, back)
        if act is not None:
            return act
    # 9. wait by the pod (another seat is nearer each running generator: walking there
    #    as well only meant walking back again)
    if board.here not in near_pod:
        act = _go(board, legal, near_pod, through=True)
        if act is not None:
            return act
    if "defer" in kinds and view["waiting"]:
        # Nothing to do now: keep the AP until the companions still to act have had
        # their turn (they may switch off the last generator, or need an assist).
        return {"type": "defer"}
    return end


def _clear_way(board: Board, legal: list[Action], path: list[Cell]) -> bool:
    """Whether ``path`` crosses no known Confuse, Fear, Freeze or Jettison that would act
    on this seat (one the Thief can sneak onto right now is fine)."""
    for n, cell in enumerate(path):
        space = board.spaces.get(cell)
        if (space is None or space["state"] != "up"
                or space["kind"] not in ("confuse", "fear", "freeze", "jettison")
                or board.danger(cell) <= UNKNOWN_COST):
            continue
        if n == 0 and {"type": "sneak", "to": list(cell)} in legal:
            continue
        return False
    return True


def _choose_character(legal: list[Action], rng: Rng) -> Action:
    """Any free character, drawn from the bot's seeded generator: a table of bots
    plays every one of the six, not only the strongest."""
    return rng.choice([a for a in legal if a["type"] == "choose"])


def _nearest_seat(view: View, board: Board, cell: Cell) -> int:
    """The free active seat with the shortest way to ``cell`` (ties: lower seat): not
    frozen, confused or afraid."""
    active = [s for s in view["seats"] if not s["escaped"] and not s["frozen"]
              and not (s["confused"] or s["afraid"])] or [board.me]
    best = None
    for s in active:
        costs, _back = board.costs(_cell(s["cell"]), through=True)
        key = (costs.get(cell, FAR), s["seat"])
        if best is None or key < best[0]:
            best = (key, s["seat"])
    return best[1] if best else board.seat


def _help_coming(view: View, board: Board) -> bool:
    """A free companion still to act this round could come and assist."""
    for s in view["seats"]:
        if s["seat"] in view["waiting"] and not (s["frozen"] or s["confused"] or s["afraid"]):
            if steps_between(_cell(s["cell"]), board.here) <= s["ap"]:
                return True
    return False


def _late(view: View, board: Board, near_pod: set[Cell]) -> bool:
    """Whether this seat must start walking to the pod to make it in time."""
    # Count steps (AP), not the danger-weighted cost used to pick a way: a way
    # past known traps would otherwise look so long that the bot set off for
    # the pod, over those very traps, in the first round.
    steps = distances([board.here], lambda c: board.standable(c) and c != board.finish)
    reach = [steps[c] for c in near_pod if c in steps]
    if not reach:
        return False
    rounds_left = view["tracker"]["places"] - view["tracker"]["place"]
    budget = board.me["ap"] + (rounds_left - 1) * board.me["ap_per_round"]
    return min(reach) + 1 + SLACK >= budget


def _help_near(view: View, board: Board) -> bool:
    """A free companion close enough to walk over and assist next round."""
    last = view["tracker"]["place"] >= view["tracker"]["places"] - 1
    if last:
        return False
    # Fear pulls back to the start, undoing the whole walk out: an afraid seat waits for
    # a companion up to two rounds' walk away (along the floor).
    afraid = board.me["afraid"] and not board.me["confused"]
    for s in view["seats"]:
        if s["seat"] in _helpers(view, board.seat):
            if steps_between(_cell(s["cell"]), board.here) <= s["ap_per_round"]:
                return True
            if afraid and board.walk(board.here).get(
                    _cell(s["cell"]), FAR) <= HELP_ROUNDS * s["ap_per_round"]:
                return True
    return False


def _best_peek(board: Board, legal: list[Action], view: View) -> Action | None:
    """A peek at a face-down tile: plain peeks first, then the Ranger's far peek
    at the tile furthest towards the pod."""
    peeks = [a for a in legal if a["type"] == "peek"]
    if peeks:
        return min(peeks, key=lambda a: (-a["at"][0], a["at"][1]))
    far = [a for a in legal if a["type"] == "far_peek"]
    if far:
        return min(far, key=lambda a: (not board.mine(_cell(a["at"])),
                                       _closer_companion(view, board, _cell(a["at"])),
                                       -a["at"][0], a["at"][1]))
    return None


def _apart(view: View, board: Board, cell: Cell) -> float:
    """Cost of exploring ``cell`` far from the companions: a crew of two keeps within
    an assist of each other (alone, one Fear or Freeze costs rounds)."""
    others = [s for s in view["seats"] if s["seat"] != board.seat and not s["escaped"]]
    if not others or len(view["seats"]) > BUDDY_SEATS:
        return 0.0
    gap = min(steps_between(cell, _cell(s["cell"])) for s in others)
    return BUDDY * max(0, gap - 2)


def _closer_companion(view: View, board: Board, cell: Cell) -> bool:
    mine = steps_between(board.here, cell)
    return any(steps_between(_cell(s["cell"]), cell) < mine for s in view["seats"]
               if s["seat"] != board.seat and not s["escaped"])


def _explore(board: Board, legal: list[Action], view: View, best: dict[Cell, int],
             back: dict[Cell, Cell]) -> Action | None:
    # A crew of three or four peeks first while the odds of a trap that stops you are
    # high enough (measured); a crew of two always steps on (BOLD_SEATS).
    small = len(view["seats"]) <= BOLD_SEATS
    bold = board.me["blind"] or small or _odds_of_harm(view, board) < BOLD_BELOW
    if not bold:
        peek = _best_peek(board, legal, view)
        if peek is not None:
            return peek
    if small:
        peek = _peek_beside(board, legal)
        if peek is not None:
            return peek
    frontier = [c for c in board.down if c in best]
    if not frontier:
        return None
    # A place from which the pod would be out of reach is explored last: going there
    # now means turning back for the pod at once.
    near_pod = [n for n in neighbours(board.finish) if board.standable(n)]
    to_pod = distances(near_pod, lambda c: board.standable(c) and c != board.finish)
    budget = _budget(view, board)

    def too_far(p: Cell) -> bool:
        # The walk there counted in steps along the cheapest way (around the gaps), and
        # the peek on arrival: the same test that sends a seat to the pod (_late).
        walk = len(board.path_to(p, back)) if p in back else steps_between(board.here, p)
        return to_pod.get(p, FAR) + 1 + SLACK + walk + (not bold) >= budget
    if not bold:
        # Walk to the known space next to the most face-down tiles for the AP.
        spots = [p for p in best if p not in board.down and p != board.here
                 and p != board.finish and any(n in board.down for n in neighbours(p))]
        if spots:
            spot = min(spots, key=lambda p: (
                too_far(p), board.back_again(p),
                not any(n in board.down and board.mine(n) for n in neighbours(p)),
                best[p] + BACK_AGAIN * board.back_again(p) - GAIN * sum(
                n in board.down for n in neighbours(p))
                + SHARE * _closer_companion(view, board, p) + _apart(view, board, p)
                - SWEEP * to_pod.get(p, 0),
                -p[0], p[1]))
            if too_far(spot):
                return None  # the pod would be out of reach from there: stay by it
            if board.back_again(spot) and _closer_companion(view, board, spot):
                return None  # turning back where a companion is nearer: leave it to them
            return _walk(board, legal, board.path_to(spot, back))
    # Aim next to a face-down tile to peek at it (or onto it when bold).
    goal = min(frontier, key=lambda c: (too_far(c), board.back_again(c), not board.mine(c),
                                        best[c] + BACK_AGAIN * board.back_again(c)
                                        + SHARE * _closer_companion(view, board, c)
                                        + _apart(view, board, c)
                                        - SWEEP * to_pod.get(c, 0),
                                        -c[0], c[1]))
    if too_far(goal):
        return None  # the pod would be out of reach from there: stay by it
    if board.back_again(goal) and _closer_companion(view, board, goal):
        return None  # turning back where a companion is nearer: leave it to them
    path = board.path_to(goal, back)
    if not bold and len(path) > 1:
        path = path[:-1]
    if bold and len(path) == 1 and board.me["ap"] >= 1:
        far = [a for a in legal if a["type"] == "far_peek"]
        if far:  # the Ranger's far peek is cheap: use it first
            return _best_peek(board, far, view)
    return _walk(board, legal, path)


def _peek_beside(board: Board, legal: list[Action]) -> Action | None:
    """A peek at a face-down tile next to this seat that leads to no other face-down tile:
    stepping onto it finds nothing more (the seat steps back, or walks on over known
    tiles), so it is looked at instead: mostly for the AP the step back would cost, and a
    trap on it does not act."""
    for action in sorted((a for a in legal if a["type"] == "peek"), key=lambda a: a["at"]):
        cell = _cell(action["at"])
        if not any(n in board.down for n in neighbours(cell) if n != board.here):
            return action
    return None


def _odds_of_harm(view: View, board: Board) -> float:
    """The chance that a face-down tile holds a trap that stops you, from what is known:
    the difficulty's trap count less the traps already seen (face up, lifted or gone)."""
    if not board.down:
        return 0.0
    traps = DIFFICULTIES[view["difficulty"]]["trap"]
    seen = sum(1 for s in view["spaces"] if (s["state"] == "up" and s["kind"] in TRAPS)
               or s["state"] in ("lifted", "gap"))
    return max(0, traps - seen) * HARMFUL / len(board.down)


def _budget(view: View, board: Board) -> int:
    """AP this seat still has before the hyperdrive fires (this round's and the rest)."""
    rounds_left = view["tracker"]["places"] - view["tracker"]["place"]
    return board.me["ap"] + (rounds_left - 1) * board.me["ap_per_round"]


def _spare(view: View, board: Board, goal: Cell) -> int:
    """AP left over after walking the cheapest way to ``goal`` and peeking at every
    face-down tile on it (negative: no time to peek on the way)."""
    best, back = board.costs(through=True)
    if goal not in best:
        return 0
    path = board.path_to(goal, back)
    unknown = sum(c in board.down for c in path)
    corrode = 1 if board.me["corroded"] else 0
    return _budget(view, board) - len(path) - corrode - unknown


def _go(board: Board, legal: list[Action], goals: set[Cell], through: bool = False
        ) -> Action | None:
    """A step (or skip, or peek ahead) on the cheapest way to the nearest goal."""
    best, back = board.costs(through=through)
    reachable = [g for g in goals if g in best and g != board.here]
    if not reachable:
        return None
    # A goal back where this seat began its previous turn comes after any other (two
    # goals as near, such as the spaces above and below the pod, are not swapped).
    goal = min(reachable, key=lambda c: (best[c] + GO_BACK * board.back_again(c), c))
    path = board.path_to(goal, back)
    if len(path) >= 3:
        skip = _skip(board, legal, goal, len(path))
        if skip is not None:
            return skip
    nxt = path[0]
    # A crew of two steps straight onto a face-down tile on its way (BOLD_SEATS).
    if nxt in board.down and len(board.view["seats"]) > BOLD_SEATS:
        for action in legal:
            if action["type"] in ("peek", "far_peek") and _cell(action["at"]) == nxt:
                return action
    return _walk(board, legal, path)


def _worth_helping(view: View, other: View) -> bool:
    """Whether a companion's trouble is worth a walk: fear and confusion pull them off
    their way; a freeze that thaws at the end of this round, or a frozen Knight who can
    break free himself, is not."""
    if other["afraid"] or other["confused"]:
        return True
    if not other["frozen"] or other["character"] == "knight":
        return False
    return other["frozen_in"] == view["round"]


def _helpers(view: View, troubled: int) -> list[int]:
    """Seats free to walk over and assist ``troubled``."""
    return [s["seat"] for s in view["seats"] if s["seat"] != troubled and not s["escaped"]
            and not (s["frozen"] or s["confused"] or s["afraid"])]


def _risk(view: View, board: Board, cell: Cell) -> float:
    """What stepping onto ``cell`` may cost on the run to the pod, beyond its AP."""
    space = board.spaces.get(cell)
    if space is None:
        return 0.0
    if space["state"] == "down":
        return BLIND_RISK if board.me["blind"] else 1.5
    kind = space["kind"]
    until = space["disarmed_until"]
    if kind in ("safe", "objective", "corrode") or kind in board.immune or (
            until is not None and until >= view["round"]):
        return 0.0
    if kind == "blind":  # worth avoiding only while there are face-down tiles to peek at
        return 0.0 if board.me["blind"] or not board.down else BLIND_RISK
    rounds_left = view["tracker"]["places"] - view["tracker"]["place"]
    if kind == "sever":
        return 0.0 if rounds_left <= 1 or board.me["ap_per_round"] <= 1 else 1.0
    if kind == "confuse" and not board.down:
        return 0.0
    if kind == "freeze" and board.char == "knight":
        return 4.0
    if kind in ("confuse", "fear", "freeze") and _minder(view, board, cell):
        return MINDED_RISK
    return 40.0 if kind == "jettison" else 20.0


def _minder(view: View, board: Board, cell: Cell) -> bool:
    """Whether a companion stands on or next to ``cell``, free to assist, with a turn to
    come before the hyperdrive fires: a Confuse, Fear or Freeze there costs one assist."""
    rounds_left = view["tracker"]["places"] - view["tracker"]["place"]
    for s in view["seats"]:
        if s["seat"] == board.seat or s["escaped"] or s["confused"] or s["afraid"]:
            continue
        if steps_between(_cell(s["cell"]), cell) > 1:
            continue
        if rounds_left > 1 or s["seat"] in view["waiting"] or s["seat"] in view["deferred"]:
            return True
    return False


def _leave_ap(view: View, board: Board, cell: Cell) -> int:
    """AP to step off ``cell`` (a Corrode tile costs one more, except to the Barbarian)."""
    if cell == board.here:
        return 2 if board.me["corroded"] else 1
    space = board.spaces.get(cell)
    if (space is None or space["state"] != "up" or space["kind"] != "corrode"
            or board.char == "barbarian"):
        return 1
    until = space["disarmed_until"]
    return 1 if until is not None and until >= view["round"] else 2


def _bypass(board: Board, cell: Cell) -> int | None:
    """Extra AP with which this character gets past the face-up trap on ``cell`` without
    it acting: the Thief sneaks (2 AP instead of 1), the Tinkerer disarms it first (3 AP);
    None for everybody else (and for a Mystery, which acts anyway)."""
    space = board.spaces.get(cell)
    if space is None or space["state"] != "up" or space["kind"] == "mystery":
        return None
    if board.char == "thief":
        return 1
    if board.char == "tinkerer":
        return 3
    return None


def _run_plan(view: View, board: Board, origin: Cell, weight: float
              ) -> tuple[dict[Cell, tuple[float, int]], dict[Cell, Cell]]:
    """Cheapest ways from ``origin``: cell -> (AP + weight x risk, AP), and the way back."""
    best: dict[Cell, tuple[float, int]] = {origin: (0.0, 0)}
    back: dict[Cell, Cell] = {}
    heap = [(0.0, 0, origin)]
    while heap:
        score, ap, cell = heapq.heappop(heap)
        if (score, ap) > best.get(cell, (FAR, FAR)) or (cell == board.finish and cell != origin):
            continue
        for n in neighbours(cell):
            if not board.standable(n):
                continue
            step_ap = ap + _leave_ap(view, board, cell)
            risk = _risk(view, board, n)
            extra = _bypass(board, n) if risk >= 4 and weight > 0 else None
            if extra is not None:  # sneaked past or disarmed: AP instead of the risk
                step_ap, risk = step_ap + extra, 0.0
            total = score + (step_ap - ap) + weight * risk
            if (total, step_ap) < best.get(n, (FAR, FAR)):
                best[n] = (total, step_ap)
                back[n] = cell
                heapq.heappush(heap, (total, step_ap, n))
    return best, back


def _escort(view: View, board: Board, legal: list[Action]) -> Action | None:
    """On the run to the open pod, stand by the first Confuse, Fear or Freeze on a
    companion's way (one that would act on them) so as to assist them the moment it
    acts; only with the AP to get to the pod afterwards.  None: nothing to escort."""
    rounds_left = view["tracker"]["places"] - view["tracker"]["place"]
    if rounds_left <= 1 or board.me["frozen"]:
        return None
    mine, my_back = _run_plan(view, board, board.here, 1.0)
    if board.finish not in mine or any(
            _stops(view, board, c) and _bypass(board, c) is None
            for c in board.path_to(board.finish, my_back)):
        return None  # a trap on our own way: let them mind us instead
    to_pod = distances([board.finish], lambda c: board.standable(c))
    budget = _budget(view, board)
    for other in view["seats"]:
        if other["seat"] == board.seat or other["escaped"] or (
                other["frozen"] or other["confused"] or other["afraid"]):
            continue
        theirs = Board(view, other["seat"])
        plan, back = _run_plan(view, theirs, theirs.here, 1.0)
        if board.finish not in plan:
            continue
        trap = next((c for c in theirs.path_to(board.finish, back)
                     if _stops(view, theirs, c) and _bypass(theirs, c) is None), None)
        if trap is None:
            continue
        if steps_between(board.here, trap) <= 1:
            # Standing by: wait for them to step on it (after them this round if we can).
            if "defer" in {a["type"] for a in legal} and other["seat"] in view["waiting"]:
                return {"type": "defer"}
            return {"type": "end"}
        best, way = board.costs()
        spots = {c for c in neighbours(trap) if c in best and c != board.finish
                 and board.danger(c) <= UNKNOWN_COST and c not in board.down
                 and best[c] < 20
                 and best[c] + to_pod.get(c, FAR) + 1 + SLACK <= budget}
        if spots:
            act = _go(board, legal, spots)
            if act is not None:
                return act
    return None


def _stops(view: View, board: Board, cell: Cell) -> bool:
    """Whether the face-up trap on ``cell`` would stop this seat: a Confuse (while tiles
    are face down), Fear or Freeze that acts on it."""
    space = board.spaces.get(cell)
    if space is None or space["state"] != "up":
        return False
    kind = space["kind"]
    if kind not in ("confuse", "fear", "freeze") or kind in board.immune:
        return False
    if kind == "confuse" and not board.down:
        return False
    until = space["disarmed_until"]
    return until is None or until < view["round"]


def _wait_for_others(view: View, board: Board) -> bool:
    """Whether to wait beside the open pod rather than step in: a companion still on
    the way may need an assist, and nobody in the pod can give one.  Everybody steps
    in during the last round."""
    rounds_left = view["tracker"]["places"] - view["tracker"]["place"]
    if rounds_left <= 1:
        return False
    return any(not s["escaped"] and s["seat"] != board.seat for s in view["seats"])


def _escape(view: View, board: Board, legal: list[Action]) -> Action | None:
    """The next step on the run to the open pod.

    The safest way that fits the AP left before the hyperdrive fires; when none fits,
    the shortest.  A face-down tile on the way is peeked at only while the AP spare
    allows; a bad trap on it is sneaked past or disarmed when that still fits.
    """
    budget = _budget(view, board)
    plan = None
    for weight in (1.0, 0.25, 0.0):
        best, back = _run_plan(view, board, board.here, weight)
        if board.finish not in best:
            return None
        plan = (best, back)
        if best[board.finish][1] <= budget:
            break
    assert plan is not None
    best, back = plan
    path = board.path_to(board.finish, back)
    ap_needed = best[board.finish][1]
    unknown = sum(c in board.down for c in path)
    spare = budget - ap_needed
    # The Mage skips when landing there leaves a cheaper run (2 AP for the jump).
    for action in legal:
        if action["type"] != "skip":
            continue
        land = _cell(action["to"])
        if land == board.finish and _wait_for_others(view, board):
            continue
        if _risk(view, board, land) > 1.5:
            continue
        rest, _ = _run_plan(view, board, land, 1.0)
        if board.finish in rest:
            cost = rest[board.finish][1] + 1 + _leave_ap(view, board, board.here)
            if cost < ap_needed and rest[board.finish][0] <= best[board.finish][0]:
                return action
    nxt = path[0]
    if nxt == board.finish and _wait_for_others(view, board):
        return {"type": "end"} if {"type": "end"} in legal else None
    if nxt in board.down and spare > unknown:
        for action in legal:
            if action["type"] == "peek" and _cell(action["at"]) == nxt:
                return action
    if _risk(view, board, nxt) >= 4:
        # The plan already counted the sneak's or the disarm's AP unless it is the
        # shortest way (weight 0), which walks onto the trap.
        counted = _bypass(board, nxt) if weight > 0 else None
        extra = 0 if counted is not None else None
        for action in legal:
            if action["type"] == "sneak" and _cell(action["to"]) == nxt and spare >= (
                    1 if extra is None else 0):
                return action
            if action["type"] == "disarm" and _cell(action["at"]) == nxt and spare >= (
                    3 if extra is None else 0):
                return action
        if counted is not None and spare >= board.me["ap"] and {"type": "end"} in legal:
            return {"type": "end"}  # no sneak or disarm left this turn: next round
    kind = "move"
    for action in legal:
        if action["type"] == kind and _cell(action["to"]) == nxt:
            return action
    return None


def _skip(board: Board, legal: list[Action], goal: Cell, length: int) -> Action | None:
    for action in legal:
        if action["type"] != "skip":
            continue
        land = _cell(action["to"])
        if board.danger(land) > UNKNOWN_COST or (land == board.finish and goal != land):
            continue
        rest, back = board.costs(land)
        if goal in rest:
            saved = board.here
            board.here = land
            steps = len(board.path_to(goal, back))
            board.here = saved
            if steps + 1 < length:
                return action
    return None


def _walk(board: Board, legal: list[Action], path: list[Cell]) -> Action | None:
    if not path:
        return None
    nxt = path[0]
    if board.danger(nxt) > UNKNOWN_COST:
        for action in legal:
            if action["type"] == "sneak" and _cell(action["to"]) == nxt:
                return action
            if (action["type"] == "disarm" and _cell(action["at"]) == nxt
                    and board.me["ap"] >= 3 and board.danger(nxt) >= 5):
                return action
    for action in legal:
        if action["type"] == "move" and _cell(action["to"]) == nxt:
            return action
    return None
