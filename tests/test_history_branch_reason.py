"""History's "Play from here", when greyed, says truthfully why (issue 25, item 4): it names
the later step undo cannot reach past and what that step decided or showed; "something was
revealed or rolled" was said where nothing of the kind happened."""

from __future__ import annotations

import pytest

from game.engine import Match
from game.engine.events import reveals
from game.engine.history import History
from game.ui.scenes.history import HistoryScene

from gamecheck import play_on
from uidriver import Driver

SEATS = {"odysseus": 3, "fantasy_expedition": 9, "mothership": 3, "fantasy_racing": 3,
         "monster_fandango": 2}


def played(game_id: str, seed: int, actions: int) -> Match:
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(SEATS[game_id])]
    match = Match.new(game_id, seats, seed=seed)
    play_on(match, actions)
    return match


def test_expedition_seed_7_step_14_names_the_answer_that_undo_cannot_pass():
    match = played("fantasy_expedition", 7, 16)
    assert match.view(0)["phase"] == "trading"
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, match, viewer=0))
    scene.go(14, animate=False)
    for _ in range(50):  # the replay behind the earlier steps finishes over a few turns
        d.pump()
        if scene.history.ready:
            break
    d.pump()
    button = next(b for b, _ in scene.controls.items if getattr(b, "text", "") == "Play from here")
    assert not button.is_enabled
    tip = button.tool_tip_text
    assert "revealed or rolled" not in tip
    assert "step 16" in tip and "P7 declines P8's offer" in tip, tip
    # Step 16 itself was such an answer, and nothing was rolled in the trading.
    steps = History(match)
    assert any(reveals(ev) for ev in steps.events_of(16))
    assert steps.at(16).rng.state == steps.at(0).rng.state


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_the_reason_names_the_step_that_rolled_or_revealed(game_id):
    match = played(game_id, 3, 40)
    steps = History(match)
    barrier = match.barrier
    assert barrier > 0
    if not steps.can_branch(0) and not steps.ready:  # not replayed just for the words
        assert "cannot be taken back" in steps.branch_refusal(0, 0)
    while steps.prepare(1000):
        pass
    for step in range(len(steps) + 1):
        why = steps.branch_refusal(step, 0)
        assert (why is None) == steps.can_branch(step), step
        if why is None:
            continue
        assert f"from step {barrier} on" in why
        events = steps.events_of(barrier)
        rolled = steps.at(barrier).rng.state != steps.at(barrier - 1).rng.state
        if "chance decided it" in why:
            assert rolled and not any(reveals(ev) for ev in events)
        else:
            assert any(reveals(ev) for ev in events), why


def test_a_click_on_the_greyed_button_says_why():
    import pygame
    match = played("fantasy_racing", 4, 30)
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, match, viewer=0))
    scene.go(0, animate=False)
    d.pump()
    button = next(b for b, _ in scene.controls.items if getattr(b, "text", "") == "Play from here")
    assert not button.is_enabled
    d.app.toasts.clear()
    scene.intercept(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1))
    assert [t[0] for t in d.app.toasts] == [button.tool_tip_text]
    assert button.tool_tip_text.startswith("Not now: No undo reaches back past step ")
