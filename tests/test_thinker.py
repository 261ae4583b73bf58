"""Computer players think away from the drawing loop (issue 17, section 2; issue 27, item 1):
a Hard search in a worker process, an Easy or Normal choice on a worker thread.  The window
stays live, the menu opens, undo and leaving stop a search (its worker is terminated), a
thinker that fails falls back to the Normal choice with a note, no worker outlives the app,
and the game played through the thinker is the game played directly."""

from __future__ import annotations

import functools
import multiprocessing
import threading
import time

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.engine.search import SearchSettings
from game.ui import thinker as thinker_module
from game.ui.scenes.play import PlayScene
from game.engine.bots import normal_action
from game.ui.thinker import Thinker

import thinker_choosers
from uidriver import Driver


@pytest.fixture(autouse=True)
def no_worker_outlives_the_test():
    yield
    thinker_module.shutdown()
    assert thinker_module.workers() == 0
    left = [p for p in multiprocessing.active_children() if p.name == "tabletop-thinker"]
    assert not left, f"worker processes left running: {left}"

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
    ways = {}
    original = Thinker.__init__

    def start(self, match, seat, *args, **kwargs):
        original(self, match, seat, *args, **kwargs)
        ways.setdefault(match.seats[seat]["level"], set()).add(self.process)

    monkeypatch.setattr(Thinker, "__init__", start)
    play_through_scene(d, play, prefix)
    assert ways.get("hard") == {True}, f"Hard chose in a worker process: {ways}"
    assert all(ways[level] == {False} for level in ways if level != "hard"), ways
    assert len(match.actions) == prefix or match.is_over()
    assert match.actions == direct(game, seats, 7, options, len(match.actions))


def test_the_worker_thread_has_its_own_copy_of_the_match():
    match = Match.new("odysseus", [{"name": n, "kind": "bot"} for n in NAMES[:3]], seed=3)
    seen = {}

    def choose(copy, seat, cancelled, settings=None):
        seen["copy"] = copy
        seen["thread"] = threading.get_ident()
        return choose_action(copy, seat, cancelled)

    seat = match.to_act()[0]
    thinker = Thinker(match, seat, choose=choose)
    assert not thinker.process
    assert thinker.wait(30)
    copy = seen["copy"]
    assert copy is not match and copy.controller is not match.controller
    assert copy.rng is not match.rng and copy.actions is not match.actions
    assert copy.controller.rng is copy.rng, "the copy's controller draws from the copy's dice"
    assert seen["thread"] != threading.get_ident()
    assert thinker.take() == choose_action(match, seat)
    assert thinker.fits(match, 0) and not thinker.fits(match, 1)


def hard_match(game: str = "odysseus", seed: int = 3) -> Match:
    seats = [{"name": n, "kind": "bot", "level": "hard"} for n in NAMES[:3]]
    return Match.new(game, seats, seed=seed)


def test_a_hard_choice_is_made_in_a_kept_worker_process_that_follows_the_match():
    match = hard_match()
    small = SearchSettings(iterations=8, rollout_actions=8, candidates=3)
    pids = set()
    for _ in range(4):
        seat = match.to_act()[0]
        thinker = Thinker(match, seat, settings=small)
        assert thinker.process
        assert thinker.wait(60) and thinker.note is None
        assert thinker.take() == choose_action(match, seat, None, small)
        probe = Thinker(match, seat, choose=thinker_choosers.whoami)
        assert probe.wait(60)
        pids.add(probe.take()["pid"])
        assert probe.take()["actions"] == len(match.actions)
        match.act(seat, thinker.take())
    assert len(pids) == 1 and multiprocessing.current_process().pid not in pids, (
        "one worker process, kept from decision to decision")
    match.undo() if match.can_undo() else None
    probe = Thinker(match, match.to_act()[0], choose=thinker_choosers.whoami)
    assert probe.wait(60) and probe.take()["actions"] == len(match.actions)


def test_cancelling_a_hard_search_terminates_its_worker(tmp_path):
    match = hard_match()
    thinker = Thinker(match, match.to_act()[0],
                      choose=functools.partial(thinker_choosers.slow, str(tmp_path)))
    running = tmp_path / "running"
    end = time.monotonic() + 60
    while not running.exists():
        assert time.monotonic() < end and not thinker.done
        time.sleep(0.01)
    worker = thinker._worker
    assert worker is not None and worker.process.pid == int(running.read_text())
    thinker.cancel()
    assert thinker.done and thinker.cancelled and not thinker.fits(match, 0)
    assert not worker.alive(), "the worker was terminated at once"
    with pytest.raises(RuntimeError):
        thinker.take()


@pytest.mark.parametrize("chooser, why", [(thinker_choosers.broken, "search failed"),
                                          (thinker_choosers.dies, "worker stopped")])
def test_a_failed_hard_thinker_falls_back_to_the_normal_choice_with_a_note(chooser, why):
    match = hard_match()
    seat = match.to_act()[0]
    thinker = Thinker(match, seat, choose=chooser)
    assert thinker.wait(60)
    assert thinker.take() == normal_action(match, seat)
    assert thinker.note and why in thinker.note and "Normal" in thinker.note
    assert NAMES[seat] in thinker.note


def test_a_hard_search_past_the_wall_clock_cap_falls_back_to_the_normal_choice(tmp_path):
    match = hard_match()
    seat = match.to_act()[0]
    thinker = Thinker(match, seat, cap=0.3,
                      choose=functools.partial(thinker_choosers.slow, str(tmp_path)))
    assert thinker.wait(60)
    assert thinker.take() == normal_action(match, seat)
    assert "more than 0.3 s" in thinker.note


def test_cancel_stops_a_search_and_its_choice_no_longer_fits():
    match = Match.new("fantasy_racing", [{"name": n, "kind": "bot"} for n in NAMES[:2]], seed=1)
    polled = threading.Event()

    def stubborn(copy, seat, cancelled, settings=None):
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

    def broken(copy, seat, cancelled, settings=None):
        raise KeyError("rules bug")

    thinker = Thinker(match, match.to_act()[0], choose=broken)
    assert thinker.wait(30)
    with pytest.raises(KeyError):
        thinker.take()


@pytest.fixture
def slow_computer(monkeypatch, tmp_path):
    """Hard computers think (in their worker process) until released: a search that takes
    its time.  ``running`` and ``release`` are files the worker and the test share."""
    state = {"running": tmp_path / "running", "release": tmp_path / "release"}
    original = Thinker.__init__

    def start(self, match, seat, *args, **kwargs):
        kwargs.setdefault("choose", functools.partial(thinker_choosers.slow, str(tmp_path)))
        original(self, match, seat, *args, **kwargs)

    monkeypatch.setattr(Thinker, "__init__", start)
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
        if play.thinker is not None and state["running"].exists() and not play.showing:
            return
        time.sleep(0.005)
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
    worker = thinker._worker
    d.press("Undo")
    assert thinker.cancelled and thinker.wait(30)
    assert not worker.alive(), "the search's worker was terminated"
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
    slow_computer["release"].write_text("go")    # a search would finish after the undo
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
    worker = thinker._worker
    d.app.to_menu()
    assert thinker.cancelled and thinker.wait(30)
    assert not worker.alive()
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
    slow_computer["release"].write_text("go")
    for _ in range(2000):
        d.pump()
        time.sleep(0.005)
        if len(play.match.actions) > 1:
            break
    actions = play.match.actions
    assert len(actions) > 1 and play.match.seats[actions[1]["seat"]]["kind"] == "bot"


def test_a_failed_hard_search_plays_the_normal_choice_and_says_so_in_the_log(monkeypatch):
    original = Thinker.__init__

    def start(self, match, seat, *args, **kwargs):
        kwargs.setdefault("choose", thinker_choosers.broken)
        original(self, match, seat, *args, **kwargs)

    monkeypatch.setattr(Thinker, "__init__", start)
    d = Driver()
    play = person_then_hard_computer(d)
    match = play.match
    assert play.perform(0, match.legal_actions(0)[0])
    expected = None
    for _ in range(4000):
        if expected is None and match.to_act() == [1] and len(match.actions) == 1:
            expected = normal_action(match, 1)
        d.pump()
        if len(match.actions) > 1:
            break
        time.sleep(0.005)
    assert len(match.actions) > 1 and match.actions[1] == {"seat": 1, "action": expected}
    lines = [ev["text"] for ev in play._log_events()]
    assert any("Bo (Hard) could not finish thinking" in line and "Normal choice" in line
               for line in lines), lines
