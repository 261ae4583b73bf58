"""The handover card: pass the screen to the next person, showing only public things."""

from __future__ import annotations

from typing import Any

import pygame

from ..scene import Scene
from ..widgets import GOLD, MUTED, SEAT_COLOURS, TEXT, draw_card, draw_text


class HandoverScene(Scene):
    """Covers the board (drawn in its public view) until ``seat``'s player confirms."""

    opaque = False

    def __init__(self, app: Any, play: Any, seat: int) -> None:
        super().__init__(app)
        self.play = play
        self.seat = seat
        self.name = play.match.seats[seat]["name"]

    def build(self) -> None:
        card = self.card_rect()
        button = pygame.Rect(0, 0, 260, 50)
        button.midbottom = (card.centerx, card.bottom - 24)
        self.controls.button(button, f"I am {self.name}", self.confirm, object_id="#primary")
        self.controls.move(1)
        self.controls.on_escape = self.play.open_menu

    def card_rect(self) -> pygame.Rect:
        width, height = self.app.window_size
        card = pygame.Rect(0, 0, 560, 280)
        card.center = (width // 2, height // 2)
        return card

    def confirm(self) -> None:
        self.play.viewer = self.seat
        self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
            self.confirm()
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.confirm()
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        card = self.card_rect()
        draw_card(surface, card, SEAT_COLOURS[self.seat % len(SEAT_COLOURS)], 215, 3)
        draw_text(surface, f"Pass to {self.name}", (card.centerx, card.y + 52), 38, GOLD,
                  bold=True, anchor="center")
        draw_text(surface, f"Press Space or click when only {self.name} is looking.",
                  (card.centerx, card.y + 108), 18, TEXT, anchor="center")
        draw_text(surface, self.play.match.status(), (card.centerx, card.y + 146), 16, MUTED,
                  anchor="center")
