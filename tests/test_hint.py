"""A hint (issue 16, part 4): what the Normal computer player would do for the person at the
screen, from their own view only; asking is recorded publicly in the match (a non-game entry
of its actions that the controller never sees), kept by saves, replays, History and undo."""

from __future__ import annotations

import copy

import pytest

from game.engine import IllegalAction, Match
from game.engine.bots import choose_action
from game.engine.history import History
from game.engine.match import HINT

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 3, "monster_fandango": 2, "mothership": 3,
         "odysseus": 3}


def people(game_id: str, n: int | None = None) -> list[dict[str, str]]:
    n = n or SEATS[game_id]
    return [{"name": f"P{i}", "kind": "human"} for i in range(n)]


def played(game_id: str, steps: int, seed: int = 4, hint_every: int = 3) -> Match:
    """A seeded game of people playing the computer's choices, asking a hint every few turns."""
    m = Match.new(game_id, people(game_id), seed=seed)
    for step in range(steps):
        if m.is_over():
            break
        seat = m.to_act()[0]
        if step % hint_every == 0:
            m.record_hint(seat)
        m.act(seat, choose_action(m, seat))
    return m


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_a_hint_is_logged_publicly_and_changes_nothing_in_the_game(game_id):
    m = Match.new(game_id, people(game_id), seed=5)
    seat = m.to_act()[0]
    before = (m.snapshot(), m.to_act(), m.legal_actions(seat), m.barrier)
    events = m.record_hint(seat)
    assert [ev["text"] for ev in events] == [f"P{seat} asked for a hint."]
    for viewer in [None, *range(len(m.seats))]:
        assert m.log_for(viewer)[-1]["text"] == f"P{seat} asked for a hint."
    assert (m.snapshot(), m.to_act(), m.legal_actions(seat), m.barrier) == before
    assert m.actions == [{"seat": seat, "action": HINT}]
    assert m.record_hint(seat) == [] and len(m.actions) == 1  # asked again: once on record
    assert HINT not in m.legal_actions(seat)


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_hints_survive_save_load_and_history(game_id, tmp_path):
    m = played(game_id, 40)
    hints = [i for i, a in enumerate(m.actions) if Match.is_hint(a)]
    assert len(hints) >= 5
    path = tmp_path / "game.yaml"
    m.save(path)
    loaded = Match.load(path)
    assert loaded.actions == m.actions and loaded.snapshot() == m.snapshot()
    assert [ev["text"] for ev in loaded.log] == [ev["text"] for ev in m.log]
    history = History(m, every=7)
    for step in hints:
        texts = [ev["text"] for ev in history.events_of(step + 1)]
        assert texts == [f"P{m.actions[step]['seat']} asked for a hint."]
        assert history.at(step + 1).snapshot() == history.at(step).snapshot()
    assert history.at(len(history)).log == m.log


def test_the_controller_never_sees_a_hint(monkeypatch):
    m = Match.new("odysseus", people("odysseus"), seed=1)
    seen = []
    original = m.controller.apply
    monkeypatch.setattr(m.controller, "apply", lambda seat, action: seen.append(action)
                        or original(seat, action))
    m.record_hint(m.to_act()[0])
    assert seen == []


def test_a_hint_record_is_refused_when_it_is_not_one():
    m = Match.new("mothership", people("mothership"), seed=1)
    seat = m.to_act()[0]
    with pytest.raises(IllegalAction):
        m.act(seat, {"type": "@hint", "extra": 1})
    with pytest.raises(IllegalAction):
        m.record_hint((seat + 1) % 3)  # not their turn
    bots = Match.new("mothership", [{"name": f"B{i}", "kind": "bot"} for i in range(3)], seed=1)
    with pytest.raises(IllegalAction):
        bots.record_hint(bots.to_act()[0])
    assert m.actions == [] and bots.actions == []


def test_undo_takes_back_the_action_not_the_hint():
    m = Match.new("fantasy_racing", people("fantasy_racing"), seed=3)
    seat = m.to_act()[0]
    m.act(seat, m.legal_actions(seat)[0])          # pick a character
    after_pick = m.snapshot()
    nxt = m.to_act()[0]
    m.record_hint(nxt)
    assert m.can_undo(seat) and not m.can_undo(nxt)
    m.undo()
    assert m.to_act() == [seat] and m.actions == []
    # The hint was asked by a seat that no longer acts: nothing to keep it at.
    m.act(seat, m.legal_actions(seat)[0])
    assert m.snapshot() == after_pick
    m.record_hint(nxt)
    m.act(nxt, m.legal_actions(nxt)[0])
    m.record_hint(m.to_act()[0])
    m.undo()  # takes back nxt's pick; the hint asked before it stays
    assert m.to_act() == [nxt]
    assert m.actions[1:] == [{"seat": nxt, "action": HINT}]
    assert m.log[-1]["text"] == f"P{nxt} asked for a hint."
    # A hint asked after a person's action, by the one who then takes it back, stays too.
    m.act(nxt, m.legal_actions(nxt)[0])
    third = m.to_act()[0]
    m.act(third, m.legal_actions(third)[0])
    fourth = m.to_act()[0]
    if fourth == third:
        m.record_hint(third)
        m.undo()
        assert m.actions[-1] == {"seat": third, "action": HINT}


def test_old_saves_without_hints_still_load(tmp_path):
    m = Match.new("monster_fandango", people("monster_fandango"), seed=2)
    for _ in range(10):
        seat = m.to_act()[0]
        m.act(seat, choose_action(m, seat))
    path = tmp_path / "old.yaml"
    m.save(path)
    assert Match.load(path).actions == m.actions
    assert copy.deepcopy(m).undo_point() == m.undo_point()


# ---------------------------------------------------------------- in the play scene
def test_hint_key_and_button_in_the_real_loop(monkeypatch, tmp_path):
    """T (and the Hint button) marks the Normal player's choice for the person at the
    screen, chosen from their own view only, says it in plain words, and logs the asking
    for everyone; asking again with nothing done records nothing more; the autosave keeps it."""
    import pygame

    from game.ui.hints import hint_for, suggest
    from game.ui.scenes.play import PlayScene
    from realloop import RealLoop

    monkeypatch.setenv("TABLETOP_SAVES", str(tmp_path / "saves"))
    loop = RealLoop()
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    match = Match.new("monster_fandango", seats, seed=7)
    play = loop.app.push(PlayScene(loop.app, match))
    assert loop.run_until(lambda: play.viewer is not None and not play.showing
                          and play.viewer in match.to_act(), seconds=20)
    seat = play.viewer
    seen = []
    policy = match.cls.policy
    monkeypatch.setattr(match.cls, "policy", classmethod(
        lambda cls, view, legal, rng: seen.append(view) or policy(view, legal, rng)))
    expected = suggest(match, seat)
    assert seen and all(view == match.view(seat) for view in seen)  # only their own view
    actions = len(match.actions)
    loop.key_down(pygame.K_t)
    loop.key_up(pygame.K_t)
    loop.run(0.2)
    hint = play.active_hint()
    assert hint is not None and hint.action == expected and hint.seat == seat
    assert hint.what and hint.why and hint.line.startswith("Hint: ")
    assert any(hint.line == text for text, _until, _error in loop.app.toasts)
    assert match.actions[actions:] == [{"seat": seat, "action": HINT}]
    line = f"{seats[seat]['name']} asked for a hint."
    assert play._log_events()[-1]["text"] == line
    assert line in play.log_box.html_text + play.log_box.appended_text
    assert play.hint_cells and play.hint_cells <= set(play.screen.cells())
    loop.click_button("Hint", settle=0.2)
    assert len(match.actions) == actions + 1 and play.active_hint() is not None
    # The marked place is where the hinted action is taken.
    cell = next(iter(play.hint_cells))
    assert play.screen.cell_action(cell, play.view()) == expected or any(
        play.screen.cell_from(v) == cell for v in expected.values())
    play.perform(seat, expected)
    assert play.active_hint() is None  # gone once something is done
    saved = [p for p in (tmp_path / "saves").glob("autosave-*.yaml")]
    assert saved and Match.load(saved[0]).actions == match.actions
    assert hint_for(match, match.to_act()[0]) is not None


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_history_view_steps_through_hints_with_their_log_line(game_id):
    """The History view animates a hint step as a log line only, in every game."""
    import pygame

    from game.ui.scenes.history import HistoryScene
    from uidriver import Driver

    m = played(game_id, 24, hint_every=2)
    hints = [i + 1 for i, a in enumerate(m.actions) if Match.is_hint(a)]
    d = Driver(size=(1280, 720), animation="fast")
    scene = d.app.push(HistoryScene(d.app, m, viewer=m.actions[hints[0] - 1]["seat"]))
    d.key(pygame.K_HOME)
    for step in range(1, hints[2] + 1):
        d.key(pygame.K_RIGHT)
        d.pump(3)
        assert scene.step == step
        if step in hints:
            assert scene.history.events_of(step)[-1]["text"].endswith("asked for a hint.")
    assert d.app.crashes == 0


def test_the_hinted_button_is_found_by_what_its_click_takes():
    from game.ui.scenes.play import takes

    class Screen:
        def act(self, action):
            return action

    s = Screen()
    roll = {"type": "roll"}
    assert takes(lambda: s.act({"type": "roll"}), roll)
    assert not takes(lambda: s.act({"type": "keep"}), roll)
    assert takes(lambda a={"type": "play", "card": "help-3"}: s.act(a),
                 {"type": "play", "card": "help-3"})
    assert not takes(lambda a={"type": "play", "card": "help-4"}: s.act(a),
                     {"type": "play", "card": "help-3"})
    for dx in (-1, 1):
        assert takes(lambda dx=dx: s.act({"type": "tactical", "dx": dx}),
                     {"type": "tactical", "dx": dx})
        assert not takes(lambda dx=dx: s.act({"type": "tactical", "dx": dx}),
                         {"type": "tactical", "dx": -dx})
    assert not takes(None, roll) and not takes(s.act, roll)


def test_a_hint_changes_no_later_computer_choice():
    """The computers' dice come from the game actions only: asking for a hint does not make
    them play differently afterwards."""
    from game.engine import Match
    from game.engine.bots import choose_action
    seats = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot"}]
    plain, hinted = (Match.new("fantasy_racing", seats, seed=4) for _ in range(2))
    for step in range(60):
        if plain.is_over():
            break
        seat = plain.to_act()[0]
        if step % 3 == 0 and seat == 0:
            hinted.record_hint(seat)
        action = choose_action(plain, seat)
        assert choose_action(hinted, seat) == action, f"step {step}"
        plain.act(seat, action)
        hinted.act(seat, action)
