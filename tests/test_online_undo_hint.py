"""Undo and hints at an online table (issue 30), answered by the referee.

Undo follows hot-seat's rule (``Match.can_undo``: the seat's own last action, nothing revealed
or rolled since) and is refused in hot-seat's words otherwise; a hint is worked out by the
referee from the asking seat's view and legal actions and recorded as hot-seat records it.
Two people (Ann and Bo, two programs) play Mothership over the in-memory network."""

from __future__ import annotations

import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.engine.table import LocalTable
from game.online.client import Player
from game.online.referee import Referee
from game.online.remote_table import HINTING, UNDOING, RemoteTable
from game.online.transport import MemoryHub, serve
from game.ui.hints import hint_for

SEED = 0x5EA7_1E55_2026
SEATS = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human"}]


class Two:
    def __init__(self, tmp_path, game="mothership"):
        self.hub = MemoryHub()
        self.referee = Referee(tmp_path, capacity=1000, rate=1000)
        self.ref_end = self.hub.endpoint("@ref")
        self.game = game
        self.table_id, out = self.referee.open_table(game, SEATS, ["@ann", "@bo"], seed=SEED)
        self.hub.join(self.table_id, ["@ann", "@bo"])
        for recipient, message in out:
            self.ref_end.send(recipient, message)
        self.players = [Player(self.hub.endpoint(a), "@ref") for a in ("@ann", "@bo")]
        for player in self.players:
            player.poll()
        self.tables = [RemoteTable(p, self.table_id, [s]) for s, p in enumerate(self.players)]
        self.match = self.referee.tables[self.table_id].match
        self.now = 0.0

    def exchange(self):
        """The referee answers what arrived; both programs take in its answers."""
        self.now += 1.0
        serve(self.referee, self.ref_end, self.now)
        return [table.poll() for table in self.tables]

    def play(self, seat):
        action = choose_action(self.match, seat)  # the test plays the person
        self.tables[seat].act(seat, action)
        self.exchange()
        return action

    def local(self):
        """The same game in hot-seat: the referee's actions replayed from the seed."""
        local = Match.new(self.game, SEATS, seed=SEED)
        for record in self.match.actions:
            local.act(record["seat"], record["action"])
        return local


def public(events):
    return [{k: v for k, v in ev.items() if k != "@audience"} for ev in events]


def test_undo_is_answered_by_the_referee_by_the_hot_seat_rule(tmp_path):
    two = Two(tmp_path)
    ann, bo = two.tables
    assert ann.undo_refusal(0) == LocalTable(two.match).undo_refusal(0)  # nothing yet
    assert not ann.can_undo(0)
    two.play(0)
    assert len(two.match.actions) == 1 and two.match.can_undo(0)
    assert ann.can_undo(0) and ann.undo_refusal(0) is None
    assert not bo.can_undo(1)
    sent = next(iter(two.referee.tables[two.table_id].applied))
    before_bo = list(bo.log)
    ann.undo(0)
    assert ann.pending == UNDOING and not ann.can_undo(0)
    _, bo_news = two.exchange()
    assert ann.pending is None
    assert two.match.actions == []
    fresh = Match.new("mothership", SEATS, seed=SEED)
    # Both programs' logs are the game's as if the action had never been made.
    assert public(ann.log_for(0)) == public(fresh.log_for(0))
    assert public(bo.log_for(1)) == public(fresh.log_for(1))
    assert len(bo.log) < len(before_bo) and ann.generation >= 1
    assert bo_news == ["Ann took back their last action."]
    assert ann.legal_actions(0) == fresh.legal_actions(0)
    # The id of the action taken back is never applied again (a resend after a crash).
    two.players[0].transport.send("@ref", {**_message(two, "action", 0), "id": sent,
                                           "action": two.match.legal_actions(0)[0]})
    ann_news, _ = two.exchange()
    assert ann_news == ["That action was taken back (undone)."] and two.match.actions == []
    # Another person acted since: refused in hot-seat's own words, before and when asked.
    two.play(0)
    two.play(1)
    reason = LocalTable(two.match).undo_refusal(0)
    assert "someone else acted since" in reason
    assert ann.undo_refusal(0) == reason and not ann.can_undo(0)
    with pytest.raises(Exception):
        ann.undo(0)
    steps = len(two.match.actions)
    two.players[0].undo(two.table_id, 0, steps)  # asked anyway: the referee refuses
    ann_news, _ = two.exchange()
    assert ann_news == [reason] and len(two.match.actions) == steps
    # Bo may take his back; asked at a step that is gone, it is refused.
    assert bo.can_undo(1)
    two.players[1].undo(two.table_id, 1, steps - 1)
    _, bo_news = two.exchange()
    assert bo_news == ["The game has moved on since you asked; look again."]
    bo.undo(1)
    two.exchange()
    assert len(two.match.actions) == steps - 1
    assert public(bo.log_for(1)) == public(two.local().log_for(1))


def _message(two, kind, seat, **fields):
    from game.online import protocol
    return protocol.stamp(kind, two.table_id, "test", seat=seat, **fields)


def test_undo_and_hint_messages_are_checked_strictly(tmp_path):
    two = Two(tmp_path)
    for kind in ("undo", "hint"):
        base = _message(two, kind, 0, step=0)
        for bad in ({**base, "step": -1}, {**base, "step": True}, {**base, "extra": 1},
                    {**base, "seat": "0"}, {k: v for k, v in base.items() if k != "step"},
                    {**base, "seat": 7}, {**base, "seat": 1}):
            (recipient, answer), = two.referee.handle("@ann", bad, 1.0)
            assert recipient == "@ann" and answer["kind"] == "refused" and answer["reason"]
        (recipient, answer), = two.referee.handle("@mallory", base, 1.0)
        assert answer["kind"] == "refused" and "no seat" in answer["reason"]
    assert two.match.actions == []


def test_a_hint_is_worked_out_by_the_referee_and_recorded_as_in_hot_seat(tmp_path):
    two = Two(tmp_path)
    ann, bo = two.tables
    two.play(0)
    two.play(1)
    assert 0 in two.match.to_act()
    local = two.local()
    expected = hint_for(LocalTable(local), 0)  # hot-seat's hint at the same position
    ann.ask_hint(0)
    assert ann.hinting(0) and ann.take_hint(0) is None
    two.exchange()
    action = ann.take_hint(0)
    assert action == expected.action and not ann.hinting(0)
    local.record_hint(0)
    assert two.match.actions == local.actions  # recorded as hot-seat records it
    line = "Ann asked for a hint."
    assert [ev["text"] for ev in bo.log_for(1)][-1] == line
    assert [ev["text"] for ev in ann.log_for(0)][-1] == line
    # Asked again with nothing done between: the same hint, recorded once.
    ann.ask_hint(0)
    two.exchange()
    assert ann.take_hint(0) == action and two.match.actions == local.actions
    # Not Bo's turn: refused with the reason, and his program stops waiting.
    bo.ask_hint(1)
    _, bo_news = two.exchange()
    assert bo_news == ["It is not Bo's turn."] and not bo.hinting(1)
    # A hint is no action: the undo point is still Bo's last action.
    assert two.match.can_undo(1) and bo.can_undo(1)


def test_the_play_scene_asks_the_referee_for_hints_and_undo(tmp_path):
    from game.ui.scenes.play import PlayScene
    from uidriver import Driver
    two = Two(tmp_path)
    ann = two.tables[0]
    d = Driver()
    scene = PlayScene(d.app, table=ann)
    d.app.push(scene)
    d.pump(3)
    assert scene.viewer == 0
    toasts = []
    d.app.toast = lambda text, **kw: toasts.append(text)
    scene.ask_hint()
    assert toasts == [HINTING] and scene.active_hint() is None
    two.now += 1.0
    serve(two.referee, two.ref_end, two.now)
    d.pump(3)
    hint = scene.active_hint()
    assert hint is not None and hint.action == hint_for(LocalTable(Match.new(
        "mothership", SEATS, seed=SEED)), 0).action
    assert toasts[-1] == hint.line
    # Other news (a chat line at the table) leaves the hint standing.
    step = ann.step
    two.players[1].say(two.table_id, "Take your time.")
    two.now += 1.0
    serve(two.referee, two.ref_end, two.now)
    d.pump(2)
    assert ann.step != step and scene.active_hint() is hint
    assert scene.perform(0, hint.action)
    two.now += 1.0
    serve(two.referee, two.ref_end, two.now)
    for _ in range(20):
        d.pump()
        scene.update(0.5)
    assert ann.can_undo(0)
    assert scene.undo()
    assert ann.pending == UNDOING
    two.now += 1.0
    serve(two.referee, two.ref_end, two.now)
    for _ in range(20):
        d.pump()
        scene.update(0.5)
    assert ann.pending is None
    assert [r["seat"] for r in two.match.actions] == [0]  # only the hint stays on record
    assert [ev.get("text") for ev in scene.shown] == [ev.get("text") for ev in ann.log]


def test_history_is_the_seats_own_view_until_the_game_is_over_then_everything(tmp_path):
    two = Two(tmp_path)
    ann, bo = two.tables
    for seat in (0, 1, 0):
        two.play(seat)
    assert ann.history_at(0, 1) is None
    two.exchange()
    answer = ann.history_at(0, 1)
    then = Match.new("mothership", SEATS, seed=SEED)
    then.act(two.match.actions[0]["seat"], two.match.actions[0]["action"])
    assert set(answer["views"]) == {0} and answer["views"][0] == then.view(0)
    assert answer["log"] == public(then.log_for(0)) and answer["actor"] == 0
    assert answer["over"] is False and answer["step"] == 1
    # Another seat's view is not asked for by its own account only.
    two.players[1].transport.send("@ref", _message(two, "history", 0, step=1))
    _, bo_news = two.exchange()
    assert bo_news == ["Seat 1 (Ann) is not yours to play."]
    assert ann.history_at(0, 99) is None
    ann_news, _ = two.exchange()
    assert ann_news == ["The game has no step 99 yet (it is at step 3)."]
    # Once the game is over: every seat's view and every line, with its audience.
    for _ in range(500):
        if two.match.is_over():
            break
        two.play(two.match.to_act()[0])
    assert two.match.is_over() and ann.is_over()
    step = len(two.match.actions) // 2
    assert ann.history_at(0, step) is None
    two.exchange()
    answer = ann.history_at(0, step)
    local = two.local()
    from game.engine.history import History
    then = History(local).at(step)
    assert answer["views"] == {s: then.view(s) for s in range(2)}
    assert [ev.get("audience") for ev in answer["log"]] == [ev.get("@audience")
                                                            for ev in then.log]
    assert [ev["text"] for ev in answer["log"]] == [ev["text"] for ev in then.log]


def test_the_history_of_an_online_game_steps_through_the_referees_answers(tmp_path):
    import pygame
    from game.ui.scenes.online_history import OnlineHistoryScene
    from game.ui.scenes.play import PlayScene
    from uidriver import Driver
    two = Two(tmp_path)
    for seat in (0, 1, 0):
        two.play(seat)
    ann = two.tables[0]
    d = Driver()
    scene = PlayScene(d.app, table=ann)
    d.app.push(scene)
    d.pump(3)
    scene.open_history()
    history = d.top
    assert isinstance(history, OnlineHistoryScene) and history.at == 3
    toasts = []
    d.app.toast = lambda text, **kw: toasts.append(text)
    d.key(pygame.K_LEFT)
    d.key(pygame.K_LEFT)
    d.pump(2)
    assert history.at == 3 and "asking the referee" in history.info_lines()[0]
    two.now += 1.0
    serve(two.referee, two.ref_end, two.now)
    d.pump(3)
    assert history.at == 1
    then = Match.new("mothership", SEATS, seed=SEED)
    then.act(two.match.actions[0]["seat"], two.match.actions[0]["action"])
    assert history.view() == then.view(0)
    assert [ev["text"] for ev in history.shown] == [ev["text"] for ev in then.log_for(0)]
    assert not history.perform(0, {"type": "pass"}) and toasts == ["History only shows the game."]
    assert len(two.match.actions) == 3
    d.key(pygame.K_ESCAPE)
    assert d.top is scene
