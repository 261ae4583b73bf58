"""A question over the scene below: a title, a message and two buttons.

Used before anything that cannot be taken back or that a person should choose
knowingly: replacing a file with Save as, loading a damaged save up to its
last good action.  Escape (or the cancel button) answers no.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from ..look import px
from ..scene import Scene
from ..widgets import ALERT, GOLD, TEXT, draw_card, draw_text, wrap_text

WIDTH = 620
TEXT_SIZE = 17
LINE = 24


class ConfirmScene(Scene):
    """Asks; ``on_yes`` runs after the card is closed (``on_no`` too, if given)."""

    opaque = False

    def __init__(self, app: Any, title: str, message: str, yes: str,
                 on_yes: Callable[[], Any], no: str = "Cancel",
                 on_no: Callable[[], Any] | None = None, focus_yes: bool = False) -> None:
        super().__init__(app)
        self.title = title
        self.message = message
        self.yes, self.no = yes, no
        self.on_yes, self.on_no = on_yes, on_no
        self.focus_yes = focus_yes

    def lines(self) -> list[str]:
        return wrap_text(self.message, TEXT_SIZE, self.card_width() - px(48))

    def card_width(self) -> int:
        return min(px(WIDTH), self.app.window_size[0] - 60)

    def card_rect(self) -> pygame.Rect:
        width, height = self.app.window_size
        lines = self.lines()
        card = pygame.Rect(0, 0, self.card_width(),
                           min(height - 40, px(150) + px(LINE) * len(lines)))
        card.center = (width // 2, height // 2)
        return card

    def build(self) -> None:
        card = self.card_rect()
        size = (min(px(200), (card.width - px(72)) // 2), px(44))
        no = pygame.Rect((0, 0), size)
        no.bottomright = (card.right - px(24), card.bottom - px(18))
        yes = pygame.Rect((0, 0), size)
        yes.bottomright = (no.x - px(16), no.bottom)
        self.controls.button(yes, self.yes, lambda: self.answer(True), object_id="#primary")
        self.controls.button(no, self.no, lambda: self.answer(False))
        self.controls.set_focus(0 if self.focus_yes else 1)
        self.controls.on_escape = lambda: self.answer(False)

    def answer(self, yes: bool) -> None:
        if self.app.stack.top is self:
            self.app.pop()
        callback = self.on_yes if yes else self.on_no
        if callback is not None:
            callback()

    def draw(self, surface: pygame.Surface) -> None:
        card = self.card_rect()
        draw_card(surface, card, ALERT, 215, 3)
        draw_text(surface, self.title, (card.centerx, card.y + px(30)), 26, GOLD, bold=True,
                  anchor="center")
        y = card.y + px(62)
        for line in self.lines():
            if y > card.bottom - px(80):
                break
            draw_text(surface, line, (card.x + px(24), y), TEXT_SIZE, TEXT)
            y += px(LINE)
