"""Step mode in every game (issue 16, part 5), through the REAL loop: with Step on, a
multi-step resolution (an attack and its rolls, a shock's recoil, an adventure's totals, a
trap's effect, a climb) waits before each of its steps until N (or Next step) is pressed,
nothing moves meanwhile, and each step brings its own log line."""

from __future__ import annotations

import copy

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes.play import PlayScene

from realloop import RealLoop

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}
#: A resolution of each game to follow step by step: an action whose events hold this type.
KIND = {"fantasy_racing": "recoil", "odysseus": "totals", "monster_fandango": "defend",
        "mothership": "trap", "fantasy_expedition": "climb"}


def lead_up(match: Match, kind: str) -> list[dict]:
    """Play the computers' choices until the next one resolves with a ``kind`` event; returns
    that next action's events (from a trial on a copy)."""
    for _ in range(5000):
        seat = match.to_act()[0]
        action = choose_action(match, seat)
        events = copy.deepcopy(match).act(seat, action)
        if any(ev["type"] == kind for ev in events):
            return events
        match.act(seat, action)
    raise AssertionError(f"no {kind} in the game")


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_step_mode_pauses_before_every_step_of_a_resolution(game_id):
    seats = [{"name": f"P{i}", "kind": "bot"} for i in range(SEATS[game_id])]
    options = {"trade_rounds": 0} if game_id == "fantasy_expedition" else None
    match = Match.new(game_id, seats, seed=5, options=options)
    coming = lead_up(match, KIND[game_id])
    loop = RealLoop(animation="fast", bot_delay=2.0)  # time to turn Step on first
    play = loop.app.push(PlayScene(loop.app, match))
    loop.run(0.1)
    loop.click_button("Step: off", settle=0.1)
    before = len(match.actions)
    assert play.step_mode and before == len(match.actions)
    loop.app.settings.bot_delay = 0.0
    loop.app.settings.animation = "off"  # the steps wait for N all the same
    steps = [ev for ev in coming if ev["type"] in play.screen.STEP_EVENTS]
    assert any(ev["type"] == KIND[game_id] for ev in steps)
    for expected in steps:
        assert loop.run_until(lambda: play.awaiting_step, seconds=20)
        head = play.queue[0]
        assert (head["type"], head.get("text")) == (expected["type"], expected.get("text"))
        shown = len(play.shown)
        loop.run(0.05)
        assert len(play.shown) == shown and len(match.actions) == before + 1, (
            "something moved before the person asked")
        assert "Next step" in loop.labels()
        loop.key_down(pygame.K_n)
        loop.key_up(pygame.K_n)
        assert loop.run_until(lambda: len(play.shown) > shown, seconds=5)
        assert play.shown[shown] is head
        if head.get("text"):
            assert head in play._log_events()
