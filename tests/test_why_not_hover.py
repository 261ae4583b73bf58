"""'Why not?' on hover (issue 16, part 3), through the REAL loop with mouse motion posted to
pygame's queue: a board place whose click would be refused says why in the controller's own
words (Match.why_not: the words IllegalAction gives), a legal one does not, and a disabled
control says why it is disabled."""

from __future__ import annotations

import copy

import pygame
import pytest

from game.engine import IllegalAction, Match
from game.ui.scenes.play import PlayScene

from realloop import RealLoop


def duel(loop: RealLoop):
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    match = Match.new("monster_fandango", seats, seed=1)
    c = match.controller
    for uid in list(c.units):
        del c.units[uid]
    c.items.clear()
    c.lairs = {}
    c.phase, c.flag_queue, c.turn, c.order, c.first = "play", [], 0, [0, 1], 0
    c._changed()
    c._new_unit("troll", 0, (3, 4), acted=False)
    c._new_unit("elf", 1, (4, 4), acted=False)
    play = loop.app.push(PlayScene(loop.app, match))
    loop.run(0.2)
    assert loop.top is play and play.viewer == 0
    return match, play


def hover(loop: RealLoop, play: PlayScene, pos) -> str:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=()))
    loop.run(0.1)
    tip = play.tooltip
    return tip.text_block.html_text if tip is not None and tip.alive() else ""


def screen_pos(play: PlayScene, hexagon) -> tuple[int, int]:
    cell = play.screen.hexes[hexagon]
    x, y = play.transform().to_screen(*play.screen.cell_center(cell))
    return round(x), round(y)


def test_board_places_say_why_not_in_the_controllers_words():
    loop = RealLoop()
    match, play = duel(loop)
    loop.click_button(next(t for t in loop.labels() if t.startswith("Troll")), settle=0.2)
    assert match.view(0)["active"] is not None
    far = (-2, 9) if (-2, 9) in play.screen.hexes else sorted(play.screen.hexes)[0]
    action = play.screen.cell_action(play.screen.hexes[far], play.view())
    assert action == {"type": "move", "to": list(far)}
    reason = match.why_not(0, action)
    assert reason, "a far hex is out of reach"
    trial = copy.deepcopy(match)
    with pytest.raises(IllegalAction) as refusal:
        trial.act(0, action)
    assert str(refusal.value) == reason
    assert "Not now: " + reason in hover(loop, play, screen_pos(play, far)).replace("&#x27;", "'")
    legal_move = next(a for a in match.legal_actions(0) if a["type"] == "move")
    text = hover(loop, play, screen_pos(play, tuple(legal_move["to"])))
    assert "Not now" not in text
    # The enemy's hex means attacking it: legal here, so no refusal.
    attack = play.screen.cell_action(play.screen.hexes[(4, 4)], play.view())
    assert attack["type"] == "attack" and match.why_not(0, attack) is None
    assert match.actions == [] or all(a["seat"] == 0 for a in match.actions)


def test_a_disabled_control_says_why():
    loop = RealLoop()
    match, play = duel(loop)
    undo = loop.button("Undo")
    assert not undo.is_enabled
    try:
        match.undo()
    except IllegalAction as exc:
        reason = exc.reason
    text = hover(loop, play, undo.rect.center)
    assert "Not now: " + reason in text.replace("&#x27;", "'")
    # Hint: refused, with the reason, to a person whose turn it is not.
    assert loop.button("Hint").is_enabled and play.hint_refusal() is None
    play.viewer = 1
    assert play.hint_refusal() == "It is not Bo's turn."


GAMES = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_place_says_why_not_exactly_when_its_click_would_be_refused(game_id):
    from game.engine.bots import choose_action
    loop = RealLoop()
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(GAMES[game_id])]
    match = Match.new(game_id, seats, seed=3, options={"trade_rounds": 1}
                      if game_id == "fantasy_expedition" else None)
    if game_id == "fantasy_expedition":  # an offer waits: the asked may not offer swaps
        match.act(0, {"type": "propose", "to": 1})
    play = loop.app.push(PlayScene(loop.app, match))
    refused = 0
    for stage in range(4):
        for _ in range(stage * 7):
            if match.is_over():
                break
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
        if match.is_over():
            break
        play.queue.clear()
        play.busy_for = None
        play.viewer = match.to_act()[0]
        play.screen.reset(play.view())
        before = (match.snapshot(), list(match.actions))
        legal = match.legal_actions(play.viewer)
        for cell in play.screen.cells():
            action = play.screen.cell_action(cell, play.view())
            why = play.why_not_here(cell)
            if action in legal:
                assert why is None, (cell, action, why)
            elif action is None:  # a click here means nothing now: it says why (issue 25)
                assert why == play.screen.idle_reason(cell, play.view()), (cell, why)
            else:
                assert why and why == match.why_not(play.viewer, action)
                refused += 1
        assert (match.snapshot(), match.actions) == before
    if game_id != "fantasy_racing":  # its refused steps are looked for below
        assert refused, "no place was ever refused"


def test_a_racers_blocked_step_says_why():
    """Fantasy Racing: a square ahead that the racer may not step onto says why."""
    from game.engine.bots import choose_action
    from game.fantasy_racing.screen import H, W
    loop = RealLoop()
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(3)]
    match = Match.new("fantasy_racing", seats, seed=3)
    play = loop.app.push(PlayScene(loop.app, match))
    for _ in range(3000):
        seat = match.to_act()[0]
        view = match.view(seat)
        if view["phase"] == "steps" and not view["pending"] and len(view.get("steps", [])) < 3:
            break
        match.act(seat, choose_action(match, seat))
    else:
        raise AssertionError("no blocked step in the game")
    play.queue.clear()
    play.busy_for = None
    play.viewer = seat
    x, y = view["racers"][seat]["pos"]
    open_ = {dx for *_cell, dx in view["steps"]}
    dx = next(d for d in (-1, 0, 1) if d not in open_)
    cell = ((x + dx) % W, (y + 1) % H)
    assert play.screen.cell_action(cell, play.view()) == {"type": "step", "dx": dx}
    reason = play.why_not_here(cell)
    assert reason and reason == match.why_not(seat, {"type": "step", "dx": dx})
