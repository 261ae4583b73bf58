"""A match's history: any step, both ways, as a replay of its first actions (issue 16)."""

from __future__ import annotations

import pytest

from game.engine import Match, Rng
from game.engine.bots import choose_action
from game.engine.history import History

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}


def _played(game_id: str, seed: int, limit: int = 400) -> Match:
    m = Match.new(game_id, [{"name": f"P{i}", "kind": "bot"} for i in range(SEATS[game_id])],
                  seed=seed)
    rng = Rng(seed)
    for step in range(limit):
        if m.is_over():
            break
        seat = m.to_act()[0]
        m.act(seat, choose_action(m, seat) if step % 3 else rng.choice(m.legal_actions(seat)))
    return m


def _expected(m: Match) -> list[dict]:
    """What each step must show, from one replay of the match's actions."""
    again = Match(m.game_id, m.seats, m.seed, m.options)
    steps = []
    for n in range(len(m.actions) + 1):
        if n:
            record = m.actions[n - 1]
            again.act(record["seat"], record["action"])
        steps.append({"snapshot": again.snapshot(), "log": list(again.log),
                      "to_act": again.to_act(),
                      "views": [again.view(v) for v in (None, 0, 1)]})
    return steps


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_every_step_equals_a_replay_of_its_first_actions_both_ways(game_id):
    m = _played(game_id, seed=4, limit=120)
    live = (m.snapshot(), list(m.actions), len(m.log))
    expected = _expected(m)
    history = History(m, every=7)
    steps = list(range(len(history) + 1))
    order = steps + steps[::-1] + [0, len(history), len(history) // 2, 3, len(history) // 2 + 1]
    for n in order:
        if n > len(history):
            continue
        shown, want = history.at(n), expected[n]
        assert shown.snapshot() == want["snapshot"], f"step {n}"
        assert shown.log == want["log"] and shown.to_act() == want["to_act"]
        assert [shown.view(v) for v in (None, 0, 1)] == want["views"]
    assert (m.snapshot(), m.actions, len(m.log)) == live, "history changed the live match"


def test_events_and_actor_of_a_step():
    m = _played("odysseus", seed=2, limit=60)
    history = History(m)
    assert history.events_of(0) == [] and history.actor(0) is None
    total = len(history.at(0).log)
    for n in range(1, len(history) + 1):
        events = history.events_of(n)
        total += len(events)
        assert history.actor(n) == m.actions[n - 1]["seat"]
    assert total == len(m.log)


def test_play_from_here_only_where_undo_could_reach_or_after_the_game():
    m = Match.new("fantasy_racing", [{"name": "A", "kind": "human"},
                                     {"name": "B", "kind": "human"}], seed=3)
    for _ in range(6):
        seat = m.to_act()[0]
        m.act(seat, choose_action(m, seat))
    history = History(m)
    assert m.barrier > 0
    assert not history.can_branch(m.barrier - 1) and history.can_branch(len(m.actions))
    with pytest.raises(ValueError, match="undo"):
        history.branch(0)
    done = _played("fantasy_racing", seed=3, limit=100_000)
    assert done.is_over()
    finished = History(done)
    branch = finished.branch(5)
    assert branch.actions == done.actions[:5] and not branch.is_over()
    assert getattr(branch, "match_id", None) is None
    seat = branch.to_act()[0]
    branch.act(seat, branch.legal_actions(seat)[0])      # a new line of play
    assert done.actions[:5] == branch.actions[:5] and len(done.actions) > 6


def test_a_step_outside_the_match_is_refused():
    history = History(_played("mothership", seed=1, limit=10))
    for bad in (-1, len(history) + 1):
        with pytest.raises(IndexError):
            history.at(bad)
