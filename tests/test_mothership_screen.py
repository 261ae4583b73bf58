"""TRAP: Mothership Fantasia through the real client (SDL dummy driver).

A person plays seat 0 through the panel's buttons and real mouse clicks on
the board, following the same choices the computer would make; computers play
the other seats; the game runs to the results screen.
"""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.mothership.data import CHARACTERS, LAYOUT
from game.mothership.screen import LABELS, TARGETED
from game.ui.scenes.play import PlayScene

from uidriver import Driver

NAMES = ["Ada", "Bram", "Cleo", "Dov"]


def click_cell(d: Driver, play: PlayScene, cell) -> None:
    x, y = play.transform().to_screen(*play.screen.cell_center(tuple(cell)))
    pos = (round(x), round(y))
    d.app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)])


def person_turn(d: Driver, play: PlayScene, used: dict) -> None:
    """Do through the UI what the bot policy would do for the person at seat 0."""
    match = play.match
    view = match.view(0)
    if view["phase"] == "characters":
        choice = choose_action(match, 0)["character"]
        d.press(CHARACTERS[choice]["name"])
        used["choose"] = used.get("choose", 0) + 1
        return
    action = choose_action(match, 0)
    kind = action["type"]
    before = len(match.actions)
    if kind in TARGETED:
        label = LABELS[kind]
        if kind not in ("move", "peek", "assist"):
            label += f" ({CHARACTERS[view['seats'][0]['character']]['cost']} AP)"
        d.press(label)
        target = (view["seats"][action["seat"]]["cell"] if kind == "assist"
                  else action[TARGETED[kind]])
        assert tuple(target) in play.screen.highlighted(match.view(0))
        click_cell(d, play, target)
    elif kind == "end":
        d.press("End turn")
    elif kind == "break_free":
        d.press("Break free (1 AP)")
    else:
        d.press(LABELS[kind])
    assert len(match.actions) == before + 1, f"{action} was not carried out"
    assert match.actions[-1]["action"] == action
    used[kind] = used.get(kind, 0) + 1


@pytest.mark.parametrize("seed,level", [(4, "easy")])
def test_a_whole_game_with_a_person_and_computers(seed, level):
    d = Driver(size=(1280, 800))
    seats = [{"name": n, "kind": "bot"} for n in NAMES[:2]]
    seats[0]["kind"] = "human"
    match = Match.new("mothership", seats, seed=seed, options={"difficulty": level})
    play = d.app.push(PlayScene(d.app, match))
    used: dict = {}
    for _ in range(20000):
        if d.scene_name == "ResultsScene":
            break
        if (d.scene_name == "PlayScene" and play.viewer == 0 and not play.showing
                and match.to_act() == [0]):
            person_turn(d, play, used)
        else:
            d.pump()
    assert d.scene_name == "ResultsScene" and match.is_over()
    assert used.get("choose") == 1 and used.get("move", 0) >= 1 and sum(used.values()) > 6
    results = d.top
    assert results.rows and results.headers[0] == "Player"
    ending = match.result()["ending_text"].split()[0]
    assert any(ending in line for line in results.summary)
    assert d.app.stack.find(PlayScene).viewer is None


def test_no_handover_between_people():
    d = Driver()
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=1)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    assert d.scene_name == "PlayScene" and play.viewer == 0
    d.press("Ranger")
    d.pump(3)
    assert d.scene_name == "PlayScene" and play.viewer == 1, "nothing secret: no handover card"
    assert not d.buttons("Ranger")
    d.press("Knight")
    d.pump(10)
    assert play.viewer == 0 and d.buttons("End turn")


def test_modes_highlight_targets_and_clicks_act():
    d = Driver(size=(1280, 800))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=2)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    d.press("Ranger")
    d.pump(2)
    d.press("Mage")
    d.pump(10)
    screen = play.screen
    start = LAYOUT.start
    moves = screen.highlighted(match.view(0))
    assert moves == {(start[0] + 1, start[1]), (start[0], start[1] - 1), (start[0], start[1] + 1)}
    d.press("Far peek (1 AP)")
    far = screen.highlighted(match.view(0))
    assert len(far) > len(moves) and all(abs(x - start[0]) + abs(y - start[1]) <= 3
                                         for x, y in far)
    target = sorted(far)[0]
    click_cell(d, play, target)
    d.pump(3)
    assert match.actions[-1]["action"] == {"type": "far_peek", "at": list(target)}
    # A click on a space that is not a target does nothing.
    count = len(match.actions)
    click_cell(d, play, LAYOUT.finish)
    assert len(match.actions) == count


def test_tooltips_explain_tiles_without_giving_away_face_down_ones():
    d = Driver()
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=3)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    d.press("Thief")
    d.pump(2)
    d.press("Knight")
    d.pump(10)
    east = (LAYOUT.start[0] + 1, LAYOUT.start[1])
    screen = play.screen
    hidden = match.controller.tiles[east]["kind"]
    text = screen.hover_text(east, match.view(0))
    assert text.startswith("Face-down tile") and hidden.lower() not in text.lower().replace(
        "face-down", "")
    assert play.perform(0, {"type": "peek", "at": list(east)})
    d.pump(5)
    d.app.draw()                      # the board catches up with the match when drawn
    text = screen.hover_text(east, match.view(0))
    assert text.lower().startswith(hidden), "face up: the tile's name and effect are shown"
    assert "Ada the Thief" in screen.hover_text(LAYOUT.start, match.view(0))
    assert "locked" in screen.hover_text(LAYOUT.finish, match.view(0))
    assert "place 12" in screen.hover_text(LAYOUT.track[-1], match.view(0))
    # The play scene shows it as a tooltip under the mouse.
    x, y = play.transform().to_screen(*screen.cell_center(east))
    d.app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(round(x), round(y)), rel=(0, 0),
                                   buttons=(0, 0, 0))])
    assert play.tooltip is not None


@pytest.mark.parametrize("size", [(1280, 720), (1000, 640)])
def test_the_board_draws_mid_game_at_any_size(size):
    d = Driver(size=size, animation="normal")
    seats = [{"name": n, "kind": "bot"} for n in NAMES]
    match = Match.new("mothership", seats, seed=6, options={"difficulty": "hard"})
    for _ in range(60):
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    d.app.push(PlayScene(d.app, match))
    d.pump(30)
    surface = d.app.screen
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, size[0], 37)
               for y in range(0, size[1], 29)}
    assert len(colours) > 30


def test_every_trap_plays_an_animation_that_draws():
    from game.mothership.data import TRAPS
    d = Driver(animation="normal")
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=3)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    view = match.view(None)
    screen = play.screen
    cell = (LAYOUT.start[0] + 1, LAYOUT.start[1])
    for trap in TRAPS:
        seconds = screen.animate({"type": "trap", "text": "", "seat": 0, "cell": list(cell),
                                  "trap": trap}, view)
        assert 0.5 <= seconds <= 1.5
        assert screen.flashes and screen.update(0.3)
        d.app.draw()
        screen.reset(view)
    assert screen.animate({"type": "flip", "text": "", "seat": 0, "cell": list(cell),
                           "tile": "freeze"}, view) > 0
    assert screen.spaces[cell]["kind"] == "freeze"
    d.app.draw()


def test_undo_takes_back_a_move_but_never_a_flip():
    d = Driver(size=(1280, 800))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=3)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    d.press("Knight")
    d.pump(10)
    d.press("Mage")
    d.pump(10)
    east = (LAYOUT.start[0] + 1, LAYOUT.start[1])
    assert match.controller.tiles[east]["kind"] == "safe"
    click_cell(d, play, east)                      # flips a tile: no undo past it
    d.pump(10)
    assert match.controller.pos[0] == east and not match.can_undo()
    click_cell(d, play, LAYOUT.start)
    d.pump(10)
    assert match.controller.pos[0] == LAYOUT.start and match.can_undo(0)
    d.press("Undo")
    d.pump(5)
    assert match.controller.pos[0] == east
    assert LAYOUT.start in play.screen.highlighted(match.view(0))


def test_set_up_from_the_menu_with_a_difficulty():
    d = Driver()
    d.press("New game")
    for _ in range(10):
        if d.buttons("Game: TRAP: Mothership Fantasia"):
            break
        game_button = next(w.text for w, _ in d.top.controls.items
                           if getattr(w, "text", "").startswith("Game: "))
        d.press(game_button)
    d.press("Difficulty: easy")
    d.press("Difficulty: medium")
    assert d.buttons("Difficulty: hard")
    while d.buttons("-") and d.buttons("-")[0].is_enabled:
        d.press("-")
    d.press("Start")
    d.pump(3)
    play = d.app.stack.find(PlayScene)
    assert play.match.game_id == "mothership" and len(play.match.seats) == 2
    assert play.match.options == {"difficulty": "hard"}
    assert d.scene_name == "PlayScene" and d.buttons("Knight")


def test_a_move_with_the_keyboard_only():
    d = Driver(size=(1000, 640))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=3)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    for _ in range(2):                       # characters: Tab to the first button, Enter
        d.key(pygame.K_TAB)
        d.key(pygame.K_RETURN)
        d.pump(3)
    assert match.controller.phase == "play"
    cells = play.screen.cells()
    assert cells[0] == LAYOUT.start and set(cells) == {
        LAYOUT.start, LAYOUT.finish, *LAYOUT.tile_spaces, *LAYOUT.track}
    d.key(pygame.K_RIGHT)                    # the cursor appears on the start tile
    d.key(pygame.K_RIGHT)                    # ... and steps east onto the floor
    assert play.cursor == (LAYOUT.start[0] + 1, LAYOUT.start[1])
    d.key(pygame.K_RETURN)
    assert match.actions[-1]["action"] == {"type": "move", "to": list(play.cursor)}
