"""The load screen: every save, newest first, to open or delete.

Every match has its own autosave, so each unfinished game is listed with its
players, whose turn it is and when it was last played.  Damaged files are
listed with what is wrong with them, so a player can see why a game is
missing and delete the file, but they cannot be opened.
"""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import UIElement
from pygame_gui.elements import UILabel, UIScrollingContainer
from pygame_gui.windows import UIConfirmationDialog

from game.engine.saves import SaveInfo, list_saves

from .. import paths
from ..backdrop import backdrop
from ..look import px
from ..scene import Scene
from ..widgets import GOLD, MUTED, Controls, draw_text, fit, font
from .menu import open_match

SCROLLBAR = 20
ROW_HEIGHT = 84
ROW_GAP = 10
DELETE_WIDTH = 112
DIALOG_SIZE = (460, 240)
DIALOG_BUTTON = (104, 36)
#: Font size and boldness of the labels' theme ids (see theme.json), to fit their text.
LABEL_FONTS = {"#save_title": (18, True), "#save_file": (14, False)}
PRESS_KEYS = {pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE}
SWITCH_KEYS = {pygame.K_TAB, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN}


def friendly_time(stamp: Any, fallback: float, now: dt.datetime | None = None) -> str:
    """When a save was last written, as a person would say it.

    ``stamp`` is the save's ISO time; ``fallback`` (the file's modification
    time) is used when it is missing or unreadable.

    >>> now = dt.datetime(2025, 3, 14, 18, 30)
    >>> friendly_time("2025-03-14T18:29:40", 0, now)
    'Just now'
    >>> friendly_time("2025-03-14T09:05:00", 0, now)
    'Today, 09:05'
    >>> friendly_time("2025-03-13T21:00:00", 0, now)
    'Yesterday, 21:00'
    >>> friendly_time("2024-12-01T10:00:00", 0, now)
    '1 Dec 2024, 10:00'
    """
    try:
        when = _local(dt.datetime.fromisoformat(str(stamp)[:40]))
    except (ValueError, OverflowError, OSError):
        try:
            when = dt.datetime.fromtimestamp(fallback)
        except (ValueError, OverflowError, OSError):
            return "Some time ago"
    now = _local(now or dt.datetime.now())
    seconds = (now - when).total_seconds()
    clock = when.strftime("%H:%M")
    if 0 <= seconds < 60:
        return "Just now"
    if 0 <= seconds < 3600:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' if minutes > 1 else ''} ago"
    days = (now.date() - when.date()).days
    if days == 0:
        return f"Today, {clock}"
    if days == 1:
        return f"Yesterday, {clock}"
    if 1 < days < 7:
        return f"{when.strftime('%A')}, {clock}"
    year = "" if when.year == now.year else f" {when.year}"
    return f"{when.day} {when.strftime('%b')}{year}, {clock}"


def _local(moment: dt.datetime) -> dt.datetime:
    """``moment`` as naive local time (saves carry their UTC offset)."""
    return moment.astimezone().replace(tzinfo=None) if moment.tzinfo else moment


class PassiveLabel(UILabel):
    """A label drawn over a button that lets the mouse through to it."""

    def hover_point(self, hover_x: float, hover_y: float) -> bool:
        return False


class ScrollArea:
    """Rows placed in ``rect``, inside a UIScrollingContainer only when they overflow it."""

    def __init__(self, controls: Controls, rect: pygame.Rect, content_height: int) -> None:
        self.rect = pygame.Rect(rect)
        self.container: UIScrollingContainer | None = None
        if content_height > self.rect.height:
            self.container = UIScrollingContainer(self.rect, controls.manager,
                                                  allow_scroll_x=False)
            self.container.set_scrollable_area_dimensions(
                (self.rect.width - SCROLLBAR, content_height))
            controls.keep(self.container)
        self.content_height = content_height

    @property
    def width(self) -> int:
        """The usable width (less the scroll bar when there is one)."""
        return self.rect.width - (SCROLLBAR if self.container else 0)

    def place(self, x: int, y: int, width: int, height: int) -> pygame.Rect:
        """A rectangle at ``(x, y)`` of the area, in the coordinates its widgets need."""
        if self.container is not None:
            return pygame.Rect(x, y, width, height)
        return pygame.Rect(self.rect.x + x, self.rect.y + y, width, height)

    def reveal(self, widget: UIElement | None, margin: int = 8) -> None:
        """Scroll so that ``widget`` (if it lives in this area) is fully in view."""
        box = self.container
        if box is None or widget is None or box.vert_scroll_bar is None:
            return
        if widget.ui_container is not box.get_container():
            return
        top = widget.relative_rect.top
        offset = -box.scrollable_container.relative_rect.top
        if top - margin < offset:
            offset = top - margin
        elif widget.relative_rect.bottom + margin > offset + self.rect.height:
            offset = widget.relative_rect.bottom + margin - self.rect.height
        else:
            return
        offset = max(0, min(offset, self.content_height - self.rect.height))
        box.vert_scroll_bar.set_scroll_from_start_percentage(offset / self.content_height)


def delete_dialog(manager: pygame_gui.UIManager, window: tuple[int, int],
                  text: str) -> UIConfirmationDialog:
    """A centred "Delete?" confirmation whose Delete button starts selected."""
    rect = pygame.Rect((0, 0), DIALOG_SIZE)
    rect.center = (window[0] // 2, window[1] // 2)
    dialog = UIConfirmationDialog(rect, text, manager, window_title="Delete save",
                                  action_short_name="Delete", object_id="#delete_dialog")
    for button in (dialog.cancel_button, dialog.confirm_button):
        # Bigger buttons; each sits left of its anchor (the window's edge, then Cancel).
        button.set_dimensions(DIALOG_BUTTON)
        button.set_relative_position((-DIALOG_BUTTON[0] - 12, -DIALOG_BUTTON[1] - 12))
    dialog.confirm_button.select()
    return dialog


class LoadScene(Scene):
    """Lists the saves folder; Enter opens, Delete deletes (after asking)."""

    def __init__(self, app: Any, after_load: Callable[[Path], Any] | None = None) -> None:
        super().__init__(app)
        #: Called with the save's path after it was opened successfully.
        self.after_load = after_load
        self.saves: list[SaveInfo] = []
        self.entry_of: dict[UIElement, SaveInfo] = {}
        self.rows: list[tuple[UIElement, UIElement]] = []
        self.area: ScrollArea | None = None
        self.dialog: UIConfirmationDialog | None = None
        self.doomed: SaveInfo | None = None
        self.focus_row = 0

    # building ---------------------------------------------------------------------
    def panel(self) -> pygame.Rect:
        """Where the list goes for the current window size."""
        width, height = self.app.window_size
        rect = pygame.Rect(0, px(130), min(px(940), width - 80), height - px(130) - px(96))
        rect.centerx = width // 2
        return rect

    def build(self) -> None:
        self.saves = list_saves(paths.saves_dir())
        self.entry_of, self.rows = {}, []
        panel = self.panel()
        content = len(self.saves) * (px(ROW_HEIGHT) + ROW_GAP) - ROW_GAP
        self.area = ScrollArea(self.controls, panel, content) if self.saves else None
        for row, info in enumerate(self.saves):
            self.add_row(row, info)
        back = pygame.Rect(0, 0, px(200), px(48))
        back.midbottom = (self.app.window_size[0] // 2, self.app.window_size[1] - px(30))
        self.controls.button(back, "Back", self.app.pop, tooltip="Return to the menu (Esc)")
        self.controls.on_escape = self.app.pop
        self.refocus()

    def add_row(self, row: int, info: SaveInfo) -> None:
        """One save: a big button to open it, its details on top, and a Delete button."""
        area = self.area
        assert area is not None
        y = row * (px(ROW_HEIGHT) + ROW_GAP)
        width = area.width - px(DELETE_WIDTH) - 10
        rect = area.place(0, y, width, px(ROW_HEIGHT))
        damaged = info.error is not None
        tip = (f"This file cannot be opened: {info.error}" if damaged
               else "Open this game (Enter)")
        main = self.controls.button(rect, "", lambda: self.open(info), tooltip=tip,
                                    object_id="#save_entry", enabled=not damaged,
                                    container=area.container)
        delete = self.controls.button(area.place(width + 10, y, px(DELETE_WIDTH), px(ROW_HEIGHT)),
                                      "Delete", lambda: self.ask_delete(info),
                                      tooltip="Delete this save (Del)", object_id="#danger",
                                      container=area.container)
        self.entry_of[main] = self.entry_of[delete] = info
        self.rows.append((main, delete))
        when = "" if damaged else friendly_time(info.meta.get("updated"), info.modified)
        text_width = rect.width - px(32) - (px(190) if when else 0)
        lines = self.row_lines(info)
        # Too many players: "and 3 more", down to none named ("3 players"), then no count
        # of actions and no players (a small window at a larger size): the tooltip names
        # them all.
        tries = [(shown, False) for shown in range(len(info.seats) - 1, -1, -1)]
        for shown, brief in tries + [(0, True)]:
            text, style = lines[-1]
            if font(*LABEL_FONTS.get(style, (16, False))).size(text)[0] <= text_width - 12:
                break
            lines = self.row_lines(info, shown, brief)
            main.set_tooltip(f"{tip}: " + ", ".join(seat for seat, _kind in info.seats))
        for line, (text, style) in enumerate(lines):
            place = pygame.Rect(rect.x + px(16), rect.y + px(6) + px(24) * line, text_width,
                                px(26))
            self.controls.keep(PassiveLabel(place, fit(text, text_width,
                                                       *LABEL_FONTS.get(style, (16, False))),
                                            self.controls.manager,
                                            container=area.container, object_id=style))
        if when:
            place = pygame.Rect(rect.right - px(196), rect.y + px(6), px(180), px(26))
            self.controls.keep(PassiveLabel(place, when, self.controls.manager,
                                            container=area.container,
                                            object_id="#save_when"))

    @staticmethod
    def row_lines(info: SaveInfo, players: int | None = None,
                  brief: bool = False) -> list[tuple[str, str]]:
        """The text lines of a save's entry, each with its theme id; ``players``: how many
        players to name (the others are counted); ``brief``: the file's name alone on its
        last line."""
        name = info.path.name
        if info.error is not None:
            return [(f"{name} — cannot be opened", "#save_title"),
                    (info.error, "#save_error"),
                    ("Delete it, or fix the file by hand.", "#save_file")]
        meta = info.meta
        status = str(meta.get("status") or "")
        if info.over and not status.lower().startswith(("over", "game over")):
            status = f"Game over — {status}" if status else "Game over"
        elif not status and meta.get("to_act"):
            status = "Waiting for " + ", ".join(meta["to_act"])
        actions = meta.get("actions")
        details = ["Autosave" if info.autosave else name]
        if brief:
            return [(info.title, "#save_title"), (status or "No status recorded", "#save_status"),
                    (details[0], "#save_file")]
        if isinstance(actions, int):
            details.append(f"{actions} action{'s' if actions != 1 else ''}")
        if info.seats:
            names = [seat + (" (computer)" if kind == "bot" else "") for seat, kind in info.seats]
            if players == 0:
                names = [f"{len(names)} player{'s' if len(names) != 1 else ''}"]
            elif players is not None and players < len(names):
                names = names[:players] + [f"{len(names) - players} more"]
            details.append(", ".join(names))
        return [(info.title, "#save_title"), (status or "No status recorded", "#save_status"),
                ("  ·  ".join(details), "#save_file")]

    def refocus(self) -> None:
        """Focus the row the player was on (after deleting), else the first control."""
        if not self.rows:
            self.controls.move(1)
            return
        main, delete = self.rows[min(self.focus_row, len(self.rows) - 1)]
        self.controls.focus_widget(main if main.is_enabled else delete)
        self.reveal()

    # actions ------------------------------------------------------------------------
    def open(self, info: SaveInfo) -> None:
        if open_match(self.app, info.path) and self.after_load is not None:
            self.after_load(info.path)

    def ask_delete(self, info: SaveInfo) -> None:
        """Ask before deleting ``info``'s file."""
        if self.dialog is not None and self.dialog.alive():
            return
        self.doomed = info
        summary = info.error or f"{info.title}: {info.meta.get('status', '')}"
        text = (f"Delete <b>{html.escape(info.path.name, quote=False)}</b>?<br>"
                f"<font color=#aaa091>{html.escape(summary, quote=False)}</font><br><br>"
                "This cannot be undone.")
        self.dialog = self.controls.keep(delete_dialog(self.controls.manager,
                                                       self.app.window_size, text))

    def delete(self) -> None:
        """Delete the file the open dialog asked about, then list the folder again."""
        info, self.doomed = self.doomed, None
        self.close_dialog()
        if info is None:
            return
        self.focus_row = next((row for row, other in enumerate(self.saves)
                               if other.path == info.path), 0)
        try:
            info.path.unlink(missing_ok=True)
        except OSError as exc:
            self.app.toast(f"Could not delete {info.path.name}: {exc.strerror or exc}",
                           error=True)
        else:
            self.app.toast(f"Deleted {info.path.name}")
        self.rebuild()

    def close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.kill()
        self.dialog = None

    # events -----------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED:
            if event.ui_element is self.dialog:
                self.delete()
                return True
            return False
        if self.dialog is not None and self.dialog.alive():
            return self.dialog_key(event)
        if event.type == pygame.KEYDOWN and event.key == pygame.K_DELETE:
            info = self.entry_of.get(self.controls.focused())
            if info is not None:
                self.ask_delete(info)
                return True
        used = super().handle_event(event)
        if event.type == pygame.KEYDOWN:
            self.reveal()
        return used

    def dialog_key(self, event: pygame.event.Event) -> bool:
        """Keys while the dialog is open: Tab/arrows switch, Enter presses, Esc cancels."""
        if event.type != pygame.KEYDOWN:
            return False
        dialog = self.dialog
        assert dialog is not None
        if event.key == pygame.K_ESCAPE:
            self.close_dialog()
        elif event.key in SWITCH_KEYS:
            chosen, other = ((dialog.cancel_button, dialog.confirm_button)
                             if dialog.confirm_button.is_selected
                             else (dialog.confirm_button, dialog.cancel_button))
            other.unselect()
            chosen.select()
        elif event.key in PRESS_KEYS:
            if dialog.confirm_button.is_selected:
                self.delete()
            else:
                self.close_dialog()
        return True

    def reveal(self) -> None:
        if self.area is not None:
            self.area.reveal(self.controls.focused())

    # drawing ------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        surface.blit(backdrop((width, height)), (0, 0))
        draw_text(surface, "Load a game", (width / 2, px(58)), 40, GOLD, bold=True,
                  anchor="center", shadow=True)
        folder = paths.saves_dir()
        count = len(self.saves)
        note = (f"{count} save{'s' if count != 1 else ''} in {folder}" if count
                else f"Games you save appear here ({folder})")
        draw_text(surface, fit(note, width - 40, 16), (width / 2, px(98)), 16, MUTED,
                  anchor="center")
        if not self.saves:
            panel = self.panel()
            draw_text(surface, "No saves yet", (width / 2, panel.centery - px(16)), 30,
                      bold=True, anchor="center", shadow=True)
            draw_text(surface, "Start a new game from the main menu; it is saved as you play.",
                      (width / 2, panel.centery + px(22)), 18, MUTED, anchor="center")
