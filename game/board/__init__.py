"""Board geometry and map loading.

Everything importable from here is pure Python (no pygame), so rules code
can use it; the pygame renderer lives in ``game.board.render`` and is only
imported on demand.
"""
from .grid import Grid
from .hexgrid import (
    FLAT, POINTY, FractionalHex, Hex, Layout, Orientation, Point,
    TiledHexLayout, axial_to_offset, distance, hex_range, hex_round, line,
    neighbors, offset_to_axial, ring, spiral,
)
from .tmxmap import Board, Layer, TileInfo, Tileset, load_board, split_gid
from .track import Link, MapObject, Space, Track

__all__ = [
    "Grid", "FLAT", "POINTY", "FractionalHex", "Hex", "Layout",
    "Orientation", "Point", "TiledHexLayout", "axial_to_offset", "distance",
    "hex_range", "hex_round", "line", "neighbors", "offset_to_axial", "ring",
    "spiral", "Board", "Layer", "TileInfo", "Tileset", "load_board",
    "split_gid", "Link", "MapObject", "Space", "Track",
]
