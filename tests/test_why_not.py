"""'Why not?': the controller's own reason for an action that may not be taken now, asked
without changing the game (issue 16, part 3)."""

from __future__ import annotations

import copy

import pytest

from game.engine import IllegalAction, Match, Rng

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_why_not_gives_the_refusals_own_words_and_changes_nothing(game_id):
    n = SEATS[game_id]
    m = Match.new(game_id, [{"name": f"P{i}", "kind": "human"} for i in range(n)], seed=8)
    rng = Rng(8)
    asked = refused = 0
    for _step in range(120):
        if m.is_over():
            break
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        other = (seat + 1) % n
        before = (m.snapshot(), list(m.actions), len(m.log), m.barrier)
        assert m.why_not(seat, rng.choice(legal)) is None
        tries = [{"type": "no such action"}, {**rng.choice(legal), "extra": "?"}]
        if other not in m.to_act():
            tries.append(rng.choice(legal) | {})
        for index, action in enumerate(tries):
            who = other if index == 2 else seat
            reason = m.why_not(who, action)
            asked += 1
            if reason is None:
                continue
            refused += 1
            assert reason.strip(), reason
            trial = copy.deepcopy(m)
            with pytest.raises(IllegalAction) as refusal:
                trial.act(who, action)
            assert str(refusal.value) == reason
        assert (m.snapshot(), m.actions, len(m.log), m.barrier) == before
        m.act(seat, rng.choice(legal))
    assert refused >= asked // 2
    assert m.why_not(None, {"type": "x"}) == "Nobody is at the screen yet."
