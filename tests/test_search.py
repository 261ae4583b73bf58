"""The engine's information-set search (the Hard computer player's core, issue 17)."""

from __future__ import annotations

from typing import Any

import pytest

from game.engine import Controller, Rng, event
from game.engine.search import SearchSettings, can_search, outcome, random_policy, search


class RaceToTen(Controller):
    """Two players add 1 or 2 to a counter in turn; whoever reaches 10 wins.  The winning
    moves leave the counter at 1, 4, 7 or 10."""

    game_id = "race"
    title = "Race to ten"
    min_seats = max_seats = 2
    has_secrets = False

    def __init__(self, seats, options, rng, start: int = 0) -> None:
        super().__init__(seats, options, rng)
        self.count, self.turn, self.winner = start, 0, None

    def to_act(self) -> list[int]:
        return [] if self.winner is not None else [self.turn]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return [{"type": "add", "n": n} for n in (1, 2) if self.count + n <= 10]

    def apply(self, seat, action):
        self.count += action["n"]
        if self.count == 10:
            self.winner = seat
        self.turn = 1 - seat
        return [event("add", "")]

    def view(self, seat):
        return {"count": self.count}

    def is_over(self) -> bool:
        return self.winner is not None

    def result(self):
        return None if self.winner is None else {"winners": [self.winner],
                                                 "scores": [int(s == self.winner) for s in (0, 1)]}

    def snapshot(self):
        return {"count": self.count}

    def status(self) -> str:
        return str(self.count)

    def determinize(self, seat: int, rng: Rng) -> None:
        """Nothing is hidden."""


class HiddenCard(Controller):
    """Seat 0 guesses whether seat 1's hidden card is high or low; the card is dealt face down.
    A searching seat 0 must not learn the card: its guess may depend only on its generator."""

    game_id = "hidden"
    title = "Hidden card"
    min_seats = max_seats = 2
    has_secrets = True

    def __init__(self, seats, options, rng, card: int = 1) -> None:
        super().__init__(seats, options, rng)
        self.card, self.guess = card, None

    def to_act(self):
        return [] if self.guess is not None else [0]

    def legal_actions(self, seat):
        return [{"type": "guess", "high": h} for h in (False, True)]

    def apply(self, seat, action):
        self.guess = action["high"]
        return [event("guess", "")]

    def view(self, seat):
        return {"card": self.card} if seat == 1 else {}

    def is_over(self):
        return self.guess is not None

    def result(self):
        right = self.guess == (self.card > 5)
        return {"winners": [0 if right else 1], "scores": [int(right), int(not right)]}

    def snapshot(self):
        return {"card": self.card, "guess": self.guess}

    def status(self):
        return ""

    def determinize(self, seat: int, rng: Rng) -> None:
        if seat != 1:
            self.card = rng.randint(1, 10)


def _race(start: int) -> RaceToTen:
    return RaceToTen([{"name": "A"}, {"name": "B"}], {}, Rng(0), start=start)


@pytest.mark.parametrize("start, best", [(8, 2), (9, 1), (6, 1), (5, 2), (3, 1), (2, 2)])
def test_the_tree_search_finds_the_winning_move(start, best):
    settings = SearchSettings(iterations=400, rollout_actions=20, policy=random_policy,
                              method="ismcts")
    assert search(_race(start), 0, Rng(start), settings) == {"type": "add", "n": best}


@pytest.mark.parametrize("start, best", [(8, 2), (9, 1), (6, 1), (5, 2)])
def test_the_rollout_player_finds_the_winning_move_its_playouts_show(start, best):
    """One step of lookahead over random play: enough where the win is near."""
    settings = SearchSettings(iterations=400, rollout_actions=20, policy=random_policy)
    assert search(_race(start), 0, Rng(start), settings) == {"type": "add", "n": best}


def test_the_rollout_player_keeps_the_heuristic_choice_when_nothing_is_clearly_better():
    """With the Normal player's own choice as the first candidate and playouts that cannot
    tell the choices apart, noise never overrules the heuristic."""
    class Stubborn(RaceToTen):
        @classmethod
        def policy(cls, view, legal, rng):
            return {"type": "add", "n": 1}
    for seed in range(10):
        live = Stubborn([{"name": "A"}, {"name": "B"}], {}, Rng(0), start=0)
        settings = SearchSettings(iterations=24, rollout_actions=2, policy=random_policy)
        assert search(live, 0, Rng(seed), settings) == {"type": "add", "n": 1}


def test_search_never_changes_the_live_state_and_is_deterministic():
    live = _race(3)
    before = (live.count, live.turn, live.rng.state)
    settings = SearchSettings(iterations=100, policy=random_policy)
    first = search(live, 0, Rng(11), settings)
    assert (live.count, live.turn, live.rng.state) == before
    assert all(search(live, 0, Rng(11), settings) == first for _ in range(3))


def test_a_cancelled_search_stops_and_still_answers():
    calls = []
    answer = search(_race(0), 0, Rng(1), SearchSettings(iterations=10_000, policy=random_policy),
                    cancelled=lambda: calls.append(1) or len(calls) > 5)
    assert answer in _race(0).legal_actions(0) and len(calls) == 6


def test_the_search_never_uses_what_its_seat_cannot_see():
    settings = SearchSettings(iterations=60, policy=random_policy)
    for seed in range(20):
        choices = {repr(search(HiddenCard([{"name": "A"}, {"name": "B"}], {}, Rng(0), card=card),
                               0, Rng(seed), settings)) for card in (1, 3, 7, 10)}
        assert len(choices) == 1, f"seed {seed}: the guess followed the hidden card"


def test_a_game_without_a_determinize_hook_is_not_searched():
    class Plain(RaceToTen):
        determinize = None
    assert can_search(_race(0)) and not can_search(Plain([{"name": "A"}, {"name": "B"}], {},
                                                         Rng(0)))


def test_outcome_splits_a_shared_win_and_ranks_the_rest():
    race = _race(8)
    race.apply(0, {"type": "add", "n": 2})
    assert outcome(race, 0) == pytest.approx(1.0) and outcome(race, 1) == pytest.approx(0.0)


def test_seat_levels_are_checked_kept_and_default_to_normal():
    from game.engine import IllegalAction, Match
    seats = [{"name": "A", "kind": "human"}, {"name": "B", "kind": "bot", "level": "hard"},
             {"name": "C", "kind": "bot"}]
    m = Match.new("odysseus", seats, seed=1)
    assert [s.get("level") for s in m.seats] == [None, "hard", "normal"]
    with pytest.raises(IllegalAction, match="level"):
        Match.new("odysseus", [*seats[:2], {"name": "C", "kind": "bot", "level": "wizard"}])


def test_every_level_plays_whole_games_and_replays_exactly(tmp_path):
    from game.engine import Match
    from game.engine.bots import choose_action
    for level in ("easy", "normal", "hard"):
        seats = [{"name": f"P{i}", "kind": "bot", "level": level} for i in range(2)]
        m = Match.new("fantasy_racing", seats, seed=5)
        while not m.is_over():
            seat = m.to_act()[0]
            m.act(seat, choose_action(m, seat))
        m.save(tmp_path / f"{level}.yaml")
        again = Match.new("fantasy_racing", seats, seed=5)
        while not again.is_over():
            seat = again.to_act()[0]
            again.act(seat, choose_action(again, seat))
        assert again.actions == m.actions
        assert Match.load(tmp_path / f"{level}.yaml").seats == m.seats


def test_easy_slips_sometimes_and_normal_never():
    from game.engine import Match
    from game.engine.bots import choose_action
    differ = 0
    for seed in range(30):
        base = [{"name": f"P{i}", "kind": "bot"} for i in range(2)]
        normal = Match.new("fantasy_racing", base, seed=seed)
        easy = Match.new("fantasy_racing", [{**s, "level": "easy"} for s in base], seed=seed)
        seat = normal.to_act()[0]
        differ += choose_action(normal, seat) != choose_action(easy, seat)
    assert 0 < differ < 30


@pytest.mark.parametrize("method", ["rollouts", "ismcts"])
def test_a_work_budget_ends_the_search_and_the_choice_depends_on_the_work_alone(method):
    """The budget is counted in work (actions played, copies, worlds), never time: a small
    budget does less work than the playout count allows, and the same budget gives the same
    choice every time; a budget that never binds changes nothing."""
    from game.engine import search as search_module
    free = SearchSettings(iterations=400, rollout_actions=20, policy=random_policy,
                          method=method)
    capped = SearchSettings(iterations=400, rollout_actions=20, policy=random_policy,
                            method=method, work=300)
    done = search_module.WORK_DONE[0]
    search(_race(2), 0, Rng(5), free)
    free_work = search_module.WORK_DONE[0] - done
    done = search_module.WORK_DONE[0]
    first = search(_race(2), 0, Rng(5), capped)
    capped_work = search_module.WORK_DONE[0] - done
    assert capped_work < free_work / 3 and capped_work < 300 + 60, (capped_work, free_work)
    assert all(search(_race(2), 0, Rng(5), capped) == first for _ in range(3))
    loose = SearchSettings(iterations=400, rollout_actions=20, policy=random_policy,
                           method=method, work=10 * free_work)
    assert search(_race(2), 0, Rng(5), loose) == search(_race(2), 0, Rng(5), free)
