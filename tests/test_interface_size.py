"""Interface size and high contrast (issue 28): the settings are validated and kept, the
Settings scene shows a new size or theme at once (Cancel puts it back), refuses a size the
window cannot hold with its reason, text and widgets grow while the board's text keeps its
zoom, and the high-contrast theme is its own file over theme.json."""

from __future__ import annotations

import json
import sys

import pygame
import pytest
import yaml

import game.ui.widgets as W
from game.ui import look
from game.ui.scenes.settings import CHOICES, SettingsScene
from game.ui.settings import Settings

from uidriver import Driver

#: pygame_gui warns when a label's text does not fit its rectangle: here that fails.
pytestmark = pytest.mark.filterwarnings("error:Label Rect is too small:UserWarning")

SCALE = next(c for c in CHOICES if c.field == "ui_scale")
THEME = next(c for c in CHOICES if c.field == "theme")


def button_font(app) -> int:
    return app.ui.get_theme().get_font(["button"]).get_point_size()


def test_settings_keep_only_offered_sizes_and_themes(tmp_path):
    path = tmp_path / "settings.yaml"
    path.write_text("ui_scale: 130\ntheme: neon\n")
    settings = Settings.load(path)
    assert (settings.ui_scale, settings.theme) == (100, "normal")
    assert len(settings.notes) == 2 and "one of 100, 125, 150, 175, 200" in settings.notes[0]
    path.write_text("ui_scale: true\n")
    assert Settings.load(path).ui_scale == 100  # a bool is no size
    Settings(ui_scale=175, theme="high_contrast").save(path)
    again = Settings.load(path)
    assert (again.ui_scale, again.theme, again.notes) == (175, "high_contrast", [])


def test_a_size_needs_a_window_that_holds_it():
    assert look.why_not_size(150, (1280, 720)) is None
    assert look.why_not_size(200, (1920, 1080)) is None
    assert look.why_not_size(125, (1024, 700)) is None
    # 960x600 holds only 100%: at 125% Odysseus's score board and Racing's racer names
    # could only be shortened (the every-size sweep found them).
    reason = look.why_not_size(125, (960, 600))
    assert reason and "1000 × 600" in reason and "960 × 600" in reason
    reason = look.why_not_size(200, (1280, 720))
    assert reason and "1600 × 960" in reason and "1280 × 720" in reason
    assert look.fitting_scale(200, (1280, 720)) == 150
    assert look.fitting_scale(200, (960, 600)) == 100
    assert look.fitting_scale(175, (1920, 1080)) == 175


def test_the_size_shows_at_once_and_cancel_puts_it_back():
    d = Driver(size=(1280, 720))
    small_text, small_button = W.font(16).get_height(), button_font(d.app)
    scene = d.app.push(SettingsScene(d.app))
    d.pump()
    scene.change(SCALE, 1)
    d.pump()
    assert d.app.ui_scale == 1.25 and d.top is scene
    assert W.font(16).get_height() > small_text
    assert button_font(d.app) == round(14 * 1.25) > small_button
    assert all(w.alive() for w, _ in scene.controls.items)  # rebuilt with the new manager
    d.key(pygame.K_ESCAPE)
    assert d.app.ui_scale == 1.0 and d.app.settings.ui_scale == 100
    assert W.font(16).get_height() == small_text and button_font(d.app) == small_button


def test_settings_pass_over_a_size_the_window_cannot_hold():
    d = Driver(size=(1280, 720))
    scene = d.app.push(SettingsScene(d.app))
    shown = []
    for _ in range(4):
        scene.change(SCALE, 1)
        shown.append(scene.draft.ui_scale)
    assert shown == [125, 150, 100, 125]  # 175 and 200 need 1400 x 840 and 1600 x 960
    refusals = [text for text, _until, error in d.app.toasts if error]
    assert any("175% needs a window of at least 1400 × 840" in t for t in refusals)
    # A larger window first: then 200% may be chosen (it shows once the window is opened).
    window = next(c for c in CHOICES if c.field == "window")
    scene.change(window, 1)
    scene.change(window, 1)
    assert scene.draft.window == "1920x1080"
    while scene.draft.ui_scale != 200:
        scene.change(SCALE, 1)
    # And back to a small window: the size comes down with a note why.
    scene.change(window, 1)
    scene.change(window, 1)
    assert scene.draft.window == "1280x720" and scene.draft.ui_scale == 150


def test_save_keeps_size_and_theme_and_a_new_window_opens_with_them(tmp_path):
    d = Driver(size=(1280, 720))
    scene = d.app.push(SettingsScene(d.app))
    scene.change(SCALE, 1)
    scene.change(SCALE, 1)
    scene.change(THEME, 1)
    d.press("Save")
    assert d.top is not scene and d.app.ui_scale == 1.5 and look.high_contrast()
    saved = yaml.safe_load((tmp_path / "home" / "settings.yaml").read_text())
    assert (saved["ui_scale"], saved["theme"]) == (150, "high_contrast")
    # A window dragged smaller than 150% needs draws at the largest size it holds.
    d.app.screen = pygame.display.set_mode((1000, 640), pygame.RESIZABLE)
    d.app.resized()
    assert d.app.ui_scale == 1.25 and d.app.settings.ui_scale == 150
    d.app.screen = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
    d.app.resized()
    assert d.app.ui_scale == 1.5


def test_the_board_keeps_its_zoom_while_the_panel_grows():
    from game.engine import Match
    from game.ui.scenes.play import PlayScene
    sizes = {}
    for percent in (100, 200):
        d = Driver(size=(1920, 1080), ui_scale=percent)
        play = d.app.push(PlayScene(d.app, Match.new("monster_fandango", [
            {"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}], seed=1)))
        d.pump(2)
        with look.board_size():
            board_text = W.font(16).get_height()
        sizes[percent] = (play.panel_rect().width, W.font(16).get_height(), board_text)
    assert sizes[200][0] == 2 * sizes[100][0]  # the panel twice as wide
    assert sizes[200][1] > 1.8 * sizes[100][1]  # its text twice as tall
    assert sizes[200][2] == sizes[100][2]  # the board's text as at 100%


def test_high_contrast_is_its_own_theme_over_theme_json():
    normal = json.loads(look.THEME_FILES["normal"].read_text())
    contrast = json.loads(look.THEME_FILES["high_contrast"].read_text())
    # Only colours (and a thicker border): sizes come from theme.json, scaled.
    assert not any("font" in block for block in contrast.values())
    data = look.theme_data(200, "high_contrast")
    assert data["defaults"]["colours"]["normal_bg"] == "#000000"
    assert data["defaults"]["colours"]["normal_text"] == "#ffffff"
    assert data["#title"]["font"]["size"] == str(2 * int(normal["#title"]["font"]["size"]))
    assert look.theme_data(100, "normal")["#title"] == normal["#title"]
    d = Driver(size=(1280, 720), theme="high_contrast")
    [load] = d.buttons("Load")
    assert load.colours["normal_bg"] == pygame.Color("#000000")
    assert load.colours["normal_border"] == pygame.Color("#ffffff")
    d.pump()


def contrast(a, b) -> float:
    def lum(c):
        parts = [(v / 255) / 12.92 if v <= 10 else (((v / 255) + 0.055) / 1.055) ** 2.4
                 for v in c[:3]]
        return 0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("colour", [W.MUTED, W.TEXT, W.GOLD, *W.SEAT_COLOURS])
def test_high_contrast_text_reads_on_a_black_panel(colour):
    look.set_look(100, "high_contrast")
    try:
        shown = look.text_colour(colour)
        assert contrast(shown, (0, 0, 0)) >= 7.0, (colour, shown)
        assert look.text_colour(W.INK) == (0, 0, 0)  # dark ink on parchment goes black
    finally:
        look.set_look(100, "normal")
    assert look.text_colour(colour) == colour  # the normal theme leaves colours alone


@pytest.mark.parametrize("game_id", ["monster_fandango", "odysseus"])
def test_high_contrast_panels_are_black_not_the_normal_palette(game_id):
    """The hand-drawn panel (and the board's frame and the window around it) follow the
    high-contrast theme: black, as its widgets are, not the normal theme's dark purple."""
    from game.engine import Match
    from game.ui.scenes.handover import HandoverScene
    from game.ui.scenes.play import PlayScene
    from game.engine.registry import controller_class
    seats = [{"name": n, "kind": "human"}
             for n in ["Mira", "Bo", "Tess"][:max(2, controller_class(game_id).min_seats)]]
    shares = {}
    for theme in ("normal", "high_contrast"):
        d = Driver(size=(1280, 720), theme=theme)
        play = d.app.push(PlayScene(d.app, Match.new(game_id, seats, seed=1)))
        d.pump(2)
        if isinstance(d.top, HandoverScene):
            d.key(pygame.K_SPACE)
            d.pump(2)
        frame = d.app.screen
        panel = play.panel_rect().clip(frame.get_rect())
        black = sum(frame.get_at((x, y))[:3] == (0, 0, 0)
                    for x in range(panel.x, panel.right, 3)
                    for y in range(panel.y, panel.bottom, 3))
        shares[theme] = black / len(range(panel.x, panel.right, 3)) / len(
            range(panel.y, panel.bottom, 3))
        corner = frame.get_at((2, frame.get_height() - 2))[:3]  # the window's background
        assert (corner == (0, 0, 0)) == (theme == "high_contrast"), (theme, corner)
    assert shares["normal"] < 0.05 and shares["high_contrast"] > 0.5, shares


@pytest.mark.parametrize("game_id", ["fantasy_racing", "monster_fandango"])
def test_boxes_drawn_over_the_board_grow_with_the_interface(game_id):
    """What a screen draws over its board in window pixels -- Racing's race table and dice
    box, Fandango's quest lines and dice box -- is interface, not board: at 200% its text
    is twice as tall, and the board makes room for it (the box covers no square of the
    track or hex of the map) while the board's own picture keeps its zoom rule."""
    heights = {}
    for percent in (100, 200):
        d, play = game_on_screen(game_id, ["Mira", "Bo", "Tess"], 30, percent)
        module = sys.modules[type(play.screen).__module__]
        drawn = [rect for _, rect in texts_drawn(d, module)]
        boxes = play.screen.status_rects()
        assert boxes, game_id
        # The tallest line of text drawn in the boxes (a title, a status line).
        heights[percent] = max(r.height for r in drawn if r.height and any(
            b.contains(r) for b in boxes))
        fit = play.board_fit()
        bounds = play.screen.renderer.bounds
        board = pygame.Rect(round(fit.offset_x + bounds.x * fit.scale),
                            round(fit.offset_y + bounds.y * fit.scale),
                            round(bounds.width * fit.scale), round(bounds.height * fit.scale))
        if percent == 200:  # the larger boxes keep off the board's picture
            covered = [b for b in boxes if b.clip(board).width > 2 and b.clip(board).height > 2]
            assert not covered, (game_id, board, covered)
    assert heights[200] > 1.5 * heights[100], heights  # (the same without: 1.0)


def game_on_screen(game: str, names: list[str], actions: int, percent: int):
    """A play scene of ``game`` (people named ``names``, seed 3) after ``actions`` actions
    chosen by the computer players' policy, in a 1920x1080 window at ``percent``, past the
    handover card: (driver, scene)."""
    from game.engine import Match
    from game.engine.bots import choose_action
    from game.ui.scenes.handover import HandoverScene
    from game.ui.scenes.play import PlayScene
    d = Driver(size=(1920, 1080), ui_scale=percent)
    match = Match.new(game, [{"name": n, "kind": "human"} for n in names], seed=3)
    while len(match.actions) < actions:
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    if isinstance(d.top, HandoverScene):
        d.key(pygame.K_SPACE)
        d.pump(3)
    return d, play


def texts_drawn(d, module, screen_class=None) -> list[tuple[str, pygame.Rect]]:
    """Every text the screen ``module`` draws in one frame, with its rectangle (and those
    drawn by ``screen_class._text``, a screen's own text on its map, where given)."""
    drawn: list[tuple[str, pygame.Rect]] = []

    def recording(surface, text, *args, **kwargs):
        rect = W.draw_text(surface, text, *args, **kwargs)
        drawn.append((text, rect))
        return rect

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "draw_text", recording)
        if screen_class is not None:
            plain_text = screen_class._text

            def map_text(self, surface, text, *args, **kwargs):
                rect = plain_text(self, surface, text, *args, **kwargs)
                drawn.append((text, rect))
                return rect

            patch.setattr(screen_class, "_text", map_text)
        d.app.draw()
    return drawn


def test_expedition_names_grow_with_the_interface_under_the_board():
    """Fantasy Expedition's climbers' names are interface, not board: at a larger size they
    go in window pixels in a strip under the board's picture (each under its pawn's column,
    with its seat's shape), twice as tall at 200% as under the pawns at 100%, running into
    no other name and covering no place of the board."""
    import game.fantasy_expedition.screen as module
    names = ["Theodora", "Ann", "Sam", "Lu", "Tess", "Mira", "Pia", "Kit", "Bo"]
    heights = {}
    for percent in (100, 200):
        d, play = game_on_screen("fantasy_expedition", names, 20, percent)
        drawn = texts_drawn(d, module)
        shown = [rect for text, rect in drawn if text in names]
        assert len(shown) == len(names), (percent, drawn)
        heights[percent] = max(r.height for r in shown)
        fit = play.board_fit()
        bounds = play.screen.renderer.bounds
        board = pygame.Rect(round(fit.offset_x + bounds.x * fit.scale),
                            round(fit.offset_y + bounds.y * fit.scale),
                            round(bounds.width * fit.scale), round(bounds.height * fit.scale))
        if percent == 200:
            assert not [r for r in shown if r.colliderect(board)], (board, shown)
            assert all(r.colliderect(play.board_rect()) and play.board_rect().contains(r)
                       for r in shown)
            assert not any(a.colliderect(b) for i, a in enumerate(shown) for b in shown[i + 1:])
            assert play.screen.status_rects()  # messages keep off the strip
    assert heights[200] > 1.5 * heights[100], heights


@pytest.mark.parametrize("seats, least", [(2, 1.5), (3, 1.2), (4, 1.15)])
def test_mothership_seat_cards_grow_with_the_interface(seats, least):
    """Mothership's seat cards are interface, not board: at a larger size they grow (from
    their row's top, reaching under the board's picture, which makes room) as far as the
    row left of the round track (and its ROUND label) holds them -- two cards twice,
    three 1.38 times the board's zoom at 200%; four go in two rows of two (in one row they
    could not grow: 0.97x), as large as the board's area holds them -- and cover no space
    of the floor or the track."""
    import game.mothership.screen as module
    names = ["Mira", "Bo", "Tess", "Ann"][:seats]
    heights = {}
    for percent in (100, 200):
        d, play = game_on_screen("mothership", names, 10, percent)
        drawn = texts_drawn(d, module)
        heights[percent] = max(r.height for text, r in drawn if text in names)
        screen, view, t = play.screen, play.view(), play.transform()
        cards = [screen.card_rect(t, view, s) for s in range(seats)]
        assert all(play.board_rect().contains(c) for c in cards), (percent, cards)
        assert not any(a.colliderect(b) for i, a in enumerate(cards) for b in cards[i + 1:])
        spaces = [screen._cell_rect(t, cell) for cell in screen.cells()]
        assert not [(c, s) for c in cards for s in spaces if c.clip(s).width > 1
                    and c.clip(s).height > 1], percent
    assert heights[200] > least * heights[100], heights


@pytest.mark.parametrize("seats", [3, 5])
def test_odysseus_score_board_grows_with_the_interface_under_the_board(seats):
    """Odysseus's score board is interface, not board: at a larger size it goes in window
    pixels into a strip under the board's picture (the board gives up at most a quarter of
    its zoom for it), its names more than 1.5 times as tall at 200% as in the map's box at
    100%, every row inside the strip and the strip on no place of the sea or the track."""
    import game.odysseus.screen as module
    names = ["Mira", "Bo", "Tess", "Ann", "Theodora"][:seats]
    heights, zooms = {}, {}
    for percent in (100, 200):
        d, play = game_on_screen("odysseus", names, 20, percent)
        drawn = texts_drawn(d, module, module.OdysseusScreen)
        shown = [rect for text, rect in drawn
                 if any(text == f"{n + 1}. {name}" for n in range(seats) for name in names)]
        assert len(shown) == seats, (percent, drawn)
        heights[percent] = max(r.height for r in shown)
        fit = play.board_fit()
        zooms[percent] = (fit.scale, play.screen.renderer.fit(play.board_rect()).scale)
        if percent == 200:
            screen, t = play.screen, play.transform()
            strip = screen.status_rects()[:1]  # (then the hand's box)
            assert len(strip) == 1 and play.board_rect().contains(strip[0]), strip
            assert all(strip[0].contains(r) for r in shown), (strip, shown)
            assert not any(a.colliderect(b) for i, a in enumerate(shown) for b in shown[i + 1:])
            places = [r for cell in screen.cells()
                      for r in [screen._screen_rect(t, cell)] if r is not None]
            assert places
            assert not [p for p in places if p.colliderect(strip[0])], strip
            board = board_above_hand(play)
            assert not strip[0].colliderect(board), (strip, board)
    # (1.6 times the size at least: it shrinks first to give the hand room, foot_sizes)
    assert heights[200] > 1.4 * heights[100], heights
    assert zooms[100][0] == zooms[100][1]  # at 100% the board does not move
    assert zooms[200][0] >= 0.75 * zooms[200][1], zooms


def board_above_hand(play) -> pygame.Rect:
    """Odysseus's board picture down to its hand area (which the hand's box covers at a
    larger interface), in window pixels."""
    from game.odysseus.screen import HAND_TOP
    fit, bounds = play.board_fit(), play.screen.renderer.bounds
    return pygame.Rect(round(fit.offset_x + bounds.x * fit.scale),
                       round(fit.offset_y + bounds.y * fit.scale),
                       round(bounds.width * fit.scale),
                       round((HAND_TOP - bounds.y) * fit.scale) - 1)


@pytest.mark.parametrize("seats, least", [(3, 1.7), (5, 1.25)])
def test_odysseus_hand_grows_with_the_interface(seats, least):
    """Odysseus's hand is interface, not board: at a larger size it is laid out in window
    pixels in a box between the round track and the score strip (covering the map's own
    hand area), its cards' words taller than at 100% (the score strip shrinks first where
    the two do not both fit), no card on another box or a place of the board; and a click
    on each card, or the keyboard cursor on it, chooses that card."""
    import game.odysseus.screen as module
    names = ["Mira", "Bo", "Tess", "Ann", "Theodora"][:seats]
    heights = {}
    for percent in (100, 200):
        d, play = game_on_screen("odysseus", names, 20, percent)
        screen, view = play.screen, play.view()
        hand = view["seats"][view["viewer"]]["hand"]
        assert hand, view
        drawn = texts_drawn(d, module, module.OdysseusScreen)
        # The value on each card (its number: only drawn whole on the last, unoverlapped).
        values = {str(module.CARDS[c]["value"]) for c in hand if not module.CARDS[c]["special"]}
        shown = [r for text, r in drawn if text in values]
        assert shown, (percent, drawn)
        heights[percent] = max(r.height for r in shown)
        t = play.transform()
        cards = {c: screen._screen_rect(t, c) for c in screen.cells() if screen.in_hand(c)}
        assert len(cards) == len(hand) + 3
        for cell, rect in cards.items():  # a click inside each card's shown part picks it
            nxt = [r for c, r in cards.items() if c != cell and c.startswith("card:")
                   and r.x > rect.x and r.colliderect(rect)]
            point = (rect.x + 3, rect.centery) if nxt else rect.center
            assert play.cell_under(point) == cell, (percent, cell, point)
            x, y = t.to_screen(*screen.cell_center(cell))
            assert rect.collidepoint(round(x), round(y)), (percent, cell)
        if percent == 200:
            box, _ = screen.hand_box()
            strip = screen.status_rects()[0]
            assert box in screen.status_rects() and play.board_rect().contains(box)
            assert not box.colliderect(strip), (box, strip)
            assert all(box.contains(r) for r in cards.values()), (box, cards)
            places = [screen._screen_rect(t, c) for c in screen.cells()
                      if not screen.in_hand(c)]
            assert not [p for p in places if p is not None and p.colliderect(box)], box
            assert not box.colliderect(board_above_hand(play))
    assert heights[200] > least * heights[100], heights  # (in the map's hand area: 0.77)


@pytest.mark.parametrize("seats", [2, 4])
def test_mothership_info_box_grows_with_the_interface(seats):
    """Mothership's info lines (level, round, generators, draw pile, escape pod) are
    interface, not board: at a larger size they go in window pixels into a box left of the
    floor (wrapped to its width), their text more than 1.4 times as tall at 200% as at
    100%, every line drawn inside the box, the box on no space of the floor or the track
    and on no seat card."""
    import game.mothership.screen as module
    names = ["Mira", "Bo", "Tess", "Ann"][:seats]
    heights = {}
    for percent in (100, 200):
        d, play = game_on_screen("mothership", names, 10, percent)
        drawn = texts_drawn(d, module)
        lines = [r for text, r in drawn if text.startswith(("Draw pile", "Generators"))]
        assert lines, (percent, drawn)
        heights[percent] = max(r.height for r in lines)
        if percent == 200:
            screen, view, t = play.screen, play.view(), play.transform()
            box = screen.status_rects()[-1]
            assert play.board_rect().contains(box)
            rows = [r for text, r in drawn if r.colliderect(box)]
            assert len(rows) >= 5 and all(box.contains(r) for r in rows), (box, rows)
            spaces = [screen._cell_rect(t, cell) for cell in screen.cells()]
            assert not [s for s in spaces if s.colliderect(box)], box
            cards = [screen.card_rect(t, view, s) for s in range(seats)]
            assert not [c for c in cards if c.colliderect(box)], box
    assert heights[200] > 1.4 * heights[100], heights  # (on the board: 0.7)


@pytest.mark.parametrize("seats, least", [(3, 1.2), (5, 1.05)])
def test_odysseus_supply_and_rewards_grow_with_the_interface(seats, least):
    """Odysseus's Supply and Reward tiles are interface, not board: at a larger size they go
    in window pixels into a box over the map's right column (to the board area's right
    edge, above the round track), their words taller than at 100% (in the map's boxes
    they would be 0.63 times as tall), no tile on another, each tile picked by a click
    and by its cursor centre, the box on no place and on neither the hand's box nor the
    score strip."""
    import game.odysseus.screen as module
    names = ["Mira", "Bo", "Tess", "Ann", "Theodora"][:seats]
    heights = {}
    for percent in (100, 200):
        d, play = game_on_screen("odysseus", names, 20, percent)
        screen, view, t = play.screen, play.view(), play.transform()
        drawn = texts_drawn(d, module, module.OdysseusScreen)
        crew = [r for text, r in drawn if text.startswith("Crew ")]
        assert len(crew) == 1, (percent, drawn)
        heights[percent] = crew[0].height
        tiles = {c: screen._screen_rect(t, c) for c in screen.cells()
                 if str(c).startswith("reward:")}
        assert len(tiles) == len(view["adventure"]["rewards"]) > 0
        for cell, rect in tiles.items():
            assert play.cell_under(rect.center) == cell, (percent, cell)
            x, y = t.to_screen(*screen.cell_center(cell))
            assert rect.collidepoint(round(x), round(y)), (percent, cell)
        rects = list(tiles.values())
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
        if percent == 200:
            box = screen.side_box()[0]
            assert play.board_rect().contains(box) and all(box.contains(r) for r in rects)
            places = [screen._screen_rect(t, c) for c in screen.cells()
                      if not str(c).startswith(("card:", "destiny:", "reward:"))]
            assert not [p for p in places if p is not None and p.colliderect(box)], box
            assert not box.colliderect(screen.hand_box()[0])
            assert not box.colliderect(screen.status_rects()[0])  # the score strip
    assert heights[200] > least * heights[100], heights
