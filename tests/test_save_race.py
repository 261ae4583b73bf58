"""The same autosave continued in two windows at once: no history is lost, even when both
act with no pause between moves (issue 25, item 2).

Two real processes load one autosave, wait for each other, then act and autosave as fast as
they can; their first moves differ.  Exactly one keeps the file, the other goes on in an
autosave of its own, and each file holds its window's whole game.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from game.engine import Match
from game.engine.saves import autosave_match, autosave_name

GAME = "odysseus"
ROUNDS = 24
MOVES = 6


def new_match(seed: int) -> Match:
    return Match.new(GAME, [{"name": n, "kind": "human"} for n in ("Mira", "Bo", "Tess")],
                     seed=seed)


def window(number: int, folder: str, files: list[str], barrier, results) -> None:
    """One window: each round, load the file, wait for the other window, then play MOVES
    moves (the first one different from the other window's), autosaving after each."""
    for round_number, file in enumerate(files):
        match = Match.load(file)
        barrier.wait()
        for move in range(MOVES):
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            match.act(seat, legal[number % len(legal)] if move == 0 else legal[0])
            autosave_match(match, folder)
        results.put((round_number, number, match.match_id, match.actions))


def test_two_windows_racing_on_one_autosave_lose_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    files = []
    for seed in range(ROUNDS):
        match = new_match(seed)
        assert len(match.legal_actions(match.to_act()[0])) >= 2
        files.append(str(autosave_match(match, folder)))
    context = multiprocessing.get_context()
    barrier = context.Barrier(2)
    results = context.Queue()
    windows = [context.Process(target=window, args=(n, str(folder), files, barrier, results))
               for n in range(2)]
    for process in windows:
        process.start()
    got = [results.get(timeout=120) for _ in range(2 * ROUNDS)]
    for process in windows:
        process.join(timeout=60)
        assert process.exitcode == 0
    lost = []
    for round_number, file in enumerate(files):
        ident = Match.load(file).match_id
        ends = {number: (kept, actions) for r, number, kept, actions in got
                if r == round_number}
        assert ends[0][1] != ends[1][1]
        for number, (kept, actions) in ends.items():
            held = Match.load(folder / autosave_name(GAME, kept)).actions
            if held != actions:
                lost.append((round_number, number))
        keepers = [number for number, (kept, _actions) in ends.items() if kept == ident]
        assert len(keepers) == 1 or lost, (round_number, keepers)
    assert not lost, f"(round, window) whose game is not in its autosave: {lost}"


def test_a_window_that_keeps_the_lock_delays_the_other_and_then_is_named(tmp_path: Path):
    """The lock is held only while a window checks and writes; one held for too long (a
    window stopped in the middle) costs the other that autosave, with a reason, not a
    hang, and the next autosave works."""
    import pytest

    from game.engine import SaveError
    from game.engine.saves import LOCK_NAME, folder_lock
    folder = tmp_path / "saves"
    match = new_match(1)
    path = autosave_match(match, folder)
    before = path.read_bytes()
    seat = match.to_act()[0]
    match.act(seat, match.legal_actions(seat)[0])
    with folder_lock(folder):
        with pytest.raises(SaveError) as caught, folder_lock(folder, seconds=0.2):
            autosave_match(match, folder)
        assert "another window" in caught.value.problem
        assert path.read_bytes() == before
    assert autosave_match(match, folder) == path
    assert Match.load(path).actions == match.actions
    assert sorted(p.name for p in folder.iterdir()) == sorted([LOCK_NAME, path.name])
