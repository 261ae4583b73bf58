"""Draw a board's tile and image layers with pygame, exactly where Tiled does.

The placement follows Tiled's renderers (``OrthogonalRenderer``,
``HexagonalRenderer``, ``CellRenderer::render``) and ``tmxrasterizer``:

* each cell has an anchor at the bottom-left of its grid cell; the tile
  image (of the tile's own size, so taller tiles stick up) is drawn with its
  bottom-left there, moved by the tileset's ``tileoffset``;
* hexagonal maps use ``TiledHexLayout`` placement and draw in screen
  order (top to bottom, left to right); orthogonal maps follow
  ``renderorder``;
* flips: the diagonal flip goes first, then horizontal, then vertical; on
  hexagonal maps the diagonal bit (and the 120-degree bit) turn the image
  by 60 (120) degrees about its centre instead, resampled bilinearly as
  Qt's smooth pixmap transform does;
* layer offsets and group offsets shift layers, opacities multiply, hidden
  layers (or layers in hidden groups) are skipped;
* the picture covers the map's pixel rectangle grown by layer offsets, as
  ``tmxrasterizer`` 1.8 does.

Images are loaded with ``pygame.image.load`` and copied into 32-bit RGBA
surfaces without ``convert_alpha``, so nothing here needs a window.
"""
from __future__ import annotations

import math
import os
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable, Iterator

import pygame

from .tmxmap import Board, Layer, MapError, check_file, load_board, split_gid

__all__ = ["ViewTransform", "BoardRenderer", "render_map", "parse_color"]

_SCALED_CACHE = 4
#: The largest picture a board may render to (a side, and the whole area).
MAX_PICTURE_SIDE = 16384
MAX_PICTURE_PIXELS = 1 << 25
#: Image formats ``render_map`` can write.
PICTURE_SUFFIXES = (".png", ".bmp", ".tga", ".jpg", ".jpeg")
MAX_IMAGE_BYTES = 64 * 2**20
_Placed = tuple[pygame.Surface, tuple[int, int]]


def parse_color(text: str) -> pygame.Color:
    """Tiled colour ``#RRGGBB`` / ``#AARRGGBB`` (``#`` optional)."""
    digits = text.lstrip("#")
    if len(digits) == 8:
        digits = digits[2:] + digits[:2]
    return pygame.Color("#" + digits)


@dataclass(frozen=True)
class ViewTransform:
    """Uniform scale plus offset from map pixels to screen pixels."""

    scale: float
    offset_x: float
    offset_y: float

    def to_screen(self, px: float, py: float) -> tuple[float, float]:
        """Map pixel -> screen pixel."""
        return self.offset_x + px * self.scale, self.offset_y + py * self.scale

    def to_map(self, sx: float, sy: float) -> tuple[float, float]:
        """Screen pixel -> map pixel."""
        return ((sx - self.offset_x) / self.scale,
                (sy - self.offset_y) / self.scale)


def _rgba(surface: pygame.Surface) -> pygame.Surface:
    """A 32-bit RGBA copy of any loaded image (no display needed)."""
    out = pygame.Surface(surface.get_size(), pygame.SRCALPHA, 32)
    out.blit(surface, (0, 0))
    return out


def _load_image(path: str, trans: str | None) -> pygame.Surface:
    """Load an image as RGBA, making the ``trans`` colour transparent.

    A missing, special or unreadable file raises :class:`MapError`.
    """
    check_file(path, "tile image", MAX_IMAGE_BYTES)
    try:
        image = _rgba(pygame.image.load(path))
    except (pygame.error, MemoryError, ValueError) as exc:
        raise MapError(path, f"cannot be loaded as an image ({exc or 'out of memory'})") \
            from None
    if trans:
        try:
            color = parse_color(trans)
        except ValueError:
            raise MapError(path, f"has a transparent colour {trans!r} that is not a "
                                 f"colour") from None
        color.a = 255
        pixels = pygame.PixelArray(image)
        pixels.replace(color, (0, 0, 0, 0))
        pixels.close()
    return image


def _transpose(image: pygame.Surface) -> pygame.Surface:
    """Swap x and y (Tiled's diagonal flip)."""
    return pygame.transform.flip(pygame.transform.rotate(image, 90),
                                 False, True)


def _with_opacity(image: pygame.Surface, opacity: float) -> pygame.Surface:
    """A copy of ``image`` whose alpha is scaled by ``opacity``."""
    if opacity >= 1.0:
        return image
    out = image.copy()
    out.fill((255, 255, 255, round(opacity * 255)),
             special_flags=pygame.BLEND_RGBA_MULT)
    return out


def _bilinear(pixels: list[list[tuple[float, ...]]], u: float,
              v: float) -> tuple[float, ...]:
    """Premultiplied RGBA at a source point, clamped at the edges."""
    h, w = len(pixels), len(pixels[0])
    u, v = u - 0.5, v - 0.5
    x0, y0 = math.floor(u), math.floor(v)
    fx, fy = u - x0, v - y0
    xs = (min(max(x0, 0), w - 1), min(max(x0 + 1, 0), w - 1))
    ys = (min(max(y0, 0), h - 1), min(max(y0 + 1, 0), h - 1))
    top = [a * (1 - fx) + b * fx
           for a, b in zip(pixels[ys[0]][xs[0]], pixels[ys[0]][xs[1]])]
    bottom = [a * (1 - fx) + b * fx
              for a, b in zip(pixels[ys[1]][xs[0]], pixels[ys[1]][xs[1]])]
    return tuple(a * (1 - fy) + b * fy for a, b in zip(top, bottom))


def _rotate_like_qt(image: pygame.Surface, angle: float
                    ) -> tuple[pygame.Surface, tuple[int, int]]:
    """Turn ``image`` clockwise about its centre the way Qt's raster engine
    draws a rotated pixmap with smoothing: pixels whose centres fall in the
    turned rectangle get a bilinear, edge-clamped sample.  Returns the
    picture and its top-left relative to the unturned image's top-left.
    """
    w, h = image.get_size()
    pixels = [[(c.r * c.a / 255, c.g * c.a / 255, c.b * c.a / 255, c.a)
               for c in (image.get_at((x, y)) for x in range(w))]
              for y in range(h)]
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    reach = math.ceil(abs(w * cos) / 2 + abs(h * sin) / 2) + 1, \
        math.ceil(abs(w * sin) / 2 + abs(h * cos) / 2) + 1
    left, top = math.floor(w / 2 - reach[0]), math.floor(h / 2 - reach[1])
    out = pygame.Surface((w / 2 + reach[0] - left, h / 2 + reach[1] - top),
                         pygame.SRCALPHA, 32)
    for j in range(out.get_height()):
        for i in range(out.get_width()):
            dx, dy = left + i + 0.5 - w / 2, top + j + 0.5 - h / 2
            du, dv = dx * cos + dy * sin, -dx * sin + dy * cos
            if abs(du) > w / 2 or abs(dv) > h / 2:
                continue
            r, g, b, a = _bilinear(pixels, du + w / 2, dv + h / 2)
            if a > 0:
                out.set_at((i, j), (round(r * 255 / a), round(g * 255 / a),
                                    round(b * 255 / a), round(a)))
    return out, (left, top)


class BoardRenderer:
    """Renders a board's static layers once and draws them scaled.

    ``skip_layers`` names layers not to draw (for example data layers).
    ``background`` fills the map's background colour, when it has one.
    """

    def __init__(self, source: str | os.PathLike[str] | Board, *,
                 background: bool = True,
                 skip_layers: Iterable[str] = ()) -> None:
        self.board = (source if isinstance(source, Board)
                      else load_board(source))
        self.background = background
        self.skip_layers = set(skip_layers)
        self._files: dict[tuple[str, str | None], pygame.Surface] = {}
        self._tiles: dict[tuple[int, float], _Placed | None] = {}
        self._anchor_list: list[tuple[int, int, int, int]] | None = None
        self._static: pygame.Surface | None = None
        self._scaled: OrderedDict[tuple[int, int], pygame.Surface] = \
            OrderedDict()
        self.bounds = self._bounds()

    # -- images ----------------------------------------------------------
    def _file(self, path: str, trans: str | None) -> pygame.Surface:
        key = (path, trans)
        if key not in self._files:
            self._files[key] = _load_image(path, trans)
        return self._files[key]

    def _base_tile(self, gid: int) -> pygame.Surface | None:
        """The untransformed image of a tile gid, or None if it has none."""
        ts = self.board.tileset_for(gid)
        if ts is None:
            return None
        local = gid - ts.firstgid
        info = ts.tiles.get(local)
        if info is not None and info.image:
            return self._file(info.image, info.trans)
        if not ts.image:
            return None
        sheet = self._file(ts.image, ts.trans)
        rect = pygame.Rect(ts.tile_rect(local, sheet.get_width()))
        if not sheet.get_rect().contains(rect):
            return None
        return sheet.subsurface(rect)

    def tile_image(self, raw_gid: int, opacity: float = 1.0
                   ) -> tuple[pygame.Surface, tuple[int, int]] | None:
        """A cell's tile image with flips/rotation and opacity applied, and
        its top-left relative to the cell's bottom-left anchor (cached)."""
        key = (raw_gid, opacity)
        if key not in self._tiles:
            self._tiles[key] = self._make_tile(raw_gid, opacity)
        return self._tiles[key]

    def _make_tile(self, raw_gid: int, opacity: float) -> _Placed | None:
        ref = split_gid(raw_gid)
        ts = self.board.tileset_for(ref.gid)
        base = self._base_tile(ref.gid)
        if base is None:
            return None
        w, h = base.get_size()
        offx, offy = ts.offset
        hexagonal = self.board.hex is not None
        image = _transpose(base) if ref.flip_d and not hexagonal else base
        image = _with_opacity(
            pygame.transform.flip(image, ref.flip_h, ref.flip_v), opacity)
        angle = 60 * ref.flip_d + 120 * ref.rotate_120 if hexagonal else 0
        if angle % 360:
            image, (x, y) = _rotate_like_qt(image, angle)
            return image, (offx + x, offy - h + y)
        return image, (offx, offy - image.get_height())

    # -- geometry --------------------------------------------------------
    def anchors(self) -> list[tuple[int, int, int, int]]:
        """(col, row, x, y) per cell, in Tiled's drawing order; (x, y) is
        the bottom-left corner of the cell in map pixels."""
        if self._anchor_list is None:
            self._anchor_list = list(self._anchors())
        return self._anchor_list

    def _anchors(self) -> Iterator[tuple[int, int, int, int]]:
        """(col, row, x, y): bottom-left anchor of each cell in draw order."""
        b = self.board
        if b.hex is not None:
            cells = []
            for row in range(b.height):
                for col in range(b.width):
                    x, y = b.hex.tile_to_pixel(col, row)
                    cells.append((y, x, col, row))
            for y, x, col, row in sorted(cells):
                yield col, row, x, y + b.hex.tile_height
            return
        order = b.renderorder
        rows = range(b.height - 1, -1, -1) if order.endswith("up") \
            else range(b.height)
        cols = range(b.width - 1, -1, -1) if order.startswith("left") \
            else range(b.width)
        for row in rows:
            for col in cols:
                yield col, row, col * b.tilewidth, (row + 1) * b.tileheight

    def _bounds(self) -> pygame.Rect:
        """The rectangle tmxrasterizer 1.8 renders, in map pixels: the map
        grown by the (total) offset of every non-group layer, hidden ones
        included.  Newer Tiled counts only tile layers and also grows to fit
        image layers."""
        w, h = self.board.pixel_size
        grow = [0, 0, 0, 0]
        for layer in self.board.map_layers:
            if layer.kind == "group":
                continue
            ox, oy = layer.offset
            grow = [max(g, math.ceil(m))
                    for g, m in zip(grow, (-ox, -oy, ox, oy))]
        return pygame.Rect(-grow[0], -grow[1], w + grow[0] + grow[2],
                           h + grow[1] + grow[3])

    # -- drawing -----------------------------------------------------------
    def _draw_tile_layer(self, target: pygame.Surface, layer: Layer,
                         dx: int, dy: int) -> None:
        for col, row, ax, ay in self.anchors():
            raw = layer.raw_gid(col, row)
            placed = self.tile_image(raw, layer.opacity) if raw else None
            if placed is not None:
                image, (x, y) = placed
                target.blit(image, (ax + dx + x, ay + dy + y))

    def _draw_image_layer(self, target: pygame.Surface, layer: Layer,
                          dx: int, dy: int) -> None:
        if not layer.image:
            return
        image = _with_opacity(self._file(layer.image, layer.trans),
                              layer.opacity)
        target.blit(image, (dx, dy))

    def drawn_layers(self) -> list[Layer]:
        """The layers the static surface shows, in drawing order."""
        return [l for l in self.board.map_layers
                if l.kind in ("tile", "image") and l.visible
                and l.name not in self.skip_layers]

    def render(self, background: bool | None = None) -> pygame.Surface:
        """A fresh RGBA surface of ``bounds`` with the drawn layers."""
        surface = pygame.Surface(self.bounds.size, pygame.SRCALPHA, 32)
        color = self.board.background_color
        if (self.background if background is None else background) and color:
            surface.fill(parse_color(color))
        for layer in self.drawn_layers():
            dx = round(layer.offset[0]) - self.bounds.x
            dy = round(layer.offset[1]) - self.bounds.y
            if layer.kind == "tile":
                self._draw_tile_layer(surface, layer, dx, dy)
            else:
                self._draw_image_layer(surface, layer, dx, dy)
        return surface

    def static_surface(self) -> pygame.Surface:
        """The cached picture of all static layers (origin ``bounds.topleft``).
        """
        if self._static is None:
            self._static = self.render()
        return self._static

    def invalidate(self) -> None:
        """Forget cached pictures (after changing the board's layers)."""
        self._static = None
        self._scaled.clear()

    def fit(self, rect: pygame.Rect | tuple[int, int, int, int]
            ) -> ViewTransform:
        """Uniform scale that fits the picture into ``rect``, centred."""
        rect = pygame.Rect(rect)
        b = self.bounds
        scale = min(rect.width / b.width, rect.height / b.height)
        ox = rect.x + (rect.width - b.width * scale) / 2 - b.x * scale
        oy = rect.y + (rect.height - b.height * scale) / 2 - b.y * scale
        return ViewTransform(scale, ox, oy)

    def scaled_surface(self, scale: float) -> pygame.Surface:
        """The static picture at ``scale`` (a few sizes are cached)."""
        b = self.bounds
        size = (max(1, round(b.width * scale)),
                max(1, round(b.height * scale)))
        cached = self._scaled.get(size)
        if cached is None:
            cached = self._scale(self.static_surface(), size)
            self._scaled[size] = cached
            while len(self._scaled) > _SCALED_CACHE:
                self._scaled.popitem(last=False)
        else:
            self._scaled.move_to_end(size)
        return cached

    @staticmethod
    def _scale(source: pygame.Surface, size: tuple[int, int]
               ) -> pygame.Surface:
        if size == source.get_size():
            out = source
        elif size[0] < source.get_width():
            out = pygame.transform.smoothscale(source, size)
        else:
            out = pygame.transform.scale(source, size)
        if pygame.display.get_init() and pygame.display.get_surface():
            out = out.convert_alpha()
        return out

    def draw(self, surface: pygame.Surface, transform: ViewTransform) -> None:
        """Blit the (cached, scaled) static picture onto ``surface``."""
        image = self.scaled_surface(transform.scale)
        x, y = transform.to_screen(self.bounds.x, self.bounds.y)
        surface.blit(image, (round(x), round(y)))


def render_map(tmx_path: str | os.PathLike[str],
               out_png: str | os.PathLike[str],
               background: bool = False) -> tuple[int, int]:
    """Render a map's visible tile and image layers to a PNG, like
    ``tmxrasterizer MAP.tmx OUT.png`` (which leaves the background
    transparent); returns the picture size.

    Every problem with the map, a file it names or the output path raises
    :class:`MapError` ("FILE: problem"), before anything is written.
    """
    out = os.fspath(out_png)
    folder = os.path.dirname(os.path.abspath(out))
    if os.path.isdir(out):
        raise MapError(out, "is a folder; give a file name for the picture")
    if not out.lower().endswith(PICTURE_SUFFIXES):
        raise MapError(out, "the picture must be named .png (or .bmp, .tga, .jpg)")
    if not os.path.isdir(folder):
        raise MapError(out, f"cannot be written: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise MapError(out, f"cannot be written: the folder {folder} is read-only")
    board = load_board(tmx_path)
    try:
        renderer = BoardRenderer(board)
        background_color = board.background_color
        if background and background_color:
            parse_color(background_color)
    except (ValueError, OverflowError) as exc:
        raise MapError(board.path, f"has a layer offset or colour that cannot be used "
                                   f"({exc})") from None
    width, height = renderer.bounds.size
    if (width < 1 or height < 1 or max(width, height) > MAX_PICTURE_SIDE
            or width * height > MAX_PICTURE_PIXELS):
        raise MapError(board.path, f"would render to a picture of {width}x{height} pixels "
                                   f"(at most {MAX_PICTURE_SIDE} a side and "
                                   f"{MAX_PICTURE_PIXELS // 2**20} megapixels)")
    try:
        surface = renderer.render(background=background)
    except MapError:
        raise
    except (pygame.error, MemoryError, ValueError, OverflowError) as exc:
        raise MapError(board.path, f"cannot be rendered ({exc or 'out of memory'})") from None
    try:
        pygame.image.save(surface, out)
    except (pygame.error, OSError) as exc:
        raise MapError(out, f"cannot be written ({exc})") from None
    return surface.get_size()
