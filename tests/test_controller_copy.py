"""A controller's quick copy (``Controller.__deepcopy__``: a pickle round trip in memory, for
the Hard player's playouts) is a deep copy in every game: nothing shared with the original,
except that a copied match and its copied controller still share one generator, as the
originals do."""

from __future__ import annotations

import copy

import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.engine.registry import GAMES
from gamecheck import play_on


def _played(game_id: str, actions: int = 40) -> Match:
    seats = [{"name": f"B{i}", "kind": "bot"}
             for i in range(9 if game_id == "fantasy_expedition" else 3)]
    match = Match.new(game_id, seats, seed=6)
    play_on(match, actions)
    return match


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_copied_match_plays_on_exactly_like_the_original_and_apart_from_it(game_id):
    match = _played(game_id)
    twin = copy.deepcopy(match)
    assert twin.controller.rng is twin.rng and twin.rng is not match.rng
    before = match.snapshot()
    for _ in range(150):  # the twin plays on; the original must not move
        if twin.is_over():
            break
        seat = twin.to_act()[0]
        twin.act(seat, choose_action(twin, seat))
    assert match.snapshot() == before
    for _ in range(150):  # and the original, played on, follows the same course
        if match.is_over():
            break
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    played = len(twin.actions)
    assert match.actions[:played] == twin.actions[:played]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_copied_controller_shares_nothing_it_could_change(game_id):
    game = _played(game_id).controller
    twin = copy.deepcopy(game)
    assert twin.snapshot() == game.snapshot()
    seen: dict[int, str] = {}

    def walk(value, where, out):
        if isinstance(value, (dict, list)):
            out[id(value)] = where
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                walk(item, f"{where}[{key!r}]", out)

    copied: dict[int, str] = {}
    for key in vars(game):
        if key != "rng":
            walk(vars(game)[key], key, seen)
            walk(vars(twin)[key], key, copied)
    shared = set(seen) & set(copied)
    assert not shared, [seen[i] for i in list(shared)[:3]]
    assert twin.rng is not game.rng and twin.rng.state == game.rng.state
