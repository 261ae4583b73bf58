"""Colour arithmetic for checking the screens can be read by everyone (pure, no pygame).

* WCAG 2.2 relative luminance and contrast ratio (text needs 4.5:1, controls and
  highlights 3:1);
* colour-vision-deficiency simulation: Machado, Oliveira and Fernandes (2009) matrices at
  severity 1.0 for protanopia, deuteranopia and tritanopia, applied in linear RGB, and a
  greyscale (luminance only);
* CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), on CIELAB from sRGB (D65).

``python -m game.ui.colourcheck`` prints the figures per game (contrast of text and
highlights, the smallest colour distances between seats and highlight kinds under each
simulation); only that report imports the drawing modules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

RGB = Sequence[float]

#: Machado et al. 2009, severity 1.0, for linear RGB.
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
SIMULATIONS = ("none", "protanopia", "deuteranopia", "tritanopia", "greyscale")


def to_linear(c: float) -> float:
    """One sRGB channel (0-255) as linear light (0-1)."""
    c = c / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(v: float) -> float:
    """Linear light (0-1, clamped) as an sRGB channel (0-255, not rounded)."""
    v = min(1.0, max(0.0, v))
    return 255 * (v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour (0-255 channels)."""
    r, g, b = (to_linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def blend(top: RGB, alpha: float, below: RGB) -> tuple[float, float, float]:
    """``top`` drawn at opacity ``alpha`` (0-1) over ``below`` (as pygame blends)."""
    return tuple(t * alpha + b * (1 - alpha) for t, b in zip(top[:3], below[:3]))


def simulate(rgb: RGB, kind: str) -> tuple[float, float, float]:
    """How ``rgb`` looks under a colour-vision deficiency (``SIMULATIONS``)."""
    if kind == "none":
        return tuple(float(c) for c in rgb[:3])
    lin = [to_linear(c) for c in rgb[:3]]
    if kind == "greyscale":
        y = to_srgb(0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2])
        return (y, y, y)
    m = MACHADO[kind]
    return tuple(to_srgb(sum(m[i][j] * lin[j] for j in range(3))) for i in range(3))


def to_lab(rgb: RGB) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (to_linear(c) for c in rgb[:3])
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """The CIEDE2000 difference of two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cbar7 = ((c1 + c2) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(cbar7 / (cbar7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbar = (h1p + h2p + 360) / 2
    else:
        hbar = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6))
         - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2
                     + rt * (dc / sc) * (dH / sh))


def distance(a: RGB, b: RGB, kind: str = "none") -> float:
    """CIEDE2000 between two sRGB colours as seen under ``kind``."""
    return ciede2000(to_lab(simulate(a, kind)), to_lab(simulate(b, kind)))


# -- the report ---------------------------------------------------------------------------
#: The legal-target highlight kinds each game draws (the play scene adds its rings).
GAME_KINDS = {"monster_fandango": ("move", "attack", "shoot", "select", "actor"),
              "mothership": ("move", "peek", "deactivate", "assist"),
              "fantasy_racing": ("move", "choose", "attack", "shoot"),
              "odysseus": ("choose",), "fantasy_expedition": ("choose",)}
#: The dark backgrounds text is drawn on: the panel, the window, the boards' status boxes.
DARK_BACKS = ((36, 32, 42), (18, 16, 22), (24, 22, 30), (20, 18, 24), (20, 18, 26),
              (16, 18, 26))


def _hex(text: str) -> tuple[int, int, int]:
    digits = text.lstrip("#")
    return tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def theme_figures(theme: dict, backs: Sequence[RGB]) -> tuple[float, float]:
    """The worst text contrast and the worst control-border contrast of a pygame_gui theme
    (its text against its own backgrounds, or ``backs`` behind see-through ones)."""
    defaults = theme["defaults"]["colours"]
    text, border = 21.0, 21.0
    for block in theme.values():
        if not isinstance(block, dict):
            continue
        colours = {**defaults, **block.get("colours", {})}
        for state in ("normal", "hovered", "selected", "active", "disabled"):
            ink, back = colours.get(f"{state}_text"), colours.get(f"{state}_bg")
            if ink is None or back is None:
                continue
            behind = [_hex(back)] if len(back.lstrip("#")) == 6 else list(backs)
            text = min([text] + [contrast(_hex(ink), b) for b in behind])
        for state in ("normal", "hovered", "selected", "active"):
            edge = colours.get(f"{state}_border")
            if edge:
                border = min([border] + [contrast(_hex(edge), b) for b in backs])
    return text, border


def game_figures(game_id: str, seats: int) -> dict[str, float]:
    """One game's figures: the worst text contrast (panel text, seat names, letters on
    counters), the worst highlight/control contrast, and per simulation the smallest
    CIEDE2000 between two of its ``seats`` seats' colours and between two of the kinds of
    ring it may draw (its target kinds and the play scene's hint, recap, hover, cursor)."""
    from .marks import HALO, HIGHLIGHTS, RING_KINDS, ink_on, readable_on, seat_colour
    from .widgets import ALERT, GOLD, MUTED, TEXT
    out: dict[str, float] = {}
    colours = [seat_colour(n) for n in range(seats)]
    text = min(contrast(c, b) for c in (TEXT, MUTED, GOLD, ALERT) for b in DARK_BACKS)
    text = min([text] + [contrast(readable_on(c, b), b) for c in colours for b in DARK_BACKS])
    text = min([text] + [contrast(ink_on(c), c) for c in colours])
    out["text"] = text
    targets = list(GAME_KINDS[game_id])
    kinds = targets + list(RING_KINDS)
    out["highlights"] = min(contrast(HIGHLIGHTS[k].colour, HALO) for k in kinds)

    def least(names: Sequence[Any], colour_of: Any, kind: str) -> float:
        return min((distance(colour_of(a), colour_of(b), kind)
                    for i, a in enumerate(names) for b in names[i + 1:]), default=float("nan"))

    for kind in SIMULATIONS:
        out[f"seats {kind}"] = least(range(seats), seat_colour, kind)
        out[f"targets {kind}"] = least(targets, lambda k: HIGHLIGHTS[k].colour, kind)
        out[f"all kinds {kind}"] = least(kinds, lambda k: HIGHLIGHTS[k].colour, kind)
    return out


def report() -> str:
    """The contrast and colour-distance table for every game (``python -m
    game.ui.colourcheck``)."""
    from game.engine import controller_class, game_ids

    from .look import THEMES, _theme_file

    lines = []
    for theme in THEMES:  # the high-contrast file over theme.json, as the program loads it
        backs = DARK_BACKS if theme == "normal" else ((0, 0, 0),)
        text, border = theme_figures(_theme_file(theme), backs)
        lines.append(f"theme {theme}: text >= {text:.2f}:1, control borders >= {border:.2f}:1")
    figures = {g: game_figures(g, controller_class(g).max_seats) for g in game_ids()}
    lines.append("")
    lines.append(f"{'game (max seats)':<25} text >= 4.5   highlights >= 3")
    for game_id, f in figures.items():
        seats = controller_class(game_id).max_seats
        lines.append(f"{game_id + f' ({seats})':<25} {f['text']:8.2f}   {f['highlights']:12.2f}")
    for what, words in (("seats", "between two seats' colours"),
                        ("targets", "between two target kinds (move, attack...)"),
                        ("all kinds", "between any two rings (targets, hint, recap, hover, "
                                      "cursor)")):
        lines.append("")
        lines.append(f"smallest CIEDE2000 {words}:")
        lines.append(f"{'':<25}" + "".join(f"{k:>13}" for k in SIMULATIONS))
        for game_id, f in figures.items():
            lines.append(f"{game_id:<25}" + "".join(
                f"{f[f'{what} {k}']:13.1f}" for k in SIMULATIONS))
    lines.append("")
    lines.append("text: the worst of panel text, seat names and letters on counters; "
                 "highlights: target and ring colours against their dark halo. A CIEDE2000 "
                 "under 10 (nan: one only) is allowed only where the two marks differ -- every "
                 "seat has its own shape and every kind its own icon "
                 "(tests/test_colour_marks.py).")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
