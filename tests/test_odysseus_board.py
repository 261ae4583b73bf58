"""The Odysseus sea map: a Tiled map with an external tileset that Tiled renders."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
from pathlib import Path

import pygame
import pytest

from game.board.render import render_map
from game.board.tmxmap import load_board

ROOT = Path(__file__).resolve().parents[1]
TMX = ROOT / "boards" / "odysseus.tmx"
TSX = ROOT / "boards" / "odysseus.tsx"
PNG = ROOT / "boards" / "odysseus_tiles.png"


def art_tool():
    return importlib.import_module("game.tools.make_odysseus_art")


def test_generator_matches_committed_map_and_tileset():
    art = art_tool()
    assert art.tmx_text() == TMX.read_text(encoding="utf-8")
    assert art.tsx_text() == TSX.read_text(encoding="utf-8")
    image = pygame.image.load(str(PNG))
    assert image.get_size() == (art.W, art.H)
    assert 'source="odysseus.tsx"' in TMX.read_text(encoding="utf-8")


def test_map_is_a_track_with_calm_and_stormy_links_and_the_round_track():
    board = load_board(TMX)
    assert board.kind == "track"
    track = board.track
    links = {(l.source, l.kind): l.target for l in track.links}
    assert links[("troy", "calm")] == "sea1"
    assert all(space.shape == "ellipse" for name, space in track.spaces.items()
               if name.startswith("sea"))
    assert [f"round-{i}" in track for i in range(1, 13)] == [True] * 12
    # Every space is found again at its own centre (board clicks land where drawn).
    for name, space in track.spaces.items():
        assert board.cell_at(*space.center) == name


@pytest.mark.parametrize("tile", ["aeolia", "calypso", "charybdis", "circe", "cyclops",
                                  "laestrygonians", "lotophagi", "scheria", "scylla",
                                  "sirens", "down"])
def test_tile_pictures(tile):
    image = pygame.image.load(str(ROOT / "assets" / "odysseus" / f"tile_{tile}.png"))
    assert image.get_size() == (96, 96)
    assert image.get_at((0, 0)).a == 0 and image.get_at((48, 48)).a == 255


def test_our_renderer_and_tmxrasterizer_agree(tmp_path):
    exe = shutil.which("tmxrasterizer")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("tmxrasterizer is required in CI")
        pytest.skip("tmxrasterizer not installed")
    out = tmp_path / "tiled.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([exe, str(TMX), str(out)], check=True, env=env, capture_output=True,
                   timeout=120)
    tiled = pygame.image.load(str(out))
    size = render_map(TMX, tmp_path / "ours.png")
    ours = pygame.image.load(str(tmp_path / "ours.png"))
    assert tiled.get_size() == size == (1280, 1024)
    # Sample a grid of pixels: the same picture within a small tolerance.
    same = total = 0
    for x in range(3, 1280, 23):
        for y in range(5, 1024, 19):
            a, b = tiled.get_at((x, y)), ours.get_at((x, y))
            total += 1
            same += all(abs(a[k] - b[k]) <= 8 for k in range(3))
    assert same / total > 0.99
