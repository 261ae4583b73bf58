"""Tests for square grids, tracks and the .tmx board loader."""
from __future__ import annotations

import doctest
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from game.board import grid as grid_module, track as track_module, tmxmap
from game.board.grid import Grid
from game.board.hexgrid import Hex, distance as hex_distance
from game.board.tmxmap import load_board
from game.board.track import MapObject, Space, Track

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


def test_doctests() -> None:
    for module in (grid_module, track_module, tmxmap):
        assert doctest.testmod(module).failed == 0


# -- grid ------------------------------------------------------------

@st.composite
def grids(draw) -> Grid:
    return Grid(draw(st.integers(1, 9)), draw(st.integers(1, 9)),
                draw(st.integers(1, 40)), draw(st.integers(1, 40)),
                draw(st.booleans()), draw(st.booleans()))


def cells_of(g: Grid):
    return st.tuples(st.integers(0, g.width - 1), st.integers(0, g.height - 1))


@given(grids(), st.integers(-30, 30), st.integers(-30, 30))
def test_wrap_round_trip(g: Grid, x: int, y: int) -> None:
    w = g.wrap((x, y))
    assert g.wrap(w) == w
    shifted = (x + 3 * g.width * g.wrap_x, y - 2 * g.height * g.wrap_y)
    assert g.wrap(shifted) == w
    if g.wrap_x:
        assert 0 <= w[0] < g.width
    else:
        assert w[0] == x


@given(st.data(), grids())
def test_delta_and_distance(data, g: Grid) -> None:
    a, b, c = (data.draw(cells_of(g)) for _ in range(3))
    dx, dy = g.delta(a, b)
    assert g.wrap((a[0] + dx, a[1] + dy)) == b
    assert g.distance(a, b) == g.distance(b, a)
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)
    if g.wrap_x:
        assert abs(dx) <= g.width // 2


def _bfs(g: Grid, a, b) -> int:
    seen, todo = {a: 0}, deque([a])
    while todo:
        cur = todo.popleft()
        if cur == b:
            return seen[cur]
        for n in g.neighbours(cur):
            if n not in seen:
                seen[n] = seen[cur] + 1
                todo.append(n)
    raise AssertionError("unreachable")


@settings(max_examples=80)
@given(st.data(), grids())
def test_distance_is_bfs_steps(data, g: Grid) -> None:
    a, b = data.draw(cells_of(g)), data.draw(cells_of(g))
    assert g.distance(a, b) == _bfs(g, a, b)


@given(st.data(), grids())
def test_neighbours_symmetric(data, g: Grid) -> None:
    a = data.draw(cells_of(g))
    for n in g.neighbours(a):
        assert g.in_bounds(n) and n != a
        assert a in g.neighbours(n)
        assert g.distance(a, n) == 1


@given(st.data(), grids(), st.floats(0, 0.999), st.floats(0, 0.999))
def test_cell_pixel_round_trip(data, g: Grid, fx: float, fy: float) -> None:
    cell = data.draw(cells_of(g))
    assert g.pixel_to_cell(*g.cell_center(cell)) == cell
    x, y = g.cell_to_pixel(cell)
    assert g.pixel_to_cell(x + fx * g.tilewidth, y + fy * g.tileheight) == cell


def test_tiny_wrapping_grids_have_no_duplicate_neighbours() -> None:
    assert Grid(1, 1, wrap_x=True, wrap_y=True).neighbours((0, 0)) == []
    assert Grid(2, 1, wrap_x=True).neighbours((0, 0)) == [(1, 0)]


# -- track -----------------------------------------------------------

@pytest.fixture(scope="module")
def sea():
    return load_board(DATA / "track_sample.tmx")


def test_track_board_basics(sea) -> None:
    assert sea.kind == "track"
    assert sea.layers == ["Sea", "Spaces", "Marks", "Routes"]  # file order
    assert sea.properties["title"] == "Test Sea"
    assert sea.cells() == ["start", "reef", "cove", "isle", "deep", "#7"]
    assert sea.pixel_size == (160, 96)


def test_spaces_and_properties(sea) -> None:
    t = sea.track
    start = t.space("start")
    assert start.properties == {"name": "Start Harbour", "port": True}
    assert start.links == {"calm": "cove", "next": "reef"}
    assert start.center == (20.0, 20.0)
    assert t.space("reef").properties == {"danger": 3}
    assert t.space("cove").shape == "point"
    assert t.space("reef").shape == "ellipse"
    assert [s.name for s in t.spaces_where(port=True)] == ["start", "cove"]
    assert t.spaces_where(port=True, danger=3) == []
    with pytest.raises(KeyError):
        t.space("label")  # text objects are labels, not spaces


def test_links(sea) -> None:
    t = sea.track
    assert [(l.target, l.kind) for l in t.links_from("start")] == [
        ("cove", "calm"), ("reef", "next")]
    assert [l.target for l in t.links_from("reef", "stormy")] == ["deep"]
    # Polyline with two_way, drawn in a layer with an offset.
    assert [l.target for l in t.links_from("cove", "calm")] == ["#7"]
    assert [l.target for l in t.links_from("#7", "calm")] == ["cove"]
    stormy = t.links_from("deep", "stormy")
    assert [(l.target, l.properties) for l in stormy] == [
        ("start", {"cost": 2})]
    assert sorted(l.source for l in t.links_to("start")) == ["deep", "deep"]
    assert sea.neighbours("deep") == ["start"]
    assert sea.distance("start", "isle") == 2


def test_space_queries(sea) -> None:
    t = sea.track
    assert t.space_at(68, 20).name == "reef"
    assert t.space_at(57, 9) is None  # inside the box, outside the ellipse
    assert t.space_at(115, 66).name == "deep"  # rotated 90 degrees
    assert t.space_at(128, 58) is None  # where it would be unrotated
    assert t.space_at(108, 20).name == "isle"  # polygon
    assert t.space_at(40, 72) is None  # points contain nothing...
    assert t.nearest_space(43, 70).name == "cove"  # ...but are nearest
    assert t.nearest_space(500, 500, max_distance=10) is None
    assert sea.cell_at(43, 70) == "cove"
    assert sea.cell_center("deep") == pytest.approx((115.0, 66.0))
    assert sea.cell_properties("reef") == {"danger": 3}


def _obj(id_, shape="rectangle", name="", **kw) -> MapObject:
    base = dict(x=0.0, y=0.0, width=10.0, height=10.0)
    base.update(kw)
    return MapObject(id_, name, "", shape, **base)


def test_track_errors() -> None:
    line = _obj(3, "polyline", points=((5, 5), (200, 200)),
                properties={"kind": "next"})
    with pytest.raises(ValueError, match="does not join"):
        Track.from_objects([_obj(1, name="a"), line])
    ref = _obj(1, name="a", object_refs={"next": 3})
    with pytest.raises(ValueError, match="not a space"):
        Track.from_objects([ref, _obj(3, "polyline", points=((0, 0), (1, 1)))])
    with pytest.raises(ValueError, match="two spaces"):
        Track([Space("a", 0, 0, 1, 1), Space("a", 5, 5, 1, 1)])


def test_undecorated_polyline_is_ignored() -> None:
    squiggle = _obj(3, "polyline", points=((500, 500), (600, 600)))
    assert Track.from_objects([_obj(1, name="a"), squiggle]).links == []


# -- hex and grid boards -----------------------------------------------------

def test_hex_board() -> None:
    board = load_board(DATA / "own" / "hex_y_even.tmx")
    assert board.kind == "hex" and board.grid is None and board.track is None
    assert (board.hex.staggeraxis, board.hex.staggerindex) == ("y", "even")
    cells = board.cells()
    assert len(cells) == 10 * 8 - 1  # tile (1, 1) is a hole
    assert board.cell_of_tile(1, 1) not in cells
    for cell in cells:
        assert isinstance(cell, Hex)
        assert board.cell_at(*board.cell_center(cell)) == cell
        for n in board.neighbours(cell):
            assert hex_distance(cell, n) == 1 and cell in board.neighbours(n)
    assert board.cell_at(-100, -100) is None
    assert board.pixel_size == (147, 67)


def test_tile_properties_on_hex_board() -> None:
    board = load_board(DATA / "own" / "hex_y_even.tmx")
    forest = [c for c in board.cells()
              if board.cell_properties(c).get("terrain") == "forest"]
    assert forest
    for cell in forest:
        assert board.cell_properties(cell)["cost"] == 2
        assert board.gid_at("Ground", cell) == 4  # tile id 3 of the .tsx


def test_grid_board_wraps() -> None:
    board = load_board(DATA / "own" / "grid_wrap.tmx")
    assert board.kind == "grid" and board.grid.wrap_x and not board.grid.wrap_y
    assert (3, 2) not in board.cells()  # empty tile: a hole
    assert board.neighbours((0, 0)) == [(1, 0), (0, 1), (4, 0)]
    assert board.distance((0, 1), (4, 1)) == 1
    assert board.cell_center((4, 0)) == (81.0, 9.0)
    assert board.cell_at(81, 9) == (4, 0)
    assert board.cell_at(100, 9) is None
    assert board.cell_properties((3, 0))["terrain"] == "forest"


def test_corpus_hex_map_loads() -> None:
    board = load_board(DATA / "tiled-examples" / "hexagonal-mini.tmx")
    assert board.kind == "hex" and len(board.cells()) == 400
    assert board.pixel_size == (287, 183)
    ts = board.tilesets[0]
    assert ts.offset == (0, 1) and ts.tile_rect(6) == (18, 18, 18, 18)


def test_board_kind_errors(tmp_path: Path) -> None:
    src = (DATA / "own" / "grid_wrap.tmx").read_text()
    bad = src.replace('name="wrap_x" type="bool" value="true"',
                      'name="board_kind" value="hex"')
    (tmp_path / "bad.tmx").write_text(bad)
    (tmp_path / "hexmini.tsx").write_text(
        (DATA / "own" / "hexmini.tsx").read_text().replace(
            "../tiled-examples/", str(DATA / "tiled-examples") + "/"))
    with pytest.raises(ValueError, match="does not fit"):
        load_board(tmp_path / "bad.tmx")


def test_board_modules_never_import_pygame() -> None:
    code = (
        "import sys\n"
        "from game.board import hexgrid, grid, track, tmxmap\n"
        "import game.board\n"
        f"b = tmxmap.load_board({str(DATA / 'track_sample.tmx')!r})\n"
        f"tmxmap.load_board({str(DATA / 'own' / 'hex_x_odd.tmx')!r})\n"
        "assert 'pygame' not in sys.modules, 'pygame was imported'\n"
        "import pytmx\n"  # a later full pytmx import still works
        "assert pytmx.TiledMap is tmxmap._pytmx_core().TiledMap\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
