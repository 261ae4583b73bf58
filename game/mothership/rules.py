"""TRAP: Mothership Fantasia's rule controller.

Phases: ``characters`` (each seat in turn takes one of the six characters),
then ``play`` (rounds: every seat in order spends its AP, seats that deferred
spend what they kept after everyone else, then the round tracker moves down),
then ``over``.  Face-down tiles are hidden from every view, event and status
line alike; a flipped tile is public.  Geometry helpers live in
:mod:`.kernel`; the tiles, characters, difficulties and the board's layout
come from :mod:`.data`.
"""

from __future__ import annotations

from typing import Any

from game.engine import Action, Controller, Event, IllegalAction, Option, Rng, View, event
from game.engine.search import SearchSettings

from . import hard

from .data import CHARACTER_IDS, CHARACTERS, DATA, DIFFICULTIES, ENDINGS, LAYOUT, TILES, TRAPS
from .kernel import Cell, distances, neighbours, steps_between, steps_towards

__all__ = ["MothershipController", "ending_key"]

AP_PER_ROUND: int = DATA["action_points"]
MIN_AP: int = DATA["minimum_action_points"]
PLACES: int = DATA["tracker"]["places"]
#: Effects an Assist removes.
ASSISTABLE = ("freeze", "confuse", "fear")
#: Action type -> the character whose ability it is.
ABILITIES = {"skip": "mage", "far_peek": "ranger", "sneak": "thief", "disarm": "tinkerer",
             "break_free": "knight"}
ORDINAL = {1: "one", 2: "two", 3: "three"}
#: The Hard player's search (``hard.py``): playouts per decision, Normal actions in each
#: (about three rounds of two seats) and choices compared (Normal's first).
SEARCH_PLAYOUTS = 64
SEARCH_DEPTH = 24
SEARCH_CHOICES = 4


def ending_key(escaped: int, seats: int) -> str:
    """Which ending to read: ``none``, ``one``, ``two``, ``three`` or ``all``.

    >>> ending_key(2, 2), ending_key(2, 4), ending_key(0, 3)
    ('all', 'two', 'none')
    """
    if escaped == 0:
        return "none"
    return "all" if escaped == seats else ORDINAL[escaped]


def _cell(value: Any) -> Cell | None:
    """A cell from an action's ``[x, y]``, or None when it is not one."""
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return (value[0], value[1])
    return None


def _plain(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


class MothershipController(Controller):
    """Two to four adventurers against the hyperdrive."""

    game_id = "mothership"
    title = "TRAP: Mothership Fantasia"
    rules_version = 1
    min_seats, max_seats = 2, 4
    has_secrets = False
    board = "mothership.tmx"
    options = (
        Option("difficulty", "Difficulty", "easy", choices=("easy", "medium", "hard"),
               help="Easy: 23 safe, 8 traps, 2 generators. Medium: 19/10/4. Hard: 15/12/6."),
    )

    def __init__(self, seats: list[dict[str, str]], options: dict[str, Any], rng: Rng) -> None:
        super().__init__(seats, options, rng)
        n = len(seats)
        self.difficulty: str = options["difficulty"]
        level = DIFFICULTIES[self.difficulty]
        box = DATA["box"]
        safe = ["safe"] * box["safe"]
        objectives = ["objective"] * box["objective"]
        traps = [kind for kind in TRAPS for _ in range(box["traps"][kind])]
        for pile in (safe, objectives, traps):
            rng.shuffle(pile)
        laid = (safe[:level["safe"]] + traps[:level["trap"]]
                + objectives[:level["objective"]])
        rng.shuffle(laid)
        pile_safe, pile_trap = DATA["draw_pile"]["safe"], DATA["draw_pile"]["trap"]
        draw = (safe[level["safe"]:level["safe"] + pile_safe]
                + traps[level["trap"]:level["trap"] + pile_trap])
        rng.shuffle(draw)
        #: Tiles still in the box (never used): counted, never shown.
        self.box_left = (len(safe) - level["safe"] - pile_safe
                         + len(traps) - level["trap"] - pile_trap
                         + len(objectives) - level["objective"])
        self.objectives_total = level["objective"]
        self.tiles: dict[Cell, dict[str, Any]] = {
            cell: {"kind": kind, "up": False, "done": False, "disarmed_until": None}
            for cell, kind in zip(LAYOUT.tile_spaces, laid)}
        #: Tile spaces whose tile is gone for good (jettisoned, or no tile to refill).
        self.holes: set[Cell] = set()
        #: Mystery tiles lifted off the board: space -> seat and last round out.
        self.lifted: dict[Cell, dict[str, int]] = {}
        self.draw_pile: list[str] = draw
        self.tokens: dict[str, int] = {k: v for k, v in DATA["tokens"].items()}
        self.phase = "characters"
        self.round = 1
        self.place: int = DATA["tracker"]["start_place"][n]
        self.characters: list[str | None] = [None] * n
        self.pos: list[Cell] = [LAYOUT.start] * n
        self.ap = [0] * n
        self.sever = [0] * n
        self.blind = [False] * n
        self.confused = [False] * n
        self.afraid = [False] * n
        #: Round a seat was frozen in (None: not frozen).
        self.frozen: list[int | None] = [None] * n
        self.corroded = [False] * n
        self.escaped = [False] * n
        self.escape_round: list[int | None] = [None] * n
        self.ability_round: list[int | None] = [None] * n
        self.stage = "main"
        self.queue: list[int] = []
        self.deferred: list[int] = []
        self.current: int | None = None
        self.end_reason: str | None = None
        #: Where each seat began its latest turn and the turn before (public: everyone
        #: watched it walk).  Derived from the actions, so not part of the snapshot.
        self.turn_from: list[Cell] = [LAYOUT.start] * n
        self.came_from: list[Cell] = [LAYOUT.start] * n
        #: What every player has seen of the tiles, for the Hard player's redraw (public, and
        #: derived from the actions like ``turn_from``): tiles turned face up so far, by
        #: kind; those of them that came from the draw pile; and the face-down spaces
        #: refilled from the draw pile.
        self.seen: dict[str, int] = {}
        self.pile_seen: dict[str, int] = {}
        self.from_pile: set[Cell] = set()

    # --------------------------------------------------------------- geometry
    def tile_at(self, cell: Cell) -> dict[str, Any] | None:
        """The tile lying on ``cell`` (face up or down), or None."""
        return self.tiles.get(cell)

    def standable(self, cell: Cell, finish: bool = False) -> bool:
        """Whether a character may stand on ``cell`` now (the finish only when asked)."""
        if cell == LAYOUT.start:
            return True
        if cell == LAYOUT.finish:
            return finish
        return cell in self.tiles

    def finish_open(self) -> bool:
        return self.objectives_done() == self.objectives_total

    def objectives_done(self) -> int:
        return sum(1 for t in self.tiles.values() if t["kind"] == "objective" and t["done"])

    def face_down(self) -> list[Cell]:
        return sorted(c for c, t in self.tiles.items() if not t["up"])

    def pull(self, seat: int) -> list[Cell] | None:
        """The moves a confused or afraid seat is limited to (None: no limit).

        Afraid: a step on a shortest way (through tiles, around gaps) to the
        start tile; confused: a step on a shortest way to the nearest face-down
        tile; both: a step that does both.  An empty list means no such step
        exists: the seat may only defer or end its turn until assisted.
        """
        if not (self.afraid[seat] or self.confused[seat]):
            return None
        here = self.pos[seat]
        allowed: set[Cell] | None = None
        if self.afraid[seat]:
            dist = distances([LAYOUT.start], lambda c: c in self.tiles)
            allowed = set(steps_towards(here, dist, self.standable) or [])
        if self.confused[seat]:
            dist = distances(self.face_down(), lambda c: c == LAYOUT.start or (
                c in self.tiles and self.tiles[c]["up"]))
            steps = set(steps_towards(here, dist, self.standable) or [])
            allowed = steps if allowed is None else allowed & steps
        return sorted(allowed or [])

    def leave_cost(self, seat: int) -> int:
        """Extra AP to leave the current space (an armed Corrode tile)."""
        if not self.corroded[seat] or self.characters[seat] == "barbarian":
            return 0
        tile = self.tile_at(self.pos[seat])
        if tile is None or tile["kind"] != "corrode" or self._disarmed(tile):
            return 0
        return 1

    def _disarmed(self, tile: dict[str, Any]) -> bool:
        until = tile["disarmed_until"]
        return until is not None and until >= self.round

    def ap_per_round(self, seat: int) -> int:
        return max(MIN_AP, AP_PER_ROUND - self.sever[seat])

    # ------------------------------------------------------------ whose turn
    def to_act(self) -> list[int]:
        if self.phase == "characters":
            return [self.characters.index(None)]
        if self.phase == "play" and self.current is not None:
            return [self.current]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        if self.phase == "characters":
            return [{"type": "choose", "character": c} for c in CHARACTER_IDS
                    if c not in self.characters]
        here = self.pos[seat]
        near = [n for n in neighbours(here)]
        candidates: list[Action] = [{"type": "move", "to": _plain(n)} for n in near]
        candidates += [{"type": "peek", "at": _plain(n)} for n in near]
        candidates += [{"type": "assist", "seat": s} for s in range(len(self.seats))
                       if s != seat]
        candidates += [{"type": "deactivate"}, {"type": "defer"}]
        ability = CHARACTERS[self.characters[seat]]["ability"]
        x, y = here
        if ability == "skip":
            candidates += [{"type": "skip", "to": [x + 2 * dx, y + 2 * dy]}
                           for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))]
        elif ability == "far_peek":
            candidates += [{"type": "far_peek", "at": _plain(c)} for c in self.face_down()
                           if steps_between(here, c) <= CHARACTERS["ranger"]["range"]]
        elif ability in ("sneak", "disarm"):
            key = "to" if ability == "sneak" else "at"
            candidates += [{"type": ability, key: _plain(n)} for n in near]
        elif ability == "break_free":
            candidates.append({"type": "break_free"})
        candidates.append({"type": "end"})
        legal = []
        for action in candidates:
            try:
                self._check(seat, action)
            except IllegalAction:
                continue
            legal.append(action)
        return legal

    def refusal(self, seat: int, action: Action) -> str | None:
        """The reason ``action`` would be refused now (None: it is legal)."""
        if seat not in self.to_act():
            return "It is not your turn."
        try:
            self._check(seat, action)
        except IllegalAction as err:
            return err.reason
        return None

    def why_not(self, seat: int, kind: str) -> str | None:
        """Why ``seat`` cannot take any action of ``kind`` now (None: some such action is
        legal): the refusal a player would get, for a disabled button's tooltip.

        For actions with a target the refusal of the most telling target is given: a
        space one could stand on (or a companion in trouble) before bare hull.
        """
        if seat not in self.to_act():
            return "It is not your turn."
        here = self.pos[seat]
        x, y = here
        targets: list[Action]
        if kind in ("move", "sneak"):
            targets = [{"type": kind, "to": _plain(n)} for n in neighbours(here)]
        elif kind in ("peek", "disarm"):
            targets = [{"type": kind, "at": _plain(n)} for n in neighbours(here)]
        elif kind == "skip":
            targets = [{"type": kind, "to": [x + 2 * dx, y + 2 * dy]}
                       for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))]
        elif kind == "far_peek":
            targets = [{"type": kind, "at": _plain(c)} for c in LAYOUT.tile_spaces
                       if steps_between(here, c) <= CHARACTERS["ranger"]["range"]]
        elif kind == "assist":
            targets = [{"type": kind, "seat": s} for s in range(len(self.seats))
                       if s != seat and not self.escaped[s]]
        else:
            targets = [{"type": kind}]

        def telling(action: Action) -> int:
            if action["type"] == "assist":
                other = action["seat"]
                near = self.pos[other] == here or self.pos[other] in neighbours(here)
                return -2 * bool(self._troubles(other)) - near
            cell = _cell(action.get("to", action.get("at")))
            if action["type"] in ("peek", "far_peek", "disarm"):
                tile = self.tile_at(cell) if cell else None
                return 0 if tile is not None else 1
            return 0 if cell is not None and self.standable(cell, finish=True) else 1

        reasons = []
        for action in sorted(targets, key=telling):
            try:
                self._check(seat, action)
            except IllegalAction as err:
                reasons.append(err.reason)
                continue
            return None
        if kind == "assist" and not any(self._troubles(s) for s in range(len(self.seats))
                                        if s != seat):
            return "Nobody is frozen, confused or afraid."
        return reasons[0] if reasons else "There is nothing to do that to."

    # ---------------------------------------------------------------- checks
    def _check(self, seat: int, action: Action) -> int:
        """Validate ``action`` completely; return its AP cost or raise a refusal."""
        kind = action.get("type")
        if self.phase == "over":
            raise self.refuse("The game is over.")
        if self.phase == "characters":
            if kind != "choose":
                raise self.refuse("First every seat chooses a character.")
            choice = action.get("character")
            if choice not in CHARACTER_IDS:
                raise self.refuse("Choose one of: " + ", ".join(CHARACTERS[c]["name"]
                                                                for c in CHARACTER_IDS) + ".")
            if choice in self.characters:
                raise self.refuse(f"The {CHARACTERS[choice]['name']} is already taken.")
            return 0
        checker = {
            "move": self._check_move, "peek": self._check_peek, "assist": self._check_assist,
            "defer": self._check_defer, "deactivate": self._check_deactivate,
            "skip": self._check_ability, "far_peek": self._check_ability,
            "sneak": self._check_ability, "disarm": self._check_ability,
            "break_free": self._check_ability, "end": lambda s, a: 0,
        }.get(kind)
        if checker is None:
            raise self.refuse(f"'{kind}' is not an action of this game.")
        if kind not in ("end", "defer", "move"):
            self._not_pulled(seat, kind)
        cost = checker(seat, action)
        if cost > self.ap[seat]:
            if kind in ("move", "skip", "sneak") and self.leave_cost(seat):
                raise self.refuse(f"Leaving this Corrode tile costs 1 AP more: that needs "
                                  f"{cost} AP and you have {self.ap[seat]}.")
            raise self.refuse(f"That needs {cost} AP and you have {self.ap[seat]}.")
        return cost

    def _pulled_by(self, seat: int) -> str:
        """What pulls a seat, in words ("afraid", "confused" or both)."""
        return " and ".join(w for w, on in (("afraid", self.afraid[seat]),
                                            ("confused", self.confused[seat])) if on)

    def _pull_goal(self, seat: int) -> str:
        goals = [g for g, on in (("the start tile", self.afraid[seat]),
                                 ("the nearest face-down tile", self.confused[seat])) if on]
        return " and ".join(goals)

    def _not_pulled(self, seat: int, kind: str) -> None:
        if self.pull(seat) is not None:
            raise self.refuse(f"You are {self._pulled_by(seat)}: you may only defer, end your "
                              f"turn or move along a shortest way to {self._pull_goal(seat)}.")

    def _target(self, action: Action, key: str) -> Cell:
        cell = _cell(action.get(key))
        if cell is None:
            raise self.refuse(f"Say which space: '{key}' must be [x, y].")
        return cell

    def _check_step(self, seat: int, to: Cell, what: str) -> None:
        """Common checks for anything that moves the seat onto ``to``."""
        if self.frozen[seat] is not None:
            raise self.refuse("You are frozen and cannot move until someone assists you"
                              + (" (or you break free)." if self.characters[seat] == "knight"
                                 else "."))
        if to == LAYOUT.finish and not self.finish_open():
            left = self.objectives_total - self.objectives_done()
            raise self.refuse(f"The escape pod is locked: {left} generator"
                              f"{'s are' if left > 1 else ' is'} still running.")
        if not self.standable(to, finish=True):
            raise self.refuse(f"You cannot {what} there: it is not a tile you can stand on.")

    def _check_move(self, seat: int, action: Action) -> int:
        to = self._target(action, "to")
        if to not in neighbours(self.pos[seat]):
            raise self.refuse("Move one space up, down, left or right (not diagonally).")
        self._check_step(seat, to, "move")
        pull = self.pull(seat)
        if pull is not None and to not in pull:
            if not pull:
                raise self.refuse(f"You are {self._pulled_by(seat)} and no way leads to "
                                  f"{self._pull_goal(seat)}: defer or end your turn until "
                                  f"someone assists you.")
            raise self.refuse(f"You are {self._pulled_by(seat)}: you may only step along a "
                              f"shortest way to {self._pull_goal(seat)}.")
        return 1 + self.leave_cost(seat)

    def _check_peek(self, seat: int, action: Action) -> int:
        at = self._target(action, "at")
        if at not in neighbours(self.pos[seat]):
            raise self.refuse("Peek at a tile next to you (not diagonally).")
        self._check_peekable(seat, at)
        return 1

    def _check_peekable(self, seat: int, at: Cell) -> None:
        if self.blind[seat]:
            raise self.refuse("You are blind and can no longer peek.")
        tile = self.tile_at(at)
        if tile is None or tile["up"]:
            raise self.refuse("There is no face-down tile there to peek at.")

    def _check_assist(self, seat: int, action: Action) -> int:
        other = action.get("seat")
        if isinstance(other, bool) or not isinstance(other, int) or not (
                0 <= other < len(self.seats)) or other == seat:
            raise self.refuse("Assist another player: say which seat.")
        if self.escaped[other]:
            raise self.refuse(f"{self.name(other)} has already escaped.")
        there = self.pos[other]
        if there != self.pos[seat] and there not in neighbours(self.pos[seat]):
            raise self.refuse(f"{self.name(other)} is not next to you.")
        if not self._troubles(other):
            raise self.refuse(f"{self.name(other)} is not frozen, confused or afraid.")
        return 1

    def _troubles(self, seat: int) -> list[str]:
        return [name for name, on in (("freeze", self.frozen[seat] is not None),
                                      ("confuse", self.confused[seat]),
                                      ("fear", self.afraid[seat])) if on]

    def _check_defer(self, seat: int, action: Action) -> int:
        if self.stage != "main":
            raise self.refuse("You already deferred: spend what you kept or end your turn.")
        if self.ap[seat] < 2:
            raise self.refuse("Deferring costs 1 AP and keeps the rest; you need at least 2 AP.")
        return 1

    def _check_deactivate(self, seat: int, action: Action) -> int:
        tile = self.tile_at(self.pos[seat])
        if tile is None or tile["kind"] != "objective":
            raise self.refuse("Stand on a generator (objective tile) to deactivate it.")
        if tile["done"]:
            raise self.refuse("This generator is already deactivated.")
        return 1

    def _check_ability(self, seat: int, action: Action) -> int:
        kind = action["type"]
        owner = ABILITIES[kind]
        me = self.characters[seat]
        if me != owner:
            raise self.refuse(f"Only the {CHARACTERS[owner]['name']} can do that.")
        data = CHARACTERS[me]
        if data.get("once_per_round") and self.ability_round[seat] == self.round:
            raise self.refuse(f"The {data['name']}'s ability is used once a round; "
                              f"it is spent this round.")
        here = self.pos[seat]
        cost = data["cost"]
        if kind == "skip":
            to = self._target(action, "to")
            dx, dy = to[0] - here[0], to[1] - here[1]
            if sorted((abs(dx), abs(dy))) != [0, 2]:
                raise self.refuse("The Mage skips exactly two spaces in a straight line.")
            middle = (here[0] + dx // 2, here[1] + dy // 2)
            if middle not in LAYOUT.walkable() and middle not in LAYOUT.gaps:
                raise self.refuse("The Mage skips over one tile or one gap, nothing else.")
            self._check_step(seat, to, "skip")
            return cost + self.leave_cost(seat)
        if kind == "sneak":
            to = self._target(action, "to")
            if to not in neighbours(here):
                raise self.refuse("The Thief sneaks onto a tile next to you.")
            self._check_step(seat, to, "sneak")
            tile = self.tile_at(to)
            if tile is None:
                raise self.refuse("The Thief sneaks onto tiles only.")
            if tile["up"] and tile["kind"] not in TRAPS:
                raise self.refuse("That tile holds no trap: just move there.")
            return cost + self.leave_cost(seat)
        if kind == "far_peek":
            at = self._target(action, "at")
            if steps_between(here, at) > data["range"]:
                raise self.refuse(f"The Ranger peeks at most {data['range']} steps away.")
            self._check_peekable(seat, at)
            return cost
        if kind == "disarm":
            at = self._target(action, "at")
            if at not in neighbours(here):
                raise self.refuse("The Tinkerer disarms a trap next to you.")
            tile = self.tile_at(at)
            if tile is None or not tile["up"] or tile["kind"] not in TRAPS:
                raise self.refuse("Only a face-up trap can be disarmed.")
            if self._disarmed(tile):
                raise self.refuse("That trap is already disarmed.")
            return cost
        # break_free
        if self.frozen[seat] is None:
            raise self.refuse("You are not frozen.")
        if self.frozen[seat] >= self.round:
            raise self.refuse("The Knight can break free only from the round after the freeze.")
        return cost

    # --------------------------------------------------------------- actions
    def apply(self, seat: int, action: Action) -> list[Event]:
        cost = self._check(seat, action)
        kind = action["type"]
        if kind == "choose":
            return self._choose(seat, action["character"])
        self.ap[seat] -= cost
        who = self.label(seat)
        if kind == "end":
            left = self.ap[seat]
            text = f"{who} ends their turn" + (f", leaving {left} AP unspent." if left else ".")
            return [event("end", text, seat=seat), *self._next_turn(seat)]
        if kind == "defer":
            self.deferred.append(seat)
            events = [event("defer", f"{who} defers, keeping {self.ap[seat]} AP for the end "
                                     f"of the round.", seat=seat)]
            return events + self._next_turn(seat, deferred=True)
        handler = {"move": self._do_move, "peek": self._do_peek, "assist": self._do_assist,
                   "deactivate": self._do_deactivate, "skip": self._do_move,
                   "sneak": self._do_move, "far_peek": self._do_peek,
                   "disarm": self._do_disarm, "break_free": self._do_break_free}[kind]
        if kind in ABILITIES:
            self.ability_round[seat] = self.round
        events = handler(seat, action)
        events += self._settle()
        if not self.is_over() and (self.escaped[seat] or self.ap[seat] == 0):
            events += self._next_turn(seat)
        return events

    def label(self, seat: int) -> str:
        char = self.characters[seat]
        return f"{self.name(seat)} ({CHARACTERS[char]['name']})" if char else self.name(seat)

    def _choose(self, seat: int, character: str) -> list[Event]:
        self.characters[seat] = character
        events = [event("choose", f"{self.name(seat)} plays the {CHARACTERS[character]['name']}.",
                        seat=seat, character=character)]
        if None not in self.characters:
            self.phase = "play"
            events.append(event("round", f"Round 1 begins with the round tracker at place "
                                         f"{self.place} of {PLACES}: {PLACES - self.place} "
                                         f"rounds to escape.", round=1, place=self.place))
            events += self._start_round()
        return events

    def _do_move(self, seat: int, action: Action) -> list[Event]:
        to = _cell(action["to"])
        here = self.pos[seat]
        kind = action["type"]
        verb = {"move": "moves", "skip": "skips", "sneak": "sneaks"}[kind]
        self.corroded[seat] = False
        self.pos[seat] = to
        tile = self.tile_at(to)
        flipped = tile is not None and not tile["up"]
        if flipped:
            # One line says both what happened and what the tile turned out to be.
            self._turn_up(to)
            name = TILES[tile["kind"]]["name"]
            text = (f"{self.label(seat)} {verb} onto a face-down tile: it is "
                    f"{_article(name)} {name} tile.")
            extra = {"tile": tile["kind"], "reveal": True}
        else:
            text = f"{self.label(seat)} {verb} to {self.describe(to)}."
            extra = {}
        events = [event("move", text, seat=seat, origin=_plain(here), target=_plain(to),
                        how=kind, **extra)]
        return events + self._enter(seat, to, here, sneak=kind == "sneak", flipped=flipped)

    def describe(self, cell: Cell) -> str:
        """A public name for a space ("the start tile", "a face-down tile", ...)."""
        if cell == LAYOUT.start:
            return "the start tile"
        if cell == LAYOUT.finish:
            return "the escape pod"
        tile = self.tile_at(cell)
        if tile is None:
            return "a gap"
        if not tile["up"]:
            return "a face-down tile"
        return f"the {TILES[tile['kind']]['name']} tile"

    def _enter(self, seat: int, to: Cell, came_from: Cell, sneak: bool,
               flipped: bool = False) -> list[Event]:
        who = self.label(seat)
        if to == LAYOUT.finish:
            self.escaped[seat] = True
            self.escape_round[seat] = self.round
            self.ap[seat] = 0
            for effect in ("confuse", "fear", "freeze"):
                self._clear(seat, effect)
            return [event("escape", f"{who} reaches the escape pod and is safe!", seat=seat)]
        if to == LAYOUT.start:
            return self._calm(seat)
        tile = self.tiles[to]
        events = []
        if flipped and tile["kind"] == "mystery":
            return events + self._lift(seat, to, came_from)
        if sneak:
            if tile["kind"] in TRAPS:
                events.append(event("sneak", f"{who} slips past the "
                                             f"{TILES[tile['kind']]['name']} trap without "
                                             f"setting it off.", seat=seat, cell=_plain(to)))
            return events
        if self._disarmed(tile):
            events.append(event("safe", f"The {TILES[tile['kind']]['name']} trap is disarmed: "
                                        f"nothing happens.", seat=seat, cell=_plain(to)))
            return events
        return events + self._trigger(seat, to, tile["kind"])

    def _flip(self, seat: int, cell: Cell, how: str) -> Event:
        tile = self.tiles[cell]
        self._turn_up(cell)
        name = TILES[tile["kind"]]["name"]
        text = f"{self.label(seat)} {how} a face-down tile: it is {_article(name)} {name} tile."
        return event("flip", text, seat=seat, cell=_plain(cell), tile=tile["kind"],
                     reveal=True)

    def _turn_up(self, cell: Cell) -> None:
        """Turn a face-down tile face up, counting what everyone has now seen."""
        tile = self.tiles[cell]
        tile["up"] = True
        kind = tile["kind"]
        self.seen[kind] = self.seen.get(kind, 0) + 1
        if cell in self.from_pile:
            self.from_pile.discard(cell)
            self.pile_seen[kind] = self.pile_seen.get(kind, 0) + 1

    def _lift(self, seat: int, cell: Cell, back_to: Cell | None) -> list[Event]:
        del self.tiles[cell]
        self.lifted[cell] = {"seat": seat, "until": self.round + 1}
        text = (f"The Mystery tile lifts off into {self.name(seat)}'s area for this round and "
                f"the next; its space is a gap until round {self.round + 1} is over.")
        events = [event("trap", text, seat=seat, cell=_plain(cell), trap="mystery")]
        if back_to is not None and self.pos[seat] == cell:
            self.pos[seat] = back_to
            events.append(event("move", f"{self.label(seat)} steps back to "
                                        f"{self.describe(back_to)}.", seat=seat,
                                origin=_plain(cell), target=_plain(back_to), how="back"))
        return events

    def _trigger(self, seat: int, cell: Cell, kind: str) -> list[Event]:
        """A trap acts on ``seat`` who has just walked onto it."""
        who, char = self.label(seat), self.characters[seat]
        name = TILES[kind]["name"]

        def trap(text: str, **data: Any) -> Event:
            return event("trap", text, seat=seat, cell=_plain(cell), trap=kind, **data)

        if kind in ("safe", "objective"):
            return []
        if kind in CHARACTERS[char]["immune"]:
            return [trap(f"The {name} trap has no hold on the {CHARACTERS[char]['name']}: "
                         f"{self.name(seat)} is immune.", immune=True)]
        if kind == "corrode":
            if char == "barbarian":
                return [trap(f"{who} wades into Corrode acid; the Barbarian will leave it at "
                             f"no extra cost.")]
            self.corroded[seat] = True
            return [trap(f"{who} is stuck in Corrode acid: leaving this tile costs 1 AP more.")]
        if kind == "jettison":
            return self._jettison(seat, cell)
        if kind == "freeze":
            if self.frozen[seat] is None and not self._take("freeze"):
                return [trap("The Freeze trap fizzles: no freeze token is left.")]
            self.frozen[seat] = self.round
            return [trap(f"{who} is frozen: no moving for the rest of round {self.round} and "
                         f"all of round {self.round + 1}, unless someone assists"
                         + (" (or the Knight breaks free next round)." if char == "knight"
                            else "."))]
        if kind == "blind":
            if self.blind[seat]:
                return [trap(f"{who} is already blind.")]
            if not self._take("blind"):
                return [trap("The Blind trap fizzles: no blind token is left.")]
            self.blind[seat] = True
            return [trap(f"{who} is blinded: no more peeking for the rest of the game.")]
        if kind == "sever":
            if self.ap_per_round(seat) <= MIN_AP or not self._take("sever"):
                return [trap(f"The Sever trap cannot take any more from {self.name(seat)}.")]
            self.sever[seat] += 1
            return [trap(f"{who} is severed: from the next round on, only "
                         f"{self.ap_per_round(seat)} AP a round for the rest of the game.")]
        if kind == "confuse":
            if self.confused[seat]:
                return [trap(f"{who} is already confused.")]
            if not self.face_down():
                return [trap("The Confuse trap flickers, but no face-down tile is left to "
                             "be drawn to.")]
            self._take("confuse")
            self.confused[seat] = True
            return [trap(f"{who} is confused: until assisted (or until every tile is face "
                         f"up), only defer, end the turn or step towards the nearest "
                         f"face-down tile.")]
        # fear
        if self.afraid[seat]:
            return [trap(f"{who} is already afraid.")]
        self._take("fear")
        self.afraid[seat] = True
        return [trap(f"{who} is afraid: until assisted or back on the start tile, only "
                     f"defer, end the turn or step back towards the start tile.")]

    def _take(self, token: str) -> bool:
        if self.tokens[token] <= 0:
            return False
        self.tokens[token] -= 1
        return True

    def _clear(self, seat: int, effect: str) -> bool:
        """End one of a seat's passing effects, returning its token; True if it had it."""
        if effect == "freeze" and self.frozen[seat] is not None:
            self.frozen[seat] = None
        elif effect == "confuse" and self.confused[seat]:
            self.confused[seat] = False
        elif effect == "fear" and self.afraid[seat]:
            self.afraid[seat] = False
        else:
            return False
        self.tokens[effect] += 1
        return True

    def _calm(self, seat: int) -> list[Event]:
        if self._clear(seat, "fear"):
            return [event("calm", f"{self.label(seat)} is back on the start tile and no "
                                  f"longer afraid.", seat=seat, effect="fear")]
        return []

    def _jettison(self, seat: int, cell: Cell) -> list[Event]:
        del self.tiles[cell]
        self.holes.add(cell)
        riders = [s for s in range(len(self.seats)) if self.pos[s] == cell]
        names = " and ".join(self.label(s) for s in riders)
        events = [event("trap", f"Jettison! The tile is blown out into space and its space "
                                f"is a gap for good; {names} "
                                f"{'is' if len(riders) == 1 else 'are'} thrown back to the "
                                f"start tile.", seat=seat, cell=_plain(cell), trap="jettison",
                        riders=riders, target=_plain(LAYOUT.start))]
        for s in riders:
            self.pos[s] = LAYOUT.start
            self.corroded[s] = False
            events += self._calm(s)
        return events

    def _do_peek(self, seat: int, action: Action) -> list[Event]:
        at = _cell(action["at"])
        how = "peeks at" if action["type"] == "peek" else "peeks from afar at"
        events = [self._flip(seat, at, how)]
        if self.tiles[at]["kind"] == "mystery":
            events += self._lift(seat, at, None)
        return events

    def _do_assist(self, seat: int, action: Action) -> list[Event]:
        other = action["seat"]
        cured = [e for e in ASSISTABLE if self._clear(other, e)]
        words = {"freeze": "frozen", "confuse": "confused", "fear": "afraid"}
        return [event("assist", f"{self.label(seat)} assists {self.label(other)}, who is no "
                                f"longer " + " or ".join(words[e] for e in cured) + ".",
                      seat=seat, other=other, effects=cured)]

    def _do_deactivate(self, seat: int, action: Action) -> list[Event]:
        tile = self.tiles[self.pos[seat]]
        tile["done"] = True
        self.tokens["deactivate"] -= 1
        done, total = self.objectives_done(), self.objectives_total
        text = f"{self.label(seat)} deactivates a generator ({done} of {total})."
        events = [event("deactivate", text, seat=seat, cell=_plain(self.pos[seat]),
                        done=done, total=total)]
        if done == total:
            events.append(event("unlock", "Every generator is down: the escape pod is open!"))
        return events

    def _do_disarm(self, seat: int, action: Action) -> list[Event]:
        at = _cell(action["at"])
        tile = self.tiles[at]
        tile["disarmed_until"] = self.round + 1
        name = TILES[tile["kind"]]["name"]
        return [event("disarm", f"{self.label(seat)} disarms the {name} trap until the end of "
                                f"round {self.round + 1}.", seat=seat, cell=_plain(at),
                      until=self.round + 1)]

    def _do_break_free(self, seat: int, action: Action) -> list[Event]:
        self._clear(seat, "freeze")
        return [event("assist", f"{self.label(seat)} breaks out of the ice.", seat=seat,
                      other=seat, effects=["freeze"])]

    def _settle(self) -> list[Event]:
        """Passing effects that end by themselves: confusion with nothing face down."""
        events = []
        if not self.face_down():
            for s in range(len(self.seats)):
                if self._clear(s, "confuse"):
                    events.append(event("calm", f"Every tile is face up: {self.label(s)} is "
                                                f"no longer confused.", seat=s,
                                        effect="confuse"))
        if all(self.escaped):
            events += self._game_over("escaped")
        return events

    # ------------------------------------------------------------ turn order
    def _start_round(self) -> list[Event]:
        self.stage = "main"
        self.deferred = []
        self.queue = [s for s in range(len(self.seats)) if not self.escaped[s]]
        for s in self.queue:
            self.ap[s] = self.ap_per_round(s)
        self.current = self.queue.pop(0)
        self._begin_turn()
        return []

    def _turn_event(self) -> Event:
        """The log line for a deferred seat coming back (every other line names its actor)."""
        seat = self.current
        assert seat is not None
        return event("turn", f"{self.label(seat)} comes back to spend the {self.ap[seat]} AP "
                             f"they kept.", seat=seat, ap=self.ap[seat], stage=self.stage)

    def _next_turn(self, seat: int, deferred: bool = False) -> list[Event]:
        if self.is_over():
            return []
        if self.stage == "main" and self.queue:
            self.current = self.queue.pop(0)
            self._begin_turn()
            return []
        if self.deferred:
            self.stage = "deferred"
            self.current = self.deferred.pop(0)
            if self.escaped[self.current]:
                return self._next_turn(self.current)
            self._begin_turn()
            return [self._turn_event()]
        return self._end_round()

    def _turn_ahead(self, seat: int) -> bool:
        """Whether ``seat`` still acts this round (AP of a finished turn are lost)."""
        return self.phase == "play" and (seat == self.current or seat in self.queue
                                         or seat in self.deferred)

    def _begin_turn(self) -> None:
        seat = self.current
        assert seat is not None
        self.came_from[seat] = self.turn_from[seat]
        self.turn_from[seat] = self.pos[seat]

    def _end_round(self) -> list[Event]:
        events = []
        ending = self.round
        for s in range(len(self.seats)):
            self.ap[s] = 0
            if self.frozen[s] is not None and self.frozen[s] + 1 <= ending:
                self._clear(s, "freeze")
                events.append(event("calm", f"{self.label(s)} thaws out.", seat=s,
                                    effect="freeze"))
        for cell, tile in sorted(self.tiles.items()):
            if tile["disarmed_until"] == ending:
                tile["disarmed_until"] = None
                events.append(event("rearm", f"The {TILES[tile['kind']]['name']} trap is armed "
                                             f"again.", cell=_plain(cell)))
        for cell, lift in sorted(self.lifted.items()):
            if lift["until"] == ending:
                del self.lifted[cell]
                if self.draw_pile:
                    self.tiles[cell] = {"kind": self.draw_pile.pop(0), "up": False,
                                        "done": False, "disarmed_until": None}
                    self.from_pile.add(cell)
                    text = ("The Mystery tile leaves play; a tile from the draw pile fills its "
                            f"space face down ({len(self.draw_pile)} left in the pile).")
                else:
                    self.holes.add(cell)
                    text = "The Mystery tile leaves play; the draw pile is empty, so its space " \
                           "stays a gap."
                events.append(event("refill", text, cell=_plain(cell),
                                    filled=cell in self.tiles))
        self.place += 1
        last = self.place >= PLACES
        left = PLACES - self.place
        events.append(event("tracker", f"End of round {ending}: the round tracker moves down to "
                                       f"place {self.place} of {PLACES}"
                                       + (": the hyperdrive fires!" if last else
                                          f" ({left} round{'s' if left > 1 else ''} left)."),
                            place=self.place, round=ending))
        if last:
            return events + self._game_over("tracker")
        self.round += 1
        return events + self._start_round()

    def _game_over(self, reason: str) -> list[Event]:
        if self.phase == "over":
            return []
        self.phase = "over"
        self.current = None
        self.end_reason = reason
        result = self.result()
        assert result is not None
        return [event("over", result["headline"], ending=result["ending"],
                      escaped=result["escaped"])]

    # ---------------------------------------------------------------- views
    def view(self, seat: int | None) -> View:
        spaces = []
        for cell in LAYOUT.tile_spaces:
            tile = self.tiles.get(cell)
            if tile is not None:
                up = tile["up"]
                spaces.append({"cell": _plain(cell), "state": "up" if up else "down",
                               "kind": tile["kind"] if up else None,
                               "done": tile["done"] if up else False,
                               "disarmed_until": tile["disarmed_until"] if up else None})
            elif cell in self.lifted:
                spaces.append({"cell": _plain(cell), "state": "lifted", "kind": "mystery",
                               "done": False, "disarmed_until": None,
                               "lifted_by": self.lifted[cell]["seat"],
                               "until": self.lifted[cell]["until"]})
            else:
                spaces.append({"cell": _plain(cell), "state": "gap", "kind": None,
                               "done": False, "disarmed_until": None})
        seats = []
        for s, info in enumerate(self.seats):
            char = self.characters[s]
            seats.append({
                "seat": s, "name": info["name"], "kind": info["kind"], "character": char,
                "cell": _plain(self.pos[s]), "ap": self.ap[s] if self._turn_ahead(s) else 0,
                "ap_per_round": self.ap_per_round(s), "sever": self.sever[s],
                "blind": self.blind[s], "confused": self.confused[s], "afraid": self.afraid[s],
                "frozen": self.frozen[s] is not None, "frozen_in": self.frozen[s],
                "corroded": self.leave_cost(s) > 0, "escaped": self.escaped[s],
                "escape_round": self.escape_round[s],
                "deferred": s in self.deferred,
                "turn_from": _plain(self.turn_from[s]), "came_from": _plain(self.came_from[s]),
                "ability_used": (char is not None and bool(CHARACTERS[char].get("once_per_round"))
                                 and self.ability_round[s] == self.round),
                "lifted": [_plain(c) for c, lift in sorted(self.lifted.items())
                           if lift["seat"] == s],
            })
        pull = None
        if self.phase == "play" and self.current is not None:
            steps = self.pull(self.current)
            pull = None if steps is None else [_plain(c) for c in steps]
        return {
            "game": self.game_id, "phase": self.phase, "viewer": seat,
            "difficulty": self.difficulty, "round": self.round,
            "tracker": {"place": self.place, "places": PLACES, "red_from": LAYOUT.red_from},
            "current": self.current, "stage": self.stage, "to_act": self.to_act(),
            "waiting": list(self.queue), "deferred": list(self.deferred),
            "spaces": spaces, "start": _plain(LAYOUT.start), "finish": _plain(LAYOUT.finish),
            "finish_open": self.finish_open(),
            "objectives": {"done": self.objectives_done(), "total": self.objectives_total},
            "draw_pile": len(self.draw_pile), "tokens": dict(self.tokens),
            "seats": seats, "free_characters": [c for c in CHARACTER_IDS
                                                if c not in self.characters],
            "pull": pull, "result": self.result(),
        }

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        escaped = [s for s in range(len(self.seats)) if self.escaped[s]]
        key = ending_key(len(escaped), len(self.seats))
        if key == "all":
            headline = "Everyone escaped: the band is going home!"
        elif key == "none":
            headline = "Nobody escaped before the hyperdrive fired."
        else:
            headline = (f"{len(escaped)} of {len(self.seats)} escaped before the hyperdrive "
                        f"fired.")
        return {
            "ending": key, "ending_text": ENDINGS[key], "headline": headline,
            "escaped": escaped, "won": key == "all",
            # A cooperative game: the crew wins together when everyone escaped.
            "winners": list(range(len(self.seats))) if key == "all" else [],
            "scores": [1 if self.escaped[s] else 0 for s in range(len(self.seats))],
            "characters": list(self.characters),
            "escape_rounds": list(self.escape_round),
            "objectives_done": self.objectives_done(), "objectives_total": self.objectives_total,
            "rounds_played": self.round, "place": self.place, "reason": self.end_reason,
            "difficulty": self.difficulty,
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "round": self.round, "place": self.place,
            "tiles": [[_plain(c), dict(t)] for c, t in sorted(self.tiles.items())],
            "holes": [_plain(c) for c in sorted(self.holes)],
            "lifted": [[_plain(c), dict(v)] for c, v in sorted(self.lifted.items())],
            "draw_pile": list(self.draw_pile), "box_left": self.box_left,
            "tokens": dict(self.tokens), "characters": list(self.characters),
            "pos": [_plain(c) for c in self.pos], "ap": list(self.ap),
            "sever": list(self.sever), "blind": list(self.blind),
            "confused": list(self.confused), "afraid": list(self.afraid),
            "frozen": list(self.frozen), "corroded": list(self.corroded),
            "escaped": list(self.escaped), "escape_round": list(self.escape_round),
            "ability_round": list(self.ability_round), "stage": self.stage,
            "queue": list(self.queue), "deferred": list(self.deferred),
            "current": self.current, "end_reason": self.end_reason,
        }

    def status(self) -> str:
        if self.phase == "characters":
            seat = self.characters.index(None)
            return f"Choosing characters: {self.name(seat)} chooses"
        if self.phase == "over":
            result = self.result()
            assert result is not None
            return (f"Over after round {self.round}: {len(result['escaped'])} of "
                    f"{len(self.seats)} escaped")
        seat = self.current
        assert seat is not None
        later = ", deferred" if self.stage == "deferred" else ""
        return (f"Round {self.round}, tracker {self.place}/{PLACES}: {self.label(seat)}{later}, "
                f"{self.ap[seat]} AP")

    # ---------------------------------------------------------------- bots
    search_settings = SearchSettings(iterations=SEARCH_PLAYOUTS, rollout_actions=SEARCH_DEPTH,
                                     candidates=SEARCH_CHOICES, work=hard.WORK_BUDGET)

    def determinize(self, seat: int, rng: Rng) -> None:
        """Redraw what nobody has seen: the face-down tiles, the draw pile and the box,
        consistently with every tile seen so far (``hard.determinize``)."""
        hard.determinize(self, seat, rng)

    def evaluate(self, seat: int) -> float:
        """How likely the whole crew escapes, on the search's 0..1 scale (``hard.evaluate``)."""
        return hard.evaluate(self, seat)

    @classmethod
    def policy(cls, view: View, legal: list[Action], rng: Rng) -> Action | None:
        from .bot import choose
        return choose(view, legal, rng)


def _article(word: str) -> str:
    return "an" if word[0].lower() in "aeiou" else "a"
