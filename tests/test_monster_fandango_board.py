"""Monster Fandango's hex map: the Tiled file, hex geometry on it, and exact picking."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import deque
from pathlib import Path

import pytest

from game.board.tmxmap import load_board
from game.engine import Match
from game.monster_fandango.data import BOARD_PATH, MAP
from game.monster_fandango.kernel import (CELLS, between, distance, in_front, neighbours,
                                          within)

ROOT = Path(__file__).resolve().parents[1]


def test_the_map_is_a_tiled_hex_map_with_an_external_tileset():
    root = ET.parse(BOARD_PATH).getroot()
    assert root.get("orientation") == "hexagonal" and root.get("staggeraxis") == "y"
    source = root.find("tileset").get("source")
    assert source.endswith(".tsx") and (BOARD_PATH.parent / source).exists()
    tsx = ET.parse(BOARD_PATH.parent / source).getroot()
    assert (BOARD_PATH.parent / tsx.find("image").get("source")).exists()
    board = load_board(BOARD_PATH)
    assert board.kind == "hex" and len(board.cells()) == 140 >= 25 * 4


def test_the_map_carries_terrain_corners_ends_starts_and_lairs():
    assert set(MAP["terrain"].values()) <= {"grass", "forest", "hills", "meadow"}
    assert len(MAP["corners"]) == 4 and len(MAP["ends"]["west"]) == 10
    assert len(MAP["ends"]["east"]) == 10 and len(MAP["lairs"]) == 4 and len(MAP["wild"]) == 6
    for n in (1, 2, 3, 4):
        assert len(MAP["starts"][n]) == n
        assert all(s in CELLS for s in MAP["starts"][n])


@pytest.mark.skipif(shutil.which("tmxrasterizer") is None, reason="tmxrasterizer not installed")
def test_tmxrasterizer_renders_the_map(tmp_path):
    out = tmp_path / "map.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(["tmxrasterizer", str(BOARD_PATH), str(out)], env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and out.stat().st_size > 10_000


def test_neighbours_on_the_real_map():
    assert sorted(neighbours((3, 4))) == sorted([(4, 4), (4, 3), (3, 3), (2, 4), (2, 5), (3, 5)])
    assert len(neighbours((0, 0))) == 2  # the north-west corner
    for cell in CELLS:
        for n in neighbours(cell):
            assert cell in neighbours(n) and distance(cell, n) == 1
        assert 2 <= len(neighbours(cell)) <= 6


def test_distance_matches_walking_on_the_map():
    start = MAP["starts"][2][0]
    seen = {start: 0}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        for n in neighbours(cur):
            if n not in seen:
                seen[n] = seen[cur] + 1
                todo.append(n)
    assert len(seen) == 140
    assert all(seen[c] == distance(start, c) for c in CELLS)


def test_ranges():
    assert len(within((5, 4), 1)) == 7 and len(within((5, 4), 2)) == 19
    assert len(within((5, 4), 3)) == 37
    assert within((5, 4), 2)[0] == (5, 4)


def test_line_of_fire():
    assert between((0, 4), (3, 4)) == [(1, 4), (2, 4)]
    assert between((3, 4), (3, 1)) == [(3, 3), (3, 2)]
    assert len(between((0, 4), (4, 2))) == 3
    assert between((0, 4), (1, 4)) == []
    assert in_front((3, 4), 0, (6, 4)) and not in_front((3, 4), 3, (6, 4))


@pytest.fixture
def play_scene():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from uidriver import Driver
    from game.ui.scenes.play import PlayScene
    d = Driver()
    seats = [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "bot"}]
    play = d.app.push(PlayScene(d.app, Match.new("monster_fandango", seats, seed=1)))
    d.pump(2)
    return play


def _check_every_centre(play):
    area = play.board_rect()
    checked = 0
    for cell in play.screen.cells():
        x, y = play.transform().to_screen(*play.screen.cell_center(cell))
        if not area.collidepoint(x, y):
            continue
        assert play.cell_under((round(x), round(y))) == cell
        checked += 1
    return checked


def test_every_hex_centre_picks_its_hex(play_scene):
    assert _check_every_centre(play_scene) == 140


def test_picking_stays_exact_zoomed_and_panned(play_scene):
    play = play_scene
    play.zoom_by(2.5, play.board_rect().center)
    play.pan_by(-120, 75)
    assert play.zoom == 2.5
    assert _check_every_centre(play) > 20
    play.zoom_by(1.25, (200, 300))
    assert _check_every_centre(play) > 10
    play.zoom_by(0.0, play.board_rect().center)
    assert _check_every_centre(play) == 140


def test_picking_near_edges_matches_tileds_own_picking(play_scene):
    board = play_scene.screen.board
    layout = board.hex
    for cell in CELLS[::7]:
        col, row = board.tile_xy(play_scene.screen.hexes[cell])
        cx, cy = layout.tile_center(col, row)
        for dx, dy in ((10, 0), (-10, 0), (0, 12), (0, -12), (8, 8)):
            assert board.cell_at(cx + dx, cy + dy) == play_scene.screen.hexes[cell]
