"""TRAP: Mothership Fantasia: setup, every action, trap, ability, immunity and ruling.

Scenario tests lay a known floor: every tile face-down and safe except the
ones named, then play actions through the match as players would.

The floor (x 4..10, y 3..9; S start, F finish, T tile space, . gap)::

    y3  .TTTTT.
    y4  TTT.TTT
    y5  T.T.T.T
    y6  STT.T.F
    y7  T.T.T.T
    y8  T.T.TTT
    y9  .TTTTTT
"""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from game.engine import IllegalAction, Match
from game.mothership.data import (CHARACTERS, DATA, DIFFICULTIES, ENDINGS, LAYOUT, TRAPS,
                                  load_layout)
from game.mothership.kernel import distances, neighbours
from game.mothership.rules import MothershipController, ending_key
from game.engine.events import audience, reveals

NAMES = ["Ada", "Bram", "Cleo", "Dov"]
S, F = LAYOUT.start, LAYOUT.finish
E1, E2 = (5, 6), (6, 6)          # east of the start
N1, N2 = (4, 5), (4, 4)          # north of the start
S1, S2 = (4, 7), (4, 8)          # south of the start


def new(seats: int = 2, difficulty: str = "easy", seed: int = 1) -> Match:
    return Match.new("mothership", [{"name": n, "kind": "human"} for n in NAMES[:seats]],
                     seed=seed, options={"difficulty": difficulty})


def scenario(chars=("knight", "mage"), floor=None, up=(), seed: int = 1) -> Match:
    """A match past character choice with a known floor (all safe unless named)."""
    m = new(len(chars), seed=seed)
    for seat, char in enumerate(chars):
        m.act(seat, {"type": "choose", "character": char})
    c = m.controller
    floor = dict(floor or {})
    for cell in LAYOUT.tile_spaces:
        c.tiles[cell] = {"kind": floor.get(cell, "safe"), "up": cell in up, "done": False,
                         "disarmed_until": None}
    c.objectives_total = sum(1 for k in floor.values() if k == "objective")
    return m


def act(m: Match, action: dict, seat: int | None = None) -> list[dict]:
    return m.act(m.to_act()[0] if seat is None else seat, action)


def move(m: Match, cell, seat=None):
    return act(m, {"type": "move", "to": list(cell)}, seat)


def end(m: Match):
    return act(m, {"type": "end"})


def refused(m: Match, action: dict, words: str, seat=None) -> None:
    with pytest.raises(IllegalAction) as err:
        act(m, action, seat)
    assert words.lower() in err.value.reason.lower()
    assert action not in m.legal_actions(m.to_act()[0])


def seat_view(m: Match, seat: int) -> dict:
    return m.view(None)["seats"][seat]


def finish_round(m: Match) -> None:
    """End turns until a new round starts."""
    start = m.controller.round
    while m.controller.round == start and not m.is_over():
        end(m)


# ----------------------------------------------------------------------- setup
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_setup_lays_the_difficulty_of_fig_1(difficulty):
    m = new(3, difficulty)
    c = m.controller
    kinds = Counter(t["kind"] for t in c.tiles.values())
    level = DIFFICULTIES[difficulty]
    assert len(c.tiles) == 33 and not any(t["up"] for t in c.tiles.values())
    assert kinds["safe"] == level["safe"] and kinds["objective"] == level["objective"]
    assert sum(kinds[t] for t in TRAPS) == level["trap"]
    assert {(k["safe"], k["trap"], k["objective"]) for k in [level]} <= {
        (23, 8, 2), (19, 10, 4), (15, 12, 6)}
    box = DATA["box"]
    assert all(kinds[t] <= box["traps"][t] for t in TRAPS)
    pile = Counter("safe" if k == "safe" else "trap" for k in c.draw_pile)
    assert pile == {"safe": 3, "trap": 3}
    # Every tile of the box is somewhere: laid, in the draw pile or left in the box.
    assert 33 + len(c.draw_pile) + c.box_left == 30 + 6 + 20


def test_difficulty_is_an_option_with_three_levels():
    option = MothershipController.options[0]
    assert option.key == "difficulty" and option.choices == ("easy", "medium", "hard")
    with pytest.raises(IllegalAction):
        Match.new("mothership", [{"name": "A"}, {"name": "B"}], options={"difficulty": "x"})


@pytest.mark.parametrize("seats,place", [(2, 1), (3, 2), (4, 3)])
def test_tracker_starts_lower_with_more_seats(seats, place):
    m = new(seats)
    assert m.view()["tracker"]["place"] == place and m.view()["tracker"]["places"] == 12


def test_seat_counts():
    for bad in (1, 5):
        with pytest.raises(IllegalAction):
            Match.new("mothership", [{"name": f"P{i}"} for i in range(bad)])


def test_characters_are_chosen_in_seat_order_each_at_most_once():
    m = new(3)
    assert m.to_act() == [0] and m.view()["phase"] == "characters"
    assert len(m.legal_actions(0)) == 6
    act(m, {"type": "choose", "character": "thief"})
    refused(m, {"type": "choose", "character": "thief"}, "already taken")
    refused(m, {"type": "choose", "character": "wizard"}, "choose one of")
    refused(m, {"type": "move", "to": list(E1)}, "chooses a character")
    act(m, {"type": "choose", "character": "mage"})
    assert {"type": "choose", "character": "thief"} not in m.legal_actions(2)
    act(m, {"type": "choose", "character": "knight"})
    view = m.view()
    assert view["phase"] == "play" and view["current"] == 0
    assert [s["ap"] for s in view["seats"]] == [4, 4, 4]
    assert all(s["cell"] == list(S) for s in view["seats"])


# --------------------------------------------------------------------- privacy
def test_face_down_tiles_are_hidden_from_every_view_and_status():
    m = scenario(floor={E1: "freeze", N1: "objective"})
    before = [m.view(None), m.view(0), m.view(1)]
    status = m.status()
    for view in before:
        assert all(s["kind"] is None for s in view["spaces"] if s["state"] == "down")
    # Swap what lies face down: nobody can tell.
    c = m.controller
    c.tiles[E1]["kind"], c.tiles[N1]["kind"] = "safe", "sever"
    assert [m.view(None), m.view(0), m.view(1)] == before and m.status() == status
    assert m.cls.has_secrets is False


def test_the_log_never_names_a_face_down_tile():
    m = scenario(floor={E1: "fear", E2: "jettison"})
    events = move(m, N1)
    assert all("fear" not in e["text"].lower() and "jettison" not in e["text"].lower()
               for e in events)
    events = act(m, {"type": "peek", "at": list(N2)})
    assert events[0]["type"] == "flip" and reveals(events[0]) and "Safe" in events[0]["text"]


def test_views_and_events_are_plain_data():
    m = scenario(floor={E1: "mystery"})
    events = move(m, E1)
    yaml.safe_dump({"view": m.view(None), "events": events, "snap": m.snapshot()})


# ------------------------------------------------------------------------ moves
def test_move_orthogonally_onto_tiles_only():
    m = scenario()
    refused(m, {"type": "move", "to": [5, 5]}, "not diagonally")   # diagonal (and a gap)
    refused(m, {"type": "move", "to": [6, 6]}, "not diagonally")   # two away
    events = move(m, E1)
    assert len(events) == 1 and events[0]["type"] == "move" and reveals(events[0])
    assert "moves onto a face-down tile: it is a Safe tile" in events[0]["text"]
    assert m.view()["seats"][0]["ap"] == 3
    refused(m, {"type": "move", "to": [5, 5]}, "not a tile")       # a gap
    assert {"type": "move", "to": list(S)} in m.legal_actions(0)   # back to the start


def test_a_move_onto_a_face_down_tile_flips_it_and_it_acts():
    m = scenario(floor={E1: "blind"})
    events = move(m, E1)
    assert [e["type"] for e in events] == ["move", "trap"]
    assert events[0]["tile"] == "blind" and m.view()["seats"][0]["blind"]


def test_traps_act_every_time_they_are_entered():
    m = scenario(chars=("mage", "thief"), floor={E1: "corrode"}, up=[E1])
    move(m, E1)
    assert seat_view(m, 0)["corroded"]
    move(m, S)             # 2 AP to leave
    assert seat_view(m, 0)["ap"] == 1 and not seat_view(m, 0)["corroded"]
    move(m, E1)
    assert seat_view(m, 0)["corroded"] and m.to_act() == [1]


def test_finish_is_locked_until_every_generator_is_deactivated():
    m = scenario(chars=("knight", "mage"), floor={(10, 5): "objective"}, up=[(10, 5)])
    c = m.controller
    c.pos[0] = (10, 5)
    refused(m, {"type": "move", "to": list(F)}, "locked")
    events = act(m, {"type": "deactivate"})
    assert [e["type"] for e in events] == ["deactivate", "unlock"]
    refused(m, {"type": "deactivate"}, "already deactivated")
    assert m.view()["finish_open"]
    events = move(m, F)
    assert any(e["type"] == "escape" for e in events)
    assert seat_view(m, 0)["escaped"] and m.to_act() == [1]


def test_deactivate_needs_a_generator_underfoot():
    m = scenario()
    refused(m, {"type": "deactivate"}, "stand on a generator")


# ----------------------------------------------------------------------- peeks
def test_peek_flips_without_acting_and_is_public():
    m = scenario(floor={E1: "freeze"})
    events = act(m, {"type": "peek", "at": list(E1)})
    assert events[0]["type"] == "flip" and reveals(events[0]) and audience(events[0]) is None
    view = m.view(None)
    assert next(s for s in view["spaces"] if s["cell"] == list(E1))["kind"] == "freeze"
    assert not seat_view(m, 0)["frozen"] and seat_view(m, 0)["ap"] == 3
    refused(m, {"type": "peek", "at": list(E1)}, "no face-down tile")
    refused(m, {"type": "peek", "at": [6, 6]}, "next to you")
    assert not m.can_undo(), "a peek reveals: it cannot be undone"


def test_blind_cannot_peek_not_even_the_ranger():
    m = scenario(chars=("ranger", "knight"), floor={E1: "blind"})
    move(m, E1)
    refused(m, {"type": "peek", "at": list(E2)}, "blind")
    refused(m, {"type": "far_peek", "at": [6, 4]}, "blind")


# ---------------------------------------------------------------------- defer
def test_defer_costs_one_and_the_deferred_act_after_everyone():
    m = scenario(chars=("knight", "mage", "thief"))
    events = act(m, {"type": "defer"})
    assert "keeping 3 AP" in events[0]["text"] and m.to_act() == [1]
    act(m, {"type": "defer"})            # Bram keeps 3 as well
    end(m)                               # Cleo ends her turn
    assert m.to_act() == [0] and m.view()["stage"] == "deferred"
    assert seat_view(m, 0)["ap"] == 3
    refused(m, {"type": "defer"}, "already deferred")
    end(m)
    assert m.to_act() == [1]
    end(m)
    assert m.view()["round"] == 2 and m.to_act() == [0] and seat_view(m, 0)["ap"] == 4


def test_defer_needs_two_ap():
    m = scenario()
    move(m, N1)
    move(m, S)
    move(m, N1)
    refused(m, {"type": "defer"}, "at least 2 AP")


def test_a_turn_may_end_with_ap_unspent_and_ends_itself_at_zero():
    m = scenario()
    events = end(m)
    assert "leaving 4 AP unspent" in events[0]["text"] and m.to_act() == [1]
    for cell in (N1, S, N1, S):
        move(m, cell)
    assert m.to_act() == [0] and m.view()["round"] == 2


# --------------------------------------------------------------- the traps
def test_blind_lasts_the_whole_game_and_assist_does_not_cure_it():
    m = scenario(chars=("knight", "mage"), floor={E1: "blind"})
    move(m, E1)
    finish_round(m)
    finish_round(m)
    assert seat_view(m, 0)["blind"]
    assert m.view()["tokens"]["blind"] == DATA["tokens"]["blind"] - 1
    end(m)
    m.controller.pos[1] = E1
    refused(m, {"type": "assist", "seat": 0}, "not frozen, confused or afraid")


def test_confused_may_only_step_towards_the_nearest_face_down_tile():
    up = [c for c in LAYOUT.tile_spaces if c not in ((8, 6), (8, 4))]
    m = scenario(chars=("mage", "thief"), floor={E1: "confuse"}, up=up)
    move(m, E1)
    view = m.view()
    assert seat_view(m, 0)["confused"]
    legal = m.legal_actions(0)
    assert {a["type"] for a in legal} == {"move", "defer", "end"}
    # From (5,6) the nearest face-down tile is (8,4): 5 steps via (6,6)/(6,5)/(6,4)...
    assert [a["to"] for a in legal if a["type"] == "move"] == [[6, 6]]
    assert view["pull"] == [[6, 6]]
    refused(m, {"type": "move", "to": list(S)}, "shortest way")
    refused(m, {"type": "skip", "to": [5, 4]}, "confused")
    refused(m, {"type": "peek", "at": [6, 6]}, "confused")


def test_confusion_ends_when_no_face_down_tile_is_left():
    up = [c for c in LAYOUT.tile_spaces if c != E2]
    m = scenario(chars=("mage", "thief"), floor={E1: "confuse"}, up=up)
    move(m, E1)
    assert seat_view(m, 0)["confused"]
    events = move(m, E2)
    assert any(e["type"] == "calm" and e["effect"] == "confuse" for e in events)
    assert not seat_view(m, 0)["confused"]
    assert m.view()["tokens"]["confuse"] == DATA["tokens"]["confuse"]


def test_confusion_with_nothing_face_down_does_nothing():
    up = [c for c in LAYOUT.tile_spaces]
    m = scenario(chars=("mage", "thief"), floor={E1: "confuse"}, up=up)
    events = move(m, E1)
    assert not seat_view(m, 0)["confused"] and "no face-down tile" in events[-1]["text"]


def test_fear_pulls_back_to_the_start_until_reached():
    m = scenario(chars=("mage", "thief"), floor={(6, 5): "fear"}, up=[E1, E2, (6, 5)])
    move(m, E1)
    move(m, E2)
    move(m, (6, 5))
    assert seat_view(m, 0)["afraid"]
    end(m)
    end(m)
    assert [a["to"] for a in m.legal_actions(0) if a["type"] == "move"] == [[6, 6]]
    refused(m, {"type": "move", "to": [6, 4]}, "afraid")
    move(m, E2)
    move(m, E1)
    events = move(m, S)
    assert any(e["type"] == "calm" for e in events) and not seat_view(m, 0)["afraid"]


def test_assist_removes_freeze_confusion_and_fear_of_a_neighbour():
    m = scenario(chars=("mage", "thief"), floor={E1: "freeze"})
    move(m, E1)
    assert seat_view(m, 0)["frozen"]
    refused(m, {"type": "move", "to": list(E2)}, "frozen")
    end(m)
    m.controller.afraid[0] = True
    m.controller.tokens["fear"] -= 1
    refused(m, {"type": "assist", "seat": 1}, "another player")
    refused(m, {"type": "assist", "seat": 5}, "say which seat")
    m.controller.pos[1] = (6, 4)
    refused(m, {"type": "assist", "seat": 0}, "not next to you")
    m.controller.pos[1] = S
    events = act(m, {"type": "assist", "seat": 0})
    assert set(events[0]["effects"]) == {"freeze", "fear"}
    view = seat_view(m, 0)
    assert not view["frozen"] and not view["afraid"] and seat_view(m, 1)["ap"] == 3
    assert m.view()["tokens"]["freeze"] == DATA["tokens"]["freeze"]


def test_a_confused_player_cannot_assist():
    m = scenario(chars=("mage", "thief"), floor={E1: "confuse"})
    m.controller.frozen[1] = 1
    move(m, E1)
    refused(m, {"type": "assist", "seat": 1}, "confused")


def test_freeze_lasts_this_round_and_the_next():
    m = scenario(chars=("mage", "thief"), floor={E1: "freeze"})
    move(m, E1)
    finish_round(m)
    assert seat_view(m, 0)["frozen"] and m.view()["round"] == 2
    refused(m, {"type": "move", "to": list(E2)}, "frozen")
    refused(m, {"type": "skip", "to": [7, 6]}, "frozen")
    act(m, {"type": "peek", "at": list(E2)})     # peeking is still allowed
    end(m)
    end(m)
    assert m.view()["round"] == 3 and not seat_view(m, 0)["frozen"]
    move(m, E2)


def test_the_knight_breaks_free_for_one_ap_from_the_next_round():
    m = scenario(chars=("knight", "mage"), floor={E1: "freeze"})
    move(m, E1)
    refused(m, {"type": "break_free"}, "round after")
    finish_round(m)
    act(m, {"type": "break_free"})
    assert not seat_view(m, 0)["frozen"] and seat_view(m, 0)["ap"] == 3
    refused(m, {"type": "break_free"}, "not frozen")
    move(m, E2)
    # Not once a round: freeze again, then break free again next round.
    m2 = scenario(chars=("mage", "knight"), floor={E1: "freeze"})
    end(m2)
    refused(m2, {"type": "break_free"}, "not frozen")


def test_corrode_costs_one_more_to_leave_and_the_barbarian_pays_nothing():
    m = scenario(chars=("mage", "barbarian"), floor={E1: "corrode", N1: "corrode"})
    move(m, E1)
    assert seat_view(m, 0)["corroded"]
    move(m, S)
    assert seat_view(m, 0)["ap"] == 1
    end(m)
    move(m, N1)
    assert not seat_view(m, 1)["corroded"]
    move(m, S)
    assert seat_view(m, 1)["ap"] == 2


def test_corrode_with_too_little_ap_cannot_be_left():
    m = scenario(chars=("mage", "thief"), floor={E1: "corrode"})
    move(m, N1)
    move(m, S)
    move(m, E1)
    assert seat_view(m, 0)["ap"] == 1 and seat_view(m, 0)["corroded"]
    refused(m, {"type": "move", "to": list(E2)}, "needs 2 AP")
    assert {a["type"] for a in m.legal_actions(0)} == {"peek", "end"}


def test_jettison_removes_the_tile_and_throws_back_to_start():
    m = scenario(chars=("mage", "thief"), floor={E2: "jettison"})
    move(m, E1)
    events = move(m, E2)
    kinds = [e["type"] for e in events]
    assert kinds == ["move", "trap"], "one log line says where the jettison threw"
    assert "thrown back to the start tile" in events[-1]["text"]
    assert events[-1]["target"] == list(S) and events[-1]["riders"] == [0]
    assert m.controller.pos[0] == S and seat_view(m, 0)["ap"] == 2
    space = next(s for s in m.view()["spaces"] if s["cell"] == list(E2))
    assert space["state"] == "gap"
    move(m, E1)
    refused(m, {"type": "move", "to": list(E2)}, "not a tile")


def test_jettison_throws_everyone_standing_on_it():
    m = scenario(chars=("thief", "mage"), floor={E1: "jettison"}, up=[E1])
    act(m, {"type": "sneak", "to": list(E1)})
    assert m.controller.pos[0] == E1
    end(m)
    events = move(m, E1)
    trap = next(e for e in events if e["type"] == "trap")
    assert trap["riders"] == [0, 1]
    assert m.controller.pos == [S, S]


def test_mystery_flipped_by_a_move_lifts_and_the_mover_steps_back():
    m = scenario(chars=("mage", "thief"), floor={E2: "mystery"})
    move(m, E1)
    events = move(m, E2)
    assert [e["type"] for e in events] == ["move", "trap", "move"]
    assert m.controller.pos[0] == E1
    view = m.view()
    space = next(s for s in view["spaces"] if s["cell"] == list(E2))
    assert space["state"] == "lifted" and space["lifted_by"] == 0 and space["until"] == 2
    assert view["seats"][0]["lifted"] == [list(E2)]
    refused(m, {"type": "move", "to": list(E2)}, "not a tile")
    pile = list(m.controller.draw_pile)
    finish_round(m)
    assert next(s for s in m.view()["spaces"] if s["cell"] == list(E2))["state"] == "lifted"
    finish_round(m)
    space = next(s for s in m.view()["spaces"] if s["cell"] == list(E2))
    assert space["state"] == "down" and m.view()["draw_pile"] == 5
    assert m.controller.tiles[E2]["kind"] == pile[0]


def test_mystery_peeked_goes_to_the_peeker_and_an_empty_pile_leaves_a_gap():
    m = scenario(chars=("mage", "thief"), floor={E1: "mystery"})
    m.controller.draw_pile.clear()
    events = act(m, {"type": "peek", "at": list(E1)})
    assert [e["type"] for e in events] == ["flip", "trap"]
    assert m.controller.pos[0] == S and m.controller.lifted[E1]["seat"] == 0
    finish_round(m)
    finish_round(m)
    assert E1 in m.controller.holes and E1 not in m.controller.tiles
    assert next(s for s in m.view()["spaces"] if s["cell"] == list(E1))["state"] == "gap"


def test_sever_lowers_ap_per_round_from_the_next_round_and_stacks():
    m = scenario(chars=("mage", "thief"), floor={E1: "sever"}, up=[E1])
    events = move(m, E1)
    assert seat_view(m, 0)["ap"] == 3, "the AP in hand this turn are kept"
    assert seat_view(m, 0)["ap_per_round"] == 3
    assert "from the next round on, only 3 AP a round" in events[-1]["text"]
    move(m, S)
    move(m, E1)
    assert seat_view(m, 0)["ap_per_round"] == 2 and seat_view(m, 0)["ap"] == 1
    finish_round(m)
    assert seat_view(m, 0)["ap"] == 2
    move(m, S)
    move(m, E1)            # a third token: 1 AP a round, the minimum
    assert seat_view(m, 0)["ap_per_round"] == 1
    finish_round(m)
    assert seat_view(m, 0)["ap"] == 1
    move(m, S)
    finish_round(m)
    events = move(m, E1)
    assert any("cannot take any more" in e["text"] for e in events)
    assert seat_view(m, 0)["ap_per_round"] == 1


def test_sever_does_nothing_when_the_box_has_no_sever_token():
    m = scenario(chars=("mage", "thief"), floor={E1: "sever"})
    m.controller.tokens["sever"] = 0
    events = move(m, E1)
    assert "cannot take" in events[-1]["text"] and seat_view(m, 0)["ap_per_round"] == 4


# ---------------------------------------------------------------- immunities
@pytest.mark.parametrize("trap", ["confuse", "fear"])
def test_the_knight_is_immune_to_confuse_and_fear(trap):
    m = scenario(chars=("knight", "mage"), floor={E1: trap})
    events = move(m, E1)
    assert reveals(events[0]) and events[1]["immune"]
    assert not seat_view(m, 0)["confused"] and not seat_view(m, 0)["afraid"]


@pytest.mark.parametrize("trap", ["blind", "sever"])
def test_the_barbarian_is_immune_to_blind_and_sever(trap):
    m = scenario(chars=("barbarian", "mage"), floor={E1: trap})
    events = move(m, E1)
    assert reveals(events[0]) and events[1]["immune"]
    assert not seat_view(m, 0)["blind"] and seat_view(m, 0)["ap_per_round"] == 4


def test_other_characters_are_not_immune():
    m = scenario(chars=("mage", "knight"), floor={E1: "fear"})
    move(m, E1)
    assert seat_view(m, 0)["afraid"]


# ------------------------------------------------------------------ abilities
def test_mage_skips_over_a_gap_or_a_tile_once_a_round_for_two_ap():
    m = scenario(chars=("mage", "thief"), up=[E1, E2])
    move(m, E1)
    refused(m, {"type": "skip", "to": [8, 6]}, "exactly two")
    refused(m, {"type": "skip", "to": [6, 5]}, "exactly two")          # not straight
    refused(m, {"type": "skip", "to": [3, 6]}, "not a tile")  # over the start, off the floor
    move(m, E2)
    events = act(m, {"type": "skip", "to": [8, 6]})         # over the gap at (7, 6)
    assert m.controller.pos[0] == (8, 6) and seat_view(m, 0)["ap"] == 0
    assert events[0]["how"] == "skip" and reveals(events[0])
    m2 = scenario(chars=("mage", "thief"))
    act(m2, {"type": "skip", "to": [6, 6]})                  # over the tile at (5, 6)
    assert not m2.controller.tiles[E1]["up"], "the tile jumped over is untouched"
    assert seat_view(m2, 0)["ap"] == 2
    refused(m2, {"type": "skip", "to": [6, 4]}, "once a round")
    refused(m2, {"type": "skip", "to": [4, 6]}, "once a round")


def test_mage_skip_rules_for_the_middle_and_the_landing():
    m = scenario(chars=("mage", "thief"), floor={(8, 4): "objective"})
    c = m.controller
    c.pos[0] = (6, 4)
    refused(m, {"type": "skip", "to": [6, 2]}, "not a tile")   # over the gap, off the floor
    c.pos[0] = (5, 6)
    refused(m, {"type": "skip", "to": [5, 8]}, "not a tile")             # lands in a gap
    c.pos[0] = (9, 6)
    refused(m, {"type": "skip", "to": [11, 6]}, "not a tile")  # over the pod, off the floor
    c.pos[0] = (4, 4)
    refused(m, {"type": "skip", "to": [2, 4]}, "over one tile or one gap")  # over bare hull
    c.pos[0] = (8, 6)
    refused(m, {"type": "skip", "to": [10, 6]}, "locked")


def test_mage_skips_over_the_start_tile_and_the_escape_pod():
    # The issue's report: Easy, seed 0, the Mage at [4, 5] skips over the start tile to [4, 7].
    m = new(2, "easy", seed=0)
    act(m, {"type": "choose", "character": "mage"})
    act(m, {"type": "choose", "character": "knight"})
    move(m, N1)
    assert {"type": "skip", "to": [4, 7]} in m.legal_actions(0)
    act(m, {"type": "skip", "to": [4, 7]})
    assert m.controller.pos[0] == S1 and seat_view(m, 0)["ap"] == 1
    # Over the escape pod (locked or open, it is a tile one can jump over), top to bottom.
    m = scenario(chars=("mage", "thief"), floor={(8, 4): "objective"})
    c = m.controller
    c.pos[0] = (10, 5)
    events = act(m, {"type": "skip", "to": [10, 7]})
    assert c.pos[0] == (10, 7) and not c.escaped[0]
    assert events[0]["how"] == "skip"
    # Over a one-tile gap and over a jettisoned space alike.
    m = scenario(chars=("mage", "thief"))
    c = m.controller
    c.pos[0] = E1
    act(m, {"type": "skip", "to": [5, 4]})                  # over the gap at (5, 5)
    assert c.pos[0] == (5, 4)
    m = scenario(chars=("mage", "thief"))
    c = m.controller
    del c.tiles[E2]
    c.holes.add(E2)
    c.pos[0] = (6, 5)
    act(m, {"type": "skip", "to": [6, 7]})                  # over the jettisoned space
    assert c.pos[0] == (6, 7)


def test_mage_can_skip_into_the_open_pod():
    m = scenario(chars=("mage", "thief"), floor={(8, 4): "objective"}, up=[(8, 4)])
    c = m.controller
    c.tiles[(8, 4)]["done"] = True
    c.pos[0] = (8, 6)
    events = act(m, {"type": "skip", "to": list(F)})
    assert any(e["type"] == "escape" for e in events)


def test_ranger_peeks_three_steps_away_once_a_round():
    m = scenario(chars=("ranger", "thief"), floor={(6, 5): "fear"})
    legal = [a["at"] for a in m.legal_actions(0) if a["type"] == "far_peek"]
    assert [6, 5] in legal and [7, 6] not in legal and [6, 7] in legal
    assert all(abs(x - 4) + abs(y - 6) <= 3 for x, y in legal)
    refused(m, {"type": "far_peek", "at": [8, 6]}, "at most 3")
    events = act(m, {"type": "far_peek", "at": [6, 5]})
    assert events[0]["type"] == "flip" and not seat_view(m, 0)["afraid"]
    assert seat_view(m, 0)["ap"] == 3 and seat_view(m, 0)["ability_used"]
    refused(m, {"type": "far_peek", "at": [6, 7]}, "once a round")
    end(m)
    refused(m, {"type": "far_peek", "at": [6, 7]}, "only the ranger")


def test_thief_sneaks_past_a_trap_and_a_face_down_tile_still_flips():
    m = scenario(chars=("thief", "mage"), floor={E1: "fear", E2: "freeze"}, up=[E1])
    events = act(m, {"type": "sneak", "to": list(E1)})
    assert [e["type"] for e in events] == ["move", "sneak"]
    assert not seat_view(m, 0)["afraid"] and seat_view(m, 0)["ap"] == 2
    refused(m, {"type": "sneak", "to": list(E2)}, "once a round")
    finish_round(m)
    events = act(m, {"type": "sneak", "to": list(E2)})
    assert [e["type"] for e in events] == ["move", "sneak"]
    assert not seat_view(m, 0)["frozen"]


def test_thief_sneak_rules():
    m = scenario(chars=("thief", "mage"), floor={E1: "mystery", N1: "corrode"}, up=[S1])
    refused(m, {"type": "sneak", "to": list(S1)}, "no trap")
    events = act(m, {"type": "sneak", "to": list(E1)})      # a Mystery still acts
    assert [e["type"] for e in events] == ["move", "trap", "move"]
    assert m.controller.pos[0] == S
    finish_round(m)
    act(m, {"type": "sneak", "to": list(N1)})               # corrode entered by sneaking
    assert not seat_view(m, 0)["corroded"]
    move(m, S)
    assert seat_view(m, 0)["ap"] == 1


def test_tinkerer_disarms_a_face_up_trap_until_the_end_of_the_next_round():
    m = scenario(chars=("tinkerer", "mage"), floor={E1: "freeze", N1: "fear"}, up=[E1])
    refused(m, {"type": "disarm", "at": list(N1)}, "face-up trap")
    refused(m, {"type": "disarm", "at": list(S1)}, "face-up trap")
    events = act(m, {"type": "disarm", "at": list(E1)})
    assert events[0]["until"] == 2 and seat_view(m, 0)["ap"] == 1
    refused(m, {"type": "disarm", "at": list(E1)}, "once a round")
    end(m)
    events = move(m, E1)                         # the mage walks on: nothing happens
    assert events[-1]["type"] == "safe" and not seat_view(m, 1)["frozen"]
    move(m, S)
    end(m)
    end(m)                                       # round 2: still disarmed
    move(m, E1)
    assert not seat_view(m, 1)["frozen"]
    move(m, S)
    end(m)
    assert m.view()["round"] == 3
    assert m.controller.tiles[E1]["disarmed_until"] is None
    end(m)
    move(m, E1)
    assert seat_view(m, 1)["frozen"], "armed again after the next round"


def test_disarming_a_corrode_tile_frees_whoever_stands_in_it():
    m = scenario(chars=("mage", "tinkerer"), floor={E1: "corrode"})
    move(m, E1)
    end(m)
    act(m, {"type": "disarm", "at": list(E1)})
    end(m)
    assert not seat_view(m, 0)["corroded"]
    move(m, S)
    assert seat_view(m, 0)["ap"] == 3


def test_abilities_belong_to_their_character():
    m = scenario(chars=("knight", "mage"))
    for action, owner in (({"type": "skip", "to": [6, 6]}, "mage"),
                          ({"type": "sneak", "to": list(E1)}, "thief"),
                          ({"type": "disarm", "at": list(E1)}, "tinkerer"),
                          ({"type": "far_peek", "at": list(E1)}, "ranger")):
        refused(m, action, f"only the {owner}")


# ------------------------------------------------------------------ the end
def test_tracker_runs_out_after_eleven_rounds_with_two_seats():
    m = scenario()
    for round_no in range(1, 12):
        assert m.view()["round"] == round_no and not m.is_over()
        finish_round(m)
    assert m.is_over()
    result = m.result()
    assert result["ending"] == "none" and result["place"] == 12 and result["escaped"] == []
    assert result["ending_text"] == ENDINGS["none"] and not result["won"]


@pytest.mark.parametrize("seats,rounds", [(3, 10), (4, 9)])
def test_fewer_rounds_with_more_seats(seats, rounds):
    m = scenario(chars=("knight", "mage", "thief", "ranger")[:seats])
    played = 0
    while not m.is_over():
        finish_round(m)
        played += 1
    assert played == rounds


@pytest.mark.parametrize("seats,escape,key", [
    (4, 0, "none"), (4, 1, "one"), (4, 2, "two"), (4, 3, "three"), (4, 4, "all"),
    (2, 2, "all"), (3, 2, "two"), (3, 3, "all")])
def test_one_ending_for_each_number_escaped(seats, escape, key):
    m = scenario(chars=("knight", "mage", "thief", "ranger")[:seats],
                 floor={(10, 5): "objective"}, up=[(10, 5)])
    c = m.controller
    c.tiles[(10, 5)]["done"] = True
    for s in range(escape):
        c.pos[s] = (10, 5)
    for s in range(escape):
        move(m, F, seat=s)
    while not m.is_over():
        end(m)
    result = m.result()
    assert result["ending"] == key == ending_key(escape, seats)
    assert len(result["escaped"]) == escape and result["ending_text"] == ENDINGS[key]
    assert result["reason"] == ("escaped" if escape == seats else "tracker")
    if escape == seats:
        assert m.view()["round"] == 1


def test_endings_are_our_own_words():
    assert set(ENDINGS) == {"none", "one", "two", "three", "all"}
    assert "Nothing." not in " ".join(ENDINGS.values())
    assert all(len(text) > 80 for text in ENDINGS.values())


def test_status_line():
    m = new(2)
    assert m.status() == "Choosing characters: Ada chooses"
    act(m, {"type": "choose", "character": "knight"})
    act(m, {"type": "choose", "character": "mage"})
    assert m.status() == "Round 1, tracker 1/12: Ada (Knight), 4 AP"
    act(m, {"type": "defer"})
    end(m)
    assert m.status() == "Round 1, tracker 1/12: Ada (Knight), deferred, 3 AP"


def test_unknown_and_malformed_actions_are_refused():
    m = scenario()
    refused(m, {"type": "fly"}, "not an action")
    refused(m, {"type": "move"}, "must be [x, y]")
    refused(m, {"type": "move", "to": "east"}, "must be [x, y]")
    refused(m, {"type": "move", "to": [True, 6]}, "must be [x, y]")
    refused(m, {"type": "assist", "seat": 0}, "another player")
    with pytest.raises(IllegalAction):
        m.act(1, {"type": "end"})


def test_character_data_matches_the_cards():
    assert CHARACTERS["barbarian"]["immune"] == ["blind", "sever"]
    assert CHARACTERS["knight"]["immune"] == ["confuse", "fear"]
    costs = {c: CHARACTERS[c].get("cost") for c in CHARACTERS}
    assert costs == {"barbarian": None, "knight": 1, "mage": 2, "ranger": 1, "thief": 2,
                     "tinkerer": 3}
    assert CHARACTERS["ranger"]["range"] == 3


# ---------------------------------------------------------------- the board
def test_the_real_map_has_33_tile_spaces_all_reachable_and_the_finish_from_each():
    layout = load_layout()
    tiles = set(layout.tile_spaces)
    assert len(tiles) == 33 and len(layout.gaps) == 14
    assert not tiles & layout.gaps and layout.start not in tiles and layout.finish not in tiles
    walk = tiles | {layout.start, layout.finish}
    from_start = distances([layout.start], lambda c: c in walk)
    assert tiles | {layout.finish} <= set(from_start)
    for cell in tiles:
        assert layout.finish in distances([cell], lambda c: c in walk)
    # The shortest way from start to finish is 12 steps (the wall down the middle).
    assert from_start[layout.finish] == 12
    # The start touches three tile spaces, the pod two (above and below it).
    assert len([n for n in neighbours(layout.start) if n in tiles]) == 3
    assert sorted(n for n in neighbours(layout.finish) if n in tiles) == [
        (layout.finish[0], layout.finish[1] - 1), (layout.finish[0], layout.finish[1] + 1)]
    assert all(any(n in tiles for n in neighbours(g)) for g in layout.gaps)
    assert len(layout.track) == 12 and layout.red_from == 9


def test_stepping_back_from_a_mystery_does_not_set_off_the_tile_again():
    m = scenario(chars=("mage", "thief"), floor={E1: "corrode", E2: "mystery"}, up=[E1])
    move(m, E1)
    assert seat_view(m, 0)["corroded"]
    events = move(m, E2)                     # 2 AP to leave the acid, then back
    assert events[-1]["how"] == "back" and m.controller.pos[0] == E1
    assert not seat_view(m, 0)["corroded"] and seat_view(m, 0)["ap"] == 1
    move(m, S)                               # leaving now costs the plain 1 AP
    assert m.controller.pos[0] == S


def test_an_escaped_seat_takes_no_more_turns():
    m = scenario(chars=("knight", "mage", "thief"), floor={(10, 5): "objective"}, up=[(10, 5)])
    c = m.controller
    c.tiles[(10, 5)]["done"] = True
    c.pos[1] = (10, 5)
    end(m)
    move(m, F)                                   # Bram escapes: his turn ends at once
    assert seat_view(m, 1)["escaped"] and seat_view(m, 1)["ap"] == 0 and m.to_act() == [2]
    end(m)
    assert m.view()["round"] == 2
    seen = set()
    while m.view()["round"] == 2:
        seen.add(m.to_act()[0])
        end(m)
    assert seen == {0, 2}


def test_a_pull_with_no_way_to_its_target_leaves_only_defer_and_end():
    m = scenario(chars=("mage", "thief"), up=list(LAYOUT.tile_spaces))
    c = m.controller
    for cell in (E1, N1, S1):                    # cut the start tile off
        del c.tiles[cell]
        c.holes.add(cell)
    c.pos[0] = (6, 6)
    c.afraid[0] = True
    c.tokens["fear"] -= 1
    assert m.view()["pull"] == []
    assert {a["type"] for a in m.legal_actions(0)} == {"defer", "end"}
    refused(m, {"type": "move", "to": [6, 5]}, "no way leads to the start tile")
    refused(m, {"type": "skip", "to": [6, 4]}, "afraid")
    # A companion next to them assists: the way is free again.
    act(m, {"type": "end"})
    c.pos[1] = (6, 5)
    act(m, {"type": "assist", "seat": 0}, 1)
    assert not seat_view(m, 0)["afraid"]


def test_afraid_and_confused_must_step_towards_both():
    # From (5,4) the start is 3 steps away via (4,4); (6,4) leads there only in 5.
    m = scenario(chars=("mage", "thief"), up=[c for c in LAYOUT.tile_spaces if c != (4, 4)])
    c = m.controller
    c.pos[0] = (5, 4)
    c.afraid[0] = c.confused[0] = True
    assert m.view()["pull"] == [[4, 4]]          # towards the start and the face-down tile
    c.tiles[(4, 4)]["up"] = True
    c.tiles[(6, 4)]["up"] = False
    assert m.view()["pull"] == []                # no single step does both
    assert {a["type"] for a in m.legal_actions(0)} == {"defer", "end"}
    refused(m, {"type": "move", "to": [6, 4]}, "afraid and confused")


def test_once_a_round_includes_the_deferred_part():
    m = scenario(chars=("ranger", "thief"))
    act(m, {"type": "far_peek", "at": [6, 5]})
    act(m, {"type": "defer"})
    end(m)
    assert m.view()["stage"] == "deferred" and m.to_act() == [0]
    refused(m, {"type": "far_peek", "at": [6, 7]}, "once a round")
    end(m)
    assert m.view()["round"] == 2
    act(m, {"type": "far_peek", "at": [6, 7]})


def test_stepping_on_a_freeze_again_starts_it_over():
    m = scenario(chars=("mage", "thief"), floor={E1: "freeze"}, up=[E1])
    move(m, E1)
    assert seat_view(m, 0)["frozen_in"] == 1
    end(m)
    act(m, {"type": "assist", "seat": 0})          # Bram on the start tile, next to Ada
    end(m)
    move(m, S)                                     # round 2: off and on again
    move(m, E1)
    assert seat_view(m, 0)["frozen_in"] == 2
    finish_round(m)
    assert seat_view(m, 0)["frozen"], "still frozen all of round 3"
    act(m, {"type": "defer"})                      # a frozen player may still defer
    finish_round(m)
    assert not seat_view(m, 0)["frozen"]


def test_a_confused_seat_cannot_run_for_the_pod_until_assisted():
    up = [c for c in LAYOUT.tile_spaces if c != (5, 3)]
    m = scenario(chars=("mage", "thief"), up=up)
    c = m.controller
    for cell in ((6, 3), (5, 4)):                  # the last face-down tile is cut off
        del c.tiles[cell]
        c.holes.add(cell)
    c.pos[0] = (10, 5)
    c.confused[0] = True
    c.tokens["confuse"] -= 1
    assert m.view()["pull"] == [] and m.view()["finish_open"]
    refused(m, {"type": "move", "to": list(F)}, "confused")
    end(m)
    c.pos[1] = (10, 5)
    act(m, {"type": "assist", "seat": 0}, 1)
    assert m.view()["tokens"]["confuse"] == DATA["tokens"]["confuse"]
    finish_round(m)
    events = move(m, F)
    assert any(e["type"] == "escape" for e in events)


def test_the_log_is_not_chatty():
    """One line per thing that happened: no turn banners, one line per round's end."""
    m = scenario(chars=("mage", "thief"))
    events = move(m, E1) + end(m) + move(m, N1) + act(m, {"type": "defer"}) + end(m)
    kinds = [e["type"] for e in events]
    assert kinds.count("turn") == 1, "only a deferred seat coming back is announced"
    assert "kept" in next(e for e in events if e["type"] == "turn")["text"]
    events += end(m)
    tracker = [e for e in events if e["type"] in ("tracker", "round")]
    assert [e["type"] for e in tracker] == ["tracker"]
    assert tracker[0]["text"] == ("End of round 1: the round tracker moves down to place 2 "
                                  "of 12 (10 rounds left).")
    texts = [e["text"] for e in events]
    assert len(texts) == len(set(texts)) and all(t.endswith((".", "!")) for t in texts)


# ------------------------------------------------------------- second edition rulings
def test_a_seat_that_ended_its_turn_shows_no_ap_left():
    m = scenario(chars=("mage", "knight"))
    move(m, E1)
    assert seat_view(m, 0)["ap"] == 3 and seat_view(m, 1)["ap"] == 4   # Bram still to act
    end(m)                                      # 3 AP left unspent: lost
    assert seat_view(m, 0)["ap"] == 0 and m.view(1)["seats"][0]["ap"] == 0
    assert seat_view(m, 1)["ap"] == 4
    act(m, {"type": "defer"})                   # a deferred seat keeps what it kept
    assert seat_view(m, 1)["ap"] == 3
    end(m)
    assert seat_view(m, 0)["ap"] == 4, "a new round gives the AP back"


def test_why_not_gives_the_refusal_a_player_would_get():
    m = scenario(chars=("mage", "knight"), floor={E1: "corrode"}, up=[E1])
    c = m.controller
    assert c.why_not(0, "move") is None and c.why_not(0, "skip") is None
    assert c.why_not(0, "sneak") == "Only the Thief can do that."
    assert c.why_not(0, "assist") == "Nobody is frozen, confused or afraid."
    assert "generator" in c.why_not(0, "deactivate")
    assert c.why_not(1, "move") == "It is not your turn."
    move(m, E1)
    act(m, {"type": "peek", "at": list(E2)})
    c.ap[0] = 1
    reason = c.why_not(0, "move")
    assert reason.startswith("Leaving this Corrode tile costs 1 AP more")
    with pytest.raises(IllegalAction) as err:
        move(m, S)
    assert err.value.reason == reason
    assert [a["type"] for a in m.legal_actions(0)] == ["end"]
    for kind in ("move", "peek", "skip", "assist", "deactivate", "defer"):
        assert c.why_not(0, kind) is not None


def test_views_say_where_each_seat_began_its_last_two_turns():
    m = scenario(chars=("mage", "knight"))
    move(m, E1)
    end(m)
    end(m)
    view = m.view(None)["seats"][0]
    assert view["turn_from"] == list(E1) and view["came_from"] == list(S)
