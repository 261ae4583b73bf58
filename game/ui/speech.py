"""Speech: what the screen shows, said aloud through the system's speech.

A :class:`Speaker` queues utterances and speaks them one after another on a worker thread, so
the loop never waits for speech.  An utterance equal to the one just queued is dropped (a
cursor that bumps into the board's edge, twenty "moves right" in a row), and an interrupting
one (the keyboard cursor or focus moved on) drops what is still waiting and cuts off what is
being said.  Everything queued is also kept in ``spoken``, which the tests read: no audio is
needed to check what would be said.

The engine is pyttsx3 (the optional extra ``speech``: ``pip install 'tabletop-hotseat[speech]'``),
which uses espeak-ng on Linux, SAPI on Windows and the system voice on macOS.  On Linux the
words are made into a short WAV by espeak-ng and played through pygame's mixer (so they can
be cut off at once); elsewhere the platform's engine speaks them itself.  With no engine (the
package or espeak-ng missing, no sound device) ``problem`` says why in words and the speaker
stays off.

Only what the screen shows the person at it is ever passed here: the play scene speaks the
log lines its viewer may read, the handover card its public text (see ``game/ui/cues.py``).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

#: How long an utterance equal to the last one counts as a repeat (seconds).
REPEAT_SECONDS = 2.0
#: The most utterances waiting; beyond it the oldest are dropped (speech falls behind fast
#: computer players otherwise).
MOST_WAITING = 12
#: How long to wait for the engine to start when asked whether speech works (seconds).
PROBE_SECONDS = 5.0
INSTALL = "pip install 'tabletop-hotseat[speech]'"


def clean(text: str) -> str:
    r"""Text as it should be said: the arrows and marks drawn on buttons left out, lines
    joined into sentences, runs of spaces made one.

    >>> clean("‹   On   ›"), clean("Hex A1: forest\nHere: Mira's Orc\nLap!\nEnd")
    ('On', "Hex A1: forest. Here: Mira's Orc. Lap! End")
    """
    text = re.sub(r"[‹›•…▸◂←→↑↓·]", " ", text)
    parts = [p.strip() for p in text.replace("<br>", "\n").splitlines() if p.strip()]
    text = " ".join(p if i == len(parts) - 1 or p[-1] in ".!?:;," else p + "."
                    for i, p in enumerate(parts))
    return re.sub(r"\s+", " ", text).strip()


class Backend:
    """Speaks a text; ``start`` returns None when it works, else why not (in words)."""

    def start(self) -> str | None:
        return None

    def speak(self, text: str) -> None:
        """Say ``text`` and return when done (or cut off)."""

    def stop(self) -> None:
        """Cut off what is being said (called from the loop's thread)."""


class Silent(Backend):
    """No engine: says nothing (tests, or speech that failed)."""

    def __init__(self, problem: str | None = None) -> None:
        self.problem = problem

    def start(self) -> str | None:
        return self.problem


class Pyttsx3(Backend):
    """pyttsx3: espeak-ng made into WAV and played through pygame's mixer on Linux; the
    platform's own engine speaking elsewhere.  Used only on the speaker's worker thread
    (some engines must stay on the thread that made them)."""

    def __init__(self) -> None:
        self.engine: Any = None
        self.channel: Any = None
        self.linux = sys.platform.startswith("linux")
        self.folder = ""

    def start(self) -> str | None:
        try:
            import pyttsx3
        except ImportError:
            return f"it needs pyttsx3 ({INSTALL})"
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.engine = pyttsx3.init()
        except Exception as exc:  # noqa: BLE001 - each platform's engine fails its own way
            log.info("no speech engine: %s", exc)
            return "no speech engine (install espeak-ng)" if self.linux else \
                "no speech engine was found"
        if self.linux:
            import pygame
            try:
                if not pygame.mixer.get_init():
                    pygame.mixer.init(22050, -16, 1, 512)
                self.channel = pygame.mixer.Channel(pygame.mixer.get_num_channels() - 1)
            except pygame.error as exc:
                log.info("no sound device for speech: %s", exc)
                return "no sound device to speak through"
            self.folder = tempfile.mkdtemp(prefix="tabletop-speech-")
        return None

    def speak(self, text: str) -> None:
        if not self.linux:
            self.engine.say(text)
            self.engine.runAndWait()
            return
        import pygame
        path = os.path.join(self.folder, "utterance.wav")
        with contextlib.redirect_stdout(io.StringIO()):   # the driver prints each file's name
            self.engine.save_to_file(text, path)
            self.engine.runAndWait()
        sound = pygame.mixer.Sound(path)
        self.channel.play(sound)
        while self.channel.get_busy() and self.channel.get_sound() is sound:
            time.sleep(0.02)

    def stop(self) -> None:
        if self.channel is not None:
            self.channel.stop()
        elif self.engine is not None:
            self.engine.stop()


class Speaker:
    """Queues utterances for a worker thread; off until :meth:`enable` finds an engine."""

    def __init__(self, backend: Callable[[], Backend] = Pyttsx3,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._make = backend
        self._clock = clock
        #: Everything queued while on, in order (the tests read it).
        self.spoken: list[str] = []
        self.enabled = False
        self._waiting: deque[str] = deque()
        self._last: tuple[str, float] = ("", float("-inf"))
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._problem: str | None = None
        self._backend: Backend | None = None

    # the engine --------------------------------------------------------------------------
    def problem(self) -> str | None:
        """Why there is no speech (None: it works).  Starts the engine the first time."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()
        if not self._ready.wait(PROBE_SECONDS):
            return "the speech engine did not start"
        return self._problem

    def enable(self, on: bool) -> str | None:
        """Turn speech on or off; returns why it stays off when it cannot be on."""
        if not on:
            self.enabled = False
            self.interrupt()
            return None
        problem = self.problem()
        self.enabled = problem is None
        return problem

    def _run(self) -> None:
        try:
            backend = self._make()
            self._problem = backend.start()
        except Exception as exc:  # noqa: BLE001 - speech must never take the program down
            log.warning("speech engine failed: %s", exc)
            backend, self._problem = Silent(), "the speech engine failed"
        self._backend = backend
        self._ready.set()
        if self._problem is not None:
            log.info("no speech: %s", self._problem)
            return
        while True:
            with self._wake:
                while not self._waiting:
                    self._wake.wait()
                text = self._waiting.popleft()
            try:
                backend.speak(text)
            except Exception as exc:  # noqa: BLE001
                log.warning("speech failed: %s", exc)

    # saying ------------------------------------------------------------------------------
    def say(self, text: str | None, interrupt: bool = False) -> None:
        """Queue ``text`` (None or empty: nothing); ``interrupt``: drop what is waiting and
        cut off what is being said first.  A repeat of the last utterance is dropped."""
        if not self.enabled or not text:
            return
        text = clean(text)
        now = self._clock()
        if not text or (text == self._last[0] and now - self._last[1] < REPEAT_SECONDS):
            return
        self._last = (text, now)
        self.spoken.append(text)
        if interrupt:
            self.interrupt()
        with self._wake:
            self._waiting.append(text)
            while len(self._waiting) > MOST_WAITING:
                self._waiting.popleft()
            self._wake.notify()

    def interrupt(self) -> None:
        """Drop what is waiting and cut off what is being said."""
        with self._wake:
            self._waiting.clear()
        if self._backend is not None:
            try:
                self._backend.stop()
            except Exception:  # noqa: BLE001
                pass

    @property
    def waiting(self) -> list[str]:
        with self._wake:
            return list(self._waiting)
