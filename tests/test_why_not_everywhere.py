"""Every click that does nothing says why (issue 25, item 4): for positions of every game
(seeded games played by the computer, stopped at many points, seen by each seat in turn),
every board place and every panel control either takes a legal action (or makes a choice of
the screen's own) or says why not -- in its tooltip, and in a message when clicked."""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes.play import PlayScene

from realloop import RealLoop

GAMES = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}
#: Computer moves between two looks at the board, per game (so the looks spread over a game).
STRIDE = {"fantasy_expedition": 9, "fantasy_racing": 23, "monster_fandango": 19,
          "mothership": 11, "odysseus": 13}
LOOKS = 6


def tooltip_text(play: PlayScene) -> str:
    tip = play.tooltip
    if tip is None or not tip.alive():
        return ""
    return (tip.text_block.html_text.replace("&#x27;", "'").replace("&quot;", '"')
            .replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
            .replace("<br>", "\n"))


def look(play: PlayScene, seat: int) -> None:
    """``seat`` at the screen, the board caught up, the controls built."""
    play.queue.clear()
    play.busy_for = None
    play.private_for = play.passing_to = None
    play.viewer = seat
    play.screen.reset(play.view())
    play.rebuild()


def check_position(loop: RealLoop, play: PlayScene, seat: int) -> tuple[int, int]:
    """Hover and click every place and control as ``seat``; (places refused, places legal)."""
    match, app = play.match, loop.app
    look(play, seat)
    view = play.view()
    legal = match.legal_actions(seat) if seat in match.to_act() else []
    before = (len(match.actions), match.snapshot())
    transform = play.transform()
    refused = taken = 0
    for cell in play.screen.cells():
        action = play.screen.cell_action(cell, view)
        why = play.why_not_here(cell)
        if why is None:
            # A click here takes a legal action, or makes a choice of the screen's own.
            assert action in legal or (action is None and play.screen.idle_reason(cell, view)
                                       is None and legal), (cell, action)
            taken += 1
            continue
        refused += 1
        assert why.strip(), cell
        if action is not None and seat in match.to_act() and not match.is_over():
            assert why == match.why_not(seat, action), (cell, action)
        x, y = transform.to_screen(*play.screen.cell_center(cell))
        play._tooltip_cell = object()  # show it afresh
        play.show_tooltip(cell, (round(x), round(y)))
        assert "Not now: " + why in tooltip_text(play), (cell, why, tooltip_text(play))
        # The screen's own handling would have done nothing here either: no legal action,
        # no choice of its own (a rebuild).
        done: list = []
        screen_act, rebuild = play.screen.act, play.rebuild
        play.screen.act = lambda a: done.append(a) or False
        play.rebuild = lambda: done.append("rebuild")
        try:
            play.screen.click_cell(cell, view)
        finally:
            play.screen.act, play.rebuild = screen_act, rebuild
        assert not [a for a in done if a == "rebuild" or a in legal], (cell, why, done)
        app.toasts.clear()
        play.click_place(cell)
        assert [t[0] for t in app.toasts] == ["Not now: " + why], (cell, app.toasts)
        assert (len(match.actions), match.snapshot()) == before, cell
    # Every greyed control says why, on hover and on click.
    for widget in [w for w, _ in play.controls.items] + play.controls.others:
        if (widget.is_enabled or not widget.visible or not hasattr(widget, "text")
                or not getattr(widget, "text", "")):
            continue
        tip = getattr(widget, "tool_tip_text", None) or ""
        assert "Not now: " in tip, (getattr(widget, "text", widget), tip)
        reason = " ".join(tip.replace("<br>", "\n").split("Not now: ", 1)[1].split())
        assert reason, widget.text
        app.toasts.clear()
        play.intercept(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=widget.rect.center,
                                          button=1))
        assert [t[0] for t in app.toasts] == ["Not now: " + reason], (widget.text, app.toasts)
    app.toasts.clear()
    assert (len(match.actions), match.snapshot()) == before
    return refused, taken


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_place_and_control_acts_or_says_why(game_id):
    loop = RealLoop()
    seats = [{"name": f"P{i}", "kind": "human"} for i in range(GAMES[game_id])]
    match = Match.new(game_id, seats, seed=5)
    play = loop.app.push(PlayScene(loop.app, match))
    refused = taken = 0
    for _look in range(LOOKS):
        if match.is_over():
            break
        acting = match.to_act()
        waiting = next(s for s in range(len(seats)) if s not in acting) \
            if len(acting) < len(seats) else None
        for seat in acting[:2] + ([waiting] if waiting is not None else []):
            r, t = check_position(loop, play, seat)
            refused, taken = refused + r, taken + t
        for _ in range(STRIDE[game_id]):
            if match.is_over():
                break
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
    assert refused and taken, (refused, taken)


def test_a_far_square_after_a_racing_roll_says_why():
    """Fantasy Racing, seed 5, Mira (Knight) and Bo (Dwarf): after Mira rolls 4, a square
    out of reach says why in its tooltip and, clicked, in a message (it said nothing)."""
    loop = RealLoop()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    match = Match.new("fantasy_racing", seats, seed=5)
    play = loop.app.push(PlayScene(loop.app, match))
    match.act(0, {"type": "pick", "character": "knight"})
    match.act(1, {"type": "pick", "character": "dwarf"})
    for _ in range(40):
        seat = match.to_act()[0]
        events = match.act(seat, choose_action(match, seat))
        if any(ev.get("text") == "Mira rolls D6 for movement: 4." for ev in events):
            break
    else:
        raise AssertionError("Mira never rolled a 4")
    look(play, 0)
    view = play.view()
    assert view["phase"] == "steps"
    x, y = view["racers"][0]["pos"]
    far = (x, y + 3)
    assert play.screen.cell_action(far, view) is None
    why = play.why_not_here(far)
    assert why and why.startswith("Out of reach: "), why
    pos = play.transform().to_screen(*play.screen.cell_center(far))
    pos = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=()))
    loop.run(0.1)
    assert "Not now: " + why in tooltip_text(play)
    loop.app.toasts.clear()
    loop.click(pos)
    assert [t[0] for t in loop.app.toasts] == ["Not now: " + why]
    assert match.view(0)["move"]["left"] == 4
