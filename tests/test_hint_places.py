"""A hint names places the way the board shows them (issue 25, item 4): TRAP's "Move to
4,7" named coordinates the board never draws.  For positions of every game, the hint's
words hold no coordinates; TRAP and Racing say where a place lies from the player's own
piece; a name the board does not print (Fandango's "E14") is drawn on the hinted place."""

from __future__ import annotations

import re

import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.hints import hint_for, relative
from game.ui.scenes.play import PlayScene

from realloop import RealLoop

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}
PLACED = ("move", "sneak", "skip", "peek", "far_peek", "disarm", "use", "select", "attack",
          "shoot", "start", "flag", "escape", "claim")


def test_relative_words():
    assert relative(-1, 0, "tile") == "the tile left of you"
    assert relative(0, -1, "tile") == "the tile above you"
    assert relative(0, 2) == "the square two down of you"
    assert relative(2, -1, "barrier") == "the barrier two right and one up of you"


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_hints_name_places_as_the_board_shows_them(game_id):
    loop = RealLoop()
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(SEATS[game_id])]
    match = Match.new(game_id, seats, seed=6)
    play = loop.app.push(PlayScene(loop.app, match))
    placed = 0
    for _ in range(160):
        if match.is_over():
            break
        seat = match.to_act()[0]
        play.viewer = seat
        hint = hint_for(match, seat, play.screen.place_name)
        if hint is not None and hint.action["type"] in PLACED:
            assert not re.search(r"\d+ *, *\d+", hint.what), hint.what
            assert "reward:" not in hint.what and "tile 1" not in hint.what
            if game_id in ("mothership", "fantasy_racing") and "to" in hint.action | {}:
                assert " of you" in hint.what or "above you" in hint.what or \
                    "below you" in hint.what or "pod" in hint.what or "start" in hint.what, \
                    hint.what
            if game_id == "monster_fandango":
                names = set(re.findall(r"\b[A-Z]\d+\b", hint.what))
                labels = {play.screen.hint_label(c) for c in
                          play.screen.action_cells(hint.action, play.view())}
                assert names <= labels, (hint.what, labels)
            if game_id == "odysseus" and hint.action["type"] == "claim":
                assert "reward tile" in hint.what and '"' in hint.what
            placed += 1
        match.act(seat, choose_action(match, seat))
    if game_id != "fantasy_expedition":  # its actions name players and numbers, no places
        assert placed, "no hint named a place"
