"""Hexagon maths in the Red Blob Games style, plus Tiled's hexagonal maps.

Pure Python (no pygame): rules code uses it.

Axial coordinates ``Hex(q, r)`` with the implied cube coordinate
``s = -q - r`` carry all the maths (neighbours, distance, lines, rings).
Two views put hexes on screen:

* ``Layout`` -- regular hexagons of a given size, pointy or flat topped.
* ``TiledHexLayout`` -- the slightly irregular hexagons of a Tiled
  ``orientation="hexagonal"`` map, placed and picked exactly as Tiled's
  ``HexagonalRenderer`` does (``tileToScreenCoords``, ``screenToTileCoords``,
  ``mapBoundingRect``), so game pieces line up with the drawn tiles.

Tiled stores hex maps in *staggered offset* tile coordinates ``(col, row)``;
``offset_to_axial``/``axial_to_offset`` convert for every setting Tiled
writes (``staggeraxis`` x or y, ``staggerindex`` odd or even).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "Hex", "FractionalHex", "DIRECTIONS", "DIAGONALS", "hex_direction",
    "hex_neighbor", "neighbors", "hex_diagonal_neighbor", "distance",
    "hex_round", "hex_lerp", "line", "ring", "spiral", "hex_range",
    "Orientation", "POINTY", "FLAT", "Point", "Layout", "offset_to_axial",
    "axial_to_offset", "TiledHexLayout",
]


class Point(NamedTuple):
    """A pixel position (floats allowed)."""

    x: float
    y: float


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """Axial hex coordinate; ``s = -q - r`` is implied.

    >>> Hex(1, -3) + Hex(2, 1)
    Hex(q=3, r=-2)
    >>> Hex(1, 2) - Hex(1, 1), Hex(1, -2) * 3, Hex(1, 2).s
    (Hex(q=0, r=1), Hex(q=3, r=-6), -3)
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """Third cube coordinate."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __mul__(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    __rmul__ = __mul__

    def add(self, other: Hex) -> Hex:
        """Vector sum."""
        return self + other

    def subtract(self, other: Hex) -> Hex:
        """Vector difference."""
        return self - other

    def scale(self, k: int) -> Hex:
        """Multiply both coordinates by ``k``."""
        return self * k

    def length(self) -> int:
        """Steps from the origin."""
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2


class FractionalHex(NamedTuple):
    """Axial coordinate with float components (pixel picking, lines)."""

    q: float
    r: float

    @property
    def s(self) -> float:
        """Third cube coordinate."""
        return -self.q - self.r


# Counter-clockwise from "east" (+q) in the Red Blob order.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1),
)
DIAGONALS: tuple[Hex, ...] = (
    Hex(2, -1), Hex(1, -2), Hex(-1, -1), Hex(-2, 1), Hex(-1, 2), Hex(1, 1),
)


def hex_direction(direction: int) -> Hex:
    """Unit step ``direction`` (taken modulo 6).

    >>> hex_direction(0), hex_direction(7)
    (Hex(q=1, r=0), Hex(q=1, r=-1))
    """
    return DIRECTIONS[direction % 6]


def hex_neighbor(h: Hex, direction: int) -> Hex:
    """The neighbour of ``h`` in ``direction`` (0..5).

    >>> hex_neighbor(Hex(1, -2), 2)
    Hex(q=1, r=-3)
    """
    return h + hex_direction(direction)


def neighbors(h: Hex) -> list[Hex]:
    """All six neighbours of ``h``, in direction order.

    >>> neighbors(Hex(0, 0))[:2]
    [Hex(q=1, r=0), Hex(q=1, r=-1)]
    """
    return [h + d for d in DIRECTIONS]


def hex_diagonal_neighbor(h: Hex, direction: int) -> Hex:
    """The diagonal neighbour (two steps away, between two edges)."""
    return h + DIAGONALS[direction % 6]


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes.

    >>> distance(Hex(3, -7), Hex(0, 0))
    7
    """
    return (a - b).length()


def hex_round(h: FractionalHex) -> Hex:
    """Nearest hex to a fractional coordinate (cube rounding).

    >>> hex_round(FractionalHex(0.2, 0.1)), hex_round(FractionalHex(1.6, -0.2))
    (Hex(q=0, r=0), Hex(q=2, r=0))
    """
    q, r, s = (math.floor(v + 0.5) for v in (h.q, h.r, h.s))
    dq, dr, ds = abs(q - h.q), abs(r - h.r), abs(s - h.s)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def hex_lerp(a: Hex | FractionalHex, b: Hex | FractionalHex,
             t: float) -> FractionalHex:
    """Linear interpolation between two (fractional) hexes."""
    return FractionalHex(a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t)


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from ``a`` to ``b``, both included.

    Both ends are nudged by a tiny epsilon so that lines running exactly
    along hex edges round consistently to one side.

    >>> line(Hex(0, 0), Hex(3, 0))
    [Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=0), Hex(q=3, r=0)]
    >>> len(line(Hex(0, 0), Hex(2, -4)))
    5
    """
    n = distance(a, b)
    eps = 1e-6
    a_nudged = FractionalHex(a.q + eps, a.r + eps)
    b_nudged = FractionalHex(b.q + eps, b.r + eps)
    step = 1.0 / max(n, 1)
    return [hex_round(hex_lerp(a_nudged, b_nudged, step * i))
            for i in range(n + 1)]


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes exactly ``radius`` steps from ``center``, walking around.

    >>> ring(Hex(0, 0), 0)
    [Hex(q=0, r=0)]
    >>> len(ring(Hex(5, 5), 3))
    18
    """
    if radius == 0:
        return [center]
    results = []
    h = center + hex_direction(4) * radius
    for side in range(6):
        for _ in range(radius):
            results.append(h)
            h = hex_neighbor(h, side)
    return results


def spiral(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius``, ring by ring from the centre outwards.

    >>> len(spiral(Hex(0, 0), 2))
    19
    """
    return [h for k in range(radius + 1) for h in ring(center, k)]


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius`` steps, in (q, r) scan order.

    >>> sorted(hex_range(Hex(0, 0), 1)) == sorted(spiral(Hex(0, 0), 1))
    True
    """
    return [Hex(center.q + dq, center.r + dr)
            for dq in range(-radius, radius + 1)
            for dr in range(max(-radius, -dq - radius),
                            min(radius, -dq + radius) + 1)]


@dataclass(frozen=True)
class Orientation:
    """Forward (f) and inverse (b) axial<->pixel matrices and corner angle."""

    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float


_SQRT3 = math.sqrt(3.0)
POINTY = Orientation(_SQRT3, _SQRT3 / 2.0, 0.0, 3.0 / 2.0,
                     _SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5)
FLAT = Orientation(3.0 / 2.0, 0.0, _SQRT3 / 2.0, _SQRT3,
                   2.0 / 3.0, 0.0, -1.0 / 3.0, _SQRT3 / 3.0, 0.0)


@dataclass(frozen=True)
class Layout:
    """Regular hexagons: orientation, size (centre to corner) and origin.

    >>> lay = Layout(POINTY, Point(10, 10), Point(0, 0))
    >>> p = lay.hex_to_pixel(Hex(1, 1))
    >>> round(p.x, 3), round(p.y, 3)
    (25.981, 15.0)
    >>> lay.hex_at(*p)
    Hex(q=1, r=1)
    """

    orientation: Orientation
    size: Point
    origin: Point = Point(0.0, 0.0)

    def hex_to_pixel(self, h: Hex | FractionalHex) -> Point:
        """Centre of a hex in pixels."""
        m = self.orientation
        x = (m.f0 * h.q + m.f1 * h.r) * self.size.x
        y = (m.f2 * h.q + m.f3 * h.r) * self.size.y
        return Point(x + self.origin.x, y + self.origin.y)

    def pixel_to_hex(self, x: float, y: float) -> FractionalHex:
        """Fractional hex under a pixel (round it with ``hex_round``)."""
        m = self.orientation
        px = (x - self.origin.x) / self.size.x
        py = (y - self.origin.y) / self.size.y
        return FractionalHex(m.b0 * px + m.b1 * py, m.b2 * px + m.b3 * py)

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex containing a pixel."""
        return hex_round(self.pixel_to_hex(x, y))

    def corner_offset(self, corner: int) -> Point:
        """Offset of corner ``corner`` (0..5) from a hex centre."""
        angle = 2.0 * math.pi * (self.orientation.start_angle + corner) / 6
        return Point(self.size.x * math.cos(angle),
                     self.size.y * math.sin(angle))

    def polygon_corners(self, h: Hex) -> list[Point]:
        """The six corners of a hex in pixels."""
        c = self.hex_to_pixel(h)
        return [Point(c.x + o.x, c.y + o.y)
                for o in map(self.corner_offset, range(6))]


def _check_stagger(staggeraxis: str, staggerindex: str) -> None:
    if staggeraxis not in ("x", "y") or staggerindex not in ("odd", "even"):
        raise ValueError(f"bad stagger setting {staggeraxis!r}/"
                         f"{staggerindex!r}")


def offset_to_axial(col: int, row: int, staggeraxis: str = "y",
                    staggerindex: str = "odd") -> Hex:
    """Tiled tile ``(col, row)`` to axial.

    ``staggeraxis="y"`` staggers rows (pointy-topped hexes: Red Blob
    "odd-r"/"even-r"); ``"x"`` staggers columns (flat-topped: "odd-q"/
    "even-q").  ``staggerindex`` says whether odd or even rows/columns are
    the shifted ones.

    >>> offset_to_axial(1, 1, "y", "odd"), offset_to_axial(1, 1, "y", "even")
    (Hex(q=1, r=1), Hex(q=0, r=1))
    >>> offset_to_axial(1, 1, "x", "odd"), offset_to_axial(1, 1, "x", "even")
    (Hex(q=1, r=1), Hex(q=1, r=0))
    """
    _check_stagger(staggeraxis, staggerindex)
    even = staggerindex == "even"
    if staggeraxis == "y":
        shift = (row + (row & 1)) // 2 if even else (row - (row & 1)) // 2
        return Hex(col - shift, row)
    shift = (col + (col & 1)) // 2 if even else (col - (col & 1)) // 2
    return Hex(col, row - shift)


def axial_to_offset(h: Hex, staggeraxis: str = "y",
                    staggerindex: str = "odd") -> tuple[int, int]:
    """Axial to Tiled tile ``(col, row)``; inverse of ``offset_to_axial``.

    >>> axial_to_offset(Hex(0, 1), "y", "even")
    (1, 1)
    """
    _check_stagger(staggeraxis, staggerindex)
    even = staggerindex == "even"
    if staggeraxis == "y":
        r = h.r
        shift = (r + (r & 1)) // 2 if even else (r - (r & 1)) // 2
        return h.q + shift, r
    q = h.q
    shift = (q + (q & 1)) // 2 if even else (q - (q & 1)) // 2
    return q, h.r + shift


def _cdiv(a: int, b: int) -> int:
    """C++ integer division (truncates toward zero)."""
    return int(a / b) if b else 0


class TiledHexLayout:
    """Placement and picking of a Tiled hexagonal map's tiles, as Tiled does.

    The numbers follow ``HexagonalRenderer::RenderParams``: tile width and
    height are rounded down to even, ``hexsidelength`` applies along the
    stagger axis, integer divisions truncate like C++.

    Tiled's picking measures to four candidate centres, not to the drawn
    outline, so near an edge it can disagree with the outline by up to
    about 2 px on squashed hexagons.  With ``staggeraxis="x"`` and an odd
    ``(tilewidth & ~1) - hexsidelength``, Tiled's own drawing loop drifts a
    pixel per two columns away from these positions; keep that difference
    even.

    >>> lay = TiledHexLayout(14, 12, 6, "y", "odd")
    >>> [lay.tile_to_pixel(*t) for t in ((0, 0), (0, 1), (1, 2))]
    [(0, 0), (7, 9), (14, 18)]
    >>> lay.map_pixel_size(20, 20)
    (287, 183)
    >>> lay.tile_at(7, 6), lay.tile_at(14, 15), lay.tile_at(28, 15)
    ((0, 0), (0, 1), (1, 1))
    >>> lay.tile_center(1, 1)
    (28.0, 15.0)
    >>> lay.hex_of(1, 1), lay.tile_of(Hex(1, 1))
    (Hex(q=1, r=1), (1, 1))
    """

    def __init__(self, tilewidth: int, tileheight: int, hexsidelength: int,
                 staggeraxis: str = "y", staggerindex: str = "odd") -> None:
        _check_stagger(staggeraxis, staggerindex)
        self.staggeraxis = staggeraxis
        self.staggerindex = staggerindex
        self.stagger_x = staggeraxis == "x"
        self.stagger_even = staggerindex == "even"
        self.tile_width = int(tilewidth) & ~1
        self.tile_height = int(tileheight) & ~1
        side = int(hexsidelength)
        self.side_length_x = side if self.stagger_x else 0
        self.side_length_y = 0 if self.stagger_x else side
        self.side_offset_x = _cdiv(self.tile_width - self.side_length_x, 2)
        self.side_offset_y = _cdiv(self.tile_height - self.side_length_y, 2)
        self.column_width = self.side_offset_x + self.side_length_x
        self.row_height = self.side_offset_y + self.side_length_y

    def __repr__(self) -> str:
        return (f"TiledHexLayout({self.tile_width}, {self.tile_height}, "
                f"{self.side_length_x or self.side_length_y}, "
                f"{self.staggeraxis!r}, {self.staggerindex!r})")

    def is_staggered(self, col: int, row: int) -> bool:
        """Whether this tile's column/row is the shifted one."""
        index = col if self.stagger_x else row
        return bool((index & 1) ^ self.stagger_even)

    def hex_of(self, col: int, row: int) -> Hex:
        """Axial coordinate of a tile."""
        return offset_to_axial(col, row, self.staggeraxis, self.staggerindex)

    def tile_of(self, h: Hex) -> tuple[int, int]:
        """Tile ``(col, row)`` of an axial coordinate."""
        return axial_to_offset(h, self.staggeraxis, self.staggerindex)

    def tile_to_pixel(self, col: int, row: int) -> tuple[int, int]:
        """Top-left of the tile's cell in map pixels (``tileToScreenCoords``).
        """
        if self.stagger_x:
            y = row * (self.tile_height + self.side_length_y)
            if self.is_staggered(col, row):
                y += self.row_height
            return col * self.column_width, y
        x = col * (self.tile_width + self.side_length_x)
        if self.is_staggered(col, row):
            x += self.column_width
        return x, row * self.row_height

    def tile_center(self, col: int, row: int) -> tuple[float, float]:
        """Centre of the tile's hexagon (the middle of its cell)."""
        x, y = self.tile_to_pixel(col, row)
        return x + self.tile_width / 2, y + self.tile_height / 2

    def pick_center(self, col: int, row: int) -> tuple[int, int]:
        """The point ``screenToTileCoords`` measures distances to.

        It can sit up to a pixel away from ``tile_center`` when the side
        length and tile size have different parity.
        """
        x, y = self.tile_to_pixel(col, row)
        e = int(self.stagger_even)
        if self.stagger_x:
            start = self.tile_width if e else self.side_offset_x
            dx = start + self.side_length_x // 2 - e * self.column_width
            return x + dx, y + self.tile_height // 2
        start = self.tile_height if e else self.side_offset_y
        dy = start + self.side_length_y // 2 - e * self.row_height
        return x + self.tile_width // 2, y + dy

    def polygon(self, col: int, row: int) -> list[tuple[int, int]]:
        """The tile's outline (``tileToScreenPolygon``), 8 points."""
        x, y = self.tile_to_pixel(col, row)
        w, h = self.tile_width, self.tile_height
        ox, oy = self.side_offset_x, self.side_offset_y
        pts = [(0, h - oy), (0, oy), (ox, 0), (w - ox, 0), (w, oy),
               (w, h - oy), (w - ox, h), (ox, h)]
        return [(x + px, y + py) for px, py in pts]

    def tile_at(self, px: float, py: float) -> tuple[int, int]:
        """Tile under a pixel, exactly as ``screenToTileCoords``.

        The answer may lie outside the map; check it against the map size.
        """
        cw2, rh2 = self.column_width * 2, self.row_height * 2
        if self.stagger_x:
            px -= self.tile_width if self.stagger_even else self.side_offset_x
        else:
            py -= self.tile_height if self.stagger_even else self.side_offset_y
        ref_x = math.floor(px / cw2)
        ref_y = math.floor(py / rh2)
        rel_x, rel_y = px - ref_x * cw2, py - ref_y * rh2
        if self.stagger_x:
            ref_x = ref_x * 2 + int(self.stagger_even)
        else:
            ref_y = ref_y * 2 + int(self.stagger_even)
        best, best_d = (0, 0), math.inf
        for (cx, cy), step in zip(self._centers(), self._offsets()):
            d = (cx - rel_x) ** 2 + (cy - rel_y) ** 2
            if d < best_d:
                best, best_d = step, d
        return ref_x + best[0], ref_y + best[1]

    def _centers(self) -> tuple[tuple[int, int], ...]:
        """Candidate centres inside the reference rectangle."""
        cw, rh = self.column_width, self.row_height
        if self.stagger_x:
            left = self.side_length_x // 2
            cx, cy = left + cw, self.tile_height // 2
            return (left, cy), (cx, cy - rh), (cx, cy + rh), (cx + cw, cy)
        top = self.side_length_y // 2
        cx, cy = self.tile_width // 2, top + rh
        return (cx, top), (cx - cw, cy), (cx + cw, cy), (cx, cy + rh)

    def _offsets(self) -> tuple[tuple[int, int], ...]:
        """Tile steps from the reference tile to each candidate."""
        if self.stagger_x:
            return (0, 0), (1, -1), (1, 0), (2, 0)
        return (0, 0), (-1, 1), (0, 1), (0, 2)

    def map_pixel_size(self, width: int, height: int) -> tuple[int, int]:
        """Pixel size of a ``width`` x ``height`` tile map
        (``mapBoundingRect``)."""
        if self.stagger_x:
            w = width * self.column_width + self.side_offset_x
            h = height * (self.tile_height + self.side_length_y)
            if width > 1:
                h += self.row_height
            return w, h
        w = width * (self.tile_width + self.side_length_x)
        h = height * self.row_height + self.side_offset_y
        if height > 1:
            w += self.column_width
        return w, h

    def hex_at(self, px: float, py: float) -> Hex:
        """Axial coordinate of the tile under a pixel."""
        return self.hex_of(*self.tile_at(px, py))

    def hex_center(self, h: Hex) -> tuple[float, float]:
        """Centre pixel of an axial hex."""
        return self.tile_center(*self.tile_of(h))
