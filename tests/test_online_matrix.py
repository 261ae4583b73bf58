"""The online table over a real Matrix homeserver (issue 30): ``pytest -m online``.

Needs a homeserver (a local Synapse: ``python -m game.tools.synapse_local``) named by
TABLETOP_TEST_HOMESERVER, its registration shared secret in TABLETOP_TEST_SHARED_SECRET, and
matrix-nio (the ``online`` extra).  A whole Odysseus game is played by two accounts through a
referee account, every message each received is checked against a local replay, and the
referee is killed and resumed from its folder halfway through another game; then a short
whole game of each other game that keeps something from some seat, checked the same way."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from game.engine import Match
from game.online import protocol

pytestmark = pytest.mark.online

HOMESERVER = os.environ.get("TABLETOP_TEST_HOMESERVER")
SECRET = os.environ.get("TABLETOP_TEST_SHARED_SECRET")
SEED = 0x5EC2E7ABCD17


def _need():
    if not HOMESERVER or not SECRET:
        pytest.skip("no homeserver: set TABLETOP_TEST_HOMESERVER and "
                    "TABLETOP_TEST_SHARED_SECRET (python -m game.tools.synapse_local env DIR)")
    pytest.importorskip("nio", reason="matrix-nio is not installed (the 'online' extra)")


def _play(tmp_path, **kwargs):
    from game.online.loadtest import play_over_matrix
    return asyncio.run(play_over_matrix(HOMESERVER, SECRET, tmp_path / "saves", seed=SEED,
                                        max_seconds=300, **kwargs))


def unpacked(messages):
    """The messages as the player's program takes them: batches opened, parts joined."""
    joiner, out = protocol.Joiner(), []
    for message in messages:
        if message["kind"] == "batch":
            out += message["messages"]
        elif message["kind"] == "part":
            whole = joiner.take(message)
            out += [whole] if whole else []
        else:
            out.append(message)
    return out


def _check(result, same_as_undisturbed=True):
    """Every message each account received holds only its own seat's view, choices and log
    lines at that step (a local replay of the final actions), the table's only public lines,
    and never the seed."""
    referee = result["referee"]
    table = result["tables"][0]
    final = referee.tables[table].match
    assert result["over"] and final.is_over()
    accounts = referee.tables[table].accounts
    people = [seat for seat, account in enumerate(accounts) if account]
    replay = Match.new(final.game_id, final.seats, seed=final.seed, options=final.options)
    states = [{seat: (replay.view(seat), replay.legal_actions(seat)) for seat in people}]
    for record in final.actions:
        replay.act(record["seat"], record["action"])
        states.append({seat: (replay.view(seat), replay.legal_actions(seat))
                       for seat in people})
    assert replay.snapshot() == final.snapshot()
    own = {seat: [{k: v for k, v in ev.items() if k != "@audience"}
                  for ev in replay.log_for(seat)] for seat in people}
    public = replay.log_for(None)
    updates = 0
    for account, messages in result["received"].items():
        seat = accounts.index(account)
        for message in unpacked(messages):
            text = json.dumps(message)
            assert str(final.seed) not in text and '"seed"' not in text
            message = protocol.from_wire(message)
            start, log = message.get("log_from", 0), message.get("log", [])
            if message["kind"] == "update":
                assert message["seat"] == seat
                assert (message["view"], message["legal"]) == states[message["step"]][seat]
                assert log == own[seat][start:start + len(log)]
                updates += 1
            elif message["kind"] == "table":
                assert log == public[start:start + len(log)]
                assert "view" not in message and "legal" not in message
    assert updates >= len(final.actions) // 3
    if same_as_undisturbed:
        assert final.actions == undisturbed(final)


def undisturbed(final):
    """The actions of the same game played locally by the same deterministic choices."""
    from game.engine.bots import choose_action
    from game.online.loadtest import choose
    match = Match.new(final.game_id, final.seats, seed=final.seed, options=final.options)
    for _ in range(10_000):
        if match.is_over():
            break
        seat = match.to_act()[0]
        if match.seats[seat]["kind"] == "bot":
            action = choose_action(match, seat)
        else:
            action = choose(match.game_id, {"view": match.view(seat), "step": len(match.actions),
                                            "legal": match.legal_actions(seat), "seat": seat})
        match.act(seat, action)
    return match.actions


def test_a_whole_game_over_matrix_sends_each_seat_only_its_own_view(tmp_path):
    _need()
    result = _play(tmp_path)
    _check(result)
    assert result["trips"], "no action made the round trip"


#: The other games that keep something from some seat (Odysseus is played above), with seats
#: (P: a remote person, B: a computer) and options that keep a game short.
HIDDEN = {
    "mothership": ("PP", None),
    "fantasy_expedition": ("PBPBBBBBB", {"trade_rounds": 1}),
    "fantasy_racing": ("PP", {"turns": 5}),
    "monster_fandango": ("PP", {"round_limit": 3}),
}


@pytest.mark.parametrize("game", sorted(HIDDEN))
def test_no_secret_crosses_over_matrix_in_a_whole_game(tmp_path, game):
    _need()
    kinds, options = HIDDEN[game]
    seats = [{"name": f"P{i + 1}", "kind": "human" if k == "P" else "bot"}
             for i, k in enumerate(kinds)]
    result = _play(tmp_path, game=game, seats=seats, options=options)
    _check(result, same_as_undisturbed=False)


def test_the_referee_killed_mid_game_resumes_from_its_folder_over_matrix(tmp_path):
    _need()
    result = _play(tmp_path, restart_at=30)
    assert result["restarts"] == 1
    _check(result)
    # Applied once: the autosave holds the same actions as the referee, each id once.
    table = result["tables"][0]
    final = result["referee"].tables[table].match
    saved = Match.load(tmp_path / "saves" / f"autosave-odysseus-{table}.yaml")
    assert saved.actions == final.actions


def test_a_player_leaving_the_table_room_and_coming_back_is_said_on_the_table(tmp_path):
    """Bo leaves the table's room in their Matrix app: the referee says so on the table (the
    game waits), invites them back, and says so again when they rejoin."""
    _need()
    asyncio.run(_leave_and_come_back(tmp_path))


async def _leave_and_come_back(tmp_path):
    import secrets

    from game.online.client import Player
    from game.online.matrix import ROOMS_FILE, MatrixTransport
    from game.online.referee import Referee
    from game.online.transport import send_all, serve
    from game.tools.synapse_local import register_with_secret
    run, password = secrets.token_hex(3), secrets.token_hex(12)
    ids = [register_with_secret(HOMESERVER, SECRET, f"{who}{run}", password)
           for who in ("ref", "ada", "bo")]
    ref_end = MatrixTransport(HOMESERVER, ids[0], password, state=tmp_path / ROOMS_FILE)
    ends = [MatrixTransport(HOMESERVER, who, password, referee=ids[0]) for who in ids[1:]]
    for end in [ref_end, *ends]:
        await end.login()
    referee = Referee(tmp_path / "saves")
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Bo", "kind": "human"},
             {"name": "Cy", "kind": "bot"}]
    table, out = referee.open_table("odysseus", seats, [ids[1], ids[2], None], seed=SEED)
    await ref_end.open_table(table, [ids[1], ids[2], None], "Odysseus")
    send_all(ref_end, out)
    ada = Player(ends[0], ids[0])

    async def until(done, what):
        for _ in range(40):
            await ref_end.pump(timeout_ms=200)
            serve(referee, ref_end, 0.0)
            for end in ends:
                await end.pump(timeout_ms=200)
            ada.poll()
            if done():
                return
        raise AssertionError(f"never happened: {what}")

    try:
        await until(lambda: ada.tables.get(table) and ends[1].room_of(table, TABLE_ROOM),
                    "both players in their rooms")
        await ends[1].client.room_leave(ends[1].room_of(table, TABLE_ROOM))
        await until(lambda: any("left the table" in n["text"] for n in ada.notices),
                    "the table told that Bo left")
        assert ada.notices[-1]["text"].startswith("Bo left the table;")
        steps = len(referee.tables[table].match.actions)
        await until(lambda: any("came back" in n["text"] for n in ada.notices),
                    "the table told that Bo came back (invited again, joined)")
        assert ada.notices[-1]["text"] == "Bo came back to the table."
        assert len(referee.tables[table].match.actions) == steps
    finally:
        for end in [ref_end, *ends]:
            await end.close()


TABLE_ROOM = "#table"
