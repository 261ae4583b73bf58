"""Where the program's own files are: the Tiled boards and the art.

In a checkout they are the top-level ``boards/`` and ``assets/`` folders (where the maps stay
editable in Tiled).  An installed program (a wheel, pipx, the one-folder bundle) carries the same
files inside the package as ``game/boards`` and ``game/assets`` (``pyproject.toml`` maps the
folders there).  Pure: no pygame, nothing read at import time.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


def _folder(name: str) -> Path:
    inside = PACKAGE / name          # an installed program or the bundle
    if inside.is_dir():
        return inside
    return ROOT / name               # a checkout


def boards_dir() -> Path:
    """The folder of Tiled maps (``.tmx``, ``.tsx`` and their images)."""
    return _folder("boards")


def assets_dir() -> Path:
    """The folder of art that is not part of a map."""
    return _folder("assets")


def board_path(name: str) -> Path:
    """A board file by name, e.g. ``board_path("mothership.tmx")``."""
    return boards_dir() / name


def running_from_checkout() -> bool:
    """True when the program runs from a source checkout (``pyproject.toml`` beside ``game/``
    and the top-level ``boards/``), not from an installed copy."""
    return (ROOT / "pyproject.toml").is_file() and (ROOT / "boards").is_dir() \
        and not (PACKAGE / "boards").is_dir()
