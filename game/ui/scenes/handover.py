"""The handover card: pass the screen to the next person, showing only public things.

The card is confirmed only by its own button, or by Space or Enter pressed AND released,
by a press that began after the card appeared and its guard time passed: a click or a
held key meant for the board (a double click on the button that brought the card up)
never lets the next person's secrets show to the one still looking.  The press and the
release must both happen in this window: the loop (``App._track``) marks the release SDL
sends when the window loses focus, and the press it sends for a key held in another window
when this one gains focus, as not fresh.
"""

from __future__ import annotations

import time
from typing import Any

import pygame
import pygame_gui

from ..look import px
from ..scene import Scene
from ..widgets import GOLD, MUTED, SEAT_COLOURS, TEXT, draw_card, draw_text, fit, wrap_text

#: Keys that confirm the card when pressed and released.
CONFIRM_KEYS = {pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER}
#: Input the guard looks at (anything else, such as mouse motion, passes).
PRESSES = {pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP,
           pygame.MOUSEWHEEL, pygame_gui.UI_BUTTON_PRESSED}


class InputGuard:
    """Refuses input that began before ``arm()`` plus the app's guard time.

    The loop records when each press began (``app.input_began``: a held key's repeats and
    its release count from its first KEYDOWN, a click from its MOUSEBUTTONDOWN).
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.armed_at = float("inf")

    def arm(self) -> None:
        self.armed_at = time.monotonic() + self.app.guard_seconds

    @property
    def waiting(self) -> bool:
        """Whether the guard time is still running."""
        return time.monotonic() < self.armed_at

    def fresh(self) -> bool:
        """Whether the input being handled began after the guard time."""
        return self.app.input_began >= self.armed_at


def guarded_press(guard: InputGuard, event: pygame.event.Event, confirm) -> bool:
    """A card's key and mouse handling: presses that began before the card appeared, or in
    its first moments, are swallowed; Space or Enter confirms when released (so a held key
    never runs on into what comes next); other fresh presses go on to the card's buttons.
    Returns True when the event was used."""
    if event.type not in PRESSES:
        return False
    if not guard.fresh():
        return True
    if event.type == pygame.KEYDOWN and event.key in CONFIRM_KEYS:
        return True
    if event.type == pygame.KEYUP and event.key in CONFIRM_KEYS:
        confirm()
        return True
    return False


class HandoverScene(Scene):
    """Covers the board (drawn in its public view) until ``seat``'s player confirms."""

    opaque = False

    def __init__(self, app: Any, play: Any, seat: int) -> None:
        super().__init__(app)
        self.play = play
        self.seat = seat
        self.name = play.table.seats[seat]["name"]
        self.guard = InputGuard(app)
        #: An open game asks for a card only so the right person decides: no secrets.
        self.secret = bool(play.table.cls.has_secrets)

    def enter(self) -> None:
        self.guard.arm()
        super().enter()
        title, lines = self.texts()  # only the card's public words
        self.app.cues.handover(title, lines, self.play.table.status())

    def resume(self) -> None:
        self.guard.arm()  # e.g. back from the game menu: its last key must not confirm
        super().resume()

    def build(self) -> None:
        card = self.card_rect()
        button = pygame.Rect(0, 0, min(px(260), card.width - 40), px(50))
        button.midbottom = (card.centerx, card.bottom - px(24))
        self.controls.button(button, fit(f"I am {self.name}", button.width, 18), self.confirm,
                             object_id="#primary")
        self.controls.move(1)
        self.controls.on_escape = self.play.open_menu

    def card_rect(self) -> pygame.Rect:
        width, height = self.app.window_size
        card = pygame.Rect(0, 0, min(px(560), width - 40), px(280))
        card.center = (width // 2, height // 2)
        return card

    def confirm(self) -> None:
        if not self.guard.fresh():
            return
        self.play.viewer = self.seat
        self.app.cues.your_turn(self.play, self.seat)
        recap = self.play.recap_scene(self.seat)
        if recap is None:
            # The person's controls come next: the rest of the press or double click that
            # confirmed the card must not act on them.
            self.play.entry_guard.arm()
            self.app.pop()
        else:  # what happened since their last turn, before their controls appear
            self.app.replace(recap)

    def intercept(self, event: pygame.event.Event) -> bool:
        return guarded_press(self.guard, event, self.confirm)

    def about(self) -> str:
        """What the next person decides, when the view says (``"handover": "<what>"``)."""
        wanted = self.play.view().get("handover")
        return wanted.strip() if isinstance(wanted, str) else ""

    def texts(self) -> tuple[str, list[str]]:
        """The card's title and its lines: who must look (secrets), or who decides."""
        if self.secret:
            return (f"Pass to {self.name}",
                    [f"Press Space or the button when only {self.name} is looking."])
        about = self.about()
        text = (about[:1].upper() + about[1:] if about
                else f"Pass the mouse to {self.name}: the decision is theirs.")
        return f"{self.name} decides", wrap_text(text, 18, self.card_rect().width - px(40))[:2]

    def draw(self, surface: pygame.Surface) -> None:
        card = self.card_rect()
        draw_card(surface, card, SEAT_COLOURS[self.seat % len(SEAT_COLOURS)], 215, 3)
        title, lines = self.texts()
        draw_text(surface, fit(title, card.width, 38, bold=True), (card.centerx, card.y + px(52)),
                  38, GOLD, bold=True, anchor="center")
        y = card.y + px(100)
        for line in lines:
            draw_text(surface, fit(line, card.width - px(20), 18), (card.centerx, y), 18, TEXT,
                      anchor="center")
            y += px(26)
        draw_text(surface, fit(self.play.table.status(), card.width - px(20), 16),
                  (card.centerx, card.y + px(158)), 16, MUTED, anchor="center")
