"""Fantasy Racing in the client: a whole game through the play scene under SDL dummy.

A person plays seat 0 with the panel buttons and board clicks; computer
players take the other seats.
"""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes.play import PlayScene

from uidriver import Driver

NAMES = ["Mira", "Bo", "Tess", "Ugo"]


def click_cell(d: Driver, play: PlayScene, cell) -> None:
    x, y = play.transform().to_screen(*play.screen.cell_center(tuple(cell)))
    d.app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(round(x), round(y)))])


def person_acts(d: Driver, play: PlayScene, counts: dict) -> None:
    """Do what a person would do now, with buttons or a click on the board."""
    view = play.match.view(0)
    labels = d.labels()
    if view["phase"] == "pick":
        d.press(next(t for t in labels if t not in ("Menu", "Undo", "Step: off")))
        counts["pick"] += 1
    elif view["pending"]:
        kind = view["pending"]["kind"]
        first = next(t for t in labels if t not in ("Menu", "Undo", "Step: off"))
        if kind == "tactical" and counts["tactical"] % 2:
            cell = sorted(play.screen.highlighted(view))[0]
            click_cell(d, play, cell)
        else:
            d.press(first)
        counts[kind] += 1
    elif view["phase"] in ("objects", "move"):
        roll = next(t for t in labels if t.startswith("Roll"))
        d.press(roll)
        counts["roll"] += 1
    elif view["phase"] == "steps":
        cells = sorted(play.screen.highlighted(view))
        if counts["step"] % 2 and cells:
            before = len(play.match.actions)
            click_cell(d, play, cells[-1])
            assert len(play.match.actions) == before + 1, "a click on a highlighted square moves"
            counts["click"] += 1
        else:
            d.press(next(t for t in labels if t in ("Down", "Down-left", "Down-right",
                                                     "Stop on the shortcut")))
        counts["step"] += 1


@pytest.mark.parametrize("characters,players", [("choose", 3), ("random", 2)])
def test_whole_game_through_the_play_scene(characters, players, monkeypatch):
    # A short log keeps the log box cheap to lay out on each of the many rebuilds.
    monkeypatch.setattr("game.ui.scenes.play.LOG_LINES", 12)
    d = Driver(animation="off")
    seats = [{"name": n, "kind": "bot"} for n in NAMES[:players]]
    seats[0]["kind"] = "human"
    match = Match.new("fantasy_racing", seats, seed=11,
                      options={"turns": 5, "characters": characters})
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    counts = {k: 0 for k in ("pick", "roll", "step", "click", "shield", "clover", "tactical")}
    for _ in range(5000):
        if d.scene_name == "ResultsScene":
            break
        if (d.top is play and play.viewer == 0 and not play.showing
                and match.to_act() == [0] and not match.is_over()):
            person_acts(d, play, counts)
        else:
            d.pump()
    assert d.scene_name == "ResultsScene", d.scene_name
    assert match.is_over() and counts["roll"] == 5 and counts["click"] >= 2
    assert counts["pick"] == 1  # the person's pick, or the deal
    header, rows = play.screen.results_table(match.result())
    assert header[0] == "Racer" and len(rows) == players
    assert play.screen.results_summary(match.result())


def test_every_event_animates_and_the_board_draws_at_any_size():
    seats = [{"name": n, "kind": "bot"} for n in NAMES]
    match = Match.new("fantasy_racing", seats, seed=21, options={"characters": "random"})
    for size in ((1280, 720), (1000, 640), (1920, 1080)):
        d = Driver(size=size, animation="normal")
        play = d.app.push(PlayScene(d.app, match))
        d.pump(2)
        surface = d.app.screen
        colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, size[0], 37)
                   for y in range(0, size[1], 29)}
        assert len(colours) > 30
    screen = play.screen
    seen = set()
    while not match.is_over():
        seat = match.to_act()[0]
        for ev in match.act(seat, choose_action(match, seat)):
            seen.add(ev["type"])
            screen.animate(ev, match.view(None))
            for _ in range(4):
                screen.update(0.2)
            screen.draw_pieces(d.app.screen, play.transform(), match.view(None))
    assert {"dice", "step", "recoil", "fight", "collect", "lap", "shock"} <= seen
    # After the animations the display agrees with the rules' state.
    view = match.view(None)
    assert {tuple(c) for c in view["taken"]} == screen.taken
    assert {r["seat"]: r["pos"] for r in view["racers"]} == screen.where


def test_hover_tooltips_and_square_outline():
    d = Driver()
    seats = [{"name": n, "kind": "bot"} for n in NAMES]
    match = Match.new("fantasy_racing", seats, seed=2, options={"characters": "random"})
    match.act(0, {"type": "deal"})
    match.controller.chars[0] = "knight"  # the unlucky knight's chest icon is explained
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    view = match.view(None)
    screen = play.screen
    assert "Barrier" in screen.hover_text((1, 5), view)
    assert "Rock" in screen.hover_text((4, 5), view)
    assert "Hole" in screen.hover_text((1, 2), view)
    assert "Shortcut" in screen.hover_text((2, 3), view)
    assert "Gold coin" in screen.hover_text((3, 1), view)
    start = tuple(view["racers"][0]["pos"])
    text = screen.hover_text(start, view)
    assert "Mira" in text and "protected" in text and "Start line" in text
    assert "malus chests" in text, "the tooltip explains the chest icon (the unlucky knight)"
    match.controller.inv[0]["objects"] = ["wand_of_fire"]
    assert "wand of fire" in screen.hover_text(start, match.view(None))
    x, y = play.transform().to_screen(*screen.cell_center((3, 1)))
    d.app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y)), rel=(0, 0),
                                   buttons=(0, 0, 0))])
    assert play.hover == (3, 1) and play.tooltip is not None
    d.pump()


def test_aiming_an_object_shows_reach_and_a_click_uses_it():
    d = Driver()
    seats = [{"name": n, "kind": "bot"} for n in NAMES[:2]]
    seats[0]["kind"] = "human"
    match = Match.new("fantasy_racing", seats, seed=1, options={"characters": "random"})
    match.act(0, {"type": "deal"})
    while match.to_act() != [0]:
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    c = match.controller
    c.inv[0]["objects"] = ["magic_spear"]
    c.pos[0] = (1, 4)  # the barrier at (1, 5) is right below
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    d.press("Aim Magic spear")
    # The barrier is named by where it lies from the racer (the board shows no
    # coordinates: issue 25): "Hit 1 down", its tooltip "Hit the barrier below you".
    hit = d.buttons("Hit 1 down")
    assert d.buttons("Aiming: Magic spear") and hit
    assert hit[0].tool_tip_text == "Hit the barrier below you"
    view = match.view(0)
    assert (1, 5) in play.screen.highlighted(view)
    click_cell(d, play, (1, 5))
    assert (1, 5) in c.destroyed and match.view(0)["phase"] == "move"


def rule_end_squares(controller, seat) -> set:
    """Every square where the current move can end, by trying each step sequence on copies."""
    import copy
    ends = set()

    def explore(c):
        if c.phase != "steps" or c.pending is not None or c.active() != seat:
            return
        for action in c.legal_actions(seat):
            child = copy.deepcopy(c)
            events = child.apply(seat, action)
            if action["type"] == "stop":
                ends.add(tuple(c.pos[seat]))
                continue
            moved = [e for e in events if e["type"] in ("step", "hole") and e.get("seat") == seat
                     and e.get("target")]
            still_moving = child.phase == "steps" and child.active() == seat and \
                child.pending is None
            if still_moving:
                explore(child)
            elif child.pending is not None and child.pending["kind"] == "clover":
                child.apply(seat, {"type": "keep"})
                if child.phase == "steps" and child.active() == seat:
                    explore(child)
                else:
                    ends.add(tuple(moved[-1]["target"]))
            else:
                ends.add(tuple(moved[-1]["target"]) if moved else tuple(c.pos[seat]))

    explore(controller)
    return ends


def test_end_square_dots_match_the_rules():
    d = Driver()
    checked = 0
    for seed in range(6):
        seats = [{"name": n, "kind": "bot"} for n in NAMES]
        match = Match.new("fantasy_racing", seats, seed=seed, options={"characters": "random"})
        play = d.app.push(PlayScene(d.app, match))
        for _ in range(400):
            if match.is_over():
                break
            c = match.controller
            if c.phase == "steps" and c.pending is None and c.move["left"] <= 4 \
                    and c.move["taken"] == 0:
                view = match.view(c.active())
                assert play.screen.end_squares(view) == rule_end_squares(c, c.active())
                checked += 1
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
        d.app.pop()
    assert checked > 50


def test_racers_sharing_a_square_share_one_label_and_zoom_slims_the_race_table(monkeypatch):
    from game.fantasy_racing import screen as racing_screen
    from game.ui.widgets import font

    d = Driver()
    names = ["Alexandria", "Bo", "Tess", "Ugo"]
    lines = racing_screen.group_label(names, 120, 12)
    assert 1 <= len(lines) <= 2 and all(font(12, True).size(t)[0] <= 120 for t in lines)
    assert racing_screen.group_label(["Mira", "Bo"], 200, 12) == ["Mira, Bo"]
    assert racing_screen.group_label(names, 3, 12) == ["4 racers"]

    seats = [{"name": n, "kind": "human"} for n in names]
    match = Match.new("fantasy_racing", seats, seed=3, options={"characters": "random"})
    match.act(0, {"type": "deal"})
    match.controller.pos = [(5, 8), (5, 8), (5, 8), (2, 12)]
    play = d.app.push(PlayScene(d.app, match))
    play.screen.reset(match.view(None))
    drawn = []
    real = racing_screen.draw_text

    def spy(surface, text, pos, *args, **kwargs):
        drawn.append(text)
        return real(surface, text, pos, *args, **kwargs)

    monkeypatch.setattr(racing_screen, "draw_text", spy)
    play.screen._draw_racers(d.app.screen, play.transform(), match.view(None), 40)
    assert drawn.count("Ugo") == 1, "a lone racer keeps its own label"
    shared = [t for t in drawn if t != "Ugo"]
    assert len(shared) <= 2 and ", " in shared[0], "one shared label (one or two lines)"
    assert all(n in " ".join(shared) for n in ("Alex", "Bo", "Tess")), drawn
    slim = []
    monkeypatch.setattr(racing_screen.RacingScreen, "_draw_info_compact",
                        lambda self, *a: slim.append(True))
    d.app.draw()
    assert not slim, "the full race table while the whole board fits"
    play.zoom_by(2.0, play.board_rect().center)
    d.app.draw()
    assert slim, "a zoomed board gets the slim race table"


def test_undo_brings_the_panel_and_the_log_back_to_the_undone_state():
    d = Driver()
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    for seed in range(40):
        match = Match.new("fantasy_racing", seats, seed=seed, options={"characters": "random"})
        match.act(0, {"type": "deal"})
        seat = match.to_act()[0]
        match.act(seat, {"type": "roll"})
        steps = [a for a in match.legal_actions(seat) if a["type"] == "step"]
        if match.controller.move["left"] >= 2 and len(steps) == 3:
            break
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    before = d.labels()
    where = list(match.controller.pos[seat])
    d.press("Down-left")
    d.pump(3)
    log = play.log_box
    assert "moves down-left" in (log.html_text + log.appended_text).split("<br>")[-1]
    d.press("Undo")
    d.pump(2)
    assert list(match.controller.pos[seat]) == where
    assert d.labels() == before, "the buttons are those of the undone state"
    log = play.log_box
    assert "moves " not in (log.html_text + log.appended_text).split("<br>")[-1], \
        "the undone step is gone"
