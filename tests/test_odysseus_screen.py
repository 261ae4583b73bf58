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


# ----------------------------------------------------------- a resolution that lands
def landing_batch(seed: int = 3):
    """A bot match just before an action whose events resolve an adventure, sail on and
    reveal the next adventure's tiles; returns (match, that action's record)."""
    seats = [{"name": n, "kind": "bot"} for n in NAMES[:4]]
    probe = Match.new("odysseus", seats, seed=seed)
    while True:
        seat = probe.to_act()[0]
        types = {e["type"] for e in probe.act(seat, choose_action(probe, seat))}
        if {"top", "olympus", "sail", "rewards"} <= types:
            break
    match = Match.new("odysseus", seats, seed=seed)
    for record in probe.actions[:-1]:
        match.act(record["seat"], record["action"])
    return match, probe.actions[-1]


def test_panels_show_no_outcome_before_the_animation_reaches_it():
    match, record = landing_batch()
    d = Driver(animation="normal")
    play = PlayScene(d.app, match)
    d.app.push(play)
    screen = play.screen
    before = screen.shown(play.view())
    old_rewards = before["adventure"]["rewards"]
    old_last = before["olympus"]["last"]
    last_tally = before["tally"]
    play.perform(record["seat"], record["action"])
    first = len(play.shown)  # the events of this action start here
    live = play.view()
    assert live["adventure"]["rewards"] != old_rewards or live["round"] != before["round"]
    started: list[str] = []
    for _ in range(4000):
        if not play.queue:
            break
        play._advance(0.05)  # the board's animation, step by step (no computer acts)
        started = [e["type"] for e in play.shown[first:]]
        last_tally = next((e["tally"] for e in reversed(play.shown[first:]) if "tally" in e),
                          last_tally)
        shown = screen.shown(play.view())
        if "olympus" not in started:
            assert shown["olympus"]["last"] == old_last, "the Olympus card shown too soon"
        # Points, chips and the supply are those of the last event the board has reached.
        assert [s["vp"] for s in shown["seats"]] == last_tally["vp"], "points shown too soon"
        assert [s["chips"] for s in shown["seats"]] == last_tally["chips"]
        assert shown["supply"] == last_tally["supply"]
        if "sail" not in started:  # never the next adventure's tiles before the journey
            assert shown["adventure"] is None or shown["adventure"]["rewards"] == old_rewards
        if "sail" in started and "rewards" not in started[started.index("sail"):]:
            assert shown["adventure"] is None, "the last adventure lingers"
        if play.queue:  # still showing: no controls, no results yet
            assert shown["result"] is None and shown["decision"] is None
    assert not play.queue
    assert screen.shown(play.view()) is play.view()  # caught up: the live view


# ----------------------------------------------------------------- the table in view
def drawn_labels(monkeypatch, play) -> list[str]:
    from game.odysseus import screen as screen_module
    labels: list[str] = []
    original = screen_module.OdysseusScreen._text

    def text(self, surface, label, *args, **kwargs):
        labels.append(label)
        return original(self, surface, label, *args, **kwargs)

    monkeypatch.setattr(screen_module.OdysseusScreen, "_text", text)
    play.app.draw()
    monkeypatch.setattr(screen_module.OdysseusScreen, "_text", original)
    return labels


def bot_match_until(n: int, seed: int, done, human: int | None = 0) -> Match:
    seats = [{"name": NAMES[i], "kind": "human" if i == human else "bot"} for i in range(n)]
    match = Match.new("odysseus", seats, seed=seed)
    while not match.is_over() and not done(match):
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    return match


def test_face_up_cards_of_others_lie_on_the_table(monkeypatch):
    def others_face_up(m):
        adv = m.view(0)["adventure"]
        return m.to_act() == [0] and adv and any(f["seat"] != 0 for f in adv["face_up"])

    for seed in range(40):
        match = bot_match_until(4, seed, others_face_up)
        if not match.is_over():
            break
    d = Driver()
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    assert play.viewer == 0
    labels = drawn_labels(monkeypatch, play)
    assert "Face up on the table:" in labels
    face_up = match.view(0)["adventure"]["face_up"]
    from game.odysseus.rules import SPECIAL_NAMES
    from game.odysseus.data import CARDS
    for f in face_up:
        assert SPECIAL_NAMES[CARDS[f["card"]]["special"]] in labels
        assert match.seats[f["seat"]]["name"] in labels
    play.viewer = None  # the public view shows them too
    assert "Face up on the table:" in drawn_labels(monkeypatch, play)


def test_a_person_sees_the_cards_they_drew(monkeypatch):
    match = bot_match_until(3, 5, lambda m: m.to_act() == [0]
                            and m.view(0)["decision"]["kind"] == "draw")
    d = Driver()
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    assert play.viewer == 0
    d.press(next(t for t in d.labels() if " Help + " in t))
    drew = next(e for e in reversed(match.log) if e["type"] == "drew")
    for _ in range(50):
        if play.viewer != 0 or not play.queue:
            break
        d.pump()
    assert play.viewer == 0  # the only person keeps the screen
    fresh = play.screen.fresh_for(play.view())
    assert fresh is not None and fresh["cards"] == drew["cards"]
    labels = drawn_labels(monkeypatch, play)
    assert any(t.startswith("You drew: ") for t in labels)
    assert labels.count("new") == len(drew["cards"])


def test_the_blind_chip_shows_the_destiny_cards_with_a_word():
    d = Driver()
    seats = [{"name": n, "kind": "human" if i == 0 else "bot"} for i, n in enumerate(NAMES[:3])]
    match = Match.new("odysseus", seats, seed=2)
    play = d.app.push(PlayScene(d.app, match))
    for _ in range(30):
        if play.viewer == 0 and match.to_act() == [0]:
            break
        d.pump()
    play.perform(0, {"type": "destiny", "slot": 1})
    for _ in range(30):
        if not play.queue:
            break
        d.pump()
    assert play.viewer == 0
    assert play.screen.fresh_for(play.view())["looked"]


def test_planning_previews_on_the_reward_box_and_the_round_track(monkeypatch):
    from game.odysseus.screen import lost_preview
    assert lost_preview(14, 5) == "if lost: crew 14 -> 9"
    match = bot_match_until(4, 3, lambda m: m.to_act() == [0] and m.view(0)["bets"] and any(
        a["type"] == "bet" and "round" in a for a in m.legal_actions(0)))
    assert not match.is_over()
    d = Driver()
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    labels = drawn_labels(monkeypatch, play)
    assert any(t.startswith("Click a round to place a bet") for t in labels)
    if play.screen.stack_labels():  # a large window: the stacks carry their labels
        assert any("what it would pay if the voyage ended now" in t for t in labels)
    else:  # labels too big for the stacks: the round's tooltip gives them, and says so
        assert any("Hover over a round: its stacks" in t for t in labels)
    view = match.view(0)
    bet = view["bets"][0]
    assert (f"paying {bet_payout_now(bet, view)} if the voyage ended now"
            in play.screen.hover_text(f"round-{bet['round']}", view))
    from game.odysseus.rules import bet_payout
    for b in view["bets"]:
        paid = bet_payout(b["stack"], b["round"], view["round"])
        # the labels of the stacks are drawn with draw_text, not _text: check the helper
        assert paid <= b["stack"]
    assert any(t.startswith("+") for t in labels)  # the stack a click would place
    assert play.screen.hover_text(f"round-{view['round']}", view).startswith("Round")


def test_score_board_says_total_at_the_end(monkeypatch):
    match = bot_match_until(3, 1, lambda m: False, human=None)
    d = Driver()
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    while d.scene_name != "PlayScene":
        d.app.pop()
    labels = drawn_labels(monkeypatch, play)
    assert any(t.startswith("total ") for t in labels)
    assert not any(t.startswith("VP ") for t in labels)


def test_round_marker_frames_its_round_clear_of_the_stacks():
    from game.odysseus.screen import STACKS_SHOWN, marker_rect, stack_offset
    d = Driver()
    play = d.app.push(PlayScene(d.app, Match.new(
        "odysseus", [{"name": n, "kind": "bot"} for n in NAMES[:3]], seed=1)))
    for r in range(1, 13):
        space = play.screen.track.space(f"round-{r}")
        mx, my, mw, mh = marker_rect(space)
        marker = pygame.Rect(round(mx), round(my), round(mw), round(mh))
        inner = marker.inflate(-10, -10)  # the frame is 5 map units thick at most
        for i in range(STACKS_SHOWN):
            top, height = stack_offset(i)
            stack = pygame.Rect(round(space.x + 8), round(space.y + top),
                                round(space.width - 16), height)
            assert inner.contains(stack)
            assert stack.bottom <= space.y + space.height


def test_long_hands_keep_every_card_word_in_its_strip(monkeypatch):
    """A hand of 16 cards: each card's words stay in the strip the next card leaves."""
    from game.odysseus import screen as screen_module
    match = Match.new("odysseus", [{"name": n, "kind": "human" if i == 0 else "bot"}
                                   for i, n in enumerate(NAMES[:3])], seed=4)
    c = match.controller
    extra = [card for deck in ("help", "hinder") for card in c.piles[deck][:5]]
    for card in extra:
        c.piles["help" if card.startswith("help") else "hinder"].remove(card)
    c.hands[0] += extra
    assert len(c.hands[0]) == 16
    d = Driver()
    play = d.app.push(PlayScene(d.app, match))
    play.viewer = 0
    drawn: list[tuple[str, pygame.Rect]] = []
    original = screen_module.OdysseusScreen._text
    blits: list[pygame.Rect] = []  # the overlapped cards, drawn as a corner index

    def text(self, surface, label, *args, **kwargs):
        rect = original(self, surface, label, *args, **kwargs)
        drawn.append((label, rect))
        return rect

    monkeypatch.setattr(screen_module.OdysseusScreen, "_text", text)
    original_index = screen_module.OdysseusScreen._draw_index

    def index(self, surface, rect_map, card, room):
        original_index(self, surface, rect_map, card, room)
        blits.append(self._rect(rect_map.x, rect_map.y, room, rect_map.height))

    monkeypatch.setattr(screen_module.OdysseusScreen, "_draw_index", index)
    play.rebuild()
    d.app.draw()
    view = match.view(0)
    layout = play.screen.hand_layout(view)
    hand = view["seats"][0]["hand"]
    lefts = sorted(layout[f"card:{card}"].x for card in hand)
    assert len(blits) == 15  # every card but the last is overlapped and drawn as an index
    t = play.transform()
    for a, b in zip(lefts, lefts[1:]):
        strip_right = t.to_screen(b, 0)[0]
        for label, rect in drawn:
            ax = t.to_screen(a, 0)[0]
            if ax - 1 <= rect.x < strip_right and rect.y > t.to_screen(0, 840)[1]:
                assert rect.right <= strip_right + 1, (label, rect, strip_right)


def test_status_line_fits_the_panel():
    from game.odysseus.data import ENCOUNTERS
    from game.ui.scenes.play import PANEL_WIDTH
    from game.ui.widgets import font
    d = Driver()  # fonts need pygame
    match = Match.new("odysseus", [{"name": n, "kind": "human"} for n in NAMES[:3]], seed=1)
    c = match.controller
    widest = 0
    for tile in ENCOUNTERS:
        if tile in ("troy", "ithaca"):
            continue
        c.tiles["troy"], c.pos, c.round, c.crew = tile, "troy", 10, 35
        for kind in ("setup", "bet", "circe", "destiny", "reward_destiny", "claim"):
            c.prompts = [{"seat": 0, "kind": kind}]
            widest = max(widest, font(15).size(c.status())[0])
        c.prompts = [{"seat": 0, "kind": "draw", "count": 4}]
        widest = max(widest, font(15).size(c.status())[0])
    assert widest <= PANEL_WIDTH - 16 - 14, widest
    assert d


def test_no_stray_ring_where_a_card_has_left_the_hand():
    d = Driver()
    play = d.app.push(PlayScene(d.app, Match.new(
        "odysseus", [{"name": n, "kind": "bot"} for n in NAMES[:3]], seed=1)))
    d.pump(2)
    surface = pygame.Surface((1280, 720))
    surface.fill((0, 0, 0))
    play.screen.outline(surface, play.transform(), "card:help-01-gone", (255, 255, 255), 2)
    assert pygame.mask.from_threshold(surface, (255, 255, 255), (1, 1, 1, 255)).count() == 0


def test_stormy_arrows_never_lie_on_the_calm_ones():
    import importlib
    import math
    art = importlib.import_module("game.tools.make_odysseus_art")
    for source, (_x, _y, _label, calm, stormy) in art.SPACES.items():
        if not calm:
            continue
        for other, (_x2, _y2, _l2, calm2, _s2) in art.SPACES.items():
            if calm2 == source and stormy == other:  # a stormy path back along a calm one
                a = art.path_points("stormy", source, other)
                b = art.path_points("calm", other, source)
                ma, mb = a[len(a) // 2], b[len(b) // 2]
                assert math.dist(ma, mb) > 30, (source, other)


def test_legal_cards_stay_marked_after_an_animation_of_older_tables():
    """While a computer's move is animated the screen draws an older table; once it has
    caught up, the person's playable cards are marked again (no stale cache entry)."""
    seats = [{"name": NAMES[i], "kind": "human" if i == 0 else "bot"} for i in range(4)]
    probe = Match.new("odysseus", seats, seed=6)
    while True:
        seat = probe.to_act()[0]
        if seat != 0:
            before = len(probe.actions)
            probe.act(seat, choose_action(probe, seat))
            if probe.to_act() == [0] and probe.view(0)["decision"]["kind"] == "play":
                break
        else:
            probe.act(0, choose_action(probe, 0))
    match = Match.new("odysseus", seats, seed=6)
    for record in probe.actions[:before]:
        match.act(record["seat"], record["action"])
    d = Driver(animation="normal")
    play = d.app.push(PlayScene(d.app, match))
    play.viewer = 0
    play.perform(probe.actions[before]["seat"], probe.actions[before]["action"])
    for _ in range(2000):
        if not play.queue:
            break
        play._advance(0.05)
        d.app.draw()
    d.app.draw()
    view = play.view()
    marked = play.screen.highlighted(view)
    play.screen._cache = {}
    assert marked == play.screen.highlighted(view)
    assert any(c.startswith("card:") for c in marked)


def bet_payout_now(bet, view) -> int:
    from game.odysseus.rules import bet_payout
    return bet_payout(bet["stack"], bet["round"], view["round"])
