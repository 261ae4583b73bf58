"""The play scene: the board, the side panel, hot-seat turns and animations.

The scene is thin: clicks and keys become actions sent to its table (game/engine/table.py);
what is drawn comes from the viewer's view and from the events being animated.  Drawing and
input read only the table (one seat's view, legal actions and log), so the same scene plays a
hot-seat match (LocalTable) and an online one whose referee holds the match (RemoteTable);
only local bookkeeping (autosave, save, History, the computer players run here) reaches the
LocalTable's match.
Whenever the next seat to act is a different person and the game hides
anything, the viewer becomes nobody (the public view) before the handover
card appears, so no frame ever shows one player's secrets to another.
"""

from __future__ import annotations

import math
import time
import warnings
from collections import deque
from pathlib import Path
from typing import Any

import pygame
from pygame_gui.elements import UITextBox, UITooltip

from game.engine import IllegalAction, Match, SaveError
from game.board.render import ViewTransform
from game.engine.bots import LEVEL_NAMES
from game.engine.events import audience, visible_to
from game.engine.table import LocalTable, Table

from .. import look, paths
from ..look import px
from ..gamescreen import screen_for
from ..marks import HIGHLIGHTS, draw_ring_badge, draw_seat_mark, readable_on
from ..scene import Scene
from ..thinker import Thinker
from ..widgets import (GOLD, MUTED, PANEL, SEAT_COLOURS, TEXT, draw_text, fit, font,
                       panel_edge, panel_fill, render_text, wrap_text)

PANEL_WIDTH = 390
#: The least share of its zoom the board gives up to the boxes a screen draws beside or
#: below it at a larger interface (``board_fit``).
BOARD_GIVES = 0.75
LOG_LINES = 80
#: The least height worth showing the log in (about two lines); below it the log hides.
LOG_MIN = 48
#: Height of the panel's title, status and viewer lines; the advice text starts below.
HEADER_HEIGHT = 94
LINE_HEIGHT = 22
#: Largest board zoom, and the keys that zoom (0 shows the whole board again).
MAX_ZOOM = 4.0
ZOOM_KEYS = {pygame.K_PLUS: 1.25, pygame.K_EQUALS: 1.25, pygame.K_KP_PLUS: 1.25,
             pygame.K_MINUS: 0.8, pygame.K_KP_MINUS: 0.8, pygame.K_0: 0.0, pygame.K_KP_0: 0.0}
#: Room the log box's scroll bar and padding take from its width (see ``PlayScene._line``).
LOG_MARGIN = 54
#: The advice while the board shows what happened (no controls until it has caught up).
WATCH = "Watch the board: what just happened is being shown."
#: How often a second the "is thinking" cue moves (a frame is asked for only then), and how
#: long one loop turn waits for a computer's choice before drawing on.
CUE_RATE = 6
THINK_POLL = 0.015
#: The key that asks for a hint (H is History, F1 the rules).
HINT_KEY = pygame.K_t
#: Outlines on the board: the hinted places, and the places a handover's recap lists.
HINT_COLOUR = HIGHLIGHTS["hint"].colour
RECAP_COLOUR = HIGHLIGHTS["recap"].colour


def takes(callback: Any, action: dict[str, Any]) -> bool:
    """Whether a panel button's ``callback`` takes ``action`` (so a hint can outline it):
    the action is one of its bound values, or every part of it is written in its code or
    bound to it (``lambda: self.act({"type": "roll"})``, ``lambda dx=dx: ...``)."""
    code = getattr(callback, "__code__", None)
    if code is None:
        return False
    bound = list(getattr(callback, "__defaults__", None) or ())
    bound += [cell.cell_contents for cell in getattr(callback, "__closure__", None) or ()
              if not callable(getattr(cell, "cell_contents", None))]
    if any(isinstance(value, dict) and value == action for value in bound):
        return True
    if any(isinstance(value, (dict, list)) for value in bound):
        return False
    consts: set[Any] = set()
    for const in code.co_consts:  # a dict's constant keys come as one tuple
        for item in (const if isinstance(const, tuple) else (const,)):
            if isinstance(item, (str, int)):
                consts.add(item)
    atoms = consts | {v for v in bound if isinstance(v, (str, int))}
    return (action.get("type") in consts and "type" in consts
            and all(k in consts and isinstance(v, (str, int)) and v in atoms
                    for k, v in action.items()))


def disabled_words(tip: str) -> str | None:
    """The message a click on a greyed control shows: its tooltip's "Not now: ..." part
    (None when its tooltip gives no reason)."""
    text = tip.replace("<br>", "\n")
    at = text.find("Not now: ")
    return " ".join(text[at:].split()) if at >= 0 else None


def escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: The bottom row's buttons: their labels and fonts (size, bold) as the theme draws them.
BOTTOM_ROW = [(("Menu",), 16, False), (("Undo",), 16, False), (("Hint",), 16, False),
              (("Step: off", "Step: on"), 16, False), (("Next step",), 18, True)]
#: An online table's Chat button, before Step.
CHAT_BUTTON = (("Chat",), 16, False)
#: Room a button needs beside its label (its border and a little air), and between buttons.
BUTTON_PAD, ROW_GAP = 16, 8


def bottom_row(x: int, y: int, width: int, chat: bool = False) -> list[pygame.Rect]:
    """The Menu, Undo, Hint (Chat, at an online table) and Step buttons across ``width``
    pixels: each as wide as its longest label needs (Step's own or "Next step", in bold),
    the rest shared equally, so that no label is clipped ("Next ste" in an equal quarter)."""
    row = BOTTOM_ROW[:3] + ([CHAT_BUTTON] if chat else []) + BOTTOM_ROW[3:]
    needs = [max(font(size, bold).size(text)[0] for text in texts) + px(BUTTON_PAD)
             for texts, size, bold in row]
    needs = needs[:-2] + [max(needs[-2:])]
    spare = max(0, width - sum(needs) - ROW_GAP * (len(needs) - 1)) // len(needs)
    right, rects = x + width, []
    for need in needs:
        rects.append(pygame.Rect(x, y, need + spare, px(40)))
        x += need + spare + ROW_GAP
    rects[-1].width = max(rects[-1].width, right - rects[-1].x)  # the odd pixels left over
    return rects


class PlayScene(Scene):
    """One match on screen."""

    def __init__(self, app: Any, match: Match | None = None, save_path: Path | None = None,
                 table: Table | None = None) -> None:
        """A local ``match`` (hot-seat), or any ``table`` (an online one: RemoteTable)."""
        super().__init__(app)
        if table is None:
            if match is None:
                raise ValueError("A play scene needs a match or a table.")
            table = LocalTable(match)
        self.table: Table = table
        self.save_path = save_path
        self.viewer: int | None = None
        self.screen = screen_for(self)
        self.queue: deque[dict[str, Any]] = deque()
        #: Seconds until the event being shown has finished (None: nothing showing).
        self.busy_for: float | None = None
        #: Whether that event is log-only (it does not hide the controls).
        self.busy_quiet = False
        self.shown: list[dict[str, Any]] = list(table.log)
        #: How many of the table's log events the scene has taken in (a remote table's
        #: events arrive with the referee's updates and are shown as they come).
        self.log_taken = len(table.log)
        self._generation = getattr(table, "generation", 0)
        self.step_mode = False
        self.awaiting_step = False
        self.step_granted = False
        self.bot_wait: list[Any] | None = None
        #: The computer's choice being worked out on a worker thread (game/ui/thinker.py),
        #: and the position's epoch: bumped whenever a choice in progress must not be used.
        self.thinker: Thinker | None = None
        self.think_epoch = 0
        self.results_shown = table.is_over()
        self.cursor: Any = None
        self.hover: Any = None
        self.keyboard_on_board = False
        #: Board zoom (1: the whole board fits) and pan in screen pixels.
        self.zoom = 1.0
        self.pan = (0.0, 0.0)
        self._drag: tuple[int, int] | None = None
        self.tooltip: UITooltip | None = None
        self._tooltip_cell: Any = None
        self._view_key: tuple[Any, ...] | None = None
        self._view: dict[str, Any] = {}
        self._lines: list[str] = []
        #: Undos so far (a view or log from before an undo is never reused).
        self.undos = 0
        #: For whom and after which undo the log box was written, how many of the visible
        #: events it has seen and how many lines it holds (it is appended to, not re-laid out).
        self._log_state: tuple[Any, ...] = (None, 0, 0, 0)
        self.log_box: UITextBox | None = None
        #: Why the last autosave failed (a lasting warning on the board), or None.
        self.save_problem: str | None = None
        #: The person whose last action showed them something only they may see (drawn
        #: cards...): they keep the screen until they pass it on with "Pass to ...".
        self.private_for: int | None = None
        #: The next person the screen waits to be passed to (the "Pass to" button is up).
        self.passing_to: int | None = None
        from .handover import InputGuard
        self.pass_guard = InputGuard(app)
        #: Refuses input that began before a handover's recap was dismissed (armed then).
        self.entry_guard = InputGuard(app)
        self.entry_guard.armed_at = float("-inf")
        #: The hint being shown (game/ui/hints.py), and the board places it marks.
        self.hint: Any = None
        self.hint_cells: set[Any] = set()
        #: The panel buttons that take the hinted action (outlined).
        self.hint_widgets: list[Any] = []
        #: The places a handover's recap outlines while it is up.
        self.recap_cells: set[Any] = set()
        #: Seat -> how many log events there were right after that person's last action,
        #: and their view then (the recap outlines the places that look different since).
        self.last_seen: dict[int, int] = {}
        self.seen_views: dict[int, dict[str, Any]] = {}
        #: (viewer, actions, cell) -> "why not?" for the hovered place, or None.
        self._why: dict[tuple[Any, ...], str | None] = {}
        #: An online table's chat (game/ui/chat.py), and how many of its lines were seen
        #: (the newer ones from others show as toasts while the box is closed).
        self.chat: Any = None
        self.chat_seen = 0
        self.chat_since = 0.0
        if not table.local and hasattr(table, "chat_lines"):
            from ..chat import ChatBox
            self.chat = ChatBox(self)
            self.chat_seen = len(table.chat_lines())
            # Lines older than this (a minute before the table was opened) are not news.
            self.chat_since = time.time() - 60
        self.screen.reset(self.view())

    # state -----------------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        """The live match of a local table (None online): for local bookkeeping only."""
        return self.table.match if self.table.local else None

    @match.setter
    def match(self, match: Match) -> None:
        self.table = LocalTable(match)

    def view(self) -> dict[str, Any]:
        key = (self.viewer, self.undos, self.table.step, look.scale())
        if key != self._view_key:
            self._view = self.table.view(self.viewer)
            self._lines = [line for text in self.screen.panel_text(self._view)
                           for line in wrap_text(text, 16, px(PANEL_WIDTH - 28))]
            self._view_key = key
        return self._view

    @property
    def showing(self) -> bool:
        """Whether the board is still showing what happened (a log-only event doesn't count)."""
        loud = [ev for ev in self.queue if ev["type"] not in self.screen.QUIET_EVENTS]
        return bool(loud) or (self.busy_for is not None and not self.busy_quiet)

    def away_lines(self) -> list[str]:
        """An online table: who left it and has not come back, wrapped to the panel."""
        away = [] if self.table.local or self.table.is_over() \
            else getattr(self.table, "away", lambda: [])()
        if not away:
            return []
        return wrap_text(f"Away from the table: {', '.join(away)} (the game waits for them)",
                         16, px(PANEL_WIDTH - 28))

    def info_lines(self) -> list[str]:
        """The screen's advice for the viewer, wrapped to the panel (cached with the view);
        at an online table, first who is away."""
        away = self.away_lines()
        if away:
            return away + self._info_lines()
        return self._info_lines()

    def _info_lines(self) -> list[str]:
        if self.showing:
            return wrap_text(WATCH, 16, px(PANEL_WIDTH - 28))
        self.view()
        if self.table.is_over():  # whole lines, leaving room for Show results above the
            # bottom row (a small window at a larger size; the results show it all)
            panel = self.panel_rect()
            room = (panel.bottom - px(52) - 10 - px(44) - panel.y - px(HEADER_HEIGHT)
                    - px(8)) // px(LINE_HEIGHT)
            return self._lines[:max(1, room)]
        return self._lines

    @property
    def humans(self) -> list[int]:
        return self.table.here

    def handover_needed(self) -> bool:
        wanted = self.table.cls.has_secrets or bool(self.view().get("handover"))
        return wanted and self.app.settings.handover and len(self.humans) > 1

    def board_rect(self) -> pygame.Rect:
        width, height = self.app.window_size
        return pygame.Rect(12, 12, width - px(PANEL_WIDTH) - 36, height - 24)

    def toast_area(self) -> pygame.Rect:
        """Messages cover the board, never the panel's title, status or buttons, nor the
        board's own status lines (a turn header, a generators line, a round track): beside
        a tall one or a narrow one at a side (while a message keeps most of its width),
        else below those in the board's upper half and above those in its lower half."""
        area = self.board_rect()
        boxes = [r.clip(area) for r in self.screen.status_rects() if r.colliderect(area)]

        def beside(rects: list[pygame.Rect], room: pygame.Rect) -> pygame.Rect:
            left = max([room.left] + [r.right for r in rects if r.centerx < room.centerx])
            right = min([room.right] + [r.left for r in rects if r.centerx >= room.centerx])
            return pygame.Rect(left, room.top, max(0, right - left), room.height)

        tall = [r for r in boxes if r.height >= area.height / 2]
        room = beside(tall, area)
        rest = [r for r in boxes if r not in tall]
        narrow = [r for r in rest if r.width < room.width / 2]
        side = beside(narrow, room)
        if narrow and side.width >= min(room.width, 440):
            room, rest = side, [r for r in rest if r not in narrow]
        top = max([room.top] + [r.bottom for r in rest if r.centery < room.centery])
        bottom = min([room.bottom] + [r.top for r in rest if r.centery >= room.centery])
        return pygame.Rect(room.left, top, room.width, max(0, bottom - top))

    def panel_rect(self) -> pygame.Rect:
        width, height = self.app.window_size
        return pygame.Rect(width - px(PANEL_WIDTH) - 12, 12, px(PANEL_WIDTH), height - 24)

    # actions -----------------------------------------------------------------------
    def perform(self, seat: int | None, action: dict[str, Any]) -> bool:
        """Hand an action to the table; a refusal is shown, never swallowed.  A remote
        table sends it: the panel says so until the referee answers (see ``take_news``)."""
        if seat is None:
            self.app.toast("Nobody is at the screen yet.", error=True)
            return False
        if self.table.pending:
            self.app.toast(self.table.pending, error=True)
            return False
        try:
            events = self.table.act(seat, action)
        except IllegalAction as exc:
            self.app.toast(exc.reason, error=True)
            return False
        self.stop_thinking()  # a choice worked out for the position before is of no use
        if events is None:  # sent: the referee's answer comes with a later update
            self.rebuild()
            return True
        self.autosave()
        if self.table.seats[seat]["kind"] == "human":
            private = any(audience(ev) == [seat] for ev in events)
            self.private_for = seat if private else None
            self.last_seen[seat] = len(self.table.log)
            self.seen_views[seat] = self.table.view(seat)
        self.queue.extend(events)
        self.log_taken = len(self.table.log)
        self.rebuild()
        return True

    def take_news(self) -> bool:
        """A remote table: take in what the referee sent -- refusals are shown like a local
        refusal, new log events are animated as they come; True when anything changed."""
        if self.table.local:
            return False
        before = self.table.step
        kept, position = self.active_hint(), self.table.position(self.viewer)
        for news in self.table.poll():  # a refusal is an error; a notice is information
            notice = getattr(news, "kind", "refused") == "notice"
            self.app.toast(news, error=not notice, info=notice, seconds=6 if notice else 4)
        self.take_chat()
        log = self.table.log
        generation = getattr(self.table, "generation", 0)
        if len(log) < self.log_taken or generation != self._generation:
            # the referee sent the whole log again (a resync, an undo)
            self._generation = generation
            self.hint = None
            self.shown = list(log)
            self.queue.clear()
            self.log_taken = len(log)
            self.screen.reset(self.view())
        elif len(log) > self.log_taken:
            self.queue.extend(log[self.log_taken:])
            self.log_taken = len(log)
        if kept is not None and self.table.position(self.viewer) == position:
            kept.at = self.table.step  # other news (the table's line): the hint still fits
        seat = self.viewer
        if seat is not None and getattr(self.table, "hinting", None) and \
                self.table.hinting(seat):
            action = self.table.take_hint(seat)
            if action is not None:
                from ..hints import hint_for
                hint = hint_for(self.table, seat, self.screen.place_name, action=action)
                if hint is not None:
                    self.show_hint(hint)
        if self.table.step != before:
            self.rebuild()
            if self.hover is not None:  # the referee's "why not?" for the place pointed at
                self._tooltip_cell = None
                self.show_tooltip(self.hover, pygame.mouse.get_pos())
            return True
        return False

    def take_chat(self) -> None:
        """Others' new chat lines: a toast each (with the speaker's seat mark) while the
        chat box is closed; the open box shows them itself."""
        if self.chat is None:
            return
        lines = self.table.chat_lines(arrival=True)
        new, self.chat_seen = lines[self.chat_seen:], len(lines)
        if self.chat.is_open:
            if new:
                self.app.touch()
            return
        news = [line for line in new  # not the lines said long ago, read from the room's past
                if not line["mine"] and (line["ts"] is None or line["ts"] > self.chat_since)]
        for line in news[-3:]:
            self.app.toast(f"{line['by']}: {line['text']}", info=True, seconds=8,
                           seat=line["seats"][0] if line["seats"] else None)

    def toggle_chat(self, key: str | None = None) -> None:
        """Open or close the table chat (the Chat button, C)."""
        if self.chat is not None:
            self.chat.toggle(key)

    def autosave(self) -> None:
        """Save to the match's own autosave; while that fails a warning stays up (an
        online table is saved by its referee)."""
        if not self.table.local:
            return
        from ..saving import autosave
        self.save_problem = autosave(self.match, self.app)

    def save_to(self, path: Path) -> bool:
        if not self.table.local:
            self.app.toast("An online game is saved by its referee.", error=True)
            return False
        try:
            self.match.save(path)
        except SaveError as exc:
            self.app.toast(str(exc), error=True)
            return False
        self.save_path = path
        self.app.toast(f"Saved to {path.name}.")
        return True

    def undo_refusal(self) -> str:
        """Why the person at the screen cannot undo now, in the refusal's own words."""
        return self.table.undo_refusal(self.viewer)

    def undo(self) -> bool:
        try:
            self.table.undo(self.viewer)
        except IllegalAction as exc:
            self.app.toast(exc.reason, error=True)
            return False
        if not self.table.local:  # asked of the referee: the logs come again when done
            self.hint = None
            self.rebuild()
            return True
        self.stop_thinking()
        self.queue.clear()
        self.busy_for = None
        self.bot_wait = None
        self.private_for = self.passing_to = None
        self.undos += 1
        self.last_seen.clear()  # worked out again from the actions left (recap.seen_until)
        self.seen_views.clear()
        self.shown = list(self.table.log)
        self.log_taken = len(self.shown)
        self.screen.reset(self.view())
        self.autosave()
        self.rebuild()
        self.app.toast("Undone.")
        return True

    # turn flow ------------------------------------------------------------------------
    def _decide(self, dt: float) -> bool:
        """Who acts next: run a computer seat, or bring the right person to the screen."""
        if self.table.is_over():
            if self.viewer is not None:
                self.viewer = None
                self.rebuild()
            if not self.results_shown:
                self.results_shown = True
                self.show_results()
            return False
        table = self.table
        to_act = table.to_act()
        if not table.runs_bots:  # online: the referee plays the computers, others play afar
            if table.pending:
                return False
            people = [s for s in to_act if s in table.here]
            if people:
                if people[0] != self.viewer:
                    self.bring_to_screen(people[0])
            elif self.viewer is None and len(table.here) == 1:
                self.viewer = table.here[0]  # waiting for the others: your own view
                self.rebuild()
            return False
        bots = [s for s in to_act if table.seats[s]["kind"] == "bot"]
        people = [s for s in to_act if s not in bots]
        if bots and people and not self.handover_needed() and self.viewer != people[0]:
            # Nobody else needs to look away: let the person choose while the computers do.
            self.viewer = people[0]
            self.rebuild()
        if bots:
            return self._computer_turn(bots, dt)
        seat = to_act[0]
        if seat != self.viewer:
            self.bring_to_screen(seat)
        return False

    def bring_to_screen(self, seat: int) -> None:
        """The person at ``seat`` is to act next: with a handover card between them and the
        person at the screen when the game hides anything (after they have had time to see
        what they got), else straight away."""
        if self.handover_needed():
            if self.viewer is not None and self.private_for == self.viewer:
                # Let them see what they got before the card hides it.
                if self.passing_to != seat:
                    self.passing_to = seat
                    self.pass_guard.arm()
                    self.rebuild()
                return
            from .handover import HandoverScene
            self.private_for = self.passing_to = None
            self.viewer = None
            self.app.push(HandoverScene(self.app, self, seat))
        else:
            self.viewer = seat
            self.rebuild()

    def _computer_turn(self, bots: list[int], dt: float) -> bool:
        """A computer seat is to act: its choice is worked out in the background (the window
        stays live, the menu opens), the pacing delay runs meanwhile, then it acts.  While it
        waits no frames are asked for but the cue's (a few a second); True once it acted."""
        if self.bot_wait is None or self.bot_wait[0] not in bots:
            self.bot_wait = [bots[0], self.app.settings.bot_delay * (self.app.settings.speed
                                                                     > 0)]
        seat = self.bot_wait[0]
        thinker = self.thinker
        if (thinker is None or thinker.seat != seat
                or not thinker.fits(self.match, self.think_epoch)):
            self.stop_thinking()
            thinker = self.thinker = Thinker(self.match, seat, self.think_epoch)
            self.app.touch(0.0)  # the cue
        phase = int(thinker.elapsed * CUE_RATE)
        thinker.elapsed += dt
        self.bot_wait[1] -= dt
        # A Hard search runs in a worker process and is polled without blocking; a quick
        # Easy or Normal choice on a thread is waited for a moment (game/ui/thinker.py).
        if self.bot_wait[1] <= 0 and thinker.poll(0.0 if thinker.process else THINK_POLL):
            self.thinker = self.bot_wait = None
            action = thinker.take()
            if thinker.note:  # the search could not finish: the Normal choice, said so
                self.app.toast(thinker.note, error=True)
                self.shown.append({"type": "note", "text": thinker.note})
                self._refresh_log()
            self.perform(seat, action)
            return True
        if int(thinker.elapsed * CUE_RATE) != phase:
            self.app.touch(0.0)
        return False

    def stop_thinking(self) -> None:
        """Cancel a computer's choice in progress (undo, leaving the game): its search stops
        and its result is never used."""
        if self.thinker is not None:
            self.thinker.cancel()
            self.thinker = None
        self.think_epoch += 1

    def thinking(self) -> tuple[str, float] | None:
        """While a computer's move is awaited: "Bo (Hard) is thinking" and for how long."""
        thinker = self.thinker
        if thinker is None or self.table.is_over():
            return None
        seat = self.table.seats[thinker.seat]
        level = LEVEL_NAMES.get(seat.get("level", "normal"), "Normal")
        return f"{seat['name']} ({level}) is thinking", thinker.elapsed

    def pass_on(self) -> None:
        """The person who was shown something in private is done: bring up the card."""
        if not self.pass_guard.fresh():
            return  # a click or key from before the button (a double click) does not count
        self.private_for = self.passing_to = None
        self.rebuild()

    def intercept(self, event: pygame.event.Event) -> bool:
        from .handover import PRESSES
        if self.chat is not None and self.chat.swallow(event):
            return True
        # While "Pass to ..." waits, input from before it came up (or in its first moments)
        # is swallowed, so a double click cannot pass the screen on unseen.  Likewise just
        # after a handover's recap: the press that dismissed it never acts on the board.
        if event.type in PRESSES and not self.entry_guard.fresh():
            return True
        if (event.type == pygame.MOUSEBUTTONDOWN and event.button == 1
                and self.passing_to is None):
            widget = self.disabled_at(event.pos, own_tips=True)
            words = None if widget is None else disabled_words(widget.tool_tip_text)
            if words:  # a greyed control: say why on the click too
                self.app.toast(words, error=True)
        return (self.passing_to is not None and event.type in PRESSES
                and not self.pass_guard.fresh())

    # recap, hint -----------------------------------------------------------------------
    def recap_events(self, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may read of what happened since their last action."""
        from .recap import recap_events, seen_until
        if seat not in self.last_seen:
            self.last_seen[seat] = seen_until(self.match, seat)
        return recap_events(self.match, seat, self.last_seen[seat])

    def recap_scene(self, seat: int) -> Any:
        """The recap to show ``seat`` after their handover, or None (turned off in the
        settings, or nothing happened since their last turn)."""
        if not getattr(self.app.settings, "recap", True) or not self.table.local:
            return None
        events = self.recap_events(seat)
        if not events:
            return None
        from .recap import RecapScene, seen_view
        if seat not in self.seen_views:
            self.seen_views[seat] = seen_view(self.match, seat)
        return RecapScene(self.app, self, seat, events, before=self.seen_views[seat])

    def hint_refusal(self) -> str | None:
        """Why the person at the screen may not ask for a hint now (None: they may)."""
        seat = self.viewer
        if seat is None:
            return "Nobody is at the screen yet."
        if self.table.is_over():
            return "The game is over."
        if self.table.seats[seat]["kind"] != "human":
            return "Hints are for the people playing."
        if seat not in self.table.to_act():
            return f"It is not {self.table.seats[seat]['name']}'s turn."
        if self.table.pending:
            return self.table.pending
        if self.showing:
            return "Wait until the board has shown what happened."
        return None

    def active_hint(self) -> Any:
        """The hint shown, while it still fits the position (gone once anything is done)."""
        hint = self.hint
        if hint is None or hint.seat != self.viewer or hint.at != self.table.step:
            return None
        return hint

    def ask_hint(self) -> None:
        """Mark what the Normal computer player would do for the person at the screen (T):
        chosen from their own view only; the asking is logged for everyone."""
        from ..hints import hint_for
        reason = self.hint_refusal()
        if reason is not None:
            self.app.toast(reason, error=True)
            return
        seat = self.viewer
        if not self.table.local:  # the referee works it out and logs the asking
            from game.online.remote_table import HINTING
            self.table.ask_hint(seat)
            self.app.toast(HINTING, scene=self, while_=lambda: self.table.hinting(seat))
            return
        hint = hint_for(self.table, seat, self.screen.place_name)
        if hint is None:
            self.app.toast("There is nothing to choose now.", error=True)
            return
        try:
            events = self.table.record_hint(seat)
        except IllegalAction as exc:
            self.app.toast(exc.reason, error=True)
            return
        if events:
            self.autosave()
            self.shown.extend(events)
            self.log_taken = len(self.table.log)
            self._refresh_log()
        self.show_hint(hint)

    def show_hint(self, hint: Any) -> None:
        """Mark the hinted places and say the hint (until anything is done)."""
        hint.at = self.table.step
        self.hint = hint
        self.screen.ready_for(hint.action, self.view())
        self.hint_cells = set(self.screen.action_cells(hint.action, self.view()))
        # Over this game only, while the hint stands (not after a move, nor to another).
        self.app.toast(hint.line, seconds=12, scene=self,
                       while_=lambda: self.active_hint() is hint)
        self.rebuild()

    def _draw_marks(self, surface: pygame.Surface, transform: Any) -> None:
        """Outline the hinted places and the places the recap lists."""
        hint = self.active_hint()
        for cells, kind in ((self.recap_cells, "recap"),
                            (self.hint_cells if hint is not None else (), "hint")):
            for cell in cells:  # the ring, and its badge: a bulb for the hint, a clock for
                # the recap (never colour alone)
                ring = self.screen.outline(surface, transform, cell, HIGHLIGHTS[kind].colour, 4)
                draw_ring_badge(surface, kind, ring, px(7))
        for cell in self.hint_cells if hint is not None else ():
            label = self.screen.hint_label(cell)
            if label:  # the name the hint's words give it, where the board shows none
                x, y = transform.to_screen(*self.screen.cell_center(cell))
                text = render_text(label, 15, HINT_COLOUR, True)
                # Low in the place, clear of the piece that may stand in its middle.
                below = round(y + max(12, 24 * transform.scale))
                box = text.get_rect(center=(round(x), below)).inflate(8, 4)
                pygame.draw.rect(surface, panel_fill(), box, border_radius=4)
                pygame.draw.rect(surface, HINT_COLOUR, box, 1, border_radius=4)
                surface.blit(text, text.get_rect(center=box.center))
        if hint is not None:
            clip = surface.get_clip()
            surface.set_clip(None)
            for widget in getattr(self, "hint_widgets", ()):
                if widget.alive() and widget.visible:
                    ring = widget.rect.inflate(8, 8)
                    pygame.draw.rect(surface, HINT_COLOUR, ring, 3, border_radius=6)
                    draw_ring_badge(surface, "hint", ring, px(7))
            surface.set_clip(clip)

    def show_results(self) -> None:
        from .results import ResultsScene
        self.app.push(ResultsScene(self.app, self.table, self.screen))

    def next_step(self) -> None:
        self.awaiting_step = False
        self.step_granted = True
        self.rebuild()

    def toggle_step_mode(self) -> None:
        self.step_mode = not self.step_mode
        self.awaiting_step = False
        self.rebuild()

    def update(self, dt: float) -> bool:
        news = self.take_news()
        was_showing = self.showing
        moving = self._advance(dt)
        if was_showing and not self.showing:  # caught up: bring back the controls
            self.rebuild()
        if self.busy_for is None and not self.queue and not moving:
            acted = self._decide(dt)
            self.app.cues.turn(self)  # "your turn" when the person at the screen is to act
            return acted or moving or news
        return True

    def _advance(self, dt: float) -> bool:
        """Run the animations and start the next event; True while pieces move."""
        moving = self.screen.update(dt)
        if self.busy_for is not None:
            self.busy_for -= dt
            if self.busy_for <= 0:
                self.busy_for = None
        if self.busy_for is None and self.queue and not self.awaiting_step:
            event = self.queue[0]
            if (self.step_mode and not self.step_granted
                    and event["type"] in self.screen.STEP_EVENTS):
                self.awaiting_step = True
                self.rebuild()
            else:
                self.step_granted = False
                self.queue.popleft()
                self._start(event)
        return moving

    def _start(self, event: dict[str, Any]) -> None:
        self.shown.append(event)
        speed = self.app.settings.speed
        seconds = self.screen.animate(event, self.view()) * speed
        if speed == 0:
            self.screen.finish()
        self.busy_for = seconds
        self.busy_quiet = event["type"] in self.screen.QUIET_EVENTS
        self.app.cues.shown(self, event)  # its sound, and its log line said aloud
        if visible_to(event, self.viewer):
            self._refresh_log()

    # widgets ---------------------------------------------------------------------------
    def build(self) -> None:
        self._why.clear()  # a choice on the panel (an object to aim...) changes what clicks mean
        panel = self.panel_rect()
        view = self.view()
        y = panel.y + px(HEADER_HEIGHT) + px(LINE_HEIGHT) * len(self.info_lines()) + px(8)
        if self.showing:
            used = 0
        elif self.passing_to is not None:
            name = self.table.seats[self.passing_to]["name"]
            button = self.controls.button(
                pygame.Rect(panel.x + 12, y, panel.width - 24, px(40)),
                fit(f"Done: pass to {name}", panel.width - 24, 16), self.pass_on,
                object_id="#primary", tooltip=f"Hide your things and pass the screen to {name}")
            self.controls.focus_widget(button)
            used = px(44)
        elif self.table.is_over():
            half = (panel.width - 32) // 2
            self.controls.button(pygame.Rect(panel.x + 12, y, half, px(40)),
                                 "Show results", self.show_results, object_id="#primary")
            self.controls.button(pygame.Rect(panel.x + 20 + half, y, half, px(40)),
                                 "Replay (H)", self.open_history,
                                 tooltip="Step through the whole game, every secret shown")
            used = px(44)
        else:
            # The controls may take the room down to the bottom row, less a short log.
            used = self.screen.build_panel(
                pygame.Rect(panel.x + 12, y, panel.width - 24,
                            max(0, panel.bottom - px(52) - 10 - px(LOG_MIN) - 10 - y)), view)
        bottom = panel.bottom - px(52)
        log_top = y + used + 10
        if bottom - 10 - log_top >= px(LOG_MIN):
            self._place_log(pygame.Rect(panel.x + 12, log_top, panel.width - 24,
                                        bottom - 10 - log_top))
        elif self.log_box is not None and self.log_box.alive():
            self.log_box.hide()  # no room: never under the bottom row or out of the window
        rects = bottom_row(panel.x + 12, bottom, panel.width - 24, chat=self.chat is not None)
        menu_rect, undo_rect, hint_rect, step_rect = rects[:3] + rects[-1:]
        self.controls.button(menu_rect, "Menu", self.open_menu,
                             tooltip="Save, load, undo, rules (Esc)")
        self.controls.button(pygame.Rect(panel.right - px(44), panel.y + px(10), px(32),
                                         px(30)), "?",
                             self.open_help, tooltip="The rules about what is happening now (F1)")
        if self.chat is not None:
            self.controls.button(
                rects[3], "Chat", self.toggle_chat,
                tooltip=("Close the table chat (C)" if self.chat.is_open else
                         "Talk with everyone at the table (C); a friend in any Matrix app "
                         "reads it in the table's room too"))
            if self.chat.is_open:
                self.chat.place()
        can_undo = self.table.can_undo(self.viewer)
        self.controls.button(undo_rect, "Undo", self.undo, enabled=can_undo,
                             tooltip="Take back your last action" if can_undo
                             else "Not now: " + self.undo_refusal())
        refusal = self.hint_refusal()
        hint = self.active_hint()
        self.controls.button(
            hint_rect, "Hint", self.ask_hint, enabled=refusal is None,
            tooltip=(hint.line if hint is not None else
                     "What the computer player would do in your place, from what you can "
                     "see (T). Everyone is told you asked.") if refusal is None
            else "Not now: " + refusal)
        if self.awaiting_step:
            self.controls.button(step_rect, "Next step", self.next_step,
                                 object_id="#primary", tooltip="Show the next move (N)")
            self.controls.set_focus(len(self.controls.items) - 1)
        else:
            self.controls.button(step_rect,
                                 "Step: on" if self.step_mode else "Step: off",
                                 self.toggle_step_mode,
                                 tooltip="Step through each move of the resolution")
        self.controls.on_escape = self.open_menu
        hint = self.active_hint()
        self.hint_widgets = [] if hint is None else [
            widget for widget, callback in self.controls.items
            if widget.is_enabled and takes(callback, hint.action)]

    def _place_log(self, rect: pygame.Rect) -> None:
        """Put the log box at ``rect``: it outlives rebuilds, because laying out its text
        anew costs far more than moving it."""
        box = self.log_box
        if box is None or not box.alive():
            self.log_box = UITextBox(self._log_html(), rect, self.app.ui)
            self._scroll_log()
            return
        if not box.visible:
            box.show()
        if box.relative_rect.topleft != rect.topleft:
            box.set_relative_position(rect.topleft)
        if box.relative_rect.size != rect.size:
            box.set_dimensions(rect.size)
            # Lay it out now: pygame_gui would do it 0.2 s later with a new scroll bar at the
            # top, hiding the newest lines.
            box.rebuild()
            self._scroll_log()
        self._refresh_log()

    def _drop_log(self) -> None:
        if self.log_box is not None:
            self.log_box.kill()
            self.log_box = None

    def pause(self) -> None:
        super().pause()
        self._drop_log()
        if self.chat is not None:
            self.chat.kill()

    def exit(self) -> None:
        self.stop_thinking()
        super().exit()
        self._drop_log()
        if self.chat is not None:
            self.chat.kill()

    def _log_events(self) -> list[dict[str, Any]]:
        """The events the viewer may read (an event with no text only animates)."""
        return [ev for ev in self.shown if ev.get("text") and visible_to(ev, self.viewer)]

    def _line(self, event: dict[str, Any]) -> str:
        """An event's log text as HTML, wrapped by us a little short of the box's width:
        pygame_gui puts the line break of a line that just fits on a row of its own, which
        showed as a stray blank line."""
        box = self.log_box
        width = (box.rect.width if box is not None else px(PANEL_WIDTH) - 24) - px(LOG_MARGIN)
        return "<br>".join(escape_html(line) for line in wrap_text(event["text"], 16, width))

    def _log_html(self) -> str:
        events = self._log_events()
        shown = events[-LOG_LINES:]
        self._log_state = (self.viewer, self.undos, len(events), len(shown))
        return "<br>".join(self._line(ev) for ev in shown) or "<i>The log is empty.</i>"

    def _refresh_log(self) -> None:
        """Add the new lines to the log (laying out only them); start afresh when it is long."""
        box = self.log_box
        if box is None or not box.alive():
            return
        events = self._log_events()
        viewer, undos, known, lines = self._log_state
        new = events[known:]
        same = (viewer, undos) == (self.viewer, self.undos)
        if same and not new and len(events) == known:
            return
        if not same or lines == 0 or len(events) < known or lines + len(new) > 2 * LOG_LINES:
            box.set_text(self._log_html())
        else:
            box.append_html_text("<br>" + "<br>".join(self._line(ev) for ev in new))
            self._log_state = (viewer, undos, len(events), lines + len(new))
        self._scroll_log()

    def _scroll_log(self) -> None:
        box = self.log_box
        if box is not None and box.scroll_bar is not None:
            box.scroll_bar.set_scroll_from_start_percentage(1.0)
            box.update(0)

    def open_history(self) -> None:
        """Step through the match so far, in the view of the person at the screen (H)."""
        if not self.table.local:  # each step asked of the referee: your own view only
            if self.viewer is None:
                self.app.toast("Nobody is at the screen yet.", error=True)
                return
            from .online_history import OnlineHistoryScene
            self.app.push(OnlineHistoryScene(self.app, self.table, self.viewer))
            return
        from .history import HistoryScene
        self.app.push(HistoryScene(self.app, self.match, self.viewer, play=self))

    def open_help(self) -> None:
        """Rules at a glance, with the full rules at the section about what is happening now
        a press away (F1, "?", the game menu's Rules)."""
        from game.engine.lesson import load_glance
        from .handbook import RulesScene
        section = self.screen.rules_section(self.view())
        game_id = self.table.game_id
        if load_glance(game_id) is not None:  # the card first, the rules a press on
            from .glance import GlanceScene
            self.app.push(GlanceScene(self.app, game_id, section))
            return
        self.app.push(RulesScene(self.app, game_id=game_id, section=section))

    def open_menu(self) -> None:
        from .pause import PauseScene
        self.app.push(PauseScene(self.app, self))

    # input -----------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.chat is not None and self.chat.handle(event):
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_c and self.chat is not None and not self.controls.typing():
                self.toggle_chat("c")
                return True
            if event.key == pygame.K_F1:
                self.open_help()
                return True
            if event.key == pygame.K_h and not self.controls.typing():
                self.open_history()
                return True
            if event.key == HINT_KEY and not self.controls.typing():
                self.ask_hint()
                return True
            if event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT):
                self.move_cursor(event.key)
                self.app.cues.cursor(self)  # the place and its tooltip, said aloud
                return True
            if event.key == pygame.K_n and self.awaiting_step:
                self.next_step()
                return True
            if (event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
                    and self.keyboard_on_board and self.cursor is not None):
                self.click_place(self.cursor)
                return True
            if event.key == pygame.K_TAB:
                self.keyboard_on_board = False
            if event.key in ZOOM_KEYS and not self.controls.typing():
                self.zoom_by(ZOOM_KEYS[event.key], self.board_rect().center)
                return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = self.cell_under(event.pos)
            if cell is not None:
                self.cursor = cell
                self.click_place(cell)
                return True
        if (event.type == pygame.MOUSEBUTTONDOWN and event.button in (2, 3)
                and self.board_rect().collidepoint(event.pos)):
            self._drag = event.pos
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button in (2, 3):
            self._drag = None
        if event.type == pygame.MOUSEWHEEL and \
                self.board_rect().collidepoint(pygame.mouse.get_pos()):
            self.zoom_by(1.25 ** event.y, pygame.mouse.get_pos())
            return True
        if event.type == pygame.MOUSEMOTION:
            if self._drag is not None:
                self.pan_by(event.pos[0] - self._drag[0], event.pos[1] - self._drag[1])
                self._drag = event.pos
            self.hover = self.cell_under(event.pos)
            if self.hover is None and self._disabled_tip(event.pos):
                pass
            else:
                self.show_tooltip(self.hover, event.pos)
        return self.controls.handle(event, arrows=False)

    def board_fit(self):
        """The board fitted into its area at zoom 1, leaving at each side at least the room
        the game screen keeps there for its own boxes (``GameScreen.side_room``: a race
        table, a dice box, drawn at the interface's size)."""
        area = self.board_rect()
        renderer = self.screen.renderer
        fit = renderer.fit(area)
        side, foot = self.screen.side_room(), self.screen.bottom_room()
        if side <= 0 and foot <= 0:
            return fit
        free_x = (area.width - renderer.bounds.width * fit.scale) / 2
        free_y = (area.height - renderer.bounds.height * fit.scale) / 2
        if free_x >= side and free_y >= foot:
            return fit
        # Never below BOARD_GIVES of its zoom: in a small window the boxes get what room
        # that leaves and cover the board's edge (as at 100%).
        least_w = renderer.bounds.width * fit.scale * BOARD_GIVES
        least_h = renderer.bounds.height * fit.scale * BOARD_GIVES
        side = max(0, min(side, (area.width - least_w) / 2))
        foot = max(0, min(foot, area.height - least_h)) if free_y < foot else 0
        room = area.inflate(-2 * round(side), 0)
        room.height -= round(foot)  # the board moves up (and shrinks if it must) above the box
        return renderer.fit(room)

    def transform(self):
        """Map -> screen: the board fitted into its area, then zoomed and panned."""
        fit = self.board_fit()
        if self.zoom == 1.0:
            return fit
        cx, cy = self.board_rect().center
        return ViewTransform(fit.scale * self.zoom,
                             cx + (fit.offset_x - cx) * self.zoom + self.pan[0],
                             cy + (fit.offset_y - cy) * self.zoom + self.pan[1])

    def zoom_by(self, factor: float, around: tuple[int, int]) -> None:
        """Zoom the board by ``factor`` keeping the map point under ``around`` still."""
        before = self.transform().to_map(*around)
        self.zoom = min(MAX_ZOOM, max(1.0, self.zoom * factor))
        if self.zoom == 1.0:
            self.pan = (0.0, 0.0)
            return
        after = self.transform().to_screen(*before)
        self.pan_by(around[0] - after[0], around[1] - after[1])

    def pan_by(self, dx: float, dy: float) -> None:
        """Move a zoomed board, never so far that an edge of it comes inside its area
        (a board still smaller than the area along an axis stays centred on that axis)."""
        if self.zoom == 1.0:
            return
        area, bounds = self.board_rect(), self.screen.renderer.bounds
        scale = self.board_fit().scale * self.zoom
        limit_x = max(0.0, (bounds.width * scale - area.width) / 2)
        limit_y = max(0.0, (bounds.height * scale - area.height) / 2)
        self.pan = (min(limit_x, max(-limit_x, self.pan[0] + dx)),
                    min(limit_y, max(-limit_y, self.pan[1] + dy)))

    def why_not_here(self, cell: Any) -> str | None:
        """Why a click on ``cell`` would do nothing, or None (it would be taken, or it does
        something of the screen's own): the controller's own words for an action it would
        refuse, or the screen's reason a click there means nothing now ("Not your turn:
        ...", "Roll first: ...")."""
        if cell is None:
            return None
        viewer = self.viewer
        key = (viewer, self.undos, self.table.step, str(cell))
        if key not in self._why:
            if len(self._why) > 256:
                self._why.clear()
            view = self.view()
            reason = self.screen.turn_reason()
            if reason is None:
                action = self.screen.cell_action(cell, view)
                reason = (self.screen.idle_reason(cell, view) if action is None
                          else self.table.why_not(viewer, action))
            self._why[key] = reason
        return self._why[key]

    def click_place(self, cell: Any) -> None:
        """A click (or Enter) on the board place ``cell``: the screen takes it, or a short
        message says why nothing happens (the same words as the place's tooltip)."""
        why = self.why_not_here(cell)
        if why is not None:
            self.app.toast("Not now: " + why, error=True)
            return
        self.screen.click_cell(cell, self.view())

    def disabled_at(self, pos: tuple[int, int], own_tips: bool = False) -> Any:
        """The disabled control under ``pos`` that has a tooltip (saying why it is
        disabled), or None; ``own_tips``: also one that shows its tooltip itself."""
        for widget in [w for w, _ in self.controls.items] + self.controls.others:
            if ((hasattr(widget, "tip_right") and not own_tips) or widget.is_enabled
                    or not widget.visible or not widget.alive()
                    or not getattr(widget, "tool_tip_text", None)
                    or not widget.rect.collidepoint(pos)):
                continue
            return widget
        return None

    def _disabled_tip(self, pos: tuple[int, int]) -> bool:
        """Show the tooltip of a disabled control under ``pos`` (pygame_gui shows none for
        a disabled button: its tooltip says why it is disabled); True when there is one."""
        widget = self.disabled_at(pos)
        if widget is not None:
            key = ("control", id(widget))
            if key == self._tooltip_cell and self.tooltip is not None and self.tooltip.alive():
                return True
            self._tip(key, widget.tool_tip_text, pos)
            return True
        return False

    def _tip(self, key: Any, text: str | None, pos: tuple[int, int]) -> None:
        if self.tooltip is not None:
            self.tooltip.kill()
            self.tooltip = None
        self._tooltip_cell = key
        if text:
            tip = self.tooltip = self.controls.keep(UITooltip(
                escape_html(text).replace("\n", "<br>"), (0, 16), self.app.ui, wrap_width=px(300)))
            window = pygame.Rect((0, 0), self.app.window_size)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # pygame_gui warns when nothing beside fits
                placed = window.collidepoint(pos) and tip.find_valid_position(
                    pygame.math.Vector2(pos))
            if not placed:  # a tall tip near a short window's edge: keep it all inside
                tip.set_position(tip.rect.clamp(window).topleft)

    def show_tooltip(self, cell: Any, pos: tuple[int, int]) -> None:
        """The screen's explanation of ``cell`` in a tooltip beside ``pos`` (None: hide),
        and why a click there would be refused when it would ("why not?")."""
        if cell == self._tooltip_cell and (self.tooltip is None or self.tooltip.alive()):
            return
        text = None if cell is None else self.screen.hover_text(cell, self.view())
        why = self.why_not_here(cell)
        if why:
            text = (text + "\n" if text else "") + "Not now: " + why
        self._tip(cell, text, pos)

    def cell_under(self, pos: tuple[int, int]) -> Any:
        if not self.board_rect().collidepoint(pos) or (self.chat is not None
                                                       and self.chat.covers(pos)):
            return None
        return self.screen.cell_at(self.transform().to_map(*pos))

    def move_cursor(self, key: int) -> None:
        """Move the board cursor to the nearest cell in the arrow's direction."""
        self.keyboard_on_board = True
        self.controls.set_focus(-1)
        cells = self.screen.cells()
        if not cells:
            return
        if self.cursor is None or self.cursor not in cells:
            self.cursor = cells[0]
            return
        dx, dy = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1),
                  pygame.K_DOWN: (0, 1)}[key]
        cx, cy = self.screen.cell_center(self.cursor)
        best, best_cost = None, float("inf")
        for cell in cells:
            x, y = self.screen.cell_center(cell)
            along = (x - cx) * dx + (y - cy) * dy
            if along <= 1:
                continue
            across = abs((x - cx) * dy) + abs((y - cy) * dx)
            cost = along + 2.5 * across
            if cost < best_cost:
                best, best_cost = cell, cost
        if best is not None:
            self.cursor = best
        x, y = self.transform().to_screen(*self.screen.cell_center(self.cursor))
        self.show_tooltip(self.cursor, (round(x), round(y)))

    # drawing ---------------------------------------------------------------------------
    #: The backdrop (background, board picture, panel) paints the whole window.
    covers_window = True
    _board_key: tuple[Any, ...] | None = None
    _board_picture: pygame.Surface | None = None
    _panel_key: tuple[Any, ...] | None = None
    _panel_picture: pygame.Surface | None = None

    def draw(self, surface: pygame.Surface) -> None:
        view = self.view()
        area = self.board_rect()
        transform = self.transform()
        surface.blit(self._backdrop(surface, area, transform), (0, 0))
        surface.blit(*self._panel_backdrop(surface))
        clip = surface.get_clip()
        surface.set_clip(area.clip(clip))
        with look.board_size():  # the board and what is drawn on it keep its zoom
            self.screen.draw_pieces(surface, transform, view)
        for cell, kind, width in ((self.hover, "hover", 2),
                                  (self.cursor if self.keyboard_on_board else None, "cursor", 3)):
            if cell is not None:  # a ring in the kind's colour, and its badge (never colour alone)
                ring = self.screen.outline(surface, transform, cell, HIGHLIGHTS[kind].colour,
                                           width)
                draw_ring_badge(surface, kind, ring, px(7))
        self._draw_marks(surface, transform)
        surface.set_clip(clip)
        if self.chat is not None:
            self.chat.draw(surface)
        self._draw_cue(surface)
        from ..saving import draw_not_saved
        draw_not_saved(surface, area, self.save_problem)

    def _draw_cue(self, surface: pygame.Surface) -> None:
        """While a computer thinks: moving dots after the status line ("Bo (Hard) is
        thinking...") and a small spinner at its end, turning CUE_RATE steps a second."""
        thinking = self.thinking()
        if thinking is None or self.showing:
            return
        text, elapsed = thinking
        panel = self.panel_rect()
        step = int(elapsed * CUE_RATE)
        x, y = panel.x + 14, panel.y + 44
        shown = fit(text, panel.width - 16 - 56, 15)
        width = render_text(shown, 15).get_width()
        draw_text(surface, "." * (step % 4), (x + width + 1, y), 15, GOLD, bold=True)
        centre = (panel.right - 26, y + 10)
        for index in range(8):
            angle = math.tau * index / 8
            bright = (index - step) % 8
            colour = GOLD if bright == 0 else tuple(c * (8 - bright) // 10 for c in GOLD)
            pygame.draw.circle(surface, colour, (round(centre[0] + 8 * math.cos(angle)),
                                                 round(centre[1] + 8 * math.sin(angle))),
                               3 if bright == 0 else 2)

    def _backdrop(self, surface: pygame.Surface, area: pygame.Rect,
                  transform: ViewTransform) -> pygame.Surface:
        """The window without the pieces and the panel -- the background and the board's
        picture in its area -- drawn again only for a new size, zoom or pan."""
        from ..app import BACKGROUND
        board = (surface.get_size(), surface.get_bitsize(), surface.get_masks(), tuple(area),
                 transform, id(self.screen.renderer), look.high_contrast())
        if board != self._board_key or self._board_picture is None:
            picture = pygame.Surface(surface.get_size(), 0, surface)
            picture.fill(panel_fill(BACKGROUND))
            pygame.draw.rect(picture, panel_fill((30, 26, 34)), area, border_radius=10)
            picture.set_clip(area)
            with look.board_size():
                self.screen.renderer.draw(picture, transform)
            picture.set_clip(None)
            self._board_key, self._board_picture = board, picture
        return self._board_picture

    def _panel_backdrop(self, surface: pygame.Surface) -> tuple[pygame.Surface, pygame.Rect]:
        """The panel's header and advice as a picture of the panel's rectangle, and where it
        goes; drawn again only when its text, the person at the screen or its size change."""
        from ..app import BACKGROUND
        content = self._panel_content()
        rect = pygame.Rect(content[0])
        key = (content, surface.get_bitsize(), surface.get_masks(), look.scale(),
               look.high_contrast())
        if key != self._panel_key or self._panel_picture is None:
            picture = pygame.Surface(rect.size, 0, surface)
            picture.fill(panel_fill(BACKGROUND))
            self._draw_panel(picture, ((0, 0, rect.width, rect.height),) + content[1:])
            self._panel_key, self._panel_picture = key, picture
        return self._panel_picture, rect

    def _panel_content(self) -> tuple[Any, ...]:
        """What the panel's header shows: title, status, who is at the screen (and in which
        colour), and the advice lines."""
        panel = self.panel_rect()
        status = "Showing what happened..." if self.showing else (self.table.pending
                                                                   or self.table.status())
        room = panel.width - 16
        thinking = self.thinking()
        if thinking is not None and not self.showing:
            status = thinking[0]  # its moving dots and spinner are drawn over it (_draw_cue)
            room -= px(56)
        if self.viewer is None:
            who, colour = "Public view: nobody's secrets are shown", MUTED
        else:
            who = f"At the screen: {self.table.seats[self.viewer]['name']}"
            colour = readable_on(SEAT_COLOURS[self.viewer % len(SEAT_COLOURS)], PANEL)
        return (tuple(panel), self.table.title, fit(status, room, 15),
                fit(who, panel.width - (40 if self.viewer is not None else 16), 16, bold=True),
                tuple(colour),
                tuple(self.info_lines()))

    def _draw_panel(self, surface: pygame.Surface,
                    content: tuple[Any, ...] | None = None) -> None:
        rect, title, status, who, colour, lines = content or self._panel_content()
        panel = pygame.Rect(rect)
        pygame.draw.rect(surface, panel_fill(), panel, border_radius=10)
        pygame.draw.rect(surface, panel_edge((90, 72, 52)), panel, 2, border_radius=10)
        x, y = panel.x + 14, panel.y + px(12)
        draw_text(surface, title, (x, y), 22, GOLD, bold=True)
        y += px(32)
        draw_text(surface, status, (x, y), 15, MUTED)
        y += px(24)
        if self.viewer is not None:  # the seat's shape beside its colour (never colour alone)
            draw_seat_mark(surface, self.viewer, (panel.right - px(20), y + px(11)), px(14),
                           on_piece=False)
        draw_text(surface, who, (x, y), 16, colour, bold=True)
        y = panel.y + px(HEADER_HEIGHT)
        for line in lines:
            draw_text(surface, line, (x, y), 16, TEXT)
            y += px(LINE_HEIGHT)
