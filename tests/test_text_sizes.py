"""Text at least 12 px at 1280x720 (project rule): every text each game's play scene
draws, in several states (start, mid-game, a decision, game over), is rendered with a
font of 12 px or more. A spy on ``pygame.font.Font`` records every render's size."""

from __future__ import annotations

import sys
from collections import defaultdict

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes.play import PlayScene
import game.ui.widgets as W

from realloop import RealLoop

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 3,
         "mothership": 3, "odysseus": 4}
LEAST = 12


def _clear_caches():
    W.font.cache_clear()
    for mod in list(sys.modules.values()):
        if not getattr(mod, "__name__", "").startswith("game"):
            continue
        for f in vars(mod).values():
            if callable(f) and hasattr(f, "cache_clear"):
                f.cache_clear()


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_text_at_least_12px_at_1280x720(game_id, monkeypatch):
    seen = defaultdict(set)
    orig = pygame.font.Font

    class Spy(orig):
        def __init__(self, f, size, *a, **k):
            super().__init__(f, size, *a, **k)
            self._spy_size = size

        def render(self, text, *a, **k):
            if str(text).strip():
                seen[self._spy_size].add(str(text)[:40])
            return super().render(text, *a, **k)

    monkeypatch.setattr(pygame.font, "Font", Spy)
    _clear_caches()
    try:
        loop = RealLoop(size=(1280, 720))
        seats = [{"name": "Mira", "kind": "human"}] + [
            {"name": f"Bot {i}", "kind": "bot", "level": "easy"} for i in range(1, SEATS[game_id])]
        match = Match.new(game_id, seats, seed=4)
        surf = pygame.Surface((1280, 720))

        def draw():
            scene = PlayScene(loop.app, match)
            scene.viewer = match.to_act()[0] if match.to_act() else 0
            scene.screen.reset(scene.view())
            scene.draw(surf)

        for step in range(400):
            if match.is_over():
                break
            if step in (0, 3, 12, 40, 100, 200):
                draw()
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
        draw()  # the end (or a late state)
    finally:
        _clear_caches()
    small = {size: sorted(texts)[:8] for size, texts in seen.items() if size < LEAST}
    assert seen, "nothing drawn"
    assert not small, f"{game_id}: text under {LEAST} px at 1280x720: {small}"
