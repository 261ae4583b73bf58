"""Choosers for tests/test_thinker.py that a worker process can run: module-level functions
(a spawned worker imports them by name), with what they need passed in (``functools.partial``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from game.engine.bots import choose_action


def slow(folder: str, match, seat, cancelled=None, settings=None):
    """Say it is running (a file), then think until released (another file), then choose as
    usual."""
    # Written whole, then renamed: the test waits for the name and must never read it half written.
    Path(folder, "running.tmp").write_text(str(os.getpid()))
    os.replace(Path(folder, "running.tmp"), Path(folder, "running"))
    while not Path(folder, "release").exists():
        if cancelled is not None and cancelled():
            break
        time.sleep(0.005)
    return choose_action(match, seat, None, settings)


def broken(match, seat, cancelled=None, settings=None):
    raise KeyError("rules bug")


def dies(match, seat, cancelled=None, settings=None):
    os._exit(3)


def whoami(match, seat, cancelled=None, settings=None):
    """The worker's process id in place of a choice (the test only compares it)."""
    return {"type": "pid", "pid": os.getpid(), "actions": len(match.actions)}
