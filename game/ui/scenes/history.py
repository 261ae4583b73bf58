"""History: step backward and forward through every action of a match.

The board, the panel and the log are drawn as they stood after the step shown, by the game's
own screen, with that step's events animated.  What is shown is one seat's view at each step
(``Match.view`` and ``Match.log_for`` of a replayed copy), never more:

- during play, the view of the person at the screen (nobody's, behind a handover card);
- once the game is over, any seat's view, chosen with "Seen by", or "Everyone", which adds
  every private log line: all secrets are out by then.

"Play from here" leaves history and continues a new match from the step shown, as a new save
with its own autosave (the original match and its files are left as they are), where undo
could reach that step or once the game is over.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import pygame
from pygame_gui.elements import UIButton, UIHorizontalSlider

from game.engine import Match
from game.engine.events import audience, visible_to
from game.engine.history import History

from ..look import px
from ..widgets import fit
from .play import HEADER_HEIGHT, LINE_HEIGHT, PlayScene

#: "Seen by" value that shows every seat's secrets (only once the game is over).
EVERYONE = "everyone"
NAV_KEYS = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_PAGEUP: -10, pygame.K_PAGEDOWN: 10}
#: The log box's rows: the first row's height and the distance between rows, in pixels, until
#: the box has shown two rows and they are measured (pygame_gui's 16 px font, spacing 1.15).
LOG_ROW = (22, 25)
#: The replay behind History's earlier steps runs this long a loop turn, this many actions
#: at a time, until done (see ``update``).
PREPARE_SECONDS = 0.006
PREPARE_ACTIONS = 16
PLAY_TIP = "Continue a new game from this step; the original game is kept"


class HistoryScene(PlayScene):
    """A read-only play scene over a :class:`History`, with step controls in the panel.

    A step must feel instant in the longest games: the step's match comes from the
    history's kept states (see :mod:`game.engine.history`), the widgets are built once and
    only their state changes from step to step, and the log box is given just the lines it
    can show (pygame_gui lays out every line it is given, and a scroll bar lays it out again).
    """

    def __init__(self, app: Any, live: Match, viewer: int | None,
                 play: PlayScene | None = None, step: int | None = None) -> None:
        self.history = History(live)
        self.play = play
        self.over = live.is_over()
        self.step = len(self.history) if step is None else max(0, min(step, len(self.history)))
        super().__init__(app, self.history.at(self.step, private_copy=False))
        self.seen_by: int | str | None = viewer if not self.over else (
            EVERYONE if viewer is None else viewer)
        self.viewer = self._seat()
        self.results_shown = True
        self.slider: UIHorizontalSlider | None = None
        #: The step buttons (|<, <, >, >|), "Seen by" and "Play from here", kept between
        #: steps (their state is changed in place, see ``_sync``).
        self.nav: list[UIButton] = []
        self.seen_button: UIButton | None = None
        self.play_button: UIButton | None = None
        #: (step, seen by, box size) the log box shows, and the advice lines of a step.
        self._log_key: tuple[Any, ...] | None = None
        self._info: tuple[tuple[int, Any], list[str]] | None = None
        self._row = LOG_ROW
        self._log_due = False
        self.screen.reset(self.view())

    # what is shown ---------------------------------------------------------------------------
    def _seat(self) -> int | None:
        return self.seen_by if isinstance(self.seen_by, int) else None

    def _may_see(self, event: dict[str, Any]) -> bool:
        return self.seen_by == EVERYONE or visible_to(event, self._seat())

    def _log_entry(self, event: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """Everyone's view: a private line says whose it was ("You draw..." to whom)."""
        if self.seen_by != EVERYONE or audience(event) is None:
            return event
        return {**event, "text": f"[{', '.join(names[s] for s in audience(event))}] "
                                 f"{event['text']}"}

    def _log_events(self) -> list[dict[str, Any]]:
        """Every log line the step shows, in order (all of them: see ``_log_html`` for the
        ones put in the box)."""
        names = [seat["name"] for seat in self.match.seats]
        log = self.history.log[:self.history.log_end(self.step)]
        return [self._log_entry(ev, names) for ev in log if ev.get("text") and self._may_see(ev)]

    def _log_rows(self) -> int:
        """How many rows of text the log box shows without a scroll bar."""
        box = self.log_box
        if box is None:
            return 1
        rows = box.text_box_layout.layout_rows if box.text_box_layout is not None else []
        if len(rows) >= 2 and rows[1].y > rows[0].y:
            self._row = (rows[0].height, rows[1].y - rows[0].y)
        first, pitch = self._row
        return max(1, (box.text_wrap_rect.height - first) // pitch + 1)

    def _log_html(self) -> str:
        """The newest lines of the step that fill the box, and no more: laying out lines
        nobody sees (and a scroll bar) is most of a step's time in a long game."""
        if self.log_box is None:
            return " "      # a new box: its text is fitted once it has its size
        self._log_key = (self.step, self.seen_by, tuple(self.log_box.rect.size))
        room = self._log_rows()
        names = [seat["name"] for seat in self.match.seats]
        log, lines = self.history.log, []
        for index in range(self.history.log_end(self.step) - 1, -1, -1):
            event = log[index]
            if not (event.get("text") and self._may_see(event)):
                continue
            line = self._line(self._log_entry(event, names))
            rows = line.count("<br>") + 1
            if lines and rows > room:
                break
            lines.append(line)
            room -= rows
            if room <= 0:
                break
        return "<br>".join(reversed(lines)) or "<i>Nothing yet.</i>"

    def _refresh_log(self) -> None:
        """Show the step's log (laid out only when the step, the seat or the box changed)."""
        box = self.log_box
        if box is None or not box.alive():
            return
        if self._log_key == (self.step, self.seen_by, tuple(box.rect.size)):
            return
        html = self._log_html()
        if html != box.html_text:     # a step with no line for this seat keeps the box
            box.set_text(html)
            self._scroll_log()

    def _place_log(self, rect: pygame.Rect) -> None:
        if self.log_box is None or not self.log_box.alive():
            self._log_key = None    # a new box (after a scene over this one, say) is empty
        super()._place_log(rect)
        self._refresh_log()     # a new box is fitted with its text once it has its size

    def info_lines(self) -> list[str]:
        key = (self.step, self.panel_rect().width, px(1))
        if self._info is None or self._info[0] != key:
            actor = self.history.actor(self.step)
            lines = [f"History: step {self.step} of {len(self.history)}",
                     "The start of the game" if actor is None
                     else f"This step: {self.match.seats[actor]['name']} acted"]
            self._info = (key, [fit(line, px(360), 16) for line in lines])
        return self._info[1]

    def go(self, step: int, animate: bool = True) -> None:
        """Show the match after ``step`` actions; the step's own events are animated when
        moving one step forward.  The widgets stay; only their state changes."""
        step = max(0, min(step, len(self.history)))
        forward = animate and step == self.step + 1
        self.queue.clear()
        self.busy_for = None
        if forward:
            before = self.history.at(step - 1, private_copy=False)
            self._show(before)
            self.screen.reset(self.view())
            self._show(self.history.at(step, private_copy=False))
            self.shown = list(before.log)
            self.queue = deque(ev for ev in self.history.events_of(step) if self._may_see(ev))
        else:
            self._show(self.history.at(step, private_copy=False))
            self.shown = list(self.match.log)
            self.screen.reset(self.view())
        self.step = step
        self._sync()
        # The log is laid out at this loop turn's update, once however many keys came in.
        self._log_due = True
        self.app.touch(0.0)

    def _show(self, match: Match) -> None:
        self.match = match  # a LocalTable over the step's match (the screen reads it)

    def _sync(self) -> None:
        """Bring the kept widgets up to the step shown (enabled, slider, texts)."""
        last = len(self.history)
        for button, target in zip(self.nav, (0, self.step - 1, self.step + 1, last)):
            wanted = 0 <= target <= last and target != self.step
            if wanted != button.is_enabled:
                button.enable() if wanted else button.disable()
        if (self.slider is not None and self.slider.alive()
                and int(self.slider.get_current_value()) != self.step):
            self.slider.set_current_value(self.step)
        if self.seen_button is not None:
            seen = ("Everyone" if self.seen_by == EVERYONE
                    else self.match.seats[self.seen_by]["name"])
            text = fit(f"Seen by: {seen}", self.seen_button.rect.width, 16)
            if self.seen_button.text != text:
                self.seen_button.set_text(text)
        if self.play_button is not None:
            why = self.history.branch_refusal(self.step, self._seat())
            if (why is None) != self.play_button.is_enabled:
                self.play_button.enable() if why is None else self.play_button.disable()
            tip = PLAY_TIP if why is None else f"Not now: {why}"
            if self.play_button.tool_tip_text != tip:  # it names the step undo cannot pass
                self.play_button.set_tooltip(tip)

    # nothing here changes the game ----------------------------------------------------------
    def perform(self, seat: int | None, action: dict[str, Any]) -> bool:
        self.app.toast("History only shows the game: use Play from here to continue from "
                       "this step.", error=True)
        return False

    def _decide(self, dt: float) -> bool:
        return False

    def why_not_here(self, cell: Any) -> str | None:
        return None  # places only show here: their tooltips say what is there, no "Not now"

    def autosave(self) -> None:
        return None

    # controls ----------------------------------------------------------------------------------
    def build(self) -> None:
        panel = self.panel_rect()
        x, width = panel.x + 12, panel.width - 24
        y = panel.y + px(HEADER_HEIGHT) + px(LINE_HEIGHT) * len(self.info_lines()) + px(8)
        quarter = (width - 24) // 4
        row = pygame.Rect(x, y, quarter, px(40))
        last = len(self.history)
        self.nav = [
            self.controls.button(row.move(i * (quarter + 8), 0), label, callback, tooltip=tip)
            for i, (label, callback, tip) in enumerate((
                ("|<", lambda: self.go(0), "The start (Home)"),
                ("<", lambda: self.go(self.step - 1), "One step back (Left)"),
                (">", lambda: self.go(self.step + 1), "One step forward (Right)"),
                (">|", lambda: self.go(len(self.history)), "The end (End)")))]
        y += px(48)
        self.slider = self.controls.keep(UIHorizontalSlider(
            pygame.Rect(x, y, width, px(28)), self.step, (0, max(1, last)), self.app.ui,
            click_increment=1))
        y += px(38)
        self.seen_button = None
        if self.over:
            self.seen_button = self.controls.button(
                pygame.Rect(x, y, width, px(36)), "Seen by", self.next_seen_by,
                tooltip="The game is over: look through any player's eyes, or everyone's")
            y += px(44)
        self.play_button = self.controls.button(
            pygame.Rect(x, y, width, px(36)), "Play from here", self.play_from_here,
            object_id="#primary", tooltip=PLAY_TIP)
        y += px(44)
        bottom = panel.bottom - px(52)
        self._place_log(pygame.Rect(x, y + 6, width, max(bottom - y - 16, px(80))))
        self.controls.button(pygame.Rect(x, bottom, width, px(40)), "Close history", self.close,
                             tooltip="Back to the game (Esc)")
        self.controls.on_escape = self.close
        self._sync()

    def next_seen_by(self) -> None:
        order: list[int | str] = [EVERYONE, *range(len(self.match.seats))]
        self.seen_by = order[(order.index(self.seen_by) + 1) % len(order)]
        self.viewer = self._seat()
        self.go(self.step, animate=False)

    def play_from_here(self) -> None:
        if not self.history.can_branch(self.step):
            return
        branch = self.history.branch(self.step)
        self.app.to_menu()
        self.app.push(PlayScene(self.app, branch))
        self.app.toast(f"A new game continues from step {self.step}; the original game is "
                       f"kept as it was.")

    def close(self) -> None:
        self.app.pop()

    # input ---------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and not self.controls.typing():
            if event.key in NAV_KEYS:
                self.go(self.step + NAV_KEYS[event.key])
                return True
            if event.key == pygame.K_HOME:
                self.go(0)
                return True
            if event.key == pygame.K_END:
                self.go(len(self.history))
                return True
            if event.key == pygame.K_h:
                self.close()
                return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.board_rect().collidepoint(event.pos):
                return True                   # the board is for looking at here
        return super().handle_event(event)

    def update(self, dt: float) -> bool:
        # The slider is read here, once a loop turn, whatever moved it (drag, click, keys).
        slid = (self.slider is not None and self.slider.alive()
                and int(self.slider.get_current_value()) != self.step)
        if slid:
            self.go(int(self.slider.get_current_value()), animate=False)
        if self._log_due:
            self._log_due = False
            self._refresh_log()
        if not self.history.ready:
            # The replay that finds the earlier steps, a few ms a loop turn (History opens
            # at once at the end of any game; an earlier step asked for first finishes it).
            start = time.perf_counter()
            while (self.history.prepare(PREPARE_ACTIONS)
                   and time.perf_counter() - start < PREPARE_SECONDS):
                pass
            if self.history.ready:
                self._sync()  # Play from here's reason can now quote the step it names
        # As in play, less the rebuild once the board has caught up (nothing here depends
        # on it) and the computer players (nobody acts in history).
        moving = self._advance(dt)
        return slid or moving or self.busy_for is not None or bool(self.queue)
