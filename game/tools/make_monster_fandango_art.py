"""Generate the Monster Fandango hex map, its tileset and the counter icons.

Run from the repository root::

    SDL_VIDEODRIVER=dummy python -m game.tools.make_monster_fandango_art [--map]

Always writes ``boards/monster_fandango_tiles.png``, ``boards/monster_fandango.tsx``
and the counter icons in ``assets/monster_fandango/``.  With ``--map`` it also
rewrites ``boards/monster_fandango.tmx`` (overwriting edits made in Tiled).

The map is a pointy-topped Tiled hexagonal map (``staggeraxis="y"``,
``staggerindex="odd"``), 14 x 10 = 140 hexes.  Tile properties carry the
terrain, the four corners and the two ends of the map; object layers carry
the default starting hexes (per number of players), the known lairs and
where wild monsters roam at the start.
Drawing uses pygame at 4x, smooth-scaled down; the only randomness is a
fixed ``random.Random`` for terrain and texture, so the output is
reproducible.
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
ICONS_DIR = ROOT / "assets" / "monster_fandango"
TILESET_PNG = "monster_fandango_tiles.png"
TILESET_TSX = "monster_fandango.tsx"
MAP_TMX = "monster_fandango.tmx"

TW, TH, SIDE = 56, 64, 32
MAP_W, MAP_H = 14, 10
COLUMNS = 4
SS = 4
ICON = 64

TERRAINS = ("grass", "forest", "hills", "meadow")
#: Terrain is scenery only (no rule reads it), so the kinds are near shades of open ground
#: with the same light strokes: no trees or hills that would look like cover or a slope.
TERRAIN_COLOURS = {
    "grass": ((118, 156, 74), (98, 134, 60)),
    "forest": ((104, 146, 72), (86, 124, 58)),
    "hills": ((136, 156, 84), (114, 134, 66)),
    "meadow": ((132, 166, 84), (110, 144, 68)),
}
#: tile id -> (drawing, properties)
TILES: dict[int, tuple[str, dict[str, str]]] = {
    0: ("grass", {"terrain": "grass"}),
    1: ("forest", {"terrain": "forest"}),
    2: ("hills", {"terrain": "hills"}),
    3: ("meadow", {"terrain": "meadow"}),
    4: ("corner", {"corner": "true"}),
    5: ("west", {"end": "west"}),
    6: ("east", {"end": "east"}),
    7: ("corner_west", {"corner": "true", "end": "west"}),
}
CORNER_EAST = 8  # a corner on the east end
TILES[CORNER_EAST] = ("corner_east", {"corner": "true", "end": "east"})

#: Default starting hexes (col, row) per number of players, in seat order; none lies
#: within two hexes of a roaming place (ruling 35).
STARTS: dict[int, list[tuple[int, int]]] = {
    2: [(2, 5), (12, 4)],
    3: [(2, 5), (10, 0), (10, 7)],
    4: [(1, 4), (7, 1), (12, 5), (6, 8)],
}
#: Known lairs (col, row), drawn on the map.
LAIRS = [(6, 2), (7, 7), (4, 4), (9, 5)]
#: Where wild random monsters roam at the start (col, row).
WILD = [(3, 1), (9, 3), (6, 5), (3, 8), (13, 8), (8, 9)]

MONSTER_ICONS = ("villager", "lizardman", "horror", "elf", "orc", "dwarf", "ratman",
                 "war_dog", "horse", "black_death", "wolf", "troll", "death_beast")
ITEM_ICONS = ("sword", "bow", "crossbow", "sling", "armor", "shield", "potion", "kitten",
              "key", "money_bag", "chest", "lair")


def hex_points(scale: float = 1.0) -> list[tuple[float, float]]:
    """Tiled's outline of a pointy hex tile, in tile pixels."""
    off = (TH - SIDE) / 2
    pts = [(0, TH - off), (0, off), (TW / 2, 0), (TW, off), (TW, TH - off), (TW / 2, TH)]
    return [(x * scale, y * scale) for x, y in pts]


def draw_terrain(name: str, rng: random.Random) -> pygame.Surface:
    big = pygame.Surface((TW * SS, TH * SS), pygame.SRCALPHA)
    light, dark = TERRAIN_COLOURS[name]
    pts = hex_points(SS)
    pygame.draw.polygon(big, light, pts)
    # texture inside the hex
    mask = pygame.Surface(big.get_size(), pygame.SRCALPHA)
    pygame.draw.polygon(mask, (255, 255, 255, 255), [(x, y) for x, y in hex_points(SS * 0.92)],)
    for _ in range(70):
        x, y = rng.uniform(6, TW - 6) * SS, rng.uniform(10, TH - 10) * SS
        if not _inside(x / SS, y / SS, 0.86):
            continue
        pygame.draw.line(big, dark, (x, y), (x + rng.uniform(-1, 1) * SS, y - 3 * SS), SS)
    pygame.draw.polygon(big, (58, 48, 32), pts, SS * 2)
    return pygame.transform.smoothscale(big, (TW, TH))


def _inside(x: float, y: float, k: float) -> bool:
    """Whether a tile pixel lies inside the hex shrunk by ``k`` about its centre."""
    cx, cy = TW / 2, TH / 2
    dx, dy = abs(x - cx) / k, abs(y - cy) / k
    return dx <= TW / 2 and dy <= TH / 2 - dx * ((TH - SIDE) / 2) / (TW / 2)


def draw_mark(name: str) -> pygame.Surface:
    big = pygame.Surface((TW * SS, TH * SS), pygame.SRCALPHA)
    if "corner" in name:
        # a grey standing stone with a white ring: the corner marker
        x, y = TW * 0.5 * SS, TH * 0.5 * SS
        pygame.draw.circle(big, (250, 250, 245, 150), (x, y), 20 * SS, SS * 2)
        stone = [(x - 6 * SS, y + 10 * SS), (x - 4 * SS, y - 10 * SS), (x, y - 14 * SS),
                 (x + 4 * SS, y - 10 * SS), (x + 6 * SS, y + 10 * SS)]
        pygame.draw.polygon(big, (150, 150, 160), stone)
        pygame.draw.polygon(big, (60, 60, 70), stone, SS * 2)
    if "west" in name or "east" in name:
        west = "west" in name
        x = 5 * SS if west else (TW - 5) * SS
        pygame.draw.line(big, (240, 220, 150, 200), (x, 18 * SS), (x, (TH - 18) * SS), SS * 3)
    return pygame.transform.smoothscale(big, (TW, TH))


def tileset_surface() -> pygame.Surface:
    rng = random.Random(1717)
    rows = math.ceil(len(TILES) / COLUMNS)
    sheet = pygame.Surface((COLUMNS * TW, rows * TH), pygame.SRCALPHA)
    for tid, (drawing, _props) in sorted(TILES.items()):
        tile = draw_terrain(drawing, rng) if drawing in TERRAINS else draw_mark(drawing)
        sheet.blit(tile, ((tid % COLUMNS) * TW, (tid // COLUMNS) * TH))
    return sheet


def tsx_text(width: int, height: int) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<tileset version="1.8" tiledversion="1.8.2" name="monster_fandango" '
             f'tilewidth="{TW}" tileheight="{TH}" tilecount="{len(TILES)}" '
             f'columns="{COLUMNS}">',
             f' <image source="{TILESET_PNG}" width="{width}" height="{height}"/>']
    for tid, (_drawing, props) in sorted(TILES.items()):
        lines.append(f' <tile id="{tid}">')
        lines.append('  <properties>')
        for key, value in props.items():
            typ = ' type="bool"' if value == "true" else ""
            lines.append(f'   <property name="{key}"{typ} value="{value}"/>')
        lines.append('  </properties>')
        lines.append(' </tile>')
    lines.append('</tileset>')
    return "\n".join(lines) + "\n"


def terrain_grid() -> list[list[int]]:
    rng = random.Random(42)
    grid = [[0] * MAP_W for _ in range(MAP_H)]
    seeds = [(rng.randrange(MAP_W), rng.randrange(MAP_H), rng.randrange(4)) for _ in range(16)]
    for r in range(MAP_H):
        for c in range(MAP_W):
            best = min(seeds, key=lambda s: (s[0] - c) ** 2 + (s[1] - r) ** 2 * 1.3)
            grid[r][c] = best[2]
    return grid


def marks_grid() -> list[list[int]]:
    grid = [[0] * MAP_W for _ in range(MAP_H)]
    for r in range(MAP_H):
        grid[r][0] = 5 + 1
        grid[r][MAP_W - 1] = 6 + 1
    for c, r in ((0, 0), (0, MAP_H - 1)):
        grid[r][c] = 7 + 1
    for c, r in ((MAP_W - 1, 0), (MAP_W - 1, MAP_H - 1)):
        grid[r][c] = CORNER_EAST + 1
    return grid


def tile_center(col: int, row: int) -> tuple[float, float]:
    x = col * TW + (TW // 2 if row % 2 else 0)
    y = row * (TH - (TH - SIDE) // 2)
    return x + TW / 2, y + TH / 2


def tmx_text() -> str:
    w_px = MAP_W * TW + TW // 2
    csv_t = ",\n".join(",".join(str(g + 1) for g in row) for row in terrain_grid())
    csv_m = ",\n".join(",".join(str(g) for g in row) for row in marks_grid())
    objects = []
    oid = 1
    starts = []
    for players, cells in sorted(STARTS.items()):
        for seat, (c, r) in enumerate(cells, start=1):
            x, y = tile_center(c, r)
            starts.append(
                f'  <object id="{oid}" name="start {players}p seat {seat}" x="{x:g}" y="{y:g}">\n'
                f'   <properties>\n'
                f'    <property name="players" type="int" value="{players}"/>\n'
                f'    <property name="seat" type="int" value="{seat}"/>\n'
                f'   </properties>\n   <point/>\n  </object>')
            oid += 1
    lairs = []
    for n, (c, r) in enumerate(LAIRS, start=1):
        x, y = tile_center(c, r)
        lairs.append(f'  <object id="{oid}" name="lair {n}" x="{x:g}" y="{y:g}">\n'
                     f'   <point/>\n  </object>')
        oid += 1
    wild = []
    for n, (c, r) in enumerate(WILD, start=1):
        x, y = tile_center(c, r)
        wild.append(f'  <object id="{oid}" name="wild {n}" x="{x:g}" y="{y:g}">\n'
                    f'   <point/>\n  </object>')
        oid += 1
    del w_px, objects
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{MAP_W}" height="{MAP_H}" tilewidth="{TW}" tileheight="{TH}" infinite="0" hexsidelength="{SIDE}" staggeraxis="y" staggerindex="odd" backgroundcolor="#1e2a1c" nextlayerid="6" nextobjectid="{oid}">
 <properties>
  <property name="board_kind" value="hex"/>
  <property name="game" value="monster_fandango"/>
 </properties>
 <tileset firstgid="1" source="{TILESET_TSX}"/>
 <layer id="1" name="terrain" width="{MAP_W}" height="{MAP_H}">
  <data encoding="csv">
{csv_t}
</data>
 </layer>
 <layer id="2" name="marks" width="{MAP_W}" height="{MAP_H}">
  <data encoding="csv">
{csv_m}
</data>
 </layer>
 <objectgroup id="3" name="starts">
{chr(10).join(starts)}
 </objectgroup>
 <objectgroup id="4" name="lairs">
{chr(10).join(lairs)}
 </objectgroup>
 <objectgroup id="5" name="wild">
{chr(10).join(wild)}
 </objectgroup>
</map>
"""


# Counter icons -----------------------------------------------------------------
def _icon_canvas() -> pygame.Surface:
    return pygame.Surface((ICON * SS, ICON * SS), pygame.SRCALPHA)


def _p(pts: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points in a 0..1 box -> supersampled icon pixels."""
    return [(x * ICON * SS, y * ICON * SS) for x, y in pts]


INK = (30, 24, 20)


def box(x: float, y: float, w: float, h: float) -> pygame.Rect:
    """A rectangle given in a 0..1 icon box, in supersampled icon pixels."""
    k = ICON * SS
    return pygame.Rect(round(x * k), round(y * k), round(w * k), round(h * k))


def draw_icon(name: str) -> pygame.Surface:
    """A simple silhouette for a monster or item, black on transparent."""
    s = _icon_canvas()
    c = lambda x, y, r: pygame.draw.circle(s, INK, (x * ICON * SS, y * ICON * SS), r * ICON * SS)
    poly = lambda pts: pygame.draw.polygon(s, INK, _p(pts))
    line = lambda a, b, w: pygame.draw.line(s, INK, _p([a])[0], _p([b])[0], int(w * ICON * SS))
    if name == "villager":
        c(.5, .3, .13); poly([(.3, .85), (.36, .48), (.64, .48), (.7, .85)])
        line((.72, .3), (.72, .88), .04); poly([(.64, .22), (.8, .22), (.72, .3)])
    elif name == "lizardman":
        poly([(.3, .3), (.62, .2), (.75, .3), (.55, .38)]); c(.62, .27, .06)
        poly([(.4, .36), (.58, .38), (.6, .75), (.4, .75)])
        line((.45, .75), (.2, .9), .06); line((.4, .45), (.25, .6), .05)
    elif name == "horror":
        poly([(.5, .1), (.78, .4), (.75, .9), (.62, .78), (.5, .92), (.38, .78), (.25, .9),
              (.22, .4)])
        pygame.draw.circle(s, (255, 240, 200), _p([(.42, .38)])[0], .05 * ICON * SS)
        pygame.draw.circle(s, (255, 240, 200), _p([(.58, .38)])[0], .05 * ICON * SS)
    elif name == "elf":
        c(.45, .28, .11); poly([(.33, .25), (.2, .14), (.36, .3)])
        poly([(.3, .88), (.36, .44), (.54, .44), (.6, .88)])
        pygame.draw.arc(s, INK, box(.55, .25, .3, .55),
                        -1.4, 1.4, int(.04 * ICON * SS))
    elif name == "orc":
        c(.5, .3, .15); poly([(.38, .38), (.42, .3), (.35, .2)])
        poly([(.25, .9), (.3, .48), (.7, .48), (.75, .9)])
        line((.78, .2), (.78, .7), .05); poly([(.7, .2), (.9, .2), (.9, .35), (.7, .35)])
    elif name == "dwarf":
        c(.5, .3, .13); poly([(.38, .34), (.62, .34), (.5, .62)])
        poly([(.28, .88), (.32, .5), (.68, .5), (.72, .88)])
        line((.2, .3), (.2, .75), .05); poly([(.1, .28), (.3, .28), (.2, .38)])
    elif name == "ratman":
        c(.5, .32, .12)
        poly([(.4, .2), (.36, .1), (.46, .18)])
        poly([(.6, .2), (.64, .1), (.54, .18)])
        poly([(.35, .85), (.4, .45), (.6, .45), (.65, .85)])
        pygame.draw.arc(s, INK, box(.5, .6, .35, .3),
                        -1.5, 1.5, int(.03 * ICON * SS))
    elif name in ("war_dog", "wolf"):
        poly([(.15, .45), (.3, .3), (.42, .4), (.78, .42), (.85, .55), (.8, .85), (.72, .85),
              (.7, .62), (.38, .62), (.34, .85), (.26, .85), (.25, .55)])
        poly([(.28, .32), (.32, .16), (.38, .34)])
        if name == "war_dog":
            pygame.draw.line(s, (200, 40, 40), _p([(.28, .45)])[0], _p([(.4, .48)])[0],
                             int(.05 * ICON * SS))
        else:
            poly([(.78, .45), (.95, .3), (.86, .5)])
    elif name == "horse":
        poly([(.2, .2), (.35, .18), (.42, .42), (.78, .42), (.85, .55), (.8, .88), (.72, .88),
              (.7, .65), (.4, .65), (.36, .88), (.28, .88), (.3, .5), (.15, .32)])
    elif name == "black_death":
        poly([(.5, .08), (.85, .5), (.7, .92), (.3, .92), (.15, .5)])
        pygame.draw.circle(s, (220, 40, 40), _p([(.4, .45)])[0], .05 * ICON * SS)
        pygame.draw.circle(s, (220, 40, 40), _p([(.6, .45)])[0], .05 * ICON * SS)
    elif name == "troll":
        c(.5, .25, .12); poly([(.2, .9), (.25, .4), (.75, .4), (.8, .9)])
        line((.15, .45), (.1, .85), .08)
    elif name == "death_beast":
        poly([(.1, .55), (.3, .3), (.5, .4), (.7, .25), (.92, .5), (.8, .85), (.2, .85)])
        for x in (.3, .5, .7):
            poly([(x - .05, .85), (x, .97), (x + .05, .85)])
        poly([(.62, .28), (.7, .08), (.74, .28)])
    elif name == "sword":
        line((.25, .8), (.75, .2), .07); line((.3, .6), (.45, .75), .07)
    elif name in ("bow", "crossbow", "sling"):
        if name == "sling":
            pygame.draw.arc(s, INK, box(.25, .3, .5, .5),
                            3.4, 6.0, int(.05 * ICON * SS)); c(.5, .78, .08)
        else:
            pygame.draw.arc(s, INK, box(.2, .15, .45, .7),
                            -1.5, 1.5, int(.05 * ICON * SS))
            line((.42, .15), (.42, .85), .02); line((.2, .5), (.8, .5), .03)
            if name == "crossbow":
                line((.8, .5), (.9, .5), .1)
    elif name in ("armor", "shield"):
        if name == "shield":
            poly([(.25, .2), (.75, .2), (.72, .6), (.5, .88), (.28, .6)])
        else:
            poly([(.25, .22), (.4, .18), (.5, .28), (.6, .18), (.75, .22), (.7, .85), (.3, .85)])
    elif name == "potion":
        c(.5, .62, .22); poly([(.43, .2), (.57, .2), (.57, .45), (.43, .45)])
    elif name == "kitten":
        c(.5, .58, .22)
        poly([(.3, .45), (.33, .2), (.45, .38)])
        poly([(.7, .45), (.67, .2), (.55, .38)])
    elif name == "key":
        pygame.draw.circle(s, INK, _p([(.3, .5)])[0], .15 * ICON * SS, int(.06 * ICON * SS))
        line((.42, .5), (.88, .5), .07)
        line((.8, .5), (.8, .65), .06)
        line((.7, .5), (.7, .62), .06)
    elif name == "money_bag":
        c(.5, .62, .25); poly([(.4, .2), (.6, .2), (.56, .38), (.44, .38)])
    elif name == "chest":
        poly([(.15, .4), (.85, .4), (.85, .82), (.15, .82)])
        pygame.draw.ellipse(s, INK, box(.15, .22, .7, .32))
        pygame.draw.rect(s, (230, 190, 80), box(.45, .45, .1, .14))
    elif name == "lair":
        pygame.draw.ellipse(s, INK, box(.1, .3, .8, .6))
        pygame.draw.ellipse(s, (0, 0, 0, 0), box(.3, .5, .4, .4))
    return pygame.transform.smoothscale(s, (ICON, ICON))


def generate(out_dir: Path = BOARDS_DIR, icons_dir: Path = ICONS_DIR,
             write_map: bool = False) -> list[Path]:
    pygame.init()
    out_dir.mkdir(parents=True, exist_ok=True)
    icons_dir.mkdir(parents=True, exist_ok=True)
    sheet = tileset_surface()
    png = out_dir / TILESET_PNG
    pygame.image.save(sheet, str(png))
    tsx = out_dir / TILESET_TSX
    tsx.write_text(tsx_text(*sheet.get_size()), encoding="utf-8")
    written = [png, tsx]
    for name in MONSTER_ICONS + ITEM_ICONS:
        path = icons_dir / f"{name}.png"
        pygame.image.save(draw_icon(name), str(path))
        written.append(path)
    if write_map:
        tmx = out_dir / MAP_TMX
        tmx.write_text(tmx_text(), encoding="utf-8")
        written.append(tmx)
    return written


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", action="store_true", help="also rewrite the .tmx map")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    for path in generate(write_map=args.map):
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
