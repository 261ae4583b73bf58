"""How messages travel between the referee and the players' programs.

A :class:`Transport` is one account's end: ``send(recipient, message)`` and ``receive()``.
The referee's end sends to an account id (that account's private room for the message's table)
or to :data:`~game.online.referee.TABLE` (the table's public room); a player's end sends to the
referee's account.  Every message says its ``table``, so the transport routes by it.

:class:`MemoryHub` is the in-memory network for tests: it passes every message through JSON
(what would cross a real network), keeps every message each account received (the privacy
tests read them), and can drop an account's queue (a program killed before reading).
:mod:`game.online.matrix` is the same over a Matrix homeserver.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections import defaultdict, deque
from typing import Any

from .protocol import split
from .referee import TABLE, Referee


class Transport(ABC):
    """One account's end of the network."""

    account: str

    @abstractmethod
    def send(self, recipient: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``recipient`` (an account id, or TABLE from the referee)."""

    @abstractmethod
    def receive(self) -> list[tuple[str, dict[str, Any]]]:
        """The messages that arrived since the last call, as (sender, message)."""

    def membership(self) -> list[tuple[str, str, bool]]:
        """(table, account, here) for every account that left (False) or joined (True) one
        of this end's table rooms since the last call (the referee's end reads them)."""
        return []


class MemoryHub:
    """An in-memory network: queues per account, table rooms by table id."""

    def __init__(self) -> None:
        self.queues: dict[str, deque[tuple[str, str]]] = defaultdict(deque)
        #: table id -> the accounts in its table room.
        self.members: dict[str, set[str]] = defaultdict(set)
        #: account -> every message it received (decoded), in order.
        self.received: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.sent = 0
        #: account -> (table, account, here) changes it has not read yet.
        self.changes: dict[str, deque[tuple[str, str, bool]]] = defaultdict(deque)

    def endpoint(self, account: str) -> "MemoryTransport":
        return MemoryTransport(self, account)

    def join(self, table: str, accounts: list[str | None]) -> None:
        self.members[table].update(a for a in accounts if a)

    def deliver(self, sender: str, recipient: str, message: dict[str, Any]) -> None:
        """As a homeserver would: a message too large for one event goes in parts."""
        targets = sorted(self.members[message.get("table", "")]) if recipient == TABLE \
            else [recipient]
        for piece in split(message):
            text = json.dumps(piece, separators=(",", ":"))
            for target in targets:
                self.queues[target].append((sender, text))
                self.sent += 1

    def leave(self, table: str, account: str, watcher: str, here: bool = False) -> None:
        """``account`` leaves the table's rooms (``here``: comes back); ``watcher`` (the
        referee's account) is told."""
        (self.members[table].add if here else self.members[table].discard)(account)
        self.changes[watcher].append((table, account, here))

    def drop(self, account: str) -> int:
        """Lose what ``account`` had not read yet (its program was killed); how many."""
        lost = len(self.queues[account])
        self.queues[account].clear()
        return lost


class MemoryTransport(Transport):
    def __init__(self, hub: MemoryHub, account: str) -> None:
        self.hub, self.account = hub, account

    def send(self, recipient: str, message: dict[str, Any]) -> None:
        self.hub.deliver(self.account, recipient, message)

    def receive(self) -> list[tuple[str, dict[str, Any]]]:
        queue, out = self.hub.queues[self.account], []
        while queue:
            sender, text = queue.popleft()
            message = json.loads(text)
            self.hub.received[self.account].append(message)
            out.append((sender, message))
        return out

    def membership(self) -> list[tuple[str, str, bool]]:
        changes = self.hub.changes[self.account]
        out = list(changes)
        changes.clear()
        return out


def serve(referee: Referee, transport: Transport, now: float) -> int:
    """Hand every message that arrived to the referee and send its answers; how many."""
    arrived = transport.receive()
    send_all(transport, answer(referee, arrived, transport.membership(), now))
    return len(arrived)


def answer(referee: Referee, arrived: list[tuple[str, dict[str, Any]]],
           changes: list[tuple[str, str, bool]], now: float,
           deliver: Any = None) -> list[tuple[str, dict[str, Any]]]:
    """The referee's answers to the messages that ``arrived`` and to the membership
    ``changes``, in order (no transport touched: a network loop may run this in a worker
    thread while it goes on, see :func:`game.online.matrix.run_referee`).  ``deliver``, if
    given, is called with each message's answers as soon as they are made (and saved), so
    that the first action of a batch need not wait for the others' disk writes; then the
    answers returned are only those not delivered (none)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for sender, message in arrived:
        out += referee.handle(sender, message, now)
        if deliver is not None and out:
            deliver(out)
            out = []
    for table, account, here in changes:
        out += referee.presence(table, account, here)
    return out


def send_all(transport: Transport, outgoing: list[tuple[str, dict[str, Any]]]) -> None:
    for recipient, message in outgoing:
        transport.send(recipient, message)


__all__ = ["Transport", "MemoryHub", "MemoryTransport", "serve", "answer", "send_all"]
