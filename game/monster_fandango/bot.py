"""Monster Fandango's computer player: it reads only its own view.

It pursues its own quests: each unit picks a goal hex (a chest to carry
home, an unsearched hex, a monster its slaying quests want, a flag or a
corner...), walks there around enemy-held hexes, and acts on the way: an
attack with fair odds, a search, a chest opened when it is safe enough, items
picked up, a Rally Cry.  Quest errands come before searching: a quest chest
or kitten goes home first, a light unit walks to a horse for the Long ride
(the horse waits) and then rides to the unvisited end, Beast master's beasts
stay at home, and lairs draw searchers when Money Bags are wanted.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from game.engine import Rng

from .data import ITEMS, MAP, MONSTERS
from .kernel import CELLS, distance, neighbours, zone

Cell = tuple[int, int]
SLAY_WANTS = {"trolls": {"troll"}, "beast_slayer": {"death_beast"}}
BEASTS = frozenset({"horse", "wolf", "war_dog"})
DARK_FOE_PREY = frozenset({"villager", "elf", "dwarf"})
GEAR = {"sword": "melee", "bow": "missile", "crossbow": "missile", "sling": "missile",
        "armor": "armour", "shield": "armour"}
FAR = 99


def weight(unit: dict[str, Any], items: dict[int, dict[str, Any]]) -> int:
    """A unit's stack points with what it carries."""
    return MONSTERS[unit["kind"]]["stack"] + sum(ITEMS[items[i]["kind"]]["stack"]
                                                  for i in unit["items"])


def _c(value: list[int]) -> Cell:
    return (value[0], value[1])


# The walks depend only on the end and the enemy-held hexes, which change seldom from one
# decision to the next (and the Hard player's playouts make thousands): remembered across
# decisions.  The tables are shared: nobody changes them.
@lru_cache(maxsize=8192)
def _walk(origin: Cell, blocked: frozenset[Cell], ends: bool) -> dict[Cell, int]:
    """Steps between ``origin`` and every hex, never through ``blocked`` (``ends``: a hex in
    ``blocked`` is still reached, as the end of a walk; else it is left out)."""
    dist = {origin: 0}
    frontier = [origin]
    while frontier:
        nxt = []
        for cell in frontier:
            d = dist[cell] + 1
            for n in neighbours(cell):
                if n in dist:
                    continue
                if n in blocked:
                    if ends:
                        dist[n] = d
                    continue
                dist[n] = d
                nxt.append(n)
        frontier = nxt
    return dist


class Mind:
    """What the bot knows, computed once from the view."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.me = view["to_act"][0]
        self.units = {u["id"]: u for u in view["units"]}
        self.seat = view["seats"][self.me]
        self.start = _c(self.seat["start"])
        self.open_quests = {q["key"] for q in self.seat["quests"] if not q["done"]}
        self.mine = [u for u in view["units"] if u["owner"] == self.me]
        self.enemies = [u for u in view["units"] if u["owner"] != self.me]
        self.searched = {(s[0], s[1]) for s in view["searched"]}
        self.lairs = {_c(l["hex"]): l["guard"] for l in view["lairs"]}
        home = zone(self.start)
        self.home = home
        self.kinds_killed = set(self.seat["kills"])
        self.items = {i["id"]: i for i in view["items"]}
        self.blocked = frozenset(_c(u["hex"]) for u in self.enemies)
        self._dist: dict[Cell, dict[Cell, int]] = {}
        self._from: dict[Cell, dict[Cell, int]] = {}
        self.keep: set[str] = set()
        if "folk" in self.open_quests:
            self.keep |= {"elf", "dwarf", "orc", "villager"}
        if "beasts" in self.open_quests:
            self.keep |= {"wolf", "war_dog", "horse"}
        self.horses = [u for u in self.mine if u["kind"] == "horse"]
        self._role_map: dict[int, Cell] | None = None
        self.raid: Cell | None = None  # an opponent's starting hex that our quests want
        if "occupy" in self.open_quests or "villager" in self.open_quests:
            others = [_c(s["start"]) for s in view["seats"]
                      if s["seat"] != self.me and s["start"] and s["units"]]
            if others:
                self.raid = min(others, key=lambda c: distance(c, self.start))

    @property
    def roles(self) -> dict[int, Cell]:
        """Quest errands, worked out when first wanted (many choices never need them)."""
        if self._role_map is None:
            self._role_map = self._roles()
        return self._role_map

    def path_to(self, goal: Cell) -> dict[Cell, int]:
        """Steps from every hex to ``goal`` around enemy-held hexes (a breadth-first walk;
        shared, never changed)."""
        found = self._dist.get(goal)
        if found is None:
            found = self._dist[goal] = _walk(goal, self.blocked, False)
        return found

    def steps(self, cell: Cell, goal: Cell) -> int:
        return self.path_to(goal).get(cell, FAR + distance(cell, goal))

    def reach_from(self, origin: Cell) -> dict[Cell, int]:
        """Steps from ``origin`` to every hex around enemy-held hexes (an enemy hex is an
        end, never a way through): one walk serves every goal a unit weighs (shared, never
        changed)."""
        found = self._from.get(origin)
        if found is None:
            found = self._from[origin] = _walk(origin, self.blocked, True)
        return found

    def urgent(self, unit: dict[str, Any]) -> Cell | None:
        """Where a unit must go before anything else: home with a quest chest or kitten,
        or to an unvisited end of the map while riding for the Long ride."""
        carried = [self.items[i]["kind"] for i in unit["items"]]
        here = _c(unit["hex"])
        if "chest" in carried and "chests" in self.open_quests:
            return self.start
        if "kitten" in carried and "kitten" in self.open_quests:
            return self.start
        active = self.view["active"]
        if ("ride" in self.open_quests and active and active["unit"] == unit["id"]
                and active["horse"] is not None):
            ends = [c for side in ("west", "east") if side not in self.seat["ride_ends"]
                    for c in MAP["ends"][side]]
            if ends:
                return min(ends, key=lambda c: (self.steps(here, c), c))
        return None

    def _roles(self) -> dict[int, Cell]:
        """Quest errands: the fittest free unit for each quest hex."""
        errands: list[Cell] = []
        if "corners" in self.open_quests:
            visited = {_c(c) for c in self.seat["corners"]}
            errands += [c for c in MAP["corners"] if c not in visited]
        if "flag" in self.open_quests:
            errands += [_c(c) for c in self.seat["flags"]]
        if self.raid is not None:
            errands += [self.raid, self.raid]
        keep = self.keep
        free = [u for u in self.mine if u["kind"] not in ("horse", "villager")
                and u["kind"] not in keep]
        roles: dict[int, Cell] = {}
        if "ride" in self.open_quests and self.horses:
            # Long ride: the nearest light unit walks to a horse and rides it next round.
            riders = [u for u in self.mine if u["kind"] != "horse" and not u["down"]
                      and not u["starting"] and weight(u, self.items) <= 2]
            horse = self.horses[0]
            cell = _c(horse["hex"])
            if riders and not any(_c(u["hex"]) == cell for u in riders):
                rider = min(riders, key=lambda u: (self.steps(_c(u["hex"]), cell), u["id"]))
                roles[rider["id"]] = cell
                free = [u for u in free if u["id"] != rider["id"]]
        pairs = sorted((self.steps(_c(u["hex"]), cell) / MONSTERS[u["kind"]]["move"] ** 2,
                        u["id"], n) for u in free for n, cell in enumerate(errands))
        taken: set[int] = set()
        for _cost, uid, n in pairs:
            if uid in roles or n in taken:
                continue
            roles[uid] = errands[n]
            taken.add(n)
        return roles

    def threat(self, unit: dict[str, Any]) -> bool:
        """Whether an enemy that fights could reach and attack ``unit`` next."""
        here = _c(unit["hex"])
        for enemy in self.enemies:
            if enemy["owner"] is None:
                continue  # wild monsters never attack
            reach = MONSTERS[enemy["kind"]]["move"] + max(1, enemy["shoot"])
            if distance(here, _c(enemy["hex"])) <= reach and enemy["attack"] >= 3:
                return True
        return False

    def carried_kinds(self) -> list[str]:
        return [self.items[i]["kind"] for u in self.mine for i in u["items"]]

    def wants_kill(self, unit: dict[str, Any]) -> float:
        """How much a kill of ``unit`` helps our quests (0.3 for any kill)."""
        value = 0.3
        for key, kinds in SLAY_WANTS.items():
            if key in self.open_quests and unit["kind"] in kinds:
                value += 2.0
        if "kinds" in self.open_quests and unit["kind"] not in self.kinds_killed:
            value += 1.0
        if "villager" in self.open_quests and unit.get("starting") and unit["owner"] is not None:
            value += 3.0
        if "archer" in self.open_quests and not self.kinds_killed:
            value += 1.0
        if self.raid is not None and _c(unit["hex"]) == self.raid:
            value += 1.5
        return value

    def kill_chance(self, attacker: dict[str, Any], target: dict[str, Any],
                    need: int | None = None) -> float:
        if need is None:
            need = attacker["attack"]
            if attacker["kind"] == "lizardman" and target["kind"] in DARK_FOE_PREY:
                need = 6 + (attacker["attack"] - MONSTERS["lizardman"]["attack"])
        hit = min(8, max(0, need)) / 8
        fail = 1 - min(8, max(0, target["defense"])) / 8
        if target["kind"] == "troll" and not target["down"]:
            fail *= 0.5  # it only goes down
        return hit * fail

    def goal(self, unit: dict[str, Any]) -> Cell | None:
        here = _c(unit["hex"])
        carried = [self.items[i]["kind"] for i in unit["items"]]
        if "chest" in carried and "chests" in self.open_quests:
            return self.start
        if "kitten" in carried and "kitten" in self.open_quests:
            return self.start
        if unit["id"] in self.roles:
            return self.roles[unit["id"]]
        options: list[tuple[float, Cell]] = []
        walk = self.reach_from(here)

        def add(cell: Cell, bonus: float) -> None:
            options.append((walk.get(cell, FAR + distance(here, cell)) - bonus, cell))

        searcher = MONSTERS[unit["kind"]]["search"] > 0
        if "beasts" in self.open_quests and unit["kind"] in BEASTS:
            return self.start  # Beast master: keep the beasts safe at home
        for it in self.view["items"]:
            if it["lying"]:
                bonus = 3.0
                if it["kind"] == "chest" and ("chests" in self.open_quests or searcher):
                    bonus = 5.0
                if it["kind"] == "kitten" and "kitten" in self.open_quests:
                    bonus = 8.0
                add(_c(it["hex"]), bonus)
        if "ride" in self.open_quests and self.view["active"] and self.view["active"]["horse"]:
            ends = [c for side in ("west", "east") if side not in self.seat["ride_ends"]
                    for c in MAP["ends"][side]]
            if ends:
                return min(ends, key=lambda c: distance(here, c))
        cautious = unit["kind"] in self.keep or unit["kind"] == "villager"
        for enemy in self.enemies:
            if enemy["burrowed"] or cautious:
                continue
            value = self.wants_kill(enemy)
            chance = self.kill_chance(unit, enemy)
            add(_c(enemy["hex"]), value * chance * 8 + (2 if not searcher else 0))
        if searcher:
            searched, lairs, home = self.searched, self.lairs, self.home
            for cell in CELLS:
                if cell in home or cell in searched or cell in lairs:
                    continue
                if not cautious or distance(cell, self.start) <= 4:
                    add(cell, 1.5)
            bags = "money" in self.open_quests or (
                "arms" in self.open_quests and "armor" not in self.carried_kinds())
            for cell, guard in self.lairs.items():
                if guard is None:
                    add(cell, 5.0 if bags else 2.5)
        if not options:
            return None
        return min(options)[1]


def choose(view: dict[str, Any], legal: list[dict[str, Any]], rng: Rng) -> dict[str, Any] | None:
    if view["phase"] == "starts":  # before Mind: the seat has no starting hex yet
        # The map's default hex for this seat if it is free, else the one farthest from the
        # others' (nearest the default on a tie).
        taken = [_c(s["start"]) for s in view["seats"] if s["start"]]
        default = MAP["starts"][len(view["seats"])][view["to_act"][0]]
        if {"type": "start", "hex": list(default)} in legal:
            return {"type": "start", "hex": list(default)}
        return max(legal, key=lambda a: (min((distance(_c(a["hex"]), t) for t in taken),
                                             default=0), -distance(_c(a["hex"]), default),
                                         -legal.index(a)))
    if view["phase"] == "flags":
        holder = view["seats"][view["flag_holder"]]
        start = _c(holder["start"])
        return max(legal, key=lambda a: (distance(_c(a["hex"]), start), -legal.index(a)))
    mind = Mind(view)
    if view["prompt"] is not None:
        return _prompt(mind, view["prompt"], legal)
    buy = _buy(mind, legal)
    if buy is not None:
        return buy
    if view["active"] is None:
        return _select(mind, legal, rng)
    return _act(mind, legal, rng)


def _prompt(mind: Mind, prompt: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    if prompt["type"] == "kitten":
        return _kitten(mind, prompt, legal)
    if prompt["type"] == "sacrifice":
        target = mind.units[prompt["target"]]
        best = None
        for action in legal:
            if action["type"] != "sacrifice":
                continue
            orc = mind.units[action["orc"]]
            if target.get("starting") or orc["defense"] > target["defense"] + 1:
                best = action
        return best or {"type": "decline"}
    need, value = prompt.get("need"), prompt["value"]
    options = {a["change"] for a in legal if a["type"] == "lucky"}
    if need is None:
        return {"type": "lucky", "change": 0}
    mine = prompt.get("roller") == mind.me
    if mine and value > need and value - 1 <= need and -1 in options:
        return {"type": "lucky", "change": -1}
    if not mine and value <= need and value + 1 > need and 1 in options:
        return {"type": "lucky", "change": 1}
    return {"type": "lucky", "change": 0}


def _kitten(mind: Mind, prompt: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Hit while carrying a kitten: run if the defence roll is a real risk and the kitten is
    not wanted at home (a Potion on the unit makes staying safe; a bag may buy one)."""
    unit = mind.units[prompt["unit"]]
    carried = [mind.items[i]["kind"] for i in unit["items"]]
    escapes = [a for a in legal if a["type"] == "escape"]
    risk = 1 - min(8, max(0, unit["defense"])) / 8
    if unit["kind"] == "troll" and not unit["down"]:
        risk = 0.0  # it only goes down
    if "potion" in carried:
        risk *= 0.2
    precious = unit.get("starting") or unit["kind"] in mind.keep
    wanted_home = "kitten" in mind.open_quests
    if escapes and risk > 0.2 and (precious or not wanted_home or risk > 0.6):
        attacker = mind.units.get(prompt["attacker"])
        foe = _c(attacker["hex"]) if attacker else _c(unit["hex"])
        return max(escapes, key=lambda a: (distance(_c(a["to"]), foe),
                                           -distance(_c(a["to"]), mind.start),
                                           -legal.index(a)))
    if risk > 0.3 and "potion" not in carried:
        for action in legal:  # a Money Bag on the unit buys a Potion before the roll
            if action["type"] == "buy" and action["item"] == "potion" and \
                    mind.items[action["bag"]]["unit"] == unit["id"]:
                return action
    return {"type": "decline"}


def _buy(mind: Mind, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    buys = [a for a in legal if a["type"] == "buy"]
    if not buys or "money" in mind.open_quests:
        return None
    have = [mind.items[i]["kind"] for u in mind.mine for i in u["items"]]
    wanted = []
    if "arms" in mind.open_quests:
        wanted += [k for k in ("sword", "bow", "armor") if k not in have]
    if "archer" in mind.open_quests and "bow" not in have:
        wanted.append("bow")
    if "kitten" in mind.open_quests and "kitten" not in have:
        wanted.append("kitten")
    wanted += ["potion", "sword"]
    for kind in wanted:
        for action in buys:
            if action["item"] == kind:
                return action
    return None


def _select(mind: Mind, legal: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    selects = [a for a in legal if a["type"] == "select"]
    if not selects:
        return {"type": "pass_all"}

    def score(action: dict[str, Any]) -> tuple[float, int]:
        unit = mind.units[action["unit"]]
        value = MONSTERS[unit["kind"]]["attack"] + MONSTERS[unit["kind"]]["search"] / 2
        if "ride" in action:
            far = mind.goal(unit)
            value += 12 if "ride" in mind.open_quests else (
                3 if far is not None and distance(_c(unit["hex"]), far) > 2 else -1)
        if unit["kind"] == "horse":
            value -= 3  # let riders use it first
        return value, -legal.index(action)

    return max(selects, key=score)


def _act(mind: Mind, legal: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    active = mind.view["active"]
    unit = mind.units[active["unit"]]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "heal" in by_type:
        return {"type": "heal"}
    carried = [mind.items[i]["kind"] for i in unit["items"]]
    gift = _gift(mind, unit, by_type.get("give", []))
    if gift is not None:
        return gift
    # Stone Crawl is worth it for a dwarf that matters: one a quest keeps, or one carrying
    # things; a spare dwarf is better spent searching and fighting.
    precious = unit["kind"] in mind.keep or bool(unit["items"])
    threat = precious and mind.threat(unit)
    if unit["burrowed"] and threat and mind.urgent(unit) is None:
        return {"type": "pass"}  # stay underground while enemies are about
    urgent = mind.urgent(unit)
    if urgent is not None and "move" in by_type and _c(unit["hex"]) != urgent:
        action = _step_towards(mind, by_type["move"], urgent, rng, unit)
        if action is not None:
            return action
    if unit["kind"] == "horse" and ("ride" in mind.open_quests or "beasts" in mind.open_quests):
        return {"type": "pass"}  # wait where a rider can find it (or stay safe at home)
    # attacks with fair odds
    best, best_value = None, 0.0
    for action in by_type.get("attack", []) + by_type.get("shoot", []):
        target = mind.units[action["target"]]
        need = None
        if action["type"] == "shoot":
            need = unit["shot"]
            if unit["kind"] == "lizardman" and target["kind"] in DARK_FOE_PREY:
                need = 6
        value = mind.kill_chance(unit, target, need) * mind.wants_kill(target)
        if value > best_value:
            best, best_value = action, value
    for action in by_type.get("rampage", []):
        cell = _c(action["hex"])
        targets = [u for u in mind.enemies if _c(u["hex"]) == cell and not u["burrowed"]]
        value = sum(mind.kill_chance(unit, t) * mind.wants_kill(t) for t in targets)
        if value > best_value:
            best, best_value = action, value
    for action in by_type.get("fury", []):
        targets = [mind.units[t] for t in action["targets"]]
        value = sum(mind.kill_chance(unit, t) * mind.wants_kill(t) for t in targets)
        if value > best_value:
            best, best_value = action, value
    if best is not None and best_value >= (0.35 if unit["kind"] in mind.keep else 0.2):
        return best
    errand = mind.roles.get(unit["id"])
    if errand is not None and "move" in by_type and _c(unit["hex"]) != errand:
        action = _step_towards(mind, by_type["move"], errand, rng, unit)
        if action is not None:
            return action
    if "pickup" in by_type:
        lying = [i for i in mind.view["items"] if i["lying"] and i["hex"] == unit["hex"]]
        if any(i["kind"] != "chest" or "chests" in mind.open_quests or True for i in lying):
            return {"type": "pickup"}
    for action in by_type.get("open", []):
        chest = mind.items[action["chest"]]
        if "chests" in mind.open_quests and not chest["sprung"]:
            break
        if action.get("key") or chest["sprung"] or MONSTERS[unit["kind"]]["search"] >= 4 \
                or (any(k == "potion" for k in carried)) or (
                    "kitten" in mind.open_quests and MONSTERS[unit["kind"]]["search"] >= 3):
            return action
    if "burrow" in by_type and threat and (best is None or best_value < 0.3):
        return {"type": "burrow"}  # Stone Crawl: out of reach until it moves again
    if "rally" in by_type and _rally_wanted(mind):
        return {"type": "rally"}
    if "search" in by_type:
        return {"type": "search"}
    if "move" in by_type:
        goal = mind.goal(unit)
        here = _c(unit["hex"])
        if goal is not None and goal != here:
            action = _step_towards(mind, by_type["move"], goal, rng, unit)
            if action is not None:
                return action
    if best is not None:
        return best
    if "rally" in by_type and len(mind.mine) < 7:
        return {"type": "rally"}
    return {"type": "pass"}


def _rally_wanted(mind: Mind) -> bool:
    """Rally Cry before searching only when a quest wants a kind we lack, or the horde is
    small: a Villager is the best searcher, so it should not just call for help."""
    kinds = {u["kind"] for u in mind.mine}
    if "folk" in mind.open_quests and not {"elf", "dwarf", "orc"} <= kinds:
        return len(mind.mine) < 12
    if "beasts" in mind.open_quests and not {"horse", "wolf", "war_dog"} <= kinds:
        return len(mind.mine) < 12
    if "ride" in mind.open_quests and "horse" not in kinds:
        return len(mind.mine) < 8
    if mind.raid is not None or "flag" in mind.open_quests:
        return len(mind.mine) < 9  # holding or storming hexes wants numbers
    return len(mind.mine) < 7


def _gift(mind: Mind, unit: dict[str, Any], gives: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Hand an item to a stack-mate when it serves better there: a spare weapon or armour to
    a mate without one, a Potion to the Starting Villager, a quest chest or kitten to a mate
    that stays home or moves faster."""
    if not gives:
        return None
    mine = [mind.items[i]["kind"] for i in unit["items"]]
    for action in gives:
        kind = mind.items[action["item"]]["kind"]
        mate = mind.units[action["to"]]
        theirs = [mind.items[i]["kind"] for i in mate["items"]]
        room = weight(mate, mind.items) < 4
        if kind in GEAR and room:
            spare = sum(GEAR.get(k) == GEAR[kind] for k in mine) > 1
            lacks = not any(GEAR.get(k) == GEAR[kind] for k in theirs)
            if lacks and spare:
                return action
            if lacks and GEAR[kind] != "armour" and mate["kind"] != "horse" and \
                    MONSTERS[mate["kind"]]["attack"] > MONSTERS[unit["kind"]]["attack"]:
                return action
        if kind == "potion" and mate.get("starting") and "potion" not in theirs \
                and not unit.get("starting"):
            return action
        if kind in ("chest", "kitten") and _c(unit["hex"]) != mind.start and \
                MONSTERS[mate["kind"]]["move"] > MONSTERS[unit["kind"]]["move"] and \
                mate["kind"] != "horse" and not mate["acted"]:
            return action
    return None


def _step_towards(mind: Mind, moves: list[dict[str, Any]], goal: Cell, rng: Rng,
                  unit: dict[str, Any]) -> dict[str, Any] | None:
    """The move that gets nearest to ``goal`` by a walk around enemies, if it gets nearer."""
    best = min(mind.steps(_c(a["to"]), goal) for a in moves)
    if best >= mind.steps(_c(unit["hex"]), goal):
        return None
    closest = [a for a in moves if mind.steps(_c(a["to"]), goal) == best]
    return rng.choice(closest)
