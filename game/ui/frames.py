"""Putting frames on screen: only the parts that changed.

The loop composes every frame from cached pictures (the play scene keeps its board and
its panel as pictures, so a frame is two blits, the pieces and the widgets), then
:class:`Presenter` compares it with the frame presented before, band by band of rows
(``BAND``), and hands only the runs of bands that differ to ``pygame.display.update``.  Whatever changed -- a
piece in flight, a tooltip, a toast, a button's hover look, a pygame_gui widget that
redrew its own picture in place -- is found by its pixels, so nothing on the window can
go stale however a widget or a game screen draws itself.  After a layout change (a new
window size, another scene, the window uncovered) the whole window is flipped.

On X11 the window's surface is pushed to the server with MIT-SHM, rectangle by
rectangle: :func:`prefer_direct_framebuffer` turns off SDL's OpenGL "texture
framebuffer", which presents the whole window whatever part changed (with a software
OpenGL, as on a virtual X server, that alone costs more than a frame at 1920x1080).

>>> import pygame
>>> surface = pygame.Surface((64, 48))
>>> presenter = Presenter(update=lambda rects: None, flip=lambda: None)
>>> presenter.present(surface)            # the first frame: all of it
[Rect(0, 0, 64, 48)]
>>> presenter.present(surface)            # nothing changed: nothing to present
[]
>>> _ = pygame.draw.rect(surface, (255, 0, 0), (20, 20, 5, 5))
>>> presenter.present(surface)
[Rect(0, 16, 64, 16)]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import pygame

#: Rows compared at a time (a changed band is presented whole).
BAND = 16
#: Present the whole window when the changed part is at least this share of it.
FLIP_SHARE = 0.6
#: ... or when it comes in more rectangles than this.
MAX_RECTS = 24


def prefer_direct_framebuffer() -> None:
    """Ask SDL (before the window opens) to present an X11 window's surface directly
    (MIT-SHM), so that ``pygame.display.update(rects)`` sends only ``rects``.  Only for
    the x11 driver: other drivers may have no direct framebuffer at all.  A value the
    person set in ``SDL_FRAMEBUFFER_ACCELERATION`` is kept."""
    if pygame.display.get_init() and pygame.display.get_driver() == "x11":
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")


def framebuffer_kind() -> str:
    """How the window reaches the screen: the SDL video driver, and on X11 whether its
    surface goes directly (``direct``) or through SDL's OpenGL texture (``texture``)."""
    if not pygame.display.get_init():
        return "none"
    driver = pygame.display.get_driver()
    if driver != "x11":
        return driver
    hint = os.environ.get("SDL_FRAMEBUFFER_ACCELERATION", "")
    direct = hint.lower() in ("0", "false", "software")
    return f"x11 ({'direct' if direct else 'texture'} framebuffer)"


class Presenter:
    """Presents a composed window surface, sending only what differs from the last frame.

    ``update`` and ``flip`` default to pygame's; tests pass their own to keep a shadow
    copy of what was presented.
    """

    def __init__(self, update: Callable[[Sequence[pygame.Rect]], None] | None = None,
                 flip: Callable[[], None] | None = None) -> None:
        self._update = update or pygame.display.update
        self._flip = flip or pygame.display.flip
        #: The last presented frame, one ``bytes`` per band of rows (None: nothing yet).
        self._bands: list[bytes] | None = None
        self._shape: tuple[int, int, int, int] | None = None
        #: What the last :meth:`present` sent: the rectangles (the whole window on a flip).
        self.last: list[pygame.Rect] = []

    def invalidate(self) -> None:
        """The window's content is unknown (a new size, uncovered): flip the next frame."""
        self._bands = None

    def present(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect]:
        """Put ``surface`` on screen: the rectangles that changed since the last frame, or
        the whole of it after :meth:`invalidate`, when ``full``, or when most of it
        changed.  Returns what was sent (empty: nothing changed)."""
        width, height = surface.get_size()
        shape = (width, height, surface.get_pitch(), surface.get_bytesize())
        everything = [pygame.Rect(0, 0, width, height)]
        fresh = full or self._bands is None or shape != self._shape
        if shape != self._shape or self._bands is None:
            pitch = shape[2]
            self._bands = [bytearray(pitch * min(BAND, height - top))
                           for top in range(0, height, BAND)]
            self._shape = shape
        rects = self._compare(surface, fresh)
        area = sum(r.width * r.height for r in rects)
        if fresh or area >= FLIP_SHARE * width * height or len(rects) > MAX_RECTS:
            self.last = everything
            self._flip()
        elif rects:
            self.last = rects
            self._update(rects)
        else:
            self.last = []
        return self.last

    def _compare(self, surface: pygame.Surface, fresh: bool) -> list[pygame.Rect]:
        """Keep ``surface``'s pixels as the last frame; return the runs of bands of rows
        that differ from the frame kept before (``fresh``: just keep them).

        A kept band is a ``bytearray`` compared with a view of the surface, which is a
        ``memcmp``: the window is not copied, only its changed bands are.  A changed run
        is presented at the window's full width: finding its columns would cost more
        than sending them (the X server copies a 1920-pixel row in well under a
        microsecond)."""
        width = surface.get_width()
        assert self._bands is not None
        rects: list[pygame.Rect] = []
        run: pygame.Rect | None = None
        proxy = surface.get_buffer()  # locks the surface until released below
        try:
            with memoryview(proxy) as pixels:
                start, top = 0, 0
                for kept in self._bands:
                    size = len(kept)
                    now = pixels[start:start + size]
                    if fresh:
                        kept[:] = now
                    elif kept != now:  # bytearray first: a memcmp with the buffer
                        kept[:] = now
                        rows = min(BAND, surface.get_height() - top)
                        if run is None:
                            run = pygame.Rect(0, top, width, rows)
                            rects.append(run)
                        else:
                            run.height += rows
                    else:
                        run = None
                    now.release()
                    start += size
                    top += BAND
        finally:
            del proxy
        return rects
