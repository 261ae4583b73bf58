"""A whole number given as a fraction (1.0) or a yes/no (True) where a legal action has a
whole number is refused with a reason, in every game: it compares equal to the legal action,
so a controller that checks by comparison alone once took it and then failed half-way
("could not be carried out") or kept the fraction in its state."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from game.engine.match import IllegalAction, Match
from game.engine.registry import GAMES


def _variants(action: dict[str, Any]) -> list[dict[str, Any]]:
    """``action`` with one whole number at a time made a fraction or (0 and 1) a yes/no."""
    paths: list[list[Any]] = []

    def walk(value: Any, path: list[Any]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + [key])
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, path + [i])
        elif type(value) is int:
            paths.append(path)

    walk(action, [])
    out = []
    for path in paths:
        for kind in (float, bool):
            copied = copy.deepcopy(action)
            holder = copied
            for key in path[:-1]:
                holder = holder[key]
            value = holder[path[-1]]
            if kind is bool and value not in (0, 1):
                continue
            holder[path[-1]] = kind(value)
            out.append(copied)
    return out


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_fractions_and_yes_no_for_whole_numbers_are_refused(game_id: str) -> None:
    seats = 9 if game_id == "fantasy_expedition" else 3
    match = Match.new(game_id, [{"name": f"P{i}", "kind": "human"} for i in range(seats)], 0)
    pick = random.Random(0)
    tried = 0
    for step in range(300):
        if match.is_over():
            break
        seat = match.to_act()[0]
        action = pick.choice(match.legal_actions(seat))
        if step % 2 == 0:
            for odd in _variants(action):
                before = (len(match.actions), match.view(seat))
                with pytest.raises(IllegalAction) as refused:
                    match.act(seat, odd)
                assert "could not be carried out" not in str(refused.value), odd
                assert (len(match.actions), match.view(seat)) == before, odd
                tried += 1
        match.act(seat, action)
    assert tried >= 10
