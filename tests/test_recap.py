"""The recap at a handover (issue 16, part 2), driven through the REAL loop (input posted to
pygame's queue, real time): after a person confirms the handover, a card lists what happened
since their last action in their own view's words (nothing another seat alone may see), the
changed places are outlined, one key (or its button) dismisses it, and the press or double
click that confirmed the handover neither dismisses it nor acts on the board; a setting turns
it off."""

from __future__ import annotations

import time

import pygame

from game.engine import Match
from game.engine.bots import choose_action
from game.engine.events import visible_to
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.play import PlayScene
from game.ui.scenes.recap import RecapScene, recap_events, seen_until

from realloop import RealLoop

GUARD_SECONDS = 1.0
DOUBLE_CLICK = 0.35


QUICK_GUARD = 0.15


def odysseus_loop(recap: bool = True, seed: int = 16):
    loop = RealLoop(recap=recap)
    loop.app.guard_seconds = QUICK_GUARD  # quick while the game is played up to the test
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot"},
             {"name": "Tess", "kind": "human"}]
    match = Match.new("odysseus", seats, seed=seed)
    play = loop.app.push(PlayScene(loop.app, match))
    return loop, match, play


def space(loop: RealLoop, settle: float = 0.1) -> None:
    loop.key_down(pygame.K_SPACE)
    loop.key_up(pygame.K_SPACE)
    loop.run(settle)


def impatient_double_click(loop: RealLoop, play: PlayScene, seat: int, pos) -> None:
    """A click at ``pos`` that gives the screen to ``seat``, its double click's second click
    0.35 s later at the same place, and Enter pressed with it."""
    loop.click(pos, settle=0.0)
    loop.run(DOUBLE_CLICK)
    assert loop.top is play and play.viewer == seat
    loop.click(pos, settle=0.0)
    loop.key_down(pygame.K_RETURN)
    loop.key_up(pygame.K_RETURN)
    loop.run(0.2)


def play_until(loop: RealLoop, match: Match, play: PlayScene, done,
               seconds: float = 60.0) -> None:
    """Play the people's turns (the computer's choice, handed to the match as a click
    would), confirming cards and dismissing recaps, until ``done()``; give up once
    ``seconds`` have passed both in the loop's time and on the wall clock."""
    end, wall_end = loop.now() + seconds, time.monotonic() + seconds
    while loop.now() < end or time.monotonic() < wall_end:
        if done():
            return
        top = loop.top
        wait = loop.app.guard_seconds + 0.05
        if isinstance(top, (RecapScene, HandoverScene)):
            loop.run(wait)
            space(loop)
        elif top is play and play.passing_to is not None:
            loop.run(wait)
            loop.click_button(next(t for t in loop.labels() if t.startswith("Done: pass")),
                              settle=0.1)
        elif (top is play and play.viewer is not None and play.viewer in match.to_act()
              and not play.showing and not play.queue):
            play.perform(play.viewer, choose_action(match, play.viewer))
            loop.run(0.05)
        else:
            loop.run(0.05)
    raise AssertionError("the game never got there")


def card_for_a_returning_seat(loop: RealLoop, match: Match, play: PlayScene, want: int,
                              kind: str | None = None):
    """True once a handover card is up for a person who acted before, with at least
    ``want`` lines to recap (one of them of type ``kind``)."""
    def done() -> bool:
        top = loop.top
        if not isinstance(top, HandoverScene) or top.seat not in play.last_seen:
            return False
        events = play.recap_events(top.seat)
        return len(events) >= want and (kind is None or any(ev["type"] == kind
                                                            for ev in events))
    return done


def test_recap_lists_what_happened_in_the_seats_own_words_and_guards_the_confirming_press():
    loop, match, play = odysseus_loop()
    play_until(loop, match, play, card_for_a_returning_seat(loop, match, play, 2, "sail"))
    card = loop.top
    seat = card.seat
    loop.app.guard_seconds = GUARD_SECONDS
    card.guard.arm()
    loop.run(GUARD_SECONDS + 0.05)
    # The impatient hand: a click confirms the card; 0.35 s later the second click of a
    # double click, then Space pressed and held past the recap's guard time, released.
    confirm = card.controls.items[0][0].rect.center
    start = loop.now()
    loop.click(confirm, settle=0.0)
    loop.run(DOUBLE_CLICK)
    recap = loop.top
    assert isinstance(recap, RecapScene) and recap.seat == seat and play.viewer == seat
    loop.click(confirm, settle=0.0)
    loop.click(loop.button("Got it (Space)").rect.center, settle=0.0)
    loop.key_down(pygame.K_SPACE)
    loop.run(max(0.0, start + GUARD_SECONDS + 0.3 - loop.now()))
    loop.key_down(pygame.K_SPACE)  # its key repeat
    loop.key_up(pygame.K_SPACE)
    loop.run(0.1)
    assert loop.top is recap, "the press that confirmed the handover dismissed the recap"
    # In that person's own view's words: the log since their last action, as they may read it.
    since = play.last_seen[seat]
    assert recap.events == recap_events(match, seat, since)
    assert len(recap.events) >= 2 and all(visible_to(ev, seat) for ev in recap.events)
    hidden = [ev["text"] for ev in match.log[since:] if not visible_to(ev, seat)]
    shown = " ".join(ev["text"] for ev in recap.events)
    assert all(text not in shown for text in hidden if text)
    assert seen_until(match, seat) == since  # a game just loaded finds the same point
    # The changed places are outlined: where the ship sailed to.
    sails = {ev["target"] for ev in recap.events if ev["type"] == "sail"}
    assert sails and sails <= play.recap_cells == recap.places()
    # Dismissed by its button; the second click of a double click does not reach the board.
    actions = list(match.actions)
    impatient_double_click(loop, play, seat, loop.button("Got it (Space)").rect.center)
    assert loop.top is play and match.actions == actions, "the dismissing press acted"
    assert not play.recap_cells


def test_recap_is_dismissed_by_space_and_not_shown_when_turned_off():
    loop, match, play = odysseus_loop()
    play_until(loop, match, play, card_for_a_returning_seat(loop, match, play, 1))
    loop.run(QUICK_GUARD + 0.05)
    space(loop)
    recap = loop.top
    assert isinstance(recap, RecapScene)
    loop.run(QUICK_GUARD + 0.05)
    loop.key_down(pygame.K_SPACE)
    loop.run(0.1)
    assert loop.top is recap, "dismissed on the press, not the release"
    loop.key_up(pygame.K_SPACE)
    loop.run(0.1)
    assert loop.top is play
    off, match2, play2 = odysseus_loop(recap=False)
    cards = []

    def seen() -> bool:
        assert not isinstance(off.top, RecapScene)
        if isinstance(off.top, HandoverScene) and off.top not in cards:
            cards.append(off.top)
        return len(cards) >= 4

    play_until(off, match2, play2, seen)
    assert any(card.seat in play2.last_seen for card in cards)


def test_recap_places_of_a_climb():
    """Fantasy Expedition: a recap outlines the pawns' landing places and the placed slots."""
    loop = RealLoop(recap=True)
    names = ("Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell")
    match = Match.new("fantasy_expedition", [{"name": n, "kind": "bot"} for n in names],
                      seed=2, options={"trade_rounds": 0})
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    play = loop.app.push(PlayScene(loop.app, match))
    moves = [ev for ev in match.log if ev["type"] in ("move", "place")]
    assert moves
    recap = RecapScene(loop.app, play, 0, moves)
    places = recap.places()
    for ev in moves:
        if ev["type"] == "move":
            assert f"{ev['row']}-{ev['target']}" in places
        else:
            assert {f"{ev['row']}-{n}" for n in ev["slots"]} <= places
    assert places <= set(play.screen.cells())


def test_without_a_recap_the_double_click_that_confirmed_the_card_never_reaches_the_board():
    """Recap turned off: the handover card gives way straight to the person's controls, and
    the second click of the double click (and an Enter pressed with it) must not act there."""
    loop, match, play = odysseus_loop(recap=False)
    play_until(loop, match, play, lambda: isinstance(loop.top, HandoverScene)
               and match.to_act() == [loop.top.seat])
    card = loop.top
    seat = card.seat
    loop.app.guard_seconds = GUARD_SECONDS
    card.guard.arm()
    loop.run(GUARD_SECONDS + 0.05)
    actions = list(match.actions)
    reached = []  # presses that got past the play scene's guard to its board and buttons
    handle = play.handle_event
    play.handle_event = lambda event: (reached.append(event.type), handle(event))[1]
    confirm = card.controls.items[0][0].rect.center
    impatient_double_click(loop, play, seat, confirm)
    presses = {pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.KEYUP}
    assert not presses & set(reached), "the press that confirmed the card reached the board"
    assert match.actions == actions
    # Once the moment has passed, the person's own presses work again.
    loop.run(GUARD_SECONDS)
    loop.click(confirm, settle=0.1)
    assert pygame.MOUSEBUTTONDOWN in reached
