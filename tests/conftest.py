"""Shared test set-up: no window, and saves and settings kept out of the user's folders."""

import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# A fault in a scene fails the test instead of being caught by the loop (tests of the
# crash guard itself turn this off).
os.environ.setdefault("TABLETOP_FAULTS", "raise")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Shared, noisy machines: a property test is judged by its examples, never by their speed.
settings.register_profile("tabletop", deadline=None)
settings.load_profile("tabletop")


@pytest.fixture(autouse=True)
def private_folders(tmp_path, monkeypatch):
    """Every test gets its own saves folder and settings file, and leaves no window open."""
    monkeypatch.setenv("TABLETOP_SAVES", str(tmp_path / "saves"))
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    yield tmp_path
    pygame = sys.modules.get("pygame")
    if pygame is not None and pygame.display.get_init():
        pygame.display.quit()
