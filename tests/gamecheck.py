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
