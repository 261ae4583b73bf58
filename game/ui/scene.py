"""Scenes and the scene stack (push, pop, replace), after Tuxemon's state stack.

A scene turns events into actions (``handle_event``), advances its timers and
animations (``update``) and draws (``draw``), which never changes state.
Scenes own their pygame_gui widgets: they are built on entering or resuming
and killed when another scene covers them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from .widgets import Controls

if TYPE_CHECKING:
    from .app import App


class Scene:
    """Base scene.  ``opaque = False`` scenes draw over the scene below."""

    opaque = True
    #: Whether ``draw`` paints every pixel of the window (the loop then does not clear it).
    covers_window = False

    def __init__(self, app: "App") -> None:
        self.app = app
        self.controls = Controls(app)

    # lifecycle ------------------------------------------------------------
    def enter(self) -> None:
        self.build()

    def exit(self) -> None:
        self.controls.clear()

    def pause(self) -> None:
        self.controls.clear()

    def resume(self) -> None:
        self.build()

    def rebuild(self) -> None:
        """Recreate the widgets (e.g. after a resize), keeping the keyboard focus; the
        loop is asked for a frame, since the screen changed."""
        self.app.touch(0.0)
        focus = self.controls.focus
        self.controls.clear()
        self.build()
        if 0 <= focus < len(self.controls.items) and self.controls.focus < 0:
            self.controls.set_focus(focus)

    def build(self) -> None:
        """Create this scene's widgets for the current window size."""

    # frame ------------------------------------------------------------------
    def intercept(self, event: pygame.event.Event) -> bool:
        """See ``event`` before the widgets do; return True to swallow it (a guard against
        input that began before the scene appeared)."""
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Return True when the event was used."""
        return self.controls.handle(event)

    def update(self, dt: float) -> bool:
        """Advance timers; return True while something is moving (keeps frames coming; one
        more frame is drawn after it stops).  Anything else that changes what should be on
        screen calls ``self.app.touch()``."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; must not change any state."""

    def toast_area(self) -> pygame.Rect | None:
        """Where messages (toasts) may cover this scene: None for the whole window's top."""
        return None


class SceneStack:
    """The scenes, top last."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> Scene:
        if self.top:
            self.top.pause()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.exit()
        if self.top:
            self.top.resume()
        return scene

    def replace(self, scene: Scene) -> Scene:
        if self.scenes:
            self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def reset(self, scene: Scene) -> Scene:
        """Clear the stack and start over with ``scene`` (e.g. back to the main menu)."""
        while self.scenes:
            self.scenes.pop().exit()
        return self.push(scene)

    def find(self, kind: type) -> Any:
        for scene in reversed(self.scenes):
            if isinstance(scene, kind):
                return scene
        return None

    def visible(self) -> list[Scene]:
        """The scenes to draw, bottom first: the top one and those it lets show through."""
        shown: list[Scene] = []
        for scene in reversed(self.scenes):
            shown.append(scene)
            if scene.opaque:
                break
        return list(reversed(shown))
