"""Shared test set-up: no window, and saves and settings kept out of the user's folders."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def private_folders(tmp_path, monkeypatch):
    """Every test gets its own saves folder and settings file."""
    monkeypatch.setenv("TABLETOP_SAVES", str(tmp_path / "saves"))
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    return tmp_path
