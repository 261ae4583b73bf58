"""Play online's screens against a real homeserver (issue 30): ``pytest -m online``.

Needs TABLETOP_TEST_HOMESERVER and TABLETOP_TEST_SHARED_SECRET (a local Synapse:
``python -m game.tools.synapse_local``) and matrix-nio.  Ann signs in on the sign-in screen
(a wrong password first), hosts a two-seat game for herself and Bob on the host page; Bob's
program (the service without a window) sees the invitation, accepts it, and both lists show
the game with whose turn it is; then each plays from its own seat's messages, Ann's program
restarts (her referee resumes from its folder) and the game goes on."""

from __future__ import annotations

import os
import secrets
import time

import pytest

from game.ui import online
from game.ui.scenes.online import HostScene, OnlineGamesScene, SignInScene

from uidriver import Driver

pytestmark = pytest.mark.online

HOMESERVER = os.environ.get("TABLETOP_TEST_HOMESERVER")
SECRET = os.environ.get("TABLETOP_TEST_SHARED_SECRET")


def _need():
    if not HOMESERVER or not SECRET:
        pytest.skip("no homeserver: set TABLETOP_TEST_HOMESERVER and "
                    "TABLETOP_TEST_SHARED_SECRET (python -m game.tools.synapse_local env DIR)")
    pytest.importorskip("nio", reason="matrix-nio is not installed (the 'online' extra)")


def wait_for(condition, d=None, steps=1200):
    """Until ``condition()`` holds, pumping the window if any (bounded by steps: 60 s)."""
    for _ in range(steps):
        if condition():
            return True
        time.sleep(0.05)
        if d is not None:
            d.pump()
    return condition()


def waiting_in(service):
    """Who the first game of ``service``'s list waits for (None before the list came)."""
    tables = service.table_list()
    return tables[0].waiting if tables else None


def test_sign_in_host_invite_accept_and_both_lists(tmp_path):
    _need()
    from game.online.client import Player
    from game.online.loadtest import choose
    from game.online.session import BridgeTransport, OnlineService
    from game.tools.synapse_local import register_with_secret
    run = secrets.token_hex(3)
    password = secrets.token_hex(10)
    ann = register_with_secret(HOMESERVER, SECRET, f"ann{run}", password)
    bob = register_with_secret(HOMESERVER, SECRET, f"bob{run}", password)
    d = Driver()
    bob_side = OnlineService(tmp_path / "bob" / "account.yaml", tmp_path / "bob" / "online")
    try:
        d.press("Play online")
        assert isinstance(d.top, SignInScene)
        scene = d.top
        scene.entries["homeserver"].set_text(HOMESERVER)
        scene.entries["user"].set_text(f"ann{run}")
        scene.entries["password"].set_text("not" + password)
        d.press("Sign in")
        assert wait_for(lambda: d.top.message_error, d)
        assert d.top.message == "Wrong user name or password."
        d.top.entries["password"].set_text(password)
        d.press("Sign in")
        assert wait_for(lambda: isinstance(d.top, OnlineGamesScene), d), d.top.message
        assert password not in online.credentials_path().read_text()
        bob_side.start()
        bob_side.command("sign_in", HOMESERVER, bob, password)
        assert wait_for(lambda: bob_side.signed_in)

        d.app.push(HostScene(d.app, "fantasy_racing"))
        host = d.top
        while len(host.seats) > 2:
            d.press("-")
            host = d.top
        assert [s["where"] for s in host.seats] == ["here", "remote"]
        host.name_entries[1].set_text(bob)
        d.press("Start")
        assert isinstance(d.top, OnlineGamesScene)

        assert wait_for(lambda: bob_side.invitations())
        invitation = bob_side.invitations()[0]
        assert invitation.inviter == ann and "Fantasy Racing" in invitation.name
        bob_side.command("accept", invitation.room)
        assert wait_for(lambda: bob_side.table_list() and bob_side.table_list()[0].my_seats)
        bobs = bob_side.table_list()[0]
        assert wait_for(lambda: len(d.top.rows) == 1, d)
        anns = d.top.rows[0][1]
        assert anns.table == bobs.table and anns.hosted and not bobs.hosted
        assert anns.seats == bobs.seats == [s["name"] for s in host.seats[:1]] + [bob[1:]
                                                                                  .split(":")[0]]
        assert bobs.my_seats == [1] and anns.my_seats == [0]
        assert anns.waiting == bobs.waiting and len(anns.waiting) == 1
        first = anns.waiting[0]
        assert anns.my_turn == (first == anns.seats[0]) and bobs.my_turn == (not anns.my_turn)

        # Each side plays from its own seat's messages: two moves, and the lists follow.
        sides = [Player(BridgeTransport(d.app.online, ann), ann),
                 Player(BridgeTransport(bob_side, ann), ann)]
        for seat, player in enumerate(sides):
            player.sync(anns.table, seat)
        def play(moves):
            for _ in range(moves):
                match = d.app.online.referee.tables[anns.table].match
                step = len(match.actions)

                def moved():
                    for player in sides:
                        player.poll()
                        for key in player.my_turn():
                            if not player.pending and player.updates[key]["step"] == step:
                                player.act(key[0], key[1], choose("fantasy_racing",
                                                                  player.updates[key]))
                    return len(match.actions) > step
                assert wait_for(moved, d)
            assert not any(player.refusals for player in sides)
            match = d.app.online.referee.tables[anns.table].match
            waiting = [match.seats[s]["name"] for s in match.to_act()]
            assert wait_for(lambda: waiting_in(bob_side) == waiting_in(d.app.online) == waiting,
                            d)
            return match

        before = play(2).actions
        # Chat both ways through the table's room, the speakers' seats with each line.
        sides[1].say(anns.table, "Nice move!")

        def heard(player, text):
            player.poll()
            return [(m["by"], m["seats"]) for m in player.chat if m["text"] == text]
        assert wait_for(lambda: heard(sides[0], "Nice move!"), d)
        assert heard(sides[0], "Nice move!") == [(bobs.seats[1], [1])]
        sides[0].say(anns.table, "Thanks!")
        assert wait_for(lambda: heard(sides[1], "Thanks!") == [(anns.seats[0], [0])], d)
        # Ann's program stops and starts again: signed in from the kept token, her referee
        # resumes the game from its folder, and the game goes on.
        d.app.online.stop()
        d.app.online = None
        online.service(d.app)
        assert wait_for(lambda: d.app.online.referee is not None
                        and anns.table in d.app.online.referee.tables, d)
        assert d.app.online.referee.tables[anns.table].match.actions == before
        sides[0] = Player(BridgeTransport(d.app.online, ann), ann)
        sides[0].sync(anns.table, 0)
        # The chat said before the restart is still there: it is in the room.
        d.app.online.command("chat_history", anns.table)
        assert wait_for(lambda: heard(sides[0], "Thanks!") and heard(sides[0], "Nice move!"), d)
        assert len([m for m in sides[0].chat if m["text"] == "Nice move!"]) == 1
        assert len(play(2).actions) == len(before) + 2
    finally:
        bob_side.stop()
        if getattr(d.app, "online", None) is not None:
            d.app.online.stop()
