"""Draw the program's icon: ``assets/icon-<N>.png`` for each size and ``assets/icon.ico``.

Run from the repository root::

    SDL_VIDEODRIVER=dummy python -m game.tools.make_icon [--out DIR]

The picture is a pawn standing on a hex board tile, with a die beside it, on a dark rounded
square with a gold rim (the program's own colours).  It is drawn with pygame at 1024 pixels
or more and halved down to every size; the smallest sizes leave out the die's pips so they do
not turn to mush.  The window (``pygame.display.set_icon``), the desktop entry
(``tabletop --install-desktop``: the hicolor sizes) and the Windows bundle (the ``.ico``,
PNG-compressed entries) all use these files.
"""

from __future__ import annotations

import argparse
import math
import os
import struct
from pathlib import Path

import pygame

ROOT = Path(__file__).resolve().parents[2]
ASSETS_DIR = ROOT / "assets"
#: Every size written; the desktop entry installs the hicolor ones (48 and up).
SIZES = (16, 32, 48, 64, 128, 256)
BIG = 1024

BACK_TOP = (52, 44, 62)
BACK_BOTTOM = (24, 20, 30)
GOLD = (222, 176, 74)
GOLD_DARK = (150, 112, 40)
TILE = (38, 110, 106)
TILE_LIGHT = (64, 150, 140)
PAWN = (236, 228, 210)
PAWN_SHADE = (190, 178, 156)
DIE = (200, 62, 54)
DIE_DARK = (130, 36, 34)
PIP = (250, 244, 232)


def icon_name(size: int) -> str:
    return f"icon-{size}.png"


def _hexagon(center: tuple[float, float], radius: float) -> list[tuple[float, float]]:
    cx, cy = center
    return [(cx + radius * math.cos(math.radians(60 * k + 30)),
             cy + radius * math.sin(math.radians(60 * k + 30))) for k in range(6)]


def _pawn(surface: pygame.Surface, colour: tuple[int, int, int], dx: int = 0,
          dy: int = 0) -> None:
    """A board-game pawn: a round head on a bell-shaped body with a flat foot."""
    s = surface.get_width() / 256
    cx = 118 * s + dx
    pygame.draw.circle(surface, colour, (cx, 86 * s + dy), 27 * s)
    body = [(cx - 18 * s, 108 * s + dy), (cx + 18 * s, 108 * s + dy),
            (cx + 34 * s, 172 * s + dy), (cx - 34 * s, 172 * s + dy)]
    pygame.draw.polygon(surface, colour, body)
    foot = pygame.Rect(0, 0, 92 * s, 24 * s)
    foot.center = (round(cx), round(176 * s + dy))
    pygame.draw.rect(surface, colour, foot, border_radius=round(10 * s))


def draw(big: int = BIG, pips: bool = True) -> pygame.Surface:
    """The icon at ``big`` pixels (transparent corners)."""
    s = big / 256
    surface = pygame.Surface((big, big), pygame.SRCALPHA)
    # The rounded square: a vertical gradient, cut to the shape (the minimum with a mask).
    shape = pygame.Surface((big, big), pygame.SRCALPHA)
    pygame.draw.rect(shape, (255, 255, 255), shape.get_rect().inflate(-16 * s, -16 * s),
                     border_radius=round(48 * s))
    for y in range(big):
        t = y / (big - 1)
        colour = [round(a + (b - a) * t) for a, b in zip(BACK_TOP, BACK_BOTTOM)]
        pygame.draw.line(surface, colour, (0, y), (big, y))
    surface.blit(shape, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    pygame.draw.rect(surface, GOLD, surface.get_rect().inflate(-16 * s, -16 * s),
                     width=round(10 * s), border_radius=round(48 * s))
    # The hex tile, slightly flattened so it reads as lying on a table.
    tile = [(x, 150 * s + (y - 150 * s) * 0.62) for x, y in _hexagon((118 * s, 150 * s), 96 * s)]
    pygame.draw.polygon(surface, TILE, tile)
    inner = [(x, 150 * s + (y - 150 * s) * 0.62)
             for x, y in _hexagon((118 * s, 150 * s), 74 * s)]
    pygame.draw.polygon(surface, TILE_LIGHT, inner, width=round(6 * s))
    pygame.draw.polygon(surface, GOLD, tile, width=round(8 * s))
    # The pawn with its shadow side.
    _pawn(surface, PAWN_SHADE, dx=round(5 * s))
    _pawn(surface, PAWN)
    # The die, tilted, at the bottom right.
    die = pygame.Surface((round(70 * s), round(70 * s)), pygame.SRCALPHA)
    pygame.draw.rect(die, DIE_DARK, die.get_rect(), border_radius=round(14 * s))
    pygame.draw.rect(die, DIE, die.get_rect().inflate(-8 * s, -8 * s),
                     border_radius=round(11 * s))
    if pips:
        w = die.get_width()
        for fx, fy in ((0.28, 0.28), (0.5, 0.5), (0.72, 0.72)):
            pygame.draw.circle(die, PIP, (w * fx, w * fy), 7 * s)
    die = pygame.transform.rotozoom(die, -14, 1)
    surface.blit(die, die.get_rect(center=(round(188 * s), round(184 * s))))
    return surface


def render(size: int) -> pygame.Surface:
    """The icon at ``size`` pixels: drawn at ``size`` times a power of two (at least
    :data:`BIG`) and halved step by step (one big step of smoothscale, or an uneven one, loses
    a little of every colour and of the opacity)."""
    big = size
    while big < BIG:
        big *= 2
    surface = draw(big, pips=size >= 32)
    while surface.get_width() > size:
        half = surface.get_width() // 2
        surface = pygame.transform.smoothscale(surface, (half, half))
    return surface


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows ``.ico`` holding the given PNG files (size -> PNG bytes) as they are."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, data = b"", b""
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size           # 0 means 256 in an icon directory
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        data += png
        offset += len(png)
    return header + entries + data


def write(out: Path) -> list[Path]:
    """Write every size and the ``.ico`` into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written, pngs = [], {}
    for size in SIZES:
        path = out / icon_name(size)
        pygame.image.save(render(size), str(path))
        pngs[size] = path.read_bytes()
        written.append(path)
    ico = out / "icon.ico"
    ico.write_bytes(ico_bytes(pngs))
    written.append(ico)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.tools.make_icon", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ASSETS_DIR,
                        help="where to write the icons (default: assets/)")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    for path in write(args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
