"""Drive the REAL loop (``App.step()`` with no events argument, real time, input posted to
pygame's queue), as a person at the keyboard would: nothing keeps the loop busy but what
the program itself asks for."""

from __future__ import annotations

import time

import pygame

from game.ui.app import App
from game.ui.settings import Settings


class RealLoop:
    """An App run by its own loop; input goes through ``pygame.event.post``."""

    def __init__(self, size=(1280, 720), animation="off", bot_delay=0.0,
                 recap=False) -> None:
        # The handover's recap is off unless a test asks for it (tests/test_recap.py).
        self.app = App(settings=Settings(animation=animation, bot_delay=bot_delay, recap=recap),
                       size=size)
        self.app.to_menu()
        self.app.step()

    @property
    def top(self):
        return self.app.stack.top

    def run(self, seconds: float, min_steps: int = 3) -> None:
        """Let the loop run on its own for ``seconds`` and at least ``min_steps`` turns (a
        click's button event is handled at the turn after the click, however slow the
        machine)."""
        end = time.monotonic() + seconds
        steps = 0
        while (time.monotonic() < end or steps < min_steps) and self.app.running:
            self.app.step()
            steps += 1

    def run_until(self, done, seconds: float = 20.0) -> bool:
        """Run until ``done()`` (checked after every loop turn) or ``seconds`` pass."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.app.step()
            if done():
                return True
        return False

    def button(self, text: str, index: int = 0, scene=None):
        """The ``index``-th button labelled ``text`` (the top scene's, by default)."""
        scene = scene or self.top
        found = [w for w, _ in scene.controls.items if getattr(w, "text", None) == text]
        assert len(found) > index, (
            f"no button {text!r} on {type(scene).__name__}: {self.labels(scene)}")
        return found[index]

    def labels(self, scene=None) -> list[str]:
        scene = scene or self.top
        return [getattr(w, "text", "") for w, _ in scene.controls.items]

    # input ---------------------------------------------------------------------
    @staticmethod
    def down(pos, button: int = 1) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))

    @staticmethod
    def up(pos, button: int = 1) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))

    def click(self, pos, settle: float = 0.05) -> None:
        """A quick click at ``pos``, then the loop runs ``settle`` seconds (and at least
        three turns; none when ``settle`` is 0: the click waits in the queue)."""
        self.down(pos)
        self.up(pos)
        if settle > 0:
            self.run(settle)

    def click_button(self, text: str, index: int = 0, settle: float = 0.05):
        """Click the middle of the button labelled ``text``; returns where it clicked."""
        pos = self.button(text, index).rect.center
        self.click(pos, settle)
        return pos

    @staticmethod
    def key_down(key: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))

    @staticmethod
    def key_up(key: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0))
