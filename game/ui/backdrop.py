"""A painted backdrop for the menus (made once per window size, then cached)."""

from __future__ import annotations

from functools import lru_cache
import math

import pygame


#: The moon's radius and its centre's distance from the window's top right corner.
MOON_RADIUS, MOON_FROM_RIGHT, MOON_FROM_TOP = 30, 64, 56


def moon_rect(size: tuple[int, int]) -> pygame.Rect:
    """Where the backdrop's moon is in a window of ``size``: text must keep clear of it."""
    centre = (size[0] - MOON_FROM_RIGHT, MOON_FROM_TOP)
    return pygame.Rect(0, 0, 2 * MOON_RADIUS, 2 * MOON_RADIUS).move(
        centre[0] - MOON_RADIUS, centre[1] - MOON_RADIUS)


@lru_cache(maxsize=4)
def backdrop(size: tuple[int, int]) -> pygame.Surface:
    """A night-sky-over-hills picture drawn with plain shapes."""
    width, height = size
    surface = pygame.Surface(size)
    top, bottom = (20, 18, 40), (70, 42, 40)
    for y in range(height):
        t = y / max(height - 1, 1)
        colour = [round(a + (b - a) * t) for a, b in zip(top, bottom)]
        pygame.draw.line(surface, colour, (0, y), (width, y))
    for i in range(90):  # stars at fixed pseudo-random places
        x = (i * 7919) % width
        y = (i * 104729) % max(height // 2, 1)
        shade = 150 + (i * 37) % 100
        surface.set_at((x, y), (shade, shade, shade))
    # The moon keeps to the top right corner, clear of the menus' headings and columns.
    moon = moon_rect(size).center
    pygame.draw.circle(surface, (240, 230, 190), moon, MOON_RADIUS)
    pygame.draw.circle(surface, (21, 19, 41), (moon[0] + 11, moon[1] - 6), 27)
    for layer, colour in enumerate(((46, 36, 52), (36, 28, 36), (26, 20, 24))):
        points = [(0, height)]
        for x in range(0, width + 40, 40):
            wave = math.sin(x / (170 - layer * 30) + layer * 1.7) * (40 + layer * 12)
            points.append((x, height * (0.62 + layer * 0.1) + wave))
        points.append((width, height))
        pygame.draw.polygon(surface, colour, points)
    return surface
