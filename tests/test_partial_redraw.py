"""Only what changed is presented, and what is presented is the whole truth.

The loop hands ``pygame.display.update`` only the parts of the window that changed
(game/ui/frames.py).  Here the presenter's update and flip copy those parts into a shadow
picture -- what a person would see on the monitor -- and after every frame of scripted
moves in each game (the benchmark's, game/bench.py) the shadow must equal, pixel for
pixel, a full redraw of the same frame made without the play scene's cached pictures.  A toast, a tooltip and a hovered
button must reach the shadow too.
"""

from __future__ import annotations

import time

import pygame
import pytest

from game.engine.registry import game_ids
from game.ui.frames import Presenter

SIZE = (1280, 720)


class Shadow:
    """What has been presented so far: the presented parts of the window, accumulated."""

    def __init__(self, app) -> None:
        self.app = app
        self.picture = pygame.Surface(app.screen.get_size())
        self.flips = 0
        self.updates = 0
        app.presenter = Presenter(update=self.update, flip=self.flip)

    def update(self, rects) -> None:
        self.updates += 1
        for rect in rects:
            self.picture.blit(self.app.screen, rect, rect)

    def flip(self) -> None:
        self.flips += 1
        self.picture.blit(self.app.screen, (0, 0))


def full_redraw(app) -> pygame.Surface:
    """The current frame drawn afresh: the play scene's backdrop is made again."""
    for scene in app.stack.scenes:
        if hasattr(scene, "_panel_picture"):
            scene._panel_picture = scene._board_picture = None
    fresh = pygame.Surface(app.screen.get_size())
    app.compose(fresh)
    return fresh


def differences(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect | None:
    """The box around the pixels where ``a`` and ``b`` differ (None: identical)."""
    if pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB"):
        return None
    mask = pygame.mask.from_threshold(a, (0, 0, 0), (1, 1, 1, 255), b)
    mask.invert()
    return mask.get_bounding_rects()[0] if mask.count() else pygame.Rect(0, 0, 0, 0)


def make_app(**settings):
    from game.ui.app import App
    from game.ui.settings import Settings
    app = App(settings=Settings(**settings), size=SIZE)
    app.to_menu()
    return app


class FixedClock:
    """Stands in for the loop's ``pygame.time.Clock``: every frame takes ``ms``, however
    slow the machine, so an animation always spans the same number of frames."""

    def __init__(self, ms: int = 16) -> None:
        self.ms = ms

    def tick(self, _fps: float = 0) -> int:
        return self.ms


def moving(scene) -> bool:
    return any(t.elapsed < t.duration for t in scene.screen.tweens.values())


@pytest.mark.parametrize("game_id", game_ids())
def test_an_animation_presented_in_parts_is_the_full_redraw(game_id):
    """Seeded moves are made one by one (events that move nothing cut short); after every
    frame with a piece in flight, the one after, and every eighth other frame, the
    presented picture is exactly a fresh full redraw.  Each frame advances the animations
    by a fixed 16 ms (not the wall clock), so a loaded machine sees the same frames."""
    from game.bench import scripted_match
    from game.ui.scenes.play import PlayScene
    app = make_app(animation="fast", handover=False, recap=False)
    app.fps = 0
    app.clock = FixedClock(16)
    shadow = Shadow(app)
    match, todo = scripted_match(game_id)
    scene = app.push(PlayScene(app, match))
    checked = partial = 0
    was_moving = False
    for _turn in range(20_000):  # a bound in loop turns, not in seconds
        if checked >= 12 or not todo:
            break
        if not moving(scene):
            if scene.busy_for:
                scene.busy_for = 0.0  # nothing in flight: on to the next event
            elif not scene.queue:
                seat, action = todo.pop(0)
                assert scene.perform(seat, action)
        frames = app.frames
        app.step([])
        assert app.stack.top is scene
        if app.frames == frames:
            continue
        now_moving = moving(scene)
        if now_moving:
            checked += 1
            if app.presenter.last and app.presenter.last[0].size != SIZE:
                partial += 1
        if now_moving or was_moving or app.frames % 8 == 0:
            wrong = differences(shadow.picture, full_redraw(app))
            assert wrong is None, f"frame {app.frames}: the window is stale at {wrong}"
        was_moving = now_moving
    assert checked >= 8, "too few frames with a piece in flight"
    assert partial >= 4, "the moving pieces were never presented alone"


@pytest.fixture
def person_app():
    """Fantasy Racing at a person's turn, settled, with a shadow of the window."""
    from game.bench import person_to_act
    from game.ui.scenes.play import PlayScene
    app = make_app(animation="off")
    scene = app.push(PlayScene(app, person_to_act("fantasy_racing")))
    for _ in range(5):
        app.step([])
    shadow = Shadow(app)
    app.touch()
    app.step([])  # the first frame: the whole window
    assert shadow.flips == 1
    app.touch()
    app.step([])  # a frame that changes nothing
    assert app.presenter.last == []
    return app, scene, shadow


def step_until_still(app, shadow, frames: int = 3) -> list[pygame.Rect]:
    """Draw a few frames; every one must leave the shadow equal to a fresh frame.  Returns
    all the rectangles presented."""
    sent = []
    for _ in range(frames):
        app.touch()
        app.step([])
        sent += app.presenter.last
        wrong = differences(shadow.picture, full_redraw(app))
        assert wrong is None, f"the window is stale at {wrong}"
    return sent


def covers(rects: list[pygame.Rect], area: pygame.Rect) -> bool:
    return any(r.contains(area) for r in rects)


def test_a_toast_is_presented_and_taken_away(person_app):
    app, _scene, shadow = person_app
    before = shadow.picture.copy()
    app.toast("Saved to x.yaml.", seconds=1.0)
    sent = step_until_still(app, shadow)
    box = pygame.Rect(0, 14, min(720, SIZE[0] - 40), 42)
    box.centerx = SIZE[0] // 2
    assert covers(sent, box.inflate(-4, -4)), sent
    assert sum(r.width * r.height for r in sent) < SIZE[0] * SIZE[1] // 3
    assert differences(before, shadow.picture) is not None
    time.sleep(1.05)
    step_until_still(app, shadow)
    assert differences(before, shadow.picture) is None, "the toast stayed on the window"


def test_a_board_tooltip_and_hover_ring_are_presented(person_app):
    app, scene, shadow = person_app
    cell = next(c for c in scene.screen.cells() if scene.screen.hover_text(c, scene.view()))
    x, y = scene.transform().to_screen(*scene.screen.cell_center(cell))
    before = shadow.picture.copy()
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y)), rel=(1, 1),
                                 buttons=(0, 0, 0))])
    assert scene.tooltip is not None and scene.tooltip.alive()
    sent = list(app.presenter.last) + step_until_still(app, shadow)
    assert covers(sent, scene.tooltip.rect), (sent, scene.tooltip.rect)
    assert differences(before, shadow.picture) is not None
    outside = (scene.panel_rect().x - 6, scene.panel_rect().bottom - 3)
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=outside, rel=(1, 1),
                                 buttons=(0, 0, 0))])
    step_until_still(app, shadow)
    assert scene.tooltip is None
    assert differences(before, shadow.picture) is None, "the tooltip stayed on the window"


def test_a_hovered_button_is_presented(person_app, monkeypatch):
    app, scene, shadow = person_app
    button = next(w for w, _ in scene.controls.items if getattr(w, "text", "") == "Menu")
    before = shadow.picture.copy()
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: button.rect.center)
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=button.rect.center, rel=(1, 1),
                                 buttons=(0, 0, 0))])
    sent = list(app.presenter.last) + step_until_still(app, shadow, frames=6)
    assert button.hovered
    assert covers(sent, button.rect), (sent, button.rect)
    assert differences(before, shadow.picture) is not None, "the hover look never showed"


def test_a_new_window_size_is_presented_whole():
    app = make_app()
    shadow = Shadow(app)
    app.step([])
    flips = shadow.flips
    app.screen = pygame.display.set_mode((1100, 640), pygame.RESIZABLE)
    app.resized()
    shadow.picture = pygame.Surface(app.screen.get_size())
    app.step([])
    assert shadow.flips == flips + 1
    assert differences(shadow.picture, full_redraw(app)) is None
