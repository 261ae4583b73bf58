"""Drive the real client with synthetic events, as a player would."""

from __future__ import annotations

import pygame
import pygame_gui

from game.ui.app import App
from game.ui.settings import Settings


class Driver:
    """An App plus helpers to press buttons and keys and to pump frames."""

    def __init__(self, size=(1280, 720), animation="off", recap=False, ui_scale=100,
                 theme="normal") -> None:
        # The handover's recap is off unless a test asks for it (tests/test_recap.py).
        self.app = App(settings=Settings(animation=animation, bot_delay=0.0, recap=recap,
                                         ui_scale=ui_scale, theme=theme),
                       size=size)
        self.app.fps = 0
        # Synthetic steps take no time: the handover guard and the guard after a switch of
        # windows (real-time waits) are tested with the real loop in test_handover_guard.py
        # and test_focus_guard.py.
        self.app.guard_seconds = 0.0
        self.app.focus_guard_seconds = 0.0
        self.app.to_menu()
        self.app.step([])

    @property
    def top(self):
        return self.app.stack.top

    @property
    def scene_name(self) -> str:
        return type(self.top).__name__

    def buttons(self, text: str) -> list:
        return [w for w, _ in self.top.controls.items if getattr(w, "text", None) == text]

    def labels(self) -> list[str]:
        return [getattr(w, "text", "") for w, _ in self.top.controls.items]

    def press(self, text: str, index: int = 0) -> None:
        found = self.buttons(text)
        assert len(found) > index, f"no button {text!r} on {self.scene_name}: {self.labels()}"
        assert found[index].is_enabled, f"button {text!r} is disabled"
        self.app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=found[index])])

    def key(self, key: int, mod: int = 0) -> None:
        """Press and release ``key`` (a handover card is confirmed by the release)."""
        self.app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""),
                       pygame.event.Event(pygame.KEYUP, key=key, mod=mod)])

    def pump(self, frames: int = 1) -> None:
        for _ in range(frames):
            self.app.step([])
