"""The screen is always live (issue 10, section 2): with computers playing and NOBODY
touching anything, the real loop draws the person's controls as soon as the board has
caught up, and then goes idle.

The old loop drew only while something moved or just after input, so after a computer's
turn the panel said "Showing what happened..." until the mouse moved.  Here the computers
wait longer than the loop's settle time after input, so only the program's own requests
for frames can bring the controls on screen.
"""

from __future__ import annotations


import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui import app as app_module
from game.ui.scenes.play import PlayScene

from realloop import RealLoop

NAMES = ["Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell"]
#: The loop's settle time after input or a new scene is cut short, so that only the
#: program's own requests for frames can bring the controls on screen (the computers wait
#: longer than that).
SETTLE = 0.05
BOT_DELAY = 0.3


@pytest.fixture(autouse=True)
def short_settle(monkeypatch):
    monkeypatch.setattr(app_module, "SETTLE_SECONDS", SETTLE)
ACTION_ROW = {"Menu", "Undo", "Hint", "Step: on", "Step: off", "Next step"}


def seats_for(game_id: str) -> list[dict[str, str]]:
    """Computers first, then one person (two for Fantasy Racing, as in the report)."""
    count = {"fantasy_expedition": 9, "fantasy_racing": 3, "mothership": 2, "odysseus": 3,
             "monster_fandango": 2}[game_id]
    seats = [{"name": NAMES[i], "kind": "bot"} for i in range(count)]
    seats[-1]["kind"] = "human"
    return seats


def ready(play: PlayScene) -> bool:
    """A person is at the screen to act and the board has shown everything."""
    match = play.match
    return (play.app.stack.top is play and play.viewer is not None
            and match.seats[play.viewer]["kind"] == "human" and play.viewer in match.to_act()
            and not play.showing and not play.queue and play.busy_for is None)


def settled(play: PlayScene) -> bool:
    """Ready, right after a computer's action."""
    actions = play.match.actions
    return ready(play) and bool(actions) and play.match.seats[actions[-1]["seat"]]["kind"] == "bot"


def why_drawing(loop: RealLoop, play: PlayScene) -> dict:
    app = loop.app
    return {"dirty": app.dirty, "asked_for": app.redraw_until - loop.now(),
            "moving": app._was_moving, "widgets": app._ui_pending(),
            "flash": dict(play.screen.flash), "bot_wait": play.bot_wait,
            "showing": play.showing, "toasts": app.toasts, "top": type(app.stack.top).__name__}


@pytest.mark.parametrize("game_id", ["fantasy_racing", "monster_fandango", "odysseus",
                                     "mothership", "fantasy_expedition"])
def test_the_persons_controls_are_drawn_after_the_computers_play(game_id, monkeypatch):
    built = {"at": 0.0}
    original_build = PlayScene.build

    def build(self):
        original_build(self)
        built["at"] = loop.now()

    monkeypatch.setattr(PlayScene, "build", build)
    loop = RealLoop(animation="fast", bot_delay=BOT_DELAY)
    options = {"trade_rounds": 0} if game_id == "fantasy_expedition" else None
    match = Match.new(game_id, seats_for(game_id), seed=7, options=options)
    play = loop.app.push(PlayScene(loop.app, match))
    for _ in range(4):  # the person may move first: they play until a computer has moved
        alone = lambda: ready(play) and match.to_act() == [play.viewer]  # noqa: E731
        assert loop.run_until(lambda: settled(play) or alone(), seconds=60), (
            "the person never got a turn")
        if settled(play):
            break
        play.perform(play.viewer, choose_action(match, play.viewer))
    assert settled(play)
    # No input at all: the loop must bring the controls on screen by itself, then go idle
    # (highlights of the computer's move may fade for a moment first).
    assert loop.run_until(lambda: loop.now() - loop.app.drawn_at > 0.4, seconds=15), (
        f"an idle screen keeps drawing: {why_drawing(loop, play)}")
    assert settled(play)
    actions = [w.text for w, _ in play.controls.items if w.text not in ACTION_ROW]
    assert actions, "the person has controls to act with"
    assert loop.app.drawn_at >= built["at"], "the panel was rebuilt after the last frame"
    # What the window shows is what a fresh frame would show: nothing waits for the mouse.
    shown = pygame.image.tobytes(loop.app.screen, "RGB")
    loop.app.draw()
    assert pygame.image.tobytes(loop.app.screen, "RGB") == shown


def test_after_a_move_the_next_persons_panel_is_drawn_at_once():
    """Fantasy Racing, two people and a computer (seed 7): after a person's move the panel
    shows the next person, with no input, as soon as the board has caught up."""
    loop = RealLoop(animation="fast", bot_delay=BOT_DELAY)
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"},
             {"name": "Tess", "kind": "bot"}]
    match = Match.new("fantasy_racing", seats, seed=7)
    play = loop.app.push(PlayScene(loop.app, match))
    for _ in range(5):
        assert loop.run_until(lambda: ready(play), seconds=60)
        loop.run(0.3)  # longer than the settle time
        seat = play.viewer
        shown = pygame.image.tobytes(loop.app.screen, "RGB")
        loop.app.draw()
        assert pygame.image.tobytes(loop.app.screen, "RGB") == shown, (
            f"the window does not show {match.seats[seat]['name']}'s turn")
        play.perform(seat, choose_action(match, seat))
        if match.is_over():
            break


def test_a_message_goes_away_by_itself_and_the_screen_then_sleeps():
    loop = RealLoop()
    loop.run(SETTLE + 0.1)
    loop.app.toast("Saved to x.yaml.", seconds=0.3)
    shown_at = loop.now()
    loop.run(0.6)
    assert not loop.app.toasts
    assert loop.app.drawn_at >= shown_at + 0.3, "no frame took the message away"
    frames = loop.app.frames
    loop.run(0.3)
    assert loop.app.frames == frames
