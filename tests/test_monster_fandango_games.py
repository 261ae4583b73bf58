"""Monster Fandango: seeded whole games with invariants, save/load at every step, the bot."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from game.engine import Match, Rng
from game.engine.bots import choose_action
from game.monster_fandango.data import ITEMS, MAP, MONSTERS
from game.monster_fandango.kernel import CELL_SET, distance
from game.monster_fandango.rules import STACK_LIMIT

from gamecheck import assert_reloads_the_same

GAME = "monster_fandango"
#: Items the rules let leave the game: spent, drunk, run off, or delivered home.
MAY_VANISH = {"money_bag", "potion", "key", "kitten", "chest"}


def seats(n: int, kind: str = "bot") -> list[dict[str, str]]:
    return [{"name": f"P{i + 1}", "kind": kind} for i in range(n)]


def check_invariants(match: Match) -> None:
    c = match.controller
    load: Counter = Counter()
    sides: dict = {}
    for uid, u in c.units.items():
        assert u["hex"] in CELL_SET, "every unit stands on one hex of the map"
        load[u["hex"]] += MONSTERS[u["kind"]]["stack"]
        sides.setdefault(u["hex"], set()).add(u["owner"])
        assert not (u["down"] and u["kind"] != "troll")
    for iid, it in c.items.items():
        if it["unit"] is not None:
            assert it["unit"] in c.units and it["hex"] is None
            cell = c.units[it["unit"]]["hex"]
        else:
            assert it["hex"] in CELL_SET
            cell = it["hex"]
        load[cell] += ITEMS[it["kind"]]["stack"]
    assert max(load.values(), default=0) <= STACK_LIMIT, "at most 4 stack points per hex"
    assert all(len(s) == 1 for s in sides.values()), "enemies never share a hex"
    created, removed = Counter(c.created), Counter(c.removed)
    assert len(c.items) == sum(created.values()) - sum(removed.values())
    assert set(removed) <= MAY_VANISH, "items only vanish in the ways the rules allow"
    assert not set(c.searched) & set(c.lairs)
    kept = c._index()  # the index moves keep up to date equals one built from scratch
    c._idx = None
    fresh = c._index()
    for part in ("at", "load", "owned", "carried", "lying"):
        assert kept[part] == fresh[part], part
    if "stats" in kept:
        assert kept["stats"] == c._work_out_stats()
    if not match.is_over() and c.phase == "play" and c.prompt is None and c.active is None:
        assert any(not c.units[u]["acted"] for u in c.seat_units(c.turn))
    if match.is_over():
        assert match.result()["winners"] is not None and match.legal_actions(0) == []


def play(match: Match, rng: Rng | None = None, check_every: int = 1, limit: int = 20000) -> int:
    steps = 0
    while not match.is_over() and steps < limit:
        seat = match.to_act()[0]
        legal = match.legal_actions(seat)
        assert legal, "whoever is to act always has something legal to do"
        action = rng.choice(legal) if rng is not None else choose_action(match, seat)
        match.act(seat, action)
        steps += 1
        if steps % check_every == 0:
            check_invariants(match)
    assert match.is_over()
    return steps


@pytest.mark.parametrize("n,seed", [(1, 1), (2, 2), (2, 3), (3, 4), (4, 5), (4, 6)])
def test_bot_games_keep_every_invariant(n, seed):
    match = Match.new(GAME, seats(n), seed=seed, options={"round_limit": 12})
    play(match, check_every=1)
    result = match.result()
    yaml.safe_dump(result)
    assert result["reason"] in ("quests", "round limit", "last standing", "exhaustion",
                                "wiped out")


@pytest.mark.parametrize("n,seed", [(2, 11), (3, 12), (4, 13)])
def test_random_legal_games_keep_every_invariant(n, seed):
    options = {"round_limit": 10, "facing": seed % 2 == 1, "choose_starts": n == 3}
    match = Match.new(GAME, seats(n), seed=seed, options=options)
    play(match, Rng(seed), check_every=1)


def test_save_and_load_at_every_step(tmp_path):
    match = Match.new(GAME, seats(2), seed=21, options={"round_limit": 2})
    path = tmp_path / "game.yaml"
    steps = 0
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
        steps += 1
        assert_reloads_the_same(match, path)
    assert steps > 20


def test_same_seed_same_game():
    a = Match.new(GAME, seats(3), seed=77, options={"round_limit": 5})
    b = Match.new(GAME, seats(3), seed=77, options={"round_limit": 5})
    play(a, check_every=50)
    play(b, check_every=50)
    assert a.snapshot() == b.snapshot() and a.actions == b.actions


def test_the_bot_beats_random_play():
    """Seat 1 is the bot, seat 2 picks random legal actions: the bot does more quests."""
    bot_quests = random_quests = 0
    for seed in range(4):
        match = Match.new(GAME, seats(2), seed=100 + seed, options={"round_limit": 15})
        rng = Rng(seed)
        while not match.is_over():
            seat = match.to_act()[0]
            if seat == 0:
                action = choose_action(match, 0)
            else:
                action = rng.choice(match.legal_actions(1))
            match.act(seat, action)
        bot_quests += match.result()["quests_done"][0]
        random_quests += match.result()["quests_done"][1]
    assert bot_quests > random_quests + 2


def test_the_bot_chooses_starting_hexes_and_marks_flags():
    """With "Choose starting hexes", computer seats pick spread-out starts and mark flags."""
    flagged = False
    for seed in range(1, 40):
        match = Match.new(GAME, seats(3), seed=seed, options={"choose_starts": True})
        c = match.controller
        has_flags = bool(c.flag_queue)
        while c.phase in ("starts", "flags"):
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
        starts = c.starts
        assert all(s is not None for s in starts)
        assert starts[c.order[0]] == MAP["starts"][3][c.order[0]]  # the map's spread-out hex
        assert all(distance(a, b) >= 4 for a in starts for b in starts if a != b)
        if has_flags:
            assert all(len(c.flags[s]) == 3 for s in range(3)
                       if c._quest_index(s, "flag") is not None)
            flagged = True
            break
    assert flagged


# ------------------------------------------------------------------ the bot uses its abilities
def _bot_table():
    from test_monster_fandango_rules import bare, bystander, give, put
    return bare, bystander, give, put


def _choice(c, seat):
    from game.monster_fandango.bot import choose
    return choose(c.view(seat), c.legal_actions(seat), Rng(3))


def test_the_bot_spends_a_kitten_to_escape_a_likely_death():
    bare, bystander, give, put = _bot_table()
    from test_monster_fandango_rules import Dice
    c = bare(2)
    troll = put(c, "troll", 0, (3, 4))
    villager = put(c, "villager", 1, (4, 4))  # defends on 1 only
    bystander(c)
    give(c, villager, "kitten")
    c.units[villager]["acted"] = True
    c.apply(0, {"type": "select", "unit": troll})
    c.rng = Dice(1)
    c.apply(0, {"type": "attack", "target": villager})
    assert c.prompt["type"] == "kitten"
    action = _choice(c, 1)
    assert action["type"] == "escape"
    assert distance(tuple(action["to"]), (3, 4)) >= 3  # as far from the troll as it can


def test_the_bot_burrows_a_threatened_dwarf_and_gives_a_spare_weapon():
    bare, bystander, give, put = _bot_table()
    c = bare(2)
    dwarf = put(c, "dwarf", 0, (3, 4))
    give(c, dwarf, "key")  # a dwarf carrying something is worth hiding
    put(c, "troll", 1, (6, 4))  # an enemy troll two steps from striking
    c.searched.update({cell: 1 for cell in MAP["cells"]})  # nothing left to search
    c.apply(0, {"type": "select", "unit": dwarf})
    c.active["moves"] = 0
    assert _choice(c, 0) == {"type": "burrow"}
    c2 = bare(2)
    bystander(c2)
    elf = put(c2, "elf", 0, (3, 4))
    orc = put(c2, "orc", 0, (3, 4))
    give(c2, elf, "sword", "sword")
    c2.apply(0, {"type": "select", "unit": elf})
    action = _choice(c2, 0)
    assert action["type"] == "give" and action["to"] == orc


def test_the_balance_report_counts_ability_use():
    from game.monster_fandango import balance
    actions = [{"seat": 0, "action": a} for a in (
        {"type": "rally"}, {"type": "select", "unit": 3, "ride": 4}, {"type": "select", "unit": 3},
        {"type": "lucky", "change": 0}, {"type": "lucky", "change": -1}, {"type": "burrow"},
        {"type": "escape", "to": [1, 2]}, {"type": "give", "item": 9, "to": 4})]
    uses = balance.ability_uses(actions)
    assert uses == {"rally": 1, "ride": 1, "lucky": 1, "burrow": 1, "escape": 1, "give": 1}
    game = balance.play_one(2, 11)
    assert set(game["uses"]) <= set(balance.ABILITIES) and sum(game["uses"].values()) > 0
    row = {"average_rounds": 10.0, "average_actions": 300.0, "win_share_by_position": [0.5, 0.5],
           "no_winner": 0.0, "endings": {"quests": 1.0, "exhaustion": 0.0, "round limit": 0.0},
           "ability_uses": {k: uses[k] for k in balance.ABILITIES}}
    text = balance.format({"games": 1, "seats": {2: row}})
    assert "ability and item use per game" in text and "burrow 1.00 (1)" in text
