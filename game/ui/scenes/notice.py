"""A message that stays until the person closes it (e.g. after a fault was caught)."""

from __future__ import annotations

from typing import Any

import pygame

from .confirm import ConfirmScene


class NoticeScene(ConfirmScene):
    """The question card with a single OK button: a title and a message to acknowledge."""

    def __init__(self, app: Any, title: str, message: str) -> None:
        super().__init__(app, title, message, yes="OK", on_yes=None)

    def build(self) -> None:
        card = self.card_rect()
        button = pygame.Rect(0, 0, 160, 44)
        button.midbottom = (card.centerx, card.bottom - 18)
        self.controls.button(button, "OK", self.app.pop, object_id="#primary")
        self.controls.move(1)
        self.controls.on_escape = self.app.pop
