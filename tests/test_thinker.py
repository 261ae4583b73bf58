"""Computer players think on a worker thread (issue 17, section 2): the window stays live,
the menu opens, undo and leaving cancel a search, and the game played through the thread is
the game played directly."""

from __future__ import annotations

import threading
import time

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.engine.search import SearchSettings
from game.ui import thinker as thinker_module
from game.ui.scenes.play import PlayScene
from game.ui.thinker import Thinker

from uidriver import Driver

NAMES = ["Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell"]
#: A small search, so that Hard games finish in seconds (both paths use the same settings).
SMALL = SearchSettings(iterations=8, rollout_actions=8, candidates=3)


#: Actions played through the scene in the comparison (the opening of each game).
PREFIX = 24


def play_through_scene(d: Driver, play: PlayScene, actions: int, limit: float = 120.0) -> None:
    """Pump the loop until ``actions`` actions were played or the match is over (bounded:
    a hang fails, it does not hang)."""
    end = time.monotonic() + limit
    while not play.match.is_over() and len(play.match.actions) < actions:
        assert time.monotonic() < end, f"stuck after {len(play.match.actions)} actions"
        assert d.top is play, d.scene_name
        d.pump()


def direct(game: str, seats: list[dict], seed: int, options: dict | None,
           actions: int) -> list:
    match = Match.new(game, seats, seed=seed, options=options)
    while not match.is_over() and len(match.actions) < actions:
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    return match.actions


CASES = [
    ("fantasy_racing", ["hard", "easy", "normal"], None),
    ("mothership", ["easy", "hard"], None),
    ("fantasy_expedition", ["normal", "easy", "hard"] * 3, {"trade_rounds": 1}),
    ("odysseus", ["normal", "hard", "easy"], None),
    ("monster_fandango", ["hard", "easy"], None),
]


@pytest.mark.parametrize("game, levels, options", CASES[:3])
def test_a_game_played_through_the_thread_is_the_game_played_directly(game, levels, options,
                                                                      monkeypatch):
    same_game_both_ways(game, levels, options, PREFIX, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("game, levels, options", CASES)
def test_longer_games_played_through_the_thread_are_the_games_played_directly(
        game, levels, options, monkeypatch):
    same_game_both_ways(game, levels, options, 5 * PREFIX, monkeypatch)


def same_game_both_ways(game, levels, options, prefix, monkeypatch) -> None:
    from game.engine.registry import controller_class
    from game.ui.app import App
    cls = controller_class(game)
    monkeypatch.setattr(cls, "search_settings", SMALL, raising=False)
    # What is drawn does not matter here (and drawing is most of a loop turn's cost).
    monkeypatch.setattr(App, "draw", lambda self: setattr(self, "frames", self.frames + 1))
    seats = [{"name": NAMES[i], "kind": "bot", "level": level} for i, level in enumerate(levels)]
    d = Driver()
    match = Match.new(game, seats, seed=7, options=options)
    play = d.app.push(PlayScene(d.app, match))
    threads = set()
    original = Thinker._run

    def run(self):
        threads.add(threading.get_ident())
        original(self)

    monkeypatch.setattr(Thinker, "_run", run)
    play_through_scene(d, play, prefix)
    assert threads and threading.get_ident() not in threads, "chosen on worker threads"
    assert len(match.actions) == prefix or match.is_over()
    assert match.actions == direct(game, seats, 7, options, len(match.actions))


def test_the_worker_has_its_own_copy_of_the_match():
    match = Match.new("odysseus", [{"name": n, "kind": "bot"} for n in NAMES[:3]], seed=3)
    seen = {}

    def choose(copy, seat, cancelled):
        seen["copy"] = copy
        seen["thread"] = threading.get_ident()
        return choose_action(copy, seat, cancelled)

    seat = match.to_act()[0]
    thinker = Thinker(match, seat, choose=choose)
    assert thinker.wait(30)
    copy = seen["copy"]
    assert copy is not match and copy.controller is not match.controller
    assert copy.rng is not match.rng and copy.actions is not match.actions
    assert copy.controller.rng is copy.rng, "the copy's controller draws from the copy's dice"
    assert seen["thread"] != threading.get_ident()
    assert thinker.take() == choose_action(match, seat)
    assert thinker.fits(match, 0) and not thinker.fits(match, 1)


def test_cancel_stops_a_search_and_its_choice_no_longer_fits():
    match = Match.new("fantasy_racing", [{"name": n, "kind": "bot"} for n in NAMES[:2]], seed=1)
    polled = threading.Event()

    def stubborn(copy, seat, cancelled):
        while not cancelled():
            polled.set()
            time.sleep(0.005)
        return copy.legal_actions(seat)[0]

    thinker = Thinker(match, match.to_act()[0], choose=stubborn)
    assert polled.wait(30)
    assert not thinker.done
    thinker.cancel()
    assert thinker.wait(30), "the search stopped when cancelled"
    assert not thinker.fits(match, 0)


def test_a_fault_in_the_worker_is_raised_on_the_main_thread():
    match = Match.new("fantasy_racing", [{"name": n, "kind": "bot"} for n in NAMES[:2]], seed=1)

    def broken(copy, seat, cancelled):
        raise KeyError("rules bug")

    thinker = Thinker(match, match.to_act()[0], choose=broken)
    assert thinker.wait(30)
    with pytest.raises(KeyError):
        thinker.take()


@pytest.fixture
def slow_computer(monkeypatch):
    """Computers think until cancelled or released (a search that takes its time)."""
    state = {"release": threading.Event(), "running": threading.Event(), "cancels": 0,
             "calls": 0}

    def slow(copy, seat, cancelled=None):
        state["calls"] += 1
        state["running"].set()
        while not state["release"].is_set():
            if cancelled is not None and cancelled():
                state["cancels"] += 1
                break
            time.sleep(0.002)
        return choose_action(copy, seat)

    monkeypatch.setattr(thinker_module, "choose_action", slow)
    return state


def person_then_hard_computer(d: Driver) -> PlayScene:
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot", "level": "hard"}]
    match = Match.new("fantasy_racing", seats, seed=4)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    for _ in range(200):
        if play.viewer == 0 and match.to_act() == [0] and not play.showing:
            break
        d.pump()
    assert match.to_act() == [0]
    return play


def wait_thinking(d: Driver, play: PlayScene, state: dict) -> None:
    for _ in range(400):
        d.pump()
        if play.thinker is not None and state["running"].is_set() and not play.showing:
            return
    raise AssertionError("the computer never started thinking")


def test_while_a_computer_thinks_the_cue_shows_the_menu_opens_and_undo_cancels(slow_computer):
    d = Driver()
    play = person_then_hard_computer(d)
    match = play.match
    assert play.perform(0, match.legal_actions(0)[0])
    wait_thinking(d, play, slow_computer)
    assert match.to_act() == [1] and len(match.actions) == 1
    assert play.thinking()[0] == "Bo (Hard) is thinking"
    assert "Bo (Hard) is thinking" in play._panel_content()[2]
    # The loop stays live: it draws and takes input, and the game menu opens.
    frames = d.app.frames
    d.key(pygame.K_ESCAPE)
    assert d.scene_name == "PauseScene"
    assert d.app.frames > frames
    assert play.thinker is not None and not play.thinker.done, "still thinking under the menu"
    thinker = play.thinker
    d.press("Undo")
    assert thinker.cancelled and thinker.wait(30)
    assert slow_computer["cancels"] == 1
    assert match.actions == [] and play.thinker is None
    d.pump(5)
    assert match.actions == [], "the cancelled choice was never played"


def test_a_choice_made_before_an_undo_is_not_played_after_it(slow_computer):
    d = Driver()
    play = person_then_hard_computer(d)
    match = play.match
    assert play.perform(0, match.legal_actions(0)[0])
    wait_thinking(d, play, slow_computer)
    old = play.thinker
    assert play.undo()
    slow_computer["release"].set()    # the old search finishes after the undo
    assert old.wait(30)
    assert not old.fits(match, play.think_epoch)
    d.pump(10)
    assert match.actions == []


def test_leaving_the_game_cancels_the_search(slow_computer):
    d = Driver()
    play = person_then_hard_computer(d)
    assert play.perform(0, play.match.legal_actions(0)[0])
    wait_thinking(d, play, slow_computer)
    thinker = play.thinker
    d.app.to_menu()
    assert thinker.cancelled and thinker.wait(30)
    assert d.scene_name == "MainMenu"


def test_while_thinking_the_loop_asks_only_for_the_cues_frames(slow_computer):
    d = Driver()
    play = person_then_hard_computer(d)
    assert play.perform(0, play.match.legal_actions(0)[0])
    wait_thinking(d, play, slow_computer)
    d.pump(3)
    d.app.dirty = False
    d.app.redraw_until = 0.0
    play.thinker.elapsed = 0.0                # the cue's next step is 1/CUE_RATE s away
    # A short turn of the loop moves nothing: no frame is asked for...
    assert play.update(0.01) is False
    assert not d.app.dirty
    # ...until the cue's next step.
    for _ in range(40):
        assert play.update(0.01) is False
        if d.app.dirty:
            break
    assert d.app.dirty, "the cue asked for its frame"
    slow_computer["release"].set()
    for _ in range(400):
        d.pump()
        if len(play.match.actions) > 1:
            break
    actions = play.match.actions
    assert len(actions) > 1 and play.match.seats[actions[1]["seat"]]["kind"] == "bot"
