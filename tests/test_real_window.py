"""One whole game in a real window under Xvfb, checked on the X server's own screen."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture
def xvfb(tmp_path):
    if shutil.which("Xvfb") is None:
        if os.environ.get("CI"):
            pytest.fail("Xvfb is missing in CI (apt-get install xvfb)")
        pytest.skip("Xvfb is not installed")
    fbdir = tmp_path / "fb"
    fbdir.mkdir()
    for number in range(140, 160):
        if not Path(f"/tmp/.X11-unix/X{number}").exists():
            break
    proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x720x24",
                             "-fbdir", str(fbdir), "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        assert proc.poll() is None and time.monotonic() < deadline, "Xvfb did not start"
        time.sleep(0.05)
    yield f":{number}", fbdir / "Xvfb_screen0"
    proc.terminate()
    proc.wait(10)


def test_whole_game_in_a_real_window(xvfb, tmp_path):
    display, framebuffer = xvfb
    out = tmp_path / "screen.png"
    env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11",
           "TABLETOP_SAVES": str(tmp_path / "saves"), "TABLETOP_HOME": str(tmp_path / "home")}
    run = subprocess.run([sys.executable, str(HERE / "xvfb_session.py"), str(framebuffer),
                          str(out)], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    shot = pygame.image.load(str(out))
    assert shot.get_size() == (1280, 720)
    colours = {tuple(shot.get_at((x, y)))[:3] for x in range(0, 1280, 16) for y in range(0, 720, 16)}
    assert len(colours) > 200, "the screen looks blank"
    # The board is visible: the parchment of the expedition board fills its middle.
    board = [shot.get_at((x, 600))[:3] for x in range(100, 760, 20)]
    parchment = [c for c in board if c[0] > 180 and c[1] > 150 and c[2] > 100]
    assert len(parchment) > len(board) // 3
    assert list((tmp_path / "saves").glob("autosave-fantasy_expedition-*.yaml"))


@pytest.mark.parametrize("game_id", ["fantasy_racing", "mothership", "odysseus", "monster_fandango"])
def test_each_game_starts_from_the_menu_and_plays_in_a_real_window(xvfb, tmp_path, game_id):
    display, framebuffer = xvfb
    out = tmp_path / "screen.png"
    env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11",
           "TABLETOP_SAVES": str(tmp_path / "saves"), "TABLETOP_HOME": str(tmp_path / "home")}
    run = subprocess.run([sys.executable, str(HERE / "xvfb_session.py"), str(framebuffer),
                          str(out), game_id, "3"], env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    shot = pygame.image.load(str(out))
    colours = {tuple(shot.get_at((x, y)))[:3] for x in range(0, 1280, 16) for y in range(0, 720, 16)}
    assert len(colours) > 200, "the screen looks blank"
    # the board area (left of the panel) is drawn, not left as the plain backdrop
    board = {tuple(shot.get_at((x, y)))[:3] for x in range(40, 840, 20) for y in range(60, 680, 20)}
    assert len(board) > 40
    saves = list((tmp_path / "saves").glob(f"autosave-{game_id}-*.yaml"))
    assert len(saves) == 1, "the computers' actions were autosaved (to the match's own file)"
