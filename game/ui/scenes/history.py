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

from collections import deque
from typing import Any

import pygame
from pygame_gui.elements import UIHorizontalSlider

from game.engine import Match
from game.engine.events import audience, visible_to
from game.engine.history import History

from ..widgets import fit
from .play import HEADER_HEIGHT, LINE_HEIGHT, PlayScene

#: "Seen by" value that shows every seat's secrets (only once the game is over).
EVERYONE = "everyone"
#: Log lines shown after a jump (stepping forward appends to them).
HISTORY_LOG_LINES = 24
NAV_KEYS = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_PAGEUP: -10, pygame.K_PAGEDOWN: 10}


class HistoryScene(PlayScene):
    """A read-only play scene over a :class:`History`, with step controls in the panel."""

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
        self.screen.reset(self.view())

    # what is shown ---------------------------------------------------------------------------
    def _seat(self) -> int | None:
        return self.seen_by if isinstance(self.seen_by, int) else None

    def _may_see(self, event: dict[str, Any]) -> bool:
        return self.seen_by == EVERYONE or visible_to(event, self._seat())

    def _log_events(self) -> list[dict[str, Any]]:
        events = [ev for ev in self.shown if ev.get("text") and self._may_see(ev)]
        if self.seen_by != EVERYONE:
            return events
        # Everyone's view: a private line says whose it was ("You draw..." to whom).
        names = [seat["name"] for seat in self.match.seats]
        return [ev if audience(ev) is None else
                {**ev, "text": f"[{', '.join(names[s] for s in audience(ev))}] {ev['text']}"}
                for ev in events]

    def _log_html(self) -> str:
        # Fewer lines than in play: a jump lays the whole box out again, which costs time.
        events = self._log_events()
        shown = events[-HISTORY_LOG_LINES:]
        self._log_state = (self.viewer, self.undos, len(events), len(shown))
        return "<br>".join(self._line(ev) for ev in shown) or "<i>Nothing yet.</i>"

    def info_lines(self) -> list[str]:
        actor = self.history.actor(self.step)
        lines = [f"History: step {self.step} of {len(self.history)}",
                 "The start of the game" if actor is None
                 else f"This step: {self.match.seats[actor]['name']} acted"]
        return [fit(line, 360, 16) for line in lines]

    def go(self, step: int, animate: bool = True) -> None:
        """Show the match after ``step`` actions; the step's own events are animated when
        moving one step forward."""
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
        if not forward:
            self.undos += 1                 # lay the log out afresh (it shrank or jumped)
        self.step = step
        self.rebuild()

    def _show(self, match: Match) -> None:
        self.match = match
        self.screen.match = match

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
        y = panel.y + HEADER_HEIGHT + LINE_HEIGHT * len(self.info_lines()) + 8
        quarter = (width - 24) // 4
        row = pygame.Rect(x, y, quarter, 40)
        last = len(self.history)
        for i, (label, target, tip) in enumerate((
                ("|<", 0, "The start (Home)"), ("<", self.step - 1, "One step back (Left)"),
                (">", self.step + 1, "One step forward (Right)"), (">|", last, "The end (End)"))):
            self.controls.button(row.move(i * (quarter + 8), 0), label,
                                 lambda t=target: self.go(t), tooltip=tip,
                                 enabled=0 <= target <= last and target != self.step)
        y += 48
        self.slider = self.controls.keep(UIHorizontalSlider(
            pygame.Rect(x, y, width, 28), self.step, (0, max(1, last)), self.app.ui,
            click_increment=1))
        y += 38
        if self.over:
            seen = ("Everyone" if self.seen_by == EVERYONE
                    else self.match.seats[self.seen_by]["name"])
            self.controls.button(pygame.Rect(x, y, width, 36),
                                 fit(f"Seen by: {seen}", width, 16), self.next_seen_by,
                                 tooltip="The game is over: look through any player's eyes, "
                                         "or everyone's")
            y += 44
        why = self.history.branch_refusal(self.step, self._seat())
        self.controls.button(pygame.Rect(x, y, width, 36), "Play from here", self.play_from_here,
                             enabled=why is None, object_id="#primary",
                             tooltip=f"Not now: {why}" if why else "Continue a new game from "
                                     "this step; the original game is kept")
        y += 44
        bottom = panel.bottom - 52
        self._place_log(pygame.Rect(x, y + 6, width, max(bottom - y - 16, 80)))
        self.controls.button(pygame.Rect(x, bottom, width, 40), "Close history", self.close,
                             tooltip="Back to the game (Esc)")
        self.controls.on_escape = self.close

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
        if (self.slider is not None and self.slider.alive()
                and int(self.slider.get_current_value()) != self.step):
            self.go(int(self.slider.get_current_value()), animate=False)
            return True
        return super().update(dt)
