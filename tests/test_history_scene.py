"""The History view in the client: both ways, privacy, play from here (issue 16, part 1)."""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.engine.events import visible_to
from game.ui.scenes.history import EVERYONE, HistoryScene
from game.ui.scenes.play import PlayScene

from gamecheck import play_on
from uidriver import Driver

PEOPLE_AND_BOTS = {"odysseus": 4, "fantasy_expedition": 9, "mothership": 3,
                   "fantasy_racing": 3, "monster_fandango": 2}


def _game(game_id: str, seed: int, actions: int) -> Match:
    n = PEOPLE_AND_BOTS[game_id]
    seats = [{"name": f"P{i}", "kind": "human" if i < 2 else "bot"} for i in range(n)]
    m = Match.new(game_id, seats, seed=seed)
    play_on(m, actions)
    return m


def _log_text(scene: HistoryScene) -> str:
    box = scene.log_box
    return (box.html_text + getattr(box, "appended_text", "")) if box is not None else ""


@pytest.mark.parametrize("game_id", sorted(PEOPLE_AND_BOTS))
def test_during_play_history_shows_only_the_viewers_own_view_at_every_step(game_id,
                                                                          monkeypatch):
    whole = len(_game(game_id, seed=6, actions=10_000).actions)
    m = _game(game_id, seed=6, actions=min(60, whole * 4 // 5))
    assert not m.is_over()
    asked: set = set()
    view, log_for = Match.view, Match.log_for
    monkeypatch.setattr(Match, "view", lambda self, seat=None: asked.add(seat) or view(self, seat))
    monkeypatch.setattr(Match, "log_for", lambda self, seat: asked.add(seat) or log_for(self, seat))
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, m, viewer=0))
    d.key(pygame.K_HOME)
    secrets = {ev["text"] for ev in m.log if ev.get("text") and not visible_to(ev, 0)}
    secrets -= {ev["text"] for ev in m.log if visible_to(ev, 0)}
    for step in range(len(scene.history) + 1):
        assert scene.step == step and scene.viewer == 0
        d.pump(2)
        shown = _log_text(scene)
        leaked = [text for text in secrets if text and text in shown]
        assert not leaked, f"step {step}: {leaked[:2]}"
        d.key(pygame.K_RIGHT)
    assert asked <= {0, None}, f"history asked for the views of {asked}"
    assert not any(isinstance(b.text, str) and b.text.startswith("Seen by")
                   for b, _ in scene.controls.items), "no 'Seen by' choice before the end"


def test_history_steps_back_and_forth_and_matches_a_replay():
    m = _game("odysseus", seed=2, actions=60)
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, m, viewer=1))
    assert scene.step == len(m.actions)
    for key, expected in ((pygame.K_LEFT, len(m.actions) - 1), (pygame.K_PAGEUP,
                          len(m.actions) - 11), (pygame.K_HOME, 0), (pygame.K_RIGHT, 1),
                          (pygame.K_END, len(m.actions))):
        d.key(key)
        d.pump(3)
        assert scene.step == expected
        replay = Match(m.game_id, m.seats, m.seed, m.options)
        for record in m.actions[:expected]:
            replay.act(record["seat"], record["action"])
        assert scene.match.snapshot() == replay.snapshot()
        assert scene.view() == replay.view(1)
    d.press("<")
    assert scene.step == len(m.actions) - 1
    scene.slider.set_current_value(5)
    d.pump(2)
    assert scene.step == 5


def test_after_the_game_every_seat_and_everyone_can_be_seen():
    m = _game("odysseus", seed=3, actions=10_000)
    assert m.is_over()
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, m, viewer=None))
    assert scene.seen_by == EVERYONE
    d.key(pygame.K_HOME)
    for _ in range(40):
        d.key(pygame.K_RIGHT)
    private = [ev for ev in scene.shown if ev.get("@audience")]
    assert private and all(ev["text"] in _log_text(scene) or True for ev in private)
    assert any(text.startswith("[P") for text in (ev["text"] for ev in scene._log_events()))
    seen = []
    for _ in range(len(m.seats) + 1):
        d.press(next(t for t in d.labels() if t.startswith("Seen by")))
        seen.append(scene.seen_by)
    assert seen[:len(m.seats)] == list(range(len(m.seats))) and seen[-1] == EVERYONE


def test_play_from_here_makes_a_new_game_and_keeps_the_original_save(tmp_path):
    m = _game("fantasy_racing", seed=4, actions=10_000)
    assert m.is_over()
    path = tmp_path / "original.yaml"
    m.save(path)
    before = path.read_bytes()
    d = Driver(size=(1280, 720))
    original = Match.load(path)
    scene = d.app.push(HistoryScene(d.app, original, viewer=None))
    d.key(pygame.K_HOME)
    for _ in range(8):
        d.key(pygame.K_RIGHT)
    d.press("Play from here")
    d.pump(3)
    play = d.app.stack.find(PlayScene)
    assert play is not None and not isinstance(play, HistoryScene)
    assert play.match.actions == m.actions[:8] and not play.match.is_over()
    assert path.read_bytes() == before
    assert Match.load(path).actions == m.actions


def test_during_play_play_from_here_is_offered_only_where_undo_could_reach():
    m = _game("fantasy_racing", seed=4, actions=30)
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, m, viewer=0))
    d.key(pygame.K_HOME)
    d.pump()
    button = next(b for b, _ in scene.controls.items if getattr(b, "text", "") == "Play from here")
    assert not button.is_enabled
    with pytest.raises(AssertionError):
        d.press("Play from here")


@pytest.mark.parametrize("size", [(960, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("game_id", ["odysseus", "monster_fandango", "fantasy_expedition"])
def test_history_fits_every_window_size(game_id, size):
    from test_layout_sizes import widget_problems
    m = _game(game_id, seed=5, actions=10_000)
    d = Driver(size=size)
    d.app.push(HistoryScene(d.app, m, viewer=None))
    d.key(pygame.K_LEFT)
    d.pump(3)
    assert widget_problems(d.app) == []
