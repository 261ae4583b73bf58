"""A fault anywhere in a scene never closes the window with a game lost (issue 10, section 3):
the loop catches it, writes a crash report (traceback and the match) beside the saves,
tells the person with a message that stays, goes back to the menu, and Continue resumes
the autosaved game."""

from __future__ import annotations

import pygame
import pytest
import yaml

from game.engine import Match
from game.engine.bots import choose_action
from game.ui import paths
from game.ui.scenes.menu import MainMenu, latest_autosave
from game.ui.scenes.notice import NoticeScene
from game.ui.scenes.play import PlayScene

from uidriver import Driver


@pytest.fixture(autouse=True)
def catch_faults(monkeypatch):
    """The suite normally lets faults through; here the loop's own guard is tested."""
    monkeypatch.delenv("TABLETOP_FAULTS", raising=False)


def boom(*_args, **_kwargs):
    raise RuntimeError("injected fault")


def started(d: Driver, game_id: str = "fantasy_racing") -> PlayScene:
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    match = Match.new(game_id, seats, seed=111)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    for _ in range(3):  # a few moves, each autosaved
        seat = match.to_act()[0]
        assert play.perform(seat, choose_action(match, seat))
        d.pump(3)
    return play


@pytest.mark.parametrize("where", ["draw", "update", "handle_event", "build", "screen"])
def test_a_fault_in_a_scene_returns_to_the_menu_with_a_report(where):
    d = Driver()
    play = started(d)
    actions = list(play.match.actions)
    seed = play.match.seed
    target = {"screen": (play.screen, "draw_pieces")}.get(where, (PlayScene, where))
    with pytest.MonkeyPatch.context() as fault:  # then the fault is gone: carry on
        fault.setattr(*target, boom)
        if where == "handle_event":
            d.key(pygame.K_a)
        elif where == "build":
            d.app.step([pygame.event.Event(pygame.VIDEORESIZE, w=1100, h=700)])  # rebuilds
        else:
            d.app.touch()
            d.pump(2)
    assert d.app.running and d.app.crashes == 1
    assert isinstance(d.top, NoticeScene) and isinstance(d.app.stack.scenes[0], MainMenu)
    assert "injected fault" in d.top.message and "Continue" in d.top.message
    # The report: the traceback and the match (seed and actions) as a save.
    reports = sorted(paths.saves_dir().glob("crash-*.txt"))
    assert len(reports) == 1 and reports[0].name in d.top.message
    text = reports[0].read_text()
    assert "Traceback" in text and "RuntimeError: injected fault" in text
    document = yaml.safe_load(text[text.index("# The match"):])
    assert document["seed"] == seed and document["actions"] == actions
    # The message stays until closed; the menu still works and Continue resumes the game.
    d.pump(5)
    assert isinstance(d.top, NoticeScene)
    d.press("OK")
    assert isinstance(d.top, MainMenu)
    assert Match.load(latest_autosave()).actions == actions
    d.press("Continue")
    resumed = d.app.stack.find(PlayScene)
    assert resumed is not None and resumed.match.actions == actions
    d.pump(3)


def test_a_fault_while_recovering_is_not_hidden(monkeypatch):
    """If even the menu cannot be shown, the fault is raised rather than looping."""
    d = Driver()
    started(d)
    monkeypatch.setattr(PlayScene, "draw", boom)
    monkeypatch.setattr(MainMenu, "draw", boom)
    d.app.touch()
    with pytest.raises(RuntimeError):
        d.pump(2)
