"""Checks shared by every game's whole-game tests."""

from __future__ import annotations

from pathlib import Path

from game.engine import Match


def assert_reloads_the_same(match: Match, path: Path) -> Match:
    """Save ``match`` to ``path``, load it back, and check that nothing differs: the state,
    the actions, the log, the undo point, whose turn it is, what they may do, and what
    every seat (and the public) sees.  Returns the loaded match."""
    match.save(path)
    loaded = Match.load(path)
    assert loaded.snapshot() == match.snapshot()
    assert loaded.actions == match.actions
    assert loaded.log == match.log and loaded.barrier == match.barrier
    assert loaded.to_act() == match.to_act()
    for seat in match.to_act():
        assert loaded.legal_actions(seat) == match.legal_actions(seat)
    for viewer in [None, *range(len(match.seats))]:
        assert loaded.view(viewer) == match.view(viewer)
    return loaded


def play_on(match: Match, actions: int) -> Match:
    """``match`` after up to ``actions`` more actions, each the computer player's choice at
    the seat's level (a person's seat plays as Normal), stopping when the game is over."""
    from game.engine.bots import choose_action
    for _ in range(actions):
        if match.is_over():
            break
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    return match
