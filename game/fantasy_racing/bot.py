"""The Fantasy Racing computer player: races, fights and uses objects sensibly.

Pure Python; it sees only its own view (the same for everyone in this open
game) and the static track data.  Movement looks ahead over every path the
remaining steps allow (and, playing by the Hard numbers, over the next turn's
rolls from where it ends); objects are scored by what they would do now.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from game.engine import Action, Rng, View

from .data import CHARACTERS, D6, DRAPID, OBJECTS, TRACK

W, H = TRACK["width"], TRACK["height"]
TERRAIN: dict[tuple[int, int], str] = TRACK["terrain"]
ITEMS: dict[tuple[int, int], str] = TRACK["items"]
#: How much a racer values holding each chest object.
OBJECT_VALUE = {"throwing_axe": 5, "wand_of_fire": 5, "ring_of_fire": 4, "stealing_gloves": 3,
                "magic_spear": 3, "haste_potion": 3, "mist_cloak": 2, "trap": 2,
                "gold_purse": 2}
STEP_VALUE = 0.45
#: 1D10 on a shortcut -> squares moved (the rules' table).
SHORTCUT_SHIFTS = (-4, -3, -2, -1, 1, 2, 3, 4, 5, 5)
#: What ending on an obstacle costs: a small shock (about two squares back), a hole's points.
SHOCK_COST = 1.2


@dataclass(frozen=True)
class Style:
    """The numbers a racer plays by.  :data:`NORMAL` is the Normal player's; the Hard player
    plays its own seat by ``hard.HARD_STYLE``."""
    step: float = STEP_VALUE
    coin: float = 2.0
    chest: float = 3.0
    shield_item: float = 1.5
    clover: float = 1.0
    hole: float = -3.5
    fight_win: float = 3.0
    fight_big: float = 5.0
    fight_loss: float = 2.5
    fight_lead: float = 0.02
    shock: float = SHOCK_COST
    trap_spot: float = 0.6
    spear_line: float = 0.4
    use_early: float = 1.0
    use_late: float = 0.6
    use_last: float = 0.05
    reroll_below: int = 2
    shield_small: bool = False
    shield_big: bool = True
    haste: float = 2.5
    purse: float = 2.0
    big_shot: float = 3.0
    small_shot: float = 2.0
    shot_lead: float = 0.04
    mist_near: float = 1.5
    barrier_shot: float = 1.2
    #: Fights valued by the characters' own rules (a timid racer is attacked, a frail one
    #: takes a big shock, the crowd's favourite scores one more) and by what the rival
    #: loses as well as what the racer wins; ``chest_bonus`` is added to a chest for
    #: a character who scores for opening one.
    rules_aware: bool = False
    rival_share: float = 1.0
    chest_bonus: float = 0.0
    #: Weight of the next turn's expected best path from the square a move ends on.
    ahead: float = 0.0
    #: Weight of the fights an opponent may start next by ending its move on this square.
    threat: float = 0.0


NORMAL = Style()


def trap_spot(cell: tuple[int, int], blocked) -> float:
    """How good ``cell`` is for a trap: a gate racers must pass, the square below a barrier
    or rock where recoils up the column stop, a shortcut or object that draws racers."""
    x, y = cell
    value = 0.5 * choke(cell, blocked)
    if blocked((x, (y - 1) % H)):
        value += 0.6
    if TERRAIN.get(cell) == "shortcut" or ITEMS.get(cell):
        value += 0.3
    # Racers climbing out of a hole, or stumbling across one, come to rest here.
    if TERRAIN.get((x, (y + 1) % H)) == "hole" or TERRAIN.get((x, (y - 1) % H)) == "hole":
        value += 0.6
    # Shortcuts in this column throw racers onto it.
    value += 1.0 * sum(1 for k in range(-5, 5) if k and TERRAIN.get((x, (y + k) % H))
                       == "shortcut")
    return value


def choke(cell: tuple[int, int], blocked) -> int:
    """How many squares of the row above can step only onto ``cell`` (a gate in a wall):
    a trap there is hard to avoid."""
    x, y = cell
    count = 0
    for dx in (-1, 0, 1):
        above = ((x - dx) % W, (y - 1) % H)
        if blocked(above) or TERRAIN.get(above) == "hole":
            continue
        ways = [d for d in (-1, 0, 1) if not blocked(((above[0] + d) % W, y))]
        if ways == [dx]:
            count += 1
    return count


_TABLES: dict[tuple, dict[str, dict]] = {}


def _tables(*key) -> dict[str, dict]:
    """The next-turn tables for one track state (objects taken, barriers destroyed, traps)
    and one racer's numbers and traits: shared by every decision made while the track stays
    the same."""
    found = _TABLES.get(key)
    if found is None:
        if len(_TABLES) >= 256:
            _TABLES.clear()
        found = _TABLES[key] = {"plain": {}, "ahead": {}, "successors": {}}
    return found


@lru_cache(maxsize=None)
def traits(character: str) -> frozenset[str]:
    """A character's abilities and weakness, the keywords the rules know."""
    char = CHARACTERS[character]
    return frozenset(char["abilities"]) | {char["weakness"]}


@lru_cache(maxsize=None)
def faces_of(character: str) -> tuple[int, ...]:
    """The squares a character's movement roll may give, one per face of its die (a dwarf's
    6 counts 5)."""
    have = traits(character)
    if "rapid" in have:
        return tuple(DRAPID)
    return tuple(5 if face == 6 and "short_stride" in have else face for face in D6)


class World:
    """The dynamic state the bot reasons about, from a view."""

    def __init__(self, view: View, me: int, style: Style = NORMAL) -> None:
        self.style = style
        self.view = view
        self.me = me
        racer = view["racers"][me]
        self.char_key = racer["character"]
        self.char = CHARACTERS[racer["character"]]
        self.abilities = traits(self.char_key)
        self.taken = {tuple(c) for c in view["taken"]}
        self.destroyed = {tuple(c) for c in view["destroyed"]}
        self.traps = {(c[0], c[1]) for c in view["traps"]}
        self.objects = list(racer["objects"])
        self.opponents: dict[tuple[int, int], list[dict[str, Any]]] = {}
        self._rest: dict[tuple[int, int], float] = {}
        # The next turn: none after the last; every object back if it starts a new third.
        turn = view.get("turn", 0)
        self.last_turn = turn >= view.get("turns", turn + 1)
        self.next_taken = set() if turn + 1 in view.get("respawns", ()) else self.taken
        for r in view["racers"]:
            if r["seat"] != me and not r["protected"]:
                self.opponents.setdefault(tuple(r["pos"]), []).append(r)

    def blocked(self, cell: tuple[int, int]) -> bool:
        kind = TERRAIN.get(cell)
        return kind == "rock" or (kind == "barrier" and cell not in self.destroyed)

    def item(self, cell: tuple[int, int], taken: set | None = None) -> str | None:
        return None if cell in (self.taken if taken is None else taken) else ITEMS.get(cell)

    def item_value(self, cell: tuple[int, int], taken: set | None = None) -> float:
        item = self.item(cell, taken)
        style = self.style
        if item == "coin":
            return style.coin
        if item == "chest":
            return (style.chest + (0.5 if "scrounger" in self.abilities else 0.0)
                    + (style.chest_bonus if "treasure_hunter" in self.abilities else 0.0))
        if item == "shield":
            return 0.0 if "no_shield" in self.abilities else style.shield_item
        if item == "clover":
            return style.clover
        return 0.0

    def fight_value(self, cell: tuple[int, int]) -> float:
        value = 0.0
        style = self.style
        if style.rules_aware:
            return sum(self.duel_value(other) for other in self.opponents.get(cell, []))
        for other in self.opponents.get(cell, []):
            table = self.char["combat"]
            guard = CHARACTERS[other["character"]]["guard"]
            defeat = table["defeat"] + guard
            simple = table["simple"] - guard
            value += (simple * style.fight_win + table["overwhelming"] * style.fight_big
                      - defeat * style.fight_loss) / 100
            value += style.fight_lead * (other["points"]
                                         - self.view["racers"][self.me]["points"])
        return value

    def duel_value(self, other: dict[str, Any], i_move: bool = True) -> float:
        """What a fight with ``other`` on the square this racer moves to (``i_move``), or
        that ``other`` moves to, is worth to it, in points: its own gain and shock, and
        (``rival_share`` of) the rival's, by the rules of both characters (who attacks,
        frail, crowd favourite)."""
        style = self.style
        mine = (self.char, self.abilities)
        rival = (CHARACTERS[other["character"]], traits(other["character"]))
        # The mover attacks, unless the mover is timid.
        mover_timid = "timid" in (self.abilities if i_move else rival[1])
        rival_attacks = i_move == mover_timid
        (attacker, att_traits), (defender, def_traits) = ((rival, mine) if rival_attacks
                                                          else (mine, rival))
        table, guard = attacker["combat"], defender["guard"]
        p_defeat = (table["defeat"] + guard) / 100
        p_simple = (table["simple"] - guard) / 100
        p_big = table["overwhelming"] / 100
        small, big = 2.0 * style.step, 3.5 * style.step

        def won(traits: set[str], points: float) -> float:
            return points + (1.0 if "crowd_favourite" in traits else 0.0)

        def small_shock(traits: set[str]) -> float:
            return big if "frail" in traits else small

        att = (p_simple * won(att_traits, 3.0) + p_big * won(att_traits, 5.0)
               - p_defeat * small_shock(att_traits))
        dfn = p_defeat * won(def_traits, 3.0) - p_simple * small_shock(def_traits) - p_big * big
        me, them = (dfn, att) if rival_attacks else (att, dfn)
        return me - style.rival_share * them

    def rest_value(self, cell: tuple[int, int]) -> float:
        """Value of ending the move on ``cell`` (worked out once per cell)."""
        known = self._rest.get(cell)
        if known is None:
            known = self._rest[cell] = self._rest_value(cell)
        return known

    def _rest_value(self, cell: tuple[int, int]) -> float:
        kind = TERRAIN.get(cell)
        if kind == "hole":
            return self.style.hole
        value = self.fight_value(cell)
        if self.style.ahead:
            value += self.style.ahead * self.ahead(cell)
        if self.style.threat:
            value += self.style.threat * self.threat(cell)
        if kind == "shortcut":
            value += self.shortcut_value(cell)
        if "trap" in self.objects and cell not in self.traps and self.behind():
            value += self.style.trap_spot * trap_spot(cell, self.blocked)
        if "magic_spear" in self.objects and self.in_line(cell, 6):
            value += self.style.spear_line  # next turn the spear has someone to hit
        return value

    def threat(self, cell: tuple[int, int]) -> float:
        """What the opponents' next moves may do to a racer resting on ``cell``: each one's
        chance of a roll that reaches it, times the fight's worth."""
        total = 0.0
        order, index = self.view["order"], self.view["index"]
        later = set(order[index + 1:]) if self.last_turn else None
        for r in self.view["racers"]:
            if r["seat"] == self.me or (later is not None and r["seat"] not in later):
                continue
            dy = (cell[1] - r["pos"][1]) % H
            dx = min((cell[0] - r["pos"][0]) % W, (r["pos"][0] - cell[0]) % W)
            if dy == 0 or dx > dy:
                continue
            faces = faces_of(r["character"])
            chance = sum(1 for f in faces if f == dy) / len(faces)
            if chance:
                total += chance * self.duel_value(r, i_move=False)
        return total

    def ahead(self, cell: tuple[int, int]) -> float:
        """The expected worth of the next turn's best path from ``cell`` (objects on the way
        and the square it ends on; no fights: the others will have moved)."""
        if self.last_turn:
            return 0.0
        table = self._next_turn["ahead"]
        known = table.get(cell)
        if known is None:
            faces = faces_of(self.char_key)
            known = table[cell] = sum(self.plain(cell[0], cell[1], f, 0)
                                      for f in faces) / len(faces)
        return known

    @cached_property
    def _next_turn(self) -> dict[str, dict]:
        """The next turn's tables (``plain``, ``ahead``, ``successors``), shared by every
        decision made on the same track (:func:`_tables`)."""
        return _tables(self.style, self.abilities, frozenset(self.next_taken),
                       frozenset(self.destroyed), frozenset(self.traps))

    def plain(self, x: int, y: int, left: int, taken: int) -> float:
        """The best worth of ``left`` steps from (x, y) after ``taken`` steps: the objects
        picked up on the way and the square it ends on (no fights, no distance)."""
        table = self._next_turn["plain"]
        key = (x, y, left, taken if taken < 3 else 3)
        known = table.get(key)
        if known is not None:
            return known
        if left == 0:
            value = self.style.hole if TERRAIN.get((x, y)) == "hole" else 0.0
        else:
            value = None
            jumps = taken >= 2 and "short_legs" not in self.abilities
            for nx, ny, gain, kind in self.successors(x, y):
                if kind == 1:               # a trap ends the move with a big shock
                    gain -= 3.0
                else:
                    if kind == 2 and left > 1 and not jumps:
                        gain += self.style.hole * 0.5
                    gain += self.plain(nx, ny, left - 1, taken + 1)
                if value is None or gain > value:
                    value = gain
            if value is None:
                value = 0.0
        table[key] = value
        return value

    def successors(self, x: int, y: int) -> list[tuple[int, int, float, int]]:
        """The squares one step from (x, y) may go to: (x, y, object's worth, 1 for a trap,
        2 for a hole, 0 otherwise)."""
        table = self._next_turn["successors"]
        found = table.get((x, y))
        if found is None:
            found = table[(x, y)] = []
            for dx in (-1, 0, 1):
                nxt = ((x + dx) % W, (y + 1) % H)
                if self.blocked(nxt):
                    continue
                kind = 1 if nxt in self.traps else 2 if TERRAIN.get(nxt) == "hole" else 0
                found.append((nxt[0], nxt[1], self.item_value(nxt, self.next_taken), kind))
        return found

    def in_line(self, cell: tuple[int, int], reach: int) -> bool:
        """An opponent straight down, up, left or right within ``reach``, no rock between."""
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            for k in range(1, reach + 1):
                nxt = ((cell[0] + dx * k) % W, (cell[1] + dy * k) % H)
                if TERRAIN.get(nxt) == "rock":
                    break
                if nxt in self.opponents:
                    return True
        return False

    def behind(self) -> bool:
        """An opponent is a few rows behind (it may pass where we stand)."""
        y = self.view["racers"][self.me]["pos"][1]
        return any(0 < (y - r["pos"][1]) % H <= 8 for r in self.view["racers"]
                   if r["seat"] != self.me)

    def shortcut_value(self, cell: tuple[int, int]) -> float:
        """The expected worth of the shortcut's jump from ``cell`` (over the ten faces)."""
        x, y = cell
        total = 0.0
        for shift in SHORTCUT_SHIFTS:
            ty = max(0, y + shift) if shift < 0 else y + shift
            landing = (x, ty % H)
            value = (ty - y) * self.style.step + self.item_value(landing)
            kind = TERRAIN.get(landing)
            if kind == "rock" or (kind == "barrier" and landing not in self.destroyed):
                value -= self.style.shock
            elif kind == "hole":
                value -= 2.5
            elif landing in self.traps:
                value -= 3.0
            else:
                value += self.fight_value(landing) * 0.5
            total += value
        return total / len(SHORTCUT_SHIFTS)


def best_path(world: World, start: tuple[int, int], left: int, taken: int,
              can_stop_here: bool = False) -> tuple[float, int | None]:
    """(value, first dx or None for stop) of the best way to spend ``left`` steps."""
    step_value = world.style.step

    @lru_cache(maxsize=None)
    def go(x: int, y: int, left: int, taken: int) -> float:
        cell = (x, y)
        if left == 0:
            return world.rest_value(cell)
        options = []
        for dx in (-1, 0, 1):
            options.append(step(x, y, dx, left, taken))
        if TERRAIN.get(cell) == "shortcut" and taken > 0:
            options.append(world.rest_value(cell))
        options = [o for o in options if o is not None]
        return max(options) if options else world.rest_value(cell)

    def step(x: int, y: int, dx: int, left: int, taken: int) -> float | None:
        nxt = ((x + dx) % W, (y + 1) % H)
        if world.blocked(nxt):
            return None
        value = step_value  # laps need no bonus: they come with the steps
        if nxt in world.traps:
            # The move ends on the trap: a big shock (or a shield's points) and the steps lost.
            shock = min(1.8, 2.0) if world.view["racers"][world.me]["shield"] else 1.8
            return value - shock - step_value * (left - 1) - 0.5
        value += world.item_value(nxt)
        if TERRAIN.get(nxt) == "hole" and left > 1:
            if taken + 1 >= 3 and "short_legs" not in world.abilities:
                return value + go(nxt[0], nxt[1], left - 1, taken + 1)
            below = (nxt[0], (nxt[1] + 1) % H)
            if world.blocked(below):
                return value + world.style.hole
            return value + step_value + world.item_value(below) + world.rest_value(below) \
                - 0.2 * (left - 2)
        return value + go(nxt[0], nxt[1], left - 1, taken + 1)

    best, choice = -1e9, None
    x, y = start
    for dx in (-1, 0, 1):
        v = step(x, y, dx, left, taken)
        if v is not None and v > best + 1e-9:
            best, choice = v, dx
    if can_stop_here:
        v = world.rest_value(start)
        if v > best:
            best, choice = v, None
    return best, choice


def _target_value(world: World, view: View, action: Action) -> float:
    key = action["object"]
    obj = OBJECTS[key]
    me = view["racers"][world.me]
    style = world.style
    if key == "haste_potion":
        return style.haste
    if key == "gold_purse":
        return style.purse
    if key == "mist_cloak":
        near = any(abs(r["pos"][1] - me["pos"][1]) <= 5 for r in view["racers"]
                   if r["seat"] != world.me)
        return style.mist_near if near else 0.3
    if key == "trap":
        if not world.behind():
            return 0.2
        here = tuple(me["pos"])
        return 0.6 + trap_spot(here, world.blocked)
    if key == "ring_of_fire":
        hits = view["reach"].get(key, {}).get("targets", [])
        return sum(2.0 + 0.05 * view["racers"][t["seat"]]["points"] if "seat" in t else 0.3
                   for t in hits)
    if "seat" in action:
        target = view["racers"][action["seat"]]
        base = style.big_shot if obj["shock"] == "big" else style.small_shot
        if key == "stealing_gloves":
            base = 1.0 + 0.5 * len(target["objects"]) + 0.5 * target["shield"]
        return base + style.shot_lead * (target["points"] - me["points"])
    cell = tuple(action["cell"])
    dy = (cell[1] - me["pos"][1]) % H
    dx = min((cell[0] - me["pos"][0]) % W, (me["pos"][0] - cell[0]) % W)
    return style.barrier_shot if 0 < dy <= 5 and dx <= dy else 0.1


def choose(view: View, legal: list[Action], rng: Rng, style: Style = NORMAL) -> Action | None:
    """The bot's action (playing by ``style``), or None to let the engine pick at random."""
    if not legal:
        return None
    kinds = {a["type"] for a in legal}
    me = view["viewer"]
    if me is None or "pick" in kinds or "deal" in kinds:
        return None
    world = World(view, me, style)
    racer = view["racers"][me]
    pending = view["pending"]
    if "shield" in kinds:
        cost = pending.get("cost", 2)
        big = pending["size"] == "big"
        use = ((style.shield_big if big else style.shield_small) or racer["shield"] >= 2
               or cost <= 1)
        return {"type": "shield" if use else "take"}
    if "keep" in kinds:
        return {"type": "reroll" if OBJECT_VALUE[pending["object"]] <= style.reroll_below
                else "keep"}
    if "tactical" in kinds:
        x, y = racer["pos"]
        best, choice = -1e9, legal[0]
        for action in legal:
            cell = ((x + action["dx"]) % W, y)
            value = world.item_value(cell) - (5 if cell in world.traps else 0)
            if TERRAIN.get(cell) == "hole":
                value += world.style.hole
            if action["dx"] != 0:
                value -= 0.5 * len(world.opponents.get(cell, []))
                value += 0.3 if TERRAIN.get(cell) == "shortcut" else 0
            value += best_path(world, cell, 3, 0)[0] * 0.2
            if value > best:
                best, choice = value, action
        return choice
    if "step" in kinds or "stop" in kinds:
        move = view["move"]
        _value, dx = best_path(world, tuple(racer["pos"]), move["left"], move["taken"],
                               "stop" in kinds)
        if dx is None:
            return {"type": "stop"} if "stop" in kinds else legal[0]
        return {"type": "step", "dx": dx}
    uses = [a for a in legal if a["type"] == "use"]
    if uses:
        scored = sorted(((_target_value(world, view, a), n) for n, a in enumerate(uses)),
                        reverse=True)
        value, n = scored[0]
        # Objects are worth nothing once the race is over: spend them as it nears its end.
        # Only one object a turn: holding more than the turns left, use one now.
        left = view["turns"] - view["turn"]
        threshold = (style.use_early if left >= 3
                     else (style.use_late if left >= 1 else style.use_last))
        if len(racer["objects"]) > left:
            threshold = style.use_last
        elif len(racer["objects"]) >= 3:
            threshold = min(threshold, style.use_late)
        if value >= threshold:
            return uses[n]
    return {"type": "roll"}
