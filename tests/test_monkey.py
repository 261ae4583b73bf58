"""A monkey plays every game through the real loop, as a restless person would.

Random clicks (mostly on widgets and board cells), keys (Escape, Tab, Enter, Space, arrows,
letters, +, -, 0, F-keys, odd characters typed into text fields), the wheel, drags and window
resizes are posted to pygame's own event queue, and ``App.step()`` reads them from there,
exactly as it does for a person.  The walk goes from the main menu through setup, play,
handovers, the game menu (save, save as, load, undo, rules), settings and results; when it
has been away from the game for a while it is steered back into a new match of the game
under test.  The loop's crash guard would hide a fault behind a crash report and a return
to the menu, so the test asserts that no fault was caught and no ``crash-*`` file written.

The seed is printed and named in every assertion; ``MONKEY_SEED=N`` replays a walk (the
walk also depends on timing: computer delays, animations and the handover guard run in
real time), ``MONKEY_EVENTS=N`` changes its length.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pygame
import pytest
from pygame_gui.elements import UIButton, UITextEntryLine

from game.engine import Match, controller_class, game_ids
from game.engine.bots import choose_action
from game.ui import paths
from game.ui.app import App
from game.ui.settings import Settings

#: Events per game in the CI run, and in the long sweep behind ``-m slow``.
CI_EVENTS = int(os.environ.get("MONKEY_EVENTS", "2500"))
SLOW_EVENTS = int(os.environ.get("MONKEY_EVENTS", "25000"))
SEED = int(os.environ.get("MONKEY_SEED", "0")) or random.SystemRandom().randrange(1, 10**6)

LETTERS = [getattr(pygame, f"K_{c}") for c in "abcdefghijklmnopqrstuvwxyz"]
COMMAND_KEYS = ([pygame.K_ESCAPE, pygame.K_TAB, pygame.K_RETURN, pygame.K_KP_ENTER,
                 pygame.K_SPACE, pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT,
                 pygame.K_PLUS, pygame.K_EQUALS, pygame.K_MINUS, pygame.K_KP_PLUS,
                 pygame.K_KP_MINUS, pygame.K_0, pygame.K_n, pygame.K_BACKSPACE, pygame.K_DELETE,
                 pygame.K_HOME, pygame.K_END, pygame.K_PAGEUP, pygame.K_PAGEDOWN]
                + [getattr(pygame, f"K_F{n}") for n in range(1, 13)])
KEY_TEXT = {pygame.K_SPACE: " ", pygame.K_PLUS: "+", pygame.K_EQUALS: "=", pygame.K_MINUS: "-",
            pygame.K_KP_PLUS: "+", pygame.K_KP_MINUS: "-", pygame.K_0: "0", pygame.K_n: "n"}
#: Text a person might type or paste besides plain letters (zero-width and format
#: characters, accents, other scripts, an emoji).
ODD_TEXT = ["\u200b", "\u200d", "\u202e", "\u00ad", "\ufeff", "é", "e\u0301", "李", "Ω", "😀",
            "7", "-", "²", " "]
NAMES = ["Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell"]
#: The window losing and regaining focus, the pointer leaving it, minimising.
WINDOW_EVENTS = [pygame.WINDOWFOCUSLOST, pygame.WINDOWFOCUSGAINED, pygame.WINDOWLEAVE,
                 pygame.WINDOWENTER, pygame.WINDOWMINIMIZED, pygame.WINDOWRESTORED,
                 pygame.WINDOWEXPOSED]
SIZES = [(1280, 720), (960, 600), (1920, 1080), (1024, 700), (800, 480), (1366, 768)]


@dataclass
class Walk:
    """What one monkey run did (for the report and the assertions)."""

    game: str
    seed: int
    events: int = 0
    steps: int = 0
    steers: int = 0
    quits: int = 0
    scenes: set[str] = field(default_factory=set)
    actions: int = 0
    matches: int = 0
    seconds: float = 0.0
    #: Clicks on each button text (the menus' Save, Load, Undo, Rules... show coverage).
    pressed: Counter = field(default_factory=Counter)

    def where(self, index: int | None = None) -> str:
        at = f", event {index}" if index is not None else ""
        return f"monkey {self.game} seed {self.seed}{at} (MONKEY_SEED={self.seed} replays)"


class Monkey:
    """Posts random input to pygame's queue and runs the real loop on it."""

    def __init__(self, app: App, game: str, seed: int) -> None:
        self.app = app
        self.game = game
        self.title = controller_class(game).title
        self.rng = random.Random(f"{seed}-{game}")
        self.walk = Walk(game, seed)
        #: Gestures since the game under test was last on screen (the walk begins by
        #: steering from the menu into a match).
        self.away = 10**6
        self.mouse = (0, 0)
        self.seen_matches: set[int] = set()
        self.start_tries = 0

    # posting ---------------------------------------------------------------------------
    def post(self, kind: int, **attrs) -> None:
        pygame.event.post(pygame.event.Event(kind, **attrs))
        self.walk.events += 1

    def move(self, pos: tuple[int, int], buttons=(0, 0, 0)) -> None:
        rel = (pos[0] - self.mouse[0], pos[1] - self.mouse[1])
        self.mouse = pos
        self.post(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=buttons, touch=False)

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        self.move(pos)
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button, touch=False)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button, touch=False)

    def key(self, key: int, mod: int = 0, text: str | None = None, repeats: int = 1) -> None:
        """Press and release ``key``; ``repeats`` > 1 holds it (the key repeats)."""
        unicode = text if text is not None else KEY_TEXT.get(key, "")
        for _ in range(repeats):
            self.post(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0)
            if unicode and not mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
                self.post(pygame.TEXTINPUT, text=unicode)
        self.post(pygame.KEYUP, key=key, mod=mod, unicode=unicode, scancode=0)

    # what is on screen -----------------------------------------------------------------
    @property
    def top(self):
        return self.app.stack.top

    def widgets(self, enabled: bool = True) -> list:
        size = self.app.screen.get_rect()
        found = []
        for element in self.app.ui.get_sprite_group().sprites():
            if not isinstance(element, (UIButton, UITextEntryLine)) or not element.visible:
                continue
            if enabled and not element.is_enabled:
                continue
            if size.colliderect(element.rect):
                found.append(element)
        return found

    def play(self):
        from game.ui.scenes.play import PlayScene
        return self.app.stack.find(PlayScene)

    def point_in(self, rect: pygame.Rect) -> tuple[int, int]:
        rect = rect.clip(self.app.screen.get_rect())
        if rect.width < 3 or rect.height < 3:
            return rect.center
        return (self.rng.randint(rect.left + 1, rect.right - 2),
                self.rng.randint(rect.top + 1, rect.bottom - 2))

    def board_point(self) -> tuple[int, int] | None:
        play = self.play()
        if play is None or play is not self.top:
            return None
        cells = play.screen.cells()
        if not cells:
            return None
        x, y = play.transform().to_screen(*play.screen.cell_center(self.rng.choice(cells)))
        return round(x), round(y)

    # gestures --------------------------------------------------------------------------
    def gesture(self) -> None:
        rng = self.rng
        roll = rng.random()
        if roll < 0.38:
            widgets = self.widgets(enabled=rng.random() < 0.9)
            if widgets:
                widget = rng.choice(widgets)
                self.walk.pressed[getattr(widget, "text", "") or "(unnamed)"] += 1
                self.click(self.point_in(widget.rect))
                return
        if roll < 0.58:
            point = self.board_point()
            if point is not None:
                self.click(point, 1 if rng.random() < 0.9 else rng.choice((2, 3)))
                return
        if roll < 0.64:
            size = self.app.screen.get_size()
            self.click((rng.randrange(size[0]), rng.randrange(size[1])), rng.choice((1, 1, 2, 3)))
        elif roll < 0.78:
            key = rng.choice(COMMAND_KEYS)
            mod = pygame.KMOD_SHIFT if key == pygame.K_TAB and rng.random() < 0.3 else 0
            self.key(key, mod, repeats=rng.choice((1,) * 9 + (2, 4)))
        elif roll < 0.86:
            key = rng.choice(LETTERS)
            shifted = rng.random() < 0.2
            self.key(key, pygame.KMOD_SHIFT if shifted else 0,
                     pygame.key.name(key).upper() if shifted else pygame.key.name(key))
        elif roll < 0.89:
            self.post(pygame.TEXTINPUT, text=rng.choice(ODD_TEXT))
        elif roll < 0.93:
            point = self.board_point() or self.point_in(self.app.screen.get_rect())
            self.move(point)
            for _ in range(rng.randint(1, 3)):
                self.post(pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)), flipped=False,
                          precise_x=0.0, precise_y=float(rng.choice((-1, 1))), touch=False)
        elif roll < 0.965:
            self.drag()
        elif roll < 0.97:
            self.resize()
        elif roll < 0.975:
            self.post(rng.choice(WINDOW_EVENTS))
        else:
            self.wait(rng.uniform(0.05, 0.6))

    def drag(self) -> None:
        rng = self.rng
        start = self.board_point() or self.point_in(self.app.screen.get_rect())
        button = rng.choice((1, 2, 3, 3))
        held = tuple(int(b == button) for b in (1, 2, 3))
        self.move(start)
        self.post(pygame.MOUSEBUTTONDOWN, pos=start, button=button, touch=False)
        x, y = start
        for _ in range(rng.randint(2, 6)):
            x, y = x + rng.randint(-120, 120), y + rng.randint(-90, 90)
            self.move((x, y), held)
        self.post(pygame.MOUSEBUTTONUP, pos=(x, y), button=button, touch=False)

    def resize(self) -> None:
        """What a window manager does: the window changes size, then SDL says so."""
        if self.app.settings.fullscreen:
            return
        width, height = self.rng.choice(SIZES)
        pygame.display.set_mode((width, height), pygame.RESIZABLE)
        self.post(pygame.VIDEORESIZE, w=width, h=height, size=(width, height))

    def wait(self, seconds: float) -> None:
        """Let time pass with no input (computers move, animations and guards run out)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.step()

    # steering back to the game under test ------------------------------------------------
    def steer(self) -> None:
        """One move towards a new match of the game under test, by clicks and keys."""
        self.walk.steers += 1
        name = type(self.top).__name__
        buttons = {getattr(w, "text", ""): w for w in self.widgets()}
        if name == "MainMenu":
            # Mostly a new match; sometimes the latest one, or a save from the Load screen
            # (the walk starts with a save from the middle and one from the end of a game).
            # The first match of a walk is always a new one, so every walk sees the setup.
            choice = self.rng.choices(["New game", "Continue", "Load"], (6, 2, 2))[0]
            if "SetupScene" not in self.walk.scenes:
                choice = "New game"
            button = buttons.get(choice) or buttons.get("New game")
            if button is not None:
                self.click(button.rect.center)
        elif name == "LoadScene":
            entries = [w for w in self.widgets() if getattr(w, "text", None) == ""]
            if entries:
                self.click(self.rng.choice(entries).rect.center)
            else:
                self.key(pygame.K_ESCAPE)
        elif name == "SetupScene":
            game_button = next((w for text, w in buttons.items() if text.startswith("Game: ")),
                               None)
            if game_button is not None and game_button.text != f"Game: {self.title}":
                self.click(game_button.rect.center)
            elif self.top.seats[1]["kind"] != "human":
                people = [w for w in self.widgets() if getattr(w, "text", "") == "Computer"]
                if people:
                    self.click(people[0].rect.center)
            elif "Start" in buttons and self.start_tries < 2:
                self.start_tries += 1
                self.click(buttons["Start"].rect.center)
            elif "Back" in buttons:  # Start refused (a name typed away): a fresh setup
                self.start_tries = 0
                self.click(buttons["Back"].rect.center)
        elif name == "PauseScene" and "Quit to menu" in buttons:
            self.click(buttons["Quit to menu"].rect.center)  # a match of another game
        else:
            self.key(pygame.K_ESCAPE)
        # A click's UI_BUTTON_PRESSED is handled on the loop turn after the click's.
        self.step()

    # the loop ----------------------------------------------------------------------------
    def step(self) -> None:
        self.app.step()
        self.walk.steps += 1
        top = self.top
        self.walk.scenes.add(type(top).__name__ if top else "-")
        if self.app.crashes:
            raise AssertionError(f"{self.walk.where(self.walk.events)}: the loop caught a "
                                 f"fault\n{crash_reports()}")
        if not self.app.running:  # Quit on the menu: a person would start the program again
            self.walk.quits += 1
            self.app.running = True
        if self.app.stack.top is None:
            self.app.to_menu()
        play = self.play()
        if play is not None and play.match.game_id == self.game:
            self.away = self.start_tries = 0
            if id(play.match) not in self.seen_matches:
                self.seen_matches.add(id(play.match))
                self.walk.matches += 1
            self.walk.actions = max(self.walk.actions, len(play.match.actions))

    def run(self, events: int) -> Walk:
        started = time.monotonic()
        self.app.step()
        while self.walk.events < events:
            if self.away > 120:
                self.steer()
            else:
                for _ in range(self.rng.randint(1, 4)):
                    self.gesture()
            self.away += 1
            self.step()
        self.wait(0.3)
        self.walk.seconds = time.monotonic() - started
        return self.walk


def crash_reports() -> str:
    folder = paths.saves_dir()
    reports = sorted(folder.glob("crash-*")) if folder.exists() else []
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[:6000]}" for p in reports)


def seed_saves(game: str, seed: int) -> None:
    """Saves of ``game`` from the middle and (for short games) the end of a match played by
    computers, so that Load and Continue take the walk into later phases than its own
    clicks reach (the results screen, endgame choices)."""
    cls = controller_class(game)
    count = cls.max_seats if cls.min_seats == cls.max_seats else min(4, cls.max_seats)
    seats = [{"name": NAMES[i], "kind": "human" if i < 2 else "bot"} for i in range(count)]
    match = Match.new(game, seats, seed=seed)
    actions: list[tuple[int, dict]] = []
    while not match.is_over() and len(actions) < 400:
        seat = match.to_act()[0]
        action = choose_action(match, seat)
        actions.append((seat, action))
        match.act(seat, action)
    folder = paths.saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    if match.is_over():
        match.save(folder / "monkey-end.yaml")
    middle = Match.new(game, seats, seed=seed)
    for seat, action in actions[: min(len(actions) // 2, 150)]:
        middle.act(seat, action)
    middle.save(folder / "monkey-middle.yaml")


def run_monkey(game: str, events: int, seed: int) -> Walk:
    print(f"monkey: game {game}, seed {seed}, {events} events (MONKEY_SEED={seed} replays)")
    seed_saves(game, seed)
    app = App(settings=Settings(animation="fast", bot_delay=0.05), size=(1280, 720))
    app.fps = 0  # no frame cap: the sleeps are the loop's own idle sleeps and the waits
    app.to_menu()
    walk = Monkey(app, game, seed).run(events)
    common = ", ".join(f"{text} {n}" for text, n in walk.pressed.most_common(25))
    walk.pressed = Counter()
    print(f"monkey: {walk}\nmonkey: clicked {common}")
    assert app.crashes == 0, f"{walk.where()}: {app.crashes} faults caught\n{crash_reports()}"
    assert not crash_reports(), f"{walk.where()}: crash reports written\n{crash_reports()}"
    assert walk.events >= events
    assert {"MainMenu", "SetupScene", "PlayScene"} <= walk.scenes, (walk.where(), walk.scenes)
    assert walk.matches >= 1, f"{walk.where()}: never reached a match of {game}"
    return walk


@pytest.fixture(autouse=True)
def real_crash_guard(monkeypatch):
    """Run the loop as the program does: a fault is caught, reported in a ``crash-*`` file
    and the menu shown (the suite otherwise lets faults escape the loop)."""
    monkeypatch.delenv("TABLETOP_FAULTS", raising=False)


@pytest.mark.parametrize("game", game_ids())
def test_monkey(game):
    run_monkey(game, CI_EVENTS, SEED)


@pytest.mark.slow
@pytest.mark.parametrize("game", game_ids())
@pytest.mark.parametrize("round_", range(3))
def test_monkey_long(game, round_, request):
    """Three long walks per game: run with ``pytest -m slow tests/test_monkey.py``."""
    chosen = request.config.getoption("markexpr") or ""
    if "slow" not in chosen or "not slow" in chosen:
        pytest.skip("the long monkey sweep runs only when chosen with -m slow")
    run_monkey(game, SLOW_EVENTS, SEED + 1000 * round_)


def test_the_monkey_notices_a_fault_the_loop_caught(monkeypatch):
    """The loop's crash guard hides a fault from the test; the monkey must still fail."""
    from game.ui.scenes.pause import PauseScene

    def broken(self):
        raise RuntimeError("planted fault")

    monkeypatch.setattr(PauseScene, "build", broken)
    with pytest.raises(AssertionError) as caught:
        run_monkey("fantasy_racing", 3000, SEED)
    message = str(caught.value)
    assert f"seed {SEED}" in message and "planted fault" in message and "crash-" in message


def test_saves_folder_is_the_tests_own():
    """The crash reports looked for are this test's, not the user's."""
    assert Path(os.environ["TABLETOP_SAVES"]) == paths.saves_dir()
