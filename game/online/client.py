"""A player's program's side of an online table, without any screen (the UI builds on it).

It keeps, per (table, seat), the last update the referee sent and the seat's log lines
(joined by ``log_from``; a gap asks for a ``sync``), and every action sent and not yet answered,
so that after a reconnect :meth:`Player.resend` sends them again with the same ids (the referee
applies each once).
"""

from __future__ import annotations

import json
from typing import Any

from . import protocol
from .transport import Transport


#: How many chat lines a program keeps (all its tables together).
MAX_CHAT_LINES = 500


class Player:
    """One account's view of its tables, over ``transport``; ``referee`` is its account."""

    def __init__(self, transport: Transport, referee: str) -> None:
        self.transport, self.referee = transport, referee
        self.program = protocol.program_version()
        self.updates: dict[tuple[str, int], dict[str, Any]] = {}
        self.logs: dict[tuple[str, int], list[dict[str, Any]]] = {}
        #: Beside each seat's log: whether each line is the seat's own (not public).
        self.private: dict[tuple[str, int], list[bool]] = {}
        #: (table, seat) -> {(step, question): the referee's reason or None} (see ``why``).
        self.reasons: dict[tuple[str, int], dict[tuple[int, str], str | None]] = {}
        self.tables: dict[str, dict[str, Any]] = {}
        self.pending: dict[str, dict[str, Any]] = {}
        self.refusals: list[dict[str, Any]] = []
        self.acks: list[dict[str, Any]] = []
        #: The table rooms' chat lines (the latest :data:`MAX_CHAT_LINES`), and the Matrix
        #: event ids of those that came with one (a line fetched again is taken once).
        self.chat: list[dict[str, Any]] = []
        self.chat_events: set[str] = set()
        #: How many messages were taken in so far (a table's screen sees that news came).
        self.taken = 0
        #: the referee's lines about the table (a player left, came back).
        self.notices: list[dict[str, Any]] = []
        self.joiner = protocol.Joiner()
        #: (table, seat) -> the referee's latest ``hint`` answer (its action, from the wire).
        self.hints: dict[tuple[str, int], dict[str, Any]] = {}
        #: The referee's ``undone`` answers, in order.
        self.undone: list[dict[str, Any]] = []
        #: (table, seat) -> how many times the seat's log was sent again from an earlier
        #: line (an undo took lines back): a screen that merged the log starts again.
        self.resets: dict[tuple[str, int], int] = {}
        #: (table, seat, step) -> the referee's ``history`` answer (the latest few kept).
        self.history: dict[tuple[str, int, int], dict[str, Any]] = {}
        #: called with this Player when an action is about to leave (see :meth:`act`).
        self.journal: Any = None

    def _message(self, kind: str, table: str, **fields: Any) -> dict[str, Any]:
        message = protocol.stamp(kind, table, self.program, **fields)
        rules = self.tables.get(table, {}).get("rules")
        if rules is not None:
            message["rules"] = rules
        return message

    def _send(self, kind: str, table: str, **fields: Any) -> dict[str, Any]:
        message = self._message(kind, table, **fields)
        self.transport.send(self.referee, message)
        return message

    def act(self, table: str, seat: int, action: dict[str, Any]) -> str:
        """Send ``action`` for ``seat``; returns its id (kept until answered).  ``journal``,
        if set, is called once the action is pending and before it leaves, so a program that
        keeps its pending actions on disk resends them (same ids) after a crash."""
        ident = protocol.new_action_id()
        message = self._message("action", table, seat=seat, id=ident,
                                action=protocol.to_wire(action))
        self.pending[ident] = message
        if self.journal is not None:
            self.journal(self)
        self.transport.send(self.referee, message)
        return ident

    @staticmethod
    def question(action: dict[str, Any] | None = None, kind: str | None = None) -> str:
        """The key of a ``why`` (an action) or ``why_kind`` (a type) in ``reasons``."""
        if action is not None:
            return "why" + json.dumps(action, sort_keys=True)
        return "why_kind" + json.dumps(kind)

    def why(self, table: str, seat: int, step: int, action: dict[str, Any] | None = None,
            kind: str | None = None) -> None:
        """Ask why ``seat`` may not take ``action`` (or any action of type ``kind``) at
        ``step``; the answer lands in ``reasons[(table, seat)][(step, question)]``."""
        if action is not None:
            self._send("why", table, seat=seat, step=step, action=protocol.to_wire(action))
        else:
            self._send("why_kind", table, seat=seat, step=step, type=kind)

    def undo(self, table: str, seat: int, step: int) -> None:
        """Ask the referee to take back ``seat``'s last action (seen at ``step``); answered by
        ``undone`` and the whole logs again, or a refusal with the reason."""
        self._send("undo", table, seat=seat, step=step)

    def hint(self, table: str, seat: int, step: int) -> None:
        """Ask the referee what the Normal computer player would do for ``seat`` at ``step``;
        the answer lands in ``hints[(table, seat)]`` (or a refusal)."""
        self._send("hint", table, seat=seat, step=step)

    def ask_history(self, table: str, seat: int, step: int) -> None:
        """Ask for the game after ``step`` actions as ``seat`` saw it; the answer lands in
        ``history[(table, seat, step)]``."""
        self._send("history", table, seat=seat, step=step)

    def sync(self, table: str, seat: int) -> None:
        self._send("sync", table, seat=seat)

    def say(self, table: str, text: str) -> None:
        """A line for the table's chat, with an id of its own (said once, even if the
        referee reads it again after a restart)."""
        self._send("chat", table, text=text, id=protocol.new_action_id())

    def resend(self) -> int:
        """Send every unanswered action again, same ids (after a reconnect)."""
        for message in self.pending.values():
            self.transport.send(self.referee, message)
        return len(self.pending)

    def poll(self) -> int:
        """Take in what arrived; how many messages."""
        arrived = self.transport.receive()
        self.taken += len(arrived)
        for sender, message in arrived:
            if sender != self.referee or not isinstance(message, dict):
                continue
            self._take(message)
        return len(arrived)

    def _take(self, message: dict[str, Any], depth: int = 0) -> None:
        kind, table = message.get("kind"), message.get("table")
        if kind == "batch" and depth == 0:  # several messages for one room in one event
            for inner in message.get("messages") or []:
                if isinstance(inner, dict):
                    self._take(inner, 1)
        elif kind == "part" and depth < 2:  # a piece of a message too large for one event
            whole = self.joiner.take(message)
            if whole is not None:
                self._take(whole, 2)
        elif kind == "update":
            self._take_update(table, protocol.from_wire(message))
        elif kind == "table":
            self.tables[table] = protocol.from_wire(message)
        elif kind == "ack":
            self.pending.pop(message.get("id"), None)
            self.acks.append(message)
        elif kind == "refused":
            self.pending.pop(message.get("id"), None)
            self.refusals.append(message)
        elif kind == "chat":
            event = message.get("event")
            if event is None or event not in self.chat_events:  # a line fetched twice
                if event is not None:
                    self.chat_events.add(event)
                self.chat.append(message)
                del self.chat[:-MAX_CHAT_LINES]
        elif kind == "notice":
            self.notices.append(message)
        elif kind == "undone":
            self.undone.append(message)
        elif kind == "history" and isinstance(message.get("seat"), int) \
                and isinstance(message.get("step"), int):
            self.history[(table, message["seat"], message["step"])] = protocol.from_wire(message)
            while len(self.history) > 64:
                del self.history[next(iter(self.history))]
        elif kind == "hint" and isinstance(message.get("seat"), int):
            self.hints[(table, message["seat"])] = protocol.from_wire(message)
        elif kind == "why" and isinstance(message.get("seat"), int):
            asked = (self.question(action=protocol.from_wire(message["action"]))
                     if "action" in message else self.question(kind=message.get("type")))
            self.reasons.setdefault((table, message["seat"]), {})[
                (message.get("step"), asked)] = message.get("reason")

    def _take_update(self, table: str, message: dict[str, Any]) -> None:
        key = (table, message["seat"])
        lines = self.logs.setdefault(key, [])
        flags = self.private.setdefault(key, [])
        start = message.get("log_from", 0)
        if start > len(lines):  # missed some lines: ask for everything again
            self.sync(table, message["seat"])
        else:
            if start < len(lines):
                self.resets[key] = self.resets.get(key, 0) + 1
            del lines[start:]
            del flags[start:]
            new = message.get("log", [])
            mine = set(message.get("mine") or ())
            lines.extend(new)
            flags.extend(i in mine for i in range(len(new)))
        self.updates[key] = message
        self.tables.setdefault(table, {})["rules"] = message.get("rules")

    def my_turn(self) -> list[tuple[str, int]]:
        """(table, seat) pairs whose latest update offers actions."""
        return [key for key, up in self.updates.items()
                if up.get("legal") and key[1] in up.get("to_act", []) and not up.get("over")]


__all__ = ["Player"]
