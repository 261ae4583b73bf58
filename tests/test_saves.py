"""Saves: the YAML round trip, atomic writes, every kind of damage, the list."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.engine import Match, SaveError
from game.engine.saves import FORMAT, VERSION, list_saves

GAME = "fantasy_expedition"
PASS = {"type": "pass"}
Damage = Callable[[str], "str | bytes"]


# --------------------------------------------------------------------- helpers
def played_match(seed: int = 5) -> Match:
    """A match with an accepted trade, a trading round and some secret choices."""
    match = Match.new(GAME, [{"name": f"P{i}", "kind": "human"} for i in range(9)],
                      seed=seed)
    match.act(0, {"type": "propose", "to": 4})
    match.act(4, {"type": "accept"})
    for seat in range(1, 9):
        match.act(seat, PASS)
    for _ in range(9):
        match.act(match.to_act()[0], PASS)
    for seat in (0, 3, 6):
        match.act(seat, match.legal_actions(seat)[0])
    return match


@pytest.fixture
def match() -> Match:
    return played_match()


@pytest.fixture
def path(tmp_path: Path, match: Match) -> Path:
    target = tmp_path / "match.yaml"
    match.save(target)
    return target


def load_error(target: Path) -> SaveError:
    """Load ``target`` expecting a SaveError that names it; the file must not change."""
    before = target.read_bytes()
    with pytest.raises(SaveError) as caught:
        Match.load(target)
    error = caught.value
    assert str(error) == f"{target}: {error.problem}"
    assert error.path == str(target)
    assert target.read_bytes() == before
    return error


def write(target: Path, content: str | bytes) -> None:
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content, encoding="utf-8")


def edit(change: Callable[[dict[str, Any]], Any]) -> Damage:
    """A damage that edits the parsed document and writes it back as YAML."""
    def damage(text: str) -> str:
        doc = yaml.safe_load(text)
        change(doc)
        return yaml.safe_dump(doc, sort_keys=False)
    return damage


def drop(key: str) -> Damage:
    return edit(lambda doc: doc.pop(key))


def set_key(key: str, value: Any) -> Damage:
    return edit(lambda doc: doc.__setitem__(key, value))


def first_action(**changes: Any) -> Damage:
    return edit(lambda doc: doc["actions"][0]["action"].update(changes))


def snapshot_state(key: str, value: Any) -> Damage:
    return edit(lambda doc: doc["snapshot"]["state"].__setitem__(key, value))


# ------------------------------------------------------------------ round trip
def test_round_trip(match: Match, path: Path) -> None:
    loaded = Match.load(path)
    assert loaded.snapshot() == match.snapshot()
    assert loaded.actions == match.actions
    assert [ev["text"] for ev in loaded.log] == [ev["text"] for ev in match.log]
    assert (loaded.game_id, loaded.seats, loaded.options, loaded.seed) == \
           (match.game_id, match.seats, match.options, match.seed)
    assert loaded.status() == match.status()
    assert loaded.to_act() == match.to_act()
    for viewer in [None, *range(9)]:
        assert loaded.view(viewer) == match.view(viewer)


def test_save_document_holds_everything(match: Match, path: Path) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert list(doc) == ["format", "version", "game", "rules_version", "seats", "options",
                         "seed", "actions", "snapshot", "meta"]
    assert (doc["format"], doc["version"], doc["game"]) == (FORMAT, VERSION, GAME)
    assert doc["rules_version"] == match.cls.rules_version
    assert doc["seed"] == match.seed and doc["options"] == match.options
    assert doc["actions"] == match.actions and doc["snapshot"] == match.snapshot()
    meta = doc["meta"]
    assert {"title", "created", "updated", "status", "to_act", "actions", "over"} <= set(meta)
    assert meta["status"] == match.status()
    assert meta["to_act"] == [f"P{s}" for s in match.to_act()]
    assert meta["actions"] == len(match.actions) and meta["over"] is False


def test_created_survives_load_and_resave(path: Path, tmp_path: Path) -> None:
    created = yaml.safe_load(path.read_text(encoding="utf-8"))["meta"]["created"]
    loaded = Match.load(path)
    loaded.act(loaded.to_act()[0], loaded.legal_actions(loaded.to_act()[0])[0])
    again = tmp_path / "again.yaml"
    loaded.save(again)
    assert yaml.safe_load(again.read_text(encoding="utf-8"))["meta"]["created"] == created


def test_finished_match_round_trip(tmp_path: Path) -> None:
    match = played_match(seed=8)
    while not match.is_over():
        seat = match.to_act()[0]
        match.act(seat, match.legal_actions(seat)[-1])
    match.save(tmp_path / "done.yaml")
    loaded = Match.load(tmp_path / "done.yaml")
    assert loaded.is_over() and loaded.result() == match.result()


def test_save_creates_the_folder(match: Match, tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "match.yaml"
    match.save(target)
    assert Match.load(target).snapshot() == match.snapshot()


# ---------------------------------------------------------------- atomic write
def fail(*_args: Any, **_kwargs: Any) -> None:
    raise OSError(errno.EACCES, "Permission denied")


@pytest.mark.parametrize("step", ["replace", "fsync"])
def test_failed_write_leaves_the_old_file(monkeypatch: pytest.MonkeyPatch, path: Path,
                                          match: Match, step: str) -> None:
    before = path.read_bytes()
    match.act(match.to_act()[0], match.legal_actions(match.to_act()[0])[0])
    monkeypatch.setattr(os, step, fail)
    with pytest.raises(SaveError) as caught:
        match.save(path)
    monkeypatch.undo()
    assert str(caught.value) == f"{path}: could not be written (Permission denied)."
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["match.yaml"]


def test_write_into_a_file_instead_of_a_folder(match: Match, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    with pytest.raises(SaveError, match="could not be written"):
        match.save(blocker / "match.yaml")
    assert blocker.read_text() == "not a folder"


def test_overwrite_leaves_no_temporary_file(match: Match, path: Path) -> None:
    match.act(match.to_act()[0], match.legal_actions(match.to_act()[0])[0])
    match.save(path)
    assert sorted(p.name for p in path.parent.iterdir()) == ["match.yaml"]
    assert Match.load(path).snapshot() == match.snapshot()


# ---------------------------------------------------------------------- damage
DAMAGES: list[tuple[str, Damage, str]] = [
    ("not YAML", lambda text: text.replace("seats:", "seats: [", 1), "not valid YAML near line"),
    ("binary", lambda text: b"\x89PNG\r\n\x1a\n\x00\xff\xfe", "is not a text file"),
    ("empty", lambda text: "", "is empty or not a mapping"),
    ("blank", lambda text: "\n\n   \n", "is empty or not a mapping"),
    ("a list", lambda text: "- format\n- tabletop-match\n", "is empty or not a mapping"),
    ("a scalar", lambda text: "just some words\n", "is empty or not a mapping"),
    ("format name", set_key("format", "other-match"), "not a Tabletop save"),
    ("no format", drop("format"), "not a Tabletop save"),
    ("newer version", set_key("version", VERSION + 1), "written by a newer version"),
    ("unknown old version", set_key("version", 0), "uses save format 0"),
    ("version text", set_key("version", "1"), "'version' has the wrong kind of value"),
    ("unknown game", set_key("game", "chess"), "for a game this program does not have"),
    ("rules version", set_key("rules_version", 99), "rules version 99"),
    ("seed text", set_key("seed", "five"), "'seed' has the wrong kind of value"),
    ("seed yes", set_key("seed", True), "'seed' has the wrong kind of value"),
    ("seats text", set_key("seats", "nine"), "'seats' has the wrong kind of value"),
    ("options list", set_key("options", [3]), "'options' has the wrong kind of value"),
    ("actions map", set_key("actions", {"a": 1}), "'actions' has the wrong kind of value"),
    ("snapshot list", set_key("snapshot", []), "'snapshot' has the wrong kind of value"),
    ("eight seats", edit(lambda doc: doc["seats"].pop()), "needs exactly 9 seats"),
    ("bad option", edit(lambda doc: doc["options"].update(trade_rounds=99)),
     "Trading rounds must be at most 9"),
    ("action not a record", edit(lambda doc: doc["actions"].__setitem__(1, "pass")),
     "action 2 is not a seat and an action"),
    ("illegal action", first_action(to=0), "action 1 cannot be replayed (You cannot trade"),
    ("unknown action", first_action(type="fly"), "action 1 cannot be replayed ('fly'"),
    ("wrong seat", edit(lambda doc: doc["actions"][0].__setitem__("seat", 5)),
     "action 1 cannot be replayed (It is not P5's turn"),
    ("action removed", edit(lambda doc: doc["actions"].pop()), "does not give the saved"),
    ("snapshot start", snapshot_state("start", list(range(1, 10))), "does not give the saved"),
    ("snapshot phase", snapshot_state("phase", "over"), "does not give the saved"),
    ("snapshot rng", edit(lambda doc: doc["snapshot"].__setitem__("rng", 1)),
     "does not give the saved"),
    ("seed changed", edit(lambda doc: doc.__setitem__("seed", doc["seed"] + 1)),
     "damaged"),
] + [(f"missing {key}", drop(key), f"'{key}' is missing (was the file cut short?)")
     for key in ("version", "game", "rules_version", "seats", "options", "seed", "actions",
                 "snapshot")]


@pytest.mark.parametrize(("damage", "problem"), [(d, p) for _, d, p in DAMAGES],
                         ids=[name for name, _, _ in DAMAGES])
def test_damaged_save(path: Path, damage: Damage, problem: str) -> None:
    write(path, damage(path.read_text(encoding="utf-8")))
    assert problem in load_error(path).problem


def test_missing_file(tmp_path: Path) -> None:
    target = tmp_path / "gone.yaml"
    with pytest.raises(SaveError) as caught:
        Match.load(target)
    assert str(caught.value) == f"{target}: does not exist."
    assert not target.exists()


# A cut save may fail in many ways; each must be one of these clear problems.
CUT_PROBLEMS = ("is damaged", "is incomplete", "is not a Tabletop save",
                "for a game this program does not have")


@pytest.mark.parametrize("fraction", [0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7,
                                      0.8, 0.9, 0.99])
def test_truncated_save(path: Path, fraction: float) -> None:
    text = path.read_text(encoding="utf-8")
    body = text.index("\nmeta:")  # the cut points lie before the metadata
    write(path, text[:int(body * fraction)])
    problem = load_error(path).problem
    assert any(words in problem for words in CUT_PROBLEMS), problem


@pytest.mark.parametrize("where", [
    pytest.param(lambda text: text.index("\nmeta:") + 1, id="before-meta"),
    pytest.param(lambda text: text.index("\n  actions:", text.index("\nmeta:")) + 1,
                 id="in-meta"),
    pytest.param(lambda text: len(text) - 4, id="last-line"),
])
def test_truncated_in_the_metadata(path: Path, where: Callable[[str], int]) -> None:
    text = path.read_text(encoding="utf-8")
    write(path, text[:where(text)])
    problem = load_error(path).problem
    assert any(words in problem for words in CUT_PROBLEMS), problem


# ------------------------------------------------------------------ list_saves
def test_list_saves_newest_first_with_errors(match: Match, tmp_path: Path) -> None:
    folder = tmp_path / "shelf"
    files = {"a.yaml": 1000, "b.yaml": 3000, "c.yaml": 2000}
    for name in files:
        match.save(folder / name)
    write(folder / "broken.yaml", "format: [tabletop\n")
    write(folder / "other.yaml", "hello: world\n")
    write(folder / "binary.yaml", b"\xff\xfe\x00")
    write(folder / "notes.txt", "not a save")
    files.update({"broken.yaml": 2500, "other.yaml": 500, "binary.yaml": 100})
    for name, stamp in files.items():
        os.utime(folder / name, (stamp, stamp))
    contents = {p.name: p.read_bytes() for p in folder.iterdir()}

    infos = list_saves(folder)

    assert [info.path.name for info in infos] == [
        "b.yaml", "broken.yaml", "c.yaml", "a.yaml", "other.yaml", "binary.yaml"]
    by_name = {info.path.name: info for info in infos}
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        info = by_name[name]
        assert info.error is None and info.game == GAME
        assert info.title == "Fantasy Expedition"
        assert info.meta["status"] == match.status()
    assert "not valid YAML" in by_name["broken.yaml"].error
    assert by_name["other.yaml"].error == "is not a Tabletop save."
    assert by_name["binary.yaml"].error == "is not a text file."
    assert by_name["broken.yaml"].title == "broken"
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == contents


def test_list_saves_of_an_empty_or_missing_folder(tmp_path: Path) -> None:
    assert list_saves(tmp_path) == []
    assert list_saves(tmp_path / "nowhere") == []
