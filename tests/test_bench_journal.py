"""The computer levels' tournaments keep a journal of every game (``game/bench_bots.py``), so a
run of hours can be stopped and taken up again, or split between processes, and its figures
come out as if it had run whole."""

from __future__ import annotations

import json

import pytest

from game import bench_bots
from game.engine import tournament
from game.engine.tournament import duel

GAME = "odysseus"


def _without_times(row: dict) -> dict:
    return {k: v for k, v in row.items() if not k.endswith("_s")}


def _normal_vs_easy(journal, part=(0, 1), games=6):
    return bench_bots._figure(duel, GAME, "normal_vs_easy", journal, part, None, 41, None,
                              strong="normal", weak="easy", games=games)


def test_two_parts_and_the_journal_give_the_whole_run(tmp_path, monkeypatch):
    whole = duel(GAME, "normal", "easy", games=6, seed=41)
    path = tmp_path / "games.jsonl"
    first, reused = _normal_vs_easy(bench_bots.Journal(path), (0, 2))
    assert (first.games, reused) == (3, 0)
    second, _ = _normal_vs_easy(bench_bots.Journal(path), (1, 2))
    assert second.games == 3
    assert len(path.read_text().splitlines()) == 6

    def no_play(*args, **kwargs):
        raise AssertionError("a game in the journal was played again")

    monkeypatch.setattr(tournament, "play_record", no_play)
    again, reused = _normal_vs_easy(bench_bots.Journal(path))
    assert reused == 6
    assert _without_times(again.row()) == _without_times(whole.row())
    assert len(again.times) == len(whole.times)


def test_a_cut_line_is_played_again_and_other_code_reuses_nothing(tmp_path, monkeypatch):
    path = tmp_path / "games.jsonl"
    _normal_vs_easy(bench_bots.Journal(path), games=3)
    lines = path.read_text().splitlines()
    # A run stopped in the middle of writing its last line.
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    played = []
    real = tournament.play_record
    monkeypatch.setattr(tournament, "play_record",
                        lambda *a, **k: played.append(a[2]) or real(*a, **k))
    figures, reused = _normal_vs_easy(bench_bots.Journal(path), games=3)
    assert (reused, played, figures.games) == (2, [2], 3)

    played.clear()
    monkeypatch.setattr(bench_bots, "code_fingerprint", lambda game: "changed")
    _, reused = _normal_vs_easy(bench_bots.Journal(path), games=3)
    assert (reused, played) == (0, [0, 1, 2])
    journal = bench_bots.Journal(path)
    assert len(journal.lines) == 2 + 1 + 3  # kept, played again, other code
    assert len({json.dumps(line["figure"], sort_keys=True) for line in journal.lines}) == 2


def test_the_fingerprint_follows_the_game_code():
    assert bench_bots.code_fingerprint(GAME) == bench_bots.code_fingerprint(GAME)
    assert bench_bots.code_fingerprint(GAME) != bench_bots.code_fingerprint("fantasy_racing")


@pytest.mark.parametrize("part", ["0/2", "3/2", "x", "1/0"])
def test_a_bad_part_is_refused(part, capsys):
    with pytest.raises(SystemExit):
        bench_bots.main(["--part", part, "odysseus"])
    assert "--part" in capsys.readouterr().err


def test_a_figure_is_met_by_its_value_and_its_interval() -> None:
    """Issue 27's rule: Hard's ratio reaches 1.4 with the interval's lower end above 1.15."""
    verdict = bench_bots._verdict
    assert verdict(1.55, 1.37, bench_bots.HARD_RATIO, bench_bots.HARD_FLOOR) is True
    assert verdict(1.30, 1.11, bench_bots.HARD_RATIO, bench_bots.HARD_FLOOR) is False
    assert verdict(1.45, 1.10, bench_bots.HARD_RATIO, bench_bots.HARD_FLOOR) is None
    assert verdict(18.0, 6.0, bench_bots.CREW_POINTS, bench_bots.CREW_FLOOR) is True
    assert verdict(18.0, -1.0, bench_bots.CREW_POINTS, bench_bots.CREW_FLOOR) is None
    assert verdict(12.0, 3.0, bench_bots.CREW_POINTS, bench_bots.CREW_FLOOR) is False
