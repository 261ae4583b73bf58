"""Monster Fandango's quick copy (a pickle round trip in memory, for the Hard player's
playouts) is a deep copy: nothing shared with the original, except that a copied match and
its copied controller still share one generator, as the originals do."""

from __future__ import annotations

import copy

from game.engine import Match
from game.engine.bots import choose_action


def _played(actions: int = 200) -> Match:
    seats = [{"name": f"B{i}", "kind": "bot"} for i in range(3)]
    match = Match.new("monster_fandango", seats, seed=6)
    for _ in range(actions):
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    return match


def test_a_copied_match_plays_on_exactly_like_the_original_and_apart_from_it():
    match = _played()
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


def test_a_copied_controller_shares_nothing_it_could_change():
    game = _played().controller
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
