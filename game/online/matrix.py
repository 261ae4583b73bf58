"""The online table over Matrix, with matrix-nio (the ``online`` extra).

Per table the referee's account makes one table room (everyone at the table: the public
``table`` messages, a plain-text line mentioning whose turn it is, chat) and one private room
per remote account (that seat's ``update``s and the ``action``s it sends).  Messages travel as
custom room events (:data:`~game.online.protocol.EVENT_ACTION` from players,
:data:`~game.online.protocol.EVENT_UPDATE` from the referee) whose content is the message.

Rooms are persistent, ordered logs: the referee keeps its sync token with its room map beside
its saves (``matrix-rooms.yaml``), written only after the referee has handled (and saved) what
came before it, so after a crash it reads every action sent meanwhile, again if need be (the
action ids make that harmless).  A player's program resends unanswered actions with the same
ids after reconnecting.

:class:`MatrixTransport` has the same ``send``/``receive`` as the in-memory transport, plus the
asynchronous :meth:`~MatrixTransport.pump` that talks to the homeserver.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections import deque
from pathlib import Path
from typing import Any

from game.engine.errors import SaveError
from game.engine.saves import read_yaml, write_yaml_atomic

from . import protocol
from .referee import TABLE
from .transport import Transport

try:  # the optional extra
    import nio
except ImportError:  # pragma: no cover - depends on what is installed
    nio = None

log = logging.getLogger(__name__)

NEEDS_NIO = ("Online play needs the matrix-nio library: pip install 'tabletop-hotseat[online]' "
             "(or pip install 'matrix-nio>=0.24,<1').")
#: The state event that tells a room's table and role (set by the referee when it makes it).
ROOM_STATE = f"{protocol.NAMESPACE}.room"
ROOMS_FILE = "matrix-rooms.yaml"
#: The referee keeps its sync token at most this often.
TOKEN_SAVE_SECONDS = 2.0
#: How many events of each room a sync may bring at most (then the rest on the next).
TIMELINE_LIMIT = 100
#: The referee sends a table room its table's state at most this often (seconds): what comes
#: meanwhile travels in one event.  The players' programs take each seat's own view, log
#: (with the public lines) and turn from the seat's room at once; the table room's event is
#: the turn line people's Matrix apps notify them of, the game list's whose-turn and the
#: public view, for which a second or two does not matter, while each event costs the
#: homeserver its making, storing and a wake-up of everyone at the table.
TABLE_ROOM_GAP = 2.0


class NetworkError(Exception):
    """Something the network did, in words for the player."""


def need_nio() -> None:
    if nio is None:
        raise NetworkError(NEEDS_NIO)


def mention_line(message: dict[str, Any]) -> dict[str, Any]:
    """An ``m.room.message`` saying whose turn it is, mentioning their accounts (so their
    Matrix clients notify them)."""
    body = protocol.turn_text(message)
    people = message.get("mentions") or []
    formatted = html.escape(body)
    for user in people:
        formatted = formatted.replace(html.escape(user),
                                      f'<a href="https://matrix.to/#/{html.escape(user)}">'
                                      f'{html.escape(user)}</a>')
    return {"msgtype": "m.text", "body": body, "format": "org.matrix.custom.html",
            "formatted_body": formatted, "m.mentions": {"user_ids": list(people)}}


def chat_line(message: dict[str, Any]) -> dict[str, Any]:
    """A chat line as the ``m.room.message`` (``m.text``) every Matrix app shows ("Ann:
    words"), carrying the ``chat`` message under :data:`protocol.EVENT_UPDATE` for the
    players' programs."""
    return {"msgtype": "m.text", "body": protocol.chat_text(message),
            protocol.EVENT_UPDATE: message}


class MatrixTransport(Transport):
    """One account's end over a homeserver.

    ``referee``: for a player's program, the referee's account (only its invitations are
    accepted, only its messages read); None for the referee's own end.  ``state``: the
    referee's room map and sync token file."""

    def __init__(self, homeserver: str, user: str, password: str, referee: str | None = None,
                 state: str | Path | None = None) -> None:
        need_nio()
        self.homeserver, self.account, self.password = homeserver, user, password
        self.referee = referee
        self.state_path = Path(state) if state else None
        # nio retries a request that times out or cannot connect; a few times only, so that
        # an unreachable homeserver is said (NetworkError) instead of waited for in silence.
        config = nio.AsyncClientConfig(max_timeouts=3, max_timeout_retry_wait_time=8,
                                       request_timeout=45)
        self.client = nio.AsyncClient(homeserver, user, config=config)
        self.outbox: deque[tuple[str, dict[str, Any]]] = deque()
        self.inbox: deque[tuple[str, dict[str, Any]]] = deque()
        #: room id -> {"table": id, "role": "table" | "seat", "account": id or None}
        self.rooms: dict[str, dict[str, Any]] = {}
        self.since: str | None = None
        self.handled_since: str | None = None
        #: table -> (seats to act, over) of the last turn line sent to its room: a line that
        #: tells nothing new is a plain notice (no mention, so nobody is notified twice).
        #: Kept in the state file, so a restarted referee does not notify again either.
        self.last_turn: dict[str, tuple[tuple[Any, ...], bool]] = {}
        self.notices: deque[str] = deque(maxlen=100)
        #: (table, account, here): membership changes in the referee's rooms, unread.
        self.changes: deque[tuple[str, str, bool]] = deque()
        #: (room, account): players who left, to be invited back.
        self.reinvite: deque[tuple[str, str]] = deque()
        #: table -> the accounts invited to its rooms (the referee's end).
        self.people: dict[str, set[str]] = {}
        #: set when something is sent (the referee's sending task waits on it).
        self.waiting: asyncio.Event | None = None
        self.token_saved = 0.0
        #: (the referee) True when its caller handles a sync's messages while the next sync
        #: runs: then only ``handled_token`` (set by the caller) is kept as handled.
        self.pipelined = False
        self.handled_token: str | None = None
        #: the sync filter's id on the homeserver ("" if it would not store it).
        self.filter_id: str | None = None
        self._load_state()

    # ------------------------------------------------------------------ state
    def _load_state(self) -> None:
        if self.state_path is None or not self.state_path.exists():
            return
        try:
            doc = read_yaml(self.state_path)
            self.rooms = {str(k): dict(v) for k, v in (doc.get("rooms") or {}).items()}
            self.since = self.handled_since = doc.get("since")
            self.last_turn = {str(table): (tuple(turn.get("to_act") or ()), bool(turn.get("over")))
                              for table, turn in (doc.get("turns") or {}).items()
                              if isinstance(turn, dict)}
        except (SaveError, AttributeError, TypeError, ValueError) as exc:
            log.error("the Matrix room map %s could not be read: %s", self.state_path, exc)

    def _save_state(self) -> None:
        if self.state_path is not None:
            turns = {table: {"to_act": list(to_act), "over": over}
                     for table, (to_act, over) in self.last_turn.items()}
            write_yaml_atomic(self.state_path, {"account": self.account, "rooms": self.rooms,
                                                "since": self.handled_since, "turns": turns})

    def _people(self, table: str) -> set[str]:
        return self.people.get(table) or {info.get("account") for info in self.rooms.values()
                                          if info.get("table") == table and info.get("account")}

    def membership(self) -> list[tuple[str, str, bool]]:
        out = list(self.changes)
        self.changes.clear()
        return out

    def room_of(self, table: str, account: str | None) -> str | None:
        role = "table" if account == TABLE else "seat"
        for room, info in self.rooms.items():
            if info.get("table") == table and info.get("role") == role and (
                    role == "table" or info.get("account") in (account, None)):
                return room
        return None

    # ------------------------------------------------------------------ connecting
    async def _call(self, what: str, coroutine: Any) -> Any:
        try:
            response = await coroutine
        except (asyncio.TimeoutError, OSError) as exc:
            raise NetworkError(f"The homeserver at {self.homeserver} cannot be reached "
                               f"({what}: {exc or type(exc).__name__}). Check the address "
                               "and the network; the game waits.") from None
        except Exception as exc:  # aiohttp's errors, without importing aiohttp here
            if type(exc).__module__.startswith("aiohttp"):
                raise NetworkError(f"The homeserver at {self.homeserver} cannot be reached "
                                   f"({what}: {exc}). The game waits.") from None
            raise
        if isinstance(response, nio.ErrorResponse):
            error = NetworkError(f"The homeserver refused to {what}: "
                                 f"{response.message or response.status_code}.")
            # Refused for what it is (bad JSON, too large, forbidden), not for the moment
            # (rate limited, a server error): sending it again would be refused again.
            code = str(response.status_code or "")
            error.permanent = code.startswith("M_") and code not in ("M_LIMIT_EXCEEDED",
                                                                     "M_UNKNOWN")
            raise error
        return response

    async def login(self) -> None:
        await self._call("log in", self.client.login(self.password,
                                                      device_name="Tabletop"))

    async def close(self) -> None:
        await self.client.close()

    async def open_table(self, table: str, accounts: list[str | None], title: str) -> None:
        """(Referee) the table room and one private room per remote account, made once."""
        people = sorted({a for a in accounts if a and a != self.account})
        self.people[table] = set(people)
        if self.room_of(table, TABLE) is None:
            room = await self._room(f"{title}: table {table}", people,
                                    {"table": table, "role": "table"})
            self.rooms[room] = {"table": table, "role": "table", "account": None}
        for person in people:
            if self.room_of(table, person) is None:
                room = await self._room(f"{title}: your seat ({table})", [person],
                                        {"table": table, "role": "seat", "account": person},
                                        direct=True)
                self.rooms[room] = {"table": table, "role": "seat", "account": person}
        self._save_state()

    async def _room(self, name: str, invite: list[str], info: dict[str, Any],
                    direct: bool = False) -> str:
        state = [{"type": ROOM_STATE, "state_key": "", "content": {
            **info, "referee": self.account, "proto": protocol.PROTOCOL,
            "program": protocol.program_version()}}]
        response = await self._call("make a room", self.client.room_create(
            name=name, invite=invite, is_direct=direct, initial_state=state, federate=True,
            preset=nio.RoomPreset.private_chat))
        return response.room_id

    # ------------------------------------------------------------------ messages
    def send(self, recipient: str, message: dict[str, Any]) -> None:
        self.outbox.append((recipient, message))
        if self.waiting is not None:
            self.waiting.set()

    def receive(self) -> list[tuple[str, dict[str, Any]]]:
        out = list(self.inbox)
        self.inbox.clear()
        return out

    async def flush(self) -> None:
        """Send what waits: in order within each room, the rooms side by side (one table's
        answers do not wait for another's).  What goes to one room at once travels as few
        events as fit (:func:`protocol.pack`: batched, a message too large for one event
        split in parts).  A message for a room not known yet stays (a player's first action
        before the referee's invitation arrived), and so does what a network failure kept
        from going (then NetworkError)."""
        by_room: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        kept: deque[tuple[str, dict[str, Any]]] = deque()
        while self.outbox:
            recipient, message = self.outbox.popleft()
            room = self.room_of(message.get("table", ""),
                                recipient if self.referee is None else self.account)
            if room is None:
                kept.append((recipient, message))
                continue
            by_room.setdefault(room, []).append((recipient, message))
        results = await asyncio.gather(*(self._send_room(room, items)
                                         for room, items in by_room.items()),
                                       return_exceptions=True)
        failure = None
        for items, result in zip(by_room.values(), results):
            if isinstance(result, BaseException):
                failure = failure or result
                kept.extend(items[result.sent:] if isinstance(result, NetworkError)
                            and hasattr(result, "sent") else items)
        self.outbox = kept + self.outbox
        if failure is not None:
            raise failure

    async def send_lanes(self, done: asyncio.Event) -> None:
        """(The referee) send until ``done`` is set, each room in its own lane: a room's next
        answers leave as soon as its previous ones are sent, never waiting for a slower room
        (a shared :meth:`flush` waited for the slowest of sixty).  Order within a room is
        kept; a network failure holds only its room, retried with a growing pause."""
        lanes: dict[str, deque[tuple[str, dict[str, Any]]]] = {}
        tasks: dict[str, asyncio.Task] = {}
        waiting = self.waiting = self.waiting or asyncio.Event()
        last_sent: dict[str, float] = {}

        async def lane(room: str) -> None:
            queue, pause = lanes[room], 1.0
            table_room = self.rooms.get(room, {}).get("role") == "table"
            try:
                while queue:
                    if table_room and not any(m.get("kind") in ("chat", "notice")
                                              for _, m in queue):
                        # A table's state at most every TABLE_ROOM_GAP: what came meanwhile
                        # goes in one event (the latest turn line); a chat line goes at once.
                        wait = last_sent.get(room, -TABLE_ROOM_GAP) + TABLE_ROOM_GAP \
                            - time.monotonic()
                        if wait > 0:
                            await asyncio.sleep(wait)
                    items = list(queue)
                    queue.clear()
                    try:
                        await self._send_room(room, items)
                        last_sent[room] = time.monotonic()
                        pause = 1.0
                    except NetworkError as exc:
                        queue.extendleft(reversed(items[getattr(exc, "sent", 0):]))
                        log.warning("%s (trying again in %.0f s)", exc, pause)
                        await asyncio.sleep(pause)
                        pause = min(60.0, pause * 2)
            finally:
                tasks.pop(room, None)

        while True:
            kept: deque[tuple[str, dict[str, Any]]] = deque()
            while self.outbox:
                recipient, message = self.outbox.popleft()
                room = self.room_of(message.get("table", ""), recipient)
                if room is None:
                    kept.append((recipient, message))
                    continue
                lanes.setdefault(room, deque()).append((recipient, message))
                if room not in tasks:
                    tasks[room] = asyncio.create_task(lane(room))
            self.outbox = kept + self.outbox
            if done.is_set():
                break
            waiting.clear()
            try:
                await asyncio.wait_for(waiting.wait(), 1.0)
            except asyncio.TimeoutError:
                pass
        if tasks:  # what is on its way goes, for a while
            _, late = await asyncio.wait(list(tasks.values()), timeout=30)
            for task in late:
                task.cancel()

    def _content(self, room: str, message: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The event type and content for one (packed) message.  In the table room a message
        that changes whose turn it is travels as an ``m.room.message`` (the line any Matrix
        app shows, mentioning whose turn it is) carrying the message under
        :data:`protocol.EVENT_UPDATE`: one event instead of two."""
        if self.referee is not None:
            return protocol.EVENT_ACTION, message
        if message.get("kind") == "chat" and self.rooms.get(room, {}).get("role") == "table":
            return "m.room.message", chat_line(message)
        inner = message.get("messages") if message.get("kind") == "batch" else [message]
        tables = [m for m in inner or [] if isinstance(m, dict) and m.get("kind") == "table"]
        if not tables or self.rooms.get(room, {}).get("role") != "table":
            return protocol.EVENT_UPDATE, message
        last = tables[-1]
        table = last.get("table", "")
        turn = (tuple(last.get("to_act") or ()), bool(last.get("over")))
        line = mention_line(last)
        if self.last_turn.get(table) == turn:  # nothing new to notify anyone of
            line = {"msgtype": "m.notice", "body": line["body"]}
        self.last_turn[table] = turn
        return "m.room.message", {**line, protocol.EVENT_UPDATE: message}

    async def _send_room(self, room: str, items: list[tuple[str, dict[str, Any]]]) -> None:
        messages = [message for _, message in items]
        if self.referee is None:  # the referee's answers: batched, split if too large
            origins: list[int] = []
            events = protocol.pack(messages, None, origins)
        else:  # a player's actions go one by one (each its own id and transaction)
            events, origins = messages, list(range(len(messages)))
        for event, origin in zip(events, origins):
            kind, content = self._content(room, event)
            if kind == protocol.EVENT_UPDATE:  # the referee's: compressed when large
                content = protocol.squeeze(content)
            elif kind == "m.room.message":
                content = {**content,
                           protocol.EVENT_UPDATE: protocol.squeeze(content[protocol.EVENT_UPDATE])}
            tx = event.get("id") if kind == protocol.EVENT_ACTION else None
            try:
                await self._call("send a message", self.client.room_send(
                    room, kind, content, tx_id=tx, ignore_unverified_devices=True))
            except NetworkError as exc:
                if getattr(exc, "permanent", False):  # never blocks the room behind it
                    log.error("a %s event for %s was refused and is dropped: %s",
                              event.get("kind"), room, exc)
                    continue
                exc.sent = origin  # what went before it is not sent again
                raise

    async def pump(self, timeout_ms: int = 30_000, send: bool = True) -> int:
        """Send what waits, then one sync (long-polling up to ``timeout_ms``); returns how many
        messages arrived.  The referee's sync token is saved only here, after the caller has
        handled the previous batch.  ``send`` False: only sync (another task sends)."""
        if send:
            await self.flush()
        done = self.handled_token if self.pipelined else self.since
        if self.handled_since != done and \
                time.monotonic() - self.token_saved >= TOKEN_SAVE_SECONDS:
            # An older token is always safe (the action ids make a re-read harmless); writing
            # it at every sync was a file written and flushed to disk per action.
            self.handled_since = done
            self.token_saved = time.monotonic()
            self._save_state()
        response = await self._call("sync", self.client.sync(
            timeout=timeout_ms, since=self.since, sync_filter=await self._sync_filter()))
        arrived = len(self.inbox)
        for room, invited in response.rooms.invite.items():
            await self._invited(room, invited)
        for room, joined in response.rooms.join.items():
            for event in list(getattr(joined, "state", None) or []) + joined.timeline.events:
                self._event(room, event)
        for room in response.rooms.leave:
            self.rooms.pop(room, None) if self.referee is not None else None
        self.since = response.next_batch
        while self.reinvite:
            room, who = self.reinvite.popleft()
            try:
                await self._call("invite a player back", self.client.room_invite(room, who))
            except NetworkError as exc:  # already invited, or gone for good: said, not fatal
                log.info("%s", exc)
        if send:
            await self.flush()
        return len(self.inbox) - arrived

    def sync_filter(self) -> dict[str, Any]:
        """What this end's syncs bring: not its own events (a sync woken by each of them is
        most of a busy referee's syncs), no typing, receipts, presence or account data,
        members lazily."""
        return {"room": {"timeline": {"limit": TIMELINE_LIMIT, "not_senders": [self.account]},
                         "state": {"lazy_load_members": True},
                         "ephemeral": {"not_types": ["*"]},
                         "account_data": {"not_types": ["*"]}},
                "presence": {"not_types": ["*"]},
                "account_data": {"not_types": ["*"]}}

    async def _sync_filter(self) -> str | dict[str, Any]:
        """The filter's id on the homeserver, uploaded once per connection: a filter sent
        inline with every sync is parsed and checked against the filter schema by the
        homeserver at every sync (a few per cent of a busy local Synapse's time).  A
        homeserver that will not store it gets the filter inline."""
        if self.filter_id is None:
            wanted = self.sync_filter()
            try:
                response = await self._call("sync", self.client.upload_filter(
                    user_id=self.account, room=wanted["room"], presence=wanted["presence"],
                    account_data=wanted["account_data"]))
                self.filter_id = str(response.filter_id)
            except NetworkError as exc:
                if not getattr(exc, "permanent", False):
                    raise
                self.filter_id = ""
        return self.filter_id or self.sync_filter()

    async def _invited(self, room: str, invited: Any) -> None:
        inviter = next((ev.sender for ev in invited.invite_state
                        if getattr(ev, "membership", None) == "invite"), None)
        if self.referee is None or inviter != self.referee:
            log.info("ignoring an invitation to %s from %s", room, inviter)
            return
        await self._call("join a room", self.client.join(room))
        self.rooms.setdefault(room, {"table": None, "role": None, "account": None})

    def _event(self, room: str, event: Any) -> None:
        source = getattr(event, "source", {}) or {}
        kind, sender = source.get("type"), source.get("sender")
        content = source.get("content")
        if sender == self.account:
            return
        if kind == "m.room.member" and isinstance(content, dict):
            info = self.rooms.get(room)
            who = source.get("state_key") or sender
            membership = content.get("membership")
            if not info or who == self.account or membership not in ("join", "leave", "ban"):
                return
            if membership != "join":
                self.notices.append(f"{who} left the {info.get('role')} room of table "
                                    f"{info.get('table')}.")
            if self.referee is None and info.get("table"):  # the referee's end: tell it
                self.changes.append((info["table"], who, membership == "join"))
                if membership == "leave" and who in self._people(info["table"]):
                    self.reinvite.append((room, who))  # so that they can come back
            return
        if kind == ROOM_STATE and isinstance(content, dict) and sender == self.referee:
            self.rooms[room] = {"table": content.get("table"), "role": content.get("role"),
                                "account": content.get("account")}
            return
        if not isinstance(content, dict):
            return
        if kind == "m.room.message" and isinstance(content.get(protocol.EVENT_UPDATE), dict):
            kind, content = protocol.EVENT_UPDATE, content[protocol.EVENT_UPDATE]
        if kind == protocol.EVENT_UPDATE:
            content = protocol.unsqueeze(content)
            if not isinstance(content, dict):
                log.warning("an unreadable compressed event in %s; ignored", room)
                return
        if self.referee is None:  # the referee reads actions from its rooms' members
            info = self.rooms.get(room)
            if kind != protocol.EVENT_ACTION or info is None:
                return
            if info["role"] == "seat" and sender != info["account"]:
                log.warning("%s sent an action in %s's private room; ignored", sender,
                            info["account"])
                return
            if content.get("table") != info["table"]:
                content = dict(content, table=info["table"] or "unknown")
            self.inbox.append((sender, content))
        elif sender == self.referee and kind == protocol.EVENT_UPDATE:
            info = self.rooms.setdefault(room, {"table": None, "role": None, "account": None})
            if info.get("role") is None and isinstance(content.get("table"), str):
                info["table"] = content["table"]
                kinds = {m.get("kind") for m in content.get("messages") or []
                         if isinstance(m, dict)} if content.get("kind") == "batch" \
                    else {content.get("kind")}
                if kinds & {"update", "ack", "refused"}:
                    info["role"], info["account"] = "seat", self.account
                elif kinds & {"table", "chat", "notice"}:
                    info["role"], info["account"] = "table", None
            self.inbox.append((sender, content))


async def run_referee(transport: MatrixTransport, referee: Any, seconds: float | None = None,
                      stop: asyncio.Event | None = None) -> None:
    """The referee's loop: sync, hand what arrived to the referee (its handling task, while the
    next sync already waits), repeat (until ``stop`` is set or ``seconds`` passed), while
    :meth:`MatrixTransport.send_lanes` sends the answers as soon as they are made, each room in
    its own lane: a sync never waits for the sends of the batch before it, nor a send for a sync
    (on a busy homeserver that was most of an action's round trip).  The sync token is kept after
    the referee has handled (and saved) what came before it; answers lost in a crash are sent
    again on restart (:meth:`Referee.greet`, and the resent actions' acks).  A network failure is
    reported and retried with a growing pause (at most a minute); the referee itself never stops
    for it.

    The referee works in a worker thread (:func:`~game.online.transport.answer`; it holds
    ``referee.lock``): each action's autosave is written and flushed to disk before its
    answers leave, and those disk waits (a few milliseconds each, two files per action) no
    longer stop this loop's sends and syncs for every other table meanwhile; each message's
    answers are handed to the loop as soon as they are made, not after the whole batch's."""
    from .transport import answer, send_all
    deadline = None if seconds is None else time.monotonic() + seconds
    transport.waiting = asyncio.Event()
    done = asyncio.Event()
    sender = asyncio.create_task(transport.send_lanes(done))
    loop = asyncio.get_running_loop()
    # Each sync's messages are handled in order by one task while the next sync already
    # waits (an action arriving meanwhile is not held back by the disk writes before it);
    # the sync token is kept only up to the last batch handled.
    transport.pipelined, transport.handled_token = True, transport.since
    batches: asyncio.Queue = asyncio.Queue()

    def deliver(out: list) -> None:  # on the worker thread: sent from the loop
        loop.call_soon_threadsafe(send_all, transport, out)

    async def handling() -> None:
        while (batch := await batches.get()) is not None:
            arrived, changes, token = batch
            if arrived or changes:
                send_all(transport, await asyncio.to_thread(answer, referee, arrived, changes,
                                                            time.monotonic(), deliver))
            transport.handled_token = token

    handler = asyncio.create_task(handling())
    pause = 1.0
    try:
        while not (stop and stop.is_set()) and (deadline is None
                                                or time.monotonic() < deadline):
            try:
                await transport.pump(timeout_ms=5_000, send=False)
                pause = 1.0
            except NetworkError as exc:
                log.warning("%s (trying again in %.0f s)", exc, pause)
                await asyncio.sleep(pause)
                pause = min(60.0, pause * 2)
                continue
            batches.put_nowait((transport.receive(), transport.membership(), transport.since))
    finally:
        batches.put_nowait(None)  # what arrived is handled before stopping
        await handler
        done.set()
        transport.waiting.set()
        await sender
        transport.waiting = None
    try:
        await transport.flush()
    except NetworkError as exc:
        log.warning("stopping with answers unsent (sent again at the next start): %s", exc)


__all__ = ["MatrixTransport", "NetworkError", "run_referee", "mention_line", "chat_line",
           "NEEDS_NIO"]
