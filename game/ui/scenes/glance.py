"""Rules at a glance: one card per game (how a turn goes, how to win, the three things
beginners forget), from ``game/<game>/glance.yaml`` (format in game/engine/lesson.py), with a
button to the full rules at the section about what is happening now (F1 in a game)."""

from __future__ import annotations

from typing import Any

import pygame

from game.engine import controller_class
from game.engine.lesson import load_glance

from ..scene import Scene
from ..widgets import GOLD, MUTED, TEXT, draw_card, draw_text, fit, wrap_text

#: Text sizes tried, largest first, until the card fits the window.
SIZES = (17, 16, 15, 14, 13)


class GlanceScene(Scene):
    """Over the scene below; Escape or Close goes back."""

    opaque = False

    def __init__(self, app: Any, game_id: str, section: str | None = None) -> None:
        super().__init__(app)
        self.game_id = game_id
        self.section = section
        self.glance = load_glance(game_id) or {"turn": [], "win": "", "forget": []}
        self.title = controller_class(game_id).title

    def blocks(self, width: int, size: int) -> list[tuple[str, list[str]]]:
        """(heading, wrapped lines) of the card's three parts at text ``size``."""
        room = width - 80
        turn = [line for number, item in enumerate(self.glance["turn"], start=1)
                for line in wrap_text(f"{number}. {item}", size, room)]
        win = wrap_text(self.glance["win"], size, room)
        forget = [line for item in self.glance["forget"]
                  for line in wrap_text("• " + item, size, room)]
        return [("How a turn goes", turn), ("How to win", win),
                ("Three things beginners forget", forget)]

    def layout(self) -> tuple[pygame.Rect, int]:
        """The card and the text size that lets it fit the window."""
        width, height = self.app.window_size
        w = min(820, width - 40)
        for size in SIZES:
            line = size + 6
            body = sum(size + 14 + len(lines) * line + 10 for _h, lines in self.blocks(w, size))
            h = 64 + body + 70
            if h <= height - 24 or size == SIZES[-1]:
                card = pygame.Rect(0, 0, w, min(h, height - 24))
                card.center = (width // 2, height // 2)
                return card, size
        raise AssertionError("unreachable")

    def build(self) -> None:
        card, _size = self.layout()
        label = f"Full rules: {self.section}" if self.section else "Full rules"
        wide = min(360, (card.width - 64) * 2 // 3)
        rect = pygame.Rect(card.x + 24, card.bottom - 58, wide, 42)
        self.controls.button(rect, fit(label, wide, 16), self.full_rules, object_id="#primary",
                             tooltip="The whole rules document" + (
                                 f", at {self.section}" if self.section else ""))
        close = pygame.Rect(0, 0, min(160, card.right - 24 - rect.right - 12), 42)
        close.bottomright = (card.right - 24, card.bottom - 16)
        self.controls.button(close, "Close", self.app.pop, tooltip="Back (Esc)")
        self.controls.on_escape = self.app.pop
        self.controls.set_focus(1)

    def full_rules(self) -> None:
        from .handbook import RulesScene
        self.app.replace(RulesScene(self.app, game_id=self.game_id, section=self.section))

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.full_rules()  # F1 again: the full rules
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        card, size = self.layout()
        draw_card(surface, card, GOLD, 170)
        draw_text(surface, fit(f"{self.title} at a glance", card.width - 48, 24, True),
                  (card.x + 32, card.y + 18), 24, GOLD, bold=True)
        y = card.y + 64
        for heading, lines in self.blocks(card.width, size):
            draw_text(surface, heading, (card.x + 32, y), size, MUTED, bold=True)
            y += size + 14
            for line in lines:
                if y + size + 6 > card.bottom - 66:
                    break
                draw_text(surface, line, (card.x + 44, y), size, TEXT)
                y += size + 6
            y += 10
