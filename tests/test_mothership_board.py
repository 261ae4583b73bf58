"""The Mothership board map: a real Tiled map, rendered the way Tiled renders it."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

from game.board.render import BoardRenderer
from game.board.tmxmap import load_board
from game.mothership.data import LAYOUT

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "boards" / "mothership.tmx"


def test_the_map_uses_an_external_tileset_with_its_png():
    root = ET.parse(MAP).getroot()
    assert root.get("orientation") == "orthogonal" and root.get("infinite") == "0"
    sources = [t.get("source") for t in root.findall("tileset")]
    assert sources == ["mothership.tsx"]
    tsx = ET.parse(MAP.parent / "mothership.tsx").getroot()
    image = tsx.find("image").get("source")
    assert (MAP.parent / image).exists()
    board = load_board(MAP)
    assert board.kind == "grid" and board.properties["board_kind"] == "grid"


def test_spaces_come_from_tile_properties_and_the_hud_from_an_object_layer():
    board = load_board(MAP)
    kinds = {}
    for cell in board.cells():
        kind = board.cell_properties(cell).get("space")
        kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds["tile"] == 33 and kinds["gap"] == 14 and kinds["track"] == 12
    assert kinds["start"] == kinds["finish"] == 1
    assert board.cell_properties(LAYOUT.start)["space"] == "start"
    hud = {o.name for o in board.objects if o.layer == "hud"}
    assert hud == {"seat-0", "seat-1", "seat-2", "seat-3", "info"}
    assert not board.layer("hud").visible


def test_tmxrasterizer_renders_it_like_our_renderer(tmp_path):
    rasterizer = shutil.which("tmxrasterizer")
    if rasterizer is None:
        pytest.skip("tmxrasterizer not found (apt-get install tiled)")
    out = tmp_path / "tiled.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([rasterizer, str(MAP), str(out)], env=env, check=True,
                   capture_output=True, timeout=60)
    theirs = pygame.image.load(str(out))
    ours = BoardRenderer(MAP).render(background=False)
    assert theirs.get_size() == ours.get_size() == (960, 832)
    step = 5
    same = total = 0
    for x in range(0, 960, step):
        for y in range(0, 832, step):
            a, b = theirs.get_at((x, y)), ours.get_at((x, y))
            total += 1
            same += max(abs(p - q) for p, q in zip(a, b)) <= 8
    assert same / total > 0.99
