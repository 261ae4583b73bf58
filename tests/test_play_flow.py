"""The client end to end: set up, play hot-seat with privacy, save, quit, load, finish."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest

from game.engine import Match
from game.ui import paths
from game.ui.scenes.play import WATCH, PlayScene

from uidriver import Driver

NAMES = ["Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell"]


def watch_privacy(monkeypatch) -> dict:
    """Record, for every frame the play scene draws, whose view it drew."""
    seen = {"person": None, "frames": []}
    original = PlayScene.draw

    def draw(self, surface):
        seen["frames"].append((self.viewer, seen["person"]))
        return original(self, surface)

    monkeypatch.setattr(PlayScene, "draw", draw)
    return seen


def take_turn(d: Driver, seen: dict) -> None:
    """Whatever a person would do now: confirm a handover, or act through the panel."""
    if d.scene_name == "HandoverScene":
        seen["person"] = d.top.seat
        d.key(pygame.K_SPACE)
        return
    play = d.top
    match = play.match
    if (not isinstance(play, PlayScene) or play.viewer is None or play.showing
            or play.viewer not in match.to_act()):
        d.pump()
        return
    view = match.view(play.viewer)
    if view["phase"] == "trading":
        if d.buttons("Accept"):
            d.press("Decline" if play.viewer % 2 else "Accept")
        elif play.viewer == 0 and view["trading"]["round"] == 1:
            other = next(w.text for w, _ in play.controls.items if "(" in w.text)
            d.press(other)  # propose a swap to the first listed player
        else:
            d.press("Pass")
    elif view["phase"] == "choice":
        d.press(str(1 + play.viewer % 9), 0)
        d.press("7", 1)
        if d.buttons("Left"):
            d.press("Left", 0)
            d.press("Right", 1)
        d.press("Confirm in secret")
    elif view["phase"] == "vote":
        d.press(next(t for t in d.labels() if t.startswith("Vote for")))


def test_full_hot_seat_game_with_save_quit_load(monkeypatch):
    seen = watch_privacy(monkeypatch)
    d = Driver()
    d.press("New game")
    assert d.scene_name == "SetupScene"
    for index in (1, 2):  # seats 2 and 3 become people too
        d.press("Computer", 0)
    assert [s["kind"] for s in d.top.seats[:4]] == ["human", "human", "human", "bot"]
    d.press("Start")
    d.pump(3)
    assert d.scene_name == "HandoverScene"
    saved = False
    for _ in range(4000):
        if d.scene_name == "ResultsScene":
            break
        play = d.app.stack.find(PlayScene)
        match = play.match
        if not saved and match.view()["phase"] == "choice" and d.scene_name == "PlayScene":
            # Halfway: save from the game menu, quit to the menu, load it back.
            d.key(pygame.K_ESCAPE)
            assert d.scene_name == "PauseScene"
            d.press("Save")
            files = sorted(paths.saves_dir().glob("fantasy_expedition-*.yaml"))
            assert len(files) == 1
            before = Match.load(files[0]).actions
            assert before
            d.key(pygame.K_ESCAPE)
            d.press("Quit to menu")
            assert d.scene_name == "MainMenu"
            d.press("Load")
            assert d.scene_name == "LoadScene"
            entry = next(main for main, _delete in d.top.rows
                         if d.top.entry_of[main].path == files[0])
            d.app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=entry)])
            assert d.scene_name == "PlayScene"
            assert d.top.match.actions[:len(before)] == before
            seen["person"] = None
            saved = True
            continue
        take_turn(d, seen)
    assert saved
    assert d.scene_name == "ResultsScene"
    match = d.app.stack.find(PlayScene).match
    assert match.is_over()
    result = match.result()
    assert sorted(result["final"]) == list(range(1, 10))
    assert result["elimination_candidate"] in range(9)
    # Privacy: every frame showed the public view or the person at the screen.
    assert seen["frames"]
    bad = [(viewer, person) for viewer, person in seen["frames"]
           if viewer is not None and viewer != person]
    assert not bad
    # The autosave is there and loads to the same finished game.
    loaded = Match.load(paths.autosave_path("fantasy_expedition", match.match_id))
    assert loaded.result() == result


def test_continue_resumes_the_autosave():
    d = Driver()
    d.press("New game")
    d.press("Start")
    d.pump(3)
    play = d.app.stack.find(PlayScene)
    d.press("Pass")
    actions = len(play.match.actions)
    assert actions >= 1
    d.app.to_menu()
    assert d.buttons("Continue")[0].is_enabled
    d.press("Continue")
    assert d.scene_name in ("PlayScene", "HandoverScene")
    assert len(d.app.stack.find(PlayScene).match.actions) >= actions


def test_bad_save_gives_a_message_and_the_program_carries_on():
    paths.saves_dir().mkdir(parents=True)
    bad = paths.saves_dir() / "autosave-fantasy_expedition.yaml"
    bad.write_text("format: tabletop-match\nversion: 1\ngame: fantasy_expedition\nseats: [")
    d = Driver()
    from game.ui.scenes.menu import open_match
    assert open_match(d.app, bad) is False
    assert d.scene_name == "MainMenu"
    assert d.app.toasts and "autosave-fantasy_expedition.yaml" in d.app.toasts[-1][0]
    assert bad.read_text().endswith("seats: [")


def test_illegal_action_is_refused_with_a_reason():
    d = Driver()
    d.press("New game")
    d.press("Start")
    d.pump(3)
    play = d.app.stack.find(PlayScene)
    assert play.perform(play.viewer, {"type": "vote", "candidate": 3}) is False
    assert "not possible now" in d.app.toasts[-1][0]


def test_keyboard_navigation_and_board_cursor():
    d = Driver()
    d.key(pygame.K_TAB)
    focused = d.top.controls.focused()
    assert focused is not None
    d.press("New game")
    d.press("Start")
    d.pump(3)
    play = d.app.stack.find(PlayScene)
    d.key(pygame.K_RIGHT)
    first = play.cursor
    d.key(pygame.K_RIGHT)
    assert play.cursor != first
    x0 = play.screen.cell_center(first)[0]
    assert play.screen.cell_center(play.cursor)[0] > x0
    d.key(pygame.K_ESCAPE)
    assert d.scene_name == "PauseScene"
    d.key(pygame.K_ESCAPE)
    assert d.scene_name == "PlayScene"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (1000, 640)])
def test_play_scene_draws_at_any_window_size(size):
    d = Driver(size=size)
    seats = [{"name": n, "kind": "bot"} for n in NAMES]
    d.app.push(PlayScene(d.app, Match.new("fantasy_expedition", seats, seed=2)))
    d.pump(5)
    surface = d.app.screen
    assert surface.get_size() == size
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, size[0], 37)
               for y in range(0, size[1], 29)}
    assert len(colours) > 30


def test_step_mode_waits_for_each_move_of_the_resolution():
    d = Driver(animation="off")
    seats = [{"name": n, "kind": "bot"} for n in NAMES]
    seats[0]["kind"] = "human"
    # Seed 10: the human is not among the tie voters (the bots decide the rest).
    match = Match.new("fantasy_expedition", seats, seed=10, options={"trade_rounds": 0})
    from game.engine.bots import choose_action
    while match.to_act() != [0]:
        seat = next(s for s in match.to_act() if s != 0)
        match.act(seat, choose_action(match, seat))
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    d.press("Step: off")
    assert play.step_mode
    d.press("3", 0)
    d.press("3", 1)
    d.press("Confirm in secret")
    steps = 0
    for _ in range(3000):
        d.pump()
        if play.awaiting_step:
            shown = len(play.shown)
            d.pump(20)
            assert len(play.shown) == shown, "nothing moves until the player asks"
            # The outcome stays hidden until the board has shown it.
            assert "Show results" not in d.labels() and " ".join(play.info_lines()) == WATCH
            d.press("Next step")
            steps += 1
        if match.is_over() and not play.queue and play.busy_for is None:
            break
    moves = [ev for ev in match.log if ev["type"] in play.screen.STEP_EVENTS]
    assert steps == len(moves) > 4
    d.pump(3)
    assert not play.showing
    assert d.scene_name == "ResultsScene" or "Show results" in d.labels()


def test_a_lone_person_chooses_while_the_computers_think():
    d = Driver(animation="normal")
    d.app.settings.bot_delay = 5.0
    seats = [{"name": n, "kind": "bot"} for n in NAMES]
    seats[4]["kind"] = "human"
    match = Match.new("fantasy_expedition", seats, seed=3, options={"trade_rounds": 0})
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    assert len(match.to_act()) == 9, "the computers have not chosen yet"
    assert play.viewer == 4 and d.buttons("Confirm in secret")
