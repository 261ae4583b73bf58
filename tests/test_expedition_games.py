"""Whole seeded games of Fantasy Expedition with random legal actions.

Every game saves and reloads after every action, checks the rules'
invariants at the end and replays from its seed and actions.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from game.engine import Match, Rng
from game.fantasy_expedition.kernel import resolve_expedition
from game.fantasy_expedition.rules import ExpeditionController

from gamecheck import assert_reloads_the_same

GAME = "fantasy_expedition"
SEEDS = range(60)
TEAMS = ("dwarf", "magician", "werewolf")
# The score tables as the rule text gives them.
TABLES = {
    "dwarf": {p: p for p in range(1, 10)},
    "magician": {p: 10 - p for p in range(1, 10)},
    "werewolf": {5: 9, 4: 8, 6: 7, 3: 6, 7: 5, 2: 4, 8: 3, 1: 2, 9: 1},
}


# ----------------------------------------------------------------- the player
def random_action(match: Match, seat: int, rng: Rng) -> dict[str, Any]:
    """A bot follows the game's policy; anyone else passes half the time in trading."""
    legal = match.legal_actions(seat)
    if match.seats[seat]["kind"] == "bot":
        chosen = ExpeditionController.policy(match.view(seat), legal, rng)
        if chosen is not None:
            return chosen
    elif {"type": "pass"} in legal and rng.randbelow(2):
        return {"type": "pass"}
    return rng.choice(legal)


def new_game(seed: int) -> Match:
    rng = Rng.derive(seed, 1)
    players = [{"name": f"P{i}", "kind": rng.choice(("human", "bot"))} for i in range(9)]
    return Match.new(GAME, players, seed=seed, options={"trade_rounds": rng.randint(0, 4)})


def assert_same_match(loaded: Match, match: Match) -> None:
    assert loaded.snapshot() == match.snapshot()
    assert loaded.actions == match.actions
    assert [ev["text"] for ev in loaded.log] == [ev["text"] for ev in match.log]
    assert loaded.to_act() == match.to_act()


def play(seed: int, path: Path | None = None) -> Match:
    """Play to the end; with ``path``, save and reload after every single action."""
    match, rng = new_game(seed), Rng.derive(seed, 2)
    while not match.is_over():
        seat = rng.choice(match.to_act())
        match.act(seat, random_action(match, seat, rng))
        if path is not None:
            match.save(path)
            assert_reloads_the_same(match, path)
    return match


# ----------------------------------------------------------------- invariants
@pytest.mark.parametrize("seed", SEEDS)
def test_whole_game(seed: int, tmp_path: Path) -> None:
    match = play(seed, tmp_path / "game.yaml")
    check_invariants(match)
    check_replay(match)


def check_invariants(match: Match) -> None:
    result = match.result()
    teams, start, final, scores = (result[k] for k in ("teams", "start", "final", "scores"))
    assert Counter(teams) == {team: 3 for team in TEAMS}
    assert sorted(start) == sorted(final) == list(range(1, 10))

    items = match.view(None)["items"]
    moved = resolve_expedition(set(items["mines"]), set(items["portals"]), items["fears"])
    assert final == [moved[p] for p in start]
    assert 2 <= len(items["mines"]) <= 4 and 2 <= len(items["portals"]) <= 4
    assert 1 <= len(items["fears"]) <= 4
    assert items["fears"][items["communal"]["fear"]] == items["communal_direction"]

    assert scores == [TABLES[teams[s]][final[s]] for s in range(9)]
    for team, winner in zip(TEAMS, result["winners"]):
        members = [s for s in range(9) if teams[s] == team]
        assert winner in members
        assert scores[winner] == max(scores[s] for s in members)
        assert sum(result["tokens_of_life"][s] for s in members) == 1
    assert result["garnets"] == [result["tokens_of_life"][s] + (scores[s] == 9)
                                 for s in range(9)]
    check_candidate(result)


def check_candidate(result: dict[str, Any]) -> None:
    scores, candidate, votes = result["scores"], result["elimination_candidate"], \
        result["votes"]
    assert result["tied"] == [s for s in range(9) if scores[s] == min(scores)]
    assert candidate in result["tied"]
    if len(result["tied"]) == 1:
        assert votes == {} and result["tie_break"] is None
        return
    assert sorted(votes) == sorted(result["winners"])
    assert set(votes.values()) <= set(result["tied"])
    counts = Counter(votes.values())
    if len(counts) == 3:
        assert result["tie_break"] == sorted(counts)
    else:
        assert candidate == counts.most_common(1)[0][0] and result["tie_break"] is None


def check_replay(match: Match) -> None:
    """A new match from the same seed, options and actions is the same match."""
    again = Match.new(GAME, match.seats, seed=match.seed, options=match.options)
    for record in match.actions:
        again.act(record["seat"], record["action"])
    assert_same_match(again, match)
    assert again.result() == match.result()


def test_the_seeds_cover_the_interesting_cases() -> None:
    """The sweep plays accepted trades, failed fears, votes and both trading starts."""
    games = [play(seed) for seed in SEEDS]
    views = [m.view(None) for m in games]
    results = [m.result() for m in games]
    assert any(t["accepted"] for v in views for t in v["trading"]["history"])
    assert any(v["items"]["failed_fears"] for v in views)
    assert any(r["votes"] for r in results)
    assert any(not r["votes"] for r in results)
    assert {m.options["trade_rounds"] == 0 for m in games} == {True, False}
