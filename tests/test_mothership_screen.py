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


def two_people(seed: int):
    """Two people at a new Mothership table in a 1280x800 window: (driver, match, scene)."""
    d = Driver(size=(1280, 800))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=seed)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    return d, match, play


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
    d, match, play = two_people(seed=2)
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
    d, match, play = two_people(seed=3)
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


# ----------------------------------------------------------------- a panel you can trust
def panel_buttons(d: Driver) -> list:
    """Every action button of the panel (enabled or not), as (label, rect, enabled, tip)."""
    from game.mothership.screen import PanelButton
    widgets = [w for w, _ in d.top.controls.items] + list(d.top.controls.others)
    found = [(w.text, tuple(w.rect), w.is_enabled, w.tool_tip_text) for w in widgets
             if isinstance(w, PanelButton) and w.alive()]
    return sorted(found, key=lambda b: (b[1][1], b[1][0]))


def test_action_buttons_keep_their_places_for_the_whole_turn():
    d = Driver(size=(1280, 720))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=2)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    d.press("Thief")
    d.pump(2)
    d.press("Mage")
    d.pump(10)
    first = panel_buttons(d)
    labels = [b[0] for b in first]
    assert labels == ["Move", "Peek", "Sneak (2 AP)", "Assist", "Deactivate", "Defer",
                      "End turn"]
    # Actions come and go during the turn; the buttons stay where they were.
    for action in ({"type": "peek", "at": [5, 6]}, {"type": "move", "to": [5, 6]}):
        label = "Peek" if action["type"] == "peek" else "Move"
        d.press(label)
        click_cell(d, play, action.get("at") or action.get("to"))
        d.pump(40)
        assert match.to_act() == [0]
        now = panel_buttons(d)
        assert [(b[0], b[1]) for b in now] == [(b[0], b[1]) for b in first]
    # A disabled button stays, and its tooltip is the controller's own refusal.
    for label, _rect, enabled, tip in panel_buttons(d):
        kind = next(k for k, v in LABELS.items() if label.startswith(v))
        why = match.controller.why_not(0, kind)
        assert enabled == (why is None)
        if why is not None:
            assert tip.endswith(f"Not now: {why}")
    assert ("Deactivate", False) in [(b[0], b[2]) for b in panel_buttons(d)]
    assert "Stand on a generator" in match.controller.why_not(0, "deactivate")


def test_a_disabled_buttons_tooltip_opens_beside_the_panel_not_over_the_buttons():
    d = Driver(size=(1280, 720))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=2)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    d.press("Thief")
    d.pump(2)
    d.press("Mage")
    d.pump(10)
    from game.mothership.screen import PanelButton
    button = next(w for w in d.top.controls.others
                  if isinstance(w, PanelButton) and w.text == "Assist")
    assert not button.is_enabled
    assert button.can_hover(), "a disabled panel button can still be hovered"
    button.on_hovered()
    button.hover_time = 5.0                           # hovered past the tooltip delay
    button.while_hovering(0.1, pygame.math.Vector2(button.rect.center))
    assert button.tool_tip is not None, "a disabled button still explains itself"
    tip = button.tool_tip.rect
    assert "Nobody is frozen" in button.tool_tip_text
    assert tip.right <= play.panel_rect().x
    assert not any(tip.colliderect(pygame.Rect(b[1])) for b in panel_buttons(d))
    assert pygame.Rect(0, 0, 1280, 720).contains(tip)


def test_the_instruction_follows_the_chosen_action_at_once():
    d = Driver(size=(1280, 720))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=2)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    d.press("Ranger")
    d.pump(2)
    d.press("Mage")
    d.pump(10)

    def shown() -> list[str]:
        return [w.text for w in d.top.controls.others if type(w).__name__ == "UILabel"]

    assert any(line.startswith("Move: click") for line in shown())
    for label, start in (("Peek", "Peek: click"), ("Far peek (1 AP)", "Far peek: click"),
                         ("Move", "Move: click")):
        d.press(label)                                 # no action taken, no frame pumped
        assert any(line.startswith(start) for line in shown()), (label, shown())
    # After an action the chosen kind falls back to Move (a Peek never lingers).
    d.press("Peek")
    click_cell(d, play, (LAYOUT.start[0] + 1, LAYOUT.start[1]))
    d.pump(40)
    assert play.screen.current_mode(match.view(0)) == "move"


def test_when_only_end_turn_is_left_the_panel_says_why():
    from game.mothership.screen import MothershipScreen
    d = Driver(size=(1280, 720))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=2)
    play = d.app.push(PlayScene(d.app, match))
    match.act(0, {"type": "choose", "character": "mage"})
    match.act(1, {"type": "choose", "character": "knight"})
    c = match.controller
    east = (LAYOUT.start[0] + 1, LAYOUT.start[1])
    c.tiles[east] = {"kind": "corrode", "up": True, "done": False, "disarmed_until": None}
    c.tiles[(east[0] + 1, east[1])]["up"] = True                # nothing left to peek at
    match.act(0, {"type": "move", "to": list(east)})
    c.ap[0] = 1                                                  # stuck with 1 AP
    play.queue.clear()
    play.undos += 1                                              # drop cached views
    play.rebuild()
    d.pump(2)
    assert [a["type"] for a in match.legal_actions(0)] == ["end"]
    screen: MothershipScreen = play.screen
    advice = " ".join(screen.advice(match.view(0)))
    assert "Only End turn is left" in advice and "Corrode" in advice
    assert "Only End turn is left" in " ".join(
        w.text for w in d.top.controls.others if type(w).__name__ == "UILabel")


def test_seat_cards_name_every_icon_fit_long_names_and_leave_the_start_label_clear():
    from game.mothership.screen import card_words, name_lines, token_offsets
    from game.ui.widgets import font
    seat = {"frozen": False, "confused": False, "afraid": False, "blind": False,
            "corroded": True, "sever": 0, "lifted": []}
    assert "Corrode" in card_words(seat)
    size, lines = name_lines("Maximiliana Featherstone", 130, 19, 12)
    assert size >= 12 and 1 <= len(lines) <= 2 and "…" not in "".join(lines)
    assert all(font(size, True).size(line)[0] <= 130 for line in lines)
    for count in range(1, 5):
        for dx, dy in token_offsets(LAYOUT.start, count, False):
            assert abs(dy) >= 0.3, "tokens keep off the START label's row"


def test_character_buttons_keep_their_places_and_a_taken_one_says_so():
    d = Driver(size=(1280, 720))
    seats = [{"name": n, "kind": "human"} for n in NAMES[:2]]
    match = Match.new("mothership", seats, seed=3)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    before = panel_buttons(d)
    assert [b[0] for b in before] == [CHARACTERS[c]["name"] for c in CHARACTERS]
    d.press("Mage")
    d.pump(3)
    after = panel_buttons(d)
    assert [(b[0], b[1]) for b in after] == [(b[0], b[1]) for b in before]
    mage = next(b for b in after if b[0] == "Mage")
    assert not mage[2] and mage[3].endswith("Not now: The Mage is already taken.")
    assert play.viewer == 1 and all(b[2] for b in after if b[0] != "Mage")


def test_the_hint_finds_every_plain_action_button():
    """Defer and Deactivate (one line of the panel) bind their action whole, as End turn
    writes it, so the Hint and a lesson's pointer find the button that takes it
    (play.takes); a disabled button is no control, so Deactivate is not asked for here."""
    from game.ui.scenes.play import takes
    d, match, play = two_people(seed=2)
    d.press("Ranger")
    d.pump(3)
    d.press("Knight")
    d.pump(10)
    for kind, label in (("defer", "Defer"), ("end", "End turn")):
        found = [w.text for w, cb in play.controls.items if takes(cb, {"type": kind})]
        assert len(found) == 1 and found[0].startswith(label), (kind, found)
    d.press("Defer (1 AP)" if d.buttons("Defer (1 AP)") else "Defer")
    assert match.actions[-1]["action"] == {"type": "defer"}


def test_a_hinted_peek_is_taken_by_a_click_on_the_hinted_tile(monkeypatch):
    """The Hint chooses the kind of a targeted action (screen.ready_for): a click on the tile
    it marks for a peek peeks there, instead of walking onto it."""
    from game.ui import hints
    d = Driver(size=(1280, 800))
    seats = [{"name": "You", "kind": "human"}, {"name": "Bo", "kind": "bot"}]
    match = Match.new("mothership", seats, seed=1284)
    match.act(0, {"type": "choose", "character": "mage"})
    match.act(1, {"type": "choose", "character": "ranger"})
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    peek = {"type": "peek", "at": [5, 6]}
    real = hints.hint_for

    def hint_for(match, seat, place_name):
        hint = real(match, seat, place_name)
        hint.action = peek
        return hint
    monkeypatch.setattr(hints, "hint_for", hint_for)
    play.ask_hint()
    assert (5, 6) in play.hint_cells
    assert play.screen.current_mode(match.view(0)) == "peek"
    click_cell(d, play, (5, 6))
    assert match.actions[-1]["action"] == peek
    assert match.view(0)["seats"][0]["cell"] == list(LAYOUT.start)
