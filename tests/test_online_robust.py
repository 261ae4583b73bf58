"""The online table holds under stress (issue 30), over the in-memory transport:

- an update larger than a Matrix event is split in parts and joined by the player's program,
  in order whatever order the parts come in; what goes to one room at once is batched;
- a player leaving the table's rooms (Matrix membership "leave") and coming back is said on the
  table, and the game waits;
- whatever arrives (hypothesis-made messages from any account) the referee answers with a
  message, never an internal fault, and nobody plays a seat not bound to them.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.online import protocol
from game.online.client import Player
from game.online.protocol import (MAX_OUTGOING_BYTES, Joiner, encoded_size, new_action_id,
                                  pack, split, stamp)
from game.online.referee import TABLE, Referee
from game.online.transport import MemoryHub, send_all, serve

REF = "@referee:test"
NAMES = ["Ada", "Bo", "Cy"]


def big_update(size: int = 200_000) -> dict:
    """A synthetic update far over one event (a late-game view with a long history), with
    text that JSON must escape (quotes, backslashes, accents, an emoji)."""
    chance = random.Random(size)
    rows = [{"tile": i, "note": f'"{chance.random():.6f}" \\ é 🐉', "seen": [i, i + 1]}
            for i in range(size // 60)]
    return stamp("update", "t0able", "9.9", rules=1, seat=0, game="odysseus",
                 view=protocol.to_wire({"rows": rows, (1, 2): "tuple key"}), legal=[],
                 log=[], log_from=0, to_act=[0], status="late", step=999, over=False,
                 result=None)


def test_a_large_update_is_split_in_parts_that_fit_and_joined_exactly():
    message = big_update()
    assert encoded_size(message) > 3 * MAX_OUTGOING_BYTES
    parts = split(message)
    assert len(parts) >= 4
    assert all(encoded_size(p) <= MAX_OUTGOING_BYTES for p in parts)
    assert [p["index"] for p in parts] == list(range(len(parts)))
    assert {p["count"] for p in parts} == {len(parts)} and len({p["of"] for p in parts}) == 1
    # Joined in order, whatever the order of arrival, a repeated part changing nothing.
    for order in (parts, parts[::-1], [parts[1]] + parts + [parts[0]]):
        joiner, whole = Joiner(), []
        for part in json.loads(json.dumps(order)):
            got = joiner.take(part)
            if got is not None:
                whole.append(got)
        assert whole == [json.loads(json.dumps(message))]
    # A message that fits is left alone; the same message split again makes the same parts.
    small = stamp("ack", "t0able", "9.9", id=new_action_id(), seat=0, step=1)
    assert split(small) == [small] and split(message) == parts


def test_a_player_joins_the_parts_of_a_large_update_sent_through_the_network():
    hub = MemoryHub()
    referee_end, player = hub.endpoint(REF), Player(hub.endpoint("@ada:test"), REF)
    message = big_update(150_000)
    referee_end.send("@ada:test", message)
    sent = [json.loads(text) for _, text in hub.queues["@ada:test"]]
    assert len(sent) > 1 and all(m["kind"] == "part" for m in sent)
    assert all(len(text.encode()) <= MAX_OUTGOING_BYTES for _, text in hub.queues["@ada:test"])
    player.poll()
    assert player.updates[("t0able", 0)] == protocol.from_wire(json.loads(json.dumps(message)))
    assert (1, 2) in player.updates[("t0able", 0)]["view"]


def test_what_goes_to_one_room_at_once_is_packed_in_order_into_events_that_fit():
    acks = [stamp("ack", "t0able", "9.9", id=new_action_id(), seat=0, step=i)
            for i in range(300)]
    big = big_update(90_000)
    messages = acks[:2] + [big] + acks[2:]
    origins: list[int] = []
    events = pack(messages, None, origins)
    assert all(encoded_size(e) <= MAX_OUTGOING_BYTES for e in events)
    assert events[0]["kind"] == "batch" and events[0]["messages"] == acks[:2]
    assert len(events) == len(origins) and origins[0] == 0 and origins[1] == 2
    # A player unpacks them back into the same messages, in the same order.
    hub = MemoryHub()
    player = Player(hub.endpoint("@ada:test"), REF)
    for event in events:
        hub.queues["@ada:test"].append((REF, json.dumps(event)))
    player.poll()
    assert [a["step"] for a in player.acks] == list(range(300))
    assert player.updates[("t0able", 0)]["step"] == 999
    assert pack([acks[0]]) == [acks[0]]


def test_a_large_event_travels_compressed_and_opens_exactly_and_a_bad_one_opens_to_nothing():
    import base64
    import zlib
    for event in pack([big_update(40_000)]) + pack([big_update(200_000)]):
        squeezed = json.loads(json.dumps(protocol.squeeze(event)))
        assert squeezed["kind"] == "zip" and encoded_size(squeezed) < encoded_size(event) / 2
        assert protocol.unsqueeze(squeezed) == json.loads(json.dumps(event))
    small = stamp("ack", "t0able", "9.9", id=new_action_id(), seat=0, step=1)
    assert protocol.squeeze(small) is small and protocol.unsqueeze(small) is small

    def zipped(raw: bytes) -> dict:
        return stamp("zip", "t0able", "9.9", data=base64.b64encode(zlib.compress(raw)).decode())
    bomb = zipped(b'{"kind":"update","pad":"' + b"a" * (protocol.MAX_SQUEEZED + 10) + b'"}')
    assert len(bomb["data"]) < 2 * MAX_OUTGOING_BYTES  # small to send, too large to open
    for bad in (bomb, zipped(b"[1, 2]"), zipped(b"not json"),
                zipped(json.dumps(protocol.squeeze(big_update(40_000))).encode()),
                stamp("zip", "t0able", "9.9", data="not base64!"),
                stamp("zip", "t0able", "9.9", data=123)):
        assert protocol.unsqueeze(bad) is None


def _table(tmp_path=None):
    referee = Referee(tmp_path)
    seats = [{"name": NAMES[0], "kind": "human"}, {"name": NAMES[1], "kind": "human"},
             {"name": NAMES[2], "kind": "bot"}]
    accounts = ["@ada:test", "@bo:test", None]
    table, out = referee.open_table("odysseus", seats, accounts, seed=0x5EC2E7ABCD17,
                                        table_id="t0able")
    return referee, table, accounts, out


def test_a_player_leaving_is_said_on_the_table_and_coming_back_too(tmp_path):
    referee, table, accounts, out = _table(tmp_path)
    hub = MemoryHub()
    hub.join(table, accounts)
    ref_end = hub.endpoint(REF)
    send_all(ref_end, out)
    players = {a: Player(hub.endpoint(a), REF) for a in accounts if a}
    match = referee.tables[table].match
    to_act = match.to_act()[0]
    gone = accounts[to_act]
    steps = len(match.actions)
    hub.leave(table, gone, REF)
    serve(referee, ref_end, 1.0)
    other = next(a for a in players if a != gone)
    players[other].poll()
    said = [n["text"] for n in players[other].notices]
    assert said == [f"{NAMES[to_act]} left the table; the game waits for them."]
    # Told once: the same leave again says nothing; the match waited.
    hub.leave(table, gone, REF)
    serve(referee, ref_end, 2.0)
    players[other].poll()
    assert len(players[other].notices) == 1 and len(match.actions) == steps
    hub.leave(table, gone, REF, here=True)
    serve(referee, ref_end, 3.0)
    for player in players.values():
        player.poll()
    assert players[gone].notices[-1]["text"] == f"{NAMES[to_act]} came back to the table."
    assert players[other].notices[-1]["away"] is False
    # Someone without a seat leaving or joining is not the table's business.
    assert referee.presence(table, "@stranger:test", False) == []
    assert referee.presence("nosuchtable", gone, False) == []


def test_a_player_leaving_when_it_is_not_their_turn_is_told_the_game_goes_on(tmp_path):
    referee, table, accounts, _ = _table(tmp_path)
    match = referee.tables[table].match
    idle = next(s for s, a in enumerate(accounts) if a and s not in match.to_act())
    out = referee.presence(table, accounts[idle], False)
    assert out[0][0] == TABLE and "goes on" in out[0][1]["text"]
    assert NAMES[idle] in out[0][1]["text"]


# ---------------------------------------------------------------------- hypothesis fuzz
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats()
                    | st.text(max_size=40),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)
FIELDS = ["kind", "proto", "program", "table", "rules", "seat", "id", "action", "text", "zz"]
SENDERS = ["@ada:test", "@bo:test", "@stranger:test", REF, TABLE, ""]
#: A referee and its table, made once (hypothesis runs many examples on it): every example
#: may change it only by an action the controller accepts from the seat's own account.
_FUZZ: dict = {}


def _fuzz_table():
    if not _FUZZ:
        referee, table, accounts, _ = _table()
        match = referee.tables[table].match
        # Drawn from a fixed list (what the seats may do at the start), not from the state
        # the examples change: hypothesis needs the same draws to make the same message.
        legal = [a for s in range(3) for a in match.legal_actions(s)] + [{"type": "pass"}]
        _FUZZ.update(referee=referee, table=table, accounts=accounts, now=0.0, legal=legal)
    return _FUZZ


@st.composite
def messages(draw):
    """A message from a player's program: well formed, damaged field by field, or anything."""
    fuzz = _fuzz_table()
    seat = draw(st.integers(0, 2))
    legal = fuzz["legal"]
    base = draw(st.sampled_from([
        stamp("action", fuzz["table"], seat=seat, id=new_action_id(),
              action=draw(st.sampled_from(legal))),
        stamp("sync", fuzz["table"], seat=seat),
        stamp("chat", fuzz["table"], text=draw(st.text(max_size=600))),
    ]))
    how = draw(st.integers(0, 3))
    if how == 0:
        return base
    if how == 3:
        return draw(JSON)
    message = dict(base)
    for field in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3)):
        if draw(st.booleans()):
            message.pop(field, None)
        else:
            message[field] = draw(JSON)
    return message


@settings(max_examples=400)
@given(sender=st.sampled_from(SENDERS), message=messages())
def test_the_referee_answers_anything_with_a_message_and_nobody_plays_for_another(sender,
                                                                                  message):
    fuzz = _fuzz_table()
    referee, table = fuzz["referee"], fuzz["referee"].tables[fuzz["table"]]
    fuzz["now"] += 0.5  # slow enough for the flood limit: every message is looked at
    before = list(table.match.actions)
    out = referee.handle(sender, message, fuzz["now"])
    assert out, "every message a player sends gets an answer"
    for recipient, answer in out:
        assert answer["kind"] in protocol.OUTGOING
        assert recipient in (sender, TABLE) or recipient in fuzz["accounts"]
        reason = answer.get("reason", "")
        assert "internal fault" not in reason, (message, reason)
        if answer["kind"] == "refused":
            assert reason
        assert str(table.match.seed) not in json.dumps(answer)
    new = table.match.actions[len(before):]
    assert table.match.actions[:len(before)] == before
    if new:  # only the owner of the seat, with an action its controller accepted
        assert isinstance(message, dict) and message.get("kind") == "action"
        assert fuzz["accounts"][new[0]["seat"]] == sender == out[0][0]
        assert out[0][1]["kind"] == "ack" and out[0][1]["id"] == message["id"]
        assert new[0]["action"] == message["action"]
        assert all(r["seat"] == 2 for r in new[1:])  # then only the computer seat


def _floats(value) -> list:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in _floats(v)]
    if isinstance(value, list):
        return [f for v in value for f in _floats(v)]
    return []


def test_no_update_holds_a_float_which_a_matrix_homeserver_refuses_and_floats_come_back():
    """Matrix events are canonical JSON (no floats): Fantasy Expedition's views hold some, and
    Synapse refused every such update (M_BAD_JSON) until floats crossed as strings."""
    from game.engine import Match
    from game.engine.bots import choose_action
    setups = {"odysseus": (3, None), "mothership": (2, None),
              "fantasy_expedition": (9, {"trade_rounds": 1}),
              "fantasy_racing": (2, {"turns": 5}), "monster_fandango": (2, {"round_limit": 3})}
    seen = 0
    for game, (count, options) in setups.items():
        match = Match.new(game, [{"name": f"P{i}", "kind": "bot"} for i in range(count)],
                          seed=7, options=options)
        while True:
            for seat in range(count):
                update = protocol.seat_update(match, seat, "t0able", 0, "9.9")
                crossed = json.loads(json.dumps(update))
                assert not _floats(crossed), game
                seen += len(_floats(match.view(seat)))
                assert protocol.from_wire(crossed)["view"] == match.view(seat)
            if match.is_over():
                break
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
    assert seen, "no view held a float: the check above proved nothing"
    value = {"p": 0.25, (1, (2, 3)): [1.5, float("inf")], "@float": "x"}
    assert protocol.from_wire(json.loads(json.dumps(protocol.to_wire(value)))) == value


def test_an_unreachable_homeserver_is_said_plainly_and_quickly():
    import asyncio

    import pytest
    pytest.importorskip("nio", reason="matrix-nio is not installed (the 'online' extra)")
    from game.online.matrix import MatrixTransport, NetworkError

    async def attempt():
        end = MatrixTransport("http://127.0.0.1:9", "@ada:localhost", "secret")
        try:
            with pytest.raises(NetworkError) as caught:
                await end.login()
            end.client.access_token = "as if signed in before the network went"
            end.client.user_id = end.account
            with pytest.raises(NetworkError) as offline:
                await end.pump(timeout_ms=100)
            assert "cannot be reached (sync" in str(offline.value)
        finally:
            await end.close()
        return str(caught.value)

    said = asyncio.run(attempt())
    assert said.startswith("The homeserver at http://127.0.0.1:9 cannot be reached")
    assert "the game waits" in said
