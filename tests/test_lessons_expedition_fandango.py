"""The Learn to play lessons of Fantasy Expedition and Monster Fandango, checked against the
lesson format's rules (game/engine/lesson.py) directly with the real match: every step
replays, the sections are headings of the game's rules.md, the texts are short, and a
computer step's text names no team the learner's seats cannot see."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from game.engine.match import Match

GAMES = Path(__file__).resolve().parents[1] / "game"
LESSONS = ["fantasy_expedition", "monster_fandango"]
TEAM_WORDS = ("dwarf", "dwarves", "magician", "werewol")


def load(game_id: str, name: str = "lesson.yaml") -> dict:
    return yaml.safe_load((GAMES / game_id / name).read_text(encoding="utf-8"))


def headings(game_id: str) -> list[tuple[int, str]]:
    out, fenced = [], False
    for line in (GAMES / game_id / "rules.md").read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        found = re.match(r"^(##|###)\s+(.+?)\s*$", line)
        if found and not fenced:
            out.append((len(found.group(1)), found.group(2)))
    return out


def parent(game_id: str, heading: str) -> str | None:
    top = None
    for level, text in headings(game_id):
        top = text if level == 2 else top
        if text == heading:
            return top
    return None


def sentences(text: str) -> int:
    return len(re.findall(r"[.!?]+[\"')\]]*(?=\s|$)", text.strip()))


@pytest.mark.parametrize("game_id", LESSONS)
def test_the_lesson_follows_the_format(game_id):
    lesson = load(game_id)
    assert lesson["version"] == 1 and 5 <= lesson["minutes"] <= 15
    learner, seats = lesson["learner"], lesson["seats"]
    for number, seat in enumerate(seats):
        assert seat["kind"] == ("human" if number in learner else "bot"), number
        assert seat["kind"] == "human" or seat["level"] == "easy"
    tops = [text for level, text in headings(game_id) if level == 2]
    every = {text for _level, text in headings(game_id)}
    assert sorted(lesson["teaches"] + list(lesson["skips"])) == sorted(tops)
    taught = set()
    for step in lesson["steps"]:
        assert step["section"] in every, step["section"]
        assert 1 <= sentences(step["say"]) <= 2 and len(step["say"]) <= 260, step["say"]
        for caption in step.get("captions", []):
            assert step.get("follow") and len(caption) <= 160, caption
        if step["seat"] in learner or step.get("follow"):
            taught.add(parent(game_id, step["section"]))
    assert set(lesson["teaches"]) <= taught
    assert 15 <= sum(step["seat"] in learner for step in lesson["steps"]) <= 60
    assert 3 <= len(lesson["outro"]["learned"]) <= 8


def replay(game_id: str) -> Match:
    """The lesson's match after its last step, checking each step on the way."""
    lesson = load(game_id)
    match = Match.new(game_id, lesson["seats"], lesson["seed"], lesson["options"])
    learner = lesson["learner"]
    for number, step in enumerate(lesson["steps"]):
        assert step["seat"] in match.to_act(), (number, match.to_act())
        match.act(step["seat"], step["do"])
        if game_id == "fantasy_expedition" and step["seat"] not in learner:
            # A computer step names a team only once the learner's seats can see it.
            views = [match.view(seat) for seat in learner]
            if any(s["team"] is None for s in views[0]["seats"]):
                text = " ".join([step["say"], *step.get("captions", [])]).lower()
                assert not any(word in text for word in TEAM_WORDS), (number, text)
    return match


@pytest.mark.parametrize("game_id", LESSONS)
def test_every_step_replays_in_a_real_match(game_id):
    replay(game_id)


def test_the_expedition_lesson_reaches_the_elimination_candidate():
    match = replay("fantasy_expedition")
    result = match.result()
    assert match.is_over() and result["votes"] and 0 in result["winners"]
    lesson = load("fantasy_expedition")
    climbed = {ev["row"] for ev in match.log if ev["type"] == "move"}
    assert climbed == {"mine", "portal", "fear"}
    captions = next(s["captions"] for s in lesson["steps"] if s.get("captions"))
    resolve = len(lesson["steps"]) - 4  # the last secret choice: reveal, place, climb, score
    match = Match.new("fantasy_expedition", lesson["seats"], lesson["seed"], lesson["options"])
    for step in lesson["steps"][:resolve]:
        match.act(step["seat"], step["do"])
    last = lesson["steps"][resolve]
    events = match.act(last["seat"], last["do"])
    assert len(captions) == sum(ev["type"] in ("place", "climb", "move") for ev in events)


def test_the_fandango_lesson_plays_every_kind_of_turn_to_the_round_limit():
    lesson = load("monster_fandango")
    done = {step["do"]["type"] for step in lesson["steps"] if step["seat"] == 0}
    assert {"select", "move", "rally", "attack", "shoot", "lucky", "search", "open",
            "pass"} <= done
    assert any("ride" in step["do"] for step in lesson["steps"] if step["seat"] == 0)
    match = replay("monster_fandango")
    assert match.is_over()
    assert match.result()["reason"] == "round limit" and match.result()["winners"] == [0]
    assert any(ev["type"] == "slain" for ev in match.log)


@pytest.mark.parametrize("game_id", LESSONS)
def test_the_rules_at_a_glance(game_id):
    glance = load(game_id, "glance.yaml")
    assert set(glance) == {"turn", "win", "forget"}
    assert 3 <= len(glance["turn"]) <= 6 and len(glance["forget"]) == 3
    assert 1 <= sentences(glance["win"]) <= 2
    assert all(isinstance(line, str) and line.strip() for line in glance["turn"] + glance["forget"])
