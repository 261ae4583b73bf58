"""Fantasy Expedition: the kernel, every ruling, and the controller scripted.

The kernel tests pin each sentence of the rules and each of our rulings; the
controller tests script whole matches (reading each seat's team from the
match) to check dealing, trading, choices, placement, scoring, the tie vote,
the bots' policy and the secrecy of the views.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import game.fantasy_expedition as expedition_package
from game.engine import IllegalAction, Match, Rng
from game.fantasy_expedition.kernel import (fear_moves, jump_moves, majority,
                                            nearest_empty_slot, place_fears,
                                            resolve_expedition, score,
                                            trace_expedition)
from game.fantasy_expedition.rules import ExpeditionController
from game.engine.events import reveals

GAME = "fantasy_expedition"
TEAMS = ("dwarf", "magician", "werewolf")
POSITIONS = list(range(1, 10))

# The score tables written out from the rule text, independent of the kernel.
DWARF = {p: p for p in POSITIONS}
MAGICIAN = {p: 10 - p for p in POSITIONS}
WEREWOLF = {5: 9, 4: 8, 6: 7, 3: 6, 7: 5, 2: 4, 8: 3, 1: 2, 9: 1}
TABLES = {"dwarf": DWARF, "magician": MAGICIAN, "werewolf": WEREWOLF}

# A full board consistent with the worked example (at most 3 chosen items plus
# the communal one per row): mine at 1, next mine to its left at 8 (none at
# 9), no portal at 8, no fear at 8 and a right-pointing fear at 7.
EXAMPLE_MINES = {1, 3, 5, 8}
EXAMPLE_PORTALS = {2, 4, 6, 9}
EXAMPLE_FEARS = {2: "L", 4: "R", 5: "L", 7: "R"}
# Worked by hand: mines 1->8 3->1 5->3 8->5; portals 2->4 4->6 6->9 9->2;
# fear 2L swaps 1,2; 4R and 5L swap; 7R swaps 7,8.
EXAMPLE_FINAL = {1: 7, 2: 5, 3: 2, 4: 6, 5: 3, 6: 9, 7: 8, 8: 4, 9: 1}


# --------------------------------------------------------------------- helpers
def is_permutation_of(moves: dict[int, int], domain: set[int]) -> bool:
    return set(moves) == domain and sorted(moves.values()) == sorted(domain)


def seats(kind: str = "human") -> list[dict[str, str]]:
    return [{"name": f"P{i}", "kind": kind} for i in range(9)]


def new_match(seed: int = 1, kind: str = "human", **options: Any) -> Match:
    return Match.new(GAME, seats(kind), seed=seed, options=options)


def team_of(match: Match, seat: int) -> str:
    """A seat's team as that seat itself sees it."""
    return match.view(seat)["seats"][seat]["team"]


def members(match: Match, team: str) -> list[int]:
    return [s for s in range(9) if team_of(match, s) == team]


def pick(slot: int, communal: int, direction: str | None = None,
         vote: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "choose", "slot": slot, "communal": communal}
    if direction is not None:
        action.update(direction=direction, vote=vote)
    return action


DEFAULT_PICKS = {
    "dwarf": [pick(1, 1)] * 3,
    "magician": [pick(9, 9)] * 3,
    "werewolf": [pick(5, 5, "R", "R")] * 3,
}


def choose_all(match: Match, **plans: list[dict[str, Any]]) -> None:
    """Every seat makes its secret choice: ``plans[team]`` in seat order."""
    for team in TEAMS:
        for seat, action in zip(members(match, team), plans.get(team, DEFAULT_PICKS[team])):
            match.act(seat, action)


def items_after(**plans: list[dict[str, Any]]) -> dict[str, Any]:
    match = new_match(trade_rounds=0)
    choose_all(match, **plans)
    return match.view(None)["items"]


def random_choices(match: Match, rng: Rng) -> None:
    """Every seat still to choose picks at random (used to search for ties)."""
    for seat in match.to_act():
        action = pick(rng.randint(1, 9), rng.randint(1, 9))
        if team_of(match, seat) == "werewolf":
            action.update(direction=rng.choice("LR"), vote=rng.choice("LR"))
        match.act(seat, action)


def pass_round(match: Match) -> None:
    for _ in range(9):
        match.act(match.to_act()[0], {"type": "pass"})


def offer_round(match: Match, answer: str = "decline") -> None:
    """A trading round in which seat 0 makes an offer to seat 1 and the rest pass."""
    match.act(0, {"type": "propose", "to": 1})
    match.act(1, {"type": answer})
    for _ in range(8):
        match.act(match.to_act()[0], {"type": "pass"})


def walk(value: Any, path: tuple = ()):
    """Every (path, value) pair inside nested dicts and lists."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, path + (index,))


# ----------------------------------------------------------------------- score
@pytest.mark.parametrize("team", TEAMS)
@pytest.mark.parametrize("position", POSITIONS)
def test_score_tables(team: str, position: int) -> None:
    assert score(team, position) == TABLES[team][position]


def test_werewolf_table_favours_the_centre() -> None:
    order = sorted(POSITIONS, key=lambda p: -score("werewolf", p))
    assert order == [5, 4, 6, 3, 7, 2, 8, 1, 9]


# ------------------------------------------------------------------ mines/portals
@pytest.mark.parametrize(("items", "step", "expected"), [
    ({1, 8}, -1, {1: 8, 8: 1}),                    # example: mine 1 -> mine 8
    ({2, 5, 7}, -1, {2: 7, 5: 2, 7: 5}),           # strictly left, 2 wraps to 7
    ({1, 9}, -1, {1: 9, 9: 1}),                    # wrap from 1 to 9
    ({4}, -1, {4: 4}),                             # a lone mine keeps its player
    (set(), -1, {}),
    ({2, 5, 7}, +1, {2: 5, 5: 7, 7: 2}),           # portals: strictly right, wrap
    ({3, 4}, +1, {3: 4, 4: 3}),
    ({6}, +1, {6: 6}),                             # a lone portal keeps its player
    (set(POSITIONS), +1, {p: p % 9 + 1 for p in POSITIONS}),
])
def test_jump_moves(items: set[int], step: int, expected: dict[int, int]) -> None:
    assert jump_moves(items, step) == expected


# ------------------------------------------------------------------------ fear
@pytest.mark.parametrize(("fears", "expected"), [
    # A single marker swaps with the player it points at.
    ({7: "R"}, {7: 8, 8: 7}),
    ({4: "L"}, {4: 3, 3: 4}),
    # Clarification: 1R,2R -> 1->2, 2->3, 3->1.
    ({1: "R", 2: "R"}, {1: 2, 2: 3, 3: 1}),
    # Clarification: adding 3L resolves the same (3L is part of the run).
    ({1: "R", 2: "R", 3: "L"}, {1: 2, 2: 3, 3: 1}),
    # Clarification: 1R,2R,3R -> 3->4 and 4->1.
    ({1: "R", 2: "R", 3: "R"}, {1: 2, 2: 3, 3: 4, 4: 1}),
    # A left run: the player pointed to goes to the far (right) end.
    ({2: "L", 3: "L"}, {2: 1, 3: 2, 1: 3}),
    # Two adjacent markers pointing at each other simply swap.
    ({4: "R", 5: "L"}, {4: 5, 5: 4}),
    # Each player moves at most once: 3L points at 2, who already moved.
    ({1: "R", 3: "L"}, {1: 2, 2: 1}),
    # Resolved from 1 to 9: 2R goes first, so 4L finds 3 already moved.
    ({2: "R", 4: "L"}, {2: 3, 3: 2}),
    ({1: "R", 2: "L", 3: "L"}, {1: 2, 2: 1}),
    # Off the board: no effect, for a lone marker and for a whole run.
    ({1: "L"}, {}),
    ({9: "R"}, {}),
    ({1: "L", 2: "L"}, {}),
    ({8: "R", 9: "R"}, {}),
    # An off-board run does not stop a later run.
    ({1: "L", 3: "R"}, {3: 4, 4: 3}),
    # Separate runs resolve independently.
    ({1: "R", 5: "L", 6: "L"}, {1: 2, 2: 1, 5: 4, 6: 5, 4: 6}),
    ({}, {}),
])
def test_fear_moves(fears: dict[int, str], expected: dict[int, int]) -> None:
    assert fear_moves(fears) == expected


# --------------------------------------------------------------- whole ascent
def test_worked_example_from_position_1_ends_at_7() -> None:
    final = resolve_expedition(EXAMPLE_MINES, EXAMPLE_PORTALS, EXAMPLE_FEARS)
    assert final[1] == 7
    assert final == EXAMPLE_FINAL
    assert is_permutation_of(final, set(POSITIONS))


def test_worked_example_step_by_step() -> None:
    rows = dict(trace_expedition(EXAMPLE_MINES, EXAMPLE_PORTALS, EXAMPLE_FEARS))
    assert rows["mine"][1] == 8          # tunnels to the mine at 8
    assert 8 not in rows["portal"]       # no portal at 8
    assert 8 not in EXAMPLE_FEARS        # no fear at 8 ...
    assert rows["fear"][7] == 8          # ... but 7 is frightened right onto 8
    assert rows["fear"][8] == 7


def test_rows_are_climbed_mines_then_portals_then_fear() -> None:
    # Player 1: mine 1 -> 2, then portal 2 -> 3.  Portals first would give 2.
    final = resolve_expedition({1, 2}, {2, 3}, {})
    assert final == {1: 3, 2: 1, 3: 2, **{p: p for p in range(4, 10)}}
    # Fear comes last: the player arriving at 3 by portal is frightened to 4.
    assert resolve_expedition(set(), {1, 3}, {3: "R"})[1] == 4


def test_trace_leaves_out_players_who_stay() -> None:
    assert trace_expedition({4}, {6}, {1: "L"}) == [("mine", {}), ("portal", {}),
                                                     ("fear", {})]


mine_sets = st.sets(st.sampled_from(POSITIONS))
fear_maps = st.dictionaries(st.sampled_from(POSITIONS), st.sampled_from(["L", "R"]))


@given(mines=mine_sets, portals=mine_sets, fears=fear_maps)
def test_expedition_is_always_a_permutation(mines: set[int], portals: set[int],
                                            fears: dict[int, str]) -> None:
    assert is_permutation_of(resolve_expedition(mines, portals, fears), set(POSITIONS))
    assert is_permutation_of(jump_moves(mines, -1), mines)
    assert is_permutation_of(jump_moves(portals, +1), portals)
    moves = fear_moves(fears)
    assert is_permutation_of(moves, set(moves))
    assert set(moves) <= set(POSITIONS)


@given(fears=fear_maps)
def test_fear_moves_only_inside_runs(fears: dict[int, str]) -> None:
    """Every mover sits on a marker or is the player one of them points at."""
    pointed = {p + (1 if d == "R" else -1) for p, d in fears.items()}
    assert set(fear_moves(fears)) <= set(fears) | pointed


# ----------------------------------------------------------------- placement
@pytest.mark.parametrize(("chosen", "fears", "failed"), [
    ([(3, "L"), (3, "L"), (6, "R")], {3: "L", 6: "R"}, []),      # duplicates: one marker
    ([(3, "L"), (3, "R"), (6, "R")], {6: "R"}, [3]),             # opposite ways: both fail
    ([(3, "L"), (3, "L"), (3, "R")], {}, [3]),                   # ruling: any disagreement
    ([(4, "R"), (4, "R"), (4, "R")], {4: "R"}, []),
])
def test_place_fears(chosen, fears, failed) -> None:
    assert place_fears(chosen) == (fears, failed)


@pytest.mark.parametrize(("occupied", "numbers", "slot"), [
    (set(), [2, 3, 7], 4),       # average 4
    (set(), [1, 1, 2], 1),       # average 1.33
    ({5}, [4, 5, 6], 4),         # 4 and 6 tie: the lower slot
    ({4, 5, 6}, [5, 5, 5], 3),   # 3 and 7 tie: the lower slot
    ({1}, [1, 1, 1], 2),         # only empty slots count
    ({8, 9}, [9, 9, 8], 7),
])
def test_nearest_empty_slot(occupied: set[int], numbers: list[int], slot: int) -> None:
    assert nearest_empty_slot(occupied, numbers) == slot


@pytest.mark.parametrize(("votes", "direction"), [
    (["L", "L", "R"], "L"), (["R", "L", "R"], "R"), (["L"] * 3, "L"), (["R"] * 3, "R"),
])
def test_majority(votes: list[str], direction: str) -> None:
    assert majority(votes) == direction


# ---------------------------------------------------------------------- deal
def test_deal_three_per_team_and_positions_are_a_permutation() -> None:
    match = new_match(seed=11)
    assert Counter(team_of(match, s) for s in range(9)) == {t: 3 for t in TEAMS}
    starts = [entry["start"] for entry in match.view(None)["seats"]]
    assert sorted(starts) == POSITIONS


def test_same_seed_same_deal_and_seeds_differ() -> None:
    def deal(seed: int) -> tuple:
        match = new_match(seed=seed)
        return (tuple(team_of(match, s) for s in range(9)),
                tuple(e["start"] for e in match.view(None)["seats"]))

    assert deal(7) == deal(7)
    deals = {deal(seed) for seed in range(20)}
    assert len(deals) == 20
    assert len({teams for teams, _ in deals}) > 1
    assert len({starts for _, starts in deals}) > 1


def test_nine_seats_exactly() -> None:
    with pytest.raises(IllegalAction, match="exactly 9"):
        Match.new(GAME, seats()[:8], seed=1)


# ------------------------------------------------------------------- trading
def starts(match: Match) -> list[int]:
    return [entry["start"] for entry in match.view(None)["seats"]]


def test_trading_in_seat_order() -> None:
    match = new_match()
    for seat in range(9):
        assert match.to_act() == [seat]
        match.act(seat, {"type": "pass"})


def test_accepted_swap_applies_at_once() -> None:
    match = new_match()
    before = starts(match)
    match.act(0, {"type": "propose", "to": 5})
    assert match.to_act() == [5]
    assert match.legal_actions(5) == [{"type": "accept"}, {"type": "decline"}]
    match.act(5, {"type": "accept"})
    after = starts(match)
    assert (after[0], after[5]) == (before[5], before[0])
    assert [p for s, p in enumerate(after) if s not in (0, 5)] == \
           [p for s, p in enumerate(before) if s not in (0, 5)]
    assert match.to_act() == [1]


def test_declined_swap_keeps_positions() -> None:
    match = new_match()
    before = starts(match)
    match.act(0, {"type": "propose", "to": 5})
    match.act(5, {"type": "decline"})
    assert starts(match) == before
    assert match.view(None)["trading"]["history"] == [{"from": 0, "to": 5, "accepted": False}]


OFFER_TO_3 = [{"type": "propose", "to": 3}]


@pytest.mark.parametrize(("setup", "seat", "action", "reason"), [
    ([], 0, {"type": "propose", "to": 0}, "yourself"),
    ([], 0, {"type": "propose", "to": 9}, "Choose a player"),
    ([], 0, {"type": "propose", "to": "P3"}, "Choose a player"),
    ([], 0, {"type": "propose"}, "Choose a player"),
    ([], 0, {"type": "choose", "slot": 1, "communal": 1}, "trading"),
    ([], 0, {"type": "vote", "candidate": 1}, "trading"),
    ([], 0, {"type": "accept"}, "There is no offer to answer"),
    ([], 0, {"type": "decline"}, "There is no offer to answer"),
    (OFFER_TO_3, 3, {"type": "pass"}, "First answer the offer"),
    (OFFER_TO_3, 3, {"type": "propose", "to": 0}, "First answer the offer"),
])
def test_trading_refusals(setup, seat, action, reason) -> None:
    match = new_match()
    for step in setup:
        match.act(match.to_act()[0], step)
    before = match.snapshot()
    with pytest.raises(IllegalAction, match=reason):
        match.act(seat, action)
    assert match.snapshot() == before


def test_trading_ends_after_a_round_where_everyone_passed() -> None:
    match = new_match()
    offer_round(match)
    assert match.view(None)["trading"]["round"] == 2
    pass_round(match)
    assert match.view(None)["phase"] == "choice"
    assert match.to_act() == list(range(9))


@pytest.mark.parametrize(("options", "rounds"), [
    ({"trade_rounds": 1}, 1), ({"trade_rounds": 2}, 2), ({}, 3),  # default: 3
])
def test_trading_ends_after_trade_rounds(options: dict, rounds: int) -> None:
    match = new_match(**options)
    assert match.options == {"trade_rounds": rounds}
    for played in range(rounds):
        assert match.view(None)["phase"] == "trading"
        assert match.view(None)["trading"]["round"] == played + 1
        offer_round(match, answer="accept")
    assert match.view(None)["phase"] == "choice"


def test_no_trading_starts_in_choice() -> None:
    match = new_match(trade_rounds=0)
    assert match.view(None)["phase"] == "choice"
    assert match.to_act() == list(range(9))


# The computer player's tests are in test_expedition_bot.py.


# -------------------------------------------------------------------- choices
@pytest.mark.parametrize(("team", "action", "reason"), [
    ("werewolf", pick(3, 3), "which way your Fear Marker points"),
    ("werewolf", {**pick(3, 3), "direction": "L"}, "Vote which way"),
    ("werewolf", {**pick(3, 3), "direction": "up", "vote": "L"}, "Fear Marker points"),
    ("werewolf", {**pick(3, 3), "direction": "L", "vote": "X"}, "Vote which way"),
    ("werewolf", pick(0, 3, "L", "L"), "slot from 1 to 9 for your Fear Marker"),
    ("dwarf", {**pick(3, 3), "direction": "L"}, "Only Werewolves"),
    ("magician", {**pick(3, 3), "vote": "R"}, "Only Werewolves"),
    ("dwarf", pick(10, 3), "slot from 1 to 9 for your Mine"),
    ("magician", pick(True, 3), "slot from 1 to 9 for your Portal"),
    ("magician", {"type": "choose", "communal": 3}, "slot from 1 to 9"),
    ("dwarf", pick(3, 0), "communal number from 1 to 9"),
    ("dwarf", pick(3, "5"), "communal number"),
])
def test_choice_validation(team: str, action: dict, reason: str) -> None:
    match = new_match(trade_rounds=0)
    seat = members(match, team)[0]
    before = match.snapshot()
    with pytest.raises(IllegalAction, match=reason):
        match.act(seat, action)
    assert match.snapshot() == before


def test_werewolf_legal_actions_carry_direction_and_vote() -> None:
    match = new_match(trade_rounds=0)
    wolf, dwarf = members(match, "werewolf")[0], members(match, "dwarf")[0]
    assert all(set(a) == {"type", "slot", "communal", "direction", "vote"}
               for a in match.legal_actions(wolf))
    assert len(match.legal_actions(wolf)) == 9 * 9 * 2 * 2
    assert all(set(a) == {"type", "slot", "communal"} for a in match.legal_actions(dwarf))


def test_choices_are_made_once() -> None:
    match = new_match(trade_rounds=0)
    seat = members(match, "dwarf")[0]
    match.act(seat, pick(2, 2))
    assert seat not in match.to_act()
    with pytest.raises(IllegalAction, match="not P%d's turn" % seat):
        match.act(seat, pick(3, 3))


# ------------------------------------------------------------------ placement
def test_items_go_on_their_team_rows() -> None:
    items = items_after(dwarf=[pick(1, 1), pick(2, 2), pick(3, 3)],
                        magician=[pick(7, 7), pick(8, 8), pick(9, 9)],
                        werewolf=[pick(4, 4, "L", "L"), pick(5, 5, "R", "L"),
                                  pick(6, 6, "R", "L")])
    assert items["mines"] == [1, 2, 3, 4]              # communal: average 2 -> 4
    assert items["portals"] == [6, 7, 8, 9]            # communal: average 8 -> 6
    assert items["fears"] == {3: "L", 4: "L", 5: "R", 6: "R"}  # 3 and 7 tie -> 3


def test_same_slot_duplicates_make_one_item() -> None:
    items = items_after(dwarf=[pick(4, 4)] * 3, magician=[pick(6, 1), pick(6, 1), pick(2, 1)])
    assert items["mines"] == [3, 4]  # 4 once, the communal one beside it (tie -> lower)
    assert items["portals"] == [1, 2, 6]


def test_same_slot_same_direction_fears_make_one_marker() -> None:
    items = items_after(werewolf=[pick(5, 9, "L", "R")] * 3)
    assert items["fears"] == {5: "L", 9: "R"}
    assert items["failed_fears"] == []


def test_opposite_fears_on_one_slot_both_fail() -> None:
    items = items_after(werewolf=[pick(3, 9, "L", "L"), pick(3, 9, "R", "L"),
                                  pick(6, 9, "R", "L")])
    assert items["fears"] == {6: "R", 9: "L"}
    assert items["failed_fears"] == [3]


def test_any_disagreement_fails_every_marker_on_the_slot() -> None:
    items = items_after(werewolf=[pick(3, 9, "L", "R"), pick(3, 9, "L", "R"),
                                  pick(3, 9, "R", "R")])
    assert items["fears"] == {9: "R"}
    assert items["failed_fears"] == [3]


def test_failed_slot_stays_empty_for_the_communal_marker() -> None:
    items = items_after(werewolf=[pick(5, 5, "L", "R"), pick(5, 5, "R", "R"),
                                  pick(1, 5, "R", "R")])
    assert items["fears"] == {1: "R", 5: "R"}
    assert items["communal"]["fear"] == 5


@pytest.mark.parametrize(("dwarves", "communal"), [
    ([pick(9, 2), pick(9, 3), pick(9, 7)], 4),        # average 4, empty
    ([pick(4, 4), pick(5, 5), pick(6, 6)], 3),        # 5 taken, 4 and 6 too: 3 or 7 -> 3
    ([pick(5, 4), pick(5, 5), pick(5, 6)], 4),        # 4 and 6 tie -> lower slot
    ([pick(1, 1), pick(2, 1), pick(3, 2)], 4),        # only empty slots count
])
def test_communal_mine_nearest_the_average(dwarves, communal: int) -> None:
    items = items_after(dwarf=dwarves)
    assert items["communal"]["mine"] == communal
    assert communal in items["mines"]


def test_each_team_places_its_own_communal_item() -> None:
    items = items_after(dwarf=[pick(1, 2)] * 3, magician=[pick(1, 8)] * 3,
                        werewolf=[pick(1, 5, "L", "L")] * 3)
    assert items["communal"] == {"mine": 2, "portal": 8, "fear": 5}


@pytest.mark.parametrize(("votes", "direction"), [
    (["L", "L", "R"], "L"), (["R", "L", "R"], "R"), (["R", "R", "R"], "R"),
])
def test_communal_fear_points_the_majority_way(votes: list[str], direction: str) -> None:
    items = items_after(werewolf=[pick(2, 8, "L", vote) for vote in votes])
    assert items["communal_direction"] == direction
    assert items["fears"][8] == direction


# -------------------------------------------------- the worked example, played
# The chosen slots of the example board; each team's communal item lands on
# the remaining slot (mine 5, portal 6, fear 5 pointing left by majority).
EXAMPLE_PICKS = {
    "dwarf": [pick(1, 5), pick(3, 5), pick(8, 5)],
    "magician": [pick(2, 6), pick(4, 6), pick(9, 6)],
    "werewolf": [pick(2, 5, "L", "L"), pick(4, 5, "R", "L"), pick(7, 5, "R", "R")],
}


def example_match(seed: int = 3) -> Match:
    match = new_match(seed=seed, trade_rounds=0)
    choose_all(match, **EXAMPLE_PICKS)
    return match


def test_worked_example_played_through_the_controller() -> None:
    match = example_match()
    items = match.view(None)["items"]
    assert items["mines"] == sorted(EXAMPLE_MINES)
    assert items["portals"] == sorted(EXAMPLE_PORTALS)
    assert items["fears"] == EXAMPLE_FEARS
    assert items["communal"] == {"mine": 5, "portal": 6, "fear": 5}
    finals = [e["final"] for e in match.view(None)["seats"]]
    assert finals == [EXAMPLE_FINAL[start] for start in starts(match)]
    assert finals[starts(match).index(1)] == 7


# ---------------------------------------------------------------- scoring
def check_scoring(match: Match) -> dict[str, Any]:
    view = match.view(None)
    entries = view["seats"]
    scores = [TABLES[e["team"]][e["final"]] for e in entries]
    assert [e["score"] for e in entries] == scores
    items = view["items"]
    moved = resolve_expedition(set(items["mines"]), set(items["portals"]), items["fears"])
    assert [e["final"] for e in entries] == [moved[e["start"]] for e in entries]
    return {"scores": scores, "teams": [e["team"] for e in entries]}


@pytest.mark.parametrize("seed", range(12))
def test_scores_tokens_and_garnets(seed: int) -> None:
    match = new_match(seed=seed, trade_rounds=0)
    random_choices(match, Rng(seed))
    outcome = check_scoring(match)
    view = match.view(None)
    winners = {}
    for team in TEAMS:
        team_seats = [s for s in range(9) if outcome["teams"][s] == team]
        winners[team] = max(team_seats, key=lambda s: outcome["scores"][s])
    assert sorted(winners.values()) == view["vote"]["voters"]
    finish_votes(match)
    result = match.result()
    assert result["winners"] == [winners[t] for t in TEAMS]
    assert result["tokens_of_life"] == [int(s in winners.values()) for s in range(9)]
    assert result["garnets"] == [int(s in winners.values()) + (outcome["scores"][s] == 9)
                                 for s in range(9)]
    low = min(outcome["scores"])
    assert outcome["scores"][result["elimination_candidate"]] == low


def finish_votes(match: Match, candidate_index: int = 0) -> None:
    while match.to_act():
        voter = match.to_act()[0]
        match.act(voter, {"type": "vote", "candidate": match.view(None)["vote"]["tied"][
            candidate_index]})


def test_a_nine_earns_a_bonus_garnet() -> None:
    match = example_match()
    finish_votes(match)
    result = match.result()
    nines = [s for s in range(9) if result["scores"][s] == 9]
    assert nines, "the scripted example should give someone 9 points"
    for seat in nines:
        assert result["garnets"][seat] == 2
        assert result["tokens_of_life"][seat] == 1
    assert sum(result["tokens_of_life"]) == 3
    assert sum(result["garnets"]) == 3 + len(nines)


def test_unique_lowest_score_is_the_candidate_without_a_vote() -> None:
    for seed in range(50):
        match = new_match(seed=seed, trade_rounds=0)
        random_choices(match, Rng(seed))
        if match.is_over():
            break
    else:
        pytest.fail("no seed in 0..49 gave a unique lowest score")
    result = match.result()
    low = min(result["scores"])
    assert result["scores"].count(low) == 1
    assert result["elimination_candidate"] == result["scores"].index(low)
    assert result["votes"] == {} and result["tie_break"] is None


# ------------------------------------------------------------------ tie vote
def tied_match(at_least: int) -> tuple[Match, list[dict]]:
    """A match waiting for the elimination vote with ``at_least`` seats tied."""
    for seed in range(400):
        match = new_match(seed=seed, trade_rounds=0)
        random_choices(match, Rng(seed))
        view = match.view(None)
        if view["phase"] == "vote" and len(view["vote"]["tied"]) >= at_least:
            return match, list(match.actions)
    pytest.fail(f"no seed in 0..399 gave {at_least} tied seats")


@pytest.fixture(scope="module")
def three_way() -> tuple[int, list[dict]]:
    match, actions = tied_match(3)
    return match.seed, actions


def replay(seed: int, actions: list[dict], **options: Any) -> Match:
    match = new_match(seed=seed, **(options or {"trade_rounds": 0}))
    for record in actions:
        match.act(record["seat"], record["action"])
    return match


def test_tie_needs_the_winners_votes() -> None:
    match, _ = tied_match(2)
    view = match.view(None)
    scores = [e["score"] for e in view["seats"]]
    assert [s for s in range(9) if scores[s] == min(scores)] == view["vote"]["tied"]
    assert sorted(match.to_act()) == view["vote"]["voters"]
    assert len(view["vote"]["voters"]) == 3
    assert match.result() is None


def test_vote_refuses_a_seat_that_is_not_tied() -> None:
    match, _ = tied_match(2)
    tied = match.view(None)["vote"]["tied"]
    outsider = next(s for s in range(9) if s not in tied)
    before = match.snapshot()
    with pytest.raises(IllegalAction, match="Vote for one of the tied players"):
        match.act(match.to_act()[0], {"type": "vote", "candidate": outsider})
    assert match.snapshot() == before


def test_tie_vote_majority_names_the_candidate() -> None:
    match, _ = tied_match(2)
    tied = match.view(None)["vote"]["tied"]
    voters = list(match.to_act())
    for voter, candidate in zip(voters, [tied[1], tied[0], tied[1]]):
        match.act(voter, {"type": "vote", "candidate": candidate})
    result = match.result()
    assert result["elimination_candidate"] == tied[1]
    assert result["votes"] == dict(zip(voters, [tied[1], tied[0], tied[1]]))
    assert result["tie_break"] is None


def split_vote(seed: int, actions: list[dict]) -> tuple[Match, int]:
    match = replay(seed, actions)
    tied = match.view(None)["vote"]["tied"][:3]
    voters = list(match.to_act())
    for voter, candidate in zip(voters[:2], tied[:2]):
        match.act(voter, {"type": "vote", "candidate": candidate})
    state = match.rng.state
    expected = Rng(seed, state=state).choice(sorted(tied))
    match.act(voters[2], {"type": "vote", "candidate": tied[2]})
    assert match.rng.state != state, "the split must be decided by the match's generator"
    return match, expected


def test_three_way_split_is_decided_by_the_seed(three_way) -> None:
    match, expected = split_vote(*three_way)
    result = match.result()
    assert result["tie_break"] == sorted(match.view(None)["vote"]["tied"][:3])
    assert result["elimination_candidate"] == expected
    again, _ = split_vote(*three_way)
    assert again.result() == result
    assert again.snapshot() == match.snapshot()


def test_split_draw_cannot_be_undone(three_way) -> None:
    match, _ = split_vote(*three_way)
    with pytest.raises(IllegalAction, match="can't be undone"):
        match.undo()


# ---------------------------------------------------------------------- views
HIDDEN_KEYS = ("slot", "communal", "direction")


def assert_view_hides_secrets(match: Match, viewer: int | None) -> None:
    view = match.view(viewer)
    for entry in view["seats"]:
        if entry["seat"] == viewer:
            assert entry["team"] == match.controller.teams[viewer]
        else:
            assert entry["team"] is None, f"seat {viewer} sees seat {entry['seat']}'s team"
    own = match.controller.choices.get(viewer) if viewer is not None else None
    assert view["choice"] == own
    for path, value in walk(view):
        if isinstance(value, dict) and any(key in value for key in HIDDEN_KEYS):
            assert path == ("choice",), f"a choice leaks at {path}"
        if value in TEAMS:
            assert path == ("seats", viewer, "team"), f"a team leaks at {path}"
    text = yaml.safe_dump(view).lower() + yaml.safe_dump(match.log_for(viewer)).lower()
    words = sum(text.count(team) for team in TEAMS)
    assert words == (0 if viewer is None else 1)


def secret_positions(match: Match) -> None:
    """Check every viewer (and the public) at the current point."""
    for viewer in [None, *range(9)]:
        assert_view_hides_secrets(match, viewer)


def test_views_hide_teams_during_trading() -> None:
    match = new_match()
    secret_positions(match)
    match.act(0, {"type": "propose", "to": 2})
    secret_positions(match)
    match.act(2, {"type": "accept"})
    secret_positions(match)


def test_views_hide_choices_until_the_reveal() -> None:
    match = new_match(seed=5, trade_rounds=0)
    secret_positions(match)
    for seat in range(8):
        action = pick(seat + 1, 9 - seat)
        if team_of(match, seat) == "werewolf":
            action.update(direction="L", vote="R")
        match.act(seat, action)
        secret_positions(match)
    assert match.view(None)["items"] is None


def test_after_the_reveal_everything_is_shown() -> None:
    match = new_match(seed=5, trade_rounds=0)
    random_choices(match, Rng(5))
    teams = match.controller.teams
    for viewer in [None, *range(9)]:
        view = match.view(viewer)
        assert [e["team"] for e in view["seats"]] == teams
        assert all(e["final"] in POSITIONS and e["score"] is not None for e in view["seats"])
        assert view["items"] is not None
    reveal = [ev for ev in match.log_for(None) if ev["type"] == "reveal"]
    assert reveal and reveal[0]["teams"] == teams and reveals(reveal[0])


# ------------------------------------------------------------- rules document
SECTIONS = ["Overview", "Setup", "Trading", "Secret choices", "Placing the items",
            "Climbing", "Scoring", "Elimination Candidate", "Playing on this computer",
            "Rulings"]


def test_rules_document_sections_and_rulings() -> None:
    folder = Path(expedition_package.__file__).parent
    text = (folder / ExpeditionController.rules_document).read_text(encoding="utf-8")
    assert [line[3:] for line in text.splitlines() if line.startswith("## ")] == SECTIONS
    rulings = text.split("## Rulings", 1)[1]
    numbers = [int(line.split(".")[0]) for line in rulings.splitlines()
               if line[:1].isdigit()]
    assert numbers == list(range(1, 27))
    assert "<" not in text and "|" not in text  # no HTML, no tables
