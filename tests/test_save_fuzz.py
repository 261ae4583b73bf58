"""Save fuzzing: real saves of every game, mutated, loaded three ways.

Saves of every game at the start, the middle and the end are cut, flipped,
retyped, given out-of-range seats and numbers, tampered or reordered actions,
anchors and aliases, deep nesting, and replaced by huge and special files.
Each mutant goes through ``Match.load``, the Load screen and ``main.py
--load``: it must be refused with a message that names the file, or load into
a match that is consistent (it replays to itself, shows every seat's view,
saves and loads back the same).  Nothing may crash, hang (a watchdog stops
any load after 2 s) or change the file.

Seeded: ``TABLETOP_FUZZ_SEED`` picks the seed (printed), ``TABLETOP_FUZZ_N``
the mutations per game (CI: 150; the ``slow`` sweep: 1500).
"""

from __future__ import annotations

import copy
import faulthandler
import os
import random
import signal
import sys
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable

import pygame
import pytest
import yaml

from game.engine import Match, SaveError, controller_class, game_ids
from game.engine.bots import choose_action
from game.engine.saves import unpack_document

SEED = int(os.environ.get("TABLETOP_FUZZ_SEED", "20261123"))
CI_MUTATIONS = int(os.environ.get("TABLETOP_FUZZ_N", "150"))
SLOW_MUTATIONS = 1500
#: A load (or a listing of one file) taking longer than this counts as a hang.
HANG_SECONDS = 2.0
#: Through the Load screen and main.py --load (each opens a play scene), this many per game.
SCREEN_OPENS = 5
CLI_OPENS = 3
FIGURES: Counter = Counter()
#: Options that keep the longest games short enough to replay hundreds of times.
SHORT = {"monster_fandango": {"round_limit": 8}, "fantasy_racing": {"turns": 5}}
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class Hang(Exception):
    """A load outlived the watchdog."""


@contextmanager
def watchdog(seconds: float = HANG_SECONDS):
    """Raise Hang in the test if the block runs longer than ``seconds`` (and, should a C
    call never return to Python, dump the stacks and end the run after a minute)."""
    def ring(_signum, _frame):
        raise Hang(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    faulthandler.dump_traceback_later(60, exit=True)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        faulthandler.cancel_dump_traceback_later()


# ------------------------------------------------------------------- real saves
def seat_count(game_id: str) -> int:
    cls = controller_class(game_id)
    return min(max(cls.min_seats, 3), cls.max_seats)


@pytest.fixture(scope="module")
def real_saves(tmp_path_factory) -> dict[str, list[str]]:
    """game -> the text of its saves at the start, the middle and the end of a bot game."""
    folder = tmp_path_factory.mktemp("real")
    texts: dict[str, list[str]] = {}
    for game_id in game_ids():
        seats = [{"name": f"P{i}", "kind": "human" if i < 2 else "bot"}
                 for i in range(seat_count(game_id))]
        match = Match.new(game_id, seats, seed=SEED % 1000, options=SHORT.get(game_id))
        records = []
        while not match.is_over() and len(match.actions) < 3000:
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
            records.append(len(match.actions))
        assert match.is_over(), game_id
        ends = [0, len(match.actions) // 2, len(match.actions)]
        texts[game_id] = []
        for end in ends:
            again = Match.new(game_id, seats, seed=match.seed, options=match.options)
            for record in match.actions[:end]:
                again.act(record["seat"], record["action"])
            path = folder / f"{game_id}-{end}.yaml"
            again.save(path)
            texts[game_id].append(path.read_text(encoding="utf-8"))
    return texts


# -------------------------------------------------------------------- mutations
EXTREMES: list[Any] = [None, True, False, -1, 0, 1, 7, 99, 2**31, 2**63, -2**70, 10**40,
                       0.5, -1e308, 1e308, float("nan"), float("inf"), "", "x", "0", "\x00",
                       "\u202e", "é" * 30, [], {}, [1, 2], {"a": 1}, {"type": "pass"}, [[[]]]]


def walk(node: Any, path: tuple = ()) -> list[tuple]:
    """Every path (tuple of keys and indexes) in a parsed document."""
    found, stack = [], [(node, path)]
    while stack:
        value, where = stack.pop()
        found.append(where)
        if isinstance(value, dict):
            stack.extend((v, where + (k,)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, where + (i,)) for i, v in enumerate(value))
    return found


def get(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def put(doc: Any, path: tuple, value: Any) -> None:
    get(doc, path[:-1])[path[-1]] = value


def dump(doc: Any, **style: Any) -> str:
    return yaml.dump(doc, Dumper=DUMPER, allow_unicode=True, **{"sort_keys": False, **style})


def restyle(doc: dict, rng: random.Random) -> str:
    """The same save written another way (key order, flow style, width, comments): loads."""
    how = rng.choice(["sorted", "reversed", "flow", "narrow", "comments", "canonical"])
    if how == "reversed":
        doc = dict(reversed(list(doc.items())))
    if how == "comments":
        return "# a comment\n" + dump(doc).replace("\nmeta:", "\n# another\nmeta:  # here")
    style = {"sorted": {"sort_keys": True}, "reversed": {}, "flow": {"default_flow_style": None},
             "narrow": {"width": 20, "indent": 4}, "canonical": {"explicit_start": True,
                                                                 "explicit_end": True}}[how]
    return dump(doc, **style)


def retype(doc: dict, rng: random.Random) -> str:
    paths = [p for p in walk(doc) if p]
    put(doc, rng.choice(paths), copy.deepcopy(rng.choice(EXTREMES)))
    return dump(doc)


def renumber(doc: dict, rng: random.Random) -> str:
    numbers = [p for p in walk(doc) if p and isinstance(get(doc, p), int)
               and not isinstance(get(doc, p), bool)]
    for path in rng.sample(numbers, min(len(numbers), rng.randint(1, 3))):
        value = get(doc, path)
        put(doc, path, rng.choice([-1, value + 1, value - 1, value * 1000 + 7, 2**63, -2**40,
                                   len(doc["seats"]), 10**30]))
    return dump(doc)


def bad_seat(doc: dict, rng: random.Random) -> str:
    if not doc["actions"]:
        doc["actions"].append({"seat": 0, "action": {"type": "pass"}})
    record = rng.choice(doc["actions"])
    record["seat"] = rng.choice([-1, len(doc["seats"]), 99, 2**40, True, "0", None, 0.0,
                                 len(doc["seats"]) - 1])
    return dump(doc)


def tamper_actions(doc: dict, rng: random.Random) -> str:
    actions = doc["actions"]
    if len(actions) < 2:
        actions.extend([{"seat": 0, "action": {"type": "pass"}}] * 2)
    how = rng.choice(["swap", "reverse", "shuffle", "duplicate", "delete", "retype", "extra key",
                      "other seat", "truncate", "from another point"])
    i, j = rng.sample(range(len(actions)), 2)
    if how == "swap":
        actions[i], actions[j] = actions[j], actions[i]
    elif how == "reverse":
        actions.reverse()
    elif how == "shuffle":
        rng.shuffle(actions)
    elif how == "duplicate":
        actions.insert(i, copy.deepcopy(actions[j]))
    elif how == "delete":
        del actions[i]
    elif how == "retype":
        types = sorted({a["action"].get("type", "") for a in actions if isinstance(a, dict)})
        actions[i]["action"]["type"] = rng.choice(types + ["fly", ""])
    elif how == "extra key":
        actions[i]["action"][rng.choice(["to", "card", "@audience", "seat"])] = rng.choice(
            EXTREMES)
    elif how == "other seat":
        actions[i]["seat"] = (actions[i]["seat"] + 1) % len(doc["seats"])
    elif how == "truncate":
        del actions[i:]
    else:
        actions[i]["action"] = copy.deepcopy(actions[j]["action"])
    return dump(doc)


def tamper_setup(doc: dict, rng: random.Random) -> str:
    how = rng.choice(["seed", "seats", "options", "meta", "game", "version"])
    if how == "seed":
        doc["seed"] = rng.choice([doc["seed"] + 1, -1, 2**80, 1.5, "7"])
    elif how == "seats":
        seat = rng.choice(doc["seats"])
        change = rng.choice(["add", "drop", "same name", "kind", "name"])
        if change == "add":
            doc["seats"].append({"name": "Extra", "kind": "human"})
        elif change == "drop":
            doc["seats"].remove(seat)
        elif change == "same name":
            seat["name"] = doc["seats"][0]["name"]
        elif change == "kind":
            seat["kind"] = rng.choice(["alien", None, 3])
        else:
            seat["name"] = rng.choice(["", "\x00", "\u200b", "x" * 500, ["a"]])
    elif how == "options":
        if doc["options"] and rng.random() < 0.7:
            key = rng.choice(sorted(doc["options"]))
            doc["options"][key] = rng.choice(EXTREMES)
        else:
            doc["options"]["nonsense"] = 1
    elif how == "meta":
        key = rng.choice(sorted(doc["meta"]))
        doc["meta"][key] = rng.choice(EXTREMES + ["../../etc/passwd", "ABC", "0" * 200])
    elif how == "game":
        doc["game"] = rng.choice(game_ids() + ["chess", "../x", ""])
    else:
        doc["version"] = rng.choice([0, 1, 3, -1, "2"])
    return dump(doc)


def cut(text: str, rng: random.Random) -> bytes:
    data = text.encode("utf-8")
    return data[:rng.randrange(len(data))]


def flip(text: str, rng: random.Random) -> bytes:
    data = bytearray(text.encode("utf-8"))
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] ^= rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 255])
    return bytes(data)


def lines(text: str, rng: random.Random) -> str:
    rows = text.split("\n")
    i, j = rng.randrange(len(rows)), rng.randrange(len(rows))
    how = rng.choice(["swap", "drop", "repeat", "indent", "dedent"])
    if how == "swap":
        rows[i], rows[j] = rows[j], rows[i]
    elif how == "drop":
        del rows[i]
    elif how == "repeat":
        rows.insert(i, rows[j])
    elif how == "indent":
        rows[i] = "  " + rows[i]
    else:
        rows[i] = rows[i].lstrip()
    return "\n".join(rows)


def aliases(text: str, rng: random.Random) -> str:
    how = rng.choice(["bomb", "anchor", "merge"])
    if how == "bomb":
        bomb = "lol0: &l0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]\n" for i in range(1, 10))
        return text.replace("meta:\n", bomb + "meta:\n") if rng.random() < 0.5 else text + bomb
    if how == "anchor":
        return text.replace("seed:", "seed: &s", 1).replace("actions:", "extra: *s\nactions:", 1)
    return text.replace("options:", "base: &b {}\noptions:\n  <<: *b", 1)


def nesting(text: str, rng: random.Random) -> str:
    depth = rng.choice([65, 200, 3000, 25_000])
    style = rng.choice(["flow", "map", "block"])
    if style == "flow":
        deep = "[" * depth + "]" * depth
    elif style == "map":
        deep = "{a: " * depth + "1" + "}" * depth
    else:
        return text + "deep:\n  " + "- " * depth + "x\n"
    where = rng.choice(["title: ", "seed: ", "status: "])
    head, sep, tail = text.partition(where)
    rest = tail.split("\n", 1)
    return head + sep + deep + "\n" + (rest[1] if len(rest) > 1 else "")


TEXT_MUTATIONS: list[tuple[str, Callable[[str, random.Random], Any]]] = [
    ("cut", cut), ("flip", flip), ("lines", lines), ("aliases", aliases), ("nesting", nesting)]
DOC_MUTATIONS: list[tuple[str, Callable[[dict, random.Random], str]]] = [
    ("retype", retype), ("numbers", renumber), ("seat", bad_seat), ("actions", tamper_actions),
    ("setup", tamper_setup)]
SPECIAL = ["fifo", "folder", "dev-zero", "loop", "dangling", "empty", "huge", "many", "long"]


def make_mutant(path: Path, text: str, rng: random.Random) -> str:
    """Write one mutant of ``text`` at ``path``; returns the mutation's name."""
    roll = rng.random()
    if roll < 0.45:
        name, mutate = rng.choice(DOC_MUTATIONS)
        if rng.random() < 0.15:
            name, mutate = "restyle", restyle
        content: Any = mutate(unpack_document(yaml.load(text, Loader=LOADER)), rng)
    elif roll < 0.97:
        name, mutate = rng.choice(TEXT_MUTATIONS)
        content = mutate(text, rng)
    else:
        name = rng.choice(SPECIAL)
        return make_special(path, name, text)
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return name


def make_special(path: Path, kind: str, text: str) -> str:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "loop":
        path.symlink_to(path)
    elif kind == "dangling":
        path.symlink_to(path.with_name("nowhere.yaml"))
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "huge":
        with path.open("wb") as handle:  # a 16 MB list
            handle.write(b"- 0\n" * (4 * 1024 * 1024))
    elif kind == "many":
        path.write_text(text + "extra:\n" + "- 0\n" * 300_000)
    else:
        path.write_text(text.replace("title: ", "title: " + "x" * 7_000_000, 1))
    return kind


def fingerprint(path: Path) -> Any:
    """What must not change: a regular file's bytes, else what the link or node is."""
    if path.is_symlink():
        return ("link", os.readlink(path))
    if path.is_file():
        return path.read_bytes()
    if path.exists():
        info = path.stat()
        return ("node", info.st_mode, info.st_ino)
    return None


# -------------------------------------------------------------------- checking
def consistent(match: Match, scratch: Path) -> None:
    """A loaded match replays to itself, shows every view, and saves and loads back."""
    again = Match(match.game_id, match.seats, match.seed, match.options)
    for record in match.actions:
        again.act(record["seat"], record["action"])
    assert again.snapshot() == match.snapshot()
    assert isinstance(match.status(), str)
    for seat in [None, *range(len(match.seats))]:
        match.view(seat)
        match.log_for(seat)
    for seat in match.to_act():
        assert match.legal_actions(seat) or match.is_over()
    match.save(scratch)
    back = Match.load(scratch)
    assert back.snapshot() == match.snapshot() and back.actions == match.actions


def load_one(path: Path, scratch: Path) -> str:
    """'refused' or 'loaded'; anything else (a crash, a hang) fails the test."""
    before = fingerprint(path)
    try:
        with watchdog():
            match = Match.load(path)
    except SaveError as exc:
        assert str(exc).startswith(f"{path}: "), str(exc)
        assert exc.problem.strip()
        outcome = "refused"
    else:
        consistent(match, scratch)
        outcome = "loaded"
    assert fingerprint(path) == before, "the file was changed"
    return outcome


def fuzz(real_saves: dict[str, list[str]], folder: Path, per_game: int, seed: int) -> dict:
    """Make and load ``per_game`` mutants of each game's saves into ``folder``/<game>/."""
    print(f"\nsave fuzz: seed {seed} (TABLETOP_FUZZ_SEED={seed} repeats it), "
          f"{per_game} mutations per game")
    rng = random.Random(seed)
    results: dict[str, list[tuple[Path, str, str]]] = {}
    for game_id, texts in real_saves.items():
        shelf = folder / game_id
        shelf.mkdir(parents=True)
        results[game_id] = []
        for number in range(per_game):
            path = shelf / f"m{number:04d}.yaml"
            name = make_mutant(path, rng.choice(texts), rng)
            try:
                outcome = load_one(path, folder / "scratch.yaml")
            except Exception as exc:
                raise AssertionError(f"seed {seed}, {game_id} mutant {number} ({name}): "
                                     f"{type(exc).__name__}: {exc}") from exc
            results[game_id].append((path, name, outcome))
            FIGURES[outcome] += 1
            FIGURES["tried"] += 1
    return results


def check_load_screen(results: dict, folder: Path, monkeypatch) -> None:
    """Each game's mutants all listed on the Load screen; a few opened from it."""
    from game.engine.saves import save_info
    from game.ui.app import App
    from game.ui.scenes.load import LoadScene
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings

    rng = random.Random(SEED + 1)
    for game_id, entries in results.items():
        shelf = folder / game_id
        monkeypatch.setenv("TABLETOP_SAVES", str(shelf))
        before = {path: fingerprint(path) for path, _n, _o in entries}
        for path, _name, _outcome in entries:
            with watchdog():
                save_info(path)  # what the Load screen reads of each file
        app = App(settings=Settings(animation="off", bot_delay=0.0), size=(1280, 720))
        app.fps = 0
        app.to_menu()
        app.step([])
        scene = app.push(LoadScene(app))
        app.step([])
        assert {info.path for info in scene.saves} == {p for p, _n, _o in entries}
        damaged = {info.path for info in scene.saves if info.error is not None}
        assert damaged >= {p for p, _n, o in entries if o == "refused" and not p.is_file()}
        # Open a few (the readable ones: Enter on their row), each from a short list.
        few = folder / f"open-{game_id}"
        few.mkdir()
        monkeypatch.setenv("TABLETOP_SAVES", str(few))
        readable = [p for p in scene.saves if p.error is None]
        for info in rng.sample(readable, min(SCREEN_OPENS, len(readable))):
            target = few / info.path.name
            target.write_bytes(info.path.read_bytes())
            app.stack.reset(LoadScene(app))
            app.step([])
            app.toasts.clear()
            row = next(info for info in app.stack.top.saves if info.path == target)
            with watchdog(10):
                app.stack.top.open(row)
                app.step([])
            top = app.stack.top
            if app.stack.find(PlayScene):
                FIGURES["opened on the Load screen"] += 1
            elif type(top).__name__ == "ConfirmScene":
                assert str(target) in top.message
                FIGURES["offered a partial load on the Load screen"] += 1
            else:
                assert any(str(target) in text for text, _u, _e in app.toasts), app.toasts
                FIGURES["refused on the Load screen"] += 1
            assert target.read_bytes() == info.path.read_bytes()
            target.unlink()
        assert {path: fingerprint(path) for path, _n, _o in entries} == before
        pygame.display.quit()


def check_command_line(results: dict, folder: Path, monkeypatch) -> None:
    """``main.py --load FILE`` for a few mutants of each game: a play scene or a message."""
    from game import app as cli
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene

    rng = random.Random(SEED + 2)
    opened: list[App] = []

    def run(self: App) -> None:  # a few frames instead of the endless loop
        for _ in range(2):
            self.step([])
        opened.append(self)

    monkeypatch.setattr(App, "run", run)
    for game_id, entries in results.items():
        monkeypatch.setenv("TABLETOP_SAVES", str(folder / game_id))
        loaded = [e for e in entries if e[2] == "loaded"]
        refused = [e for e in entries if e[2] == "refused"]
        chosen = (rng.sample(loaded, min(CLI_OPENS // 2, len(loaded)))
                  + rng.sample(refused, min(CLI_OPENS - min(CLI_OPENS // 2, len(loaded)),
                                            len(refused))))
        for path, _name, outcome in chosen:
            before = fingerprint(path)
            with watchdog(15):
                assert cli.main(["--load", str(path)]) == 0
            app = opened.pop()
            if outcome == "loaded":
                assert app.stack.find(PlayScene) is not None
            else:
                top = app.stack.top
                assert (type(top).__name__ == "ConfirmScene" and str(path) in top.message) or \
                    any(str(path) in text for text, _u, _e in app.toasts)
            assert fingerprint(path) == before
            FIGURES["main.py --load"] += 1
            pygame.display.quit()


def report() -> None:
    FIGURES["CPU seconds"] = round(time.process_time() - FIGURES["CPU seconds"])
    print("save fuzz figures: " + ", ".join(f"{key}: {value}" for key, value in FIGURES.items()))
    assert FIGURES["tried"] == FIGURES["refused"] + FIGURES["loaded"]


# ------------------------------------------------------------------------ tests
def test_save_fuzz(real_saves, tmp_path, monkeypatch) -> None:
    FIGURES.clear()
    FIGURES["CPU seconds"] = time.process_time()
    results = fuzz(real_saves, tmp_path, CI_MUTATIONS, SEED)
    FIGURES["CPU seconds loading"] = round(time.process_time() - FIGURES["CPU seconds"])
    check_load_screen(results, tmp_path, monkeypatch)
    check_command_line(results, tmp_path, monkeypatch)
    report()
    assert FIGURES["refused"] and FIGURES["loaded"]


@pytest.mark.slow
def test_save_fuzz_long(real_saves, tmp_path, monkeypatch, request) -> None:
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("the long sweep runs with -m slow")
    FIGURES.clear()
    results = fuzz(real_saves, tmp_path, SLOW_MUTATIONS, SEED + 1000)
    check_load_screen(results, tmp_path, monkeypatch)
    report()


def test_every_special_file_is_refused_quickly(real_saves, tmp_path) -> None:
    text = real_saves["fantasy_racing"][1]
    for kind in SPECIAL:
        path = tmp_path / f"{kind}.yaml"
        make_special(path, kind, text)
        outcome = load_one(path, tmp_path / "scratch.yaml")
        assert outcome == "refused", kind


if __name__ == "__main__":  # python tests/test_save_fuzz.py: the CI run, with its figures
    sys.exit(pytest.main([__file__, "-q", "-s", "-k", "test_save_fuzz and not long"]))
