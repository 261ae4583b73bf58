"""How big the interface is drawn and in which colours (Settings: Interface size, Theme).

One place decides both: :func:`set_look` sets the interface scale and the theme, and
everything follows from it.  ``widgets.font`` multiplies every text size drawn by the
scenes and the game screens by the scale, :func:`theme_data` gives pygame_gui a theme whose
font sizes, paddings and borders are multiplied by it (the high-contrast theme is its own
file, ``theme_high_contrast.json``), and the layouts multiply their sizes with :func:`px`.
The board keeps its zoom: it fills the room the panel leaves it, at the zoom the player
chose.

A size needs room: the interface at ``s`` times wants a window of at least
``MIN_ROOM * s`` pixels.  The Settings refuse a size that does not fit the chosen window
(:func:`why_not_size`), and a window dragged smaller than the chosen size allows is drawn
at the largest size that fits (:func:`fitting_scale`).
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

#: The interface sizes offered, in percent.
UI_SCALES = (100, 125, 150, 175, 200)
THEMES = ("normal", "high_contrast")
THEME_FILES = {"normal": Path(__file__).with_name("theme.json"),
               "high_contrast": Path(__file__).with_name("theme_high_contrast.json")}
#: The window (in pixels at 100%) the interface needs: at 150% a window of 1200x720.
#: 800 across: at 125% a 960x600 window left Odysseus's board a third of its zoom and
#: Racing's a track too small for its racers' names (its score board and labels could
#: only be shortened), so 125% asks for 1000x600.
MIN_ROOM = (800, 480)

#: How wide pygame_gui lets a tooltip grow before it wraps, at 100%.
TOOLTIP_WRAP = 170
#: The font size pygame_gui gives widgets whose theme names none.
PYGAME_GUI_FONT = 14

_state = {"scale": 1.0, "contrast": False, "board": False}


def scale() -> float:
    """The interface's scale now (1.0 at 100%)."""
    return _state["scale"]


def text_scale() -> float:
    """The scale of text drawn now: 1.0 on the board (see :func:`board_size`), else the
    interface's."""
    return 1.0 if _state["board"] else _state["scale"]


def text_px(size: float) -> int:
    """A text's size in pixels (``size`` at 100%), as drawn now."""
    return int(round(size * text_scale()))


def high_contrast() -> bool:
    return _state["contrast"]


def px(value: float) -> int:
    """``value`` pixels at 100%, at the interface's size now."""
    return int(round(value * _state["scale"]))


@contextmanager
def board_size() -> Iterator[None]:
    """Within: text is drawn at 100% -- what a game screen draws over its board (labels,
    status boxes, pieces) keeps the board's zoom, whatever the interface's size (layout
    sizes, ``px``, stay the interface's: the board's place depends on the panel's)."""
    kept = _state["board"]
    _state["board"] = True
    try:
        yield
    finally:
        _state["board"] = kept


@contextmanager
def interface_size(factor: float | None = None) -> Iterator[None]:
    """Within (inside :func:`board_size`): text is drawn at the interface's size again --
    for what a game screen draws over its board in window pixels rather than in the
    board's (a status box, a race table, a dice box: interface, not board), whose layout
    then multiplies its sizes with :func:`px`.  ``factor``: at that scale instead (a box
    that shares too little room with another at the interface's own size)."""
    kept = _state["board"], _state["scale"]
    _state["board"] = False
    if factor is not None:
        _state["scale"] = factor
    try:
        yield
    finally:
        _state["board"], _state["scale"] = kept


def why_not_size(percent: int, window: tuple[int, int]) -> str | None:
    """Why the interface cannot be ``percent`` % in a window of ``window`` pixels (None:
    it fits)."""
    need = (round(MIN_ROOM[0] * percent / 100), round(MIN_ROOM[1] * percent / 100))
    if window[0] >= need[0] and window[1] >= need[1]:
        return None
    return (f"An interface at {percent}% needs a window of at least {need[0]} × {need[1]}; "
            f"this one is {window[0]} × {window[1]}. Choose a larger window first.")


def fitting_scale(percent: int, window: tuple[int, int]) -> int:
    """The largest offered size up to ``percent`` that fits ``window`` (100 at least)."""
    fits = [p for p in UI_SCALES if p <= percent and why_not_size(p, window) is None]
    return max(fits, default=UI_SCALES[0])


def set_look(percent: int, theme: str = "normal") -> bool:
    """Draw the interface at ``percent`` % in ``theme``; returns whether anything changed.
    The kept pictures of texts (every cached function in the program's modules) are
    forgotten when it did."""
    new = {"scale": percent / 100, "contrast": theme == "high_contrast", "board": False}
    if new == _state:
        return False
    _state.update(new)
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("game."):
            continue
        for value in list(vars(module).values()):
            if callable(value) and hasattr(value, "cache_clear") and value is not _theme_file:
                value.cache_clear()
    return True


@lru_cache(maxsize=4)
def _theme_file(theme: str) -> dict[str, Any]:
    data = json.loads(THEME_FILES["normal"].read_text(encoding="utf-8"))
    if theme != "normal":
        _merge(data, json.loads(THEME_FILES[theme].read_text(encoding="utf-8")))
    return data


def _merge(into: dict[str, Any], more: dict[str, Any]) -> None:
    for key, value in more.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def theme_data(percent: int | None = None, theme: str | None = None) -> dict[str, Any]:
    """The pygame_gui theme at ``percent`` % (default: now) in ``theme`` (default: now):
    theme.json, with the high-contrast file's colours over it, font sizes, paddings,
    borders and corners multiplied by the scale."""
    factor = (percent / 100) if percent is not None else _state["scale"]
    if theme is None:
        theme = "high_contrast" if _state["contrast"] else "normal"
    data = copy.deepcopy(_theme_file(theme))

    def times(text: str) -> str:
        return ",".join(str(max(1, int(round(float(part) * factor))))
                        for part in str(text).split(","))

    # The widgets whose font the theme leaves to pygame_gui (Noto Sans at 14 px) get it
    # named, so that it can grow too.
    for kind in ("button", "label", "text_entry_line", "horizontal_slider", "title_bar",
                 "window", "drop_down_menu", "selection_list"):
        data.setdefault(kind, {}).setdefault("font", {"name": "noto_sans",
                                                      "size": str(PYGAME_GUI_FONT)})
    for block in data.values():
        if not isinstance(block, dict):
            continue
        font = block.get("font")
        if isinstance(font, dict) and "size" in font:
            font["size"] = times(font["size"])
        misc = block.get("misc")
        if isinstance(misc, dict):
            for key in ("padding", "shape_corner_radius", "border_width", "text_shadow_size"):
                if key in misc:
                    misc[key] = times(misc[key])
    # A tooltip's font is the default's unless the theme says otherwise, and it wraps at
    # pygame_gui's 170 pixels, scaled (explicit widths: app.ThemedUI).
    data.setdefault("tool_tip", {}).setdefault("font", dict(data["defaults"]["font"]))
    data["tool_tip"].setdefault("misc", {}).setdefault("rect_width",
                                                       str(round(TOOLTIP_WRAP * factor)))
    return data


def text_colour(colour: tuple[int, ...]) -> tuple[int, ...]:
    """A text's colour in the theme now: in high contrast, dark ink goes black and every
    light colour goes brighter and paler (towards white on the dark panels), keeping its
    hue so that a seat's colour still tells (never alone: names and marks tell too)."""
    if not _state["contrast"]:
        return colour
    r, g, b = colour[:3]
    if 0.2126 * r + 0.7152 * g + 0.0722 * b < 70:
        return (0, 0, 0, *colour[3:])
    top = max(r, g, b, 1)
    bright = [c * 255 / top for c in (r, g, b)]
    return (*(int(round(c + (255 - c) * 0.45)) for c in bright), *colour[3:])
