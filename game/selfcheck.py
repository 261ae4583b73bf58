"""``tabletop --smoke-test``: check that this copy of the program works, with no screen.

For an installed program or the one-folder bundle: open the main menu for a few frames, play
one seeded game of every title with computer players, save it, load it back, compare, and
render every board.  Saves go to the saves folder (``TABLETOP_SAVES`` to choose it).  Prints a
line a step and returns 0 only if everything worked.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 2, "monster_fandango": 2, "mothership": 2,
         "odysseus": 3}


def _menu_frames() -> str:
    from game.ui.app import App
    app = App(size=(960, 600))
    app.to_menu()
    for _ in range(5):
        app.step([])
    frames = app.frames
    import pygame
    pygame.quit()
    return f"menu: {frames} frames drawn"


def _play(game_id: str, folder: Path) -> str:
    from game.engine import Match
    from game.engine.bots import play_out
    seats = [{"name": f"Player {i + 1}", "kind": "bot"} for i in range(SEATS[game_id])]
    started = time.perf_counter()
    match = Match.new(game_id, seats, seed=7)
    play_out(match)
    path = folder / f"smoke-{game_id}.yaml"
    match.save(path)
    loaded = Match.load(path)
    if loaded.snapshot() != match.snapshot() or loaded.actions != match.actions:
        raise RuntimeError(f"{game_id}: the loaded game differs from the saved one")
    return (f"{game_id}: {len(match.actions)} actions, saved and loaded "
            f"({time.perf_counter() - started:.1f} s)")


def _render(game_id: str, folder: Path) -> str:
    from game.board.render import render_map
    from game.engine import controller_class
    from game.resources import board_path
    board = controller_class(game_id).board
    out = folder / f"smoke-{game_id}.png"
    render_map(board_path(board), out)
    if out.stat().st_size < 1000:
        raise RuntimeError(f"{board}: the rendered picture is empty")
    return f"{board}: rendered"


def run() -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from game.engine import game_ids
    failures = 0
    with tempfile.TemporaryDirectory(prefix="tabletop-smoke-") as tmp:
        folder = Path(os.environ.get("TABLETOP_SAVES") or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        steps = [("menu", _menu_frames)]
        for game_id in game_ids():
            steps.append((game_id, lambda g=game_id: _play(g, folder)))
            steps.append((game_id, lambda g=game_id: _render(g, Path(tmp))))
        for name, step in steps:
            try:
                print(step(), flush=True)
            except Exception as exc:  # report every failing step, then fail
                failures += 1
                print(f"{name}: FAILED: {type(exc).__name__}: {exc}", flush=True)
    print("smoke test: " + ("all good" if not failures else f"{failures} step(s) failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(run())
