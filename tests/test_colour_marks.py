"""Never colour alone: seats and highlight kinds differ by a mark, not only by colour, and
text and highlights contrast with what is behind them.

* the colour arithmetic (CIEDE2000 against Sharma, Wu and Dalal's 2005 test pairs; the
  Machado 2009 simulations keep grey grey);
* the mark tables: every seat a different shape, every highlight kind a different
  pattern-and-icon;
* sampled positions of every game (seeded computer games stopped at a few points): the
  board is drawn, every seat's shape shows on screen (the pixels where a mark was drawn
  still show it), likewise every highlight's icon; under protanopia, deuteranopia,
  tritanopia and greyscale the marks keep their contrast, and any two seats (or highlight
  kinds) on screen either differ by a CIEDE2000 >= 10 or -- always -- by their shape;
* WCAG 2.2 contrast: the pygame_gui theme's text (4.5:1), the drawing colours used for
  text and highlights (4.5:1 and 3:1).

Run with ``-s`` to see the figures per game.
"""

from __future__ import annotations

import json
from itertools import combinations

import pygame
import pytest

from game.engine import Match, controller_class, game_ids
from game.ui import colourcheck as cc

SHARMA_2005 = [  # L1 a1 b1, L2 a2 b2, CIEDE2000
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]
SIMULATIONS = ("protanopia", "deuteranopia", "tritanopia", "greyscale")
VISIBLE = 10.0  # CIEDE2000: a difference a person sees at a glance


@pytest.mark.parametrize("lab1, lab2, expected", SHARMA_2005)
def test_ciede2000_matches_sharma_2005(lab1, lab2, expected):
    assert cc.ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert cc.ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_simulations_keep_greys_and_merge_red_with_green():
    for kind in SIMULATIONS:
        for grey in (0, 128, 255):
            assert cc.simulate((grey, grey, grey), kind) == pytest.approx((grey,) * 3, abs=1.0)
    red, green = (200, 60, 40), (80, 150, 40)
    assert cc.distance(red, green) > 30
    assert cc.distance(red, green, "deuteranopia") < cc.distance(red, green) / 2
    assert cc.to_lab((255, 255, 255)) == pytest.approx((100, 0, 0), abs=0.01)
    assert cc.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)


def test_every_seat_and_highlight_kind_has_its_own_mark():
    from game.ui.marks import HIGHLIGHTS, SEAT_MARKS, SEAT_SHAPES
    from game.ui.widgets import SEAT_COLOURS
    assert len(SEAT_MARKS) == len(SEAT_COLOURS) == len(set(SEAT_SHAPES))
    assert len({m.shape for m in SEAT_MARKS}) == len(SEAT_MARKS)
    assert len({h.icon for h in HIGHLIGHTS.values()}) == len(HIGHLIGHTS)
    # A kind's colour is never the only thing that tells it from another: the icons all
    # differ, and kinds drawn in alike colours differ in line pattern too.
    for (a, ha), (b, hb) in combinations(HIGHLIGHTS.items(), 2):
        if min(cc.distance(ha.colour, hb.colour, k) for k in ("none",) + SIMULATIONS) < VISIBLE:
            assert (ha.style, ha.icon) != (hb.style, hb.icon), (a, b)
    for n in range(max(c.max_seats for c in map(controller_class, game_ids()))):
        assert n < len(SEAT_MARKS), "every seat a game allows has a shape"


# -- drawn boards ----------------------------------------------------------------------
SAMPLES = (4, 20, 45)  # actions into the game before the position is drawn


def _seats(game_id):
    cls = controller_class(game_id)
    count = cls.min_seats if cls.min_seats > 4 else min(cls.max_seats, 4)
    return [{"name": f"P{i + 1}", "kind": "human" if i == 0 else "bot"} for i in range(count)]


def _positions(game_id):
    """Seeded computer play, stopped at the person's turn after each of ``SAMPLES``."""
    from game.engine.bots import choose_action
    for n, steps in enumerate(SAMPLES):
        match = Match.new(game_id, _seats(game_id), seed=11 + n)
        for _ in range(400):
            to_act = match.to_act()
            if match.is_over() or not to_act or (0 in to_act and len(match.actions) >= steps):
                break
            match.act(to_act[0], choose_action(match, to_act[0]))
        if not match.is_over() and 0 in match.to_act():
            yield match


def _next_turn(match) -> bool:
    """Computers play the person's turn and the others' up to the person's next one."""
    from game.engine.bots import choose_action
    match.act(0, choose_action(match, 0))
    for _ in range(200):
        to_act = match.to_act()
        if match.is_over() or not to_act:
            return False
        if 0 in to_act:
            return True
        match.act(to_act[0], choose_action(match, to_act[0]))
    return False


def _intact(frame: pygame.Surface, rect: pygame.Rect, redraw) -> bool:
    """Whether the mark drawn in ``rect`` still shows on ``frame``: drawing it again there
    changes (nearly) no pixel."""
    rect = rect.clip(frame.get_rect())
    if rect.width < 3 or rect.height < 3:
        return False
    before = frame.subsurface(rect).copy()
    again = frame.copy()
    redraw(again)
    after = again.subsurface(rect)
    changed = sum(before.get_at((x, y)) != after.get_at((x, y))
                  for x in range(rect.width) for y in range(rect.height))
    return changed <= 0.05 * rect.width * rect.height


def _spread(frame: pygame.Surface, rect: pygame.Rect, kind: str) -> float:
    """The contrast between the lightest and darkest pixels of ``rect`` as seen under
    ``kind``: a mark that reads is light against dark (its face against its edge)."""
    rect = rect.clip(frame.get_rect())
    lums = [cc.luminance(cc.simulate(tuple(frame.get_at((x, y)))[:3], kind))
            for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom)]
    return (max(lums) + 0.05) / (min(lums) + 0.05)


FIGURES: dict[str, dict[str, float]] = {}
#: The play scene's own rings: the hint, the recap, the mouse's place and the keyboard
#: cursor (each with its badge, like a target's kind).
RING_KINDS = ("hint", "recap", "hover", "cursor")


#: The highlight kinds each game may draw (the figures compare all of them).
GAME_KINDS = {"monster_fandango": {"move", "attack", "shoot", "select", "actor"},
              "mothership": {"move", "peek", "deactivate", "assist"},
              "fantasy_racing": {"move", "choose", "attack", "shoot"},
              "odysseus": {"choose"}, "fantasy_expedition": {"choose"}}


def _draw(app, match, marks, monkeypatch, prepare=None):
    """The play scene for ``match`` drawn: the frame and the marks drawn on it
    (``prepare(scene)`` first, if given)."""
    from game.ui.scenes.play import PlayScene
    scene = PlayScene(app, match)
    app.push(scene)
    for _ in range(3):
        scene.update(0.05)
    if prepare is not None:
        prepare(scene)
    monkeypatch.setattr(marks, "RECORD", [])
    app.draw()
    record = marks.RECORD
    monkeypatch.setattr(marks, "RECORD", None)
    app.pop()
    return pygame.display.get_surface().copy(), record


def _check(game_id, match, frame, record, kinds_seen):
    seats = [r for r in record if r[0] == "seat"]
    lights = [r for r in record if r[0] == "highlight"]
    intact = [r for r in seats if _intact(frame, r[2], r[3])]
    # Every seat's shape is on screen somewhere (its pieces, card or score line).
    assert {r[1] for r in intact} == set(range(len(match.seats))), game_id
    assert len(intact) >= 0.6 * len(seats), "most seat marks are not covered"
    for r in intact:  # the shape reads in every simulation (face against edge)
        for kind in ("none",) + SIMULATIONS:
            assert _spread(frame, r[2], kind) >= 3.0, (game_id, r[1], kind)
    for r in lights:
        if r[1] in RING_KINDS:  # the play scene's own rings: tests below
            continue
        kinds_seen.add(r[1])
        assert _intact(frame, r[2], r[3]), f"{game_id}: the {r[1]} icon is covered"
        for kind in ("none",) + SIMULATIONS:
            assert _spread(frame, r[2], kind) >= 3.0, (game_id, r[1], kind)


@pytest.mark.parametrize("game_id", game_ids())
def test_seats_and_highlights_keep_their_marks_on_the_board(game_id, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from game.ui import marks
    from game.ui.app import App
    from game.ui.settings import Settings
    app = App(settings=Settings(animation="off", bot_delay=0.2), size=(1280, 720))
    figures = FIGURES.setdefault(game_id, {})
    kinds_seen: set[str] = set()
    positions = 0
    try:
        app.to_menu()
        for match in _positions(game_id):
            positions += 1
            for _ in range(8):  # on to the person's next turn until a target is highlighted
                frame, record = _draw(app, match, marks, monkeypatch)
                if any(r[0] == "highlight" for r in record) or not _next_turn(match):
                    break
            _check(game_id, match, frame, record, kinds_seen)
            select = next((a for a in match.legal_actions(0) if a["type"] == "select"), None)
            if select is not None:  # a unit chosen: its moves and targets light up
                match.act(0, select)
                frame, record = _draw(app, match, marks, monkeypatch)
                _check(game_id, match, frame, record, kinds_seen)
    finally:
        pygame.display.quit()
    assert positions >= 2, "the sampled games reached a person's turn"
    assert kinds_seen and kinds_seen <= GAME_KINDS[game_id], (game_id, kinds_seen)
    # Seats (and highlight kinds) alike in colour are told apart by their marks: the
    # shapes (icons) all differ, so any pair under the CIEDE2000 threshold still differs.
    seats = range(len(match.seats))
    for label, names, colour_of, mark_of in (
            ("seats", seats, marks.seat_colour, lambda n: marks.seat_mark(n).shape),
            ("highlights", sorted(GAME_KINDS[game_id] | set(RING_KINDS)),
             lambda k: marks.HIGHLIGHTS[k].colour, lambda k: marks.HIGHLIGHTS[k].icon)):
        for kind in ("none",) + SIMULATIONS:
            pairs = list(combinations(names, 2))
            for a, b in pairs:
                if cc.distance(colour_of(a), colour_of(b), kind) < VISIBLE:
                    assert mark_of(a) != mark_of(b), (game_id, label, a, b, kind)
            if pairs:
                figures[f"{label} {kind}"] = min(
                    cc.distance(colour_of(a), colour_of(b), kind) for a, b in pairs)
    print(f"\n{game_id} ({len(match.seats)} seats; drawn kinds {sorted(kinds_seen)}): "
          + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))


# -- contrast ----------------------------------------------------------------------------
def _hex(text: str) -> tuple[int, int, int]:
    digits = text.lstrip("#")
    return tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def test_theme_text_contrasts_4_5_and_borders_3():
    from game.ui.app import BACKGROUND
    from game.ui.widgets import PANEL
    import game.ui
    from pathlib import Path
    theme = json.loads((Path(game.ui.__file__).parent / "theme.json").read_text())
    defaults = theme["defaults"]["colours"]
    worst_text, worst_border = 21.0, 21.0
    for name, block in theme.items():
        colours = {**defaults, **block.get("colours", {})}
        for state in ("normal", "hovered", "selected", "active", "disabled"):
            text = colours.get(f"{state}_text")
            back = colours.get(f"{state}_bg")
            if text is None or back is None:
                continue
            # A see-through background (labels): the text lies on the panel or the window.
            behind = [_hex(back)] if len(back.lstrip("#")) == 6 else [PANEL, BACKGROUND]
            for b in behind:
                ratio = cc.contrast(_hex(text), b)
                worst_text = min(worst_text, ratio)
                assert ratio >= 4.5, (name, state, text, back, round(ratio, 2))
        for state in ("normal", "hovered", "selected", "active"):
            border = colours.get(f"{state}_border")
            if border:  # a button's edge against the panel or window around it
                for b in (PANEL, BACKGROUND):
                    ratio = cc.contrast(_hex(border), b)
                    worst_border = min(worst_border, ratio)
                    assert ratio >= 3.0, (name, state, border, round(ratio, 2))
    print(f"\ntheme: text >= {worst_text:.2f}:1, control borders >= {worst_border:.2f}:1")


def test_drawing_colours_contrast():
    from game.ui.app import BACKGROUND
    from game.ui.marks import HALO, HIGHLIGHTS, INK, PAPER, SEAT_MARKS, ink_on, readable_on
    from game.ui.scenes.play import HINT_COLOUR, RECAP_COLOUR
    from game.ui.widgets import ALERT, GOLD, MUTED, NIGHT, PANEL, TEXT
    shades = [PANEL, BACKGROUND, NIGHT, (20, 18, 24), (20, 18, 26), (16, 18, 26)]
    # Text colours on the panels and the boards' dark boxes.
    text = min(cc.contrast(c, b) for c in (TEXT, MUTED, GOLD, ALERT) for b in shades)
    assert text >= 4.5
    # Seat names in seat colours are lifted to 4.5:1; letters on counters are ink or paper.
    seat_text = min(cc.contrast(readable_on(m.colour, b), b) for m in SEAT_MARKS for b in shades)
    assert seat_text >= 4.5
    on_piece = min(cc.contrast(ink_on(tuple(int(c * f) for c in m.colour)),
                               tuple(int(c * f) for c in m.colour))
                   for m in SEAT_MARKS for f in (1.0, 0.6))
    assert on_piece >= 4.5
    assert cc.contrast(PAPER, INK) >= 4.5
    # Highlight lines and icons against the dark halo under them; hint and recap rings
    # against the window.
    light = min(cc.contrast(h.colour, HALO) for h in HIGHLIGHTS.values())
    assert light >= 3.0
    rings = min(cc.contrast(c, BACKGROUND) for c in (HINT_COLOUR, RECAP_COLOUR, GOLD,
                                                      HIGHLIGHTS["hover"].colour))
    assert rings >= 3.0
    print(f"\ncontrast: text {text:.2f}, seat names {seat_text:.2f}, letters on counters "
          f"{on_piece:.2f}, highlights {light:.2f}, hint/recap rings {rings:.2f}")


@pytest.mark.parametrize("game_id", game_ids())
def test_hint_recap_hover_and_cursor_rings_have_their_own_badges(game_id, monkeypatch):
    """The hint, recap, hover and keyboard-cursor rings differed by colour alone: each now
    carries its icon (a bulb, a clock, corner ticks, a key cap) in a badge that shows on
    the board and reads in every simulation, and no two of them (nor a game's target kinds)
    share an icon."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from game.ui import marks
    from game.ui.app import App
    from game.ui.settings import Settings
    assert set(RING_KINDS) == set(marks.RING_KINDS) <= set(marks.HIGHLIGHTS)
    icons = [marks.HIGHLIGHTS[k].icon for k in sorted(GAME_KINDS[game_id] | set(RING_KINDS))]
    assert len(set(icons)) == len(icons)
    app = App(settings=Settings(animation="off", bot_delay=0.2), size=(1280, 720))
    try:
        app.to_menu()
        match = next(iter(_positions(game_id)))

        def rings(scene) -> None:
            cells = scene.screen.cells()
            assert len(cells) >= 4, game_id
            # Four places well apart (each badge sits at its own ring's corner).
            step = max(1, len(cells) // 4)
            hint, recap, hover, cursor = cells[0], cells[step], cells[2 * step], cells[3 * step]
            scene.hover, scene.cursor, scene.keyboard_on_board = hover, cursor, True
            scene.recap_cells = {recap}
            scene.hint_cells = {hint}
            monkeypatch.setattr(scene, "active_hint", lambda: object())

        frame, record = _draw(app, match, marks, monkeypatch, rings)
    finally:
        pygame.display.quit()
    badges = [r for r in record if r[0] == "highlight" and r[1] in RING_KINDS]
    drawn = {r[1] for r in badges}
    assert drawn == set(RING_KINDS), (game_id, drawn)
    for r in badges:
        assert _intact(frame, r[2], r[3]), f"{game_id}: the {r[1]} badge is covered"
        for kind in ("none",) + SIMULATIONS:
            assert _spread(frame, r[2], kind) >= 3.0, (game_id, r[1], kind)


def test_the_colourcheck_report_gives_every_game_its_figures():
    """``python -m game.ui.colourcheck`` prints the closing note's table: the figures it
    prints meet the thresholds (text 4.5:1, highlights 3:1) for every game."""
    from game.ui import marks
    assert {g: set(k) for g, k in cc.GAME_KINDS.items()} == GAME_KINDS
    text = cc.report()
    for game_id in game_ids():
        assert game_id in text
        figures = cc.game_figures(game_id, controller_class(game_id).max_seats)
        assert figures["text"] >= 4.5 and figures["highlights"] >= 3.0, (game_id, figures)
        assert set(figures) >= {f"seats {k}" for k in cc.SIMULATIONS}
    assert "theme high_contrast: text >= " in text
    assert set(marks.RING_KINDS) <= set(marks.HIGHLIGHTS)
