"""The settings screen: each setting is a button that steps through its values; the sound's
volume is a slider (with Mute beside it)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIHorizontalSlider

from game.engine import SaveError

from .. import paths
from ..backdrop import backdrop
from ..scene import Scene
from ..settings import ANIMATION_SPEEDS, WINDOW_SIZES, Settings
from ..widgets import GOLD, MUTED, PANEL, TEXT, draw_text, fit, font, wrap_text

BOT_DELAYS = tuple(round(0.2 * step, 1) for step in range(1, 11))
ROW_HEIGHT = (68, 100)  # least and most, as the window's height allows
#: Rows lower than ROW_HEIGHT's least (a short window) are drawn compact, down to this.
COMPACT_ROW = 50
#: Below this row height the rows are compact.
ROOMY_ROW = 60
MUTE_WIDTH = 96
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
    Choice("speak", "Speak", (True, False), lambda v: "On" if v else "Off",
           lambda v: "Cards, new log lines, focus and cursor read aloud." if v
           else "Read aloud what the screen shows (system speech)."),
)
#: The sound row, after the choices: a volume slider and a Mute button.
SOUND_NOTE = "Dice, cards, moves, fights, traps and turns."


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
        """The panel and the height of one row in it, for a window of ``size``: rows as
        roomy as the height allows, compact (a smaller label, one line of explanation) in a
        short window, so the panel and its Save and Cancel stay inside."""
        width, height = size
        rows = len(CHOICES) + 2                      # and the sound, and the saves folder
        row = min(max((height - 260) // rows, ROW_HEIGHT[0]), ROW_HEIGHT[1])
        top = max(100, (height - 16 - row * rows - 90) // 2 + 30)
        if top + 16 + row * rows + 86 > height:     # Save and Cancel would leave the window
            top = 84
            row = max(COMPACT_ROW, (height - top - 86 - 16) // rows)
        rect = pygame.Rect(0, 0, min(PANEL_WIDTH, width - 60), 16 + row * rows)
        rect.midtop = (width // 2, top)
        return rect, row

    def compact(self, row_height: int) -> bool:
        return row_height < ROOMY_ROW

    def value_rect(self, panel: pygame.Rect, row_height: int, row: int) -> pygame.Rect:
        """Where row ``row``'s control goes (a shorter one in a compact row)."""
        compact = self.compact(row_height)
        rect = pygame.Rect(0, 0, VALUE_WIDTH, row_height - 12 if compact else 46)
        rect.topright = (panel.right - 28, panel.y + (12 if compact else 24)
                         + row_height * row)
        return rect

    def build(self) -> None:
        panel, row_height = self.layout(self.app.window_size)
        self.value_buttons = {}
        if self.speech_problem is not None:
            self.draft.speak = False    # it stays off, and the row says why
        for row, choice in enumerate(CHOICES):
            rect = self.value_rect(panel, row_height, row)
            unavailable = choice.field == "speak" and self.speech_problem is not None
            button = self.controls.button(rect, self.button_text(choice), lambda c=choice:
                                          self.change(c, 1),
                                          tooltip=f"Speech is not available: "
                                                  f"{self.speech_problem}." if unavailable
                                          else "Click or Enter: next value; Left/Right: step",
                                          enabled=not unavailable)
            button.speech_label = choice.label   # said before its value (game/ui/cues.py)
            self.value_buttons[button] = choice
        rect = self.value_rect(panel, row_height, len(CHOICES))
        slider = rect.inflate(-MUTE_WIDTH - 8, 0)
        slider.left = rect.left
        self.volume_slider = UIHorizontalSlider(slider, round(self.draft.volume * 100),
                                                (0, 100), self.app.ui, click_increment=10)
        self.volume_slider.speech_label = "Volume"
        self.volume_slider.tool_tip_text = "Left/Right: 10% quieter or louder"
        self.controls.items.append((self.volume_slider, None))
        mute = pygame.Rect(0, 0, MUTE_WIDTH, rect.height)
        mute.topright = rect.topright
        self.mute_button = self.controls.button(mute, self.mute_text(), self.toggle_mute,
                                                tooltip="Mute or unmute every sound")
        rect = self.value_rect(panel, row_height, len(CHOICES) + 1)
        rect.width = FOLDER_WIDTH
        rect.right = panel.right - 28
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

    @property
    def speech_problem(self) -> str | None:
        """Why speech cannot be turned on here (None: it can), in words."""
        if not hasattr(self, "_speech_problem"):
            self._speech_problem = self.app.cues.speech.problem()
        return self._speech_problem

    def mute_text(self) -> str:
        return "Muted" if self.draft.mute else "Mute"

    def toggle_mute(self) -> None:
        self.draft.mute = not self.draft.mute
        self.mute_button.set_text(self.mute_text())
        self.app.cues.say("Muted" if self.draft.mute else "Sound on", interrupt=True)

    def set_volume(self, percent: float) -> None:
        """The slider moved (or Left/Right on it): the draft's volume, 0 to 1."""
        percent = min(100, max(0, round(percent)))
        self.draft.volume = percent / 100
        if self.volume_slider.get_current_value() != percent:
            self.volume_slider.set_current_value(percent)
        self.app.cues.say(f"Volume {percent} percent", interrupt=True)

    def button_text(self, choice: Choice) -> str:
        return f"‹   {choice.show(getattr(self.draft, choice.field))}   ›"

    def change(self, choice: Choice, step: int) -> None:
        """Step ``choice`` to its next (or previous) value."""
        value = step_value(choice.values, getattr(self.draft, choice.field), step)
        setattr(self.draft, choice.field, value)
        for button, other in self.value_buttons.items():
            if other is choice:
                button.set_text(self.button_text(choice))
        self.app.cues.say(f"{choice.label}: {choice.show(value)}", interrupt=True)

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

    def explain(self, choice: Choice) -> str:
        if choice.field == "speak" and self.speech_problem is not None:
            return f"Off: {self.speech_problem}."
        return choice.explain(getattr(self.draft, choice.field))

    def handle_event(self, event: pygame.event.Event) -> bool:
        if (event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED
                and event.ui_element is self.volume_slider):
            self.set_volume(event.value)
            return True
        if (self.controls.focused() is self.volume_slider and event.type == pygame.KEYDOWN
                and event.key in (pygame.K_LEFT, pygame.K_RIGHT)):
            self.set_volume(self.draft.volume * 100 + (10 if event.key == pygame.K_RIGHT
                                                       else -10))
            return True
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
        compact = self.compact(row_height)
        label, note, gap = (17, 13, 22) if compact else (20, 15, 30)
        rows = [(choice.label, self.explain(choice)) for choice in CHOICES]
        rows.append((f"Sound volume: {round(self.draft.volume * 100)}%",
                     "Muted: no sounds." if self.draft.mute else
                     "No sound device: the program stays silent."
                     if self.app.cues.sound.problem else SOUND_NOTE))
        for row, (title, explanation) in enumerate(rows):
            top = panel.y + (24 if not compact else 12) + row_height * row
            if row:
                y = panel.y + row_height * row + (10 if not compact else 6)
                pygame.draw.line(surface, (70, 60, 58), (panel.x + 24, y),
                                 (panel.right - 24, y))
            draw_text(surface, title, (panel.x + 28, top + 2), label, TEXT, bold=True)
            shown = 2 if row_height >= 76 else 1
            lines = wrap_text(explanation, note, text_width)
            if len(lines) > shown:
                lines = lines[:shown - 1] + [fit(" ".join(lines[shown - 1:]), text_width, note)]
            for line, text in enumerate(lines):
                draw_text(surface, text, (panel.x + 28, top + gap + 20 * line), note, MUTED)
        if self.controls.focused() is self.volume_slider:
            pygame.draw.rect(surface, GOLD, self.volume_slider.rect.inflate(6, 6), 2,
                             border_radius=4)
        row = len(CHOICES) + 1
        top = panel.y + (24 if not compact else 12) + row_height * row
        y = panel.y + row_height * row + (10 if not compact else 6)
        pygame.draw.line(surface, (70, 60, 58), (panel.x + 24, y), (panel.right - 24, y))
        draw_text(surface, "Saves folder", (panel.x + 28, top + 2), label, TEXT, bold=True)
        # Beside the "Open folder" button (only a very long path loses its start).
        where = fit_path(str(paths.saves_dir()), panel.width - 56 - FOLDER_WIDTH - 12, note)
        draw_text(surface, where, (panel.x + 28, top + gap), note, MUTED)
        if panel.bottom + 100 < height - 30:
            draw_text(surface, "Tab or Up/Down: move   ·   Enter or Left/Right: change   ·   "
                      "Esc: cancel", (width / 2, height - 24), 14, MUTED, anchor="center")
