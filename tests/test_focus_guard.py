"""A switch of windows never confirms a handover card, a recap or "Done: pass to ..."
(issue 25, item 3).

SDL sends a key's release when the window loses the keyboard's focus (just before it says
so, in the same batch of events), and a press when it gains the focus while a key is held
(older SDL at once; X's key repeat some moments later).  These tests post exactly those
events to pygame's queue and run the app's REAL loop: only a press and a release that both
happen in this window, after the card's guard time, confirm anything.
"""

from __future__ import annotations

import pygame

from game.engine import Match
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.play import PlayScene

from realloop import RealLoop

#: The card's guard time in these tests (the program's is 0.5 s; see test_handover_guard).
GUARD_SECONDS = 1.0


def post(*events: pygame.event.Event) -> None:
    for event in events:
        pygame.event.post(event)


def key(kind: int, name: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=name, mod=0, unicode=" " if name == pygame.K_SPACE
                              else "\r", scancode=0)


def lose_focus(*released: int) -> None:
    """What SDL posts when the person switches to another window with ``released`` held:
    their releases, then pygame's ACTIVEEVENT and the window event, in one batch."""
    post(*(key(pygame.KEYUP, name) for name in released),
         pygame.event.Event(pygame.ACTIVEEVENT, gain=0, state=pygame.APPINPUTFOCUS),
         pygame.event.Event(pygame.WINDOWFOCUSLOST))


def gain_focus(*held: int) -> None:
    """What SDL posts when the person comes back with ``held`` keys down (pressed in the
    other window): the focus, then a press for each."""
    post(pygame.event.Event(pygame.ACTIVEEVENT, gain=1, state=pygame.APPINPUTFOCUS),
         pygame.event.Event(pygame.WINDOWFOCUSGAINED),
         *(key(pygame.KEYDOWN, name) for name in held))


def odysseus(recap: bool = False) -> tuple[RealLoop, PlayScene, Match]:
    loop = RealLoop(recap=recap)
    loop.app.guard_seconds = GUARD_SECONDS
    seats = [{"name": n, "kind": "human"} for n in ("Mira", "Bo", "Tess")]
    match = Match.new("odysseus", seats, seed=16)
    play = loop.app.push(PlayScene(loop.app, match))
    return loop, play, match


def on_card(loop: RealLoop, seat: int) -> bool:
    return isinstance(loop.top, HandoverScene) and loop.top.seat == seat


def test_a_window_switch_never_confirms_the_handover_card():
    loop, play, match = odysseus()
    first = match.to_act()[0]
    assert loop.run_until(lambda: on_card(loop, first), seconds=30)
    loop.run(GUARD_SECONDS + 0.1)

    # Space pressed on the card and held while the person switches to another window.
    loop.key_down(pygame.K_SPACE)
    loop.run(0.2)
    lose_focus(pygame.K_SPACE)
    loop.run(0.3)
    assert on_card(loop, first) and play.viewer is None, "the switch confirmed the card"

    # Return pressed in the other window and held while switching back, released here.
    gain_focus(pygame.K_RETURN)
    loop.run(0.3)
    loop.key_up(pygame.K_RETURN)
    loop.run(0.3)
    assert on_card(loop, first) and play.viewer is None, "a press from elsewhere confirmed"

    # The same, the press coming a moment after the focus (X's key repeat).
    lose_focus()
    loop.run(0.2)
    gain_focus()
    loop.run(0.3)
    loop.key_down(pygame.K_RETURN)
    loop.run(0.3)
    loop.key_up(pygame.K_RETURN)
    loop.run(0.2)
    assert on_card(loop, first) and play.viewer is None, "a repeat from elsewhere confirmed"

    # Space held here, released here while a mouse button is held over the card's button
    # across a switch: neither the key nor the click counts.
    loop.run(loop.app.focus_guard_seconds)
    button = loop.top.controls.items[0][0].rect.center
    loop.down(button)
    loop.run(0.2)
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=button, button=1),
         pygame.event.Event(pygame.ACTIVEEVENT, gain=0, state=pygame.APPINPUTFOCUS),
         pygame.event.Event(pygame.WINDOWFOCUSLOST))
    loop.run(0.3)
    assert on_card(loop, first) and play.viewer is None, "a click cut by the switch counted"
    gain_focus()

    # Back in the window, once the focus has settled: a press and release here confirm.
    loop.run(loop.app.focus_guard_seconds + 0.1)
    loop.key_down(pygame.K_SPACE)
    loop.run(0.1)
    assert on_card(loop, first)
    loop.key_up(pygame.K_SPACE)
    loop.run(0.1)
    assert loop.top is play and play.viewer == first


def test_a_window_switch_never_passes_the_screen_on_nor_dismisses_the_recap():
    loop, play, match = odysseus(recap=True)
    first = match.to_act()[0]
    assert loop.run_until(lambda: on_card(loop, first), seconds=30)
    loop.run(GUARD_SECONDS + 0.1)
    loop.key_down(pygame.K_SPACE)
    loop.key_up(pygame.K_SPACE)
    loop.run(0.2)
    assert play.viewer == first
    loop.run(GUARD_SECONDS)  # the confirming press never reaches the board
    # Mira places her chip and sees her Destiny cards; "Done: pass to ..." is focused.
    loop.click_button("Card 1", settle=0.2)
    assert play.passing_to is not None
    done = next(t for t in loop.labels() if t.startswith("Done: pass to"))
    loop.run(GUARD_SECONDS + 0.1)
    # Return pressed in another window and held while switching back: not a "Done".
    lose_focus()
    loop.run(0.2)
    gain_focus(pygame.K_RETURN)
    loop.run(0.3)
    loop.key_up(pygame.K_RETURN)
    loop.run(0.2)
    assert play.passing_to is not None and play.viewer == first, "passed on from elsewhere"
    loop.run(loop.app.focus_guard_seconds)
    loop.click_button(done, settle=0.2)
    following = match.to_act()[0]
    assert on_card(loop, following)
    # Bo's card, then his recap: Space held over a switch of windows does not dismiss it.
    loop.run(GUARD_SECONDS + 0.1)
    loop.key_down(pygame.K_SPACE)
    loop.key_up(pygame.K_SPACE)
    assert loop.run_until(lambda: type(loop.top).__name__ == "RecapScene", seconds=5)
    recap = loop.top
    loop.run(GUARD_SECONDS + 0.1)
    loop.key_down(pygame.K_SPACE)
    loop.run(0.2)
    lose_focus(pygame.K_SPACE)
    loop.run(0.3)
    assert loop.top is recap, "the switch dismissed the recap"
    gain_focus()
    loop.run(loop.app.focus_guard_seconds + 0.1)
    loop.key_down(pygame.K_SPACE)
    loop.key_up(pygame.K_SPACE)
    loop.run(0.2)
    assert loop.top is play and play.viewer == following
