"""Lessons never rot silently: every game's lesson.yaml is replayed against today's rules
(game/engine/lesson.py's checker), the guard refuses off-script actions with the lesson's
words through the match's own refusal path, and a lesson save resumes where it was."""

from __future__ import annotations

import copy

import pytest

from game.engine import IllegalAction, Match, game_ids
from game.engine.lesson import (REFUSAL, LessonGuard, check_lesson, lesson_games, load_lesson,
                                parse_lesson, played, read_data, lesson_path, rules_headings,
                                top_section)

LESSONS = lesson_games()


def test_racing_has_a_lesson():
    assert "fantasy_racing" in LESSONS


@pytest.mark.parametrize("game_id", LESSONS)
def test_lesson_replays_under_todays_rules(game_id):
    assert check_lesson(game_id) == []


@pytest.mark.parametrize("game_id", LESSONS)
def test_lesson_steps_and_sections(game_id):
    lesson = load_lesson(game_id)
    tops = [t for level, t in rules_headings(game_id) if level == 2]
    assert sorted(set(lesson.teaches) | set(lesson.skips)) == sorted(tops)
    for step in lesson.steps:
        assert top_section(game_id, step.section) in tops
    assert 15 <= lesson.learner_steps <= 60


def _doc(game_id="fantasy_racing"):
    return copy.deepcopy(read_data(lesson_path(game_id)))


def _problems(doc, monkeypatch, tmp_path):
    """check_lesson on a changed copy of the racing lesson."""
    import yaml
    from game.engine import lesson as module
    folder = tmp_path / "fantasy_racing"
    folder.mkdir(exist_ok=True)
    (folder / "lesson.yaml").write_text(yaml.safe_dump(doc))
    real = module.game_dir("fantasy_racing")
    (folder / "rules.md").write_text((real / "rules.md").read_text())
    monkeypatch.setattr(module, "_GAMES_DIR", tmp_path)
    return check_lesson("fantasy_racing")


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["steps"][3].update(do={"type": "step", "dx": 0}), "no longer legal"),
    (lambda d: d["steps"][1].update(seat=0), "seat 0 is not to act"),
    (lambda d: d["steps"][0].update(section="Flying carpets"), "not a heading"),
    (lambda d: d["teaches"].remove("Fights"), "neither taught nor skipped"),
    (lambda d: d["skips"].pop("Rulings"), "neither taught nor skipped"),
    (lambda d: d["steps"][0].update(say="One. Two. Three."), "one or two sentences"),
    (lambda d: d["steps"][0].update(say="x" * 300 + "."), "at most 260"),
    (lambda d: d["seats"][1].update(kind="human"), "must be kind bot"),
    (lambda d: d.update(minutes=40), "'minutes'"),
    (lambda d: d.update(steps=d["steps"][:10]), "learner steps"),
    (lambda d: d["steps"][0].update(point={"where": 1}), "'point'"),
    (lambda d: [s.update(section="Movement") for s in d["steps"] if s["section"] == "Fights"],
     "teaches 'Fights'"),
])
def test_checker_finds_rot(change, expected, monkeypatch, tmp_path):
    doc = _doc()
    change(doc)
    problems = _problems(doc, monkeypatch, tmp_path)
    assert any(expected in p for p in problems), problems


def test_checker_catches_a_secret_in_a_computer_step():
    from game.engine.lesson import _mentions, hidden_words
    match = Match.new("odysseus", [{"name": "You", "kind": "human"}] + [
        {"name": n, "kind": "bot", "level": "easy"} for n in ("Bo", "Cy")], seed=3)
    secret = hidden_words(match, [0])
    assert secret, "another seat's hand is hidden from the learner"
    word = sorted(secret)[0]
    assert _mentions(f"Bo holds {word}.", word)
    from game.engine.lesson import leaks
    rules = "each player plays help or hinder cards."
    assert leaks("Bo holds help-02.", "help-02", rules, ["bo", "cy"])
    assert leaks("Bo plays Hinder this time.", "hinder", rules, ["bo", "cy"])
    assert not leaks("Everyone plays Help or Hinder, face down.", "hinder", rules, ["bo", "cy"])


def test_guard_refuses_off_script_with_the_lessons_words():
    lesson = load_lesson("fantasy_racing")
    match = lesson.new_match()
    first = lesson.steps[0]
    wrong = {"type": "pick", "character": "goblin"}
    with pytest.raises(IllegalAction) as refused:
        match.act(0, wrong)
    assert refused.value.reason == REFUSAL + first.say
    assert match.why_not(0, wrong) == REFUSAL + first.say
    assert match.why_not(0, first.do) is None
    match.act(first.seat, first.do)
    assert played(match) == 1


def test_hints_and_undo_keep_the_step_count():
    lesson = load_lesson("fantasy_racing")
    match = lesson.new_match()
    guard = match.guard
    for step in lesson.steps[:3]:
        match.record_hint(step.seat) if lesson.is_learner(step) else None
        match.act(step.seat, step.do)
    assert guard.step_index(match) == 3
    assert guard.current(match) is lesson.steps[3]
    match.record_hint(0)
    assert guard.current(match) is lesson.steps[3]
    match.undo()  # the wand's use revealed nothing: it can be taken back
    assert guard.step_index(match) == 2
    assert guard.current(match) is lesson.steps[2]
    match.act(lesson.steps[2].seat, lesson.steps[2].do)
    assert guard.on_script(match)


def test_lesson_save_resumes_and_old_saves_still_load(tmp_path):
    lesson = load_lesson("fantasy_racing")
    match = lesson.new_match()
    for step in lesson.steps[:12]:
        match.act(step.seat, step.do)
    path = tmp_path / "lesson.yaml"
    match.save(path)
    loaded = Match.load(path)
    assert isinstance(loaded.guard, LessonGuard)
    assert loaded.guard.current(loaded) is lesson.steps[12]
    from game.engine.saves import read_document, save_info
    assert read_document(path)["lesson"]["done"] == 12
    assert save_info(path).lesson == (12, len(lesson.steps))
    # An ordinary save has no lesson and loads without a guard.
    plain = Match.new("fantasy_racing", [{"name": "A", "kind": "human"},
                                         {"name": "B", "kind": "bot"}], seed=1)
    plain.save(tmp_path / "plain.yaml")
    assert Match.load(tmp_path / "plain.yaml").guard is None
    assert "lesson" not in read_document(tmp_path / "plain.yaml")


def test_a_damaged_lesson_header_is_refused(tmp_path):
    import yaml
    from game.engine import SaveError
    lesson = load_lesson("fantasy_racing")
    match = lesson.new_match()
    match.act(0, lesson.steps[0].do)
    path = tmp_path / "lesson.yaml"
    match.save(path)
    doc = yaml.safe_load(path.read_text())
    doc["lesson"]["done"] = 7
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(SaveError, match="lesson"):
        Match.load(path)
    doc["lesson"] = "yes"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(SaveError, match="lesson"):
        Match.load(path)


def test_parse_reports_missing_fields():
    lesson, problems = parse_lesson({"version": 1}, "fantasy_racing")
    assert lesson is None and any("missing" in p for p in problems)


@pytest.mark.parametrize("game_id", LESSONS)
def test_play_on_after_the_lesson_is_an_ordinary_game(game_id, tmp_path):
    lesson = load_lesson(game_id)
    match = lesson.new_match()
    for step in lesson.steps:
        match.act(step.seat, step.do)
    assert match.guard.finished(match)
    from game.engine.lesson import play_on
    play_on(match)
    assert match.guard is None
    assert all(s.get("level") == "easy" for s in match.seats if s["kind"] == "bot")
    match.save(tmp_path / "on.yaml")
    again = Match.load(tmp_path / "on.yaml")
    assert again.guard is None and again.seats == match.seats


@pytest.mark.parametrize("game_id", game_ids())
def test_rules_at_a_glance_files(game_id):
    from game.engine.lesson import check_glance, load_glance, parse_glance
    assert check_glance(game_id) == []
    glance = load_glance(game_id)
    assert len(glance["forget"]) == 3 and 2 <= len(glance["turn"]) <= 7 and glance["win"]
    assert parse_glance({"turn": ["a"], "win": "", "forget": ["x"]})[1]  # bad ones refused
    assert "unknown field" in " ".join(parse_glance({"turn": ["a", "b"], "win": "w",
                                                     "forget": ["1", "2", "3"], "x": 1})[1])
