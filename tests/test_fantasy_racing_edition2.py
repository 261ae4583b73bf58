"""Fantasy Racing, second edition (issue 12): the trap-and-shield landing, the recoil's reason,
the characters who score with their special rule, the map that lets every rule happen, the
default length, and the computer player's shortcuts, traps and spears."""

from __future__ import annotations

import pytest

from game.fantasy_racing import balance
from game.fantasy_racing.bot import World, choose, choke, trap_spot
from game.fantasy_racing.data import CHARACTERS, TRACK
from game.fantasy_racing.rules import POINTS, RacingController

from test_fantasy_racing_rules import act, dice, kinds, race


# ------------------------------------------------------------------ 1. rules
def test_trap_sprung_then_shield_still_ends_the_move_with_the_fight():
    """The issue's repro: B steps down twice onto A's trap, raises the shield, and the move's
    end on A's square starts the fight (B attacks)."""
    c = race("goblin", "knight")
    c.pos = [(2, 10), (2, 12)]
    c.traps = {(2, 12): 1}
    c.inv[0]["shield"] = 1
    dice(c, 4)
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert "trap_sprung" in kinds(events) and c.pending["kind"] == "shield"
    c.inv[1]["shield"] = 0
    dice(c, 50, 1)  # the combat die: goblin attacks, 50 is a simple victory; knight's D3
    events = act(c, 0, {"type": "shield"})
    fights = [e for e in events if e["type"] == "fight"]
    assert len(fights) == 1 and fights[0]["attacker"] == 0 and fights[0]["defender"] == 1
    assert c.pos[0] == (2, 12) and c.traps == {}
    assert c.points[0] == POINTS["shield"] + POINTS["fight"]


def test_trap_sprung_and_shock_taken_moves_the_racer_off_so_no_fight_there():
    c = race("goblin", "knight")
    c.pos = [(2, 10), (2, 12)]
    c.traps = {(2, 12): 1}
    c.inv[0]["shield"] = 1
    dice(c, 4)
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    act(c, 0, {"type": "step", "dx": 0})
    dice(c, 3)  # the big shock's D6
    events = act(c, 0, {"type": "take"})
    assert "fight" not in kinds(events) and c.pos[0] == (2, 9)
    assert c.to_act() == [1]


def test_steady_dwarf_shaken_on_a_trap_lands_there_and_fights():
    c = race("dwarf", "knight")
    c.pos = [(4, 3), (4, 4)]
    c.traps = {(4, 4): 1}
    c.inv[0]["shield"] = 0
    c.inv[1]["shield"] = 0
    dice(c, 3, 1, 50, 1)  # move 3; the trap's D6 of 1 shrinks to nothing; combat 50; D3
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert c.pos[0] == (4, 4)
    assert [e for e in events if e["type"] == "fight"], "the move ended on the knight"


def test_recoil_cut_short_says_what_stopped_it():
    c = race("knight", "goblin")
    c.pos[0] = (5, 2)
    dice(c, 3)
    c.agenda = [{"t": "shock", "seat": 0, "size": "big", "shield": False, "why": "a test"}]
    events = c._run()
    recoil = [e for e in events if e["type"] == "recoil"][0]
    assert c.pos[0] == (5, 0) and recoil["stopped"] == "start"
    assert "start line" in recoil["text"] and "what stands behind" not in recoil["text"]
    c = race("knight", "goblin")
    c.terrain = {(5, 6): "rock"}
    c.pos[0] = (5, 9)
    dice(c, 3)
    c.agenda = [{"t": "shock", "seat": 0, "size": "big", "shield": False, "why": "a test"}]
    recoil = [e for e in c._run() if e["type"] == "recoil"][0]
    assert c.pos[0] == (5, 7) and recoil["stopped"] == "rock" and "rock" in recoil["text"]
    c = race("knight", "goblin")
    c.terrain = {(5, 8): "barrier"}
    c.pos[0] = (5, 9)
    dice(c, 2)
    c.agenda = [{"t": "shock", "seat": 0, "size": "small", "shield": False, "why": "a test"}]
    recoil = [e for e in c._run() if e["type"] == "recoil"][0]
    assert c.pos[0] == (5, 9) and recoil["stopped"] == "barrier" and "barrier" in recoil["text"]
    c = race("knight", "goblin")
    c.pos[0] = (5, 9)
    dice(c, 2)
    c.agenda = [{"t": "shock", "seat": 0, "size": "small", "shield": False, "why": "a test"}]
    recoil = [e for e in c._run() if e["type"] == "recoil"][0]
    assert recoil["stopped"] is None and recoil["text"].endswith("recoils 2 squares.")


def test_at_least_two_characters_score_with_their_special_rule():
    scorers = [k for k, ch in CHARACTERS.items()
               if {"treasure_hunter", "crowd_favourite"} & set(ch["abilities"])]
    assert len(scorers) >= 2


def test_halfling_scores_a_point_for_every_chest():
    c = race("halfling", "knight")
    c.items = {(5, 6): "chest", (5, 7): "coin"}
    c.pos = [(5, 5), (0, 15)]
    dice(c, 2, 50)  # move 2; the object die
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert "treasure hunter" in " ".join(e.get("text", "") for e in events)
    act(c, 0, {"type": "step", "dx": 0})
    assert c.points[0] == POINTS["treasure"] + POINTS["coin"]
    assert c.tally[0]["special"] == 1 and c.tally[0]["coins"] == 2
    assert len(c.inv[0]["objects"]) == 1


def test_orc_scores_a_point_for_every_fight_she_wins_even_defending_and_never_skids():
    c = race("orc", "knight")
    c.pos = [(5, 5), (5, 7)]
    c.inv[1]["shield"] = 0
    dice(c, 2, 50, 1)  # move 2 onto the knight; combat 50: simple victory; knight's D3 1
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    events = act(c, 0, {"type": "step", "dx": 0})
    assert c.points[0] == POINTS["fight"] + POINTS["crowd"] and c.tally[0]["special"] == 1
    assert c.pending is None, "no tactical move is offered"
    assert any(e["type"] == "tactical" and e["dx"] == 0 and "hot-headed" in e["text"]
               for e in events)
    # Defending: the knight attacks the orc and is beaten off.
    c = race("knight", "orc")
    c.pos = [(5, 5), (5, 7)]
    c.inv[0]["shield"] = 0
    dice(c, 2, 1, 1)  # combat 1: a defeat for the knight
    act(c, 0, {"type": "roll"})
    act(c, 0, {"type": "step", "dx": 0})
    act(c, 0, {"type": "step", "dx": 0})
    assert c.points[1] == POINTS["fight"] + POINTS["crowd"]


def test_timid_halfling_is_attacked_when_his_move_ends_on_an_opponent():
    c = race("halfling", "knight")
    c.pos = [(5, 5), (5, 7)]
    c.inv[0]["shield"] = 0
    dice(c, 2, 60, 1)  # knight attacks with 60 (simple victory); halfling's D3 1
    act(c, 0, {"type": "roll"})
    events = act(c, 0, {"type": "step", "dx": 0}) + act(c, 0, {"type": "step", "dx": 0})
    fight = [e for e in events if e["type"] == "fight"][0]
    assert fight["attacker"] == 1 and fight["defender"] == 0 and fight["winner"] == 1


def test_special_points_keep_the_tally_in_step_with_the_points():
    for seed in (1,):
        match = balance.play(seed)
        c: RacingController = match.controller
        for s in range(c.n):
            assert c.points[s] == sum(c.tally[s].values())


# ------------------------------------------------------------------ 2. board and length
def test_every_square_above_a_wall_has_a_way_through():
    terrain = TRACK["terrain"]
    w, h = TRACK["width"], TRACK["height"]
    blocked = {c for c, k in terrain.items() if k in ("barrier", "rock")}
    for y in range(h):
        for x in range(w):
            if (x, y) in blocked:
                continue
            ways = [dx for dx in (-1, 0, 1) if ((x + dx) % w, (y + 1) % h) not in blocked]
            assert ways, f"square {(x, y)} has no way down"


def test_each_shortcut_can_throw_a_racer_onto_an_obstacle():
    terrain = TRACK["terrain"]
    h = TRACK["height"]
    landings = set()
    for (x, y), kind in terrain.items():
        if kind != "shortcut":
            continue
        for shift in (-4, -3, -2, -1, 1, 2, 3, 4, 5):
            ty = max(0, y + shift) if shift < 0 else (y + shift) % h
            landings.add(terrain.get((x, ty)))
    assert {"barrier", "rock", "hole"} <= landings


def test_balance_report_counts_rules_and_laps_short():
    report = balance.report(6)
    assert report["lap_share"] >= 0.7
    rules = report["rules"]
    for name in ("shortcut forward", "shortcut back", "chest", "respawn", "fight",
                 "landed on rock", "used wand_of_fire"):
        assert rules[name] > 0, name
    assert "racers completing at least one lap" in balance.format(report)


def test_default_length_is_ten_turns_on_a_sixteen_row_track():
    option = {o.key: o for o in RacingController.options}["turns"]
    assert option.default == 10 and TRACK["height"] == 16


@pytest.mark.slow
def test_every_rule_fires_once_per_20_games_and_the_balance_bound_holds():
    report = balance.report(200)
    assert report["rare_rules"] == [], report["rules_per_20_games"]
    assert report["lap_share"] >= 0.7
    assert report["max_ratio"] <= 2.0, report["characters"]


# ------------------------------------------------------------------ 4. computer player
def test_gates_are_chokes_and_good_trap_spots():
    terrain = TRACK["terrain"]

    def blocked(cell):
        return terrain.get(cell) in ("barrier", "rock")

    gates = [(x, 5) for x in range(TRACK["width"]) if not blocked((x, 5))]
    assert gates and all(choke(g, blocked) >= 1 for g in gates)
    open_square = (6, 3)
    assert trap_spot(gates[0], blocked) > trap_spot(open_square, blocked)


def test_bot_stops_on_a_shortcut_when_the_jump_is_worth_more_than_the_last_step():
    total = sum(1 for seed in (0, 5) for ev in balance.play(seed).log if ev["type"] == "stop")
    assert total > 0


def test_bot_spends_its_objects_on_the_last_turn():
    c = race("knight", "goblin", turns=5)
    c.turn = 5
    c.inv[0]["objects"] = ["magic_spear"]
    c.pos = [(5, 5), (5, 9)]
    c.points = [20, 0]
    view = c.view(0)
    legal = c.legal_actions(0)
    action = choose(view, legal, c.rng)
    assert action["type"] == "use" and action["object"] == "magic_spear"
    World(view, 0)  # the world builds from a plain view


# ------------------------------------------------------------------ 3. a screen that teaches
def _scene(seed=3, mode=None, prepare=None):
    """A play scene with a person to act in ``mode`` ('objects': Alexandra's objects phase
    after turn 1, 'tactical': a person's tactical move); ``prepare(controller)`` edits the
    state before the scene opens (the scene caches its views)."""
    import pygame  # noqa: F401  (the driver opens the dummy display)
    from uidriver import Driver

    from game.engine import Match
    from game.engine.bots import choose_action
    from game.ui.scenes.play import PlayScene
    d = Driver()
    seats = [{"name": "Alexandra", "kind": "human"}, {"name": "Bo", "kind": "human"},
             {"name": "Cpu", "kind": "bot"}]
    for seed in range(seed, seed + 30):
        match = Match.new("fantasy_racing", seats, seed=seed, options={"characters": "random"})
        match.act(0, {"type": "deal"})
        while not match.is_over():
            seat = match.to_act()[0]
            view = match.view(seat)
            if mode == "objects" and view["phase"] == "objects" and seat == 0 \
                    and view["turn"] > 1:
                break
            if mode == "tactical" and view["pending"] and \
                    view["pending"]["kind"] == "tactical" and seat != 2:
                break
            match.act(seat, choose_action(match, seat))
        if not match.is_over():
            break
    if prepare:
        prepare(match.controller)
    play = d.app.push(PlayScene(d.app, match))
    d.pump(2)
    return d, play, match


def test_race_table_rows_and_chest_icons_explain_characters_and_bonus_malus():
    d, play, match = _scene(mode="objects")
    screen = play.screen
    view = match.view(None)
    assert screen.info_rects, "the race table remembers where its rows are"
    kinds_seen = set()
    for rect, key in screen.info_rects:
        mx, my = play.transform().to_map(*rect.center)
        assert screen.cell_at((mx, my)) in [k for r, k in screen.info_rects
                                            if r.collidepoint(rect.center)]
        text = screen.hover_text(key, view)
        kinds_seen.add(key[0])
        if key[0] == "racer":
            assert "Attacking:" in text and "% to win" in text and "Weakness:" in text
        else:
            assert "chest" in text.lower() and ("Bonus" in text or "Malus" in text
                                               or "Even" in text)
    assert kinds_seen == {"racer", "mood"}
    # A board square with a racer gives the odds and the special rules too.
    r = view["racers"][0]
    text = screen.hover_text(tuple(screen.where[0]), view)
    assert "% of attacks" in text and "Weakness:" in text and r["name"] in text


def test_no_choice_is_drawn_pre_selected_and_tab_then_enter_chooses():
    import pygame
    d, play, match = _scene(seed=3, mode="tactical")
    seat = match.to_act()[0]
    if play.viewer != seat:  # the handover card first
        d.key(pygame.K_SPACE)
    choices = [w for w, _ in play.controls.items
               if getattr(w, "text", "") in ("Skid left", "Skid right", "Stay", "2 left",
                                             "2 right")]
    assert len(choices) >= 2
    assert play.controls.focused() is None, "no button has the keyboard focus"
    assert not any(w.is_selected for w in choices)
    assert all(getattr(w, "object_ids", [None])[-1] != "#primary" for w in choices)
    before = len(match.actions)
    d.key(pygame.K_TAB)
    assert play.controls.focused() is choices[0], "Tab goes to the first choice"
    d.key(pygame.K_RETURN)
    assert len(match.actions) == before + 1, "a key makes the choice"
    # The next decision (after the keyboard choice) again starts with nothing focused.
    d.pump(3)
    if match.to_act() and match.seats[match.to_act()[0]]["kind"] == "human":
        assert play.controls.focused() is None


def test_a_disabled_object_says_why_under_its_button():
    def prepare(c):
        c.inv[0]["objects"] = ["stealing_gloves"]
        for s in range(1, c.n):
            c.inv[s] = {"clover": 0, "shield": 0, "objects": []}

    d, play, match = _scene(mode="objects", prepare=prepare)
    assert match.controller.why_unusable(0, "stealing_gloves").startswith(
        "Stealing gloves: no opponent")
    buttons = [w for w, _ in play.controls.items if "Stealing gloves" in getattr(w, "text", "")]
    assert buttons and not buttons[0].is_enabled
    labels = " ".join(getattr(w, "text", "") for w in play.controls.others)
    assert "no opponent within" in labels


def test_aiming_label_fits_its_button_and_racer_labels_are_readable(monkeypatch):
    from game.fantasy_racing import screen as racing_screen
    from game.ui.widgets import font
    def prepare(c):
        c.inv[0]["objects"] = ["stealing_gloves", "magic_spear", "trap", "ring_of_fire"]
        c.inv[1]["objects"] = ["gold_purse"]
        c.pos[1] = c.pos[0]

    d, play, match = _scene(mode="objects", prepare=prepare)
    play.screen.aim = "stealing_gloves"
    play.screen.aim_turn = (0, match.view(0)["turn"])
    play.rebuild()
    d.pump()
    checked = 0
    for widget, _ in play.controls.items:
        text = getattr(widget, "text", "")
        if text.startswith(("Aim", "Use")):
            checked += 1
            assert font(16, True).size(text)[0] <= widget.rect.width - 12, text
    assert checked == 4 and d.buttons("Aiming: Stealing gloves")
    sizes = []
    real = racing_screen.draw_text

    def spy(surface, text, pos, size, *args, **kwargs):
        sizes.append(size)
        return real(surface, text, pos, size, *args, **kwargs)

    monkeypatch.setattr(racing_screen, "draw_text", spy)
    d.app.draw()
    assert sizes and min(sizes) >= 12
    transform = play.transform()
    assert transform.scale * play.screen.board.tilewidth >= 40, "squares of 40 px or more"


def test_floating_labels_stay_inside_the_board_area(monkeypatch):
    from game.fantasy_racing import screen as racing_screen
    d, play, match = _scene(mode="objects")
    play.screen.floats = [["big shock", play.screen.centre((0, 0)), 0.2, (255, 0, 0)]]
    where = []
    real = racing_screen.draw_text

    def spy(surface, text, pos, size, *args, **kwargs):
        rect = real(surface, text, pos, size, *args, **kwargs)
        if text == "big shock":
            where.append(rect)
        return rect

    monkeypatch.setattr(racing_screen, "draw_text", spy)
    play.screen._draw_effects(d.app.screen, play.transform(), 40)
    assert where and play.board_rect().contains(where[0])


def test_setup_tooltip_lists_every_character_with_odds():
    text = RacingController.option_tooltip("characters", "choose")
    for ch in CHARACTERS.values():
        assert ch["name"] in text
    assert text.count("% of attacks") == len(CHARACTERS)
    assert RacingController.option_tooltip("turns", 10) is None


@pytest.mark.slow
def test_bot_beats_random_players_at_least_82_percent_one_on_one():
    from game.engine import Match, Rng
    wins, games = 0.0, 200
    for seed in range(1000, 1000 + games):
        bot = seed % 2
        seats = [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]
        match = Match.new("fantasy_racing", seats, seed=seed, options={"characters": "random"})
        rng = Rng.derive(seed, 13)
        while not match.is_over():
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            action = (RacingController.policy(match.view(seat), legal, rng) if seat == bot
                      else None) or rng.choice(legal)
            match.act(seat, action)
        winners = match.result()["winners"]
        wins += (bot in winners) / len(winners)
    assert wins / games >= 0.82, wins / games


def test_a_racer_on_the_last_row_keeps_its_name_inside_the_board_area(monkeypatch):
    from game.fantasy_racing import screen as racing_screen

    def prepare(c):
        c.pos[1] = (3, TRACK["height"] - 1)

    d, play, match = _scene(mode="objects", prepare=prepare)
    play.screen.reset(match.view(None))
    name = match.seats[1]["name"]
    where = []
    real = racing_screen.draw_text

    def spy(surface, text, pos, size, *args, **kwargs):
        rect = real(surface, text, pos, size, *args, **kwargs)
        if name.startswith(text.rstrip(".…")) and text:
            where.append(rect)
        return rect

    monkeypatch.setattr(racing_screen, "draw_text", spy)
    play.screen._draw_racers(d.app.screen, play.transform(), match.view(None),
                             int(play.transform().scale * play.screen.board.tilewidth))
    assert where and all(play.board_rect().contains(r) for r in where)
