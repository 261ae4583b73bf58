"""Shared test set-up: no window, and saves and settings kept out of the user's folders.

Every test gets its own TABLETOP_SAVES and TABLETOP_HOME in its temporary folder, and a
guard fails any test that writes, changes or deletes a file where a person keeps their
things: the checkout's ``saves/``, the program's folders in the user's data and config
places (where an installed copy keeps saves and settings), and the checkout itself.  The
guard compares cheap listings (name, size, time, inode) taken before and after each test's
call, so it also sees what a subprocess wrote; it works the same in every pytest-xdist worker.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# A fault in a scene fails the test instead of being caught by the loop (tests of the
# crash guard itself turn this off).
os.environ.setdefault("TABLETOP_FAULTS", "raise")

import platformdirs  # noqa: E402
import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

from game.resources import ROOT  # noqa: E402
from game.ui.paths import APP_NAME  # noqa: E402

# Shared, noisy machines: a property test is judged by its examples, never by their speed.
settings.register_profile("tabletop", deadline=None)
settings.load_profile("tabletop")

#: Folders of the checkout that tools, not tests, write: Python's caches, hypothesis's
#: example database, pytest's cache, and a wheel build's scratch (all ignored by git).
SKIPPED = {".git", "__pycache__", ".hypothesis", ".pytest_cache", "build", "dist"}


def _watched() -> list[Path]:
    """Where a person's files are: the program's user data and config folders, and the
    checkout (whose ``saves/`` is a checkout's saves folder)."""
    return [Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
            Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
            ROOT]


def _listing(top: Path) -> dict[str, tuple[int, ...]]:
    """Every file under ``top`` (the skipped tool folders left out) -> its signature."""
    found: dict[str, tuple[int, ...]] = {}
    stack = [str(top)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue  # missing (the usual case for the user folders), or not a folder
        for entry in entries:
            if entry.name in SKIPPED or entry.name.endswith(".egg-info"):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    found[entry.path + os.sep] = ()
                    stack.append(entry.path)
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            found[entry.path] = (info.st_size, info.st_mtime_ns, info.st_ino)
    return found


#: The watched places, found once per session (in each xdist worker).
WATCHED = _watched()


def user_files(tops: list[Path] | None = None) -> dict[str, tuple[int, ...]]:
    """One listing of every watched place (about 300 files: a millisecond or two)."""
    listing: dict[str, tuple[int, ...]] = {}
    for top in WATCHED if tops is None else tops:
        listing.update(_listing(top))
    return listing


def changes(before: dict[str, tuple[int, ...]], after: dict[str, tuple[int, ...]]) -> list[str]:
    """What differs between two listings, in words (empty: nothing)."""
    out = [f"new {path}" for path in sorted(after.keys() - before.keys())]
    out += [f"deleted {path}" for path in sorted(before.keys() - after.keys())]
    out += [f"changed {path}" for path in sorted(before.keys() & after.keys())
            if before[path] != after[path]]
    return out


@pytest.fixture(scope="session", autouse=True)
def user_folders_untouched():
    """Once per session (per xdist worker): nothing the whole session did, fixtures
    included, is left in a person's folders (the per-test check below names the test)."""
    before = user_files()
    yield
    left = changes(before, user_files())
    assert not left, "the tests wrote outside their temporary folders:\n" + "\n".join(left)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail the test that wrote, changed or deleted a file in a person's folders."""
    before = user_files()
    try:
        return (yield)
    finally:
        left = changes(before, user_files())
        if left:
            raise AssertionError(
                f"{item.nodeid} wrote outside its temporary folders (a person's saves, "
                "settings or the checkout):\n  " + "\n  ".join(left[:20]))


@pytest.fixture(autouse=True)
def private_folders(tmp_path, monkeypatch):
    """Every test gets its own saves folder and settings file, and leaves no window open
    (nor the loop's own time of tests/realloop.py, nor an interface size or theme other than
    100% normal: texts drawn by a later test in the same process would differ)."""
    monkeypatch.setenv("TABLETOP_SAVES", str(tmp_path / "saves"))
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    yield tmp_path
    realloop = sys.modules.get("realloop")
    if realloop is not None:
        realloop.real_time()  # a RealLoop's own time ends with its test
    pygame = sys.modules.get("pygame")
    if pygame is not None and pygame.display.get_init():
        pygame.display.quit()
    look = sys.modules.get("game.ui.look")
    if look is not None:
        look.set_look(100, "normal")  # an interface size or theme ends with its test


@pytest.fixture(autouse=True)
def no_network_from_the_screens(request, monkeypatch):
    """Play online's screens never reach a homeserver in a test (a monkey pressing Sign in
    included): every sign-in says the test is offline, and no referee runs.  The tests of the
    online screens give their own fake (tests/onlinefake.py); those marked ``online`` use the
    real homeserver named by TABLETOP_TEST_HOMESERVER."""
    if request.node.get_closest_marker("online") is not None:
        yield
        return
    import onlinefake
    from game.ui import online
    monkeypatch.setattr(online, "SESSION_FACTORY", onlinefake.OfflineSession)
    monkeypatch.setattr(online, "HOSTING", False)
    yield
