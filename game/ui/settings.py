"""Player settings kept in a YAML file (window, animation speed, handover, recap, speech,
sound volume and mute, interface size and theme)."""

from __future__ import annotations

import logging
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from game.engine.errors import SaveError
from game.engine.saves import read_yaml, remove_stale_temps, write_yaml_atomic

from .look import THEMES, UI_SCALES

#: The largest settings file read (it holds a handful of lines).
SETTINGS_MAX_BYTES = 64 * 1024
WINDOW_SIZES = ("1280x720", "1600x900", "1920x1080", "fullscreen")
ANIMATION_SPEEDS = {"off": 0.0, "slow": 1.6, "normal": 1.0, "fast": 0.45}
#: The computer players' delay in seconds, least and most.
BOT_DELAY_RANGE = (0.0, 3.0)

log = logging.getLogger(__name__)


def _check_value(name: str, value: Any) -> str | None:
    """Why ``value`` cannot be the setting ``name`` (None when it can)."""
    if name == "window":
        ok = isinstance(value, str) and value in WINDOW_SIZES
        return None if ok else f"one of {', '.join(WINDOW_SIZES)}"
    if name == "animation":
        ok = isinstance(value, str) and value in ANIMATION_SPEEDS
        return None if ok else f"one of {', '.join(ANIMATION_SPEEDS)}"
    if name == "ui_scale":
        ok = isinstance(value, int) and not isinstance(value, bool) and value in UI_SCALES
        return None if ok else f"one of {', '.join(map(str, UI_SCALES))} (percent)"
    if name == "theme":
        ok = isinstance(value, str) and value in THEMES
        return None if ok else f"one of {', '.join(THEMES)}"
    if name in ("handover", "recap", "speak", "mute"):
        return None if isinstance(value, bool) else "true or false"
    if name == "volume":
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              and math.isfinite(value) and 0 <= value <= 1)
        return None if ok else "a number from 0 to 1"
    if name == "bot_delay":
        low, high = BOT_DELAY_RANGE
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              and math.isfinite(value) and low <= value <= high)
        return None if ok else f"a number of seconds from {low:g} to {high:g}"
    return None


@dataclass
class Settings:
    """What the settings screen changes; unknown or bad values fall back to defaults."""

    window: str = "1280x720"
    animation: str = "normal"
    handover: bool = True
    bot_delay: float = 0.6
    #: After a handover, a card lists what happened since that person's last turn.
    recap: bool = True
    #: Say what the screen shows through the system's speech (game/ui/speech.py).
    speak: bool = False
    #: The sounds' loudness, 0 to 1, and whether they are muted (game/ui/sound.py).
    volume: float = 0.8
    mute: bool = False
    #: The interface's size in percent (text, panels, buttons, cards, tooltips; the board
    #: keeps its zoom): one of look.UI_SCALES.
    ui_scale: int = 100
    #: "normal" or "high_contrast" (look.THEMES).
    theme: str = "normal"

    def __post_init__(self) -> None:
        #: What was wrong with the values given (each was set back to its default).
        self.notes: list[str] = []

    def check(self) -> list[str]:
        """Set every value that is not allowed (wrong type, NaN, out of range) back to
        its default; returns (and keeps in ``notes``) a sentence for each one.

        >>> s = Settings(bot_delay=float("nan"), animation="warp")
        >>> len(s.check()), s.bot_delay, s.animation
        (2, 0.6, 'normal')
        >>> s.notes[1]
        'bot_delay: nan is not allowed (a number of seconds from 0 to 3); using 0.6.'
        """
        notes = []
        for f in fields(self):
            value = getattr(self, f.name)
            problem = _check_value(f.name, value)
            if problem is not None:
                setattr(self, f.name, f.default)
                notes.append(f"{f.name}: {_show(value)} is not allowed ({problem}); "
                             f"using {f.default!r}.")
            elif f.name in ("bot_delay", "volume"):
                setattr(self, f.name, float(value))
        self.notes = notes
        return notes

    @property
    def speed(self) -> float:
        """Multiplier of every animation's duration (0: no animation)."""
        return ANIMATION_SPEEDS[self.animation]

    @property
    def fullscreen(self) -> bool:
        return self.window == "fullscreen"

    @property
    def size(self) -> tuple[int, int]:
        if self.fullscreen:
            return (1280, 720)
        width, height = self.window.split("x")
        return int(width), int(height)

    @classmethod
    def load(cls, path: Path) -> "Settings":
        """Read settings; a missing or bad file gives the defaults (never an error)."""
        remove_stale_temps(path.parent, path.name)
        try:
            # Only a small regular file; deep nesting, aliases and the like are refused
            # before parsing (a hostile settings file must not stop the program starting).
            data = read_yaml(path, max_bytes=SETTINGS_MAX_BYTES)
        except SaveError:
            return cls()
        settings = cls()
        if not isinstance(data, dict):
            if data is not None:
                settings.notes = ["the file is not a list of settings; using the defaults."]
        else:
            for f in fields(cls):
                if f.name in data:
                    setattr(settings, f.name, data[f.name])
            settings.check()
        for note in settings.notes:
            log.warning("%s: %s", path, note)
        return settings

    def save(self, path: Path) -> None:
        write_yaml_atomic(path, asdict(self))


def _show(value: Any) -> str:
    """A short readable form of a bad value from a file."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
