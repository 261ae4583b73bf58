"""The main menu: New game, Continue, Load, Rules, Settings, Quit."""

from __future__ import annotations

import pygame

from game.engine import Match, SaveError
from game.engine.saves import list_saves

from .. import paths
from ..backdrop import backdrop
from ..scene import Scene
from ..widgets import MUTED, draw_text


def latest_autosave():
    """The newest autosave of an unfinished game, or None."""
    for info in list_saves(paths.saves_dir(), "autosave-*.yaml"):
        if not info.error and not info.meta.get("over"):
            return info.path
    return None


def open_match(app, path) -> bool:
    """Load ``path`` and start playing it; a bad file gets a message, not a crash."""
    from .play import PlayScene
    try:
        match = Match.load(path)
    except SaveError as exc:
        app.toast(f"Could not load {exc.path}: {exc.problem}", error=True, seconds=7)
        return False
    app.stack.reset(MainMenu(app))
    app.push(PlayScene(app, match))
    return True


class MainMenu(Scene):
    """The first screen."""

    def build(self) -> None:
        width, height = self.app.window_size
        column = pygame.Rect(0, 0, 320, 52)
        column.centerx = width // 2
        y = int(height * 0.34)
        autosave = latest_autosave()
        entries = [
            ("New game", self.new_game, "Set up a new match", True),
            ("Continue", lambda: open_match(self.app, autosave),
             "Resume the last game you played" if autosave else "No game to continue yet",
             autosave is not None),
            ("Load", self.load, "Open a saved game", True),
            ("Rules", self.rules, "Read each game's rules", True),
            ("Settings", self.settings, "Window, animations and handover", True),
            ("Quit", self.app.quit, None, True),
        ]
        for text, callback, tip, enabled in entries:
            self.controls.button(column.move(0, y - column.y), text, callback, tooltip=tip,
                                 enabled=enabled, object_id="#primary" if text == "New game"
                                 else None)
            y += 62
        self.controls.on_escape = self.app.quit
        self.controls.move(1)

    def new_game(self) -> None:
        from .setup import SetupScene
        self.app.push(SetupScene(self.app))

    def load(self) -> None:
        from .load import LoadScene
        self.app.push(LoadScene(self.app))

    def rules(self) -> None:
        from .handbook import RulesScene
        self.app.push(RulesScene(self.app))

    def settings(self) -> None:
        from .settings import SettingsScene
        self.app.push(SettingsScene(self.app))

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        surface.blit(backdrop((width, height)), (0, 0))
        draw_text(surface, "Tabletop", (width / 2, height * 0.13), 64, (255, 211, 107),
                  bold=True, anchor="center", shadow=True)
        draw_text(surface, "Five fantasy board games for one table and one screen",
                  (width / 2, height * 0.13 + 56), 20, MUTED, anchor="center")
