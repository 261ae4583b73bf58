"""The table chat of an online game (issue 30): a box over the foot of the board.

Opened and closed with the panel's Chat button or the C key (Esc closes it while typing).  It
shows the table's latest lines -- each with the speaker's seat mark and name -- above a
pygame_gui text entry with Send and Close.  A line goes to the referee, which says it in the
table's Matrix room (where any Matrix app shows it too), so every player's program gets it
and it is still there after a restart.  While the box is closed, others' lines show as
toasts with the speaker's seat mark.  Chat is the players' own words: nothing of the game
goes with it.

The widgets outlive the play scene's rebuilds (a rebuild comes with every piece of news,
which would lose what is being typed); they are killed when the scene is covered or left.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.online.protocol import MAX_CHAT

from .look import px
from .marks import draw_seat_mark
from .widgets import MUTED, TEXT, TextEntry, draw_text, panel_fill, wrap_text

#: The box's edge: the information blue of the toasts (game.ui.app.INFO).
EDGE = (120, 170, 225)
#: Lines kept laid out (the box shows the newest that fit).
SHOWN = 40


class ChatBox:
    """The chat box of ``scene`` (a PlayScene over a RemoteTable)."""

    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.is_open = False
        self.entry: Any = None
        self.send_button: Any = None
        self.close_button: Any = None
        #: What was typed and not sent, kept while the box is closed or rebuilt.
        self.draft = ""
        #: The key that opened the box: its character (the TEXTINPUT event that follows
        #: its KEYDOWN) must not land in the entry just focused.
        self.opening_key: str | None = None

    # ------------------------------------------------------------------ layout
    def rect(self) -> pygame.Rect:
        board = self.scene.board_rect()
        width = min(px(620), board.width - 24)
        height = min(px(280), max(px(170), board.height * 45 // 100), board.height - 24)
        return pygame.Rect(board.x + 12, board.bottom - 12 - height, width, height)

    def _rows(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
        """The lines' area, the entry, Send and Close."""
        box = self.rect()
        pad = px(10)
        button = px(78)
        y = box.bottom - pad - px(40)
        close = pygame.Rect(box.right - pad - button, y, button, px(40))
        send = close.move(-button - px(6), 0)
        entry = pygame.Rect(box.x + pad, y, send.x - px(6) - box.x - pad, px(40))
        lines = pygame.Rect(box.x + pad, box.y + px(36), box.width - 2 * pad,
                            y - px(8) - box.y - px(36))
        return lines, entry, send, close

    def place(self) -> None:
        """Make the widgets (once) or move them to the box's place (a new window size)."""
        _lines, entry, send, close = self._rows()
        manager = self.scene.app.ui
        if self.entry is None or not self.entry.alive():
            self.entry = TextEntry(entry, manager, placeholder_text="Say something to the table")
            self.entry.set_text_length_limit(MAX_CHAT)
            if self.draft:
                self.entry.set_text(self.draft)
            self.send_button = pygame_gui.elements.UIButton(
                send, "Send", manager, tool_tip_text="Say it to everyone at the table (Enter)")
            self.close_button = pygame_gui.elements.UIButton(
                close, "Close", manager, tool_tip_text="Close the chat (C, or Esc while typing)")
            self.entry.focus()
            manager.set_focus_set(self.entry)
            return
        for widget, rect in ((self.entry, entry), (self.send_button, send),
                             (self.close_button, close)):
            if widget.relative_rect != rect:
                widget.set_relative_position(rect.topleft)
                widget.set_dimensions(rect.size)

    def kill(self) -> None:
        """Kill the widgets (the scene is covered or left); what was typed is kept."""
        if self.entry is not None and self.entry.alive():
            self.draft = self.entry.get_text()
        for widget in (self.entry, self.send_button, self.close_button):
            if widget is not None:
                widget.kill()
        self.entry = self.send_button = self.close_button = None

    # ------------------------------------------------------------------ open, close
    def toggle(self, key: str | None = None) -> None:
        """Open or close the box; ``key``: the character of the key that asked."""
        if self.is_open:
            self.close()
        else:
            self.opening_key = key
            self.open()

    def swallow(self, event: pygame.event.Event) -> bool:
        """Whether ``event`` is the opening key's own character or release (seen before the
        widgets see it, so that "c" does not start the line)."""
        key = self.opening_key
        if key is None:
            return False
        if event.type == pygame.TEXTINPUT and event.text.lower() == key:
            self.opening_key = None
            return True
        if event.type in (pygame.KEYUP, pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.opening_key = None  # its character did not come (or has come and gone)
        return False

    def open(self) -> None:
        self.is_open = True
        self.scene.chat_seen = len(self.scene.table.chat_lines())
        self.scene.rebuild()  # its button says Close now; the widgets are placed
        self.scene.app.touch(full=True)

    def close(self) -> None:
        self.is_open = False
        self.kill()
        self.scene.chat_seen = len(self.scene.table.chat_lines())
        self.scene.rebuild()
        self.scene.app.touch(full=True)

    def typing(self) -> bool:
        """Whether keys go to the chat's entry."""
        return (self.is_open and self.entry is not None and self.entry.alive()
                and self.entry.is_focused)

    def covers(self, pos: tuple[int, int]) -> bool:
        return self.is_open and self.rect().collidepoint(pos)

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> bool:
        """The box's own events: Send, Close, Enter in the entry, Esc while typing."""
        if not self.is_open:
            return False
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.send_button:
                self.send()
                return True
            if event.ui_element is self.close_button:
                self.close()
                return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.send()
            return True
        if event.type == pygame.KEYDOWN and self.typing():
            if event.key == pygame.K_ESCAPE:
                self.close()
            return True  # typed into the entry: no key is a game command meanwhile
        if event.type == pygame.MOUSEBUTTONDOWN and self.covers(event.pos):
            return True  # the box, not the board under it
        return False

    def send(self) -> bool:
        """Say what is typed; a reason it cannot go is shown (and the text kept)."""
        if self.entry is None or not self.entry.alive():
            return False
        reason = self.scene.table.say(self.entry.get_text())
        if reason is not None:
            self.scene.app.toast(reason, error=True)
            return False
        self.entry.set_text("")
        self.draft = ""
        self.entry.focus()
        self.scene.app.ui.set_focus_set(self.entry)
        self.scene.app.touch()
        return True

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        if not self.is_open:
            return
        box = self.rect()
        pygame.draw.rect(surface, panel_fill(), box, border_radius=8)
        pygame.draw.rect(surface, EDGE, box, 2, border_radius=8)
        draw_text(surface, "Table chat", (box.x + px(12), box.y + px(8)), 17, EDGE, bold=True)
        draw_text(surface, "everyone at the table reads it", (box.right - px(12),
                  box.y + px(10)), 14, MUTED, anchor="topright")
        area, *_ = self._rows()
        lines = self.scene.table.chat_lines()[-SHOWN:]
        if not lines:
            draw_text(surface, "No one has said anything yet.", area.topleft, 15, MUTED)
            return
        mark = px(22)
        rows: list[tuple[str, int | None, bool]] = []  # text, seat mark, first row of a line
        for line in lines:
            wrapped = wrap_text(f"{line['by']}: {line['text']}", 15, area.width - mark)
            seat = line["seats"][0] if line["seats"] else None
            rows += [(text, seat, i == 0) for i, text in enumerate(wrapped)]
        height = px(21)
        fit = max(1, area.height // height)
        y = area.bottom - height * min(fit, len(rows))
        clip = surface.get_clip()
        surface.set_clip(area.clip(clip))
        for text, seat, first in rows[-fit:]:
            if first and seat is not None:
                draw_seat_mark(surface, seat, (area.x + mark // 2 - 2, y + height // 2),
                               px(14), on_piece=False)
            elif first:  # said in another Matrix app: a plain ring, no seat
                pygame.draw.circle(surface, MUTED, (area.x + mark // 2 - 2, y + height // 2),
                                   px(6), 2)
            draw_text(surface, text, (area.x + mark, y), 15, TEXT)
            y += height
        surface.set_clip(clip)


__all__ = ["ChatBox"]
