"""Generate the Fantasy Expedition board art, tileset and map.

Run from the repository root::

    SDL_VIDEODRIVER=dummy python -m game.tools.make_expedition_art [--map]

Always writes the tileset PNG and ``boards/expedition.tsx`` plus the item
pieces in ``assets/expedition/``.  With ``--map`` it also rewrites
``boards/fantasy_expedition.tmx`` (overwriting edits made in Tiled).

Everything is drawn with pygame at 4x and smooth-scaled down; the only
randomness is a fixed ``random.Random(1234)`` used for texture noise, so the
output is reproducible (fonts: DejaVu Serif when installed, else pygame's
bundled default font).
"""
from __future__ import annotations

import argparse
import math
import os
import random
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

import pygame

ROOT = Path(__file__).resolve().parents[2]
BOARDS_DIR = ROOT / "boards"
PIECES_DIR = ROOT / "assets" / "expedition"
TILESET_PNG = "expedition_tiles.png"
TILESET_TSX = "expedition.tsx"
MAP_TMX = "fantasy_expedition.tmx"

TILE = 64
SS = 4  # supersampling factor for anti-aliased drawing
MAP_W, MAP_H = 11, 8
TILESET_COLUMNS = 8
PIECE = 64

Color = tuple[int, ...]
Point = tuple[float, float]

# Rows of the track from the bottom up, and the map row (tile y) of each.
ROWS: tuple[str, ...] = ("start", "mine", "portal", "fear", "final")
ROW_TILE_Y: dict[str, int] = {
    "final": 1, "fear": 2, "portal": 3, "mine": 4, "start": 5,
}
ROW_LABELS: dict[str, str] = {
    "start": "START", "mine": "MINES", "portal": "PORTALS",
    "fear": "FEAR", "final": "FINAL",
}
HEADER_Y, NUMBERS_Y, FOOTER_Y = 0, 6, 7

# Palette --------------------------------------------------------------
PARCHMENT = (234, 216, 174)
INK = (64, 38, 22)
INK_RED = (120, 28, 24)
WOOD_DARK = (52, 32, 20)
WOOD = (108, 70, 40)
WOOD_LIGHT = (146, 100, 58)
GOLD_DARK = (138, 96, 34)
GOLD = (212, 168, 70)
GOLD_LIGHT = (248, 222, 138)
CREAM = (248, 236, 206)
CRIMSON = (172, 30, 40)
CRIMSON_DARK = (110, 16, 24)
VIOLET = (140, 84, 214)
VIOLET_LIGHT = (214, 186, 255)
STEEL = (178, 184, 192)
STEEL_DARK = (84, 88, 98)
NIGHT = (22, 34, 50)
AMBER = (240, 180, 60)

#: Player colours for the pre-tinted pawns ``pawn_1.png`` .. ``pawn_9.png``.
PLAYER_COLOURS: tuple[Color, ...] = (
    (222, 52, 52),    # 1 crimson
    (60, 112, 232),   # 2 royal blue
    (44, 172, 84),    # 3 emerald
    (244, 204, 44),   # 4 gold
    (156, 84, 214),   # 5 violet
    (246, 132, 32),   # 6 orange
    (40, 202, 214),   # 7 cyan
    (244, 112, 184),  # 8 pink
    (246, 246, 240),  # 9 ivory
)

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SERIF_BOLD = "DejaVuSerif-Bold.ttf"
SERIF = "DejaVuSerif.ttf"
SERIF_COND_BOLD = "DejaVuSerifCondensed-Bold.ttf"


# Small helpers --------------------------------------------------------
def lerp(a: float, b: float, t: float) -> float:
    """Linear interpolation."""
    return a + (b - a) * t


def mix(c1: Color, c2: Color, t: float) -> Color:
    """Blend two RGB(A) colours."""
    return tuple(round(lerp(a, b, t)) for a, b in zip(c1, c2))


def clamp8(v: float) -> int:
    """Clamp to a colour channel value."""
    return max(0, min(255, round(v)))


def with_alpha(c: Color, a: int) -> Color:
    """Return ``c`` as RGBA with alpha ``a``."""
    return (c[0], c[1], c[2], a)


@lru_cache(maxsize=None)
def font(name: str, px: int) -> pygame.font.Font:
    """A DejaVu font if installed, else pygame's bundled default font."""
    path = FONT_DIR / name
    if path.exists():
        return pygame.font.Font(str(path), px)
    return pygame.font.Font(None, round(px * 1.3))


def unit(cx: float, cy: float, s: float,
         pts: Sequence[Point]) -> list[Point]:
    """Map points from a -1..1 icon box onto centre ``(cx, cy)``, radius s."""
    return [(cx + x * s, cy + y * s) for x, y in pts]


# Supersampled canvas --------------------------------------------------
class Canvas:
    """A 4x supersampled RGBA surface addressed in final-pixel units."""

    def __init__(self, w: int, h: int, base: pygame.Surface | None = None,
                 fringe: Color = (40, 26, 16, 0)) -> None:
        self.w, self.h = w, h
        self.surf = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)
        self.surf.fill(fringe)
        if base is not None:
            big = pygame.transform.scale(base, self.surf.get_size())
            self.surf.blit(big, (0, 0))

    @staticmethod
    def _p(pt: Point) -> tuple[float, float]:
        return (pt[0] * SS, pt[1] * SS)

    @staticmethod
    def _r(rect: Sequence[float]) -> pygame.Rect:
        x, y, w, h = (round(v * SS) for v in rect)
        return pygame.Rect(x, y, w, h)

    def poly(self, color: Color, pts: Sequence[Point],
             width: float = 0) -> None:
        """Filled (or outlined) polygon."""
        pygame.draw.polygon(self.surf, color, [self._p(p) for p in pts],
                            round(width * SS))

    def circle(self, color: Color, c: Point, r: float,
               width: float = 0) -> None:
        """Filled (or ring) circle."""
        pygame.draw.circle(self.surf, color, self._p(c), r * SS,
                           round(width * SS))

    def ellipse(self, color: Color, rect: Sequence[float],
                width: float = 0) -> None:
        """Filled (or outlined) ellipse in a bounding rect."""
        pygame.draw.ellipse(self.surf, color, self._r(rect), round(width * SS))

    def rect(self, color: Color, rect: Sequence[float], width: float = 0,
             radius: float = 0) -> None:
        """Filled (or outlined) optionally rounded rectangle."""
        pygame.draw.rect(self.surf, color, self._r(rect), round(width * SS),
                         border_radius=round(radius * SS))

    def stroke(self, color: Color, pts: Sequence[Point], width: float,
               closed: bool = False) -> None:
        """Thick polyline with round joins and caps."""
        pts = list(pts) + ([pts[0]] if closed else [])
        half = width / 2
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            dx, dy = x2 - x1, y2 - y1
            length = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / length * half, dx / length * half
            self.poly(color, [(x1 + nx, y1 + ny), (x2 + nx, y2 + ny),
                              (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)])
        for p in pts:
            self.circle(color, p, half)

    def taper(self, color: Color, pts: Sequence[Point], width: float,
              profile: Callable[[float], float] | None = None) -> None:
        """Polyline filled as a ribbon whose width follows ``profile(t)``."""
        prof = profile or (lambda t: math.sin(math.pi * t))
        left: list[Point] = []
        right: list[Point] = []
        n = len(pts)
        for i, (x, y) in enumerate(pts):
            ax, ay = pts[max(i - 1, 0)]
            bx, by = pts[min(i + 1, n - 1)]
            dx, dy = bx - ax, by - ay
            length = math.hypot(dx, dy) or 1.0
            w = width * prof(i / (n - 1)) / 2
            left.append((x - dy / length * w, y + dx / length * w))
            right.append((x + dy / length * w, y - dx / length * w))
        self.poly(color, left + right[::-1])

    def text(self, s: str, size: float, color: Color, center: Point,
             face: str = SERIF_BOLD, shadow: Color | None = None,
             anchor: str = "center") -> None:
        """Anti-aliased text, optionally with a 1px drop shadow."""
        img = font(face, round(size * SS)).render(s, True, color)
        rect = img.get_rect(**{anchor: (round(center[0] * SS),
                                        round(center[1] * SS))})
        if shadow is not None:
            shade = font(face, round(size * SS)).render(s, True, shadow)
            self.surf.blit(shade, rect.move(SS, SS))
        self.surf.blit(img, rect)

    def layer(self) -> "Canvas":
        """A fresh transparent canvas of the same size."""
        return Canvas(self.w, self.h, fringe=(0, 0, 0, 0))

    def blend(self, other: "Canvas", alpha: int = 255) -> None:
        """Alpha-composite ``other`` on top of this canvas."""
        other.surf.set_alpha(alpha)
        self.surf.blit(other.surf, (0, 0))
        other.surf.set_alpha(None)

    def mask(self, shape: "Canvas") -> None:
        """Keep only the pixels covered by ``shape``'s alpha."""
        white = shape.surf.copy()
        white.fill((255, 255, 255, 0), special_flags=pygame.BLEND_RGBA_MAX)
        self.surf.blit(white, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)

    def finish(self) -> pygame.Surface:
        """Downsample to final size."""
        return pygame.transform.smoothscale(self.surf, (self.w, self.h))


# Textures -------------------------------------------------------------
def noise_texture(w: int, h: int, top: Color, bottom: Color,
                  rng: random.Random, amount: int,
                  mottle: int = 0) -> pygame.Surface:
    """Vertical gradient with per-pixel grain and optional soft mottling.

    The mottling lattice wraps at the surface size so tiles join seamlessly.
    """
    cell = 16
    cols, rows = max(1, w // cell), max(1, h // cell)
    lattice = [[rng.uniform(-1, 1) for _ in range(cols)] for _ in range(rows)]
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    for y in range(h):
        base = mix(top, bottom, y / max(1, h - 1))
        gy, fy = divmod(y / cell, 1)
        for x in range(w):
            gx, fx = divmod(x / cell, 1)
            m = _lattice_at(lattice, int(gx), int(gy), fx, fy)
            d = rng.randint(-amount, amount) + m * mottle
            surf.set_at((x, y), tuple(clamp8(c + d) for c in base[:3]))
    return surf


def _lattice_at(lat: list[list[float]], gx: int, gy: int, fx: float,
                fy: float) -> float:
    """Smoothly interpolated value-noise sample, wrapping on both axes."""
    rows, cols = len(lat), len(lat[0])
    sx, sy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)
    r0, r1 = lat[gy % rows], lat[(gy + 1) % rows]
    a, b = r0[gx % cols], r0[(gx + 1) % cols]
    c, d = r1[gx % cols], r1[(gx + 1) % cols]
    return lerp(lerp(a, b, sx), lerp(c, d, sx), sy)


# Vector icons (drawn in a -1..1 box of radius s) ----------------------
def icon_pickaxe(cv: Canvas, cx: float, cy: float, s: float) -> None:
    """Dwarven pickaxe: wooden haft and a curved steel head."""
    top = (0.42, -0.42)
    cv.stroke(WOOD_DARK, unit(cx, cy, s, [(-0.72, 0.78), top]), 0.26 * s)
    cv.stroke(WOOD_LIGHT, unit(cx, cy, s, [(-0.68, 0.74), top]), 0.13 * s)
    d = (1 / math.sqrt(2), -1 / math.sqrt(2))
    n = (1 / math.sqrt(2), 1 / math.sqrt(2))
    upper, lower = [], []
    steps = 16
    for i in range(steps + 1):
        t = -1 + 2 * i / steps
        bulge = 0.2 * (1 - t * t)
        px = top[0] + n[0] * 0.95 * t + d[0] * bulge
        py = top[1] + n[1] * 0.95 * t + d[1] * bulge
        w = 0.14 * (1 - t * t) + 0.015
        upper.append((px + d[0] * w, py + d[1] * w))
        lower.append((px - d[0] * w, py - d[1] * w))
    outline = unit(cx, cy, s, upper + lower[::-1])
    cv.poly(STEEL, outline)
    cv.poly(STEEL_DARK, outline, max(0.8, 0.06 * s))
    cv.circle(WOOD_DARK, unit(cx, cy, s, [top])[0], 0.1 * s)


def icon_swirl(cv: Canvas, cx: float, cy: float, s: float,
               color: Color = VIOLET) -> None:
    """Arcane spiral with a small sparkle."""
    pts = []
    turns = 2.3 * math.pi
    for i in range(60):
        th = turns * i / 59
        r = 0.08 + 0.72 * th / turns
        pts.append((math.cos(th + 2.4) * r, math.sin(th + 2.4) * r))
    cv.taper(color, unit(cx, cy, s, pts), 0.3 * s,
             lambda t: 0.35 + 0.65 * math.sin(math.pi * min(1.0, t * 1.15)))
    icon_sparkle(cv, cx + 0.62 * s, cy - 0.62 * s, 0.3 * s, color)


def icon_sparkle(cv: Canvas, cx: float, cy: float, r: float,
                 color: Color) -> None:
    """Four-pointed star."""
    k = 0.28
    cv.poly(color, [(cx, cy - r), (cx + r * k, cy - r * k), (cx + r, cy),
                    (cx + r * k, cy + r * k), (cx, cy + r),
                    (cx - r * k, cy + r * k), (cx - r, cy),
                    (cx - r * k, cy - r * k)])


def icon_claws(cv: Canvas, cx: float, cy: float, s: float,
               color: Color = CRIMSON_DARK) -> None:
    """Three curved werewolf claw slashes."""
    for off in (-0.42, 0.0, 0.42):
        pts = []
        for i in range(14):
            t = i / 13
            x = 0.42 + off - 0.84 * t + 0.14 * math.sin(math.pi * t)
            y = -0.82 + 1.64 * t
            pts.append((x, y))
        cv.taper(color, unit(cx, cy, s, pts), 0.3 * s)


def icon_banner(cv: Canvas, cx: float, cy: float, s: float) -> None:
    """Red swallow-tail banner on a gilded pole."""
    cv.stroke(WOOD_DARK, unit(cx, cy, s, [(-0.55, -0.8), (-0.55, 0.9)]),
              0.16 * s)
    flag = [(-0.5, -0.74), (0.85, -0.74), (0.55, -0.3), (0.85, 0.14),
            (-0.5, 0.14)]
    cv.poly(CRIMSON, unit(cx, cy, s, flag))
    cv.poly(CRIMSON_DARK, unit(cx, cy, s, flag), max(0.8, 0.07 * s))
    cv.stroke(GOLD, unit(cx, cy, s, [(-0.36, -0.56), (0.5, -0.56)]),
              0.07 * s)
    cv.circle(GOLD, unit(cx, cy, s, [(-0.55, -0.86)])[0], 0.14 * s)


def icon_tent(cv: Canvas, cx: float, cy: float, s: float) -> None:
    """Expedition camp tent with an open flap."""
    body = [(-0.88, 0.66), (0.0, -0.74), (0.88, 0.66)]
    cv.poly((196, 146, 78), unit(cx, cy, s, body))
    cv.poly((150, 102, 50), unit(cx, cy, s, [(0.0, -0.74), (0.88, 0.66),
                                             (0.28, 0.66)]))
    cv.poly((52, 34, 22), unit(cx, cy, s, [(-0.26, 0.66), (0.0, 0.02),
                                           (0.26, 0.66)]))
    cv.poly(WOOD_DARK, unit(cx, cy, s, body), max(0.8, 0.07 * s))
    cv.stroke(WOOD_DARK, unit(cx, cy, s, [(0.0, -0.74), (-0.2, -0.98)]),
              0.08 * s)
    cv.stroke(WOOD_DARK, unit(cx, cy, s, [(0.0, -0.74), (0.2, -0.98)]),
              0.08 * s)
    cv.stroke(WOOD_DARK, unit(cx, cy, s, [(-1.0, 0.7), (1.0, 0.7)]),
              0.09 * s)


def icon_crown(cv: Canvas, cx: float, cy: float, s: float) -> None:
    """Golden crown of the surface kingdom."""
    pts = [(-0.8, 0.5), (-0.9, -0.45), (-0.4, 0.0), (0.0, -0.7),
           (0.4, 0.0), (0.9, -0.45), (0.8, 0.5)]
    cv.poly(GOLD, unit(cx, cy, s, pts))
    cv.poly(GOLD_DARK, unit(cx, cy, s, pts), max(0.8, 0.08 * s))
    cv.rect(GOLD_DARK, (cx - 0.8 * s, cy + 0.42 * s, 1.6 * s, 0.22 * s),
            radius=0.05 * s)
    for x, y in ((-0.9, -0.45), (0.0, -0.7), (0.9, -0.45)):
        cv.circle(GOLD_LIGHT, (cx + x * s, cy + y * s), 0.13 * s)
    cv.circle(CRIMSON, (cx, cy + 0.12 * s), 0.15 * s)


def icon_footprints(cv: Canvas, cx: float, cy: float, s: float,
                    color: Color) -> None:
    """Two boot prints walking upward."""
    for sx, sy in ((-0.32, 0.25), (0.32, -0.35)):
        cv.ellipse(color, (cx + (sx - 0.2) * s, cy + (sy - 0.45) * s,
                           0.4 * s, 0.62 * s))
        cv.ellipse(color, (cx + (sx - 0.16) * s, cy + (sy + 0.24) * s,
                           0.32 * s, 0.3 * s))


def arrow_points(cx: float, cy: float, length: float, shaft: float,
                 head_w: float, head_len: float,
                 angle: float) -> list[Point]:
    """Outline of a straight arrow centred at (cx, cy) pointing at angle."""
    half = length / 2
    base = [(-half, -shaft / 2), (half - head_len, -shaft / 2),
            (half - head_len, -head_w / 2), (half, 0.0),
            (half - head_len, head_w / 2), (half - head_len, shaft / 2),
            (-half, shaft / 2)]
    ca, sa = math.cos(angle), math.sin(angle)
    return [(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in base]


def double_arrow_points(cx: float, cy: float, length: float, shaft: float,
                        head_w: float, head_len: float) -> list[Point]:
    """Horizontal arrow with heads at both ends."""
    h = length / 2
    return [(cx - h, cy), (cx - h + head_len, cy - head_w / 2),
            (cx - h + head_len, cy - shaft / 2),
            (cx + h - head_len, cy - shaft / 2),
            (cx + h - head_len, cy - head_w / 2), (cx + h, cy),
            (cx + h - head_len, cy + head_w / 2),
            (cx + h - head_len, cy + shaft / 2),
            (cx - h + head_len, cy + shaft / 2),
            (cx - h + head_len, cy + head_w / 2)]


ROW_ICONS: dict[str, Callable[[Canvas, float, float, float], None]] = {
    "start": icon_tent, "mine": icon_pickaxe, "portal": icon_swirl,
    "fear": icon_claws, "final": icon_banner,
}


def medallion(cv: Canvas, c: Point, r: float) -> None:
    """Gilded parchment roundel that holds an icon."""
    cv.circle((0, 0, 0, 90), (c[0] + 0.8, c[1] + 1.4), r + 0.6)
    cv.circle(WOOD_DARK, c, r + 0.6)
    cv.circle(GOLD_DARK, c, r)
    cv.circle(GOLD, (c[0] - 0.4, c[1] - 0.4), r - 1.0)
    cv.circle(GOLD_LIGHT, (c[0] - 0.6, c[1] - 0.8), r - 2.2)
    cv.circle(GOLD_DARK, c, r - 2.4)
    cv.circle(CREAM, c, r - 3.0)


# Background frame tiles -----------------------------------------------
FRAME_WOOD = 10.0
FRAME_EDGES: dict[str, str] = {
    "frame_tl": "tl", "frame_t": "t", "frame_tr": "tr", "frame_l": "l",
    "frame_r": "r", "frame_bl": "bl", "frame_b": "b", "frame_br": "br",
}


def parchment_base(rng: random.Random) -> pygame.Surface:
    """Warm parchment with grain and soft mottling (tiles seamlessly)."""
    return noise_texture(TILE, TILE, PARCHMENT, PARCHMENT, rng, 6, mottle=8)


def draw_parchment_tile(parch: pygame.Surface) -> pygame.Surface:
    """Plain parchment for the board interior."""
    return parch.copy()


def _edge_rect(edge: str, depth: float) -> tuple[float, ...]:
    """Strip of ``depth`` pixels along one tile edge."""
    return {
        "t": (0, 0, TILE, depth), "b": (0, TILE - depth, TILE, depth),
        "l": (0, 0, depth, TILE), "r": (TILE - depth, 0, depth, TILE),
    }[edge]


def draw_frame_tile(edges: str, parch: pygame.Surface,
                    rng: random.Random) -> pygame.Surface:
    """Parchment with a dark-wood and gilt frame along ``edges``."""
    cv = Canvas(TILE, TILE, parch)
    shade = cv.layer()
    for i in range(12):
        for e in edges:
            shade.rect((70, 44, 20, 26), _edge_rect(e, FRAME_WOOD + 2 + i))
    cv.blend(shade, 120)
    for e in edges:
        cv.rect(WOOD_DARK, _edge_rect(e, FRAME_WOOD + 3))
        cv.rect(GOLD, _edge_rect(e, FRAME_WOOD + 2))
        cv.rect(GOLD_DARK, _edge_rect(e, FRAME_WOOD + 0.8))
        cv.rect(WOOD, _edge_rect(e, FRAME_WOOD))
        cv.rect(WOOD_LIGHT, _edge_rect(e, 3.5))
        cv.rect(WOOD_DARK, _edge_rect(e, 1.2))
    _wood_grain(cv, edges, rng)
    if len(edges) == 2:
        _corner_boss(cv, edges)
    return cv.finish()


def _wood_grain(cv: Canvas, edges: str, rng: random.Random) -> None:
    """Thin grain streaks along the wooden frame strips."""
    grain = cv.layer()
    for e in edges:
        for _ in range(5):
            depth = rng.uniform(4.5, FRAME_WOOD - 1)
            start, length = rng.uniform(-10, 60), rng.uniform(14, 40)
            a, b = start, start + length
            if e in "tb":
                y = depth if e == "t" else TILE - depth
                grain.stroke(WOOD_DARK, [(a, y), (b, y)], 0.6)
            else:
                x = depth if e == "l" else TILE - depth
                grain.stroke(WOOD_DARK, [(x, a), (x, b)], 0.6)
    cv.blend(grain, 110)


def _corner_boss(cv: Canvas, edges: str) -> None:
    """Gilded corner boss with a garnet."""
    x = 6.5 if "l" in edges else TILE - 6.5
    y = 6.5 if "t" in edges else TILE - 6.5
    cv.circle(WOOD_DARK, (x, y), 9.5)
    cv.circle(GOLD_DARK, (x, y), 8.5)
    cv.circle(GOLD, (x - 0.5, y - 0.5), 7.3)
    cv.circle(GOLD_LIGHT, (x - 1.2, y - 1.2), 4.5)
    cv.circle(GOLD, (x, y), 4.4)
    cv.circle((120, 14, 30), (x, y), 3.6)
    cv.circle((214, 52, 72), (x - 0.8, y - 0.8), 1.6)


# Row band tiles -------------------------------------------------------
BAND_TOP, BAND_BOTTOM = 3.0, 61.0
CAP_INSET = 17.0
SLOT = (8.0, 8.0, 48.0, 48.0)

BAND_COLOURS: dict[str, tuple[Color, Color, int]] = {
    "start": ((104, 84, 64), (62, 48, 36), 9),
    "mine": ((110, 112, 118), (70, 72, 80), 8),
    "portal": ((82, 48, 128), (42, 22, 80), 7),
    "fear": ((40, 70, 88), (14, 30, 38), 7),
    "final": ((148, 196, 230), (236, 216, 162), 4),
}
BAND_EDGE: dict[str, Color] = {
    "start": (40, 28, 20), "mine": (40, 42, 48), "portal": (30, 12, 56),
    "fear": (10, 20, 26), "final": (96, 70, 40),
}


def _band_shape(kind: str) -> tuple[float, float, float, float]:
    """Rect (x, y, w, h) of the band in a cap or middle tile."""
    h = BAND_BOTTOM - BAND_TOP
    if kind == "cap_l":
        return (CAP_INSET, BAND_TOP, TILE - CAP_INSET + 20, h)
    if kind == "cap_r":
        return (-20, BAND_TOP, TILE - CAP_INSET + 20, h)
    return (-20, BAND_TOP, TILE + 40, h)


def band_base(row: str, rng: random.Random) -> pygame.Surface:
    """Gradient texture shared by all tiles of one row band."""
    top, bottom, grain = BAND_COLOURS[row]
    return noise_texture(TILE, TILE, top, bottom, rng, grain, mottle=5)


def draw_band_tile(row: str, kind: str,
                   base: pygame.Surface) -> pygame.Surface:
    """One tile of a row band: ``kind`` is cap_l, slot or cap_r."""
    band = Canvas(TILE, TILE, base)
    BAND_PATTERNS[row](band)
    shape = band.layer()
    shape.rect((255, 255, 255), _band_shape(kind), radius=12)
    band.mask(shape)
    cv = Canvas(TILE, TILE, fringe=(0, 0, 0, 0))
    x, y, w, h = _band_shape(kind)
    cv.rect((40, 24, 10, 110), (x + 0.5, y + 1.6, w, h), radius=12)
    cv.blend(band)
    edge = BAND_EDGE[row]
    cv.rect(edge, (x, y, w, h), 1.6, radius=12)
    cv.rect(with_alpha(GOLD_LIGHT, 90), (x + 1.6, y + 1.6, w - 3.2, h - 3.2),
            0.7, radius=10.5)
    if kind == "slot":
        SLOT_PAINTERS[row](cv)
    return cv.finish()


def _at_both_edges(fn: Callable[[float], None]) -> None:
    """Draw a feature centred on x=0 and x=TILE so tiles join seamlessly."""
    fn(0.0)
    fn(float(TILE))


def pattern_start(cv: Canvas) -> None:
    """Cavern camp: small campfires and pebbles between the slots."""
    def campfire(x: float) -> None:
        glow = cv.layer()
        for i in range(6):
            glow.circle((255, 170, 60, 40), (x, 47), 9 - i * 1.3)
        cv.blend(glow, 150)
        cv.stroke((70, 44, 24), [(x - 4.5, 53), (x + 4.5, 50.5)], 1.8)
        cv.stroke((92, 58, 30), [(x - 4.5, 50.5), (x + 4.5, 53)], 1.8)
        cv.poly((232, 96, 32), [(x - 3.4, 51), (x - 2.2, 45), (x - 0.6, 47),
                                (x + 0.4, 41), (x + 2.2, 46.5),
                                (x + 3.4, 51)])
        cv.poly((252, 206, 84), [(x - 1.6, 51), (x - 0.4, 46.5),
                                 (x + 0.6, 48), (x + 1.6, 51)])
        for dx, dy, r in ((-6, 55.5, 1.6), (5.5, 56, 1.3), (0.5, 9, 1.1)):
            cv.circle((130, 108, 84), (x + dx, dy), r)
    _at_both_edges(campfire)


def pattern_mine(cv: Canvas) -> None:
    """Dwarf-hewn stone courses with gold and sapphire ore."""
    mortar = (54, 56, 62)
    for y in (22.0, 42.0):
        cv.stroke(mortar, [(-2, y), (TILE + 2, y)], 1.2)
    for x, y1, y2 in ((0, 3, 22), (64, 3, 22), (32, 22, 42), (0, 42, 61),
                      (64, 42, 61)):
        cv.stroke(mortar, [(x, y1), (x, y2)], 1.2)
    for x, y in ((4, 12), (60, 31), (2, 52)):
        cv.poly(GOLD, [(x, y - 2.4), (x + 1.8, y), (x, y + 2.4),
                       (x - 1.8, y)])
        cv.circle(GOLD_LIGHT, (x - 0.4, y - 0.6), 0.7)
    cv.poly((70, 150, 200), [(61, 10), (62.8, 12), (61, 14), (59.2, 12)])


def pattern_portal(cv: Canvas) -> None:
    """Starry arcane violet with inscribed rune lines."""
    line = (150, 104, 220)
    for y in (6.5, 57.5):
        cv.stroke(line, [(-2, y), (TILE + 2, y)], 0.6)
    for x in range(2, TILE, 8):
        cv.circle(line, (x + 0.5, 6.5), 0.9)
        cv.circle(line, (x + 4.5, 57.5), 0.9)
    _at_both_edges(lambda x: icon_sparkle(cv, x, 22, 3.6, VIOLET_LIGHT))
    for x, y, r in ((59, 40, 0.8), (5, 46, 0.7), (3, 13, 0.6),
                    (61, 50, 0.6)):
        cv.circle((230, 214, 255), (x, y), r)


def pattern_fear(cv: Canvas) -> None:
    """Moonlit pine forest silhouettes."""
    for x, y, r in ((4, 9, 0.6), (60, 14, 0.7), (58, 6, 0.5)):
        cv.circle((200, 220, 230), (x, y), r)

    def pine(x: float, h: float, color: Color) -> None:
        ground = BAND_BOTTOM
        for i in range(3):
            w = 6.5 - i * 1.6
            y0 = ground - 3 - i * h / 4
            cv.poly(color, [(x - w, y0), (x + w, y0),
                            (x, y0 - h / 2.2)])
        cv.rect(color, (x - 0.8, ground - 4, 1.6, 4))

    _at_both_edges(lambda x: pine(x - 2, 26, (16, 34, 38)))
    _at_both_edges(lambda x: pine(x + 5, 18, (10, 24, 28)))
    cv.rect((12, 24, 28), (-2, BAND_BOTTOM - 3, TILE + 4, 4))


def pattern_final(cv: Canvas) -> None:
    """Daylight sky with clouds over rolling green hills."""
    _at_both_edges(lambda x: cv.ellipse((252, 252, 246),
                                        (x - 7, 14, 14, 5)))
    _at_both_edges(lambda x: cv.ellipse((252, 252, 246),
                                        (x - 3, 11, 8, 5)))
    for color, base, amp, phase in (((124, 168, 92), 50.0, 3.0, 0.0),
                                    ((86, 134, 66), 54.0, 2.5, 1.8)):
        pts = [(x, base + amp * math.sin(2 * math.pi * x / TILE + phase))
               for x in range(-2, TILE + 3, 2)]
        cv.poly(color, pts + [(TILE + 2, TILE), (-2, TILE)])


BAND_PATTERNS: dict[str, Callable[[Canvas], None]] = {
    "start": pattern_start, "mine": pattern_mine, "portal": pattern_portal,
    "fear": pattern_fear, "final": pattern_final,
}


# Slot painters --------------------------------------------------------
def slot_start(cv: Canvas) -> None:
    """Worn campsite stone with faint footprints."""
    x, y, w, h = SLOT
    cv.rect((30, 20, 14, 120), (x + 1, y + 2, w, h), radius=10)
    cv.rect((150, 126, 98), (x, y, w, h), radius=10)
    cv.rect((176, 154, 122), (x + 1, y + 1, w - 3, h - 3), radius=9)
    cv.rect((110, 88, 66), (x + 4, y + 4, w - 8, h - 8), radius=7)
    cv.rect((88, 70, 52), (x + 5, y + 5.5, w - 10, h - 11), radius=6)
    prints = cv.layer()
    icon_footprints(prints, 32, 32, 13, (60, 44, 32))
    cv.blend(prints, 110)
    cv.rect((54, 38, 26), (x, y, w, h), 1.2, radius=10)


def slot_mine(cv: Canvas) -> None:
    """Recessed stone socket bound with iron brackets."""
    x, y, w, h = SLOT
    cv.rect((150, 152, 158), (x, y, w, h), radius=4)
    cv.rect((44, 46, 52), (x, y, w - 1.5, h - 1.5), radius=4)
    cv.rect((92, 94, 102), (x + 1.5, y + 1.5, w - 3, h - 3), radius=3)
    cv.rect((36, 38, 44), (x + 5, y + 5, w - 10, h - 10), radius=2)
    cv.rect((52, 54, 62), (x + 6.5, y + 6.5, w - 11.5, h - 11.5),
            radius=2)
    iron, rivet = (168, 168, 176), (230, 230, 236)
    for cx, cy, sx, sy in ((x, y, 1, 1), (x + w, y, -1, 1),
                           (x, y + h, 1, -1), (x + w, y + h, -1, -1)):
        cv.poly(iron, [(cx, cy), (cx + 11 * sx, cy), (cx + 11 * sx,
                       cy + 3.2 * sy), (cx + 3.2 * sx, cy + 3.2 * sy),
                       (cx + 3.2 * sx, cy + 11 * sy), (cx, cy + 11 * sy)])
        cv.circle(rivet, (cx + 1.7 * sx, cy + 1.7 * sy), 0.9)
        cv.circle((60, 60, 66), (cx + 7.5 * sx, cy + 1.6 * sy), 0.7)
        cv.circle((60, 60, 66), (cx + 1.6 * sx, cy + 7.5 * sy), 0.7)


def slot_portal(cv: Canvas) -> None:
    """Glowing arcane circle with rune ticks."""
    c = (32.0, 32.0)
    glow = cv.layer()
    for i in range(8):
        glow.circle(with_alpha(VIOLET_LIGHT, 40), c, 27.5 - i * 0.6)
    cv.blend(glow, 160)
    cv.circle((26, 10, 48), c, 23.5)
    cv.circle((48, 22, 84), c, 21)
    cv.circle((36, 16, 66), c, 16)
    cv.circle((196, 150, 255), c, 23.5, 1.6)
    cv.circle((150, 100, 220), c, 16.5, 0.8)
    for i in range(16):
        a = 2 * math.pi * i / 16
        r1, r2 = (17.8, 20.2) if i % 2 else (17.6, 22)
        cv.stroke((210, 176, 255), [(c[0] + math.cos(a) * r1,
                                     c[1] + math.sin(a) * r1),
                                    (c[0] + math.cos(a) * r2,
                                     c[1] + math.sin(a) * r2)], 0.8)
    star = cv.layer()
    icon_sparkle(star, c[0], c[1], 9, (180, 140, 240))
    cv.blend(star, 90)


def slot_fear(cv: Canvas) -> None:
    """Gnarled dark-wood frame around a moonlit clearing."""
    x, y, w, h = SLOT
    cv.rect((0, 0, 0, 110), (x + 1, y + 2, w, h), radius=7)
    cv.rect((86, 62, 42), (x, y, w, h), radius=7)
    cv.rect((58, 40, 26), (x + 1.5, y + 1.5, w - 3, h - 3), 1.2, radius=6)
    inner = (x + 4.5, y + 4.5, w - 9, h - 9)
    cv.rect((24, 44, 56), inner, radius=4)
    glow = cv.layer()
    glow.circle((90, 130, 150), (42, 20), 9)
    cv.blend(glow, 60)
    cv.circle((214, 226, 232), (42, 20), 4.6)
    cv.circle((24, 44, 56), (44.2, 18.6), 4.2)
    cv.rect((12, 22, 28), inner, 1.2, radius=4)
    scratch = cv.layer()
    for i in range(3):
        dx = i * 3.6
        scratch.taper((8, 14, 18), [(20 + dx, 38), (23 + dx, 44),
                                    (25 + dx, 50)], 1.8)
    cv.blend(scratch, 170)


def slot_final(cv: Canvas) -> None:
    """Red swallow-tail banner hanging from a gilded rod."""
    shadow = [(15.5, 12), (51.5, 12), (51.5, 56), (33.5, 48), (15.5, 56)]
    cv.poly((40, 24, 10, 90), shadow)
    body = [(14, 10), (50, 10), (50, 54), (32, 46), (14, 54)]
    cv.poly(CRIMSON, body)
    cv.poly((198, 50, 56), [(14, 10), (24, 10), (24, 50), (14, 54)])
    cv.poly(CRIMSON_DARK, [(42, 10), (50, 10), (50, 54), (42, 50.3)])
    trim = [(17, 13), (47, 13), (47, 49.6), (32, 42.9), (17, 49.6)]
    cv.stroke(GOLD, trim, 1.1, closed=True)
    cv.poly(CRIMSON_DARK, body, 1.0)
    crest = cv.layer()
    icon_crown(crest, 32, 24, 7)
    cv.blend(crest, 150)
    cv.stroke(WOOD_DARK, [(9, 10), (55, 10)], 3.4)
    cv.stroke(GOLD, [(9, 9.6), (55, 9.6)], 2.0)
    for x in (9.0, 55.0):
        cv.circle(GOLD_DARK, (x, 10), 2.8)
        cv.circle(GOLD_LIGHT, (x - 0.6, 9.4), 1.4)


SLOT_PAINTERS: dict[str, Callable[[Canvas], None]] = {
    "start": slot_start, "mine": slot_mine, "portal": slot_portal,
    "fear": slot_fear, "final": slot_final,
}


# Decor tiles ----------------------------------------------------------
def label_colours(row: str) -> tuple[Color, Color]:
    """Text and shadow colours readable on the row's band."""
    if row == "final":
        return (92, 22, 18), (250, 244, 222)
    return CREAM, (0, 0, 0)


def draw_emblem_tile(row: str) -> pygame.Surface:
    """Row emblem medallion and label for the left band cap."""
    cv = Canvas(TILE, TILE)
    c = (CAP_INSET + (TILE - CAP_INSET) / 2 - 0.5, 26.5)
    medallion(cv, c, 17.5)
    ROW_ICONS[row](cv, c[0], c[1], 10.5)
    ink, shadow = label_colours(row)
    cv.text(ROW_LABELS[row], 8.0, ink, (c[0], 52.5), face=SERIF_COND_BOLD,
            shadow=shadow)
    return cv.finish()


def draw_hint_tile(row: str) -> pygame.Surface:
    """Rule hint on the right band cap: which way the row moves you."""
    cv = Canvas(TILE, TILE)
    cx, cy = (TILE - CAP_INSET) / 2 + 0.5, 30.0
    fill, edge = GOLD_LIGHT, WOOD_DARK
    if row == "final":
        icon_crown(cv, cx, cy - 2, 13)
        caption = "KINGDOM"
    elif row == "fear":
        pts = double_arrow_points(cx, cy - 2, 36, 6, 15, 10)
        caption = "SWAP"
    elif row == "portal":
        pts = arrow_points(cx, cy - 2, 34, 7, 16, 11, 0.0)
        caption = "NEXT"
    elif row == "mine":
        pts = arrow_points(cx, cy - 2, 34, 7, 16, 11, math.pi)
        caption = "NEAREST"
    else:
        pts = arrow_points(cx, cy - 4, 30, 7, 17, 11, -math.pi / 2)
        caption = "CLIMB"
    if row != "final":
        cv.poly((0, 0, 0, 110), [(x + 0.8, y + 1.4) for x, y in pts])
        cv.poly(fill, pts)
        cv.poly(edge, pts, 1.3)
    ink, shadow = label_colours(row)
    cv.text(caption, 7.2, ink, (cx, 51), face=SERIF_COND_BOLD, shadow=shadow)
    return cv.finish()


def draw_number_tile(n: int) -> pygame.Surface:
    """Bronze position coin with the column number."""
    cv = Canvas(TILE, TILE)
    c = (32.0, 29.0)
    medallion(cv, c, 19)
    cv.text(str(n), 22, INK_RED, (c[0], c[1] + 0.5), shadow=GOLD_LIGHT)
    return cv.finish()


def draw_garnet_tile() -> pygame.Surface:
    """Faceted garnet in a gold setting, for the board corners."""
    cv = Canvas(TILE, TILE)
    c = (32.0, 33.0)
    cv.circle((0, 0, 0, 80), (c[0] + 1, c[1] + 1.6), 15)
    cv.circle(GOLD_DARK, c, 15)
    cv.circle(GOLD, c, 13.6)
    for i in range(8):
        a = 2 * math.pi * i / 8 + math.pi / 8
        cv.circle(GOLD_LIGHT, (c[0] + math.cos(a) * 12, c[1] +
                               math.sin(a) * 12), 1.6)
    r = 10.5
    hexa = [(c[0] + math.cos(math.pi / 3 * i) * r,
             c[1] + math.sin(math.pi / 3 * i) * r) for i in range(6)]
    cv.poly((112, 10, 28), hexa)
    table = [(c[0] + math.cos(math.pi / 3 * i) * r * 0.5,
              c[1] + math.sin(math.pi / 3 * i) * r * 0.5) for i in range(6)]
    shades = [(150, 16, 40), (196, 40, 64), (226, 78, 98), (170, 24, 48),
              (120, 10, 30), (96, 6, 22)]
    for i in range(6):
        cv.poly(shades[i], [hexa[i], hexa[(i + 1) % 6], table[(i + 1) % 6],
                            table[i]])
    cv.poly((206, 46, 72), table)
    cv.poly((250, 170, 180), [table[3], table[4], c])
    cv.poly((80, 4, 18), hexa, 0.9)
    return cv.finish()


def draw_title_strip() -> pygame.Surface:
    """Ribbon with the game title spanning nine tiles."""
    w = TILE * 9
    cv = Canvas(w, TILE)
    top, bot = 14.0, 52.0
    tail_dark, body = (26, 40, 82), (40, 60, 116)
    for sign, x0 in ((1, 4.0), (-1, w - 4.0)):
        tail = [(x0, top + 8), (x0 + sign * 46, top + 8),
                (x0 + sign * 46, bot + 8), (x0, bot + 8),
                (x0 + sign * 11, (top + bot) / 2 + 8)]
        cv.poly((0, 0, 0, 80), [(x + 1, y + 1.5) for x, y in tail])
        cv.poly(tail_dark, tail)
        cv.poly((14, 22, 48), tail, 1.0)
        fold = [(x0 + sign * 34, bot), (x0 + sign * 46, bot + 8),
                (x0 + sign * 46, bot)]
        cv.poly((12, 18, 40), fold)
    main = (38.0, top, w - 76.0, bot - top)
    cv.rect((0, 0, 0, 90), (main[0] + 1, top + 2, main[2], main[3]))
    cv.rect(body, main)
    cv.rect((56, 80, 146), (main[0], top, main[2], 9))
    cv.rect((30, 44, 90), (main[0], bot - 8, main[2], 8))
    for y in (top + 3.5, bot - 3.5):
        cv.stroke(GOLD, [(main[0] + 3, y), (main[0] + main[2] - 3, y)], 1.0)
    cv.rect((14, 22, 48), main, 1.0)
    cx, cy = w / 2, (top + bot) / 2
    cv.text("FANTASY  EXPEDITION", 23, GOLD_LIGHT, (cx, cy + 0.5),
            shadow=(10, 14, 30))
    for sign in (-1, 1):
        x = cx + sign * 172
        icon_sparkle(cv, x, cy, 6, GOLD)
        cv.circle(GOLD_LIGHT, (x, cy), 1.2)
        cv.stroke(GOLD, [(x + sign * 10, cy), (x + sign * 62, cy)], 0.9)
    return cv.finish()


LEGEND: tuple[tuple[str, str, str], ...] = (
    ("portal", "Magicians", "finish far LEFT"),
    ("fear", "Werewolves", "finish in the CENTRE"),
    ("mine", "Dwarves", "finish far RIGHT"),
)


def draw_legend_strip() -> pygame.Surface:
    """Team goals legend spanning nine tiles of the bottom band."""
    w = TILE * 9
    cv = Canvas(w, TILE)
    for i, (row, team, goal) in enumerate(LEGEND):
        x0 = i * 192.0
        c = (x0 + 34, 27.0)
        medallion(cv, c, 15)
        ROW_ICONS[row](cv, c[0], c[1], 9)
        cv.text(team, 13, INK, (x0 + 56, 19), anchor="midleft")
        cv.text(goal, 9.6, INK_RED, (x0 + 56, 36), face=SERIF,
                anchor="midleft")
        if i:
            cv.poly(GOLD_DARK, [(x0, 20), (x0 + 3.5, 27), (x0, 34),
                                (x0 - 3.5, 27)])
    return cv.finish()


# Pieces ---------------------------------------------------------------
def token_disc(cv: Canvas, face: Color, rim: Color, r: float = 28.0) -> None:
    """Round bevelled token with a drop shadow."""
    c = (32.0, 31.0)
    cv.circle((0, 0, 0, 100), (c[0] + 1.2, c[1] + 2.2), r + 0.5)
    cv.circle(WOOD_DARK, c, r + 0.5)
    cv.circle(rim, c, r - 0.5)
    cv.circle(mix(rim, (255, 255, 255), 0.35), (c[0] - 0.8, c[1] - 0.8),
              r - 2.4)
    cv.circle(face, c, r - 3.2)


def draw_mine_piece() -> pygame.Surface:
    """Dwarven mine: timbered shaft entrance on a stone token."""
    cv = Canvas(PIECE, PIECE)
    token_disc(cv, (118, 116, 110), (84, 82, 80))
    cv.circle((140, 138, 130), (29, 27), 16)
    cv.circle((118, 116, 110), (32, 31), 15)
    cv.rect((20, 16, 12), (20, 21, 24, 29))
    cv.rect((36, 28, 22), (22, 24, 20, 26))
    for x, y in ((27, 40), (35, 36), (31, 45)):
        cv.circle(GOLD_LIGHT, (x, y), 1.4)
    for x in (16.0, 43.0):
        cv.rect(WOOD_DARK, (x - 0.8, 19.5, 6.6, 32))
        cv.rect(WOOD_LIGHT, (x, 20, 5, 31))
        cv.rect(WOOD, (x + 2.6, 20, 2.4, 31))
    cv.rect(WOOD_DARK, (12.2, 14.2, 39.6, 8.6), radius=1)
    cv.rect(WOOD_LIGHT, (13, 15, 38, 7), radius=1)
    cv.rect(WOOD, (13, 19, 38, 3))
    for x in (15.5, 48.5):
        cv.circle((60, 60, 64), (x, 18.5), 1.1)
    cv.stroke((56, 50, 46), [(27, 50), (23, 56)], 1.6)
    cv.stroke((56, 50, 46), [(37, 50), (41, 56)], 1.6)
    return cv.finish()


def draw_portal_piece() -> pygame.Surface:
    """Magician's portal: swirling violet vortex."""
    cv = Canvas(PIECE, PIECE)
    token_disc(cv, (40, 14, 72), (112, 60, 180))
    c = (32.0, 31.0)
    for i in range(24):
        t = i / 23
        cv.circle(mix((60, 24, 104), (246, 232, 255), t ** 1.6), c,
                  24.5 * (1 - t) + 2)
    arms = cv.layer()
    for k in range(3):
        pts = []
        for i in range(30):
            th = 2.2 * math.pi * i / 29
            r = 23 * (1 - th / (2.5 * math.pi))
            a = th + k * 2 * math.pi / 3
            pts.append((c[0] + math.cos(a) * r, c[1] + math.sin(a) * r))
        arms.taper((255, 240, 255), pts, 4.4)
    cv.blend(arms, 170)
    for i in range(12):
        a = 2 * math.pi * i / 12
        cv.circle(VIOLET_LIGHT, (c[0] + math.cos(a) * 26.6,
                                 c[1] + math.sin(a) * 26.6), 0.8)
    icon_sparkle(cv, 44, 18, 4.5, (255, 255, 255))
    return cv.finish()


def draw_fear_piece(direction: str) -> pygame.Surface:
    """Werewolf fear marker: claw-torn token with a bold direction arrow."""
    cv = Canvas(PIECE, PIECE)
    token_disc(cv, NIGHT, (200, 130, 40))
    moon = cv.layer()
    moon.circle((210, 220, 230), (40, 18), 7)
    moon.circle(NIGHT, (43, 16), 6)
    cv.blend(moon, 200)
    claws = cv.layer()
    icon_claws(claws, 36, 34, 16, (170, 26, 30))
    cv.blend(claws, 150)
    pts = arrow_points(30, 32, 40, 10, 28, 17, math.pi)
    cv.poly((0, 0, 0, 120), [(x + 1, y + 1.6) for x, y in pts])
    cv.poly(AMBER, pts)
    cv.poly((255, 224, 140), arrow_points(30.5, 30.8, 36, 3, 0.1, 0.1,
                                          math.pi)[:4])
    cv.poly((70, 34, 8), pts, 1.5)
    surf = cv.finish()
    if direction == "right":
        surf = pygame.transform.flip(surf, True, False)
    return surf


def draw_pawn() -> pygame.Surface:
    """Greyscale pawn that the game tints (multiply) per player."""
    cv = Canvas(PIECE, PIECE, fringe=(60, 60, 60, 0))
    cv.ellipse((0, 0, 0, 90), (12, 52, 42, 10))
    dark = (64, 64, 64)
    _pawn_silhouette(cv, 1.6, dark)
    shapes = cv.layer()
    _pawn_silhouette(shapes, 0.0, (255, 255, 255))
    body = _pawn_shading()
    body.mask(shapes)
    cv.blend(body)
    cv.ellipse(dark, (21, 25.5, 22, 5.5), 0.9)
    cv.ellipse(dark, (14, 44.5, 36, 7), 0.9)
    return cv.finish()


def _pawn_silhouette(cv: Canvas, grow: float, white: Color) -> None:
    """Head, collar, flared body and base of the pawn, grown by ``grow``."""
    g = grow
    cv.circle(white, (32, 15), 9.5 + g)
    cv.ellipse(white, (21 - g, 25 - g, 22 + 2 * g, 6.5 + 2 * g))
    body = [(26.5, 29)]
    for i in range(1, 11):
        t = i / 10
        body.append((26.5 - 9.5 * t ** 2.2, 29 + 18 * t))
    right = [(64 - x, y) for x, y in body[::-1]]
    pts = body + right
    cv.poly(white, [(x - g if x < 32 else x + g, y) for x, y in pts])
    cv.ellipse(white, (13 - g, 43 - g, 38 + 2 * g, 10 + 2 * g))
    cv.ellipse(white, (11 - g, 47 - g, 42 + 2 * g, 10 + 2 * g))


def _pawn_shading() -> Canvas:
    """Soft light-from-upper-left shading field."""
    cv = Canvas(PIECE, PIECE, fringe=(255, 255, 255, 255))
    for i in range(16):
        t = i / 15
        cv.rect(mix((252, 252, 252), (150, 150, 150), t) + (255,),
                (22 + 24 * t, 0, 40, PIECE))
    hi = cv.layer()
    hi.circle((255, 255, 255), (28.5, 12), 3.2)
    hi.ellipse((255, 255, 255), (21, 31, 4, 12))
    cv.blend(hi, 200)
    return cv


def tint(surf: pygame.Surface, colour: Color) -> pygame.Surface:
    """Multiply-tint a greyscale piece."""
    out = surf.copy()
    out.fill(colour[:3], special_flags=pygame.BLEND_RGB_MULT)
    return out


# Tileset assembly -----------------------------------------------------
def tile_names() -> list[str]:
    """All tile names in tileset order (tile id = list index)."""
    names = ["parchment", *FRAME_EDGES]
    for row in ROWS:
        names += [f"{row}_cap_l", f"{row}_slot", f"{row}_cap_r"]
    names += [f"emblem_{row}" for row in ROWS]
    names += [f"hint_{row}" for row in ROWS]
    names += [f"number_{n}" for n in range(1, 10)]
    names += [f"title_{n}" for n in range(1, 10)]
    names += [f"legend_{n}" for n in range(1, 10)]
    names.append("garnet")
    return names


def render_tiles() -> dict[str, pygame.Surface]:
    """Draw every tile of the tileset."""
    rng = random.Random(1234)
    parch = parchment_base(rng)
    tiles = {"parchment": draw_parchment_tile(parch)}
    for name, edges in FRAME_EDGES.items():
        tiles[name] = draw_frame_tile(edges, parch, rng)
    for row in ROWS:
        base = band_base(row, rng)
        for kind in ("cap_l", "slot", "cap_r"):
            tiles[f"{row}_{kind}"] = draw_band_tile(row, kind, base)
        tiles[f"emblem_{row}"] = draw_emblem_tile(row)
        tiles[f"hint_{row}"] = draw_hint_tile(row)
    for n in range(1, 10):
        tiles[f"number_{n}"] = draw_number_tile(n)
    for prefix, strip in (("title", draw_title_strip()),
                          ("legend", draw_legend_strip())):
        for n in range(1, 10):
            area = pygame.Rect((n - 1) * TILE, 0, TILE, TILE)
            tiles[f"{prefix}_{n}"] = strip.subsurface(area).copy()
    tiles["garnet"] = draw_garnet_tile()
    return tiles


def tileset_size(count: int) -> tuple[int, int]:
    """Pixel size of the tileset image holding ``count`` tiles."""
    rows = -(-count // TILESET_COLUMNS)
    return TILESET_COLUMNS * TILE, rows * TILE


def build_tileset(tiles: dict[str, pygame.Surface]) -> pygame.Surface:
    """Pack tiles into one image in ``tile_names()`` order."""
    names = tile_names()
    sheet = pygame.Surface(tileset_size(len(names)), pygame.SRCALPHA)
    sheet.fill((0, 0, 0, 0))
    for i, name in enumerate(names):
        row, col = divmod(i, TILESET_COLUMNS)
        sheet.blit(tiles[name], (col * TILE, row * TILE))
    return sheet


def tsx_text(image_w: int, image_h: int) -> str:
    """External tileset XML (Tiled 1.8 format)."""
    count = (image_w // TILE) * (image_h // TILE)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<tileset version="1.8" tiledversion="1.8.2" name="expedition" '
        f'tilewidth="{TILE}" tileheight="{TILE}" tilecount="{count}" '
        f'columns="{TILESET_COLUMNS}">\n'
        f' <image source="{TILESET_PNG}" width="{image_w}" '
        f'height="{image_h}"/>\n'
        '</tileset>\n'
    )


# Map assembly ---------------------------------------------------------
def _gid(name: str) -> int:
    return tile_names().index(name) + 1


def background_grid() -> list[list[int]]:
    """Frame around the edge, parchment inside."""
    grid = []
    for y in range(MAP_H):
        v = "t" if y == 0 else "b" if y == MAP_H - 1 else ""
        line = []
        for x in range(MAP_W):
            h = "l" if x == 0 else "r" if x == MAP_W - 1 else ""
            name = f"frame_{v}{h}" if v or h else "parchment"
            line.append(_gid(name))
        grid.append(line)
    return grid


def rows_grid() -> list[list[int]]:
    """Row bands with slot frames."""
    grid = [[0] * MAP_W for _ in range(MAP_H)]
    for row, y in ROW_TILE_Y.items():
        grid[y][0] = _gid(f"{row}_cap_l")
        grid[y][MAP_W - 1] = _gid(f"{row}_cap_r")
        for x in range(1, MAP_W - 1):
            grid[y][x] = _gid(f"{row}_slot")
    return grid


def decor_grid() -> list[list[int]]:
    """Title, emblems, hints, position numbers, legend and garnets."""
    grid = [[0] * MAP_W for _ in range(MAP_H)]
    for y in (HEADER_Y, FOOTER_Y):
        grid[y][0] = grid[y][MAP_W - 1] = _gid("garnet")
    for n in range(1, 10):
        grid[HEADER_Y][n] = _gid(f"title_{n}")
        grid[FOOTER_Y][n] = _gid(f"legend_{n}")
        grid[NUMBERS_Y][n] = _gid(f"number_{n}")
    for row, y in ROW_TILE_Y.items():
        grid[y][0] = _gid(f"emblem_{row}")
        grid[y][MAP_W - 1] = _gid(f"hint_{row}")
    return grid


def _csv(grid: list[list[int]]) -> str:
    return ",\n".join(",".join(str(v) for v in line) for line in grid)


def space_id(row: str, index: int) -> int:
    """Object id of a slot: start-1..9 are 1..9, mine 10..18, etc."""
    return ROWS.index(row) * 9 + index


def space_objects() -> list[str]:
    """XML for the 45 slot rectangles with row/index/up properties."""
    out = []
    for row in ROWS:
        y = ROW_TILE_Y[row] * TILE
        for i in range(1, 10):
            props = [f'    <property name="index" type="int" value="{i}"/>',
                     f'    <property name="row" value="{row}"/>']
            if row != "final":
                up = space_id(ROWS[ROWS.index(row) + 1], i)
                props.append(f'    <property name="up" type="object" '
                             f'value="{up}"/>')
            out.append(
                f'  <object id="{space_id(row, i)}" name="{row}-{i}" '
                f'x="{i * TILE}" y="{y}" width="{TILE}" height="{TILE}">\n'
                '   <properties>\n' + "\n".join(props) + '\n'
                '   </properties>\n'
                '  </object>')
    return out


def tmx_text() -> str:
    """The complete map XML (Tiled 1.8 format, CSV layers)."""
    layers = []
    for lid, (name, grid) in enumerate((("background", background_grid()),
                                        ("rows", rows_grid()),
                                        ("decor", decor_grid())), start=1):
        layers.append(
            f' <layer id="{lid}" name="{name}" width="{MAP_W}" '
            f'height="{MAP_H}">\n  <data encoding="csv">\n'
            f'{_csv(grid)}\n</data>\n </layer>\n')
    objects = "\n".join(space_objects())
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{MAP_W}" height="{MAP_H}" '
        f'tilewidth="{TILE}" tileheight="{TILE}" infinite="0" '
        'backgroundcolor="#2a1a10" nextlayerid="5" nextobjectid="46">\n'
        ' <properties>\n'
        '  <property name="board_kind" value="track"/>\n'
        '  <property name="game" value="fantasy_expedition"/>\n'
        ' </properties>\n'
        f' <tileset firstgid="1" source="{TILESET_TSX}"/>\n'
        + "".join(layers) +
        ' <objectgroup color="#ffd27f" id="4" name="spaces" visible="0">\n'
        f'{objects}\n'
        ' </objectgroup>\n'
        '</map>\n'
    )


# Entry point ----------------------------------------------------------
def write_pieces(out_dir: Path) -> list[Path]:
    """Write the item and pawn PNGs."""
    out_dir.mkdir(parents=True, exist_ok=True)
    pawn = draw_pawn()
    pieces = {
        "mine.png": draw_mine_piece(),
        "portal.png": draw_portal_piece(),
        "fear_left.png": draw_fear_piece("left"),
        "fear_right.png": draw_fear_piece("right"),
        "pawn.png": pawn,
    }
    for n, colour in enumerate(PLAYER_COLOURS, start=1):
        pieces[f"pawn_{n}.png"] = tint(pawn, colour)
    paths = []
    for name, surf in pieces.items():
        path = out_dir / name
        pygame.image.save(surf, str(path))
        paths.append(path)
    return paths


def write_board(out_dir: Path, with_map: bool) -> list[Path]:
    """Write the tileset PNG and TSX (and the TMX when asked)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    sheet = build_tileset(render_tiles())
    png = out_dir / TILESET_PNG
    pygame.image.save(sheet, str(png))
    tsx = out_dir / TILESET_TSX
    tsx.write_text(tsx_text(*sheet.get_size()), encoding="utf-8")
    paths = [png, tsx]
    if with_map:
        tmx = out_dir / MAP_TMX
        tmx.write_text(tmx_text(), encoding="utf-8")
        paths.append(tmx)
    return paths


def main(argv: Sequence[str] | None = None) -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", action="store_true",
                        help=f"also rewrite boards/{MAP_TMX}")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    try:
        for path in write_board(BOARDS_DIR, args.map) + \
                write_pieces(PIECES_DIR):
            print(f"wrote {path.relative_to(ROOT)}")
    finally:
        pygame.quit()


if __name__ == "__main__":
    main()
