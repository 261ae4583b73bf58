"""The online table over a real Matrix homeserver (issue 30): ``pytest -m online``.

Needs a homeserver (a local Synapse: ``python -m game.tools.synapse_local``) named by
TABLETOP_TEST_HOMESERVER, its registration shared secret in TABLETOP_TEST_SHARED_SECRET, and
matrix-nio (the ``online`` extra).  A whole Odysseus game is played by two accounts through a
referee account, every message each received is checked against a local replay, and the
referee is killed and resumed from its folder halfway through another game."""

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


def _check(result):
    referee = result["referee"]
    table = result["tables"][0]
    final = referee.tables[table].match
    assert result["over"] and final.is_over()
    replay = Match.new(final.game_id, final.seats, seed=final.seed, options=final.options)
    views = {0: [replay.view(0)], 2: [replay.view(2)]}
    for record in final.actions:
        replay.act(record["seat"], record["action"])
        for seat in views:
            views[seat].append(replay.view(seat))
    assert replay.snapshot() == final.snapshot()
    accounts = referee.tables[table].accounts
    updates = 0
    for account, messages in result["received"].items():
        seat = accounts.index(account)
        for message in messages:
            assert str(SEED) not in json.dumps(message)
            message = protocol.from_wire(message)
            if message["kind"] == "update":
                assert message["seat"] == seat
                assert message["view"] == views[seat][message["step"]]
                updates += 1
    assert updates >= len(final.actions) // 3
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
