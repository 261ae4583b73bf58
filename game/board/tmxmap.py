"""Load a Tiled ``.tmx`` map into a ``Board`` the rules can use.

Pure Python (no pygame).  pytmx parses the map (no images: its default
loader only records file names); the XML is read alongside it for what
pytmx 3.32 loses:

* layer order -- pytmx groups layers by type; we walk the file in order,
  with group offsets, opacity and visibility folded into each layer;
* object shapes -- points and ellipses look like rectangles in pytmx;
* which custom properties are object references (``type="object"``);
* raw tile gids, with all four flip/rotate bits (pytmx drops the hexagonal
  120-degree bit and renumbers gids);
* tilesets (embedded, external ``.tsx``, image collections) with per-tile
  custom properties.

Note that importing pytmx normally imports pygame (both its package and its
parser module try to, for type hints); ``_pytmx_core`` loads the parser with
pygame hidden when pygame is not loaded yet.
"""
from __future__ import annotations

import importlib.util
import math
import os
import stat
import sys
import xml.etree.ElementTree as ET
from collections import deque
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Hashable, NamedTuple

from .grid import Grid
from .hexgrid import DIRECTIONS, TiledHexLayout
from .track import MapObject, Track, _rotate

__all__ = [
    "FLIP_H", "FLIP_V", "FLIP_D", "ROTATE_120", "GID_MASK", "TileRef",
    "split_gid", "TileInfo", "Tileset", "Layer", "MapObject", "Board",
    "load_board", "MapError", "check_file",
]

FLIP_H = 0x80000000
FLIP_V = 0x40000000
FLIP_D = 0x20000000
ROTATE_120 = 0x10000000
GID_MASK = 0x0FFFFFFF

#: Bounds on what a map file may ask for, so that a damaged or hostile file
#: is refused with a message instead of exhausting memory.
MAX_FILE_BYTES = 32 * 2**20
MAX_MAP_TILES = 1 << 20        # cells per layer (say 1024 x 1024)
MAX_TILE_PIXELS = 4096         # a tile's width or height


class MapError(ValueError):
    """A map, or a file it names, that cannot be used: which file, and why.

    ``str()`` gives one line, ``"FILE: problem"``.
    """

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = os.fspath(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def check_file(path: str | os.PathLike[str], what: str = "file",
               limit: int = MAX_FILE_BYTES) -> None:
    """Refuse (MapError) anything but an existing regular file of at most
    ``limit`` bytes: a folder, a FIFO (reading would block) or a device such
    as ``/dev/zero`` (reading would never end)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise MapError(path, f"{what} not found") from None
    except (OSError, ValueError) as exc:
        raise MapError(path, f"{what} cannot be read "
                             f"({getattr(exc, 'strerror', None) or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise MapError(path, f"is a folder, not a {what}")
    if not stat.S_ISREG(info.st_mode):
        raise MapError(path, f"is not a regular file (a {what} must be one)")
    if info.st_size == 0:
        raise MapError(path, f"is empty (not a {what})")
    if info.st_size > limit:
        raise MapError(path, f"is too large for a {what} ({info.st_size // 2**20} MB; "
                             f"at most {limit // 2**20} MB)")


def _parse_xml(path: str, what: str) -> ET.Element:
    """The root of an XML file, or MapError saying why it is not one."""
    check_file(path, what)
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise MapError(path, f"is not a {what} (not valid XML: {exc})") from None
    except OSError as exc:
        raise MapError(path, f"{what} cannot be read ({exc.strerror or exc})") from None


def _check_numbers(root: ET.Element, path: str) -> None:
    """The map's size attributes are whole numbers in a sane range."""
    values = {}
    for name, top in (("width", MAX_MAP_TILES), ("height", MAX_MAP_TILES),
                      ("tilewidth", MAX_TILE_PIXELS), ("tileheight", MAX_TILE_PIXELS)):
        text = root.get(name)
        if text is None or not text.strip().isascii() or not text.strip().isdigit():
            raise MapError(path, f"map {name} {text!r} is not a whole number")
        value = values[name] = int(text)
        if value < 1 or value > top:
            raise MapError(path, f"map {name} {value} is out of range (1 to {top})")
    if values["width"] * values["height"] > MAX_MAP_TILES:
        raise MapError(path, f"map size {values['width']}x{values['height']} has too many "
                             f"tiles (at most {MAX_MAP_TILES})")


LAYER_TAGS = {"layer": "tile", "objectgroup": "object",
              "imagelayer": "image", "group": "group"}
NATURAL_KINDS = {"hexagonal": "hex", "orthogonal": "grid"}


def _pytmx_core() -> ModuleType:
    """pytmx's parser module, loaded without importing pygame.

    A later ``import pytmx`` (with pygame about) reuses this module.
    """
    core = sys.modules.get("pytmx.pytmx")
    if core is not None:
        return core
    if "pygame" in sys.modules:
        import pytmx.pytmx as loaded
        return loaded
    package = importlib.util.find_spec("pytmx")
    if package is None or not package.submodule_search_locations:
        raise ImportError("pytmx is not installed")
    path = os.path.join(package.submodule_search_locations[0], "pytmx.py")
    spec = importlib.util.spec_from_file_location("pytmx.pytmx", path)
    core = importlib.util.module_from_spec(spec)
    sys.modules["pygame"] = None  # type: ignore[assignment]
    sys.modules["pytmx.pytmx"] = core
    try:
        spec.loader.exec_module(core)
    except BaseException:
        del sys.modules["pytmx.pytmx"]
        raise
    finally:
        del sys.modules["pygame"]
    return core


class TileRef(NamedTuple):
    """A decoded layer cell: tile gid plus Tiled's transformation flags."""

    gid: int
    flip_h: bool = False
    flip_v: bool = False
    flip_d: bool = False
    rotate_120: bool = False


def split_gid(raw: int) -> TileRef:
    """Decode a raw Tiled gid into gid and flags.

    >>> split_gid(0x80000005)
    TileRef(gid=5, flip_h=True, flip_v=False, flip_d=False, rotate_120=False)
    """
    return TileRef(raw & GID_MASK, bool(raw & FLIP_H), bool(raw & FLIP_V),
                   bool(raw & FLIP_D), bool(raw & ROTATE_120))


@dataclass
class TileInfo:
    """A tile that the tileset says something about (properties, image)."""

    id: int
    type: str = ""
    properties: dict[str, Any] = field(default_factory=dict)
    image: str | None = None
    width: int = 0
    height: int = 0
    trans: str | None = None


@dataclass
class Tileset:
    """A tileset as Tiled slices it; paths are absolute."""

    firstgid: int
    name: str
    tilewidth: int
    tileheight: int
    tilecount: int = 0
    columns: int = 0
    margin: int = 0
    spacing: int = 0
    image: str | None = None
    image_width: int = 0
    image_height: int = 0
    trans: str | None = None
    offset: tuple[int, int] = (0, 0)
    tiles: dict[int, TileInfo] = field(default_factory=dict)
    properties: dict[str, Any] = field(default_factory=dict)
    source: str | None = None

    def columns_for(self, image_width: int) -> int:
        """Tiles per row of an image this wide, as Tiled counts them."""
        step = self.tilewidth + self.spacing
        return max(1, (image_width - self.margin + self.spacing) // step)

    def tile_rect(self, local_id: int,
                  image_width: int | None = None) -> tuple[int, int, int, int]:
        """Where tile ``local_id`` sits in the tileset image."""
        cols = self.columns_for(image_width or self.image_width)
        col, row = local_id % cols, local_id // cols
        return (self.margin + col * (self.tilewidth + self.spacing),
                self.margin + row * (self.tileheight + self.spacing),
                self.tilewidth, self.tileheight)

    def tile_size(self, local_id: int) -> tuple[int, int]:
        """Drawn size of a tile (its own image's size in collections)."""
        info = self.tiles.get(local_id)
        if info is not None and info.image and info.width and info.height:
            return info.width, info.height
        return self.tilewidth, self.tileheight


@dataclass
class Layer:
    """One layer in file order, with group effects already folded in."""

    kind: str
    name: str
    id: int = 0
    visible: bool = True
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)
    properties: dict[str, Any] = field(default_factory=dict)
    depth: int = 0
    width: int = 0
    height: int = 0
    data: list[list[int]] = field(default_factory=list)
    objects: list[MapObject] = field(default_factory=list)
    image: str | None = None
    image_size: tuple[int, int] = (0, 0)
    trans: str | None = None

    def raw_gid(self, col: int, row: int) -> int:
        """Raw gid (with flags) at a tile, 0 when empty or outside."""
        if 0 <= row < len(self.data) and 0 <= col < len(self.data[row]):
            return self.data[row][col]
        return 0


Cell = Hashable


class Board:
    """A loaded map seen as a game board of cells.

    ``kind`` is ``"hex"``, ``"grid"`` or ``"track"``; cells are ``Hex``
    (axial), ``(x, y)`` tuples or space names accordingly.  On hex and grid
    boards, tiles left empty in every tile layer are holes, not cells (a map
    without tile layers has none).  Pixel positions are map pixels, as in
    Tiled.
    """

    def __init__(self, path: str, tmx: Any, root: ET.Element) -> None:
        self.path = os.path.abspath(path)
        self.orientation: str = tmx.orientation
        self.width: int = int(tmx.width)
        self.height: int = int(tmx.height)
        self.tilewidth: int = int(tmx.tilewidth)
        self.tileheight: int = int(tmx.tileheight)
        self.renderorder: str = tmx.renderorder or "right-down"
        self.background_color: str | None = tmx.background_color
        self.properties: dict[str, Any] = dict(tmx.properties)
        self.tilesets: list[Tileset] = _read_tilesets(root, self.path)
        self.map_layers: list[Layer] = _read_layers(root, tmx, self.path)
        self.layers: list[str] = [l.name for l in self.map_layers]
        self.objects: list[MapObject] = [
            o for l in self.map_layers for o in l.objects]
        self.kind = self._kind()
        self.hex: TiledHexLayout | None = None
        self.grid: Grid | None = None
        self.track: Track | None = None
        if self.orientation == "hexagonal":
            self.hex = TiledHexLayout(
                self.tilewidth, self.tileheight,
                int(float(root.get("hexsidelength", 0))),
                root.get("staggeraxis", "y"), root.get("staggerindex", "odd"))
        elif self.orientation == "orthogonal":
            self.grid = Grid(self.width, self.height, self.tilewidth,
                             self.tileheight,
                             bool(self.properties.get("wrap_x", False)),
                             bool(self.properties.get("wrap_y", False)))
        if self.kind == "track":
            self.track = Track.from_objects(self.objects, self.snap)
        self.pixel_size: tuple[int, int] = self._pixel_size()
        self._tiles = self._filled_tiles()
        self._tile_props = self._tile_properties()

    def __repr__(self) -> str:
        return (f"Board({os.path.basename(self.path)!r}, kind={self.kind!r}, "
                f"{self.width}x{self.height})")

    # -- construction helpers -------------------------------------------
    def _kind(self) -> str:
        natural = NATURAL_KINDS.get(self.orientation)
        forced = self.properties.get("board_kind")
        if forced is None and natural is None:
            raise ValueError(f"unsupported orientation {self.orientation!r} "
                             f"(set board_kind=track for object-only boards)")
        if forced is None or forced in ("track", natural):
            return forced or natural
        raise ValueError(f"board_kind {forced!r} does not fit orientation "
                         f"{self.orientation!r}")

    @property
    def snap(self) -> float:
        """How near (pixels) a point must be to count as on a space."""
        default = max(self.tilewidth, self.tileheight)
        return float(self.properties.get("link_snap", default))

    def _pixel_size(self) -> tuple[int, int]:
        if self.hex is not None:
            return self.hex.map_pixel_size(self.width, self.height)
        return self.width * self.tilewidth, self.height * self.tileheight

    def _filled_tiles(self) -> set[tuple[int, int]] | None:
        """Tiles that hold a tile in some tile layer (None: no tile layers).
        """
        tile_layers = [l for l in self.map_layers if l.kind == "tile"]
        if not tile_layers:
            return None
        return {(c, r) for l in tile_layers for r, row in enumerate(l.data)
                for c, raw in enumerate(row) if raw & GID_MASK}

    def _tile_properties(self) -> dict[tuple[int, int], dict[str, Any]]:
        """Merged custom tile properties per tile, upper layers winning."""
        merged: dict[tuple[int, int], dict[str, Any]] = {}
        for layer in self.map_layers:
            if layer.kind != "tile":
                continue
            for r, row in enumerate(layer.data):
                for c, raw in enumerate(row):
                    props = self.tile_properties(raw & GID_MASK)
                    if props:
                        merged.setdefault((c, r), {}).update(props)
        return merged

    # -- tiles and tilesets ------------------------------------------------
    def tileset_for(self, gid: int) -> Tileset | None:
        """The tileset owning a gid (flags ignored), if any."""
        gid &= GID_MASK
        owner = None
        for ts in self.tilesets:
            if ts.firstgid <= gid:
                owner = ts
        return owner if gid else None

    def tile_info(self, gid: int) -> TileInfo | None:
        """The tileset's record for a gid, if it has one."""
        ts = self.tileset_for(gid)
        return ts.tiles.get((gid & GID_MASK) - ts.firstgid) if ts else None

    def tile_properties(self, gid: int) -> dict[str, Any]:
        """Custom properties of a tile gid (empty if none)."""
        info = self.tile_info(gid)
        return dict(info.properties) if info else {}

    def layer(self, name: str) -> Layer:
        """The first layer called ``name`` (KeyError if none)."""
        for l in self.map_layers:
            if l.name == name:
                return l
        raise KeyError(name)

    # -- cells -------------------------------------------------------------
    def tile_xy(self, cell: Cell) -> tuple[int, int]:
        """Tile ``(col, row)`` of a hex or grid cell."""
        if self.kind == "hex":
            return self.hex.tile_of(cell)
        if self.kind == "grid":
            return cell
        raise TypeError("track boards have no tile coordinates")

    def cell_of_tile(self, col: int, row: int) -> Cell:
        """The cell at a tile ``(col, row)``."""
        if self.kind == "hex":
            return self.hex.hex_of(col, row)
        return col, row

    def _tile_is_cell(self, col: int, row: int) -> bool:
        inside = 0 <= col < self.width and 0 <= row < self.height
        return inside and (self._tiles is None or (col, row) in self._tiles)

    def is_cell(self, cell: Cell) -> bool:
        """Whether ``cell`` is a playable cell of this board."""
        if self.kind == "track":
            return cell in self.track
        try:
            return self._tile_is_cell(*self.tile_xy(cell))
        except (TypeError, ValueError, AttributeError):
            return False

    def cells(self) -> list[Cell]:
        """Every cell: axial hexes, (x, y) tuples or space names."""
        if self.kind == "track":
            return list(self.track.spaces)
        return [self.cell_of_tile(c, r) for r in range(self.height)
                for c in range(self.width) if self._tile_is_cell(c, r)]

    def cell_center(self, cell: Cell) -> tuple[float, float]:
        """Centre of a cell in map pixels."""
        if self.kind == "track":
            return self.track.space(cell).center
        col, row = self.tile_xy(cell)
        if self.hex is not None:
            return self.hex.tile_center(col, row)
        return (col + 0.5) * self.tilewidth, (row + 0.5) * self.tileheight

    def cell_at(self, px: float, py: float) -> Cell | None:
        """The cell under a map pixel, or None."""
        if self.kind == "track":
            space = self.track.resolve(px, py, self.snap)
            return space.name if space else None
        if self.hex is not None:
            col, row = self.hex.tile_at(px, py)
        else:
            col = math.floor(px / self.tilewidth)
            row = math.floor(py / self.tileheight)
        if not self._tile_is_cell(col, row):
            return None
        return self.cell_of_tile(col, row)

    def neighbours(self, cell: Cell) -> list[Cell]:
        """Adjacent cells (hex: 6, grid: 4 with wrap, track: link targets)."""
        if self.kind == "track":
            return self.track.neighbours(cell)
        if self.kind == "hex":
            return [n for n in (cell + d for d in DIRECTIONS)
                    if self.is_cell(n)]
        return [n for n in self.grid.neighbours(cell) if self.is_cell(n)]

    def distance(self, a: Cell, b: Cell) -> int:
        """Steps between cells, ignoring holes (track: fewest links)."""
        if self.kind == "hex":
            return (a - b).length()
        if self.kind == "grid":
            return self.grid.distance(a, b)
        return _bfs_steps(self.track.neighbours, a, b)

    def cell_properties(self, cell: Cell) -> dict[str, Any]:
        """Custom properties of a cell: merged tile properties, or the
        space's properties on a track."""
        if self.kind == "track":
            return dict(self.track.space(cell).properties)
        return dict(self._tile_props.get(self.tile_xy(cell), {}))

    def gid_at(self, layer: str, cell: Cell) -> int:
        """Tile gid (flags removed) of a cell in a tile layer, 0 if empty."""
        return self.layer(layer).raw_gid(*self.tile_xy(cell)) & GID_MASK


def _bfs_steps(neighbours: Any, a: Hashable, b: Hashable) -> int:
    """Fewest steps from a to b through ``neighbours`` (-1 unreachable)."""
    seen = {a: 0}
    todo = deque([a])
    while todo:
        cur = todo.popleft()
        if cur == b:
            return seen[cur]
        for n in neighbours(cur):
            if n not in seen:
                seen[n] = seen[cur] + 1
                todo.append(n)
    return -1


# -- XML readers -------------------------------------------------------------
def _props(node: ET.Element) -> dict[str, Any]:
    """Typed custom properties of a node (pytmx's own caster)."""
    return _pytmx_core().parse_properties(node)


def _object_refs(node: ET.Element) -> dict[str, int]:
    """``type="object"`` properties of a node: name -> object id."""
    return {p.get("name"): int(p.get("value") or 0)
            for p in node.findall("properties/property")
            if p.get("type") == "object"}


def _read_tilesets(root: ET.Element, map_path: str) -> list[Tileset]:
    """All tilesets of the map, external ones read from their .tsx."""
    found = []
    base = os.path.dirname(map_path)
    for ref in root.findall("tileset"):
        node, where = ref, base
        source = ref.get("source")
        if source:
            tsx = os.path.normpath(os.path.join(base, source))
            node, where = ET.parse(tsx).getroot(), os.path.dirname(tsx)
        ts = _tileset(node, int(ref.get("firstgid", 1)), where)
        ts.source = tsx if source else None
        found.append(ts)
    return sorted(found, key=lambda t: t.firstgid)


def _tileset(node: ET.Element, firstgid: int, where: str) -> Tileset:
    """One tileset element (embedded or a .tsx root)."""
    def num(name: str, default: int = 0) -> int:
        return int(node.get(name, default))

    ts = Tileset(firstgid, node.get("name", ""), num("tilewidth"),
                 num("tileheight"), num("tilecount"), num("columns"),
                 num("margin"), num("spacing"), properties=_props(node))
    offset = node.find("tileoffset")
    if offset is not None:
        ts.offset = (int(offset.get("x", 0)), int(offset.get("y", 0)))
    image = node.find("image")
    if image is not None:
        ts.image = os.path.normpath(os.path.join(where, image.get("source")))
        ts.image_width = int(image.get("width", 0))
        ts.image_height = int(image.get("height", 0))
        ts.trans = image.get("trans")
    for tile in node.findall("tile"):
        info = TileInfo(int(tile.get("id")),
                        tile.get("type") or tile.get("class") or "",
                        _props(tile))
        own = tile.find("image")
        if own is not None:
            info.image = os.path.normpath(os.path.join(where,
                                                       own.get("source")))
            info.width = int(own.get("width", 0))
            info.height = int(own.get("height", 0))
            info.trans = own.get("trans")
        ts.tiles[info.id] = info
    return ts


def _read_layers(root: ET.Element, tmx: Any, map_path: str) -> list[Layer]:
    """Layers in file order, paired with pytmx's by tag order."""
    core = _pytmx_core()
    kinds = {"layer": core.TiledTileLayer,
             "objectgroup": core.TiledObjectGroup,
             "imagelayer": core.TiledImageLayer,
             "group": core.TiledGroupLayer}
    parsed: dict[int, Any] = {}
    for tag, cls in kinds.items():
        ours = [l for l in tmx.layers if type(l) is cls]
        parsed.update(zip(map(id, root.iter(tag)), ours))
    layers: list[Layer] = []
    top = Layer("group", "", depth=-1)
    _walk(root, parsed, os.path.dirname(map_path), top, layers)
    return layers


def _walk(parent: ET.Element, parsed: dict[int, Any], base: str,
          outer: Layer, out: list[Layer]) -> None:
    """Append the layers under ``parent`` (recursing into groups)."""
    for node in parent:
        kind = LAYER_TAGS.get(node.tag)
        if kind is None:
            continue
        layer = _layer(node, kind, parsed.get(id(node)), outer, base)
        out.append(layer)
        if kind == "group":
            _walk(node, parsed, base, layer, out)


def _layer(node: ET.Element, kind: str, ptmx: Any, outer: Layer,
           base: str) -> Layer:
    """One layer element with its group's effects folded in."""
    ox = float(node.get("offsetx", 0)) + outer.offset[0]
    oy = float(node.get("offsety", 0)) + outer.offset[1]
    props = dict(ptmx.properties) if ptmx is not None else _props(node)
    layer = Layer(kind, node.get("name", ""), int(node.get("id", 0)),
                  outer.visible and node.get("visible", "1") != "0",
                  outer.opacity * float(node.get("opacity", 1)), (ox, oy),
                  props, outer.depth + 1,
                  int(node.get("width", 0)), int(node.get("height", 0)))
    if kind == "tile":
        layer.data = _tile_data(node, layer.width)
    elif kind == "object":
        layer.objects = _objects(node, ptmx, layer.name, layer.offset)
    elif kind == "image":
        image = node.find("image")
        if image is not None and image.get("source"):
            layer.image = os.path.normpath(os.path.join(base,
                                                        image.get("source")))
            layer.image_size = (int(image.get("width", 0)),
                                int(image.get("height", 0)))
            layer.trans = image.get("trans")
    return layer


def _tile_data(node: ET.Element, width: int) -> list[list[int]]:
    """Raw gids (flags kept) of a tile layer, row by row."""
    data = node.find("data")
    if data is None or data.find("chunk") is not None:
        raise ValueError("infinite maps are not supported")
    gids = _pytmx_core().unpack_gids(
        (data.text or "").strip(), data.get("encoding"),
        data.get("compression"))
    if gids is None:
        raise ValueError("XML <tile> layer data is not supported")
    return [gids[i:i + width] for i in range(0, len(gids), width)]


def _shape(node: ET.Element) -> str:
    """An object's shape from its XML (pytmx shows points as rectangles)."""
    for tag in ("point", "ellipse", "polygon", "polyline", "text"):
        if node.find(tag) is not None:
            return tag
    return "tile" if node.get("gid") else "rectangle"


def _objects(node: ET.Element, group: Any, layer: str,
             offset: tuple[float, float]) -> list[MapObject]:
    """The objects of an object group, with shapes and links restored,
    moved by the layer's total offset (where Tiled draws them)."""
    result = []
    dx, dy = offset
    for xml_obj, obj in zip(node.findall("object"), group or ()):
        shape = _shape(xml_obj)
        rot = float(getattr(obj, "rotation", 0) or 0)
        points: tuple[tuple[float, float], ...] = ()
        if shape in ("polygon", "polyline"):
            turned = (_rotate(px, py, obj.x, obj.y, rot)
                      for px, py in obj.points)
            points = tuple((px + dx, py + dy) for px, py in turned)
        result.append(MapObject(
            id=int(obj.id), name=obj.name or "",
            type=xml_obj.get("type") or xml_obj.get("class") or "",
            shape=shape, x=float(obj.x) + dx, y=float(obj.y) + dy,
            width=float(obj.width or 0), height=float(obj.height or 0),
            rotation=rot, points=points, properties=dict(obj.properties),
            object_refs=_object_refs(xml_obj), layer=layer,
            gid=int(xml_obj.get("gid", 0)),
            visible=xml_obj.get("visible", "1") != "0"))
    return result


def load_board(path: str | os.PathLike[str]) -> Board:
    """Read a ``.tmx`` file into a ``Board`` (no images are loaded).

    Anything wrong with the map or a tileset it names raises
    :class:`MapError` (a ValueError) naming the file and the problem.
    """
    path = os.fspath(path)
    root = _parse_xml(path, "Tiled map")
    if root.tag != "map":
        raise MapError(path, f"is not a Tiled map (its top element is <{root.tag}>, "
                             f"not <map>)")
    if root.get("infinite") == "1":
        raise MapError(path, "infinite maps are not supported")
    _check_numbers(root, path)
    for ref in root.findall("tileset"):
        if ref.get("source"):
            tsx = os.path.normpath(os.path.join(os.path.dirname(path), ref.get("source")))
            if _parse_xml(tsx, "tileset").tag != "tileset":
                raise MapError(tsx, "is not a Tiled tileset (no <tileset> element)")
    try:
        tmx = _pytmx_core().TiledMap(path, allow_duplicate_names=True)
        return Board(path, tmx, root)
    except MapError:
        raise
    except (MemoryError, RecursionError):
        raise MapError(path, "is too large or too deeply nested to read") from None
    except Exception as exc:  # pytmx raises bare Exceptions; name the file, not a traceback
        raise MapError(path, f"cannot be read as a board ({exc or type(exc).__name__})") \
            from None
