"""The player's program's network side for the UI (issue 30): sign in, list tables, host.

No pygame here.  :class:`OnlineService` runs nio's asyncio loop in a background thread; the
program's loop talks to it only through two thread-safe queues of plain tuples (commands in,
:class:`Note` s out) and is told something arrived by a ``notify`` callback (the UI posts a
pygame event), so the window never waits for the network.

What the service does on that thread, with one :class:`Session` (the network calls):

- sign in with a password (only the access token, user id, device id and homeserver are kept:
  :func:`save_credentials`, mode 0600, written atomically) or with kept credentials; sign out;
- a sync loop that keeps the list of this account's online tables (from the table rooms' latest
  ``table`` messages: game, seats, whose turn, since when) and its invitations (accept,
  decline);
- the host's referee (:class:`~game.online.referee.Referee`) over
  :class:`~game.online.matrix.MatrixTransport`, with its own saves folder: it is resumed when
  the service signs in, so a hosted game survives a restart.  The host's own seats reach it
  directly (no homeserver round trip); remote seats through their private rooms;
- per referee account, the messages it sent this account, for the table screens
  (:class:`BridgeTransport` under a :class:`~game.online.client.Player`).

:class:`Session` is what talks to the homeserver; tests give the service a fake one.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import re
import socket
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from game.engine.errors import IllegalAction, SaveError
from game.engine.saves import read_yaml, write_yaml_atomic

from . import protocol
from .transport import Transport

log = logging.getLogger(__name__)

CREDENTIALS_FORMAT = "tabletop-online-account"
#: A Matrix account id: @localpart:server (server may carry a port).
MATRIX_ID = re.compile(r"@[a-z0-9._=/+\-]+:[A-Za-z0-9.\-]+(:[0-9]{1,5})?\Z")
#: How long one sync waits for news (the loop then syncs again at once).
SYNC_MS = 10_000
#: How many of a table room's latest messages are read for its chat when the table is opened
#: (its turn lines among them).
CHAT_FETCH = 400


def nio_missing() -> str | None:
    """None when matrix-nio is installed, else what to do about it (for the menu)."""
    from .matrix import NEEDS_NIO, nio
    return NEEDS_NIO if nio is None else None


def valid_matrix_id(text: str) -> bool:
    """Whether ``text`` is a Matrix account id (``@user:server``)."""
    return bool(MATRIX_ID.match(text.strip()))


def homeserver_url(text: str) -> str:
    """The homeserver address as typed, made a URL (https:// unless another scheme is given;
    http:// for this machine).

    >>> homeserver_url("matrix.org"), homeserver_url("localhost:8448")
    ('https://matrix.org', 'http://localhost:8448')
    """
    text = text.strip().rstrip("/")
    if not text:
        raise ValueError("Type the homeserver's address (for example matrix.org).")
    if "://" not in text:
        local = text.split(":")[0] in ("localhost", "127.0.0.1", "[::1]")
        text = ("http://" if local else "https://") + text
    if not re.match(r"https?://[^\s/]+(/\S*)?\Z", text):
        raise ValueError(f"{text!r} is not a web address (like https://matrix.org).")
    return text


# ---------------------------------------------------------------------------- credentials
@dataclass
class Credentials:
    homeserver: str
    user_id: str
    device_id: str
    access_token: str


def save_credentials(path: Path, creds: Credentials) -> None:
    """Keep ``creds`` (never a password) at ``path``, readable by this user only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)  # write_yaml_atomic keeps an existing file's mode
    write_yaml_atomic(path, {"format": CREDENTIALS_FORMAT, "version": 1,
                             "homeserver": creds.homeserver, "user_id": creds.user_id,
                             "device_id": creds.device_id, "access_token": creds.access_token})


def load_credentials(path: Path) -> Credentials | None:
    """The kept credentials, or None (none kept, or a file that cannot be used)."""
    if not path.exists():
        return None
    try:
        doc = read_yaml(path)
        if not isinstance(doc, dict) or doc.get("format") != CREDENTIALS_FORMAT:
            return None
        fields_ = [doc.get(k) for k in ("homeserver", "user_id", "device_id", "access_token")]
        if not all(isinstance(v, str) and v for v in fields_):
            return None
        return Credentials(*fields_)
    except (SaveError, OSError):
        return None


def forget_credentials(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


# ---------------------------------------------------------------------------- notes
@dataclass
class Note:
    """Something the service tells the program: ``kind`` and its details."""

    kind: str  # signed_in, signed_out, error, tables, hosted, accepted, declined, busy
    text: str = ""
    data: Any = None


@dataclass
class TableInfo:
    """One online table as the list shows it."""

    table: str
    room: str
    referee: str
    title: str = "?"
    game: str = ""
    seats: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    status: str = ""
    over: bool = False
    #: When the latest ``table`` message was sent (seconds since the epoch), or None.
    since: float | None = None
    my_turn: bool = False
    hosted: bool = False
    #: This account's seats (from its updates), when known.
    my_seats: list[int] = field(default_factory=list)
    #: How many actions the match had at that message.
    step: int = -1
    #: The names of the players who left the table and have not come back.
    away: list[str] = field(default_factory=list)
    #: A finished game's result (the game's own, from the referee), else None.
    result: dict[str, Any] | None = None


@dataclass
class Invitation:
    """An invitation to a game: its rooms (the table's and this account's seat's, which
    arrive one by one and are accepted or declined together)."""

    room: str
    name: str
    inviter: str
    table: str | None = None
    rooms: list[str] = field(default_factory=list)


#: The table id at the end of a room's name (the referee names its rooms so).
ROOM_TABLE = re.compile(r"(?:table |\()([0-9a-z]{6,32})\)?\Z")


def invitation_table(name: str) -> str | None:
    """The table id a room's name ends with, or None.

    >>> invitation_table("Odysseus: table 1161364baf"), invitation_table("X: your seat (ab12cd)")
    ('1161364baf', 'ab12cd')
    """
    found = ROOM_TABLE.search(name)
    return found.group(1) if found else None


def _ts(source: dict[str, Any]) -> float | None:
    """When the homeserver took the event, in seconds since the epoch (None: unknown)."""
    ts = source.get("origin_server_ts")
    return ts / 1000.0 if isinstance(ts, (int, float)) and not isinstance(ts, bool) else None


def _result(content: dict[str, Any]) -> dict[str, Any] | None:
    result = protocol.from_wire(content.get("result")) if content.get("over") else None
    return result if isinstance(result, dict) else None


def result_words(info: TableInfo) -> str:
    """A finished game's result for the list: who won (from the result's ``winners``, by
    seat), or the game's own last status line.

    >>> result_words(TableInfo("t", "!r", "@ref", seats=["Ann", "Bo"], over=True,
    ...                        result={"winners": [1]}, status="Over after round 3"))
    'Bo won. Over after round 3'
    """
    winners = (info.result or {}).get("winners")
    names = [info.seats[w] for w in winners or [] if isinstance(w, int)
             and 0 <= w < len(info.seats)]
    if not names:
        said = ""
    elif len(names) == len(info.seats) and len(names) > 1:
        said = "Everyone won."
    else:
        said = f"{' and '.join(names)} won."
    status = info.status.strip()
    if names and all(name in status for name in names):
        said = ""  # the game's own words name them already ("Dee won the race...")
    return " ".join(part for part in (said, status) if part)


def turn_words(info: TableInfo, now: float) -> str:
    """"Whose turn, since when" for the list."""
    if info.over:
        words = result_words(info)
        return f"Game over: {words}" if words else "Game over"
    if not info.waiting:
        return "Waiting for the first news"
    who = ", ".join(info.waiting)
    return f"{'Your turn' if info.my_turn else who + ' to play'}" + (
        f" ({who})" if info.my_turn else "") + (f", for {ago(now - info.since)}"
                                                if info.since else "")


def ago(seconds: float) -> str:
    """How long ``seconds`` is, roughly.

    >>> ago(30), ago(400), ago(7300), ago(200000)
    ('under a minute', '6 min', '2 h', '2 days')
    """
    if seconds < 60:
        return "under a minute"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)} h"
    return f"{int(seconds // 86400)} days"


# ---------------------------------------------------------------------------- errors
def explain(exc: BaseException, homeserver: str) -> str:
    """A network failure in words: offline, unreachable, refused."""
    from .matrix import NetworkError
    if isinstance(exc, NetworkError):
        return str(exc)
    chain, cause = [], exc
    while cause is not None and len(chain) < 8:
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    if any(isinstance(c, socket.gaierror) for c in chain) or "Name or service" in str(exc):
        return (f"The homeserver {homeserver} could not be found: this computer may be "
                "offline, or the address is mistyped.")
    if any(isinstance(c, (ConnectionError, OSError, asyncio.TimeoutError)) for c in chain) \
            or type(exc).__module__.startswith("aiohttp"):
        return (f"The homeserver at {homeserver} cannot be reached ({type(exc).__name__}). "
                "Check the address and the network.")
    return f"Something went wrong talking to {homeserver}: {exc}"


class SignInError(Exception):
    """A sign-in that failed, in words for the player."""


# ---------------------------------------------------------------------------- the session
class Session:
    """The network calls, with matrix-nio (async; used on the service's thread only)."""

    def __init__(self) -> None:
        from .matrix import need_nio
        need_nio()
        self.client: Any = None
        self.creds: Credentials | None = None
        self.since: str | None = None

    def _client(self, homeserver: str, user: str = "") -> Any:
        import nio
        config = nio.AsyncClientConfig(max_timeouts=1, max_timeout_retry_wait_time=2,
                                       request_timeout=20)
        return nio.AsyncClient(homeserver, user, config=config)

    async def sign_in(self, homeserver: str, user: str, password: str) -> Credentials:
        import nio
        await self.close()
        self.client = self._client(homeserver, user)
        try:
            response = await self.client.login(password, device_name="Tabletop")
        except Exception as exc:  # noqa: BLE001 - every failure is said, none crashes
            await self.close()
            raise SignInError(explain(exc, homeserver)) from None
        if isinstance(response, nio.LoginError):
            await self.close()
            code = getattr(response, "status_code", "") or ""
            if code == "M_FORBIDDEN":
                raise SignInError("Wrong user name or password.")
            if code in ("M_LIMIT_EXCEEDED",):
                raise SignInError("The homeserver asks to wait before trying again.")
            raise SignInError(f"The homeserver refused the sign-in: {response.message or code}.")
        self.creds = Credentials(homeserver, response.user_id, response.device_id,
                                 response.access_token)
        return self.creds

    async def restore(self, creds: Credentials) -> None:
        await self.close()
        self.client = self._client(creds.homeserver, creds.user_id)
        self.client.restore_login(creds.user_id, creds.device_id, creds.access_token)
        self.creds = creds

    async def sign_out(self) -> None:
        if self.client is not None:
            try:
                await self.client.logout()
            except Exception:  # noqa: BLE001 - signed out here whatever the server says
                pass
        await self.close()
        self.creds = None

    async def close(self) -> None:
        if self.client is not None:
            try:
                await self.client.close()
            except Exception:  # noqa: BLE001
                pass
        self.client = None
        self.since = None

    async def sync(self, timeout_ms: int) -> Any:
        """One sync; the response (nio's), or raises SignInError for a token the homeserver
        no longer accepts, or another exception for the network."""
        import nio
        sync_filter = {"room": {"timeline": {"limit": 30}}, "presence": {"not_types": ["*"]}}
        response = await self.client.sync(timeout=timeout_ms, since=self.since,
                                          sync_filter=sync_filter)
        if isinstance(response, nio.SyncError):
            if getattr(response, "status_code", "") in ("M_UNKNOWN_TOKEN", "M_MISSING_TOKEN"):
                raise SignInError("The homeserver has signed this program out: sign in again.")
            from .matrix import NetworkError
            raise NetworkError(f"The homeserver refused to sync: {response.message}.")
        self.since = response.next_batch
        return response

    async def messages(self, room: str, most: int = CHAT_FETCH) -> list[dict[str, Any]]:
        """The room's latest ``m.room.message`` events (at most ``most``, newest first), as
        event sources: the chat lines said before this program started are read from here
        (a sync brings only the last few events of each room)."""
        found: list[dict[str, Any]] = []
        start = None
        while len(found) < most:
            response = await self._checked("read the table's chat", self.client.room_messages(
                room, start=start, limit=min(100, most - len(found)),
                message_filter={"types": ["m.room.message"]}))
            chunk = [getattr(event, "source", None) for event in response.chunk]
            found += [source for source in chunk if isinstance(source, dict)]
            if not response.chunk or not response.end or response.end == start:
                break
            start = response.end
        return found

    async def join(self, room: str) -> None:
        await self._checked("join the game", self.client.join(room))

    async def leave(self, room: str) -> None:
        await self._checked("decline", self.client.room_leave(room))

    async def send(self, room: str, message: dict[str, Any], tx_id: str | None) -> None:
        await self._checked("send a move", self.client.room_send(
            room, protocol.EVENT_ACTION, message, tx_id=tx_id, ignore_unverified_devices=True))

    async def _checked(self, what: str, coroutine: Any) -> Any:
        import nio
        from .matrix import NetworkError
        try:
            response = await coroutine
        except Exception as exc:  # noqa: BLE001
            raise NetworkError(explain(exc, self.creds.homeserver if self.creds else "?")) \
                from None
        if isinstance(response, nio.ErrorResponse):
            raise NetworkError(f"The homeserver refused to {what}: "
                               f"{response.message or response.status_code}.")
        return response


# ---------------------------------------------------------------------------- tables
class Tables:
    """The account's tables and invitations, kept from sync responses (pure of the network:
    it reads the responses' event sources)."""

    def __init__(self, me: str) -> None:
        self.me = me
        #: room id -> {"table", "role", "referee", "account"}
        self.rooms: dict[str, dict[str, Any]] = {}
        self.tables: dict[str, TableInfo] = {}
        self.invitations: dict[str, Invitation] = {}
        #: referee account -> (sender, message) the table screens take (BridgeTransport).
        self.inbox: dict[str, deque] = defaultdict(deque)
        self.my_seats: dict[str, set[int]] = defaultdict(set)
        #: Invited rooms of games already accepted (joined by the service).
        self.auto_join: list[str] = []
        #: table id -> its latest ``table`` message.
        self.messages: dict[str, dict[str, Any]] = {}
        #: room id -> the parts of messages too large for one event, until whole.
        self.joiners: dict[str, protocol.Joiner] = {}

    def grouped(self) -> list[Invitation]:
        """One invitation per game (its rooms together), in the order they came."""
        games: dict[tuple, Invitation] = {}
        for invitation in self.invitations.values():
            key = (invitation.inviter, invitation.table or invitation.room)
            if key in games:
                games[key].rooms.append(invitation.room)
                if "table" in invitation.name and "your seat" in games[key].name:
                    games[key].name = invitation.name
            else:
                games[key] = Invitation(invitation.room, invitation.name, invitation.inviter,
                                        invitation.table, [invitation.room])
        return list(games.values())

    def take(self, response: Any) -> bool:
        """Read one sync response; whether the list changed."""
        from .matrix import ROOM_STATE
        changed = False
        rooms = response.rooms
        for room, invited in rooms.invite.items():
            if room in self.invitations:
                continue
            name, inviter = "", "someone"
            for event in invited.invite_state:
                source = getattr(event, "source", {}) or {}
                content = source.get("content") or {}
                if source.get("type") == "m.room.name":
                    name = str(content.get("name", ""))
                if source.get("type") == "m.room.member" and source.get("state_key") == self.me:
                    inviter = str(source.get("sender", inviter))
            if not name:
                name = getattr(invited, "name", None) or "A game"
            invitation = Invitation(room, name, inviter, invitation_table(name), [room])
            if invitation.table and any(
                    info.get("table") == invitation.table and info.get("referee") == inviter
                    for info in self.rooms.values()):
                self.auto_join.append(room)  # a room of a game already accepted
                continue
            self.invitations[room] = invitation
            changed = True
        for room, joined in rooms.join.items():
            if self.invitations.pop(room, None) is not None:
                changed = True
            events = list(getattr(joined, "state", None) or []) + list(joined.timeline.events)
            for event in events:
                source = getattr(event, "source", {}) or {}
                kind, content = source.get("type"), source.get("content")
                if not isinstance(content, dict):
                    continue
                if kind == ROOM_STATE:
                    self.rooms[room] = {"table": content.get("table"),
                                        "role": content.get("role"),
                                        "referee": content.get("referee") or source.get("sender"),
                                        "account": content.get("account")}
                elif kind == protocol.EVENT_UPDATE:
                    changed |= self._arrived(room, source, content)
                elif kind == "m.room.message" and isinstance(
                        content.get(protocol.EVENT_UPDATE), dict):
                    # the table room's turn line carries the referee's message inside it
                    changed |= self._arrived(room, source, content[protocol.EVENT_UPDATE])
                elif kind == "m.room.message":
                    self._said(room, source, content)
        for room, invitation in list(self.invitations.items()):
            if invitation.table and any(
                    info.get("table") == invitation.table
                    and info.get("referee") == invitation.inviter for info in self.rooms.values()):
                del self.invitations[room]  # a room of a game already accepted
                self.auto_join.append(room)
                changed = True
        for room in rooms.leave:
            if self.invitations.pop(room, None) is not None:
                changed = True
            info = self.rooms.pop(room, None)
            if info and info.get("role") == "table":
                self.tables.pop(info.get("table"), None)
                changed = True
        return changed

    def _arrived(self, room: str, source: dict[str, Any], content: dict[str, Any]) -> bool:
        """One event from a referee: a ``batch`` gives each message it holds, a ``part`` is
        kept until its message is whole (``protocol.pack`` makes both), a ``zip`` is opened
        (``protocol.squeeze``)."""
        if content.get("kind") == "zip":
            content = protocol.unsqueeze(content)
            if not isinstance(content, dict):
                return False
        if content.get("kind") == "batch":
            changed = False
            for inner in content.get("messages") or []:
                if isinstance(inner, dict) and inner.get("kind") != "batch":
                    changed |= self._arrived(room, source, inner)
            return changed
        if content.get("kind") == "part":
            whole = self.joiners.setdefault(room, protocol.Joiner()).take(content)
            if whole is None or whole.get("kind") in ("part", "batch"):
                return False
            content = whole
        return self._update(room, source, content)

    def chat_history(self, table: str, sources: list[dict[str, Any]]) -> int:
        """Take the chat lines among a table room's earlier events (``sources``, as
        :meth:`Session.messages` reads them, newest first); how many.  Only chat: the
        table's older ``table`` messages must not replace the latest."""
        room = next((r for r, info in self.rooms.items()
                     if info.get("table") == table and info.get("role") == "table"), None)
        info = self.rooms.get(room or "")
        if info is None:
            return 0
        taken = 0
        for source in reversed(sources):
            content = source.get("content")
            if source.get("type") != "m.room.message" or not isinstance(content, dict):
                continue
            inner = content.get(protocol.EVENT_UPDATE)
            if isinstance(inner, dict):
                if inner.get("kind") == "chat" and source.get("sender") == info.get("referee") \
                        and inner.get("table") == table:
                    self.inbox[info["referee"]].append((info["referee"], dict(
                        inner, event=source.get("event_id"), ts=_ts(source))))
                    taken += 1
            else:
                taken += self._said(room, source, content)
        return taken

    def _said(self, room: str, source: dict[str, Any], content: dict[str, Any]) -> int:
        """A line someone typed in the table's room with another Matrix app (Element...):
        shown at the table as chat, under their account's name (no seat mark: the referee
        did not vouch for a seat), cut to a chat line's length, control characters left
        out."""
        info = self.rooms.get(room)
        sender, body = source.get("sender"), content.get("body")
        if (info is None or info.get("role") != "table" or not isinstance(sender, str)
                or sender == info.get("referee") or not isinstance(body, str)
                or content.get("msgtype") not in ("m.text", "m.emote")):
            return 0
        text = "".join(c if ord(c) >= 32 else " " for c in body).strip()[:protocol.MAX_CHAT]
        if not text or not isinstance(info.get("table"), str):
            return 0
        name = sender[1:].split(":")[0][:24] or sender
        self.inbox[info["referee"]].append((info["referee"], protocol.stamp(
            "chat", info["table"], "matrix", by=name, seats=[], account=sender, text=text,
            event=source.get("event_id"), ts=_ts(source))))
        return 1

    def _update(self, room: str, source: dict[str, Any], content: dict[str, Any]) -> bool:
        info = self.rooms.get(room)
        sender = source.get("sender")
        if info is None or sender != info.get("referee"):
            return False
        table = info.get("table")
        if not isinstance(table, str) or content.get("table") != table:
            return False
        if info.get("role") == "seat":
            if sender == self.me:  # the host's own referee talking to a guest
                return False
            self.inbox[sender].append((sender, content))
            if content.get("kind") == "update" and isinstance(content.get("seat"), int):
                if content["seat"] not in self.my_seats[table]:
                    self.my_seats[table].add(content["seat"])
                    entry = self.tables.get(table)
                    if entry:
                        entry.my_seats = sorted(self.my_seats[table])
                    return True
            return False
        if content.get("kind") != "table":
            if content.get("kind") in ("chat", "notice"):  # notice: a player left, came back
                self.inbox[sender].append((sender, dict(
                    content, event=source.get("event_id"), ts=_ts(source))
                    if content.get("kind") == "chat" else content))
            return False
        self.inbox[sender].append((sender, content))
        since = source.get("origin_server_ts")
        entry = TableInfo(
            table=table, room=room, referee=sender, title=str(content.get("title", "?")),
            game=str(content.get("game", "")),
            seats=[str(s.get("name", "?")) for s in content.get("seats") or []
                   if isinstance(s, dict)],
            waiting=[str(w) for w in content.get("waiting") or []],
            status=str(content.get("status", "")), over=bool(content.get("over")),
            since=since / 1000.0 if isinstance(since, (int, float)) else None,
            my_turn=self.me in (content.get("mentions") or []), hosted=sender == self.me,
            my_seats=sorted(self.my_seats[table]),
            step=content["step"] if isinstance(content.get("step"), int) else -1,
            away=[str(a) for a in content.get("away") or []][:16],
            result=_result(content))
        old = self.tables.get(table)
        if old is not None and old.since and entry.since and entry.since < old.since:
            return False
        if old is not None and old.step == entry.step and old.waiting == entry.waiting:
            entry.since = old.since or entry.since  # the same turn, said again (a restart)
        self.tables[table] = entry
        self.messages[table] = content
        return True


class BridgeTransport(Transport):
    """A table screen's end (under a :class:`~game.online.client.Player`): what ``referee``
    sent this account, and sending through the service's thread."""

    def __init__(self, service: "OnlineService", referee: str) -> None:
        self.service, self.referee = service, referee
        self.account = service.user_id or ""

    def send(self, recipient: str, message: dict[str, Any]) -> None:
        self.service.command("act", recipient, message)

    def receive(self) -> list[tuple[str, dict[str, Any]]]:
        box = self.service.inbox(self.referee)
        out = []
        while box:
            out.append(box.popleft())
        return out


# ---------------------------------------------------------------------------- the service
class OnlineService:
    """The background network thread and its queues (see the module's text)."""

    def __init__(self, credentials_path: Path, referee_dir: Path,
                 notify: Callable[[], None] | None = None,
                 session_factory: Callable[[], Any] | None = None,
                 host: bool = True) -> None:
        self.credentials_path, self.referee_dir = Path(credentials_path), Path(referee_dir)
        self.notify = notify or (lambda: None)
        self.session_factory = session_factory or Session
        self.hosting = host
        self.commands: "queue.Queue[tuple]" = queue.Queue()
        self.notes: "queue.Queue[Note]" = queue.Queue()
        self.user_id: str | None = None
        self.homeserver: str | None = None
        self.tables: Tables | None = None
        self.error: str | None = None
        self.busy: str | None = None
        self.thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._lock = threading.Lock()
        self._inbox_lock = threading.Lock()
        self._inboxes: dict[str, deque] = defaultdict(deque)
        self.referee: Any = None
        self.ref_end: Any = None
        self._players: dict[str, Any] = {}
        #: The tables whose earlier chat has been read from their rooms.
        self._chat_read: set[str] = set()

    # ---------------------------------------------------------------- program side
    def start(self) -> "OnlineService":
        if self.thread is None or not self.thread.is_alive():
            self.thread = threading.Thread(target=self._run, name="online", daemon=True)
            self.thread.start()
            creds = load_credentials(self.credentials_path)
            if creds is not None:
                self.user_id, self.homeserver = creds.user_id, creds.homeserver
                self.command("restore", creds)
        return self

    @property
    def signed_in(self) -> bool:
        return self.user_id is not None

    def command(self, *what: Any) -> None:
        """Ask the thread for something (never waits)."""
        self.commands.put(what)
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            try:
                loop.call_soon_threadsafe(wake.set)
            except RuntimeError:  # the loop has closed
                pass

    def take_notes(self) -> list[Note]:
        out = []
        while True:
            try:
                out.append(self.notes.get_nowait())
            except queue.Empty:
                return out

    def inbox(self, referee: str) -> deque:
        with self._inbox_lock:
            return self._inboxes[referee]

    def player(self, referee: str) -> Any:
        """The one :class:`~game.online.client.Player` of this account for the tables
        ``referee`` holds (the table screens share it; used on the program's thread)."""
        from .client import Player
        if referee not in self._players:
            self._players[referee] = Player(BridgeTransport(self, referee), referee)
        return self._players[referee]

    def table_message(self, table: str) -> dict[str, Any] | None:
        """The latest ``table`` message of ``table`` (as the Player keeps it), or None."""
        tables = self.tables
        if tables is None:
            return None
        with self._lock:
            content = tables.messages.get(table)
        return protocol.from_wire(content) if content is not None else None

    def table_list(self) -> list[TableInfo]:
        tables = self.tables
        if tables is None:
            return []
        with self._lock:
            entries = list(tables.tables.values())
        referee = self.referee
        for entry in entries:  # a game hosted here: its seats for this account, from the referee
            if entry.hosted and not entry.my_seats and referee is not None \
                    and entry.table in referee.tables:
                entry.my_seats = referee.tables[entry.table].seats_of(self.user_id or "")
        return sorted(entries, key=lambda t: (t.over, not t.my_turn, -(t.since or 0)))

    def invitations(self) -> list[Invitation]:
        tables = self.tables
        if tables is None:
            return []
        with self._lock:
            return tables.grouped()

    def stop(self) -> None:
        self.command("stop")
        if self.thread is not None:
            self.thread.join(timeout=5)

    # ---------------------------------------------------------------- thread side
    def _note(self, kind: str, text: str = "", data: Any = None) -> None:
        self.notes.put(Note(kind, text, data))
        try:
            self.notify()
        except Exception:  # noqa: BLE001 - a window closing must not stop the network
            pass

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._main())
        finally:
            loop.close()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self.session = None
        syncing: asyncio.Task | None = None
        refereeing: asyncio.Task | None = None
        pause = 1.0
        while True:
            while not self.commands.empty():
                what = self.commands.get_nowait()
                if what[0] == "stop":
                    for task in (syncing, refereeing):
                        if task is not None:
                            task.cancel()
                    if self.ref_end is not None:
                        await self._quietly(self.ref_end.close())
                    if self.session is not None:
                        await self._quietly(self.session.close())
                    return
                try:
                    started = await self._do(what)
                except Exception as exc:  # noqa: BLE001 - said, never raised
                    log.exception("online: %s failed", what[0])
                    self._note("error", f"{what[0]}: {exc}")
                    started = False
                if started:
                    for task in (syncing, refereeing):
                        if task is not None:
                            task.cancel()
                    syncing = refereeing = None
            if self.session is not None and self.session.creds is not None:
                if syncing is None or syncing.done():
                    if syncing is not None and syncing.exception() is not None:
                        exc = syncing.exception()
                        if isinstance(exc, SignInError):  # the token is no longer good
                            forget_credentials(self.credentials_path)
                            await self._signed_out(str(exc))
                            syncing = None
                            continue
                        self.error = explain(exc, self.homeserver or "?")
                        self._note("error", self.error)
                        await asyncio.sleep(pause)
                        pause = min(60.0, pause * 2)
                    elif syncing is not None:
                        pause = 1.0
                    syncing = asyncio.ensure_future(self._sync_once())
                if self.hosting and self.referee is not None and self.referee.tables and (
                        refereeing is None or refereeing.done()):
                    refereeing = asyncio.ensure_future(self._referee_loop())
            self._wake.clear()
            waits = [asyncio.ensure_future(self._wake.wait())]
            waits += [t for t in (syncing,) if t is not None]
            await asyncio.wait(waits, timeout=30, return_when=asyncio.FIRST_COMPLETED)
            waits[0].cancel()

    @staticmethod
    async def _quietly(coroutine: Any) -> None:
        try:
            await coroutine
        except Exception:  # noqa: BLE001
            pass

    async def _sync_once(self) -> None:
        response = await self.session.sync(SYNC_MS)
        tables = self.tables
        if tables is None:
            return
        arrived = 0
        with self._lock:  # the program's thread reads the list (table_list, invitations)
            changed = tables.take(response)
            for referee, box in tables.inbox.items():
                while box:
                    self._inboxes[referee].append(box.popleft())
                    arrived += 1
        while tables.auto_join:
            await self.session.join(tables.auto_join.pop(0))
        if self.error:
            self.error = None
            changed = True
        if changed or arrived:
            self._note("tables")

    async def _do(self, what: tuple) -> bool:
        """Carry out one command; True when the account changed (the loops restart)."""
        kind = what[0]
        if kind in ("sign_in", "restore"):
            if self.session is None:
                self.session = self.session_factory()
            if kind == "sign_in":
                _, homeserver, user, password = what
                self.busy = "Signing in..."
                try:
                    creds = await self.session.sign_in(homeserver, user, password)
                except SignInError as exc:
                    self.busy = None
                    self._note("error", str(exc))
                    return False
                finally:
                    self.busy = None
                try:
                    save_credentials(self.credentials_path, creds)
                except (SaveError, OSError) as exc:
                    self._note("error", f"Signed in, but the sign-in could not be kept "
                                        f"for next time ({exc}).")
            else:
                creds = what[1]
                await self.session.restore(creds)
            self.user_id, self.homeserver = creds.user_id, creds.homeserver
            self.tables = Tables(creds.user_id)
            self.error = None
            if self.hosting:
                await self._start_referee(creds)
            self._note("signed_in", creds.user_id)
            return True
        if kind == "sign_out":
            if self.ref_end is not None:
                await self._quietly(self.ref_end.close())
            self.referee = self.ref_end = None
            if self.session is not None:
                await self.session.sign_out()
            forget_credentials(self.credentials_path)
            await self._signed_out("")
            return True
        if self.session is None or self.session.creds is None:
            self._note("error", "Sign in first.")
            return False
        if kind == "accept":
            for room in self._game_rooms(what[1]):
                await self.session.join(room)
            self._note("accepted", what[1])
        elif kind == "decline":
            for room in self._game_rooms(what[1]):
                await self.session.leave(room)
                if self.tables is not None:
                    self.tables.invitations.pop(room, None)
            self._note("declined", what[1])
        elif kind == "host":
            await self._host(*what[1:])
        elif kind == "chat_history":
            await self._chat_history(what[1])
        elif kind == "act":
            await self._act(what[1], what[2])
        return False

    async def _chat_history(self, table: str) -> None:
        """Read the chat said at ``table`` before this program started (once per table)."""
        tables = self.tables
        if tables is None or table in self._chat_read:
            return
        room = next((r for r, info in tables.rooms.items()
                     if info.get("table") == table and info.get("role") == "table"), None)
        if room is None or not hasattr(self.session, "messages"):
            return
        sources = await self.session.messages(room)
        self._chat_read.add(table)
        with self._lock:
            if tables.chat_history(table, sources):
                for referee, box in tables.inbox.items():
                    while box:
                        self._inboxes[referee].append(box.popleft())
        self._note("tables")

    def _game_rooms(self, room: str) -> list[str]:
        """``room`` and the other invited rooms of the same game."""
        for invitation in self.invitations():
            if room in invitation.rooms:
                return list(invitation.rooms)
        return [room]

    async def _signed_out(self, why: str) -> None:
        if self.session is not None:
            await self.session.close()
            self.session.creds = None
        self.user_id = self.homeserver = None
        self.tables = None
        self.referee = None
        self._players = {}
        self._chat_read = set()
        self._note("signed_out", why)

    # ---------------------------------------------------------------- hosting
    def hosted_here(self, user_id: str) -> bool:
        """Whether this program keeps games hosted by ``user_id`` (its referee's saves)."""
        from .referee import TABLE_PREFIX
        folder = self.referee_dir / _folder_name(user_id)
        return folder.is_dir() and any(folder.glob(f"{TABLE_PREFIX}*.yaml"))

    async def _start_referee(self, creds: Credentials, hosting_now: bool = False) -> None:
        """Resume the games this account hosts here (the referee and its own connection to
        the homeserver); nothing at all when there are none and ``hosting_now`` is False: a
        program that only plays as a guest runs no referee (one is started when it hosts)."""
        from .matrix import ROOMS_FILE
        from .referee import Referee
        from .transport import send_all
        if self.ref_end is not None:
            await self._quietly(self.ref_end.close())
        self.referee = self.ref_end = None
        if not hosting_now and not self.hosted_here(creds.user_id):
            return
        folder = self.referee_dir / _folder_name(creds.user_id)
        folder.mkdir(parents=True, exist_ok=True)
        self.referee, greeting = Referee.resume(folder)
        self.ref_end = HostTransport(self, creds, folder / ROOMS_FILE)
        for table_id, table in self.referee.tables.items():
            try:
                await self.ref_end.open_table(table_id, table.accounts, table.match.title)
            except Exception as exc:  # noqa: BLE001
                self._note("error", f"Table {table_id} could not reach its rooms: "
                                    f"{explain(exc, creds.homeserver)}")
        send_all(self.ref_end, greeting)

    async def _host(self, game_id: str, seats: list[dict[str, Any]],
                    accounts: list[str | None], options: dict[str, Any]) -> None:
        from .transport import send_all
        if self.referee is None and self.hosting and self.session is not None \
                and self.session.creds is not None:
            await self._start_referee(self.session.creds, hosting_now=True)
        if self.referee is None:
            self._note("error", "This program is not hosting (sign in again).")
            return
        try:
            table_id, out = self.referee.open_table(game_id, seats, accounts, options=options)
        except IllegalAction as exc:
            self._note("error", str(exc))
            return
        title = self.referee.tables[table_id].match.title
        try:
            await self.ref_end.open_table(table_id, accounts, title)
        except Exception as exc:  # noqa: BLE001 - the table is saved; its rooms come later
            self._note("error", f"The game is saved here, but its rooms could not be made "
                                f"yet: {explain(exc, self.homeserver or '?')}")
        send_all(self.ref_end, out)
        await self._quietly(self.ref_end.flush())
        self._note("hosted", table_id, {"table": table_id, "title": title})

    async def _act(self, referee: str, message: dict[str, Any]) -> None:
        """A message from a table screen to ``referee`` (this account's own referee: handed
        to it here; another's: sent in this account's seat room of that table)."""
        from .transport import send_all
        if referee == self.user_id and self.referee is not None:
            send_all(self.ref_end, self.referee.handle(self.user_id, message, time.monotonic()))
            await self._quietly(self.ref_end.flush())
            self._note("tables")
            return
        tables = self.tables
        room = None
        if tables is not None:
            for room_id, info in tables.rooms.items():
                if info.get("table") == message.get("table") and info.get("role") == "seat" \
                        and info.get("referee") == referee:
                    room = room_id
        if room is None:
            self._note("error", "That table's room is not known yet; try again in a moment.")
            return
        await self.session.send(room, message, message.get("id"))

    async def _referee_loop(self) -> None:
        from .matrix import run_referee
        try:
            await run_referee(self.ref_end, self.referee)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001
            log.exception("online: the referee loop stopped")


def _folder_name(user_id: str) -> str:
    """A folder name for an account's hosted tables: ``@ann:example.org`` -> ``ann_example.org``."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", user_id.lstrip("@"))


def _host_transport_class() -> Any:
    from .matrix import MatrixTransport

    class _HostTransport(MatrixTransport):
        """The host's referee end: signed in with the kept token; what the referee sends this
        account itself (its seats played here) goes straight to the table screens."""

        def __init__(self, service: OnlineService, creds: Credentials, state: Path) -> None:
            super().__init__(creds.homeserver, creds.user_id, "", state=state)
            self.client.restore_login(creds.user_id, creds.device_id, creds.access_token)
            self.service = service

        def send(self, recipient: str, message: dict[str, Any]) -> None:
            if recipient == self.account:
                self.service.inbox(self.account).append((self.account, message))
                return
            super().send(recipient, message)

    return _HostTransport


def HostTransport(service: OnlineService, creds: Credentials, state: Path) -> Any:  # noqa: N802
    return _host_transport_class()(service, creds, state)


__all__ = ["OnlineService", "Session", "Credentials", "Note", "TableInfo", "Invitation",
           "BridgeTransport", "Tables", "save_credentials", "load_credentials",
           "forget_credentials", "valid_matrix_id", "homeserver_url", "nio_missing",
           "turn_words", "result_words", "SignInError"]
