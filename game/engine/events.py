"""Events: plain records of what an action did.

The screen animates them and the game log prints their ``text``.  An event is
a dict with at least ``type`` and ``text``; everything else is the game's own
data (a destination ``to``, a ``seat``, a ``card`` ...).

What the engine itself reads from an event lives under keys that start with
``@``, a name no game datum can take (``event()`` takes game data as keyword
arguments, and no Python keyword starts with ``@``):

- ``@audience``: the seats allowed to see it (absent: everyone);
- ``@reveal``: true when it shows information that was hidden, which makes the
  action that caused it impossible to undo.

Build events with :func:`event`; a malformed audience is refused there, and
:func:`check_event` refuses it again when a match records the event.
"""

from __future__ import annotations

from typing import Any, Iterable

Event = dict[str, Any]

AUDIENCE = "@audience"
REVEAL = "@reveal"
ENGINE_KEYS = frozenset({AUDIENCE, REVEAL})


class MalformedEvent(ValueError):
    """A rules bug: an event the engine cannot read safely."""


def _audience(seats: Any) -> list[int]:
    if isinstance(seats, (str, bytes, dict)) or not isinstance(seats, Iterable):
        raise MalformedEvent(f"An event's audience must be a list of seats, not {seats!r}.")
    out = list(seats)
    if not out:
        raise MalformedEvent("An event's audience must name at least one seat.")
    for seat in out:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise MalformedEvent(f"An event's audience holds {seat!r}, which is not a seat.")
    if len(set(out)) != len(out):
        raise MalformedEvent(f"An event's audience names a seat twice: {out!r}.")
    return sorted(out)


def event(kind: str, text: str, *, audience: Iterable[int] | None = None,
          reveal: bool = False, **data: Any) -> Event:
    """Build an event record.

    >>> event("pass", "Mira passes.", seat=3)
    {'type': 'pass', 'text': 'Mira passes.', 'seat': 3}
    >>> event("drew", "You drew Athena 3.", audience=[2], to=[4, 5])["@audience"]
    [2]
    >>> event("x", "", audience=3)
    Traceback (most recent call last):
    ...
    game.engine.events.MalformedEvent: An event's audience must be a list of seats, not 3.
    """
    if not isinstance(kind, str) or not isinstance(text, str):
        raise MalformedEvent("An event needs a type and a text.")
    record: Event = {"type": kind, "text": text, **data}
    if audience is not None:
        record[AUDIENCE] = _audience(audience)
    if reveal:
        record[REVEAL] = True
    return record


def check_event(ev: Any, seats: int) -> Event:
    """``ev`` if the engine can read it for a match of ``seats`` seats; else MalformedEvent."""
    if not isinstance(ev, dict) or not isinstance(ev.get("type"), str) \
            or not isinstance(ev.get("text", ""), str):
        raise MalformedEvent(f"An event must be a record with a type and a text: {ev!r}.")
    for key in ev:
        if isinstance(key, str) and key.startswith("@") and key not in ENGINE_KEYS:
            raise MalformedEvent(f"An event has the unknown engine field {key!r}.")
    if AUDIENCE in ev:
        audience = _audience(ev[AUDIENCE])
        if any(seat >= seats for seat in audience):
            raise MalformedEvent(f"An event's audience {audience!r} names a seat this match "
                                 f"does not have.")
    if not isinstance(ev.get(REVEAL, False), bool):
        raise MalformedEvent("An event's reveal flag must be true or false.")
    return ev


def audience(ev: Event) -> list[int] | None:
    """The seats allowed to see ``ev``, or None when everyone may."""
    return ev.get(AUDIENCE)


def reveals(ev: Event) -> bool:
    """Whether ``ev`` shows something that was hidden (no undo past it)."""
    return bool(ev.get(REVEAL))


def visible_to(ev: Event, seat: int | None) -> bool:
    """Whether ``seat`` (None: the public) may see ``ev``."""
    seats = ev.get(AUDIENCE)
    return seats is None or (seat is not None and seat in seats)
