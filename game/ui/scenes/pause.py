"""The pause menu: Save, Save as, Load, Undo, Rules, Quit to menu."""

from __future__ import annotations

import re
import time
from typing import Any

import pygame

from .. import paths
from ..scene import Scene
from ..widgets import GOLD, draw_card, draw_text


def save_name(text: str) -> str:
    """A safe file stem from what the player typed.

    >>> save_name("  My game: round 2! ")
    'My-game-round-2'
    """
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text.strip()).strip("-")[:40]


class PauseScene(Scene):
    """Over the board; Escape resumes."""

    opaque = False

    def __init__(self, app: Any, play: Any) -> None:
        super().__init__(app)
        self.play = play
        self.naming = False
        self.entry: Any = None

    def box(self) -> pygame.Rect:
        width, height = self.app.window_size
        rect = pygame.Rect(0, 0, 360, 520 if self.naming else 470)
        rect.center = (width // 2, height // 2)
        return rect

    def build(self) -> None:
        box = self.box()
        row = pygame.Rect(box.x + 40, box.y + 70, box.width - 80, 44)
        entries = [
            ("Resume", self.app.pop, True),
            ("Save", self.save, True),
            ("Save as...", self.ask_name, True),
            ("Load", self.load, True),
            ("Undo", self.undo, self.play.viewer is not None
             and self.play.match.can_undo(self.play.viewer)),
            ("Rules", self.rules, True),
            ("Quit to menu", self.app.to_menu, True),
        ]
        for text, callback, enabled in entries:
            self.controls.button(row, text, callback, enabled=enabled)
            row = row.move(0, 52)
            if text == "Save as..." and self.naming:
                self.entry = self.controls.entry(row.inflate(0, -6), "", "name of the save")
                self.controls.focus_widget(self.entry)
                row = row.move(0, 50)
        if not self.naming:
            self.controls.move(1)
        self.controls.on_escape = self.app.pop

    def handle_event(self, event: pygame.event.Event) -> bool:
        if (self.naming and event.type == pygame.KEYDOWN
                and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
                and self.entry is not None and self.entry.is_focused):
            self.save_as(self.entry.get_text())
            return True
        return super().handle_event(event)

    def save(self) -> None:
        path = self.play.save_path or paths.saves_dir() / (
            f"{self.play.match.game_id}-{time.strftime('%Y%m%d-%H%M%S')}.yaml")
        if self.play.save_to(path):
            self.app.pop()

    def ask_name(self) -> None:
        if self.naming and self.entry is not None:
            self.save_as(self.entry.get_text())
            return
        self.naming = True
        self.rebuild()

    def save_as(self, text: str) -> None:
        name = save_name(text)
        if not name:
            self.app.toast("Type a name for the save (letters, digits, - and _).", error=True)
            return
        if self.play.save_to(paths.saves_dir() / f"{name}.yaml"):
            self.app.pop()

    def load(self) -> None:
        from .load import LoadScene
        self.app.push(LoadScene(self.app))

    def undo(self) -> None:
        self.app.pop()
        self.play.undo()

    def rules(self) -> None:
        from .handbook import RulesScene
        self.app.push(RulesScene(self.app, game_id=self.play.match.game_id))

    def draw(self, surface: pygame.Surface) -> None:
        box = self.box()
        draw_card(surface, box, GOLD, 170)
        draw_text(surface, "Paused", (box.centerx, box.y + 36), 30, GOLD, bold=True,
                  anchor="center")
