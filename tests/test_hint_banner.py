"""The hint's banner stays with its game (issue 25, item 4): it is not drawn over the Rules
opened from the game, and it never covers the board's own status lines (Racing's turn
header, TRAP's generators line, Fandango's round line and quests) at any window size."""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes.handbook import RulesScene
from game.ui.scenes.play import PlayScene

from realloop import RealLoop

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}
#: Computer moves before the hint, so each board shows its status lines in play.
PLAYED = {"fantasy_expedition": 2, "fantasy_racing": 6, "monster_fandango": 8,
          "mothership": 6, "odysseus": 2}


def hinted(game_id: str, size) -> tuple[RealLoop, PlayScene]:
    loop = RealLoop(size=size)
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(SEATS[game_id])]
    match = Match.new(game_id, seats, seed=2)
    for _ in range(PLAYED[game_id]):
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    loop.app.settings.handover = False
    play = loop.app.push(PlayScene(loop.app, match))
    loop.run_until(lambda: play.viewer is not None and not play.showing, 10)
    play.ask_hint()
    assert play.hint is not None
    loop.run(0.1)
    return loop, play


@pytest.mark.parametrize("size", [(960, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_the_hint_banner_keeps_off_the_boards_status_lines(game_id, size):
    loop, play = hinted(game_id, size)
    banner = [box for text, box in loop.app.toast_rects if text == play.hint.line]
    assert banner, loop.app.toast_rects
    boxes = play.screen.status_rects()
    if game_id in ("fantasy_racing", "mothership", "monster_fandango", "odysseus"):
        assert boxes, "the status lines are not known"
    for box in boxes:
        assert not banner[0].colliderect(box), (banner[0], box)
    assert play.board_rect().contains(banner[0])


def test_the_hint_banner_is_not_drawn_over_the_rules():
    loop, play = hinted("fantasy_racing", (1280, 720))
    with_hint = pygame.Surface((1280, 720))
    loop.app.compose(with_hint)
    rules = loop.app.push(RulesScene(loop.app, game_id="fantasy_racing"))
    loop.run(0.2)
    assert loop.app.stack.top is rules
    assert not [text for text, _box in loop.app.toast_rects if text == play.hint.line]
    # A message of the whole program (not the game's) still shows over the rules.
    loop.app.toast("Saved.")
    loop.run(0.1)
    assert [text for text, _box in loop.app.toast_rects] == ["Saved."]
    loop.app.pop()
    loop.run(0.1)
    assert play.hint.line in [text for text, _box in loop.app.toast_rects]


def test_the_hint_banner_goes_once_the_hint_no_longer_stands():
    """After the move (or with someone else at the screen) the banner is not drawn: one
    person's hint is never shown to the next."""
    loop, play = hinted("mothership", (1280, 720))
    line = play.hint.line
    seat = play.viewer
    play.perform(seat, play.hint.action)
    loop.run(0.1)
    assert line not in [text for text, _box in loop.app.toast_rects]
    assert all(text != line for text, *_ in loop.app.toasts)
