"""The settings screen: each setting is a button that steps through its values."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import pygame
from pygame_gui.elements import UIButton

from game.engine import SaveError

from .. import paths
from ..backdrop import backdrop
from ..scene import Scene
from ..settings import ANIMATION_SPEEDS, WINDOW_SIZES, Settings
from ..widgets import GOLD, MUTED, PANEL, TEXT, draw_text, font, wrap_text

BOT_DELAYS = tuple(round(0.2 * step, 1) for step in range(1, 11))
ROW_HEIGHT = (68, 100)  # least and most, as the window's height allows
PANEL_WIDTH = 760
VALUE_WIDTH = 250
#: The "Open folder" button: narrower than a value, so that the folder's path has room.
FOLDER_WIDTH = 160


ANIMATION_NOTES = {
    "off": "Pieces jump straight to their places.",
    "slow": "Moves are shown slowly, easy to follow.",
    "normal": "Moves are animated at a comfortable pace.",
    "fast": "Quick animations for players who know the game.",
}


def fit_path(path: str, width: int, size: int) -> str:
    """``path``, with its start cut off behind an ellipsis if it is wider than ``width``."""
    if font(size).size(path)[0] <= width:
        return path
    while path and font(size).size("…" + path)[0] > width:
        path = path[1:]
    return "…" + path


def window_text(value: str) -> str:
    return "Full screen" if value == "fullscreen" else value.replace("x", " × ")


@dataclasses.dataclass(frozen=True)
class Choice:
    """One setting: its field, its values, and how to show and explain a value."""

    field: str
    label: str
    values: Sequence[Any]
    show: Callable[[Any], str]
    explain: Callable[[Any], str]


CHOICES = (
    Choice("window", "Window size", WINDOW_SIZES, window_text,
           lambda v: "The whole screen, without a frame." if v == "fullscreen"
           else "The window's size; you can also drag its edges."),
    Choice("animation", "Animations", tuple(ANIMATION_SPEEDS), str.capitalize,
           lambda v: ANIMATION_NOTES.get(v, "")),
    Choice("handover", "Handover screen", (True, False), lambda v: "On" if v else "Off",
           lambda v: "A cover screen between turns keeps each player's secrets." if v
           else "No cover between turns: everyone sees everything."),
    Choice("bot_delay", "Computer player delay", BOT_DELAYS, lambda v: f"{v:.1f} s",
           lambda v: "How long a computer player waits before it moves."),
    Choice("recap", "Recap at handover", (True, False), lambda v: "On" if v else "Off",
           lambda v: "A card lists what happened since your last turn." if v
           else "Straight to your controls after a handover."),
)


def step_value(values: Sequence[Any], current: Any, step: int) -> Any:
    """The value ``step`` (+1 or -1) places from ``current``, wrapping around.

    A value not in the list (say a hand-edited delay) goes to its neighbour.

    >>> step_value((1, 2, 3), 3, 1), step_value((0.2, 0.4), 0.3, 1), step_value((1, 2), 9, -1)
    (1, 0.4, 2)
    """
    if current in values:
        return values[(list(values).index(current) + step) % len(values)]
    if step > 0:
        return next((v for v in values if v > current), values[0])
    return next((v for v in reversed(values) if v < current), values[-1])


class SettingsScene(Scene):
    """Change a copy of the settings; Save applies and keeps them, Cancel forgets them."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.draft: Settings = dataclasses.replace(app.settings)
        self.draft.check()  # a value set by hand (NaN, out of range) shows as its default
        self.value_buttons: dict[UIButton, Choice] = {}

    def layout(self, size: tuple[int, int]) -> tuple[pygame.Rect, int]:
        """The panel and the height of one row in it, for a window of ``size``."""
        width, height = size
        rows = len(CHOICES) + 1                      # and the saves folder
        row = min(max((height - 260) // rows, ROW_HEIGHT[0]), ROW_HEIGHT[1])
        rect = pygame.Rect(0, 0, min(PANEL_WIDTH, width - 60), 16 + row * rows)
        rect.midtop = (width // 2, max(100, (height - rect.height - 90) // 2 + 30))
        return rect, row

    def build(self) -> None:
        panel, row_height = self.layout(self.app.window_size)
        self.value_buttons = {}
        for row, choice in enumerate(CHOICES):
            rect = pygame.Rect(0, 0, VALUE_WIDTH, 46)
            rect.topright = (panel.right - 28, panel.y + 24 + row_height * row)
            button = self.controls.button(rect, self.button_text(choice), lambda c=choice:
                                          self.change(c, 1),
                                          tooltip="Click or Enter: next value; Left/Right: step")
            self.value_buttons[button] = choice
        rect = pygame.Rect(0, 0, FOLDER_WIDTH, 46)
        rect.topright = (panel.right - 28, panel.y + 24 + row_height * len(CHOICES))
        self.controls.button(rect, "Open folder", self.open_saves,
                             tooltip=f"Every game autosaves in {paths.saves_dir()} after "
                                     "each action: show the folder in the file manager")
        save, cancel = pygame.Rect(0, 0, 190, 50), pygame.Rect(0, 0, 190, 50)
        save.topright = (panel.centerx - 10, panel.bottom + 26)
        cancel.topleft = (panel.centerx + 10, panel.bottom + 26)
        self.controls.button(save, "Save", self.save, object_id="#primary",
                             tooltip="Use these settings and keep them")
        self.controls.button(cancel, "Cancel", self.app.pop, tooltip="Leave unchanged (Esc)")
        self.controls.on_escape = self.app.pop
        self.controls.move(1)

    def button_text(self, choice: Choice) -> str:
        return f"‹   {choice.show(getattr(self.draft, choice.field))}   ›"

    def change(self, choice: Choice, step: int) -> None:
        """Step ``choice`` to its next (or previous) value."""
        value = step_value(choice.values, getattr(self.draft, choice.field), step)
        setattr(self.draft, choice.field, value)
        for button, other in self.value_buttons.items():
            if other is choice:
                button.set_text(self.button_text(choice))

    def save(self) -> None:
        try:
            self.app.apply_settings(dataclasses.replace(self.draft))
        except SaveError as exc:
            self.app.toast(f"The settings are in use but could not be kept: {exc.problem}",
                           error=True)
        self.app.pop()

    def open_saves(self) -> None:
        folder = paths.saves_dir()
        problem = paths.open_folder(folder)
        if problem:
            self.app.toast(f"Could not open {folder}: {problem}", error=True)

    def handle_event(self, event: pygame.event.Event) -> bool:
        choice = self.value_buttons.get(self.controls.focused())
        if (choice is not None and event.type == pygame.KEYDOWN
                and event.key in (pygame.K_LEFT, pygame.K_RIGHT)):
            self.change(choice, 1 if event.key == pygame.K_RIGHT else -1)
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        surface.blit(backdrop((width, height)), (0, 0))
        panel, row_height = self.layout((width, height))
        draw_text(surface, "Settings", (width / 2, panel.y - 52), 40, GOLD, bold=True,
                  anchor="center", shadow=True)
        shade = pygame.Surface(panel.size, pygame.SRCALPHA)
        pygame.draw.rect(shade, (*PANEL, 232), shade.get_rect(), border_radius=12)
        surface.blit(shade, panel)
        pygame.draw.rect(surface, (107, 86, 64), panel, 2, border_radius=12)
        text_width = panel.width - VALUE_WIDTH - 84
        for row, choice in enumerate(CHOICES):
            top = panel.y + 24 + row_height * row
            if row:
                pygame.draw.line(surface, (70, 60, 58), (panel.x + 24, top - 14),
                                 (panel.right - 24, top - 14))
            draw_text(surface, choice.label, (panel.x + 28, top + 2), 20, TEXT, bold=True)
            explanation = choice.explain(getattr(self.draft, choice.field))
            shown = 2 if row_height >= 76 else 1
            for line, text in enumerate(wrap_text(explanation, 15, text_width)[:shown]):
                draw_text(surface, text, (panel.x + 28, top + 32 + 20 * line), 15, MUTED)
        top = panel.y + 24 + row_height * len(CHOICES)
        pygame.draw.line(surface, (70, 60, 58), (panel.x + 24, top - 14),
                         (panel.right - 24, top - 14))
        draw_text(surface, "Saves folder", (panel.x + 28, top + 2), 20, TEXT, bold=True)
        # Beside the "Open folder" button (only a very long path loses its start).
        where = fit_path(str(paths.saves_dir()), panel.width - 56 - FOLDER_WIDTH - 12, 15)
        draw_text(surface, where, (panel.x + 28, top + 32), 15, MUTED)
        if panel.bottom + 100 < height - 30:
            draw_text(surface, "Tab or Up/Down: move   ·   Enter or Left/Right: change   ·   "
                      "Esc: cancel", (width / 2, height - 24), 14, MUTED, anchor="center")
