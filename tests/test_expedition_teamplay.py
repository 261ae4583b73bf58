"""Fantasy Expedition's team plans against people: the plan also counts the others' points.

A team of three Normal computers shown by its trading plays one plan for its row
(``bot._team_plan``).  When the other six are all people, the plan is chosen for the team's
points less half the others' points (``bot.PUSH``): the same row moves the others too.
Against computers nothing changes (the all-computer balance stays as it was).
"""

from __future__ import annotations

from game.fantasy_expedition import bot
from game.fantasy_expedition.balance import play
from game.fantasy_expedition.kernel import POSITIONS

DWARVES = (1, 4, 7)
PEOPLE = tuple((p, False, None) for p in POSITIONS if p not in DWARVES)
COMPUTERS = tuple((p, True, None) for p in POSITIONS if p not in DWARVES)


def test_against_people_the_plan_counts_the_others_points():
    alone, alone_value = bot._team_plan("dwarf", DWARVES, PEOPLE, 0.0)
    pushed, pushed_value = bot._team_plan("dwarf", DWARVES, PEOPLE)
    assert bot.PUSH == 0.5
    # Dwarves on 1, 4 and 7 against six people: the plan for their own points alone puts
    # all three items on slot 1; counting the others' points spreads them over 1, 6 and 7.
    assert [part[0] for part in alone] == [1, 1, 1]
    assert [part[0] for part in pushed] == [1, 6, 7]
    assert all(part[1] == 8 for part in alone + pushed)  # the communal slot, all alike
    # The value returned is the team's own points: a little less than the selfish plan's.
    assert pushed_value < alone_value
    assert pushed == bot._team_plan("dwarf", DWARVES, PEOPLE, bot.PUSH)[0]


def test_against_computers_the_plan_is_for_the_team_alone():
    assert bot._team_plan("dwarf", DWARVES, COMPUTERS) == \
        bot._team_plan("dwarf", DWARVES, COMPUTERS, 0.0)


def _dwarf_game(seed: int) -> list[int]:
    bot._team_plan.cache_clear()
    bot._shown_plans.cache_clear()
    game, _counts = play(seed, {"dwarf"})
    assert all(game.seats[s]["kind"] == ("bot" if game.teams[s] == "dwarf" else "human")
               for s in range(9))
    return list(game.scores)


def test_a_seeded_game_against_people_changes_with_the_pushed_plan(monkeypatch):
    # Seed 31,000,018 (the tuning block): Dwarves P1, P2 and P5 against six random
    # players.  Counting the others' points, the Dwarves' row leaves two of the others
    # lower: the Dwarves' lead over them grows from +1.67 to +3.00 a player.
    pushed = _dwarf_game(31_000_018)
    monkeypatch.setattr(bot, "PUSH", 0.0)
    selfish = _dwarf_game(31_000_018)
    monkeypatch.undo()
    bot._team_plan.cache_clear()
    bot._shown_plans.cache_clear()
    assert pushed == [9, 8, 6, 4, 4, 2, 3, 4, 5]
    assert selfish == [9, 8, 6, 4, 5, 8, 3, 4, 9]
