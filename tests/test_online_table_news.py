"""What a player meets at an online table besides the game (issue 30): the table chat (both
ways, with the speaker's seat, refused when too long or too fast, an ordinary Matrix text
line in the table's room), the referee's notices as information rather than errors, who is
away kept across a referee restart, finished games behind "Show finished" with their result,
and no referee at all in a program that only plays as a guest."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace

import pygame
import pygame_gui
import pytest

from game.online import protocol
from game.online.client import Player
from game.online.referee import CHAT_BURST, CHAT_FLOOD, Referee
from game.online.remote_table import RemoteTable
from game.online.transport import MemoryHub, send_all, serve
from game.ui.app import INFO
from game.ui.scenes.play import PlayScene
from game.ui.widgets import ALERT

from onlinefake import FakeServer, install, wait_for
from uidriver import Driver

SEED = 0x7AB1E_C4A7
SEATS = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]


class Two:
    """A referee and two players (@ann at seat 0, @bo at seat 1) over the in-memory network."""

    def __init__(self, saves: Path, game: str = "fantasy_racing") -> None:
        self.hub = MemoryHub()
        self.referee = Referee(saves)
        self.ref_end = self.hub.endpoint("@ref")
        self.table_id, out = self.referee.open_table(game, SEATS, ["@ann", "@bo"], seed=SEED)
        self.hub.join(self.table_id, ["@ann", "@bo"])
        send_all(self.ref_end, out)
        self.players = [Player(self.hub.endpoint(a), "@ref") for a in ("@ann", "@bo")]
        for player in self.players:
            player.poll()
        self.tables = [RemoteTable(p, self.table_id, [s]) for s, p in enumerate(self.players)]
        self.now = 0.0

    def exchange(self, seconds: float = 0.1):
        self.now += seconds
        serve(self.referee, self.ref_end, self.now)
        return [table.poll() for table in self.tables]


# ---------------------------------------------------------------------------------- chat
def test_a_chat_line_reaches_everyone_with_the_speakers_seat_and_nothing_else(tmp_path):
    two = Two(tmp_path)
    ann, bo = two.tables
    assert ann.say("Good luck, Bo!") is None
    two.exchange()
    for table, mine in ((ann, True), (bo, False)):
        assert table.chat_lines() == [{"by": "Ann", "text": "Good luck, Bo!", "seats": [0],
                                       "mine": mine, "ts": None}]
    assert bo.say("  You too.  ") is None
    two.exchange()
    assert [(line["by"], line["text"], line["seats"]) for line in ann.chat_lines()] == [
        ("Ann", "Good luck, Bo!", [0]), ("Bo", "You too.", [1])]
    # What went to the table room: the words, who said them, nothing of the game.
    said = [m for m in two.hub.received["@bo"] if m.get("kind") == "chat"]
    assert said and all(set(m) <= {"kind", "proto", "program", "table", "rules", "by", "seats",
                                   "account", "text"} for m in said)


def test_a_chat_line_too_long_or_too_fast_is_refused_with_a_reason(tmp_path):
    two = Two(tmp_path)
    ann, bo = two.tables
    long = "x" * (protocol.MAX_CHAT + 1)
    assert "at most 500 characters" in ann.say(long)
    assert ann.say("   ") == "Type something to say first."
    two.players[0].say(two.table_id, long)  # past the screen's check: the referee's own
    news, _ = two.exchange()
    assert news == ["A chat line must hold 1 to 500 characters."] and news[0].kind == "refused"
    for n in range(CHAT_BURST):
        assert ann.say(f"line {n}") is None
    assert ann.say("one too many") is None
    news, _ = two.exchange(0.01)
    assert news == [CHAT_FLOOD]
    assert [line["text"] for line in bo.chat_lines()] == [f"line {n}" for n in range(CHAT_BURST)]
    two.exchange(30.0)  # a pause: chatting again is fine
    assert ann.say("back again") is None
    assert two.exchange(0.01) == [[], []]
    assert bo.chat_lines()[-1]["text"] == "back again"


def test_chat_is_an_ordinary_text_message_in_the_matrix_room_and_one_typed_there_shows():
    pytest.importorskip("nio")
    from game.online.matrix import MatrixTransport
    from game.online.session import Tables
    end = MatrixTransport("http://127.0.0.1:9", "@ref:test", "")
    end.rooms = {"!table": {"table": "t0able", "role": "table", "account": None},
                 "!seat": {"table": "t0able", "role": "seat", "account": "@bo:test"}}
    chat = protocol.stamp("chat", "t0able", "test", by="Ann", seats=[0], account="@ann:test",
                          text="Hello <b>there</b>")
    table = protocol.stamp("table", "t0able", "test", to_act=[1], over=False, waiting=["Bo"],
                           mentions=["@bo:test"], status="")
    events = protocol.pack([table, chat, table])
    assert [e["kind"] for e in events] == ["table", "chat", "table"]  # a chat line alone
    kind, content = end._content("!table", events[1])
    assert kind == "m.room.message" and content["msgtype"] == "m.text"
    assert content["body"] == "Ann: Hello <b>there</b>" and "formatted_body" not in content
    assert content[protocol.EVENT_UPDATE] == chat
    # A guest's program reads it, and a line a friend typed in the room with another app.
    tables = Tables("@bo:test")
    tables.rooms = {"!table": {"table": "t0able", "role": "table", "referee": "@ref:test"}}

    def event(sender, content, ident):
        return SimpleNamespace(source={"type": "m.room.message", "sender": sender,
                                       "content": content, "event_id": ident})
    response = SimpleNamespace(rooms=SimpleNamespace(invite={}, leave={}, join={
        "!table": SimpleNamespace(state=[], timeline=SimpleNamespace(events=[
            event("@ref:test", content, "$1"),
            event("@cy:test", {"msgtype": "m.text", "body": "hi all\nfrom Element"}, "$2"),
            event("@cy:test", {"msgtype": "m.image", "body": "cat.png"}, "$3")]))}))
    tables.take(response)
    player = Player(SimpleNamespace(receive=lambda: list(tables.inbox["@ref:test"])),
                    "@ref:test")
    player.poll()
    player.poll()  # the same events again (fetched twice): taken once
    assert [(m["by"], m["text"]) for m in player.chat] == [
        ("Ann", "Hello <b>there</b>"), ("cy", "hi all from Element")]


def online_scene(tmp_path):
    two = Two(tmp_path)
    d = Driver()
    scene = PlayScene(d.app, table=two.tables[0])
    d.app.push(scene)
    d.pump(3)
    return two, d, scene


def toast_edge(d, index=-1):
    """The colour of the drawn toast's top edge (the middle of it)."""
    surface = pygame.Surface(d.app.window_size)
    d.app.compose(surface)
    _text, box = d.app.toast_rects[index]
    return tuple(surface.get_at((box.centerx, box.y)))[:3]


def test_the_chat_box_sends_and_others_lines_show_as_toasts_with_their_seat(tmp_path):
    two, d, scene = online_scene(tmp_path)
    assert d.buttons("Chat") and not scene.chat.is_open
    d.app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=0, unicode="c"),
                pygame.event.Event(pygame.TEXTINPUT, text="c"),
                pygame.event.Event(pygame.KEYUP, key=pygame.K_c, mod=0)])
    assert scene.chat.is_open and scene.chat.typing() and d.buttons("Chat")
    assert scene.chat.entry.get_text() == ""  # the key that opened it is not the first letter
    d.app.step([pygame.event.Event(pygame.TEXTINPUT, text="c")])
    assert scene.chat.entry.get_text() == "c"  # typed afterwards: it is
    scene.chat.entry.set_text("")
    before = (scene.viewer, scene.table.step, len(d.app.stack.scenes))
    for key in (pygame.K_h, pygame.K_t, pygame.K_c, pygame.K_LEFT):  # typed, not commands
        d.key(key)
    assert scene.chat.is_open and len(d.app.stack.scenes) == before[2]
    scene.chat.entry.set_text("Shall we race?")
    d.app.step([pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_FINISHED,
                                   ui_element=scene.chat.entry, text="Shall we race?")])
    assert scene.chat.entry.get_text() == ""
    two.exchange()
    d.pump(2)
    assert [line["text"] for line in two.tables[1].chat_lines()] == ["Shall we race?"]
    assert scene.chat.draft == "" and scene.table.chat_lines()[-1]["mine"]
    # A line from Bo while the box is open: in the box, no toast.
    toasts = len(d.app.toasts)
    two.tables[1].say("Go!")
    two.exchange()
    d.pump(2)
    assert len(d.app.toasts) == toasts and scene.table.chat_lines()[-1]["text"] == "Go!"
    d.key(pygame.K_ESCAPE)  # while typing: closes the chat, not the game's menu
    assert not scene.chat.is_open and d.top is scene and d.buttons("Chat")
    two.tables[1].say("Your move.")
    two.exchange()
    d.pump(2)
    toast = d.app.toasts[-1]
    assert toast[0] == "Bo: Your move." and toast.kind == "info" and toast.seat == 1
    assert toast_edge(d) == INFO
    # The draft survives a rebuild (news comes all the time) and closing.
    d.key(pygame.K_c)
    scene.chat.entry.set_text("half a thou")
    scene.rebuild()
    assert scene.chat.entry.get_text() == "half a thou"
    d.press("Chat")
    assert not scene.chat.is_open
    d.key(pygame.K_c)
    assert scene.chat.entry.get_text() == "half a thou"


# ------------------------------------------------------------------------------- notices
def test_referee_notices_are_information_toasts_and_refusals_errors(tmp_path):
    two, d, scene = online_scene(tmp_path)
    send_all(two.ref_end, two.referee.presence(two.table_id, "@bo", False))
    d.pump(2)
    toast = d.app.toasts[-1]
    assert "Bo left the table" in toast[0] and toast.kind == "info" and not toast[2]
    assert toast_edge(d) == INFO
    two.players[0].undo(two.table_id, 0, 99)  # a question the referee refuses
    serve(two.referee, two.ref_end, 1.0)  # (the scene takes in the answer itself)
    d.pump(2)
    toast = d.app.toasts[-1]
    assert toast.kind == "error" and toast[2] and toast_edge(d) == ALERT


# ---------------------------------------------------------------------------------- away
def test_who_is_away_is_kept_across_a_referee_restart_until_they_come_back(tmp_path):
    two = Two(tmp_path)
    send_all(two.ref_end, two.referee.presence(two.table_id, "@bo", False))
    two.exchange()
    ann = two.tables[0]
    assert ann.away() == ["Bo"]
    # The referee's program restarts: a new referee from the saves, and a new Ann.
    referee, greeting = Referee.resume(tmp_path)
    assert referee.tables[two.table_id].away == {"@bo"}
    hub = MemoryHub()
    hub.join(two.table_id, ["@ann", "@bo"])
    ref_end = hub.endpoint("@ref")
    send_all(ref_end, greeting)
    player = Player(hub.endpoint("@ann"), "@ref")
    player.poll()
    table = RemoteTable(player, two.table_id, [0])
    assert table.away() == ["Bo"]
    d = Driver()
    scene = PlayScene(d.app, table=table)
    d.app.push(scene)
    d.pump(2)
    assert scene.info_lines()[0].startswith("Away from the table: Bo")
    # Bo comes back: said, and the table no longer shows him away (nor after a restart).
    send_all(ref_end, referee.presence(two.table_id, "@bo", True))
    d.pump(3)
    assert table.away() == [] and not scene.info_lines()[0].startswith("Away")
    assert Referee.resume(tmp_path)[0].tables[two.table_id].away == set()


# ------------------------------------------------------------------------- the games list
@pytest.fixture
def server(monkeypatch):
    server = FakeServer()
    install(monkeypatch, server)
    return server


def test_finished_games_are_listed_only_when_asked_with_their_result(server):
    from game.ui.scenes.online import OnlineGamesScene
    from onlinefake import signed_in_service
    d = Driver()
    try:
        server.table("!t1", "tab001", "Odysseus", ["Ann", "Bo"], ["Ann"],
                     mentions=["@ann:example.org"], away=["Bo"])
        server.table("!t2", "tab002", "Mothership", ["Cy", "Ann"], [], over=True,
                     result={"winners": [0], "scores": [3, 1]},
                     status="Over after round 9")
        service = signed_in_service(d.app, server)
        assert wait_for(d, lambda: len(service.table_list()) == 2)
        d.app.push(OnlineGamesScene(d.app))
        d.pump(2)
        assert [item.table for _k, item, _r, _l in d.top.rows] == ["tab001"]
        lines = [text for text, *_ in d.top.rows[0][3]]
        assert "Away from the table: Bo" in lines
        d.press("Show finished (1)")
        rows = d.top.rows
        assert [item.table for _k, item, _r, _l in rows] == ["tab001", "tab002"]
        assert "Game over: Cy won. Over after round 9" in [text for text, *_ in rows[1][3]]
        assert len(d.buttons("Open")) == 2  # a finished game opens (its history)
        d.press("Hide finished")
        assert [item.table for _k, item, _r, _l in d.top.rows] == ["tab001"]
    finally:
        if getattr(d.app, "online", None) is not None:
            d.app.online.stop()


# ------------------------------------------------------------------------ no idle referee
def test_a_program_that_only_plays_as_a_guest_runs_no_referee(tmp_path, server, monkeypatch):
    from game.online import session as session_module
    from game.online.session import Credentials, OnlineService, save_credentials
    from game.ui import online
    started = []

    class FakeHostEnd:  # the host's Matrix end, without a homeserver
        def __init__(self, service, creds, state):
            started.append(creds.user_id)
            self.sent = []

        async def open_table(self, table_id, accounts, title):
            pass

        def send(self, recipient, message):
            self.sent.append((recipient, message))

        async def flush(self):
            pass

        async def close(self):
            pass

    async def no_loop(self):
        await asyncio.sleep(0)
    monkeypatch.setattr(session_module, "HostTransport", FakeHostEnd)
    monkeypatch.setattr(OnlineService, "_referee_loop", no_loop)
    creds_path = tmp_path / "account.yaml"
    save_credentials(creds_path, Credentials("https://example.org", "@ann:example.org",
                                             "DEVICE", "token"))

    def service():
        made = OnlineService(creds_path, tmp_path / "online",
                             session_factory=online.SESSION_FACTORY, host=True).start()
        for _ in range(500):
            if made.tables is not None:
                break
            time.sleep(0.01)
        assert made.tables is not None
        return made

    guest = service()
    try:
        assert guest.referee is None and guest.ref_end is None and started == []
        assert not (tmp_path / "online").exists()
        guest.command("host", "fantasy_racing", SEATS, ["@ann:example.org", "@bo:example.org"],
                      {})
        for _ in range(500):
            if guest.referee is not None and guest.referee.tables:
                break
            time.sleep(0.01)
        assert guest.referee is not None and len(guest.referee.tables) == 1
        assert started == ["@ann:example.org"]
    finally:
        guest.stop()
    # The next start resumes the hosted game: a referee again, from the saves.
    host = service()
    try:
        for _ in range(500):
            if host.referee is not None:
                break
            time.sleep(0.01)
        assert host.referee is not None and len(host.referee.tables) == 1
        assert started == ["@ann:example.org"] * 2
    finally:
        host.stop()


def test_chat_said_before_the_program_started_is_read_from_the_room_in_order(tmp_path):
    """A sync brings only a room's last events: opening a table reads its earlier chat from
    the room (Session.messages); those lines take their place by time, are taken once even
    when a sync brought them too, and are not shown again as news."""
    from game.online.session import Tables
    two = Two(tmp_path)
    referee = "@ref"
    tables = Tables("@ann")
    tables.rooms = {"!table": {"table": two.table_id, "role": "table", "referee": referee}}

    def line(ident, by, seat, text, ts):
        chat = protocol.stamp("chat", two.table_id, "test", by=by, seats=[seat],
                              account="@x", text=text)
        return {"type": "m.room.message", "sender": referee, "event_id": ident,
                "origin_server_ts": ts, "content": {"msgtype": "m.text", "body": text,
                                                     protocol.EVENT_UPDATE: chat}}
    stale = protocol.stamp("table", two.table_id, "test", to_act=[1], step=0, over=False)
    now = int(time.time() * 1000)
    # The sync brought the newest line; the history brings it again with two older ones,
    # an old table message (never taken) and a line typed in another Matrix app.
    recent = line("$3", "Bo", 1, "third", now)
    tables._arrived("!table", recent, recent["content"][protocol.EVENT_UPDATE])
    history = [recent,
               {"type": "m.room.message", "sender": "@cy:test", "event_id": "$2b",
                "origin_server_ts": now - 500_000, "content": {"msgtype": "m.text",
                                                               "body": "hello from Element"}},
               line("$2", "Ann", 0, "second", now - 600_000),
               {"type": "m.room.message", "sender": referee, "event_id": "$t",
                "origin_server_ts": now - 650_000,
                "content": {"msgtype": "m.text", "body": "your turn",
                            protocol.EVENT_UPDATE: stale}},
               line("$1", "Bo", 1, "first", now - 700_000)]
    assert tables.chat_history(two.table_id, history) == 4
    assert all(m["kind"] == "chat" for _s, m in tables.inbox[referee])
    player = two.players[0]
    arrived = list(tables.inbox[referee])
    player.transport = SimpleNamespace(receive=lambda: arrived)  # the same lines each time
    d = Driver()
    table = RemoteTable(player, two.table_id, [0])
    scene = PlayScene(d.app, table=table)
    toasts = len(d.app.toasts)
    d.app.push(scene)
    d.pump(3)
    assert [(l["by"], l["text"]) for l in table.chat_lines()] == [
        ("Bo", "first"), ("Ann", "second"), ("cy", "hello from Element"), ("Bo", "third")]
    assert [text for text, *_ in d.app.toasts[toasts:]] == ["Bo: third"]  # the news only


LOOKS = [((960, 600), 100), ((1280, 720), 100), ((1280, 720), 150), ((1920, 1080), 100),
         ((1920, 1080), 200)]


@pytest.mark.parametrize("size, percent", LOOKS)
def test_the_chat_box_and_its_button_fit_every_window(tmp_path, size, percent):
    from game.ui.look import why_not_size
    from test_layout_sizes import widget_problems
    assert why_not_size(percent, size) is None
    two = Two(tmp_path)
    d = Driver(size=size, ui_scale=percent)
    scene = PlayScene(d.app, table=two.tables[0])
    d.app.push(scene)
    d.pump(2)
    for _ in range(12):  # more lines than the box shows, one of them long
        two.tables[1].say("A rather long line from Bo that needs more than one row in the "
                          "chat box to be read whole " * 2)
        two.exchange(10.0)
    scene.toggle_chat()
    d.pump(3)
    box = scene.chat.rect()
    assert scene.board_rect().contains(box)
    for widget in (scene.chat.entry, scene.chat.send_button, scene.chat.close_button):
        assert box.contains(widget.rect), widget
    assert widget_problems(d.app) == []
    chat = d.buttons("Chat")[0]
    assert chat.rect.width >= chat.font.size("Chat")[0] + 4  # the label is not cut
    surface = pygame.Surface(size)
    d.app.compose(surface)  # draws the lines (wrapped, clipped to the box) without fault


def test_a_chat_line_read_again_after_a_referee_restart_is_said_once(tmp_path):
    """The referee keeps its place in the rooms only every few seconds, so after a restart
    it reads the latest messages again: an action is applied once by its id, and a chat line
    is said once by its own."""
    two = Two(tmp_path)
    two.tables[1].say("See you at Troy.")
    sent = [m for m in two.hub.queues["@ref"]]  # what Bo's program sent, as it crossed
    two.exchange()
    assert [line["text"] for line in two.tables[0].chat_lines()] == ["See you at Troy."]
    referee, greeting = Referee.resume(tmp_path)
    for sender, text in sent:  # read again by the restarted referee
        import json
        out = referee.handle(sender, json.loads(text), 99.0)
        assert out == []
    # A new line is said as usual; an older program's line (no id) too.
    two.referee = referee
    two.tables[1].say("Now!")
    two.players[1].transport.send("@ref", protocol.stamp("chat", two.table_id, "old",
                                                         text="from an older program"))
    two.exchange()
    assert [line["text"] for line in two.tables[0].chat_lines()] == [
        "See you at Troy.", "Now!", "from an older program"]


def test_a_restarted_referee_does_not_notify_the_same_turn_again(tmp_path):
    """The turn line mentions whose turn it is (Matrix apps notify them); a line that tells
    nothing new is a plain notice, also after the referee's program restarts."""
    pytest.importorskip("nio")
    from game.online.matrix import MatrixTransport
    state = tmp_path / "matrix-rooms.yaml"

    def referee_end():
        end = MatrixTransport("http://127.0.0.1:9", "@ref:test", "", state=state)
        end.rooms = {"!table": {"table": "t0able", "role": "table", "account": None}}
        return end

    def turn(to_act):
        return protocol.stamp("table", "t0able", "test", to_act=to_act, over=False,
                              waiting=["Bo"], mentions=["@bo:test"], status="")

    end = referee_end()
    assert end._content("!table", turn([1]))[1]["msgtype"] == "m.text"
    assert end._content("!table", turn([1]))[1]["msgtype"] == "m.notice"
    end._save_state()
    again = referee_end()  # the program restarted
    kind, content = again._content("!table", turn([1]))
    assert (kind, content["msgtype"]) == ("m.room.message", "m.notice")
    assert "m.mentions" not in content
    assert again._content("!table", turn([0]))[1]["msgtype"] == "m.text"
