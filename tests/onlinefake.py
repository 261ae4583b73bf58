"""A fake homeserver session for the online screens' tests (no network, no matrix-nio).

:class:`FakeSession` has :class:`game.online.session.Session`'s calls; its "homeserver" is a
:class:`FakeServer` the test fills with rooms, invitations and ``table`` messages.
"""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

from game.online import protocol
from game.online.session import Credentials, SignInError

ROOM_STATE = f"{protocol.NAMESPACE}.room"
REFEREE = "@host:example.org"


class FakeServer:
    """Accounts, and what the next sync brings (a list of room changes)."""

    def __init__(self) -> None:
        self.passwords = {"@ann:example.org": "secret"}
        self.reachable = True
        self.revoked = False
        self.pending: list[dict[str, Any]] = []
        self.joined: list[str] = []
        self.left: list[str] = []
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def invite(self, room: str, name: str, inviter: str = REFEREE) -> None:
        self.pending.append({"invite": {room: SimpleNamespace(invite_state=[
            SimpleNamespace(source={"type": "m.room.name", "content": {"name": name}}),
            SimpleNamespace(source={"type": "m.room.member", "state_key": "@ann:example.org",
                                    "sender": inviter, "content": {"membership": "invite"}})])}})

    def table(self, room: str, table: str, title: str, seats: list[str], waiting: list[str],
              mentions: list[str] = (), ago: float = 3600.0, over: bool = False,
              result: dict[str, Any] | None = None, status: str = "",
              away: list[str] = ()) -> None:
        state = {"type": ROOM_STATE, "sender": REFEREE,
                 "content": {"table": table, "role": "table", "referee": REFEREE}}
        message = protocol.stamp("table", table, "test", game="odysseus", rules=1, title=title,
                                 seats=[{"name": s, "kind": "human"} for s in seats],
                                 log=[], log_from=0, to_act=[0], waiting=list(waiting),
                                 mentions=list(mentions), status=status, step=3,
                                 over=over, result=result, away=list(away))
        update = {"type": protocol.EVENT_UPDATE, "sender": REFEREE, "content": message,
                  "origin_server_ts": int((time.time() - ago) * 1000)}
        self.pending.append({"join": {room: SimpleNamespace(
            state=[SimpleNamespace(source=state)],
            timeline=SimpleNamespace(events=[SimpleNamespace(source=update)]))}})


def seat_room(server: FakeServer, room: str, table: str, seat: int,
              me: str = "@ann:example.org") -> None:
    """The private room of ``me``'s seat at ``table``, with one update from the referee."""
    state = {"type": ROOM_STATE, "sender": REFEREE,
             "content": {"table": table, "role": "seat", "referee": REFEREE, "account": me}}
    update = {"type": protocol.EVENT_UPDATE, "sender": REFEREE,
              "content": protocol.stamp("update", table, "test", seat=seat, game="odysseus",
                                        rules=1, view={"seat": seat}, legal=[], log=[],
                                        log_from=0, to_act=[0], status="", step=3,
                                        over=False, result=None)}
    server.pending.append({"join": {room: SimpleNamespace(
        state=[SimpleNamespace(source=state)],
        timeline=SimpleNamespace(events=[SimpleNamespace(source=update)]))}})


class FakeSession:
    """Session's calls against a FakeServer (``server`` is set by :func:`fake_service`)."""

    server: FakeServer

    def __init__(self) -> None:
        self.creds: Credentials | None = None

    async def sign_in(self, homeserver: str, user: str, password: str) -> Credentials:
        await asyncio.sleep(0)
        if not self.server.reachable:
            raise SignInError(f"The homeserver at {homeserver} cannot be reached "
                              "(ClientConnectorError). Check the address and the network.")
        user_id = user if user.startswith("@") else f"@{user}:example.org"
        if self.server.passwords.get(user_id) != password:
            raise SignInError("Wrong user name or password.")
        self.creds = Credentials(homeserver, user_id, "DEVICE", "token-" + user_id)
        return self.creds

    async def restore(self, creds: Credentials) -> None:
        self.creds = creds

    async def sign_out(self) -> None:
        self.creds = None

    async def close(self) -> None:
        pass

    async def sync(self, timeout_ms: int) -> Any:
        if self.server.revoked:
            raise SignInError("The homeserver has signed this program out: sign in again.")
        for _ in range(20):
            if self.server.pending:
                break
            await asyncio.sleep(0.01)
        rooms = SimpleNamespace(invite={}, join={}, leave={})
        while self.server.pending:
            change = self.server.pending.pop(0)
            for key, value in change.items():
                getattr(rooms, key).update(value)
        return SimpleNamespace(rooms=rooms, next_batch="next")

    async def join(self, room: str) -> None:
        self.server.joined.append(room)

    async def leave(self, room: str) -> None:
        self.server.left.append(room)
        self.server.pending.append({"leave": {room: SimpleNamespace()}})

    async def send(self, room: str, message: dict[str, Any], tx_id: str | None) -> None:
        self.server.sent.append((room, message))
        if message.get("kind") == "sync":  # the referee answers with the seat's update
            seat_room(self.server, room, message["table"], message["seat"], self.creds.user_id)


class OfflineSession(FakeSession):
    """Every sign-in fails as if this computer were offline (the tests' default)."""

    server = FakeServer()

    async def sign_in(self, homeserver: str, user: str, password: str) -> Credentials:
        raise SignInError(f"The homeserver {homeserver} could not be found: this computer "
                          "may be offline (tests never reach a homeserver).")


def fill(server: FakeServer) -> None:
    """A long list: eight tables with long seat lists and an invitation with a long name."""
    for n in range(8):
        server.table(f"!t{n}", f"tab00{n}", "Fantasy Expedition", ["Mirabelle", "Bartholomew",
                     "Tess", "Ugo", "Linnea"], ["Bartholomew"], ago=100 * n)
    server.invite("!i1", "Odysseus: table tab100 with a rather long room name")


def signed_in_service(app: Any, server: FakeServer) -> Any:
    """``app``'s service, signed in (from a kept sign-in) to ``server`` with its list filled
    (call :func:`install` first)."""
    from game.online.session import save_credentials
    from game.ui import online
    if not online.credentials_path().exists():
        save_credentials(online.credentials_path(), Credentials(
            "https://example.org", "@ann:example.org", "DEVICE", "token"))
    if not server.pending:
        fill(server)
    service = online.service(app)
    for _ in range(500):
        if len(service.table_list()) >= 8:
            break
        time.sleep(0.01)
    return service


def install(monkeypatch: Any, server: FakeServer) -> None:
    """Make every program's online service talk to ``server`` (and host nothing)."""
    from game.ui import online

    class Bound(FakeSession):
        pass
    Bound.server = server
    monkeypatch.setattr(online, "SESSION_FACTORY", Bound)
    monkeypatch.setattr(online, "HOSTING", False)


def wait_for(d: Any, condition: Any, steps: int = 500) -> bool:
    """Pump the program until ``condition()`` holds (bounded by steps, not by time)."""
    for _ in range(steps):
        if condition():
            return True
        time.sleep(0.01)
        d.pump()
    return condition()
