"""The Learn-to-play lessons of TRAP: Mothership Fantasia and Odysseus: Winds of Fate.

Checks the lesson files against the fixed lesson format directly with ``Match`` (a safety net
beside the lesson engine's own checker): every step replays, the seats are right, the sections
are headings of the game's rules, the texts are short, a computer step's text names nothing the
learner cannot see, and each lesson makes the learner do what it promises to teach.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from game.engine.match import Match

ROOT = Path(__file__).resolve().parents[1] / "game"
GAMES = ("mothership", "odysseus")


def load(game: str, name: str = "lesson.yaml") -> dict:
    return yaml.safe_load((ROOT / game / name).read_text(encoding="utf-8"))


def headings(game: str) -> dict[str, str]:
    """Every ## and ### heading of the game's rules -> its ## heading."""
    out, top = {}, None
    for line in (ROOT / game / "rules.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"(#{2,3}) (.+?)\s*$", line)
        if m:
            if m.group(1) == "##":
                top = m.group(2)
            out[m.group(2)] = top
    return out


def sentences(text: str) -> int:
    return max(1, len(re.findall(r"[.!?]+[\"')]*(?=\s|$)", text)))


def replay(lesson: dict, game: str):
    """Yield (index, step, match after the step, events) for every step."""
    match = Match.new(game, lesson["seats"], lesson["seed"], lesson["options"])
    for i, step in enumerate(lesson["steps"]):
        assert step["seat"] in match.to_act(), f"step {i}: seat {step['seat']} is not to act"
        events = match.act(step["seat"], step["do"])
        yield i, step, match, events


# ------------------------------------------------------------------ what the learner may see
def mothership_terms() -> dict[str, str]:
    from game.mothership.data import TILES
    return {TILES[k]["name"]: k for k in TILES if k not in ("safe", "objective")}


def mothership_seen(match: Match, seat: int) -> str:
    view = match.view(seat)
    kinds = [s["kind"] for s in view["spaces"] if s["state"] in ("up", "lifted")]
    return " ".join(kinds + [e["text"] for e in match.log_for(seat)]).lower()


def odysseus_terms() -> dict[str, str]:
    from game.odysseus.data import CARDS, DESTINIES, ENCOUNTERS
    from game.odysseus.rules import card_text, short_place
    terms = {card_text(c).split(" (")[0]: c for c in CARDS}
    terms.update({name: key for key, name in DESTINIES.items()})
    terms.update({short_place(key): key for key in ENCOUNTERS if key not in ("troy", "ithaca")})
    return terms


def odysseus_seen(match: Match, seat: int) -> str:
    from game.odysseus.rules import card_text, place
    # Not the learner's hand: a card value in a computer step's text must have been played
    # face up or revealed (a Help 2 in your hand says nothing about the one Cy just played).
    view = match.view(seat)
    adventure = view["adventure"] or {}
    seen = [card_text(f["card"]) for f in adventure.get("face_up", [])]
    seen += [place(s["tile"]) for s in view["spaces"].values() if s["tile"]]
    seen += [e["text"] for e in match.log_for(seat)]
    return json.dumps(seen).lower()


def leaks(game: str, say: str, match: Match, seat: int) -> list[str]:
    """Names of hidden things in ``say`` that the learner's view and log do not show."""
    terms, seen = ((mothership_terms(), mothership_seen(match, seat)) if game == "mothership"
                   else (odysseus_terms(), odysseus_seen(match, seat)))
    found = [t for t in terms if re.search(rf"(?<![\w+]){re.escape(t)}(?!\w)", say)]
    out = [t for t in found if t.lower() not in seen]
    if game == "odysseus" and not match.is_over():
        # Another seat's Destiny cards stay secret until the end.
        from game.odysseus.data import DESTINIES
        for sentence in re.split(r"(?<=[.!?])\s+", say):
            for other in match.seats:
                if other["name"] != match.seats[seat]["name"] and other["name"] in sentence:
                    out += [d for d in DESTINIES.values() if d in sentence]
    return out


# ------------------------------------------------------------------------------ the checks
@pytest.mark.parametrize("game", GAMES)
def test_lesson_follows_the_format(game):
    lesson = load(game)
    assert lesson["version"] == 1
    assert lesson["title"] and 5 <= lesson["minutes"] <= 15
    assert isinstance(lesson["seed"], int) and not isinstance(lesson["seed"], bool)
    learner = lesson["learner"]
    for s, seat in enumerate(lesson["seats"]):
        assert seat["kind"] == ("human" if s in learner else "bot"), seat
    assert 1 <= sentences(lesson["intro"]) <= 2
    heads = headings(game)
    tops = {h for h, top in heads.items() if h == top}
    assert set(lesson["teaches"]) <= tops
    assert set(lesson["skips"]) <= tops and not set(lesson["skips"]) & set(lesson["teaches"])
    assert set(lesson["teaches"]) | set(lesson["skips"]) == tops
    assert all(reason.strip() for reason in lesson["skips"].values())
    taught = set()
    for i, step in enumerate(lesson["steps"]):
        assert step["section"] in heads, f"step {i}: no heading {step['section']!r}"
        say = step["say"]
        assert len(say) <= 260 and 1 <= sentences(say) <= 2, f"step {i}: {say!r}"
        assert all(len(c) <= 160 for c in step.get("captions", []))
        assert "captions" not in step or step.get("follow")
        if step["seat"] in learner or step.get("follow"):
            taught.add(heads[step["section"]])
    assert set(lesson["teaches"]) <= taught
    learner_steps = sum(1 for s in lesson["steps"] if s["seat"] in learner)
    assert 15 <= learner_steps <= 60
    assert 3 <= len(lesson["outro"]["learned"]) <= 8


@pytest.mark.parametrize("game", GAMES)
def test_lesson_replays_and_hides_what_the_learner_cannot_see(game):
    lesson = load(game)
    learner = lesson["learner"][0]
    steps = 0
    for i, step, match, _ in replay(lesson, game):
        steps += 1
        if step["seat"] != learner:
            assert not leaks(game, step["say"], match, learner), f"step {i}: {step['say']!r}"
    assert steps == len(lesson["steps"])


def test_the_leak_check_can_fail():
    lesson = load("mothership")
    first = next(m for i, _, m, _ in replay(lesson, "mothership") if i == 2)
    hidden = [k for k, t in first.controller.tiles.items() if not t["up"]]
    kinds = {first.controller.tiles[c]["kind"] for c in hidden} - {"safe", "objective"}
    name = next(n for n, kind in mothership_terms().items() if kind == sorted(kinds)[0])
    assert leaks("mothership", f"Bo walks past the {name} trap.", first, 0) == [name]

    from game.odysseus.rules import card_text
    lesson = load("odysseus")
    match = next(m for i, _, m, _ in replay(lesson, "odysseus") if i == 6)
    played = card_text(match.controller.adv["sequence"][-1]["card"])  # Cy's face-down card
    assert leaks("odysseus", f"Cy plays {played} face down.", match, 0) == [played]
    assert leaks("odysseus", "Bo backs Safe Return.", match, 0) == ["Safe Return"]
    leftover = match.controller.leftover.capitalize()
    assert leaks("odysseus", f"The tile set aside is {leftover}.", match, 0) == [leftover]


def test_mothership_lesson_teaches_by_doing():
    lesson = load("mothership")
    done, traps = set(), set()
    match = None
    for _, step, match, events in replay(lesson, "mothership"):
        if step["seat"] == 0:
            done.add(step["do"]["type"])
        traps |= {e["trap"] for e in events if e["type"] == "trap"}
    assert {"choose", "move", "peek", "assist", "deactivate", "skip", "defer", "end"} <= done
    assert len(traps) >= 3, traps
    assert match.is_over() and match.result()["won"]


def test_odysseus_lesson_teaches_by_doing():
    lesson = load("odysseus")
    done, kinds, texts = set(), set(), []
    match = None
    for _, step, match, events in replay(lesson, "odysseus"):
        if step["seat"] == 0:
            done.add(step["do"]["type"])
        kinds |= {e["type"] for e in events}
        texts += [e["text"] for e in events]
    assert {"destiny", "bet", "play", "pass", "claim", "draw", "skip", "take_chip"} <= done
    assert {"rewards", "resolve", "olympus", "totals", "wander", "payout", "destiny_reveal"} <= kinds
    assert any(t.startswith("Odysseus sails by the calm path") for t in texts)
    assert any(t.startswith("Odysseus sails by the stormy path") for t in texts)
    assert match.is_over() and lesson["steps"][-1]["seat"] == 0
    assert any(p["paid"] for p in match.result()["bet_payouts"] if p["seat"] == 0)


@pytest.mark.parametrize("game", GAMES)
def test_glance_card(game):
    glance = load(game, "glance.yaml")
    assert 3 <= len(glance["turn"]) <= 6
    assert all(isinstance(line, str) and 0 < len(line) <= 120 for line in glance["turn"])
    assert 1 <= sentences(glance["win"]) <= 2
    assert len(glance["forget"]) == 3
