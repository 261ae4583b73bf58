"""Whole seeded Fantasy Racing games: random legal actions and computer players.

Invariants are checked after every action; some games save and reload after
every action and compare the snapshot and the views; every game replays from
its seed and actions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from game.engine import Match, Rng
from game.engine.bots import choose_action
from game.fantasy_racing.data import TRACK
from game.fantasy_racing.rules import RacingController

from gamecheck import assert_reloads_the_same

GAME = "fantasy_racing"


def new_game(seed: int, kinds: list[str] | None = None) -> Match:
    rng = Rng.derive(seed, 11)
    n = 2 + seed % 5
    kinds = kinds or [rng.choice(("human", "bot")) for _ in range(n)]
    options = {"turns": 5 + seed % 11, "characters": ("choose", "random")[seed % 2]}
    return Match.new(GAME, [{"name": f"P{i}", "kind": k} for i, k in enumerate(kinds)],
                     seed=seed, options=options)


def check(match: Match) -> None:
    c: RacingController = match.controller
    w, h = TRACK["width"], TRACK["height"]
    for s in range(c.n):
        x, y = c.pos[s]
        assert 0 <= x < w and 0 <= y < h
        assert not (c.terrain.get((x, y)) == "barrier" and (x, y) not in c.destroyed)
        assert c.points[s] == sum(c.tally[s].values())
        assert c.tally[s]["laps"] == 10 * c.laps[s] and c.laps[s] >= 0
        assert c.inv[s]["clover"] >= 0 and c.inv[s]["shield"] >= 0
        if c.has(s, "no_shield") if c.chars[s] else False:
            assert c.inv[s]["shield"] == 0
    assert c.taken <= set(c.items)
    assert c.destroyed <= {p for p, k in c.terrain.items() if k == "barrier"}
    if match.is_over():
        assert match.to_act() == [] and match.result() is not None
        assert c.turn == c.turns
        return
    seat = match.to_act()
    assert len(seat) == 1 and match.legal_actions(seat[0])
    assert 1 <= c.turn <= c.turns or c.phase == "pick"
    if c.phase != "pick":
        # Protection: exactly the racers who have not started, or wear a cloak.
        for s in range(c.n):
            assert c.protected(s) == (not c.started[s] or c.cloaked[s])


def play(seed: int, path: Path | None = None, bots: bool = False) -> Match:
    match = new_game(seed, ["bot"] * (2 + seed % 5) if bots else None)
    rng = Rng.derive(seed, 12)
    while not match.is_over():
        seat = match.to_act()[0]
        action = choose_action(match, seat) if bots else rng.choice(match.legal_actions(seat))
        match.act(seat, action)
        check(match)
        if path is not None:
            assert_reloads_the_same(match, path)
    return match


def replay(match: Match) -> None:
    again = Match.new(GAME, match.seats, seed=match.seed, options=match.options)
    for record in match.actions:
        again.act(record["seat"], record["action"])
    assert again.snapshot() == match.snapshot()
    assert [e["text"] for e in again.log] == [e["text"] for e in match.log]


@pytest.mark.parametrize("seed", range(40))
def test_random_whole_game(seed):
    match = play(seed)
    replay(match)
    result = match.result()
    yaml.safe_dump(result)
    assert result["winners"] and len(result["scores"]) == 2 + seed % 5


@pytest.mark.parametrize("seed", range(20))
def test_bot_whole_game(seed):
    match = play(100 + seed, bots=True)
    replay(match)
    yaml.safe_dump(match.view(0))


@pytest.mark.parametrize("seed", [2, 5])
def test_save_and_load_at_every_step(seed, tmp_path):
    match = play(seed, tmp_path / "race.yaml")
    assert match.is_over()


def test_bot_beats_random_players():
    """Two racers, one computer player and one random: the bot wins most races."""
    wins = 0
    games = 40
    for seed in range(games):
        bot = seed % 2
        seats = [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]
        match = Match.new(GAME, seats, seed=seed, options={"characters": "random", "turns": 8})
        rng = Rng.derive(seed, 13)
        while not match.is_over():
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            if seat == bot:
                action = RacingController.policy(match.view(seat), legal, rng) or rng.choice(legal)
            else:
                action = rng.choice(legal)
            match.act(seat, action)
        winners = match.result()["winners"]
        wins += (bot in winners) / len(winners)
    assert wins / games > 0.65, wins


def test_bot_choices_are_always_legal_and_from_its_own_view():
    match = new_game(7, ["bot"] * 4)
    for _ in range(300):
        if match.is_over():
            break
        seat = match.to_act()[0]
        legal = match.legal_actions(seat)
        action = RacingController.policy(match.view(seat), legal, Rng(1))
        assert action is None or action in legal
        match.act(seat, action or legal[0])


def test_balance_report_runs_and_formats():
    from game.fantasy_racing import balance
    report = balance.report(12)
    assert report["games"] == 12 and set(report["characters"]) == set(
        __import__("game.fantasy_racing.data", fromlist=["CHARACTERS"]).CHARACTERS)
    total = sum(row["wins"] for row in report["characters"].values())
    assert abs(total - 12) < 1e-6
    text = balance.format(report)
    assert "largest ratio" in text and "goblin" in text
    yaml.safe_dump(report)


def test_rules_document_matches_the_character_data():
    from game.fantasy_racing.data import CHARACTERS, HERE
    text = (HERE / "rules.md").read_text()
    for ch in CHARACTERS.values():
        c = ch["combat"]
        assert f"**{ch['name']}** (combat {c['defeat']} / {c['simple']} / {c['overwhelming']}" \
            in text
    for n in range(1, 29):
        assert f"\n{n}. **" in text, f"ruling {n}"


def test_rules_document_reads_cleanly_in_the_rules_viewer():
    """Every section converts; tables keep their header and lose their divider row; the
    points table and the respawn turns agree with the rules."""
    import re

    from game.fantasy_racing.data import HERE
    from game.fantasy_racing.rules import POINTS, respawn_turns
    from game.ui.markdown import markdown_to_html, split_sections

    text = (HERE / "rules.md").read_text()
    for _title, body in split_sections(text):
        html = markdown_to_html(body)
        assert not re.search(r">[\s|:-]*-{1,}[\s|:-]*<", html), "a table divider is shown"
    assert f"| Lap completed | +{POINTS['lap']} |" in text
    assert f"| Falling into a hole | {POINTS['hole']} |" in text
    assert "turns 4, 7, 10 and 13" in text and respawn_turns(15) == [4, 7, 10, 13]
