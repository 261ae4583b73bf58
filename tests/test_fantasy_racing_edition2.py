"""Fantasy Racing, second edition (issue 12): the trap-and-shield landing, the recoil's reason,
the characters who score with their special rule, the map that lets every rule happen, the
default length, and the computer player's shortcuts, traps and spears."""

from __future__ import annotations

import pytest

from game.fantasy_racing import balance
from game.fantasy_racing.bot import World, choose, choke, trap_spot
from game.fantasy_racing.data import CHARACTERS, TRACK
from game.fantasy_racing.rules import POINTS, RacingController

from test_fantasy_racing_rules import act, dice, kinds, race


# ------------------------------------------------------------------ 1. rules
def test_trap_sprung_then_shield_still_ends_the_move_with_the_fight():
    """The issue's repro: B steps down twice onto A's trap, raises the shield, and the move's
    end on A's square starts the fight (B attacks)."""
    c = race("goblin", "knight")
    c.pos = [(2, 10), (2, 12)]
    c.traps = {(2, 12): 1}
    c.inv[0]["shield"] = 1
    dice(c, 4)
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert "trap_sprung" in kinds(events) and c.pending["kind"] == "shield"
    c.inv[1]["shield"] = 0
    dice(c, 50, 1)  # the combat die: goblin attacks, 50 is a simple victory; knight's D3
    events = act(c, 0, {"type": "shield"})
    fights = [e for e in events if e["type"] == "fight"]
    assert len(fights) == 1 and fights[0]["attacker"] == 0 and fights[0]["defender"] == 1
    assert c.pos[0] == (2, 12) and c.traps == {}
    assert c.points[0] == POINTS["shield"] + POINTS["fight"]


def test_trap_sprung_and_shock_taken_moves_the_racer_off_so_no_fight_there():
    c = race("goblin", "knight")
    c.pos = [(2, 10), (2, 12)]
    c.traps = {(2, 12): 1}
    c.inv[0]["shield"] = 1
    dice(c, 4)
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    act(c, 0, {"type": "step", "dx": 0})
    dice(c, 3)  # the big shock's D6
    events = act(c, 0, {"type": "take"})
    assert "fight" not in kinds(events) and c.pos[0] == (2, 9)
    assert c.to_act() == [1]


def test_steady_dwarf_shaken_on_a_trap_lands_there_and_fights():
    c = race("dwarf", "knight")
    c.pos = [(4, 3), (4, 4)]
    c.traps = {(4, 4): 1}
    c.inv[0]["shield"] = 0
    c.inv[1]["shield"] = 0
    dice(c, 3, 1, 50, 1)  # move 3; the trap's D6 of 1 shrinks to nothing; combat 50; D3
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert c.pos[0] == (4, 4)
    assert [e for e in events if e["type"] == "fight"], "the move ended on the knight"


def test_recoil_cut_short_says_what_stopped_it():
    c = race("knight", "goblin")
    c.pos[0] = (5, 2)
    dice(c, 3)
    c.agenda = [{"t": "shock", "seat": 0, "size": "big", "shield": False, "why": "a test"}]
    events = c._run()
    recoil = [e for e in events if e["type"] == "recoil"][0]
    assert c.pos[0] == (5, 0) and recoil["stopped"] == "start"
    assert "start line" in recoil["text"] and "what stands behind" not in recoil["text"]
    c = race("knight", "goblin")
    c.terrain = {(5, 6): "rock"}
    c.pos[0] = (5, 9)
    dice(c, 3)
    c.agenda = [{"t": "shock", "seat": 0, "size": "big", "shield": False, "why": "a test"}]
    recoil = [e for e in c._run() if e["type"] == "recoil"][0]
    assert c.pos[0] == (5, 7) and recoil["stopped"] == "rock" and "rock" in recoil["text"]
    c = race("knight", "goblin")
    c.terrain = {(5, 8): "barrier"}
    c.pos[0] = (5, 9)
    dice(c, 2)
    c.agenda = [{"t": "shock", "seat": 0, "size": "small", "shield": False, "why": "a test"}]
    recoil = [e for e in c._run() if e["type"] == "recoil"][0]
    assert c.pos[0] == (5, 9) and recoil["stopped"] == "barrier" and "barrier" in recoil["text"]
    c = race("knight", "goblin")
    c.pos[0] = (5, 9)
    dice(c, 2)
    c.agenda = [{"t": "shock", "seat": 0, "size": "small", "shield": False, "why": "a test"}]
    recoil = [e for e in c._run() if e["type"] == "recoil"][0]
    assert recoil["stopped"] is None and recoil["text"].endswith("recoils 2 squares.")


def test_at_least_two_characters_score_with_their_special_rule():
    scorers = [k for k, ch in CHARACTERS.items()
               if {"treasure_hunter", "crowd_favourite"} & set(ch["abilities"])]
    assert len(scorers) >= 2


def test_halfling_scores_a_point_for_every_chest():
    c = race("halfling", "knight")
    c.items = {(5, 6): "chest", (5, 7): "coin"}
    c.pos = [(5, 5), (0, 15)]
    dice(c, 2, 50)  # move 2; the object die
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert "treasure hunter" in " ".join(e.get("text", "") for e in events)
    act(c, 0, {"type": "step", "dx": 0})
    assert c.points[0] == POINTS["treasure"] + POINTS["coin"]
    assert c.tally[0]["special"] == 1 and c.tally[0]["coins"] == 2
    assert len(c.inv[0]["objects"]) == 1


def test_orc_scores_a_point_for_every_fight_she_wins_even_defending_and_never_skids():
    c = race("orc", "knight")
    c.pos = [(5, 5), (5, 7)]
    c.inv[1]["shield"] = 0
    dice(c, 2, 50, 1)  # move 2 onto the knight; combat 50: simple victory; knight's D3 1
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert c.points[0] == POINTS["fight"] + POINTS["crowd"] and c.tally[0]["special"] == 1
    assert c.pending is None, "no tactical move is offered"
    assert any(e["type"] == "tactical" and e["dx"] == 0 and "hot-headed" in e["text"]
               for e in events)
    # Defending: the knight attacks the orc and is beaten off.
    c = race("knight", "orc")
    c.pos = [(5, 5), (5, 7)]
    c.inv[0]["shield"] = 0
    dice(c, 2, 1, 1)  # combat 1: a defeat for the knight
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    act(c, 0, {"type": "step", "dx": 0})
    assert c.points[1] == POINTS["fight"] + POINTS["crowd"]


def test_timid_halfling_is_attacked_when_his_move_ends_on_an_opponent():
    c = race("halfling", "knight")
    c.pos = [(5, 5), (5, 7)]
    c.inv[0]["shield"] = 0
    dice(c, 2, 60, 1)  # knight attacks with 60 (simple victory); halfling's D3 1
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0}) + act(c, 0, {"type": "step", "dx": 0})
    fight = [e for e in events if e["type"] == "fight"][0]
    assert fight["attacker"] == 1 and fight["defender"] == 0 and fight["winner"] == 1


def test_special_points_keep_the_tally_in_step_with_the_points():
    for seed in (1,):
        match = balance.play(seed)
        c: RacingController = match.controller
        for s in range(c.n):
            assert c.points[s] == sum(c.tally[s].values())


# ------------------------------------------------------------------ 2. board and length
def test_every_square_above_a_wall_has_a_way_through():
    terrain = TRACK["terrain"]
    w, h = TRACK["width"], TRACK["height"]
    blocked = {c for c, k in terrain.items() if k in ("barrier", "rock")}
    for y in range(h):
        for x in range(w):
            if (x, y) in blocked:
                continue
            ways = [dx for dx in (-1, 0, 1) if ((x + dx) % w, (y + 1) % h) not in blocked]
            assert ways, f"square {(x, y)} has no way down"


def test_each_shortcut_can_throw_a_racer_onto_an_obstacle():
    terrain = TRACK["terrain"]
    h = TRACK["height"]
    landings = set()
    for (x, y), kind in terrain.items():
        if kind != "shortcut":
            continue
        for shift in (-4, -3, -2, -1, 1, 2, 3, 4, 5):
            ty = max(0, y + shift) if shift < 0 else (y + shift) % h
            landings.add(terrain.get((x, ty)))
    assert {"barrier", "rock", "hole"} <= landings


def test_balance_report_counts_rules_and_laps_short():
    report = balance.report(6)
    assert report["lap_share"] >= 0.7
    rules = report["rules"]
    for name in ("shortcut forward", "shortcut back", "chest", "respawn", "fight",
                 "hole jumped", "landed on rock", "used wand_of_fire"):
        assert rules[name] > 0, name
    assert "racers completing at least one lap" in balance.format(report)


def test_default_length_is_twelve_turns():
    option = {o.key: o for o in RacingController.options}["turns"]
    assert option.default == 12


@pytest.mark.slow
def test_every_rule_fires_once_per_20_games_and_the_balance_bound_holds():
    report = balance.report(200)
    assert report["rare_rules"] == [], report["rules_per_20_games"]
    assert report["lap_share"] >= 0.7
    assert report["max_ratio"] <= 2.0, report["characters"]


# ------------------------------------------------------------------ 4. computer player
def test_gates_are_chokes_and_good_trap_spots():
    terrain = TRACK["terrain"]

    def blocked(cell):
        return terrain.get(cell) in ("barrier", "rock")

    gates = [(x, 7) for x in range(TRACK["width"]) if not blocked((x, 7))]
    assert gates and all(choke(g, blocked) >= 1 for g in gates)
    open_square = (6, 3)
    assert trap_spot(gates[0], blocked) > trap_spot(open_square, blocked)


def test_bot_stops_on_a_shortcut_when_the_jump_is_worth_more_than_the_last_step():
    total = sum(1 for seed in (0, 5) for ev in balance.play(seed).log if ev["type"] == "stop")
    assert total > 0


def test_bot_spends_its_objects_on_the_last_turn():
    c = race("knight", "goblin", turns=5)
    c.turn = 5
    c.inv[0]["objects"] = ["magic_spear"]
    c.pos = [(5, 5), (5, 9)]
    c.points = [20, 0]
    view = c.view(0)
    legal = c.legal_actions(0)
    action = choose(view, legal, c.rng)
    assert action["type"] == "use" and action["object"] == "magic_spear"
    World(view, 0)  # the world builds from a plain view
