"""Player settings kept in a YAML file (window, animation speed, handover)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path

from game.engine.errors import SaveError
from game.engine.saves import read_yaml, write_yaml_atomic

WINDOW_SIZES = ("1280x720", "1600x900", "1920x1080", "fullscreen")
ANIMATION_SPEEDS = {"off": 0.0, "slow": 1.6, "normal": 1.0, "fast": 0.45}


@dataclass
class Settings:
    """What the settings screen changes; unknown or bad values fall back to defaults."""

    window: str = "1280x720"
    animation: str = "normal"
    handover: bool = True
    bot_delay: float = 0.6

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
        try:
            data = read_yaml(path)
        except SaveError:
            return cls()
        settings = cls()
        if isinstance(data, dict):
            for f in fields(cls):
                value = data.get(f.name)
                if isinstance(value, type(getattr(settings, f.name))):
                    setattr(settings, f.name, value)
        if settings.window not in WINDOW_SIZES:
            settings.window = cls.window
        if settings.animation not in ANIMATION_SPEEDS:
            settings.animation = cls.animation
        settings.bot_delay = min(max(float(settings.bot_delay), 0.0), 3.0)
        return settings

    def save(self, path: Path) -> None:
        write_yaml_atomic(path, asdict(self))
