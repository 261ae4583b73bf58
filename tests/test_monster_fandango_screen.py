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
            keep = [t for t in labels if t.startswith("Keep") or t.startswith("Decline")]
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


def _duel(seed: int = 1, kinds=("troll", "elf"), setup=None):
    """Two people, Mira's unit next to Bo's, nothing else on the map."""
    d = Driver()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    match = Match.new(GAME, seats, seed=seed)
    c = match.controller
    for uid in list(c.units):
        del c.units[uid]
    c.items.clear()
    c.lairs = {}
    c.phase, c.flag_queue, c.turn, c.order, c.first = "play", [], 0, [0, 1], 0
    c._changed()
    mine = c._new_unit(kinds[0], 0, (3, 4), acted=False)
    theirs = c._new_unit(kinds[1], 1, (4, 4), acted=False)
    from game.monster_fandango.data import MAP
    far = max(MAP["corners"], key=lambda cell: abs(cell[0] - 3) + abs(cell[1] - 4))
    c._new_unit("villager", 1, far, acted=True)  # Bo keeps a unit far away
    if setup is not None:
        setup(c)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(3)
    return d, match, play, mine, theirs


class Dice:
    def __init__(self, *values):
        self.values, self.state = list(values), 0

    def randint(self, low, high):
        self.state += 1
        return self.values.pop(0)


def test_kitten_question_hands_over_names_the_attacker_and_escapes_by_a_click():
    d, match, play, troll, elf = _duel()
    c = match.controller
    kitten = c._new_item("kitten", unit=elf)
    d.press(next(t for t in d.labels() if t.startswith("Troll")))
    d.pump(2)
    c.rng = Dice(1)  # the troll hits
    d.press(next(t for t in d.labels() if t.startswith("Attack Elf")))
    d.pump(5)
    assert match.to_act() == [1] and d.scene_name == "HandoverScene" and d.top.seat == 1
    d.key(pygame.K_SPACE)
    d.pump(2)
    view = match.view(1)
    text = " ".join(play.screen.panel_text(view))
    assert "Mira's Troll" in text and "your Elf" in text and "green hex" in text
    assert any(t.startswith("Keep the kitten") for t in d.labels())
    marks = play.screen._marks(view)
    hexes = play.screen.hexes
    assert marks[hexes[(3, 4)]] == "actor" and marks[hexes[(4, 4)]] == "attack"
    green = [cell for cell, kind in marks.items() if kind == "move"]
    assert green
    goal = max(green, key=lambda h: abs(h.q - 3) + abs(h.r - 4))
    click_hex(d, play, (goal.q, goal.r))
    d.pump(10)
    assert kitten not in c.items and c.units[elf]["hex"] == (goal.q, goal.r)
    assert any(ev["type"] == "escape" for ev in match.log)


def test_lucky_question_names_both_units_whose_roll_and_which_way_helps():
    d, match, play, wolf, rat = _duel(kinds=("wolf", "ratman"))
    c = match.controller
    d.press(next(t for t in d.labels() if t.startswith("Wolf")))
    d.pump(2)
    c.rng = Dice(4)  # a hit on 1-4: Bo's Ratman may push it to 5
    d.press(next(t for t in d.labels() if t.startswith("Attack Ratman")))
    d.pump(5)
    assert d.scene_name == "HandoverScene"
    d.key(pygame.K_SPACE)
    d.pump(2)
    view = match.view(1)
    text = " ".join(play.screen.panel_text(view))
    assert "Mira's Wolf at" in text and "against Bo's Ratman at" in text
    assert "an attack roll" in text and "a attack" not in text
    assert "It is Mira's roll: 4, a hit" in text and "+1 helps you" in text
    labels = d.labels()
    assert "+1: 5 (a miss)" in labels and any(t.startswith("Keep 4 (a hit)") for t in labels)
    marks = play.screen._marks(view)
    assert marks[play.screen.hexes[(3, 4)]] == "actor"
    assert marks[play.screen.hexes[(4, 4)]] == "attack"
    d.press("+1: 5 (a miss)")
    d.pump(5)
    assert any("becomes 5" in ev["text"] for ev in match.log) and rat in c.units


def test_no_action_is_hidden_by_the_button_cap():
    cells = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0),
             (10, 0), (11, 0), (12, 0), (-1, 2), (0, 2)]

    def wolves(c):  # sixteen units of Mira's to choose from
        for cell in cells:
            c._new_unit("wolf", 0, cell, acted=False)

    d, match, play, troll, elf = _duel(setup=wolves)
    seen: set[str] = set()
    pages = None
    for _ in range(4):
        labels = d.labels()
        seen |= set(labels)
        panel = [t for t in labels if t and t not in ("Menu", "Undo", "?", "Hint") and
                 not t.startswith("Step")]
        assert "Pass with all" in labels and len(panel) <= 14
        more = [t for t in labels if t.startswith("More actions")]
        assert more, labels
        pages = pages or int(more[0].split("/")[1].rstrip(")"))
        d.press(more[0])
        d.pump(1)
    selects = [a for a in match.legal_actions(0) if a["type"] == "select"]
    assert len(selects) == 16 and pages == 2
    shown = [t for t in seen if t.startswith("Wolf") or t.startswith("Troll")
             or "Villager" in t]
    assert len(shown) == 16  # every unit has its button on some page


def test_counters_have_letters_and_hover_explains_roaming_and_no_search_hexes():
    from game.monster_fandango.data import MAP, MONSTERS
    from game.monster_fandango.kernel import neighbours
    from game.monster_fandango.screen import LETTERS
    assert set(LETTERS) == set(MONSTERS) and len(set(LETTERS.values())) == len(LETTERS)
    d = Driver()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot"}]
    match = Match.new(GAME, seats, seed=2)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    view = match.view(0)
    roam = play.screen.hover_text(play.screen.hexes[MAP["wild"][0]], view)
    assert "roaming place" in roam and "no effect on play" in roam
    start = tuple(view["seats"][0]["start"])
    near = play.screen.hover_text(play.screen.hexes[neighbours(start)[0]], view)
    assert "Mira may not search here" in near
    for terrain in ("forest", "hills", "meadow"):
        assert terrain not in roam + near
