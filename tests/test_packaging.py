"""The program installs like real software (issue 18): a wheel into a fresh virtual environment,
run from a folder that is not the checkout, and a one-folder PyInstaller bundle.

The two install tests build real artefacts (about a minute each on a 2-core machine); they run
in CI (marker ``install``) and can be left out locally with ``-m "not install"``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[1]


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_package_and_the_boards_and_art_are_in_the_distribution():
    setuptools = _project()["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    assert set(find_packages(str(ROOT), include=["game*"])) <= listed, \
        "a package of game/ is missing from pyproject.toml's list"
    assert setuptools["package-dir"] == {"game.boards": "boards", "game.assets": "assets"}
    assert {"game.boards", "game.assets"} <= listed


def test_a_checkout_finds_its_own_folders_and_an_install_its_packaged_copies(tmp_path,
                                                                              monkeypatch):
    import game.resources as resources
    assert resources.running_from_checkout()
    assert resources.boards_dir() == ROOT / "boards"
    assert resources.assets_dir() == ROOT / "assets"
    # An installed copy: the package carries game/boards.
    fake = tmp_path / "site" / "game"
    (fake / "boards").mkdir(parents=True)
    (fake / "assets").mkdir()
    monkeypatch.setattr(resources, "PACKAGE", fake)
    monkeypatch.setattr(resources, "ROOT", fake.parent)
    assert resources.boards_dir() == fake / "boards"
    assert resources.board_path("x.tmx") == fake / "boards" / "x.tmx"
    assert not resources.running_from_checkout()


def test_saves_and_settings_go_to_the_users_folders_when_installed(monkeypatch, tmp_path):
    import platformdirs

    import game.ui.paths as paths
    monkeypatch.delenv("TABLETOP_SAVES")
    monkeypatch.delenv("TABLETOP_HOME")
    assert paths.saves_dir() == ROOT / "saves"      # a checkout keeps today's behaviour
    monkeypatch.setattr(paths, "running_from_checkout", lambda: False)
    assert paths.saves_dir() == Path(platformdirs.user_data_dir("tabletop", False)) / "saves"
    assert paths.settings_path() == Path(platformdirs.user_config_dir("tabletop", False)) \
        / "settings.yaml"
    monkeypatch.setenv("TABLETOP_SAVES", str(tmp_path / "s"))
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "h"))
    assert paths.saves_dir() == tmp_path / "s"
    assert paths.settings_path() == tmp_path / "h" / "settings.yaml"


def test_version_and_help_list_every_command(capsys):
    from game.app import main
    for flag in ("--version", "--help"):
        with pytest.raises(SystemExit) as done:
            main([flag])
        assert done.value.code == 0
    out = capsys.readouterr().out
    assert "tabletop " + _project()["project"]["version"] in out
    for command in ("render-map", "--load", "--size", "--smoke-test", "--version"):
        assert command in out


def _clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "VIRTUAL_ENV", "TABLETOP"))}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               TABLETOP_SAVES=str(tmp_path / "saves"), TABLETOP_HOME=str(tmp_path / "home"))
    return env


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.install
def test_the_wheel_installs_into_a_fresh_environment_and_plays_every_game(tmp_path):
    env = _clean_env(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"),
          str(ROOT)], elsewhere, env)
    wheel = next((tmp_path / "dist").glob("tabletop-*.whl"))
    venv.create(tmp_path / "env", with_pip=True)
    python = tmp_path / "env" / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", str(wheel)], elsewhere, env)
    tabletop = str(tmp_path / "env" / "bin" / "tabletop")
    assert _project()["project"]["version"] in _run([tabletop, "--version"], elsewhere, env)
    # The installed program is the wheel's, not this checkout's.
    where = _run([str(python), "-c", "import game, game.resources as r; "
                  "print(game.__file__); print(r.boards_dir())"], elsewhere, env)
    assert str(ROOT) not in where and "site-packages" in where
    out = _run([tabletop, "--smoke-test"], elsewhere, env)
    assert out.strip().endswith("smoke test: all good"), out
    for game_id in ("fantasy_expedition", "fantasy_racing", "monster_fandango", "mothership",
                    "odysseus"):
        assert f"{game_id}: " in out and f"{game_id}.tmx: rendered" in out
    assert list((tmp_path / "saves").glob("smoke-*.yaml"))
    board = next(Path(where.split()[1]).glob("odysseus.tmx"))
    _run([tabletop, "render-map", str(board), str(tmp_path / "o.png")], elsewhere, env)
    assert (tmp_path / "o.png").stat().st_size > 1000
    # Nothing was written into the installed package.
    package = Path(where.split()[0]).parent
    assert not (package / "saves").exists() and not (package.parent / "saves").exists()


@pytest.mark.install
def test_the_one_folder_bundle_builds_and_starts_headless(tmp_path):
    pytest.importorskip("PyInstaller", reason="pyinstaller is part of the test extras")
    env = _clean_env(tmp_path)
    _run([sys.executable, "-m", "game.tools.bundle", "--out", str(tmp_path / "dist")], ROOT,
         {**env, "PYTHONPATH": str(ROOT)})
    program = tmp_path / "dist" / "tabletop" / "tabletop"
    assert program.exists()
    out = _run([sys.executable, "-m", "game.tools.bundle", "--check", str(program)], tmp_path,
               {**env, "PYTHONPATH": str(ROOT)})
    assert "smoke test: all good" in out


@pytest.mark.parametrize("size", [(960, 600), (1280, 720), (1920, 1080)])
def test_the_settings_screen_shows_where_saves_live_and_opens_the_folder(monkeypatch, tmp_path,
                                                                         size):
    import subprocess as sp

    import game.ui.paths as paths
    from game.ui.scenes.settings import SettingsScene
    from uidriver import Driver
    opened = []
    monkeypatch.setattr(paths.subprocess, "Popen", lambda cmd, **kw: opened.append(cmd))
    assert paths.subprocess is sp
    d = Driver(size=size)
    d.app.push(SettingsScene(d.app))
    d.pump(2)
    d.press("Open folder")
    assert opened and opened[0][-1] == str(paths.saves_dir())
    assert paths.saves_dir().is_dir()
    widgets = [w.rect for w, _ in d.top.controls.items]
    window = d.app.screen.get_rect()
    assert all(window.contains(r) for r in widgets)
    assert not any(a.colliderect(b) for i, a in enumerate(widgets) for b in widgets[i + 1:])
