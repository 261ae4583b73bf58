"""Odysseus: whole seeded games (random and bot), invariants, save/load, privacy, balance."""

from __future__ import annotations

import yaml
import pytest

from game.engine import IllegalAction, Match, Rng
from game.engine.bots import choose_action
from game.engine.events import audience, reveals, visible_to
from game.odysseus import balance
from game.odysseus.rules import OdysseusController

from gamecheck import assert_reloads_the_same


def seats(n: int, kind: str = "bot") -> list[dict]:
    return [{"name": f"P{i + 1}", "kind": kind} for i in range(n)]


def check_invariants(match: Match) -> None:
    c: OdysseusController = match.controller
    assert c.crew >= 0
    assert 1 <= c.round <= 12
    assert c.chips_in_play() == 50
    assert c.supply >= 0 and min(c.chips) >= 0
    assert all(b["stack"] >= 1 and 1 <= b["round"] <= 12 for b in c.bets)
    assert c.cards_in_play() == 54
    assert len(c.olympus) + len(c.olympus_discard) == 6
    assert (c.crew == 0) == (c.ending == "dead")
    if c.is_over():
        assert c.to_act() == []
    else:
        assert len(c.to_act()) == 1 and match.legal_actions(c.to_act()[0])


def random_game(n: int, seed: int, save_every_step: bool = False, tmp_path=None) -> Match:
    match = Match.new("odysseus", seats(n), seed=seed)
    rng = Rng.derive(seed, 77)
    steps = 0
    while not match.is_over():
        seat = match.to_act()[0]
        legal = match.legal_actions(seat)
        match.act(seat, rng.choice(legal))
        check_invariants(match)
        steps += 1
        if save_every_step:
            assert_reloads_the_same(match, tmp_path / "step.yaml")
        assert steps < 3000
    return match


@pytest.mark.parametrize("n,seed", [(n, s) for n in (3, 4, 5) for s in range(6)])
def test_random_games_keep_the_invariants(n, seed):
    match = random_game(n, seed)
    result = match.result()
    assert result["ending"] in ("safe", "dead", "stranded")
    assert set(result["winners"]) <= set(range(n)) and result["winners"]
    assert yaml.safe_load(yaml.safe_dump(result)) == result


def test_save_and_load_match_at_every_step(tmp_path):
    random_game(4, 2024, save_every_step=True, tmp_path=tmp_path)


@pytest.mark.parametrize("n,seed", [(3, 41), (5, 42)])
def test_save_and_load_bot_game_at_every_step(tmp_path, n, seed):
    """Computer players at 3 and 5 seats: after every action the saved match loads back to
    the same state, the same views for every seat, the same log and the same undo point."""
    match = Match.new("odysseus", seats(n), seed=seed)
    path = tmp_path / "step.yaml"
    steps = 0
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
        check_invariants(match)
        loaded = assert_reloads_the_same(match, path)
        steps += 1
    assert steps > 60 and loaded.result() == match.result()


@pytest.mark.parametrize("n,seed", [(n, s) for n in (3, 4, 5) for s in range(4)])
def test_bot_games_keep_the_invariants(n, seed):
    match = Match.new("odysseus", seats(n), seed=100 + seed)
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
        check_invariants(match)
    assert match.result()["ending"] in ("safe", "dead", "stranded")


def test_views_are_plain_data_and_keep_secrets():
    match = Match.new("odysseus", seats(4), seed=5)
    rng = Rng(9)
    checked = 0
    while not match.is_over():
        c: OdysseusController = match.controller
        for viewer in [None, 0, 1, 2, 3]:
            v = match.view(viewer)
            if checked % 15 == 0:
                assert yaml.safe_load(yaml.safe_dump(v)) == v
            for s in v["seats"]:
                if s["seat"] != viewer:
                    assert s["hand"] is None and s["destiny"] is None
                else:
                    assert s["hand"] == sorted(c.hands[viewer])
                    assert s["destiny"] == (c.destiny[viewer] if c.looked[viewer] else None)
            adv = v["adventure"]
            if adv is not None:
                if viewer is None:
                    assert adv["mine"] is None and adv["my_type"] is None
                else:
                    assert adv["mine"] == c.adv["played"][viewer]
                text = repr(adv)
                for other in range(4):
                    if other != viewer:
                        for card in c.adv["played"][other]:
                            face_up = any(f["card"] == card for f in c.adv["face_up"])
                            assert face_up or card not in text
            # No other seat's hand card appears anywhere in the view (a card the viewer
            # played, or one revealed at the resolve, may since have been reshuffled and drawn).
            seen = set(adv["mine"] or []) if adv else set()
            if c.adv is not None and c.adv["resolved"]:
                seen |= {card for played in c.adv["played"] for card in played}
            dumped = repr(v)
            for other in range(4):
                if other != viewer:
                    for card in c.hands[other]:
                        assert card in seen or card not in dumped
        seat = match.to_act()[0]
        match.act(seat, rng.choice(match.legal_actions(seat)))
        checked += 1
    final = match.view(None)
    assert all(s["destiny"] is not None for s in final["seats"])  # all revealed at the end
    assert checked > 50


def test_events_with_secrets_are_addressed_to_their_seat():
    match = Match.new("odysseus", seats(3), seed=8)
    rng = Rng(1)
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, rng.choice(match.legal_actions(seat)))
    over_at = next(i for i, e in enumerate(match.log) if e["type"] == "over")
    for ev in match.log[:over_at]:
        if ev["type"] in ("drew", "played"):
            assert audience(ev) == [ev["seat"]]
        elif ev["type"] in ("play", "draw"):
            assert audience(ev) is None and "card" not in ev and "cards" not in ev
    public = match.log_for(None)
    assert not any(e["type"] in ("drew", "played") for e in public)
    assert all(visible_to(e, 0) for e in match.log_for(0))


def test_replay_is_exact_and_undo_cannot_cross_a_reveal():
    a = Match.new("odysseus", seats(3, "human"), seed=31)
    rng = Rng(4)
    for _ in range(40):
        seat = a.to_act()[0]
        a.act(seat, rng.choice(a.legal_actions(seat)))
    b = Match.new("odysseus", seats(3, "human"), seed=31)
    for record in a.actions:
        b.act(record["seat"], record["action"])
    assert a.snapshot() == b.snapshot()
    # After a draw (a private reveal) the drawing action cannot be taken back.
    while True:
        seat = a.to_act()[0]
        legal = a.legal_actions(seat)
        events = a.act(seat, rng.choice(legal))
        if any(reveals(e) for e in events):
            break
    with pytest.raises(IllegalAction):
        a.undo()


def test_bot_beats_random_players():
    """Seat 0 is the bot, the others choose at random: the bot wins far more than 1/3."""
    wins = 0
    games = 45
    for seed in range(games):
        game = OdysseusController([{"name": f"P{i}", "kind": "bot"} for i in range(3)], {},
                                  Rng(seed))
        rng = Rng.derive(seed, 5)
        while not game.is_over():
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            if seat == 0:
                action = OdysseusController.policy(game.view(0), legal, rng)
            else:
                action = rng.choice(legal)
            game.apply(seat, action)
        wins += 0 in game.final["winners"]
    assert wins / games > 0.5


def test_balance_report_shape():
    report = balance.report(20)
    assert set(report["seats"]) == {3, 4, 5}
    for row in report["seats"].values():
        assert abs(sum(row["endings"].values()) - 1) < 1e-6
    text = balance.format(report)
    assert "Safe Return" in text and "Stranded" in text
