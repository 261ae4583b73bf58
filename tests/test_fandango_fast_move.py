"""Monster Fandango: the quick check of a plain move (used when a save is replayed) accepts
exactly the moves the full list of legal actions holds, and refuses odd ones the same way."""
import copy

from game.bench import SEATS
from game.engine import Match
from game.engine.bots import choose_action
from game.engine.errors import IllegalAction


def _accepts(controller, seat, action) -> bool:
    trial = copy.deepcopy(controller)
    try:
        trial.apply(seat, action)
    except IllegalAction:
        return False
    return True


def test_quick_move_check_matches_legal_actions():
    match = Match.new("monster_fandango", SEATS[:2], seed=5)
    checked = 0
    while not match.is_over() and checked < 12:
        seat = match.to_act()[0]
        c = match.controller
        if c.prompt is None and c.phase == "play" and c.active is not None:
            legal = c.legal_actions(seat)
            x, y = c.units[c.active["unit"]]["hex"]
            tries = [{"type": "move", "to": [x + dx, y + dy]}
                     for dx in range(-3, 4) for dy in range(-3, 4)]
            tries += [{"type": "move", "to": [x, y], "extra": 1},
                      {"type": "move", "to": (x + 1, y)}, {"type": "move", "to": [x + 1]},
                      ]
            for action in tries:
                assert _accepts(c, seat, action) == (action in legal), action
            checked += 1
        match.act(seat, choose_action(match, seat))
    assert checked == 12
