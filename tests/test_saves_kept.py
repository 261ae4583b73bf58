"""Which saves the start-up tidy may delete, and which game Continue resumes (issue 25,
item 2): only a finished game that loads cleanly is ever pruned, and Continue goes by the
time written inside each save, never preferring one dated in the future."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from game.engine import Match
from game.engine.saves import (KEEP_FINISHED, autosave_match, latest_unfinished, list_saves,
                               tidy_saves)
from game.ui import paths
from game.ui.scenes.play import PlayScene

from savedates import date
from uidriver import Driver

GAME = "fantasy_racing"
DAY = 86400


def racers() -> list[dict]:
    return [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "bot"}]


def played(seed: int, moves: int | None = None) -> Match:
    """A game played ``moves`` actions in (to the end when None)."""
    match = Match.new(GAME, racers(), seed=seed)
    while not match.is_over() and (moves is None or len(match.actions) < moves):
        seat = match.to_act()[0]
        match.act(seat, match.legal_actions(seat)[0])
    return match


def finished_file(folder: Path, seed: int) -> Path:
    match = played(seed)
    assert match.is_over()
    return autosave_match(match, folder)


def wrong_snapshot(path: Path) -> None:
    """Damage ``path`` so that its actions no longer give its snapshot (its header still
    says the game is over)."""
    text = path.read_text()
    changed = re.sub(r'"points":\[(\d+)', lambda m: f'"points":[{int(m[1]) + 7}', text, count=1)
    assert changed != text
    path.write_text(changed)


def cut_action(path: Path) -> None:
    """Damage ``path`` so that one of its actions no longer replays."""
    text = path.read_text()
    changed = re.sub(r"(actions: \|\n  \d+) \w+", r"\1 teleport", text, count=1)
    assert changed != text
    path.write_text(changed)


def test_the_tidy_keeps_a_damaged_finished_game_older_than_a_month(tmp_path: Path):
    folder = tmp_path / "saves"
    now = time.time()
    clean = finished_file(folder, 1)
    damaged = finished_file(folder, 2)
    broken = finished_file(folder, 3)
    wrong_snapshot(damaged)
    cut_action(broken)
    for path in (clean, damaged, broken):
        date(path, now - 31 * DAY)
    infos = {info.path: info for info in list_saves(folder)}
    assert infos[damaged].over and infos[damaged].error is None  # the header alone: "over"
    assert infos[broken].over and infos[broken].error is None
    tidy_saves(folder)
    assert not clean.exists(), "a clean finished game a month old is pruned"
    assert damaged.exists() and broken.exists(), "a damaged file is never deleted unasked"


def test_the_tidy_keeps_a_damaged_finished_game_beyond_the_newest_twenty(tmp_path: Path):
    folder = tmp_path / "saves"
    now = time.time()
    newer = []
    for number in range(KEEP_FINISHED):
        match = played(10)
        match.match_id = f"newer{number:05d}"
        newer.append(autosave_match(match, folder))
        date(newer[-1], now - 3600 * (number + 1))
    oldest = finished_file(folder, 4)
    wrong_snapshot(oldest)
    date(oldest, now - 2 * DAY)
    extra = finished_file(folder, 5)
    date(extra, now - 3 * DAY)
    tidy_saves(folder)
    assert oldest.exists()
    assert not extra.exists(), "a clean one past the newest twenty is pruned"
    assert all(path.exists() for path in newer)


def test_continue_goes_by_the_time_inside_the_save_not_a_future_date(tmp_path: Path):
    folder = Path(os.environ["TABLETOP_SAVES"])
    now = time.time()
    earlier = autosave_match(played(1, 4), folder)
    later = autosave_match(played(2, 4), folder)
    # A clock set back: the earlier game was played while the clock read a year ahead.
    date(earlier, now + 365 * DAY)
    date(later, now - 3600)
    assert latest_unfinished(folder).path == later
    assert [info.path for info in list_saves(folder)] == [later, earlier]
    # A copied folder: the files' own times are the copy's, in any order; the times
    # written inside the saves say which game was played last.
    date(earlier, now - 2 * DAY, file_seconds=now - 60)
    date(later, now - DAY, file_seconds=now - 120)
    assert latest_unfinished(folder).path == later
    # Every save dated in the future: the latest of them.
    date(earlier, now + 2 * DAY)
    date(later, now + 3 * DAY)
    assert latest_unfinished(folder).path == later
    # The main menu's Continue resumes it.
    date(earlier, now + 365 * DAY)
    date(later, now - 3600)
    d = Driver()
    d.press("Continue")
    play = d.app.stack.find(PlayScene)
    assert play is not None and play.match.match_id == Match.load(later).match_id
    assert paths.saves_dir() == folder
