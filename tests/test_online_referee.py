"""The online referee (issue 30) over the in-memory transport: no secret crosses, nothing is
lost or applied twice, nobody plays for another, and the referee survives anything sent.

Every game is played to its end by remote players whose programs see only what the referee
sends them (they choose from their own ``view`` and ``legal`` with the game's policy), plus a
computer seat played by the referee itself.  Every message each account received is checked
against a local replay of the final actions: an update for seat s at step k holds exactly
``view(s)``, ``legal_actions(s)`` and the next of ``log_for(s)`` at step k, and no message holds
the seed."""

from __future__ import annotations

import json
import random

import pytest

from game.engine import Match
from game.engine.registry import controller_class
from game.engine.rng import Rng
from game.online import protocol
from game.online.client import Player
from game.online.protocol import new_action_id, stamp
from game.online.referee import TABLE, Referee
from game.online.transport import MemoryHub, send_all, serve

REF = "@referee:test"
SEED = 0x5EC2E7ABCD17
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
#: The hidden-information games, with a seat count and options that keep a game short.
HIDDEN = {"odysseus": (3, None), "fantasy_expedition": (9, {"trade_rounds": 1})}


def accounts_for(count: int, bots: set[int]) -> list[str | None]:
    return [None if s in bots else f"@p{s}:test" for s in range(count)]


def seats_for(count: int, bots: set[int]) -> list[dict]:
    return [{"name": NAMES[s], "kind": "bot" if s in bots else "human"} for s in range(count)]


class Game:
    """A referee, a hub and one Player per person's seat."""

    def __init__(self, tmp_path, game="odysseus", count=3, options=None, bots=frozenset({1})):
        self.game, self.count, self.options, self.bots = game, count, options, set(bots)
        self.saves = tmp_path / "saves"
        self.hub = MemoryHub()
        self.ref_end = self.hub.endpoint(REF)
        self.referee = Referee(self.saves)
        self.accounts = accounts_for(count, self.bots)
        self.table, out = self.referee.open_table(game, seats_for(count, self.bots),
                                                  self.accounts, seed=SEED, options=options,
                                                  table_id="t0able")
        self.hub.join(self.table, self.accounts)
        send_all(self.ref_end, out)
        self.players = {a: Player(self.hub.endpoint(a), REF) for a in self.accounts if a}
        self.acted_on: dict = {}
        self.now = 0.0
        self.cls = controller_class(game)

    def choose(self, update: dict):
        """A player's choice from only what it was sent (deterministic per step and seat)."""
        rng = Rng.derive(7, update["step"], update["seat"])
        choice = self.cls.policy(update["view"], update["legal"], rng)
        return choice if choice is not None else rng.choice(update["legal"])

    def round(self) -> None:
        self.now += 1.0
        for player in self.players.values():
            player.poll()
            for key in player.my_turn():
                update = player.updates[key]
                if self.acted_on.get(key) is update or any(
                        p["seat"] == key[1] for p in player.pending.values()):
                    continue
                self.acted_on[key] = update
                player.act(key[0], key[1], self.choose(update))
        serve(self.referee, self.ref_end, self.now)

    def over(self) -> bool:
        return self.referee.tables[self.table].match.is_over()

    def play(self, rounds: int = 3000, each_round=None) -> Match:
        for number in range(rounds):
            if self.over():
                break
            self.round()
            if each_round:
                each_round(number)
        assert self.over(), "the game did not end"
        for player in self.players.values():  # the last updates
            player.poll()
        return self.referee.tables[self.table].match


def local_replay(game, count, options, bots, actions) -> list[Match]:
    """The match after each number of actions (index = step), replayed locally."""
    match = Match.new(game, seats_for(count, bots), seed=SEED, options=options)
    states = []
    import copy
    states.append(copy.deepcopy(match))
    for record in actions:
        match.act(record["seat"], record["action"])
        states.append(copy.deepcopy(match))
    return states


@pytest.mark.parametrize("game", sorted(HIDDEN))
def test_a_whole_game_sends_each_seat_only_its_own_view(tmp_path, game):
    count, options = HIDDEN[game]
    g = Game(tmp_path, game, count, options)
    final = g.play()
    states = local_replay(game, count, options, g.bots, final.actions)
    assert states[-1].snapshot() == final.snapshot()
    checked = 0
    for account, messages in g.hub.received.items():
        if account == REF:
            continue
        seat = g.accounts.index(account)
        for message in messages:
            text = json.dumps(message)
            message = protocol.from_wire(message)
            assert str(SEED) not in text and "seed" not in text.lower()
            assert message["proto"] == protocol.PROTOCOL and message["program"]
            at = states[message.get("step", 0)] if "step" in message else None
            if message["kind"] == "update":
                assert message["seat"] == seat
                assert message["view"] == at.view(seat)
                assert message["legal"] == at.legal_actions(seat)
                mine = [{k: v for k, v in ev.items() if k != "@audience"}
                        for ev in at.log_for(seat)]
                start = message["log_from"]
                assert message["log"] == mine[start:start + len(message["log"])]
                # The lines only this seat reads are marked (a shared screen shows them to it).
                own = [i for i, ev in enumerate(at.log_for(seat)[start:]) if "@audience" in ev]
                assert message["mine"] == own[:len([i for i in own
                                                    if i < len(message["log"])])]
                assert message["acted"] == sum(1 for a in at.actions if a["seat"] == seat)
                checked += 1
            elif message["kind"] == "table":
                public = at.log_for(None)
                start = message["log_from"]
                assert message["log"] == public[start:start + len(message["log"])]
                assert all("@audience" not in ev for ev in message["log"])
                assert "view" not in message and "legal" not in message
                # Only what a screen with nobody at it shows (the handover's public view).
                assert message["public_view"] == at.view(None)
    assert checked > len(g.players)
    # Every player's program pieced together its whole own log.
    for account, player in g.players.items():
        seat = g.accounts.index(account)
        assert player.logs[(g.table, seat)] == [
            {k: v for k, v in ev.items() if k != "@audience"} for ev in final.log_for(seat)]


def test_hidden_lines_of_another_seat_never_reach_a_player(tmp_path):
    """Odysseus deals secret lines (with an audience): a player gets its own, never another's."""
    g = Game(tmp_path)
    final = g.play()
    secret = [ev for ev in final.log if "@audience" in ev]
    assert secret, "the game dealt no secret: the check below would prove nothing"
    for account in g.players:
        seat = g.accounts.index(account)
        got = {json.dumps(ev, sort_keys=True) for m in g.hub.received[account]
               for ev in protocol.from_wire(m).get("log", [])}
        for ev in secret:
            line = json.dumps({k: v for k, v in ev.items() if k != "@audience"}, sort_keys=True)
            assert (line in got) == (seat in ev["@audience"]), (seat, ev)


def test_kills_of_referee_and_players_lose_nothing_and_apply_nothing_twice(tmp_path):
    """Drop the referee (rebuilt from its folder) and lose players' unread messages at random
    moments; every pending action is resent.  The game ends with exactly the actions of an
    undisturbed game."""
    calm = Game(tmp_path / "calm").play()
    g = Game(tmp_path / "stormy")
    chance = random.Random(30)

    def storm(number):
        if chance.random() < 0.15:  # the referee's process dies; a new one resumes
            g.hub.drop(REF) if chance.random() < 0.5 else None
            g.referee, out = Referee.resume(g.saves)
            send_all(g.ref_end, out)
        if chance.random() < 0.15:  # a player's program dies before reading
            account = chance.choice(sorted(g.players))
            g.hub.drop(account)
        for player in g.players.values():  # reconnected programs resend what is unanswered
            if chance.random() < 0.3:
                player.resend()

    final = g.play(each_round=storm)
    assert final.actions == calm.actions
    states = local_replay(g.game, g.count, g.options, g.bots, final.actions)
    assert states[-1].snapshot() == final.snapshot()
    assert Match.load(g.saves / f"autosave-odysseus-{g.table}.yaml").actions == final.actions


def test_a_resent_action_is_applied_once_even_after_a_restart(tmp_path):
    g = Game(tmp_path)
    for player in g.players.values():
        player.poll()
    account, player = next((a, p) for a, p in g.players.items() if p.my_turn())
    key = player.my_turn()[0]
    ident = player.act(key[0], key[1], g.choose(player.updates[key]))
    message = dict(player.pending[ident])
    serve(g.referee, g.ref_end, 1.0)
    steps = len(g.referee.tables[g.table].match.actions)
    first = [m for _, m in g.ref_end.hub.queues[account]]
    for now in (2.0, 3.0):
        player.transport.send(REF, message)
        serve(g.referee, g.ref_end, now)
    assert len(g.referee.tables[g.table].match.actions) == steps
    # After a crash and a restart from the folder, still applied once.
    g.referee, _ = Referee.resume(g.saves)
    player.transport.send(REF, message)
    serve(g.referee, g.ref_end, 4.0)
    assert len(g.referee.tables[g.table].match.actions) == steps
    player.poll()
    acks = [m for m in g.hub.received[account] if m["kind"] == "ack" and m["id"] == ident]
    assert first and all(a["step"] == acks[0]["step"] for a in acks) and len(acks) >= 3


def test_an_id_whose_save_was_lost_is_applied_again_when_resent(tmp_path, monkeypatch):
    """The ids are written before the save: a crash between the two loses the action and its
    id together, so the resent action is applied (once) after the restart."""
    g = Game(tmp_path)
    for player in g.players.values():
        player.poll()
    account, player = next((a, p) for a, p in g.players.items() if p.my_turn())
    key = player.my_turn()[0]
    before = len(g.referee.tables[g.table].match.actions)
    import game.online.referee as referee_module

    def crash(*args, **kwargs):
        raise SystemExit("killed between the two files")
    monkeypatch.setattr(referee_module, "save_match", crash)
    ident = player.act(key[0], key[1], g.choose(player.updates[key]))
    with pytest.raises(SystemExit):
        serve(g.referee, g.ref_end, 1.0)
    monkeypatch.undo()
    g.referee, _ = Referee.resume(g.saves)
    assert len(g.referee.tables[g.table].match.actions) == before
    assert ident not in g.referee.tables[g.table].applied
    player.resend()
    serve(g.referee, g.ref_end, 2.0)
    player.resend()
    serve(g.referee, g.ref_end, 3.0)
    match = g.referee.tables[g.table].match
    assert match.actions[before]["seat"] == key[1]
    assert list(g.referee.tables[g.table].applied).count(ident) == 1
    assert Referee.resume(g.saves)[0].tables[g.table].applied[ident][1] == before + 1


def _answers(referee, sender, message, now=1.0):
    return referee.handle(sender, message, now)


def test_nobody_plays_another_seat_and_bad_messages_are_refused(tmp_path):
    g = Game(tmp_path)
    ref, table = g.referee, g.table
    match = ref.tables[table].match
    seat = match.to_act()[0]
    owner = g.accounts[seat]
    other = next(a for a in g.accounts if a and a != owner)
    action = match.legal_actions(seat)[0]
    msg = stamp("action", table, seat=seat, id=new_action_id(), action=action)
    out = _answers(ref, other, msg)
    assert [m["kind"] for _, m in out] == ["refused"] and "not yours" in out[0][1]["reason"]
    assert _answers(ref, "@stranger:test", dict(msg, id=new_action_id()))[0][1]["reason"] \
        == "You have no seat at this table."
    bad = [
        "not a mapping", [1, 2], {"kind": "action"}, dict(msg, proto=99),
        dict(msg, extra=1), dict(msg, id="x" * 32), dict(msg, seat="0"), dict(msg, seat=True),
        dict(msg, action={"no": "type"}), dict(msg, action={"type": "pass", "x": float("nan")}),
        dict(msg, table="../../etc"), dict(msg, action={"type": "a", "deep": [[[[[[[[[[1]]]]]]]]]]}),
        stamp("chat", table, text="x" * 9000), stamp("chat", table, text="bell\x07"),
        dict(msg, kind="update"), dict(msg, seat=99), dict(msg, rules=99),
        dict(msg, table="nosuchtable"),
    ]
    for number, message in enumerate(bad):
        out = ref.handle(owner, message, 10.0 + number)
        assert len(out) == 1 and out[0][0] == owner and out[0][1]["kind"] == "refused", message
        assert out[0][1]["reason"], message
    size = ref.handle(owner, stamp("chat", table, text="x" * 9000), 50.0)[0][1]["reason"]
    assert "too large" in size
    assert "rules version 99" in ref.handle(owner, dict(msg, rules=99), 51.0)[0][1]["reason"]
    before = len(match.actions)
    out = _answers(ref, owner, msg, 60.0)
    assert out[0][1]["kind"] == "ack" and len(match.actions) > before


def test_an_illegal_action_is_refused_with_the_rules_reason_and_the_same_answer_again(tmp_path):
    g = Game(tmp_path)
    ref, match = g.referee, g.referee.tables[g.table].match
    seat = match.to_act()[0]
    msg = stamp("action", g.table, seat=seat, id=new_action_id(), action={"type": "fly"})
    first = _answers(ref, g.accounts[seat], msg)[0][1]
    again = _answers(ref, g.accounts[seat], msg, 2.0)[0][1]
    assert first["kind"] == again["kind"] == "refused" and first["reason"] == again["reason"]
    assert first["reason"] == match.why_not(seat, {"type": "fly"})


def test_a_flood_is_refused_once_then_ignored_and_the_referee_goes_on(tmp_path):
    g = Game(tmp_path)
    ref = g.referee
    seat = ref.tables[g.table].match.to_act()[0]
    account = g.accounts[seat]
    answers = [ref.handle(account, stamp("sync", g.table, seat=seat), 5.0) for _ in range(200)]
    served = sum(1 for a in answers if a and a[0][1]["kind"] == "update")
    told = [a for a in answers if a and a[0][1]["kind"] == "refused"]
    assert served == ref.capacity and len(told) == 1 and "Too many" in told[0][0][1]["reason"]
    assert sum(1 for a in answers if not a) == 200 - served - 1
    # Another account is not slowed by it, and the flooder is served again after a pause.
    other = next(a for a in g.accounts if a and a != account)
    assert ref.handle(other, stamp("sync", g.table, seat=g.accounts.index(other)), 5.0)
    assert ref.handle(account, stamp("sync", g.table, seat=seat), 6.0)[0][1]["kind"] == "update"


def test_the_referee_never_raises_on_random_messages(tmp_path):
    g = Game(tmp_path)
    chance = random.Random(5)
    match = g.referee.tables[g.table].match
    base = stamp("action", g.table, seat=0, id=new_action_id(), action={"type": "pass"})
    values = [None, 0, -1, 2**70, "", "x" * 100, [], {}, {"type": 3}, True, 1.5, [None]]
    for number in range(300):
        message = dict(base)
        for _ in range(chance.randint(1, 3)):
            key = chance.choice(sorted(base) + ["zz", "seat"])
            message[key] = chance.choice(values)
        out = g.referee.handle(chance.choice(g.players and sorted(g.players)), message,
                               float(number))
        assert all(m["kind"] in ("refused", "ack", "update", "table", "chat") for _, m in out)
    assert match is g.referee.tables[g.table].match


def test_the_table_room_names_whose_turn_it_is_and_mentions_them(tmp_path):
    g = Game(tmp_path)
    table_messages = [m for m in g.hub.queues[g.accounts[0]]]
    assert table_messages
    match = g.referee.tables[g.table].match
    public = [json.loads(t) for _, t in table_messages if json.loads(t)["kind"] == "table"][-1]
    expected = sorted({g.accounts[s] for s in match.to_act()})
    assert public["mentions"] == expected
    assert all(name in protocol.turn_text(public) for name in public["waiting"])
    assert expected[0] in protocol.turn_text(public)


def test_a_computer_only_table_plays_itself_to_the_end(tmp_path):
    ref = Referee(tmp_path / "saves")
    table, out = ref.open_table("odysseus", seats_for(3, {0, 1, 2}), [None] * 3, seed=3)
    assert ref.tables[table].match.is_over()
    assert out[-1][0] == TABLE and out[-1][1]["over"]


def test_the_referee_command_parses_seats_and_says_what_is_wrong(tmp_path, capsys):
    from game.app import main
    from game.online.cli import parse_seat
    assert parse_seat("Ada=@ada:example.org") == ({"name": "Ada", "kind": "human"},
                                                  "@ada:example.org")
    assert parse_seat("Bo=bot:hard")[0]["level"] == "hard"
    for bad in ("Ada", "Ada=ada", "Bo=bot:genius", "=@a:b"):
        with pytest.raises(ValueError):
            parse_seat(bad)
    code = main(["referee", "--homeserver", "http://127.0.0.1:9", "--user", "@r:localhost",
                 "--password-file", str(tmp_path / "missing"), "--saves", str(tmp_path / "s")])
    said = capsys.readouterr().err
    assert code == 2 and said.startswith("tabletop referee: ")
    assert "matrix-nio" in said or "password file" in said
    assert not (tmp_path / "s").exists()
