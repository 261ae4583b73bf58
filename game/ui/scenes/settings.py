"""The settings screen: each setting is a button that steps through its values; the sound's
volume is a slider (with Mute beside it).  The interface's size and colours show at once."""

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
from ..look import UI_SCALES, fitting_scale, px, why_not_size
from ..scene import Scene
from ..settings import ANIMATION_SPEEDS, THEMES, WINDOW_SIZES, Settings
from ..widgets import (GOLD, MUTED, PANEL, TEXT, draw_text, font, panel_edge, panel_fill,
                       wrap_text)

BOT_DELAYS = tuple(round(0.2 * step, 1) for step in range(1, 11))
ROW_HEIGHT = (54, 100)  # least and most at 100%, as the window's height allows
#: Rows lower than ROW_HEIGHT's least (a short window) are drawn compact (a smaller label
#: and explanation), down to this.
COMPACT_ROW = 48
#: Room at 100% above the panel (the title) and below it (Save and Cancel).
TITLE_ROOM, FOOT_ROOM = 70, 72
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
    Choice("ui_scale", "Interface size", UI_SCALES, lambda v: f"{v}%",
           lambda v: "Text, panels and buttons; the board keeps its zoom."),
    Choice("theme", "Colours", THEMES,
           lambda v: "High contrast" if v == "high_contrast" else "Normal",
           lambda v: "White on black, yellow edges and focus." if v == "high_contrast"
           else "The warm colours of the game table."),
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
    """Change a copy of the settings; Save applies and keeps them, Cancel forgets them.

    The interface's size and colours show at once (the window's size only on Save), and
    Cancel puts them back.  Rows are as roomy as the window allows, compact (a smaller
    label) in a short one; when they still do not all fit (a large interface in a small
    window) they are shown a page at a time, with a button to turn the page."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.before: Settings = app.settings
        self.draft: Settings = dataclasses.replace(app.settings)
        self.draft.check()  # a value set by hand (NaN, out of range) shows as its default
        self.value_buttons: dict[UIButton, Choice] = {}
        self.volume_slider: Any = None
        self.mute_button: Any = None
        self.page = 0

    #: The rows: each choice, then the sound and the saves folder.
    SOUND, FOLDER = len(CHOICES), len(CHOICES) + 1

    def layout(self, size: tuple[int, int]) -> tuple[pygame.Rect, int, int]:
        """The panel, the height of one row in it and how many rows a page shows, for a
        window of ``size`` (at the interface's size now)."""
        width, height = size
        rows = len(CHOICES) + 2
        panel_width = min(px(PANEL_WIDTH), width - 60)
        # A row holds its label and every line of its explanation.
        lines = max(len(wrap_text(self.explain(choice), 15, self.text_width(panel_width)))
                    for choice in CHOICES)
        least = max(px(ROW_HEIGHT[0]), px(34) + px(20) * lines)
        room = height - px(TITLE_ROOM) - px(FOOT_ROOM) - px(16)
        narrow = max(len(wrap_text(self.explain(choice), 13, self.text_width(panel_width)))
                     for choice in CHOICES)
        if room // rows < least and narrow == 1:
            least = max(px(COMPACT_ROW), room // rows)  # compact rows, all on one page
        per_page = max(1, min(rows, room // least))
        row = min(max(room // per_page, least), max(least, px(ROW_HEIGHT[1])))
        rect = pygame.Rect(0, 0, panel_width, px(16) + row * per_page)
        spare = height - px(TITLE_ROOM) - px(FOOT_ROOM) - rect.height
        rect.midtop = (width // 2, px(TITLE_ROOM) + max(0, spare) // 3)
        return rect, row, per_page

    def compact(self, row_height: int) -> bool:
        return row_height < px(ROW_HEIGHT[0])

    @property
    def pages(self) -> int:
        _panel, _row, per_page = self.layout(self.app.window_size)
        return -(-(len(CHOICES) + 2) // per_page)

    def shown_rows(self) -> list[int]:
        """The rows on the page shown."""
        _panel, _row, per_page = self.layout(self.app.window_size)
        self.page = min(self.page, self.pages - 1)
        first = self.page * per_page
        return list(range(first, min(first + per_page, len(CHOICES) + 2)))

    @staticmethod
    def value_width(panel: pygame.Rect | int) -> int:
        width = panel if isinstance(panel, int) else panel.width
        return min(px(VALUE_WIDTH), width * 2 // 5)

    def text_width(self, panel_width: int) -> int:
        """Room for a row's label and explanation, left of its control."""
        return panel_width - self.value_width(panel_width) - px(24) - px(28) - px(16)

    def build(self) -> None:
        panel, row_height, _per_page = self.layout(self.app.window_size)
        self.value_buttons = {}
        self.volume_slider = self.mute_button = None
        if self.speech_problem is not None:
            self.draft.speak = False    # it stays off, and the row says why
        value_width = self.value_width(panel)
        tall = row_height - px(12) if self.compact(row_height) else px(42)
        for place, row in enumerate(self.shown_rows()):
            top = panel.y + px(8 if self.compact(row_height) else 12) + row_height * place
            rect = pygame.Rect(0, 0, value_width, tall)
            rect.topright = (panel.right - px(24), top)
            if row == self.FOLDER:
                rect.width = min(px(FOLDER_WIDTH), value_width)
                rect.right = panel.right - px(24)
                self.controls.button(rect, "Open folder", self.open_saves,
                                     tooltip=f"Every game autosaves in {paths.saves_dir()} "
                                             "after each action: show the folder in the file "
                                             "manager")
                continue
            if row == self.SOUND:
                slider = rect.inflate(-px(MUTE_WIDTH) - 8, 0)
                slider.left = rect.left
                self.volume_slider = UIHorizontalSlider(
                    slider, round(self.draft.volume * 100), (0, 100), self.app.ui,
                    click_increment=10)
                self.volume_slider.speech_label = "Volume"
                self.volume_slider.tool_tip_text = "Left/Right: 10% quieter or louder"
                self.controls.items.append((self.volume_slider, None))
                mute = pygame.Rect(0, 0, px(MUTE_WIDTH), rect.height)
                mute.topright = rect.topright
                self.mute_button = self.controls.button(mute, self.mute_text(),
                                                        self.toggle_mute,
                                                        tooltip="Mute or unmute every sound")
                continue
            choice = CHOICES[row]
            unavailable = choice.field == "speak" and self.speech_problem is not None
            button = self.controls.button(rect, self.button_text(choice), lambda c=choice:
                                          self.change(c, 1),
                                          tooltip=f"Speech is not available: "
                                                  f"{self.speech_problem}." if unavailable
                                          else "Click or Enter: next value; Left/Right: step",
                                          enabled=not unavailable)
            button.speech_label = choice.label   # said before its value (game/ui/cues.py)
            self.value_buttons[button] = choice
        wide, tall = px(190), px(46)
        pages = self.pages
        count = 3 if pages > 1 else 2
        gap = px(16)
        left = panel.centerx - (wide * count + gap * (count - 1)) // 2
        rects = [pygame.Rect(left + (wide + gap) * i, panel.bottom + px(14), wide, tall)
                 for i in range(count)]
        self.controls.button(rects[0], "Save", self.save, object_id="#primary",
                             tooltip="Use these settings and keep them")
        self.controls.button(rects[1], "Cancel", self.cancel, tooltip="Leave unchanged (Esc)")
        if pages > 1:
            self.controls.button(rects[2], f"Page {self.page + 1} of {pages}  ›",
                                 self.turn_page, tooltip="The other settings (Page Down)")
        self.controls.on_escape = self.cancel
        self.controls.move(1)

    def turn_page(self, step: int = 1) -> None:
        self.page = (self.page + step) % self.pages
        self.rebuild()

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
        if self.mute_button is not None:
            self.mute_button.set_text(self.mute_text())
        self.app.cues.say("Muted" if self.draft.mute else "Sound on", interrupt=True)

    def set_volume(self, percent: float) -> None:
        """The slider moved (or Left/Right on it): the draft's volume, 0 to 1."""
        percent = min(100, max(0, round(percent)))
        self.draft.volume = percent / 100
        if (self.volume_slider is not None
                and self.volume_slider.get_current_value() != percent):
            self.volume_slider.set_current_value(percent)
        self.app.cues.say(f"Volume {percent} percent", interrupt=True)

    def button_text(self, choice: Choice) -> str:
        return f"‹   {choice.show(getattr(self.draft, choice.field))}   ›"

    def change(self, choice: Choice, step: int) -> None:
        """Step ``choice`` to its next (or previous) value.  An interface size that does
        not fit the window is passed over, and the reason shown; a new interface size or
        colours show at once."""
        value = step_value(choice.values, getattr(self.draft, choice.field), step)
        if choice.field == "ui_scale":
            window = self.draft.size
            refused = why_not_size(value, window)
            while why_not_size(value, window) is not None:
                value = step_value(choice.values, value, step)
            if refused:
                self.app.toast(refused, error=True, scene=self)
        setattr(self.draft, choice.field, value)
        if choice.field == "window" and why_not_size(self.draft.ui_scale, self.draft.size):
            smaller = fitting_scale(self.draft.ui_scale, self.draft.size)
            self.app.toast(f"The interface goes to {smaller}%: "
                           + str(why_not_size(self.draft.ui_scale, self.draft.size)),
                           scene=self)
            self.draft.ui_scale = smaller
        if (choice.field in ("ui_scale", "theme")
                or self.draft.ui_scale != self.app.settings.ui_scale):
            self.preview()
        for button, other in self.value_buttons.items():
            if other is choice or other.field == "ui_scale":
                button.set_text(self.button_text(other))
        self.app.cues.say(f"{choice.label}: {choice.show(value)}", interrupt=True)

    def preview(self) -> None:
        """Show the draft's interface size and colours now (nothing is kept before Save)."""
        self.app.settings = dataclasses.replace(self.app.settings, ui_scale=self.draft.ui_scale,
                                                theme=self.draft.theme)
        focus = self.controls.focus
        if self.app.restyle():
            if 0 <= focus < len(self.controls.items):
                self.controls.set_focus(focus)

    def cancel(self) -> None:
        self.app.settings = self.before
        self.app.pop()
        self.app.restyle()

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
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
            if self.pages > 1:
                self.turn_page(1 if event.key == pygame.K_PAGEDOWN else -1)
            return True
        if (self.volume_slider is not None
                and event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED
                and event.ui_element is self.volume_slider):
            self.set_volume(event.value)
            return True
        if (self.volume_slider is not None and self.controls.focused() is self.volume_slider
                and event.type == pygame.KEYDOWN
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
        panel, row_height, _per_page = self.layout((width, height))
        draw_text(surface, "Settings", (width / 2, panel.y - px(TITLE_ROOM) // 2 - px(4)), 40,
                  GOLD, bold=True, anchor="center", shadow=True)
        shade = pygame.Surface(panel.size, pygame.SRCALPHA)
        pygame.draw.rect(shade, panel_fill((*PANEL, 232)), shade.get_rect(), border_radius=12)
        surface.blit(shade, panel)
        pygame.draw.rect(surface, panel_edge((107, 86, 64)), panel, 2, border_radius=12)
        text_width = self.text_width(panel.width)
        compact = self.compact(row_height)
        label, note, gap, line_gap = (17, 13, 22, 17) if compact else (20, 15, 28, 20)
        for place, row in enumerate(self.shown_rows()):
            top = panel.y + px(8 if compact else 12) + row_height * place
            if place:
                pygame.draw.line(surface, (70, 60, 58), (panel.x + px(24), top - px(3)),
                                 (panel.right - px(24), top - px(3)))
            if row == self.FOLDER:
                draw_text(surface, "Saves folder", (panel.x + px(28), top), label, TEXT,
                          bold=True)
                # Beside the "Open folder" button (only a very long path loses its start).
                room = panel.width - px(28) - px(24) - min(px(FOLDER_WIDTH),
                                                           self.value_width(panel)) - px(12)
                where = fit_path(str(paths.saves_dir()), room, note)
                draw_text(surface, where, (panel.x + px(28), top + px(gap)), note, MUTED)
                continue
            if row == self.SOUND:
                title = f"Sound volume: {round(self.draft.volume * 100)}%"
                explanation = ("Muted: no sounds." if self.draft.mute else
                               "No sound device: the program stays silent."
                               if self.app.cues.sound.problem else SOUND_NOTE)
            else:
                title, explanation = CHOICES[row].label, self.explain(CHOICES[row])
            draw_text(surface, title, (panel.x + px(28), top), label, TEXT, bold=True)
            for line, text in enumerate(wrap_text(explanation, note, text_width)):
                draw_text(surface, text, (panel.x + px(28), top + px(gap) + px(line_gap) * line),
                          note, MUTED)
        if self.volume_slider is not None and self.controls.focused() is self.volume_slider:
            pygame.draw.rect(surface, GOLD, self.volume_slider.rect.inflate(6, 6), 2,
                             border_radius=4)
        if panel.bottom + px(14) + px(46) + px(40) < height:
            draw_text(surface, "Tab or Up/Down: move   ·   Enter or Left/Right: change   ·   "
                      "Esc: cancel", (width / 2, height - px(20)), 14, MUTED, anchor="center")
