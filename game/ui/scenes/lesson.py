"""Learn to play: the list of lessons, a lesson being played, and its end card.

A lesson (game/engine/lesson.py) is a real match with a fixed seed and seats, played on the
real board: the learner makes the moves, the lesson plays the computer seats' scripted
actions slowly, with a caption saying what happened and why.  ``LessonPlayScene`` is the play
scene with a coach card over the board: it says what to do now (the step's ``say``), with a
**Why?** button that opens the rules at the step's section, and a callout beside the place or
button to use (found as the Hint finds them: ``GameScreen.action_cells`` and ``play.takes``;
the step's ``point`` names it where one click cannot).  Anything else is refused by the match
itself ("In this lesson: ..."), so tooltips and why-not keep working.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from game.engine import Match, controller_class, game_ids
from game.engine.events import visible_to
from game.engine.lesson import (REFUSAL, LessonError, Step, has_lesson, load_lesson,
                                play_on, top_section)
from game.engine.saves import AUTOSAVE_PREFIX, list_saves, read_yaml, write_yaml_atomic

from .. import paths
from ..backdrop import backdrop
from ..scene import Scene
from ..widgets import (GOLD, MUTED, PANEL, TEXT, draw_card, draw_text, fit, panel_fill,
                       wrap_text)
from .play import PlayScene, takes

#: Seconds a computer step's caption stays before the lesson goes on (Next goes on at once).
PACE = 2.5
CALLOUT = (255, 214, 90)
CARD_TEXT = 16
CARD_LINE = 22
CARD_WIDTH = 620
PROGRESS_FILE = "lessons.yaml"
#: The shortest log shown beside the coach card in the panel (about three lines).
LESSON_LOG_MIN = 96


def render_width(line: str, size: int = CARD_TEXT) -> int:
    """How wide ``line`` is drawn at ``size`` (the layout tests check the card's lines)."""
    from ..widgets import font
    return font(size).size(line)[0]


def _bound_atoms(callback: Any) -> dict[str, list[Any]]:
    """For a form part's button: each string bound to its callback (a key such as "slot")
    -> the other plain values bound with it (the value it picks); {} when it binds fewer
    than two plain values or any callable, dict or list."""
    if getattr(callback, "__code__", None) is None:
        return {}
    bound = list(getattr(callback, "__defaults__", None) or ())
    bound += [cell.cell_contents for cell in getattr(callback, "__closure__", None) or ()]
    plain = [v for v in bound if isinstance(v, (str, int)) and not isinstance(v, bool)]
    if len(plain) != 2:
        return {}
    return {v: [o for o in plain if o is not v] for v in plain if isinstance(v, str)}


# ----------------------------------------------------------------------------- progress
def progress_path() -> Path:
    return paths.settings_path().parent / PROGRESS_FILE


def finished_lessons() -> set[str]:
    """The games whose lesson was played to its end (kept beside the settings)."""
    try:
        data = read_yaml(progress_path(), max_bytes=64 * 1024)
    except Exception:  # noqa: BLE001 - no file yet, or a damaged one: nothing finished
        return set()
    finished = data.get("finished") if isinstance(data, dict) else None
    return {g for g in finished if isinstance(g, str)} if isinstance(finished, list) else set()


def mark_finished(game_id: str) -> None:
    done = finished_lessons()
    if game_id in done:
        return
    try:
        progress_path().parent.mkdir(parents=True, exist_ok=True)
        write_yaml_atomic(progress_path(), {"finished": sorted(done | {game_id})})
    except OSError:
        pass  # progress is a nicety: never stop a lesson over it


def lesson_save(game_id: str) -> Any:
    """The newest autosave of ``game_id``'s lesson (a SaveInfo), or None."""
    for info in list_saves(paths.saves_dir(), f"{AUTOSAVE_PREFIX}{game_id}-*.yaml"):
        if info.lesson is not None and info.error is None:
            return info
    return None


def lesson_status(game_id: str) -> str:
    """How far the player got: "step 12 of 40", "finished" or "not started"."""
    info = lesson_save(game_id)
    if info is not None:
        done, steps = info.lesson
        if done < steps:
            return f"step {done} of {steps}"
        return "finished"
    return "finished" if game_id in finished_lessons() else "not started"


def start_lesson(app: Any, game_id: str, fresh: bool = False) -> bool:
    """Open ``game_id``'s lesson: resume its newest autosave when it is unfinished (unless
    ``fresh``), else a new lesson match."""
    from .menu import MainMenu, open_match
    try:
        lesson = load_lesson(game_id)
    except LessonError as exc:
        app.toast(str(exc), error=True, seconds=6)
        return False
    info = None if fresh else lesson_save(game_id)
    if info is not None and info.lesson[0] < info.lesson[1]:
        return open_match(app, info.path)
    match = lesson.new_match()
    app.stack.reset(MainMenu(app))
    app.push(LessonListScene(app))
    app.push(LessonPlayScene(app, match))
    return True


# ----------------------------------------------------------------------------- the list
class LessonListScene(Scene):
    """Every game, with its lesson's length and how far the player got."""

    def build(self) -> None:
        width, height = self.app.window_size
        ids = game_ids()
        top = 120
        room = height - top - 100
        step = min(76, room // max(len(ids), 1))
        button_h = max(34, min(44, step - 30))
        wide = min(720, width - 80)
        x = (width - wide) // 2
        self.rows: list[tuple[pygame.Rect, str, str]] = []
        for index, game_id in enumerate(ids):
            cls = controller_class(game_id)
            rect = pygame.Rect(x, top + index * step, wide - 170, button_h)
            if has_lesson(game_id):
                try:
                    lesson = load_lesson(game_id)
                except LessonError as exc:
                    note, ok = f"Not available: {exc}", False
                else:
                    note = f"about {lesson.minutes} minutes · {lesson_status(game_id)}"
                    ok = True
            else:
                note, ok = "No lesson for this game yet", False
            self.controls.button(rect, cls.title, lambda g=game_id: start_lesson(self.app, g),
                                 enabled=ok, tooltip=note if not ok else
                                 f"{note}: press to {'resume' if 'step' in note else 'start'}")
            again = pygame.Rect(rect.right + 10, rect.y, 160, button_h)
            started = ok and lesson_status(game_id) != "not started"
            self.controls.button(again, "Start over", lambda g=game_id: start_lesson(
                self.app, g, fresh=True), enabled=started,
                tooltip="Play the lesson again from its first step" if started
                else "Not started yet")
            self.rows.append((rect, note, "ok" if ok else "grey"))
        self.controls.button(pygame.Rect(width // 2 - 110, height - 76, 220, 48), "Back",
                             self.app.pop, tooltip="Return (Esc)")
        self.controls.on_escape = self.app.pop
        if self.controls.focus < 0:
            usable = [i for i, (w, _cb) in enumerate(self.controls.items) if w.is_enabled]
            self.controls.set_focus(usable[0] if usable else 0)

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        surface.blit(backdrop((width, height)), (0, 0))
        draw_text(surface, "Learn to play", (width / 2, 50), 40, GOLD, bold=True,
                  anchor="center", shadow=True)
        draw_text(surface, "A guided first game on the real board: you make the moves.",
                  (width / 2, 88), 16, MUTED, anchor="center")
        for rect, note, state in getattr(self, "rows", []):
            line = fit(note, rect.width + 170, 14)
            draw_text(surface, line, (rect.x + 4, rect.bottom + 3), 14,
                      TEXT if state == "ok" else MUTED)


# ----------------------------------------------------------------------------- playing
class LessonPlayScene(PlayScene):
    """The play scene with a coach: the step's words, Why?, a callout, a slow computer."""

    def __init__(self, app: Any, match: Match, save_path: Path | None = None) -> None:
        super().__init__(app, match, save_path)
        self.lesson = match.guard.lesson
        learners = self.lesson.learner
        if len(learners) == 1:
            self.viewer = learners[0]
        #: The intro card is up (before the first step).
        self.intro = match.guard.step_index(match) == 0
        #: Seconds left of the caption of the computer step just played (None: none).
        self.hold: float | None = None
        #: The index of the step whose words the coach card shows while it holds / follows.
        self.caption_step: int | None = None
        #: How many resolution steps of a followed action have been paused at so far.
        self.follow_count = 0
        self.end_shown = False
        #: The callout's targets: board places and buttons (see ``lesson_targets``).
        self.point_cells: set[Any] = set()
        self.point_widgets: list[Any] = []
        self.card_widgets: list[Any] = []
        self.screen.reset(self.view())

    # the script -------------------------------------------------------------------------
    @property
    def guard(self) -> Any:
        return self.match.guard

    def current(self) -> Step | None:
        guard = self.guard
        return None if guard is None else guard.current(self.match)

    def learner_step(self) -> Step | None:
        step = self.current()
        return step if step is not None and self.lesson.is_learner(step) else None

    def step_number(self) -> int:
        return self.guard.step_index(self.match) if self.guard is not None else 0

    def _decide(self, dt: float) -> bool:
        guard = self.guard
        if guard is None:
            return super()._decide(dt)
        if self.intro or self.awaiting_step:
            return False  # the last step of a followed resolution is held until Next
        if self.hold is not None:
            self.hold -= dt
            if self.hold > 0:
                return True
            self.hold = None
            self.rebuild()
        if self.match.is_over() or guard.finished(self.match):
            if not self.end_shown:
                self.end_shown = True
                mark_finished(self.match.game_id)
                self.show_end()
            return False
        step = guard.current(self.match)
        self.step_mode = step.follow
        if self.lesson.is_learner(step):
            if self.caption_step is not None and self.caption_step != self.step_number():
                self.caption_step = None
                self.rebuild()
            return self._to_learner(step.seat)
        # A computer step: the lesson plays it, then holds its caption a moment.
        index = self.step_number()
        self.follow_count = 0
        self.caption_step = index
        if self.perform(step.seat, step.do):
            self.hold = PACE
        else:  # cannot happen for a checked lesson; never loop on it
            self.app.toast("This lesson no longer fits the rules; play on as a normal game.",
                           error=True)
            self.play_on()
        return True

    def _to_learner(self, seat: int) -> bool:
        """Bring the learner seat whose step it is to the screen.  Unlike a game, the
        computers never act of their own accord (the script plays them), even where everyone
        chooses at once; with two learner seats in a game with secrets the handover card
        comes between them, as in any hot-seat game."""
        if seat != self.viewer:
            self.bring_to_screen(seat)
        return False

    def scripted(self, seat: int | None, action: dict[str, Any]) -> dict[str, Any]:
        """The learner's step's own action when ``action`` is the same choice for them
        (the twin of the scripted card in their hand: ``GameScreen.alike``), so the match
        stays on the script; else ``action`` itself."""
        step = self.learner_step()
        if (step is not None and seat == step.seat and isinstance(action, dict)
                and action != step.do and self.screen.alike(action, step.do, self.view())):
            return dict(step.do)
        return action

    def why_not_here(self, cell: Any) -> str | None:
        step = self.learner_step()
        if cell is not None and step is not None and self.viewer == step.seat:
            action = self.screen.cell_action(cell, self.view())
            if action is not None and self.scripted(self.viewer, action) is not action:
                return self.match.why_not(self.viewer, step.do)
        return super().why_not_here(cell)

    def perform(self, seat: int | None, action: dict[str, Any]) -> bool:
        self.intro = False  # acting is as good as pressing Start
        action = self.scripted(seat, action)
        index = self.step_number()
        step = self.current()
        done = super().perform(seat, action)
        if done and step is not None and self.lesson.is_learner(step):
            self.caption_step = index if step.follow else None
            self.follow_count = 0
        if done and step is not None:
            # A followed resolution stops AFTER each of its steps, so the coach card's words
            # (a caption per step) sit beside what the board shows: the first step goes on
            # at once, the others wait for Next, and the last is held once shown.  (An
            # action taken before the last one's resolution ended leaves it unfollowed.)
            self.step_mode = step.follow
            self.follow_first = step.follow
            self.follow_shown = False
        return done

    #: No step of the followed resolution was shown yet / one was since the last stop.
    follow_first = False
    follow_shown = False

    @property
    def showing(self) -> bool:
        """As in a game, and while the last step of a followed resolution is held: the
        board still shows what happened (no controls until Next)."""
        return PlayScene.showing.fget(self) or (self.guard is not None and self.awaiting_step)

    @property
    def following(self) -> bool:
        """Whether a followed resolution is still to stop after a step it showed."""
        return self.step_mode and self.follow_shown

    def _start(self, event: dict[str, Any]) -> None:
        super()._start(event)
        if self.step_mode and event["type"] in self.screen.STEP_EVENTS:
            self.follow_shown = True
            self.follow_first = False

    def _advance(self, dt: float) -> bool:
        was = self.awaiting_step
        if (self.follow_first and self.step_mode and self.queue and not self.awaiting_step
                and self.queue[0]["type"] in self.screen.STEP_EVENTS):
            self.step_granted = True  # the first step goes on at once
        moving = super()._advance(dt)
        if (self.guard is not None and self.step_mode and self.follow_shown
                and not self.awaiting_step and not self.queue and self.busy_for is None
                and not moving):
            self.awaiting_step = True  # the last step: held once shown, until Next
        if self.awaiting_step and not was:
            self.follow_shown = False
            self.follow_count += 1
            self.rebuild()
        return moving

    def undo(self) -> bool:
        """Undo within a lesson: the step goes back with the match (it is counted from the
        match's game actions), and any caption being held ends."""
        done = super().undo()
        if done:
            self.hold = None
            self.caption_step = None
            self.follow_count = 0
            self.awaiting_step = False
            self.rebuild()
        return done

    def go_on(self) -> None:
        """Next: end the computer step's caption now (or the next resolution step)."""
        if self.awaiting_step:
            if not self.queue:  # the followed resolution is over: so is its caption
                self.hold = None
            self.next_step()
            return
        if self.hold is not None:
            self.hold = None
            self.rebuild()

    def begin(self) -> None:
        self.intro = False
        self.rebuild()

    def play_on(self) -> None:
        """The lesson's match goes on as an ordinary game against Easy computers."""
        play_on(self.match)
        self.step_mode = False
        self.awaiting_step = False
        self.hold = None
        self.caption_step = None
        self.autosave()
        self.rebuild()
        self.app.toast("Playing on: the computers now play at Easy.")

    def show_end(self) -> None:
        self.app.push(LessonEndScene(self.app, self))

    def show_results(self) -> None:
        if self.guard is not None:
            return  # the lesson's end card comes first
        super().show_results()

    # words ------------------------------------------------------------------------------
    def card_state(self) -> tuple[str, str, list[str]]:
        """(heading, text, buttons) of the coach card now."""
        total = len(self.lesson.steps)
        if self.intro:
            return self.lesson.title, self.lesson.intro, ["Start"]
        steps = self.lesson.steps
        if self.awaiting_step and self.caption_step is not None:
            step = steps[self.caption_step]
            n = self.follow_count
            text = (step.captions[n - 1] if 0 < n <= len(step.captions)
                    else self.last_shown_text() or step.say)
            return f"Step {self.caption_step + 1} of {total} · step by step", text, [
                "Why?", "Next"]
        if self.caption_step is not None and self.caption_step < len(steps):
            step = steps[self.caption_step]
            who = self.match.seats[step.seat]["name"]
            if not self.lesson.is_learner(step):
                return (f"Step {self.caption_step + 1} of {total} · {who} plays", step.say,
                        ["Why?", "Next"])
            return f"Step {self.caption_step + 1} of {total}", step.say, ["Why?"]
        step = self.current()
        if step is None:
            return "Lesson complete", "Well done!", []
        index = self.step_number()
        if self.lesson.is_learner(step):
            return f"Step {index + 1} of {total} · your move", step.say, ["Why?"]
        who = self.match.seats[step.seat]["name"]
        return f"Step {index + 1} of {total} · {who} plays", step.say, ["Why?"]

    def last_shown_text(self) -> str:
        """The words of the last resolution step the board showed (a step of the followed
        resolution, as the viewer may read it), or ""."""
        steps = self.screen.STEP_EVENTS
        for event in reversed(self.shown):
            if event["type"] in steps and event.get("text") and visible_to(event, self.viewer):
                return str(event["text"])
        return ""

    def why(self) -> None:
        """Open the rules at the section of the step shown."""
        from .handbook import RulesScene
        steps = self.lesson.steps
        index = self.caption_step if self.caption_step is not None else self.step_number()
        section = steps[min(index, len(steps) - 1)].section
        self.app.push(RulesScene(self.app, game_id=self.match.game_id,
                                 section=top_section(self.match.game_id, section) or section))

    def ask_hint(self) -> None:
        """In a lesson the hint is the step itself: recorded as any hint, then said."""
        step = self.learner_step()
        if step is None or self.guard is None:
            super().ask_hint()
            return
        reason = self.hint_refusal()
        if reason is not None:
            self.app.toast(reason, error=True)
            return
        events = self.match.record_hint(self.viewer)
        if events:
            self.autosave()
            self.shown.extend(events)
            self._refresh_log()
        self.app.toast("Hint: " + step.say, seconds=10)
        self.rebuild()

    # pointing ---------------------------------------------------------------------------
    def lesson_targets(self) -> tuple[set[Any], list[Any]]:
        """The board places and the buttons the callout points at now (for the learner's
        step; nothing while the board shows what happened)."""
        step = self.learner_step()
        if (step is None or self.intro or self.showing or self.awaiting_step
                or self.viewer != step.seat or self.hold is not None or self.following):
            return set(), []
        view = self.view()
        do = step.do
        shown = [(w, cb) for w, cb in self.controls.items
                 if w.visible and w.alive() and w.is_enabled and w not in self.card_widgets]
        part = self.form_part(do, shown)
        if part is not None:
            return set(), [part]
        point = step.point
        if point is not None:
            if "button" in point:
                label = str(point["button"]).lower()
                found = [w for w, _cb in shown if str(getattr(w, "text", "")).lower() == label
                         or str(getattr(w, "text", "")).lower().startswith(label)]
                if found:
                    return set(), found[:1]
            else:
                cell = self.screen.cell_from(point["cell"])
                if cell is not None:
                    return {cell}, []
        buttons = [w for w, cb in shown if takes(cb, do)]
        self.screen.ready_for(do, view)  # as set before the panel was built (``_ready``)
        cells = {c for c in self.screen.cells() if self.screen.cell_action(c, view) == do}
        if buttons or cells:
            return cells, buttons
        return set(self.screen.action_cells(do, view)), []

    @staticmethod
    def form_part(do: dict[str, Any], shown: list[tuple[Any, Any]]) -> Any:
        """The button of the next part of a form (a secret choice made of a slot, a
        direction, a vote and a number, then Confirm) that the step's action needs and that
        is not picked yet, or picked otherwise; None when every part is picked as the action
        says (then the form's confirming button is what to press) or there is no form.

        A part's button binds the action's key and a value (``lambda k="vote", c="L": ...``)
        and is marked ``#chosen`` once picked."""
        if any(takes(cb, do) for _w, cb in shown):
            return None
        keys = [k for k in do if k != "type"]
        rows: dict[str, list[tuple[Any, Any]]] = {}
        for widget, callback in shown:
            atoms = _bound_atoms(callback)
            for key in keys:
                if key in atoms and isinstance(atoms[key], list):
                    rows.setdefault(key, []).append((widget, atoms[key]))
        order = [w for w, _cb in shown]
        for key in sorted(rows, key=lambda k: order.index(rows[k][0][0])):  # the panel's order
            row = rows[key]
            right = [w for w, values in row if any(
                v == do[key] and type(v) is type(do[key]) for v in values)]
            if not right:
                continue
            if "#chosen" not in (right[0].object_ids or []):
                return right[0]
        return None

    #: The coach card's place in the panel, under the log, when there is room (else the
    #: card goes over the board, away from what it points at).
    _panel_card: pygame.Rect | None = None

    def _place_log(self, rect: pygame.Rect) -> None:
        self._panel_card = None
        if self.guard is not None:
            need = self.card_height(rect.width)
            if rect.height >= need:
                # At the log's bottom, just above the bottom row: its buttons stay put
                # whatever the panel shows above.
                self._panel_card = pygame.Rect(rect.x, rect.bottom - need, rect.width, need)
                rect = pygame.Rect(rect.x, rect.y, rect.width, rect.height - need - 8)
                if rect.height < LESSON_LOG_MIN:
                    # Too short a log is no use (and pygame_gui's scroll bar divides by
                    # zero in one): the coach card's words come first.
                    if self.log_box is not None and self.log_box.alive():
                        self.log_box.hide()
                    return
        super()._place_log(rect)

    def _ready(self) -> None:
        """Set the panel for the learner's step before it is built (a screen whose clicks
        depend on a chosen kind of action, as Mothership's Peek / Skip / Assist, chooses the
        step's kind), so the place pointed at takes the step's action when clicked.  A kind
        the learner chose instead is set back, with the lesson's words."""
        step = self.learner_step()
        if (step is None or self.intro or self.showing or self.awaiting_step
                or self.viewer != step.seat or self.hold is not None or self.following):
            return
        key = (self.step_number(), self.undos)
        before = getattr(self.screen, "mode", None)
        self.screen.ready_for(step.do, self.view())
        after = getattr(self.screen, "mode", None)
        if self._readied == key and before is not None and before != after:
            self.app.toast(REFUSAL + step.say, error=True)
        self._readied = key

    _readied: tuple[int, int] | None = None

    def build(self) -> None:
        self._panel_card = None
        if self.guard is not None:
            self._ready()
        super().build()
        self.card_widgets = []
        if self.guard is None:
            self.point_cells, self.point_widgets = set(), []
            return
        self.point_cells, self.point_widgets = self.lesson_targets()
        card = self.card_rect()
        _heading, _text, buttons = self.card_state()
        for label in buttons:
            # Why? at the card's left, Next and Start at its right: a second click on Next
            # never lands on Why?.
            width = 96 if label != "Start" else 140
            rect = pygame.Rect(0, card.bottom - 14 - 36, width, 36)
            if label == "Why?":
                rect.left = card.left + 16
            else:
                rect.right = card.right - 16
            callback = {"Why?": self.why, "Next": self.go_on, "Start": self.begin}[label]
            tip = {"Why?": "The rules behind this step", "Next": "Go on now (N)",
                   "Start": "Begin the lesson"}[label]
            widget = self.controls.button(rect, label, callback, tooltip=tip,
                                          object_id="#primary" if label != "Why?" else None)
            self.card_widgets.append(widget)
        if buttons and buttons[-1] in ("Start", "Next"):
            self.controls.focus_widget(self.card_widgets[-1])
        elif self.controls.focused() in self.card_widgets:
            self.controls.set_focus(-1)  # Why? is never pressed by an Enter meant elsewhere

    def card_lines(self, width: int) -> list[str]:
        _heading, text, _buttons = self.card_state()
        return wrap_text(text, CARD_TEXT, width - 32)

    def card_height(self, width: int) -> int:
        return 12 + 22 + CARD_LINE * len(self.card_lines(width)) + 8 + 36 + 14

    def card_rect(self) -> pygame.Rect:
        """The coach card: in the panel above the log when it fits there, else across the
        board's top or bottom, away from what it points at."""
        if self._panel_card is not None:
            return self._panel_card
        area = self.board_rect()
        width = min(CARD_WIDTH, area.width - 16)
        card = pygame.Rect(0, 0, width, self.card_height(width))
        card.centerx = area.centerx
        transform = self.transform()
        ys = [transform.to_screen(*self.screen.cell_center(c))[1] for c in self.point_cells]
        below = bool(ys) and max(ys) > area.centery
        if below:
            card.top = area.top + 8
        else:
            card.bottom = area.bottom - 8
        return card

    def handle_event(self, event: pygame.event.Event) -> bool:
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_n and self.guard is not None
                and (self.hold is not None or self.awaiting_step)):
            self.go_on()
            return True
        return super().handle_event(event)

    # drawing ----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.guard is None:
            return
        self._draw_callouts(surface)
        self._draw_card(surface)

    def _draw_card(self, surface: pygame.Surface) -> None:
        card = self.card_rect()
        heading, _text, _buttons = self.card_state()
        shade = pygame.Surface(card.size, pygame.SRCALPHA)
        shade.fill(panel_fill((*PANEL, 240)))
        surface.blit(shade, card)
        pygame.draw.rect(surface, GOLD, card, 2, border_radius=10)
        draw_text(surface, fit(heading, card.width - 24, 15, True), (card.x + 16, card.y + 10),
                  15, GOLD, bold=True)
        y = card.y + 12 + 22
        for line in self.card_lines(card.width):
            draw_text(surface, line, (card.x + 16, y), CARD_TEXT, TEXT)
            y += CARD_LINE

    def callout_rects(self) -> list[tuple[pygame.Rect, pygame.Rect]]:
        """(the target's rectangle, the callout tag's rectangle) for each thing pointed at;
        the tag sits beside its target, never over it, inside the window."""
        out = []
        window = pygame.Rect((0, 0), self.app.window_size)
        transform = self.transform()
        tag_w, tag_h = 104, 26
        targets = []
        for cell in self.point_cells:
            x, y = transform.to_screen(*self.screen.cell_center(cell))
            size = max(14, int(40 * transform.scale))
            targets.append(pygame.Rect(round(x - size / 2), round(y - size / 2), size, size))
        for widget in self.point_widgets:
            if widget.alive() and widget.visible:
                targets.append(widget.rect.copy())
        card = self.card_rect()
        avoid = [w.rect for w, _cb in self.controls.items if w.visible and w.alive()]
        avoid += [w.rect for w in self.controls.others if w.visible and w.alive()]
        if self.log_box is not None and self.log_box.alive() and self.log_box.visible:
            avoid.append(self.log_box.rect)
        avoid.append(card)
        panel = self.panel_rect()
        from .play import HEADER_HEIGHT, LINE_HEIGHT
        avoid.append(pygame.Rect(panel.x, panel.y, panel.width,
                                 HEADER_HEIGHT + LINE_HEIGHT * len(self.info_lines())))
        # The board's places: a tag covers as few as it can (a piece stands on one).
        board = self.board_rect()
        centres = [transform.to_screen(*self.screen.cell_center(c))
                   for c in self.screen.cells()]
        centres = [(x, y) for x, y in centres if board.collidepoint(x, y)]
        for target in targets[:3]:
            up, side = target.height // 2 + tag_h // 2, tag_w // 2
            spots = [("midright", (target.left - 10, target.centery + dy))
                     for dy in (0, -up, up)]
            spots += [("midleft", (target.right + 10, target.centery + dy))
                      for dy in (0, -up, up)]
            spots += [(anchor, (target.centerx + dx, y)) for dx in (0, -side, side)
                      for anchor, y in (("midbottom", target.top - 8),
                                        ("midtop", target.bottom + 8))]
            spots.append(("midright", (panel.left - 8, target.centery)))
            chosen, least = None, None
            for anchor, pos in spots:
                tag = pygame.Rect(0, 0, tag_w, tag_h)
                setattr(tag, anchor, pos)
                if (window.contains(tag) and not tag.colliderect(target)
                        and not any(tag.colliderect(r) for r in avoid if r != target)):
                    covered = sum(1 for x, y in centres if tag.collidepoint(x, y)
                                  and not target.collidepoint(x, y))
                    if least is None or covered < least:
                        chosen, least = tag, covered
                    if covered == 0:
                        break
            if chosen is None:  # beside the panel, over the board's edge
                chosen = pygame.Rect(0, 0, tag_w, tag_h)
                chosen.midright = (min(panel.left, target.left) - 8, target.centery)
                chosen.clamp_ip(window)
            out.append((target, chosen))
        return out

    def _draw_callouts(self, surface: pygame.Surface) -> None:
        for target, tag in self.callout_rects():
            pygame.draw.rect(surface, CALLOUT, target.inflate(10, 10), 3, border_radius=8)
            start = pygame.Vector2(tag.center)
            end = pygame.Vector2(target.center)
            if (end - start).length() > 1:
                direction = (end - start).normalize()
                tip = end - direction * (max(target.width, target.height) / 2 + 6)
                pygame.draw.line(surface, CALLOUT, start, tip, 3)
            pygame.draw.rect(surface, panel_fill((40, 30, 20)), tag, border_radius=6)
            pygame.draw.rect(surface, CALLOUT, tag, 2, border_radius=6)
            draw_text(surface, "Do this", tag.center, 14, CALLOUT, bold=True, anchor="center")


# ----------------------------------------------------------------------------- the end
class LessonEndScene(Scene):
    """The checklist of what the lesson taught; Play on from here or Start a real game."""

    opaque = False

    def __init__(self, app: Any, play: LessonPlayScene) -> None:
        super().__init__(app)
        self.play = play
        self.lesson = play.lesson

    def card_rect(self) -> pygame.Rect:
        width, height = self.app.window_size
        w = min(680, width - 60)
        lines = sum(len(wrap_text(t, 16, w - 90)) for t in self.lesson.learned)
        h = min(height - 40, 130 + lines * 24 + 80)
        card = pygame.Rect(0, 0, w, h)
        card.center = (width // 2, height // 2)
        return card

    def build(self) -> None:
        card = self.card_rect()
        over = self.play.match.is_over()
        labels = [("Play on from here", self.play_on,
                   "The same game goes on as a normal game, the computers at Easy")
                  if not over else ("See the results", self.results, "The game is over"),
                  ("Start a real game", self.real_game, "The game's setup screen"),
                  ("Main menu", self.app.to_menu, None)]
        width = (card.width - 48 - 16) // 3
        for i, (label, callback, tip) in enumerate(labels):
            rect = pygame.Rect(card.x + 24 + i * (width + 8), card.bottom - 62, width, 44)
            self.controls.button(rect, fit(label, width, 16), callback, tooltip=tip,
                                 object_id="#primary" if i == 0 else None)
        self.controls.set_focus(0)
        self.controls.on_escape = self.play_on if not over else self.app.to_menu

    def play_on(self) -> None:
        self.app.pop()
        self.play.play_on()

    def results(self) -> None:
        self.app.pop()
        play_on(self.play.match)
        self.play.results_shown = False

    def real_game(self) -> None:
        from .menu import MainMenu
        from .setup import SetupScene
        self.app.stack.reset(MainMenu(self.app))
        self.app.push(SetupScene(self.app, self.play.match.game_id))

    def draw(self, surface: pygame.Surface) -> None:
        card = self.card_rect()
        draw_card(surface, card, GOLD, 150)
        draw_text(surface, "Lesson complete", (card.centerx, card.y + 34), 28, GOLD, bold=True,
                  anchor="center")
        draw_text(surface, "What you learned:", (card.x + 32, card.y + 66), 16, MUTED, bold=True)
        y = card.y + 96
        for item in self.lesson.learned:
            # A drawn tick, so no font needs a check-mark glyph.
            pygame.draw.lines(surface, (120, 220, 120), False,
                              [(card.x + 36, y + 11), (card.x + 42, y + 17),
                               (card.x + 54, y + 4)], 3)
            for line in wrap_text(item, 16, card.width - 90):
                draw_text(surface, line, (card.x + 66, y), 16, TEXT)
                y += 24
