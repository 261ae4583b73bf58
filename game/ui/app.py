"""The window, the one event loop and the scene stack.

The loop redraws only when something changed: a scene asks for frames with
``app.touch()`` (or by returning True from ``update`` while something moves;
one more frame is drawn once it stops), and pygame_gui's delayed rebuilds
are honoured. While nothing moves it sleeps, so an idle game costs next to no CPU.
A frame is composed from the scenes' cached pictures and the widgets, and only the
parts of the window that changed are presented (see ``frames.py``); a new window size,
another scene or an uncovered window gets the whole window.

The loop also remembers when each held key or mouse button went down, so a
scene can refuse input that began before it appeared (the handover card), and
a fault in a scene is caught here: a crash report is written next to the saves,
the person is told, and the program goes back to the main menu.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from . import look, paths
from .frames import Presenter, prefer_direct_framebuffer
from .scene import Scene, SceneStack
from .settings import Settings
from .widgets import ALERT, GOLD, PANEL, TEXT, draw_text, panel_fill, wrap_text

THEME = Path(__file__).with_name("theme.json")
#: The window's colour where no scene draws.
BACKGROUND = (18, 16, 22)
FPS = 60
#: How long an idle loop turn sleeps before looking for input again.
IDLE_SLEEP = 0.05
#: After an input event, keep drawing this long so hover and press effects show.
SETTLE_SECONDS = 1.0
MIN_SIZE = (960, 600)
#: The window's icon (game/tools/make_icon.py draws it).
ICON = paths.ASSETS / "icon-64.png"
#: A handover card (or a "Pass to" button) ignores presses for this long after it appears.
GUARD_SECONDS = 0.5
#: A key press this soon after the window gained focus began in another window: SDL sends
#: one for a key held at the switch, and X's key repeat (660 ms by default; Windows' at most
#: 1 s) sends one for a key pressed just before it.  Such a press confirms nothing.
FOCUS_GUARD_SECONDS = 1.0


def focus_change(event: pygame.event.Event) -> int:
    """-1 when ``event`` says the window lost the keyboard's focus, 1 when it gained it,
    else 0 (SDL's window events, and pygame's ACTIVEEVENT sent beside them)."""
    if event.type == pygame.WINDOWFOCUSLOST:
        return -1
    if event.type == pygame.WINDOWFOCUSGAINED:
        return 1
    if (event.type == pygame.ACTIVEEVENT
            and getattr(event, "state", 0) & (pygame.APPINPUTFOCUS | pygame.APPACTIVE)):
        return 1 if getattr(event, "gain", 0) else -1
    return 0


#: A toast's edge by its style: a refusal's red, news's blue, anything else gold.
INFO = (120, 170, 225)
TOAST_EDGES = {"error": ALERT, "info": INFO, "plain": GOLD}


def draw_toast_mark(surface: pygame.Surface, kind: str, seat: int | None,
                    centre: tuple[int, int], r: int) -> None:
    """The mark at a toast's left: the speaker's seat mark for a line said at the table, an
    "i" in a ring for news, an exclamation mark in a ring for a refusal."""
    from .marks import draw_seat_mark
    if seat is not None:
        draw_seat_mark(surface, seat, centre, 2 * r, on_piece=False)
        return
    colour = TOAST_EDGES[kind]
    pygame.draw.circle(surface, colour, centre, r, max(2, r // 5))
    draw_text(surface, "!" if kind == "error" else "i", centre, 16, colour, bold=True,
              anchor="center")


class Toast(tuple):
    """A message as (text, until, error), the scene it belongs to (None: any), its style
    (``kind``: "error" -- a refusal, a fault --, "info" -- news about the table, not a
    refusal -- or "plain") and, for a line someone at the table said, their seat (its mark
    is drawn beside the words)."""

    scene: Scene | None = None
    while_: Any = None
    kind: str = "plain"
    seat: int | None = None


class ThemedUI(pygame_gui.UIManager):
    """pygame_gui's manager, with a tooltip's wrap width given in pixels at 100% (a game's
    explicit width grows with the interface like the default one)."""

    def create_tool_tip(self, *args: Any, wrap_width: int | None = None,
                        **kwargs: Any) -> Any:
        return super().create_tool_tip(
            *args, wrap_width=None if wrap_width is None else look.px(wrap_width), **kwargs)


class App:
    """Owns the window, the UI manager, the settings and the scene stack."""

    def __init__(self, settings: Settings | None = None,
                 size: tuple[int, int] | None = None) -> None:
        pygame.init()
        prefer_direct_framebuffer()
        #: Puts frames on screen, only what changed (``presenter.last``: what was sent).
        self.presenter = Presenter()
        #: How long the last frame took to compose and present, in ms: wall time, and
        #: this thread's CPU time (no waiting for the display server or for a busy CPU).
        self.draw_ms = self.draw_cpu_ms = 0.0
        pygame.key.set_repeat(350, 40)
        self.settings_path = paths.settings_path()
        self.settings = settings or Settings.load(self.settings_path)
        self.size = size or self.settings.size
        pygame.display.set_caption("Tabletop")
        pygame.display.set_icon(pygame.image.load(ICON))
        self.screen = self._open_window()
        look.set_look(look.fitting_scale(self.settings.ui_scale, self.screen.get_size()),
                      self.settings.theme)
        self.ui = self._new_ui()
        self.stack = SceneStack()
        self.clock = pygame.time.Clock()
        self.running = True
        self.redraw_until = 0.0
        self.frames = 0
        self.fps = FPS
        self.toasts: list[tuple[str, float, bool]] = []
        #: The messages drawn in the last frame and where (for tests).
        self.toast_rects: list[tuple[str, pygame.Rect]] = []
        #: A frame is wanted at the next loop turn (something changed).
        self.dirty = True
        #: The top scene was moving at the last loop turn (draw once more when it stops).
        self._was_moving = False
        #: When the last frame was drawn (time.monotonic), for tests and guards.
        self.drawn_at = 0.0
        #: Held keys and mouse buttons -> when they went down.
        self.held: dict[tuple[str, int], float] = {}
        #: When the press behind the input being handled began (-inf: before we knew).
        self.input_began = float("-inf")
        self._release_began = float("-inf")
        #: When the window last gained the keyboard's focus (see FOCUS_GUARD_SECONDS).
        self.focused_at = float("-inf")
        self.focus_guard_seconds = FOCUS_GUARD_SECONDS
        #: The event being handled comes before a loss of focus in its batch: SDL sends a
        #: release for every held key just before it tells that the window lost focus.
        self._leaving = False
        #: Faults caught at the loop (a fault while recovering from one is not caught).
        self.crashes = 0
        self.guard_seconds = GUARD_SECONDS
        self._recovering = False
        from .cues import Cues
        #: Sound and speech for what the screen shows (game/ui/cues.py).
        self.cues = Cues(self.settings)

    def _open_window(self) -> pygame.Surface:
        self.presenter.invalidate()
        if self.settings.fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(self.size, pygame.RESIZABLE)

    def _new_ui(self) -> pygame_gui.UIManager:
        """A UI manager for the window, themed at the interface's size and theme now."""
        ui = ThemedUI(self.screen.get_size(), look.theme_data())
        ui.preload_fonts([{"name": "noto_sans", "point_size": look.px(16), "style": style,
                           "antialiased": "1"} for style in ("italic",)])
        return ui

    def restyle(self) -> bool:
        """Adopt the settings' interface size (the largest that fits the window, see
        ``look.fitting_scale``) and theme; when either changed, the widgets of the top
        scene are made again with a freshly themed UI manager.  Returns whether it did."""
        percent = look.fitting_scale(self.settings.ui_scale, self.screen.get_size())
        if not look.set_look(percent, self.settings.theme):
            return False
        top = self.stack.top
        if top is not None:
            top.pause()  # its widgets (and any it keeps across rebuilds) go with the old UI
        self.ui = self._new_ui()
        if top is not None:
            top.build()
        self.touch(full=True)
        return True

    @property
    def ui_scale(self) -> float:
        """The interface's scale now (1.0 at 100%; text, panels, buttons, cards and
        tooltips follow it, the board keeps its zoom)."""
        return look.scale()

    @property
    def window_size(self) -> tuple[int, int]:
        return self.screen.get_size()

    # scenes ------------------------------------------------------------------
    def push(self, scene: Scene) -> Scene:
        self.touch(full=True)
        return self.stack.push(scene)

    def pop(self) -> Scene | None:
        self.touch(full=True)
        return self.stack.pop()

    def replace(self, scene: Scene) -> Scene:
        self.touch(full=True)
        return self.stack.replace(scene)

    def to_menu(self) -> None:
        from .scenes.menu import MainMenu
        self.touch(full=True)
        self.stack.reset(MainMenu(self))

    def quit(self) -> None:
        self.running = False

    def touch(self, seconds: float | None = None, full: bool = False) -> None:
        """Ask for a frame now and for frames a little while (default: SETTLE_SECONDS);
        ``full``: the layout changed, so the next frame presents the whole window."""
        self.dirty = True
        if full:
            self.presenter.invalidate()
        seconds = SETTLE_SECONDS if seconds is None else seconds
        self.redraw_until = max(self.redraw_until, time.monotonic() + seconds)

    def toast(self, message: str, error: bool = False, seconds: float = 4.0,
              scene: Scene | None = None, while_: Any = None, info: bool = False,
              seat: int | None = None) -> None:
        """Show a short message over every scene (saved, refused, bad file...); with
        ``scene``, only while that scene is on top (a hint stays with its game, never over
        the rules or the menu opened from it); with ``while_``, only while it returns true
        (and gone for good once it does not).  ``error``: a refusal or a fault (a red edge
        and an exclamation mark); ``info``: news that is no refusal (a player left, an undo
        done, a line said at the table: a blue edge and an "i" mark, or the seat's mark when
        ``seat`` is given)."""
        toast = Toast((message, time.monotonic() + seconds, error))
        toast.scene, toast.while_ = scene, while_
        toast.kind = "error" if error else "info" if info or seat is not None else "plain"
        toast.seat = seat
        self.toasts.append(toast)
        self.cues.say(message)
        self.touch()  # and a frame when it expires (see wants_frame)

    # settings ------------------------------------------------------------------
    def apply_settings(self, settings: Settings) -> None:
        """Adopt and keep new settings, reopening the window if its size changed and
        restyling the widgets if the interface's size or theme did."""
        changed = (settings.window != self.settings.window)
        settings.save(self.settings_path)  # raises SaveError before anything changes
        self.settings = settings
        self.cues.apply(settings)
        if changed:
            self.size = settings.size
            self.screen = self._open_window()
            self.resized()
        else:
            self.restyle()

    def resized(self) -> None:
        if not self.restyle():  # a smaller window may want a smaller interface
            self.ui.set_window_resolution(self.screen.get_size())
            if self.stack.top:
                self.stack.top.rebuild()
        self.touch(full=True)

    # the loop --------------------------------------------------------------------
    def run(self) -> None:
        """Run until the player quits (starting at the main menu if nothing is open)."""
        if self.stack.top is None:
            self.to_menu()
        while self.running and self.stack.top:
            self.step()
        pygame.quit()

    def step(self, events: list[pygame.event.Event] | None = None) -> bool:
        """One loop turn: events, update, and a draw if anything changed.

        Tests pass ``events`` to drive the program; then nothing blocks.  A fault in a
        scene is caught here (see :meth:`crashed`).
        """
        try:
            return self._step(events)
        except Exception as exc:  # noqa: BLE001 - no fault may close the window with a game
            if self._recovering or os.environ.get("TABLETOP_FAULTS") == "raise":
                raise  # the test suite wants to see its faults
            self.crashed(exc)
            return False

    def _step(self, events: list[pygame.event.Event] | None) -> bool:
        if events is None:
            events = pygame.event.get()
            if not events and not self.wants_frame():
                # Idle: sleep instead of pygame.event.wait, which some SDL video
                # drivers implement by polling every millisecond.
                time.sleep(IDLE_SLEEP)
                events = pygame.event.get()
        # The releases SDL sends as the window loses focus come just before the loss, in
        # the same batch: they end no press made in this window.
        leaving = max((i for i, event in enumerate(events) if focus_change(event) < 0),
                      default=-1)
        for i, event in enumerate(events):
            self._leaving = i < leaving
            try:
                self.dispatch(event)
            finally:
                self._leaving = False
        dt = min(self.clock.tick(self.fps) / 1000.0, 0.1)
        top = self.stack.top
        moving = bool(top and top.update(dt))
        if moving or self._was_moving or self.wants_frame() or self.frames == 0:
            self.dirty = False
            self.ui.update(dt)
            self.draw()
        self._was_moving = moving
        return moving

    def wants_frame(self) -> bool:
        """Whether the next loop turn must draw: a change was signalled, frames were asked
        for, or a pygame_gui widget has a rebuild or tooltip pending."""
        now = time.monotonic()
        return (self.dirty or now < self.redraw_until or self._was_moving
                or any(until <= now for _text, until, _error in self.toasts)
                or self._ui_pending())

    def _ui_pending(self) -> bool:
        for element in self.ui.get_sprite_group().sprites():
            if getattr(element, "should_trigger_full_rebuild", False):
                return True
            if (getattr(element, "hovered", False) and getattr(element, "tool_tip_text", None)
                    and getattr(element, "tool_tip", True) is None):
                return True
        return False

    def _track(self, event: pygame.event.Event) -> None:
        """Note when the press behind ``event`` began (``input_began``): minus infinity for
        one that did not both begin and end in this window (a key held across a switch of
        windows, either way), which no guard takes as fresh."""
        now = time.monotonic()
        kind = event.type
        if kind in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            key = (("key", getattr(event, "key", None)) if kind == pygame.KEYDOWN
                   else ("mouse", getattr(event, "button", None)))
            began = now
            if kind == pygame.KEYDOWN and now < self.focused_at + self.focus_guard_seconds:
                began = float("-inf")  # held in another window as this one gained focus
            # A key's repeats are one press that began at its first KEYDOWN.
            self.input_began = self.held.setdefault(key, began)
        elif kind in (pygame.KEYUP, pygame.MOUSEBUTTONUP):
            key = (("key", getattr(event, "key", None)) if kind == pygame.KEYUP
                   else ("mouse", getattr(event, "button", None)))
            self.input_began = self.held.pop(key, float("-inf"))
            if self._leaving:
                self.input_began = float("-inf")  # SDL's release as the window loses focus
            if kind == pygame.MOUSEBUTTONUP and key[1] == 1:
                self._release_began = self.input_began
        elif kind == pygame_gui.UI_BUTTON_PRESSED:
            # A click ends with the release; a press from the keyboard or a test has no mouse.
            clicked = getattr(event, "mouse_button", None) is not None
            self.input_began = self._release_began if clicked else now
        elif focus_change(event) < 0:
            self.held.clear()  # their releases will go to another window
        elif focus_change(event) > 0:
            self.held.clear()
            self.focused_at = now
        else:
            self.input_began = now

    def dispatch(self, event: pygame.event.Event) -> None:
        if event.type == pygame.NOEVENT:
            return
        self.touch()
        self._track(event)
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == pygame.VIDEORESIZE and not self.settings.fullscreen:
            width, height = max(event.w, MIN_SIZE[0]), max(event.h, MIN_SIZE[1])
            if (width, height) != (event.w, event.h):
                self.screen = pygame.display.set_mode((width, height), pygame.RESIZABLE)
            self.resized()
            return
        if event.type == pygame.WINDOWEXPOSED:
            self.presenter.invalidate()  # the window was covered: show all of it again
            return
        top = self.stack.top
        if top is not None and top.intercept(event):
            return
        used = self.ui.process_events(event)
        if top is not None and (not used or event.type >= pygame.USEREVENT):
            top.handle_event(event)

    def draw(self) -> None:
        """Compose a frame and present what changed (everything after a layout change)."""
        start, cpu = time.perf_counter(), time.thread_time()
        self.compose(self.screen)
        self.presenter.present(self.screen)
        self.frames += 1
        self.drawn_at = time.monotonic()
        self.draw_ms = (time.perf_counter() - start) * 1000
        self.draw_cpu_ms = (time.thread_time() - cpu) * 1000

    def compose(self, surface: pygame.Surface) -> None:
        """Draw the whole frame on ``surface``: the visible scenes, the widgets, the toasts."""
        scenes = self.stack.visible()
        if not (scenes and scenes[0].covers_window):
            surface.fill(panel_fill(BACKGROUND))
        for scene in scenes:
            scene.draw(surface)
        self.ui.draw_ui(surface)
        self._draw_toasts(surface)

    def _draw_toasts(self, surface: pygame.Surface) -> None:
        now = time.monotonic()
        self.toasts = [t for t in self.toasts if t[1] > now and (
            getattr(t, "while_", None) is None or t.while_())]
        # Over the scene's own place for them (a game: its board, so that the panel's title
        # and buttons stay readable), else at the window's top.
        top = self.stack.top
        area = (top.toast_area() if top is not None else None) or surface.get_rect()
        px = look.px
        y = area.y + 14
        width = min(px(720), area.width - 40)
        shown = [t for t in self.toasts if getattr(t, "scene", None) in (None, top)]
        self.toast_rects = []
        for toast in shown[-3:]:
            message, kind = toast[0], getattr(toast, "kind", "error" if toast[2] else "plain")
            marked = kind != "plain"  # a mark beside the words: never colour alone
            indent = px(16) + (px(26) if marked else 0)
            lines = wrap_text(message, 17, width - indent - px(16))
            box = pygame.Rect(0, y, width, px(18) + px(24) * len(lines))
            box.centerx = area.centerx
            self.toast_rects.append((message, box))
            pygame.draw.rect(surface, panel_fill(), box, border_radius=8)
            pygame.draw.rect(surface, TOAST_EDGES[kind], box, 2, border_radius=8)
            if marked:
                draw_toast_mark(surface, kind, getattr(toast, "seat", None),
                                (box.x + px(16) + px(10), box.y + px(9) + px(12)), px(10))
            for i, line in enumerate(lines):
                draw_text(surface, line, (box.x + indent, box.y + px(9) + px(24) * i), 17, TEXT)
            y = box.bottom + 8

    # faults ----------------------------------------------------------------------------
    def crashed(self, exc: BaseException) -> None:
        """A scene failed: write a crash report beside the saves (the traceback and the
        match being played, if any), go back to the main menu and tell the person.  The
        autosave is left as it was, so Continue resumes the game."""
        self.crashes += 1
        self._recovering = True
        try:
            report = self.write_crash_report(exc)
            where = (f"A report, {report.name}, was written beside the saves." if report
                     else "No report could be written.")
            print(f"tabletop: {type(exc).__name__}: {exc}; crash report: {report}",
                  file=sys.stderr)
            from .scenes.play import PlayScene
            play = self.stack.find(PlayScene)
            game = (" Your game is kept: Continue on the main menu resumes it."
                    if play is not None and play.match.actions else "")
            self.toasts.clear()
            while self.stack.scenes:  # leave every scene, even one that fails to leave
                scene = self.stack.scenes.pop()
                try:
                    scene.exit()
                except Exception:  # noqa: BLE001
                    pass
            self.ui.clear_and_reset()
            self.to_menu()
            from .scenes.notice import NoticeScene
            self.push(NoticeScene(self, "Something went wrong",
                                  f"The program met an error ({type(exc).__name__}: {exc})."
                                  f"{game} {where}"))
            self.draw()
        finally:
            self._recovering = False

    def write_crash_report(self, exc: BaseException) -> Path | None:
        """``crash-<time>.txt`` beside the saves: the traceback, then the match as a save."""
        import yaml
        from game.engine.saves import match_document
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        try:
            from .scenes.play import PlayScene
            play = self.stack.find(PlayScene)
        except Exception:  # noqa: BLE001
            play = None
        if play is not None:
            try:
                document = match_document(play.match)
            except Exception:  # noqa: BLE001 - the match itself may be what broke
                document = {"game": play.match.game_id, "seed": play.match.seed,
                            "seats": play.match.seats, "options": play.match.options,
                            "actions": play.match.actions}
            try:
                text += "\n# The match (seed and actions), as a save:\n" + yaml.safe_dump(
                    document, sort_keys=False, allow_unicode=True)
            except Exception as dump_error:  # noqa: BLE001
                text += f"\n# The match could not be written: {dump_error}\n"
        try:
            folder = paths.saves_dir()
            folder.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = folder / f"crash-{stamp}.txt"
            number = 1
            while path.exists():
                number += 1
                path = folder / f"crash-{stamp}-{number}.txt"
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            return None

    def screenshot(self, path: str | Path) -> None:
        """Save what the window shows now."""
        self.draw()
        pygame.image.save(self.screen, str(path))
