"""Build a one-folder bundle of Tabletop for people without Python (PyInstaller).

From a checkout (or an unpacked source archive), in the Python that will build it::

    python -m pip install -e ".[bundle]"      # the program's libraries and PyInstaller
    python -m game.tools.bundle              # -> dist/tabletop/tabletop (and its folder)
    python -m game.tools.bundle --out DIR    # build somewhere else
    python -m game.tools.bundle --check dist/tabletop/tabletop   # start a built bundle once

The bundle holds the interpreter, the libraries, the program, the boards and the art; copy the
whole ``tabletop`` folder and run the ``tabletop`` file inside it (``tabletop.exe`` on
Windows, where it opens no console window and carries the program's icon).  PyInstaller packs
what this Python can import, so the build refuses to start, naming what is missing, unless
every library the program needs is installed here.  It leaves out what the program never uses
(pygame_gui's Chinese, Japanese and Korean fonts, 37 MB, and Tcl/Tk) and, on Linux, the
interpreter's debugging information.  ``--check`` starts the bundle with no screen: the main
menu for a few frames, one seeded game of every title saved and loaded, and every board
rendered; it fails if any of that does not work.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from game.app import VERSION_FILE, version
from game.resources import ROOT, assets_dir, boards_dir, running_from_checkout

NAME = "tabletop"
#: The module each distribution in pyproject.toml's dependencies is imported as.
IMPORT_NAMES = {"pygame-ce": "pygame", "pytmx": "pytmx", "pyyaml": "yaml",
                "pygame-gui": "pygame_gui", "platformdirs": "platformdirs"}
#: What the program never uses, and the optional extras (online play's matrix-nio with what
#: it needs, and speech's pyttsx3): left out of the bundle, so that what it holds does not
#: depend on what else the builder's Python has installed.  Without them the bundle says so
#: (Speak shows why it is off; ``tabletop referee`` names the missing extra).
EXCLUDED_MODULES = ("tkinter", "_tkinter", "numpy", "unittest", "pydoc", "doctest",
                    "nio", "aiohttp", "aiohttp_socks", "aiofiles", "jsonschema", "Crypto",
                    "Cryptodome", "h2", "h11", "unpaddedbase64", "pyttsx3", "comtypes")
#: pygame_gui's fonts for Chinese, Japanese and Korean (the program's text is English).
EXCLUDED_FONTS = ("**/NotoSansSC-*", "**/NotoSansJP-*", "**/NotoSansKR-*")
#: The README's picture is not the program's.
EXCLUDED_ASSETS = ("screenshot.png",)
#: The pygame_gui hook: its data without the fonts above.
_GUI_HOOK = """\
from PyInstaller.utils.hooks import collect_data_files

datas = collect_data_files("pygame_gui", excludes={excludes!r})
"""


def _normalise(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def dependencies() -> list[str]:
    """The distributions the program needs (pyproject.toml's ``dependencies``), by name."""
    with open(ROOT / "pyproject.toml", "rb") as file:
        project = tomllib.load(file)["project"]
    return [re.match(r"[A-Za-z0-9._-]+", spec).group(0) for spec in project["dependencies"]]


def missing_modules() -> list[str]:
    """What this Python lacks for a build, as "distribution (import name)"; empty when all is
    there.  PyInstaller included."""
    needed = {name: IMPORT_NAMES.get(_normalise(name), _normalise(name).replace("-", "_"))
              for name in dependencies()}
    needed["pyinstaller"] = "PyInstaller"
    return [f"{name} (import {module})" for name, module in needed.items()
            if importlib.util.find_spec(module) is None]


def _icon_args() -> list[str]:
    """The program's icon for the executable: Windows takes the ``.ico``; Linux executables
    carry none (the window sets its own, and ``--install-desktop`` installs the menu's)."""
    if sys.platform.startswith("win"):
        return ["--icon", str(assets_dir() / "icon.ico")]
    if sys.platform == "darwin" and importlib.util.find_spec("PIL") is not None:
        return ["--icon", str(assets_dir() / "icon-256.png")]   # PyInstaller converts it
    return []


def pyinstaller_args(out: Path, work: Path) -> list[str]:
    """PyInstaller's command line for the one-folder bundle (``work`` also holds our hook)."""
    hooks = work / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / "hook-pygame_gui.py").write_text(_GUI_HOOK.format(excludes=list(EXCLUDED_FONTS)),
                                              encoding="utf-8")
    art = work / "assets"       # the art, without the README's picture
    _copy_tree(assets_dir(), art, skip=EXCLUDED_ASSETS)
    stamp = work / "stamp"      # the version: a bundle has no package metadata
    stamp.mkdir(exist_ok=True)
    (stamp / VERSION_FILE).write_text(version() + "\n", encoding="utf-8")
    sep = os.pathsep
    args = [
        str(ROOT / "main.py"), "--name", NAME, "--onedir", "--noconfirm", "--clean",
        "--log-level", "WARN", "--windowed",
        "--distpath", str(out), "--workpath", str(work), "--specpath", str(work),
        "--additional-hooks-dir", str(hooks),
        # The games are imported by name (game.engine.registry), so collect them all.
        "--collect-submodules", "game",
        # Rules documents, game data (YAML) and the widget theme live beside the code.
        "--collect-data", "game",
        "--hidden-import", "pygame_gui",
        "--add-data", f"{boards_dir()}{sep}game/boards",
        "--add-data", f"{art}{sep}game/assets",
        "--add-data", f"{stamp / VERSION_FILE}{sep}game",
        *_icon_args(),
    ]
    for module in EXCLUDED_MODULES:
        args += ["--exclude-module", module]
    return args


def _copy_tree(source: Path, target: Path, skip: tuple[str, ...]) -> None:
    shutil.copytree(source, target, ignore=lambda folder, names: [n for n in names if n in skip],
                    dirs_exist_ok=True)


def build(out: Path) -> Path:
    """Build the bundle into ``out``; returns the program's path."""
    if not running_from_checkout():
        raise SystemExit("bundle: run this from a checkout or an unpacked source archive "
                         "(it needs main.py, boards/ and assets/ beside game/)")
    missing = missing_modules()
    if missing:
        raise SystemExit(
            "bundle: this Python lacks what the bundle must carry:\n  " + "\n  ".join(missing)
            + f"\nInstall the program and PyInstaller into it first (from {ROOT}):\n"
            '  python -m pip install -e ".[bundle]"')
    import PyInstaller.__main__ as pyinstaller
    with tempfile.TemporaryDirectory(prefix="tabletop-build-") as work:
        pyinstaller.run(pyinstaller_args(out, Path(work)))
    program = out / NAME / (NAME + (".exe" if sys.platform.startswith("win") else ""))
    if not program.exists():
        raise SystemExit(f"bundle: PyInstaller finished but {program} is missing")
    saved = strip_interpreter(program.parent)
    if saved:
        print(f"bundle: took the interpreter's debugging information out ({saved / 2**20:.0f} MB)")
    return program


def strip_interpreter(folder: Path) -> int:
    """Strip the debugging information from the interpreter's own library and extension
    modules (a Python built from source, such as pyenv's, carries 20-30 MB of it), if
    ``strip`` is there; returns the bytes saved.  The other libraries are left alone: the
    wheels' repaired libraries may not survive ``strip``."""
    strip = shutil.which("strip")
    if strip is None or not sys.platform.startswith("linux"):
        return 0
    saved = 0
    for library in [*folder.rglob("libpython3*.so*"), *folder.rglob("lib-dynload/*.so")]:
        if library.is_symlink() or not library.is_file():
            continue
        before = library.stat().st_size
        if subprocess.run([strip, "--strip-debug", str(library)], capture_output=True).returncode:
            continue                        # not a file strip knows: keep it as it is
        saved += before - library.stat().st_size
    return saved


def folder_size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file() and not f.is_symlink())


def check(program: Path, timeout: float = 300.0) -> None:
    """Start the bundled program headless: the menu opens, every game plays, saves and loads,
    and every board renders."""
    program = program.resolve()     # the checks run in a temporary folder
    if not program.is_file():
        raise SystemExit(f"bundle: {program} is not a built bundle's program "
                         "(build one with: python -m game.tools.bundle)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    with tempfile.TemporaryDirectory(prefix="tabletop-check-") as tmp:
        env.update(TABLETOP_SAVES=str(Path(tmp) / "saves"), TABLETOP_HOME=str(Path(tmp) / "home"))
        try:
            version = subprocess.run([str(program), "--version"], cwd=tmp, env=env,
                                     timeout=timeout, capture_output=True, text=True)
            if version.returncode != 0:
                raise SystemExit(f"bundle: --version failed: {version.stderr.strip()}")
            smoke = subprocess.run([str(program), "--smoke-test"], cwd=tmp, env=env,
                                   timeout=timeout, capture_output=True, text=True)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SystemExit(f"bundle: {program} could not be run: {exc}") from None
        if smoke.returncode != 0:
            raise SystemExit(f"bundle: the smoke test failed:\n{smoke.stdout}\n{smoke.stderr}")
        print(version.stdout.strip())
        print(smoke.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.tools.bundle", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "dist",
                        help="where to put the bundle folder (default: dist/)")
    parser.add_argument("--check", type=Path, metavar="PROGRAM",
                        help="start an already built bundle headless instead of building")
    args = parser.parse_args(argv)
    if args.check:
        check(args.check)
        return 0
    program = build(args.out.resolve())
    size = folder_size(program.parent)
    print(f"built {program} ({size / 2**20:.0f} MB in {program.parent})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
