"""Date a save for tests: the time written inside it (what orders Load and Continue) and the
file's own time."""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path


def iso(seconds: float) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).isoformat(timespec="seconds")


def date(target: Path, seconds: float, file_seconds: float | None = None) -> None:
    """Make ``target`` look last played at ``seconds`` (its file dated ``file_seconds``, by
    default the same)."""
    data = target.read_bytes()
    if b"\n  updated: " in data:
        target.write_bytes(re.sub(rb"\n  updated: .*", f"\n  updated: '{iso(seconds)}'".encode(),
                                  data, count=1))
    stamp = seconds if file_seconds is None else file_seconds
    os.utime(target, (stamp, stamp))
