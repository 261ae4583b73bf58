"""A Hard computer player never uses what its seat may not see (issue 17, section 1).

For every game whose controller has a ``determinize`` hook (found when the test runs: games
gain hooks over time; a game without one is skipped, its Hard player plays like Normal), at
several points of seeded games the seat to act is searched twice with the same fixed
generator: once on the live state, once on a copy whose every other seat's secrets were
redrawn by the game's own ``determinize`` (which must leave that seat's view unchanged).
The choice must be the same."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.engine.registry import controller_class, game_ids
from game.engine.rng import Rng
from game.engine.search import can_search, search, settings_for

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
#: Seeded games per game, the points in each at which the seat to act is searched (numbers
#: of actions played), and how many redraws of the others' secrets are tried at each.
SEEDS = (3, 11)
POINTS = (0, 7, 19, 40)
REDRAWS = 2
OPTIONS = {"fantasy_expedition": {"trade_rounds": 1}}


def small(controller):
    """The game's own search (its method and margins), made small enough for a test."""
    own = settings_for(controller)
    return dataclasses.replace(own, iterations=min(own.iterations, 12),
                               rollout_actions=min(own.rollout_actions, 16),
                               candidates=min(own.candidates, 4))


def seats_for(game: str) -> int:
    cls = controller_class(game)
    return max(cls.min_seats, min(cls.max_seats, 3))


def positions(game: str, seed: int):
    """(match, seat to act) at each of POINTS in a seeded game of Normal players."""
    seats = [{"name": NAMES[i], "kind": "bot"} for i in range(seats_for(game))]
    match = Match.new(game, seats, seed=seed, options=OPTIONS.get(game))
    for point in POINTS:
        while len(match.actions) < point and not match.is_over():
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
        if match.is_over():
            return
        yield match, match.to_act()[0]


@pytest.mark.parametrize("game", game_ids())
def test_hard_choices_do_not_depend_on_the_other_seats_secrets(game):
    cls = controller_class(game)
    probe = Match.new(game, [{"name": NAMES[i], "kind": "bot"} for i in range(seats_for(game))],
                      seed=1, options=OPTIONS.get(game))
    if not can_search(probe.controller):
        pytest.skip(f"{cls.title} has no determinize hook yet: its Hard player plays like "
                    f"Normal, which reads only its own view")
    checked = changed = 0
    for seed in SEEDS:
        for match, seat in positions(game, seed):
            live = match.controller
            if len(live.legal_actions(seat)) < 2:
                continue
            settings = small(live)
            before = copy.deepcopy(live.snapshot())
            view = copy.deepcopy(live.view(seat))
            mine = search(live, seat, Rng(99), settings)
            assert live.snapshot() == before, "the search changed the live game"
            for redraw in range(REDRAWS):
                other = copy.deepcopy(live)
                other.determinize(seat, Rng.derive(seed, len(match.actions), redraw))
                assert other.view(seat) == view, (
                    f"{cls.title}: determinize changed what seat {seat} sees "
                    f"(seed {seed}, after {len(match.actions)} actions)")
                changed += other.snapshot() != before
                theirs = search(other, seat, Rng(99), settings)
                assert theirs == mine, (
                    f"{cls.title}: seat {seat}'s Hard choice changed with the others' secrets "
                    f"(seed {seed}, after {len(match.actions)} actions): {mine} vs {theirs}")
            checked += 1
    assert checked >= 3, f"only {checked} positions with a real choice were searched"
    if cls.has_secrets:
        assert changed, "the redraws never changed any secret: the test would prove nothing"
