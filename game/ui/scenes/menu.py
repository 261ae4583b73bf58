"""The main menu: New game, Continue, Load, Play online, Learn to play, Rules, Settings, Quit."""

from __future__ import annotations

import pygame

from game.engine import Match, SaveError
from game.engine.saves import ReplayError, latest_unfinished, tidy_saves

from .. import online, paths
from ..backdrop import backdrop
from ..scene import Scene
from ..look import px
from ..widgets import MUTED, draw_text

#: Saves folders tidied in this run (stale temporary files, old finished autosaves).
_TIDIED: set[str] = set()


def tidy_once() -> None:
    """Tidy the saves folder the first time the menu shows it in this run."""
    folder = paths.saves_dir()
    if str(folder) not in _TIDIED:
        _TIDIED.add(str(folder))
        tidy_saves(folder)


def latest_autosave():
    """The autosave of the unfinished match played most recently, or None."""
    info = latest_unfinished(paths.saves_dir())
    return info.path if info is not None else None


def start_match(app, match: Match) -> None:
    """Show ``match`` over a fresh main menu."""
    from .play import PlayScene
    app.stack.reset(MainMenu(app))
    if getattr(match, "guard", None) is not None:  # a lesson being played
        from .lesson import LessonPlayScene
        app.push(LessonPlayScene(app, match))
        return
    app.push(PlayScene(app, match))


def open_match(app, path) -> bool:
    """Load ``path`` and start playing it; a bad file gets a message, not a crash.

    A save whose replay stops at a rules error offers to load the game up to
    its last good action (the file itself is left as it is).
    """
    try:
        match = Match.load(path)
    except ReplayError as exc:
        offer_partial_load(app, path, exc)
        return False
    except SaveError as exc:
        app.toast(f"Could not load {exc.path}: {exc.problem}", error=True, seconds=7)
        return False
    start_match(app, match)
    return True


def offer_partial_load(app, path, exc: ReplayError) -> None:
    """Ask whether to load a save up to the last action that replays."""
    from .confirm import ConfirmScene
    if exc.good == 0:
        app.toast(f"Could not load {exc.path}: {exc.problem}", error=True, seconds=7)
        return

    def load_partly() -> None:
        try:
            match = Match.load(path, partial=True)
        except SaveError as again:
            app.toast(f"Could not load {again.path}: {again.problem}", error=True, seconds=7)
            return
        start_match(app, match)
        app.toast(f"Loaded {len(match.actions)} of {exc.total} actions of {exc.path}; "
                  "the game goes on in a new autosave.", seconds=7)

    problem = exc.problem if exc.problem.endswith((".", ")")) else exc.problem + "."
    app.push(ConfirmScene(
        app, "This save is damaged",
        f"{exc.path}: {problem} The {exc.good} action{'s' if exc.good != 1 else ''} "
        f"before it replay correctly. Load the game as it stood after action {exc.good}? "
        "The file is not changed; the game goes on in a new autosave.",
        f"Load {exc.good} action{'s' if exc.good != 1 else ''}", load_partly, focus_yes=True))


def online_tip() -> str:
    """Play online's tooltip (says when the online extra is missing)."""
    if online.missing():
        return "Play with friends on other computers (needs the online extra: see why)"
    return "Play with friends on other computers, over a Matrix account"


class MainMenu(Scene):
    """The first screen."""

    def build(self) -> None:
        width, height = self.app.window_size
        _title, subtitle = self.title_places(height)
        top = max(int(height * 0.34), subtitle + px(40))
        # Eight buttons in a column (closer together in a short window), or two columns
        # when a large interface leaves no room for eight rows.
        count = 8
        step = min(px(62), (height - px(10) - top) // count)
        columns = 1 if step >= px(46) else 2
        if columns == 2:
            step = px(62)
        column = pygame.Rect(0, 0, px(320), min(px(52), step - px(8)))
        lefts = [width // 2 - column.width // 2] if columns == 1 else [
            width // 2 - column.width - px(15), width // 2 + px(15)]
        tidy_once()
        online.resume_hosted(self.app)  # the games this program hosts go on
        autosave = latest_autosave()
        entries = [
            ("New game", self.new_game, "Set up a new match", True),
            ("Continue", lambda: open_match(self.app, autosave),
             "Resume the game you played last" if autosave else "No game to continue yet",
             autosave is not None),
            ("Load", self.load, "Open a saved game", True),
            ("Play online", self.online, online_tip(), True),
            ("Learn to play", self.learn, "A guided first game of each title, by doing", True),
            ("Rules", self.rules, "Read each game's rules", True),
            ("Settings", self.settings, "Window, animations and handover", True),
            ("Quit", self.app.quit, None, True),
        ]
        rows = -(-len(entries) // columns)
        for number, (text, callback, tip, enabled) in enumerate(entries):
            place = column.move(lefts[number // rows], top + step * (number % rows))
            self.controls.button(place, text, callback, tooltip=tip,
                                 enabled=enabled, object_id="#primary" if text == "New game"
                                 else None)
        self.controls.on_escape = self.app.quit
        self.controls.move(1)

    def new_game(self) -> None:
        from .setup import SetupScene
        self.app.push(SetupScene(self.app))

    def load(self) -> None:
        from .load import LoadScene
        self.app.push(LoadScene(self.app))

    def online(self) -> None:
        from .online import play_online
        play_online(self.app)

    def learn(self) -> None:
        from .lesson import LessonListScene
        self.app.push(LessonListScene(self.app))

    def rules(self) -> None:
        from .handbook import RulesScene
        self.app.push(RulesScene(self.app))

    def settings(self) -> None:
        from .settings import SettingsScene
        self.app.push(SettingsScene(self.app))

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        surface.blit(backdrop((width, height)), (0, 0))
        title, subtitle = self.title_places(height)
        draw_text(surface, "Tabletop", (width / 2, title), 64, (255, 211, 107),
                  bold=True, anchor="center", shadow=True)
        draw_text(surface, "Five fantasy board games for one table and one screen",
                  (width / 2, subtitle), 20, MUTED, anchor="center")

    @staticmethod
    def title_places(height: int) -> tuple[int, int]:
        """Where the title's and the subtitle's middles go, for a window ``height`` high."""
        title = max(int(height * 0.13), px(50))
        return title, title + px(56)
