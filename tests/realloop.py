"""Drive the REAL loop (``App.step()`` with no events argument, input posted to pygame's
queue), as a person at the keyboard would: nothing keeps the loop busy but what the program
itself asks for.

Time is the loop's own (``VirtualTime``): every loop turn takes a fixed 16 ms of it, and an
idle turn's sleep its length, whatever the machine's load, so "0.35 s later" is always the
same number of loop turns and a guard of one second never runs out while a loaded machine
draws a frame.  The loop still sleeps for real (briefly) when idle, so a computer player
thinking on its worker thread gets the processor; waits for such a thread (``run_until``)
give up only when both the loop's time and the wall clock have passed."""

from __future__ import annotations

import sys
import time

import pygame

from game.ui.app import App
from game.ui.settings import Settings

#: The modules whose ``time`` reads become the loop's (put back after each test by
#: tests/conftest.py, see ``real_time``).
TIMED = ("game.ui.app", "game.ui.scenes.handover")


class VirtualTime:
    """Stands in for the ``time`` module in the modules of ``TIMED``: ``monotonic()`` is the
    loop's time, moved on by ``VirtualClock.tick`` and by ``sleep``; anything else is the
    real module's."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        time.sleep(min(seconds, 0.002))  # let worker threads run

    def __getattr__(self, name: str):
        return getattr(time, name)


class VirtualClock:
    """Stands in for the loop's ``pygame.time.Clock``: each turn's work takes ``frame``
    seconds of the loop's time; ``tick`` gives the time since the last tick (sleeps too)."""

    def __init__(self, vt: VirtualTime, frame: float = 0.016) -> None:
        self.vt = vt
        self.frame = frame
        self.last = vt.now

    def tick(self, _fps: float = 0) -> int:
        self.vt.now += self.frame
        ms = round((self.vt.now - self.last) * 1000)
        self.last = self.vt.now
        return ms


def virtual_time() -> VirtualTime:
    vt = VirtualTime()
    for name in TIMED:
        sys.modules[name].time = vt
    return vt


def loop_time() -> float:
    """The time the program reads now (the loop's own while a RealLoop runs)."""
    return sys.modules["game.ui.app"].time.monotonic()


def real_time() -> None:
    """Give the modules of ``TIMED`` the real ``time`` back."""
    for name in TIMED:
        module = sys.modules.get(name)
        if module is not None and isinstance(getattr(module, "time", None), VirtualTime):
            module.time = time


class RealLoop:
    """An App run by its own loop; input goes through ``pygame.event.post``."""

    def __init__(self, size=(1280, 720), animation="off", bot_delay=0.0,
                 recap=False) -> None:
        self.vt = virtual_time()
        # The handover's recap is off unless a test asks for it (tests/test_recap.py).
        self.app = App(settings=Settings(animation=animation, bot_delay=bot_delay, recap=recap),
                       size=size)
        self.app.clock = VirtualClock(self.vt)
        self.app.to_menu()
        self.app.step()

    @property
    def top(self):
        return self.app.stack.top

    def now(self) -> float:
        """The loop's time (what the program reads as ``time.monotonic()``)."""
        return self.vt.now

    def run(self, seconds: float, min_steps: int = 3) -> None:
        """Let the loop run on its own for ``seconds`` of its time and at least ``min_steps``
        turns (a click's button event is handled at the turn after the click)."""
        end = self.vt.now + seconds
        steps = 0
        while (self.vt.now < end or steps < min_steps) and self.app.running:
            self.app.step()
            steps += 1

    def run_until(self, done, seconds: float = 20.0) -> bool:
        """Run until ``done()`` (checked after every loop turn); give up once ``seconds``
        have passed both in the loop's time and on the wall clock (a worker thread's
        work takes real time)."""
        end, wall_end = self.vt.now + seconds, time.monotonic() + seconds
        while self.vt.now < end or time.monotonic() < wall_end:
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
