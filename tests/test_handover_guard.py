"""The handover card keeps secrets against a person's real hand (issue 10, section 1).

Driven through the REAL loop with input posted to pygame's queue and its own time passing:
a double click on the button that brings up the card, a click on the card in its first
moments, a mouse button or a key held from before the card (with its key repeats), none
confirms it; nothing of the next person's secrets is drawn meanwhile.  Only the card's own
button, or Space/Enter pressed and released after the guard time, brings the next person.
"""

from __future__ import annotations


import pygame

from game.engine import Match
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.play import PlayScene

from realloop import RealLoop, loop_time

DOUBLE_CLICK = 0.35
#: The guard time in these tests: longer than the program's 0.5 s, so that a busy shared
#: machine handling a click late cannot make it land after the guard.
GUARD_SECONDS = 1.0


def real_loop() -> RealLoop:
    loop = RealLoop()
    loop.app.guard_seconds = GUARD_SECONDS
    return loop


def watch(monkeypatch) -> list[tuple[float, int | None]]:
    """Every frame the play scene draws: when, and whose view it drew."""
    frames: list[tuple[float, int | None]] = []
    original = PlayScene.draw

    def draw(self, surface):
        frames.append((loop_time(), self.viewer))
        return original(self, surface)

    monkeypatch.setattr(PlayScene, "draw", draw)
    return frames


def on_card(loop: RealLoop, seat: int | None = None) -> bool:
    top = loop.top
    return isinstance(top, HandoverScene) and (seat is None or top.seat == seat)


def card_button(loop: RealLoop) -> tuple[int, int]:
    assert on_card(loop)
    return loop.top.controls.items[0][0].rect.center


def confirm_card(loop: RealLoop, seat: int, play: PlayScene) -> None:
    """Wait for the card, click it at once (refused), then after the guard (accepted)."""
    assert loop.run_until(lambda: on_card(loop, seat), seconds=30)
    loop.click(card_button(loop), settle=0.1)
    assert on_card(loop, seat) and play.viewer is None, "a click in the first moments counts"
    loop.run(GUARD_SECONDS)
    loop.click(card_button(loop), settle=0.1)
    assert loop.top is play and play.viewer == seat
    loop.run(GUARD_SECONDS)  # the rest of the confirming press never reaches the board


def impatient_hand(loop: RealLoop, pos: tuple[int, int]) -> None:
    """Everything a hurried person does around the click at ``pos`` that brings a card up:
    a second click 0.35 s later at the same place and on the card's button, a mouse button
    and Space pressed in the card's first moments and held past its guard time (with key
    repeats), released over the card's button."""
    start = loop_time()

    def at(seconds: float) -> None:
        loop.run(max(0.0, start + seconds - loop_time()), min_steps=1)

    loop.click(pos, settle=0.0)
    at(DOUBLE_CLICK)
    loop.click(pos, settle=0.0)  # the double click
    if on_card(loop):
        loop.click(card_button(loop), settle=0.0)
    at(0.40)
    loop.key_down(pygame.K_SPACE)
    at(0.45)
    button = card_button(loop) if on_card(loop) else pos
    loop.down(button)
    for moment in (0.2, 0.3, 0.4):  # held: the key repeats after the guard time
        at(GUARD_SECONDS + moment)
        loop.key_down(pygame.K_SPACE)
    at(GUARD_SECONDS + 0.5)
    loop.up(button)
    loop.key_up(pygame.K_SPACE)
    at(GUARD_SECONDS + 0.7)


def private(frames, since: float, allowed: set) -> list:
    return [viewer for moment, viewer in frames if moment >= since and viewer not in allowed]


def test_expedition_double_click_on_confirm_in_secret_keeps_bo_out(monkeypatch):
    """Repro B: seats 1 and 2 people, no trading; Mira confirms in secret and clicks again
    0.35 s later."""
    frames = watch(monkeypatch)
    loop = real_loop()
    seats = [{"name": n, "kind": "bot"} for n in
             ("Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell")]
    seats[0]["kind"] = seats[1]["kind"] = "human"
    match = Match.new("fantasy_expedition", seats, seed=2, options={"trade_rounds": 0})
    play = loop.app.push(PlayScene(loop.app, match))
    confirm_card(loop, 0, play)
    loop.run(0.1)
    loop.click_button("1", 0, settle=0.1)
    loop.click_button("7", 1, settle=0.1)
    if "Left" in loop.labels():
        loop.click_button("Left", 0, settle=0.1)
        loop.click_button("Right", 1, settle=0.1)
    assert loop.button("Confirm in secret").is_enabled, loop.labels()
    pos = loop.button("Confirm in secret").rect.center
    start = loop_time()
    impatient_hand(loop, pos)
    assert 0 not in match.to_act(), "Mira's choice was made"
    assert on_card(loop, 1), "Bo's card is still up"
    assert play.viewer is None
    assert not private(frames, start, {0, None}), "Bo's secrets were drawn for Mira"
    # Repro A: a later click meant for the board (outside the card's button) does nothing.
    card = loop.top.card_rect()
    for pos in ((60, 60), (card.x + 10, card.y + 10), (card.centerx, card.y + 60)):
        loop.click(pos, settle=0.1)
        assert on_card(loop, 1) and play.viewer is None
    loop.click(card_button(loop), settle=0.1)
    assert loop.top is play and play.viewer == 1


def test_odysseus_private_draw_waits_for_done_then_the_card(monkeypatch):
    """Odysseus: Mira places her blind chip and is shown her Destiny cards; a double click
    neither skips her look nor passes the screen on; "Done: pass to ..." brings the card."""
    frames = watch(monkeypatch)
    loop = real_loop()
    seats = [{"name": n, "kind": "human"} for n in ("Mira", "Bo", "Tess")]
    match = Match.new("odysseus", seats, seed=16)
    play = loop.app.push(PlayScene(loop.app, match))
    first = match.to_act()[0]
    assert loop.run_until(lambda: on_card(loop, first), seconds=30)
    # Space: a press alone does nothing, nor a press in the guard time; pressed and
    # released after it, it confirms.
    loop.key_down(pygame.K_SPACE)
    loop.key_up(pygame.K_SPACE)
    loop.run(GUARD_SECONDS + 0.1)
    assert on_card(loop, first)
    loop.key_down(pygame.K_SPACE)
    loop.run(0.1)
    assert on_card(loop, first), "confirmed on the press, not the release"
    loop.key_up(pygame.K_SPACE)
    loop.run(0.1)
    assert loop.top is play and play.viewer == first
    loop.run(GUARD_SECONDS)
    pos = loop.button("Card 1").rect.center
    start = loop_time()
    loop.click(pos, settle=0.0)
    loop.run(DOUBLE_CLICK)
    loop.click(pos, settle=0.3)  # lands on "Done: pass to ..." in its first moments
    following = match.to_act()[0]
    assert following != first
    assert loop.top is play and play.viewer == first, "Mira still sees her Destiny cards"
    assert play.passing_to == following
    done = next(t for t in loop.labels() if t.startswith("Done: pass to"))
    assert match.seats[following]["name"] in done
    loop.run(GUARD_SECONDS)
    impatient_hand(loop, loop.button(done).rect.center)
    assert on_card(loop, following) and play.viewer is None
    assert not private(frames, start, {first, None})
    loop.click(card_button(loop), settle=0.1)
    assert loop.top is play and play.viewer == following


def test_open_game_card_says_who_decides_and_is_guarded(monkeypatch):
    """Monster Fandango (no secrets) asks for a card when Bo must answer a Dark Sacrifice
    in Mira's turn: it says "Bo decides", and a double click does not skip it."""
    frames = watch(monkeypatch)
    loop = real_loop()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    match = Match.new("monster_fandango", seats, seed=1)
    c = match.controller
    for uid in list(c.units):
        del c.units[uid]
    c.items.clear()
    c.lairs = {}
    c.phase, c.flag_queue, c.turn, c.order, c.first = "play", [], 0, [0, 1], 0
    c._changed()
    c._new_unit("troll", 0, (3, 4), acted=False)
    c._new_unit("elf", 1, (4, 4), acted=False)
    c._new_unit("orc", 1, (5, 4), acted=False)
    play = loop.app.push(PlayScene(loop.app, match))
    loop.run(0.2)
    assert loop.top is play and play.viewer == 0
    loop.click(loop.button(next(t for t in loop.labels() if t.startswith("Troll"))).rect.center,
               settle=0.2)
    attack = next(t for t in loop.labels() if t.startswith("Attack Elf"))
    start = loop_time()
    impatient_hand(loop, loop.button(attack).rect.center)
    assert match.to_act() == [1]
    assert on_card(loop, 1), "the double click skipped Bo's card"
    title, lines = loop.top.texts()
    assert title == "Bo decides"
    assert not any("looking" in line for line in lines), "nothing is secret in this game"
    assert not private(frames, start, {0, None})
    loop.run(0.1)
    loop.click(card_button(loop), settle=0.1)
    assert loop.top is play and play.viewer == 1
