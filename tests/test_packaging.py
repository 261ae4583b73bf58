"""The program installs like real software (issues 18 and 29): a wheel into a fresh virtual
environment, run from a folder that is not the checkout, a one-folder PyInstaller bundle, a
complete source archive, a desktop menu entry with its icon, and metadata a packager can trust.

The ``install`` tests build real artefacts (up to a minute each on a 2-core machine); they run
in CI (``.ci/run`` installs the ``bundle`` extra for them) and can be left out locally with
``-m "not install"``.
"""

from __future__ import annotations

import configparser
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tomllib
import venv
import xml.etree.ElementTree as ET
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
    for command in ("render-map", "--load", "--size", "--smoke-test", "--version",
                    "--install-desktop", "--uninstall-desktop"):
        assert command in out


def _clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "VIRTUAL_ENV", "TABLETOP"))}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               TABLETOP_SAVES=str(tmp_path / "saves"), TABLETOP_HOME=str(tmp_path / "home"))
    return env


def _source_copy(tmp_path: Path) -> Path:
    """The checkout copied into ``tmp_path`` (building writes build/ and *.egg-info beside the
    sources, and tests write only in their temporary folders)."""
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis",
        "*.yaml.tmp", "bench*.yaml"))
    for junk in (copy / "saves").glob("*"):
        if junk.name != ".gitkeep":
            shutil.rmtree(junk) if junk.is_dir() else junk.unlink()
    return copy


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
          str(_source_copy(tmp_path))], elsewhere, env)
    wheel = next((tmp_path / "dist").glob("tabletop_hotseat-*.whl"))
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


def _needs_pyinstaller() -> None:
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.skip("PyInstaller is not installed here: it comes with the bundle extra "
                    "(python -m pip install -e \".[bundle]\"; .ci/run installs it)")


@pytest.mark.install
def test_the_one_folder_bundle_builds_small_and_starts_headless_from_a_copy(tmp_path):
    _needs_pyinstaller()
    env = _clean_env(tmp_path)
    env_here = {**env, "PYTHONPATH": str(ROOT)}
    out = _run([sys.executable, "-m", "game.tools.bundle", "--out", str(tmp_path / "dist")],
               ROOT, env_here)
    folder = tmp_path / "dist" / "tabletop"
    program = folder / "tabletop"
    assert program.exists() and f"built {program}" in out
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file() and not f.is_symlink())
    assert size <= 80 * 2**20, f"the bundle is {size / 2**20:.0f} MB"
    names = {f.name for f in folder.rglob("*")}
    assert "NotoSans-Regular.ttf" in names
    assert not names & {"NotoSansJP-Regular.otf", "NotoSansSC-Regular.otf",
                        "NotoSansKR-Regular.ttf", "_tcl_data", "_tk_data", "screenshot.png"}
    assert {"icon-64.png", "fantasy_expedition.tmx", "rules.md"} <= names
    # Copied elsewhere, checked with a relative path exactly as the README writes it.
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(folder, elsewhere / "dist" / "tabletop", symlinks=True)
    shutil.rmtree(tmp_path / "dist")
    out = _run([sys.executable, "-m", "game.tools.bundle", "--check", "dist/tabletop/tabletop"],
               elsewhere, env_here)
    assert "tabletop " + _project()["project"]["version"] in out
    assert "smoke test: all good" in out
    for game_id in ("fantasy_expedition", "fantasy_racing", "monster_fandango", "mothership",
                    "odysseus"):
        assert f"{game_id}: " in out and f"{game_id}.tmx: rendered" in out


@pytest.mark.install
def test_the_source_archive_is_a_checkout_that_runs_its_own_tests(tmp_path):
    env = _clean_env(tmp_path)
    tools = tmp_path / "tools"
    venv.create(tools, with_pip=True)
    python = str(tools / "bin" / "python")
    _run([python, "-m", "pip", "install", "-q", "build"], tmp_path, env)
    _run([python, "-m", "build", "--sdist", "-o", str(tmp_path / "dist"),
          str(_source_copy(tmp_path))], tmp_path, env)
    archive = next((tmp_path / "dist").glob("tabletop_hotseat-*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path / "src", filter="data")
    src = next((tmp_path / "src").iterdir())
    for name in ("LICENSE", "README.md", "main.py", "pyproject.toml", "assets/screenshot.png",
                 "assets/icon-256.png", "boards/odysseus.tmx", "tests/conftest.py",
                 "tests/uidriver.py", "tests/gamecheck.py", "tests/data/track_sample.tmx",
                 "game/__main__.py", "game/desktop.py", ".ci/run"):
        assert (src / name).is_file(), f"{name} is missing from the source archive"
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode == 0:
        shipped = {str(f.relative_to(src)) for f in src.rglob("*") if f.is_file()}
        missing = set(tracked.stdout.split()) - shipped - {".gitignore"}
        assert not missing, f"tracked files missing from the source archive: {sorted(missing)}"
    # The README's picture link works in the unpacked archive.
    picture = re.search(r"!\[[^]]*\]\(([^)]+)\)", (src / "README.md").read_text()).group(1)
    assert (src / picture).is_file()
    # The README's commands and the tests run from it (the tests with this Python's libraries).
    local = {**env, "PYTHONPATH": str(src)}
    version = _project()["project"]["version"]
    assert f"tabletop {version}" in _run([sys.executable, "main.py", "--version"], src, local)
    _run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
          "tests/test_engine.py", "tests/test_architecture.py"], src, local)
    assert not (ROOT / "game" / "VERSION").exists()


@pytest.mark.parametrize("size", [(960, 600), (1280, 720), (1920, 1080)])
def test_the_settings_screen_shows_where_saves_live_and_opens_the_folder(monkeypatch, tmp_path,
                                                                         size):
    import subprocess as sp

    import pygame

    import game.ui.paths as paths
    from game.ui.scenes.settings import SettingsScene
    from uidriver import Driver
    opened = []
    monkeypatch.setattr(paths.subprocess, "Popen", lambda cmd, **kw: opened.append(cmd))
    monkeypatch.setattr(paths.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert paths.subprocess is sp
    d = Driver(size=size)
    d.app.push(SettingsScene(d.app))
    d.pump(2)
    while not d.buttons("Open folder"):  # a short window shows the rows a page at a time
        d.key(pygame.K_PAGEDOWN)
    d.press("Open folder")
    assert opened and opened[0][-1] == str(paths.saves_dir())
    assert paths.saves_dir().is_dir()
    widgets = [w.rect for w, _ in d.top.controls.items]
    window = d.app.screen.get_rect()
    assert all(window.contains(r) for r in widgets)
    assert not any(a.colliderect(b) for i, a in enumerate(widgets) for b in widgets[i + 1:])


# Metadata -----------------------------------------------------------------------------------

def test_the_metadata_names_a_free_distribution_an_spdx_licence_and_bounded_dependencies():
    project = _project()
    meta = project["project"]
    assert meta["name"] == "tabletop-hotseat"            # "tabletop" is taken on PyPI
    assert meta["license"] == "MIT" and meta["license-files"] == ["LICENSE"]
    assert any(re.fullmatch(r"setuptools>=(\d+)", r) and int(r.split(">=")[1]) >= 77
               for r in project["build-system"]["requires"])
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "the Tabletop developers" in licence
    assert meta["keywords"] and meta["classifiers"]
    assert all(re.fullmatch(r"[A-Z][^:]*( :: [^:]+)+", c) for c in meta["classifiers"])
    assert not any(c.startswith("License ::") for c in meta["classifiers"])  # SPDX says it
    assert "Topic :: Games/Entertainment :: Board Games" in meta["classifiers"]
    gui = next(d for d in meta["dependencies"] if d.startswith("pygame_gui"))
    assert "<0.7" in gui
    # A GUI program: no console window on Windows; PyInstaller only in its own extra.
    assert meta["gui-scripts"] == {"tabletop": "game.app:main"} and "scripts" not in meta
    extras = meta["optional-dependencies"]
    assert any(d.startswith("pyinstaller") for d in extras["bundle"])
    assert not any(d.lower().startswith("pyinstaller") for d in extras["test"])
    assert "pytest-xdist" in " ".join(extras["test"])
    assert "-n auto" in project["tool"]["pytest"]["ini_options"]["addopts"]


def test_python_dash_m_game_starts_the_program(tmp_path):
    done = subprocess.run([sys.executable, "-m", "game", "--version"], cwd=ROOT,
                          env=_clean_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "tabletop " + _project()["project"]["version"]


def test_help_says_where_saves_and_settings_live_without_assuming_a_checkout(monkeypatch,
                                                                              capsys):
    import game.ui.paths as paths
    from game.app import main
    monkeypatch.delenv("TABLETOP_SAVES")
    monkeypatch.delenv("TABLETOP_HOME")
    monkeypatch.setattr(paths, "running_from_checkout", lambda: False)   # an installed copy
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert str(paths.saves_dir()) in out and str(paths.settings_path()) in out
    assert "TABLETOP_SAVES" in out and "TABLETOP_HOME" in out
    assert "main.py" not in out and "saves/x.yaml" not in out
    assert f"--load {paths.saves_dir()}" in out


# The icon and the desktop entry ------------------------------------------------------------

def test_the_icon_is_shipped_at_every_size_and_the_tool_draws_it(tmp_path):
    import pygame

    from game.desktop import ICON_SIZES
    from game.tools import make_icon
    written = make_icon.write(tmp_path)
    assert {p.name for p in written} == {f"icon-{n}.png" for n in ICON_SIZES} | {"icon.ico"}
    for folder in (ROOT / "assets", tmp_path):
        for size in ICON_SIZES:
            image = pygame.image.load(str(folder / f"icon-{size}.png"))
            assert image.get_size() == (size, size)
            assert image.get_at((size // 2, size // 2)).a == 255      # drawn, not empty
            assert image.get_at((0, 0)).a == 0                        # rounded corners
        ico = (folder / "icon.ico").read_bytes()
        reserved, kind, count = struct.unpack_from("<HHH", ico)
        assert (reserved, kind, count) == (0, 1, len(ICON_SIZES))
        for entry in range(count):
            side, _, _, _, _, _, length, offset = struct.unpack_from("<BBBBHHII", ico,
                                                                      6 + 16 * entry)
            assert ico[offset:offset + 8] == b"\x89PNG\r\n\x1a\n" and length > 0
            assert (side or 256) in ICON_SIZES


def test_the_window_carries_the_icon(monkeypatch):
    import pygame
    shown = []
    real = pygame.display.set_icon
    monkeypatch.setattr(pygame.display, "set_icon",
                        lambda surface: (shown.append(surface.get_size()), real(surface)))
    from uidriver import Driver
    Driver(size=(960, 600))
    assert shown == [(64, 64)]


def _desktop_file(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read_string(path.read_text(encoding="utf-8"))
    return dict(parser["Desktop Entry"])


def test_install_desktop_puts_the_entry_icons_and_metainfo_in_the_data_folder(monkeypatch,
                                                                              tmp_path,
                                                                              capsys):
    from game import desktop
    from game.app import main
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["--install-desktop"]) == 0
    entry_path = data / "applications" / f"{desktop.APP_ID}.desktop"
    entry = _desktop_file(entry_path)
    assert entry["Type"] == "Application" and entry["Name"] == "Tabletop"
    assert entry["Icon"] == desktop.APP_ID and entry["Terminal"] == "false"
    assert "Game;" in entry["Categories"] and entry["StartupWMClass"] == desktop.APP_ID
    program = entry["Exec"].split()[0]
    assert Path(program).is_absolute() and Path(program).exists()
    assert entry["TryExec"] == program
    checker = shutil.which("desktop-file-validate")      # Debian: desktop-file-utils
    if checker:
        done = subprocess.run([checker, str(entry_path)], capture_output=True, text=True)
        assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr
    for size in (48, 64, 128, 256):
        icon = data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{desktop.APP_ID}.png"
        assert icon.read_bytes() == (ROOT / "assets" / f"icon-{size}.png").read_bytes()
    meta = data / "metainfo" / f"{desktop.APP_ID}.metainfo.xml"
    root = ET.parse(meta).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == desktop.APP_ID
    assert root.findtext("launchable") == entry_path.name
    assert root.findtext("metadata_license") == "MIT" == root.findtext("project_license")
    assert root.findtext("name") == "Tabletop" and root.findtext("summary")
    assert len(root.find("description").findall("p")) >= 1
    assert root.find("provides").findtext("binary") == "tabletop"
    out = capsys.readouterr().out
    assert str(entry_path) in out and "--uninstall-desktop" in out
    # Again: the same files, replaced in place.
    assert main(["--install-desktop"]) == 0
    installed = sorted(p for p in data.rglob("*") if p.is_file())
    assert len(installed) == 2 + len(desktop.ICON_SIZES)
    assert main(["--uninstall-desktop"]) == 0
    assert not [p for p in data.rglob("*") if p.is_file()]
    capsys.readouterr()
    assert main(["--uninstall-desktop"]) == 0
    assert "no menu entry was installed" in capsys.readouterr().out


def test_the_metainfo_passes_appstreamcli_when_it_is_there(tmp_path):
    from game import desktop
    tool = shutil.which("appstreamcli")
    if tool is None:
        pytest.skip("appstreamcli is not installed (Debian: apt-get install appstream)")
    meta = tmp_path / f"{desktop.APP_ID}.metainfo.xml"
    meta.write_text(desktop.metainfo(), encoding="utf-8")
    done = subprocess.run([tool, "validate", "--no-net", str(meta)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_entry_starts_this_copy_and_quotes_its_path(monkeypatch, tmp_path):
    from game import desktop
    assert desktop.exec_line(["/opt/my games/tabletop", "100%"]) == \
        '"/opt/my games/tabletop" 100%%'
    assert desktop.exec_line(['/a"b$c']) == '"/a\\\\"b\\\\$c"'
    launcher = tmp_path / "bin" / "tabletop"
    launcher.parent.mkdir()
    launcher.write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "argv", [str(launcher)])
    assert desktop.launch_command() == [str(launcher)]
    monkeypatch.setattr(sys, "argv", [str(ROOT / "main.py")])
    assert desktop.launch_command() == [sys.executable, str(ROOT / "main.py")]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert desktop.launch_command() == [sys.executable]


def test_install_desktop_refuses_where_there_is_no_freedesktop_menu(monkeypatch, tmp_path,
                                                                    capsys):
    from game.app import main
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "platform", "win32")
    assert main(["--install-desktop"]) == 2
    assert "Linux" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()


def test_open_folder_names_the_missing_opener(monkeypatch):
    import game.ui.paths as paths
    from game.ui.scenes.settings import SettingsScene
    from uidriver import Driver
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(paths.shutil, "which", lambda name: None)
    monkeypatch.setattr(paths.subprocess, "Popen", lambda *a, **k: pytest.fail("ran an opener"))
    d = Driver(size=(1280, 720))
    d.app.push(SettingsScene(d.app))
    d.pump(2)
    d.press("Open folder")
    [(message, _, error)] = d.app.toasts
    assert error and "No program to open folders was found (xdg-open)" in message
    assert str(paths.saves_dir()) in message


# The bundle's build, without building ------------------------------------------------------

def test_the_bundle_refuses_to_start_without_the_programs_libraries(monkeypatch, capsys):
    from game.tools import bundle
    real = importlib.util.find_spec
    monkeypatch.setattr(bundle.importlib.util, "find_spec",
                        lambda name, *a: None if name in ("yaml", "pygame") else real(name, *a))
    monkeypatch.setitem(sys.modules, "PyInstaller.__main__", None)   # must not be reached
    with pytest.raises(SystemExit) as refused:
        bundle.main(["--out", "/nonexistent/never-written"])
    message = str(refused.value.code)
    assert "PyYAML (import yaml)" in message and "pygame-ce (import pygame)" in message
    assert "pytmx" not in message
    assert 'python -m pip install -e ".[bundle]"' in message
    assert not Path("/nonexistent").exists()


def test_every_dependency_maps_to_a_module_this_python_imports():
    from game.tools import bundle
    names = bundle.dependencies()
    assert len(names) == len(_project()["project"]["dependencies"])
    assert {bundle._normalise(n) for n in names} == set(bundle.IMPORT_NAMES)
    missing = [m for m in bundle.missing_modules() if "PyInstaller" not in m]
    assert not missing


def test_the_bundle_is_windowed_and_leaves_out_what_the_program_never_uses(tmp_path):
    import pygame_gui

    from game.tools import bundle
    args = bundle.pyinstaller_args(tmp_path / "out", tmp_path / "work")
    assert "--windowed" in args and "--onedir" in args
    excluded = {args[i + 1] for i, a in enumerate(args) if a == "--exclude-module"}
    assert {"tkinter", "_tkinter"} <= excluded
    hook = (tmp_path / "work" / "hooks" / "hook-pygame_gui.py").read_text()
    assert "collect_data_files" in hook and "--collect-data" not in " ".join(
        a + " " + b for a, b in zip(args, args[1:]) if b == "pygame_gui")
    # The hook's patterns match pygame_gui's CJK fonts and keep the fonts the program uses.
    data = Path(pygame_gui.__file__).parent / "data"
    dropped = {f.name for pattern in bundle.EXCLUDED_FONTS
               for f in data.glob(pattern.removeprefix("**/"))}
    assert {"NotoSansJP-Regular.otf", "NotoSansSC-Regular.otf", "NotoSansKR-Regular.ttf"} <= \
        dropped
    assert not {"NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "FiraCode-Regular.ttf"} & dropped
    assert not (tmp_path / "work" / "assets" / "screenshot.png").exists()
    assert (tmp_path / "work" / "assets" / "icon-64.png").exists()
    version = (tmp_path / "work" / "stamp" / "VERSION").read_text().strip()
    assert version == _project()["project"]["version"]


def test_the_windows_bundle_carries_the_programs_icon(monkeypatch, tmp_path):
    from game.tools import bundle
    monkeypatch.setattr(sys, "platform", "win32")
    args = bundle.pyinstaller_args(tmp_path / "out", tmp_path / "work")
    icon = Path(args[args.index("--icon") + 1])
    assert icon.name == "icon.ico" and icon.is_file() and "--windowed" in args


def test_check_takes_a_relative_path_and_says_when_there_is_no_bundle(monkeypatch, tmp_path,
                                                                      capsys):
    from game.tools import bundle
    program = tmp_path / "dist" / "tabletop" / "tabletop"
    program.parent.mkdir(parents=True)
    program.write_text('#!/bin/sh\n[ "$1" = --version ] && echo "tabletop 9.9" && exit 0\n'
                       'echo "smoke test: all good"\n')
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    assert bundle.main(["--check", "dist/tabletop/tabletop"]) == 0
    assert "smoke test: all good" in capsys.readouterr().out
    with pytest.raises(SystemExit) as missing:
        bundle.main(["--check", "dist/nothing/tabletop"])
    assert "is not a built bundle's program" in str(missing.value.code)
