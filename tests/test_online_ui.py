"""Play online's screens (issue 30) over a fake homeserver: the menu entry, signing in (wrong
password, unreachable, kept token only, signing out), the list of games and invitations, the
host page, and every screen at every window size without overlap or cut text."""

from __future__ import annotations

import os
import stat
import sys
import types

import pytest
import yaml

from game.engine import Match
from game.ui import online
from game.ui.look import UI_SCALES, why_not_size
from game.ui.scenes.menu import MainMenu
from game.ui.scenes.notice import NoticeScene
from game.ui.scenes.online import HostScene, OnlineGamesScene, SignInScene

from cutcheck import Audit
from onlinefake import REFEREE, FakeServer, fill, install, wait_for
from test_layout_sizes import widget_problems
from uidriver import Driver

SIZES = [(960, 600), (1280, 720), (1920, 1080)]
LOOKS = [((1280, 720), 150), ((1920, 1080), 200)]
ALL_LOOKS = [(size, percent) for size in SIZES for percent in UI_SCALES
             if percent > 100 and why_not_size(percent, size) is None]


@pytest.fixture
def server(monkeypatch):
    server = FakeServer()
    install(monkeypatch, server)
    return server


@pytest.fixture(autouse=True)
def stop_services(server):
    made = []
    yield made
    for d in made:
        service = getattr(d.app, "online", None)
        if service is not None:
            service.stop()


def driver(made, size=(1280, 720), percent=100):
    d = Driver(size=size, ui_scale=percent)
    made.append(d)
    online.service(d.app)
    return d


def sign_in(d, user="ann", password="secret"):
    scene = d.top
    assert isinstance(scene, SignInScene)
    scene.entries["homeserver"].set_text("example.org")
    scene.entries["user"].set_text(user)
    scene.entries["password"].set_text(password)
    d.press("Sign in")


def test_play_online_says_how_to_install_when_the_extra_is_missing(monkeypatch):
    d = Driver()
    monkeypatch.setattr(online, "missing", lambda: "Online play needs the matrix-nio "
                        "library: pip install 'tabletop-hotseat[online]'")
    d.app.stack.reset(MainMenu(d.app))
    d.pump()
    d.press("Play online")
    assert isinstance(d.top, NoticeScene)
    assert "pip install" in d.top.message
    assert getattr(d.app, "online", None) is None


def test_sign_in_keeps_only_the_token_and_says_what_went_wrong(stop_services, server):
    d = driver(stop_services)
    d.press("Play online")
    assert isinstance(d.top, SignInScene)
    sign_in(d, password="wrong")
    assert wait_for(d, lambda: d.top.message_error)
    assert d.top.message == "Wrong user name or password."
    assert isinstance(d.top, SignInScene) and d.buttons("Sign in")[0].is_enabled
    server.reachable = False
    sign_in(d)
    assert wait_for(d, lambda: "cannot be reached" in d.top.message)
    server.reachable = True
    sign_in(d)
    assert wait_for(d, lambda: isinstance(d.top, OnlineGamesScene))
    path = online.credentials_path()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    text = path.read_text()
    assert "secret" not in text
    doc = yaml.safe_load(text)
    assert doc["user_id"] == "@ann:example.org" and doc["access_token"] == \
        "token-@ann:example.org" and doc["homeserver"] == "https://example.org"
    assert "password" not in doc
    # A new program (a restart) is signed in from the kept token.
    again = driver(stop_services)
    assert again.app.online.signed_in and again.app.online.user_id == "@ann:example.org"
    again.press("Play online")
    assert isinstance(again.top, OnlineGamesScene)
    # Sign out forgets it.
    d.press("Sign out")
    d.press("Sign out")
    assert wait_for(d, lambda: isinstance(d.top, SignInScene))
    assert not path.exists()


def test_a_sign_in_the_homeserver_ended_is_forgotten(stop_services, server):
    d = driver(stop_services)
    d.press("Play online")
    sign_in(d)
    assert wait_for(d, lambda: isinstance(d.top, OnlineGamesScene))
    assert online.credentials_path().exists()
    server.revoked = True
    assert wait_for(d, lambda: isinstance(d.top, SignInScene))
    assert d.top.message_error and "signed this program out" in d.top.message
    assert not online.credentials_path().exists() and not d.app.online.signed_in


def test_the_list_shows_tables_whose_turn_since_when_and_invitations(stop_services, server):
    d = driver(stop_services)
    d.press("Play online")
    sign_in(d)
    assert wait_for(d, lambda: isinstance(d.top, OnlineGamesScene))
    server.table("!t1", "tab001", "Odysseus", ["Ann", "Bo"], ["Ann"],
                 mentions=["@ann:example.org"], ago=7300)
    server.table("!t2", "tab002", "Mothership", ["Cy", "Ann"], ["Cy"], ago=120)
    server.invite("!i1", "Fantasy Racing: table tab003")
    assert wait_for(d, lambda: len(d.top.rows) == 3)
    kinds = [(kind, item.room if kind == "invite" else item.table)
             for kind, item, _row, _lines in d.top.rows]
    assert kinds == [("invite", "!i1"), ("table", "tab001"), ("table", "tab002")]
    from game.online.session import turn_words
    import time
    first, second = d.top.rows[1][1], d.top.rows[2][1]
    assert first.my_turn and turn_words(first, time.time()) == "Your turn (Ann), for 2 h"
    assert turn_words(second, time.time()) == "Cy to play, for 2 min"
    assert first.referee == REFEREE and not first.hosted
    # The same turn said again (the host's program restarted): still "for 2 h".
    server.table("!t1", "tab001", "Odysseus", ["Ann", "Bo"], ["Ann"],
                 mentions=["@ann:example.org"], ago=5)
    server.invite("!i2", "Mothership: your seat (tab009)")
    assert wait_for(d, lambda: len(d.top.rows) == 4)
    assert turn_words(d.app.online.tables.tables["tab001"], time.time()).endswith("for 2 h")
    d.press("Decline", 1)
    assert wait_for(d, lambda: len(d.top.rows) == 3)
    d.press("Accept")
    assert wait_for(d, lambda: server.joined == ["!i1"])
    d.press("Decline")
    assert wait_for(d, lambda: server.left == ["!i2", "!i1"])
    assert wait_for(d, lambda: len(d.top.rows) == 2)
    # Open: a clear message, not a crash, while the remote table screen is not there.
    toasts = len(d.app.toasts)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "game.online.remote_table", None)  # not importable
        d.press("Open")
    assert isinstance(d.top, OnlineGamesScene) and d.top.opening is None
    assert "not available" in d.app.toasts[toasts][0]


def test_open_asks_for_the_seats_and_shows_the_table_once_it_is_ready(stop_services, server,
                                                                       monkeypatch):
    """Open syncs this account's seats in their private room and shows the play screen with
    a RemoteTable once the referee's table message and the seats' updates are in."""
    from onlinefake import seat_room
    from game.ui.scene import Scene
    made = []

    class RemoteTable:
        def __init__(self, player, table_id, seats):
            made.append((player, table_id, seats))

        @staticmethod
        def ready(player, table_id, seats):
            return bool((player.tables.get(table_id) or {}).get("game")) and all(
                (table_id, s) in player.updates for s in seats)

    class PlayScene(Scene):
        def __init__(self, app, table=None):
            super().__init__(app)
            self.table = table
    monkeypatch.setitem(sys.modules, "game.online.remote_table",
                        types.SimpleNamespace(RemoteTable=RemoteTable))
    import game.ui.scenes.play as play_module
    monkeypatch.setattr(play_module, "PlayScene", PlayScene)
    d = driver(stop_services)
    d.press("Play online")
    sign_in(d)
    assert wait_for(d, lambda: isinstance(d.top, OnlineGamesScene))
    server.table("!t1", "tab001", "Odysseus", ["Ann", "Bo", "Cy"], ["Ann"],
                 mentions=["@ann:example.org"])
    seat_room(server, "!s1", "tab001", 0)
    assert wait_for(d, lambda: len(d.top.rows) == 1 and d.top.rows[0][1].my_seats == [0])
    player = d.app.online.player(REFEREE)
    player.poll()
    player.updates.clear()  # as if the seat's update had not come yet
    d.press("Open")
    assert wait_for(d, lambda: isinstance(d.top, PlayScene))
    assert wait_for(d, lambda: [(room, message["kind"], message.get("seat"))
                                for room, message in server.sent] == [("!s1", "sync", 0)])
    assert made and made[0][1:] == ("tab001", [0]) and d.top.table is not None


def test_the_host_page_checks_remote_seats(stop_services):
    d = driver(stop_services)
    d.press("Play online")
    sign_in(d)
    assert wait_for(d, lambda: isinstance(d.top, OnlineGamesScene))
    d.press("Host a game")
    host = d.top
    assert isinstance(host, HostScene)
    assert [s["where"] for s in host.seats][:2] == ["here", "remote"]
    host.name_entries[1].set_text("bob")
    toasts = len(d.app.toasts)
    d.press("Start")
    assert isinstance(d.top, HostScene) and "not a Matrix ID" in d.app.toasts[toasts][0]
    host.name_entries[1].set_text("@bob:example.org")
    sent = []
    d.app.online.command = lambda *what: sent.append(what)
    d.press("Start")
    assert isinstance(d.top, OnlineGamesScene)
    kind, game_id, seats, accounts, options = sent[0]
    assert kind == "host" and accounts[:2] == ["@ann:example.org", "@bob:example.org"]
    assert seats[1] == {"name": "bob", "kind": "human"}
    assert all((a is None) == (s["kind"] == "bot") for s, a in zip(seats, accounts))
    Match.new(game_id, seats, options=options)  # what the referee will be asked to open


def scenes_of(d, server):
    """Each online screen, with a full list (tables and invitations)."""
    def games():
        scene = OnlineGamesScene(d.app)
        return scene

    return [("sign in", lambda: SignInScene(d.app, why="Wrong user name or password.")),
            ("online games", games),
            ("host", lambda: HostScene(d.app, "odysseus"))]


@pytest.mark.parametrize("size,percent", [(s, 100) for s in SIZES] + LOOKS)
def test_online_screens_fit_every_window(size, percent, stop_services, monkeypatch, server):
    looks_fit(size, percent, stop_services, monkeypatch, server)


@pytest.mark.slow
@pytest.mark.parametrize("size,percent", ALL_LOOKS)
def test_online_screens_fit_at_any_interface_size(size, percent, stop_services, monkeypatch,
                                                  server):
    looks_fit(size, percent, stop_services, monkeypatch, server)


def looks_fit(size, percent, made, monkeypatch, server):
    audit = Audit(monkeypatch)
    d = driver(made, size, percent)
    d.press("Play online")
    sign_in(d)
    assert wait_for(d, lambda: isinstance(d.top, OnlineGamesScene))
    fill(server)
    assert wait_for(d, lambda: len(d.app.online.table_list()) == 8)
    found = []
    where = f"{size[0]}x{size[1]} at {percent}%"
    for name, make in scenes_of(d, server):
        d.app.stack.reset(MainMenu(d.app))
        d.app.push(make())
        d.pump(2)
        found += [text for text, _ in widget_problems(d.app)]
        found += audit.problems(d.app, f"{where} {name}")
    d.app.stack.reset(MainMenu(d.app))
    d.pump(2)
    found += [text for text, _ in widget_problems(d.app)]
    found += audit.problems(d.app, f"{where} menu")
    assert not found, "\n".join(dict.fromkeys(found))
