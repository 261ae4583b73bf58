"""Events keep who may see them apart from game data, for every game (issue 10, part 3)."""

from __future__ import annotations

import pytest

from game.engine import IllegalAction, Match, Rng, game_ids
from game.engine.bots import choose_action
from game.engine.controller import Controller
from game.engine.events import (AUDIENCE, MalformedEvent, audience, check_event, event,
                                reveals, visible_to)

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 3,
         "mothership": 3, "odysseus": 4}


def test_game_data_named_like_an_audience_is_only_data():
    ev = event("move", "The Orc moves.", to=[5, 4], reveal_at=3)
    assert audience(ev) is None and not reveals(ev)
    assert visible_to(ev, None) and visible_to(ev, 0) and visible_to(ev, 7)
    private = event("drew", "You drew.", audience=[2], reveal=True, to=16)
    assert audience(private) == [2] and reveals(private) and private["to"] == 16
    assert not visible_to(private, None) and not visible_to(private, 1)
    assert visible_to(private, 2)


@pytest.mark.parametrize("bad", [3, "0", [], [True], [-1], [1, 1], [0.5], {0: 1}])
def test_a_malformed_audience_is_refused_when_the_event_is_made(bad):
    with pytest.raises(MalformedEvent):
        event("x", "text", audience=bad)


def test_check_event_refuses_what_the_engine_cannot_read():
    check_event(event("x", "t", audience=[1]), seats=2)
    for bad in ({"text": "no type"}, {"type": "x", AUDIENCE: [2]}, {"type": "x", AUDIENCE: 1},
                {"type": "x", "@reveal": "yes"}, {"type": "x", "@seen": [0]}, "not a record"):
        with pytest.raises(MalformedEvent):
            check_event(bad, seats=2)


def test_a_controller_that_makes_a_malformed_event_is_refused_and_the_match_unharmed(monkeypatch):
    m = Match.new("odysseus", [{"name": n, "kind": "human"} for n in "ABC"], seed=3)
    cls = type(m.controller)
    original = cls.apply

    def leaky(self, seat, action):
        original(self, seat, action)
        return [{"type": "oops", "text": "secret", AUDIENCE: [9]}]

    seat = m.to_act()[0]
    action = m.legal_actions(seat)[0]
    before = m.snapshot()
    monkeypatch.setattr(cls, "apply", leaky)
    with pytest.raises(IllegalAction, match="could not be carried out"):
        m.act(seat, action)
    monkeypatch.setattr(cls, "apply", original)
    assert m.snapshot() == before and m.actions == []


def test_monster_fandango_give_to_a_unit_numbered_like_no_seat_keeps_the_log():
    """The issue's repro: two computer seats play until a gift to a unit numbered like no seat
    is possible (the first was to unit 16 after 96 actions of seed 1, before the map and the
    bot changed). The gift's ``to`` was read as an audience: ``log_for`` raised TypeError."""
    m = Match.new("monster_fandango", [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "bot"}],
                  seed=1)
    for _ in range(3000):
        seat = m.to_act()[0]
        gifts = [a for a in m.legal_actions(seat) if a["type"] == "give" and a["to"] >= 2]
        if gifts:
            break
        m.act(seat, choose_action(m, seat))
    events = m.act(seat, gifts[0])
    assert events[0]["to"] == gifts[0]["to"] >= 2 and audience(events[0]) is None
    assert m.log_for(0) == m.log_for(1) == m.log_for(None) == m.log


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_every_event_of_long_random_games_is_well_formed(game_id):
    """Random and computer play, three seeds a game: every event is readable, its audience
    names real seats, and a seat's log is exactly the events meant for it."""
    assert set(SEATS) == set(game_ids())
    n = SEATS[game_id]
    for seed in (1, 2, 3):
        m = Match.new(game_id, [{"name": f"P{i}", "kind": "bot"} for i in range(n)], seed=seed)
        rng = Rng(seed + 100)
        for step in range(3000):
            if m.is_over():
                break
            seat = m.to_act()[0]
            action = (choose_action(m, seat) if step % 2 else rng.choice(m.legal_actions(seat)))
            m.act(seat, action)
        for ev in m.log:
            check_event(ev, n)
            assert not any(isinstance(k, str) and k.startswith("@") and k not in
                           ("@audience", "@reveal") for k in ev)
        for viewer in [None, *range(n)]:
            mine = m.log_for(viewer)
            assert mine == [ev for ev in m.log if audience(ev) is None
                            or (viewer is not None and viewer in audience(ev))]
        public = len(m.log_for(None))
        assert all(len(m.log_for(s)) >= public for s in range(n))


def test_controllers_never_build_an_audience_by_hand():
    """The audience is only ever given through ``event(audience=...)``: no rules module writes
    the engine's keys itself."""
    import inspect
    from game.engine.registry import controller_class
    for game_id in game_ids():
        source = inspect.getsource(inspect.getmodule(controller_class(game_id)))
        assert "@audience" not in source and "@reveal" not in source, game_id
        assert issubclass(controller_class(game_id), Controller)
