"""Nothing cut off (issue 25, item 5): at 960x600, 1280x720 and 1920x1080, in every scene
(menu, setup, rules, settings, load, and each game's play screen through its phases in a
seeded game with the handover card, Step's "Next step" button, the game menu, the history
and the results), no text is shortened with an ellipsis, clipped by the widget or surface
it is drawn in, or drawn over another text, a widget or the backdrop's moon.

``tests/cutcheck.py`` says exactly what is checked; ``test_layout_sizes.py`` checks that
the widgets themselves keep apart and inside the window."""

from __future__ import annotations

import os

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.engine.registry import game_ids
from game.ui.scenes import play as play_module
from game.ui.scenes.handbook import RulesScene
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.history import HistoryScene
from game.ui.scenes.load import LoadScene
from game.ui.scenes.menu import MainMenu
from game.ui.scenes.online import HostScene, OnlineGamesScene, SignInScene
from game.ui.scenes.play import PlayScene
from game.ui.scenes.settings import CHOICES, SettingsScene
from game.ui.scenes.setup import SetupScene

from game.ui.look import UI_SCALES, why_not_size

import onlinefake
from cutcheck import Audit
from test_layout_sizes import options_for, seats_for
from uidriver import Driver

#: pygame_gui warns when a label's text does not fit its rectangle: here that fails.
pytestmark = pytest.mark.filterwarnings("error:Label Rect is too small:UserWarning")

SIZES = [(960, 600), (1280, 720), (1920, 1080)]
#: Larger interface sizes (Settings, Interface size) in the default run, as (window,
#: percent); ``ALL_LOOKS``: every size each window can hold, in the slow run.
LOOKS = [((1280, 720), 150), ((1920, 1080), 200)]
ALL_LOOKS = [(size, percent) for size in SIZES for percent in UI_SCALES
             if percent > 100 and why_not_size(percent, size) is None]
#: Where each game is looked at (actions played), besides the first time each phase shows.
POINTS = [0, 5, 24, 60]


@pytest.fixture
def audit(monkeypatch):
    monkeypatch.setattr(play_module, "LOG_LINES", 8)  # a long log only costs time here
    return Audit(monkeypatch)


def sized(d: Driver, size: tuple[int, int]) -> None:
    if d.app.window_size != size:
        d.app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        d.app.resized()
        d.pump()


def phase(match: Match) -> tuple:
    """What kind of moment this is: the game's phase and step, the kind of decision, and
    whether several people choose at once."""
    seat = match.to_act()[0]
    view = match.view(seat)
    decision = view.get("decision") or view.get("prompt") or view.get("choice")
    kind = decision.get("kind") if isinstance(decision, dict) else None
    return (view.get("phase"), view.get("step"), kind, len(match.to_act()) > 1)


def look_at_play(d: Driver, audit: Audit, match: Match, label: str) -> list[str]:
    """The play screen of ``match`` (a fresh scene, as after loading it): its handover
    card, the panel of each person to act, the last moves being shown (dice, cards...),
    the Next step button, the game menu and the history; at the end the results and the
    replay."""
    found: list[str] = []
    d.app.stack.reset(MainMenu(d.app))
    play = PlayScene(d.app, match)
    d.app.push(play)
    d.pump(2)

    def handed_over() -> None:
        """The handover card, if the screen is being passed on, then past it."""
        if isinstance(d.top, HandoverScene):
            found.extend(audit.problems(d.app, f"{label}, handover card"))
            d.key(pygame.K_SPACE)
            d.pump(2)

    handed_over()
    if match.is_over():
        found += audit.problems(d.app, f"{label}, game over")
        d.press("Show results")
        d.pump(2)
        found += audit.problems(d.app, f"{label}, results")
        d.key(pygame.K_ESCAPE)
        d.pump()
        play.open_history()
        d.pump(2)
        found += audit.problems(d.app, f"{label}, replay")
        return found
    found += audit.problems(d.app, f"{label}, panel of seat {play.viewer}")
    drawn = {text for _surface, _ink, text, _clip in audit.drawn}
    assert play.match.title in drawn, "the panel's kept picture was not looked at"
    for seat in match.to_act()[1:4]:  # several choosing at once: each one's panel
        play.viewer = seat
        play.rebuild()
        d.pump()
        handed_over()
        if d.top is play:
            found += audit.problems(d.app, f"{label}, panel of seat {play.viewer}")
    for event in [ev for ev in match.log if ev.get("text")][-4:]:  # moves being shown
        play.screen.animate(event, play.view())
        play.screen.update(0.1)
        found += audit.problems(d.app, f"{label}, showing {event['type']}")
        play.screen.finish()
    play.screen.reset(play.view())
    play.awaiting_step = True  # Step is on and the next move waits for "Next step"
    play.rebuild()
    d.pump()
    found += audit.problems(d.app, f"{label}, waiting for Next step")
    play.awaiting_step = False
    play.rebuild()
    d.key(pygame.K_ESCAPE)
    d.pump()
    found += audit.problems(d.app, f"{label}, game menu")
    d.key(pygame.K_ESCAPE)
    d.pump()
    if match.actions:
        play.open_history()
        d.pump(2)
        found += audit.problems(d.app, f"{label}, history")
    return found


@pytest.mark.parametrize("game_id", game_ids())
def test_nothing_is_cut_in_any_phase_of_a_game(game_id, audit):
    every_phase(game_id, audit, SIZES, 100)


@pytest.mark.parametrize("size,percent", LOOKS, ids=lambda v: f"{v}")
@pytest.mark.parametrize("game_id", game_ids())
def test_nothing_is_cut_at_a_larger_interface(game_id, size, percent, audit):
    """Issue 28: the interface at 150% in 1280x720 and at 200% in 1920x1080."""
    every_phase(game_id, audit, [size], percent)


@pytest.mark.slow
@pytest.mark.parametrize("size,percent", ALL_LOOKS, ids=lambda v: f"{v}")
@pytest.mark.parametrize("game_id", game_ids())
def test_nothing_is_cut_at_any_interface_size(game_id, size, percent, audit):
    every_phase(game_id, audit, [size], percent)


def every_phase(game_id: str, audit: Audit, sizes: list[tuple[int, int]], percent: int) -> None:
    """Each phase of a seeded game at each of ``sizes``, the interface at ``percent``."""
    match = Match.new(game_id, seats_for(game_id), seed=1, options=options_for(game_id))
    d = Driver(size=sizes[0], ui_scale=percent)
    found: list[str] = []
    seen: set[tuple] = set()
    for _ in range(5000):
        done = len(match.actions)
        moment = None if match.is_over() else phase(match)
        if match.is_over() or done in POINTS or moment not in seen:
            seen.add(moment)
            for size in sizes:
                sized(d, size)
                found += look_at_play(d, audit, match, f"{game_id} {size[0]}x{size[1]} at "
                                      f"{percent}% after {done} actions")
        if match.is_over():
            break
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    assert match.is_over()
    assert not found, "\n".join(dict.fromkeys(found))


#: A long but ordinary saves folder (the settings show it beside "Open folder").
LONG_FOLDER = "/Users/mira.lindqvist/Library/Application Support/Tabletop/saves"


def test_nothing_is_cut_in_the_menus(audit, tmp_path, monkeypatch):
    menus(audit, tmp_path, monkeypatch, [(size, 100) for size in SIZES])


@pytest.mark.parametrize("size,percent", LOOKS, ids=lambda v: f"{v}")
def test_nothing_is_cut_in_the_menus_at_a_larger_interface(audit, tmp_path, monkeypatch,
                                                            size, percent):
    menus(audit, tmp_path, monkeypatch, [(size, percent)])


@pytest.mark.slow
def test_nothing_is_cut_in_the_menus_at_any_interface_size(audit, tmp_path, monkeypatch):
    menus(audit, tmp_path, monkeypatch, ALL_LOOKS)


def menus(audit, tmp_path, monkeypatch, looks) -> None:
    saves = tmp_path / "saves"
    saves.mkdir(parents=True, exist_ok=True)
    for number, game_id in enumerate(game_ids()):
        match = Match.new(game_id, seats_for(game_id), seed=2, options=options_for(game_id))
        for _ in range(6):
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
        path = saves / f"{game_id}-evening.yaml"
        match.save(path)
        os.utime(path, (1_000_000 + number * 100,) * 2)
    found: list[str] = []
    server = onlinefake.FakeServer()  # Play online's screens, over a fake homeserver
    onlinefake.install(monkeypatch, server)
    for size, percent in looks:
        d = Driver(size=size, ui_scale=percent)
        onlinefake.signed_in_service(d.app, server)
        where = f"{size[0]}x{size[1]} at {percent}%"
        scenes = [("menu", lambda: MainMenu(d.app)), ("load", lambda: LoadScene(d.app)),
                  ("sign in", lambda: SignInScene(d.app, why="Wrong user name or password.")),
                  ("online games", lambda: OnlineGamesScene(d.app))]
        for game_id in game_ids():
            scenes.append((f"{game_id} setup", lambda g=game_id: SetupScene(d.app, g)))
            scenes.append((f"{game_id} rules", lambda g=game_id: RulesScene(d.app, g)))
            scenes.append((f"{game_id} online host", lambda g=game_id: HostScene(d.app, g)))
        for name, make in scenes:
            d.app.stack.reset(MainMenu(d.app))
            if name != "menu":
                d.app.push(make())
            d.pump(2)
            found += audit.problems(d.app, f"{where} {name}")
        with monkeypatch.context() as patch:  # every value of every setting, explained
            # (an ordinary saves folder: a test's own is a long temporary path)
            patch.setenv("TABLETOP_SAVES", LONG_FOLDER)
            d.app.stack.reset(MainMenu(d.app))
            settings = d.app.push(SettingsScene(d.app))
            d.pump()
            for choice in CHOICES:
                for _value in choice.values:
                    settings.change(choice, 1)  # as a click on its button does
                    value = getattr(settings.draft, choice.field)
                    found += audit.problems(d.app, f"{where} settings, {choice.field} {value}")
            for page in range(settings.pages):  # rows shown a page at a time
                settings.turn_page()
                d.pump()
                found += audit.problems(d.app, f"{where} settings, page {settings.page + 1}")
        d.app.online.stop()
    assert not found, "\n".join(dict.fromkeys(found))


def test_a_long_roll_wraps_in_the_fandango_dice_box(audit):
    """A roll's words wrap inside the dice box (they were cut at 110 characters and ran
    past the board at 960x600)."""
    d = Driver(size=SIZES[0])
    match = Match.new("monster_fandango", seats_for("monster_fandango"), seed=1)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    if isinstance(d.top, HandoverScene):
        d.key(pygame.K_SPACE)
        d.pump(2)
    text = ("Mira's Lizardman attacks the wild Horror with the magic sword and the shield "
            "of the old king: needs 1-4, rolled 3 — hit, and the Horror is slain at last.")
    play.screen.dice = {"text": text, "roll": 3, "need": 4, "time": 0.3, "good": True}
    assert audit.problems(d.app, "a long roll") == []
    shown = " ".join(t for _surface, _ink, t, _clip in audit.drawn)
    assert "slain at last." in shown
