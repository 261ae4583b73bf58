"""A computer seat's level is shown with its seat on every game's screen (issue 17: levels are
part of the match, and the table can see who plays at which level), not only in setup and in
the "Bo (Hard) is thinking" cue."""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes.play import PlayScene
from game.ui.widgets import draw_name, font

from realloop import RealLoop

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 3, "mothership": 3,
         "odysseus": 3}


def frame(loop: RealLoop, game_id: str, level: str) -> tuple[PlayScene, pygame.Surface]:
    seats = [{"name": "Mira", "kind": "human"}] + [
        {"name": f"Bot{n}", "kind": "bot", "level": level} for n in range(1, SEATS[game_id])]
    match = Match.new(game_id, seats, seed=4)
    for seat in match.seats[1:]:  # the same first moves for both levels (past Racing's picks)
        seat["level"] = "normal"
    for _ in range(6):
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    for seat in match.seats[1:]:
        seat["level"] = level
    play = PlayScene(loop.app, match)
    surface = pygame.Surface((1280, 720))
    play.draw(surface)
    return play, surface


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_the_seat_cards_show_each_computers_level(game_id):
    loop = RealLoop()
    easy, easy_frame = frame(loop, game_id, "easy")
    hard, hard_frame = frame(loop, game_id, "hard")
    assert easy.screen.seat_level(0) is None  # a person's seat has no level
    assert [easy.screen.seat_level(s) for s in (1, 2)] == ["Easy", "Easy"]
    assert hard.screen.seat_level(1) == "Hard"
    assert hard.screen.seat_who(1, "Bot1") == "Bot1, Hard computer"
    assert easy.screen.seat_who(0, "Mira") == "Mira"
    # The same position drawn for Easy and for Hard computers differs where the level shows.
    diff = sum(1 for x in range(0, 1280, 2) for y in range(0, 720, 2)
               if easy_frame.get_at((x, y)) != hard_frame.get_at((x, y)))
    assert diff > 20, "the level is not drawn anywhere on the play screen"


def test_a_long_name_is_shortened_so_that_the_level_still_shows():
    pygame.font.init()
    surface = pygame.Surface((400, 40))
    rect = draw_name(surface, "Maximiliana Featherstone", "Normal", (0, 0), 150, 15,
                     (255, 255, 255))
    tag = font(13).size("Normal")[0]
    assert rect.right + 6 + tag <= 150, "the tag runs past the room given"
    assert rect.width > 20  # some of the name is still there
