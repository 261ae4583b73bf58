"""The tests' guard watches every place the program writes when no test folder is set
(tests/conftest.py): a test that forgot TABLETOP_SAVES or TABLETOP_HOME fails."""

from __future__ import annotations

from pathlib import Path

import conftest
from game import resources
from game.ui import paths


def watched(path: Path) -> bool:
    return any(path.is_relative_to(top) for top in conftest.WATCHED)


def test_the_default_folders_are_watched(monkeypatch):
    monkeypatch.delenv("TABLETOP_SAVES")
    monkeypatch.delenv("TABLETOP_HOME")
    assert watched(paths.saves_dir()) and watched(paths.settings_path())  # a checkout
    monkeypatch.setattr(paths, "running_from_checkout", lambda: False)
    assert watched(paths.saves_dir()) and watched(paths.settings_path())  # installed
    assert not watched(Path(str(resources.ROOT) + "-elsewhere"))


def test_a_listing_sees_new_changed_and_deleted_files(tmp_path):
    tops = [tmp_path / "user"]
    (tmp_path / "user" / "saves").mkdir(parents=True)
    kept = tmp_path / "user" / "saves" / "kept.yaml"
    kept.write_text("a")
    gone = tmp_path / "user" / "gone.yaml"
    gone.write_text("b")
    before = conftest.user_files(tops)
    assert conftest.changes(before, conftest.user_files(tops)) == []
    kept.write_text("longer")
    gone.unlink()
    (tmp_path / "user" / "__pycache__").mkdir()  # a tool's cache is not a person's file
    (tmp_path / "user" / "__pycache__" / "x.pyc").write_text("c")
    (tmp_path / "user" / "new.yaml").write_text("d")
    assert conftest.changes(before, conftest.user_files(tops)) == [
        f"new {tmp_path / 'user' / 'new.yaml'}", f"deleted {gone}", f"changed {kept}"]
