"""The recap after a handover: what happened since the person at the screen last acted.

It comes up after a person confirms a handover, before their controls appear, in the place
of the side panel so the board stays in sight with the places that changed outlined.  The
lines are the match log as that person may read it (their own view's words).  Space or
Enter (pressed and released) or its button dismisses it, but only a press that began after
the recap appeared and its guard time passed: the click or held key that confirmed the
handover never dismisses it unseen, nor acts on the board behind it.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.engine import Match
from game.engine.events import visible_to

from ..look import px
from ..scene import Scene
from ..widgets import (GOLD, MUTED, PANEL, SEAT_COLOURS, TEXT, draw_text, fit, panel_fill,
                       wrap_text)
from .handover import InputGuard, guarded_press

#: The most log events a recap lists (the newest; a line says how many earlier ones).
MOST = 12
TEXT_SIZE = 16
LINE = 21


def seen_until(match: Match, seat: int) -> int:
    """How many log events there were right after ``seat``'s last action (0: none yet);
    found by replaying the match up to that action (for a game just loaded)."""
    last = max((i for i, a in enumerate(match.actions)
                if a["seat"] == seat and not match.is_hint(a)), default=None)
    if last is None:
        return 0
    replay = Match(match.game_id, match.seats, match.seed, match.options)
    for record in match.actions[:last + 1]:
        replay._apply(record["seat"], record["action"])
    return len(replay.log)


def seen_view(match: Match, seat: int) -> dict[str, Any]:
    """``seat``'s view right after their last action (the start of the game: none yet),
    found by replaying the match up to that action (for a game just loaded)."""
    last = max((i for i, a in enumerate(match.actions)
                if a["seat"] == seat and not match.is_hint(a)), default=-1)
    replay = Match(match.game_id, match.seats, match.seed, match.options)
    for record in match.actions[:last + 1]:
        replay._apply(record["seat"], record["action"])
    return replay.view(seat)


def look(screen: Any, cell: Any, view: dict[str, Any]) -> str | None:
    """What ``screen`` says is at ``cell`` in ``view`` (None: nothing, or no such place
    then, such as a reward tile before its adventure was drawn)."""
    try:
        return screen.place_words(cell, view)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def changed_places(play: Any, before: dict[str, Any], after: dict[str, Any]) -> set[Any]:
    """The board places whose look differs between two views of one seat: what the screen
    says is there (``GameScreen.place_words``), each view on a screen of its own."""
    from ..gamescreen import screen_for
    then, now = screen_for(play), screen_for(play)
    then.reset(before)
    now.reset(after)
    return {cell for cell in now.cells()
            if look(then, cell, before) != look(now, cell, after)}


def recap_events(match: Match, seat: int, since: int) -> list[dict[str, Any]]:
    """The events after log index ``since`` that ``seat`` may read (those with a text)."""
    return [ev for ev in match.log[since:] if ev.get("text") and visible_to(ev, seat)]


class RecapScene(Scene):
    """Lists ``events`` for ``seat`` over the play scene's panel until dismissed."""

    opaque = False

    def __init__(self, app: Any, play: Any, seat: int, events: list[dict[str, Any]],
                 before: dict[str, Any] | None = None) -> None:
        super().__init__(app)
        #: ``seat``'s view right after their last action: the places that look different
        #: now are outlined (None: those the events name).
        self.before = before
        self.play = play
        self.seat = seat
        self.events = events
        self.name = play.table.seats[seat]["name"]
        self.guard = InputGuard(app)
        self.done = False

    def enter(self) -> None:
        self.guard.arm()
        self.play.recap_cells = self.places()
        super().enter()
        self.app.cues.recap(f"While you were away, {self.name}", self.events[-MOST:])

    def resume(self) -> None:
        self.guard.arm()  # back from the game menu: its last key must not dismiss
        super().resume()

    def places(self) -> set[Any]:
        """The board places that changed since the seat's last action (the play scene
        outlines them): those that look different now; without the view from then, those
        the recap's events name."""
        if self.before is not None:
            return changed_places(self.play, self.before, self.play.table.view(self.seat))
        view = self.play.view()
        out: set[Any] = set()
        for ev in self.events:
            try:
                out |= self.play.screen.event_cells(ev, view)
            except (KeyError, TypeError, ValueError, IndexError):
                continue  # an event a screen does not place: listed, not outlined
        return out

    def heading(self) -> str:
        """The line above the events: it speaks of outlines only when there are some."""
        if self.play.recap_cells:
            return "Since your last turn (outlined on the board):"
        return "Since your last turn:"

    def card_rect(self) -> pygame.Rect:
        return self.play.panel_rect()

    def build(self) -> None:
        card = self.card_rect()
        button = pygame.Rect(card.x + 16, card.bottom - px(60), card.width - 32, px(44))
        self.controls.button(button, "Got it (Space)", self.dismiss, object_id="#primary",
                             tooltip="Hide the recap and show your controls")
        self.controls.move(1)
        self.controls.on_escape = self.play.open_menu

    def dismiss(self) -> None:
        if not self.guard.fresh() or self.done:
            return  # a click or key from before the recap (a double click) does not count
        self.done = True
        self.play.recap_cells = set()
        self.play.entry_guard.arm()  # the dismissing press must not go on to the board
        self.app.pop()

    def intercept(self, event: pygame.event.Event) -> bool:
        return guarded_press(self.guard, event, self.dismiss)

    def lines(self, width: int, room: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The wrapped lines that fit in ``room`` rows, newest events kept."""
        out: list[tuple[str, tuple[int, int, int]]] = []
        events = self.events[-MOST:]
        for ev in reversed(events):
            wrapped = wrap_text("• " + ev["text"], TEXT_SIZE, width)
            if len(out) + len(wrapped) > room - 1 and out:
                break
            out[:0] = [(line, TEXT) for line in wrapped]
        left = len(self.events) - sum(1 for line, _ in out if line.startswith("• "))
        if left > 0:
            out.insert(0, (f"... and {left} earlier", MUTED))
        return out[-room:] if room > 0 else []

    def draw(self, surface: pygame.Surface) -> None:
        card = self.card_rect()
        pygame.draw.rect(surface, panel_fill(), card, border_radius=10)
        pygame.draw.rect(surface, SEAT_COLOURS[self.seat % len(SEAT_COLOURS)], card, 3,
                         border_radius=10)
        x, y = card.x + 16, card.y + px(14)
        draw_text(surface, fit(f"While you were away, {self.name}", card.width - 32, 20,
                               bold=True), (x, y), 20, GOLD, bold=True)
        y += px(30)
        if not self.events:
            draw_text(surface, "Nothing has happened since your last turn.", (x, y + px(4)),
                      TEXT_SIZE, MUTED)
            return
        draw_text(surface, fit(self.heading(), card.width - 32, 15), (x, y), 15, MUTED)
        y += px(26)
        room = max(0, (card.bottom - px(72) - y) // px(LINE))
        for line, colour in self.lines(card.width - 32, room):
            draw_text(surface, line, (x, y), TEXT_SIZE, colour)
            y += px(LINE)
