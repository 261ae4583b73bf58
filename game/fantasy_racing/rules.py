"""Fantasy Racing's rule controller.

A race down a wrap-around grid for 2 to 6 racers over 5 to 15 game turns.
Each seat's turn has three phases: ``objects`` (use at most one magic object,
or roll), ``steps`` (move one square at a time down, down-left or down-right
within the roll) and the resolution of what the move caused (fights, shocks,
recoils, holes, shortcuts, chests).  Resolution runs from an agenda of small
tasks; when a task needs a choice (use a shield, keep a chest object or spend
a clover, the winner's tactical move) the agenda pauses and ``pending`` names
the seat that must answer.  Nothing is hidden: every view is the same.
"""

from __future__ import annotations

from typing import Any

from game.engine import Action, Controller, Event, Option, Rng, View, event
from game.engine.search import SearchSettings

from .data import CHARACTERS, D6, DRAPID, OBJECTS, TRACK, character_line
from .hard import HARD_STYLE, WORK_BUDGET, pick_values, standing

__all__ = ["RacingController", "CHARACTERS", "OBJECTS", "TRACK"]

Cell = tuple[int, int]

D3 = [1, 2, 3]
D10 = list(range(1, 11))
#: 1D10 on a shortcut -> squares moved (negative: back up the track).
SHORTCUT = {1: -4, 2: -3, 3: -2, 4: -1, 5: 1, 6: 2, 7: 3, 8: 4, 9: 5, 10: 5}
POINTS = {"lap": 10, "fight": 3, "overwhelming": 5, "coin": 2, "hole": -2, "shield": -2,
          "purse": 2, "treasure": 1, "crowd": 1}
#: After this many fights in one seat's turn, arrivals no longer start fights.
MAX_FIGHTS = 6
#: The theft die: a roll at or under the chance succeeds.
THEFT_CHANCE = {"steal_on_win": 50, "gloves": 50, "gloves_nimble": 75}
HASTE = 2
MOODS = ("bonus", "even", "malus")
MOOD_WORDS = {"bonus": "the bonus column", "even": "the even column",
              "malus": "the malus column"}
ITEM_WORDS = {"clover": "a clover", "shield": "a shield", "coin": "a gold coin",
              "chest": "a chest"}
STEP_WORDS = {-1: "down-left", 0: "down", 1: "down-right"}
LINE4 = ((0, 1), (0, -1), (-1, 0), (1, 0))
LINE8 = LINE4 + ((1, 1), (-1, 1), (1, -1), (-1, -1))
STOP_WORDS = {"start": "the start line (no racer is pushed back across it)",
              "barrier": "the barrier behind", "rock": "the rock behind"}
STOP_NOUNS = {"start": "the start line", "barrier": "a barrier", "rock": "a rock"}
DIR_WORDS = {(0, 1): "down", (0, -1): "up", (-1, 0): "left", (1, 0): "right"}
#: The Hard player's playouts per decision, and the actions each plays before the estimate.
#: 300 playouts won 1.52x its fair share against Normal over 100 two-seat games (seeds 1-40
#: and 1001-1060); 150 won 1.37x on the same seeds.  Decisions: p95 0.9-1.3 s, at most 2.9 s,
#: measured with three such jobs sharing two cores.
#: Since the work budget (``hard.WORK_BUDGET``), this is only a cap far above what the budget
#: pays for (about 300 playouts), so the budget alone bounds a decision.
SEARCH_PLAYOUTS = 600
SEARCH_DEPTH = 16


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cell(value: Any) -> Cell | None:
    """A [x, y] pair from an action, or None."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(_is_int(v) for v in value):
        return int(value[0]), int(value[1])
    return None


def respawn_turns(turns: int) -> list[int]:
    """The turns at whose start every object and chest comes back (every third turn).

    >>> respawn_turns(10)
    [4, 7, 10]
    """
    return list(range(4, turns + 1, 3))


def combat_face(table: dict[str, int], guard: int, roll: int) -> str:
    """The face of the combat die for a d100 ``roll`` (1-100).

    >>> combat_face({"defeat": 30, "simple": 50, "overwhelming": 20}, 0, 30)
    'defeat'
    >>> combat_face({"defeat": 30, "simple": 50, "overwhelming": 20}, 10, 35)
    'defeat'
    >>> combat_face({"defeat": 30, "simple": 50, "overwhelming": 20}, 0, 81)
    'overwhelming'
    """
    defeat = table["defeat"] + guard
    simple = defeat + table["simple"] - guard
    if roll <= defeat:
        return "defeat"
    return "simple" if roll <= simple else "overwhelming"


def object_for(mood: str, roll: int) -> str:
    """The chest object for a d100 ``roll`` on the ``mood`` column of the object table."""
    total = 0
    for key, obj in OBJECTS.items():
        total += obj["weights"][mood]
        if roll <= total:
            return key
    raise ValueError(f"object die roll {roll} is off the table")


class RacingController(Controller):
    """2 to 6 racers, a wrap-around track, fights, shocks and magic objects."""

    game_id = "fantasy_racing"
    title = "Fantasy Racing"
    rules_version = 2
    min_seats = 2
    max_seats = 6
    has_secrets = False
    board = "fantasy_racing.tmx"
    options = (
        Option("turns", "Game turns", 10, minimum=5, maximum=15,
               help="How many game turns the race lasts (objects come back every third turn)."),
        Option("characters", "Characters", "choose", choices=("choose", "random"),
               help="Each player picks a character in seat order, or they are dealt at random."),
    )

    @classmethod
    def option_tooltip(cls, key: str, value: Any) -> str | None:
        """The setup screen's tooltip for an option: the characters option lists every
        character's combat odds and special rules."""
        if key != "characters":
            return None
        head = "Characters are picked in seat order ('choose') or dealt at random ('random'):"
        return head + "\n" + "\n".join(character_line(k) for k in CHARACTERS)

    def __init__(self, seats: list[dict[str, str]], options: dict[str, Any], rng: Rng) -> None:
        super().__init__(seats, options, rng)
        n = len(seats)
        self.n = n
        self.width, self.height = TRACK["width"], TRACK["height"]
        self.terrain: dict[Cell, str] = dict(TRACK["terrain"])
        self.items: dict[Cell, str] = dict(TRACK["items"])
        self.turns: int = options["turns"]
        self.respawns = respawn_turns(self.turns)
        self.chars: list[str | None] = [None] * n
        self.pos: list[Cell] = [tuple(TRACK["starts"][s]) for s in range(n)]
        self.laps = [0] * n
        self.points = [0] * n
        self.tally = [{k: 0 for k in ("laps", "fights", "coins", "holes", "shields", "purses",
                                      "special")} for _ in range(n)]
        self.inv = [{"clover": 0, "shield": 0, "objects": []} for _ in range(n)]
        self.started: list[bool] = [False] * n
        self.cloaked: list[bool] = [False] * n
        self.taken: set[Cell] = set()
        self.destroyed: set[Cell] = set()
        self.traps: dict[Cell, int] = {}
        self.turn = 0
        self.order: list[int] = []
        self.index = 0
        self.phase = "pick"
        self.move: dict[str, Any] = {}
        self.agenda: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.fights = 0
        self.last_dice: dict[str, Any] | None = None

    # ------------------------------------------------------------------ helpers
    def char(self, seat: int) -> dict[str, Any]:
        return CHARACTERS[self.chars[seat]]

    def has(self, seat: int, ability: str) -> bool:
        ch = self.char(seat)
        return ability in ch["abilities"] or ch["weakness"] == ability

    def wrap(self, x: int, y: int) -> Cell:
        return x % self.width, y % self.height

    def blocked(self, cell: Cell) -> bool:
        """Barriers (not destroyed) and rocks cannot be entered."""
        kind = self.terrain.get(cell)
        return kind == "rock" or (kind == "barrier" and cell not in self.destroyed)

    def obstacle(self, cell: Cell) -> str | None:
        kind = self.terrain.get(cell)
        if kind == "barrier" and cell in self.destroyed:
            return None
        return kind

    def item_at(self, cell: Cell) -> str | None:
        return None if cell in self.taken else self.items.get(cell)

    def protected(self, seat: int) -> bool:
        """Not yet had a first turn, or hidden by a cloak of mist: untargetable."""
        return not self.started[seat] or self.cloaked[seat]

    def racers_at(self, cell: Cell, but: int | None = None) -> list[int]:
        return [s for s in range(self.n) if self.pos[s] == cell and s != but]

    def progress(self, seat: int) -> int:
        return self.laps[seat] * self.height + self.pos[seat][1]

    def active(self) -> int | None:
        if self.phase in ("pick", "over") or not self.order:
            return None
        return self.order[self.index]

    def mood(self, seat: int) -> str:
        """The chest mood (bonus/malus) the mage-referee gives ``seat`` now."""
        high, low = max(self.points), min(self.points)
        if high == low:
            mood = "even"
        elif self.points[seat] == high:
            mood = "malus"
        elif self.points[seat] == low:
            mood = "bonus"
        else:
            mood = "even"
        if self.chars[seat] is not None:
            if self.has(seat, "unlucky") and mood != "malus":
                mood = MOODS[MOODS.index(mood) + 1]
            if self.has(seat, "scrounger") and mood != "bonus":
                mood = MOODS[MOODS.index(mood) - 1]
        return mood

    def score(self, seat: int, key: str, amount: int) -> None:
        self.points[seat] += amount
        field = {"lap": "laps", "fight": "fights", "overwhelming": "fights", "coin": "coins",
                 "hole": "holes", "shield": "shields", "purse": "purses",
                 "special": "special"}[key]
        self.tally[seat][field] += amount

    def roll(self, die: str, faces: list[Any], seat: int, why: str, low: int | None = None,
             high: int | None = None) -> tuple[int, Event]:
        """Roll a die; the event carries the die, its faces and the value for the screen.

        Number dice give a face from ``faces``; the d100 dice (combat, theft, object) give
        1-100 and name their faces in words.
        """
        low = faces[0] if low is None else low
        high = faces[-1] if high is None else high
        value = self.rng.randint(low, high)
        self.last_dice = {"die": die, "value": value, "seat": seat}
        ev = event("dice", f"{self.name(seat)} rolls {die} for {why}: {value}.", die=die,
                   faces=list(faces), value=value, seat=seat)
        return value, ev

    # ------------------------------------------------------------- whose turn
    def to_act(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase == "pick":
            return [self.chars.index(None)]
        if self.pending is not None:
            return [self.pending["seat"]]
        return [self.active()]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        if self.phase == "pick":
            if self.opts["characters"] == "random":
                return [{"type": "deal"}]
            taken = set(self.chars)
            return [{"type": "pick", "character": k} for k in CHARACTERS if k not in taken]
        if self.pending is not None:
            kind = self.pending["kind"]
            if kind == "shield":
                return [{"type": "shield"}, {"type": "take"}]
            if kind == "clover":
                return [{"type": "keep"}, {"type": "reroll"}]
            return [{"type": "tactical", "dx": dx} for dx in self.pending["options"]]
        if self.phase == "objects":
            out = [{"type": "roll"}]
            for key in sorted(set(self.inv[seat]["objects"])):
                out += self._object_actions(seat, key)
            return out
        if self.phase == "move":
            return [{"type": "roll"}]
        if self.phase == "steps":
            out = [{"type": "step", "dx": dx} for dx in self.step_options(seat)]
            if self.can_stop(seat):
                out.append({"type": "stop"})
            return out
        return []

    def step_options(self, seat: int) -> list[int]:
        x, y = self.pos[seat]
        return [dx for dx in (-1, 0, 1) if not self.blocked(self.wrap(x + dx, y + 1))]

    def can_stop(self, seat: int) -> bool:
        """A move passing over a shortcut may stop on it (and take it)."""
        return (self.phase == "steps" and self.move.get("taken", 0) > 0
                and self.move.get("left", 0) > 0
                and self.terrain.get(self.pos[seat]) == "shortcut")

    # ---------------------------------------------------------------- targets
    def object_range(self, seat: int, key: str) -> int:
        obj = OBJECTS[key]
        bonus = 2 if obj["target"] in ("range", "area") and self.has(seat, "fire_range") else 0
        return obj["range"] + bonus

    def targetable(self, cell: Cell, seat: int) -> tuple[list[int], bool]:
        """(unprotected opponents, barrier-or-trap there) on ``cell`` for ``seat``'s objects."""
        racers = [s for s in self.racers_at(cell, seat) if not self.protected(s)]
        thing = (self.terrain.get(cell) == "barrier" and cell not in self.destroyed) or \
            cell in self.traps
        return racers, thing

    def reach(self, seat: int, key: str) -> dict[str, Any]:
        """Where an object reaches from ``seat``: squares, blocking rocks and targets.

        ``targets`` is a list of ``{"seat": s}`` and ``{"cell": [x, y]}``.
        """
        obj, rng = OBJECTS[key], self.object_range(seat, key)
        x, y = self.pos[seat]
        cells: list[Cell] = []
        blockers: list[Cell] = []
        targets: list[dict[str, Any]] = []
        kind = obj["target"]
        if kind in ("line4", "line8"):
            for dx, dy in (LINE4 if kind == "line4" else LINE8):
                for k in range(1, rng + 1):
                    cell = self.wrap(x + dx * k, y + dy * k)
                    if cell == (x, y):
                        break
                    if self.terrain.get(cell) == "rock":
                        blockers.append(cell)
                        break
                    cells.append(cell)
                    racers, thing = self.targetable(cell, seat)
                    if racers:
                        targets += [{"seat": s} for s in racers]
                        break
                    if thing:
                        targets.append({"cell": list(cell)})
                        break
        elif kind in ("range", "area", "racer"):
            # Opponents sharing the user's square are within any range (distance 0).
            here = [s for s in self.racers_at((x, y), seat) if not self.protected(s)]
            if kind == "racer":
                here = [s for s in here if self.stealable(s, seat)]
            targets += [{"seat": s} for s in here]
            for dy in range(-rng, rng + 1):
                for dx in range(-rng, rng + 1):
                    cell = self.wrap(x + dx, y + dy)
                    if cell == (x, y) or cell in cells:
                        continue
                    cells.append(cell)
                    racers, thing = self.targetable(cell, seat)
                    if kind == "racer":
                        racers = [s for s in racers if self.stealable(s, seat)]
                        thing = False
                    targets += [{"seat": s} for s in racers]
                    if thing:
                        targets.append({"cell": list(cell)})
        unique = []
        for target in targets:  # a line may reach the same square both ways round the board
            if target not in unique:
                unique.append(target)
        targets = sorted(unique, key=lambda t: (0, t["seat"]) if "seat" in t else (1, *t["cell"]))
        cells = list(dict.fromkeys(cells))
        return {"cells": sorted([list(c) for c in cells]), "blocked": sorted(
            [list(c) for c in blockers]), "targets": targets}

    def stealable(self, victim: int, thief: int) -> list[str]:
        """What ``thief`` could take from ``victim`` (object keys, 'clover', 'shield')."""
        inv = self.inv[victim]
        out = sorted(inv["objects"]) + ["clover"] * inv["clover"]
        if not self.has(thief, "no_shield"):
            out += ["shield"] * inv["shield"]
        return out

    def why_unusable(self, seat: int, key: str) -> str | None:
        """Why ``seat`` cannot use its object ``key`` now (the reason a disabled button shows),
        or None when it can."""
        name = OBJECTS[key]["name"]
        if self.phase != "objects" or self.active() != seat or self.pending is not None:
            return "Objects are used at the start of your turn, before you roll."
        if self._object_actions(seat, key):
            return None
        kind = OBJECTS[key]["target"]
        reach = self.object_range(seat, key)
        if key == "trap":
            return "There is already a trap on your square."
        if kind == "racer":
            return f"{name}: no opponent within {reach} squares holds anything you can take."
        if kind == "area":
            return f"{name}: no racer, barrier or trap within {reach} squares."
        if kind in ("line4", "line8"):
            lines = "straight lines" if kind == "line4" else "straight or diagonal lines"
            return (f"{name}: no racer, barrier or trap in {lines} within {reach} squares "
                    f"(rocks stop it; protected racers cannot be targeted).")
        return (f"{name}: no racer, barrier or trap within {reach} squares (protected racers "
                f"cannot be targeted).")

    def _object_actions(self, seat: int, key: str) -> list[Action]:
        kind = OBJECTS[key]["target"]
        if kind == "none":
            if key == "trap" and self.pos[seat] in self.traps:
                return []
            return [{"type": "use", "object": key}]
        targets = self.reach(seat, key)["targets"]
        if kind == "area":
            return [{"type": "use", "object": key}] if targets else []
        return [{"type": "use", "object": key, **t} for t in targets]

    # ----------------------------------------------------------------- actions
    def apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.get("type")
        if seat not in self.to_act():
            raise self.refuse(f"It is not {self.name(seat)}'s turn to act.")
        if self.phase == "pick":
            if self.opts["characters"] == "random":
                if kind != "deal":
                    raise self.refuse("First the characters are dealt at random.")
                return self._deal()
            if kind != "pick":
                raise self.refuse("First every player picks a character.")
            return self._pick(seat, action)
        if self.pending is not None:
            expected = {"shield": ("shield", "take"), "clover": ("keep", "reroll"),
                        "tactical": ("tactical",)}[self.pending["kind"]]
            if kind not in expected:
                raise self.refuse(self._pending_reason())
            return {"shield": self._shield, "take": self._shield, "keep": self._clover,
                    "reroll": self._clover, "tactical": self._tactical}[kind](seat, action)
        if kind == "use":
            if self.phase != "objects":
                raise self.refuse("You have already used an object or rolled this turn: "
                                  "only one object per turn, before moving.")
            return self._use(seat, action)
        if kind == "roll":
            if self.phase not in ("objects", "move"):
                raise self.refuse("You have already rolled for this move.")
            return self._roll_move(seat)
        if kind == "step":
            if self.phase != "steps":
                raise self.refuse("Roll the movement die first.")
            return self._step(seat, action)
        if kind == "stop":
            if not self.can_stop(seat):
                raise self.refuse("You can only stop early on a shortcut you are passing over.")
            return self._stop(seat)
        raise self.refuse(f"'{kind}' is not possible now.")

    def _pending_reason(self) -> str:
        p = self.pending
        who = self.name(p["seat"])
        if p["kind"] == "shield":
            return f"{who} must first decide whether to use a shield against the shock."
        if p["kind"] == "clover":
            return f"{who} must first keep the chest object or spend a clover to change it."
        return f"{who} must first make the tactical move (left, right or stay)."

    # pick -------------------------------------------------------------------------
    def _give_character(self, seat: int, key: str) -> None:
        self.chars[seat] = key
        ch = CHARACTERS[key]
        inv = self.inv[seat]
        if "start_clover" in ch["abilities"]:
            inv["clover"] += 1
        if "start_shield" in ch["abilities"]:
            inv["shield"] += 1
        if "start_wand" in ch["abilities"]:
            inv["objects"].append("wand_of_fire")

    def _deal(self) -> list[Event]:
        keys = list(CHARACTERS)
        self.rng.shuffle(keys)
        for seat in range(self.n):
            self._give_character(seat, keys[seat])
        events = [event("pick", "The characters are dealt at random: " + "; ".join(
            f"{self.name(s)} races as {CHARACTERS[self.chars[s]]['name']}"
            for s in range(self.n)) + ".", characters=list(self.chars))]
        return events + self._begin_turn()

    def _pick(self, seat: int, action: Action) -> list[Event]:
        key = action.get("character")
        if not isinstance(key, str) or key not in CHARACTERS:
            raise self.refuse("Choose one of the characters: " + ", ".join(
                CHARACTERS[k]["name"] for k in CHARACTERS) + ".")
        if key in self.chars:
            owner = self.chars.index(key)
            raise self.refuse(f"{CHARACTERS[key]['name']} already races for {self.name(owner)}.")
        self._give_character(seat, key)
        events = [event("pick", f"{self.name(seat)} races as {CHARACTERS[key]['name']}.",
                        seat=seat, character=key)]
        if None not in self.chars:
            events += self._begin_turn()
        return events

    # turn flow --------------------------------------------------------------------
    def _begin_turn(self) -> list[Event]:
        self.turn += 1
        events = []
        if self.turn == 1:
            order = list(range(self.n))
            self.rng.shuffle(order)
            why = "drawn at random"
        else:
            order = sorted(range(self.n), key=lambda s: (self.points[s], self.progress(s), s))
            why = "fewest points first"
        self.order, self.index = order, 0
        if self.turn in self.respawns:
            self.taken.clear()
            events.append(event("respawn", f"Start of turn {self.turn}: every object and chest "
                                           f"is back on the track.", turn=self.turn))
        events.append(event("order", f"Turn {self.turn} of {self.turns}. Order ({why}): "
                            + ", ".join(self.name(s) for s in order) + ".", turn=self.turn,
                            order=list(order)))
        return events + self._begin_seat()

    def _begin_seat(self) -> list[Event]:
        seat = self.order[self.index]
        self.started[seat] = True
        self.fights = 0
        self.move = {}
        self.phase = "objects"
        events = []
        if self.cloaked[seat]:
            self.cloaked[seat] = False
            events.append(event("protect", f"{self.name(seat)}'s cloak of mist fades.",
                                seat=seat, protected=False))
        character = CHARACTERS[self.chars[seat]]["name"]
        events.append(event("turn", f"{self.name(seat)}'s turn ({character}).",
                            seat=seat, turn=self.turn))
        return events

    def _end_seat(self) -> list[Event]:
        self.phase = "done"
        if self.index + 1 < len(self.order):
            self.index += 1
            return self._begin_seat()
        if self.turn < self.turns:
            return self._begin_turn()
        return self._finish()

    def _run(self) -> list[Event]:
        """Work through the agenda until a choice is needed or the seat's turn moves on."""
        events: list[Event] = []
        for _ in range(10_000):
            while self.pending is None and self.agenda:
                task = self.agenda.pop(0)
                events += getattr(self, "_task_" + task["t"])(task)
            if self.pending is not None or self.phase == "over":
                return events
            if self.phase == "steps":
                seat = self.active()
                if (self.move["left"] > 0 and not self.move.get("ended")
                        and self.step_options(seat)):
                    return events
                if self.move["left"] > 0 and not self.move.get("ended"):
                    events.append(event("blocked", f"{self.name(seat)} is blocked and ends "
                                        f"the move.", seat=seat))
                self.phase = "resolve"
                if self.move.get("taken", 0) > 0 and not self.move.get("ended"):
                    self.agenda.append({"t": "land", "seat": seat, "how": "move"})
                continue
            if self.phase == "resolve":
                events += self._end_seat()
                continue
            return events
        raise RuntimeError("the resolution did not settle")

    # objects phase ------------------------------------------------------------------
    def _use(self, seat: int, action: Action) -> list[Event]:
        key = action.get("object")
        if not isinstance(key, str) or key not in OBJECTS:
            raise self.refuse("Choose one of your objects to use.")
        if key not in self.inv[seat]["objects"]:
            raise self.refuse(f"You have no {OBJECTS[key]['name'].lower()}.")
        kind = OBJECTS[key]["target"]
        clean = {"type": "use", "object": key}
        if kind in ("line4", "line8", "range", "racer"):
            if "seat" in action:
                if not _is_int(action["seat"]) or not 0 <= action["seat"] < self.n:
                    raise self.refuse("There is no such racer.")
                clean["seat"] = action["seat"]
            elif "cell" in action:
                cell = _cell(action["cell"])
                if cell is None:
                    raise self.refuse("Give the target square as [x, y].")
                clean["cell"] = [cell[0] % self.width, cell[1] % self.height]
            else:
                raise self.refuse(f"Choose a target for the {OBJECTS[key]['name'].lower()}.")
            if "seat" in clean and self.protected(clean["seat"]):
                raise self.refuse(f"{self.name(clean['seat'])} is protected and cannot be "
                                  f"targeted.")
            if clean not in self._object_actions(seat, key):
                raise self.refuse(self._why_out_of_reach(seat, key, clean))
        elif set(action) - {"type", "object"}:
            raise self.refuse(f"The {OBJECTS[key]['name'].lower()} takes no target.")
        elif clean not in self._object_actions(seat, key):
            if key == "trap":
                raise self.refuse("There is already a trap on your square.")
            raise self.refuse(f"Nothing is within reach of the {OBJECTS[key]['name'].lower()}.")
        self.inv[seat]["objects"].remove(key)
        self.phase = "move"
        events = self._object_effect(seat, key, clean)
        return events + self._run()

    def _why_out_of_reach(self, seat: int, key: str, action: Action) -> str:
        name = OBJECTS[key]["name"].lower()
        if OBJECTS[key]["target"] == "racer":
            return f"The {name} needs an opponent within {self.object_range(seat, key)} " \
                   f"squares who has something to steal."
        if "cell" in action:
            cell = tuple(action["cell"])
            racers, thing = self.targetable(cell, seat)
            if not thing:
                return f"There is no barrier or trap at {list(cell)} to hit."
        tail = ", and rocks stop it)." if OBJECTS[key]["target"].startswith("line") else ")."
        return f"That target is out of the {name}'s reach (range " \
               f"{self.object_range(seat, key)}{tail}"

    def _object_effect(self, seat: int, key: str, action: Action) -> list[Event]:
        obj, who = OBJECTS[key], self.name(seat)
        name = obj["name"]
        if key == "trap":
            self.traps[self.pos[seat]] = seat
            return [event("trap", f"{who} sets a trap on {self.where(self.pos[seat])}.",
                          seat=seat, cell=list(self.pos[seat]))]
        if key == "haste_potion":
            self.move["bonus"] = HASTE
            return [event("use", f"{who} drinks a potion of haste: this move counts {HASTE} "
                                 f"more.", seat=seat, object=key)]
        if key == "mist_cloak":
            self.cloaked[seat] = True
            return [event("protect", f"{who} wraps in a cloak of mist: protected until their "
                                     f"next turn.", seat=seat, protected=True, object=key)]
        if key == "gold_purse":
            self.score(seat, "purse", POINTS["purse"])
            return [event("use", f"{who} opens a gold purse: +{POINTS['purse']} points.",
                          seat=seat, object=key)]
        if key == "stealing_gloves":
            victim = action["seat"]
            chance = THEFT_CHANCE["gloves_nimble" if self.has(seat, "nimble_fingers")
                                  else "gloves"]
            self.agenda.append({"t": "steal", "thief": seat, "victim": victim, "chance": chance})
            return [event("use", f"{who} points the stealing gloves at {self.name(victim)}.",
                          seat=seat, object=key, target=victim)]
        if obj["target"] == "area":
            hits = self.reach(seat, key)["targets"]
        else:
            hits = [{k: action[k] for k in ("seat", "cell") if k in action}]
        fire = obj["target"] in ("range", "area")
        events = [event("use", f"{who} uses the {name.lower()}"
                        + (" and fireballs fly!" if fire else "."), seat=seat, object=key,
                        origin=list(self.pos[seat]),
                        hits=[list(self.pos[h["seat"]]) if "seat" in h else h["cell"]
                              for h in hits], fire=fire)]
        for hit in hits:
            if "cell" in hit:
                events += self._destroy(tuple(hit["cell"]), name)
        for hit in hits:
            if "seat" in hit:
                events.append(event("hit", f"The {name.lower()} hits {self.name(hit['seat'])}.",
                                    seat=hit["seat"], by=seat, object=key))
                self.agenda.append({"t": "shock", "seat": hit["seat"], "size": obj["shock"],
                                    "shield": True, "why": f"the {name.lower()}"})
        return events

    def _destroy(self, cell: Cell, what: str) -> list[Event]:
        if cell in self.traps:
            del self.traps[cell]
            return [event("destroy", f"The {what.lower()} destroys the trap at "
                                     f"{self.where(cell)}.", cell=list(cell), thing="trap")]
        self.destroyed.add(cell)
        return [event("destroy", f"The {what.lower()} smashes the barrier at {self.where(cell)}.",
                      cell=list(cell), thing="barrier")]

    def where(self, cell: Cell) -> str:
        return f"column {cell[0] + 1}, row {cell[1] + 1}"

    # movement --------------------------------------------------------------------
    def _roll_move(self, seat: int) -> list[Event]:
        rapid = self.has(seat, "rapid")
        die, faces = ("DRAPID", DRAPID) if rapid else ("D6", D6)
        value, ev = self.roll(die, faces, seat, "movement")
        events = [ev]
        steps = value
        if value == 6 and self.has(seat, "short_stride"):
            steps = 5
            events.append(event("note", f"Short stride: {self.name(seat)}'s 6 counts as 5.",
                                seat=seat))
        steps += self.move.get("bonus", 0)
        self.move.update(left=steps, taken=0, rolled=value)
        self.phase = "steps"
        if steps != value:
            events.append(event("move", f"{self.name(seat)} has {steps} square"
                                f"{'s' if steps != 1 else ''} to move.", seat=seat, steps=steps))
        return events + self._run()

    def _forward(self, seat: int, cell_raw: tuple[int, int]) -> list[Event]:
        """Put ``seat`` on a square reached going forward (a lap when crossing the line)."""
        x, y = cell_raw
        self.pos[seat] = self.wrap(x, y)
        if y >= self.height:
            self.laps[seat] += 1
            self.score(seat, "lap", POINTS["lap"])
            return [event("lap", f"{self.name(seat)} crosses the finish line: lap "
                                 f"{self.laps[seat]} complete, +{POINTS['lap']} points!",
                          seat=seat, laps=self.laps[seat])]
        return []

    def _step(self, seat: int, action: Action) -> list[Event]:
        dx = action.get("dx")
        if not _is_int(dx) or dx not in (-1, 0, 1):
            raise self.refuse("Each step goes down (0), down-left (-1) or down-right (1).")
        x, y = self.pos[seat]
        target = self.wrap(x + dx, y + 1)
        if self.blocked(target):
            raise self.refuse(f"A {self.terrain[target]} blocks the way {STEP_WORDS[dx]}.")
        self.move["left"] -= 1
        self.move["taken"] += 1
        events = [event("step", f"{self.name(seat)} moves {STEP_WORDS[dx]}.", seat=seat,
                        origin=[x, y], target=list(target), left=self.move["left"])]
        events += self._forward(seat, (x + dx, y + 1))
        events += self._enter_on_move(seat)
        return events + self._run()

    def _enter_on_move(self, seat: int) -> list[Event]:
        """What a square does to a racer stepping onto it during its move."""
        cell, who = self.pos[seat], self.name(seat)
        if cell in self.traps:
            self.move["ended"] = True
            return self._spring_trap(seat, "move")
        events = []
        if self.terrain.get(cell) == "hole":
            taken = self.move["taken"]
            if taken >= 3 and not self.has(seat, "short_legs"):
                if self.move["left"] > 0:
                    events.append(event("jump", f"{who} has the momentum to jump the hole.",
                                        seat=seat, cell=list(cell)))
                return events
            if self.move["left"] == 0:
                return events  # the move ends on the hole: the landing makes them fall
            below = self.wrap(cell[0], cell[1] + 1)
            why = ("short legs" if self.has(seat, "short_legs") and taken >= 3
                   else "too little run-up")
            if self.blocked(below):
                self.move["left"] = 0
                events.append(event("hole", f"{who} has {why} to cross the hole, and the "
                                            f"square beyond is blocked.", seat=seat))
                return events
            self.move["left"] = 0
            events.append(event("hole", f"{who} has {why} to jump the hole and stops just "
                                        f"after it.", seat=seat, origin=list(cell),
                                target=list(below)))
            events += self._forward(seat, (cell[0], cell[1] + 1))
            return events + self._enter_on_move(seat)
        return events + self._collect(seat)

    def _collect(self, seat: int) -> list[Event]:
        """Pick up whatever lies on the racer's square (a chest interrupts to roll DOBJ)."""
        cell, who = self.pos[seat], self.name(seat)
        item = self.item_at(cell)
        if item is None:
            return []
        if item == "shield" and self.has(seat, "no_shield"):
            return [event("note", f"{who} cannot carry the shield and leaves it.", seat=seat)]
        self.taken.add(cell)
        hunter = self.has(seat, "treasure_hunter")
        if hunter and item == "chest":
            self.score(seat, "special", POINTS["treasure"])
        bonus = f" (treasure hunter: +{POINTS['treasure']} point)" if hunter else ""
        if item == "coin":
            worth = POINTS["coin"]
            self.score(seat, "coin", worth)
            return [event("collect", f"{who} picks up a gold coin: +{worth} points.",
                          seat=seat, item=item, cell=list(cell))]
        if item == "chest":
            self.agenda.insert(0, {"t": "chest", "seat": seat})
            return [event("collect", f"{who} opens a chest{bonus}.", seat=seat, item=item,
                          cell=list(cell))]
        self.inv[seat][item] += 1
        return [event("collect", f"{who} picks up {ITEM_WORDS[item]}.", seat=seat, item=item,
                      cell=list(cell))]

    def _stop(self, seat: int) -> list[Event]:
        self.move["left"] = 0
        return [event("stop", f"{self.name(seat)} stops on the shortcut.", seat=seat)] + \
            self._run()

    def _spring_trap(self, seat: int, how: str) -> list[Event]:
        """The trap's big shock; a racer still on the trap's square afterwards (a shield, or a
        recoil shrunk to nothing) comes to rest there as the motion's end (ruling 11)."""
        cell = self.pos[seat]
        owner = self.traps.pop(cell)
        self.agenda[0:0] = [{"t": "shock", "seat": seat, "size": "big", "shield": True,
                             "why": "the trap"},
                            {"t": "settle", "seat": seat, "cell": list(cell), "how": how}]
        return [event("trap_sprung", f"{self.name(seat)} springs {self.name(owner)}'s trap!",
                      seat=seat, owner=owner, cell=list(cell))]

    # agenda tasks -------------------------------------------------------------------
    def _task_land(self, task: dict[str, Any]) -> list[Event]:
        """A racer comes to rest after a move, recoil, jump, skid or hole."""
        seat, how = task["seat"], task["how"]
        cell, who = self.pos[seat], self.name(seat)
        kind = self.obstacle(cell)
        if how != "move":
            if kind == "barrier":
                self.destroyed.add(cell)
                self.agenda.insert(0, {"t": "shock", "seat": seat, "size": "small",
                                       "shield": True, "why": "the barrier"})
                return [event("destroy", f"{who} crashes into the barrier at {self.where(cell)}"
                                         f" and breaks it.", cell=list(cell), thing="barrier",
                              seat=seat, crash=True)]
            if kind == "rock":
                self.agenda.insert(0, {"t": "shock", "seat": seat, "size": "small",
                                       "shield": False, "why": "the rock"})
                return [event("rock", f"{who} is thrown onto a rock (no shield can help).",
                              seat=seat, cell=list(cell))]
            if cell in self.traps:
                return self._spring_trap(seat, how)
            events = self._collect(seat)
            if self.agenda and self.agenda[0]["t"] == "chest" and self.agenda[0]["seat"] == seat:
                self.agenda.insert(1, {"t": "land_rest", "seat": seat, "how": how})
                return events
            return events + self._task_land_rest(task)
        return self._task_land_rest(task)

    def _task_settle(self, task: dict[str, Any]) -> list[Event]:
        """After a trap's shock: if the racer was not moved off the trap's square, the motion
        ends there after all (a hole, a shortcut or a fight may follow)."""
        if list(self.pos[task["seat"]]) != task["cell"]:
            return []
        return self._task_land_rest(task)

    def _task_land_rest(self, task: dict[str, Any]) -> list[Event]:
        seat, how = task["seat"], task["how"]
        cell, who = self.pos[seat], self.name(seat)
        kind = self.obstacle(cell)
        if kind == "hole":
            self.score(seat, "hole", POINTS["hole"])
            out = self.wrap(cell[0], cell[1] - 1)
            self.pos[seat] = out
            self.agenda.insert(0, {"t": "land", "seat": seat, "how": "hole"})
            return [event("fall", f"{who} falls into the hole ({POINTS['hole']} points) and "
                                  f"climbs out on the square before it.", seat=seat,
                          origin=list(cell), target=list(out))]
        if kind == "shortcut" and how != "shortcut":
            value, ev = self.roll("D10", D10, seat, "the shortcut")
            shift = SHORTCUT[value]
            x, y = cell
            events = [ev]
            if shift > 0:
                events += self._forward(seat, (x, y + shift))
                text = f"The shortcut flings {who} {shift} square{'s' if shift > 1 else ''} ahead."
            else:
                self.pos[seat] = (x, max(0, y + shift))
                back = y - self.pos[seat][1]
                text = (f"The shortcut throws {who} {back} square{'s' if back != 1 else ''} back"
                        + (" (the start line stops it)." if back < -shift else "."))
            events.insert(1, event("shortcut", text, seat=seat, origin=list(cell),
                                   target=list(self.pos[seat]), shift=shift))
            self.agenda.insert(0, {"t": "land", "seat": seat, "how": "shortcut"})
            return events
        return self._maybe_fight(seat, how)

    def _maybe_fight(self, seat: int, how: str) -> list[Event]:
        if self.protected(seat):
            return []
        others = [s for s in self.racers_at(self.pos[seat], seat) if not self.protected(s)]
        if not others:
            return []
        if self.fights >= MAX_FIGHTS:
            return [event("note", "The racers are too tired for another fight this turn.")]
        tasks = []
        mover_attacks = how == "move" and not self.has(seat, "timid")
        for other in others:
            attacker, defender = (seat, other) if mover_attacks else (other, seat)
            tasks.append({"t": "fight", "attacker": attacker, "defender": defender,
                          "cell": list(self.pos[seat])})
        self.agenda[0:0] = tasks
        return []

    def _task_fight(self, task: dict[str, Any]) -> list[Event]:
        a, d = task["attacker"], task["defender"]
        if list(self.pos[a]) != task["cell"] or list(self.pos[d]) != task["cell"] \
                or self.protected(a) or self.protected(d) or self.fights >= MAX_FIGHTS:
            return []
        self.fights += 1
        guard = CHARACTERS[self.chars[d]]["guard"]
        table = CHARACTERS[self.chars[a]]["combat"]
        value, ev = self.roll("DCOMBAT", ["defeat", "simple victory", "overwhelming victory"],
                              a, "the fight", 1, 100)
        face = combat_face(table, guard, value)
        ev["face"] = face
        ev["text"] = f"{self.name(a)} attacks {self.name(d)} and rolls the combat die: " \
                     f"{value} ({face if face != 'simple' else 'simple victory'}" \
                     f"{' victory' if face == 'overwhelming' else ''})."
        if face == "defeat":
            winner, loser, size, gain = d, a, "small", POINTS["fight"]
            text = f"{self.name(d)} beats off the attack: +{gain} points."
        elif face == "simple":
            winner, loser, size, gain = a, d, "small", POINTS["fight"]
            text = f"{self.name(a)} wins the fight: +{gain} points."
        else:
            winner, loser, size, gain = a, d, "big", POINTS["overwhelming"]
            text = f"{self.name(a)} wins an overwhelming victory: +{gain} points."
        self.score(winner, "overwhelming" if face == "overwhelming" else "fight", gain)
        if self.has(winner, "crowd_favourite"):
            self.score(winner, "special", POINTS["crowd"])
            text = text[:-len(" points.")] + f" points, +{POINTS['crowd']} from the crowd."
        if self.has(loser, "frail"):
            size = "big"
        events = [ev, event("fight", text, attacker=a, defender=d, winner=winner, loser=loser,
                            face=face, cell=task["cell"])]
        tasks: list[dict[str, Any]] = []
        if self.has(winner, "steal_on_win"):
            tasks.append({"t": "steal", "thief": winner, "victim": loser,
                          "chance": THEFT_CHANCE["steal_on_win"]})
        tasks.append({"t": "shock", "seat": loser, "size": size, "shield": True,
                      "why": "the lost fight"})
        tasks.append({"t": "tactical", "seat": winner})
        self.agenda[0:0] = tasks
        return events

    def _task_steal(self, task: dict[str, Any]) -> list[Event]:
        thief, victim = task["thief"], task["victim"]
        loot = self.stealable(victim, thief)
        if not loot:
            return [event("steal", f"{self.name(victim)} has nothing {self.name(thief)} "
                                   f"could steal.", seat=thief, victim=victim, stolen=None)]
        value, ev = self.roll("DTHEFT", ["successful theft", "failed theft"], thief,
                              "the theft", 1, 100)
        ok = value <= task["chance"]
        ev["face"] = "successful theft" if ok else "failed theft"
        if not ok:
            return [ev, event("steal", f"{self.name(thief)} fails to steal from "
                                       f"{self.name(victim)} (needed {task['chance']} or less).",
                              seat=thief, victim=victim, stolen=None)]
        thing = self.rng.choice(loot)
        if thing in ("clover", "shield"):
            self.inv[victim][thing] -= 1
            self.inv[thief][thing] += 1
            words = ITEM_WORDS[thing]
        else:
            self.inv[victim]["objects"].remove(thing)
            self.inv[thief]["objects"].append(thing)
            words = "the " + OBJECTS[thing]["name"].lower()
        return [ev, event("steal", f"{self.name(thief)} steals {words} from "
                                   f"{self.name(victim)}!", seat=thief, victim=victim,
                          stolen=thing)]

    def _task_shock(self, task: dict[str, Any]) -> list[Event]:
        seat = task["seat"]
        if task["shield"] and self.inv[seat]["shield"] > 0:
            self.pending = {"kind": "shield", "seat": seat, "size": task["size"],
                            "why": task["why"], "cost": self.shield_cost(seat)}
            return [event("shock_coming", f"{self.name(seat)} faces a {task['size']} shock from "
                                          f"{task['why']}: use a shield?", seat=seat,
                          size=task["size"])]
        return self._recoil(seat, task["size"], task["why"])

    def shield_cost(self, seat: int) -> int:
        return 1 if self.has(seat, "cheap_shield") else -POINTS["shield"]

    def recoil_path(self, cell: Cell, distance: int) -> list[Cell]:
        """The squares a recoil of ``distance`` passes, straight up; it stops below the
        first barrier or rock, and never crosses back over the start line."""
        x, y = cell
        path: list[Cell] = []
        for k in range(1, distance + 1):
            if y - k < 0:
                break
            nxt = (x, y - k)
            if self.blocked(nxt):
                break
            path.append(nxt)
        return path

    def recoil_stop(self, cell: Cell) -> str | None:
        """What keeps a recoil from going further up than ``cell``: 'start' (the start line),
        'barrier' or 'rock'; None when nothing does."""
        x, y = cell
        if y == 0:
            return "start"
        kind = self.obstacle((x, y - 1))
        return kind if kind in ("barrier", "rock") else None

    def _recoil(self, seat: int, size: str, why: str) -> list[Event]:
        die, faces = ("D3", D3) if size == "small" else ("D6", D6)
        value, ev = self.roll(die, faces, seat, f"a {size} shock")
        distance = value
        notes = []
        if self.has(seat, "steady"):
            distance = max(0, distance - 1)
            notes.append("steady: one square less")
        if self.has(seat, "light"):
            distance += 1
            notes.append("light: one square more")
        path = self.recoil_path(self.pos[seat], distance)
        origin = self.pos[seat]
        extra = f" ({'; '.join(notes)})" if notes else ""
        events = [event("shock", f"{self.name(seat)} takes a {size} shock from {why}.",
                        seat=seat, size=size), ev]
        if not path:
            stopped = self.recoil_stop(origin) if distance > 0 else None
            why_not = f": {STOP_NOUNS[stopped]} is right behind" if stopped else ""
            events.append(event("recoil", f"{self.name(seat)} is shaken but does not move"
                                          f"{extra}{why_not}.", seat=seat, origin=list(origin),
                                target=list(origin), path=[], stopped=stopped))
            return events
        self.pos[seat] = path[-1]
        stopped = self.recoil_stop(path[-1]) if len(path) < distance else None
        events.append(event("recoil", f"{self.name(seat)} recoils {len(path)} square"
                            f"{'s' if len(path) != 1 else ''}{extra}"
                            + (f" and is stopped by {STOP_WORDS[stopped]}." if stopped else "."),
                            seat=seat, origin=list(origin), target=list(path[-1]),
                            path=[list(c) for c in path], stopped=stopped))
        self.agenda.insert(0, {"t": "land", "seat": seat, "how": "recoil"})
        return events

    def _shield(self, seat: int, action: Action) -> list[Event]:
        p = self.pending
        self.pending = None
        if action["type"] == "take":
            return self._recoil(seat, p["size"], p["why"]) + self._run()
        self.inv[seat]["shield"] -= 1
        self.score(seat, "shield", -p["cost"])
        return [event("shield", f"{self.name(seat)} raises a shield and ignores the shock "
                                f"(-{p['cost']} point{'s' if p['cost'] != 1 else ''}).",
                      seat=seat)] + self._run()

    def _task_chest(self, task: dict[str, Any]) -> list[Event]:
        seat = task["seat"]
        mood = self.mood(seat)
        names = [OBJECTS[k]["name"] for k in OBJECTS]
        value, ev = self.roll("DOBJ", names, seat, "the chest", 1, 100)
        key = object_for(mood, value)
        ev["face"] = key
        ev["text"] = (f"{self.name(seat)} rolls the object die on {MOOD_WORDS[mood]}: {value}, "
                      f"{OBJECTS[key]['name'].lower()}.")
        if self.inv[seat]["clover"] > 0 and not task.get("rerolled"):
            self.pending = {"kind": "clover", "seat": seat, "object": key, "mood": mood}
            return [ev]
        return [ev, self._gain(seat, key)]

    def _gain(self, seat: int, key: str) -> Event:
        self.inv[seat]["objects"].append(key)
        return event("gain", f"{self.name(seat)} gains the {OBJECTS[key]['name'].lower()}.",
                     seat=seat, object=key)

    def _clover(self, seat: int, action: Action) -> list[Event]:
        p = self.pending
        self.pending = None
        if action["type"] == "keep":
            return [self._gain(seat, p["object"])] + self._run()
        self.inv[seat]["clover"] -= 1
        events = [event("clover", f"{self.name(seat)} spends a clover to change the "
                                  f"{OBJECTS[p['object']]['name'].lower()}.", seat=seat)]
        events += self._task_chest({"t": "chest", "seat": seat, "rerolled": True})
        return events + self._run()

    def _task_tactical(self, task: dict[str, Any]) -> list[Event]:
        seat = task["seat"]
        x, y = self.pos[seat]
        if self.has(seat, "hot_headed"):
            return [event("tactical", f"{self.name(seat)} is too hot-headed to skid aside and "
                                      f"stays put.", seat=seat, dx=0)]
        options = [0]
        for side in (-1, 1):
            reach = 2 if self.has(seat, "long_skid") else 1
            for k in range(1, reach + 1):
                if self.blocked(self.wrap(x + side * k, y)):
                    break
                options.append(side * k)
        options.sort()
        if options == [0]:
            return [event("tactical", f"{self.name(seat)} has no room for a tactical move and "
                                      f"stays put.", seat=seat, dx=0)]
        self.pending = {"kind": "tactical", "seat": seat, "options": options}
        return []

    def _tactical(self, seat: int, action: Action) -> list[Event]:
        dx = action.get("dx")
        options = self.pending["options"]
        if not _is_int(dx) or dx not in options:
            words = {-2: "two left (-2)", -1: "left (-1)", 0: "stay (0)", 1: "right (1)",
                     2: "two right (2)"}
            raise self.refuse("The tactical move goes " + " or ".join(words[o] for o in options)
                              + ".")
        self.pending = None
        x, y = self.pos[seat]
        if dx == 0:
            return [event("tactical", f"{self.name(seat)} stays put.", seat=seat, dx=0)] + \
                self._run()
        self.pos[seat] = self.wrap(x + dx, y)
        self.agenda.insert(0, {"t": "land", "seat": seat, "how": "skid"})
        squares = "one square" if abs(dx) == 1 else "two squares"
        return [event("tactical", f"{self.name(seat)} skids {squares} "
                                  f"{'left' if dx < 0 else 'right'}.", seat=seat, dx=dx,
                      origin=[x, y], target=list(self.pos[seat]))] + self._run()

    # ending ------------------------------------------------------------------------------
    def _finish(self) -> list[Event]:
        self.phase = "over"
        self.order, self.index = [], 0
        res = self.result()
        names = " and ".join(self.name(s) for s in res["winners"])
        how = {"points": "", "progress": " (ahead on the track at equal points)",
               "shared": " (a shared victory)"}[res["tie_break"]]
        verb = "wins" if len(res["winners"]) == 1 else "win"
        return [event("over", f"The race is over: {names} {verb}"
                              f" with {self.points[res['winners'][0]]} points{how}.",
                      winners=list(res["winners"]))]

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        best = max(self.points)
        top = [s for s in range(self.n) if self.points[s] == best]
        tie_break = "points"
        if len(top) > 1:
            far = max(self.progress(s) for s in top)
            ahead = [s for s in top if self.progress(s) == far]
            tie_break = "progress" if len(ahead) == 1 else "shared"
            top = ahead
        ranking = sorted(range(self.n), key=lambda s: (-self.points[s], -self.progress(s), s))
        return {"winners": top, "scores": list(self.points), "ranking": ranking,
                "tie_break": tie_break, "characters": list(self.chars),
                "laps": list(self.laps), "progress": [self.progress(s) for s in range(self.n)],
                "tally": [dict(t) for t in self.tally], "turns": self.turns}

    # ------------------------------------------------------------------- views
    def view(self, seat: int | None) -> View:
        active = self.active()
        racers = []
        # Written out rather than through progress(), protected() and mood(), with the same
        # results: the Hard player's playouts build a view for every Normal choice.
        seats, chars, pos, laps, points = self.seats, self.chars, self.pos, self.laps, self.points
        inv, started, cloaked, height = self.inv, self.started, self.cloaked, self.height
        high, low = max(points), min(points)
        for s in range(self.n):
            key = chars[s]
            own, where = inv[s], pos[s]
            if key:
                mine = points[s]
                mood = ("even" if high == low else "malus" if mine == high
                        else "bonus" if mine == low else "even")
                ch = CHARACTERS[key]
                traits = ch["abilities"]
                if ("unlucky" in traits or ch["weakness"] == "unlucky") and mood != "malus":
                    mood = MOODS[MOODS.index(mood) + 1]
                if ("scrounger" in traits or ch["weakness"] == "scrounger") and mood != "bonus":
                    mood = MOODS[MOODS.index(mood) - 1]
                name = ch["name"]
            else:
                mood, name = "even", None
            racers.append({
                "seat": s, "name": seats[s]["name"], "kind": seats[s]["kind"],
                "character": key, "character_name": name,
                "pos": [where[0], where[1]], "laps": laps[s], "points": points[s],
                "progress": laps[s] * height + where[1], "tally": dict(self.tally[s]),
                "clover": own["clover"], "shield": own["shield"],
                "objects": list(own["objects"]),
                "protected": not started[s] or cloaked[s], "cloaked": cloaked[s],
                "mood": mood,
            })
        out: View = {
            "game": self.game_id, "viewer": seat, "phase": self.phase, "turn": self.turn,
            "turns": self.turns, "respawns": list(self.respawns), "active": active,
            "to_act": self.to_act(), "order": list(self.order), "index": self.index,
            "racers": racers,
            "pending": _plain(self.pending),
            "move": dict(self.move),
            "taken": sorted(list(c) for c in self.taken),
            "destroyed": sorted(list(c) for c in self.destroyed),
            "traps": sorted([list(c) + [o] for c, o in self.traps.items()]),
            "free_characters": [k for k in CHARACTERS if k not in self.chars],
            "dice": dict(self.last_dice) if self.last_dice else None,
            "result": self.result(),
        }
        if active is not None and self.pending is None:
            if self.phase == "steps":
                x, y = self.pos[active]
                out["steps"] = [list(self.wrap(x + dx, y + 1)) + [dx]
                                for dx in self.step_options(active)]
                out["can_stop"] = self.can_stop(active)
            if self.phase == "objects":
                out["reach"] = {k: self.reach(active, k)
                                for k in sorted(set(self.inv[active]["objects"]))
                                if OBJECTS[k]["target"] != "none"}
                out["unusable"] = {k: why for k in sorted(set(self.inv[active]["objects"]))
                                   if (why := self.why_unusable(active, k))}
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "phase": self.phase, "order": list(self.order),
            "index": self.index, "chars": list(self.chars),
            "pos": [list(p) for p in self.pos], "laps": list(self.laps),
            "points": list(self.points), "tally": [dict(t) for t in self.tally],
            "inv": [{"clover": i["clover"], "shield": i["shield"],
                     "objects": list(i["objects"])} for i in self.inv],
            "started": list(self.started), "cloaked": list(self.cloaked),
            "taken": sorted(list(c) for c in self.taken),
            "destroyed": sorted(list(c) for c in self.destroyed),
            "traps": sorted([list(c) + [o] for c, o in self.traps.items()]),
            "move": dict(self.move), "agenda": _plain(self.agenda),
            "pending": _plain(self.pending), "fights": self.fights,
        }

    def status(self) -> str:
        if self.phase == "pick":
            if self.opts["characters"] == "random":
                return "Characters are about to be dealt"
            return f"Choosing characters: {self.name(self.chars.index(None))} picks"
        if self.phase == "over":
            res = self.result()
            return "Race over: " + " and ".join(self.name(s) for s in res["winners"]) + " won"
        head = f"Turn {self.turn}/{self.turns}: "
        if self.pending is not None:
            what = {"shield": "shield or not?", "clover": "keep the object or spend a clover?",
                    "tactical": "tactical move"}[self.pending["kind"]]
            return head + f"{self.name(self.pending['seat'])}, {what}"
        seat = self.active()
        if self.phase == "objects":
            return head + f"{self.name(seat)}: use an object or roll"
        if self.phase == "move":
            return head + f"{self.name(seat)}: roll to move"
        left = self.move.get("left", 0)
        return head + f"{self.name(seat)} moves ({left} step{'s' if left != 1 else ''} left)"

    # -------------------------------------------------------------------- bots
    @classmethod
    def policy(cls, view: View, legal: list[Action], rng: Rng) -> Action | None:
        from .bot import choose
        return choose(view, legal, rng)

    @classmethod
    def hard_policy(cls, view: View, legal: list[Action], rng: Rng) -> Action | None:
        """The heuristic a Hard racer starts its search from and plays its own playouts by:
        the Normal player's, with the numbers tuned to win (``hard.HARD_STYLE``)."""
        from .bot import choose
        return choose(view, legal, rng, HARD_STYLE)

    def trusts_policy(self, legal: list[Action]) -> bool:
        """Whether the Hard racer takes its own heuristic's choice without a search: for the
        steps of a move, which that heuristic already plans over every path and the next
        turn's rolls (``bot.World.ahead``), where playouts of a turn or so only see the
        points nearest at hand.  Not in the last game turn: there the playouts reach the
        finish and count wins, not points."""
        return self.turn < self.turns and all(a["type"] in ("step", "stop") for a in legal)

    #: The Hard player's search (see ``hard.py``): playouts of a few turns, then the estimate.
    #: Nothing is hidden, so one imagined table is the table itself (``worlds=1``: the pick
    #: valued by ``action_values`` needs no more).
    search_settings = SearchSettings(iterations=SEARCH_PLAYOUTS, rollout_actions=SEARCH_DEPTH,
                                     work=WORK_BUDGET, worlds=1)

    def determinize(self, seat: int, rng: Rng) -> None:
        """Nothing in the race is hidden from anyone: there is nothing to redraw (the search
        reseeds the generator, so the dice to come stay unknown)."""

    def evaluate(self, seat: int) -> float:
        """How well ``seat`` is doing in an unfinished race, 0 to 1 (``hard.standing``)."""
        return standing(self)[seat]

    def action_values(self, seat: int, legal: list[Action]) -> list[float] | None:
        """The character pick of a two-racer race, valued from the measured matchups
        (``hard.pick_values``); None elsewhere (the playouts decide)."""
        if self.phase != "pick" or any(a.get("type") != "pick" for a in legal):
            return None
        return pick_values(self.chars, seat, [a["character"] for a in legal])


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
