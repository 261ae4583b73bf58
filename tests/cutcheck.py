"""Finds text that does not show whole (issue 25, item 5): for the tests of every scene.

What counts as cut:

* a pygame_gui button or label whose text is wider (or taller) than the room the widget
  gives it: pygame_gui clips such a label silently ("Next ste" in a quarter-wide button);
* any text drawn with an ellipsis ("…"): every shortening helper (``widgets.fit``, the
  settings' path, the Odysseus board's own) ends its text so;
* a text wrapped into lines (``wrap_text``) of which only some are drawn (the rest
  dropped for want of room);
* hand-drawn text (``draw_text``, the Odysseus board's ``_text``) that leaves the surface
  or the clip area it is drawn in, that overlaps another such text of the same scene, a
  visible widget, or a decoration (the backdrop's moon).

:class:`Audit` installs the spies (undone by ``monkeypatch``); ``audit.problems(app, where)``
draws the window once and returns what it found, each line saying where.
"""

from __future__ import annotations

import itertools
import sys
from typing import Any

import pygame
from pygame_gui.core import UIContainer
from pygame_gui.elements import UITextBox, UITextEntryLine, UITooltip

import game.ui.backdrop as backdrop_module
import game.ui.widgets as W

ELLIPSIS = "\u2026"


def widget_text_problems(app) -> list[str]:
    """Visible buttons and labels whose text is wider or taller than the widget's text
    room, or shortened with an ellipsis."""
    root = app.ui.get_root_container()
    found = []
    for e in app.ui.get_sprite_group().sprites():
        if (e is root or not e.alive() or not e.visible or isinstance(e, UITooltip)
                or isinstance(e, (UIContainer, UITextBox, UITextEntryLine))):
            continue
        text = getattr(e, "text", None)
        shape = getattr(e, "drawable_shape", None)
        layout = getattr(shape, "text_box_layout", None)
        if not text or layout is None:
            continue
        name = f"{type(e).__name__}({text!r} at {tuple(e.rect)})"
        if ELLIPSIS in text:
            found.append(f"{name} is shortened")
            continue
        room = shape.text_view_rect
        height = 0
        for row in layout.layout_rows:
            width = sum(chunk.font.size(chunk.text)[0] for chunk in row.items
                        if getattr(chunk, "text", None))
            height += row.height
            if width > room.width:
                found.append(f"{name} needs {width} px across, has {room.width}")
        if height > room.height:
            found.append(f"{name} needs {height} px down, has {room.height}")
    return found


def spy_on(monkeypatch, name: str, real: Any, spy: Any) -> None:
    """Put ``spy`` in place of ``real`` (called ``name``) in every module of the game that
    holds it -- or holds the spy of an earlier test: a module first imported while another
    test's spy was in place kept that one, and would draw unseen."""
    spy.cutcheck_real = real
    for mod in list(sys.modules.values()):
        held = getattr(mod, name, None) if getattr(mod, "__name__", "").startswith(
            "game") else None
        if held is real or (held is not None and getattr(held, "cutcheck_real", None) is real):
            monkeypatch.setattr(mod, name, spy)


class Audit:
    """Spies on text drawing; see the module's docstring."""

    def __init__(self, monkeypatch) -> None:
        self.recording = False
        self.drawn: list[tuple[pygame.Surface, pygame.Rect, str]] = []
        self.moons: list[pygame.Rect] = []
        self.wrapped: list[tuple[str, list[str]]] = []
        draw_text = W.draw_text

        def spied_draw_text(surface, text, pos, size=16, colour=W.TEXT, bold=False,
                            anchor="topleft", shadow=False):
            rect = draw_text(surface, text, pos, size, colour, bold, anchor, shadow)
            if self.recording:
                ink = W._drawn_text(text, size, tuple(colour), bold,
                                    W.look.text_scale()).get_bounding_rect()
                self.note(surface, ink.move(rect.topleft), text)
            return rect

        spy_on(monkeypatch, "draw_text", draw_text, spied_draw_text)
        wrap_text = W.wrap_text

        def spied_wrap_text(text, size, width, bold=False):
            lines = wrap_text(text, size, width, bold)
            if self.recording:
                self.wrapped.append((str(text), [line for line in lines if line.strip()]))
            return lines

        spy_on(monkeypatch, "wrap_text", wrap_text, spied_wrap_text)
        backdrop = backdrop_module.backdrop

        def spied_backdrop(size):
            if self.recording:
                self.moons.append(backdrop_module.moon_rect(size))
            return backdrop(size)

        spy_on(monkeypatch, "backdrop", backdrop, spied_backdrop)
        self._spy_odysseus(monkeypatch)

    def _spy_odysseus(self, monkeypatch) -> None:
        import game.odysseus.screen as ody
        rendered = ody.rendered
        last: list[tuple[str, pygame.Surface]] = []

        def spied_rendered(text, size, colour, bold):
            image = rendered(text, size, colour, bold)
            last[:] = [(text, image)]  # _text's last picture is the one it draws
            return image

        text_method = ody.OdysseusScreen._text

        def spied_text(screen, surface, text, *a, **k):
            last.clear()
            rect = text_method(screen, surface, text, *a, **k)
            if self.recording and last:
                drawn, image = last[0]
                self.note(surface, image.get_bounding_rect().move(rect.topleft), drawn)
            return rect

        monkeypatch.setattr(ody, "rendered", spied_rendered)
        monkeypatch.setattr(ody.OdysseusScreen, "_text", spied_text)

    def note(self, surface: pygame.Surface, ink: pygame.Rect, text: str) -> None:
        if ink.width and ink.height:
            self.drawn.append((surface, ink, str(text), surface.get_clip()))

    # one look at the window ---------------------------------------------------------
    def problems(self, app, where: str) -> list[str]:
        """Draw ``app``'s window once and return every cut text found (with ``where``)."""
        self.drawn, self.moons, self.wrapped = [], [], []
        surface = pygame.Surface(app.window_size)
        scenes = app.stack.visible()
        for scene in scenes[:-1]:
            scene.draw(surface)
        top = scenes[-1] if scenes else None
        if hasattr(top, "_panel_picture"):  # the play scene's kept pictures: drawn afresh
            top._panel_picture = top._board_picture = None
        self.recording = True
        try:
            if top is not None:
                top.draw(surface)
        finally:
            self.recording = False
        app.ui.draw_ui(surface)
        # Where each picture drawn on went in the window: the window itself, and the play
        # scene's board picture (the whole window) and panel picture (the panel).
        shifts = {id(surface): (0, 0)}
        if getattr(top, "_board_picture", None) is not None:
            shifts[id(top._board_picture)] = (0, 0)
        if getattr(top, "_panel_picture", None) is not None:
            shifts[id(top._panel_picture)] = top.panel_rect().topleft
        found = [f"{where}: {p}" for p in widget_text_problems(app)]
        found += [f"{where}: {p}" for p in self._drawn_problems(app, shifts)]
        return found

    def _drawn_problems(self, app, shifts: dict[int, tuple[int, int]]) -> list[str]:
        found = []
        for surface, ink, text, clip in self.drawn:
            if ELLIPSIS in text:
                found.append(f"{text!r} at {tuple(ink)} is shortened")
            room = clip.clip(surface.get_rect())
            if not room.contains(ink):
                found.append(f"{text!r} at {tuple(ink)} leaves its room {tuple(room)}")
        shown = {text for _surface, _ink, text, _clip in self.drawn}
        for text, lines in self.wrapped:
            missing = [line for line in lines if line not in shown]
            if missing and len(missing) < len(lines):
                found.append(f"{text!r} loses its line(s) {missing}")
        on_screen = [(ink.move(shifts[id(surface)]), text)
                     for surface, ink, text, _ in self.drawn if id(surface) in shifts]
        elsewhere: dict[int, list] = {}  # texts on other pictures: each picture apart
        for surface, ink, text, _ in self.drawn:
            if id(surface) not in shifts:
                elsewhere.setdefault(id(surface), []).append((ink, text))
        for group in [on_screen, *elsewhere.values()]:
            for (a, ta), (b, tb) in itertools.combinations(group, 2):
                if a.colliderect(b) and ta != tb:
                    found.append(f"{ta!r} at {tuple(a)} overlaps {tb!r} at {tuple(b)}")
        for ink, text in on_screen:
            for moon in self.moons:
                if ink.colliderect(moon):
                    found.append(f"{text!r} at {tuple(ink)} overlaps the moon {tuple(moon)}")
            for e in visible_widgets(app):
                if ink.colliderect(e.rect):
                    label = getattr(e, "text", "") or ""
                    found.append(f"{text!r} at {tuple(ink)} is under "
                                 f"{type(e).__name__}({label[:24]!r} at {tuple(e.rect)})")
        return found


def visible_widgets(app) -> list[Any]:
    root = app.ui.get_root_container()
    return [e for e in app.ui.get_sprite_group().sprites()
            if e is not root and e.alive() and e.visible and not isinstance(e, UITooltip)
            and not isinstance(e, UIContainer) and e.rect.width > 0 and e.rect.height > 0
            and getattr(e, "parent_element", None) is None]
