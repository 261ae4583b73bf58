"""Rendering tests: our pictures against Tiled's own ``tmxrasterizer``.

Both pictures are compared on alpha-composited RGBA: each pixel is laid
over opaque mid-grey before comparing colours (so the colour of a fully
transparent pixel, which Qt and SDL store differently, does not count),
and the alpha channels are compared too.  A pixel matches when every
channel is within ``TOLERANCE``; a map passes at ``MIN_MATCH`` matching.

Without ``tmxrasterizer`` the conformance tests skip, or fail when the
``CI`` environment variable is set.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.board.render import (  # noqa: E402
    BoardRenderer, ViewTransform, parse_color, render_map,
)

DATA = Path(__file__).parent / "data"
MAPS = sorted(DATA.rglob("*.tmx"))
TOLERANCE = 8
MIN_MATCH = 0.99


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(DATA)) for p in paths]


@pytest.fixture(scope="module")
def rasterizer() -> str:
    found = shutil.which("tmxrasterizer")
    if found is None:
        message = "tmxrasterizer not found (apt-get install tiled)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def reference(rasterizer: str, tmx: Path, out: Path) -> pygame.Surface:
    """Tiled's picture of a map's tile and image layers."""
    hide = []
    for layer in BoardRenderer(tmx).board.map_layers:
        if layer.kind == "object":
            hide += ["--hide-layer", layer.name]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([rasterizer, *hide, str(tmx), str(out)], env=env,
                   check=True, capture_output=True, timeout=60)
    return pygame.image.load(str(out))


def match_fraction(a: pygame.Surface, b: pygame.Surface) -> float:
    """Share of pixels equal within TOLERANCE on composited RGBA."""
    da = pygame.image.tobytes(a, "RGBA")
    db = pygame.image.tobytes(b, "RGBA")
    good = 0
    for i in range(0, len(da), 4):
        aa, ab = da[i + 3], db[i + 3]
        if abs(aa - ab) > TOLERANCE:
            continue
        if all(abs((da[i + k] * aa - db[i + k] * ab
                    + 128 * (ab - aa)) / 255) <= TOLERANCE for k in range(3)):
            good += 1
    return good / (len(da) // 4)


def assert_like_tiled(rasterizer: str, tmx: Path, tmp_path: Path) -> None:
    ref = reference(rasterizer, tmx, tmp_path / "ref.png")
    size = render_map(tmx, tmp_path / "ours.png")
    ours = pygame.image.load(str(tmp_path / "ours.png"))
    assert size == ours.get_size() == ref.get_size()
    fraction = match_fraction(ref, ours)
    assert fraction >= MIN_MATCH, f"{tmx.name}: {fraction:.2%} match"


@pytest.mark.parametrize("tmx", MAPS, ids=_ids(MAPS))
def test_matches_tmxrasterizer(rasterizer: str, tmx: Path,
                               tmp_path: Path) -> None:
    assert_like_tiled(rasterizer, tmx, tmp_path)


def _tileset_images(folder: Path) -> None:
    """A sheet with margin 1, spacing 2 and a magenta ``trans`` colour (no
    alpha channel), plus two loose images for an image collection."""
    sheet = pygame.Surface((20, 20))
    sheet.fill((255, 0, 255))
    for i, color in enumerate([(200, 40, 40), (40, 200, 40),
                               (40, 40, 200), (220, 220, 60)]):
        x, y = 1 + (i % 2) * 10, 1 + (i // 2) * 10
        sheet.fill(color, (x, y, 8, 8))
        sheet.fill((255, 0, 255), (x + 2, y + 2, 3, 3))  # a see-through hole
        sheet.fill((0, 0, 0), (x, y, 2, 1))  # marks the top-left corner
    pygame.image.save(sheet, str(folder / "sheet.png"))
    tall = pygame.Surface((8, 16), pygame.SRCALPHA)
    tall.fill((90, 160, 220, 255))
    tall.fill((0, 0, 0, 0), (0, 0, 4, 5))
    tall.fill((250, 250, 250, 255), (5, 0, 3, 3))
    pygame.image.save(tall, str(folder / "tall.png"))
    small = pygame.Surface((6, 6))
    small.fill((250, 120, 0))
    pygame.image.save(small, str(folder / "small.png"))


COLLECTION_MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" orientation="orthogonal" renderorder="right-down"
 width="4" height="3" tilewidth="8" tileheight="8" infinite="0"
 nextlayerid="3" nextobjectid="1">
 <tileset firstgid="1" name="sheet" tilewidth="8" tileheight="8"
  spacing="2" margin="1" tilecount="4" columns="2">
  <image source="sheet.png" trans="ff00ff" width="20" height="20"/>
 </tileset>
 <tileset firstgid="5" name="loose" tilewidth="8" tileheight="16"
  tilecount="2" columns="0">
  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="0"><image width="8" height="16" source="tall.png"/></tile>
  <tile id="1"><image width="6" height="6" source="small.png"/></tile>
 </tileset>
 <layer id="1" name="Base" width="4" height="3">
  <data encoding="csv">
1,2,3,4,
2147483650,1073741827,536870916,3221225473,
0,0,1,2
</data>
 </layer>
 <layer id="2" name="Props" width="4" height="3">
  <data encoding="csv">
0,0,0,0,
5,0,2147483653,6,
0,6,0,5
</data>
 </layer>
</map>
"""


def test_collection_trans_margin_spacing(rasterizer: str,
                                         tmp_path: Path) -> None:
    _tileset_images(tmp_path)
    tmx = tmp_path / "collection.tmx"
    tmx.write_text(COLLECTION_MAP)
    assert_like_tiled(rasterizer, tmx, tmp_path)


def test_trans_colour_becomes_transparent(tmp_path: Path) -> None:
    _tileset_images(tmp_path)
    tmx = tmp_path / "collection.tmx"
    tmx.write_text(COLLECTION_MAP)
    picture = BoardRenderer(tmx).static_surface()
    assert picture.get_at((3, 3)).a == 0  # the hole in tile 1
    assert picture.get_at((0, 0)) == pygame.Color(0, 0, 0, 255)


# -- pygame-side behaviour that needs no reference ---------------------------

HEX_MAP = DATA / "tiled-examples" / "hexagonal-mini.tmx"
ORTHO = DATA / "own" / "ortho_flips.tmx"


def test_render_map_needs_no_window(tmp_path: Path) -> None:
    out = tmp_path / "hex.png"
    assert render_map(HEX_MAP, out) == (287, 183)
    assert pygame.display.get_surface() is None
    assert pygame.image.load(str(out)).get_size() == (287, 183)


def test_background_colour_and_bounds() -> None:
    renderer = BoardRenderer(ORTHO)
    # Layer offsets grow the picture: group (-3, 2) + layer (1, 1) to the
    # left, "Top" (5, 7) to the right and bottom.
    assert renderer.bounds == pygame.Rect(-2, 0, 96 + 7, 64 + 7)
    picture = renderer.static_surface()
    corner = (picture.get_width() - 1, picture.get_height() - 1)
    assert picture.get_at(corner) == parse_color("#2a5d8f")
    assert renderer.render(background=False).get_at(corner).a == 0
    assert renderer.static_surface() is picture  # cached


def test_parse_color() -> None:
    assert parse_color("#80ff0000") == pygame.Color(255, 0, 0, 128)
    assert parse_color("336699") == pygame.Color(0x33, 0x66, 0x99, 255)


@pytest.mark.parametrize("rect", [(0, 0, 800, 600), (10, 20, 300, 500),
                                  (5, 5, 143, 91)])
def test_fit_and_transform(rect) -> None:
    renderer = BoardRenderer(HEX_MAP)
    view = renderer.fit(rect)
    area = pygame.Rect(rect)
    w, h = renderer.bounds.size
    assert view.scale == pytest.approx(min(area.w / w, area.h / h))
    left, top = view.to_screen(0, 0)
    right, bottom = view.to_screen(w, h)
    assert left >= area.left - 1e-6 and right <= area.right + 1e-6
    assert top >= area.top - 1e-6 and bottom <= area.bottom + 1e-6
    # Centred on the free axis.
    assert (left - area.left) == pytest.approx(area.right - right)
    assert (top - area.top) == pytest.approx(area.bottom - bottom)
    for px, py in [(0, 0), (100.5, 33.25), (287, 183)]:
        assert view.to_map(*view.to_screen(px, py)) == pytest.approx((px, py))


def test_draw_uses_cached_scaled_surface() -> None:
    renderer = BoardRenderer(HEX_MAP)
    screen = pygame.Surface((574, 366))
    view = renderer.fit(screen.get_rect())
    assert view.scale == 2.0
    renderer.draw(screen, view)
    scaled = renderer.scaled_surface(view.scale)
    renderer.draw(screen, view)
    assert renderer.scaled_surface(view.scale) is scaled
    board = renderer.board
    cell = board.cells()[25]
    cx, cy = board.cell_center(cell)
    sx, sy = view.to_screen(cx, cy)
    expected = renderer.static_surface().get_at((int(cx), int(cy)))
    assert screen.get_at((int(sx), int(sy)))[:3] == expected[:3]
    assert board.cell_at(*view.to_map(sx, sy)) == cell


def test_view_transform_is_plain_data() -> None:
    view = ViewTransform(0.5, 10, 20)
    assert view.to_screen(100, 40) == (60.0, 40.0)
    assert view.to_map(60, 40) == (100.0, 40.0)
