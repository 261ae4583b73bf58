"""Fantasy Racing: every phase, obstacle, object, character and ruling, with scripted dice.

Scenarios clear the track (``terrain``/``items`` of the controller are its own
copies) and place exactly what the rule needs; the dice are scripted so each
worked example is reproduced exactly.
"""

from __future__ import annotations

import pytest
import yaml

from game.engine import IllegalAction, Match, Rng
from game.fantasy_racing.data import CHARACTERS, OBJECTS, TRACK, load_track
from game.fantasy_racing.rules import (SHORTCUT, RacingController, combat_face, object_for,
                                       respawn_turns)


class Dice(Rng):
    """Scripted dice: each roll takes the next value (checked against the die's range)."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, low: int, high: int) -> int:
        assert self.values, f"an unexpected roll of {low}-{high}"
        value = self.values.pop(0)
        assert low <= value <= high, (value, low, high)
        return value

    def shuffle(self, items) -> None:
        pass

    def choice(self, items):
        return items[0]


def race(*chars: str, turns: int = 10, clear: bool = True, started: bool = True,
         **positions) -> RacingController:
    """A controller with these characters picked, seat 0 to play, on an empty track."""
    seats = [{"name": n, "kind": "human"} for n in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")]
    c = RacingController(seats[:len(chars)], {"turns": turns, "characters": "choose"}, Dice())
    for seat, key in enumerate(chars):
        c.apply(seat, {"type": "pick", "character": key})
    if clear:
        c.terrain, c.items = {}, {}
    if started:
        c.started = [True] * len(chars)
    return c


def dice(c: RacingController, *values: int) -> None:
    c.rng.values = list(values)


def act(c: RacingController, seat: int, action: dict) -> list[dict]:
    assert seat in c.to_act(), (seat, c.to_act())
    legal = c.legal_actions(seat)
    assert action in legal, (action, legal)
    events = c.apply(seat, action)
    return events


def kinds(events) -> list[str]:
    return [e["type"] for e in events]


def move(c: RacingController, seat: int, roll: int, *steps: int) -> list[dict]:
    dice(c, roll)
    events = act(c, seat, {"type": "roll"})
    for dx in steps:
        events += act(c, seat, {"type": "step", "dx": dx})
    return events


# ---------------------------------------------------------------------- data and board
def test_board_is_a_wrapping_grid_of_at_least_12_by_16_from_the_map():
    assert TRACK["width"] >= 12 and TRACK["height"] >= 16
    assert set(TRACK["terrain"].values()) == {"barrier", "rock", "hole", "shortcut"}
    assert set(TRACK["items"].values()) == {"clover", "shield", "coin", "chest"}
    assert all(y == 0 for _x, y in TRACK["starts"]) and len(TRACK["starts"]) == 6
    # The start row is clear; the map's lines are tile properties.
    from game.board.tmxmap import load_board
    board = load_board(load_track.__defaults__[0])
    assert board.grid.wrap_x and board.grid.wrap_y
    assert board.cell_properties((0, 0))["line"] == "start"
    assert board.cell_properties((0, TRACK["height"] - 1))["line"] == "finish"
    assert not any(y == 0 for _x, y in TRACK["terrain"])


def test_characters_and_objects_are_designed_data():
    assert len(CHARACTERS) >= 6
    assert {"goblin", "thief"} <= set(CHARACTERS)
    assert any("rapid" in ch["abilities"] for ch in CHARACTERS.values())
    for ch in CHARACTERS.values():
        assert sum(ch["combat"].values()) == 100 and ch["weakness"] and ch["strengths"]
    assert len(OBJECTS) >= 8
    assert {"magic_spear", "throwing_axe", "ring_of_fire", "wand_of_fire", "trap",
            "stealing_gloves"} <= set(OBJECTS)
    for mood in ("bonus", "even", "malus"):
        assert sum(o["weights"][mood] for o in OBJECTS.values()) == 100


def test_object_die_favours_the_trailing_racers():
    power = {"throwing_axe", "wand_of_fire", "ring_of_fire", "stealing_gloves"}
    share = {mood: sum(o["weights"][mood] for k, o in OBJECTS.items() if k in power)
             for mood in ("bonus", "even", "malus")}
    assert share["bonus"] > share["even"] > share["malus"]
    assert object_for("bonus", 1) == "magic_spear"
    assert object_for("malus", 100) == "gold_purse"


# ---------------------------------------------------------------------- set-up and turns
def test_pick_phase_distinct_characters_and_refusals():
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    c = RacingController(seats, {"turns": 5, "characters": "choose"}, Dice())
    assert c.to_act() == [0] and c.status().startswith("Choosing")
    with pytest.raises(IllegalAction, match="picks a character"):
        c.apply(0, {"type": "roll"})
    c.apply(0, {"type": "pick", "character": "thief"})
    with pytest.raises(IllegalAction, match="already races for Ann"):
        c.apply(1, {"type": "pick", "character": "thief"})
    with pytest.raises(IllegalAction, match="Choose one of the characters"):
        c.apply(1, {"type": "pick", "character": "dragon"})
    assert {"type": "pick", "character": "thief"} not in c.legal_actions(1)
    events = c.apply(1, {"type": "pick", "character": "sorceress"})
    assert "order" in kinds(events) and c.phase == "objects" and c.turn == 1
    # Starting gear: the thief's clover, the sorceress's wand.
    assert c.inv[0]["clover"] == 1 and c.inv[1]["objects"] == ["wand_of_fire"]


def test_random_characters_are_dealt_distinct_by_seed():
    seats = [{"name": f"P{i}", "kind": "bot"} for i in range(6)]
    a = Match.new("fantasy_racing", seats, seed=5, options={"characters": "random"})
    b = Match.new("fantasy_racing", seats, seed=5, options={"characters": "random"})
    assert a.legal_actions(0) == [{"type": "deal"}] and a.status().startswith("Characters")
    with pytest.raises(IllegalAction, match="dealt at random"):
        a.act(0, {"type": "pick", "character": "elf"})
    events = a.act(0, {"type": "deal"})
    b.act(0, {"type": "deal"})
    assert kinds(events)[:2] == ["pick", "order"] and "races as" in events[0]["text"]
    chars = a.view()["racers"]
    dealt = [r["character"] for r in chars]
    assert len(set(dealt)) == 6 and set(dealt) <= set(CHARACTERS)
    assert a.snapshot() == b.snapshot() and a.controller.phase == "objects"
    dwarf = next((r for r in chars if r["character"] == "dwarf"), None)
    assert dwarf is None or dwarf["shield"] == 1


def test_first_turn_order_random_then_fewest_points_first():
    seats = [{"name": n, "kind": "bot"} for n in ("Ann", "Bob", "Cid")]
    c = RacingController(seats, {"turns": 5, "characters": "choose"}, Rng(3))
    for s, k in enumerate(("goblin", "elf", "dwarf")):
        c.apply(s, {"type": "pick", "character": k})
    first = list(c.order)
    rng = Rng(3)
    expected = [0, 1, 2]
    rng.shuffle(expected)
    assert first == expected
    c = race("goblin", "elf", "dwarf", "knight", turns=5)
    c.points = [5, 2, 5, 2]
    c.pos = [(1, 3), (7, 4), (4, 6), (10, 4)]
    c.index = len(c.order) - 1
    c.phase = "resolve"
    events = c._run()
    assert c.turn == 2
    # Fewest points first; equal points: the racer further back first, then seat order.
    assert c.order == [1, 3, 0, 2]
    assert "order" in kinds(events)


def test_unstarted_racers_are_protected_untargetable_and_unattackable():
    c = race("knight", "goblin", started=False)
    assert c.protected(1) and not c.protected(0)
    view = c.view(None)
    assert view["racers"][1]["protected"] and not view["racers"][0]["protected"]
    c.inv[0]["objects"] = ["magic_spear"]
    c.pos = [(5, 2), (5, 5)]
    assert c.reach(0, "magic_spear")["targets"] == []
    with pytest.raises(IllegalAction, match="protected"):
        c.apply(0, {"type": "use", "object": "magic_spear", "seat": 1})
    # Ending a move on a protected racer starts no fight.
    events = move(c, 0, 3, 0, 0, 0)
    assert c.pos[0] == c.pos[1] and "fight" not in kinds(events)
    assert c.to_act() == [1] and not c.protected(1)


def test_a_seat_turn_has_objects_then_movement_then_next_seat():
    c = race("knight", "goblin")
    assert c.phase == "objects" and c.legal_actions(0) == [{"type": "roll"}]
    assert c.legal_actions(1) == []
    events = move(c, 0, 2)
    assert c.phase == "steps" and kinds(events) == ["dice"]
    assert events[0]["die"] == "D6" and events[0]["faces"] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(IllegalAction, match="already rolled"):
        c.apply(0, {"type": "roll"})
    with pytest.raises(IllegalAction, match="only one object per turn"):
        c.apply(0, {"type": "use", "object": "trap"})
    act(c, 0, {"type": "step", "dx": 0})
    assert "left" in c.status()
    act(c, 0, {"type": "step", "dx": 1})
    assert c.to_act() == [1] and c.phase == "objects"


def test_game_ends_after_the_last_turn_with_most_points_winning():
    c = race("knight", "goblin", turns=5)
    for turn in range(5):
        for seat in list(c.order):
            move(c, seat, 1, 0)
    assert c.is_over() and c.status().startswith("Race over")
    assert c.turn == 5 and c.result()["winners"] in ([0], [1], [0, 1])


def test_ties_go_to_the_racer_farthest_along_then_are_shared():
    c = race("knight", "goblin")
    c.points = [12, 12]
    c.laps = [1, 1]
    c.pos = [(0, 5), (3, 8)]
    c.phase = "over"
    res = c.result()
    assert res["winners"] == [1] and res["tie_break"] == "progress"
    c.pos = [(0, 8), (3, 8)]
    res = c.result()
    assert res["winners"] == [0, 1] and res["tie_break"] == "shared"
    c.points = [13, 12]
    assert c.result()["winners"] == [0] and c.result()["tie_break"] == "points"


# ---------------------------------------------------------------------- movement
def test_steps_go_down_downleft_downright_and_wrap_left_right():
    c = race("knight", "goblin")
    c.pos[0] = (0, 3)
    events = move(c, 0, 3, -1)
    assert c.pos[0] == (11, 4), "left edge wraps to the right edge"
    assert events[-1]["type"] == "step" and events[-1]["target"] == [11, 4]
    act(c, 0, {"type": "step", "dx": 1})
    assert c.pos[0] == (0, 5), "right edge wraps to the left edge"
    with pytest.raises(IllegalAction, match="down"):
        c.apply(0, {"type": "step", "dx": 2})


def test_crossing_the_finish_line_completes_a_lap_and_carries_on_at_the_top():
    c = race("knight", "goblin")
    c.pos[0] = (4, TRACK["height"] - 2)
    events = move(c, 0, 3, 0, 0, 0)
    assert c.pos[0] == (4, 1) and c.laps[0] == 1 and c.points[0] == 10
    assert "lap" in kinds(events) and c.tally[0]["laps"] == 10
    assert c.progress(0) == TRACK["height"] + 1


def test_barriers_and_rocks_cannot_be_entered():
    c = race("knight", "goblin")
    c.pos[0] = (4, 3)
    c.terrain = {(4, 4): "barrier", (3, 4): "rock"}
    move(c, 0, 2)
    assert [a["dx"] for a in c.legal_actions(0)] == [1]
    with pytest.raises(IllegalAction, match="barrier blocks the way down"):
        c.apply(0, {"type": "step", "dx": 0})
    with pytest.raises(IllegalAction, match="rock blocks"):
        c.apply(0, {"type": "step", "dx": -1})


def test_a_racer_with_no_open_square_ends_its_move():
    c = race("knight", "goblin")
    c.pos[0] = (4, 3)
    c.terrain = {(3, 4): "rock", (4, 4): "barrier", (5, 4): "rock"}
    events = move(c, 0, 4)
    assert "blocked" in kinds(events) and c.to_act() == [1] and c.pos[0] == (4, 3)


def test_elf_moves_with_the_rapid_die_and_dwarf_6_counts_5():
    c = race("elf", "dwarf")
    with pytest.raises(AssertionError):
        move(c, 0, 6)  # the rapid die has no 6
    c = race("elf", "dwarf")
    events = move(c, 0, 2)
    assert events[0]["die"] == "DRAPID" and events[0]["faces"] == [2, 3, 4, 5]
    c = race("dwarf", "elf")
    move(c, 0, 6)
    assert c.move["left"] == 5


# ---------------------------------------------------------------------- holes
@pytest.mark.parametrize("before", [0, 1])
def test_hole_without_run_up_stops_the_move_just_after_it(before):
    c = race("knight", "goblin")
    c.pos[0] = (4, 2)
    c.terrain = {(4, 3 + before): "hole"}
    events = move(c, 0, 5, *([0] * (before + 1)))
    assert c.pos[0] == (4, 4 + before) and "hole" in kinds(events)
    assert c.to_act() == [1] and c.points[0] == 0


def test_hole_with_two_squares_between_is_jumped():
    c = race("knight", "goblin")
    c.pos[0] = (4, 2)
    c.terrain = {(4, 5): "hole"}
    events = move(c, 0, 5, 0, 0, 0)
    assert "jump" in kinds(events) and c.move["left"] == 2
    act(c, 0, {"type": "step", "dx": 0})
    act(c, 0, {"type": "step", "dx": 0})
    assert c.pos[0] == (4, 7) and c.points[0] == 0


def test_ending_a_move_on_a_hole_falls_in_minus_2_and_out_before_it():
    c = race("knight", "goblin")
    c.pos[0] = (4, 2)
    c.terrain = {(4, 5): "hole"}
    events = move(c, 0, 3, 0, 0, 0)
    assert "fall" in kinds(events)
    assert c.pos[0] == (4, 4) and c.points[0] == -2 and c.tally[0]["holes"] == -2


def test_goblin_short_legs_never_jump_a_hole():
    c = race("goblin", "knight")
    c.pos[0] = (4, 2)
    c.terrain = {(4, 5): "hole"}
    move(c, 0, 5, 0, 0, 0)
    assert c.pos[0] == (4, 6) and c.to_act() == [1]


def test_hole_with_a_blocked_square_beyond_swallows_the_racer():
    c = race("knight", "goblin")
    c.pos[0] = (4, 2)
    c.terrain = {(4, 3): "hole", (4, 4): "barrier"}
    events = move(c, 0, 4, 0)
    assert "fall" in kinds(events) and c.pos[0] == (4, 2) and c.points[0] == -2


# ---------------------------------------------------------------------- shortcuts
@pytest.mark.parametrize("face", range(1, 11))
def test_shortcut_d10_table(face):
    c = race("knight", "goblin")
    c.pos[0] = (4, 7)
    c.terrain = {(4, 8): "shortcut"}
    dice(c, 1, face)
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    shift = {1: -4, 2: -3, 3: -2, 4: -1, 5: 1, 6: 2, 7: 3, 8: 4, 9: 5, 10: 5}[face]
    assert SHORTCUT[face] == shift
    assert c.pos[0] == (4, 8 + shift)
    assert [e for e in events if e["type"] == "dice"][-1]["die"] == "D10"
    assert "shortcut" in kinds(events)


def test_passing_over_a_shortcut_may_stop_on_it_or_carry_on():
    c = race("knight", "goblin")
    c.pos[0] = (4, 7)
    c.terrain = {(4, 8): "shortcut"}
    move(c, 0, 3, 0)
    assert {"type": "stop"} in c.legal_actions(0)
    act(c, 0, {"type": "step", "dx": 0})
    assert {"type": "stop"} not in c.legal_actions(0)
    act(c, 0, {"type": "step", "dx": 0})
    assert c.pos[0] == (4, 10), "passing over a shortcut does not trigger it"
    c = race("knight", "goblin")
    c.pos[0] = (4, 7)
    c.terrain = {(4, 8): "shortcut"}
    move(c, 0, 3, 0)
    dice(c, 9)
    events = act(c, 0, {"type": "stop"})
    assert c.pos[0] == (4, 13) and "shortcut" in kinds(events)
    with pytest.raises(IllegalAction):
        c.apply(1, {"type": "stop"})


def test_backward_shortcut_stops_at_the_start_line_and_forward_one_counts_a_lap():
    c = race("knight", "goblin")
    c.pos[0] = (4, 1)
    c.terrain = {(4, 2): "shortcut"}
    dice(c, 1, 1)
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    assert c.pos[0] == (4, 0) and c.laps[0] == 0
    c = race("knight", "goblin")
    h = TRACK["height"]
    c.pos[0] = (4, h - 3)
    c.terrain = {(4, h - 2): "shortcut"}
    dice(c, 1, 10)
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    assert c.pos[0] == (4, 3) and c.laps[0] == 1 and c.points[0] == 10


def test_thrown_onto_a_barrier_breaks_it_with_a_small_shock():
    c = race("knight", "goblin")
    c.pos[0] = (4, 7)
    c.terrain = {(4, 8): "shortcut", (4, 10): "barrier"}
    dice(c, 1, 6, 1)  # move 1, shortcut +2 onto the barrier, recoil D3 = 1
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert (4, 10) in c.destroyed and "destroy" in kinds(events)
    assert c.pos[0] == (4, 9), "recoiled 1 square up"
    shock = next(e for e in events if e["type"] == "shock")
    assert shock["size"] == "small"


def test_thrown_onto_a_rock_small_shock_without_shield():
    c = race("knight", "goblin")
    c.inv[0]["shield"] = 1
    c.pos[0] = (4, 7)
    c.terrain = {(4, 8): "shortcut", (4, 11): "rock"}
    dice(c, 1, 7, 2)  # shortcut +3 onto the rock, recoil D3 = 2
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert c.pending is None and "rock" in kinds(events), "no shield may be used"
    assert c.inv[0]["shield"] == 1 and c.pos[0] == (4, 9)


# ---------------------------------------------------------------------- shocks and recoils
def big_shock_squares(c: RacingController, seat: int) -> list[tuple[int, int]]:
    """Where a big shock (1D6) can send ``seat``, face by face, played through the rules."""
    ends = []
    for face in range(1, 7):
        saved = c.snapshot()
        pos = list(c.pos)
        dice(c, face)
        c.agenda = [{"t": "shock", "seat": seat, "size": "big", "shield": False, "why": "a test"}]
        events = c._run()
        assert [e["die"] for e in events if e["type"] == "dice"] == ["D6"]
        ends.append(c.pos[seat])
        c.pos = pos
        c.points = saved["points"]
    return ends


def test_barrier_protection_example():
    """The text's example: the squares a big shock can send a racer to, first on an open
    track, then with two barriers and a rock on the recoil's way.

    The racer stands at column 6, row 12.  Open track: the six faces of the D6 send it 1
    to 6 squares straight up.  Then a barrier 3 squares up, a rock 5 up and another barrier
    6 up, all within the reach of the die: faces 1 and 2 are unchanged, and faces 3 to 6,
    which would end on the barrier or on a square beyond it, all stop on the square below
    the first barrier.  The rock and the second barrier are never reached.
    """
    c = race("knight", "goblin")
    c.pos[1] = (5, 11)
    assert big_shock_squares(c, 1) == [(5, 10), (5, 9), (5, 8), (5, 7), (5, 6), (5, 5)]
    c.terrain = {(5, 8): "barrier", (5, 6): "rock", (5, 5): "barrier"}
    assert big_shock_squares(c, 1) == [(5, 10), (5, 9), (5, 9), (5, 9), (5, 9), (5, 9)]
    assert c.terrain == {(5, 8): "barrier", (5, 6): "rock", (5, 5): "barrier"}
    assert c.destroyed == set(), "a recoil stopped by a barrier does not break it"
    # Neighbouring columns are no protection: the recoil goes straight up.
    c.terrain = {(4, 9): "barrier", (6, 9): "rock"}
    assert big_shock_squares(c, 1)[-1] == (5, 5)


def test_rock_protection_example():
    """The same example with the rock nearest: a rock protects exactly like a barrier."""
    c = race("knight", "goblin")
    c.pos[1] = (5, 11)
    c.terrain = {(5, 9): "rock", (5, 7): "barrier", (5, 6): "barrier"}
    assert big_shock_squares(c, 1) == [(5, 10)] * 6
    c.terrain = {(5, 10): "rock"}
    assert big_shock_squares(c, 1) == [(5, 11)] * 6, "a rock right above: no recoil at all"
    # Once a barrier is destroyed, it protects no more.
    c.terrain = {(5, 9): "barrier"}
    c.destroyed = {(5, 9)}
    assert big_shock_squares(c, 1)[-1] == (5, 5)


def test_small_shock_is_1d3_and_recoil_stops_at_the_start_line():
    c = race("knight", "goblin")
    c.pos[1] = (5, 2)
    dice(c, 3)
    c.agenda = [{"t": "shock", "seat": 1, "size": "small", "shield": True, "why": "a test"}]
    events = c._run()
    roll = next(e for e in events if e["type"] == "dice")
    assert roll["die"] == "D3" and roll["faces"] == [1, 2, 3]
    assert c.pos[1] == (5, 0), "the start line holds recoils back"


def test_recoil_onto_a_hole_falls_into_it():
    c = race("knight", "goblin")
    c.terrain = {(5, 8): "hole"}
    c.pos[1] = (5, 10)
    dice(c, 2)
    c.agenda = [{"t": "shock", "seat": 1, "size": "small", "shield": True, "why": "a test"}]
    events = c._run()
    assert "fall" in kinds(events) and c.pos[1] == (5, 7) and c.points[1] == -2


def test_shield_cancels_a_shock_for_2_points_or_is_kept():
    c = race("knight", "goblin")
    c.inv[1]["shield"] = 2
    c.pos[1] = (5, 10)
    c.agenda = [{"t": "shock", "seat": 1, "size": "big", "shield": True, "why": "a test"}]
    c._run()
    assert c.to_act() == [1] and c.legal_actions(1) == [{"type": "shield"}, {"type": "take"}]
    with pytest.raises(IllegalAction, match="not Ann's turn"):
        c.apply(0, {"type": "roll"})
    with pytest.raises(IllegalAction, match="decide whether to use a shield"):
        c.apply(1, {"type": "roll"})
    events = c.apply(1, {"type": "shield"})
    assert "shield" in kinds(events) and c.pos[1] == (5, 10)
    assert c.points[1] == -2 and c.inv[1]["shield"] == 1 and c.tally[1]["shields"] == -2
    c.agenda = [{"t": "shock", "seat": 1, "size": "small", "shield": True, "why": "a test"}]
    c._run()
    dice(c, 1)
    c.apply(1, {"type": "take"})
    assert c.pos[1] == (5, 9) and c.inv[1]["shield"] == 1 and c.points[1] == -2


def test_knight_shield_costs_one_point():
    c = race("goblin", "knight")
    c.inv[1]["shield"] = 1
    c.agenda = [{"t": "shock", "seat": 1, "size": "small", "shield": True, "why": "a test"}]
    c._run()
    c.apply(1, {"type": "shield"})
    assert c.points[1] == -1


# ---------------------------------------------------------------------- fights
def fight_setup(attacker="knight", defender="goblin"):
    c = race(attacker, defender)
    c.pos = [(5, 3), (5, 6)]
    return c


def test_moving_racer_attacks_simple_victory_small_shock_and_tactical_move():
    c = fight_setup()
    dice(c, 3, 50, 2)  # move 3; combat 50 (knight: 25 defeat, 45 simple); recoil D3 2
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    act(c, 0, {"type": "step", "dx": 0})
    events = act(c, 0, {"type": "step", "dx": 0})
    fight = next(e for e in events if e["type"] == "fight")
    assert fight["attacker"] == 0 and fight["winner"] == 0 and fight["face"] == "simple"
    roll = next(e for e in events if e["type"] == "dice" and e["die"] == "DCOMBAT")
    assert roll["value"] == 50
    assert c.points[0] == 3 and c.pos[1] == (5, 4)
    assert c.to_act() == [0] and c.legal_actions(0) == [{"type": "tactical", "dx": d}
                                                        for d in (-1, 0, 1)]
    with pytest.raises(IllegalAction, match="tactical move goes left"):
        c.apply(0, {"type": "tactical", "dx": 2})
    with pytest.raises(IllegalAction, match="tactical move"):
        c.apply(0, {"type": "roll"})
    act(c, 0, {"type": "tactical", "dx": 1})
    assert c.pos[0] == (6, 6) and c.to_act() == [1]


def test_overwhelming_victory_big_shock_5_points():
    c = fight_setup()
    dice(c, 3, 80, 5)
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        act(c, 0, {"type": "step", "dx": 0})
    assert c.points[0] == 5 and c.pos[1] == (5, 1) and c.tally[0]["fights"] == 5


def test_attacker_defeat_the_defender_wins_3_and_the_attacker_recoils():
    c = fight_setup("knight", "dwarf")
    # dwarf guard 10: the knight's defeat band becomes 1-35.
    dice(c, 3, 35, 3)
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        act(c, 0, {"type": "step", "dx": 0})
    assert c.points == [0, 3] and c.pos[0] == (5, 3)
    assert c.to_act() == [1]  # the dwarf's tactical move
    act(c, 1, {"type": "tactical", "dx": -1})
    assert c.pos[1] == (4, 6)


def test_combat_faces_follow_each_characters_probabilities():
    for ch in CHARACTERS.values():
        t = ch["combat"]
        assert combat_face(t, 0, t["defeat"]) == "defeat"
        assert combat_face(t, 0, t["defeat"] + 1) == "simple"
        assert combat_face(t, 0, t["defeat"] + t["simple"]) == "simple"
        assert combat_face(t, 0, t["defeat"] + t["simple"] + 1) == "overwhelming"
        counts = {f: sum(combat_face(t, 0, r) == f for r in range(1, 101))
                  for f in ("defeat", "simple", "overwhelming")}
        assert counts == t


def test_every_winner_may_stay_put():
    c = fight_setup()
    dice(c, 3, 60, 1)
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        act(c, 0, {"type": "step", "dx": 0})
    events = act(c, 0, {"type": "tactical", "dx": 0})
    assert c.pos[0] == (5, 6) and "stays put" in events[0]["text"]


def test_goblin_long_skid_goes_two_squares_but_not_past_a_barrier():
    c = fight_setup("goblin", "knight")
    c.terrain = {(3, 6): "barrier"}
    dice(c, 3, 60, 1)
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        act(c, 0, {"type": "step", "dx": 0})
    assert c.legal_actions(0) == [{"type": "tactical", "dx": d} for d in (-1, 0, 1, 2)]
    act(c, 0, {"type": "tactical", "dx": 2})
    assert c.pos[0] == (7, 6)
    c = fight_setup("goblin", "knight")
    c.terrain = {(4, 6): "rock"}
    dice(c, 3, 60, 1)
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        act(c, 0, {"type": "step", "dx": 0})
    assert [a["dx"] for a in c.legal_actions(0)] == [0, 1, 2], "a rock next to him blocks -1 and -2"


def test_tactical_move_cannot_enter_barriers_and_may_have_no_room():
    c = fight_setup()
    c.terrain = {(4, 6): "barrier", (6, 6): "rock"}
    dice(c, 3, 50, 1)
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        act(c, 0, {"type": "step", "dx": 0})
    assert c.to_act() == [1] and c.pos[0] == (5, 6)


def test_recoil_onto_an_occupied_square_the_occupant_attacks():
    c = race("knight", "goblin", "dwarf")
    c.pos = [(5, 3), (5, 6), (5, 4)]
    # knight wins (50): goblin recoils 2 onto the dwarf; the dwarf attacks (roll 90:
    # dwarf overwhelming), goblin big shock 1 -> (5, 3)... where the knight was.
    dice(c, 3, 50, 2, 90, 1)
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    act(c, 0, {"type": "step", "dx": 0})
    events = act(c, 0, {"type": "step", "dx": 0})
    fights = [e for e in events if e["type"] == "fight"]
    assert [(f["attacker"], f["defender"]) for f in fights] == [(0, 1), (2, 1)]
    assert c.points == [3, 0, 5] and c.pos[1] == (5, 3)


def test_skid_onto_an_occupied_square_the_occupant_attacks():
    c = race("knight", "goblin", "dwarf")
    c.pos = [(5, 3), (5, 6), (6, 6)]
    dice(c, 3, 50, 1)
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        act(c, 0, {"type": "step", "dx": 0})
    dice(c, 31, 1)  # the dwarf attacks the arriving knight: 31 (25 + knight's guard 5 < 31)
    events = act(c, 0, {"type": "tactical", "dx": 1})
    fight = next(e for e in events if e["type"] == "fight")
    assert fight["attacker"] == 2 and fight["defender"] == 0 and fight["winner"] == 2


def test_shortcut_arrival_on_an_occupied_square_the_occupant_attacks():
    c = race("knight", "goblin")
    c.pos = [(5, 3), (5, 9)]
    c.terrain = {(5, 4): "shortcut"}
    dice(c, 1, 9, 10, 1)  # move 1, D10 9 -> +5 onto the goblin, who attacks and rolls 10
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    fight = next(e for e in events if e["type"] == "fight")
    assert fight["attacker"] == 1 and fight["winner"] == 0  # goblin rolled 10: defeat


def test_sorceress_frail_takes_a_big_shock_from_any_lost_fight():
    c = fight_setup("knight", "sorceress")
    dice(c, 3, 50, 6)
    act(c, 0, {"type": "roll"})
    events = []
    for _ in range(3):
        events += act(c, 0, {"type": "step", "dx": 0})
    shock = next(e for e in events if e["type"] == "shock")
    assert shock["size"] == "big" and c.pos[1] == (5, 0), "a D6 recoil of 6 from row 6"


def test_thief_steals_after_winning_a_fight():
    c = fight_setup("thief", "knight")
    c.inv[1]["objects"] = ["wand_of_fire"]
    dice(c, 3, 60, 50, 1)  # fight won, theft 50 (<= 50 succeeds), recoil 1
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        events = act(c, 0, {"type": "step", "dx": 0})
    steal = next(e for e in events if e["type"] == "steal")
    assert steal["stolen"] == "wand_of_fire" and c.inv[0]["objects"] == ["wand_of_fire"]
    assert next(e for e in events if e.get("die") == "DTHEFT")["value"] == 50


def test_fights_per_turn_are_capped():
    c = race("knight", "goblin")
    c.fights = 6
    c.pos = [(5, 3), (5, 4)]
    events = move(c, 0, 1, 0)
    assert "fight" not in kinds(events) and "note" in kinds(events)


# ---------------------------------------------------------------------- items and chests
def test_passing_over_clover_shield_coin_picks_them_up_and_they_grey_out():
    c = race("knight", "goblin")
    c.pos[0] = (5, 2)
    c.items = {(5, 3): "clover", (5, 4): "shield", (5, 5): "coin"}
    events = move(c, 0, 4, 0, 0, 0, 0)
    assert [e["item"] for e in events if e["type"] == "collect"] == ["clover", "shield", "coin"]
    assert c.inv[0]["clover"] == 1 and c.inv[0]["shield"] == 1 and c.points[0] == 2
    assert c.view(None)["taken"] == [[5, 3], [5, 4], [5, 5]]
    assert c.item_at((5, 3)) is None


def test_chest_interrupts_the_move_for_the_object_die_weighted_by_rank():
    c = race("knight", "goblin")
    c.points = [0, 10]  # the knight trails: bonus column (her unluckiness makes it even)
    c.pos[0] = (5, 2)
    c.items = {(5, 3): "chest"}
    dice(c, 2, 30)
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    roll = next(e for e in events if e.get("die") == "DOBJ")
    assert roll["value"] == 30
    # even column: spear 14, axe 12 -> 30 is the ring of fire (27-36)
    assert c.inv[0]["objects"] == ["ring_of_fire"] and c.move["left"] == 1
    assert object_for("even", 30) == "ring_of_fire"
    c = race("goblin", "knight")
    c.points = [0, 10]
    assert c.mood(0) == "bonus" and c.mood(1) == "malus"
    c.points = [5, 5]
    assert c.mood(0) == "bonus" and c.mood(1) == "malus", "scrounging goblin, unlucky knight"
    d = race("thief", "elf")
    d.points = [5, 5]
    assert d.mood(0) == d.mood(1) == "even"


def test_a_clover_may_change_the_chest_object():
    c = race("thief", "knight")
    assert c.inv[0]["clover"] == 1
    c.pos[0] = (5, 2)
    c.items = {(5, 3): "chest"}
    dice(c, 2, 100)  # even column, 100: gold purse
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    assert c.to_act() == [0] and c.legal_actions(0) == [{"type": "keep"}, {"type": "reroll"}]
    with pytest.raises(IllegalAction, match="clover"):
        c.apply(0, {"type": "step", "dx": 0})
    dice(c, 1)
    events = act(c, 0, {"type": "reroll"})
    assert "clover" in kinds(events) and c.inv[0]["clover"] == 0
    assert c.inv[0]["objects"] == ["magic_spear"]
    assert c.phase == "steps" and c.move["left"] == 1


def test_objects_respawn_at_the_start_of_every_third_turn():
    assert respawn_turns(10) == [4, 7, 10] and respawn_turns(5) == [4]
    c = race("knight", "goblin", turns=10)
    c.taken = {(5, 5)}
    c.turn = 3
    c.index, c.phase = len(c.order) - 1, "resolve"
    events = c._run()
    assert c.turn == 4 and not c.taken and "respawn" in kinds(events)
    assert c.view(None)["respawns"] == [4, 7, 10]


# ---------------------------------------------------------------------- chest objects
def objects_setup(key, chars=("knight", "goblin", "thief")):
    c = race(*chars)
    c.inv[0]["objects"] = [key]
    for inv in c.inv:
        inv["shield"] = 0
    return c


def test_magic_spear_straight_line_blocked_by_rocks_small_shock():
    c = objects_setup("magic_spear")
    c.pos = [(5, 5), (5, 9), (8, 5)]
    c.terrain = {(5, 7): "rock", (3, 5): "barrier"}
    reach = c.reach(0, "magic_spear")
    assert {"seat": 1} not in reach["targets"], "the rock stops the spear"
    assert reach["blocked"] == [[5, 7]]
    assert {"seat": 2} in reach["targets"] and {"cell": [3, 5]} in reach["targets"]
    with pytest.raises(IllegalAction, match="out of the magic spear's reach"):
        c.apply(0, {"type": "use", "object": "magic_spear", "seat": 1})
    dice(c, 2)
    events = act(c, 0, {"type": "use", "object": "magic_spear", "seat": 2})
    assert "hit" in kinds(events) and c.pos[2] == (8, 3)
    assert c.phase == "move" and c.inv[0]["objects"] == []


def test_spear_destroys_a_barrier_and_a_trap():
    c = objects_setup("magic_spear")
    c.inv[0]["objects"] = ["magic_spear", "magic_spear"]
    c.pos = [(5, 5), (0, 0), (1, 0)]
    c.terrain = {(3, 5): "barrier"}
    c.traps = {(5, 8): 1}
    events = act(c, 0, {"type": "use", "object": "magic_spear", "cell": [3, 5]})
    assert (3, 5) in c.destroyed and not c.blocked((3, 5)) and "destroy" in kinds(events)
    c.phase = "objects"
    act(c, 0, {"type": "use", "object": "magic_spear", "cell": [5, 8]})
    assert c.traps == {}


def test_throwing_axe_diagonals_range_3_big_shock():
    c = objects_setup("throwing_axe")
    c.pos = [(5, 5), (7, 7), (5, 9)]
    reach = c.reach(0, "throwing_axe")
    assert {"seat": 1} in reach["targets"] and {"seat": 2} not in reach["targets"]
    dice(c, 4)
    act(c, 0, {"type": "use", "object": "throwing_axe", "seat": 1})
    assert c.pos[1] == (7, 3)


def test_wand_of_fire_passes_over_rocks_range_4_and_sorceress_reaches_2_more():
    c = objects_setup("wand_of_fire")
    c.pos = [(5, 5), (5, 9), (5, 11)]
    c.terrain = {(5, 6): "rock", (5, 7): "rock"}
    reach = c.reach(0, "wand_of_fire")
    assert {"seat": 1} in reach["targets"] and {"seat": 2} not in reach["targets"]
    assert reach["blocked"] == []
    s = race("sorceress", "goblin", "dwarf")
    s.pos = [(5, 5), (5, 9), (5, 11)]
    assert {"seat": 2} in s.reach(0, "wand_of_fire")["targets"]
    dice(c, 3)
    act(c, 0, {"type": "use", "object": "wand_of_fire", "seat": 1})
    assert c.pos[1] == (5, 8), "big shock (D6=3) straight up, the rocks are further up"


def test_ring_of_fire_hits_everything_within_2():
    c = objects_setup("ring_of_fire")
    c.pos = [(5, 5), (6, 7), (5, 3)]
    c.terrain = {(4, 4): "barrier", (5, 4): "rock"}
    c.traps = {(7, 5): 2}
    dice(c, 1, 1)
    events = act(c, 0, {"type": "use", "object": "ring_of_fire"})
    assert (4, 4) in c.destroyed and not c.traps
    assert c.pos[1] == (6, 6) and c.pos[2] == (5, 2)
    assert len([e for e in events if e["type"] == "hit"]) == 2


def test_ruling_24_fire_and_gloves_reach_an_opponent_on_the_users_square_spears_do_not():
    c = objects_setup("ring_of_fire")
    c.pos = [(5, 5), (5, 5), (0, 15)]
    c.inv[1]["clover"] = 1
    assert {"type": "use", "object": "ring_of_fire"} in c.legal_actions(0)
    for key in ("wand_of_fire", "stealing_gloves"):
        assert {"seat": 1} in c.reach(0, key)["targets"], key
    for key in ("magic_spear", "throwing_axe"):
        assert {"seat": 1} not in c.reach(0, key)["targets"], key
    c.started[1] = False
    assert c.reach(0, "wand_of_fire")["targets"] == [], "protection still holds"
    c.started[1] = True
    dice(c, 2)
    events = act(c, 0, {"type": "use", "object": "ring_of_fire"})
    assert [e["seat"] for e in events if e["type"] == "hit"] == [1]
    assert c.pos[1] == (5, 3) and c.pos[0] == (5, 5)


def test_ring_of_fire_needs_something_in_range():
    c = objects_setup("ring_of_fire")
    c.pos = [(5, 5), (0, 15), (9, 15)]
    assert {"type": "use", "object": "ring_of_fire"} not in c.legal_actions(0)
    with pytest.raises(IllegalAction, match="Nothing is within reach"):
        c.apply(0, {"type": "use", "object": "ring_of_fire"})


def test_trap_is_set_on_the_racers_square_and_big_shocks_the_first_to_arrive():
    c = objects_setup("trap")
    c.pos = [(5, 5), (5, 2), (0, 0)]
    act(c, 0, {"type": "use", "object": "trap"})
    assert c.traps == {(5, 5): 0}
    move(c, 0, 1, 0)
    assert c.to_act() == [1]
    dice(c, 4, 2)
    act(c, 1, {"type": "roll"})
    act(c, 1, {"type": "step", "dx": 0})
    act(c, 1, {"type": "step", "dx": 0})
    events = act(c, 1, {"type": "step", "dx": 0})
    assert c.traps == {}
    assert "trap_sprung" in kinds(events) and c.pos[1] == (5, 3)
    assert c.to_act() == [2], "the trap ends the move"


def test_stealing_gloves_use_the_theft_die():
    c = objects_setup("stealing_gloves")
    c.pos = [(5, 5), (6, 6), (0, 15)]
    c.inv[1]["shield"] = 1
    dice(c, 51)
    events = act(c, 0, {"type": "use", "object": "stealing_gloves", "seat": 1})
    assert next(e for e in events if e["type"] == "steal")["stolen"] is None
    c = objects_setup("stealing_gloves")
    c.pos = [(5, 5), (6, 6), (0, 15)]
    c.inv[1]["shield"] = 1
    dice(c, 50)
    act(c, 0, {"type": "use", "object": "stealing_gloves", "seat": 1})
    assert c.inv[0]["shield"] == 1 and c.inv[1]["shield"] == 0
    # An opponent with nothing to take is no target.
    c = objects_setup("stealing_gloves")
    c.pos = [(5, 5), (6, 6), (0, 15)]
    assert c.reach(0, "stealing_gloves")["targets"] == []


def test_thief_nimble_fingers_75_and_cannot_take_shields():
    c = objects_setup("stealing_gloves", ("thief", "knight"))
    c.pos = [(5, 5), (6, 6)]
    c.inv[1]["shield"] = 1
    assert c.reach(0, "stealing_gloves")["targets"] == [], "the thief cannot carry shields"
    c.inv[1]["objects"] = ["trap"]
    dice(c, 75)
    act(c, 0, {"type": "use", "object": "stealing_gloves", "seat": 1})
    assert c.inv[0]["objects"] == ["trap"]


def test_haste_cloak_and_purse():
    c = objects_setup("haste_potion")
    act(c, 0, {"type": "use", "object": "haste_potion"})
    assert c.legal_actions(0) == [{"type": "roll"}]
    move(c, 0, 3)
    assert c.move["left"] == 5
    c = objects_setup("mist_cloak")
    act(c, 0, {"type": "use", "object": "mist_cloak"})
    assert c.protected(0) and c.view(None)["racers"][0]["cloaked"]
    c.pos = [(5, 5), (5, 4), (0, 0)]
    move(c, 0, 1, 0)  # cloaked racers neither attack nor are attacked
    assert c.to_act() == [1]
    c.inv[1]["objects"] = ["magic_spear"]
    assert c.reach(1, "magic_spear")["targets"] == []
    c = objects_setup("gold_purse")
    act(c, 0, {"type": "use", "object": "gold_purse"})
    assert c.points[0] == 2 and c.tally[0]["purses"] == 2


def test_cloak_fades_at_the_start_of_the_racers_next_turn():
    c = race("knight", "goblin")
    c.cloaked[0] = True
    c.index, c.phase = 1, "resolve"
    c._run()
    assert c.to_act() == [0] and not c.cloaked[0]


# ---------------------------------------------------------------------- characters
def test_goblin_scrounger_gets_better_chests():
    c = race("goblin", "knight")
    c.points = [5, 0]
    assert c.mood(0) == "even", "the leader's malus becomes even"
    c.points = [0, 0]
    assert c.mood(0) == "bonus"
    c.points = [0, 5]
    assert c.mood(0) == "bonus"
    c.pos[0] = (5, 2)
    c.items = {(5, 3): "coin"}
    move(c, 0, 1, 0)
    assert c.points[0] == 2, "a coin is worth 2 to everyone"


def test_thief_cannot_pick_up_shields():
    c = race("thief", "knight")
    c.pos[0] = (5, 2)
    c.items = {(5, 3): "shield"}
    move(c, 0, 1, 0)
    assert c.inv[0]["shield"] == 0 and c.item_at((5, 3)) == "shield"


@pytest.mark.parametrize("char,roll,distance", [("elf", 2, 3), ("dwarf", 2, 1), ("dwarf", 1, 0),
                                                 ("knight", 2, 2)])
def test_light_elf_recoils_further_steady_dwarf_less(char, roll, distance):
    c = race("goblin", char)
    c.inv[1]["shield"] = 0
    c.pos[1] = (5, 10)
    dice(c, roll)
    c.agenda = [{"t": "shock", "seat": 1, "size": "small", "shield": True, "why": "a test"}]
    c._run()
    assert c.pos[1] == (5, 10 - distance)


def test_knight_is_unlucky_with_chests():
    c = race("knight", "goblin")
    c.points = [0, 5]
    assert c.mood(0) == "even"
    c.points = [0, 0]
    assert c.mood(0) == "malus"


def test_every_character_ability_and_weakness_is_known_to_the_rules():
    from game.fantasy_racing.data import ABILITIES, WEAKNESSES
    used = {a for ch in CHARACTERS.values() for a in ch["abilities"]}
    assert used == ABILITIES
    assert {ch["weakness"] for ch in CHARACTERS.values()} == WEAKNESSES
    source = open(RacingController.__module__.replace(".", "/") + ".py").read()
    for word in ABILITIES | WEAKNESSES:
        assert f'"{word}"' in source, word


# ---------------------------------------------------------------------- refusals and views
def test_illegal_actions_are_refused_with_reasons():
    c = race("knight", "goblin")
    with pytest.raises(IllegalAction, match="Roll the movement die first"):
        c.apply(0, {"type": "step", "dx": 0})
    with pytest.raises(IllegalAction, match="no magic spear"):
        c.apply(0, {"type": "use", "object": "magic_spear", "seat": 1})
    with pytest.raises(IllegalAction, match="Choose one of your objects"):
        c.apply(0, {"type": "use", "object": "sword"})
    with pytest.raises(IllegalAction, match="Choose one of your objects"):
        c.apply(0, {"type": "use", "object": ["trap"]})
    with pytest.raises(IllegalAction, match="not possible"):
        c.apply(0, {"type": "dance"})
    c.inv[0]["objects"] = ["magic_spear", "trap"]
    with pytest.raises(IllegalAction, match="Choose a target"):
        c.apply(0, {"type": "use", "object": "magic_spear"})
    with pytest.raises(IllegalAction, match="takes no target"):
        c.apply(0, {"type": "use", "object": "trap", "seat": 1})
    with pytest.raises(IllegalAction, match="no such racer"):
        c.apply(0, {"type": "use", "object": "magic_spear", "seat": 9})
    with pytest.raises(IllegalAction, match=r"\[x, y\]"):
        c.apply(0, {"type": "use", "object": "magic_spear", "cell": "here"})
    with pytest.raises(IllegalAction, match="no barrier or trap"):
        c.apply(0, {"type": "use", "object": "magic_spear", "cell": [5, 5]})
    c.traps[c.pos[0]] = 1
    with pytest.raises(IllegalAction, match="already a trap"):
        c.apply(0, {"type": "use", "object": "trap"})
    assert c.inv[0]["objects"] == ["magic_spear", "trap"], "nothing changed"


def test_views_are_the_same_for_everyone_and_plain_data():
    m = Match.new("fantasy_racing", [{"name": "A", "kind": "human"}, {"name": "B", "kind": "bot"}],
                  seed=1, options={"characters": "random"})
    m.act(0, {"type": "deal"})
    a, b, pub = m.view(0), m.view(1), m.view(None)
    for v in (a, b):
        v.pop("viewer")
    pub.pop("viewer")
    assert a == b == pub
    yaml.safe_dump(m.view(0))
    yaml.safe_dump(m.snapshot())
    assert RacingController.has_secrets is False


# ---------------------------------------------------------------------- more rulings
def test_ruling_7_no_step_no_fight():
    c = race("knight", "goblin")
    c.pos = [(4, 3), (4, 3)]
    c.terrain = {(3, 4): "rock", (4, 4): "barrier", (5, 4): "rock"}
    events = move(c, 0, 4)
    assert "fight" not in kinds(events) and c.to_act() == [1]


def test_ruling_9_a_shortcut_jump_onto_a_shortcut_does_not_jump_again():
    c = race("knight", "goblin")
    c.pos[0] = (4, 7)
    c.terrain = {(4, 8): "shortcut", (4, 10): "shortcut"}
    dice(c, 1, 6)  # +2 onto the second shortcut: no second D10
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert c.pos[0] == (4, 10) and [e["die"] for e in events if e["type"] == "dice"] == ["D10"]


def test_ruling_11_the_trap_owner_is_not_immune_and_recoils_spring_traps_where_they_end():
    c = race("knight", "goblin")
    c.traps = {(5, 8): 0}
    c.pos[0] = (5, 10)
    dice(c, 2, 1)  # a small shock of 2 ends on the trap: big shock 1
    c.agenda = [{"t": "shock", "seat": 0, "size": "small", "shield": True, "why": "a test"}]
    events = c._run()
    assert "trap_sprung" in kinds(events) and c.traps == {} and c.pos[0] == (5, 7)
    c = race("knight", "goblin")
    c.traps = {(5, 9): 1}
    c.pos[0] = (5, 10)
    dice(c, 2)  # passes over the trap at (5, 9) and ends at (5, 8)
    c.agenda = [{"t": "shock", "seat": 0, "size": "small", "shield": True, "why": "a test"}]
    c._run()
    assert c.traps == {(5, 9): 1} and c.pos[0] == (5, 8)


def test_ruling_12_recoils_pick_up_only_where_they_end():
    c = race("knight", "goblin")
    c.items = {(5, 9): "coin", (5, 8): "clover"}
    c.pos[0] = (5, 10)
    dice(c, 2)
    c.agenda = [{"t": "shock", "seat": 0, "size": "small", "shield": True, "why": "a test"}]
    c._run()
    assert c.points[0] == 0 and c.inv[0]["clover"] == 1 and c.taken == {(5, 8)}


def test_ruling_13_broken_barriers_and_traps_stay_after_a_respawn():
    c = race("knight", "goblin", turns=10)
    c.terrain = {(2, 2): "barrier"}
    c.destroyed = {(2, 2)}
    c.traps = {(3, 3): 1}
    c.taken = {(4, 4)}
    c.turn, c.index, c.phase = 6, 1, "resolve"
    c._run()
    assert c.turn == 7 and c.taken == set() and c.destroyed == {(2, 2)} and c.traps == {(3, 3): 1}


def test_ruling_14_climbing_out_of_a_hole_onto_a_racer_the_occupant_attacks():
    c = race("knight", "goblin")
    c.pos = [(4, 2), (4, 4)]
    c.terrain = {(4, 5): "hole"}
    dice(c, 3, 10, 1)  # ends on the hole, climbs out onto the goblin; the goblin rolls 10
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        events = act(c, 0, {"type": "step", "dx": 0})
    fight = next(e for e in events if e["type"] == "fight")
    assert fight["attacker"] == 1 and fight["defender"] == 0


def test_ruling_14_one_fight_per_opponent_in_seat_order():
    c = race("knight", "goblin", "dwarf")
    c.pos = [(5, 3), (5, 6), (5, 6)]
    for inv in c.inv:
        inv["shield"] = 0
    # knight beats the goblin (50), who recoils 2; she stays; she loses to the dwarf (1) and
    # recoils 1.
    dice(c, 3, 50, 2, 1, 1)
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    act(c, 0, {"type": "step", "dx": 0})
    events = act(c, 0, {"type": "step", "dx": 0})
    events += act(c, 0, {"type": "tactical", "dx": 0})
    fights = [(e["attacker"], e["defender"]) for e in events if e["type"] == "fight"]
    assert fights == [(0, 1), (0, 2)]


def test_ruling_18_the_start_line_stops_recoils_so_laps_are_never_lost():
    c = race("knight", "goblin")
    c.pos[0], c.laps[0] = (5, 1), 1
    dice(c, 6)
    c.agenda = [{"t": "shock", "seat": 0, "size": "big", "shield": True, "why": "a test"}]
    c._run()
    assert c.pos[0] == (5, 0) and c.laps[0] == 1


def test_reach_wraps_round_the_board_without_duplicate_targets():
    c = objects_setup("magic_spear")
    c.pos = [(0, 5), (6, 5), (0, 0)]  # six squares away both to the left and to the right
    targets = c.reach(0, "magic_spear")["targets"]
    assert targets.count({"seat": 1}) == 1
    assert [a for a in c.legal_actions(0) if a.get("seat") == 1] == [
        {"type": "use", "object": "magic_spear", "seat": 1}]
    c.pos = [(0, 5), (10, 5), (0, 0)]  # two squares to the left, round the edge
    assert {"seat": 1} in c.reach(0, "magic_spear")["targets"]


# ---------------------------------------------------------------------- the skid (tactical move)
def skid_setup(**things):
    """The knight moves 3 onto the goblin, wins (50), the goblin recoils 2; her skid right
    lands on (6, 6), where ``things`` are placed."""
    c = fight_setup()
    c.terrain = things.get("terrain", {})
    c.items = things.get("items", {})
    c.traps = things.get("traps", {})
    dice(c, 3, 50, 2)
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        act(c, 0, {"type": "step", "dx": 0})
    assert c.pending["kind"] == "tactical" and c.pos == [(5, 6), (5, 4)]
    return c


def test_a_skid_ending_on_a_hole_falls_in():
    """"ends a movement (normal movement, shock, skid, etc.) on a hole": the skid too."""
    c = skid_setup(terrain={(6, 6): "hole"})
    events = act(c, 0, {"type": "tactical", "dx": 1})
    assert kinds(events)[:2] == ["tactical", "fall"]
    assert c.pos[0] == (6, 5) and c.points[0] == 3 - 2 and c.tally[0]["holes"] == -2


def test_a_skid_ending_on_a_shortcut_takes_it():
    c = skid_setup(terrain={(6, 6): "shortcut"})
    dice(c, 9)
    events = act(c, 0, {"type": "tactical", "dx": 1})
    assert "shortcut" in kinds(events) and c.pos[0] == (6, 11)


def test_a_skid_springs_a_trap_and_picks_up_what_lies_where_it_ends():
    c = skid_setup(traps={(6, 6): 1})
    dice(c, 2)
    events = act(c, 0, {"type": "tactical", "dx": 1})
    assert "trap_sprung" in kinds(events) and c.pos[0] == (6, 4) and c.traps == {}
    assert next(e for e in events if e["type"] == "shock")["size"] == "big"
    c = skid_setup(items={(6, 6): "coin"})
    act(c, 0, {"type": "tactical", "dx": 1})
    assert c.points[0] == 3 + 2 and (6, 6) in c.taken


def test_ruling_17_after_a_fight_theft_then_shock_then_tactical_move():
    c = fight_setup("thief", "knight")
    c.inv[1]["objects"] = ["trap"]
    dice(c, 3, 60, 10, 2)  # thief wins (60), theft 10 succeeds, the knight recoils 2
    act(c, 0, {"type": "roll"})
    for _ in range(3):
        events = act(c, 0, {"type": "step", "dx": 0})
    order = [e["type"] for e in events if e["type"] in ("fight", "steal", "shock", "recoil")]
    assert order == ["fight", "steal", "shock", "recoil"]
    assert c.pending["kind"] == "tactical" and c.pending["seat"] == 0
    assert c.inv[0]["objects"] == ["trap"] and c.pos[1] == (5, 4)
