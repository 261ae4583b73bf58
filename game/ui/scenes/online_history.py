"""History of an online game: step back and forward through the game as the referee shows it.

The program holds no match online, so each step is asked of the referee (``history``, see
:meth:`game.online.remote_table.RemoteTable.history_at`): while the game goes on it answers with
the asking seat's own view and log after that step; once the game is over, with every seat's
view and every line.  The step shown is drawn by the game's own screen over a
:class:`StepTable` made of that answer; nothing here can act.  Left/Right (PageUp/PageDown ten
steps, Home/End) move; Escape or H goes back to the game.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.engine.errors import IllegalAction
from game.engine.rng import Rng
from game.engine.table import STEPS, Table

from ..widgets import fit
from ..look import px
from .play import PlayScene

NAV_KEYS = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_PAGEUP: -10, pygame.K_PAGEDOWN: 10}
READ_ONLY = "History only shows the game."


class StepTable(Table):
    """One step of an online game as the referee's ``history`` answer gives it (read-only)."""

    local = False

    def __init__(self, remote: Any, seat: int, answer: dict[str, Any]) -> None:
        self.remote, self.seat, self.answer = remote, seat, answer
        self.game_id, self.title, self.cls = remote.game_id, remote.title, remote.cls
        self.options, self.seats = remote.options, remote.seats
        self._step = next(STEPS)
        everything = bool(answer.get("over"))
        self._log = [{**{k: v for k, v in ev.items() if k != "audience"},
                      **({"@audience": ev["audience"]}
                         if ev.get("audience") is not None and not everything else {})}
                     for ev in answer.get("log") or []]

    @property
    def here(self) -> list[int]:
        return [self.seat]

    @property
    def step(self) -> int:
        return self._step

    def to_act(self) -> list[int]:
        return list(self.answer.get("to_act") or [])

    def status(self) -> str:
        return str(self.answer.get("status") or "")

    def is_over(self) -> bool:
        return False  # the results are the game's, not a step's

    def result(self) -> dict[str, Any] | None:
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        views = self.answer.get("views") or {}
        return views.get(seat, views.get(self.seat, {}))

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return []

    def log_for(self, seat: int | None) -> list[dict[str, Any]]:
        return [ev for ev in self._log if "@audience" not in ev or seat in ev["@audience"]]

    @property
    def log(self) -> list[dict[str, Any]]:
        return self._log

    def acted(self, seat: int) -> int:
        return 0

    def why_not(self, seat: int | None, action: dict[str, Any]) -> str | None:
        return READ_ONLY

    def why_not_kind(self, seat: int | None, kind: str) -> str | None:
        return READ_ONLY

    def act(self, seat: int, action: dict[str, Any]) -> None:
        raise IllegalAction(READ_ONLY)

    def undo_refusal(self, seat: int | None) -> str:
        return READ_ONLY

    def hint_rng(self, seat: int) -> Rng:
        return Rng(0)


class OnlineHistoryScene(PlayScene):
    """A read-only play scene over the referee's answers, one step at a time."""

    def __init__(self, app: Any, remote: Any, seat: int) -> None:
        self.remote, self.seat = remote, seat
        self.last = int(remote.position(seat)[0] or 0)
        self.at = self.last
        self.wanted = self.last
        now = {"views": {seat: remote.view(seat)}, "status": remote.status(),
               "to_act": remote.to_act(), "log": [
                   {**{k: v for k, v in ev.items() if k != "@audience"},
                    "audience": ev.get("@audience")} for ev in remote.log_for(seat)]}
        super().__init__(app, table=StepTable(remote, seat, now))
        self.viewer = seat
        self.screen.reset(self.view())

    # nothing here changes the game
    def perform(self, seat: int | None, action: dict[str, Any]) -> bool:
        self.app.toast(READ_ONLY, error=True)
        return False

    def _decide(self, dt: float) -> bool:
        return False

    def autosave(self) -> None:
        return None

    def take_news(self) -> bool:
        """Ask for the step wanted; show it once the referee's answer is here."""
        for reason in self.remote.poll():
            self.app.toast(reason, error=True)
        if self.wanted == self.at:
            return False
        answer = self.remote.history_at(self.seat, self.wanted)
        if answer is None:
            return False
        self.table = StepTable(self.remote, self.seat, answer)
        self.at = self.wanted
        self.queue.clear()
        self.busy_for = None
        self.shown = list(self.table.log)
        self.log_taken = len(self.shown)
        self.screen.reset(self.view())
        self.rebuild()
        return True

    def info_lines(self) -> list[str]:
        waiting = self.wanted != self.at
        lines = [f"History: step {self.at} of {self.last}"
                 + (f" (asking the referee for step {self.wanted}...)" if waiting else ""),
                 "Left/Right: a step; Esc: back",
                 "Your own view until the game is over."]
        return [fit(line, px(360), 16) for line in lines]

    def go(self, step: int) -> None:
        self.wanted = max(0, min(step, self.last))
        self.app.touch(0.0)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            if event.key in NAV_KEYS:
                self.go(self.wanted + NAV_KEYS[event.key])
                return True
            if event.key == pygame.K_HOME:
                self.go(0)
                return True
            if event.key == pygame.K_END:
                self.go(self.last)
                return True
            if event.key in (pygame.K_ESCAPE, pygame.K_h):
                self.app.pop()
                return True
        return super().handle_event(event)


__all__ = ["OnlineHistoryScene", "StepTable"]
