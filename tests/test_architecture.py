"""Rules stay pure, saves stay safe, and the command line works."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.engine import controller_class, game_ids

ROOT = Path(__file__).resolve().parents[1]
PURE = [ROOT / "game" / "engine", ROOT / "game" / "board"]
PURE_FILES = [p for folder in PURE for p in folder.glob("*.py") if p.name != "render.py"]
PURE_FILES += [ROOT / "game" / g / name for g in game_ids() for name in ("rules.py", "kernel.py")
               if (ROOT / "game" / g / name).exists()]
FORBIDDEN_CALLS = {"time", "monotonic", "perf_counter", "now", "today", "open", "read_text"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_pure_modules_never_import_pygame_or_random(path):
    found = imports(path)
    assert "pygame" not in found
    assert "random" not in found
    assert "pygame_gui" not in found


@pytest.mark.parametrize("game_id", game_ids())
def test_rule_controllers_read_no_clock_and_no_file(game_id):
    cls = controller_class(game_id)
    folder = ROOT / "game" / game_id
    for path in (folder / "rules.py", folder / "kernel.py"):
        if not path.exists():
            continue
        assert not imports(path) & {"time", "datetime", "os", "pathlib", "io", "secrets"}
        calls = {node.func.attr if isinstance(node.func, ast.Attribute) else
                 getattr(node.func, "id", "") for node in ast.walk(ast.parse(path.read_text()))
                 if isinstance(node, ast.Call)}
        assert not calls & FORBIDDEN_CALLS, calls & FORBIDDEN_CALLS
    assert (folder / cls.rules_document).exists(), "every game has its rules document"
    assert (ROOT / "boards" / cls.board).exists(), "every game has its board map"


def test_yaml_is_only_loaded_safely():
    for path in (ROOT / "game").rglob("*.py"):
        text = path.read_text()
        assert "yaml.load(" not in text or "Loader=SafeLoader" in text, path
        assert "yaml.unsafe_load" not in text and "yaml.full_load" not in text, path


def test_saves_folder_keeps_only_gitkeep():
    tracked = subprocess.run(["git", "ls-files", "saves"], cwd=ROOT, capture_output=True,
                             text=True).stdout.split()
    assert all(name == "saves/.gitkeep" for name in tracked)


def test_render_map_command(tmp_path):
    out = tmp_path / "board.png"
    run = subprocess.run([sys.executable, "main.py", "render-map",
                          "boards/fantasy_expedition.tmx", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    image = pygame.image.load(str(out))
    assert image.get_size() == (704, 512)


def test_render_map_reports_a_missing_map(tmp_path):
    run = subprocess.run([sys.executable, "main.py", "render-map", str(tmp_path / "nope.tmx"),
                          str(tmp_path / "x.png")], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode != 0
    assert "nope.tmx" in run.stderr
    assert "Traceback" not in run.stderr
