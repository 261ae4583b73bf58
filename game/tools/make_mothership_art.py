"""Generate the TRAP: Mothership Fantasia board: tileset PNG, ``.tsx`` and map.

Run from the repository root::

    SDL_VIDEODRIVER=dummy python -m game.tools.make_mothership_art [--map]

Always writes ``boards/mothership_tiles.png`` and ``boards/mothership.tsx``;
with ``--map`` it also rewrites ``boards/mothership.tmx`` (overwriting edits
made in Tiled).  Everything is drawn with pygame at 4x and smooth-scaled;
the only randomness is a fixed ``random.Random(2024)`` for the star field.

The map is a 15 x 13 grid of 64-pixel cells.  The rules read it through the
tileset's custom tile properties: ``space`` is ``tile`` (one of the 33 tile
spaces), ``gap``, ``start``, ``finish`` or ``track`` (a round-tracker place,
with ``place`` 1..12 and ``zone`` green or red).
"""
from __future__ import annotations

import argparse
import math
import os
import random
from pathlib import Path
from typing import Sequence

import pygame

ROOT = Path(__file__).resolve().parents[2]
BOARDS_DIR = ROOT / "boards"
TILESET_PNG = "mothership_tiles.png"
TILESET_TSX = "mothership.tsx"
MAP_TMX = "mothership.tmx"

TILE = 64
SS = 4
COLUMNS = 8
MAP_W, MAP_H = 15, 13
#: The play area: T tile space, . gap, S start tile, F finish tile.  A wall of gaps
#: down the middle leaves two crossings (top and bottom rows): the shortest way
#: from start to finish is 12 steps.  The escape pod is reached only from the
#: tiles above and below it, which tunes the game (see rules.md, ruling 1).
AREA = (
    ".TTTTT.",
    "TTT.TTT",
    "T.T.T.T",
    "STT.T.F",
    "T.T.T.T",
    "T.T.TTT",
    ".TTTTTT",
)
AREA_X, AREA_Y = 4, 3          # map cell of AREA's top-left corner
TRACK_X, TRACK_Y = 13, 0       # round tracker: places 1..12 downwards
GREEN_PLACES = 8               # places 1-8 green, 9-12 red
TITLE = "MOTHERSHIP  FANTASIA"

HULL = (46, 52, 66)
HULL_DARK = (30, 34, 44)
HULL_LIGHT = (86, 96, 118)
CYAN = (90, 220, 230)
VIOLET = (170, 120, 240)
GREEN = (70, 200, 110)
RED = (220, 70, 70)
GOLD = (236, 190, 90)
WHITE = (240, 244, 250)

Color = tuple[int, ...]


def font(px: int, bold: bool = True) -> pygame.font.Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    path = Path("/usr/share/fonts/truetype/dejavu") / name
    if path.exists():
        return pygame.font.Font(str(path), px)
    return pygame.font.Font(None, round(px * 1.3))


class Canvas:
    """A supersampled surface addressed in final pixels."""

    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        self.surf = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)

    def rect(self, colour: Color, r: Sequence[float], width: float = 0,
             radius: float = 0) -> None:
        pygame.draw.rect(self.surf, colour, pygame.Rect(*(round(v * SS) for v in r)),
                         round(width * SS), border_radius=round(radius * SS))

    def circle(self, colour: Color, c: Sequence[float], r: float, width: float = 0) -> None:
        pygame.draw.circle(self.surf, colour, (c[0] * SS, c[1] * SS), r * SS, round(width * SS))

    def line(self, colour: Color, a: Sequence[float], b: Sequence[float], width: float) -> None:
        pygame.draw.line(self.surf, colour, (a[0] * SS, a[1] * SS), (b[0] * SS, b[1] * SS),
                         max(1, round(width * SS)))

    def poly(self, colour: Color, pts: Sequence[Sequence[float]], width: float = 0) -> None:
        pygame.draw.polygon(self.surf, colour, [(x * SS, y * SS) for x, y in pts],
                            round(width * SS))

    def text(self, s: str, size: float, colour: Color, centre: Sequence[float]) -> None:
        img = font(round(size * SS)).render(s, True, colour)
        self.surf.blit(img, img.get_rect(center=(round(centre[0] * SS), round(centre[1] * SS))))

    def finish(self) -> pygame.Surface:
        return pygame.transform.smoothscale(self.surf, (self.w, self.h))


def hull() -> pygame.Surface:
    cv = Canvas(TILE, TILE)
    cv.rect(HULL, (0, 0, 64, 64))
    cv.rect(HULL_DARK, (0, 0, 64, 64), 1.5)
    for x, y in ((6, 6), (58, 6), (6, 58), (58, 58)):
        cv.circle(HULL_LIGHT, (x, y), 2)
    cv.line(HULL_LIGHT, (2, 32), (62, 32), 0.6)
    return cv.finish()


def slot() -> pygame.Surface:
    cv = Canvas(TILE, TILE)
    cv.rect(HULL, (0, 0, 64, 64))
    cv.rect((20, 24, 34), (4, 4, 56, 56), radius=6)
    cv.rect(CYAN, (4, 4, 56, 56), 1.5, radius=6)
    cv.rect((38, 60, 80), (8, 8, 48, 48), 1, radius=4)
    return cv.finish()


def void(rng: random.Random) -> pygame.Surface:
    cv = Canvas(TILE, TILE)
    cv.rect(HULL, (0, 0, 64, 64))
    cv.rect((6, 6, 16), (2, 2, 60, 60), radius=10)
    for _ in range(14):
        x, y = rng.uniform(8, 56), rng.uniform(8, 56)
        cv.circle((200, 210, 255), (x, y), rng.uniform(0.4, 1.2))
    cv.rect((120, 60, 160), (2, 2, 60, 60), 1.2, radius=10)
    return cv.finish()


def start_pad() -> pygame.Surface:
    cv = Canvas(TILE, TILE)
    cv.rect(HULL, (0, 0, 64, 64))
    cv.circle((24, 60, 40), (32, 32), 28)
    cv.circle(GREEN, (32, 32), 28, 2)
    cv.circle(GREEN, (32, 32), 18, 1)
    cv.text("START", 10, WHITE, (32, 32))
    return cv.finish()


def finish_pod() -> pygame.Surface:
    cv = Canvas(TILE, TILE)
    cv.rect(HULL, (0, 0, 64, 64))
    cv.circle((60, 40, 20), (32, 32), 28)
    cv.circle(GOLD, (32, 32), 28, 2.5)
    for k in range(8):
        a = k * math.pi / 4
        cv.line(GOLD, (32 + 10 * math.cos(a), 32 + 10 * math.sin(a)),
                (32 + 26 * math.cos(a), 32 + 26 * math.sin(a)), 1.2)
    cv.circle((90, 60, 30), (32, 32), 10)
    cv.text("POD", 9, WHITE, (32, 32))
    return cv.finish()


def plate(accent: Color) -> pygame.Surface:
    """A deck plate of the boarding or escape area: one colour, a faint accent grid."""
    cv = Canvas(TILE, TILE)
    cv.rect((56, 62, 78), (0, 0, 64, 64))
    tint = tuple(round(a * 0.25 + b * 0.75) for a, b in zip(accent, (56, 62, 78)))
    cv.line(tint, (32, 0), (32, 64), 0.8)
    cv.line(tint, (0, 32), (64, 32), 0.8)
    cv.circle(HULL_LIGHT, (32, 32), 1.4)
    return cv.finish()


def track_place(n: int) -> pygame.Surface:
    colour = GREEN if n <= GREEN_PLACES else RED
    cv = Canvas(TILE, TILE)
    cv.rect((58, 64, 80), (0, 0, 64, 64))
    cv.rect(tuple(c // 3 for c in colour), (8, 6, 48, 52), radius=8)
    cv.rect(colour, (8, 6, 48, 52), 2, radius=8)
    cv.text(str(n), 22, WHITE, (32, 32))
    if n == 12:
        cv.line(WHITE, (14, 50), (50, 50), 1)
    return cv.finish()


def strip(text: str, tiles: int, colour: Color, size: float = 26) -> list[pygame.Surface]:
    cv = Canvas(TILE * tiles, TILE)
    cv.text(text, size, colour, (TILE * tiles / 2, TILE / 2))
    whole = cv.finish()
    return [whole.subsurface((i * TILE, 0, TILE, TILE)).copy() for i in range(tiles)]


def tile_list() -> list[tuple[str, pygame.Surface, dict[str, object]]]:
    """(name, image, properties) in tileset order."""
    rng = random.Random(2024)
    tiles = [("hull", hull(), {}), ("slot", slot(), {"space": "tile"}),
             ("void", void(rng), {"space": "gap"}), ("start", start_pad(), {"space": "start"}),
             ("finish", finish_pod(), {"space": "finish"}),
             ("start_plate", plate(GREEN), {}), ("finish_plate", plate(GOLD), {})]
    for n in range(1, 13):
        tiles.append((f"track_{n}", track_place(n),
                      {"space": "track", "place": n,
                       "zone": "green" if n <= GREEN_PLACES else "red"}))
    for i, img in enumerate(strip(TITLE, 7, CYAN, 30)):
        tiles.append((f"title_{i}", img, {}))
    for i, img in enumerate(strip("BOARDING", 3, GREEN, 20)):
        tiles.append((f"start_label_{i}", img, {}))
    for i, img in enumerate(strip("ESCAPE", 2, GOLD, 20)):
        tiles.append((f"finish_label_{i}", img, {}))
    for i, img in enumerate(strip("ROUND", 2, WHITE, 16)):
        tiles.append((f"round_label_{i}", img, {}))
    return tiles


def gid(name: str) -> int:
    return [t[0] for t in TILE_NAMES].index(name) + 1


TILE_NAMES: list[tuple[str]] = []


def area_cells() -> dict[tuple[int, int], str]:
    return {(AREA_X + c, AREA_Y + r): ch for r, row in enumerate(AREA) for c, ch in enumerate(row)}


def layers() -> dict[str, list[list[int]]]:
    background = [[gid("hull")] * MAP_W for _ in range(MAP_H)]
    boards = [[0] * MAP_W for _ in range(MAP_H)]
    for y in range(AREA_Y + 1, AREA_Y + 6):
        for x in range(0, AREA_X):
            boards[y][x] = gid("start_plate")
    for y in range(AREA_Y + 1, AREA_Y + 6):
        for x in range(AREA_X + 7, TRACK_X - 1):
            boards[y][x] = gid("finish_plate")
    for y in range(MAP_H):
        for x in range(TRACK_X - 1, MAP_W):
            boards[y][x] = gid("finish_plate")
    spaces = [[0] * MAP_W for _ in range(MAP_H)]
    names = {"T": "slot", ".": "void", "S": "start", "F": "finish"}
    for (x, y), ch in area_cells().items():
        spaces[y][x] = gid(names[ch])
    for n in range(1, 13):
        spaces[TRACK_Y + n - 1][TRACK_X] = gid(f"track_{n}")
    labels = [[0] * MAP_W for _ in range(MAP_H)]
    for i in range(7):
        labels[1][AREA_X + i] = gid(f"title_{i}")
    for i in range(3):
        labels[AREA_Y + 2][i + AREA_X - 3 - 1 + 1] = gid(f"start_label_{i}")
    for i in range(2):
        labels[AREA_Y + 2][AREA_X + 7 + i] = gid(f"finish_label_{i}")
        labels[MAP_H - 1][TRACK_X - 1 + i] = gid(f"round_label_{i}")
    return {"background": background, "boards": boards, "spaces": spaces, "labels": labels}


def tsx_text(w: int, h: int) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<tileset version="1.8" tiledversion="1.8.2" name="mothership" tilewidth="{TILE}" '
           f'tileheight="{TILE}" tilecount="{len(TILE_NAMES)}" columns="{COLUMNS}">',
           f' <image source="{TILESET_PNG}" width="{w}" height="{h}"/>']
    for index, (name, _img, props) in enumerate(TILES):
        if not props:
            continue
        out.append(f' <tile id="{index}">')
        out.append('  <properties>')
        for key, value in props.items():
            kind = ' type="int"' if isinstance(value, int) else ""
            out.append(f'   <property name="{key}"{kind} value="{value}"/>')
        out.append('  </properties>')
        out.append(' </tile>')
    out.append('</tileset>')
    return "\n".join(out) + "\n"


def tmx_text() -> str:
    parts = []
    for lid, (name, grid) in enumerate(layers().items(), start=1):
        csv = ",\n".join(",".join(str(v) for v in row) for row in grid)
        parts.append(f' <layer id="{lid}" name="{name}" width="{MAP_W}" height="{MAP_H}">\n'
                     f'  <data encoding="csv">\n{csv}\n</data>\n </layer>\n')
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" '
            f'renderorder="right-down" width="{MAP_W}" height="{MAP_H}" tilewidth="{TILE}" '
            f'tileheight="{TILE}" infinite="0" backgroundcolor="#14161e" '
            f'nextlayerid="{len(parts) + 2}" nextobjectid="{len(HUD) + 1}">\n'
            ' <properties>\n'
            '  <property name="board_kind" value="grid"/>\n'
            '  <property name="game" value="mothership"/>\n'
            ' </properties>\n'
            f' <tileset firstgid="1" source="{TILESET_TSX}"/>\n' + "".join(parts)
            + hud_xml(len(parts) + 1) + '</map>\n')


#: Screen areas drawn over the hull by the game screen: one card per seat and an info box.
HUD = [(f"seat-{n}", 4 + n * 192, 644, 184, 184) for n in range(4)] + [
    ("info", 8, 8, 240, 176)]


def hud_xml(layer_id: int) -> str:
    objects = "".join(f'  <object id="{i}" name="{name}" x="{x}" y="{y}" width="{w}" '
                      f'height="{h}"/>\n' for i, (name, x, y, w, h) in enumerate(HUD, start=1))
    return (f' <objectgroup color="#5adce6" id="{layer_id}" name="hud" visible="0">\n'
            f'{objects} </objectgroup>\n')


TILES: list[tuple[str, pygame.Surface, dict[str, object]]] = []


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", action="store_true", help=f"also rewrite boards/{MAP_TMX}")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    try:
        TILES[:] = tile_list()
        TILE_NAMES[:] = [(t[0],) for t in TILES]
        rows = -(-len(TILES) // COLUMNS)
        sheet = pygame.Surface((COLUMNS * TILE, rows * TILE), pygame.SRCALPHA)
        for i, (_name, img, _props) in enumerate(TILES):
            sheet.blit(img, ((i % COLUMNS) * TILE, (i // COLUMNS) * TILE))
        BOARDS_DIR.mkdir(parents=True, exist_ok=True)
        pygame.image.save(sheet, str(BOARDS_DIR / TILESET_PNG))
        (BOARDS_DIR / TILESET_TSX).write_text(tsx_text(*sheet.get_size()), encoding="utf-8")
        written = [TILESET_PNG, TILESET_TSX]
        if args.map:
            (BOARDS_DIR / MAP_TMX).write_text(tmx_text(), encoding="utf-8")
            written.append(MAP_TMX)
        for name in written:
            print(f"wrote boards/{name}")
    finally:
        pygame.quit()


if __name__ == "__main__":
    main()
