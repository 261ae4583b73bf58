"""Learn to play on screen: every lesson's callout has a place or a button to point at, at
every learner step, and a lesson is finished by clicking what it points at (with synthetic
events, and in the real loop with events posted to pygame's queue); leaving and resuming,
Play on from here, off-script refusals, hints and undo; the coach card, callouts, end card and
"Rules at a glance" stay inside the window and readable at 960x600, 1280x720 and 1920x1080."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest

from game.engine import Match, game_ids
from game.engine.lesson import check_glance, lesson_games, load_lesson, played
from game.ui.scenes import lesson as lesson_ui
from game.ui.scenes.glance import GlanceScene
from game.ui.scenes.lesson import (CARD_TEXT, LessonEndScene, LessonListScene,
                                   LessonPlayScene, start_lesson)

from realloop import RealLoop
from uidriver import Driver

LESSONS = lesson_games()
SIZES = [(960, 600), (1280, 720), (1920, 1080)]
#: Scenes that pass the screen between two learner seats (a hot-seat lesson).
PASSING = ("HandoverScene", "RecapScene")


def target_of(scene: LessonPlayScene):
    """What the learner clicks now: ("button", widget) or ("cell", screen position)."""
    cells, widgets = scene.lesson_targets()
    assert cells or widgets, f"step {scene.step_number() + 1}: the callout points at nothing"
    if widgets:
        widget = widgets[0]
        assert widget.visible and widget.is_enabled
        return "button", widget
    area = scene.board_rect()
    cell = sorted(cells, key=str)[0]
    x, y = scene.transform().to_screen(*scene.screen.cell_center(cell))
    pos = (round(x), round(y))
    assert area.collidepoint(pos), f"the pointed place {cell} is off the board's area"
    assert scene.cell_under(pos) == cell
    return "cell", pos


def drive(d: Driver, scene: LessonPlayScene, max_turns: int = 3000, until_step=None,
          check=None) -> None:
    """Click whatever the lesson points at (Next for a computer step's caption) until the
    end card, or until the lesson reaches ``until_step``."""
    for _ in range(max_turns):
        if isinstance(d.top, LessonEndScene):
            return
        if until_step is not None and scene.step_number() >= until_step and not scene.showing:
            return
        if d.top is not scene and type(d.top).__name__ in PASSING:
            d.press(d.labels()[0])  # a lesson with two learner seats passes the screen
            continue
        assert d.top is scene, f"unexpected {d.scene_name}"
        step = scene.learner_step()
        if scene.intro:
            d.press("Start")
        elif scene.hold is not None or scene.awaiting_step:
            if check is not None:
                check(scene)
            d.press("Next")
        elif (step is not None and scene.viewer == step.seat and not scene.showing
                and not scene.following):
            if check is not None:
                check(scene)
            kind, what = target_of(scene)
            before = played(scene.match)
            if kind == "button":
                d.app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=what)])
            else:
                d.app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=what)])
            assert played(scene.match) >= before
        else:
            d.pump()
    raise AssertionError(f"the lesson did not end (step {scene.step_number()})")


def open_lesson(d: Driver, game_id: str) -> LessonPlayScene:
    assert start_lesson(d.app, game_id)
    d.pump()
    assert isinstance(d.top, LessonPlayScene)
    return d.top


# ------------------------------------------------------------------------------ the list
def test_learn_to_play_lists_every_game():
    d = Driver()
    d.press("Learn to play")
    assert isinstance(d.top, LessonListScene)
    buttons = {w.text: w for w, _ in d.top.controls.items}
    from game.engine import controller_class
    for game_id in game_ids():
        widget = buttons[controller_class(game_id).title]
        assert widget.is_enabled == (game_id in LESSONS)
    notes = [note for _rect, note, _state in d.top.rows]
    assert any("minutes · not started" in note for note in notes)
    rows = [rect for rect, _note, _state in d.top.rows]
    for above, below in zip(rows, rows[1:]):
        assert above.bottom + 20 <= below.top, "a row's note runs into the next row"
    d.press("Fantasy Racing")
    assert isinstance(d.top, LessonPlayScene) and d.top.intro


def test_setup_and_game_menu_offer_the_lesson():
    d = Driver()
    d.press("New game")
    while "Fantasy Racing" not in d.labels()[0]:
        d.press(d.labels()[0])
    d.press("Learn to play")
    assert isinstance(d.top, LessonPlayScene)
    d.key(pygame.K_ESCAPE)
    d.press("Learn to play")
    assert isinstance(d.top, LessonListScene)


# ------------------------------------------------------------------------------ playing
@pytest.mark.parametrize("game_id", LESSONS)
def test_every_lesson_points_at_something_and_finishes(game_id):
    d = Driver()
    scene = open_lesson(d, game_id)
    drive(d, scene)
    lesson = load_lesson(game_id)
    assert played(scene.match) == len(lesson.steps)
    assert isinstance(d.top, LessonEndScene)
    assert lesson_ui.lesson_status(game_id) == "finished"
    if scene.match.is_over():
        # A lesson that plays the game to its end offers its results instead of playing on.
        assert d.labels() == ["See the results", "Start a real game", "Main menu"]
        d.press("See the results")
        d.pump(3)
        assert type(d.top).__name__ == "ResultsScene" and scene.match.guard is None
        return
    assert d.labels() == ["Play on from here", "Start a real game", "Main menu"]
    d.press("Play on from here")
    assert d.top is scene and scene.match.guard is None
    assert all(s["level"] == "easy" for s in scene.match.seats if s["kind"] == "bot")
    from game.ui import paths
    autosave = paths.autosave_path(game_id, scene.match.match_id)
    again = Match.load(autosave)
    assert again.guard is None
    # The race goes on as an ordinary game: the computer plays, the learner is asked.
    for _ in range(400):
        d.pump()
        if played(scene.match) > len(lesson.steps) or scene.match.is_over():
            break
    assert played(scene.match) > len(lesson.steps) or scene.match.is_over()


def test_off_script_is_refused_in_the_lessons_words():
    d = Driver()
    scene = open_lesson(d, "fantasy_racing")
    d.press("Start")
    d.press("Goblin")
    assert played(scene.match) == 0
    message, _until, error = d.app.toasts[-1]
    step = scene.learner_step()
    assert error and message == "In this lesson: " + step.say
    assert scene.match.why_not(0, {"type": "pick", "character": "goblin"}) == message


def test_leave_and_resume_then_hint_and_undo_keep_the_count():
    d = Driver()
    scene = open_lesson(d, "fantasy_racing")
    drive(d, scene, until_step=3)
    assert scene.step_number() == 3
    d.key(pygame.K_t)  # a hint: recorded, the step stays
    assert scene.match.actions[-1]["action"]["type"] == "@hint"
    assert scene.step_number() == 3
    d.app.to_menu()
    d.press("Learn to play")
    notes = [note for _rect, note, _s in d.top.rows]
    assert any("step 3 of 45" in note for note in notes), notes
    d.press("Fantasy Racing")
    resumed = d.top
    assert isinstance(resumed, LessonPlayScene) and resumed is not scene
    assert not resumed.intro and resumed.step_number() == 3
    assert resumed.learner_step() is load_lesson("fantasy_racing").steps[3]
    # Undo takes back the wand of fire (nothing rolled since): the lesson goes back a step.
    d.press("Undo")
    assert resumed.step_number() == 2
    assert resumed.card_state()[1] == load_lesson("fantasy_racing").steps[2].say
    drive(d, resumed, until_step=6)
    assert resumed.match.guard.on_script(resumed.match)


def test_mothership_points_at_a_place_whose_click_takes_the_chosen_kind():
    """Peek, the Mage's Skip and Assist: the panel is set to the step's kind before it is
    built (that kind's button is the chosen one), and the place pointed at takes the step's
    action; a kind the learner picks instead is set back, with the lesson's words."""
    d = Driver()
    scene = open_lesson(d, "mothership")
    seen = set()

    def check(scene):
        step = scene.learner_step()
        if step is None or scene.hold is not None or scene.awaiting_step:
            return
        if step.do["type"] in ("peek", "skip", "assist"):
            cells, widgets = scene.lesson_targets()
            assert not widgets and len(cells) == 1, (step.do, cells, widgets)
            (cell,) = cells
            assert scene.screen.cell_action(cell, scene.view()) == step.do
            chosen = [w.text for w, _cb in scene.controls.items
                      if "#chosen" in (w.object_ids or [])]
            assert len(chosen) == 1 and chosen[0].lower().startswith(step.do["type"]), chosen
            seen.add(step.do["type"])

    drive(d, scene, until_step=9, check=check)
    assert seen == {"peek", "assist"}
    # At step 12 the Mage's Skip: pick Move instead, and the lesson sets Skip back.
    drive(d, scene, until_step=11, check=check)
    assert scene.learner_step().do["type"] == "skip"
    d.press(next(w.text for w, _cb in scene.controls.items if w.text.startswith("Move")))
    assert d.app.toasts[-1][0] == "In this lesson: " + scene.learner_step().say
    check(scene)
    drive(d, scene, check=check)
    assert seen == {"peek", "skip", "assist"}


def test_odysseus_twin_card_counts_as_the_scripted_one():
    """Two identical cards in hand: a click on either plays the card the script names, so
    the match stays on the lesson's script; another card is refused in the lesson's words."""
    d = Driver()
    scene = open_lesson(d, "odysseus")
    drive(d, scene, until_step=10)
    step = scene.learner_step()
    assert step.do == {"type": "play", "card": "hinder-11"}
    hand = scene.view()["seats"][0]["hand"]
    assert "hinder-13" in hand  # its twin: another Hinder 2
    other = next(c for c in hand if not c.startswith("hinder-1"))
    assert scene.why_not_here("card:" + other) == "In this lesson: " + step.say
    assert scene.why_not_here("card:hinder-13") is None
    scene.click_place("card:" + other)
    assert played(scene.match) == 10
    scene.click_place("card:hinder-13")
    assert scene.match.actions[-1]["action"] == step.do
    assert scene.match.guard.on_script(scene.match) and played(scene.match) == 11
    drive(d, scene)
    assert played(scene.match) == len(load_lesson("odysseus").steps)


def test_expedition_hands_over_between_learners_and_points_at_each_part():
    """Two learner seats choosing in secret at once: the handover card comes between them,
    and the callout points at each part of the form in the panel's order, then Confirm."""
    d = Driver()
    scene = open_lesson(d, "fantasy_expedition")
    lesson = load_lesson("fantasy_expedition")
    first = next(i for i, s in enumerate(lesson.steps) if s.do["type"] == "choose")
    drive(d, scene, until_step=first)
    clicked = []
    while played(scene.match) < first + 2:
        if d.top is not scene:
            assert type(d.top).__name__ == "HandoverScene"
            clicked.append(d.labels()[0])
            d.press(d.labels()[0])
            continue
        step = scene.learner_step()
        if step is None or scene.viewer != step.seat or scene.showing:
            d.pump()
            continue
        _cells, widgets = scene.lesson_targets()
        assert len(widgets) == 1
        clicked.append(widgets[0].text)
        d.app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=widgets[0])])
    one, two = lesson.steps[first].do, lesson.steps[first + 1].do
    names = [s["name"] for s in lesson.seats]
    assert clicked == [str(one["slot"]), "Left", "Left", str(one["communal"]),
                       "Confirm in secret", f"I am {names[lesson.steps[first + 1].seat]}",
                       str(two["slot"]), "Left", "Left", str(two["communal"]),
                       "Confirm in secret"]
    # The computers chose nothing of their own accord meanwhile: the script plays them.
    assert scene.match.guard.on_script(scene.match)


@pytest.mark.parametrize("game_id", [g for g in LESSONS
                                     if any(s.follow for s in load_lesson(g).steps)])
def test_a_followed_resolution_stops_after_each_step_beside_its_caption(game_id):
    """A followed action's resolution stops once after each of its steps has been shown
    (the first goes on at once, the last is held until Next), with that step's caption (or
    its own words) on the coach card: the words always match what the board shows."""
    lesson = load_lesson(game_id)
    match = Match.new(game_id, [dict(s) for s in lesson.seats], lesson.seed,
                      dict(lesson.options))
    d = Driver()
    scene = open_lesson(d, game_id)
    kinds = scene.screen.STEP_EVENTS
    texts = {}
    for index, step in enumerate(lesson.steps):
        events = match.act(step.seat, step.do)
        if step.follow:
            texts[index] = [ev.get("text") for ev in events if ev["type"] in kinds]
    stops: dict[int, list[int]] = {}

    def check(scene):
        if not scene.awaiting_step:
            return
        index, count = scene.caption_step, scene.follow_count
        stops.setdefault(index, []).append(count)
        steps = [ev for ev in scene.shown if ev["type"] in kinds]
        assert steps[-1].get("text") == texts[index][count - 1]
        step = lesson.steps[index]
        _heading, text, buttons = scene.card_state()
        assert "Next" in buttons
        assert text == (step.captions[count - 1] if step.captions
                        else scene.last_shown_text() or step.say)

    drive(d, scene, check=check)
    assert stops == {i: list(range(1, len(t) + 1)) for i, t in texts.items() if t}


# ------------------------------------------------------------------------------ layout
def _inside(rect, window):
    return window.contains(rect)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game_id", LESSONS)
def test_card_and_callouts_stay_inside_and_readable(game_id, size):
    d = Driver(size=size)
    scene = open_lesson(d, game_id)
    window = pygame.Rect((0, 0), size)
    seen = []

    def check(scene):
        card = scene.card_rect()
        assert _inside(card, window)
        assert scene.board_rect().contains(card) or scene.panel_rect().contains(card)
        others = [w.text for w, _cb in scene.controls.items if w.visible and w.alive()
                  and w not in scene.card_widgets and card.colliderect(w.rect)]
        assert not others, f"the coach card covers {others}"
        log = scene.log_box
        assert log is None or not log.visible or not card.colliderect(log.rect)
        for line in scene.card_lines(card.width):
            assert lesson_ui.render_width(line) <= card.width - 24
        for widget in scene.card_widgets:
            assert card.contains(widget.rect)
        for target, tag in scene.callout_rects():
            assert _inside(tag, window), (tag, window)
            assert not tag.colliderect(target), "a callout covers what it points at"
            assert not tag.colliderect(card), "the coach card hides a callout"
            hidden = [w.text for w, _cb in scene.controls.items
                      if w.visible and w.alive() and tag.colliderect(w.rect)]
            assert not hidden, f"a button hides the callout: {hidden}"
        d.app.draw()
        seen.append(scene.step_number())

    drive(d, scene, until_step=12, check=check)
    assert len(seen) >= 6
    assert CARD_TEXT >= 12
    end = LessonEndScene(d.app, scene)
    d.app.push(end)
    assert _inside(end.card_rect(), window)
    for widget, _cb in end.controls.items:
        assert end.card_rect().contains(widget.rect)
    d.app.draw()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game_id", game_ids())
def test_rules_at_a_glance_fits(game_id, size):
    assert check_glance(game_id) == []
    d = Driver(size=size)
    card = d.app.push(GlanceScene(d.app, game_id, "Movement"))
    rect, text = card.layout()
    window = pygame.Rect((0, 0), size)
    assert window.contains(rect) and text >= 12
    if size != (960, 600):
        assert text >= 14
    for widget, _cb in card.controls.items:
        assert rect.contains(widget.rect)
    # Every line is drawn inside the card.
    y = rect.y + 64
    for _heading, lines in card.blocks(rect.width, text):
        y += text + 14 + len(lines) * (text + 6) + 10
    assert y <= rect.bottom - 60
    d.app.draw()


# ------------------------------------------------------------------------------ real loop
def real_drive(loop: RealLoop, scene: LessonPlayScene, until_step=None, seconds=240.0):
    """Finish (or run to ``until_step``) a lesson with clicks posted to pygame's queue."""
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if isinstance(loop.top, LessonEndScene):
            return
        if until_step is not None and scene.step_number() >= until_step:
            return
        if loop.top is not scene and type(loop.top).__name__ in PASSING:
            loop.run(0.7)  # past the handover card's guard
            loop.click(loop.top.controls.items[0][0].rect.center)
            continue
        step = scene.learner_step()
        if scene.intro:
            loop.click_button("Start")
        elif scene.hold is not None or scene.awaiting_step:
            if not scene.card_widgets:
                loop.run(0.05)
                continue
            loop.click_button("Next")
        elif (step is not None and scene.viewer == step.seat and not scene.showing
              and not scene.following):
            kind, what = target_of(scene)
            loop.click(what.rect.center if kind == "button" else what)
        else:
            loop.run(0.05)
    raise AssertionError(f"the lesson did not end in time (step {scene.step_number()})")


def _real_lesson(game_id: str) -> tuple[RealLoop, LessonPlayScene]:
    loop = RealLoop()
    loop.click_button("Learn to play")
    from game.engine import controller_class
    loop.click_button(controller_class(game_id).title)
    assert isinstance(loop.top, LessonPlayScene)
    return loop, loop.top


@pytest.mark.parametrize("game_id", LESSONS)
def test_real_loop_first_steps(game_id):
    loop, scene = _real_lesson(game_id)
    real_drive(loop, scene, until_step=10)
    assert scene.step_number() >= 10 or isinstance(loop.top, LessonEndScene)
    assert scene.match.guard.on_script(scene.match)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", LESSONS)
def test_real_loop_whole_lesson(game_id):
    loop, scene = _real_lesson(game_id)
    real_drive(loop, scene)
    assert isinstance(loop.top, LessonEndScene)
    if scene.match.is_over():  # the lesson played the game to its end
        loop.click_button("See the results")
        assert loop.run_until(lambda: type(loop.top).__name__ == "ResultsScene")
    else:
        loop.click_button("Play on from here")
        assert loop.top is scene
    assert scene.match.guard is None


def test_why_opens_the_rules_at_the_steps_section():
    from game.engine.lesson import top_section
    from game.ui.scenes.handbook import RulesScene
    d = Driver()
    scene = open_lesson(d, "fantasy_racing")
    drive(d, scene, until_step=9)
    step = scene.learner_step()
    d.press("Why?")
    assert isinstance(d.top, RulesScene)
    d.pump()
    assert d.top.sections[d.top.section][0] == top_section("fantasy_racing", step.section)
    d.key(pygame.K_ESCAPE)
    assert d.top is scene
