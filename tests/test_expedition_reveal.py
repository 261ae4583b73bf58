"""Fantasy Expedition's reveal explains itself: who chose each item, failed markers and
why, each team's communal numbers, average, slot and votes, plain log sentences with the
cause first, and what the screen draws from them (the issue's nine-person seed 11 game)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from game.engine import Match
from game.fantasy_expedition.kernel import communal_choice, fear_groups, fear_moves
from game.fantasy_expedition.rules import CORE_ITEMS

NAMES = ["Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell"]
GAME = "fantasy_expedition"


def people(seed: int = 11, **options: Any) -> Match:
    return Match.new(GAME, [{"name": n, "kind": "human"} for n in NAMES], seed=seed,
                     options=options)


def choose(match: Match, plans: dict[str, list[tuple]]) -> None:
    """Every seat chooses: ``plans[team]`` in seat order, (slot, number[, dir, vote])."""
    left = {team: iter(plan) for team, plan in plans.items()}
    for seat in range(9):
        team = match.controller.teams[seat]
        slot, number, *ways = next(left[team])
        action = {"type": "choose", "slot": slot, "communal": number}
        if ways:
            action.update(direction=ways[0], vote=ways[1])
        match.act(seat, action)


def issue_game() -> Match:
    """The issue's repro: everyone passes, Dwarves and Magicians choose slot 9 and number
    9, the Werewolves (4, L, 4, L), (4, R, 4, L), (6, R, 4, L)."""
    match = people()
    while match.view(None)["phase"] == "trading":
        match.act(match.to_act()[0], {"type": "pass"})
    choose(match, {"dwarf": [(9, 9)] * 3, "magician": [(9, 9)] * 3,
                   "werewolf": [(4, 4, "L", "L"), (4, 4, "R", "L"), (6, 4, "R", "L")]})
    return match


def seats_of(match: Match, team: str) -> list[int]:
    return [s for s in range(9) if match.controller.teams[s] == team]


# ------------------------------------------------------------------ the view's data
def test_issue_game_items_name_their_owners_and_failures() -> None:
    match = issue_game()
    items = match.view(None)["items"]
    dwarves, magicians, wolves = (seats_of(match, t) for t in ("dwarf", "magician", "werewolf"))
    assert items["fears"] == {4: "L", 6: "R"} and items["failed_fears"] == [4]
    # Merged duplicates: one Mine and one Portal at 9, each with all three owners.
    assert items["owners"]["mine"] == {9: dwarves}
    assert items["owners"]["portal"] == {9: magicians}
    # The failed markers: both owners and their directions; only the third wolf owns 6.
    assert items["failed_markers"] == {4: [[wolves[0], "L"], [wolves[1], "R"]]}
    assert items["owners"]["fear"] == {6: [wolves[2]]}
    fear = items["communal_info"]["fear"]
    assert fear["numbers"] == [[w, 4] for w in wolves] and fear["average"] == 4
    assert fear["slot"] == 4 and fear["failed_here"] and fear["taken"] == []
    assert fear["votes"] == [[w, "L"] for w in wolves] and fear["direction"] == "L"
    mine = items["communal_info"]["mine"]
    assert (mine["slot"], mine["taken"], mine["tied"], mine["average"]) == (8, [9], None, 9)
    assert "Slot 9 already has a Mine" in mine["why"] and "8" in mine["why"]
    assert "had failed" in fear["why"] and "Lin left, Rafe left, Nell left" in fear["why"]
    # Ruling 25: the communal marker on the failed slot works like any other.
    assert any(ev["type"] == "move" and ev["origin"] == 4 and ev["target"] == 3
               for ev in match.log)


def test_every_seat_sees_the_same_explanation_after_the_reveal() -> None:
    match = issue_game()
    public = match.view(None)["items"]
    assert all(match.view(seat)["items"] == public for seat in range(9))


def test_snapshot_keeps_only_the_placement() -> None:
    """Saves compare snapshots: the explanation is not part of the state they check."""
    match = issue_game()
    assert set(match.snapshot()["state"]["items"]) == set(CORE_ITEMS)


@pytest.mark.parametrize(("occupied", "numbers", "slot", "taken", "tied"), [
    ({5}, [4, 5, 6], 4, [5], 6),
    (set(), [4, 5], 4, [], 5),
    (set(), [4, 5, 5], 5, [], None),
    ({9}, [9, 9, 9], 8, [9], None),
    ({4, 5, 6}, [5, 5, 5], 3, [4, 5, 6], 7),
])
def test_communal_choice_explains_the_slot(occupied, numbers, slot, taken, tied) -> None:
    why = communal_choice(occupied, numbers)
    assert (why["slot"], why["taken"], why["tied"]) == (slot, taken, tied)
    assert why["average"] == sum(numbers) / len(numbers)


def test_tie_is_explained_in_the_log() -> None:
    match = people(seed=3, trade_rounds=0)
    choose(match, {"dwarf": [(5, 4), (5, 5), (1, 6)], "magician": [(9, 9)] * 3,
                   "werewolf": [(2, 2, "L", "L")] * 3})
    text = next(ev["text"] for ev in match.log
                if ev["type"] == "communal" and ev["row"] == "mine")
    assert "Slot 5 already has a Mine" in text
    assert "4 and 6, equally near; the lower one, 4, gets the communal Mine" in text


# ----------------------------------------------------------------------- the log
def fear_texts(fears: dict[int, str]) -> list[str]:
    """The fear row's log lines for a board with only these markers (no mines, portals)."""
    controller = people(trade_rounds=0).controller
    at = {p: p - 1 for p in range(1, 10)}  # position p holds seat p - 1
    return [ev["text"] for ev in controller._fear_events(at, fears)]


def test_a_plain_swap_says_swaps_with() -> None:
    texts = fear_texts({7: "R"})
    assert texts == ["The Fear Marker at 7 points right: Ivy swaps with Oskar, moving to 8.",
                     "Oskar swaps with Ivy, moving to 7."]
    assert not any("far end" in t for t in texts)


def test_facing_markers_swap() -> None:
    texts = fear_texts({4: "R", 5: "L"})
    assert texts[0].startswith("The Fear Markers at 4 and 5 face each other: Ugo swaps with Lin")
    assert len(texts) == 2 and "far end" not in " ".join(texts)


def test_a_chain_lists_its_markers_first_then_the_far_end() -> None:
    texts = fear_texts({4: "L", 5: "L"})
    # Cause before effect: the climbers on the markers move first, then the one pointed at.
    assert texts == [
        "The Fear Markers at 4-5 point left in a chain: Ugo moves left to 3.",
        "The Fear Markers at 4-5 point left in a chain: Lin moves left to 4.",
        "Tess, pointed at by the chain, goes to its far end, Position 5.",
    ]


def test_markers_that_move_nobody_say_why() -> None:
    texts = fear_texts({1: "R", 3: "L", 9: "R"})
    assert texts[2] == ("The Fear Marker at 3 points left at Position 2, whose climber has "
                        "already moved: nobody moves.")
    assert texts[3] == "The Fear Marker at 9 points right, off the board: nobody moves."


def test_fear_groups_agree_with_fear_moves() -> None:
    import itertools
    for cells in itertools.product((None, "L", "R"), repeat=5):
        fears = {p + 3: d for p, d in enumerate(cells) if d}
        moves = {}
        for group in fear_groups(fears):
            assert group["outcome"] in ("swap", "chain", "edge", "blocked")
            assert bool(group["moves"]) == (group["outcome"] in ("swap", "chain"))
            moves.update(group["moves"])
        assert moves == fear_moves(fears)


def test_mine_and_portal_lines_put_the_cause_first() -> None:
    match = issue_game()
    moves = [ev["text"] for ev in match.log if ev["type"] == "move"]
    assert "Nell steps on the Mine at 8, wraps round and tunnels left to the Mine at 9." in moves
    assert "Tess steps on the Mine at 9 and tunnels left to the Mine at 8." in moves
    assert "Tess steps into the Portal at 8 and comes out of the Portal at 9." in moves
    placed = [ev["text"] for ev in match.log if ev["type"] == "place"]
    assert placed[0] == "Mines: Tess, Ugo and Oskar at 9."
    assert "Lin (left) and Rafe (right) chose 4 but pointed different ways" in placed[2]


def test_every_move_event_is_still_one_seat_one_step() -> None:
    """The screen animates ``move`` events: each names a seat, where from and where to."""
    match = issue_game()
    final = {s: match.controller.start[s] for s in range(9)}
    for ev in match.log:
        if ev["type"] == "move":
            assert final[ev["seat"]] == ev["origin"]
            final[ev["seat"]] = ev["target"]
    assert [final[s] for s in range(9)] == match.result()["final"]


# -------------------------------------------------------------------- the screen
@pytest.fixture
def screen_of():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from uidriver import Driver
    from game.ui.scenes.play import PlayScene

    def make(match: Match, viewer: int | None = None):
        d = Driver()
        d.app.settings.handover = False
        play = d.app.push(PlayScene(d.app, match))
        play.viewer = viewer
        d.pump(2)
        return d, play
    return make


def test_active_communal_marker_on_a_failed_slot_is_not_crossed_out(screen_of) -> None:
    match = issue_game()
    _d, play = screen_of(match)
    screen, view = play.screen, play.view()
    assert screen.failed_marks(view) == {4: "corner"}
    tip = screen.hover_text("fear-4", view)
    assert "Fear Marker pointing left" in tip and "communal" in tip
    assert "Failed here: Lin (left) and Rafe (right)" in tip
    assert "Lin 4, Rafe 4, Nell 4, average 4" in tip
    assert "chosen by Tess and Ugo and Oskar" in screen.hover_text("mine-9", view)


def test_a_failed_slot_left_empty_is_crossed_out(screen_of) -> None:
    match = people(seed=11, trade_rounds=0)
    choose(match, {"dwarf": [(9, 9)] * 3, "magician": [(9, 9)] * 3,
                   "werewolf": [(4, 7, "L", "L"), (4, 7, "R", "L"), (6, 7, "R", "L")]})
    _d, play = screen_of(match)
    assert play.screen.failed_marks(play.view()) == {4: "cross"}


def test_panel_lists_each_teams_communal_numbers_and_votes(screen_of) -> None:
    match = issue_game()
    _d, play = screen_of(match)
    text = " ".join(play.screen.panel_text(play.view()))
    assert "Dwarves: Tess 9, Ugo 9, Oskar 9, average 9: Mine at 8 (9 taken" in text
    assert "Werewolves: Lin 4, Rafe 4, Nell 4, average 4: Fear Marker at 4 pointing left " \
           "(votes L L L)" in text
    assert "Every team and choice is now shown" not in text


def test_step_mode_keeps_shared_pawns_apart_and_arrows_in_view(screen_of) -> None:
    """Between the moves of a row two pawns share a position: they stand side by side;
    on the Fear row every marker under a pawn is drawn again as a badge."""
    full = issue_game()
    match = Match.new(GAME, full.seats, seed=11)
    for record in full.actions[:-1]:
        match.act(record["seat"], record["action"])
    d, play = screen_of(match, full.actions[-1]["seat"])
    play.step_mode = True
    play.perform(full.actions[-1]["seat"], full.actions[-1]["action"])
    screen, seen_shared, seen_fear = play.screen, False, False
    for _ in range(400):
        d.pump()
        view = play.view()
        points = screen.pawn_points(play.transform(), view, 40)
        for group in screen.sharing(view).values():
            xs = {round(points[s][0]) for s in group}
            assert len(xs) == len(group), "pawns on one position must not cover each other"
            seen_shared |= len(group) > 1
        on_fear = {index for (row, index) in screen.sharing(view) if row == "fear"}
        if on_fear and "fear" in screen.rows_shown:
            badges = {index for row, index, _n in screen.item_badges(view) if row == "fear"}
            assert badges == set(view["items"]["fears"]) & on_fear
            seen_fear |= bool(badges)
        if play.awaiting_step:
            play.next_step()
        if not play.queue and play.busy_for is None and match.is_over():
            break
    assert seen_shared and seen_fear
