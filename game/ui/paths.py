"""Where the program finds its boards and art, and keeps saves and settings."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import platformdirs

from game.resources import ROOT, assets_dir, boards_dir, running_from_checkout

BOARDS = boards_dir()
ASSETS = assets_dir()
GAME_PACKAGE = ROOT / "game"
APP_NAME = "tabletop"


def saves_dir() -> Path:
    """The saves folder: ``$TABLETOP_SAVES``; else the checkout's ``saves/`` when running from
    a source checkout; else the user's data folder for this platform (an installed program
    never writes inside its own package)."""
    chosen = os.environ.get("TABLETOP_SAVES")
    if chosen:
        return Path(chosen)
    if running_from_checkout():
        return ROOT / "saves"
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "saves"


def settings_path() -> Path:
    """The settings file: ``$TABLETOP_HOME/settings.yaml`` or the user's config folder for this
    platform (``~/.config/tabletop`` on Linux)."""
    home = os.environ.get("TABLETOP_HOME")
    if home:
        return Path(home) / "settings.yaml"
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "settings.yaml"


def autosave_path(game_id: str, match_id: str) -> Path:
    """Where a match's own autosave lives (see ``game.engine.saves.autosave_match``)."""
    from game.engine.saves import autosave_name
    return saves_dir() / autosave_name(game_id, match_id)


def open_folder(folder: Path) -> str | None:
    """Show ``folder`` in the platform's file manager (made first if missing); returns None,
    or what went wrong in words."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if sys.platform.startswith("win"):
            os.startfile(folder)  # type: ignore[attr-defined]  # noqa: S606
        else:
            opener = "open" if sys.platform == "darwin" else "xdg-open"
            if shutil.which(opener) is None:
                return f"No program to open folders was found ({opener})"
            subprocess.Popen([opener, str(folder)], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    except (OSError, ValueError) as exc:
        return exc.strerror or str(exc)
    return None
