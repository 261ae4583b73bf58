"""Checks for the Fantasy Expedition Tiled board and its generated art."""
from __future__ import annotations

import importlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytmx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOARDS = ROOT / "boards"
TMX = BOARDS / "fantasy_expedition.tmx"
TSX = BOARDS / "expedition.tsx"
TILESET_PNG = BOARDS / "expedition_tiles.png"
PIECES = ROOT / "assets" / "expedition"
PIECE_NAMES = ["mine.png", "portal.png", "fear_left.png", "fear_right.png",
               "pawn.png"] + [f"pawn_{n}.png" for n in range(1, 10)]
ROWS = ["start", "mine", "portal", "fear", "final"]  # bottom to top
TILE = 64
MAP_SIZE = (11, 8)


@pytest.fixture(scope="module")
def tmx() -> pytmx.TiledMap:
    """The board parsed by pytmx without loading images."""
    return pytmx.TiledMap(str(TMX))


@pytest.fixture(scope="module")
def spaces(tmx: pytmx.TiledMap) -> dict[str, pytmx.TiledObject]:
    """Slot objects of the ``spaces`` layer, by name."""
    layer = tmx.get_layer_by_name("spaces")
    return {obj.name: obj for obj in layer}


def test_map_geometry_and_properties(tmx: pytmx.TiledMap) -> None:
    assert (tmx.width, tmx.height) == MAP_SIZE
    assert (tmx.tilewidth, tmx.tileheight) == (TILE, TILE)
    assert tmx.orientation == "orthogonal"
    assert str(tmx.infinite) in ("0", "False")  # pytmx keeps it a str
    assert tmx.properties == {"board_kind": "track",
                              "game": "fantasy_expedition"}
    names = [layer.name for layer in tmx.layers]
    assert names == ["background", "rows", "decor", "spaces"]
    for name in ("background", "rows", "decor"):
        assert isinstance(tmx.get_layer_by_name(name), pytmx.TiledTileLayer)


def test_layers_use_existing_tiles(tmx: pytmx.TiledMap) -> None:
    assert len(tmx.tilesets) == 1
    tileset = tmx.tilesets[0]
    for name in ("background", "rows", "decor"):
        for x, y, gid in tmx.get_layer_by_name(name).iter_data():
            if gid:
                tiled_gid = tmx.tiledgidmap[gid]
                assert 1 <= tiled_gid <= tileset.tilecount, (name, x, y)
    background = tmx.get_layer_by_name("background")
    assert all(gid for _, _, gid in background.iter_data())


def test_forty_five_spaces(spaces: dict[str, pytmx.TiledObject]) -> None:
    expected = {f"{row}-{i}" for row in ROWS for i in range(1, 10)}
    assert set(spaces) == expected
    for name, obj in spaces.items():
        row, index = name.split("-")
        assert obj.properties["row"] == row
        assert obj.properties["index"] == int(index)
        assert isinstance(obj.properties["index"], int)
        assert (obj.width, obj.height) == (TILE, TILE)
        assert obj.x == int(index) * TILE


def test_rows_stack_bottom_to_top(spaces: dict[str, pytmx.TiledObject]
                                  ) -> None:
    ys = [spaces[f"{row}-1"].y for row in ROWS]
    assert ys == sorted(ys, reverse=True)
    for row in ROWS:
        assert {spaces[f"{row}-{i}"].y for i in range(1, 10)} == {
            spaces[f"{row}-1"].y}


def test_up_links_form_nine_columns(tmx: pytmx.TiledMap,
                                    spaces: dict[str, pytmx.TiledObject]
                                    ) -> None:
    for i in range(1, 10):
        obj = spaces[f"start-{i}"]
        column = [obj.name]
        while "up" in obj.properties:
            target = tmx.get_object_by_id(obj.properties["up"])
            assert target.y < obj.y and target.x == obj.x
            obj = target
            column.append(obj.name)
        assert column == [f"{row}-{i}" for row in ROWS]
    assert not any("up" in spaces[f"final-{i}"].properties
                   for i in range(1, 10))


def test_tsx_references_tileset_image() -> None:
    text = TSX.read_text(encoding="utf-8")
    assert 'source="expedition_tiles.png"' in text
    image = pygame.image.load(str(TILESET_PNG))
    assert f'width="{image.get_width()}"' in text
    assert f'height="{image.get_height()}"' in text
    assert image.get_width() % TILE == 0 and image.get_height() % TILE == 0


def test_map_loads_with_pygame_images() -> None:
    from pytmx.util_pygame import load_pygame

    was_init = pygame.display.get_init()
    pygame.display.init()
    try:
        if pygame.display.get_surface() is None:
            pygame.display.set_mode((1, 1))
        tmx = load_pygame(str(TMX))
        gid = tmx.get_tile_gid(5, 1, 1)  # a final-row slot on "rows"
        image = tmx.get_tile_image_by_gid(gid)
        assert image.get_size() == (TILE, TILE)
    finally:
        if not was_init:
            pygame.display.quit()


@pytest.mark.parametrize("name", PIECE_NAMES)
def test_piece_images(name: str) -> None:
    path = PIECES / name
    assert path.is_file()
    image = pygame.image.load(str(path))
    assert image.get_size() == (64, 64)
    assert image.get_flags() & pygame.SRCALPHA
    assert image.get_at((0, 0)).a == 0
    assert image.get_at((32, 32)).a == 255


def test_generator_matches_committed_map() -> None:
    art = importlib.import_module("game.tools.make_expedition_art")
    assert art.tmx_text() == TMX.read_text(encoding="utf-8")
    assert len(art.tile_names()) <= 64


def test_tmxrasterizer_renders_board(tmp_path: Path) -> None:
    exe = shutil.which("tmxrasterizer")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("tmxrasterizer is required in CI")
        pytest.skip("tmxrasterizer not installed")
    out = tmp_path / "board.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([exe, str(TMX), str(out)], check=True, env=env,
                   capture_output=True, timeout=120)
    image = pygame.image.load(str(out))
    assert image.get_size() == (MAP_SIZE[0] * TILE, MAP_SIZE[1] * TILE)
    colours = {tuple(image.get_at((x, y)))
               for x in range(0, image.get_width(), 7)
               for y in range(0, image.get_height(), 7)}
    assert len(colours) > 500
    # A final-row banner should be red, the parchment light.
    r, g, b, _ = image.get_at((5 * TILE + 20, TILE + 30))
    assert r > 120 and r > g + 50 and r > b + 50
    r, g, b, _ = image.get_at((5 * TILE + 2, 6 * TILE + 10))
    assert r > 180 and g > 160 and b > 110
