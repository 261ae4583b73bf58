"""Monster Fandango through the real play scene: a person's turns by buttons and board clicks,
bots for the rest, the mid-turn handover for Dark Sacrifice, and the results screen."""

from __future__ import annotations

import pygame

from game.engine import Match
from game.ui.scenes.play import PlayScene

from uidriver import Driver

GAME = "monster_fandango"


def click_hex(d: Driver, play: PlayScene, cell) -> None:
    hexes = play.screen.hexes
    x, y = play.transform().to_screen(*play.screen.cell_center(hexes[tuple(cell)]))
    d.app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(round(x), round(y)))])


def test_a_whole_game_with_a_person_using_buttons_and_board_clicks():
    d = Driver()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot"}]
    match = Match.new(GAME, seats, seed=5, options={"round_limit": 2})
    play = d.app.push(PlayScene(d.app, match))
    clicks = moves = buttons = 0
    for _ in range(6000):
        if d.scene_name == "ResultsScene":
            break
        d.pump()
        if (d.top is not play or play.viewer != 0 or play.showing
                or match.to_act() != [0] or match.is_over()):
            continue
        view = match.view(0)
        labels = d.labels()
        if view["prompt"] is not None:
            keep = [t for t in labels if t.startswith("Keep") or t == "Decline"]
            d.press(keep[0])
            buttons += 1
        elif view["phase"] == "flags":
            legal = match.legal_actions(0)
            click_hex(d, play, legal[len(legal) // 2]["hex"])
            clicks += 1
        elif view["active"] is None:
            unit = next(a["unit"] for a in match.legal_actions(0) if a["type"] == "select")
            before = len(match.actions)
            click_hex(d, play, next(u["hex"] for u in view["units"] if u["id"] == unit))
            assert len(match.actions) == before + 1, "clicking my unit selects it"
            assert match.view(0)["active"] is not None
            clicks += 1
        else:
            legal = match.legal_actions(0)
            steps = [a for a in legal if a["type"] == "move"]
            if steps and view["active"]["moves"] == view["active"].get("moves") and moves < 8 \
                    and not any(a["type"] == "search" for a in legal):
                before = len(match.actions)
                click_hex(d, play, steps[-1]["to"])
                assert len(match.actions) == before + 1, "clicking a green hex moves there"
                moves += 1
            elif "Search" in labels:
                d.press("Search")
                buttons += 1
            else:
                d.press("End turn (pass)")
                buttons += 1
    assert d.scene_name == "ResultsScene"
    assert match.is_over() and match.result()["reason"] in ("round limit", "quests")
    assert clicks >= 3 and buttons >= 3 and moves >= 1


def test_dark_sacrifice_hands_over_to_the_other_person_and_back():
    d = Driver()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    match = Match.new(GAME, seats, seed=1)
    c = match.controller
    for uid in list(c.units):
        del c.units[uid]
    c.items.clear()
    c.lairs = {}
    c.phase, c.flag_queue, c.turn, c.order, c.first = "play", [], 0, [0, 1], 0
    c._changed()
    c._new_unit("troll", 0, (3, 4), acted=False)
    elf = c._new_unit("elf", 1, (4, 4), acted=False)
    orc = c._new_unit("orc", 1, (5, 4), acted=False)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    assert play.viewer == 0 and d.scene_name == "PlayScene", "no handover between open turns"
    d.press(next(t for t in d.labels() if t.startswith("Troll")))
    d.pump(2)
    d.press(next(t for t in d.labels() if t.startswith("Attack Elf")))
    d.pump(5)
    assert match.to_act() == [1]
    assert d.scene_name == "HandoverScene" and d.top.seat == 1
    d.key(pygame.K_SPACE)
    d.pump(2)
    assert play.viewer == 1
    assert any("takes the attack" in t for t in d.labels())
    d.press(next(t for t in d.labels() if "takes the attack" in t))
    d.pump(10)
    assert elf in c.units and (orc not in c.units or c.units[orc]["sacrificed"])
    assert any(ev["type"] == "sacrifice" for ev in match.log)
    # Mira's only unit has acted: it is Bo's own turn now, and Bo is already at the screen.
    assert match.to_act() == [1] and d.scene_name == "PlayScene" and play.viewer == 1


def test_hover_lists_the_stack_and_statistics():
    d = Driver()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot"}]
    match = Match.new(GAME, seats, seed=2)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    start = match.view()["seats"][0]["start"]
    text = play.screen.hover_text(play.screen.hexes[tuple(start)], match.view(0))
    assert "Mira's starting hex" in text and "Villager" in text and "Rally Cry" in text
    assert "attack 1-2" in text and "Starting Villager" in text
    assert text.count("Villager") >= 3 and text.count("Rally Cry:") == 1  # two Villagers, one
    # explanation of their ability: the tooltip stays short enough to fit the screen


def test_the_board_draws_with_the_facing_option_zoomed():
    d = Driver()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot"}]
    match = Match.new(GAME, seats, seed=3, options={"facing": True})
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    play.zoom_by(2.0, play.board_rect().center)
    d.pump(2)
    surface = d.app.screen
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, 860, 23)
               for y in range(0, 700, 19)}
    assert len(colours) > 40


def test_facing_turns_have_buttons():
    d = Driver()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot"}]
    match = Match.new(GAME, seats, seed=3, options={"facing": True})
    play = d.app.push(PlayScene(d.app, match))
    for _ in range(300):
        d.pump()
        if match.to_act() != [0] or play.viewer != 0 or play.showing:
            continue
        if match.view()["phase"] == "flags":  # Mira marks Bo's flags on the board
            click_hex(d, play, match.legal_actions(0)[0]["hex"])
        elif match.view()["phase"] == "play" and match.view()["prompt"] is None:
            break
    unit = next(a["unit"] for a in match.legal_actions(0) if a["type"] == "select")
    click_hex(d, play, next(u["hex"] for u in match.view()["units"] if u["id"] == unit))
    d.pump(2)
    turns = [t for t in d.labels() if t.startswith("Turn ")]
    assert len(turns) == 5
    active = match.view()["active"]["unit"]
    before = next(u for u in match.view()["units"] if u["id"] == active)["facing"]
    d.press(turns[0])
    after = next(u for u in match.view()["units"] if u["id"] == active)["facing"]
    assert after != before and match.view()["active"]["moves"] == 0
