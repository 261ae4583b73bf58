"""Board zoom, pan, picking under the mouse and hover tooltips in the play scene."""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match

SEATS = [{"name": f"P{i}", "kind": "human" if i == 0 else "bot"} for i in range(9)]


@pytest.fixture
def scene(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    app = App(size=(1280, 720))
    app.to_menu()
    play = PlayScene(app, Match.new("fantasy_expedition", SEATS, seed=3))
    app.push(play)
    app.step([])
    yield play
    pygame.display.quit()


def centre_on_screen(scene, cell):
    x, y = scene.transform().to_screen(*scene.screen.cell_center(cell))
    return round(x), round(y)


def test_zoom_keeps_the_point_under_the_mouse_still(scene):
    area = scene.board_rect()
    mouse = (area.x + area.width // 3, area.y + area.height // 4)
    before = scene.transform().to_map(*mouse)
    scale = scene.transform().scale
    scene.zoom_by(2.0, mouse)
    after = scene.transform()
    assert after.scale == pytest.approx(2 * scale)
    assert after.to_map(*mouse) == pytest.approx(before, abs=1e-6)


def test_picking_stays_exact_when_zoomed_and_panned(scene):
    area = scene.board_rect()
    for zoom, pan in ((1.0, (0, 0)), (1.6, (40, -25)), (3.0, (-200, 90))):
        scene.zoom, scene.pan = 1.0, (0.0, 0.0)
        scene.zoom_by(zoom, area.center)
        scene.pan_by(*pan)
        picked = 0
        for cell in scene.screen.cells():
            point = centre_on_screen(scene, cell)
            if area.collidepoint(point):
                assert scene.cell_under(point) == cell
                picked += 1
        assert picked >= (27 if zoom == 1.0 else 1)


def test_pan_never_loses_the_board_and_zero_resets(scene):
    area = scene.board_rect()
    scene.pan_by(500, 500)
    assert scene.pan == (0.0, 0.0), "an unzoomed board does not move"
    scene.zoom_by(2.0, area.center)
    for push in ((10_000, -10_000), (-10_000, 10_000)):
        scene.pan_by(*push)
        t, b = scene.transform(), scene.screen.renderer.bounds
        left, top = t.to_screen(b.x, b.y)
        right, bottom = t.to_screen(b.right, b.bottom)
        for low, high, lo_edge, hi_edge in ((left, right, area.left, area.right),
                                            (top, bottom, area.top, area.bottom)):
            if high - low >= hi_edge - lo_edge:  # bigger than the area: no gap at either side
                assert low <= lo_edge + 1 and high >= hi_edge - 1
            else:  # still smaller: stays centred
                assert abs((low + high) / 2 - (lo_edge + hi_edge) / 2) <= 1
    assert scene.pan != (0.0, 0.0)
    scene.app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_0, mod=0, unicode="0")])
    assert scene.zoom == 1.0 and scene.pan == (0.0, 0.0)


def test_mouse_wheel_and_drag(scene):
    area = scene.board_rect()
    pygame.mouse.set_pos(area.center)
    scene.app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False)])
    if pygame.mouse.get_pos() != area.center:  # the dummy driver may not move the pointer
        scene.zoom_by(1.25 ** 2, area.center)
    assert scene.zoom == pytest.approx(1.5625)
    start = scene.pan
    scene.app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=area.center),
                    pygame.event.Event(pygame.MOUSEMOTION, pos=(area.centerx + 30, area.centery + 5),
                                       rel=(30, 5), buttons=(0, 0, 1)),
                    pygame.event.Event(pygame.MOUSEBUTTONUP, button=3, pos=area.center)])
    assert scene.pan == pytest.approx((start[0] + 30, start[1] + 5))


def test_hover_shows_the_screens_explanation_as_a_tooltip(scene, monkeypatch):
    cell = scene.screen.cells()[4]
    monkeypatch.setattr(scene.screen, "hover_text", lambda c, view: f"Cell {c} & more")
    point = centre_on_screen(scene, cell)
    scene.app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=point, rel=(1, 1), buttons=(0, 0, 0))])
    assert scene.tooltip is not None and scene.tooltip.alive()
    assert scene._tooltip_cell == cell
    outside = (scene.panel_rect().centerx, scene.panel_rect().centery)
    scene.app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=outside, rel=(1, 1), buttons=(0, 0, 0))])
    assert scene.tooltip is None


def test_no_tooltip_where_the_screen_has_nothing_to_say(scene, monkeypatch):
    monkeypatch.setattr(scene.screen, "hover_text", lambda c, view: None)
    cell = scene.screen.cells()[0]
    scene.app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=centre_on_screen(scene, cell),
                                       rel=(1, 1), buttons=(0, 0, 0))])
    assert scene.hover == cell and scene.tooltip is None


def test_the_log_grows_by_appending_and_starts_afresh_when_long(scene, monkeypatch):
    from game.ui.scenes import play
    monkeypatch.setattr(play, "LOG_LINES", 5)
    scene.rebuild()
    box = scene.log_box
    laid_out = []
    monkeypatch.setattr(box, "set_text", lambda html: laid_out.append(html))
    base = len(scene.shown)
    for number in range(1, 12):
        scene.shown.append({"type": "note", "text": f"line {number} <b>", "seat": None})
        scene._refresh_log()
        text = box.html_text + box.appended_text
        assert text.endswith(f"line {number} &lt;b&gt;") or laid_out[-1].endswith(
            f"line {number} &lt;b&gt;")
    # 5 lines at most are laid out afresh; up to 10 are kept by appending
    assert 1 <= len(laid_out) <= 3
    assert all(html.count("<br>") <= 4 for html in laid_out)
    assert laid_out[-1].count("<br>") == 4, "a fresh start keeps only the last LOG_LINES"
    assert len(scene.shown) == base + 11


def test_expedition_tooltips_name_the_position_and_hide_unrevealed_items(scene):
    view = scene.view()
    text = scene.screen.hover_text("mine-3", view)
    assert text.startswith("Mine row, position 3")
    assert "tunnels" in text and "A Mine" not in text.replace("A Mine tunnels", "")
    start = scene.screen.hover_text("start-1", view)
    assert start.startswith("Starting row, position 1") and "Here: " in start
    assert scene.screen.hover_text("nowhere", view) is None


def test_the_log_box_outlives_rebuilds_and_follows_the_viewer(scene):
    box = scene.log_box
    scene.rebuild()
    assert scene.log_box is box and box.alive(), "moving the log is cheap; laying it out is not"
    scene.shown.append({"type": "note", "text": "only for P1", "@audience": [1]})
    scene.viewer = 0
    scene.rebuild()
    text = scene.log_box.html_text + scene.log_box.appended_text
    assert "only for P1" not in text
    scene.viewer = 1
    scene.rebuild()
    assert "only for P1" in scene.log_box.html_text + scene.log_box.appended_text


def test_undo_brings_back_the_panel_and_log_of_before(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    seats = [{"name": f"P{i}", "kind": "human" if i < 2 else "bot"} for i in range(9)]
    app = App(settings=Settings(animation="off", handover=False), size=(1280, 720))
    try:
        app.to_menu()
        scene = PlayScene(app, Match.new("fantasy_expedition", seats, seed=4))
        app.push(scene)
        for _ in range(50):
            scene.update(0.05)
            if scene.viewer is not None and scene.match.can_undo(scene.viewer):
                break
            if scene.viewer is not None and not scene.showing:
                scene.perform(scene.viewer, scene.match.legal_actions(scene.viewer)[0])
        assert scene.match.can_undo(scene.viewer)
        before = len(scene.match.actions)
        last = scene.shown[-1]["text"]
        assert last in scene.log_box.html_text + scene.log_box.appended_text
        scene.open_menu()
        pause = app.stack.top
        pause.undo()
        assert app.stack.top is scene
        assert len(scene.match.actions) < before
        from game.ui.scenes.play import LOG_LINES, escape_html
        text = scene.log_box.html_text + scene.log_box.appended_text
        assert scene.shown == scene.match.log
        expected = "<br>".join(escape_html(ev["text"]) for ev in scene._log_events()[-LOG_LINES:])
        assert text == (expected or "<i>The log is empty.</i>")
        labels = [getattr(w, "text", "") for w, _ in scene.controls.items]
        assert len(labels) == len(set(id(w) for w, _ in scene.controls.items))
        assert "Menu" in labels and labels.count("Menu") == 1
    finally:
        pygame.display.quit()


def test_an_event_without_text_animates_but_writes_no_log_line(scene):
    scene.shown.append({"type": "pulse", "text": ""})
    scene.shown.append({"type": "note", "text": "a real line"})
    scene._refresh_log()
    text = scene.log_box.html_text + scene.log_box.appended_text
    assert text.endswith("a real line") and "<br><br>" not in text
    assert all(ev["text"] for ev in scene._log_events())


def test_a_moved_and_resized_log_still_shows_its_newest_lines(scene):
    for number in range(60):
        scene.shown.append({"type": "note", "text": f"line {number}"})
    scene._refresh_log()
    box = scene.log_box
    assert box.scroll_bar is not None
    rect = box.relative_rect.copy()
    scene._place_log(pygame.Rect(rect.x, rect.y + 40, rect.width, rect.height - 40))
    assert scene.log_box is box
    for _ in range(20):  # pygame_gui's own delayed work after a resize
        scene.app.ui.update(0.05)
    bar = box.scroll_bar
    assert bar.start_percentage + bar.visible_percentage >= 0.99
