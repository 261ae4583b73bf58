"""Never colour alone: every seat's mark and every highlight's pattern, defined once.

A seat is told apart by its colour *and* a shape (circle, square, triangle...) drawn on
its pieces, tokens, cards and score lines by :func:`draw_seat_mark`.  A legal target is
outlined by :func:`draw_highlight` in its kind's colour *and* line pattern (solid, dashed,
dotted, double) with a small icon naming the kind (an arrow to move, a cross to attack, a
bull's-eye to shoot, an eye to peek...).  Both stay readable in greyscale and for people
who see red and green alike (``tests/test_colour_marks.py`` checks it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import pygame

from .colourcheck import contrast
from .widgets import GOLD, SEAT_COLOURS

Colour = tuple[int, int, int]
Point = tuple[float, float]

#: Dark ink and light paper: the two faces of a mark (one of them always contrasts 4.5:1).
INK = (20, 16, 12)
PAPER = (255, 252, 240)
#: The shape of each seat, in seat order (as many as SEAT_COLOURS; all different).
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "star", "plus", "down", "cross",
               "hexagon")


@dataclass(frozen=True)
class SeatMark:
    colour: Colour
    shape: str


SEAT_MARKS = tuple(SeatMark(c, s) for c, s in zip(SEAT_COLOURS, SEAT_SHAPES))


def seat_mark(seat: int) -> SeatMark:
    return SEAT_MARKS[seat % len(SEAT_MARKS)]


def seat_colour(seat: int) -> Colour:
    return seat_mark(seat).colour


#: Text on a seat's colour: black or white, whichever contrasts more (always >= 4.58:1).
LIGHT_TEXT, DARK_TEXT = (255, 255, 255), (0, 0, 0)


def ink_on(fill: Sequence[int]) -> Colour:
    """The text colour (black or white) that reads best on ``fill``: always >= 4.5:1."""
    return LIGHT_TEXT if contrast(LIGHT_TEXT, fill) >= contrast(DARK_TEXT, fill) else DARK_TEXT


def readable_on(colour: Sequence[int], back: Sequence[int], ratio: float = 4.5) -> Colour:
    """``colour`` lightened (or darkened) just enough to reach ``ratio`` against ``back``:
    a seat's colour as text on a dark panel."""
    colour = tuple(int(c) for c in colour[:3])
    target = PAPER if contrast(PAPER, back) >= contrast(INK, back) else INK
    for step in range(0, 21):
        t = step / 20
        mixed = tuple(round(c + (e - c) * t) for c, e in zip(colour, target))
        if contrast(mixed, back) >= ratio:
            return mixed  # type: ignore[return-value]
    return target


def shape_points(shape: str, centre: Point, r: float) -> list[Point] | None:
    """The outline of a seat shape of radius ``r`` (None for the circle)."""
    cx, cy = centre

    def polar(n: int, start: float, radii: Sequence[float]) -> list[Point]:
        return [(cx + radii[k % len(radii)] * math.cos(start + k * math.tau / n),
                 cy + radii[k % len(radii)] * math.sin(start + k * math.tau / n))
                for k in range(n)]

    if shape == "circle":
        return None
    if shape == "square":
        s = r * 0.85
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":
        return polar(3, -math.pi / 2, [r * 1.1])
    if shape == "down":
        return polar(3, math.pi / 2, [r * 1.1])
    if shape == "diamond":
        return polar(4, -math.pi / 2, [r * 1.1])
    if shape == "star":
        return polar(10, -math.pi / 2, [r * 1.15, r * 0.5])
    if shape == "hexagon":
        return polar(6, 0, [r])
    w = r * 0.38  # plus and cross: a thick cross, upright or turned
    arm = [(-w, -r), (w, -r), (w, -w), (r, -w), (r, w), (w, w), (w, r), (-w, r), (-w, w),
           (-r, w), (-r, -w), (-w, -w)]
    if shape == "cross":
        c = s = math.sqrt(0.5)
        arm = [(x * c - y * s, x * s + y * c) for x, y in arm]
    return [(cx + x, cy + y) for x, y in arm]


def draw_shape(surface: pygame.Surface, shape: str, centre: Point, r: float,
               fill: Sequence[int], edge: Sequence[int], edge_width: int = 1) -> pygame.Rect:
    """A filled seat shape with an edge; returns the rectangle drawn."""
    points = shape_points(shape, centre, r)
    if points is None:
        c = (round(centre[0]), round(centre[1]))
        pygame.draw.circle(surface, edge, c, round(r) + edge_width)
        return pygame.draw.circle(surface, fill, c, round(r)).inflate(
            2 * edge_width, 2 * edge_width)
    rect = pygame.draw.polygon(surface, edge, points, 0)
    if edge_width:  # a fat edge: the polygon outlined, then filled inside it
        pygame.draw.polygon(surface, edge, points, edge_width * 2 + 1)
        rect = rect.inflate(2 * edge_width + 2, 2 * edge_width + 2)
    pygame.draw.polygon(surface, fill, points, 0)
    return rect


#: When a list, every drawn mark is recorded here: ("seat", seat, rect, redraw) and
#: ("highlight", kind, badge rect, redraw), ``redraw(surface)`` drawing it again (the tests
#: look at those pixels).
RECORD: list[tuple[str, Any, pygame.Rect, Any]] | None = None


def draw_seat_mark(surface: pygame.Surface, seat: int, centre: Point, size: float,
                   on_piece: bool = True) -> pygame.Rect:
    """Seat ``seat``'s shape, ``size`` pixels across, at ``centre``.

    ``on_piece``: drawn on a piece in the seat's colour, the shape is paper-white edged with
    ink (it reads on any colour); elsewhere (a score line, a card) it is the seat's colour
    edged with ink, so both cues show.
    """
    mark = seat_mark(seat)
    r = max(3.0, size / 2 - 1)
    if on_piece:
        rect = draw_shape(surface, mark.shape, centre, r, PAPER, INK, max(1, round(r / 4)))
    else:
        rect = draw_shape(surface, mark.shape, centre, r, mark.colour, INK, 1)
    if RECORD is not None:
        RECORD.append(("seat", seat, rect,
                       lambda s: draw_seat_mark(s, seat, centre, size, on_piece)))
    return rect


# -- highlights ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Highlight:
    colour: Colour
    style: str  # solid, dashed, dotted, double
    icon: str
    words: str  # what it means, for tests and tooltips


HIGHLIGHTS: dict[str, Highlight] = {
    "move": Highlight((120, 230, 120), "dashed", "arrow", "move here"),
    "attack": Highlight((255, 90, 110), "double", "swords", "attack this"),
    "shoot": Highlight((250, 160, 40), "dotted", "target", "shoot at this"),
    "select": Highlight(GOLD, "solid", "pointer", "choose this piece"),
    "actor": Highlight((255, 190, 120), "solid", "bang", "acts now"),
    "peek": Highlight((120, 190, 255), "dashed", "eye", "look at this"),
    "ability": Highlight((215, 150, 255), "double", "bolt", "use an ability here"),
    "assist": Highlight((120, 225, 215), "dotted", "plus", "help this player"),
    "deactivate": Highlight((255, 205, 90), "double", "power", "switch this off"),
    "choose": Highlight(GOLD, "solid", "check", "choose this"),
    # The play scene's own rings (not legal targets): what the hint points at, what the
    # recap lists, the place under the mouse and the keyboard's cursor on the board.
    "hint": Highlight((90, 220, 255), "solid", "bulb", "the hint points here"),
    "recap": Highlight((255, 160, 60), "solid", "clock", "this happened since your turn"),
    "hover": Highlight((255, 255, 255), "solid", "corners", "under the mouse"),
    "cursor": Highlight(GOLD, "solid", "key", "the keyboard cursor"),
}
#: The kinds the play scene draws around places itself (hint, recap, hover, cursor): each
#: with its icon in a badge at the ring's top-left corner (targets' badges go top-right).
RING_KINDS = ("hint", "recap", "hover", "cursor")
#: The dark halo under every highlight line (the line contrasts with it, whatever the board).
HALO = INK


def _polyline(points: Sequence[Point], closed: bool = True) -> list[tuple[Point, Point]]:
    pts = list(points)
    pairs = list(zip(pts, pts[1:]))
    if closed and len(pts) > 2:
        pairs.append((pts[-1], pts[0]))
    return pairs


def _dashes(points: Sequence[Point], on: float, off: float) -> list[tuple[Point, Point]]:
    """The dashes (``on`` long, ``off`` apart) along a closed outline."""
    out = []
    phase = 0.0  # distance into the current on+off period
    for (x0, y0), (x1, y1) in _polyline(points):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        d = 0.0
        while d < length:
            if phase < on:
                run = min(on - phase, length - d)
                a, b = d / length, (d + run) / length
                out.append(((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                            (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)))
            else:
                run = min(on + off - phase, length - d)
            d += run
            phase = (phase + run) % (on + off)
    return out


def _shrunk(points: Sequence[Point], by: float) -> list[Point]:
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    out = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy) or 1.0
        f = max(0.0, (d - by) / d)
        out.append((cx + (x - cx) * f, cy + (y - cy) * f))
    return out


def circle_points(centre: Point, radius: float, n: int = 40) -> list[Point]:
    return [(centre[0] + radius * math.cos(k * math.tau / n),
             centre[1] + radius * math.sin(k * math.tau / n)) for k in range(n)]


def rect_points(rect: pygame.Rect, inset: float = 0) -> list[Point]:
    r = pygame.Rect(rect).inflate(-2 * inset, -2 * inset)
    return [r.topleft, r.topright, r.bottomright, r.bottomleft]


def draw_ring(surface: pygame.Surface, points: Sequence[Point], colour: Sequence[int],
              style: str, width: int) -> None:
    """An outline in a pattern, over a dark halo so that it shows on any board."""
    width = max(2, width)
    for a, b in _polyline(points):  # the halo: one pixel of ink either side
        pygame.draw.line(surface, HALO, a, b, width + 2)
    if style == "solid":
        pygame.draw.polygon(surface, colour, points, width)
    elif style == "double":
        thin = max(1, width // 2 + 1)
        inner = _shrunk(points, width + 3)
        for a, b in _polyline(inner):
            pygame.draw.line(surface, HALO, a, b, thin + 2)
        pygame.draw.polygon(surface, colour, points, thin)
        pygame.draw.polygon(surface, colour, inner, thin)
    elif style == "dashed":
        for a, b in _dashes(points, width * 3, width * 2):
            pygame.draw.line(surface, colour, a, b, width)
    elif style == "dotted":
        for a, _ in _dashes(points, 0.01, width * 2.5):
            pygame.draw.circle(surface, colour, (round(a[0]), round(a[1])), max(1, width // 2 + 1))
    else:
        raise ValueError(f"unknown highlight style {style!r}")


def draw_icon(surface: pygame.Surface, icon: str, centre: Point, r: float,
              colour: Sequence[int]) -> None:
    """A small picture naming a highlight's kind, about ``2r`` across."""
    cx, cy = centre
    w = max(2, round(r / 3))
    if icon == "arrow":
        pygame.draw.line(surface, colour, (cx - r * 0.7, cy), (cx + r * 0.3, cy), w)
        pygame.draw.polygon(surface, colour, [(cx + r * 0.8, cy), (cx + r * 0.1, cy - r * 0.6),
                                              (cx + r * 0.1, cy + r * 0.6)])
    elif icon == "swords":
        for s in (-1, 1):
            pygame.draw.line(surface, colour, (cx - r * 0.7 * s, cy - r * 0.7),
                             (cx + r * 0.7 * s, cy + r * 0.7), w)
    elif icon == "target":
        pygame.draw.circle(surface, colour, (cx, cy), r * 0.75, max(1, w - 1))
        pygame.draw.circle(surface, colour, (cx, cy), max(1.5, r * 0.28))
    elif icon == "pointer":
        pygame.draw.polygon(surface, colour, [(cx - r * 0.7, cy - r * 0.4),
                                              (cx + r * 0.7, cy - r * 0.4), (cx, cy + r * 0.6)])
    elif icon == "bang":
        pygame.draw.line(surface, colour, (cx, cy - r * 0.75), (cx, cy + r * 0.15), w)
        pygame.draw.circle(surface, colour, (cx, cy + r * 0.55), max(1.5, w * 0.6))
    elif icon == "eye":
        box = pygame.Rect(0, 0, round(r * 1.7), round(r * 1.0))
        box.center = (round(cx), round(cy))
        pygame.draw.ellipse(surface, colour, box, max(1, w - 1))
        pygame.draw.circle(surface, colour, (cx, cy), max(1.5, r * 0.3))
    elif icon == "bolt":
        pygame.draw.lines(surface, colour, False, [(cx + r * 0.3, cy - r * 0.8),
                                                   (cx - r * 0.3, cy + r * 0.05),
                                                   (cx + r * 0.3, cy - r * 0.05),
                                                   (cx - r * 0.3, cy + r * 0.8)], w)
    elif icon == "plus":
        pygame.draw.line(surface, colour, (cx - r * 0.7, cy), (cx + r * 0.7, cy), w)
        pygame.draw.line(surface, colour, (cx, cy - r * 0.7), (cx, cy + r * 0.7), w)
    elif icon == "power":
        pygame.draw.arc(surface, colour, pygame.Rect(cx - r * 0.7, cy - r * 0.6, r * 1.4, r * 1.4),
                        math.radians(120), math.radians(420), max(1, w - 1))
        pygame.draw.line(surface, colour, (cx, cy - r * 0.8), (cx, cy), w)
    elif icon == "check":
        pygame.draw.lines(surface, colour, False, [(cx - r * 0.7, cy), (cx - r * 0.15, cy + r * 0.55),
                                                   (cx + r * 0.75, cy - r * 0.6)], w)
    elif icon == "bulb":  # a light bulb: the hint's idea
        pygame.draw.circle(surface, colour, (cx, cy - r * 0.2), r * 0.55, max(1, w - 1))
        thin = max(1, w - 1)
        pygame.draw.line(surface, colour, (cx - r * 0.3, cy + r * 0.5),
                         (cx + r * 0.3, cy + r * 0.5), thin)
        pygame.draw.line(surface, colour, (cx - r * 0.2, cy + r * 0.8),
                         (cx + r * 0.2, cy + r * 0.8), thin)
    elif icon == "clock":  # what happened a moment ago
        pygame.draw.circle(surface, colour, (cx, cy), r * 0.8, max(1, w - 1))
        pygame.draw.line(surface, colour, (cx, cy), (cx, cy - r * 0.55), max(1, w - 1))
        pygame.draw.line(surface, colour, (cx, cy), (cx + r * 0.45, cy), max(1, w - 1))
    elif icon == "corners":  # four corner ticks: the place under the mouse
        e, k = r * 0.75, r * 0.45
        for sx in (-1, 1):
            for sy in (-1, 1):
                pygame.draw.lines(surface, colour, False, [(cx + sx * e, cy + sy * (e - k)),
                                                           (cx + sx * e, cy + sy * e),
                                                           (cx + sx * (e - k), cy + sy * e)],
                                  max(1, w - 1))
    elif icon == "key":  # a key cap: the keyboard's cursor
        box = pygame.Rect(0, 0, round(r * 1.6), round(r * 1.4))
        box.center = (round(cx), round(cy))
        pygame.draw.rect(surface, colour, box, max(1, w - 1), border_radius=max(1, round(r / 4)))
        pygame.draw.line(surface, colour, (cx - r * 0.4, cy + r * 0.2),
                         (cx + r * 0.4, cy + r * 0.2), max(1, w - 1))
    else:
        raise ValueError(f"unknown highlight icon {icon!r}")


def draw_badge(surface: pygame.Surface, kind: str, centre: Point, r: float) -> pygame.Rect:
    """A highlight kind's icon on a dark disc with a rim in the kind's colour."""
    h = HIGHLIGHTS[kind]
    c = (round(centre[0]), round(centre[1]))
    rect = pygame.draw.circle(surface, HALO, c, round(r) + 1)
    pygame.draw.circle(surface, h.colour, c, round(r), max(1, round(r / 6)))
    draw_icon(surface, h.icon, centre, r * 0.62, h.colour)
    return rect


def draw_highlight(surface: pygame.Surface, kind: str, points: Sequence[Point],
                   width: int = 3, badge: Point | None = None,
                   badge_radius: float = 8, with_badge: bool = True) -> pygame.Rect:
    """Outline a legal target of ``kind`` (see ``HIGHLIGHTS``) along ``points`` in the
    kind's colour and pattern, with its icon at ``badge`` (by default inside the outline's
    top-right corner; ``with_badge=False``: the caller draws it later with
    :func:`draw_kind_badge`, over the pieces).  Returns the rectangle the outline covers."""
    h = HIGHLIGHTS[kind]
    draw_ring(surface, points, h.colour, h.style, width)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    rect = pygame.Rect(math.floor(min(xs)), math.floor(min(ys)),
                       math.ceil(max(xs) - min(xs)) + 1, math.ceil(max(ys) - min(ys)) + 1)
    if not with_badge:
        return rect
    if badge is None:  # inside the top-right corner, clear of a neighbouring outline
        badge = (max(xs) - badge_radius - width - 1, min(ys) + badge_radius + width + 1)
    return rect.union(draw_kind_badge(surface, kind, badge, badge_radius))


def draw_kind_badge(surface: pygame.Surface, kind: str, at: Point,
                    radius: float = 8) -> pygame.Rect:
    """A highlight kind's icon badge (see :func:`draw_badge`), recorded for the tests."""
    rect = draw_badge(surface, kind, at, max(6.0, radius))
    if RECORD is not None:
        RECORD.append(("highlight", kind, rect,
                       lambda s: draw_badge(s, kind, at, max(6.0, radius))))
    return rect


def draw_ring_badge(surface: pygame.Surface, kind: str, around: pygame.Rect | None,
                    radius: float = 8) -> pygame.Rect | None:
    """The badge of one of the play scene's rings (``RING_KINDS``) at the top-left corner
    of the ring drawn around ``around`` (nothing for no rectangle): the ring's colour is
    never the only thing that tells a hint from the recap, the mouse or the cursor."""
    if around is None or around.width <= 0 or around.height <= 0:
        return None
    r = max(6.0, radius)
    at = (around.left + r * 0.6, around.top + r * 0.6)
    return draw_kind_badge(surface, kind, at, r)
