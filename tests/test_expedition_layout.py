"""Fantasy Expedition is readable at every size: in each phase of the game (a trading
turn, an offer to answer, a Dwarf's and a Werewolf's secret choice, the reveal being
shown, the Elimination vote, game over), at 960x600, 1280x720 and 1920x1080, the game's
own controls fit the room the play scene gives them, no widget overlaps another or leaves
the window, and the log never runs under the Menu/Undo/Step row."""

from __future__ import annotations

import itertools
from typing import Any

import pygame
import pytest
from pygame_gui.core import UIContainer
from pygame_gui.elements import UITextBox, UITooltip

from game.engine import Match, Rng
from game.ui.scenes.play import PlayScene

from uidriver import Driver

SIZES = [(960, 600), (1280, 720), (1920, 1080)]
NAMES = ["Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell"]
GAME = "fantasy_expedition"


def people_match(seed: int, **options: Any) -> Match:
    return Match.new(GAME, [{"name": n, "kind": "human"} for n in NAMES], seed=seed,
                     options=options)


def random_choice(match: Match, seat: int, rng: Rng) -> dict[str, Any]:
    action = {"type": "choose", "slot": rng.randint(1, 9), "communal": rng.randint(1, 9)}
    if match.controller.teams[seat] == "werewolf":
        action.update(direction=rng.choice("LR"), vote=rng.choice("LR"))
    return action


def at_vote() -> Match:
    """A match waiting for the team winners' Elimination vote."""
    for seed in range(200):
        match, rng = people_match(seed, trade_rounds=0), Rng(seed)
        for seat in range(9):
            match.act(seat, random_choice(match, seat, rng))
        if match.view(None)["phase"] == "vote":
            return match
    raise AssertionError("no tie found")


def phases() -> dict[str, tuple[Match, int | None, bool]]:
    """name -> (match, viewer, whether the last action's events are still being shown)."""
    out: dict[str, tuple[Match, int | None, bool]] = {}
    out["trading turn"] = (people_match(1), 0, False)
    offer = people_match(1)
    offer.act(0, {"type": "propose", "to": 5})
    out["offer to answer"] = (offer, 5, False)
    for team in ("dwarf", "magician", "werewolf"):
        choice, rng = people_match(1, trade_rounds=0), Rng(2)
        seat = choice.controller.teams.index(team)
        for earlier in range(seat):  # the chooser is the next to act
            choice.act(earlier, random_choice(choice, earlier, rng))
        out[f"{team} choice"] = (choice, seat, False)
    rng = Rng(3)
    reveal = people_match(2, trade_rounds=0)
    for seat in range(8):
        reveal.act(seat, random_choice(reveal, seat, rng))
    out["reveal being shown"] = (reveal, 8, True)
    vote = at_vote()
    out["elimination vote"] = (vote, vote.to_act()[0], False)
    over = people_match(4, trade_rounds=0)
    for seat in range(9):
        over.act(seat, random_choice(over, seat, rng))
    while not over.is_over():
        over.act(over.to_act()[0], {"type": "vote", "candidate": over.view(None)["vote"]["tied"][0]})
    out["game over"] = (over, None, False)
    return out


def problems(app, play: PlayScene) -> list[str]:
    """Widgets that leave the window or overlap another in the same container, and a log
    below the top of the bottom row."""
    root = app.ui.get_root_container()
    window = pygame.Rect((0, 0), app.window_size)
    shown = [e for e in app.ui.get_sprite_group().sprites()
             if e is not root and e.alive() and e.visible and not isinstance(e, UITooltip)
             and e.rect.width > 0 and e.rect.height > 0
             and getattr(e, "parent_element", None) is None]
    found = [f"{type(e).__name__} {getattr(e, 'text', '')!r} {tuple(e.rect)} leaves the window"
             for e in shown if not window.contains(e.rect)]
    for a, b in itertools.combinations(shown, 2):
        if a.ui_container is b.ui_container and not isinstance(a, UIContainer) \
                and not isinstance(b, UIContainer) and a.rect.colliderect(b.rect):
            found.append(f"{getattr(a, 'text', type(a).__name__)!r} {tuple(a.rect)} overlaps "
                         f"{getattr(b, 'text', type(b).__name__)!r} {tuple(b.rect)}")
    bottom_row = min(w.rect.top for w, _ in play.controls.items
                     if getattr(w, "text", "") in ("Menu", "Undo"))
    for e in shown:
        if isinstance(e, UITextBox) and e.rect.bottom > bottom_row:
            found.append(f"the log {tuple(e.rect)} runs under the bottom row at {bottom_row}")
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_phase_fits(size: tuple[int, int]) -> None:
    d = Driver(size=size)
    d.app.settings.handover = False
    found: list[str] = []
    for name, (match, viewer, showing) in phases().items():
        play = PlayScene(d.app, match)
        measured: dict[str, int] = {}
        build = play.screen.build_panel

        def build_panel(rect, view, build=build, measured=measured):
            used = build(rect, view)
            measured.update(used=used, room=rect.height)
            return used

        play.screen.build_panel = build_panel
        d.app.stack.reset(play)
        if showing:  # the last choice: its reveal is being shown, step by step
            play.step_mode = True
            seat = match.to_act()[0]
            play.perform(seat, {"type": "choose", "slot": 5, "communal": 5, "direction": "L",
                                "vote": "L"} if match.controller.teams[seat] == "werewolf"
                         else {"type": "choose", "slot": 5, "communal": 5})
            play.viewer = None
        else:
            play.viewer = viewer
        play.rebuild()
        d.pump(3)
        assert play.viewer == (None if showing else viewer), name
        assert play.showing == showing, name
        label = f"{size[0]}x{size[1]} {name}"
        if measured and measured["used"] > measured["room"]:
            found.append(f"{label}: the controls take {measured['used']} px of "
                         f"{measured['room']}")
        found += [f"{label}: {p}" for p in problems(d.app, play)]
        if name == "werewolf choice":
            assert {"Left", "Right", "Confirm in secret"} <= set(d.labels())
        if name in ("trading turn", "offer to answer", "elimination vote"):
            assert measured, f"{label}: no controls were built"
    assert not found, "\n".join(found)
