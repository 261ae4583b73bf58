"""The engine: the seeded generator, options, match creation, acting, undo,
replay and the plain-data promise."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

import pytest
import yaml

from game.engine import (IllegalAction, Match, Option, Rng, TabletopError, UnknownGame,
                         controller_class, game_ids)
from game.engine.match import plain

GAME = "fantasy_expedition"
PASS = {"type": "pass"}
#: Chi-square bound for 5 degrees of freedom at p = 0.001; the seeds are fixed,
#: so this is a sanity check that cannot flake.
CHI2_DF5 = 20.52


# --------------------------------------------------------------------- helpers
def seats(*kinds: str) -> list[dict[str, str]]:
    kinds = kinds or ("human",) * 9
    return [{"name": f"P{i}", "kind": kind} for i, kind in enumerate(kinds)]


def new_match(seed: int = 1, kinds: tuple[str, ...] = (), **options: Any) -> Match:
    return Match.new(GAME, seats(*kinds), seed=seed, options=options)


def chi_square(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def state_of(match: Match) -> tuple:
    """Everything an act or undo could change."""
    return (match.snapshot(), [dict(a) for a in match.actions], list(match.log),
            match.barrier)


def play(match: Match, rng: Rng, until=lambda m: m.is_over()) -> list[list[dict]]:
    """Random legal actions until ``until(match)``; returns each action's events."""
    events = []
    while not until(match):
        seat = rng.choice(match.to_act())
        events.append(match.act(seat, rng.choice(match.legal_actions(seat))))
    return events


def choose_for_everyone(match: Match) -> None:
    """Everyone still to choose makes their first legal choice (ends in the reveal)."""
    for seat in match.to_act():
        match.act(seat, match.legal_actions(seat)[0])


@pytest.fixture
def match() -> Match:
    return new_match()


@pytest.fixture(scope="module")
def finished() -> Match:
    match = new_match(seed=4)
    play(match, Rng(4))
    return match


# ------------------------------------------------------------------------- rng
def test_rng_same_seed_same_sequence() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(50)] == [b.next64() for _ in range(50)]
    assert a.state == b.state and a.draws == b.draws == 50


def test_rng_seeds_differ() -> None:
    firsts = {Rng(seed).next64() for seed in range(200)}
    assert len(firsts) == 200


def test_rng_resumes_from_its_state() -> None:
    a = Rng(9)
    for _ in range(7):
        a.next64()
    b = Rng(9, state=a.state)
    assert [a.randint(1, 100) for _ in range(20)] == [b.randint(1, 100) for _ in range(20)]


def test_rng_derive_is_deterministic_and_salted() -> None:
    assert Rng.derive(5, 1, 2).state == Rng.derive(5, 1, 2).state
    assert len({Rng.derive(5, salt).state for salt in range(50)}) == 50
    assert Rng.derive(5, 1).state != Rng(5).state


@pytest.mark.parametrize("seed", range(4))
def test_rng_die_rolls_are_uniform(seed: int) -> None:
    rng, faces, total = Rng(seed), list(range(1, 7)), 6000
    counts = Counter(rng.randint(1, 6) for _ in range(total))
    assert set(counts) == set(faces)
    assert chi_square(counts, faces, total) < CHI2_DF5


@pytest.mark.parametrize("seed", range(4))
def test_rng_shuffle_is_uniform(seed: int) -> None:
    rng, cells, total = Rng(seed), list(permutations("abc")), 6000
    counts: Counter = Counter()
    for _ in range(total):
        items = list("abc")
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert chi_square(counts, cells, total) < CHI2_DF5


def test_rng_helpers() -> None:
    rng = Rng(3)
    assert all(0 <= rng.randbelow(7) < 7 for _ in range(200))
    assert {rng.randint(2, 4) for _ in range(200)} == {2, 3, 4}
    assert rng.choice(["only"]) == "only"
    sample = rng.sample(range(10), 4)
    assert len(sample) == len(set(sample)) == 4 and set(sample) <= set(range(10))
    with pytest.raises(ValueError):
        rng.randbelow(0)
    with pytest.raises(IndexError):
        rng.choice([])


# ---------------------------------------------------------------------- option
ROUNDS = Option("rounds", "Rounds", 3, minimum=0, maximum=9)
FAST = Option("fast", "Fast play", False)
MODE = Option("mode", "Mode", "easy", choices=("easy", "hard"))


@pytest.mark.parametrize(("option", "value"), [
    (ROUNDS, 0), (ROUNDS, 9), (ROUNDS, 4), (FAST, True), (FAST, False), (MODE, "hard"),
])
def test_option_accepts(option: Option, value: Any) -> None:
    assert option.validate(value) == value


@pytest.mark.parametrize(("option", "value", "message"), [
    (ROUNDS, -1, "Rounds must be at least 0."),
    (ROUNDS, 10, "Rounds must be at most 9."),
    (ROUNDS, "3", "Rounds must be a whole number."),
    (ROUNDS, 2.5, "Rounds must be a whole number."),
    (ROUNDS, True, "Rounds must be a whole number."),
    (FAST, 1, "Fast play must be yes or no."),
    (FAST, "yes", "Fast play must be yes or no."),
    (MODE, "medium", "Mode must be one of easy, hard."),
])
def test_option_refuses(option: Option, value: Any, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        option.validate(value)
    assert str(caught.value) == message


# ---------------------------------------------------------------- registry/new
def test_registry_knows_the_game() -> None:
    assert GAME in game_ids()
    assert controller_class(GAME).game_id == GAME


def test_match_new_defaults() -> None:
    match = Match.new(GAME, seats())
    assert isinstance(match.seed, int)
    assert match.options == {"trade_rounds": 3}
    assert match.actions == [] and match.to_act() == [0]


@pytest.mark.parametrize(("players", "options", "message"), [
    (seats()[:8], {}, "needs exactly 9 seats, not 8"),
    (seats() + [{"name": "P9", "kind": "human"}], {}, "needs exactly 9 seats, not 10"),
    ("nine players", {}, "Seats must be a list"),
    (seats(*["human"] * 8, "alien"), {}, "Seat 9 must be human or bot, not 'alien'"),
    ([{"name": "  ", "kind": "bot"}] + seats()[1:], {}, "Seat 1 needs a name"),
    ([*seats()[:8], "P8"], {}, "Seat 9 is not a name and a kind"),
    ([*seats()[:8], {"name": " P0 ", "kind": "bot"}], {}, "Two seats have the same name"),
    (seats(), {"speed": 2}, "has no option called 'speed'"),
    (seats(), {"trade_rounds": 10}, "Trading rounds must be at most 9"),
    (seats(), {"trade_rounds": "2"}, "Trading rounds must be a whole number"),
])
def test_match_new_refusals(players: Any, options: dict, message: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        Match.new(GAME, players, seed=1, options=options)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("options", [5, "ab"])
def test_match_new_refuses_options_that_are_not_a_mapping(options: Any) -> None:
    with pytest.raises(IllegalAction, match="[Oo]ptions must be"):
        Match.new(GAME, seats(), seed=1, options=options)


@pytest.mark.parametrize("game_id", ["chess", "", None])
def test_match_new_unknown_game(game_id: Any) -> None:
    with pytest.raises(UnknownGame) as caught:
        Match.new(game_id, seats(), seed=1)
    assert str(caught.value) == f"There is no game called {game_id!r}."
    assert isinstance(caught.value, TabletopError)


def test_seat_names_are_cleaned() -> None:
    players = [{"name": f"  A very long player name {i}", "kind": "bot"}
               for i in range(9)]
    with pytest.raises(IllegalAction, match="same name"):
        Match.new(GAME, players, seed=1)  # the names only differ after 24 letters
    players = [{"name": f" N{i} "} for i in range(9)]
    assert Match.new(GAME, players, seed=1).seats[0] == {"name": "N0", "kind": "human"}


# -------------------------------------------------------------------------- act
@pytest.mark.parametrize(("seat", "action", "message"), [
    (3, {"type": "pass"}, "It is not P3's turn; waiting for P0."),
    (9, {"type": "pass"}, "There is no seat 9."),
    (-1, {"type": "pass"}, "There is no seat -1."),
    ("0", {"type": "pass"}, "There is no seat '0'."),
    (0, "pass", "An action must be a mapping with a 'type'."),
    (0, {"to": 3}, "An action must be a mapping with a 'type'."),
    (0, {"type": 3}, "An action must be a mapping with a 'type'."),
    (0, {"type": "dance"}, "'dance' is not possible now"),
    (0, {"type": "pass", "extra": object()}, "not plain data"),
    (0, {"type": "pass", (1, 2): "x"}, "a key of an unexpected kind"),
    (True, {"type": "pass"}, "There is no seat True."),
])
def test_act_refusals_leave_the_match_unchanged(match: Match, seat: Any, action: Any,
                                                message: str) -> None:
    if seat is True:
        match.act(0, PASS)  # seat 1 (== True) is now to act
    before = state_of(match)
    with pytest.raises(IllegalAction) as caught:
        match.act(seat, action)
    assert message in str(caught.value)
    assert state_of(match) == before


def test_act_after_the_game_is_over(finished: Match) -> None:
    before = state_of(finished)
    for seat in range(9):
        with pytest.raises(IllegalAction, match="The game is over."):
            finished.act(seat, {"type": "vote", "candidate": 0})
    assert state_of(finished) == before
    assert finished.to_act() == [] and finished.legal_actions(0) == []


def test_legal_actions_are_empty_for_seats_not_to_act(match: Match) -> None:
    assert match.legal_actions(0)
    assert all(match.legal_actions(seat) == [] for seat in range(1, 9))


def test_act_copies_the_action(match: Match) -> None:
    action = {"type": "propose", "to": 4}
    match.act(0, action)
    action["to"] = 7
    assert match.actions[-1]["action"] == {"type": "propose", "to": 4}


def test_illegal_action_is_a_value_error_with_a_reason() -> None:
    error = IllegalAction("Position 12 is off the board.")
    assert isinstance(error, ValueError)
    assert error.reason == str(error) == "Position 12 is off the board."


# ------------------------------------------------------------------------- undo
def test_undo_a_trading_pass(match: Match) -> None:
    start = state_of(match)
    match.act(0, PASS)
    assert match.can_undo()
    match.undo()
    assert state_of(match) == start
    assert match.to_act() == [0]


def test_undo_takes_back_one_action_of_a_person(match: Match) -> None:
    match.act(0, PASS)
    after_first = state_of(match)
    match.act(1, {"type": "propose", "to": 5})
    match.undo()
    assert state_of(match) == after_first


def test_undo_takes_back_trailing_bot_actions() -> None:
    match = new_match(kinds=("human", "bot", "bot", "human", *["bot"] * 5))
    fresh = state_of(match)
    for seat in range(3):
        match.act(seat, PASS)
    after_bots = state_of(match)
    match.act(3, PASS)
    match.act(4, PASS)
    match.undo()                       # P3's pass and bot P4's after it
    assert state_of(match) == after_bots
    match.undo()                       # P0's pass and bots P1, P2 after it
    assert state_of(match) == fresh


def test_undo_a_secret_choice_before_the_reveal() -> None:
    match = new_match(trade_rounds=0)
    before = state_of(match)
    match.act(4, match.legal_actions(4)[0])
    match.undo()
    assert state_of(match) == before


def test_undo_refused_after_the_reveal() -> None:
    match = new_match(trade_rounds=0)
    choose_for_everyone(match)
    assert match.controller.revealed()
    before = state_of(match)
    assert not match.can_undo()
    with pytest.raises(IllegalAction) as caught:
        match.undo()
    assert str(caught.value) == "That can't be undone: something was revealed or rolled since."
    assert state_of(match) == before


def test_undo_with_nothing_to_undo(match: Match) -> None:
    with pytest.raises(IllegalAction, match="There is nothing to undo."):
        match.undo()
    assert match.actions == []


def test_undo_with_only_bot_actions_says_nothing_to_undo() -> None:
    match = new_match(kinds=("bot",) * 9)
    match.act(0, PASS)
    with pytest.raises(IllegalAction, match="There is nothing to undo."):
        match.undo()


# ------------------------------------------------------------------- replay
@pytest.mark.parametrize("seed", [0, 7, 21])
def test_replaying_seed_and_actions_reproduces_the_match(seed: int) -> None:
    original = new_match(seed=seed, trade_rounds=2)
    play(original, Rng.derive(seed, 99))
    copy = new_match(seed=seed, trade_rounds=2)
    for record in original.actions:
        copy.act(record["seat"], record["action"])
    assert copy.snapshot() == original.snapshot()
    assert copy.log == original.log
    assert copy.result() == original.result()


def test_different_seeds_give_different_matches() -> None:
    snapshots = [new_match(seed=seed).snapshot() for seed in range(5)]
    assert all(a != b for i, a in enumerate(snapshots) for b in snapshots[i + 1:])


def test_snapshot_includes_the_generator() -> None:
    match = new_match(seed=2)
    assert match.snapshot()["rng"] == match.rng.state


# ---------------------------------------------------------------- plain data
# The C versions of safe_dump/safe_load: the same safe representer, only faster.
SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def round_trip(value: Any) -> Any:
    """``value`` through the safe dumper and loader (fails on anything not plain)."""
    return yaml.load(yaml.dump(value, Dumper=SAFE_DUMPER), Loader=SAFE_LOADER)


@pytest.mark.parametrize("seed", [1, 2])
def test_views_results_events_are_plain_data(seed: int) -> None:
    match = new_match(seed=seed)
    rng = Rng(seed)
    while not match.is_over():
        seat = rng.choice(match.to_act())
        legal = match.legal_actions(seat)
        assert round_trip(legal) == legal
        events = match.act(seat, rng.choice(legal))
        assert all(isinstance(ev["type"], str) and isinstance(ev["text"], str)
                   for ev in events)
        assert round_trip(events) == events
        for viewer in [None, *range(9)]:
            view = match.view(viewer)
            assert round_trip(view) == view
        assert round_trip(match.snapshot()) == match.snapshot()
    result = match.result()
    assert yaml.safe_load(yaml.safe_dump(result)) == result
    assert yaml.safe_load(yaml.safe_dump(match.log)) == match.log


def test_plain_copies_and_refuses() -> None:
    value = {"a": (1, 2), 3: [None, True, 1.5]}
    assert plain(value) == {"a": [1, 2], 3: [None, True, 1.5]}
    with pytest.raises(IllegalAction, match="not plain data"):
        plain({"a": {1, 2}})
    with pytest.raises(IllegalAction, match="unexpected kind"):
        plain({True: 1})


def test_undo_offered_only_to_the_person_whose_action_it_takes_back() -> None:
    match = new_match(kinds=("human", "human") + ("bot",) * 7)
    match.act(0, PASS)
    assert match.can_undo(0)
    assert not match.can_undo(1), "the next person may not take back someone else's action"
    match.undo()
    assert match.actions == [] and match.to_act() == [0]
