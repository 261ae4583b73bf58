"""Drawing of tiles, trap symbols, characters and tokens (pygame; screen side only).

Every picture is drawn with pygame primitives at the size asked for and
cached, so the screen can zoom without blurry art.
"""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from game.ui.widgets import font

Colour = tuple[int, int, int]

KIND_COLOURS: dict[str, Colour] = {
    "safe": (120, 136, 160), "objective": (240, 150, 40), "blind": (235, 210, 70),
    "confuse": (170, 110, 235), "corrode": (110, 200, 80), "fear": (200, 60, 70),
    "freeze": (120, 210, 250), "jettison": (250, 110, 40), "mystery": (235, 90, 200),
    "sever": (220, 40, 60),
}
EFFECT_COLOURS: dict[str, Colour] = {
    "freeze": KIND_COLOURS["freeze"], "confuse": KIND_COLOURS["confuse"],
    "fear": KIND_COLOURS["fear"], "blind": KIND_COLOURS["blind"],
    "sever": KIND_COLOURS["sever"], "corrode": KIND_COLOURS["corrode"],
}
CHARACTER_MARKS = {"barbarian": "Ba", "knight": "Kn", "mage": "Ma", "ranger": "Ra",
                   "thief": "Th", "tinkerer": "Ti"}
INK = (18, 20, 28)
WHITE = (245, 247, 252)
AP_GOLD = (250, 205, 80)
TRACKER = (150, 80, 230)


def _lighter(colour: Colour, amount: float) -> Colour:
    return tuple(round(c + (255 - c) * amount) for c in colour)  # type: ignore[return-value]


def _darker(colour: Colour, amount: float) -> Colour:
    return tuple(round(c * (1 - amount)) for c in colour)  # type: ignore[return-value]


def symbol(surface: pygame.Surface, kind: str, centre: tuple[float, float], size: float,
           colour: Colour | None = None) -> None:
    """Draw the trap symbol of ``kind`` centred at ``centre``, ``size`` pixels across."""
    cx, cy = centre
    r = size / 2
    c = colour or INK
    w = max(2, round(size / 12))
    if kind == "objective":  # a generator: a ring with a lightning bolt
        pygame.draw.circle(surface, c, (cx, cy), r * 0.85, w)
        bolt = [(cx + r * 0.15, cy - r * 0.65), (cx - r * 0.35, cy + r * 0.1),
                (cx - r * 0.02, cy + r * 0.1), (cx - r * 0.15, cy + r * 0.65),
                (cx + r * 0.35, cy - r * 0.1), (cx + r * 0.02, cy - r * 0.1)]
        pygame.draw.polygon(surface, c, bolt)
    elif kind == "blind":  # an eye struck through
        eye = pygame.Rect(0, 0, size * 0.9, size * 0.5)
        eye.center = (round(cx), round(cy))
        pygame.draw.ellipse(surface, c, eye, w)
        pygame.draw.circle(surface, c, (cx, cy), r * 0.18)
        pygame.draw.line(surface, c, (cx - r * 0.7, cy + r * 0.6), (cx + r * 0.7, cy - r * 0.6),
                         w + 1)
    elif kind == "confuse":  # a spiral
        points = []
        for i in range(60):
            t = i / 59 * 3.2 * math.pi
            rr = r * 0.85 * (i / 59)
            points.append((cx + rr * math.cos(t), cy + rr * math.sin(t)))
        pygame.draw.lines(surface, c, False, points, w)
    elif kind == "corrode":  # three drops of acid
        for dx, dy, s in ((-0.4, -0.2, 0.32), (0.35, -0.35, 0.26), (0.1, 0.35, 0.36)):
            x, y, rr = cx + dx * r, cy + dy * r, s * r
            pygame.draw.circle(surface, c, (x, y + rr * 0.3), rr)
            pygame.draw.polygon(surface, c, [(x - rr * 0.8, y), (x + rr * 0.8, y),
                                             (x, y - rr * 1.5)])
    elif kind == "fear":  # a ghost's face: two eyes and a wailing mouth
        body = pygame.Rect(0, 0, size * 0.75, size * 0.85)
        body.center = (round(cx), round(cy))
        pygame.draw.ellipse(surface, c, body, w)
        for dx in (-0.2, 0.2):
            pygame.draw.circle(surface, c, (cx + dx * r * 1.2, cy - r * 0.15), r * 0.12)
        mouth = pygame.Rect(0, 0, size * 0.2, size * 0.28)
        mouth.center = (round(cx), round(cy + r * 0.35))
        pygame.draw.ellipse(surface, c, mouth)
    elif kind == "freeze":  # a snowflake
        for k in range(3):
            a = k * math.pi / 3
            dx, dy = math.cos(a) * r * 0.85, math.sin(a) * r * 0.85
            pygame.draw.line(surface, c, (cx - dx, cy - dy), (cx + dx, cy + dy), w)
            for sign in (1, -1):
                ex, ey = cx + sign * dx * 0.6, cy + sign * dy * 0.6
                for b in (a + 0.7, a - 0.7):
                    pygame.draw.line(surface, c, (ex, ey),
                                     (ex - sign * math.cos(b) * r * 0.3,
                                      ey - sign * math.sin(b) * r * 0.3), max(1, w - 1))
    elif kind == "jettison":  # an arrow flying out of a hatch
        hatch = pygame.Rect(0, 0, size * 0.55, size * 0.55)
        hatch.center = (round(cx - r * 0.2), round(cy + r * 0.2))
        pygame.draw.rect(surface, c, hatch, w)
        tip = (cx + r * 0.8, cy - r * 0.8)
        pygame.draw.line(surface, c, (cx - r * 0.2, cy + r * 0.2), tip, w + 1)
        pygame.draw.polygon(surface, c, [tip, (tip[0] - r * 0.45, tip[1]),
                                         (tip[0], tip[1] + r * 0.45)])
    elif kind == "mystery":  # a question mark
        glyph = font(max(12, round(size * 0.95)), True).render("?", True, c)
        surface.blit(glyph, glyph.get_rect(center=(round(cx), round(cy))))
    elif kind == "sever":  # a chain cut in two
        for dx in (-1, 1):
            link = pygame.Rect(0, 0, size * 0.42, size * 0.26)
            link.center = (round(cx + dx * r * 0.42), round(cy + dx * r * 0.12))
            pygame.draw.ellipse(surface, c, link, w)
        pygame.draw.line(surface, c, (cx - r * 0.15, cy - r * 0.7), (cx + r * 0.15, cy + r * 0.7),
                         w)
    # safe: blank


@lru_cache(maxsize=256)
def tile_face(kind: str | None, size: int, done: bool = False, disarmed: bool = False
              ) -> pygame.Surface:
    """A tile as it lies on the board: face down (``kind`` None) or face up."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    rect = surf.get_rect().inflate(-max(2, size // 12), -max(2, size // 12))
    radius = max(3, size // 8)
    if kind is None:  # the alien back of a tile: violet plate with a glowing hexagon
        pygame.draw.rect(surf, (70, 56, 112), rect, border_radius=radius)
        inner = rect.inflate(-size // 6, -size // 6)
        pygame.draw.rect(surf, (92, 74, 146), inner, border_radius=radius)
        cx, cy = rect.center
        hexagon = [(cx + size * 0.2 * math.cos(a * math.pi / 3),
                    cy + size * 0.2 * math.sin(a * math.pi / 3)) for a in range(6)]
        pygame.draw.polygon(surf, (150, 220, 235), hexagon, max(1, size // 22))
        pygame.draw.circle(surf, (150, 220, 235), (cx, cy), max(1, size // 18))
        pygame.draw.rect(surf, (30, 24, 50), rect, max(1, size // 28), border_radius=radius)
        return surf
    colour = KIND_COLOURS[kind]
    base = _lighter(colour, 0.55) if kind != "safe" else (176, 188, 206)
    pygame.draw.rect(surf, base, rect, border_radius=radius)
    pygame.draw.rect(surf, _darker(colour, 0.35), rect, max(2, size // 20),
                     border_radius=radius)
    symbol(surf, kind, rect.center, size * 0.6, _darker(colour, 0.55))
    if done:
        token = (rect.right - size * 0.2, rect.top + size * 0.2)
        pygame.draw.circle(surf, (250, 140, 30), token, size * 0.16)
        pygame.draw.circle(surf, INK, token, size * 0.16, max(1, size // 40))
        pygame.draw.lines(surf, INK, False, [(token[0] - size * 0.08, token[1]),
                                             (token[0] - size * 0.02, token[1] + size * 0.06),
                                             (token[0] + size * 0.08, token[1] - size * 0.07)],
                          max(2, size // 30))
    if disarmed:
        veil = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (40, 200, 230, 90), veil.get_rect(), border_radius=radius)
        surf.blit(veil, rect)
        pygame.draw.rect(surf, (40, 200, 230), rect, max(2, size // 16), border_radius=radius)
        label = font(max(8, size // 5), True).render("OFF", True, INK)
        surf.blit(label, label.get_rect(midbottom=(rect.centerx, rect.bottom - 2)))
    return surf


@lru_cache(maxsize=128)
def character_token(character: str | None, colour: Colour, size: int) -> pygame.Surface:
    """A seat's round token with its character's mark."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    pygame.draw.circle(surf, (0, 0, 0, 110), (c + 1, c + 2), c - 1)
    pygame.draw.circle(surf, colour, (c, c), c - 2)
    pygame.draw.circle(surf, _lighter(colour, 0.5), (c, c), c - 2, max(2, size // 14))
    pygame.draw.circle(surf, INK, (c, c), c - 1, max(1, size // 24))
    mark = CHARACTER_MARKS.get(character or "", "?")
    px = max(12, round(size * 0.42))  # never under 12 px (the rule's least text)
    if font(px, True).size(mark)[0] > size - 6:  # a small token: its first letter
        mark = mark[:1]
    text = font(px, True).render(mark, True, WHITE)
    shade = font(px, True).render(mark, True, INK)
    surf.blit(shade, shade.get_rect(center=(c + 1, c + 1)))
    surf.blit(text, text.get_rect(center=(c, c)))
    return surf


def effect_token(surface: pygame.Surface, effect: str, centre: tuple[float, float],
                 radius: float) -> None:
    """A small effect token: a coloured disc with the trap's symbol."""
    colour = EFFECT_COLOURS[effect]
    pygame.draw.circle(surface, colour, centre, radius)
    pygame.draw.circle(surface, INK, centre, radius, max(1, round(radius / 6)))
    symbol(surface, effect, centre, radius * 1.5, INK)


def ap_token(surface: pygame.Surface, centre: tuple[float, float], radius: float,
             filled: bool, colour: Colour) -> None:
    """One action point: a full coin when available, a ring when spent."""
    if filled:
        pygame.draw.circle(surface, colour, centre, radius)
        pygame.draw.circle(surface, _lighter(colour, 0.5), centre, radius * 0.6,
                           max(1, round(radius / 4)))
        pygame.draw.circle(surface, INK, centre, radius, max(1, round(radius / 5)))
    else:
        pygame.draw.circle(surface, (90, 90, 100), centre, radius, max(1, round(radius / 4)))
