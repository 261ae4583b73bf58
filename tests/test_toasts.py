"""Messages (toasts) during a game cover the board, never the side panel: its title, the
status line and the buttons stay readable while a message shows."""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.ui.scenes.play import PlayScene

from realloop import RealLoop


@pytest.mark.parametrize("size", [(960, 600), (1280, 720), (1920, 1080)])
def test_a_long_message_covers_the_board_and_leaves_the_panel_alone(size):
    loop = RealLoop(size=size)
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    play = loop.app.push(PlayScene(loop.app, Match.new("monster_fandango", seats, seed=1)))
    loop.run(0.2)
    before = pygame.Surface(size)
    loop.app.compose(before)
    loop.app.toast("Saved to a file with a rather long name that needs a second line: " +
                   "my-longest-game-of-monster-fandango-ever.yaml", error=True)
    after = pygame.Surface(size)
    loop.app.compose(after)
    panel, board = play.panel_rect(), play.board_rect()
    changed = [(x, y) for x in range(0, size[0], 3) for y in range(0, size[1], 3)
               if before.get_at((x, y)) != after.get_at((x, y))]
    assert changed, "the message is not drawn"
    assert all(board.collidepoint(p) for p in changed), "the message covers the panel"
    assert not any(panel.collidepoint(p) for p in changed)
