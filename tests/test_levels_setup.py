"""The setup screen's computer levels (issue 17, section 1): every computer seat is Easy,
Normal or Hard (Normal unless changed); the level reaches the match and its save; the seat
rows fit and do not overlap at 960x600, 1280x720 and 1920x1080."""

from __future__ import annotations

import pytest

from game.engine import Match
from game.engine.registry import controller_class, game_ids
from game.ui.scenes.play import PlayScene
from game.engine.bots import LEVEL_NAMES
from game.ui.scenes.setup import SetupScene
from game.ui.widgets import font

from test_layout_sizes import SIZES, widget_problems
from uidriver import Driver

LEVEL_TEXTS = set(LEVEL_NAMES.values())


def setup(size=(1280, 720), game: str | None = None) -> Driver:
    d = Driver(size=size)
    d.press("New game")
    assert d.scene_name == "SetupScene"
    if game is not None:
        for _ in range(len(game_ids())):
            if d.top.game_id == game:
                break
            d.press(next(t for t in d.labels() if t.startswith("Game: ")))
        assert d.top.game_id == game
    return d


def level_buttons(d: Driver) -> list:
    return [w for w, _ in d.top.controls.items if getattr(w, "text", None) in LEVEL_TEXTS]


def test_every_computer_seat_has_a_level_that_starts_at_normal_and_cycles():
    d = setup()
    scene: SetupScene = d.top
    computers = [i for i, s in enumerate(scene.seats) if s["kind"] == "bot"]
    assert computers and len(level_buttons(d)) == len(computers)
    assert all(b.text == "Normal" for b in level_buttons(d))
    d.press("Normal", 0)
    assert scene.seats[computers[0]]["level"] == "hard"
    assert [b.text for b in level_buttons(d)][0] == "Hard"
    d.press("Hard", 0)
    assert scene.seats[computers[0]]["level"] == "easy"
    d.press("Easy", 0)
    assert scene.seats[computers[0]]["level"] == "normal"


def test_a_person_has_no_level_and_a_computer_gets_one_back():
    d = setup()
    scene: SetupScene = d.top
    first_bot = next(i for i, s in enumerate(scene.seats) if s["kind"] == "bot")
    count = len(level_buttons(d))
    d.press("Normal", 0)                      # that computer: Hard
    d.press("Computer", 0)                    # ...becomes a person: no level button
    assert scene.seats[first_bot]["kind"] == "human"
    assert len(level_buttons(d)) == count - 1
    people = [i for i, s in enumerate(scene.seats) if s["kind"] == "human"]
    d.press("Person", people.index(first_bot))  # a computer again: still Hard
    assert scene.seats[first_bot]["kind"] == "bot"
    assert level_buttons(d)[0].text == "Hard"


def test_the_levels_reach_the_match_and_its_save(tmp_path):
    d = setup(game="odysseus")
    scene: SetupScene = d.top
    bots = [i for i, s in enumerate(scene.seats) if s["kind"] == "bot"]
    assert len(bots) >= 2
    d.press("Normal", 0)                      # first computer: Hard
    d.press("Normal", 0)                      # the next one (the first is Hard now): Hard
    d.press("Hard", 1)                        # ... and that one on to Easy
    d.press("Start")
    play = d.app.stack.find(PlayScene)
    assert play is not None
    seats = play.match.seats
    assert seats[bots[0]]["level"] == "hard" and seats[bots[1]]["level"] == "easy"
    assert all(seats[i]["level"] == "normal" for i in bots[2:])
    assert all("level" not in s for s in seats if s["kind"] == "human")
    path = tmp_path / "levels.yaml"
    play.match.save(path)
    again = Match.load(path)
    assert [s.get("level") for s in again.seats] == [s.get("level") for s in seats]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", game_ids())
def test_the_seat_rows_fit_at_every_size(size, game):
    d = setup(size=size, game=game)
    scene: SetupScene = d.top
    cls = controller_class(game)
    while len(scene.seats) < cls.max_seats:   # the tallest list of seats
        d.press("+")
    for index, seat in enumerate(scene.seats):  # every seat a computer with a level
        if seat["kind"] == "human":
            d.press("Person", 0)
    d.pump(2)
    buttons = level_buttons(d)
    assert len(buttons) == len(scene.seats)
    assert widget_problems(d.app) == []
    for button in buttons:                    # the level names are readable in their buttons
        assert font(16).size(button.text)[0] <= button.rect.width - 12
        assert button.rect.height >= 30
    for entry in scene.name_entries:
        assert entry.rect.width >= 120
