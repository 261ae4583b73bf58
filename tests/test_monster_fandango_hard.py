"""Monster Fandango's hooks for the Hard computer player (issue 17): nothing is hidden, so a
determinization changes nothing and never depends on the dice to come; the estimate of an
unfinished game; a short game with a Hard seat ends."""

from __future__ import annotations

import copy

import pytest

from game.engine import Match, Rng
from game.engine.bots import choose_action
from game.engine.search import SearchSettings, search
from game.monster_fandango import hard
from game.monster_fandango.rules import FandangoController

QUICK = SearchSettings(iterations=6, rollout_actions=6)


def _match(seed: int, seats: int = 2, **options) -> Match:
    return Match.new("monster_fandango", [{"name": f"P{i}", "kind": "bot", "level": "normal"}
                                          for i in range(seats)], seed=seed, options=options)


def _states() -> list[FandangoController]:
    """Seeded moments of games (2 and 3 seats) where the seat to act has a real choice."""
    out = []
    for seed, seats in ((1, 2), (2, 3), (3, 2)):
        match = _match(seed, seats)
        for step in range(320):
            if match.is_over():
                break
            seat = match.to_act()[0]
            if step % 61 == 13 and len(match.legal_actions(seat)) > 1:
                out.append(copy.deepcopy(match.controller))
            match.act(seat, choose_action(match, seat))
    return out


STATES = _states()


def test_there_are_states_to_look_at():
    assert len(STATES) >= 6


@pytest.mark.parametrize("index", range(len(STATES)))
def test_determinize_keeps_what_the_seat_sees(index):
    game = STATES[index]
    for viewer in range(game.n):
        world = copy.deepcopy(game)
        world.determinize(viewer, Rng(4))
        assert world.view(viewer) == game.view(viewer)
        assert world.snapshot() == game.snapshot()


@pytest.mark.parametrize("index", range(0, len(STATES), 2))
def test_states_alike_but_for_the_dice_to_come_determinize_alike(index):
    """The only thing no seat sees is the generator's position (the dice to come): two
    states differing only in it determinize to the same world for the same generator."""
    game = STATES[index]
    seat = game.to_act()[0]
    one, two = copy.deepcopy(game), copy.deepcopy(game)
    two.rng.state = (one.rng.state * 7919 + 13) % (2 ** 64)
    assert one.view(seat) == two.view(seat)
    one.determinize(seat, Rng(9))
    two.determinize(seat, Rng(9))
    assert one.snapshot() == two.snapshot() and one.view(seat) == two.view(seat)


@pytest.mark.parametrize("index", range(1, len(STATES), 5))
def test_the_hard_choice_never_knows_the_dice_to_come(index):
    game = STATES[index]
    seat = game.to_act()[0]
    other = copy.deepcopy(game)
    other.rng.state = (game.rng.state ^ 0x5DEECE66D) + 1
    before = copy.deepcopy(game.snapshot())
    assert search(game, seat, Rng(3), QUICK) == search(other, seat, Rng(3), QUICK)
    assert game.snapshot() == before  # the live game is never changed


@pytest.mark.parametrize("index", range(len(STATES)))
def test_evaluate_is_a_share_of_the_win(index):
    game = STATES[index]
    values = [game.evaluate(s) for s in range(game.n)]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(values) == pytest.approx(hard.WIN_PART + (1 - hard.WIN_PART) * game.n / 2)


def test_evaluate_prefers_the_seat_ahead():
    game = copy.deepcopy(STATES[0])
    level = game.evaluate(0)
    for q in game.quests[0][:2]:
        q["done"] = True
    assert game.evaluate(0) > level and game.evaluate(0) > game.evaluate(1)
    for uid in list(game.seat_units(1)):  # no units left (they went wild): that seat has lost
        game.units[uid]["owner"] = None
    game._changed()
    assert game.evaluate(1) == pytest.approx(0.0)


def test_a_short_game_with_a_hard_seat_ends(monkeypatch):
    monkeypatch.setattr(FandangoController, "search_settings", QUICK)
    seats = [{"name": "Hard", "kind": "bot", "level": "hard"},
             {"name": "Norm", "kind": "bot", "level": "normal"}]
    match = Match.new("monster_fandango", seats, seed=5, options={"round_limit": 2})
    for _ in range(2_000):
        if match.is_over():
            break
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    assert match.is_over() and match.result()["rounds"] <= 2
    replay = Match("monster_fandango", seats, 5, {"round_limit": 2})
    for record in match.actions:
        replay.act(record["seat"], record["action"])
    assert replay.snapshot() == match.snapshot()
