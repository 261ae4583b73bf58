"""Where the program finds its boards and art, and keeps saves and settings."""

from __future__ import annotations

import os
from pathlib import Path

from game.resources import ROOT, assets_dir, boards_dir

BOARDS = boards_dir()
ASSETS = assets_dir()
GAME_PACKAGE = ROOT / "game"


def saves_dir() -> Path:
    """The saves folder: ``$TABLETOP_SAVES`` or the project's ``saves/``."""
    return Path(os.environ.get("TABLETOP_SAVES") or ROOT / "saves")


def settings_path() -> Path:
    """The settings file: ``$TABLETOP_HOME/settings.yaml`` or the user's config folder."""
    home = os.environ.get("TABLETOP_HOME")
    if home:
        return Path(home) / "settings.yaml"
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "tabletop" / "settings.yaml"


def autosave_path(game_id: str) -> Path:
    """Where a game's autosave lives."""
    return saves_dir() / f"autosave-{game_id}.yaml"
