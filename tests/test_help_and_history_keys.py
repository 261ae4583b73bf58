"""F1 and "?" open the rules at what is happening; H and the game menu open History; a finished
game offers its replay (issue 16, parts 1 and 3)."""

from __future__ import annotations

import pygame
import pytest

from game.engine import Match
from game.engine.bots import play_out
from game.ui.gamescreen import SCREENS
from game.ui.scenes.glance import GlanceScene
from game.ui.scenes.handbook import RulesScene, load_sections
from game.ui.scenes.history import HistoryScene
from game.ui.scenes.play import PlayScene

from uidriver import Driver

SEATS = {"fantasy_expedition": 9, "fantasy_racing": 2, "monster_fandango": 2, "mothership": 2,
         "odysseus": 3}


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_every_phase_names_a_section_the_rules_have(game_id):
    from importlib import import_module
    module, name = SCREENS[game_id].split(":")
    screen = getattr(import_module(module), name)
    titles = [title for title, _text in load_sections(game_id)[0]]
    assert screen.RULES_SECTIONS, game_id
    for section in screen.RULES_SECTIONS.values():
        assert section in titles, (game_id, section)


def _play(d: Driver, game_id: str, people: int = 1) -> PlayScene:
    seats = [{"name": f"P{i}", "kind": "human" if i < people else "bot"}
             for i in range(SEATS[game_id])]
    play = d.app.push(PlayScene(d.app, Match.new(game_id, seats, seed=2)))
    for _ in range(30):
        d.pump()
    return play


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_f1_and_the_question_mark_open_the_rules_at_the_current_phase(game_id):
    d = Driver()
    play = _play(d, game_id)
    wanted = play.screen.rules_section(play.view())
    d.key(pygame.K_F1)
    assert isinstance(d.top, GlanceScene) and d.top.section == wanted  # the card first
    d.key(pygame.K_F1)  # F1 again (or its "Full rules" button): the rules at the section
    assert isinstance(d.top, RulesScene) and d.top.game_id == game_id
    d.pump()
    titles = [title for title, _text in d.top.sections]
    assert wanted is not None and titles[d.top.section] == wanted
    d.key(pygame.K_ESCAPE)
    assert d.top is play
    d.press("?")
    assert isinstance(d.top, GlanceScene)
    d.press(d.labels()[0])
    assert isinstance(d.top, RulesScene)


def test_h_and_the_game_menu_open_history_in_the_viewers_own_view():
    d = Driver()
    play = _play(d, "odysseus")
    d.key(pygame.K_h)
    assert isinstance(d.top, HistoryScene) and d.top.viewer == play.viewer
    assert d.top.step == len(play.match.actions)
    d.key(pygame.K_h)
    assert d.top is play
    d.key(pygame.K_ESCAPE)
    d.press("History")
    assert isinstance(d.top, HistoryScene)
    d.press("Close history")
    assert d.top is play


def test_a_finished_game_offers_its_replay(tmp_path):
    m = Match.new("fantasy_racing", [{"name": "A", "kind": "human"},
                                     {"name": "B", "kind": "bot"}], seed=9)
    play_out(m)
    path = tmp_path / "done.yaml"
    m.save(path)
    d = Driver()
    from game.ui.scenes.menu import open_match
    open_match(d.app, path)
    d.pump(5)
    if not isinstance(d.top, PlayScene):
        d.key(pygame.K_ESCAPE)
    d.press("Replay (H)")
    assert isinstance(d.top, HistoryScene) and d.top.over
    assert d.top.seen_by == "everyone"
