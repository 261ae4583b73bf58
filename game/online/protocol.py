"""The online table's messages: plain dicts, stamped with the versions, checked on arrival.

Pure: no network, no clock, no file.  Every message is a JSON object with

- ``kind``: what it is (see :data:`INCOMING` and :data:`OUTGOING`);
- ``proto``: the protocol version (:data:`PROTOCOL`); a different one is refused with both
  versions named;
- ``program``: the sender's program version (for the messages players read on a mismatch);
- ``table``: the table (match) id it is about.

A player's program sends the referee ``action`` (an action for one of its seats, with a unique
``id``: uuid4 hex made by the client, so a resent action is applied once), ``sync`` (send me
my seat's whole update again, e.g. after reconnecting), ``chat`` (a line for the table), and
``why`` / ``why_kind`` (why may my seat not take this action / any action of this type now? --
asked by a screen for a disabled control's or a board place's "Not now: ..." words; answered
with a ``why`` message holding the controller's reason, or None when it may), ``undo`` (take
back my seat's last action, asked at ``step``: answered by ``undone`` -- the whole logs come
again -- or a ``refused`` with the hot-seat rule's reason) and ``hint`` (what would the Normal
computer player do for my seat at ``step``: answered by a ``hint`` message holding the action,
worked out by the referee from that seat's view only and logged for the table as hot-seat
logs it, or a ``refused``) and ``history`` (the game as my seat saw it after ``step``
actions: answered by a ``history`` message with that seat's view and log then -- once the
game is over, with every seat's view and every log line, each with its audience).
The referee sends each seat an ``update`` built by :func:`seat_update` from that seat's own
``view``, ``legal_actions`` and ``log_for``, an ``ack`` or a ``refused`` for each action, and
the table a ``table`` message (public log lines, status, whose turn, who is away) built by
:func:`table_update`, a ``notice`` (a player left or came back, an undo was done) and a
``chat`` line (``by``: the speaker's seat names, ``seats``, ``account``, ``text``: only the
player's own words; over Matrix an ordinary text message, see :func:`chat_text`).  No message
ever holds the seed, another seat's view or another seat's secret log lines: the builders take
only what the match gives that seat.  Over Matrix, what the referee sends one room at once
travels as a ``batch`` (as ``part`` messages when too large), and an event over
:data:`SQUEEZE_BYTES` as a ``zip`` (:func:`squeeze`: compressed).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import uuid
import zlib
from typing import Any

#: The protocol version: a message of another version is refused, naming both.
PROTOCOL = 2  # 2: compressed ("zip") events and table chat
#: The custom Matrix event types (and the in-memory transport's names for the same).
NAMESPACE = "io.github.tabletop_hotseat"
EVENT_ACTION = f"{NAMESPACE}.action"
EVENT_UPDATE = f"{NAMESPACE}.update"
#: The hard cap on a message a player sends (its JSON in UTF-8): an action is small.
MAX_INCOMING_BYTES = 8192
#: The cap on a message the referee sends (a Matrix event may hold 65536 bytes in all).
MAX_OUTGOING_BYTES = 60_000
#: How deep an action's lists and mappings may nest, and how long a chat line may be.
MAX_DEPTH = 8
MAX_CHAT = 500
ACTION_ID = re.compile(r"[0-9a-f]{32}\Z")
TABLE_ID = re.compile(r"[0-9a-z]{6,32}\Z")
#: The fields each kind a player sends may hold (every one is required but ``seat`` of sync).
INCOMING: dict[str, dict[str, tuple[type, ...]]] = {
    "action": {"seat": (int,), "id": (str,), "action": (dict,)},
    "sync": {"seat": (int,)},
    "chat": {"text": (str,), "id": (str,)},
    "why": {"seat": (int,), "step": (int,), "action": (dict,)},
    "why_kind": {"seat": (int,), "step": (int,), "type": (str,)},
    "undo": {"seat": (int,), "step": (int,)},
    "hint": {"seat": (int,), "step": (int,)},
    "history": {"seat": (int,), "step": (int,)},
}
#: Fields every message a player sends holds (``rules``, the rules version the sender knows,
#: may be left out before its first update).
COMMON = {"kind": (str,), "proto": (int,), "program": (str,), "table": (str,), "rules": (int,)}
OPTIONAL = {"rules"}
#: Fields a kind may leave out: a chat line's ``id`` (made by the sender, so that a line the
#: referee reads again after a restart is said once; older programs send none).
OPTIONAL_OF = {"chat": {"id"}}
OUTGOING = ("update", "ack", "refused", "table", "chat", "why", "notice", "batch", "part",
            "undone", "hint", "history", "zip")
#: The longest action type a ``why_kind`` may name.
MAX_TYPE = 64
#: How much of a split message's text one ``part`` carries: the text is ASCII (escaped), so
#: as a JSON string inside the part it takes at most twice that, well under the cap.
PART_CHARS = (MAX_OUTGOING_BYTES - 2048) // 2
#: A joined message may have at most this many parts (about 1.7 MB), and a program keeps at
#: most this many unfinished ones (the oldest is dropped; a ``sync`` brings it again).
MAX_PARTS = 64
MAX_OPEN_SPLITS = 16


class BadMessage(ValueError):
    """A message that cannot be used; its text is the reason, for the sender to read."""


def program_version() -> str:
    """This program's version: the installed distribution's, else the checkout's."""
    from importlib import metadata
    try:
        return metadata.version("tabletop-hotseat")
    except metadata.PackageNotFoundError:
        pass
    try:
        from game.app import version
        return version()
    except Exception:  # noqa: BLE001 - a version is a label, never a reason to fail
        return "unknown"


def new_action_id() -> str:
    """A fresh action id (uuid4 as 32 hex digits), made by the player's program."""
    return uuid.uuid4().hex


def stamp(kind: str, table: str, program: str | None = None, **fields: Any) -> dict[str, Any]:
    """A message of ``kind`` about ``table`` with the version stamp (add ``rules=`` where the
    game is known)."""
    return {"kind": kind, "proto": PROTOCOL, "program": program or program_version(),
            "table": table, **fields}


def encoded_size(message: Any) -> int:
    return len(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max([_depth(v, level + 1) for v in value.values()] or [level + 1])
    if isinstance(value, list):
        return max([_depth(v, level + 1) for v in value] or [level + 1])
    return level


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, (str, bool, int, float)):
        return not isinstance(value, float) or value == value and abs(value) != float("inf")
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def check_incoming(message: Any) -> dict[str, Any]:
    """``message`` (from a player's program) if it is well formed; else BadMessage saying why.

    Checks, in order: a JSON object of at most :data:`MAX_INCOMING_BYTES`, a known kind, the
    protocol version, the common fields, exactly the kind's fields with their types, then each
    field's own rule (id form, action plain and shallow, chat length)."""
    if not isinstance(message, dict):
        raise BadMessage("A message must be a JSON object.")
    try:
        size = encoded_size(message)
    except (TypeError, ValueError):
        raise BadMessage("The message is not plain JSON data.") from None
    if size > MAX_INCOMING_BYTES:
        raise BadMessage(f"The message is too large ({size} bytes; at most "
                         f"{MAX_INCOMING_BYTES}).")
    kind = message.get("kind")
    if not isinstance(kind, str) or kind not in INCOMING:
        raise BadMessage(f"Unknown message kind {str(kind)[:40]!r}.")
    proto = message.get("proto")
    if proto != PROTOCOL:
        raise BadMessage(f"Protocol version {str(proto)[:12]} is not this referee's "
                         f"({PROTOCOL}); the sender runs Tabletop "
                         f"{str(message.get('program'))[:40]}, the referee "
                         f"{program_version()}. Update the older one.")
    fields = {**COMMON, **INCOMING[kind]}
    unknown = sorted(set(message) - set(fields))
    if unknown:
        raise BadMessage(f"A {kind} message has no field {str(unknown[0])[:40]!r}.")
    for name, types in fields.items():
        if name not in message:
            if name in OPTIONAL or name in OPTIONAL_OF.get(kind, ()):
                continue
            raise BadMessage(f"A {kind} message needs its {name!r}.")
        value = message[name]
        if not isinstance(value, types) or isinstance(value, bool) and bool not in types:
            raise BadMessage(f"A {kind} message's {name!r} has the wrong type.")
    if len(message["program"]) > 64:
        raise BadMessage("The program version is too long.")
    if not TABLE_ID.match(message["table"]):
        raise BadMessage("The table id is not one of this referee's form.")
    if kind in ("why", "why_kind", "undo", "hint", "history") and message["step"] < 0:
        raise BadMessage(f"A {kind} message's step may not be negative.")
    if kind == "why_kind" and not 0 < len(message["type"]) <= MAX_TYPE:
        raise BadMessage(f"A why_kind message's type must hold 1 to {MAX_TYPE} characters.")
    if kind in ("action", "why"):
        if kind == "action" and not ACTION_ID.match(message["id"]):
            raise BadMessage("An action's id must be 32 hex digits (a uuid4).")
        action = message["action"]
        if not isinstance(action.get("type"), str):
            raise BadMessage("An action must have a 'type'.")
        if not _plain(action) or _depth(action) > MAX_DEPTH:
            raise BadMessage("An action must be plain data, nested at most "
                             f"{MAX_DEPTH} deep.")
    if kind == "chat":
        if "id" in message and not ACTION_ID.match(message["id"]):
            raise BadMessage("A chat line's id must be 32 hex digits (a uuid4).")
        text = message["text"]
        if not text.strip() or len(text) > MAX_CHAT:
            raise BadMessage(f"A chat line must hold 1 to {MAX_CHAT} characters.")
        if any(ord(c) < 32 for c in text):
            raise BadMessage("A chat line may not hold control characters.")
    return message


#: JSON keys are strings: a mapping with other keys (a game's ``{seat: ...}``) crosses as
#: ``{"@map": [[key, value], ...]}`` and comes back exactly (:func:`from_wire`).
WIRE_MAP = "@map"
#: Matrix events are canonical JSON, which has no floats (a homeserver refuses an event
#: holding one: M_BAD_JSON): a float crosses as ``{"@float": repr}`` and comes back exactly.
WIRE_FLOAT = "@float"


def to_wire(value: Any) -> Any:
    """``value`` with every mapping whose keys are not all strings, and every float, made
    JSON-exact (and canonical-JSON-safe, as Matrix wants)."""
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and not {WIRE_MAP, WIRE_FLOAT} & set(value):
            return {k: to_wire(v) for k, v in value.items()}
        return {WIRE_MAP: [[to_wire(k), to_wire(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [to_wire(v) for v in value]
    if isinstance(value, float):
        return {WIRE_FLOAT: repr(value)}
    return value


def from_wire(value: Any) -> Any:
    """The inverse of :func:`to_wire` (after a JSON round trip)."""
    if isinstance(value, dict):
        if set(value) == {WIRE_MAP} and isinstance(value[WIRE_MAP], list):
            return {_key(from_wire(k)): from_wire(v) for k, v in value[WIRE_MAP]}
        if set(value) == {WIRE_FLOAT} and isinstance(value[WIRE_FLOAT], str):
            try:
                return float(value[WIRE_FLOAT])
            except ValueError:
                return value
        return {k: from_wire(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_wire(v) for v in value]
    return value


def _key(key: Any) -> Any:
    return tuple(_key(k) for k in key) if isinstance(key, list) else key


def _public_event(event: dict[str, Any]) -> dict[str, Any]:
    return to_wire({k: v for k, v in event.items() if k != "@audience"})


def seat_update(match: Any, seat: int, table: str, log_from: int = 0,
                program: str | None = None) -> dict[str, Any]:
    """The update for ``seat``: only what the match gives that seat, never the seed.

    ``log_from`` is how many of the seat's log lines it already has: only the newer ones are
    sent (``log_from`` says where they start, so a program that missed some asks to ``sync``).
    ``mine`` lists which of the lines sent are the seat's own (not public): a program with
    several seats at one screen shows each only to its seat.  ``acted`` is how many game
    actions the seat has taken (a screen's "news since your last action").  ``undo`` is None
    when the seat may take back its last action now (hot-seat's rule), else the reason.
    """
    lines = match.log_for(seat)
    new = lines[log_from:]
    if match.is_over():
        undo: str | None = "The game is over."
    elif match.can_undo(seat):
        undo = None
    else:
        from game.engine.table import LocalTable
        undo = LocalTable(match).undo_refusal(seat)
    acted = sum(1 for a in match.actions if a["seat"] == seat and not match.is_hint(a))
    return stamp("update", table, program, seat=seat, game=match.game_id,
                 rules=match.cls.rules_version,
                 view=to_wire(match.view(seat)), legal=to_wire(match.legal_actions(seat)),
                 log=[_public_event(ev) for ev in new],
                 mine=[i for i, ev in enumerate(new) if "@audience" in ev], acted=acted,
                 log_from=log_from, to_act=match.to_act(), status=match.status(),
                 step=len(match.actions), over=match.is_over(),
                 result=to_wire(match.result()) if match.is_over() else None, undo=undo)


def table_update(match: Any, table: str, log_from: int = 0, mentions: list[str] | None = None,
                 program: str | None = None, away: list[str] | None = None) -> dict[str, Any]:
    """The table room's message: public log lines, status, whose turn (names and the accounts
    to mention), the seats' names, kinds and computers' levels, the options, the public
    view (what a screen shows with nobody at it) and the names of the players who left the
    table and have not come back (``away``); nothing a seat keeps to itself."""
    lines = match.log_for(None)
    to_act = match.to_act()
    return stamp("table", table, program, game=match.game_id, rules=match.cls.rules_version,
                 title=match.title,
                 seats=[{k: s[k] for k in ("name", "kind", "level") if k in s}
                        for s in match.seats],
                 options=to_wire(match.options), public_view=to_wire(match.view(None)),
                 log=[_public_event(ev) for ev in lines[log_from:]], log_from=log_from,
                 to_act=to_act, waiting=[match.seats[s]["name"] for s in to_act],
                 mentions=list(mentions or []), away=list(away or []),
                 status=match.status(),
                 step=len(match.actions), over=match.is_over(),
                 result=to_wire(match.result()) if match.is_over() else None)


def split(message: dict[str, Any]) -> list[dict[str, Any]]:
    """``message`` as one or more messages that each fit a Matrix event.

    One that fits is returned alone; a larger one becomes ``part`` messages (``of``: an id
    made from its text, ``index`` and ``count``, ``data``: a slice of its JSON text) that a
    :class:`Joiner` puts back together.  The id depends only on the text, so the same update
    sent again (after a restart) makes the same parts."""
    if encoded_size(message) <= MAX_OUTGOING_BYTES:
        return [message]
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=True)
    ident = hashlib.sha256(text.encode("ascii")).hexdigest()[:32]
    pieces = [text[i:i + PART_CHARS] for i in range(0, len(text), PART_CHARS)]
    if len(pieces) > MAX_PARTS:
        raise ValueError(f"a {message.get('kind')} message of {len(text)} characters is too "
                         f"large even in {MAX_PARTS} parts")
    extra = {"rules": message["rules"]} if "rules" in message else {}
    return [stamp("part", message.get("table", "unknown"), message.get("program"), **extra,
                  of=ident, index=index, count=len(pieces), data=piece)
            for index, piece in enumerate(pieces)]


def pack(messages: list[dict[str, Any]], program: str | None = None,
         origins: list[int] | None = None) -> list[dict[str, Any]]:
    """The messages for one room as few events as fit, in order: each too large one split
    (:func:`split`), a ``chat`` line alone, the others gathered into ``batch`` messages
    (``messages``: the list) of at most :data:`MAX_OUTGOING_BYTES`; a group of one stays
    itself.  Fewer events is what makes
    a homeserver fast: an action's ``ack`` and its seat's ``update`` travel as one.
    ``origins``, if given, receives for each event the index of the first message it holds
    (what to send again if that event could not go)."""
    out: list[dict[str, Any]] = []
    group: list[dict[str, Any]] = []
    first: list[int] = []
    size = 0

    def close() -> None:
        if group and origins is not None:
            origins.append(first[0])
        first.clear()
        if len(group) == 1:
            out.append(group[0])
        elif group:
            out.append(stamp("batch", group[0].get("table", "unknown"),
                             program or group[0].get("program"), messages=list(group)))
        group.clear()

    for number, message in enumerate(messages):
        for piece in split(message):
            if piece.get("kind") in ("part", "chat"):  # a chat line is its own event: the
                close()  # message any Matrix app shows (game.online.matrix)
                size = 0
                out.append(piece)
                if origins is not None:
                    origins.append(number)
                continue
            more = encoded_size(piece) + 1
            if group and size + more + 512 > MAX_OUTGOING_BYTES:
                close()
                size = 0
            group.append(piece)
            first.append(number)
            size += more
    close()
    return out


#: A referee's event larger than this travels compressed (:func:`squeeze`).
SQUEEZE_BYTES = 1024
#: The most a compressed event may open to (a bound for a program reading one).
MAX_SQUEEZED = 4 * MAX_OUTGOING_BYTES


def squeeze(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` as a ``zip`` message (``data``: its JSON, zlib-compressed, in base64) when
    it is larger than :data:`SQUEEZE_BYTES`, else itself.  An update is mostly the repeated
    words of a game's view: compressed it is about a tenth the size, and a homeserver's work
    per event (checking the content is canonical JSON, hashing, storing it, sending it to
    every client that syncs) grows with the size.  :func:`unsqueeze` is the inverse."""
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if len(text) <= SQUEEZE_BYTES:
        return message
    extra = {"rules": message["rules"]} if "rules" in message else {}
    return stamp("zip", message.get("table", "unknown"), message.get("program"), **extra,
                 data=base64.b64encode(zlib.compress(text, 6)).decode("ascii"))


def unsqueeze(message: Any) -> Any:
    """A ``zip`` message opened (None if it cannot be: not base64, not zlib, larger than
    :data:`MAX_SQUEEZED`, not a JSON object, or itself a ``zip``); anything else as it is."""
    if not isinstance(message, dict) or message.get("kind") != "zip":
        return message
    data = message.get("data")
    if not isinstance(data, str) or len(data) > 2 * MAX_OUTGOING_BYTES:
        return None
    try:
        opener = zlib.decompressobj()
        text = opener.decompress(base64.b64decode(data, validate=True), MAX_SQUEEZED)
        if opener.unconsumed_tail:
            return None
        whole = json.loads(text)
    except (ValueError, zlib.error):
        return None
    return whole if isinstance(whole, dict) and whole.get("kind") != "zip" else None


class Joiner:
    """Puts :func:`split` parts back together, in order whatever order they came in; a part
    seen twice is harmless.  :meth:`take` returns the whole message with its last part."""

    def __init__(self) -> None:
        self.open: dict[str, dict[int, str]] = {}

    def take(self, part: dict[str, Any]) -> dict[str, Any] | None:
        ident, index, count = part.get("of"), part.get("index"), part.get("count")
        data = part.get("data")
        if not (isinstance(ident, str) and isinstance(index, int) and isinstance(count, int)
                and isinstance(data, str) and 0 <= index < count <= MAX_PARTS):
            return None
        pieces = self.open.setdefault(ident, {})
        pieces[index] = data
        while len(self.open) > MAX_OPEN_SPLITS:
            del self.open[next(iter(self.open))]
        if len(pieces) < count or any(i not in pieces for i in range(count)):
            return None
        del self.open[ident]
        try:
            whole = json.loads("".join(pieces[i] for i in range(count)))
        except ValueError:
            return None
        return whole if isinstance(whole, dict) else None


def chat_text(message: dict[str, Any]) -> str:
    """The line the table room shows for a ``chat`` message: "Name: words"."""
    by = str(message.get("by") or "Someone")
    return f"{by}: {message.get('text', '')}"


def turn_text(message: dict[str, Any]) -> str:
    """The line the table room shows for a ``table`` message (its status and whose turn)."""
    if message.get("over"):
        return f"{message.get('title', 'The game')} is over. {message.get('status', '')}".strip()
    waiting = ", ".join(message.get("waiting") or [])
    mention = " ".join(message.get("mentions") or [])
    return (f"{mention + ': ' if mention else ''}your turn ({waiting}). "
            f"{message.get('status', '')}").strip()


__all__ = ["PROTOCOL", "EVENT_ACTION", "EVENT_UPDATE", "MAX_INCOMING_BYTES",
           "MAX_OUTGOING_BYTES", "BadMessage", "check_incoming", "new_action_id",
           "program_version", "seat_update", "table_update", "stamp", "encoded_size",
           "to_wire", "from_wire", "split", "pack", "Joiner", "squeeze", "unsqueeze",
           "turn_text", "chat_text"]
