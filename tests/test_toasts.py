"""Messages (toasts) during a game cover the board, never the side panel: its title, the
status line and the buttons stay readable while a message shows.  Tooltips stay inside the
window, however tall."""

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


@pytest.mark.parametrize("pos", [(480, 595), (5, 5), (955, 300), (480, 300)])
def test_a_tall_tooltip_stays_inside_a_small_window(pos, recwarn):
    """A tooltip too tall to fit above or below the pointer is moved inside the window
    (pygame_gui alone leaves it running off the screen, with a warning)."""
    loop = RealLoop(size=(960, 600))
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    play = loop.app.push(PlayScene(loop.app, Match.new("monster_fandango", seats, seed=1)))
    loop.run(0.1)
    play._tip("test", "\n".join(f"Line {n}: a unit" for n in range(14)),
              pos)
    window = pygame.Rect(0, 0, 960, 600)
    assert play.tooltip is not None and window.contains(play.tooltip.rect)
    assert not [w for w in recwarn if "tool tip" in str(w.message)]
