"""``render-map`` with a bad map, tileset, image or output: one line "FILE: problem", exit 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game.app import render_map_command
from game.board.tmxmap import MapError, load_board

ROOT = Path(__file__).resolve().parents[1]
BOARDS = ROOT / "boards"
SIZE = 'width="15" height="13" tilewidth="64" tileheight="64"'
BOMB = ('<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">'
        + "".join(f'<!ENTITY {n} "{("&" + p + ";") * 10}">' for p, n in zip("abcdefg", "bcdefgh"))
        + ']><map version="&h;"/>')


def _sub(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _maps(folder: Path) -> dict[str, tuple[Path, str]]:
    """Bad maps (name -> path, the file the message must name)."""
    for name in ("mothership.tmx", "mothership.tsx", "mothership_tiles.png"):
        shutil.copy(BOARDS / name, folder / name)
    good = (folder / "mothership.tmx").read_text()
    tsx = (folder / "mothership.tsx").read_text()
    files = {
        "empty.tmx": "",
        "text.tmx": "hello, this is not a map\n",
        "notmap.tmx": "<?xml version='1.0'?><foo/>",
        "truncated.tmx": good[: len(good) // 2],
        "bomb.tmx": BOMB,
        "missing_tileset.tmx": _sub(good, 'source="mothership.tsx"', 'source="nowhere.tsx"'),
        "noimage.tsx": _sub(tsx, "mothership_tiles.png", "nowhere.png"),
        "missing_image.tmx": _sub(good, 'source="mothership.tsx"', 'source="noimage.tsx"'),
        "notpng.png": "not an image",
        "badimage.tsx": _sub(tsx, "mothership_tiles.png", "notpng.png"),
        "bad_image.tmx": _sub(good, 'source="mothership.tsx"', 'source="badimage.tsx"'),
        "badtsx.tsx": "not xml",
        "bad_tileset.tmx": _sub(good, 'source="mothership.tsx"', 'source="badtsx.tsx"'),
        "zero.tmx": _sub(good, SIZE, SIZE.replace('"15"', '"0"').replace('"13"', '"0"')),
        "huge.tmx": _sub(good, SIZE, SIZE.replace('"15"', '"100000"').replace('"13"', '"100000"')),
        "hugetile.tmx": _sub(good, SIZE, SIZE.replace('"64"', '"100000"')),
        "negative.tmx": _sub(good, SIZE, SIZE.replace('"15"', '"-15"')),
        "words.tmx": _sub(good, SIZE, SIZE.replace('"15"', '"abc"')),
        "infinite.tmx": _sub(good, 'infinite="0"', 'infinite="1"'),
        "isometric.tmx": _sub(good, 'orientation="orthogonal"', 'orientation="isometric"'),
        "baddata.tmx": _sub(good, "1,1,1,1,", "x,y,1,1,"),
        "zstd.tmx": _sub(good, '<data encoding="csv">',
                         '<data encoding="base64" compression="zstd">'),
        "hugeoffset.tmx": _sub(good, '<layer id="1"', '<layer offsetx="1000000000" id="1"'),
        "nanoffset.tmx": _sub(good, '<layer id="1"', '<layer offsetx="nan" id="1"'),
        "badopacity.tmx": _sub(good, '<layer id="1"', '<layer opacity="abc" id="1"'),
    }
    for name, text in files.items():
        (folder / name).write_text(text)
    (folder / "binary.tmx").write_bytes(bytes(range(256)) * 4)
    (folder / "folder.tmx").mkdir()
    culprit = {"missing_tileset.tmx": "nowhere.tsx", "missing_image.tmx": "nowhere.png",
               "bad_image.tmx": "notpng.png", "bad_tileset.tmx": "badtsx.tsx"}
    names = [n for n in files if n.endswith(".tmx")] + ["binary.tmx", "folder.tmx",
                                                        "absent.tmx"]
    return {name: (folder / name, culprit.get(name, name)) for name in names}


def _check_message(err: str, culprit: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("render-map: ") and f"{culprit}: " in lines[0], err
    assert "Traceback" not in err


def test_every_bad_map_gives_one_line_and_exit_2(tmp_path, capsys):
    maps = _maps(tmp_path)
    assert len(maps) >= 24
    for name, (path, culprit) in maps.items():
        out = tmp_path / f"{name}.png"
        code = render_map_command(path, out)
        err = capsys.readouterr().err
        assert code == 2, f"{name}: {err}"
        _check_message(err, culprit)
        assert not out.exists(), name
    # the unchanged map still renders
    assert render_map_command(tmp_path / "mothership.tmx", tmp_path / "good.png") == 0
    assert (tmp_path / "good.png").stat().st_size > 0


@pytest.mark.parametrize("out,problem", [
    ("missing-folder/x.png", "does not exist"), ("", "is a folder"), ("x.xyz", "must be named"),
    ("a-folder", "is a folder")])
def test_bad_output_paths(tmp_path, capsys, out, problem):
    (tmp_path / "a-folder").mkdir()
    code = render_map_command(BOARDS / "mothership.tmx", tmp_path / out)
    err = capsys.readouterr().err
    assert code == 2 and problem in err, err
    _check_message(err, str(tmp_path / out) if out else str(tmp_path))


def test_load_board_errors_are_map_errors(tmp_path):
    (tmp_path / "x.tmx").write_text("<map/>")
    with pytest.raises(MapError) as caught:
        load_board(tmp_path / "x.tmx")
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).startswith(f"{tmp_path / 'x.tmx'}: ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_special_files_are_refused_without_blocking(tmp_path):
    """A FIFO would block reading forever and /dev/zero never ends: refused before reading."""
    os.mkfifo(tmp_path / "fifo.tmx")
    for source in (tmp_path / "fifo.tmx", Path("/dev/zero")):
        if not source.exists():
            continue
        run = subprocess.run([sys.executable, "main.py", "render-map", str(source),
                              str(tmp_path / "x.png")], cwd=ROOT, capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 2, run.stderr
        assert "not a regular file" in run.stderr and "Traceback" not in run.stderr
