"""Property tests for game.board.hexgrid (axial maths and Tiled hex maps)."""
from __future__ import annotations

import doctest
import math
from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

from game.board import hexgrid
from game.board.hexgrid import (
    FLAT, POINTY, FractionalHex, Hex, Layout, Point, TiledHexLayout,
    axial_to_offset, distance, hex_range, hex_round, line, neighbors,
    offset_to_axial, ring, spiral,
)

STAGGERS = [(a, i) for a in ("x", "y") for i in ("odd", "even")]

coord = st.integers(-40, 40)
hexes = st.builds(Hex, coord, coord)
small_hexes = st.builds(Hex, st.integers(-5, 5), st.integers(-5, 5))
staggers = st.sampled_from(STAGGERS)


def test_doctests() -> None:
    assert doctest.testmod(hexgrid).failed == 0


@given(hexes, hexes)
def test_add_sub_scale(a: Hex, b: Hex) -> None:
    assert (a + b) - b == a
    assert a * 3 == a + a + a
    assert a.s == -a.q - a.r


@given(hexes)
def test_neighbours_symmetric(h: Hex) -> None:
    ns = neighbors(h)
    assert len(set(ns)) == 6
    for n in ns:
        assert h in neighbors(n)
        assert distance(h, n) == 1


@given(hexes, hexes, hexes)
def test_distance_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def _bfs(a: Hex, b: Hex) -> int:
    seen, todo = {a: 0}, deque([a])
    while todo:
        cur = todo.popleft()
        if cur == b:
            return seen[cur]
        for n in neighbors(cur):
            if n not in seen:
                seen[n] = seen[cur] + 1
                todo.append(n)
    raise AssertionError("unreachable")


@settings(max_examples=60)
@given(small_hexes, small_hexes)
def test_distance_is_bfs_steps(a: Hex, b: Hex) -> None:
    assert distance(a, b) == _bfs(a, b)


@given(hexes, hexes)
def test_line(a: Hex, b: Hex) -> None:
    path = line(a, b)
    assert len(path) == distance(a, b) + 1
    assert path[0] == a and path[-1] == b
    assert all(distance(p, q) == 1 for p, q in zip(path, path[1:]))


@given(small_hexes, st.integers(0, 6))
def test_ring_spiral_range(center: Hex, radius: int) -> None:
    r = ring(center, radius)
    assert len(r) == max(1, 6 * radius)
    assert all(distance(center, h) == radius for h in r)
    area = spiral(center, radius)
    assert len(area) == 3 * radius * (radius + 1) + 1
    assert sorted(area) == sorted(hex_range(center, radius))


@given(hexes)
def test_round_of_exact_hex(h: Hex) -> None:
    assert hex_round(FractionalHex(float(h.q), float(h.r))) == h


sizes = st.floats(1.0, 60.0)
origins = st.floats(-500.0, 500.0)
inside = st.floats(-0.33, 0.33)


@given(st.sampled_from([POINTY, FLAT]), hexes, sizes, sizes, origins, origins,
       inside, inside)
def test_layout_round_trip(orientation, h, sx, sy, ox, oy, dq, dr) -> None:
    lay = Layout(orientation, Point(sx, sy), Point(ox, oy))
    assert lay.hex_at(*lay.hex_to_pixel(h)) == h
    # Any point well inside the hexagon (|dq|, |dr|, |ds| < 0.5) maps back.
    p = lay.hex_to_pixel(FractionalHex(h.q + dq, h.r + dr))
    assert lay.hex_at(*p) == h
    assert len(lay.polygon_corners(h)) == 6


@given(staggers, st.integers(-30, 30), st.integers(-30, 30))
def test_offset_axial_round_trip(stagger, col: int, row: int) -> None:
    h = offset_to_axial(col, row, *stagger)
    assert axial_to_offset(h, *stagger) == (col, row)
    assert offset_to_axial(*axial_to_offset(h, *stagger), *stagger) == h


def _tiled_neighbours(x: int, y: int, axis: str, index: str) -> set:
    """Neighbours from Tiled's HexagonalRenderer::topLeft/topRight/
    bottomLeft/bottomRight plus the two straight ones (independent oracle).
    """
    si = 1 if index == "even" else 0
    if axis == "y":
        if (y & 1) ^ si:
            diag = [(x, y - 1), (x + 1, y - 1), (x, y + 1), (x + 1, y + 1)]
        else:
            diag = [(x - 1, y - 1), (x, y - 1), (x - 1, y + 1), (x, y + 1)]
        return set(diag) | {(x - 1, y), (x + 1, y)}
    if (x & 1) ^ si:
        diag = [(x - 1, y), (x + 1, y), (x - 1, y + 1), (x + 1, y + 1)]
    else:
        diag = [(x - 1, y - 1), (x + 1, y - 1), (x - 1, y), (x + 1, y)]
    return set(diag) | {(x, y - 1), (x, y + 1)}


@given(staggers, st.integers(-20, 20), st.integers(-20, 20))
def test_axial_neighbours_match_tiled(stagger, col: int, row: int) -> None:
    h = offset_to_axial(col, row, *stagger)
    ours = {axial_to_offset(n, *stagger) for n in neighbors(h)}
    assert ours == _tiled_neighbours(col, row, *stagger)


@st.composite
def tiled_layouts(draw) -> TiledHexLayout:
    """Hex tile geometries Tiled can make, odd sizes included."""
    axis, index = draw(staggers)
    tw = draw(st.integers(4, 48))
    th = draw(st.integers(4, 48))
    along = (tw if axis == "x" else th) & ~1
    side = draw(st.integers(1, along - 2))
    return TiledHexLayout(tw, th, side, axis, index)


map_dims = st.tuples(st.integers(1, 12), st.integers(1, 12))


@settings(max_examples=150)
@given(tiled_layouts(), map_dims)
def test_tiled_tile_center_picks_itself(lay: TiledHexLayout, dims) -> None:
    w, h = dims
    for row in range(h):
        for col in range(w):
            assert lay.tile_at(*lay.tile_center(col, row)) == (col, row)
            assert lay.tile_at(*lay.pick_center(col, row)) == (col, row)
            assert lay.tile_of(lay.hex_of(col, row)) == (col, row)


def _window(lay: TiledHexLayout, px: float, py: float):
    """The reference rectangle of screenToTileCoords, in absolute pixels,
    and the sort key Tiled's candidate order amounts to."""
    cw2, rh2 = lay.column_width * 2, lay.row_height * 2
    if lay.stagger_x:
        shift = lay.tile_width if lay.stagger_even else lay.side_offset_x
        bx = math.floor((px - shift) / cw2) * cw2 + shift
        by = math.floor(py / rh2) * rh2
        x0 = bx + lay.side_length_x // 2
        return (x0, by, x0 + cw2, by + rh2), (lambda c: (c[0], c[1]))
    shift = lay.tile_height if lay.stagger_even else lay.side_offset_y
    bx = math.floor(px / cw2) * cw2
    by = math.floor((py - shift) / rh2) * rh2 + shift
    y0 = by + lay.side_length_y // 2
    return (bx, y0, bx + cw2, y0 + rh2), (lambda c: (c[1], c[0]))


def _brute_force_candidates(lay: TiledHexLayout, px: float, py: float):
    """(distance², Tiled's candidate order, tile) for every tile whose
    centre lies in the reference rectangle, found by scanning tiles (not by
    Tiled's offset table), nearest first."""
    (x0, y0, x1, y1), order = _window(lay, px, py)
    col0, row0 = lay.tile_at(px, py)
    found = []
    for row in range(row0 - 4, row0 + 5):
        for col in range(col0 - 4, col0 + 5):
            cx, cy = lay.pick_center(col, row)
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                d = (cx - px) ** 2 + (cy - py) ** 2
                found.append((d, order((cx, cy)), (col, row)))
    assert len(found) == 4
    return sorted(found)


@settings(max_examples=300)
@given(tiled_layouts(), st.integers(-50, 400), st.integers(-50, 400))
def test_tiled_pick_matches_brute_force(lay, px: int, py: int) -> None:
    """Whole pixels: exact, ties going to Tiled's first candidate."""
    assert lay.tile_at(px, py) == _brute_force_candidates(lay, px, py)[0][2]


@settings(max_examples=300)
@given(tiled_layouts(), st.floats(-50, 400), st.floats(-50, 400))
def test_tiled_pick_is_a_nearest_candidate(lay, px: float, py: float) -> None:
    """Fractional pixels: one of the nearest (float rounding decides ties).
    """
    found = _brute_force_candidates(lay, px, py)
    nearest = {t for d, _, t in found if d <= found[0][0] + 1e-6}
    assert lay.tile_at(px, py) in nearest


def _inside(poly, px: float, py: float) -> bool:
    """Point strictly inside a convex polygon (either winding)."""
    signs = set()
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        cross = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)
        if cross:
            signs.add(cross > 0)
    return len(signs) == 1


def _edge_distance(poly, px: float, py: float) -> float:
    best = math.inf
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        dx, dy = x2 - x1, y2 - y1
        t = 0.0 if not (dx or dy) else max(0.0, min(1.0, (
            (px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(px - x1 - t * dx, py - y1 - t * dy))
    return best


# Realistic shapes: the hexmini tiles and near-regular hexagons.
REAL_SHAPES = [(14, 12, 6), (28, 32, 16), (32, 28, 16), (16, 16, 8)]


@settings(max_examples=400)
@given(st.sampled_from(REAL_SHAPES), staggers, st.floats(0, 300),
       st.floats(0, 300))
def test_tiled_pick_agrees_with_polygons(shape, stagger, px, py) -> None:
    """Away from edges, the picked tile is the one whose outline holds the
    pixel.  (Tiled picks by nearest centre, which strays up to ~2 px from
    the drawn outline on squashed hexagons like hexmini.)"""
    lay = TiledHexLayout(*shape, *stagger)
    col, row = lay.tile_at(px, py)
    nearby = [(c, r) for r in range(row - 2, row + 3)
              for c in range(col - 2, col + 3)]
    holders = [t for t in nearby if _inside(lay.polygon(*t), px, py)]
    if len(holders) != 1:
        return
    if _edge_distance(lay.polygon(*holders[0]), px, py) < 2.5:
        return
    assert holders[0] == (col, row)


@pytest.mark.parametrize("stagger", STAGGERS)
def test_tiled_map_pixel_size(stagger) -> None:
    lay = TiledHexLayout(14, 12, 6, *stagger)
    w, h = lay.map_pixel_size(20, 20)
    # Every tile's cell lies inside the map rectangle.
    for row in range(20):
        for col in range(20):
            x, y = lay.tile_to_pixel(col, row)
            assert 0 <= x and x + lay.tile_width <= w
            assert 0 <= y and y + lay.tile_height <= h
    assert (w, h) == ((287, 183) if stagger[0] == "y" else (204, 246))


def test_odd_sizes_round_down_like_tiled() -> None:
    lay = TiledHexLayout(15, 13, 5, "y", "even")
    assert (lay.tile_width, lay.tile_height) == (14, 12)
    assert (lay.side_offset_y, lay.row_height) == (3, 8)
    assert lay.tile_to_pixel(0, 0) == (7, 0)
    assert lay.tile_to_pixel(0, 1) == (0, 8)
