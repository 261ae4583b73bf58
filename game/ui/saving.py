"""The play scene's autosave, and the lasting warning shown while it fails.

Every match autosaves after each action to its own file (see
``game.engine.saves.autosave_match``).  When that fails (a read-only folder, a
full disk, a file where the folder should be) the person must know that this
game is not being kept: a warning stays on the board, with the real reason,
until a save succeeds again.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.engine.errors import SaveError
from game.engine.saves import autosave_match, match_id

from . import paths
from .widgets import ALERT, PANEL, TEXT, draw_text, panel_fill, wrap_text

TEXT_SIZE = 15
LINE = 20


#: Said when a game goes on in a new autosave because its own holds another history.
BRANCHED = ("This game's autosave holds another version of it (the same game open in "
            "another window, or a later point of it): that file is kept, and this game goes "
            "on in a new autosave.")


def autosave(match: Any, app: Any = None) -> str | None:
    """Autosave ``match``; None when it was saved, else why it was not (to show).  When the
    game had to go on in a new autosave, ``app`` (if given) says so in a toast."""
    before = match_id(match)
    try:
        autosave_match(match, paths.saves_dir())
    except SaveError as exc:
        return str(exc)
    if app is not None and match_id(match) != before:
        app.toast(BRANCHED, seconds=7)
    return None


def warning_text(problem: str) -> str:
    return (f"This game is not being saved: {problem} It is saved again after the next "
            "action once that works.")


def warning_rect(area: pygame.Rect, problem: str) -> pygame.Rect:
    """Where the warning goes: across the bottom of ``area`` (the board)."""
    lines = wrap_text(warning_text(problem), TEXT_SIZE, area.width - 48)[:4]
    height = 16 + LINE * len(lines)
    return pygame.Rect(area.x + 12, area.bottom - 12 - height, area.width - 24, height)


def draw_not_saved(surface: pygame.Surface, area: pygame.Rect, problem: str | None) -> None:
    """Draw the warning over the bottom of ``area`` when ``problem`` is set."""
    if not problem:
        return
    box = warning_rect(area, problem)
    pygame.draw.rect(surface, panel_fill(), box, border_radius=8)
    pygame.draw.rect(surface, ALERT, box, 2, border_radius=8)
    y = box.y + 8
    for line in wrap_text(warning_text(problem), TEXT_SIZE, box.width - 24)[:4]:
        draw_text(surface, line, (box.x + 12, y), TEXT_SIZE, TEXT)
        y += LINE
