"""Build a one-folder bundle of Tabletop for people without Python (PyInstaller).

    python -m pip install pyinstaller
    python -m game.tools.bundle              # -> dist/tabletop/tabletop (and its folder)
    python -m game.tools.bundle --out DIR    # build somewhere else
    python -m game.tools.bundle --check DIR/tabletop   # start a built bundle headless once

The bundle holds the interpreter, the libraries, the program, the boards and the art; copy the
whole ``tabletop`` folder and run the ``tabletop`` file inside it.  ``--check`` starts the bundle
with no screen, opens the main menu for a few frames and renders a board, and fails if any of
that does not work.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from game.resources import ROOT, assets_dir, boards_dir

NAME = "tabletop"


def pyinstaller_args(out: Path, work: Path) -> list[str]:
    """PyInstaller's command line for the one-folder bundle."""
    sep = os.pathsep
    return [
        str(ROOT / "main.py"), "--name", NAME, "--onedir", "--noconfirm", "--clean",
        "--log-level", "WARN",
        "--distpath", str(out), "--workpath", str(work), "--specpath", str(work),
        # The games are imported by name (game.engine.registry), so collect them all.
        "--collect-submodules", "game",
        # Rules documents, game data (YAML) and the widget theme live beside the code.
        "--collect-data", "game",
        # pygame_gui's default fonts and theme; pytmx reads maps without images of its own.
        "--collect-data", "pygame_gui",
        # Optional imports of pygame and the standard library that the program never uses.
        "--exclude-module", "numpy", "--exclude-module", "tkinter",
        "--add-data", f"{boards_dir()}{sep}game/boards",
        "--add-data", f"{assets_dir()}{sep}game/assets",
    ]


def build(out: Path) -> Path:
    """Build the bundle into ``out``; returns the program's path."""
    try:
        import PyInstaller.__main__ as pyinstaller
    except ImportError:
        raise SystemExit("bundle: PyInstaller is not installed "
                         "(python -m pip install pyinstaller)") from None
    with tempfile.TemporaryDirectory(prefix="tabletop-build-") as work:
        pyinstaller.run(pyinstaller_args(out, Path(work)))
    program = out / NAME / NAME
    if not program.exists():
        raise SystemExit(f"bundle: PyInstaller finished but {program} is missing")
    return program


def check(program: Path, timeout: float = 120.0) -> None:
    """Start the bundled program headless: the menu opens and a board renders."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    with tempfile.TemporaryDirectory(prefix="tabletop-check-") as tmp:
        env.update(TABLETOP_SAVES=str(Path(tmp) / "saves"), TABLETOP_HOME=str(Path(tmp) / "home"))
        version = subprocess.run([str(program), "--version"], cwd=tmp, env=env, timeout=timeout,
                                 capture_output=True, text=True)
        if version.returncode != 0:
            raise SystemExit(f"bundle: --version failed: {version.stderr.strip()}")
        smoke = subprocess.run([str(program), "--smoke-test"], cwd=tmp, env=env,
                               timeout=timeout, capture_output=True, text=True)
        if smoke.returncode != 0:
            raise SystemExit(f"bundle: the smoke test failed:\n{smoke.stdout}\n{smoke.stderr}")
        print(version.stdout.strip())
        print(smoke.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.tools.bundle", description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "dist",
                        help="where to put the bundle folder (default: dist/)")
    parser.add_argument("--check", type=Path, metavar="PROGRAM",
                        help="start an already built bundle headless instead of building")
    args = parser.parse_args(argv)
    if args.check:
        check(args.check)
        return 0
    program = build(args.out.resolve())
    size = sum(f.stat().st_size for f in program.parent.rglob("*") if f.is_file())
    print(f"built {program} ({size / 2**20:.0f} MB in {program.parent})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
