"""TRAP: Mothership Fantasia's Hard computer player: the hooks the search needs
(``determinize``, ``evaluate``, ``search_settings``), a Hard crew playing whole games, and the
Normal crew's rulings that the search builds on."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from game.engine import Match, Rng
from game.engine.bots import choose_action
from game.engine.search import SearchSettings, can_search, settings_for
from game.mothership import hard
from game.mothership.bot import choose
from game.mothership.data import DATA, DIFFICULTIES, LAYOUT, TRAPS
from game.mothership.rules import MothershipController

#: Seed 2 on Hard with two Normal players: after 74 actions a Mystery space has been refilled
#: from the draw pile and one draw-pile tile has been seen, so both piles of hidden tiles
#: (the first lay-out and the draw pile) are in play.  (Picked again when crews of two
#: began to step onto face-down tiles: seed 10 no longer gets there.)
REFILL_SEED, REFILL_ACTIONS = 2, 74


def played(seed: int, difficulty: str, actions: int, seats: int = 2) -> Match:
    """A match of Normal players, ``actions`` actions in (or over)."""
    match = Match.new("mothership", [{"name": f"P{i}", "kind": "bot", "level": "normal"}
                                     for i in range(seats)],
                      seed=seed, options={"difficulty": difficulty})
    while not match.is_over() and len(match.actions) < actions:
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    return match


def hidden(game: MothershipController) -> tuple[dict, list[str]]:
    return ({c: t["kind"] for c, t in game.tiles.items() if not t["up"]}, list(game.draw_pile))


def visible(game: MothershipController) -> dict:
    return {c: dict(t) for c, t in game.tiles.items() if t["up"]}


CASES = [(3, "easy", 20), (7, "medium", 40), (REFILL_SEED, "hard", REFILL_ACTIONS),
         (11, "hard", 0)]


@pytest.mark.parametrize("seed,difficulty,actions", CASES)
def test_determinize_keeps_every_view_and_redraws_only_hidden_tiles(seed, difficulty,
                                                                      actions):
    live = played(seed, difficulty, actions).controller
    seat = live.to_act()[0]
    drawn = []
    for k in range(6):
        world = copy.deepcopy(live)
        world.determinize(seat, Rng(k))
        for s in [None, *range(len(live.seats))]:
            assert world.view(s) == live.view(s)
        assert visible(world) == visible(live)
        assert set(world.tiles) == set(live.tiles) and world.holes == live.holes
        assert len(world.draw_pile) == len(live.draw_pile)
        # Exactly the set-up's counts: every generator lies on the floor, the draw pile
        # holds no generator, and no trap appears more often than the box holds it.
        kinds = Counter(t["kind"] for t in world.tiles.values())
        assert kinds["objective"] == live.objectives_total
        assert "objective" not in world.draw_pile
        everything = kinds + Counter(world.draw_pile)
        for trap in TRAPS:
            assert everything[trap] <= DATA["box"]["traps"][trap]
        drawn.append(hidden(world))
    if live.face_down():
        assert len({repr(sorted(d[0].items())) for d in drawn}) > 1   # it really redraws


def test_the_refilled_draw_pile_tiles_are_redrawn_as_draw_pile_tiles():
    live = played(REFILL_SEED, "hard", REFILL_ACTIONS).controller
    assert live.from_pile and live.pile_seen     # the case this seed was picked for
    pile = DATA["draw_pile"]
    for k in range(10):
        world = copy.deepcopy(live)
        world.determinize(0, Rng(k))
        later = [world.tiles[c]["kind"] for c in world.from_pile] + world.draw_pile
        seen = sum(live.pile_seen.values())
        assert len(later) + seen == pile["safe"] + pile["trap"]
        assert sum(k == "safe" for k in later) == pile["safe"] - live.pile_seen.get("safe", 0)
        first = [t["kind"] for c, t in world.tiles.items()
                 if not t["up"] and c not in world.from_pile]
        level = DIFFICULTIES["hard"]
        assert first.count("objective") == level["objective"] - (
            live.seen.get("objective", 0))


@pytest.mark.parametrize("seed,difficulty,actions", CASES)
def test_states_that_look_alike_are_redrawn_alike(seed, difficulty, actions):
    live = played(seed, difficulty, actions).controller
    other = copy.deepcopy(live)
    # Shuffle what nobody has seen: the face-down tiles among their spaces, the draw pile.
    down = sorted(c for c, t in other.tiles.items() if not t["up"])
    kinds = [other.tiles[c]["kind"] for c in down]
    mixer = Rng(99)
    mixer.shuffle(kinds)
    for cell, kind in zip(down, kinds):
        other.tiles[cell]["kind"] = kind
    mixer.shuffle(other.draw_pile)
    assert other.view(0) == live.view(0)
    for k in range(3):
        a, b = copy.deepcopy(live), copy.deepcopy(other)
        a.determinize(0, Rng(k))
        b.determinize(0, Rng(k))
        assert hidden(a) == hidden(b)


def test_a_floor_laid_by_hand_is_still_redrawn_among_its_own_tiles():
    live = played(2, "easy", 10).controller
    for cell in live.face_down()[:3]:
        live.tiles[cell]["kind"] = "objective"       # more generators than the set-up lays
    live.tiles[live.face_down()[-1]]["up"] = True     # turned up by hand, not seen in play
    world = copy.deepcopy(live)
    world.determinize(0, Rng(1))
    assert Counter(hidden(world)[0].values()) + Counter(world.draw_pile) == Counter(
        hidden(live)[0].values()) + Counter(live.draw_pile)
    assert world.view(0) == live.view(0)


def test_evaluate_prefers_a_crew_with_time_and_a_way_out():
    live = played(4, "medium", 30).controller
    value = live.evaluate(0)
    assert 0.0 <= value <= 1.0
    later = copy.deepcopy(live)
    later.place += 5                                   # five rounds less to do the same
    assert later.evaluate(0) < value
    assert 0.0 <= hard.standing(later) < hard.standing(live) <= 1.0


def test_a_whole_crew_escaping_is_the_crew_win():
    match = played(5, "easy", 10_000)
    result = match.result()
    assert result is not None
    if result["won"]:
        assert result["winners"] == [0, 1]
    else:
        assert result["winners"] == []


def test_the_game_can_be_searched_with_its_own_settings():
    live = played(1, "medium", 0).controller
    assert can_search(live)
    settings = settings_for(live)
    assert settings is MothershipController.search_settings
    assert settings.iterations > 0 and settings.rollout_actions > 0


SMALL = SearchSettings(iterations=4, rollout_actions=6, candidates=2)


def test_a_short_hard_game_plays_to_the_end_and_its_choices_repeat(monkeypatch):
    monkeypatch.setattr(MothershipController, "search_settings", SMALL)
    seats = [{"name": f"H{i}", "kind": "bot", "level": "hard"} for i in range(2)]
    match = Match.new("mothership", seats, seed=8, options={"difficulty": "easy"})
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    assert match.result() is not None
    played_actions = [(r["seat"], r["action"]) for r in match.actions]
    # The same position asks the same question: a choice is the same when asked again.
    for index in (3, len(played_actions) // 2, len(played_actions) - 1):
        again = Match.new("mothership", seats, seed=8, options={"difficulty": "easy"})
        for seat, action in played_actions[:index]:
            again.act(seat, action)
        seat, action = played_actions[index]
        assert choose_action(again, seat) == action


def test_the_hard_player_does_not_use_the_face_down_tiles(monkeypatch):
    monkeypatch.setattr(MothershipController, "search_settings", SMALL)
    match = played(6, "medium", 25)
    seat = match.to_act()[0]
    first = choose_action(match, seat)
    down = match.controller.face_down()
    for k in range(3):
        kinds = [match.controller.tiles[c]["kind"] for c in down]
        Rng(k).shuffle(kinds)
        for cell, kind in zip(down, kinds):
            match.controller.tiles[cell]["kind"] = kind
        Rng(k + 7).shuffle(match.controller.draw_pile)
        assert choose_action(match, seat) == first


def test_a_seat_does_not_cross_a_known_fear_tile_to_avoid_turning_back():
    """The Normal ruling the search builds on: turning back towards where the previous
    turn began costs a few AP, never more than a known trap (it once sent a Barbarian from
    a generator straight onto a Fear tile it had just peeked at)."""
    match = Match.new("mothership", [{"name": n, "kind": "bot"} for n in ("A", "B")],
                      seed=1, options={"difficulty": "easy"})
    match.act(0, {"type": "choose", "character": "barbarian"})
    match.act(1, {"type": "choose", "character": "mage"})
    game = match.controller
    kinds = {cell: "safe" for cell in LAYOUT.tile_spaces}
    kinds[(9, 4)] = "fear"
    kinds[(9, 3)] = "objective"
    kinds[(7, 7)] = "objective"
    for cell, kind in kinds.items():
        game.tiles[cell] = {"kind": kind, "up": False, "done": False, "disarmed_until": None}
    for cell in [(4, 5), (4, 4), (5, 4), (6, 4), (6, 5), (6, 3), (7, 3), (8, 3), (9, 3),
                 (9, 4), (5, 6), (6, 6)]:
        game.tiles[cell]["up"] = True
    game.tiles[(9, 3)]["done"] = True
    game.pos[0], game.turn_from[0], game.came_from[0] = (9, 3), (9, 3), (6, 4)
    game.pos[1] = (6, 6)
    view = game.view(0)
    legal = game.legal_actions(0)
    assert {"type": "move", "to": [9, 4]} in legal
    assert choose(view, legal, Rng(0)) != {"type": "move", "to": [9, 4]}
