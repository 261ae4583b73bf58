"""A handover's recap outlines exactly the places that changed since that seat's last
action, and speaks of outlines only when there are some (issue 25, item 4).  Fantasy
Expedition outlined pawns of players who only passed, and a recap said "outlined on the
board" with nothing outlined."""

from __future__ import annotations

import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes.play import PlayScene
from game.ui.scenes.recap import RecapScene, look

from realloop import RealLoop

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}


def expedition(loop: RealLoop) -> tuple[Match, PlayScene]:
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(9)]
    match = Match.new("fantasy_expedition", seats, seed=7)
    return match, loop.app.push(PlayScene(loop.app, match))


def recap(loop: RealLoop, play: PlayScene, seat: int) -> RecapScene:
    play.viewer = seat
    scene = play.recap_scene(seat)
    assert scene is not None
    loop.app.push(scene)
    loop.run(0.05)
    return scene


def test_passes_and_refusals_outline_nothing_and_say_so():
    loop = RealLoop(recap=True)
    match, play = expedition(loop)
    play.perform(0, {"type": "pass"})
    for seat, action in ((1, {"type": "pass"}), (2, {"type": "propose", "to": 4}),
                         (4, {"type": "decline"})):
        assert match.to_act() == [seat]
        play.perform(seat, action)
    while match.to_act() != [0]:
        seat = match.to_act()[0]
        play.perform(seat, {"type": "pass"})
    scene = recap(loop, play, 0)
    assert scene.events and play.recap_cells == set()
    assert scene.heading() == "Since your last turn:"


def test_an_accepted_swap_outlines_the_two_positions_that_changed_hands():
    loop = RealLoop(recap=True)
    match, play = expedition(loop)
    play.perform(0, {"type": "pass"})
    play.perform(1, {"type": "propose", "to": 5})
    starts = match.view(0)["seats"]
    play.perform(5, {"type": "accept"})
    while match.to_act() != [0]:
        play.perform(match.to_act()[0], {"type": "pass"})
    scene = recap(loop, play, 0)
    assert play.recap_cells == {f"start-{starts[1]['start']}", f"start-{starts[5]['start']}"}
    assert scene.heading() == "Since your last turn (outlined on the board):"


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_the_outlined_places_are_those_whose_look_changed(game_id):
    """Seat 0's recap at several of its turns: every outlined place looks different from
    what seat 0 saw after its last action, every place that looks different is outlined,
    and a place nobody touched (same words then and now) never is."""
    loop = RealLoop(recap=True)
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(SEATS[game_id])]
    match = Match.new(game_id, seats, seed=4)
    play = loop.app.push(PlayScene(loop.app, match))
    checked = outlined = 0
    for _ in range(400):
        if match.is_over() or checked >= 4:
            break
        seat = match.to_act()[0]
        if seat == 0 and 0 in play.seen_views:
            before = play.seen_views[0]
            scene = recap(loop, play, 0) if play.recap_events(0) else None
            if scene is not None:
                now = match.view(0)
                then_screen, now_screen = play.screen.__class__(play), play.screen.__class__(play)
                then_screen.reset(before)
                now_screen.reset(now)
                for cell in play.screen.cells():
                    differs = look(then_screen, cell, before) != look(now_screen, cell, now)
                    assert (cell in play.recap_cells) == differs, cell
                outlined += len(play.recap_cells)
                assert ("outlined" in scene.heading()) == bool(play.recap_cells)
                scene.done = True
                play.recap_cells = set()
                loop.app.pop()
                checked += 1
        play.perform(seat, choose_action(match, seat))
    assert checked, "no recap was looked at"
    if game_id != "odysseus":
        assert outlined, "nothing was ever outlined"
