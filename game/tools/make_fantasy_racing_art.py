"""Generate the Fantasy Racing board art, tileset, map and piece images.

Run from the repository root::

    SDL_VIDEODRIVER=dummy python -m game.tools.make_fantasy_racing_art [--map]

Always writes ``boards/fantasy_racing_tiles.png``, ``boards/fantasy_racing.tsx``
and the piece images in ``assets/fantasy_racing/``.  With ``--map`` it also
rewrites ``boards/fantasy_racing.tmx`` from the layout below (overwriting
edits made in Tiled).

Everything is drawn with pygame at 4x and smooth-scaled down; the only
randomness is a fixed ``random.Random(2024)`` for the grass texture, so the
output is reproducible.
"""
from __future__ import annotations

import argparse
import math
import os
import random
from pathlib import Path

import pygame

ROOT = Path(__file__).resolve().parents[2]
BOARDS_DIR = ROOT / "boards"
PIECES_DIR = ROOT / "assets" / "fantasy_racing"
TILESET_PNG = "fantasy_racing_tiles.png"
TILESET_TSX = "fantasy_racing.tsx"
MAP_TMX = "fantasy_racing.tmx"
TILE = 64
SS = 4
COLUMNS = 4

#: The track, top (start line) to bottom (finish line).  Legend:
#: ``.`` track, ``B`` barrier, ``R`` rock, ``H`` hole, ``S`` shortcut,
#: ``c`` clover, ``s`` shield, ``g`` gold coin, ``C`` chest.
LAYOUT = (
    "............",
    "...g....g...",
    ".H....C..H..",
    "..S..c..S..s",
    "R....g.....B",
    ".BB.RB.RR.BR",
    "..s..C..C...",
    "...H.S....H.",
    ".C.......g..",
    "....B..R..S.",
    "..S..H....c.",
    "B.RB.RBSRR.B",
    "...s...H..C.",
    "..C...R..g..",
    ".H..B.....H.",
    "....g.......",
)
#: Start slots (slot number -> column on the start row).
STARTS = {1: 1, 2: 7, 3: 4, 4: 10, 5: 2, 6: 8}

#: tile id -> (name, property name, property value)
TILES = [
    ("track", None, None),
    ("start", "line", "start"),
    ("finish", "line", "finish"),
    ("barrier", "obstacle", "barrier"),
    ("rock", "obstacle", "rock"),
    ("hole", "obstacle", "hole"),
    ("shortcut", "obstacle", "shortcut"),
    ("clover", "item", "clover"),
    ("shield", "item", "shield"),
    ("coin", "item", "coin"),
    ("chest", "item", "chest"),
]
TILE_ID = {name: n for n, (name, _k, _v) in enumerate(TILES)}
SYMBOL = {"B": "barrier", "R": "rock", "H": "hole", "S": "shortcut",
          "c": "clover", "s": "shield", "g": "coin", "C": "chest"}

GRASS_A, GRASS_B = (92, 150, 70), (70, 124, 58)
DIRT = (176, 140, 96)
INK = (40, 28, 20)
GOLD = (232, 186, 64)
GOLD_DARK = (150, 104, 30)
STEEL = (188, 194, 204)
STEEL_DARK = (90, 96, 110)
WOOD = (130, 82, 44)
WOOD_DARK = (74, 44, 24)
STONE = (132, 128, 122)
STONE_DARK = (82, 78, 74)
RED = (196, 44, 44)
GREEN = (40, 150, 60)
VIOLET = (150, 90, 220)


def canvas(size: int = TILE) -> pygame.Surface:
    return pygame.Surface((size * SS, size * SS), pygame.SRCALPHA)


def done(surface: pygame.Surface, size: int = TILE) -> pygame.Surface:
    return pygame.transform.smoothscale(surface, (size, size))


def S(v: float) -> int:
    return round(v * SS)


def pts(points, cx=0.0, cy=0.0):
    return [(S(cx + x), S(cy + y)) for x, y in points]


# ------------------------------------------------------------------ tiles
def grass(rng: random.Random) -> pygame.Surface:
    s = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
    for y in range(TILE):
        for x in range(TILE):
            t = rng.random() * 0.35 + 0.5 * (math.sin(x * 0.3 + y * 0.17) * 0.5 + 0.5) * 0.3
            c = tuple(round(a + (b - a) * t) for a, b in zip(GRASS_A, GRASS_B))
            s.set_at((x, y), (*c, 255))
    pygame.draw.rect(s, (60, 100, 48, 255), s.get_rect(), 1)
    return s


def line_tile(base: pygame.Surface, finish: bool) -> pygame.Surface:
    s = base.copy()
    band = 14
    y0 = TILE - band if finish else 0
    for i in range(TILE // 8):
        for j in range(2):
            c = (245, 245, 240) if (i + j) % 2 == 0 else (30, 30, 34)
            pygame.draw.rect(s, c, (i * 8, y0 + j * 7, 8, 7))
    return s


def barrier(base: pygame.Surface) -> pygame.Surface:
    c = canvas()
    for x in (10, 54):
        pygame.draw.rect(c, WOOD_DARK, (S(x - 4), S(14), S(8), S(40)))
    for y, col in ((20, (230, 60, 50)), (36, (245, 235, 225))):
        pygame.draw.polygon(c, col, pts([(4, y), (60, y), (60, y + 12), (4, y + 12)]))
        for k in range(4):
            pygame.draw.polygon(c, (245, 235, 225) if col != (245, 235, 225) else (230, 60, 50),
                                pts([(8 + k * 14, y), (14 + k * 14, y), (10 + k * 14, y + 12),
                                     (4 + k * 14, y + 12)]))
        pygame.draw.rect(c, INK, (S(4), S(y), S(56), S(12)), S(1))
    s = base.copy()
    s.blit(done(c), (0, 0))
    return s


def rock(base: pygame.Surface) -> pygame.Surface:
    c = canvas()
    shape = [(8, 50), (12, 28), (24, 14), (40, 12), (54, 24), (58, 46), (48, 56), (18, 58)]
    pygame.draw.polygon(c, (40, 40, 40, 90), pts(shape, 2, 3))
    pygame.draw.polygon(c, STONE, pts(shape))
    pygame.draw.polygon(c, (160, 156, 150), pts([(14, 30), (24, 16), (38, 14), (30, 28)]))
    pygame.draw.polygon(c, STONE_DARK, pts(shape), S(2))
    pygame.draw.lines(c, STONE_DARK, False, pts([(30, 28), (36, 40), (46, 44)]), S(2))
    s = base.copy()
    s.blit(done(c), (0, 0))
    return s


def hole(base: pygame.Surface) -> pygame.Surface:
    c = canvas()
    pygame.draw.ellipse(c, DIRT, (S(6), S(10), S(52), S(44)))
    pygame.draw.ellipse(c, (24, 16, 10), (S(12), S(16), S(40), S(32)))
    pygame.draw.ellipse(c, (8, 6, 4), (S(18), S(24), S(28), S(18)))
    s = base.copy()
    s.blit(done(c), (0, 0))
    return s


def shortcut(base: pygame.Surface) -> pygame.Surface:
    c = canvas()
    for r, col in ((28, (70, 30, 120)), (22, VIOLET), (15, (190, 150, 255)), (8, (240, 225, 255))):
        pygame.draw.circle(c, col, (S(32), S(32)), S(r))
    for k in range(3):
        a = k * 2 * math.pi / 3
        arc = [(32 + (6 + t) * math.cos(a + t / 9), 32 + (6 + t) * math.sin(a + t / 9))
               for t in range(0, 22, 2)]
        pygame.draw.lines(c, (255, 255, 255), False, pts(arc), S(2))
    s = base.copy()
    s.blit(done(c), (0, 0))
    return s


def draw_clover(c: pygame.Surface, cx: float, cy: float, r: float) -> None:
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        pygame.draw.circle(c, GREEN, (S(cx + dx * r * 0.5), S(cy + dy * r * 0.5)), S(r * 0.5))
        pygame.draw.circle(c, (20, 90, 30), (S(cx + dx * r * 0.5), S(cy + dy * r * 0.5)),
                           S(r * 0.5), S(1))
    pygame.draw.line(c, (20, 90, 30), (S(cx), S(cy)), (S(cx + r * 0.7), S(cy + r * 1.2)), S(2))


def draw_shield(c: pygame.Surface, cx: float, cy: float, r: float) -> None:
    shape = [(-1, -1), (1, -1), (1, 0.1), (0, 1.1), (-1, 0.1)]
    p = [(cx + x * r * 0.85, cy + y * r) for x, y in shape]
    pygame.draw.polygon(c, (60, 90, 170), pts(p))
    pygame.draw.polygon(c, STEEL, pts(p), S(3))
    pygame.draw.line(c, STEEL, (S(cx), S(cy - r * 0.8)), (S(cx), S(cy + r * 0.8)), S(3))


def draw_coin(c: pygame.Surface, cx: float, cy: float, r: float) -> None:
    pygame.draw.circle(c, GOLD_DARK, (S(cx + 1), S(cy + 1)), S(r))
    pygame.draw.circle(c, GOLD, (S(cx), S(cy)), S(r))
    pygame.draw.circle(c, (255, 230, 140), (S(cx), S(cy)), S(r * 0.7), S(2))
    pygame.draw.rect(c, GOLD_DARK, (S(cx - r * 0.15), S(cy - r * 0.45), S(r * 0.3), S(r * 0.9)))


def draw_chest(c: pygame.Surface, cx: float, cy: float, r: float, lid=WOOD) -> None:
    body = (S(cx - r), S(cy - r * 0.3), S(2 * r), S(r * 1.1))
    pygame.draw.rect(c, WOOD, body)
    pygame.draw.ellipse(c, lid, (S(cx - r), S(cy - r * 0.9), S(2 * r), S(r * 1.2)))
    pygame.draw.rect(c, WOOD_DARK, body, S(2))
    pygame.draw.rect(c, GOLD, (S(cx - r), S(cy - r * 0.35), S(2 * r), S(r * 0.18)))
    pygame.draw.rect(c, GOLD, (S(cx - r * 0.15), S(cy - r * 0.3), S(r * 0.3), S(r * 0.4)))


def item_tile(base: pygame.Surface, kind: str) -> pygame.Surface:
    c = canvas()
    pygame.draw.circle(c, (240, 230, 200, 110), (S(32), S(32)), S(26))
    {"clover": lambda: draw_clover(c, 30, 28, 20), "shield": lambda: draw_shield(c, 32, 30, 20),
     "coin": lambda: draw_coin(c, 32, 32, 18), "chest": lambda: draw_chest(c, 32, 36, 22)}[kind]()
    s = base.copy()
    s.blit(done(c), (0, 0))
    return s


# ------------------------------------------------------------------ pieces
CHARACTER_COLOURS = {"goblin": (96, 170, 60), "thief": (90, 90, 110), "elf": (60, 180, 170),
                     "dwarf": (190, 110, 50), "knight": (180, 186, 200),
                     "sorceress": (150, 80, 200), "halfling": (200, 160, 60),
                     "orc": (170, 50, 40)}


def character_piece(key: str) -> pygame.Surface:
    c = canvas()
    col = CHARACTER_COLOURS[key]
    pygame.draw.circle(c, (0, 0, 0, 90), (S(33), S(35)), S(28))
    pygame.draw.circle(c, col, (S(32), S(32)), S(28))
    pygame.draw.circle(c, INK, (S(32), S(32)), S(28), S(2))
    face = {"goblin": (150, 200, 90), "orc": (120, 160, 90)}.get(key, (240, 210, 170))
    pygame.draw.circle(c, face, (S(32), S(30)), S(13))
    for ex in (27, 37):
        pygame.draw.circle(c, INK, (S(ex), S(29)), S(2))
    if key == "goblin":
        for sgn in (-1, 1):
            pygame.draw.polygon(c, face, pts([(32 + sgn * 11, 26), (32 + sgn * 26, 18),
                                              (32 + sgn * 12, 34)]))
    elif key == "thief":
        pygame.draw.rect(c, INK, (S(20), S(25), S(24), S(7)))
        pygame.draw.circle(c, (240, 240, 240), (S(27), S(28)), S(2))
        pygame.draw.circle(c, (240, 240, 240), (S(37), S(28)), S(2))
    elif key == "elf":
        for sgn in (-1, 1):
            pygame.draw.polygon(c, face, pts([(32 + sgn * 12, 28), (32 + sgn * 22, 16),
                                              (32 + sgn * 11, 22)]))
        pygame.draw.arc(c, (250, 220, 80), (S(18), S(12), S(28), S(20)), 0.2, 2.9, S(4))
    elif key == "dwarf":
        pygame.draw.polygon(c, (150, 80, 30), pts([(20, 32), (44, 32), (38, 52), (26, 52)]))
        pygame.draw.arc(c, STEEL_DARK, (S(18), S(12), S(28), S(24)), 0.0, math.pi, S(5))
    elif key == "knight":
        pygame.draw.rect(c, STEEL, (S(19), S(16), S(26), S(22)), border_radius=S(6))
        pygame.draw.rect(c, INK, (S(22), S(26), S(20), S(3)))
        pygame.draw.polygon(c, RED, pts([(32, 16), (28, 4), (38, 8)]))
    elif key == "sorceress":
        pygame.draw.polygon(c, (90, 40, 140), pts([(14, 24), (50, 24), (34, 0)]))
        pygame.draw.circle(c, (250, 220, 80), (S(33), S(14)), S(3))
    elif key == "halfling":
        # curly hair and a gold coin held up
        for hx in (22, 27, 32, 37, 42):
            pygame.draw.circle(c, (110, 70, 30), (S(hx), S(19)), S(4))
        draw_coin(c, 46, 44, 8)
    elif key == "orc":
        # tusks and a spiked helm
        for tx in (28, 36):
            pygame.draw.polygon(c, (245, 240, 220), pts([(tx - 2, 36), (tx + 2, 36), (tx, 31)]))
        pygame.draw.arc(c, STEEL_DARK, (S(18), S(12), S(28), S(24)), 0.0, math.pi, S(5))
        pygame.draw.polygon(c, STEEL, pts([(29, 14), (35, 14), (32, 2)]))
    return done(c)


def object_icon(key: str) -> pygame.Surface:
    c = canvas()
    pygame.draw.circle(c, (250, 240, 215), (S(32), S(32)), S(29))
    pygame.draw.circle(c, INK, (S(32), S(32)), S(29), S(2))
    if key == "magic_spear":
        pygame.draw.line(c, WOOD, (S(14), S(50)), (S(46), S(18)), S(4))
        pygame.draw.polygon(c, (90, 170, 255), pts([(46, 18), (52, 8), (56, 12), (52, 22)]))
    elif key == "throwing_axe":
        pygame.draw.line(c, WOOD, (S(20), S(52)), (S(38), S(16)), S(5))
        pygame.draw.polygon(c, STEEL, pts([(34, 14), (52, 10), (50, 30), (38, 26)]))
    elif key in ("ring_of_fire", "wand_of_fire"):
        if key == "ring_of_fire":
            pygame.draw.circle(c, (250, 120, 30), (S(32), S(32)), S(18), S(6))
        else:
            pygame.draw.line(c, WOOD_DARK, (S(16), S(50)), (S(40), S(26)), S(5))
        for k in range(5 if key == "ring_of_fire" else 1):
            a = k * 2 * math.pi / 5
            x, y = (32 + 18 * math.cos(a), 32 + 18 * math.sin(a)) if key == "ring_of_fire" \
                else (44, 20)
            pygame.draw.circle(c, (255, 200, 40), (S(x), S(y)), S(7))
            pygame.draw.circle(c, (240, 80, 20), (S(x), S(y)), S(4))
    elif key == "trap":
        draw_trap(c, 32, 34, 22)
    elif key == "stealing_gloves":
        pygame.draw.polygon(c, (120, 70, 40), pts([(20, 50), (20, 24), (26, 14), (30, 24),
                                                   (34, 12), (38, 24), (44, 16), (46, 30),
                                                   (44, 50)]))
    elif key == "haste_potion":
        pygame.draw.circle(c, (230, 60, 90), (S(32), S(38)), S(14))
        pygame.draw.rect(c, (200, 220, 240), (S(28), S(14), S(8), S(14)))
    elif key == "mist_cloak":
        pygame.draw.polygon(c, (150, 170, 210), pts([(32, 10), (50, 50), (14, 50)]))
        pygame.draw.circle(c, (220, 230, 250), (S(32), S(20)), S(7))
    elif key == "gold_purse":
        pygame.draw.circle(c, (170, 120, 60), (S(32), S(38)), S(16))
        pygame.draw.polygon(c, (170, 120, 60), pts([(24, 24), (40, 24), (44, 14), (20, 14)]))
        draw_coin(c, 32, 40, 7)
    return done(c)


def draw_trap(c: pygame.Surface, cx: float, cy: float, r: float) -> None:
    pygame.draw.circle(c, STEEL_DARK, (S(cx), S(cy)), S(r), S(4))
    for k in range(8):
        a = k * math.pi / 4
        pygame.draw.polygon(c, STEEL, pts([(cx + r * 0.9 * math.cos(a - 0.2),
                                            cy + r * 0.9 * math.sin(a - 0.2)),
                                           (cx + r * 0.4 * math.cos(a), cy + r * 0.4 * math.sin(a)),
                                           (cx + r * 0.9 * math.cos(a + 0.2),
                                            cy + r * 0.9 * math.sin(a + 0.2))]))
    pygame.draw.circle(c, RED, (S(cx), S(cy)), S(r * 0.2))


def mood_icon(mood: str) -> pygame.Surface:
    c = canvas()
    lid = {"bonus": (60, 170, 70), "even": WOOD, "malus": (190, 50, 50)}[mood]
    draw_chest(c, 32, 36, 24, lid)
    sign = {"bonus": "+", "even": "=", "malus": "-"}[mood]
    pygame.draw.circle(c, lid, (S(50), S(14)), S(12))
    pygame.draw.circle(c, INK, (S(50), S(14)), S(12), S(2))
    w = S(3)
    if sign in "+-":
        pygame.draw.line(c, (255, 255, 255), (S(44), S(14)), (S(56), S(14)), w)
    if sign == "+":
        pygame.draw.line(c, (255, 255, 255), (S(50), S(8)), (S(50), S(20)), w)
    if sign == "=":
        pygame.draw.line(c, (255, 255, 255), (S(44), S(11)), (S(56), S(11)), w)
        pygame.draw.line(c, (255, 255, 255), (S(44), S(17)), (S(56), S(17)), w)
    return done(c)


def simple_piece(kind: str) -> pygame.Surface:
    c = canvas()
    if kind == "trap":
        draw_trap(c, 32, 32, 24)
    elif kind == "rubble":
        for x, y, r in ((18, 40, 7), (30, 44, 6), (44, 38, 8), (38, 28, 5), (22, 28, 4)):
            pygame.draw.circle(c, WOOD_DARK, (S(x), S(y)), S(r))
            pygame.draw.circle(c, WOOD, (S(x - 1), S(y - 1)), S(r - 2))
    else:
        draw = {"clover": draw_clover, "shield": draw_shield, "coin": draw_coin,
                "chest": draw_chest}[kind]
        draw(c, 32, 32, 20)
    return done(c)


# ------------------------------------------------------------------ output
def tsx_text(w: int, h: int) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<tileset version="1.8" tiledversion="1.8.2" name="fantasy_racing" '
             f'tilewidth="{TILE}" tileheight="{TILE}" tilecount="{len(TILES)}" '
             f'columns="{COLUMNS}">',
             f' <image source="{TILESET_PNG}" width="{w}" height="{h}"/>']
    for n, (_name, key, value) in enumerate(TILES):
        if key:
            lines += [f' <tile id="{n}">', '  <properties>',
                      f'   <property name="{key}" value="{value}"/>',
                      '  </properties>', ' </tile>']
    lines.append("</tileset>")
    return "\n".join(lines) + "\n"


def csv(rows: list[list[int]]) -> str:
    return ",\n".join(",".join(str(v) for v in row) for row in rows)


def tmx_text() -> str:
    width, height = len(LAYOUT[0]), len(LAYOUT)
    ground = [[1 + TILE_ID["start" if y == 0 else "finish" if y == height - 1 else "track"]
               for _x in range(width)] for y in range(height)]
    obstacles = [[1 + TILE_ID[SYMBOL[ch]] if ch in "BRHS" else 0 for ch in row] for row in LAYOUT]
    items = [[1 + TILE_ID[SYMBOL[ch]] if ch in "csgC" else 0 for ch in row] for row in LAYOUT]
    objects = []
    for n, (slot, x) in enumerate(sorted(STARTS.items())):
        objects.append(
            f'  <object id="{n + 1}" name="start {slot}" type="start" x="{x * TILE + TILE // 2}" '
            f'y="{TILE // 2}">\n   <properties>\n'
            f'    <property name="slot" type="int" value="{slot}"/>\n'
            f'   </properties>\n   <point/>\n  </object>')
    layers = []
    for n, (name, data) in enumerate((("ground", ground), ("obstacles", obstacles),
                                      ("objects", items))):
        layers.append(f' <layer id="{n + 1}" name="{name}" width="{width}" height="{height}">\n'
                      f'  <data encoding="csv">\n{csv(data)}\n</data>\n </layer>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" '
            f'renderorder="right-down" width="{width}" height="{height}" tilewidth="{TILE}" '
            f'tileheight="{TILE}" infinite="0" backgroundcolor="#243018" nextlayerid="5" '
            f'nextobjectid="{len(STARTS) + 1}">\n'
            f' <properties>\n'
            f'  <property name="board_kind" value="grid"/>\n'
            f'  <property name="game" value="fantasy_racing"/>\n'
            f'  <property name="wrap_x" type="bool" value="true"/>\n'
            f'  <property name="wrap_y" type="bool" value="true"/>\n'
            f' </properties>\n'
            f' <tileset firstgid="1" source="{TILESET_TSX}"/>\n'
            + "\n".join(layers) + "\n"
            ' <objectgroup id="4" name="starts">\n' + "\n".join(objects) +
            "\n </objectgroup>\n</map>\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", action="store_true", help="also rewrite the .tmx map")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.init()
    rng = random.Random(2024)
    base = grass(rng)
    tiles = {"track": base, "start": line_tile(base, False), "finish": line_tile(base, True),
             "barrier": barrier(base), "rock": rock(base), "hole": hole(base),
             "shortcut": shortcut(base)}
    for kind in ("clover", "shield", "coin", "chest"):
        tiles[kind] = item_tile(base, kind)
    rows = (len(TILES) + COLUMNS - 1) // COLUMNS
    sheet = pygame.Surface((COLUMNS * TILE, rows * TILE), pygame.SRCALPHA)
    for n, (name, _k, _v) in enumerate(TILES):
        sheet.blit(tiles[name], ((n % COLUMNS) * TILE, (n // COLUMNS) * TILE))
    BOARDS_DIR.mkdir(exist_ok=True)
    pygame.image.save(sheet, str(BOARDS_DIR / TILESET_PNG))
    (BOARDS_DIR / TILESET_TSX).write_text(tsx_text(*sheet.get_size()), encoding="utf-8")
    PIECES_DIR.mkdir(parents=True, exist_ok=True)
    for key in CHARACTER_COLOURS:
        pygame.image.save(character_piece(key), str(PIECES_DIR / f"char_{key}.png"))
    for key in ("magic_spear", "throwing_axe", "ring_of_fire", "wand_of_fire", "trap",
                "stealing_gloves", "haste_potion", "mist_cloak", "gold_purse"):
        pygame.image.save(object_icon(key), str(PIECES_DIR / f"obj_{key}.png"))
    for mood in ("bonus", "even", "malus"):
        pygame.image.save(mood_icon(mood), str(PIECES_DIR / f"mood_{mood}.png"))
    for kind in ("trap", "rubble", "clover", "shield", "coin", "chest"):
        pygame.image.save(simple_piece(kind), str(PIECES_DIR / f"{kind}.png"))
    if args.map:
        (BOARDS_DIR / MAP_TMX).write_text(tmx_text(), encoding="utf-8")
    print("written:", TILESET_PNG, TILESET_TSX, "pieces", "map" if args.map else "")


if __name__ == "__main__":
    main()
