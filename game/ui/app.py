"""The window, the one event loop and the scene stack.

The loop redraws only when something changed: while nothing moves it sleeps
in ``pygame.event.wait``, so an idle game costs next to no CPU.
"""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pygame_gui

from . import paths
from .scene import Scene, SceneStack
from .settings import Settings
from .widgets import ALERT, GOLD, PANEL, TEXT, draw_text, wrap_text

THEME = Path(__file__).with_name("theme.json")
FPS = 60
#: How long an idle loop turn sleeps before looking for input again.
IDLE_SLEEP = 0.05
#: After an input event, keep drawing this long so hover and press effects show.
SETTLE_SECONDS = 1.0
MIN_SIZE = (960, 600)


class App:
    """Owns the window, the UI manager, the settings and the scene stack."""

    def __init__(self, settings: Settings | None = None,
                 size: tuple[int, int] | None = None) -> None:
        pygame.init()
        pygame.key.set_repeat(350, 40)
        self.settings_path = paths.settings_path()
        self.settings = settings or Settings.load(self.settings_path)
        self.size = size or self.settings.size
        pygame.display.set_caption("Tabletop")
        self.screen = self._open_window()
        self.ui = pygame_gui.UIManager(self.screen.get_size(), str(THEME))
        self.ui.preload_fonts([{"name": "noto_sans", "point_size": 16, "style": style,
                                "antialiased": "1"} for style in ("italic",)])
        self.stack = SceneStack()
        self.clock = pygame.time.Clock()
        self.running = True
        self.redraw_until = 0.0
        self.frames = 0
        self.fps = FPS
        self.toasts: list[tuple[str, float, bool]] = []

    def _open_window(self) -> pygame.Surface:
        if self.settings.fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(self.size, pygame.RESIZABLE)

    @property
    def window_size(self) -> tuple[int, int]:
        return self.screen.get_size()

    # scenes ------------------------------------------------------------------
    def push(self, scene: Scene) -> Scene:
        self.touch()
        return self.stack.push(scene)

    def pop(self) -> Scene | None:
        self.touch()
        return self.stack.pop()

    def replace(self, scene: Scene) -> Scene:
        self.touch()
        return self.stack.replace(scene)

    def to_menu(self) -> None:
        from .scenes.menu import MainMenu
        self.touch()
        self.stack.reset(MainMenu(self))

    def quit(self) -> None:
        self.running = False

    def touch(self, seconds: float = SETTLE_SECONDS) -> None:
        """Ask for frames for a little while (something changed)."""
        self.redraw_until = max(self.redraw_until, time.monotonic() + seconds)

    def toast(self, message: str, error: bool = False, seconds: float = 4.0) -> None:
        """Show a short message over every scene (saved, refused, bad file...)."""
        self.toasts.append((message, time.monotonic() + seconds, error))
        self.touch(seconds + 0.1)

    # settings ------------------------------------------------------------------
    def apply_settings(self, settings: Settings) -> None:
        """Adopt and keep new settings, reopening the window if its size changed."""
        changed = (settings.window != self.settings.window)
        settings.save(self.settings_path)  # raises SaveError before anything changes
        self.settings = settings
        if changed:
            self.size = settings.size
            self.screen = self._open_window()
            self.resized()

    def resized(self) -> None:
        self.ui.set_window_resolution(self.screen.get_size())
        if self.stack.top:
            self.stack.top.rebuild()
        self.touch()

    # the loop --------------------------------------------------------------------
    def run(self) -> None:
        """Run until the player quits (starting at the main menu if nothing is open)."""
        if self.stack.top is None:
            self.to_menu()
        while self.running and self.stack.top:
            self.step()
        pygame.quit()

    def step(self, events: list[pygame.event.Event] | None = None) -> bool:
        """One loop turn: events, update, and a draw if anything changed.

        Tests pass ``events`` to drive the program; then nothing blocks.
        """
        busy = time.monotonic() < self.redraw_until
        if events is None:
            events = pygame.event.get()
            if not events and not busy:
                # Idle: sleep instead of pygame.event.wait, which some SDL video
                # drivers implement by polling every millisecond.
                time.sleep(IDLE_SLEEP)
                events = pygame.event.get()
        for event in events:
            self.dispatch(event)
        dt = min(self.clock.tick(self.fps) / 1000.0, 0.1)
        busy = busy or bool(events)
        if busy:  # the widgets only change after input or while frames are asked for
            self.ui.update(dt)
        top = self.stack.top
        moving = bool(top and top.update(dt))
        if moving or busy or self.frames == 0:
            if not busy:
                self.ui.update(dt)
            self.draw()
        return moving

    def dispatch(self, event: pygame.event.Event) -> None:
        if event.type == pygame.NOEVENT:
            return
        self.touch()
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == pygame.VIDEORESIZE and not self.settings.fullscreen:
            width, height = max(event.w, MIN_SIZE[0]), max(event.h, MIN_SIZE[1])
            if (width, height) != (event.w, event.h):
                self.screen = pygame.display.set_mode((width, height), pygame.RESIZABLE)
            self.resized()
            return
        if event.type == pygame.WINDOWEXPOSED:
            return
        used = self.ui.process_events(event)
        top = self.stack.top
        if top is not None and (not used or event.type >= pygame.USEREVENT):
            top.handle_event(event)

    def draw(self) -> None:
        self.screen.fill((18, 16, 22))
        for scene in self.stack.visible():
            scene.draw(self.screen)
        self.ui.draw_ui(self.screen)
        self._draw_toasts()
        pygame.display.flip()
        self.frames += 1

    def _draw_toasts(self) -> None:
        now = time.monotonic()
        self.toasts = [t for t in self.toasts if t[1] > now]
        y = 14
        width = min(720, self.screen.get_width() - 40)
        for message, _until, error in self.toasts[-3:]:
            lines = wrap_text(message, 17, width - 32)
            box = pygame.Rect(0, y, width, 18 + 24 * len(lines))
            box.centerx = self.screen.get_width() // 2
            pygame.draw.rect(self.screen, PANEL, box, border_radius=8)
            pygame.draw.rect(self.screen, ALERT if error else GOLD, box, 2, border_radius=8)
            for i, line in enumerate(lines):
                draw_text(self.screen, line, (box.x + 16, box.y + 9 + 24 * i), 17, TEXT)
            y = box.bottom + 8

    def screenshot(self, path: str | Path) -> None:
        """Save what the window shows now."""
        self.draw()
        pygame.image.save(self.screen, str(path))
