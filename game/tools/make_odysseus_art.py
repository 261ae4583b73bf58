"""Generate the Odysseus: Winds of Fate sea map, its tileset and piece art.

Run from the repository root::

    SDL_VIDEODRIVER=dummy python -m game.tools.make_odysseus_art

Writes ``boards/odysseus_tiles.png`` (the whole board picture cut into
64-pixel tiles), ``boards/odysseus.tsx``, ``boards/odysseus.tmx`` (tile layer
plus the object layers the rules and the screen read: the sea spaces with
their ``calm`` and ``stormy`` object-reference links, the twelve round-track
spaces and the side areas) and the encounter-tile pictures in
``assets/odysseus/``.  Everything is drawn with pygame at 2x and smoothly
scaled down; the only randomness is a fixed ``random.Random(1873)`` for the
waves, so the output is reproducible.
"""
from __future__ import annotations

import math
import os
import random
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pygame

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ROOT / "boards"
ASSETS = ROOT / "assets" / "odysseus"
TILE = 64
COLS, ROWS = 20, 16                     # map of 1280 x 1024 pixels
W, H = COLS * TILE, ROWS * TILE
SS = 2

# Sea spaces: name -> (centre x, centre y, label, calm target, stormy target).
SPACES: dict[str, tuple[int, int, str, str | None, str | None]] = {
    "troy":   (105, 560, "Troy", "sea1", "sea2"),
    "sea1":   (300, 570, "Sea 1", "sea3", "sea2"),
    "sea2":   (170, 375, "Sea 2", "sea4", "troy"),
    "sea3":   (495, 545, "Sea 3", "sea5", "sea4"),
    "sea4":   (365, 320, "Sea 4", "sea6", "sea1"),
    "sea5":   (690, 520, "Sea 5", "sea8", "sea7"),
    "sea6":   (560, 330, "Sea 6", "sea9", "sea3"),
    "sea7":   (300, 120, "Sea 7", "sea9", "sea4"),
    "sea8":   (780, 340, "Sea 8", "ithaca", "sea5"),
    "sea9":   (545, 110, "Sea 9", "ithaca", "sea7"),
    "ithaca": (780, 105, "Ithaca", None, None),
}
SPACE_W, SPACE_H = 128, 88
SEA_RECT = (0, 0, 880, 640)
ROUND_Y, ROUND_W, ROUND_H, ROUND_X0, ROUND_STEP = 660, 94, 106, 44, 100
#: Room under the round track for the screen's line about bets.
CAPTION_H = 24
AREAS = {  # name -> (x, y, w, h, title)
    "scoreboard": (896, 16, 368, 300, "Score board"),
    "supply": (896, 326, 368, 124, "Supply"),
    "rewards": (896, 460, 368, 172, "Reward tiles"),
    "hand": (16, 800, 1248, 208, "At the screen"),
}

SEA_TOP, SEA_BOTTOM = (28, 70, 110), (18, 96, 132)
SAND, GRASS, ROCK = (226, 204, 150), (96, 146, 78), (128, 116, 100)
PARCH, INK, WOOD, GOLD = (232, 214, 172), (60, 40, 24), (70, 46, 30), (214, 170, 72)
CALM, STORM = (236, 246, 255), (196, 52, 44)
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"

TILE_ART = {  # encounter tile -> (colour, glyph drawing)
    "aeolia": ((120, 180, 220), "wind"), "calypso": ((190, 120, 170), "heart"),
    "charybdis": ((40, 80, 140), "whirl"), "circe": ((130, 90, 170), "cup"),
    "cyclops": ((170, 90, 50), "eye"), "laestrygonians": ((150, 60, 50), "rock"),
    "lotophagi": ((200, 160, 80), "flower"), "scheria": ((90, 150, 110), "ship"),
    "scylla": ((90, 60, 90), "fang"), "sirens": ((70, 150, 160), "note"),
}


def font(px: int) -> pygame.font.Font:
    if os.path.exists(SERIF):
        return pygame.font.Font(SERIF, px)
    return pygame.font.Font(None, round(px * 1.3))


def text(surf: pygame.Surface, s: str, px: int, colour, center) -> None:
    img = font(px).render(s, True, colour)
    surf.blit(img, img.get_rect(center=center))


def s(v: float) -> int:
    return round(v * SS)


def curve(a, b, bend: float, steps: int = 40) -> list[tuple[float, float]]:
    """A quadratic curve from a to b bowed sideways by ``bend`` pixels."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1
    cx, cy = mx - dy / length * bend, my + dx / length * bend
    out = []
    for i in range(steps + 1):
        t = i / steps
        out.append(((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * cx + t * t * b[0],
                    (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * cy + t * t * b[1]))
    return out


def trim(points, a_pad: float, b_pad: float):
    """Drop the parts of a polyline within the pads of its ends (inside the islands)."""
    a, b = points[0], points[-1]
    return [p for p in points if math.dist(p, a) > a_pad and math.dist(p, b) > b_pad]


def arrow_head(surf, colour, tip, prev, size) -> None:
    ang = math.atan2(tip[1] - prev[1], tip[0] - prev[0])
    pts = [tip, (tip[0] - size * math.cos(ang - 0.45), tip[1] - size * math.sin(ang - 0.45)),
           (tip[0] - size * math.cos(ang + 0.45), tip[1] - size * math.sin(ang + 0.45))]
    pygame.draw.polygon(surf, colour, [(s(x), s(y)) for x, y in pts])


def path_points(kind: str, source: str, target: str) -> list[tuple[float, float]]:
    """A path's curve. Calm paths bow one way, stormy ones the other; a stormy path that
    runs back along a calm one (Circe to Scheria, Aeolia to Cyclops) bows to the far side
    of it, so that the two never lie on top of each other."""
    a = SPACES[source][:2]
    b = SPACES[target][:2]
    bend = 26 if kind == "calm" else -46
    if kind == "stormy" and SPACES[target][3] == source:  # the reverse of a calm path
        bend = 46
    return trim(curve(a, b, bend), 58, 62)


def draw_path(surf, kind: str, source: str, target: str) -> None:
    pts = path_points(kind, source, target)
    if len(pts) < 3:
        return
    if kind == "calm":
        pygame.draw.lines(surf, (20, 50, 80), False, [(s(x), s(y)) for x, y in pts], s(7))
        pygame.draw.lines(surf, CALM, False, [(s(x), s(y)) for x, y in pts], s(4))
        arrow_head(surf, CALM, pts[-1], pts[-4], 18)
    else:
        for i in range(0, len(pts) - 2, 3):  # dashes with a zigzag
            seg = pts[i:i + 3]
            pygame.draw.lines(surf, (60, 10, 10), False, [(s(x), s(y)) for x, y in seg], s(7))
            pygame.draw.lines(surf, STORM, False, [(s(x), s(y)) for x, y in seg], s(4))
        arrow_head(surf, STORM, pts[-1], pts[-4], 18)


def island(surf, cx, cy, rng: random.Random, big: bool = False) -> None:
    rx, ry = (SPACE_W / 2 + 10, SPACE_H / 2 + 8)
    pts = []
    for i in range(28):
        a = i / 28 * math.tau
        r = 1 + rng.uniform(-0.08, 0.1)
        pts.append((cx + math.cos(a) * rx * r, cy + math.sin(a) * ry * r))
    pygame.draw.polygon(surf, (200, 230, 240), [(s(x), s(y + 4)) for x, y in pts])
    pygame.draw.polygon(surf, SAND, [(s(x), s(y)) for x, y in pts])
    inner = [(cx + (x - cx) * 0.78, cy + (y - cy) * 0.72) for x, y in pts]
    pygame.draw.polygon(surf, GRASS, [(s(x), s(y)) for x, y in inner])


def draw_troy(surf, cx, cy) -> None:
    pygame.draw.rect(surf, ROCK, (s(cx - 40), s(cy - 26), s(80), s(40)))
    for i in range(5):
        pygame.draw.rect(surf, ROCK, (s(cx - 40 + i * 18), s(cy - 34), s(10), s(10)))
    pygame.draw.rect(surf, INK, (s(cx - 9), s(cy - 6), s(18), s(20)))


def draw_ithaca(surf, cx, cy) -> None:
    pygame.draw.polygon(surf, (240, 236, 220), [(s(cx - 44), s(cy - 8)), (s(cx), s(cy - 36)),
                                                (s(cx + 44), s(cy - 8))])
    for i in range(5):
        pygame.draw.rect(surf, (240, 236, 220), (s(cx - 38 + i * 18), s(cy - 8), s(8), s(30)))
    pygame.draw.rect(surf, (240, 236, 220), (s(cx - 44), s(cy + 20), s(88), s(6)))


def panel(surf, rect, title, dark: bool = False) -> None:
    x, y, w, h = rect
    fill = WOOD if dark else PARCH
    pygame.draw.rect(surf, (30, 20, 12), (s(x), s(y + 3), s(w), s(h)), border_radius=s(12))
    pygame.draw.rect(surf, fill, (s(x), s(y), s(w), s(h)), border_radius=s(12))
    pygame.draw.rect(surf, GOLD, (s(x), s(y), s(w), s(h)), s(3), border_radius=s(12))
    tx = font(s(18)).render(title, True, GOLD if dark else INK)
    surf.blit(tx, (s(x + 14), s(y + 8)))


def board_picture() -> pygame.Surface:
    rng = random.Random(1873)
    big = pygame.Surface((s(W), s(H)))
    big.fill((40, 28, 20))
    sx, sy, sw, sh = SEA_RECT
    for yy in range(sh):
        t = yy / sh
        colour = tuple(round(a + (b - a) * t) for a, b in zip(SEA_TOP, SEA_BOTTOM))
        pygame.draw.rect(big, colour, (s(sx), s(sy + yy), s(sw), s(1) + 1))
    for _ in range(260):
        x, y = rng.uniform(10, sw - 30), rng.uniform(10, sh - 10)
        pygame.draw.arc(big, (70, 130, 170), (s(x), s(y), s(18), s(8)), 0.3, 2.8, s(2))
    pygame.draw.rect(big, GOLD, (s(sx + 4), s(sy + 4), s(sw - 8), s(sh - 8)), s(3),
                     border_radius=s(10))
    text(big, "The Wine-Dark Sea", s(20), (200, 220, 235), (s(sw - 130), s(sh - 22)))
    for name, (cx, cy, _label, calm, stormy) in SPACES.items():
        if calm:
            draw_path(big, "stormy", name, stormy)
    for name, (cx, cy, _label, calm, stormy) in SPACES.items():
        if calm:
            draw_path(big, "calm", name, calm)
    for name, (cx, cy, label, _c, _s) in SPACES.items():
        island(big, cx, cy, rng)
        if name == "troy":
            draw_troy(big, cx, cy)
        elif name == "ithaca":
            draw_ithaca(big, cx, cy)
    # legend
    lx, ly = 24, 24
    pygame.draw.rect(big, (16, 40, 64), (s(lx - 10), s(ly - 10), s(200), s(64)),
                     border_radius=s(8))
    pygame.draw.line(big, CALM, (s(lx), s(ly + 8)), (s(lx + 40), s(ly + 8)), s(4))
    pygame.draw.line(big, STORM, (s(lx), s(ly + 34)), (s(lx + 14), s(ly + 34)), s(4))
    pygame.draw.line(big, STORM, (s(lx + 24), s(ly + 34)), (s(lx + 40), s(ly + 34)), s(4))
    for label, yy in (("Calm path (won)", 8), ("Stormy path (lost)", 34)):
        img = font(s(13)).render(label, True, (230, 236, 240))
        big.blit(img, img.get_rect(midleft=(s(lx + 50), s(ly + yy))))
    # side panels and the round track
    for name, (x, y, w, h, title) in AREAS.items():
        panel(big, (x, y, w, h), title, dark=name == "hand")
    panel(big, (16, ROUND_Y - 14, 1248, ROUND_H + 14 + CAPTION_H), "")
    for i in range(12):
        x = ROUND_X0 + i * ROUND_STEP
        colour = (196, 170, 120) if i < 11 else (214, 150, 110)
        pygame.draw.rect(big, colour, (s(x), s(ROUND_Y), s(ROUND_W), s(ROUND_H)),
                         border_radius=s(8))
        pygame.draw.rect(big, INK, (s(x), s(ROUND_Y), s(ROUND_W), s(ROUND_H)), s(2),
                         border_radius=s(8))
        text(big, str(i + 1), s(26), INK, (s(x + ROUND_W / 2), s(ROUND_Y + 22)))
    return pygame.transform.smoothscale(big, (W, H))


def encounter_tile(name: str, size: int = 96) -> pygame.Surface:
    """A square Encounter tile picture (the screen writes the name under it)."""
    colour, glyph = TILE_ART[name]
    big = pygame.Surface((s(size), s(size)), pygame.SRCALPHA)
    c = s(size) // 2
    pygame.draw.circle(big, colour, (c, c), c - s(2))
    pygame.draw.circle(big, GOLD, (c, c), c - s(2), s(4))
    white = (250, 246, 236)
    r = s(size) * 0.3
    if glyph == "wind":
        for k in range(3):
            pygame.draw.arc(big, white, (c - r, c - r + k * r * 0.5 - r * 0.4, 2 * r, r), 0,
                            math.pi, s(4))
    elif glyph == "heart":
        pygame.draw.circle(big, white, (c - r * 0.45, c - r * 0.2), r * 0.5)
        pygame.draw.circle(big, white, (c + r * 0.45, c - r * 0.2), r * 0.5)
        pygame.draw.polygon(big, white, [(c - r * 0.93, c), (c + r * 0.93, c), (c, c + r)])
    elif glyph == "whirl":
        pts = [(c + math.cos(a / 6) * a * r / 28, c + math.sin(a / 6) * a * r / 28)
               for a in range(1, 30)]
        pygame.draw.lines(big, white, False, pts, s(4))
    elif glyph == "cup":
        pygame.draw.polygon(big, white, [(c - r, c - r * 0.6), (c + r, c - r * 0.6),
                                         (c + r * 0.2, c + r * 0.2), (c - r * 0.2, c + r * 0.2)])
        pygame.draw.rect(big, white, (c - r * 0.1, c + r * 0.2, r * 0.2, r * 0.5))
        pygame.draw.rect(big, white, (c - r * 0.5, c + r * 0.7, r, r * 0.18))
    elif glyph == "eye":
        pygame.draw.ellipse(big, white, (c - r, c - r * 0.55, 2 * r, 1.1 * r))
        pygame.draw.circle(big, (60, 30, 20), (c, c), r * 0.38)
    elif glyph == "rock":
        pygame.draw.polygon(big, white, [(c - r, c + r * 0.7), (c - r * 0.5, c - r * 0.6),
                                         (c + r * 0.3, c - r * 0.8), (c + r, c + r * 0.7)])
    elif glyph == "flower":
        for k in range(6):
            a = k * math.tau / 6
            pygame.draw.circle(big, white, (c + math.cos(a) * r * 0.55,
                                            c + math.sin(a) * r * 0.55), r * 0.35)
        pygame.draw.circle(big, (230, 180, 60), (c, c), r * 0.3)
    elif glyph == "ship":
        pygame.draw.polygon(big, white, [(c - r, c + r * 0.2), (c + r, c + r * 0.2),
                                         (c + r * 0.6, c + r * 0.7), (c - r * 0.6, c + r * 0.7)])
        pygame.draw.polygon(big, white, [(c, c - r), (c, c + r * 0.1), (c + r * 0.7, c + r * 0.1)])
    elif glyph == "fang":
        for k in range(3):
            x = c - r + k * r * 0.7
            pygame.draw.polygon(big, white, [(x, c - r * 0.6), (x + r * 0.6, c - r * 0.6),
                                             (x + r * 0.3, c + r * 0.8)])
    elif glyph == "note":
        pygame.draw.circle(big, white, (c - r * 0.3, c + r * 0.5), r * 0.3)
        pygame.draw.rect(big, white, (c - r * 0.05, c - r * 0.8, r * 0.14, r * 1.3))
        pygame.draw.polygon(big, white, [(c, c - r * 0.8), (c + r * 0.7, c - r * 0.4),
                                         (c + r * 0.7, c - r * 0.1), (c, c - r * 0.5)])
    return pygame.transform.smoothscale(big, (size, size))


def face_down_tile(size: int = 96) -> pygame.Surface:
    big = pygame.Surface((s(size), s(size)), pygame.SRCALPHA)
    c = s(size) // 2
    pygame.draw.circle(big, (52, 44, 58), (c, c), c - s(2))
    pygame.draw.circle(big, (150, 130, 100), (c, c), c - s(2), s(4))
    text(big, "?", s(40), (150, 130, 100), (c, c))
    return pygame.transform.smoothscale(big, (size, size))


def tmx_text() -> str:
    ids = {name: n for n, name in enumerate(SPACES, 1)}
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" '
        f'renderorder="right-down" width="{COLS}" height="{ROWS}" tilewidth="{TILE}" '
        f'tileheight="{TILE}" infinite="0" backgroundcolor="#281c14" nextlayerid="5" '
        f'nextobjectid="{len(SPACES) + 12 + len(AREAS) + 1}">',
        ' <properties>',
        '  <property name="board_kind" value="track"/>',
        '  <property name="game" value="odysseus"/>',
        '  <property name="link_snap" type="float" value="4"/>',
        ' </properties>',
        ' <tileset firstgid="1" source="odysseus.tsx"/>',
        f' <layer id="1" name="art" width="{COLS}" height="{ROWS}">',
        '  <data encoding="csv">',
    ]
    rows = [",".join(str(r * COLS + c + 1) for c in range(COLS)) for r in range(ROWS)]
    lines.append(",\n".join(rows))
    lines += ['</data>', ' </layer>',
              ' <objectgroup color="#9fe0ff" id="2" name="sea" visible="0">']
    for name, (cx, cy, label, calm, stormy) in SPACES.items():
        kind = "sea" if name.startswith("sea") else name
        lines.append(f'  <object id="{ids[name]}" name="{name}" x="{cx - SPACE_W // 2}" '
                     f'y="{cy - SPACE_H // 2}" width="{SPACE_W}" height="{SPACE_H}">')
        lines.append('   <properties>')
        if calm:
            lines.append(f'    <property name="calm" type="object" value="{ids[calm]}"/>')
        if name.startswith("sea"):
            lines.append(f'    <property name="index" type="int" value="{name[3:]}"/>')
        lines.append(f'    <property name="kind" value="{kind}"/>')
        lines.append(f'    <property name="label" value={quoteattr(label)}/>')
        if stormy:
            lines.append(f'    <property name="stormy" type="object" value="{ids[stormy]}"/>')
        lines += ['   </properties>', '   <ellipse/>', '  </object>']
    lines += [' </objectgroup>', ' <objectgroup color="#ffd27f" id="3" name="rounds" visible="0">']
    for i in range(12):
        oid = len(SPACES) + i + 1
        lines.append(f'  <object id="{oid}" name="round-{i + 1}" x="{ROUND_X0 + i * ROUND_STEP}" '
                     f'y="{ROUND_Y}" width="{ROUND_W}" height="{ROUND_H}">')
        lines += ['   <properties>', f'    <property name="index" type="int" value="{i + 1}"/>',
                  '    <property name="kind" value="round"/>', '   </properties>', '  </object>']
    lines += [' </objectgroup>', ' <objectgroup color="#c0c0c0" id="4" name="areas" visible="0">']
    for n, (name, (x, y, w, h, _title)) in enumerate(AREAS.items()):
        oid = len(SPACES) + 12 + n + 1
        lines.append(f'  <object id="{oid}" name="{name}" x="{x}" y="{y}" width="{w}" '
                     f'height="{h}">')
        lines += ['   <properties>', '    <property name="kind" value="area"/>',
                  '   </properties>', '  </object>']
    lines += [' </objectgroup>', '</map>', '']
    return "\n".join(lines)


def tsx_text() -> str:
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.8" tiledversion="1.8.2" name="odysseus" tilewidth="{TILE}" '
        f'tileheight="{TILE}" tilecount="{COLS * ROWS}" columns="{COLS}">',
        f' <image source="odysseus_tiles.png" width="{W}" height="{H}"/>',
        '</tileset>', ''])


def main() -> list[Path]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.init()
    ASSETS.mkdir(parents=True, exist_ok=True)
    written = []
    picture = board_picture()
    out = BOARDS / "odysseus_tiles.png"
    pygame.image.save(picture, str(out))
    written.append(out)
    for path, body in ((BOARDS / "odysseus.tsx", tsx_text()),
                       (BOARDS / "odysseus.tmx", tmx_text())):
        path.write_text(body, encoding="utf-8")
        written.append(path)
    for name in TILE_ART:
        path = ASSETS / f"tile_{name}.png"
        pygame.image.save(encounter_tile(name), str(path))
        written.append(path)
    path = ASSETS / "tile_down.png"
    pygame.image.save(face_down_tile(), str(path))
    written.append(path)
    return written


if __name__ == "__main__":
    for p in main():
        print(p.relative_to(ROOT))
