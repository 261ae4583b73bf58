"""Odysseus through the real client: hot-seat turns by buttons and board clicks, privacy,
the Resolve animation and the results screen (SDL dummy driver)."""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes import play as play_module
from game.ui.scenes.play import PlayScene

from uidriver import Driver

NAMES = ["Mira", "Bo", "Tess", "Ugo", "Lin"]


@pytest.fixture(autouse=True)
def short_log(monkeypatch):
    """A whole game logs hundreds of lines; re-laying out 80 of them after every event is
    what makes a full game slow, so these tests keep the visible log short."""
    monkeypatch.setattr(play_module, "LOG_LINES", 6)


def click_cell(d: Driver, play: PlayScene, cell: str) -> None:
    x, y = play.transform().to_screen(*play.screen.cell_center(cell))
    pos = (round(x), round(y))
    d.app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)])


def person_turn(d: Driver, play: PlayScene, done: dict) -> None:
    """What a person does now, through the panel buttons and (once) a board click."""
    match = play.match
    view = match.view(play.viewer)
    decision = view["decision"]
    kind = decision["kind"]
    labels = d.labels()
    if kind == "play":
        legal_cards = [c for c in play.screen.highlighted(view) if c.startswith("card:")]
        if legal_cards and not done.get("clicked"):
            before = len(match.actions)
            click_cell(d, play, sorted(legal_cards)[0])
            assert len(match.actions) == before + 1, "a click on a card plays it"
            done["clicked"] = True
        elif legal_cards and not done.get("button_play"):
            d.press(next(t for t in labels if t.startswith("Play ")))
            done["button_play"] = True
        else:
            d.press("Pass")
    elif kind == "draw":
        d.press(next(t for t in labels if " Help + " in t))
    elif kind == "claim":
        d.press(next(t for t in labels if "(red " in t))
    elif kind in ("bet", "circe"):
        rounds = [t for t in labels if t.startswith("12 (")]
        if rounds and not done.get("bet"):
            d.press(rounds[0])
            done["bet"] = True
        else:
            d.press("No bet" if kind == "bet" else "Do nothing")
    elif kind == "destiny":
        d.press("No Destiny action")
    elif kind == "setup":  # blind: the cards are not seen yet
        assert view["seats"][play.viewer]["destiny"] is None
        d.press("Card 1")
    else:  # a reward's Destiny action: the first Destiny card's button
        fate = view["seats"][play.viewer]["destiny"][0]
        from game.odysseus.data import DESTINIES
        d.press(DESTINIES[fate])


def test_hot_seat_game_through_the_panel_with_privacy(monkeypatch):
    seen = {"person": None, "frames": []}
    original = PlayScene.draw

    def draw(self, surface):
        seen["frames"].append((self.viewer, seen["person"]))
        return original(self, surface)

    monkeypatch.setattr(PlayScene, "draw", draw)
    d = Driver(animation="off")
    seats = [{"name": NAMES[i], "kind": "human" if i < 2 else "bot"} for i in range(3)]
    match = Match.new("odysseus", seats, seed=16)
    play = d.app.push(PlayScene(d.app, match))
    done: dict = {}
    for _ in range(20000):
        if match.is_over() and d.scene_name == "ResultsScene":
            break
        if d.scene_name == "HandoverScene":
            seen["person"] = d.top.seat
            d.key(pygame.K_SPACE)
            continue
        passing = [t for t in d.labels() if t.startswith("Done: pass to")]
        if d.top is play and passing:  # seen what was drawn in private: pass the screen on
            d.press(passing[0])
            continue
        if (d.top is play and play.viewer is not None and not play.showing
                and play.viewer in match.to_act()):
            person_turn(d, play, done)
        else:
            d.pump()
    assert match.is_over() and d.scene_name == "ResultsScene"
    assert done.get("clicked") and done.get("button_play")
    bad = [(v, p) for v, p in seen["frames"] if v is not None and v != p]
    assert not bad, "a frame showed one person's secrets to another"
    headers, rows = play.screen.results_table(match.result())
    assert "Score" in headers and len(rows) == 3
    summary = " ".join(play.screen.results_summary(match.result()))
    assert match.result()["ending_title"] in summary


def test_resolve_shows_two_growing_totals():
    d = Driver(animation="fast")
    seats = [{"name": n, "kind": "bot"} for n in NAMES[:3]]
    match = Match.new("odysseus", seats, seed=4)
    while match.controller.step != "claim":  # the computers play up to the claims
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    play = d.app.push(PlayScene(d.app, match))
    seen_totals: list[tuple[float, float]] = []
    outcome = None
    for _ in range(6000):
        d.app.step([])
        o = play.screen.overlay
        if o and "shown_help" in o:
            seen_totals.append((o["shown_help"], o["shown_hinder"]))
            outcome = o["outcome"]
            if outcome and (o["shown_help"], o["shown_hinder"]) == (o["help"], o["hinder"]):
                break
    assert outcome in ("won", "lost")
    helps = [h for h, _ in seen_totals]
    assert helps == sorted(helps), "the Help total only grows"
    assert len(set(seen_totals)) > 3, "the totals grow step by step"
    final = match.controller.history[0]
    assert seen_totals[-1] == (final["help"], final["hinder"])


@pytest.mark.parametrize("size", [(1280, 720), (1000, 640)])
def test_screen_draws_mid_game_for_a_person_and_hover_texts(size):
    d = Driver(size=size)
    seats = [{"name": n, "kind": "bot"} for n in NAMES[:4]]
    seats[0]["kind"] = "human"
    match = Match.new("odysseus", seats, seed=3)
    while len(match.actions) < 40 or match.to_act() != [0]:
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    play = d.app.push(PlayScene(d.app, match))
    d.pump(4)
    assert play.viewer == 0
    view = match.view(0)
    screen = play.screen
    texts = [screen.hover_text(c, view) for c in screen.cells()]
    assert any(t and "Round" in t for t in texts)
    assert any(t and ("Help" in t or "Hinder" in t or "Advance" in t) for t in texts)
    assert screen.hover_text("ithaca", view).startswith("Ithaca")
    # Every cell maps back to itself when clicked at its centre.
    for cell in screen.cells():
        x, y = screen.cell_center(cell)
        assert screen.cell_at((x, y)) == cell
    surface = d.app.screen
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, size[0], 37)
               for y in range(0, size[1], 29)}
    assert len(colours) > 30


def test_new_game_from_the_setup_screen():
    d = Driver()
    d.press("New game")
    for _ in range(10):
        if d.top.game_id == "odysseus":
            break
        d.press(next(t for t in d.labels() if t.startswith("Game: ")))
    assert d.top.game_id == "odysseus"
    while len(d.top.seats) < 5:
        d.press("+")
    assert not d.buttons("+")[0].is_enabled  # five seats at most
    while d.buttons("-")[0].is_enabled:
        d.press("-")
    assert len(d.top.seats) == 3  # three at least
    d.press("Start")
    d.pump(3)
    play = d.app.stack.find(PlayScene)
    assert play.match.game_id == "odysseus" and len(play.match.seats) == 3
    assert play.match.view()["decision"]["kind"] == "setup"


def test_small_window_text_stays_readable_and_inside_its_boxes(monkeypatch):
    """At 1000x640 the board is drawn at under half size: its text is still at least
    MIN_PX pixels high (FLOOR_PX where it must shrink to fit a card or a tile), and every
    text given a box width fits inside it."""
    from game.odysseus import screen as screen_module

    drawn: list[tuple[str, int, float | None, int]] = []
    original = screen_module.OdysseusScreen._text

    def text(self, surface, label, x, y, size, *args, width=None, **kwargs):
        rect = original(self, surface, label, x, y, size, *args, width=width, **kwargs)
        room = None if width is None else width * self.t.scale
        drawn.append((label, rect.height, room, rect.width))
        return rect

    monkeypatch.setattr(screen_module.OdysseusScreen, "_text", text)
    d = Driver(size=(1000, 640))
    seats = [{"name": n, "kind": "bot"} for n in NAMES[:5]]
    seats[0]["kind"] = "human"
    match = Match.new("odysseus", seats, seed=3)
    while len(match.actions) < 60 or match.to_act() != [0]:
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    d.app.draw()
    assert play.transform().scale < 0.5 and drawn
    for label, height, room, width in drawn:
        assert height >= screen_module.FLOOR_PX, label
        if room is None:
            assert height >= screen_module.MIN_PX, label
        else:
            assert width <= room + 2, (label, width, room)
    # The Destiny cards and the hand show their words, shortened where needed.
    labels = {label for label, *_ in drawn}
    assert any(label.endswith("chips") or label.endswith("chip") for label in labels)
