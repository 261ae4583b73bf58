"""Every game's screen animates a stretch of computer play without error.

The per-game screen tests mostly run with animations off; this one runs each game's
animations at the "fast" speed on simulated time, drawing as it goes, and checks that
the board really animated (events took time) and that the play scene caught up.
"""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match, controller_class, game_ids


@pytest.mark.parametrize("game_id", game_ids())
def test_bots_play_with_animations_on(game_id, monkeypatch, tmp_path):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    cls = controller_class(game_id)
    seats = [{"name": f"Bot {i + 1}", "kind": "bot"} for i in range(min(cls.max_seats, 4)
                                                                     if cls.min_seats <= 4 else
                                                                     cls.min_seats)]
    app = App(settings=Settings(animation="fast", bot_delay=0.2), size=(1280, 720))
    try:
        app.to_menu()
        scene = PlayScene(app, Match.new(game_id, seats, seed=21))
        app.push(scene)
        durations = []
        animate = scene.screen.animate

        def timed(event, view):
            seconds = animate(event, view)
            durations.append(seconds)
            return seconds

        monkeypatch.setattr(scene.screen, "animate", timed)
        for frame in range(2400):
            scene.update(0.05)
            if frame % 4 == 0:
                app.draw()
            if len(durations) >= 60 or scene.match.is_over():
                break
        assert len(durations) >= 20 or scene.match.is_over(), "the computers played"
        assert sum(1 for d in durations if d > 0) >= 5, "some events were animated"
    finally:
        pygame.display.quit()


def seats_for(cls, people: int = 1) -> list[dict[str, str]]:
    count = cls.min_seats if cls.min_seats > 4 else min(cls.max_seats, 4)
    return [{"name": f"P{i + 1}", "kind": "human" if i < people else "bot"} for i in range(count)]


@pytest.mark.parametrize("game_id", game_ids())
def test_the_play_scene_goes_idle_while_a_person_thinks(game_id, monkeypatch):
    """Once everything is shown and a person is to act, nothing keeps the loop busy
    (an endless animation would keep the program drawing at full speed while idle)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from game.engine.bots import choose_action
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    match = Match.new(game_id, seats_for(controller_class(game_id)), seed=5)
    for _ in range(200):  # some way into the game, stopping at the person's turn
        to_act = match.to_act()
        if 0 in to_act and len(match.actions) >= 3:
            break
        seat = to_act[0]
        match.act(seat, choose_action(match, seat))
    assert 0 in match.to_act() and not match.is_over()
    app = App(settings=Settings(animation="normal", bot_delay=0.2), size=(1280, 720))
    try:
        app.to_menu()
        scene = PlayScene(app, match)
        app.push(scene)
        for frame in range(600):
            if not scene.update(0.05):
                break
        else:
            pytest.fail("the play scene never went idle")
        app.draw()
        assert scene.viewer == 0 and not scene.showing
    finally:
        pygame.display.quit()
