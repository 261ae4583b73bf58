"""Keyboard-and-mouse controls over pygame_gui widgets, and drawing helpers.

pygame_gui gives the widgets; :class:`Controls` adds what it lacks for a
living-room game: Tab/arrow focus over the scene's buttons and text fields,
Enter/Space to press, Escape to go back, and one callback per widget whether
it was clicked or pressed from the keyboard.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.core import UIElement
from pygame_gui.core.utility import clipboard_paste
from pygame_gui.elements import UIButton, UILabel, UITextEntryLine

from game.engine.text import clean_text, showable

from . import look

if TYPE_CHECKING:
    from .app import App

FONT_DIR = Path(pygame_gui.__file__).parent / "data"
NEXT_KEYS = {pygame.K_TAB, pygame.K_DOWN, pygame.K_RIGHT}
PREV_KEYS = {pygame.K_UP, pygame.K_LEFT}
PRESS_KEYS = {pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE}

INK = (43, 31, 20)
PARCHMENT = (236, 222, 190)
GOLD = (222, 176, 74)
NIGHT = (24, 22, 30)
PANEL = (36, 32, 42)
TEXT = (236, 228, 210)
MUTED = (170, 160, 145)
ALERT = (235, 110, 90)
SEAT_COLOURS = [
    (220, 60, 60), (60, 120, 220), (60, 170, 80), (235, 170, 40), (160, 80, 200),
    (40, 190, 190), (230, 110, 170), (140, 100, 60), (200, 200, 210),
]


#: What hand-drawn panels become in the high-contrast theme: black, edged in white.
CONTRAST_FILL = (0, 0, 0)
CONTRAST_EDGE = (255, 255, 255)


def panel_fill(colour: tuple[int, ...] = PANEL) -> tuple[int, ...]:
    """A hand-drawn panel's or box's background (``colour``, with any alpha kept): black in
    the high-contrast theme, as its widgets' backgrounds are."""
    if not look.high_contrast():
        return colour
    return CONTRAST_FILL + tuple(colour[3:])


def panel_edge(colour: tuple[int, ...]) -> tuple[int, ...]:
    """A hand-drawn panel's plain edge (``colour``): white in the high-contrast theme (edges
    that mean something -- a seat's colour, an alert -- keep theirs)."""
    return CONTRAST_EDGE if look.high_contrast() else colour


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The UI's font (Noto Sans, shipped with pygame_gui) for text of ``size`` pixels at
    100%, at the interface's size now (``look.px``)."""
    return _font(max(1, look.text_px(size)), bold)


@lru_cache(maxsize=64)
def _font(pixels: int, bold: bool) -> pygame.font.Font:
    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    return pygame.font.Font(str(FONT_DIR / name), pixels)


font.cache_clear = _font.cache_clear  # type: ignore[attr-defined]


def draw_text(surface: pygame.Surface, text: str, pos: tuple[float, float], size: int = 16,
              colour: tuple[int, int, int] = TEXT, bold: bool = False,
              anchor: str = "topleft", shadow: bool = False) -> pygame.Rect:
    """Blit one line of text anchored at ``pos``; returns its rectangle.

    Characters that cannot be shown (a NUL, format characters) are left out, and
    a text with nothing to show draws nothing (pygame would raise).
    """
    rendered = _drawn_text(text, size, tuple(colour), bold, look.text_scale())
    rect = rendered.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    if shadow:
        surface.blit(_drawn_text(text, size, (0, 0, 0), bold, look.text_scale()),
                     rect.move(1, 2))
    surface.blit(rendered, rect)
    return rect


@lru_cache(maxsize=2048)
def _drawn_text(text: str, size: int, colour: tuple[int, ...], bold: bool,
                _scale: float = 1.0) -> pygame.Surface:
    """``draw_text``'s pictures, kept: boards draw the same labels every frame (at the
    board's size and the panel's, see ``look.board_size``)."""
    return render_text(clean_text(text), size, colour, bold)


def render_text(text: str, size: int = 16, colour: tuple[int, int, int] = TEXT,
                bold: bool = False) -> pygame.Surface:
    """``text`` drawn in the UI font; never raises for text that shows nothing.

    pygame raises "Text has zero width" for text such as U+200B alone and a
    ValueError for a NUL; such text gives an empty surface one line high.
    """
    face = font(size, bold)
    try:
        return face.render(text, True, look.text_colour(colour))
    except (pygame.error, ValueError):
        cleaned = clean_text(text)
        if cleaned != text:
            return render_text(cleaned, size, colour, bold)
        return pygame.Surface((0, face.get_linesize()), pygame.SRCALPHA)


def draw_card(surface: pygame.Surface, card: pygame.Rect, border: tuple[int, int, int],
              veil: int, border_width: int = 2) -> None:
    """Dim everything already drawn (``veil`` = opacity 0-255), then draw a framed card."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((10, 8, 14, veil))
    surface.blit(shade, (0, 0))
    if look.high_contrast():
        pygame.draw.rect(surface, (0, 0, 0), card, border_radius=14)
        pygame.draw.rect(surface, (255, 255, 255), card, border_width + 1, border_radius=14)
        return
    pygame.draw.rect(surface, PANEL, card, border_radius=14)
    pygame.draw.rect(surface, border, card, border_width, border_radius=14)


def fit(text: str, width: int, size: int = 16, bold: bool = False) -> str:
    """``text``, shortened with an ellipsis if needed to fit ``width`` pixels (less padding);
    kept, since panels and boards ask for the same lines every frame."""
    return _fit(text, width, size, bold, look.text_scale())


@lru_cache(maxsize=4096)
def _fit(text: str, width: int, size: int, bold: bool, _scale: float) -> str:
    room = width - 12
    text = clean_text(text)
    if font(size, bold).size(text)[0] <= room:
        return text
    while text and font(size, bold).size(text + "…")[0] > room:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_name(surface: pygame.Surface, name: str, tag: str | None, pos: tuple[float, float],
              width: int, size: int, colour: tuple[int, int, int], bold: bool = True,
              tag_colour: tuple[int, int, int] = MUTED) -> pygame.Rect:
    """A seat's name at ``pos`` (top left), followed by a small ``tag`` such as a computer
    player's level ("Hard"); the name is shortened first so that the tag always shows
    within ``width`` pixels.  Returns the rectangle of the name."""
    if not tag:
        return draw_text(surface, fit(name, width, size, bold), pos, size, colour, bold=bold)
    small = max(12, size - 2)
    tag_width = font(small).size(tag)[0] + 6
    rect = draw_text(surface, fit(name, width - tag_width, size, bold), pos, size, colour,
                     bold=bold)
    draw_text(surface, tag, (rect.right + 6, rect.bottom), small, tag_colour,
              anchor="bottomleft")
    return rect


def wrap_text(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` pixels."""
    return list(_wrapped(str(text), size, width, bold, look.text_scale()))


@lru_cache(maxsize=4096)
def _wrapped(text: str, size: int, width: int, bold: bool, _scale: float) -> tuple[str, ...]:
    """``wrap_text``'s lines, kept (boards wrap the same texts every frame)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in clean_text(paragraph).split():
            trial = f"{line} {word}".strip()
            if font(size, bold).size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return tuple(lines)


class TextEntry(UITextEntryLine):
    """A one-line text field that only takes characters it can show.

    pygame_gui measures the text before the cursor after every key; a zero
    width or format character (U+200B, U+200D, U+202E, U+00AD, U+FEFF...)
    typed first makes that text zero pixels wide and pygame raise.  Such
    characters are ignored when typed, left out when pasted or set, and the
    text is kept in composed form (NFC).
    """

    def _process_entered_character(self, character: str) -> bool:
        if not showable(character) or not self._has_width(character):
            return False
        return super()._process_entered_character(character)

    def _has_width(self, character: str) -> bool:
        try:
            return self.font is None or self.font.size(character)[0] > 0
        except (pygame.error, ValueError):
            return False

    def validate_text_string(self, text_to_validate: str) -> bool:
        return (isinstance(text_to_validate, str)
                and clean_text(text_to_validate) == text_to_validate
                and super().validate_text_string(text_to_validate))

    def set_text(self, text: str | None) -> None:
        if text is not None:
            text = clean_text(text, self.length_limit)
        super().set_text(text)

    def get_text(self) -> str:
        return clean_text(super().get_text())

    def _do_paste(self) -> None:
        if not self.ui_manager.paste_text_enabled or not self.paste_text_enabled:
            return
        new_text = clean_text(clipboard_paste() or "")
        low, high = sorted(self.select_range)
        if low == high:
            low = high = self.edit_position
        final = self.text[:low] + new_text + self.text[high:]
        if not new_text or (self.length_limit is not None and len(final) > self.length_limit):
            return
        if not super().validate_text_string(final):
            return
        super().set_text(final)
        self.select_range = [0, 0]
        self.edit_position = low + len(new_text)
        if self.drawable_shape is not None and self.drawable_shape.text_box_layout is not None:
            self.drawable_shape.text_box_layout.set_cursor_position(self.edit_position)
            self.drawable_shape.apply_active_text_changes()
        self.cursor_has_moved_recently = True


class Controls:
    """The focusable widgets of one scene, each with the callback it triggers."""

    def __init__(self, app: "App") -> None:
        self.app = app
        self.items: list[tuple[UIElement, Callable[[], Any] | None]] = []
        self.others: list[UIElement] = []
        self.focus = -1
        self.on_escape: Callable[[], Any] | None = None

    @property
    def manager(self) -> pygame_gui.UIManager:
        return self.app.ui

    # building -----------------------------------------------------------------
    def button(self, rect: pygame.Rect | tuple, text: str,
               callback: Callable[[], Any] | None, tooltip: str | None = None,
               object_id: str | None = None, enabled: bool = True,
               container: Any = None) -> UIButton:
        """A button that runs ``callback`` when clicked or pressed with Enter."""
        widget = UIButton(pygame.Rect(rect), text, self.manager, container=container,
                          tool_tip_text=tooltip, object_id=object_id)
        if not enabled:
            widget.disable()
        self.items.append((widget, callback))
        return widget

    def entry(self, rect: pygame.Rect | tuple, text: str = "", placeholder: str = "",
              container: Any = None, object_id: str | None = None) -> UITextEntryLine:
        """A one-line text field in the focus order."""
        widget = TextEntry(pygame.Rect(rect), self.manager, container=container,
                           placeholder_text=placeholder or None, object_id=object_id)
        if text:
            widget.set_text(text)
        self.items.append((widget, None))
        return widget

    def label(self, rect: pygame.Rect | tuple, text: str, object_id: str | None = None,
              container: Any = None) -> UILabel:
        widget = UILabel(pygame.Rect(rect), text, self.manager, container=container,
                         object_id=object_id)
        self.others.append(widget)
        return widget

    def keep(self, widget: UIElement) -> UIElement:
        """Own a widget that is not in the focus order (killed with the scene)."""
        self.others.append(widget)
        return widget

    def clear(self) -> None:
        for widget, _ in self.items:
            widget.kill()
        for widget in self.others:
            widget.kill()
        self.items, self.others, self.focus = [], [], -1

    # focus --------------------------------------------------------------------
    def _usable(self, index: int) -> bool:
        widget = self.items[index][0]
        return widget.alive() and widget.is_enabled and widget.visible

    def focused(self) -> UIElement | None:
        return self.items[self.focus][0] if 0 <= self.focus < len(self.items) else None

    def set_focus(self, index: int) -> None:
        old = self.focused()
        if isinstance(old, UIButton):
            old.unselect()
        elif isinstance(old, UITextEntryLine):
            old.unfocus()
        self.focus = index
        new = self.focused()
        if isinstance(new, UIButton):
            new.select()
        elif isinstance(new, UITextEntryLine):
            new.focus()
            self.manager.set_focus_set(new)

    def typing(self) -> bool:
        """Whether the focused control is a text field (keys are text, not commands)."""
        return isinstance(self.focused(), UITextEntryLine)

    def focus_widget(self, widget: UIElement) -> None:
        for index, (item, _) in enumerate(self.items):
            if item is widget:
                self.set_focus(index)

    def move(self, step: int) -> None:
        if not self.items:
            return
        index = self.focus
        for _ in range(len(self.items)):
            index = (index + step) % len(self.items)
            if self._usable(index):
                self.set_focus(index)
                return

    def press(self, widget: UIElement) -> bool:
        for item, callback in self.items:
            if item is widget and callback is not None:
                callback()
                return True
        return False

    def _say_focus(self) -> None:
        """The focus moved by a key: what it is on, said aloud when speech is on."""
        cues, widget = getattr(self.app, "cues", None), self.focused()
        if cues is not None and widget is not None:
            cues.focus(widget)

    # events -------------------------------------------------------------------
    def handle(self, event: pygame.event.Event, arrows: bool = True) -> bool:
        """Route clicks and focus keys; returns True when the event was used."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            return self.press(event.ui_element)
        if event.type != pygame.KEYDOWN:
            return False
        typing = self.typing()
        if event.key == pygame.K_ESCAPE and self.on_escape:
            self.on_escape()
            return True
        if event.key == pygame.K_TAB:
            self.move(-1 if event.mod & pygame.KMOD_SHIFT else 1)
            self._say_focus()
            return True
        if typing and event.key not in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_UP,
                                        pygame.K_DOWN):
            return False
        if arrows and event.key in (NEXT_KEYS | PREV_KEYS):
            self.move(1 if event.key in NEXT_KEYS else -1)
            self._say_focus()
            return True
        if event.key in PRESS_KEYS:
            widget = self.focused()
            if typing:
                self.move(1)
                return True
            if widget is not None and self._usable(self.focus):
                return self.press(widget)
        return False
