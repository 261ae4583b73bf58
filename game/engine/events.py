"""Events: plain records of what an action did.

The screen animates them and the game log prints their ``text``.  An event is
a dict with at least ``type`` and ``text``; optional keys:

- ``to``: the seats allowed to see it (absent: everyone);
- ``reveal``: true when it shows information that was hidden, which makes the
  action that caused it impossible to undo.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def event(kind: str, text: str, **data: Any) -> Event:
    """Build an event record.

    >>> event("pass", "Mira passes.", seat=3)
    {'type': 'pass', 'text': 'Mira passes.', 'seat': 3}
    """
    return {"type": kind, "text": text, **data}


def visible_to(ev: Event, seat: int | None) -> bool:
    """Whether ``seat`` (None: the public) may see ``ev``."""
    audience = ev.get("to")
    return audience is None or (seat is not None and seat in audience)
