"""A message that stays until the person closes it (e.g. after a fault was caught)."""

from __future__ import annotations

from typing import Any

import pygame

from ..scene import Scene
from ..widgets import ALERT, GOLD, TEXT, draw_card, draw_text, wrap_text


class NoticeScene(Scene):
    """A card over the scene below with a title, a message and an OK button."""

    opaque = False

    def __init__(self, app: Any, title: str, message: str) -> None:
        super().__init__(app)
        self.title = title
        self.message = message

    def card_rect(self) -> pygame.Rect:
        width, height = self.app.window_size
        lines = wrap_text(self.message, 17, min(640, width - 80) - 48)
        card = pygame.Rect(0, 0, min(640, width - 80), min(height - 40, 150 + 24 * len(lines)))
        card.center = (width // 2, height // 2)
        return card

    def build(self) -> None:
        card = self.card_rect()
        button = pygame.Rect(0, 0, 160, 44)
        button.midbottom = (card.centerx, card.bottom - 18)
        self.controls.button(button, "OK", self.app.pop, object_id="#primary")
        self.controls.move(1)
        self.controls.on_escape = self.app.pop

    def draw(self, surface: pygame.Surface) -> None:
        card = self.card_rect()
        draw_card(surface, card, ALERT, 200, 3)
        draw_text(surface, self.title, (card.centerx, card.y + 30), 26, GOLD, bold=True,
                  anchor="center")
        y = card.y + 60
        for line in wrap_text(self.message, 17, card.width - 48):
            if y > card.bottom - 80:
                break
            draw_text(surface, line, (card.x + 24, y), 17, TEXT)
            y += 24
