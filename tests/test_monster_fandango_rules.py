"""Monster Fandango: every monster ability, item, table, quest and ruling, scripted.

Most tests build a controller, clear the board, place exactly the units and
items they need, and script the dice (``Dice``) so each rule is pinned to the
roll that decides it.
"""

from __future__ import annotations


import pytest

from game.engine import IllegalAction, Match, Rng
from game.monster_fandango.data import ITEMS, MAP, MONSTERS, QUESTS, RALLY, lookup
from game.monster_fandango.kernel import distance, neighbours
from game.monster_fandango.rules import FandangoController

GAME = "monster_fandango"
WEST, EAST = MAP["starts"][2]


class Dice:
    """Scripted dice: ``randint`` hands out the listed values in order."""

    def __init__(self, *values: int, spare: int = 0) -> None:
        self.values = list(values) + [0] * spare
        self.state = 0

    def randint(self, low: int, high: int) -> int:
        assert self.values, "the test ran out of scripted dice"
        value = self.values.pop(0)
        assert low <= value <= high, (value, low, high)
        self.state += 1
        return value


def seats(n: int) -> list[dict[str, str]]:
    return [{"name": name, "kind": "human"} for name in ("Ann", "Bob", "Cyd", "Dee")[:n]]


def make(n: int = 2, **options) -> FandangoController:
    opts = {"round_limit": 30, "facing": False, "choose_starts": False, **options}
    c = FandangoController(seats(n), opts, Rng(1))
    c.phase = "play"
    c.flag_queue = []
    return c


def bare(n: int = 2, **options) -> FandangoController:
    """A controller in play with no units, no items and no lair guardians."""
    c = make(n, **options)
    c.units.clear()
    c.items.clear()
    c.lairs = {}
    c._changed()
    c.turn = 0
    c.order = list(range(n))
    c.first = 0
    return c


def put(c: FandangoController, kind: str, owner: int | None, cell, **extra) -> int:
    uid = c._new_unit(kind, owner, tuple(cell), acted=False)
    c.units[uid].update(extra)
    return uid


FAR_CORNER = max(MAP["corners"], key=lambda cell: distance(cell, (3, 4)))


def bystander(c: FandangoController, seat: int = 1) -> int:
    """A unit of ``seat`` far away that has acted, so the seat is still in the game (a seat
    left alone with units wins at once, ruling 39)."""
    return put(c, "villager", seat, FAR_CORNER, acted=True)


def give(c: FandangoController, uid: int, *kinds: str) -> list[int]:
    return [c._new_item(k, unit=uid) for k in kinds]


def act(c: FandangoController, seat: int, action: dict) -> list[dict]:
    return c.apply(seat, action)


def select(c: FandangoController, uid: int, **extra) -> None:
    act(c, c.units[uid]["owner"], {"type": "select", "unit": uid, **extra})


def texts(events) -> str:
    return " | ".join(e["text"] for e in events)


C = (3, 4)  # a hex in the middle of the map, far from the starting hexes


def near(cell, k=0):
    return neighbours(cell)[k]


# ------------------------------------------------------------------ data and tables
def test_thirteen_monsters_with_the_rule_text_statistics():
    expected = {  # stack, move, attack, defense, search
        "villager": (2, 1, 2, 1, 6), "lizardman": (2, 1, 4, 2, 4), "horror": (3, 2, 4, 1, 5),
        "elf": (1, 1, 4, 2, 5), "orc": (2, 1, 2, 4, 1), "dwarf": (1, 1, 3, 3, 5),
        "ratman": (1, 2, 3, 3, 3), "war_dog": (1, 2, 5, 1, 0), "horse": (2, 3, 1, 1, 0),
        "black_death": (4, 2, 5, 4, 0), "wolf": (1, 1, 4, 1, 0), "troll": (3, 2, 6, 3, 1),
        "death_beast": (4, 4, 4, 5, 0),
    }
    got = {k: (m["stack"], m["move"], m["attack"], m["defense"], m["search"])
           for k, m in MONSTERS.items()}
    assert got == expected


@pytest.mark.parametrize("table,value,result", [
    ("search", 1, "chest"), ("search", 4, "chest"), ("search", 5, "monster"),
    ("search", 6, "monster"), ("search", 7, "lair"), ("search", 8, "lair"),
    ("chest", 2, "money_bag"), ("chest", 3, "money_bag"), ("chest", 4, "melee"),
    ("chest", 5, "monster"), ("chest", 6, "missile"), ("chest", 7, "kitten"),
    ("chest", 8, "kitten"), ("chest", 9, "horse"), ("chest", 11, "horse"),
    ("chest", 12, "key"), ("chest", 14, "key"), ("chest", 15, "potion"), ("chest", 16, "potion"),
    ("lair", 2, "money_bag"), ("lair", 5, "money_bag"), ("lair", 6, "weapon"),
    ("lair", 9, "weapon"), ("lair", 10, "potion"), ("lair", 11, "potion"),
    ("lair", 12, "monster"), ("lair", 16, "monster"),
    ("monster", 2, "kitten"), ("monster", 3, "elf"), ("monster", 4, "dwarf"),
    ("monster", 5, "ratman"), ("monster", 6, "horror"), ("monster", 7, "orc"),
    ("monster", 8, "troll"), ("monster", 9, "troll"), ("monster", 10, "death_beast"),
    ("monster", 11, "death_beast"), ("monster", 12, "black_death"),
    ("monster", 13, "black_death"), ("monster", 14, "wolf"), ("monster", 15, "wolf"),
    ("monster", 16, "villager"),
])
def test_dice_tables(table, value, result):
    assert lookup(table, value) == result


def test_rally_table_and_quest_table_follow_the_rulings():
    assert RALLY == ["elf", "dwarf", "orc", "ratman", "lizardman", "wolf", "war_dog", "horse"]
    assert sorted(QUESTS) == list(range(2, 17))
    assert QUESTS[3]["title"] == "Capture the Flag" and QUESTS[13]["key"] == "kitten"


def test_every_item_and_its_stack_size():
    assert {k: v["stack"] for k, v in ITEMS.items()} == {
        "sword": 1, "bow": 1, "crossbow": 1, "sling": 1, "armor": 1, "shield": 1, "potion": 1,
        "kitten": 1, "key": 1, "money_bag": 1, "chest": 2}


# ------------------------------------------------------------------ setup
def test_each_seat_starts_with_two_villagers_one_of_them_starting():
    c = FandangoController(seats(4), {"round_limit": 30, "facing": False,
                                      "choose_starts": False}, Rng(5))
    for seat in range(4):
        mine = [c.units[u] for u in c.seat_units(seat)]
        assert [u["kind"] for u in mine] == ["villager", "villager"]
        assert sorted(u["starting"] for u in mine) == [False, True]
        assert all(u["hex"] == tuple(MAP["starts"][4][seat]) for u in mine)


def test_default_starting_hexes_are_spread_out():
    for n in (2, 3, 4):
        starts = MAP["starts"][n]
        assert min(distance(a, b) for a in starts for b in starts if a != b) >= 7


def test_quests_are_three_different_rolls_and_solo_skips_opponent_quests():
    for seed in range(40):
        c = FandangoController(seats(1), {"round_limit": 30, "facing": False,
                                          "choose_starts": False}, Rng(seed))
        rolls = c.quest_rolls[0]
        assert len(set(rolls)) == 3 and not set(rolls) & {3, 9, 12}
        c4 = FandangoController(seats(4), {"round_limit": 30, "facing": False,
                                           "choose_starts": False}, Rng(seed))
        assert all(len(set(r)) == 3 and all(2 <= x <= 16 for x in r) for r in c4.quest_rolls)


def test_duplicate_quest_rolls_are_rolled_again():
    c = FandangoController.__new__(FandangoController)
    c.n, c.rng = 1, Dice(3, 4, 3, 4, 1, 1, 8, 8)  # 7, 7 again (rolled again), 2, 16
    c._generate_quests()
    assert c.quest_rolls == [[7, 2, 16]]


def test_lowest_total_starts_and_play_goes_clockwise():
    c = FandangoController.__new__(FandangoController)
    c.n = 3
    c.quest_rolls = [[10, 11, 12], [2, 3, 4], [5, 6, 7]]
    c.rng = Dice()
    c._starting_order()
    assert c.first == 1 and c.order == [1, 2, 0]


def test_tied_totals_roll_a_d8_lowest_starts_ties_again():
    c = FandangoController.__new__(FandangoController)
    c.n = 3
    c.quest_rolls = [[2, 3, 4], [9, 9, 9], [4, 3, 2]]
    c.rng = Dice(5, 5, 3, 6)  # seats 0 and 2 tie on 9, then tie on 5, then 3 vs 6
    c._starting_order()
    assert c.first == 0 and c.order == [0, 1, 2]
    assert c.tie_rolls == [{0: 5, 2: 5}, {0: 3, 2: 6}]


def test_starting_hexes_can_be_chosen_at_setup():
    m = Match.new(GAME, seats(2), seed=3, options={"choose_starts": True})
    assert m.view()["phase"] == "starts"
    first = m.to_act()[0]
    legal = m.legal_actions(first)
    m.act(first, {"type": "start", "hex": [0, 4]})
    second = m.to_act()[0]
    assert second != first
    with pytest.raises(IllegalAction, match="at least 4"):
        m.act(second, {"type": "start", "hex": [1, 4]})
    m.act(second, {"type": "start", "hex": [10, 4]})
    c = m.controller
    assert c.starts[first] == (0, 4) and c.starts[second] == (10, 4)
    assert [c.units[u]["hex"] for u in c.seat_units(first)] == [(0, 4), (0, 4)]
    assert len(legal) > 40


def test_capture_the_flag_asks_an_opponent_to_mark_three_hexes():
    for seed in range(300):
        m = Match.new(GAME, seats(2), seed=seed)
        if m.view()["phase"] == "flags":
            break
    c = m.controller
    holder = c.flag_queue[0]
    marker = m.to_act()[0]
    assert marker != holder
    with pytest.raises(IllegalAction):
        m.act(marker, {"type": "flag", "hex": list(c.starts[0])})
    for cell in ([2, 2], [3, 3], [4, 4]):
        m.act(marker, {"type": "flag", "hex": cell})
    assert c.flags[holder] == [(2, 2), (3, 3), (4, 4)]


# ------------------------------------------------------------------ turns and rounds
def test_round_robin_and_the_seat_with_more_units_finishes():
    c = bare(2)
    a = [put(c, "elf", 0, C), put(c, "elf", 0, near(C, 0)), put(c, "elf", 0, near(C, 1))]
    b = [put(c, "dwarf", 1, (8, 2))]
    seen = []
    for _ in range(4):
        seat = c.to_act()[0]
        seen.append(seat)
        uid = next(u for u in c.seat_units(seat) if not c.units[u]["acted"])
        act(c, seat, {"type": "select", "unit": uid})
        act(c, seat, {"type": "pass"})
    assert seen == [0, 1, 0, 0]
    assert c.round == 2 and c.turn == 0
    assert not any(c.units[u]["acted"] for u in a + b)


def test_pass_all_ends_the_seats_round():
    c = bare(2)
    put(c, "elf", 0, C)
    put(c, "elf", 0, near(C))
    put(c, "dwarf", 1, (8, 2))
    act(c, 0, {"type": "pass_all"})
    assert c.turn == 1


def test_wild_monsters_take_a_random_step_at_the_end_of_the_round():
    c = bare(1)
    elf = put(c, "elf", 0, C)
    wolf = put(c, "wolf", None, (6, 3))
    c.rng = Dice(0)  # direction 0: east
    select(c, elf)
    act(c, 0, {"type": "pass"})
    assert c.units[wolf]["hex"] == (7, 3)
    assert c.round == 2


def test_lair_guardians_do_not_wander():
    c = bare(1)
    elf = put(c, "elf", 0, C)
    troll = put(c, "troll", None, (6, 3), guard=[6, 3])
    c.lairs[(6, 3)] = troll
    c.rng = Dice()
    select(c, elf)
    act(c, 0, {"type": "pass"})
    assert c.units[troll]["hex"] == (6, 3)


# ------------------------------------------------------------------ movement and stacking
def test_move_up_to_the_units_move():
    c = bare(2)
    bystander(c)
    rat = put(c, "ratman", 0, C)
    select(c, rat)
    dests = {tuple(a["to"]) for a in c.legal_actions(0) if a["type"] == "move"}
    assert dests == {x for x in MAP["cells"] if 1 <= distance(x, C) <= 2}
    act(c, 0, {"type": "move", "to": list(near(C))})
    assert c.active["moves"] == 1


def test_riding_a_horse_moves_three_and_spends_the_horses_turn():
    c = bare(2)
    v = put(c, "villager", 0, C)
    horse = put(c, "horse", 0, C)  # a villager and a horse share a hex: 2 + 2 stack points
    assert c.load(C) == 4
    select(c, v, ride=horse)
    assert c.units[horse]["acted"] and c.active["moves"] == 3
    far = (C[0] + 3, C[1])
    act(c, 0, {"type": "move", "to": list(far)})
    assert c.units[v]["hex"] == far == c.units[horse]["hex"]


def test_enemy_units_block_movement_but_friends_do_not():
    c = bare(2)
    rat = put(c, "ratman", 0, (3, 4))
    blocker = put(c, "dwarf", 1, (4, 4))  # the only hex between (3, 4) and (5, 4)
    select(c, rat)
    dests = {tuple(a["to"]) for a in c.legal_actions(0) if a["type"] == "move"}
    assert (4, 4) not in dests and (5, 4) not in dests and (4, 3) in dests
    c.units[blocker]["owner"] = 0
    c._changed()
    dests = {tuple(a["to"]) for a in c.legal_actions(0) if a["type"] == "move"}
    assert (5, 4) in dests and (4, 4) in dests


def test_stacking_limit_four_points_items_one_chests_two():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    give(c, troll, "sword")  # the rule's example: a troll (3) can carry a sword (1)
    assert c.load(C) == 4
    elf = put(c, "elf", 0, near(C))
    select(c, elf)
    dests = {tuple(a["to"]) for a in c.legal_actions(0) if a["type"] == "move"}
    assert C not in dests
    with pytest.raises(IllegalAction, match="no room"):
        act(c, 0, {"type": "move", "to": list(C)})
    c2 = bare(2)
    elf2 = put(c2, "elf", 0, C)
    give(c2, elf2, "sword", "bow", "armor")  # the rule's example: an elf with three items
    assert c2.load(C) == 4
    chest = c2._new_item("chest", hex=near(C))
    assert c2.load(near(C)) == 2 and ITEMS[c2.items[chest]["kind"]]["stack"] == 2


def test_fear_keeps_the_timid_two_hexes_from_an_enemy_horror():
    c = bare(2)
    v = put(c, "villager", 0, (3, 4))
    put(c, "horror", 1, (6, 4))
    select(c, v)
    dests = {tuple(a["to"]) for a in c.legal_actions(0) if a["type"] == "move"}
    assert (4, 4) not in dests and (2, 4) in dests
    c2 = bare(2)
    v2 = put(c2, "villager", 0, (3, 4))
    put(c2, "horror", 0, (6, 4))  # a friendly horror frightens nobody of its side
    select(c2, v2)
    assert {"type": "move", "to": [4, 4]} in c2.legal_actions(0)
    c3 = bare(2)
    orc = put(c3, "orc", 0, (3, 4))
    put(c3, "horror", 1, (6, 4))
    select(c3, orc)
    assert {"type": "move", "to": [4, 4]} in c3.legal_actions(0)


def test_facing_option_front_three_hexes_and_turning_costs_one():
    c = bare(2, facing=True)
    dwarf = put(c, "dwarf", 0, C, facing=0)
    front = put(c, "elf", 1, (C[0] + 1, C[1]))
    back = put(c, "elf", 1, (C[0] - 1, C[1]))
    select(c, dwarf)
    legal = c.legal_actions(0)
    assert {"type": "attack", "target": front} in legal
    assert {"type": "attack", "target": back} not in legal
    act(c, 0, {"type": "face", "dir": 3})
    assert c.active["moves"] == 0
    legal = c.legal_actions(0)
    assert {"type": "attack", "target": back} in legal
    assert not any(a["type"] in ("move", "face") for a in legal)


# ------------------------------------------------------------------ combat
def test_attack_hits_within_attack_range_and_defense_saves():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    elf = put(c, "elf", 1, near(C))
    c.rng = Dice(4, 5)  # attack needs 1-6, rolled 4: hit; elf defends 1-2, rolled 5: slain
    select(c, troll)
    events = act(c, 0, {"type": "attack", "target": elf})
    assert "needs 1-6, rolled 4 — hit" in texts(events)
    assert "needs 1-2, rolled 5" in texts(events)
    assert elf not in c.units and c.kills[0] == ["elf"]


def test_a_successful_defense_leaves_the_target_unharmed():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    dwarf = put(c, "dwarf", 1, near(C))
    c.rng = Dice(1, 3)
    select(c, troll)
    events = act(c, 0, {"type": "attack", "target": dwarf})
    assert dwarf in c.units and "unharmed" in texts(events)


def test_a_miss_needs_no_defense_roll():
    c = bare(2)
    v = put(c, "villager", 0, C)
    dwarf = put(c, "dwarf", 1, near(C))
    c.rng = Dice(3)
    select(c, v)
    events = act(c, 0, {"type": "attack", "target": dwarf})
    assert "needs 1-2, rolled 3 — miss" in texts(events)
    assert not c.rng.values


def test_weapon_plus_one_attack_armour_or_shield_plus_one_defense_not_both():
    c = bare(2)
    elf = put(c, "elf", 0, C)
    assert c.attack_value(elf) == 4
    give(c, elf, "sword", "sword")
    assert c.attack_value(elf) == 5
    assert c.defense_value(elf) == 2
    give(c, elf, "armor")
    assert c.defense_value(elf) == 3
    c2 = bare(2)
    d = put(c2, "dwarf", 0, C)
    give(c2, d, "armor", "shield")
    assert c2.defense_value(d) == 4


def test_dead_units_drop_their_items_and_picking_up_costs_the_action():
    c = bare(2)
    bystander(c)
    troll = put(c, "troll", 0, C)
    elf = put(c, "elf", 1, near(C))
    sword, = give(c, elf, "sword")
    c.rng = Dice(1, 8)
    select(c, troll)
    act(c, 0, {"type": "attack", "target": elf})
    assert c.items[sword]["unit"] is None and c.items[sword]["hex"] == near(C)
    dog = put(c, "war_dog", 0, near(C, 1))
    c.turn = 0
    select(c, dog)
    act(c, 0, {"type": "move", "to": list(near(C))})
    assert {"type": "pickup"} in c.legal_actions(0)
    act(c, 0, {"type": "pickup"})
    assert c.items[sword]["unit"] == dog and c.active is None


@pytest.mark.parametrize("weapon,reach", [("bow", 3), ("crossbow", 4), ("sling", 2)])
def test_missile_weapons_ranges(weapon, reach):
    c = bare(2)
    orc = put(c, "orc", 0, (0, 4))
    give(c, orc, weapon)
    assert c._missile_range(orc) == reach
    c2 = bare(2)
    orc2 = put(c2, "orc", 0, (0, 4))
    give(c2, orc2, weapon)
    near_t = put(c2, "wolf", 1, (reach, 4))
    select(c2, orc2)
    assert {"type": "shoot", "target": near_t} in c2.legal_actions(0)
    assert c2.attack_value(orc2, near_t, missile=True) == 3
    c3 = bare(2)
    orc3 = put(c3, "orc", 0, (0, 4))
    give(c3, orc3, weapon)
    far_t = put(c3, "wolf", 1, (reach + 1, 4))
    select(c3, orc3)
    assert {"type": "shoot", "target": far_t} not in c3.legal_actions(0)


def test_line_of_fire_is_blocked_by_units_in_between():
    c = bare(2)
    elf = put(c, "elf", 0, (0, 4))
    target = put(c, "wolf", 1, (3, 4))
    blocker = put(c, "dwarf", 0, (1, 4))
    select(c, elf)
    assert {"type": "shoot", "target": target} not in c.legal_actions(0)
    c.units[blocker]["burrowed"] = True  # a burrowed dwarf does not block
    assert {"type": "shoot", "target": target} in c.legal_actions(0)


def test_elven_archer_shoots_three_hexes_on_one_to_three():
    c = bare(2)
    elf = put(c, "elf", 0, (0, 4))
    wolf = put(c, "wolf", 1, (3, 4))
    c.rng = Dice(3, 2)
    select(c, elf)
    events = act(c, 0, {"type": "shoot", "target": wolf})
    assert "needs 1-3, rolled 3 — hit" in texts(events) and wolf not in c.units


def test_dark_foe_lizardman_attacks_villagers_elves_dwarves_on_six():
    c = bare(2)
    liz = put(c, "lizardman", 0, C)
    v = put(c, "villager", 1, near(C))
    orc = put(c, "orc", 1, (8, 2))
    assert c.attack_value(liz, v) == 6 and c.attack_value(liz, orc) == 4
    c.rng = Dice(6, 8)
    select(c, liz)
    events = act(c, 0, {"type": "attack", "target": v})
    assert "needs 1-6, rolled 6 — hit" in texts(events)


def test_pack_mentality_three_wolves_attack_on_six_defend_on_three():
    c = bare(2)
    wolves = [put(c, "wolf", 0, C) for _ in range(3)]
    assert [c.attack_value(w) for w in wolves] == [6, 6, 6]
    assert [c.defense_value(w) for w in wolves] == [3, 3, 3]
    lone = put(c, "wolf", 1, (8, 2))
    assert c.attack_value(lone) == 4 and c.defense_value(lone) == 1


def test_guard_dog_gives_plus_one_defense_to_stack_mates():
    c = bare(2)
    elf = put(c, "elf", 0, C)
    dog = put(c, "war_dog", 0, C)
    assert c.defense_value(elf) == 3 and c.defense_value(dog) == 1
    assert MONSTERS["war_dog"]["search"] == 0


def test_regeneration_troll_goes_down_heals_and_dies_when_down():
    c = bare(2)
    troll = put(c, "troll", 1, near(C))
    dog = put(c, "war_dog", 0, C)
    c.rng = Dice(1, 8)
    select(c, dog)
    events = act(c, 0, {"type": "attack", "target": troll})
    assert c.units[troll]["down"] and "knocked down" in texts(events)
    act(c, 1, {"type": "select", "unit": troll})
    assert c.legal_actions(1) == [{"type": "heal"}, {"type": "pass"}]
    act(c, 1, {"type": "heal"})
    assert not c.units[troll]["down"]
    c.units[troll]["down"] = True
    c.units[dog]["acted"] = False
    c.turn = 0
    c.rng = Dice(1, 8)
    select(c, dog)
    act(c, 0, {"type": "attack", "target": troll})
    assert troll not in c.units and c.kills[0] == ["troll"]


def test_rampage_one_roll_every_unit_in_the_hex_defends():
    c = bare(2)
    bd = put(c, "black_death", 0, C)
    a, b = put(c, "elf", 1, near(C)), put(c, "dwarf", 1, near(C))
    select(c, bd)
    assert {"type": "rampage", "hex": list(near(C))} in c.legal_actions(0)
    c.rng = Dice(5, 8, 1)
    events = act(c, 0, {"type": "rampage", "hex": list(near(C))})
    assert a not in c.units and b in c.units
    assert texts(events).count("rolled") == 3


def test_primordial_fury_one_roll_three_adjacent_hexes():
    c = bare(2)
    db = put(c, "death_beast", 0, C)
    ts = [put(c, "elf", 1, near(C, k)) for k in (0, 1)]
    select(c, db)
    fury = [a for a in c.legal_actions(0) if a["type"] == "fury"]
    assert {"type": "fury", "targets": sorted(ts)} in fury
    c.rng = Dice(2, 8, 8)
    act(c, 0, {"type": "fury", "targets": sorted(ts)})
    assert not any(t in c.units for t in ts) and c.kills[0] == ["elf", "elf"]


def test_dark_sacrifice_prompts_the_orcs_owner_who_may_take_the_attack():
    m = Match.new(GAME, seats(2), seed=1)
    c = m.controller
    c.__dict__.update(bare(2).__dict__)
    c.rng = m.rng
    troll = put(c, "troll", 0, C)
    elf = put(c, "elf", 1, near(C))
    orc = put(c, "orc", 1, near(c.units[elf]["hex"], 1))
    m.act(0, {"type": "select", "unit": troll})
    m.act(0, {"type": "attack", "target": elf})
    assert m.to_act() == [1] and m.view()["prompt"]["type"] == "sacrifice"
    assert m.view()["handover"]
    assert m.legal_actions(1) == [{"type": "sacrifice", "orc": orc}, {"type": "decline"}]
    c.rng = Dice(1, 2)
    events = m.act(1, {"type": "sacrifice", "orc": orc})
    assert "Dark Sacrifice" in texts(events) and "needs 1-4, rolled 2 — unharmed" in texts(events)
    assert c.units[orc]["sacrificed"] and m.to_act() == [1]
    assert m.view()["handover"] is False  # Bob's own turn follows: he is at the screen


def test_dark_sacrifice_can_be_declined():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    elf = put(c, "elf", 1, near(C))
    put(c, "orc", 1, near(c.units[elf]["hex"], 1))
    select(c, troll)
    act(c, 0, {"type": "attack", "target": elf})
    c.rng = Dice(1, 8)
    act(c, 1, {"type": "decline"})
    assert elf not in c.units


def test_lucky_the_owner_may_change_a_roll_by_one():
    c = bare(2)
    rat = put(c, "ratman", 1, near(C))
    wolf = put(c, "wolf", 0, C)
    c.rng = Dice(4)
    select(c, wolf)
    act(c, 0, {"type": "attack", "target": rat})
    assert c.to_act() == [1] and c.prompt["type"] == "lucky" and c.prompt["value"] == 4
    assert sorted(a["change"] for a in c.legal_actions(1)) == [-1, 0, 1]
    events = act(c, 1, {"type": "lucky", "change": 1})
    assert "becomes 5" in texts(events) and "rolled 5 — miss" in texts(events)
    assert rat in c.units


def test_lucky_left_as_it_is_writes_no_log_line():
    c = bare(2)
    rat = put(c, "ratman", 1, near(C))
    wolf = put(c, "wolf", 0, C)
    c.rng = Dice(4, 1)
    select(c, wolf)
    act(c, 0, {"type": "attack", "target": rat})
    events = act(c, 1, {"type": "lucky", "change": 0})
    assert not any(e["type"] == "lucky" for e in events)
    assert "rolled 4 — hit" in texts(events)


def test_lucky_on_the_ratmans_own_search_and_roll_limits():
    c = bare(2)
    rat = put(c, "ratman", 0, C)
    c.rng = Dice(1)
    select(c, rat)
    act(c, 0, {"type": "search"})
    assert c.prompt["seat"] == 0
    assert sorted(a["change"] for a in c.legal_actions(0)) == [0, 1]  # 1 cannot go lower


def test_stone_crawl_dwarf_cannot_be_attacked_until_it_moves():
    c = bare(2)
    dwarf = put(c, "dwarf", 1, near(C))
    give(c, dwarf, "sword", "bow", "armor")
    troll = put(c, "troll", 0, C)
    c.turn = 1
    act(c, 1, {"type": "select", "unit": dwarf})
    act(c, 1, {"type": "burrow"})
    select(c, troll)
    assert {"type": "attack", "target": dwarf} not in c.legal_actions(0)
    act(c, 0, {"type": "pass"})
    c.units[dwarf]["acted"] = False
    c.turn = 1
    act(c, 1, {"type": "select", "unit": dwarf})
    act(c, 1, {"type": "move", "to": list(near(near(C), 1))})
    assert not c.units[dwarf]["burrowed"]


def test_a_dwarf_takes_at_most_three_items_underground():
    c = bare(2)
    dwarf = put(c, "dwarf", 0, C)
    give(c, dwarf, "sword", "bow", "armor")
    select(c, dwarf)
    assert {"type": "burrow"} in c.legal_actions(0)
    give(c, dwarf, "key")
    assert {"type": "burrow"} not in c.legal_actions(0)


def test_rally_cry_summons_on_one_to_four_at_the_starting_hex():
    c = bare(2)
    v = put(c, "villager", 0, C)
    put(c, "elf", 1, (8, 2))
    c.rng = Dice(4, 6)
    select(c, v)
    events = act(c, 0, {"type": "rally"})
    wolf = max(c.units)
    assert c.units[wolf]["kind"] == "wolf" and c.units[wolf]["owner"] == 0
    assert c.units[wolf]["hex"] == WEST and c.units[wolf]["acted"]
    assert "needs 1-4, rolled 4" in texts(events)
    c.units[v]["acted"] = False
    c.rng = Dice(5)
    c.turn = 0
    select(c, v)
    count = len(c.units)
    act(c, 0, {"type": "rally"})
    assert len(c.units) == count


def test_rally_cry_arrives_on_the_nearest_hex_with_room():
    c = bare(2)
    put(c, "black_death", 0, WEST)
    v = put(c, "villager", 0, C)
    c.rng = Dice(1, 8)
    select(c, v)
    act(c, 0, {"type": "rally"})
    horse = max(c.units)
    assert c.units[horse]["kind"] == "horse" and distance(c.units[horse]["hex"], WEST) == 1


# ------------------------------------------------------------------ searching and treasure
def test_search_once_per_hex_marked_with_the_searcher():
    c = bare(2)
    bystander(c)
    elf = put(c, "elf", 0, C)
    c.rng = Dice(8)
    select(c, elf)
    events = act(c, 0, {"type": "search"})
    assert "rolled 8 — nothing" in texts(events) and c.searched[C] == 0
    c.units[elf]["acted"] = False
    c.turn = 0
    select(c, elf)
    assert {"type": "search"} not in c.legal_actions(0)
    with pytest.raises(IllegalAction, match="already been searched"):
        act(c, 0, {"type": "search"})


def test_no_search_on_your_own_starting_hex_or_around_it():
    c = bare(2)
    elf = put(c, "elf", 0, near(WEST))
    other = put(c, "elf", 1, near(WEST, 1))
    select(c, elf)
    assert c.can_search_here(elf) and "starting hex" in c.can_search_here(elf)
    assert c.can_search_here(other) is None  # another seat may search there


def test_units_marked_tilde_cannot_search():
    c = bare(2)
    wolf = put(c, "wolf", 0, C)
    assert "cannot search" in c.can_search_here(wolf)
    assert [k for k, m in MONSTERS.items() if m["search"] == 0] == [
        "war_dog", "horse", "black_death", "wolf", "death_beast"]


def test_search_finds_a_chest_a_monster_or_a_lair():
    c = bare(2)
    elf = put(c, "elf", 0, C)
    c.rng = Dice(1, 2)
    select(c, elf)
    act(c, 0, {"type": "search"})
    chest = max(c.items)
    assert c.items[chest]["kind"] == "chest" and c.items[chest]["hex"] == C
    c2 = bare(2)
    elf2 = put(c2, "elf", 0, C)
    c2.rng = Dice(1, 5, 4, 4, spare=1)  # monster, 2d8 = 8: a troll
    select(c2, elf2)
    act(c2, 0, {"type": "search"})
    troll = max(c2.units)
    assert c2.units[troll]["kind"] == "troll" and c2.units[troll]["owner"] is None
    assert distance(c2.units[troll]["hex"], C) == 1
    c3 = bare(2)
    elf3 = put(c3, "elf", 0, C)
    c3.rng = Dice(1, 7)
    select(c3, elf3)
    act(c3, 0, {"type": "search"})
    assert C in c3.lairs and C not in c3.searched


def test_lairs_are_searched_again_and_again_with_the_lair_table():
    c = bare(2)
    bystander(c)
    c.lairs[C] = None
    elf = put(c, "elf", 0, C)
    c.rng = Dice(1, 1, 1)  # search ok, lair 2d8 = 2: a money bag
    select(c, elf)
    act(c, 0, {"type": "search"})
    assert [c.items[i]["kind"] for i in c.carried(elf)] == ["money_bag"]
    c.units[elf]["acted"] = False
    c.turn = 0
    c.rng = Dice(1, 8, 8, 4, 4)  # 16: a random monster (8: a troll) stays to guard the lair
    select(c, elf)
    act(c, 0, {"type": "search"})
    guard = c.lairs[C]
    assert guard is not None and c.units[guard]["guard"] == list(C)
    c.units[elf]["acted"] = False
    c.turn = 0
    select(c, elf)
    assert "guards" in c.can_search_here(elf)


def test_chest_opening_success_trap_sprung_chest_and_key():
    c = bare(2)
    bystander(c)
    elf = put(c, "elf", 0, C)
    chest = c._new_item("chest", hex=C)
    c.rng = Dice(5, 8, 7)  # open ok (1-5), chest 2d8 = 15: potion
    select(c, elf)
    act(c, 0, {"type": "open", "chest": chest})
    assert chest not in c.items and [c.items[i]["kind"] for i in c.carried(elf)] == ["potion"]
    # the trap
    c2 = bare(2)
    orc = put(c2, "orc", 0, C)
    bystander(c2, 0)
    put(c2, "wolf", 1, (8, 2))
    chest2 = c2._new_item("chest", hex=C)
    c2.rng = Dice(2)
    select(c2, orc)
    events = act(c2, 0, {"type": "open", "chest": chest2})
    assert orc not in c2.units and c2.items[chest2]["sprung"] and "trap" in texts(events)
    elf2 = put(c2, "elf", 1, C)
    c2.turn = 1
    c2.rng = Dice(6, 6)  # no opening roll: straight to the chest table, 12: a key
    act(c2, 1, {"type": "select", "unit": elf2})
    act(c2, 1, {"type": "open", "chest": chest2})
    assert [c2.items[i]["kind"] for i in c2.carried(elf2)] == ["key"]
    # the key
    c3 = bare(2)
    bystander(c3)
    d = put(c3, "dwarf", 0, C)
    key, = give(c3, d, "key")
    chest3 = c3._new_item("chest", hex=C)
    c3.rng = Dice(1, 1)
    select(c3, d)
    act(c3, 0, {"type": "open", "chest": chest3, "key": True})
    assert key not in c3.items and [c3.items[i]["kind"] for i in c3.carried(d)] == ["money_bag"]


def test_chest_horse_joins_the_opener_and_random_monster_is_wild():
    c = bare(2)
    elf = put(c, "elf", 0, C)
    chest = c._new_item("chest", hex=C)
    c.rng = Dice(1, 5, 5)
    select(c, elf)
    act(c, 0, {"type": "open", "chest": chest})
    horse = max(c.units)
    assert c.units[horse]["kind"] == "horse" and c.units[horse]["owner"] == 0


def test_potion_counters_a_death_and_is_used_up():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    elf = put(c, "elf", 1, near(C))
    potion, = give(c, elf, "potion")
    c.rng = Dice(1, 8)
    select(c, troll)
    events = act(c, 0, {"type": "attack", "target": elf})
    assert elf in c.units and potion not in c.items and "Potion" in texts(events)


def test_ruling_23_a_kitten_escape_is_a_reaction_to_a_hit():
    c = bare(2)
    troll = put(c, "troll", 0, near(C, 3))
    elf = put(c, "elf", 1, C)
    bystander(c)
    kitten, = give(c, elf, "kitten")
    c.turn = 0
    c.units[elf]["acted"] = True
    select(c, troll)
    # no escape action in one's own turn any more
    assert not any(a["type"] == "escape" for a in c.legal_actions(0))
    c.rng = Dice(1)  # the troll hits
    act(c, 0, {"type": "attack", "target": elf})
    assert c.to_act() == [1] and c.prompt["type"] == "kitten" and c.prompt["unit"] == elf
    about = c.view(None)["handover"]  # another person decides behind a handover card
    assert "kitten" in about and "Ann's Troll" in about
    escapes = [a for a in c.legal_actions(1) if a["type"] == "escape"]
    assert {"type": "decline"} in c.legal_actions(1)
    assert max(distance(tuple(a["to"]), C) for a in escapes) == 3
    assert all(tuple(a["to"]) != near(C, 3) for a in escapes)  # never into the enemy
    target = next(a for a in escapes if distance(tuple(a["to"]), C) == 3)
    events = act(c, 1, target)
    assert kitten not in c.items and c.units[elf]["hex"] == tuple(target["to"])
    assert "escapes" in texts(events) and "defends" not in texts(events)  # no defence roll
    assert c.active is None and c.prompt is None


def test_ruling_23_keeping_the_kitten_means_rolling_defence():
    c = bare(2)
    troll = put(c, "troll", 0, near(C, 3))
    elf = put(c, "elf", 1, C)
    bystander(c)
    kitten, = give(c, elf, "kitten")
    c.units[elf]["acted"] = True
    select(c, troll)
    c.rng = Dice(1, 8)  # hit, then the elf's defence fails
    act(c, 0, {"type": "attack", "target": elf})
    events = act(c, 1, {"type": "decline"})
    assert elf not in c.units and "keeps the kitten" in texts(events)
    assert c.items[kitten]["hex"] == C  # dropped with the body
    # a miss asks nothing
    c2 = bare(2)
    troll2 = put(c2, "troll", 0, near(C, 3))
    elf2 = put(c2, "elf", 1, C)
    bystander(c2)
    give(c2, elf2, "kitten")
    select(c2, troll2)
    c2.rng = Dice(8)
    act(c2, 0, {"type": "attack", "target": elf2})
    assert c2.prompt is None


def test_money_bag_buys_one_item_but_never_a_monster():
    c = bare(2)
    elf = put(c, "elf", 0, C)
    bag, = give(c, elf, "money_bag")
    buys = {a["item"] for a in c.legal_actions(0) if a["type"] == "buy"}
    assert buys == {"sword", "bow", "crossbow", "sling", "armor", "shield", "kitten", "potion"}
    act(c, 0, {"type": "buy", "bag": bag, "item": "shield"})
    assert [c.items[i]["kind"] for i in c.carried(elf)] == ["shield"]
    with pytest.raises(IllegalAction):
        act(c, 0, {"type": "buy", "bag": bag, "item": "horse"})


# ------------------------------------------------------------------ quests
def quest(c: FandangoController, seat: int, roll: int) -> dict:
    c.quests[seat] = [{"roll": roll, "key": QUESTS[roll]["key"], "done": False, "progress": 0,
                       "rounds": 0}] + [{"roll": r, "key": QUESTS[r]["key"], "done": False,
                                         "progress": 0, "rounds": 0} for r in (2, 2)][:0]
    return c.quests[seat][0]


def test_quest_chests_brought_home():
    c = bare(2)
    q = quest(c, 0, 2)
    elf = put(c, "elf", 0, near(WEST))
    chest = c._new_item("chest", unit=elf)
    select(c, elf)
    act(c, 0, {"type": "move", "to": list(WEST)})
    assert chest not in c.items and c.delivered[0] == 1 and q["progress"] == 1
    assert c.quest_line(0, q) == "Treasure hoard: 1/3"


def test_quest_capture_the_flag_two_rounds():
    c = bare(2)
    q = quest(c, 0, 3)
    c.flags[0] = [(2, 2), (3, 3), (4, 4)]
    for cell in c.flags[0]:
        put(c, "elf", 0, cell)
    c._check_quests([], round_end=True)
    assert q["progress"] == 1 and "1/2 rounds (held now)" in c.quest_line(0, q)
    c._check_quests([], round_end=True)
    assert q["done"]


def test_quest_arms_sword_bow_armor():
    c = bare(2)
    q = quest(c, 0, 4)
    a, b = put(c, "elf", 0, C), put(c, "dwarf", 0, (8, 2))
    give(c, a, "sword", "bow")
    c._check_quests([], False)
    assert q["progress"] == 2
    give(c, b, "armor")
    c._check_quests([], False)
    assert q["done"]


@pytest.mark.parametrize("roll,kinds,rounds", [
    (5, ["elf", "dwarf", "orc", "villager"], 2),
    (6, ["horse", "wolf", "war_dog"], 4),
])
def test_quest_control_kinds_for_rounds(roll, kinds, rounds):
    c = bare(2)
    q = quest(c, 0, roll)
    for k, kind in enumerate(kinds):
        put(c, kind, 0, (k, 4))
    for r in range(rounds - 1):
        c._check_quests([], round_end=True)
    assert not q["done"] and q["progress"] == rounds - 1
    c._check_quests([], round_end=True)
    assert q["done"]


def test_control_quests_reset_when_broken():
    c = bare(2)
    q = quest(c, 0, 5)
    units = [put(c, kind, 0, (k, 4)) for k, kind in enumerate(["elf", "dwarf", "orc", "villager"])]
    c._check_quests([], round_end=True)
    del c.units[units[0]]
    c._changed()
    c._check_quests([], round_end=True)
    assert q["progress"] == 0


@pytest.mark.parametrize("roll,kills,done", [
    (7, ["troll", "elf"], False), (7, ["troll", "troll"], True),
    (10, ["elf", "elf", "orc", "wolf"], False), (10, ["elf", "dwarf", "orc", "wolf"], True),
    (11, ["death_beast", "death_beast"], True),
])
def test_slay_quests_count_the_seats_own_kills(roll, kills, done):
    c = bare(2)
    q = quest(c, 0, roll)
    c.kills[0] = list(kills)
    c.kills[1] = ["troll", "troll", "death_beast", "death_beast"]  # another seat's kills
    c._check_quests([], False)
    assert q["done"] is done


def test_quest_corners_and_rescue_kitten_and_money_and_archer():
    c = bare(2)
    q = quest(c, 0, 8)
    for corner in MAP["corners"]:
        put(c, "elf", 0, corner)
    c._check_quests([], False)
    assert q["done"]
    c = bare(2)
    q = quest(c, 0, 13)
    elf = put(c, "elf", 0, WEST)
    give(c, elf, "kitten")
    c._check_quests([], False)
    assert q["done"]
    c = bare(2)
    q = quest(c, 0, 16)
    elf = put(c, "elf", 0, C)
    give(c, elf, "money_bag", "money_bag")
    c._check_quests([], False)
    assert q["progress"] == 2 and not q["done"]
    give(c, put(c, "dwarf", 0, (8, 2)), "money_bag")
    c._check_quests([], False)
    assert q["done"]
    c = bare(2)
    q = quest(c, 0, 14)
    give(c, put(c, "elf", 0, C), "bow")
    c._check_quests([], False)
    assert q["progress"] == 1
    c.kills[0] = ["wolf"]
    c._check_quests([], False)
    assert q["done"]


def test_quest_slay_an_opponents_starting_villager():
    c = bare(2)
    q = quest(c, 0, 9)
    troll = put(c, "troll", 0, C)
    v = put(c, "villager", 1, near(C), starting=True)
    c.rng = Dice(1, 8)
    select(c, troll)
    act(c, 0, {"type": "attack", "target": v})
    assert q["done"]


def test_quest_occupy_an_opponents_starting_hex_three_rounds():
    c = bare(2)
    q = quest(c, 0, 12)
    put(c, "elf", 0, EAST)
    for _ in range(2):
        c._check_quests([], round_end=True)
    assert q["progress"] == 2 and not q["done"]
    c._check_quests([], round_end=True)
    assert q["done"]


def test_quest_long_ride_both_ends_while_riding():
    c = bare(2)
    q = quest(c, 0, 15)
    west_end = MAP["ends"]["west"][4]
    start = (west_end[0] + 2, west_end[1])
    v = put(c, "elf", 0, start)
    horse = put(c, "horse", 0, start)
    select(c, v, ride=horse)
    act(c, 0, {"type": "move", "to": list(west_end)})
    assert c.ride_ends[0] == ["west"] and q["progress"] == 1
    elf = put(c, "elf", 0, MAP["ends"]["east"][3])  # walking there does not count
    c._check_quests([], False)
    assert q["progress"] == 1 and elf


def test_three_quests_win_at_once():
    c = bare(2)
    for q in c.quests[0][:2]:
        q["done"] = True
    c.quests[0][2] = {"roll": 7, "key": "trolls", "done": False, "progress": 0, "rounds": 0}
    troll = put(c, "troll", 1, near(C), down=True)
    dog = put(c, "war_dog", 0, C)
    c.kills[0] = ["troll"]
    c.rng = Dice(1, 8)
    select(c, dog)
    events = act(c, 0, {"type": "attack", "target": troll})
    assert c.is_over() and c.result()["winners"] == [0] and c.result()["reason"] == "quests"
    assert "completing three quests" in texts(events)


# ------------------------------------------------------------------ endings
def test_round_limit_most_quests_then_most_units_then_shared():
    c = bare(2, round_limit=2)
    put(c, "elf", 0, C)
    put(c, "elf", 1, (8, 2))
    put(c, "elf", 1, (8, 3))
    c.rng = Dice(*([0] * 10))
    for _ in range(5):
        if c.is_over():
            break
        seat = c.to_act()[0]
        act(c, seat, {"type": "pass_all"})
    assert c.is_over() and c.result()["reason"] == "round limit"
    assert c.result()["winners"] == [1]  # no quests on either side: more units
    c2 = bare(2, round_limit=1)
    put(c2, "elf", 0, C)
    put(c2, "elf", 1, (8, 2))
    c2.quests[0][0]["done"] = True
    act(c2, 0, {"type": "pass_all"})
    act(c2, 1, {"type": "pass_all"})
    assert c2.result()["winners"] == [0]
    c3 = bare(2, round_limit=1)
    put(c3, "elf", 0, C)
    put(c3, "elf", 1, (8, 2))
    act(c3, 0, {"type": "pass_all"})
    act(c3, 1, {"type": "pass_all"})
    assert c3.result()["winners"] == [0, 1]


def test_no_round_limit_when_zero():
    c = bare(1, round_limit=0)
    put(c, "elf", 0, C)
    for _ in range(40):
        act(c, 0, {"type": "pass_all"})
    assert not c.is_over() and c.round == 41


def test_every_hex_searched_means_a_fight_to_the_finish():
    c = bare(2)
    for cell in MAP["cells"]:
        c.searched[cell] = 0
    put(c, "elf", 0, C)
    dwarf = put(c, "dwarf", 1, near(C))
    act(c, 0, {"type": "pass_all"})
    events = act(c, 1, {"type": "pass_all"})
    assert c.finale and "fight to the finish" in texts(events) and not c.is_over()
    troll = put(c, "troll", 0, near(C, 1))
    c.rng = Dice(1, 8)
    c.turn = 0
    select(c, troll)
    act(c, 0, {"type": "attack", "target": dwarf})
    assert c.is_over() and c.result()["reason"] == "last standing"
    assert c.result()["winners"] == [0]


# ------------------------------------------------------------------ refusals
def test_illegal_actions_are_refused_with_reasons():
    c = bare(2)
    elf = put(c, "elf", 0, C)
    enemy = put(c, "dwarf", 1, (8, 2))
    with pytest.raises(IllegalAction, match="Select one of your units"):
        act(c, 0, {"type": "search"})
    with pytest.raises(IllegalAction, match="not one of your units"):
        act(c, 0, {"type": "select", "unit": enemy})
    select(c, elf)
    with pytest.raises(IllegalAction, match="Finish this unit"):
        act(c, 0, {"type": "select", "unit": elf})
    with pytest.raises(IllegalAction, match="not a target"):
        act(c, 0, {"type": "attack", "target": enemy})
    with pytest.raises(IllegalAction, match="not a hex"):
        act(c, 0, {"type": "move", "to": [99, 99]})
    with pytest.raises(IllegalAction, match="cannot be reached"):
        act(c, 0, {"type": "move", "to": [8, 3]})
    with pytest.raises(IllegalAction, match="wrong kind"):
        act(c, 0, {"type": "move", "to": [True, 4]})
    with pytest.raises(IllegalAction):
        act(c, 1, {"type": "pass"})
    m = Match.new(GAME, seats(2), seed=4)
    with pytest.raises(IllegalAction, match="turn"):
        m.act(1 - m.to_act()[0], {"type": "pass_all"})


def test_refusals_change_nothing():
    c = bare(2)
    elf = put(c, "elf", 0, C)
    select(c, elf)
    before = c.snapshot()
    for bad in ({"type": "move", "to": [99, 99]}, {"type": "attack", "target": 999},
                {"type": "open", "chest": 5}, {"type": "fly"}):
        with pytest.raises(IllegalAction):
            act(c, 0, bad)
    assert c.snapshot() == before


def test_views_are_public_and_plain():
    import yaml
    m = Match.new(GAME, seats(3), seed=8)
    view = m.view(None)
    assert m.view(0)["units"] == view["units"] and m.view(2)["seats"] == view["seats"]
    yaml.safe_dump(view)
    yaml.safe_dump(m.snapshot())
    assert all(len(s["quests"]) == 3 for s in view["seats"])
    assert FandangoController.has_secrets is False


def test_view_statistics_match_the_rules_functions():
    m = Match.new(GAME, seats(4), seed=12, options={"round_limit": 8})
    from game.engine.bots import choose_action
    for _ in range(400):
        if m.is_over():
            break
        seat = m.to_act()[0]
        m.act(seat, choose_action(m, seat))
    c = m.controller
    for u in m.view()["units"]:
        assert (u["attack"], u["defense"], u["shoot"]) == (
            c.attack_value(u["id"]), c.defense_value(u["id"]), c._missile_range(u["id"]))


# ------------------------------------------------------------------ more rulings
def test_ruling_9_units_pass_through_full_friendly_hexes():
    c = bare(2)
    rat = put(c, "ratman", 0, (3, 4))
    put(c, "black_death", 0, (4, 4))  # full (4 points), but friendly
    select(c, rat)
    dests = {tuple(a["to"]) for a in c.legal_actions(0) if a["type"] == "move"}
    assert (4, 4) not in dests and (5, 4) in dests


def test_ruling_11_known_lairs_start_with_guardians():
    c = FandangoController(seats(2), {"round_limit": 30, "facing": False,
                                      "choose_starts": False}, Rng(9))
    assert sorted(c.lairs) == sorted(MAP["lairs"]) and len(MAP["wild"]) == 6
    for cell in MAP["wild"]:
        assert any(u["hex"] == cell and u["owner"] is None and u["guard"] is None
                   for u in c.units.values()) or any(
            it["kind"] == "kitten" and it["hex"] == cell for it in c.items.values())
    for lair, guard in c.lairs.items():
        if guard is not None:
            assert c.units[guard]["hex"] == lair and c.units[guard]["owner"] is None
        else:
            assert any(it["kind"] == "kitten" and it["hex"] == lair for it in c.items.values())


def test_ruling_18_an_orc_sacrifices_once_per_round():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    dog = put(c, "war_dog", 0, near(C, 1))
    elf = put(c, "elf", 1, near(C))
    orc = put(c, "orc", 1, near(c.units[elf]["hex"], 0))
    c.rng = Dice(8)
    select(c, troll)
    act(c, 0, {"type": "attack", "target": elf})
    act(c, 1, {"type": "sacrifice", "orc": orc})
    c.turn = 0
    c.rng = Dice(8)
    select(c, dog)
    act(c, 0, {"type": "attack", "target": elf})
    assert c.prompt is None, "the orc already took an attack this round"


def test_ruling_21_and_22_trap_kills_a_troll_and_a_downed_troll_keeps_its_potion():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    put(c, "elf", 1, (8, 2))
    chest = c._new_item("chest", hex=C)
    c.rng = Dice(2)
    select(c, troll)
    act(c, 0, {"type": "open", "chest": chest})
    assert troll not in c.units and c.items[chest]["sprung"]
    c2 = bare(2)
    t2 = put(c2, "troll", 1, near(C))
    potion, = give(c2, t2, "potion")
    dog = put(c2, "war_dog", 0, C)
    c2.rng = Dice(1, 8)
    select(c2, dog)
    act(c2, 0, {"type": "attack", "target": t2})
    assert c2.units[t2]["down"] and potion in c2.items


def test_ruling_31_simultaneous_third_quests_share_the_win():
    c = bare(2)
    for seat in (0, 1):
        c.quests[seat][0]["done"] = c.quests[seat][1]["done"] = True
        c.quests[seat][2] = {"roll": 5, "key": "folk", "done": False, "progress": 1,
                             "rounds": 1}
        for k, kind in enumerate(["elf", "dwarf", "orc", "villager"]):
            put(c, kind, seat, (k, 2 + 5 * seat))
    act(c, 0, {"type": "pass_all"})
    events = act(c, 1, {"type": "pass_all"})
    assert c.result()["winners"] == [0, 1] and "Ann and Bob win" in texts(events)


def test_ruling_32_a_solo_game_ends_without_a_winner_when_all_is_searched():
    c = bare(1)
    for cell in MAP["cells"]:
        c.searched[cell] = 0
    put(c, "elf", 0, C)
    act(c, 0, {"type": "pass_all"})
    assert c.is_over() and c.result()["winners"] == [] and c.result()["reason"] == "exhaustion"


def test_ruling_2_rally_arrivals_have_acted_this_round():
    c = bare(2)
    v = put(c, "villager", 0, C)
    put(c, "elf", 1, (8, 2))
    c.rng = Dice(1, 1)
    select(c, v)
    act(c, 0, {"type": "rally"})
    elf = max(c.units)
    assert c.units[elf]["kind"] == "elf" and c.units[elf]["acted"]


def test_the_issue_worked_example_of_a_combat_explanation():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    elf = put(c, "elf", 1, near(C))
    c.rng = Dice(4, 5)
    select(c, troll)
    events = act(c, 0, {"type": "attack", "target": elf})
    lines = [e["text"] for e in events if e["type"] in ("attack", "defend")]
    assert lines == ["Ann's Troll attacks Bob's Elf: needs 1-6, rolled 4 — hit.",
                     "Bob's Elf defends: needs 1-2, rolled 5 — slain."]


def test_handover_only_for_another_persons_mid_turn_decision_and_back():
    c = bare(2)
    rat = put(c, "ratman", 0, C)
    wolf = put(c, "wolf", 1, near(C))
    put(c, "elf", 0, (8, 2))
    c.rng = Dice(4, 1)
    select(c, rat)
    assert c.view(None)["handover"] is False
    act(c, 0, {"type": "attack", "target": wolf})  # my own ratman: I decide, no handover
    assert c.prompt["seat"] == 0 and c.view(None)["handover"] is False
    act(c, 0, {"type": "lucky", "change": 0})
    assert c.view(None)["handover"] is False and c.to_act() == [1]
    c2 = bare(2)
    wolf2 = put(c2, "wolf", 0, C)
    rat2 = put(c2, "ratman", 1, near(C))
    put(c2, "elf", 0, (8, 2))
    c2.rng = Dice(4, 1)
    select(c2, wolf2)
    act(c2, 0, {"type": "attack", "target": rat2})
    assert c2.prompt["seat"] == 1 and c2.view(None)["handover"]
    act(c2, 1, {"type": "lucky", "change": 0})  # the defense roll: Bob decides again
    assert c2.prompt["seat"] == 1 and c2.view(None)["handover"] is False
    act(c2, 1, {"type": "lucky", "change": 0})
    assert c2.to_act() == [1] and c2.view(None)["handover"] is False  # Bob's own turn next


def test_handover_back_to_the_acting_person():
    c = bare(2)
    rat = put(c, "ratman", 0, C)
    elf = put(c, "elf", 1, near(C))
    orc = put(c, "orc", 1, near(c.units[elf]["hex"], 1))
    c.rng = Dice(5)
    select(c, rat)
    act(c, 0, {"type": "attack", "target": elf})
    assert c.prompt["type"] == "sacrifice" and "Orc" in c.view(None)["handover"]
    act(c, 1, {"type": "sacrifice", "orc": orc})
    assert c.prompt["type"] == "lucky" and c.prompt["seat"] == 0  # Ann's ratman rolled
    assert "Lucky" in c.view(None)["handover"]  # the screen goes back to Ann


def test_treasury_bags_cannot_be_spent_until_the_quest_is_done():
    c = bare(2)
    q = quest(c, 0, 16)
    elf = put(c, "elf", 0, C)
    bag, = give(c, elf, "money_bag")
    assert not any(a["type"] == "buy" for a in c.legal_actions(0))
    with pytest.raises(IllegalAction, match="Treasury"):
        act(c, 0, {"type": "buy", "bag": bag, "item": "sword"})
    q["done"] = True
    assert {"type": "buy", "bag": bag, "item": "sword"} in c.legal_actions(0)


def test_ruling_29_items_are_handed_to_a_stack_mate_for_free():
    c = bare(2)
    orc = put(c, "orc", 0, C)
    elf = put(c, "elf", 0, C)
    enemy = put(c, "elf", 1, near(C))
    sword, = give(c, orc, "sword")
    select(c, orc)
    assert {"type": "give", "item": sword, "to": elf} in c.legal_actions(0)
    assert {"type": "give", "item": sword, "to": enemy} not in c.legal_actions(0)
    act(c, 0, {"type": "give", "item": sword, "to": elf})
    assert c.items[sword]["unit"] == elf and c.active["unit"] == orc
    assert c.attack_value(elf) == 5 and c.attack_value(orc) == 2 and c.load(C) == 4


def test_the_log_opens_with_the_quest_rolls_and_starting_order():
    match = Match.new("monster_fandango", [{"name": "Ann", "kind": "human"},
                                           {"name": "Bob", "kind": "human"}], seed=5)
    c = match.controller
    lines = [e["text"] for e in match.log]
    first = c.name(c.first)
    assert any(t.startswith("Ann rolls the quests ") for t in lines)
    assert any(t.startswith("Bob rolls the quests ") for t in lines)
    assert f"{first} has the lowest total and goes first; play goes clockwise." in lines
    later = match.act(c.to_act()[0], c.legal_actions(c.to_act()[0])[0])
    assert not any(e["type"] in ("quests", "order") for e in later)
    assert [e["text"] for e in match.log[:len(lines)]] == lines, "kept through the game"


def test_log_lines_read_as_sentences_about_wild_monsters_without_a_redundant_declaration():
    c = bare(2)
    troll = put(c, "troll", 0, C)
    orc = put(c, "orc", None, near(C))
    c.rng = Dice(1, 8)
    select(c, troll)
    events = act(c, 0, {"type": "attack", "target": orc})
    lines = [e["text"] for e in events]
    assert "Ann's Troll attacks the wild Orc: needs 1-6, rolled 1 — hit." in lines
    assert "The wild Orc defends: needs 1-4, rolled 8 — slain." in lines
    assert "The wild Orc is slain." in lines
    assert not any(e["type"] == "declare" for e in events)  # no Orc could step in


def test_ruling_7_a_horse_counts_two_so_a_villager_rides_it_but_carries_nothing():
    c = bare(2)
    v = put(c, "villager", 0, C)
    horse = put(c, "horse", 0, C)
    assert MONSTERS["horse"]["stack"] == 2 and c.load(C) == 4  # the rule book's example
    assert {"type": "select", "unit": v, "ride": horse} in c.legal_actions(0)
    c.units[v]["hex"] = near(C)
    c._changed()
    give(c, v, "sword")
    select(c, v)
    assert {"type": "move", "to": list(C)} not in c.legal_actions(0)  # 2 + 1 + 2 > 4


# ------------------------------------------------------------------ second edition rulings
def test_ruling_35_no_start_hex_within_two_hexes_of_a_roaming_place():
    for n in (1, 2, 3, 4):
        for start in MAP["starts"][n]:
            assert min(distance(start, w) for w in MAP["wild"]) > 2, (n, start)
    # the three-seat start that touched a roaming place has moved
    assert (10, 1) not in MAP["starts"][3] or (9, 2) not in MAP["wild"]
    m = Match.new(GAME, seats(3), seed=4, options={"choose_starts": True})
    legal = {tuple(a["hex"]) for a in m.legal_actions(m.to_act()[0])}
    assert legal and all(min(distance(c, w) for w in MAP["wild"]) > 2 for c in legal)
    with pytest.raises(IllegalAction, match="roaming"):
        m.act(m.to_act()[0], {"type": "start", "hex": list(neighbours(MAP["wild"][0])[0])})


def test_ruling_36_fear_lets_a_unit_inside_the_zone_move_but_never_nearer():
    c = bare(2)
    horror = (6, 4)
    v = put(c, "villager", 0, (4, 4))  # two hexes from the enemy Horror: not pinned
    put(c, "horror", 1, horror)
    bystander(c)
    select(c, v)
    dests = {tuple(a["to"]) for a in c.legal_actions(0) if a["type"] == "move"}
    assert dests  # it may move
    assert (5, 4) not in dests and (3, 4) in dests  # away, never nearer
    assert all(distance(d, horror) >= 2 for d in dests)
    sideways = [d for d in dests if distance(d, horror) == 2]
    assert sideways  # a step that keeps the distance is allowed
    act(c, 0, {"type": "move", "to": list(sideways[0])})
    # a horse carrying a rider away is also fine; an Orc is never afraid
    c2 = bare(2)
    orc = put(c2, "orc", 0, (4, 4))
    put(c2, "horror", 1, horror)
    bystander(c2)
    select(c2, orc)
    assert {"type": "move", "to": [5, 4]} in c2.legal_actions(0)


def test_ruling_36_fear_a_wild_villager_inside_the_zone_wanders_but_not_nearer():
    c = bare(2)
    put(c, "horror", 0, (6, 4))
    wild = put(c, "villager", None, (4, 4))
    bystander(c)
    c.units[max(c.units)]["acted"] = True
    for d in range(6):  # every direction that does not lead nearer is taken
        c.units[wild]["hex"] = (4, 4)
        c._changed()
        for u in c.units.values():
            u["acted"] = u["owner"] is not None
        c.rng = Dice(d)
        c._end_round([])
        frm, to = (4, 4), c.units[wild]["hex"]
        assert distance(to, (6, 4)) >= distance(frm, (6, 4)) or distance(to, (6, 4)) > 2


def test_ruling_37_dark_foe_counts_for_missile_attacks_too():
    c = bare(2)
    liz = put(c, "lizardman", 0, (0, 4))
    give(c, liz, "bow")
    elf = put(c, "elf", 1, (3, 4))
    orc = put(c, "orc", 1, (2, 6))
    assert c.attack_value(liz, elf, missile=True) == 6
    assert c.attack_value(liz, orc, missile=True) == 5  # no Dark Foe: Attack 4 + bow
    c.rng = Dice(6, 8)
    select(c, liz)
    events = act(c, 0, {"type": "shoot", "target": elf})
    assert "needs 1-6, rolled 6 — hit" in texts(events) and elf not in c.units


def test_ruling_15_an_elf_shoots_on_one_to_three_and_a_missile_weapon_adds_one():
    c = bare(2)
    elf = put(c, "elf", 0, (0, 4))
    wolf = put(c, "wolf", 1, (3, 4))
    assert c.attack_value(elf, wolf, missile=True) == 3
    give(c, elf, "bow")
    assert c.attack_value(elf, wolf, missile=True) == 4  # not 1-5
    give(c, elf, "crossbow")
    assert c.attack_value(elf, wolf, missile=True) == 4 and c._missile_range(elf) == 4
    assert c.attack_value(elf, wolf) == 4  # its melee attack is unchanged
    view = {u["id"]: u for u in c.view(0)["units"]}
    assert view[elf]["shot"] == 4 and view[elf]["shoot"] == 4
    c.rng = Dice(5)
    select(c, elf)
    events = act(c, 0, {"type": "shoot", "target": wolf})
    assert "needs 1-4, rolled 5 — miss" in texts(events)


def test_ruling_38_a_money_bag_may_be_spent_while_its_owner_is_asked_a_question():
    c = bare(2)
    troll = put(c, "troll", 0, near(C, 3))
    elf = put(c, "elf", 1, C)
    bystander(c)
    give(c, elf, "kitten")
    bag, = give(c, elf, "money_bag")
    c.units[elf]["acted"] = True
    select(c, troll)
    c.rng = Dice(1)
    act(c, 0, {"type": "attack", "target": elf})
    assert c.prompt["type"] == "kitten"
    buy = {"type": "buy", "bag": bag, "item": "potion"}
    assert buy in c.legal_actions(1)
    events = act(c, 1, buy)
    assert "Potion" in texts(events) and c.prompt["type"] == "kitten" and c.to_act() == [1]
    c.rng = Dice(8)  # the defence fails; the new Potion saves the elf
    events = act(c, 1, {"type": "decline"})
    assert elf in c.units and "Potion" in texts(events)
    # Lucky and Dark Sacrifice questions offer the bag too
    c2 = bare(2)
    rat = put(c2, "ratman", 1, near(C, 1))
    wolf = put(c2, "wolf", 0, C)
    bystander(c2, 1)
    bag2, = give(c2, rat, "money_bag")
    select(c2, wolf)
    c2.rng = Dice(4)
    act(c2, 0, {"type": "attack", "target": rat})
    assert c2.prompt["type"] == "lucky" and c2.prompt["seat"] == 1
    assert {"type": "buy", "bag": bag2, "item": "sword"} in c2.legal_actions(1)


def test_ruling_28_a_horse_from_a_chest_arrives_at_the_finders_starting_hex():
    c = bare(2)
    bystander(c)
    elf = put(c, "elf", 0, C)
    chest = c._new_item("chest", hex=C)
    c.rng = Dice(1, 5, 5)  # open, chest 2d8 = 10: a Horse
    select(c, elf)
    events = act(c, 0, {"type": "open", "chest": chest})
    horse = max(c.units)
    assert c.units[horse]["kind"] == "horse" and c.units[horse]["owner"] == 0
    assert c.units[horse]["hex"] == c.starts[0] != C
    assert "joins Ann" in texts(events)


def test_ruling_39_the_only_seat_with_units_left_wins_at_once():
    c = bare(3)
    troll = put(c, "troll", 0, C)
    elf = put(c, "elf", 1, near(C))
    dwarf = put(c, "dwarf", 2, FAR_CORNER)
    c.rng = Dice(1, 8)
    select(c, troll)
    act(c, 0, {"type": "attack", "target": elf})
    assert not c.is_over()  # two seats still have units
    c.units[troll]["acted"] = False
    c.turn = 0
    del c.units[dwarf]
    c._changed()
    c2 = bare(2)
    troll2 = put(c2, "troll", 0, C)
    elf2 = put(c2, "elf", 1, near(C))
    c2.rng = Dice(1, 8)
    select(c2, troll2)
    events = act(c2, 0, {"type": "attack", "target": elf2})
    assert c2.is_over() and c2.result()["winners"] == [0] and c2.round == 1
    assert c2.result()["reason"] == "last standing" and not c2.finale
    assert "last player with units standing" in texts(events)
