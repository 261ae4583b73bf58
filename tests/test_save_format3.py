"""Save format 3: actions written as compact text lines, read back exactly by our own checked
code; format 2 saves (a list of action records) still load."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from game.engine import Match, SaveError
from game.engine.bots import choose_action
from game.engine.saves import (VERSION, match_document, pack_actions, pack_document,
                               read_document, unpack_actions, unpack_document,
                               write_yaml_atomic)

SEATS = [{"name": f"P{i + 1}", "kind": "bot"} for i in range(3)]


@pytest.fixture(scope="module")
def played() -> Match:
    match = Match.new("monster_fandango", [dict(s) for s in SEATS], seed=4)
    while not match.is_over() and len(match.actions) < 150:
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    return match


def test_round_trip_writes_compact_lines(played: Match, tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    played.save(path)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert doc["version"] == VERSION >= 3
    lines = doc["actions"].splitlines()
    assert len(lines) == len(played.actions)
    assert lines[0].split(" ")[0] == str(played.actions[0]["seat"])
    loaded = Match.load(path)
    assert loaded.actions == played.actions
    assert loaded.snapshot() == played.snapshot()
    assert [ev["text"] for ev in loaded.log] == [ev["text"] for ev in played.log]


def test_format_2_save_still_loads(played: Match, tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    doc = match_document(played)
    doc["version"] = 2
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    assert isinstance(yaml.safe_load(path.read_text())["actions"], list)
    loaded = Match.load(path)
    assert loaded.actions == played.actions and loaded.snapshot() == played.snapshot()
    loaded.save(path)  # written again in the new format
    assert isinstance(yaml.safe_load(path.read_text())["actions"], str)
    assert Match.load(path).actions == played.actions


ODD = [{"seat": 0, "action": {"type": "say", "text": "two\nlines \u2028 and \"quotes\" {[",
                              "n": -3, "x": 0.25, "flag": True, "none": None,
                              "deep": {"a": [[1, 2], {"b": "c"}]}}},
       {"seat": 2, "action": {"type": "a type with spaces", "k": 1}},
       {"seat": 1, "action": {"type": "pass"}}]


def test_odd_values_round_trip_exactly(tmp_path: Path) -> None:
    doc = {"format": "tabletop-match", "version": VERSION, "actions": ODD}
    packed = pack_actions(doc)
    assert isinstance(packed["actions"], str) and packed["actions"].count("\n") == len(ODD)
    path = tmp_path / "odd.yaml"
    write_yaml_atomic(path, packed)
    assert read_document(path)["actions"] == ODD


def test_what_json_cannot_keep_stays_a_list() -> None:
    doc = {"actions": [{"seat": 0, "action": {"type": "t", "map": {1: "one"}}}]}
    assert pack_actions(doc)["actions"] == doc["actions"]
    doc = {"actions": [{"seat": 0, "action": {"type": "t", "x": float("nan")}}]}
    assert isinstance(pack_actions(doc)["actions"], list)


@pytest.mark.parametrize("text, problem", [
    ("0 pass\nnonsense\n", "action 2 is not a seat"),
    ("-1 pass\n", "action 1 is not a seat"),
    ("0 move {\"to\": NaN}\n", "action 1 cannot be read"),
    ("0 move {\"to\": [1, 2]\n", "action 1 is not a seat"),
    ("0 move {\"type\": \"fly\"}\n", "action 1 is not a seat"),
    ("0 {\"to\": 1} trailing\n", "action 1 is not a seat"),
    ("0 move [1]\n", "action 1 is not a seat"),
    ("0 pass\n" * 25_001, "far more than a game"),
])
def test_damaged_action_text_is_refused(text: str, problem: str) -> None:
    with pytest.raises(SaveError) as info:
        unpack_actions({"actions": text}, "x.yaml")
    assert problem in info.value.problem


def test_damaged_line_in_a_file_names_the_action(played: Match, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    played.save(path)
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    first = lines.index("actions: |") + 3
    lines[first] = "  9 fly"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(SaveError) as info:
        Match.load(path)
    assert "action 3" in info.value.problem


def test_snapshot_is_written_as_json_and_checked(played: Match, tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    played.save(path)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(doc["snapshot"], str) and doc["snapshot"].startswith("{")
    assert unpack_document(doc)["snapshot"]["rng"] == played.snapshot()["rng"]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"round":', '"round":1', 1) if '"round":1' not in text
                    else text.replace('"round":1', '"round":2', 1), encoding="utf-8")
    with pytest.raises(SaveError) as info:
        Match.load(path)
    assert "does not give the saved position" in info.value.problem


def test_a_snapshot_json_cannot_hold_stays_a_mapping() -> None:
    doc = {"actions": [], "snapshot": {"state": {(1, 2): "tuple key"}, "rng": 1}}
    assert pack_document(doc)["snapshot"] == doc["snapshot"]
    doc = {"actions": [], "snapshot": {"state": {1: "one"}, "rng": 1}}
    assert pack_document(doc)["snapshot"] == '{"state":{"1":"one"},"rng":1}\n'
