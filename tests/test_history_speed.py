"""History moves as fast as a hand (issue 25, item 1), checked by counting work, never by
timing it: a step replays at most a few actions from a kept state (no deep copy of the
match, no replay from the start), changes the panel's widgets in place (no rebuild) and lays
out only the log lines the box shows; and whatever the order of steps, what is shown at
step ``i`` is what a fresh replay of the first ``i`` actions shows that seat."""

from __future__ import annotations

import copy
import random

import pygame
import pytest
from pygame_gui.elements import UIButton, UITextBox

from game.engine import Match
from game.engine.bots import play_out
from game.engine.events import visible_to
from game.engine.history import History
from game.ui.scenes.history import EVERYONE, HistoryScene

from gamecheck import play_on
from uidriver import Driver

KEYS = [pygame.K_LEFT, pygame.K_RIGHT, pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_HOME,
        pygame.K_END]


def _long_fandango() -> Match:
    """A finished 4-seat Monster Fandango game of computer players: 1,000 actions."""
    m = Match.new("monster_fandango", [{"name": f"P{i}", "kind": "bot"} for i in range(4)],
                  seed=1)
    play_out(m)
    assert m.is_over() and len(m.actions) >= 1000
    return m


def _game(game_id: str, seats: int, seed: int, actions: int, people: int = 2) -> Match:
    m = Match.new(game_id, [{"name": f"P{i}", "kind": "human" if i < people else "bot"}
                            for i in range(seats)], seed=seed)
    play_on(m, actions)
    return m


class Work:
    """Counts Match._apply calls and deep copies of whole matches while installed."""

    def __init__(self, monkeypatch) -> None:
        self.applies = self.copies = 0
        apply = Match._apply

        def counting_apply(match, seat, action):
            self.applies += 1
            return apply(match, seat, action)

        def counting_copy(match, memo):
            self.copies += 1
            new = Match.__new__(Match)
            memo[id(match)] = new
            new.__dict__.update(copy.deepcopy(match.__dict__, memo))
            return new

        monkeypatch.setattr(Match, "_apply", counting_apply)
        monkeypatch.setattr(Match, "__deepcopy__", counting_copy, raising=False)

    def take(self) -> tuple[int, int]:
        done = (self.applies, self.copies)
        self.applies = self.copies = 0
        return done


def _walk(last: int, rng: random.Random, count: int) -> list[int]:
    """Steps a person might visit: single steps both ways, pages, both ends, jumps."""
    step, out = last, []
    for _ in range(count):
        move = rng.choice([-1, -1, 1, 1, -10, 10, "home", "end", "jump"])
        step = (0 if move == "home" else last if move == "end" else rng.randint(0, last)
                if move == "jump" else max(0, min(last, step + move)))
        out.append(step)
    return out


def test_a_step_is_a_few_actions_from_a_kept_state_never_a_copy_of_the_match(monkeypatch):
    m = _long_fandango()
    work = Work(monkeypatch)
    history = History(m)
    assert work.take() == (0, 0), "opening History replays nothing (its end is the match)"
    history.at(len(history), private_copy=False)
    assert work.take() == (0, 0)
    while history.prepare(100):
        pass
    assert work.take() == (len(m.actions), 0), "the replay behind the steps is made once"
    for step in _walk(len(history), random.Random(5), 300):
        history.at(step, private_copy=False)
        history.events_of(step)
        applies, copies = work.take()
        assert copies == 0, f"step {step} deep-copied the whole match"
        assert applies <= history.every - 1 <= 15, f"step {step} replayed {applies} actions"


def test_an_early_step_asked_for_before_the_replay_is_done_is_still_right():
    m = _game("odysseus", 4, seed=3, actions=10_000)
    history = History(m, every=5)
    assert not history.ready
    replay = Match(m.game_id, m.seats, m.seed, m.options)
    for record in m.actions[:17]:
        replay.act(record["seat"], record["action"])
    shown = history.at(17)
    assert shown.snapshot() == replay.snapshot() and shown.log == replay.log
    assert history.at(len(history)).snapshot() == m.snapshot()
    assert not history.ready or len(history) <= 17
    while history.prepare():
        pass
    assert history.at(len(history)).log == m.log and history.log == m.log


def test_stepping_changes_the_panel_in_place_and_lays_out_only_the_shown_log(monkeypatch):
    m = _long_fandango()
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, m, viewer=None))
    d.pump(3)
    while not getattr(scene.history, "ready", True):
        d.pump()
    built = {"buttons": 0, "texts": 0, "builds": 0}
    button_init, set_text, build = UIButton.__init__, UITextBox.set_text, HistoryScene.build

    def count(kind, real):
        def counted(*args, **kwargs):
            built[kind] += 1
            return real(*args, **kwargs)
        return counted

    monkeypatch.setattr(UIButton, "__init__", count("buttons", button_init))
    monkeypatch.setattr(UITextBox, "set_text", count("texts", set_text))
    monkeypatch.setattr(HistoryScene, "build", count("builds", build))
    work = Work(monkeypatch)
    rng = random.Random(3)
    for _ in range(80):
        d.key(rng.choice(KEYS))
        d.pump(2)
        applies, copies = work.take()
        assert built["builds"] == 0 and built["buttons"] == 0, "a step rebuilt the widgets"
        assert built["texts"] <= 1, "a step laid the log out more than once"
        assert copies == 0 and applies <= scene.history.every, (applies, copies)
        assert scene.log_box.scroll_bar is None, "lines nobody sees were laid out"
        built["texts"] = 0
    # Keys that pile up while the machine is busy: one loop turn, one layout of the log.
    before = scene.step
    d.app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode="")] * 5)
    assert scene.step == max(0, before - 5) and built["texts"] <= 1
    nav = [b for b, _ in scene.controls.items if b.text in ("|<", "<", ">", ">|")]
    d.key(pygame.K_HOME)
    assert [b.is_enabled for b in nav] == [False, False, True, True]
    d.key(pygame.K_END)
    assert [b.is_enabled for b in nav] == [True, True, False, False]
    assert scene.slider.get_current_value() == len(m.actions)


def _expected_html(scene: HistoryScene, events: list[dict]) -> list[str]:
    """The log box's possible texts: every ending of the seat's log lines, as the box
    writes them."""
    lines = [scene._line(ev) for ev in events if ev.get("text")]
    return ["<br>".join(lines[k:]) for k in range(len(lines))] or ["<i>Nothing yet.</i>"]


def _everyone(events: list[dict], names: list[str]) -> list[dict]:
    from game.engine.events import audience
    return [ev if audience(ev) is None else
            {**ev, "text": f"[{', '.join(names[s] for s in audience(ev))}] {ev['text']}"}
            for ev in events]


@pytest.mark.parametrize("game_id, seats, seed, actions, viewer", [
    ("odysseus", 4, 2, 90, 1),                  # hidden hands, during play: seat 1's eyes
    ("odysseus", 3, 3, 10_000, EVERYONE),       # finished: every secret, marked whose
    ("fantasy_expedition", 9, 4, 10_000, 2),    # hidden information, finished, one seat
    ("monster_fandango", 2, 5, 150, 0),
])
def test_any_order_of_steps_shows_a_fresh_replay_of_the_first_actions(game_id, seats, seed,
                                                                        actions, viewer):
    m = _game(game_id, seats, seed, actions, people=2)
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, m, viewer=None if viewer == EVERYONE else viewer))
    if m.is_over() and viewer != EVERYONE:
        while scene.seen_by != viewer:
            d.press(next(t for t in d.labels() if t.startswith("Seen by")))
    assert scene.seen_by == viewer
    seat = None if viewer == EVERYONE else viewer
    names = [s["name"] for s in m.seats]
    rng = random.Random(seed)
    for turn in range(45):
        d.key(rng.choice(KEYS))
        d.pump(2)
        while scene.queue or scene.busy_for is not None:
            d.pump()    # the step's events shown on the board
        n = scene.step
        replay = Match(m.game_id, m.seats, m.seed, m.options)
        for record in m.actions[:n]:
            replay.act(record["seat"], record["action"])
        assert scene.match.snapshot() == replay.snapshot(), f"step {n}"
        assert scene.view() == replay.view(seat), f"step {n}"
        seen = (_everyone(replay.log, names) if viewer == EVERYONE
                else [ev for ev in replay.log if visible_to(ev, seat)])
        assert scene.log_box.html_text in _expected_html(scene, seen), f"step {n}"
        if seat is not None:
            hidden = {ev["text"] for ev in replay.log if ev.get("text")
                      and not visible_to(ev, seat)} - {ev.get("text") for ev in seen}
            assert not [t for t in hidden if t in scene.log_box.html_text], f"step {n}"
        if turn % 9 == 8:
            _same_board_as_opened_afresh(d, scene, m, seat)


def _same_board_as_opened_afresh(d: Driver, scene: HistoryScene, m: Match, seat) -> None:
    """The board as drawn equals the board of History opened afresh at the step shown."""
    fresh = HistoryScene(d.app, m, viewer=seat, step=scene.step)
    fresh.seen_by, fresh.viewer = scene.seen_by, scene.viewer
    fresh.screen.reset(fresh.view())
    area = scene.board_rect()
    one, two = pygame.Surface(d.app.window_size), pygame.Surface(d.app.window_size)
    scene.draw(one)
    fresh.draw(two)
    assert (pygame.image.tobytes(one.subsurface(area), "RGB")
            == pygame.image.tobytes(two.subsurface(area), "RGB")), f"step {scene.step}"


def test_the_log_is_shown_again_after_a_scene_over_history():
    m = _game("odysseus", 3, seed=3, actions=40)
    d = Driver(size=(1280, 720))
    scene = d.app.push(HistoryScene(d.app, m, viewer=0))
    d.key(pygame.K_LEFT)
    shown = scene.log_box.html_text
    assert shown.strip()
    d.key(pygame.K_F1)
    assert d.top is not scene
    d.key(pygame.K_ESCAPE)
    assert d.top is scene and scene.log_box.html_text == shown
