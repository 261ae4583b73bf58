"""Saves: the YAML round trip, atomic writes, every kind of damage, the list."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.engine import Match, SaveError
from game.engine.saves import FORMAT, VERSION, list_saves, unpack_document

from savedates import date

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


def load_doc(text: str) -> Any:
    """A save file's document, its actions as the list of records (format 2's way)."""
    return unpack_document(yaml.safe_load(text))


def write(target: Path, content: str | bytes) -> None:
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content, encoding="utf-8")


def edit(change: Callable[[dict[str, Any]], Any]) -> Damage:
    """A damage that edits the parsed document and writes it back as YAML."""
    def damage(text: str) -> str:
        doc = load_doc(text)
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
    doc = load_doc(path.read_text(encoding="utf-8"))
    assert list(doc) == ["format", "version", "game", "rules_version", "seats", "options",
                         "seed", "actions", "snapshot", "meta"]
    assert (doc["format"], doc["version"], doc["game"]) == (FORMAT, VERSION, GAME)
    assert doc["rules_version"] == match.cls.rules_version
    assert doc["seed"] == match.seed and doc["options"] == match.options
    assert doc["actions"] == match.actions  # the snapshot is written as JSON (keys as text):
    assert doc["snapshot"] == json.loads(json.dumps(match.snapshot()))
    meta = doc["meta"]
    assert {"title", "created", "updated", "status", "to_act", "actions", "over"} <= set(meta)
    assert meta["status"] == match.status()
    assert meta["to_act"] == [f"P{s}" for s in match.to_act()]
    assert meta["actions"] == len(match.actions) and meta["over"] is False


def test_created_survives_load_and_resave(path: Path, tmp_path: Path) -> None:
    created = load_doc(path.read_text(encoding="utf-8"))["meta"]["created"]
    loaded = Match.load(path)
    loaded.act(loaded.to_act()[0], loaded.legal_actions(loaded.to_act()[0])[0])
    again = tmp_path / "again.yaml"
    loaded.save(again)
    assert load_doc(again.read_text(encoding="utf-8"))["meta"]["created"] == created


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
    with monkeypatch.context() as patch, pytest.raises(SaveError) as caught:
        patch.setattr(os, step, fail)  # (undo() would also undo the fixture's saves folder)
        match.save(path)
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
        date(folder / name, stamp)
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
    assert by_name["other.yaml"].error == "is not a Tabletop save (its format is unknown)."
    assert by_name["binary.yaml"].error == "is not a text file."
    assert by_name["broken.yaml"].title == "broken"
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == contents


def test_list_saves_of_an_empty_or_missing_folder(tmp_path: Path) -> None:
    assert list_saves(tmp_path) == []
    assert list_saves(tmp_path / "nowhere") == []


# --------------------------------------------------------- hostile and special files
def refused(target: Path) -> str:
    """Match.load and the listing both refuse ``target`` with a message naming it."""
    with pytest.raises(SaveError) as caught:
        Match.load(target)
    assert str(caught.value).startswith(f"{target}: ")
    infos = [info for info in list_saves(target.parent) if info.path == target]
    assert len(infos) <= 1 and all(info.error for info in infos)
    return caught.value.problem


HOSTILE: list[tuple[str, str, str]] = [
    ("flow nesting", "[" * 25_000 + "]" * 25_000, "nested more than"),
    ("mapping nesting", "{a: " * 25_000 + "1" + "}" * 25_000, "nested more than"),
    ("block nesting", "- " * 25_000 + "x\n", "nested more than"),
    ("nesting in the metadata", "format: tabletop-match\nversion: 2\nmeta:\n  title: "
     + "[" * 5_000 + "]" * 5_000 + "\n", "nested more than"),
    ("alias bomb", "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n"
        for i in range(9)), "anchors or aliases"),
    ("one anchor", "format: &f tabletop-match\nversion: 2\n", "anchors or aliases"),
    ("many values", "- 0\n" * 400_000, "far more values"),
    ("huge number", "format: tabletop-match\nversion: " + "9" * 5_000 + "\n",
     "a value cannot be read"),
    ("python tag", "format: !!python/object/apply:os.system ['true']\n", "not valid YAML"),
    ("two documents", "format: tabletop-match\n---\nformat: tabletop-match\n", "not valid YAML"),
    ("NUL", "format: tabletop-match\x00\n", "not valid YAML"),
]


@pytest.mark.parametrize(("text", "problem"), [(t, p) for _, t, p in HOSTILE],
                         ids=[name for name, _, _ in HOSTILE])
def test_hostile_yaml_is_refused_before_parsing(tmp_path: Path, text: str, problem: str) -> None:
    target = tmp_path / "hostile.yaml"
    target.write_text(text, encoding="utf-8")
    assert problem in refused(target)


def test_too_large_file(tmp_path: Path) -> None:
    target = tmp_path / "big.yaml"
    with target.open("w") as handle:
        handle.write("- 0\n" * (4 * 1024 * 1024 + 1))  # a 16 MB list
    assert "too large" in refused(target)


@pytest.mark.parametrize("kind", ["folder", "fifo", "device", "link to a device", "loop"])
def test_special_files_are_never_opened(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "special.yaml"
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)  # opening it for reading would block forever
    elif kind == "device":
        target = Path("/dev/zero")
    elif kind == "link to a device":
        target.symlink_to("/dev/zero")
    else:
        target.symlink_to(target)
    with pytest.raises(SaveError) as caught:
        Match.load(target)
    expected = {"folder": "it is a folder", "fifo": "it is a pipe", "device": "it is a device",
                "link to a device": "it is a device", "loop": "could not be read"}[kind]
    assert expected in caught.value.problem
    if kind != "device":
        assert [info.error for info in list_saves(tmp_path)] in ([], [caught.value.problem])


def test_settings_file_that_is_hostile_gives_defaults(tmp_path: Path) -> None:
    from game.ui.settings import Settings
    target = tmp_path / "settings.yaml"
    for text in ("[" * 25_000 + "]" * 25_000, "a: &a [1]\nb: *a\n", "- 0\n" * 100_000):
        target.write_text(text)
        assert Settings.load(target) == Settings()
    target.unlink()
    os.mkfifo(target)
    assert Settings.load(target) == Settings()
    target.unlink()
    target.symlink_to("/dev/zero")
    assert Settings.load(target) == Settings()


def test_metadata_of_the_wrong_kind_is_never_shown(match: Match, tmp_path: Path) -> None:
    target = tmp_path / "odd.yaml"
    match.save(target)
    doc = load_doc(target.read_text())
    doc["meta"].update(title=["a", "list"], status={"x": 1}, actions="many", over="yes",
                       to_act="P0", updated=12)
    doc["seats"][0]["name"] = "Mi\x00ra\u202e"
    target.write_text(yaml.safe_dump(doc))
    (info,) = list_saves(tmp_path)
    assert info.error is None
    assert info.meta == {"created": doc["meta"]["created"], "match_id": doc["meta"]["match_id"]}
    assert info.seats[0] == ("Mira", "human")
    assert info.title == GAME  # no title: the game id
    assert "is damaged" in load_error(target).problem


# ------------------------------------------------------------------- leftovers
def test_save_keeps_the_permissions_of_the_file_it_replaces(match: Match, path: Path) -> None:
    os.chmod(path, 0o640)
    match.save(path)
    assert path.stat().st_mode & 0o777 == 0o640


def test_new_save_gets_the_usual_permissions(match: Match, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        match.save(tmp_path / "new.yaml")
    finally:
        os.umask(old)
    assert (tmp_path / "new.yaml").stat().st_mode & 0o777 == 0o644


def test_stale_temporary_files_are_removed(match: Match, tmp_path: Path) -> None:
    from game.engine.saves import tidy_saves
    folder = tmp_path / "saves"
    match.save(folder / "a.yaml")
    stale = [folder / ".a.yaml.k3j_x9q2.tmp", folder / ".b.yaml.abcdef12.tmp"]
    fresh = folder / ".a.yaml.zzzzzzzz.tmp"
    keep = [folder / "notes.tmp", folder / ".a.yaml.tmp", fresh]
    for file in stale + keep:
        file.write_text("x" * 1000)
    for file in stale:
        os.utime(file, (1_000_000, 1_000_000))
    match.save(folder / "a.yaml")  # a save removes its own stale leftovers
    assert not stale[0].exists() and stale[1].exists()
    tidy_saves(folder)  # the start removes all of them
    assert not stale[1].exists()
    assert all(file.exists() for file in keep)


def test_killed_write_leaves_the_old_file_and_a_temporary_that_goes(
        monkeypatch: pytest.MonkeyPatch, match: Match, path: Path) -> None:
    before = path.read_bytes()
    with monkeypatch.context() as patch, pytest.raises(SaveError):
        patch.setattr(os, "replace", fail)
        patch.setattr(Path, "unlink", lambda *_a, **_k: None)  # as if killed mid-write
        match.save(path)
    leftovers = [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) == 1 and path.read_bytes() == before
    os.utime(leftovers[0], (1_000_000, 1_000_000))
    match.save(path)
    assert sorted(p.name for p in path.parent.iterdir()) == ["match.yaml"]


def test_saves_folder_that_is_a_file(match: Match, tmp_path: Path) -> None:
    blocker = tmp_path / "saves"
    blocker.write_text("in the way")
    with pytest.raises(SaveError) as caught:
        match.save(blocker / "a.yaml")
    assert "is not a folder" in caught.value.problem


# ---------------------------------------------------------------- partial load
def test_replay_error_offers_the_good_actions(match: Match, path: Path) -> None:
    from game.engine.saves import ReplayError
    doc = load_doc(path.read_text())
    doc["actions"][15]["action"] = {"type": "fly"}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    before = path.read_bytes()
    with pytest.raises(ReplayError) as caught:
        Match.load(path)
    assert (caught.value.good, caught.value.total) == (15, len(match.actions))
    assert "action 16 cannot be replayed" in caught.value.problem
    partly = Match.load(path, partial=True)
    assert partly.actions == match.actions[:15]
    again = Match.new(GAME, match.seats, seed=match.seed)
    for record in match.actions[:15]:
        again.act(record["seat"], record["action"])
    assert partly.snapshot() == again.snapshot()
    assert path.read_bytes() == before


# ------------------------------------------------------------ versions and ids
def test_format_1_save_is_upgraded_with_a_stable_id(match: Match, path: Path,
                                                     tmp_path: Path) -> None:
    doc = load_doc(path.read_text())
    doc["version"] = 1
    del doc["meta"]["match_id"]
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    first, second = Match.load(path), Match.load(path)
    assert first.match_id == second.match_id and len(first.match_id) == 10
    assert first.snapshot() == match.snapshot()


def test_every_match_has_its_own_autosave(tmp_path: Path) -> None:
    from game.engine.saves import LOCK_NAME, autosave_match, latest_unfinished
    folder = tmp_path / "saves"
    one, two = played_match(5), played_match(6)
    first = autosave_match(one, folder)
    second = autosave_match(two, folder)
    assert first != second
    assert first.name == f"autosave-{GAME}-{one.match_id}.yaml"
    assert {p.name for p in folder.iterdir()} == {first.name, second.name, LOCK_NAME}
    assert latest_unfinished(folder).path == second  # written last
    date(second, 1_000_000)
    assert latest_unfinished(folder).path == first
    # undo and save again: the match's own file, overwritten
    one.undo()
    assert autosave_match(one, folder) == first
    assert Match.load(first).actions == one.actions


def test_an_earlier_save_continued_does_not_overwrite_the_later_game(tmp_path: Path) -> None:
    from game.engine.saves import autosave_match
    folder = tmp_path / "saves"
    match = played_match()
    match.save(tmp_path / "early.yaml")
    seat = match.to_act()[0]
    match.act(seat, match.legal_actions(seat)[0])
    later = autosave_match(match, folder)
    later_bytes = later.read_bytes()
    early = Match.load(tmp_path / "early.yaml")
    assert early.match_id == match.match_id
    seat = early.to_act()[0]
    early.act(seat, early.legal_actions(seat)[-1])
    forked = autosave_match(early, folder)
    assert forked != later and early.match_id != match.match_id
    assert later.read_bytes() == later_bytes
    # the same save loaded and continued identically writes over nothing new
    same = Match.load(later)
    assert autosave_match(same, folder) == later


def test_two_windows_of_one_game_keep_both_games(tmp_path: Path) -> None:
    from game.engine.saves import autosave_match
    folder = tmp_path / "saves"
    match = played_match()
    path = autosave_match(match, folder)
    left, right = Match.load(path), Match.load(path)
    seat = left.to_act()[0]
    left.act(seat, left.legal_actions(seat)[0])
    right.act(seat, right.legal_actions(seat)[-1])
    assert left.actions != right.actions
    assert autosave_match(left, folder) == path
    other = autosave_match(right, folder)
    assert other != path
    assert Match.load(path).actions == left.actions
    assert Match.load(other).actions == right.actions


def test_old_one_per_game_autosave_is_renamed_on_start(match: Match, tmp_path: Path) -> None:
    from game.engine.saves import tidy_saves
    folder = tmp_path / "saves"
    old = folder / f"autosave-{GAME}.yaml"
    match.save(old)
    doc = load_doc(old.read_text())
    doc["version"] = 1
    del doc["meta"]["match_id"]
    old.write_text(yaml.safe_dump(doc, sort_keys=False))
    ident = Match.load(old).match_id
    tidy_saves(folder)
    assert [p.name for p in folder.iterdir()] == [f"autosave-{GAME}-{ident}.yaml"]


def test_bad_match_id_is_refused(path: Path) -> None:
    doc = load_doc(path.read_text())
    doc["meta"]["match_id"] = "../../etc/passwd"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    assert "match id" in load_error(path).problem


# --------------------------------------------------------------------- pruning
def test_finished_autosaves_are_pruned_unfinished_never(tmp_path: Path) -> None:
    from game.engine.saves import KEEP_FINISHED, autosave_match, prune_finished
    folder = tmp_path / "saves"
    done = played_match(8)
    while not done.is_over():
        seat = done.to_act()[0]
        done.act(seat, done.legal_actions(seat)[-1])
    now = 2_000_000_000
    finished = []
    for number in range(KEEP_FINISHED + 3):
        done.match_id = f"done{number:06d}"
        finished.append(autosave_match(done, folder))
        os.utime(finished[-1], (now - number * 3600,) * 2)
    old = finished[0].with_name(f"autosave-{GAME}-old0000001.yaml")
    done.match_id = "old0000001"
    autosave_match(done, folder)
    os.utime(old, (now - 31 * 86400,) * 2)
    playing = autosave_match(played_match(), folder)
    os.utime(playing, (now - 400 * 86400,) * 2)
    damaged = folder / f"autosave-{GAME}-broken0001.yaml"
    damaged.write_text("format: [")
    os.utime(damaged, (now - 400 * 86400,) * 2)
    named = folder / "kept.yaml"
    done.save(named)
    os.utime(named, (now - 400 * 86400,) * 2)

    removed = prune_finished(folder, now_time=now)

    assert set(removed) == {*finished[KEEP_FINISHED:], old}
    assert all(p.exists() for p in finished[:KEEP_FINISHED])
    assert playing.exists() and damaged.exists() and named.exists()


def test_doctests() -> None:
    import doctest

    from game.engine import saves
    from game.ui.scenes import load, pause
    for module in (saves, load, pause):
        assert doctest.testmod(module).failed == 0


def test_a_game_from_older_rules_replays_under_the_new_rules_as_far_as_they_allow(
        tmp_path, monkeypatch):
    """A rules change must not lose a game: a save from an older rules version is replayed
    under today's rules; where they refuse an action, the player is offered the game up to
    that point (a newer version than the program's is refused)."""
    from game.engine.saves import ReplayError
    from game.fantasy_racing.rules import RacingController
    m = Match.new("fantasy_racing", [{"name": "A", "kind": "human"},
                                     {"name": "B", "kind": "bot"}], seed=5)
    for _ in range(12):
        seat = m.to_act()[0]
        m.act(seat, m.legal_actions(seat)[0])
    path = tmp_path / "old.yaml"
    m.save(path)
    monkeypatch.setattr(RacingController, "rules_version", RacingController.rules_version + 1)
    loaded = Match.load(path)
    assert loaded.actions == m.actions and loaded.snapshot() == m.snapshot()
    # Today's rules refuse the fifth action of the old game: offered up to the fourth.
    doc = load_doc(path.read_text())
    doc["actions"][4]["action"] = {"type": "no longer allowed"}
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(ReplayError, match="older rules of Fantasy Racing") as refused:
        Match.load(path)
    assert refused.value.good == 4
    assert Match.load(path, partial=True).actions == m.actions[:4]
    monkeypatch.setattr(RacingController, "rules_version", 1)
    with pytest.raises(SaveError, match="newer program"):
        Match.load(path)
