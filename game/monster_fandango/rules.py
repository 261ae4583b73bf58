"""Monster Fandango's rule controller.

Phases: ``starts`` (only with the "choose starting hexes" option: each seat
picks its starting hex), ``flags`` (an opponent marks the three hexes of
every Capture the Flag quest), ``play`` (rounds of round-robin activations)
and ``over``.

An activation is split into small actions: ``select`` a unit (optionally
riding a horse), then any number of ``move`` steps to reachable hexes (and
``face`` turns with the facing option) while Move lasts, then one action
(``attack``, ``shoot``, ``rampage``, ``fury``, ``search``, ``open``,
``pickup``, ``rally``, ``burrow``, ``heal``, ``escape``) or ``pass``; items
are handed to a stack-mate with ``give`` at no cost.
Money Bags are spent with ``buy`` at any time in one's own turn.

Resolution runs through a queue of small plain-data steps (``ops``) so that
it can stop for another seat's decision in the middle: an Orc's Dark
Sacrifice after a target is declared, or a Ratman's Lucky after a roll.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from game.engine import Action, Controller, Event, Option, Rng, View, event
from game.engine.search import SearchSettings

from . import hard
from .data import BUYABLE, ITEMS, MAP, MONSTERS, QUESTS, RALLY, lookup
from .kernel import (CELLS, CELL_SET, ORDER, between, by_nearness, direction_of, distance,
                     front, in_front, neighbours, step, towards_centre, zone)

Cell = tuple[int, int]
STACK_LIMIT = 4
FLAG_REACH = 5  # flag hexes lie within this many hexes of the quest holder's start
FEARFUL = frozenset({"villager", "elf", "dwarf", "horse", "war_dog"})
DARK_FOE_PREY = frozenset({"villager", "elf", "dwarf"})
ELF_SHOT = 3  # "Elven Archer": the elf's shot hits on 1-3
ROAM_GAP = 2  # no starting hex within two hexes of a roaming place (ruling 35)
ESCAPE_REACH = 3  # a kitten's escape: up to 3 hexes
NO_QUEST_SOLO = frozenset({3, 9, 12})  # quests that need an opponent
ROUND_QUESTS = {"flag", "folk", "beasts", "occupy"}
_EMPTY: list[int] = []


def _cell(value: Any) -> Cell | None:
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        cell = (value[0], value[1])
        return cell if cell in CELL_SET else None
    return None


def _odd_kind(value: Any) -> bool:
    """Whether ``value`` holds a yes/no or a fraction where this game's actions hold only
    whole numbers and words (``True == 1`` and ``1.0 == 1`` would pass the comparison
    with a legal action and then fail, or creep into the state)."""
    if isinstance(value, (bool, float)):
        return True
    if isinstance(value, dict):
        return any(_odd_kind(v) for v in value.values())
    if isinstance(value, list):
        return any(_odd_kind(v) for v in value)
    return False


def a(name: str) -> str:
    """The name with its indefinite article.

    >>> a("Elf"), a("Troll")
    ('an Elf', 'a Troll')
    """
    return ("an " if name[:1] in "AEIOU" else "a ") + name


def rng_text(need: int) -> str:
    """How a d8 target reads: "1-4", "1", "none"."""
    if need <= 0:
        return "none"
    return "1" if need == 1 else f"1-{min(need, 8)}"


class FandangoController(Controller):
    """Up to four seats of monsters questing on one hex map."""

    game_id = "monster_fandango"
    title = "Monster Fandango"
    rules_version = 2
    min_seats = 1
    max_seats = 4
    has_secrets = False
    board = "monster_fandango.tmx"
    options = (
        Option("round_limit", "Round limit", 30, minimum=0, maximum=99,
               help="The game ends after this many rounds (0: no limit)."),
        Option("facing", "Facing rule", False,
               help="Units attack only into their front three hexes; turning costs 1 move."),
        Option("choose_starts", "Choose starting hexes", False,
               help="Each player picks a starting hex instead of the map's default ones."),
    )

    # ----------------------------------------------------------------- set-up
    def __init__(self, seats: list[dict[str, str]], options: dict[str, Any], rng: Rng) -> None:
        super().__init__(seats, options, rng)
        self.n = len(seats)
        self.next_id = 1
        self._idx: dict[str, Any] | None = None
        self.units: dict[int, dict[str, Any]] = {}
        self.items: dict[int, dict[str, Any]] = {}
        self.searched: dict[Cell, int] = {}
        self.lairs: dict[Cell, int | None] = {}  # lair hex -> guardian unit id
        self.round = 1
        self.phase = "play"
        self.active: dict[str, Any] | None = None
        self.ops: list[dict[str, Any]] = []
        self.prompt: dict[str, Any] | None = None
        self.handover_flag = False
        self._cross = False
        self.finale = False
        self.winners: list[int] = []
        self.end_reason: str | None = None
        self.created: dict[str, int] = {}
        self.removed: dict[str, int] = {}
        self.kills: list[list[str]] = [[] for _ in range(self.n)]
        self.villagers_slain: list[list[int]] = [[] for _ in range(self.n)]
        self.corners: list[list[Cell]] = [[] for _ in range(self.n)]
        self.ride_ends: list[list[str]] = [[] for _ in range(self.n)]
        self.delivered: list[int] = [0] * self.n
        self.flags: list[list[Cell]] = [[] for _ in range(self.n)]
        self.setup_log: list[Event] = []
        self._generate_quests()
        self._starting_order()
        self._opening_log()
        defaults = MAP["starts"][self.n]
        self.starts: list[Cell | None] = [None] * self.n
        if not options.get("choose_starts"):
            self.starts = list(defaults)
        self.flag_queue = [s for s in self.order if self._quest_index(s, "flag") is not None]
        self.setup_turn = 0
        for lair in MAP["lairs"]:
            self.lairs[lair] = None
        if options.get("choose_starts"):
            self.phase = "starts"
        else:
            self._begin_after_starts()

    def _generate_quests(self) -> None:
        self.quests: list[list[dict[str, Any]]] = []
        self.quest_rolls: list[list[int]] = []
        for seat in range(self.n):
            rolls: list[int] = []
            while len(rolls) < 3:
                value = self.rng.randint(1, 8) + self.rng.randint(1, 8)
                if value in rolls or (self.n == 1 and value in NO_QUEST_SOLO):
                    continue
                rolls.append(value)
            self.quest_rolls.append(rolls)
            self.quests.append([{"roll": r, "key": QUESTS[r]["key"], "done": False,
                                 "progress": 0, "rounds": 0} for r in rolls])

    def _starting_order(self) -> None:
        totals = [sum(r) for r in self.quest_rolls]
        low = min(totals)
        tied = [s for s in range(self.n) if totals[s] == low]
        self.tie_rolls: list[dict[int, int]] = []
        while len(tied) > 1:
            rolls = {s: self.rng.randint(1, 8) for s in tied}
            self.tie_rolls.append(rolls)
            best = min(rolls.values())
            tied = [s for s in tied if rolls[s] == best]
        self.first = tied[0]
        self.order = [(self.first + k) % self.n for k in range(self.n)]
        self.turn = self.first

    def opening(self) -> list[Event]:
        return list(self.setup_log)

    def _opening_log(self) -> None:
        """Log lines for the quest rolls and the starting order, shown with the first action."""
        for seat in range(self.n):
            rolls = self.quest_rolls[seat]
            titles = ", ".join(f"{QUESTS[r]['title']} ({r})" for r in rolls)
            self.setup_log.append(event("quests", f"{self.name(seat)} rolls the quests {titles}: "
                                                  f"total {sum(rolls)}.", seat=seat))
        for rolls in self.tie_rolls:
            tied = " and ".join(f"{self.name(s)} {v}" for s, v in sorted(rolls.items()))
            self.setup_log.append(event("tie", f"Tied lowest totals roll a d8: {tied}."))
        if self.n > 1:
            self.setup_log.append(event("order", f"{self.name(self.first)} has the lowest total "
                                                 f"and goes first; play goes clockwise.",
                                        seat=self.first))

    def _begin_after_starts(self) -> None:
        for seat in range(self.n):
            start = self.starts[seat]
            facing = towards_centre(start)
            for starting in (True, False):
                self._new_unit("villager", seat, start, acted=False, starting=starting,
                               facing=facing)
        for lair in sorted(self.lairs, key=ORDER.get):
            value = self.rng.randint(1, 8) + self.rng.randint(1, 8)
            kind = lookup("monster", value)
            if kind in ITEMS:
                self._new_item(kind, hex=lair)
            else:
                uid = self._new_unit(kind, None, lair, acted=False, facing=0)
                self.units[uid]["guard"] = list(lair)
                self.lairs[lair] = uid
        for cell in MAP["wild"]:
            value = self.rng.randint(1, 8) + self.rng.randint(1, 8)
            kind = lookup("monster", value)
            if kind in ITEMS:
                self._new_item(kind, hex=cell)
                continue
            where = self._place_cell(cell, MONSTERS[kind]["stack"], None, unit=True)
            if where is not None:
                self._new_unit(kind, None, where, acted=False, facing=0)
        if self.flag_queue:
            self.phase = "flags"
        else:
            self.phase = "play"

    def _new_unit(self, kind: str, owner: int | None, cell: Cell, acted: bool,
                  starting: bool = False, facing: int = 0) -> int:
        uid = self.next_id
        self.next_id += 1
        self.units[uid] = {"id": uid, "kind": kind, "owner": owner, "hex": cell,
                           "acted": acted, "starting": starting, "burrowed": False,
                           "down": False, "facing": facing, "sacrificed": False, "guard": None}
        idx = self._idx
        if idx is not None:  # kept up to date: the new id is the highest, so lists stay sorted
            at, owned, load = idx["at"], idx["owned"], idx["load"]
            at[cell] = at.get(cell, _EMPTY) + [uid]  # new lists: callers may hold the old ones
            owned[owner] = owned.get(owner, _EMPTY) + [uid]
            load[cell] = load.get(cell, 0) + MONSTERS[kind]["stack"]
            self._drop_derived(idx)
        if owner is not None:
            self._visit(owner, cell)
        return uid

    def _new_item(self, kind: str, unit: int | None = None, hex: Cell | None = None) -> int:
        iid = self.next_id
        self.next_id += 1
        self.items[iid] = {"id": iid, "kind": kind, "unit": unit, "hex": hex, "sprung": False}
        idx = self._idx
        if idx is not None:  # kept up to date, as for a new unit
            if unit is None:
                lying, cell = idx["lying"], hex
                lying[cell] = lying.get(cell, _EMPTY) + [iid]
            else:
                carried, cell = idx["carried"], self.units[unit]["hex"]
                carried[unit] = carried.get(unit, _EMPTY) + [iid]
            load = idx["load"]
            load[cell] = load.get(cell, 0) + ITEMS[kind]["stack"]
            self._drop_derived(idx)
        self.created[kind] = self.created.get(kind, 0) + 1
        return iid

    def _remove_item(self, iid: int) -> None:
        idx = self._idx
        if idx is not None:  # kept up to date, as for a new item
            it = self.items[iid]
            if it["unit"] is None:
                group, key, cell = idx["lying"], it["hex"], it["hex"]
            else:
                group, key, cell = idx["carried"], it["unit"], self.units[it["unit"]]["hex"]
            left = [i for i in group[key] if i != iid]
            if left:
                group[key] = left
            else:
                del group[key]
            load = idx["load"]
            load[cell] -= ITEMS[it["kind"]]["stack"]
            if not load[cell]:
                del load[cell]
            self._drop_derived(idx)
        kind = self.items.pop(iid)["kind"]
        self.removed[kind] = self.removed.get(kind, 0) + 1

    # ------------------------------------------------------------- queries
    def unit_hex(self, uid: int) -> Cell:
        return self.units[uid]["hex"]

    def _index(self) -> dict[str, Any]:
        """Who stands where and who carries what, rebuilt after any change."""
        if self._idx is None:
            # Units and items are only ever added with rising ids, so the dicts iterate in id
            # order already (no sorting needed).
            at: dict[Cell, list[int]] = {}
            owned: dict[int | None, list[int]] = {}
            load: dict[Cell, int] = {}
            for uid, u in self.units.items():
                cell = u["hex"]
                at.setdefault(cell, []).append(uid)
                owned.setdefault(u["owner"], []).append(uid)
                load[cell] = load.get(cell, 0) + MONSTERS[u["kind"]]["stack"]
            carried: dict[int, list[int]] = {}
            lying: dict[Cell, list[int]] = {}
            units = self.units
            for iid, it in self.items.items():
                if it["unit"] is None:
                    lying.setdefault(it["hex"], []).append(iid)
                    cell = it["hex"]
                else:
                    carried.setdefault(it["unit"], []).append(iid)
                    cell = units[it["unit"]]["hex"]
                load[cell] = load.get(cell, 0) + ITEMS[it["kind"]]["stack"]
            self._idx = {"at": at, "carried": carried, "lying": lying, "load": load,
                         "owned": owned}
        return self._idx

    def _changed(self) -> None:
        self._idx = None

    @staticmethod
    def _drop_derived(idx: dict[str, Any]) -> None:
        """Forget what is worked out from the index (it is worked out again when wanted)."""
        for derived in ("stats", "quests_checked", "reach", "kinds"):
            idx.pop(derived, None)

    def _put(self, uid: int, cell: Cell) -> None:
        """Move a unit (with what it carries) to ``cell``, keeping the index up to date
        instead of rebuilding it: moves are the commonest change of all."""
        u = self.units[uid]
        old = u["hex"]
        u["hex"] = cell
        idx = self._idx
        if idx is None or old == cell:
            return
        weight = self.weight(uid)
        at, load = idx["at"], idx["load"]
        left = [o for o in at[old] if o != uid]  # new lists: callers may hold the old ones
        if left:
            at[old] = left
        else:
            del at[old]
        at[cell] = sorted(at.get(cell, _EMPTY) + [uid])
        load[old] -= weight
        if not load[old]:
            del load[old]
        load[cell] = load.get(cell, 0) + weight
        for derived in ("stats", "quests_checked", "reach"):  # worked out again when wanted
            idx.pop(derived, None)  # (what units carry stays: "kinds" is kept)

    def units_at(self, cell: Cell) -> list[int]:
        """Unit ids on a hex (a shared list: do not change it)."""
        return (self._idx or self._index())["at"].get(cell, _EMPTY)

    def carried(self, uid: int) -> list[int]:
        """Item ids a unit carries (a shared list: do not change it)."""
        return (self._idx or self._index())["carried"].get(uid, _EMPTY)

    def lying(self, cell: Cell) -> list[int]:
        """Item ids lying on a hex (a shared list: do not change it)."""
        return (self._idx or self._index())["lying"].get(cell, _EMPTY)

    def item_hex(self, iid: int) -> Cell:
        it = self.items[iid]
        return self.units[it["unit"]]["hex"] if it["unit"] is not None else it["hex"]

    def load(self, cell: Cell) -> int:
        """Stack points in a hex: units, the items they carry and items lying there."""
        return (self._idx or self._index())["load"].get(cell, 0)

    def weight(self, uid: int) -> int:
        """A unit's own stack size plus everything it carries."""
        return MONSTERS[self.units[uid]["kind"]]["stack"] + sum(
            ITEMS[self.items[i]["kind"]]["stack"] for i in self.carried(uid))

    def side_at(self, cell: Cell) -> list[int | None]:
        return sorted({self.units[u]["owner"] for u in self.units_at(cell)},
                      key=lambda o: -1 if o is None else o)

    def enemy_at(self, cell: Cell, owner: int | None) -> bool:
        return any(self.units[u]["owner"] != owner for u in self.units_at(cell))

    def seat_units(self, seat: int) -> list[int]:
        """A seat's unit ids in order (a shared list: do not change it)."""
        return (self._idx or self._index())["owned"].get(seat, _EMPTY)

    def has_item(self, uid: int, kind: str) -> bool:
        return any(self.items[i]["kind"] == kind for i in self.carried(uid))

    def horrors(self, owner: int | None) -> list[Cell]:
        """Where the Horrors that frighten ``owner``'s units stand (every other side's)."""
        return [d["hex"] for d in self.units.values()
                if d["kind"] == "horror" and d["owner"] != owner]

    @staticmethod
    def fear_step_ok(horrors: list[Cell], frm: Cell, to: Cell) -> bool:
        """Fear (ruling 36): a step may not bring a fearful unit nearer a Horror that it
        would then be within two hexes of.  A unit already inside may step away or around."""
        for h in horrors:
            d = distance(to, h)
            if d <= 2 and d < distance(frm, h):
                return False
        return True

    def fear_blocked(self, kind: str, owner: int | None, cell: Cell,
                     frm: Cell | None = None) -> bool:
        """Whether a ``kind`` unit of ``owner`` may not step from ``frm`` into ``cell`` (Fear;
        without ``frm``: whether it may not arrive there from outside the feared zone)."""
        if kind not in FEARFUL:
            return False
        horrors = self.horrors(owner)
        if frm is None:
            return any(distance(h, cell) <= 2 for h in horrors)
        return not self.fear_step_ok(horrors, frm, cell)

    def can_target(self, attacker: int, target: int) -> bool:
        a, t = self.units[attacker], self.units[target]
        return t["owner"] != a["owner"] and not t["burrowed"]

    def attack_value(self, uid: int, target: int | None = None, missile: bool = False) -> int:
        u = self.units[uid]
        base = MONSTERS[u["kind"]]["attack"]
        dark_foe = (u["kind"] == "lizardman" and target is not None
                    and self.units[target]["kind"] in DARK_FOE_PREY)
        if missile:
            if self._missile_range(uid) == 0:
                return 0
            if dark_foe:
                return 6  # Dark Foe at range (ruling 37)
            return self.shot_value(uid)
        if dark_foe:
            base = 6
        if self.has_item(uid, "sword"):
            base += 1
        return base + self._pack(uid)

    def shot_value(self, uid: int) -> int:
        """A unit's missile attack (ruling 15): an Elf shoots on 1-3 (Elven Archer), others at
        their Attack; a carried bow, crossbow or sling adds 1."""
        u = self.units[uid]
        weapon = any(ITEMS[self.items[i]["kind"]]["kind"] == "missile" for i in self.carried(uid))
        if u["kind"] == "elf":
            return ELF_SHOT + weapon
        return MONSTERS[u["kind"]]["attack"] + weapon + self._pack(uid)

    def defense_value(self, uid: int) -> int:
        u = self.units[uid]
        value = MONSTERS[u["kind"]]["defense"]
        if any(ITEMS[self.items[i]["kind"]]["kind"] == "armour" for i in self.carried(uid)):
            value += 1
        if any(o != uid and self.units[o]["kind"] == "war_dog"
               and self.units[o]["owner"] == u["owner"] for o in self.units_at(u["hex"])):
            value += 1
        return value + self._pack(uid)

    def _pack(self, uid: int) -> int:
        u = self.units[uid]
        if u["kind"] != "wolf":
            return 0
        wolves = [o for o in self.units_at(u["hex"]) if self.units[o]["kind"] == "wolf"
                  and self.units[o]["owner"] == u["owner"]]
        return len(wolves) - 1

    def _missile_range(self, uid: int) -> int:
        ranges = [ITEMS[self.items[i]["kind"]].get("range", 0) for i in self.carried(uid)
                  if ITEMS[self.items[i]["kind"]]["kind"] == "missile"]
        if self.units[uid]["kind"] == "elf":
            ranges.append(3)
        return max(ranges, default=0)

    def move_allowance(self, uid: int, horse: int | None) -> int:
        move = MONSTERS[self.units[uid]["kind"]]["move"]
        return max(move, MONSTERS["horse"]["move"]) if horse is not None else move

    def reachable(self, uid: int, points: int, horse: int | None = None) -> dict[Cell, list[Cell]]:
        """Hexes a unit (with its horse) can end a move on, with a shortest path (kept with the
        index until something moves or changes: a shared dict, do not change it)."""
        index = self._idx or self._index()
        cache = index.setdefault("reach", {})
        key = (uid, points, horse)
        found = cache.get(key)
        if found is None:
            found = cache[key] = self._reachable(uid, points, horse)
        return found

    def _reachable(self, uid: int, points: int, horse: int | None) -> dict[Cell, list[Cell]]:
        u = self.units[uid]
        owner, start = u["owner"], u["hex"]
        movers = [uid] + ([horse] if horse is not None else [])
        kinds = [self.units[m]["kind"] for m in movers]
        need = sum(self.weight(m) for m in movers)
        horrors = self.horrors(owner) if any(k in FEARFUL for k in kinds) else []
        at = self._index()["at"]
        units = self.units
        paths: dict[Cell, list[Cell]] = {start: []}
        frontier = [start]
        for _ in range(points):
            nxt = []
            for cell in frontier:
                for n in neighbours(cell):
                    if n in paths:
                        continue
                    if n in at and any(units[o]["owner"] != owner for o in at[n]):
                        continue
                    if horrors and not self.fear_step_ok(horrors, cell, n):
                        continue
                    paths[n] = paths[cell] + [n]
                    nxt.append(n)
            frontier = nxt
        load = self._index()["load"]
        return {c: p for c, p in paths.items()
                if c != start and load.get(c, 0) + need <= STACK_LIMIT}

    def can_search_here(self, uid: int) -> str | None:
        """None if the unit may search its hex now, else the reason it may not."""
        u = self.units[uid]
        cell = u["hex"]
        if MONSTERS[u["kind"]]["search"] == 0:
            return f"{MONSTERS[u['kind']]['name']}s cannot search."
        if cell in self.lairs:
            if self.lairs[cell] is not None:
                return "The lair's monster still guards it."
            return None
        if cell in self.searched:
            return "This hex has already been searched."
        start = self.starts[u["owner"]]
        if cell == start or distance(cell, start) == 1:
            return "You cannot search your starting hex or the hexes around it."
        return None

    def openable(self, uid: int) -> list[int]:
        u = self.units[uid]
        if MONSTERS[u["kind"]]["search"] == 0:
            return []
        out = []
        for iid in sorted(self.items):
            it = self.items[iid]
            if it["kind"] != "chest" or self.item_hex(iid) != u["hex"]:
                continue
            if it["unit"] is None or self.units[it["unit"]]["owner"] == u["owner"]:
                out.append(iid)
        return out

    def _line_clear(self, a: Cell, b: Cell) -> bool:
        return not any(any(not self.units[u]["burrowed"] for u in self.units_at(c))
                       for c in between(a, b))

    def shoot_targets(self, uid: int) -> list[int]:
        u = self.units[uid]
        reach = self._missile_range(uid)
        if reach == 0:
            return []
        out = []
        for t in sorted(self.units):
            if not self.can_target(uid, t):
                continue
            cell = self.units[t]["hex"]
            if not 1 <= distance(u["hex"], cell) <= reach or not self._line_clear(u["hex"], cell):
                continue
            if self.opts["facing"] and not in_front(u["hex"], u["facing"], cell):
                continue
            out.append(t)
        return out

    def _front_ok(self, uid: int, cell: Cell) -> bool:
        u = self.units[uid]
        if not self.opts["facing"]:
            return True
        return direction_of(u["hex"], cell) in front(u["facing"])

    def melee_targets(self, uid: int) -> list[int]:
        u = self.units[uid]
        at = self._index()["at"]
        found = [t for n in neighbours(u["hex"]) if n in at and self._front_ok(uid, n)
                 for t in at[n] if self.can_target(uid, t)]
        return sorted(found)

    def _targets_in(self, uid: int, cell: Cell) -> list[int]:
        return [t for t in self.units_at(cell) if self.can_target(uid, t)]

    def fury_choices(self, uid: int) -> list[list[int]]:
        u = self.units[uid]
        dirs = [u["facing"]] if self.opts["facing"] else list(range(6))
        found: set[tuple[int, ...]] = set()
        for d in dirs:
            groups = []
            for k in (d - 1, d, d + 1):
                cell = step(u["hex"], k)
                targets = self._targets_in(uid, cell) if cell in CELL_SET else []
                if targets:
                    groups.append(targets)
            if len(groups) < 2:
                continue  # one hex only: an ordinary attack
            combos: list[tuple[int, ...]] = [()]
            for g in groups:
                combos = [c + (t,) for c in combos for t in g]
            found.update(tuple(sorted(c)) for c in combos)
        return [list(c) for c in sorted(found)]

    # ------------------------------------------------------------ whose turn
    def to_act(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.prompt is not None:
            return [self.prompt["seat"]]
        if self.phase == "starts":
            return [self.order[self.setup_turn]]
        if self.phase == "flags":
            return [self._flag_marker(self.flag_queue[0])]
        return [self.turn]

    def _flag_marker(self, holder: int) -> int:
        """The opponent who marks a seat's flags: the next seat in turn order."""
        return self.order[(self.order.index(holder) + 1) % self.n]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        if self.prompt is not None:
            return self._prompt_actions()
        if self.phase == "starts":
            return [{"type": "start", "hex": list(c)} for c in CELLS if self._start_ok(c)]
        if self.phase == "flags":
            holder = self.flag_queue[0]
            return [{"type": "flag", "hex": list(c)} for c in CELLS if self._flag_ok(holder, c)]
        return self._play_actions(seat)

    def _start_ok(self, cell: Cell) -> bool:
        if cell in self.lairs or any(distance(cell, w) <= ROAM_GAP for w in MAP["wild"]):
            return False
        return all(s is None or distance(s, cell) >= 4 for s in self.starts)

    def _flag_ok(self, holder: int, cell: Cell) -> bool:
        return (cell not in self.flags[holder] and cell not in self.starts
                and cell not in self.lairs and not self.units_at(cell)
                and distance(cell, self.starts[holder]) <= FLAG_REACH)

    def _prompt_actions(self) -> list[Action]:
        p = self.prompt
        if p["type"] == "sacrifice":
            out = [{"type": "sacrifice", "orc": o} for o in p["orcs"]] + [{"type": "decline"}]
        elif p["type"] == "kitten":
            out = [{"type": "escape", "to": list(c)} for c in p["cells"]] + [{"type": "decline"}]
        else:
            out = [{"type": "lucky", "change": 0}]
            if p["value"] > p["low"]:
                out.append({"type": "lucky", "change": -1})
            if p["value"] < p["high"]:
                out.append({"type": "lucky", "change": 1})
        return out + self._buy_actions(p["seat"])  # a Money Bag "at any time" (ruling 38)

    def _buy_actions(self, seat: int) -> list[Action]:
        money = self._quest_index(seat, "money")
        if money is not None and not self.quests[seat][money]["done"]:
            return []  # Treasury: bags cannot be spent until that quest is done
        out: list[Action] = []
        for uid in self.seat_units(seat):
            for iid in self.carried(uid):
                if self.items[iid]["kind"] == "money_bag":
                    out += [{"type": "buy", "bag": iid, "item": k} for k in BUYABLE]
        return out

    def _play_actions(self, seat: int, only: str | None = None,
                      unit: Any = None) -> list[Action]:
        """The legal actions of the seat whose turn it is (only those of type ``only``, when
        given, and only selections of ``unit`` when that is given: applying an action checks
        just its own kind, which keeps replays fast)."""
        out: list[Action] = []
        if only == "buy":
            return self._buy_actions(seat)
        if self.active is None:
            for uid in self.seat_units(seat):
                u = self.units[uid]
                if u["acted"] or (unit is not None and uid != unit):
                    continue
                out.append({"type": "select", "unit": uid})
                if u["down"] or u["burrowed"] or u["kind"] == "horse":
                    continue
                for h in self.units_at(u["hex"]):
                    hd = self.units[h]
                    if hd["kind"] == "horse" and hd["owner"] == seat and not hd["acted"]:
                        out.append({"type": "select", "unit": uid, "ride": h})
            out.append({"type": "pass_all"})
        else:
            out += self._unit_actions(self.active["unit"], only)
        if only is None:
            out += self._buy_actions(seat)
        return out

    def _unit_actions(self, uid: int, only: str | None = None) -> list[Action]:
        u = self.units[uid]
        act = self.active
        out: list[Action] = []
        if u["down"]:
            return [{"type": "heal"}, {"type": "pass"}]

        def want(*kinds: str) -> bool:
            return only is None or only in kinds

        if act["moves"] > 0 and want("move", "face"):
            for cell in sorted(self.reachable(uid, act["moves"], act["horse"]), key=ORDER.get):
                out.append({"type": "move", "to": list(cell)})
            if self.opts["facing"]:
                out += [{"type": "face", "dir": d} for d in range(6) if d != u["facing"]]
        if not u["burrowed"]:
            if want("attack", "rampage"):
                melee = self.melee_targets(uid)
                out += [{"type": "attack", "target": t} for t in melee]
                if u["kind"] == "black_death":
                    cells = sorted({self.units[t]["hex"] for t in melee}, key=ORDER.get)
                    out += [{"type": "rampage", "hex": list(c)} for c in cells]
            if want("shoot"):
                out += [{"type": "shoot", "target": t} for t in self.shoot_targets(uid)]
            if u["kind"] == "death_beast" and want("fury"):
                out += [{"type": "fury", "targets": c} for c in self.fury_choices(uid)]
            if want("search") and self.can_search_here(uid) is None:
                out.append({"type": "search"})
            if want("open"):
                for chest in self.openable(uid):
                    out.append({"type": "open", "chest": chest})
                    if any(self.units[o]["owner"] == u["owner"] and self.has_item(o, "key")
                           for o in self.units_at(u["hex"])) and not self.items[chest]["sprung"]:
                        out.append({"type": "open", "chest": chest, "key": True})
            if want("pickup") and self.lying(u["hex"]):
                out.append({"type": "pickup"})
            if u["kind"] == "villager" and want("rally"):
                out.append({"type": "rally"})
            if u["kind"] == "dwarf" and want("burrow") and len(self.carried(uid)) <= 3:
                out.append({"type": "burrow"})
            if want("give"):
                mates = [o for o in self.units_at(u["hex"]) if o != uid
                         and self.units[o]["owner"] == u["owner"]]
                out += [{"type": "give", "item": i, "to": o} for i in self.carried(uid)
                        for o in mates]
        out.append({"type": "pass"})
        return out

    # ---------------------------------------------------------------- apply
    def _plain_move_ok(self, action: Action) -> bool:
        """Whether ``action`` is a plain legal move of the active unit, checked against the
        reachable hexes directly (what ``_unit_actions`` would list; anything unusual is left
        to the full check, so the answer never differs from it)."""
        act = self.active
        if (action.get("type") != "move" or self.prompt is not None or self.phase != "play"
                or act is None or len(action) != 2 or act["moves"] <= 0):
            return False
        to = action.get("to")
        if type(to) is not list or len(to) != 2 or type(to[0]) is not int \
                or type(to[1]) is not int:
            return False
        uid = act["unit"]
        if self.units[uid]["down"]:
            return False
        return (to[0], to[1]) in self.reachable(uid, act["moves"], act["horse"])

    def apply(self, seat: int, action: Action) -> list[Event]:
        if any(_odd_kind(v) for k, v in action.items() if k != "key") or \
                ("key" in action and action["key"] is not True):
            raise self.refuse("That action holds a value of the wrong kind.")
        if seat not in self.to_act():
            legal: list[Action] = []
        elif self._plain_move_ok(action):
            legal = [action]  # the same answer as the list of moves, without building it
        elif self.prompt is None and self.phase == "play" and isinstance(action.get("type"), str):
            legal = self._play_actions(seat, only=action["type"],
                                       unit=action.get("unit") if action["type"] == "select"
                                       else None)
        else:
            legal = self.legal_actions(seat)
        if action not in legal:
            raise self.refuse(self._why_not(seat, action, self.legal_actions(seat)))
        self._cross = False
        events: list[Event] = []
        if self.prompt is not None and action["type"] == "buy":
            self._buy(seat, action, events)  # the question still waits for its answer
            if self.prompt["type"] == "kitten":  # what it carries may change where it can run
                cells = sorted(self.reachable(self.prompt["unit"], ESCAPE_REACH), key=ORDER.get)
                self.prompt["cells"] = [list(c) for c in cells]
            self._after(events, activation_over=False)
        elif self.prompt is not None:
            self._answer_prompt(seat, action, events)
        elif self.phase == "starts":
            self._choose_start(seat, action, events)
        elif self.phase == "flags":
            self._mark_flag(seat, action, events)
        else:
            self._play(seat, action, events)
        # A handover card is wanted when a mid-turn decision passes the screen to another
        # person, and when it comes back (see rules.md, ruling 34).
        nxt = self.to_act()
        self.handover_flag = self._cross and bool(nxt) and nxt[0] != seat
        for ev in events:  # "the wild Orc ..." opens a sentence as "The wild Orc ..."
            ev["text"] = ev["text"][:1].upper() + ev["text"][1:]
        return events

    def _why_not(self, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action.get("type")
        kinds = {a["type"] for a in legal}
        if self.prompt is not None:
            what = {"sacrifice": "whether an Orc takes the attack",
                    "kitten": "whether the kitten helps its carrier escape"}.get(
                self.prompt["type"], "a Lucky change to the roll")
            if kind == "buy" and self._quest_index(seat, "money") is not None:
                return "Your Treasury quest keeps your Money Bags unspent until it is done."
            if kind == "escape":
                return "The kitten's escape goes to a hex up to 3 away that can be reached."
            return f"First answer the question: {what}."
        if self.phase == "starts":
            return ("Choose a starting hex at least 4 hexes from the others (not a lair or a "
                    "roaming place).")
        if self.phase == "flags":
            return (f"Mark a free hex within {FLAG_REACH} hexes of their starting hex that is not "
                    f"a starting hex, a lair or occupied.")
        money = self._quest_index(seat, "money")
        if kind == "buy" and money is not None and not self.quests[seat][money]["done"]:
            return "Your Treasury quest keeps your Money Bags unspent until it is done."
        if kind in ("attack", "shoot", "rampage", "fury") and self.active is not None:
            return "That is not a target this unit can attack from here."
        if kind not in kinds:
            if kind == "select" and self.active is not None:
                return "Finish this unit's turn first (act or pass)."
            if kind == "escape":
                return ("A kitten's escape is a reaction: its carrier's owner is asked when "
                        "the carrier is hit.")
            unit_moves = ("move", "attack", "shoot", "search", "open", "pickup", "rally",
                          "burrow", "heal", "pass", "rampage", "fury", "face")
            if kind in unit_moves and self.active is None:
                return "Select one of your units first."
            if kind == "search" and self.active is not None:
                why = self.can_search_here(self.active["unit"])
                if why:
                    return why
            return f"'{kind}' is not possible now."
        if kind == "select":
            uid = action.get("unit")
            if uid not in self.units or self.units[uid]["owner"] != seat:
                return "That is not one of your units."
            if self.units[uid]["acted"]:
                return "That unit has already acted this round."
            return "That unit cannot ride that horse."
        if kind == "move":
            cell = _cell(action.get("to"))
            if cell is None:
                return "That is not a hex of the map."
            if self.active and self.active["moves"] <= 0:
                return "This unit has no movement left."
            if self.active and self.load(cell) + self.weight(self.active["unit"]) > STACK_LIMIT:
                return "There is no room in that hex (at most 4 stack points)."
            return "That hex cannot be reached: too far, blocked by enemies, or feared."
        if kind == "open":
            return "There is no chest here that this unit can open that way."
        if kind == "buy":
            return "Choose one of your Money Bags and an item it can buy."
        return "That action is not possible now."

    # ---- setup phases
    def _choose_start(self, seat: int, action: Action, events: list[Event]) -> None:
        cell = _cell(action["hex"])
        self.starts[seat] = cell
        events.append(event("start", f"{self.name(seat)} chooses a starting hex.", seat=seat,
                            hex=list(cell)))
        self.setup_turn += 1
        if self.setup_turn >= self.n:
            self._begin_after_starts()
            events.append(event("phase", "Every starting hex is chosen; two Villagers stand "
                                         "on each.", phase=self.phase))

    def _mark_flag(self, seat: int, action: Action, events: list[Event]) -> None:
        holder = self.flag_queue[0]
        cell = _cell(action["hex"])
        self.flags[holder].append(cell)
        events.append(event("flag", f"{self.name(seat)} marks a flag hex for "
                                    f"{self.name(holder)}'s Capture the Flag "
                                    f"({len(self.flags[holder])} of 3).",
                            seat=seat, holder=holder, hex=list(cell)))
        if len(self.flags[holder]) == 3:
            self.flag_queue.pop(0)
            if not self.flag_queue:
                self.phase = "play"
                events.append(event("phase", f"The flags are set. Round 1 begins with "
                                             f"{self.name(self.turn)}.", phase="play"))

    # ---- play
    def _play(self, seat: int, action: Action, events: list[Event]) -> None:
        kind = action["type"]
        if kind == "buy":
            self._buy(seat, action, events)
            self._after(events, activation_over=False)
            return
        if kind == "pass_all":
            for uid in self.seat_units(seat):
                self.units[uid]["acted"] = True
            events.append(event("pass", f"{self.name(seat)} passes with every remaining unit.",
                                seat=seat))
            self._after(events, activation_over=True, unit=None)
            return
        if kind == "select":
            uid = action["unit"]
            horse = action.get("ride")
            self.active = {"unit": uid, "horse": horse, "moves": self.move_allowance(uid, horse),
                           "start": list(self.units[uid]["hex"])}
            if horse is not None:
                self.units[horse]["acted"] = True
            name = ("the Starting Villager" if self.units[uid]["starting"]
                    else a(MONSTERS[self.units[uid]["kind"]]["name"]))
            text = (f"{self.name(seat)} activates {name}, riding a Horse." if horse is not None
                    else f"{self.name(seat)} activates {name}.")
            events.append(event("select", text, seat=seat, unit=uid, ride=horse))
            return
        uid = self.active["unit"]
        if kind == "move":
            self._move(uid, _cell(action["to"]), events)
            self._after(events, activation_over=False)
            return
        if kind == "give":
            item, mate = action["item"], action["to"]
            self.items[item]["unit"] = mate
            self._changed()
            events.append(event("give", f"{self.uname(uid)} hands {a(self.iname(item))} to "
                                        f"{self.uname(mate)}.", unit=uid, to=mate, item=item))
            self._after(events, activation_over=False)
            return
        if kind == "face":
            self.units[uid]["facing"] = action["dir"]
            self.active["moves"] -= 1
            events.append(event("face", f"{self.uname(uid)} turns to face a new direction.",
                                unit=uid, dir=action["dir"]))
            return
        if kind == "pass":
            events.append(event("pass", f"{self.uname(uid)} passes.", unit=uid, seat=seat))
        elif kind == "attack":
            self.ops.append({"op": "declare", "attacker": uid, "targets": [action["target"]],
                             "mode": "melee"})
        elif kind == "shoot":
            self.ops.append({"op": "declare", "attacker": uid, "targets": [action["target"]],
                             "mode": "missile"})
        elif kind == "rampage":
            cell = _cell(action["hex"])
            self.ops.append({"op": "attack_roll", "attacker": uid,
                             "targets": self._targets_in(uid, cell), "mode": "rampage"})
        elif kind == "fury":
            self.ops.append({"op": "attack_roll", "attacker": uid,
                             "targets": list(action["targets"]), "mode": "fury"})
        elif kind == "search":
            self.ops.append({"op": "search_roll", "unit": uid})
        elif kind == "open":
            self._open(uid, action, events)
        elif kind == "pickup":
            picked = list(self.lying(self.units[uid]["hex"]))
            for iid in picked:
                self.items[iid]["unit"], self.items[iid]["hex"] = uid, None
            self._changed()
            names = ", ".join(self.iname(i) for i in picked)
            events.append(event("pickup", f"{self.uname(uid)} picks up {names}.", unit=uid,
                                items=picked))
        elif kind == "rally":
            self.ops.append({"op": "rally_roll", "unit": uid})
        elif kind == "burrow":
            self.units[uid]["burrowed"] = True
            events.append(event("burrow", f"{self.uname(uid)} burrows into the ground "
                                          f"(Stone Crawl): it cannot be attacked until it moves.",
                                unit=uid))
        elif kind == "heal":
            self.units[uid]["down"] = False
            events.append(event("heal", f"{self.uname(uid)} regenerates and stands up again.",
                                unit=uid))
        self._finish_activation_after_ops(events)

    def _finish_activation_after_ops(self, events: list[Event]) -> None:
        self.active["done"] = True
        self._run(events)

    def _run(self, events: list[Event]) -> None:
        """Carry out queued steps until done or until a seat must decide."""
        while self.ops and self.prompt is None and self.phase != "over":
            op = self.ops.pop(0)
            getattr(self, "_op_" + op["op"])(op, events)
        if self.prompt is not None:
            self._cross = self._cross or self.prompt["seat"] != self.turn
            return
        if self.active is not None and self.active.get("done"):
            uid = self.active["unit"]
            self.active = None
            if uid in self.units:
                self.units[uid]["acted"] = True
            self._after(events, activation_over=True, unit=uid)

    def uname(self, uid: int) -> str:
        u = self.units[uid]
        owner = "the wild" if u["owner"] is None else f"{self.name(u['owner'])}'s"
        return f"{owner} {MONSTERS[u['kind']]['name']}"

    def iname(self, iid: int) -> str:
        return ITEMS[self.items[iid]["kind"]]["name"]

    # ---- movement
    def _visit(self, seat: int, cell: Cell) -> None:
        if cell in MAP["corners"] and cell not in self.corners[seat]:
            self.corners[seat].append(cell)

    def _relocate(self, uid: int, path: list[Cell], events: list[Event], riding: bool) -> None:
        u = self.units[uid]
        prev = u["hex"]
        for cell in path:
            d = direction_of(prev, cell)
            if d is not None:
                u["facing"] = d
            prev = cell
            if u["owner"] is not None:
                self._visit(u["owner"], cell)
                if riding:
                    for side in ("west", "east"):
                        if cell in MAP["ends"][side] and side not in self.ride_ends[u["owner"]]:
                            self.ride_ends[u["owner"]].append(side)
        self._put(uid, path[-1])
        u["burrowed"] = False

    def _move(self, uid: int, cell: Cell, events: list[Event]) -> None:
        horse = self.active["horse"]
        path = self.reachable(uid, self.active["moves"], horse)[cell]
        origin = self.units[uid]["hex"]
        self.active["moves"] -= len(path)
        self._relocate(uid, path, events, riding=horse is not None)
        if horse is not None:
            self._put(horse, cell)
            self.units[horse]["facing"] = self.units[uid]["facing"]
        steps = len(path)
        text = (f"{self.uname(uid)} rides {steps} hex{'es' if steps > 1 else ''}."
                if horse is not None else
                f"{self.uname(uid)} moves {steps} hex{'es' if steps > 1 else ''}.")
        events.append(event("move", text, unit=uid, horse=horse, frm=list(origin),
                            to=list(cell), path=[list(c) for c in path]))

    # ---- items
    def _buy(self, seat: int, action: Action, events: list[Event]) -> None:
        bag = action["bag"]
        owner = self.items[bag]["unit"]
        self._remove_item(bag)
        new = self._new_item(action["item"], unit=owner)
        events.append(event("buy", f"{self.uname(owner)} spends a Money Bag on "
                                   f"{a(self.iname(new))}.", unit=owner, item=new, seat=seat))

    def _open(self, uid: int, action: Action, events: list[Event]) -> None:
        chest = action["chest"]
        if action.get("key"):
            keyholder = next(o for o in self.units_at(self.units[uid]["hex"])
                             if self.units[o]["owner"] == self.units[uid]["owner"]
                             and self.has_item(o, "key"))
            key = next(i for i in self.carried(keyholder) if self.items[i]["kind"] == "key")
            self._remove_item(key)
            events.append(event("open", f"{self.uname(uid)} opens the chest with a Magic Key.",
                                unit=uid, chest=chest, ok=True))
            self._loot(uid, chest, events)
        elif self.items[chest]["sprung"]:
            events.append(event("open", f"{self.uname(uid)} claims the chest whose trap was "
                                        f"already sprung.", unit=uid, chest=chest, ok=True))
            self._loot(uid, chest, events)
        else:
            self.ops.append({"op": "open_roll", "unit": uid, "chest": chest})

    def _loot(self, uid: int, chest: int, events: list[Event]) -> None:
        cell = self.item_hex(chest)
        self._remove_item(chest)
        self.ops.insert(0, {"op": "table_roll", "table": "chest", "unit": uid,
                            "hex": list(cell), "guard": None})

    def _place_cell(self, origin: Cell, need: int, owner: int | None, unit: bool) -> Cell | None:
        """The nearest hex to ``origin`` with room (and, for a unit, no other side)."""
        for cell in by_nearness(origin):
            if self.load(cell) + need > STACK_LIMIT:
                continue
            if unit and self.enemy_at(cell, owner):
                continue
            return cell
        return None

    def _give(self, uid: int, kind: str, events: list[Event]) -> None:
        """A found item goes to the finder (its hex has room: the chest just left)."""
        cell = self.units[uid]["hex"]
        if self.load(cell) + ITEMS[kind]["stack"] <= STACK_LIMIT:
            iid = self._new_item(kind, unit=uid)
            events.append(event("found", f"{self.uname(uid)} finds {a(ITEMS[kind]['name'])}.",
                                unit=uid, item=iid, what=kind))
            return
        where = self._place_cell(cell, ITEMS[kind]["stack"], None, unit=False)
        if where is None:
            return
        iid = self._new_item(kind, hex=where)
        events.append(event("found", f"{self.uname(uid)} finds {a(ITEMS[kind]['name'])}; "
                                     f"it lies nearby for lack of room.", unit=uid, item=iid,
                            what=kind, hex=list(where)))

    # ---- ops: rolls and Lucky
    def _roll(self, op: dict[str, Any], dice: int, involved: list[int]) -> None:
        """Roll ``dice`` d8 for the step ``op`` (run next), offering Lucky first."""
        value = sum(self.rng.randint(1, 8) for _ in range(dice))
        op["roll"] = value
        op["natural"] = value
        self.ops.insert(0, op)
        seats = []
        acting = self.turn
        for uid in involved:
            u = self.units.get(uid)
            if u and u["kind"] == "ratman" and u["owner"] is not None and u["owner"] not in seats:
                seats.append(u["owner"])
        seats.sort(key=lambda s: (s != acting, self.order.index(s)))
        if seats:
            roller = self.units[involved[0]]["owner"] if involved[0] in self.units else None
            # The screen names and highlights the roller's unit and the one it rolls against.
            self.prompt = {"type": "lucky", "seat": seats[0], "rest": seats[1:],
                           "value": op["roll"], "low": dice, "high": 8 * dice,
                           "what": op.get("what", "roll"), "need": op.get("need"),
                           "roller": roller, "unit": involved[0],
                           "other": involved[1] if len(involved) > 1 else None,
                           "table": (op.get("table") if op["op"] == "table_result" else
                                     "rally" if op["op"] == "rally_arrive" else None)}

    def _answer_prompt(self, seat: int, action: Action, events: list[Event]) -> None:
        p = self.prompt
        self.prompt = None
        if p["type"] == "lucky":
            change = action["change"]
            op = self.ops[0]
            op["roll"] = max(p["low"], min(p["high"], op["roll"] + change))
            if change:  # a roll left as it is needs no log line
                events.append(event("lucky", f"{self.name(seat)}'s Ratman is Lucky: the "
                                             f"{p['what']} roll of {p['value']} becomes "
                                             f"{op['roll']}.", seat=seat, change=change,
                                     value=op["roll"]))
            if p["rest"]:
                self.prompt = {**p, "seat": p["rest"][0], "rest": p["rest"][1:],
                               "value": op["roll"]}
        elif p["type"] == "kitten":
            uid = p["unit"]
            if action["type"] == "escape":
                self.ops.pop(0)  # no defence roll: the carrier is gone
                kitten = next(i for i in self.carried(uid) if self.items[i]["kind"] == "kitten")
                self._remove_item(kitten)
                origin = self.units[uid]["hex"]
                path = self.reachable(uid, ESCAPE_REACH)[_cell(action["to"])]
                self._relocate(uid, path, events, riding=False)
                events.append(event("escape", f"{self.uname(uid)} escapes the attack with the "
                                              f"kitten's help (the kitten runs off).", unit=uid,
                                    seat=seat, frm=list(origin), to=list(action["to"]),
                                    path=[list(c) for c in path]))
            else:
                events.append(event("decline", f"{self.name(seat)} keeps the kitten: "
                                               f"{self.uname(uid)} defends.", seat=seat))
        else:
            op = self.ops[0]
            if action["type"] == "sacrifice":
                orc = action["orc"]
                self.units[orc]["sacrificed"] = True
                old = op["targets"][0]
                op["targets"] = [orc]
                events.append(event("sacrifice", f"Dark Sacrifice: {self.uname(orc)} takes the "
                                                 f"attack meant for {self.uname(old)}.",
                                    seat=seat, unit=orc, instead=old))
            else:
                events.append(event("decline", f"{self.name(seat)} lets the attack stand.",
                                    seat=seat))
        self._cross = self._cross or seat != self.turn
        self._run(events)

    # ---- ops: combat
    def _op_declare(self, op: dict[str, Any], events: list[Event]) -> None:
        attacker, target = op["attacker"], op["targets"][0]
        owner = self.units[target]["owner"]
        nxt = {"op": "attack_roll", "attacker": attacker, "targets": [target], "mode": op["mode"]}
        self.ops.insert(0, nxt)
        if owner is None:
            return
        orcs = [o for o in self.seat_units(owner) if o != target
                and self.units[o]["kind"] == "orc" and not self.units[o]["sacrificed"]
                and not self.units[o]["burrowed"] and not self.units[o]["down"]
                and distance(self.units[o]["hex"], self.units[target]["hex"]) <= 1]
        if orcs:
            # Only worth a log line when an Orc may step in (else the roll line says it all).
            word = "shoots at" if op["mode"] == "missile" else "attacks"
            events.append(event("declare", f"{self.uname(attacker)} {word} "
                                           f"{self.uname(target)}.",
                                unit=attacker, target=target, mode=op["mode"]))
            self.prompt = {"type": "sacrifice", "seat": owner, "orcs": orcs, "target": target,
                           "attacker": attacker}

    def _op_attack_roll(self, op: dict[str, Any], events: list[Event]) -> None:
        attacker, targets = op["attacker"], op["targets"]
        missile = op["mode"] == "missile"
        op = {**op, "op": "attack_hit", "what": "attack",
              "need": self.attack_value(attacker, targets[0], missile)}
        self._roll(op, 1, [attacker] + targets)

    def _op_attack_hit(self, op: dict[str, Any], events: list[Event]) -> None:
        attacker, targets = op["attacker"], [t for t in op["targets"] if t in self.units]
        hit = op["roll"] <= op["need"]
        names = ", ".join(self.uname(t) for t in targets)
        how = {"melee": "attacks", "missile": "shoots at", "rampage": "rampages into",
               "fury": "unleashes Primordial Fury on"}[op["mode"]]
        text = (f"{self.uname(attacker)} {how} {names}: needs {rng_text(op['need'])}, rolled "
                f"{op['roll']} — {'hit' if hit else 'miss'}.")
        events.append(event("attack", text, unit=attacker, targets=targets, need=op["need"],
                            roll=op["roll"], natural=op["natural"], hit=hit, mode=op["mode"]))
        if hit:
            for t in reversed(targets):
                self.ops.insert(0, {"op": "defend_roll", "unit": t, "attacker": attacker})

    def _op_defend_roll(self, op: dict[str, Any], events: list[Event]) -> None:
        if op["unit"] not in self.units:
            return
        u = self.units[op["unit"]]
        if not op.get("asked") and u["owner"] is not None and self.has_item(op["unit"], "kitten"):
            # The kitten's escape is a reaction (ruling 23): its owner is asked first.
            cells = sorted(self.reachable(op["unit"], ESCAPE_REACH), key=ORDER.get)
            if cells:
                self.ops.insert(0, {**op, "asked": True})
                self.prompt = {"type": "kitten", "seat": u["owner"], "unit": op["unit"],
                               "attacker": op["attacker"], "cells": [list(c) for c in cells]}
                return
        nxt = {**op, "op": "defend_result", "what": "defense",
               "need": self.defense_value(op["unit"])}
        self._roll(nxt, 1, [op["unit"], op["attacker"]])

    def _op_defend_result(self, op: dict[str, Any], events: list[Event]) -> None:
        uid, attacker = op["unit"], op["attacker"]
        safe = op["roll"] <= op["need"]
        head = (f"{self.uname(uid)} defends: needs {rng_text(op['need'])}, rolled {op['roll']}")
        if safe:
            events.append(event("defend", head + " — unharmed.", unit=uid, need=op["need"],
                                roll=op["roll"], natural=op["natural"], safe=True))
            return
        harm: list[Event] = []
        self._harm(uid, attacker, harm)
        outcome = {"down": "knocked down", "potion": "saved by a Potion"}.get(harm[0]["type"],
                                                                           "slain")
        events.append(event("defend", f"{head} — {outcome}.", unit=uid, need=op["need"],
                            roll=op["roll"], natural=op["natural"], safe=False))
        events.extend(harm)

    def _harm(self, uid: int, attacker: int | None, events: list[Event],
              trap: bool = False) -> None:
        """A failed defense (or a trap): knock a troll down, spend a potion, or slay."""
        u = self.units[uid]
        if u["kind"] == "troll" and not u["down"] and not trap:
            u["down"] = True
            events.append(event("down", f"{self.uname(uid)} is knocked down but regenerates "
                                        f"(it can heal with its next turn).", unit=uid))
            return
        potion = next((i for i in self.carried(uid) if self.items[i]["kind"] == "potion"), None)
        if potion is not None:
            self._remove_item(potion)
            events.append(event("potion", f"{self.uname(uid)} drinks a Potion and survives.",
                                unit=uid))
            return
        self._kill(uid, attacker, events)

    def _kill(self, uid: int, attacker: int | None, events: list[Event]) -> None:
        u = self.units[uid]
        name = self.uname(uid)
        cell = u["hex"]
        dropped = list(self.carried(uid))
        for iid in dropped:
            self.items[iid]["unit"], self.items[iid]["hex"] = None, cell
        idx = self._idx
        if idx is not None:  # kept up to date: the unit leaves, what it carried lies there
            at, owned, load = idx["at"], idx["owned"], idx["load"]
            left = [o for o in at[cell] if o != uid]  # new lists: callers may hold the old ones
            if left:
                at[cell] = left
            else:
                del at[cell]
            mates = [o for o in owned[u["owner"]] if o != uid]
            if mates:
                owned[u["owner"]] = mates
            else:
                del owned[u["owner"]]
            load[cell] -= MONSTERS[u["kind"]]["stack"]
            if not load[cell]:
                del load[cell]
            if dropped:
                del idx["carried"][uid]
                lying = idx["lying"]
                lying[cell] = sorted(lying.get(cell, _EMPTY) + dropped)
            self._drop_derived(idx)
        del self.units[uid]
        for lair, guard in self.lairs.items():
            if guard == uid:
                self.lairs[lair] = None
        killer = self.units[attacker]["owner"] if attacker in self.units else None
        if killer is not None:
            self.kills[killer].append(u["kind"])
            if u["starting"] and u["owner"] is not None and u["owner"] != killer:
                self.villagers_slain[killer].append(u["owner"])
        if self.active is not None and self.active["unit"] == uid:
            self.active["done"] = True
        if self.active is not None and self.active.get("horse") == uid:
            self.active["horse"] = None
        events.append(event("slain", f"{name} is slain" + (" by the trap." if attacker is None
                                                           else "."),
                            unit=uid, what=u["kind"], hex=list(cell), killer=killer))

    # ---- ops: search, chests, tables, Rally Cry
    def _op_search_roll(self, op: dict[str, Any], events: list[Event]) -> None:
        uid = op["unit"]
        need = MONSTERS[self.units[uid]["kind"]]["search"]
        self._roll({**op, "op": "search_result", "what": "search", "need": need}, 1, [uid])

    def _op_search_result(self, op: dict[str, Any], events: list[Event]) -> None:
        uid = op["unit"]
        u = self.units[uid]
        cell = u["hex"]
        ok = op["roll"] <= op["need"]
        lair = cell in self.lairs
        if not lair:
            self.searched[cell] = u["owner"]
        where = "the lair" if lair else "the hex"
        events.append(event("search", f"{self.uname(uid)} searches {where}: needs "
                                      f"{rng_text(op['need'])}, rolled {op['roll']} — "
                                      f"{'found something' if ok else 'nothing'}.",
                            unit=uid, hex=list(cell), need=op["need"], roll=op["roll"],
                            natural=op["natural"], ok=ok, seat=u["owner"]))
        if ok:
            table = "lair" if lair else "search"
            self.ops.insert(0, {"op": "table_roll", "table": table, "unit": uid,
                                "hex": list(cell), "guard": list(cell) if lair else None})

    def _op_open_roll(self, op: dict[str, Any], events: list[Event]) -> None:
        uid = op["unit"]
        need = MONSTERS[self.units[uid]["kind"]]["search"]
        self._roll({**op, "op": "open_result", "what": "opening", "need": need}, 1, [uid])

    def _op_open_result(self, op: dict[str, Any], events: list[Event]) -> None:
        uid, chest = op["unit"], op["chest"]
        ok = op["roll"] <= op["need"]
        events.append(event("open", f"{self.uname(uid)} picks the chest's lock: needs "
                                    f"{rng_text(op['need'])}, rolled {op['roll']} — "
                                    f"{'open' if ok else 'the trap goes off'}.",
                            unit=uid, chest=chest, need=op["need"], roll=op["roll"],
                            natural=op["natural"], ok=ok))
        if ok:
            self._loot(uid, chest, events)
        else:
            self.items[chest]["sprung"] = True
            self._harm(uid, None, events, trap=True)

    def _op_table_roll(self, op: dict[str, Any], events: list[Event]) -> None:
        dice = 2 if op["table"] in ("chest", "lair", "monster") else 1
        self._roll({**op, "op": "table_result", "what": op["table"] + " table"}, dice,
                   [op["unit"]] if op["unit"] is not None else [])

    def _op_table_result(self, op: dict[str, Any], events: list[Event]) -> None:
        table, uid, cell = op["table"], op["unit"], tuple(op["hex"])
        result = lookup(table, op["roll"])
        events.append(event("table", f"{self._table_title(table)}: rolled {op['roll']} — "
                                     f"{self._result_name(result)}.", table=table,
                            roll=op["roll"], natural=op["natural"], result=result,
                            hex=list(cell)))
        alive = uid in self.units
        if result == "melee":
            result = "sword"
        if result in ("missile", "weapon", "monster"):
            self.ops.insert(0, {**op, "op": "table_roll", "table": result})
        elif result == "chest":
            where = self._place_cell(cell, 2, None, unit=False)
            if where is not None:
                iid = self._new_item("chest", hex=where)
                events.append(event("found", "A Treasure Chest lies here.", item=iid,
                                    what="chest", hex=list(where)))
        elif result == "lair":
            self.lairs[cell] = None
            self.searched.pop(cell, None)
            events.append(event("lair", "A monster lair is discovered here: it can be searched "
                                        "again and again.", hex=list(cell)))
        elif result in MONSTERS and table == "monster":
            self._spawn_wild(result, cell, op.get("guard"), events)
        elif result == "horse":
            owner = self.units[uid]["owner"] if alive else None
            # "All new monsters ... start here": the finder's starting hex (ruling 28).
            self._spawn_owned("horse", owner, self.starts[owner] if owner is not None else cell,
                              events)
        elif result in ITEMS:
            if table == "monster":  # a kitten wanders in
                where = self._place_cell(cell, 1, None, unit=False)
                if where is not None:
                    iid = self._new_item(result, hex=where)
                    events.append(event("found", "A lost Kitten appears.", item=iid,
                                        what=result, hex=list(where)))
            elif alive:
                self._give(uid, result, events)
            else:
                where = self._place_cell(cell, ITEMS[result]["stack"], None, unit=False)
                if where is not None:
                    iid = self._new_item(result, hex=where)
                    text = a(ITEMS[result]["name"])
                    events.append(event("found", f"{text[0].upper()}{text[1:]} lies on the "
                                                 f"ground.", item=iid, what=result,
                                        hex=list(where)))

    def _table_title(self, table: str) -> str:
        return {"search": "Search table", "chest": "Chest table", "lair": "Lair table",
                "monster": "Random monster", "weapon": "Weapon", "missile": "Missile weapon"}[table]

    def _result_name(self, result: str) -> str:
        names = {"chest": "a Treasure Chest", "monster": "a random monster", "lair": "a lair",
                 "missile": "a missile weapon", "weapon": "a weapon", "melee": "a Sword"}
        if result in names:
            return names[result]
        if result in MONSTERS:
            return a(MONSTERS[result]["name"])
        return a(ITEMS[result]["name"])

    def _spawn_wild(self, kind: str, origin: Cell, guard: list[int] | None,
                    events: list[Event]) -> None:
        where = self._place_cell(origin, MONSTERS[kind]["stack"], None, unit=True)
        if where is None:
            events.append(event("nothing", "The monster finds no room and wanders off."))
            return
        uid = self._new_unit(kind, None, where, acted=True, facing=0)
        if guard is not None:
            lair = tuple(guard)
            if self.lairs.get(lair) is None:
                self.lairs[lair] = uid
                self.units[uid]["guard"] = list(lair)
        text = f"A wild {MONSTERS[kind]['name']} appears" + (" and guards the lair." if
                                                              self.units[uid]["guard"] else ".")
        events.append(event("appear", text, unit=uid, what=kind, hex=list(where), owner=None))

    def _spawn_owned(self, kind: str, owner: int | None, origin: Cell,
                     events: list[Event]) -> None:
        if owner is None:
            self._spawn_wild(kind, origin, None, events)
            return
        where = self._place_cell(origin, MONSTERS[kind]["stack"], owner, unit=True)
        if where is None:
            events.append(event("nothing", f"No room for the {MONSTERS[kind]['name']}: it is "
                                           f"lost."))
            return
        uid = self._new_unit(kind, owner, where, acted=True,
                             facing=towards_centre(where))
        text = a(MONSTERS[kind]["name"])
        events.append(event("appear", f"{text[0].upper()}{text[1:]} joins {self.name(owner)}.",
                            unit=uid, what=kind, hex=list(where), owner=owner))

    def _op_rally_roll(self, op: dict[str, Any], events: list[Event]) -> None:
        self._roll({**op, "op": "rally_result", "what": "Rally Cry", "need": 4}, 1,
                   [op["unit"]])

    def _op_rally_result(self, op: dict[str, Any], events: list[Event]) -> None:
        ok = op["roll"] <= 4
        events.append(event("rally", f"{self.uname(op['unit'])} gives a Rally Cry: needs 1-4, "
                                     f"rolled {op['roll']} — "
                                     f"{'a monster answers' if ok else 'nobody comes'}.",
                            unit=op["unit"], need=4, roll=op["roll"], natural=op["natural"],
                            ok=ok))
        if ok:
            self.ops.insert(0, {"op": "rally_kind", "unit": op["unit"]})

    def _op_rally_kind(self, op: dict[str, Any], events: list[Event]) -> None:
        self._roll({**op, "op": "rally_arrive", "what": "Rally Cry monster"}, 1, [op["unit"]])

    def _op_rally_arrive(self, op: dict[str, Any], events: list[Event]) -> None:
        kind = RALLY[op["roll"] - 1]
        owner = self.units[op["unit"]]["owner"] if op["unit"] in self.units else self.turn
        events.append(event("table", f"Rally Cry: rolled {op['roll']} — "
                                     f"{a(MONSTERS[kind]['name'])}.", table="rally",
                            roll=op["roll"], natural=op["natural"], result=kind))
        self._spawn_owned(kind, owner, self.starts[owner], events)

    # ---- after actions: quests, turns, rounds
    def _after(self, events: list[Event], activation_over: bool, unit: int | None = None) -> None:
        self._deliver(events)
        self._check_quests(events, round_end=False)
        if self._check_winner(events):
            return
        if not activation_over:
            return
        self._advance(events)

    def _deliver(self, events: list[Event]) -> None:
        for seat in range(self.n):
            q = self._quest_index(seat, "chests")
            if q is None or self.quests[seat][q]["done"]:
                continue
            start = self.starts[seat]
            here = list(self.lying(start)) + [i for u in self.units_at(start)
                                              for i in self.carried(u)]
            for iid in sorted(here):
                it = self.items[iid]
                if it["kind"] != "chest":
                    continue
                if it["unit"] is not None and self.units[it["unit"]]["owner"] != seat:
                    continue
                if it["unit"] is None and self.enemy_at(start, seat):
                    continue
                self._remove_item(iid)
                self.delivered[seat] += 1
                events.append(event("deliver", f"{self.name(seat)} brings a Treasure Chest home "
                                               f"({self.delivered[seat]} of 3).", seat=seat,
                                    item=iid))
                if self.delivered[seat] >= 3:
                    break

    def _quest_index(self, seat: int, key: str) -> int | None:
        for i, q in enumerate(self.quests[seat]):
            if q["key"] == key:
                return i
        return None

    def _carried_kinds(self, seat: int) -> list[str]:
        """The kinds of item a seat's units carry (kept with the index; do not change it)."""
        cache = self._index().setdefault("kinds", {})
        if seat not in cache:
            cache[seat] = [self.items[i]["kind"] for u in self.seat_units(seat)
                           for i in self.carried(u)]
        return cache[seat]

    def _kinds(self, seat: int) -> set[str]:
        return {self.units[u]["kind"] for u in self.seat_units(seat)}

    def _holds_now(self, seat: int, key: str) -> bool:
        """Whether a round-end quest's condition holds now."""
        if key == "flag":
            return len(self.flags[seat]) == 3 and all(
                any(self.units[u]["owner"] == seat for u in self.units_at(c))
                for c in self.flags[seat])
        if key == "folk":
            return {"elf", "dwarf", "orc", "villager"} <= self._kinds(seat)
        if key == "beasts":
            return {"horse", "wolf", "war_dog"} <= self._kinds(seat)
        if key == "occupy":
            return any(any(self.units[u]["owner"] == seat for u in self.units_at(self.starts[o]))
                       for o in range(self.n) if o != seat)
        return False

    def _progress(self, seat: int, key: str) -> int:
        kills = self.kills[seat]
        if key == "chests":
            return self.delivered[seat]
        if key == "arms":
            have = self._carried_kinds(seat)
            return sum(k in have for k in ("sword", "bow", "armor"))
        if key == "trolls":
            return kills.count("troll")
        if key == "corners":
            return len(self.corners[seat])
        if key == "villager":
            return min(1, len(self.villagers_slain[seat]))
        if key == "kinds":
            return len(set(kills))
        if key == "beast_slayer":
            return kills.count("death_beast")
        if key == "kitten":
            start = self.starts[seat]
            return int(any(self.items[i]["kind"] == "kitten" for u in self.units_at(start)
                           if self.units[u]["owner"] == seat for i in self.carried(u)))
        if key == "archer":
            return int("bow" in self._carried_kinds(seat)) + int(bool(kills))
        if key == "ride":
            return len(self.ride_ends[seat])
        if key == "money":
            return self._carried_kinds(seat).count("money_bag")
        return 0

    def _check_quests(self, events: list[Event], round_end: bool) -> None:
        # Between round ends, quest progress follows only who stands where and carries what
        # (each change renews the index) and the tallies of kills, corners, ends and chests:
        # with the same index and tallies nothing can have changed.
        index = self._index()
        key = (sum(map(len, self.kills)), sum(map(len, self.corners)),
               sum(map(len, self.ride_ends)), sum(self.delivered),
               sum(map(len, self.villagers_slain)))
        if not round_end and index.get("quests_checked") == key:
            return
        index["quests_checked"] = key
        for seat in range(self.n):
            for q in self.quests[seat]:
                if q["done"]:
                    continue
                goal = QUESTS[q["roll"]]["goal"]
                if q["key"] in ROUND_QUESTS:
                    if round_end:
                        q["rounds"] = q["rounds"] + 1 if self._holds_now(seat, q["key"]) else 0
                    q["progress"] = q["rounds"]
                else:
                    q["progress"] = min(goal, self._progress(seat, q["key"]))
                if q["progress"] >= goal:
                    q["done"] = True
                    count = sum(x["done"] for x in self.quests[seat])
                    events.append(event("quest", f"{self.name(seat)} completes the quest "
                                                 f"\"{QUESTS[q['roll']]['title']}\" "
                                                 f"({count} of 3).", seat=seat, quest=q["roll"]))

    def done_count(self, seat: int) -> int:
        return sum(q["done"] for q in self.quests[seat])

    def _check_winner(self, events: list[Event]) -> bool:
        n = self.n
        done = [s for s in range(n) if all(q["done"] for q in self.quests[s])]  # all three
        if done:
            self._end(done, "quests", events)
            return True
        owned = (self._idx or self._index())["owned"]
        alive = [s for s in range(n) if owned.get(s)]
        if not alive:
            self._end([], "wiped out", events)
            return True
        if len(alive) == 1 and self.n > 1:  # the only seat with units left (ruling 39)
            self._end(alive, "last standing", events)
            return True
        return False

    def _end(self, winners: list[int], reason: str, events: list[Event]) -> None:
        self.phase = "over"
        self.winners = sorted(winners)
        self.end_reason = reason
        self.prompt = None
        self.ops = []
        self.active = None
        names = " and ".join(self.name(s) for s in self.winners)
        why = {"quests": "by completing three quests",
               "last standing": "as the last player with units standing",
               "round limit": "when the round limit was reached",
               "exhaustion": "after every hex was searched",
               "wiped out": ""}[reason]
        text = (f"{names} win{'s' if len(self.winners) == 1 else ''} {why}." if self.winners
                else "Nobody wins: " + ("every unit is gone." if reason == "wiped out"
                                        else "the quests were not completed in time."))
        events.append(event("over", text, winners=list(self.winners), reason=reason))

    def _advance(self, events: list[Event]) -> None:
        """Hand the turn to the next seat with a unit still to act, or end the round."""
        for k in range(1, self.n + 1):
            seat = (self.turn + k) % self.n
            if any(not self.units[u]["acted"] for u in self.seat_units(seat)):
                self.turn = seat
                return
        self._end_round(events)

    def _end_round(self, events: list[Event]) -> None:
        for uid in sorted(self.units):
            u = self.units.get(uid)
            if u is None or u["owner"] is not None or u["guard"] is not None:
                continue
            d = self.rng.randint(0, 5)
            cell = step(u["hex"], d)
            if (cell in CELL_SET and not self.enemy_at(cell, None)
                    and not self.fear_blocked(u["kind"], None, cell, frm=u["hex"])
                    and self.load(cell) + self.weight(uid) <= STACK_LIMIT):
                origin = u["hex"]
                self._put(uid, cell)
                u["facing"] = d
                events.append(event("wander", f"The wild {MONSTERS[u['kind']]['name']} wanders.",
                                    unit=uid, frm=list(origin), to=list(cell),
                                    path=[list(cell)]))
        self._deliver(events)
        self._check_quests(events, round_end=True)
        if self._check_winner(events):
            return
        if not self.finale and self._all_searched():
            self.finale = True
            if self.n == 1:
                self._end([], "exhaustion", events)
                return
            events.append(event("finale", "Every hex has been searched: it is now a fight to "
                                          "the finish, and the last player standing wins."))
            if self._check_winner(events):
                return
        limit = self.opts["round_limit"]
        if limit and self.round >= limit:
            best = max(self.done_count(s) for s in range(self.n))
            tied = [s for s in range(self.n) if self.done_count(s) == best]
            most = max(len(self.seat_units(s)) for s in tied)
            tied = [s for s in tied if len(self.seat_units(s)) == most]
            self._end(tied, "round limit", events)
            return
        self.round += 1
        for u in self.units.values():
            u["acted"] = False
            u["sacrificed"] = False
        for k in range(self.n):
            seat = (self.first + k) % self.n
            if self.seat_units(seat):
                self.turn = seat
                break
        events.append(event("round", f"Round {self.round} begins with {self.name(self.turn)}.",
                            round=self.round))

    def _all_searched(self) -> bool:
        zones = {c for s in self.starts for c in zone(s)}
        return all(c in self.searched or c in self.lairs or c in zones for c in CELLS)

    # ----------------------------------------------------------------- views
    def quest_line(self, seat: int, q: dict[str, Any]) -> str:
        info = QUESTS[q["roll"]]
        goal = info["goal"]
        if q["done"]:
            return f"{info['title']}: done"
        key = q["key"]
        if key in ROUND_QUESTS:
            now = "held now" if self._holds_now(seat, key) else "not held now"
            return f"{info['title']}: {q['progress']}/{goal} rounds ({now})"
        return f"{info['title']}: {q['progress']}/{goal}"

    def view(self, seat: int | None) -> View:
        seats = []
        for s in range(self.n):
            seats.append({
                "seat": s, "name": self.name(s), "kind": self.seats[s]["kind"],
                "start": list(self.starts[s]) if self.starts[s] is not None else None,
                "quests": [{"roll": q["roll"], "key": q["key"], "title": QUESTS[q["roll"]]["title"],
                            "text": QUESTS[q["roll"]]["text"], "done": q["done"],
                            "progress": q["progress"], "goal": QUESTS[q["roll"]]["goal"],
                            "line": self.quest_line(s, q)} for q in self.quests[s]],
                "done": self.done_count(s),
                "units": len(self.seat_units(s)),
                "flags": [list(c) for c in self.flags[s]],
                "kills": list(self.kills[s]),
                "corners": [list(c) for c in self.corners[s]],
                "ride_ends": list(self.ride_ends[s]),
                "delivered": self.delivered[s],
                "quest_rolls": list(self.quest_rolls[s]),
            })
        units = []
        for uid, (attack, defense, reach, shot) in self._stats().items():
            u = self.units[uid]
            units.append({**u, "hex": list(u["hex"]), "name": MONSTERS[u["kind"]]["name"],
                          "items": list(self.carried(uid)),
                          "attack": attack, "defense": defense, "shoot": reach, "shot": shot})
        units_now = self.units
        items = []
        for iid in sorted(self.items):
            it = self.items[iid]
            lying = it["unit"] is None
            cell = it["hex"] if lying else units_now[it["unit"]]["hex"]
            items.append({**it, "hex": list(cell), "lying": lying,
                          "name": ITEMS[it["kind"]]["name"]})
        return {
            "game": self.game_id, "viewer": seat, "phase": self.phase, "round": self.round,
            "round_limit": self.opts["round_limit"], "facing": self.opts["facing"],
            "turn": self.turn, "first": self.first, "order": list(self.order),
            "to_act": self.to_act(), "seats": seats, "units": units, "items": items,
            "searched": [list(row) for row in self._searched_rows()],
            "lairs": [{"hex": list(c), "guard": g} for c, g in
                      sorted(self.lairs.items(), key=lambda kv: ORDER[kv[0]])],
            "active": self._active_view(), "prompt": self._prompt_view(),
            "flag_holder": self.flag_queue[0] if self.phase == "flags" else None,
            "finale": self.finale, "handover": self._handover_about(),
            "tie_rolls": [{str(k): v for k, v in r.items()} for r in self.tie_rolls],
            "result": self.result(),
        }

    def _searched_rows(self) -> list[tuple[int, int, int | None]]:
        """Searched hexes in map order, kept until a search or a new lair changes them (the
        list only grows, or loses a hex that becomes a lair)."""
        key = (len(self.searched), len(self.lairs))
        cached = getattr(self, "_searched_cache", None)
        if cached is None or cached[0] != key:
            rows = [(c[0], c[1], s) for c, s in sorted(self.searched.items(),
                                                       key=lambda kv: ORDER[kv[0]])]
            self._searched_cache = cached = (key, rows)
        return cached[1]

    def _stats(self) -> dict[int, tuple[int, int, int, int]]:
        """Every unit's melee attack, defense, missile range and missile attack (one pass, for
        views; Dark Foe against its prey is left to :meth:`attack_value`).  They change only
        with who stands where and carries what, so they are kept with the index."""
        index = self._index()
        if "stats" not in index:
            index["stats"] = self._work_out_stats()
        return index["stats"]

    def _work_out_stats(self) -> dict[int, tuple[int, int, int, int]]:
        dogs: set[tuple[Cell, int | None]] = set()
        wolves: Counter = Counter()
        for u in self.units.values():
            if u["kind"] == "war_dog":
                dogs.add((u["hex"], u["owner"]))
            elif u["kind"] == "wolf":
                wolves[(u["hex"], u["owner"])] += 1
        out = {}
        carried = self._index()["carried"]
        items = self.items
        for uid in sorted(self.units):
            u = self.units[uid]
            m = MONSTERS[u["kind"]]
            kinds = {items[i]["kind"] for i in carried.get(uid, _EMPTY)}
            pack = wolves[(u["hex"], u["owner"])] - 1 if u["kind"] == "wolf" else 0
            attack = m["attack"] + ("sword" in kinds) + pack
            guard = (u["hex"], u["owner"]) in dogs and (
                u["kind"] != "war_dog" or sum(1 for o in self.units_at(u["hex"])
                                              if self.units[o]["kind"] == "war_dog"
                                              and self.units[o]["owner"] == u["owner"]) > 1)
            defense = m["defense"] + bool(kinds & {"armor", "shield"}) + guard + pack
            ranges = [ITEMS[k].get("range", 0) for k in kinds if ITEMS[k]["kind"] == "missile"]
            weapon = bool(ranges)
            if u["kind"] == "elf":
                ranges.append(3)
            reach = max(ranges, default=0)
            shot = 0
            if reach:
                shot = (ELF_SHOT if u["kind"] == "elf" else m["attack"] + pack) + weapon
            out[uid] = (attack, defense, reach, shot)
        return out

    def _handover_about(self) -> str | bool:
        """False, or what the person the card calls to the screen decides (the card says it:
        "Bo decides: whether ...")."""
        if not self.handover_flag:
            return False
        p = self.prompt
        if p is None:
            return f"{self.name(self.turn)} carries on with the turn."
        if p["type"] == "kitten":
            return (f"whether {self.uname(p['unit'])} spends its kitten to escape "
                    f"{self.uname(p['attacker'])}.")
        if p["type"] == "sacrifice":
            return f"whether an Orc takes the attack meant for {self.uname(p['target'])}."
        whose = f"{self.name(p['roller'])}'s" if p.get("roller") is not None else "a"
        return f"whether a Lucky Ratman changes {whose} {p['what']} roll of {p['value']}."

    def _active_view(self) -> dict[str, Any] | None:
        if self.active is None:
            return None
        return {"unit": self.active["unit"], "horse": self.active["horse"],
                "moves": self.active["moves"], "start": list(self.active["start"])}

    def _prompt_view(self) -> dict[str, Any] | None:
        if self.prompt is None:
            return None
        p = dict(self.prompt)
        p["rest"] = list(p.get("rest", []))
        if "orcs" in p:
            p["orcs"] = list(p["orcs"])
        if "cells" in p:
            p["cells"] = [list(c) for c in p["cells"]]
        return p

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        return {
            "winners": list(self.winners), "reason": self.end_reason, "rounds": self.round,
            "quests_done": [self.done_count(s) for s in range(self.n)],
            "units": [len(self.seat_units(s)) for s in range(self.n)],
            "kills": [len(k) for k in self.kills],
            "quests": [[QUESTS[q["roll"]]["title"] + (" (done)" if q["done"] else "")
                        for q in self.quests[s]] for s in range(self.n)],
            "scores": [self.done_count(s) for s in range(self.n)],
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "round": self.round, "turn": self.turn, "first": self.first,
            "order": list(self.order), "next_id": self.next_id,
            "units": {uid: {**u, "hex": list(u["hex"])} for uid, u in sorted(self.units.items())},
            "items": {iid: {**it, "hex": list(it["hex"]) if it["hex"] else None}
                      for iid, it in sorted(self.items.items())},
            "searched": [[c[0], c[1], s] for c, s in sorted(self.searched.items())],
            "lairs": [[c[0], c[1], g] for c, g in sorted(self.lairs.items())],
            "quests": [[dict(q) for q in qs] for qs in self.quests],
            "starts": [list(s) if s else None for s in self.starts],
            "flags": [[list(c) for c in f] for f in self.flags],
            "kills": [list(k) for k in self.kills],
            "villagers_slain": [list(v) for v in self.villagers_slain],
            "corners": [[list(c) for c in cs] for cs in self.corners],
            "ride_ends": [list(r) for r in self.ride_ends], "delivered": list(self.delivered),
            "active": dict(self.active, start=list(self.active["start"])) if self.active else None,
            "ops": [dict(o) for o in self.ops], "prompt": self._prompt_view(),
            "finale": self.finale, "winners": list(self.winners), "end": self.end_reason,
            "created": dict(self.created), "removed": dict(self.removed),
            "flag_queue": list(self.flag_queue), "setup_turn": self.setup_turn,
        }

    def status(self) -> str:
        if self.phase == "over":
            if self.winners:
                return "Over: " + " and ".join(self.name(s) for s in self.winners) + " won"
            return "Over: nobody won"
        if self.prompt is not None:
            what = {"sacrifice": "Dark Sacrifice?", "kitten": "Kitten escape?"}.get(
                self.prompt["type"], "Lucky?")
            return f"Round {self.round}: {self.name(self.prompt['seat'])} decides — {what}"
        if self.phase == "starts":
            return f"Setup: {self.name(self.to_act()[0])} chooses a starting hex"
        if self.phase == "flags":
            return (f"Setup: {self.name(self.to_act()[0])} marks flags for "
                    f"{self.name(self.flag_queue[0])}")
        limit = self.opts["round_limit"]
        rounds = f"Round {self.round}" + (f" of {limit}" if limit else "")
        return f"{rounds}: {self.name(self.turn)}'s turn"

    # ------------------------------------------------------------------ bots
    @classmethod
    def policy(cls, view: View, legal: list[Action], rng: Rng) -> Action | None:
        from .bot import choose
        return choose(view, legal, rng)

    #: How the Hard player searches (see ``hard.py`` and ``game/engine/search.py``): 96
    #: playouts of 12 actions, then the estimate.  Over 40 two-seat games against Normal
    #: (seeds 1-40) it won 1.55x its fair share (48 playouts: 1.38x on the same seeds), with
    #: decisions at p95 0.3-0.5 s and at most 0.84 s; its playouts got quicker (remembered
    #: walks, a quick copy), so 96 take about the time 48 did.
    search_settings = SearchSettings(iterations=96, rollout_actions=12, work=hard.WORK_BUDGET)

    def determinize(self, seat: int, rng: Rng) -> None:
        """Redraw what ``seat`` may not see: nothing is hidden in this game (``hard.py``)."""
        hard.determinize(self, seat, rng)

    def evaluate(self, seat: int) -> float:
        """How well ``seat`` is doing in an unfinished game, 0..1 (``hard.py``)."""
        return hard.evaluate(self, seat)
