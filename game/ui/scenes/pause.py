"""The pause menu: Save, Save as, Load, Undo, History, Rules, Quit to menu."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game.engine.saves import AUTOSAVE_PREFIX, save_info

from .. import paths
from ..look import px
from ..scene import Scene
from ..widgets import GOLD, draw_card, draw_text


def save_name(text: str) -> str:
    """A safe file stem from what the player typed.

    >>> save_name("  My game: round 2! ")
    'My-game-round-2'
    """
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text.strip()).strip("-")[:40]


def describe(path: Path) -> str:
    """What a file about to be replaced holds, in a sentence."""
    info = save_info(path)
    if info is None:
        return "it could not be read."
    if info.error is not None:
        return f"it cannot be opened as a save ({info.error.rstrip('.')})."
    status = info.meta.get("status")
    return f"a game of {info.title}" + (f" ({status})." if status else ".")


class PauseScene(Scene):
    """Over the board; Escape resumes."""

    opaque = False
    def step(self) -> int:
        """Room between two rows: less in a short window, so the menu always fits."""
        return px(52) if self.app.window_size[1] >= px(70 + 9 * 52 + 36 + 62) + 20 else px(46)

    def __init__(self, app: Any, play: Any) -> None:
        super().__init__(app)
        self.play = play
        self.naming = False
        self.entry: Any = None
        #: What was typed in the Save-as box (kept while a question covers this scene).
        self.typed = ""

    def box(self) -> pygame.Rect:
        width, height = self.app.window_size
        columns = self.columns()
        rows = -(-9 // columns)
        rect = pygame.Rect(0, 0, px(360) if columns == 1 else px(660),
                           px(70) + rows * self.step() + px(36) + (px(62) if self.naming else 0))
        rect.center = (width // 2, height // 2)
        return rect

    def columns(self) -> int:
        """One column of buttons, or two when a large interface leaves no room for one."""
        tall = px(70) + 9 * px(46) + px(36) + (px(62) if self.naming else 0)
        return 1 if tall <= self.app.window_size[1] - 20 else 2

    def build(self) -> None:
        box = self.box()
        columns = self.columns()
        width = px(280) if columns == 2 else box.width - px(80)
        row = pygame.Rect(box.x + px(40), box.y + px(70), width, self.step() - px(8))
        entries = [
            ("Resume", self.app.pop, True),
            ("Save", self.save, True),
            ("Save as...", self.ask_name, True),
            ("Load", self.load, True),
            ("Undo", self.undo, self.play.table.can_undo(self.play.viewer)),
            ("History", self.history, True),
            ("Rules", self.rules, True),
            ("Learn to play", self.learn, True),
            ("Quit to menu", self.app.to_menu, True),
        ]
        for number, (text, callback, enabled) in enumerate(entries):
            if columns == 2 and number == len(entries) // 2:  # the second column
                row = pygame.Rect(box.right - px(40) - width, box.y + px(70), width, px(44))
            self.controls.button(row, text, callback, enabled=enabled)
            row = row.move(0, self.step())
            if text == "Save as..." and self.naming:
                self.controls.label(pygame.Rect(row.x, row.y - px(6), row.width, px(22)),
                                    "Name of the save (Enter saves):")
                self.entry = self.controls.entry(pygame.Rect(row.x, row.y + px(16), row.width,
                                                             px(36)),
                                                 self.typed, "e.g. Friday night")
                self.controls.focus_widget(self.entry)
                row = row.move(0, px(62))
        if not self.naming:
            self.controls.move(1)
        self.controls.on_escape = self.app.pop

    def handle_event(self, event: pygame.event.Event) -> bool:
        if (event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and self.entry is not None
                and event.ui_element is self.entry):
            self.save_as(self.entry.get_text())  # Enter in the box (the box takes the key)
            return True
        if (self.naming and event.type == pygame.KEYDOWN
                and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
                and self.entry is not None and self.entry.is_focused):
            self.save_as(self.entry.get_text())
            return True
        return super().handle_event(event)

    def save(self) -> None:
        """Save to the file this game was saved to, else to a new file named by the time."""
        path = self.play.save_path
        if path is None:
            stem = f"{self.play.table.game_id}-{time.strftime('%Y%m%d-%H%M%S')}"
            path, number = paths.saves_dir() / f"{stem}.yaml", 1
            while os.path.lexists(path):
                number += 1
                path = paths.saves_dir() / f"{stem}-{number}.yaml"
        if self.play.save_to(path):
            self.app.pop()

    def ask_name(self) -> None:
        if self.naming and self.entry is not None:
            self.save_as(self.entry.get_text())
            return
        self.naming = True
        self.rebuild()

    def save_as(self, text: str) -> None:
        """Save under the typed name, asking first if a file of that name exists."""
        name = save_name(text)
        if not name:
            self.app.toast("Type a name for the save (letters, digits, - and _).", error=True)
            return
        if name.lower().startswith(AUTOSAVE_PREFIX.rstrip("-")):
            self.app.toast("Names beginning with 'autosave' are kept for the automatic saves; "
                           "choose another name.", error=True)
            return
        path = paths.saves_dir() / f"{name}.yaml"
        if not os.path.lexists(path):
            self.write(path)
            return
        from .confirm import ConfirmScene
        self.typed = self.entry.get_text() if self.entry is not None else text
        self.app.push(ConfirmScene(
            self.app, "Replace this file?",
            f"{path.name} already exists: {describe(path)} Replacing it loses what it holds.",
            "Replace", lambda: self.write(path), no="Keep it"))

    def write(self, path: Path) -> None:
        if self.play.save_to(path) and self.app.stack.top is self:
            self.app.pop()

    def load(self) -> None:
        from .load import LoadScene
        self.app.push(LoadScene(self.app))

    def undo(self) -> None:
        self.app.pop()
        self.play.undo()

    def rules(self) -> None:
        self.app.pop()
        self.play.open_help()

    def learn(self) -> None:
        from .lesson import LessonListScene
        self.app.push(LessonListScene(self.app))

    def history(self) -> None:
        self.app.pop()
        self.play.open_history()

    def draw(self, surface: pygame.Surface) -> None:
        box = self.box()
        draw_card(surface, box, GOLD, 170)
        draw_text(surface, "Paused", (box.centerx, box.y + px(36)), 30, GOLD, bold=True,
                  anchor="center")
