"""Benchmark: ``python -m game.bench`` prints a table and writes ``bench.yaml``.

``python -m game.bench --balance [GAME ...] [--games N]`` runs only the
balance reports: every game package with a ``balance.py`` module offers
``report(games: int | None) -> dict`` (plain data, seeded, computer players
in every seat) and ``format(report) -> str`` (a table for people).  A plain
``python -m game.bench`` runs the client figures and then every report; ``--client`` skips
the reports.

Figures: time from start to the first drawn menu frame, the play scene's
frame times mid-game at 1280x720, CPU use of an idle play scene, save and
load time of a finished match, and random full games per second.  Compare
figures from one run; these machines are shared and noisy.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

SEATS = [{"name": f"P{i + 1}", "kind": "bot"} for i in range(9)]
FIRST_FRAME = """
import time, sys
from game.ui.app import App
app = App(size=(1280, 720))
app.to_menu()
app.step([])
print("FRAME", time.perf_counter())
"""


def first_frame_seconds(runs: int = 3) -> float:
    """Median wall time from launching the program to its first drawn menu frame."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "TABLETOP_HOME": tmp, "TABLETOP_SAVES": tmp}
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", FIRST_FRAME], env=env, text=True,
                                 capture_output=True, check=True,
                                 cwd=Path(__file__).resolve().parents[1]).stdout
            line = next(ln for ln in out.splitlines() if ln.startswith("FRAME"))
            times.append(float(line.split()[1]) - start)
    return statistics.median(times)


def mid_game_match(seed: int = 11):
    """A match stopped in the secret-choice phase with a person at the screen."""
    from game.engine import Match
    from game.engine.bots import choose_action
    seats = [dict(s) for s in SEATS]
    seats[0]["kind"] = "human"
    match = Match.new("fantasy_expedition", seats, seed=seed, options={"trade_rounds": 1})
    while match.to_act() != [0] or match.view()["phase"] != "choice":
        seat = next(s for s in match.to_act() if s != 0 or match.view()["phase"] == "trading")
        match.act(seat, choose_action(match, seat))
    return match


def person_to_act(game_id: str, seed: int = 11, actions: int = 12):
    """A match of ``game_id`` with a person at seat 0, some way in, at that person's turn."""
    from game.engine import Match, controller_class
    from game.engine.bots import choose_action
    cls = controller_class(game_id)
    count = cls.min_seats if cls.min_seats > 4 else min(cls.max_seats, 4)
    seats = [{"name": f"P{i + 1}", "kind": "human" if i == 0 else "bot"} for i in range(count)]
    match = Match.new(game_id, seats, seed=seed)
    while not match.is_over() and not (0 in match.to_act() and len(match.actions) >= actions):
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    return match


def game_frame_times(game_id: str, tmp: str) -> tuple[float, float]:
    """Frame median and p95 (ms) of ``game_id``'s play scene at a person's turn."""
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    os.environ["TABLETOP_SAVES"] = tmp
    app = App(settings=Settings(), size=(1280, 720))
    app.to_menu()
    app.push(PlayScene(app, person_to_act(game_id)))
    settle = time.perf_counter()
    while time.perf_counter() - settle < 1.0:
        app.step()
    return frame_times(app, 150)


def play_scene(tmp: str):
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    os.environ["TABLETOP_SAVES"] = tmp
    app = App(settings=Settings(), size=(1280, 720))
    app.to_menu()
    scene = PlayScene(app, mid_game_match())
    app.push(scene)
    settle = time.perf_counter()
    while time.perf_counter() - settle < 1.5:  # window events, first frames, settling
        app.step()
    return app, scene


def frame_times(app, frames: int = 300) -> tuple[float, float]:
    """Median and 95th percentile of a full redraw of the play scene, in ms."""
    samples = []
    for _ in range(frames):
        start = time.perf_counter()
        app.draw()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.95) - 1]


def idle_cpu(app, seconds: float = 5.0) -> float:
    """Percent of one core used by the event loop while nobody touches anything."""
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        app.step()
    return 100 * (time.process_time() - cpu) / (time.perf_counter() - wall)


def save_load_ms(tmp: str, runs: int = 20) -> float:
    """Median milliseconds to save and load a finished match."""
    from game.engine import Match
    from game.engine.bots import play_out
    match = Match.new("fantasy_expedition", SEATS, seed=5)
    play_out(match)
    path = Path(tmp) / "bench.yaml"
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        match.save(path)
        Match.load(path)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def games_per_second(seconds: float = 3.0) -> float:
    from game.engine import Match
    from game.engine.bots import play_out
    start, games = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        play_out(Match.new("fantasy_expedition", SEATS, seed=games))
        games += 1
    return games / (time.perf_counter() - start)


def fandango_engine(seeds: int = 6) -> dict[str, float]:
    """Monster Fandango's engine: a 4-seat game of computer players (median CPU seconds over
    ``seeds`` seeded games), one computer decision (95th percentile, ms), and loading the
    longest of those games' saves (median ms; the replay alone is given too, since the save
    format's YAML parsing is not the rules' doing).  CPU time (``process_time``) keeps the
    figures steady on a shared machine."""
    from game.engine import Match
    from game.engine.bots import choose_action
    clock = time.process_time
    games, decisions, longest = [], [], None
    for seed in range(1, seeds + 1):
        match = Match.new("monster_fandango", SEATS[:4], seed=seed)
        start = clock()
        while not match.is_over():
            seat = match.to_act()[0]
            tick = clock()
            action = choose_action(match, seat)
            decisions.append(clock() - tick)
            match.act(seat, action)
        games.append(clock() - start)
        if longest is None or len(match.actions) > len(longest.actions):
            longest = match
    decisions.sort()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "longest.yaml"
        longest.save(path)
        loads, replays = [], []
        for _ in range(5):
            tick = clock()
            Match.load(path)
            loads.append(clock() - tick)
            tick = clock()
            replay = Match(longest.game_id, longest.seats, longest.seed, longest.options)
            for record in longest.actions:
                replay.act(record["seat"], record["action"])
            replays.append(clock() - tick)
    return {"game_s": statistics.median(games),
            "decision_p95_ms": decisions[int(len(decisions) * 0.95) - 1] * 1000,
            "load_ms": statistics.median(loads) * 1000,
            "replay_ms": statistics.median(replays) * 1000,
            "longest_actions": len(longest.actions)}


def history_steps(seeds: int = 3) -> dict[str, dict[str, float]]:
    """Stepping through History, per game: open it on the longest of ``seeds`` seeded
    computer games and step one action at a time from the end to the start and back, as the
    History view does (the step's match and its events); ms, CPU time."""
    from game.engine import Match
    from game.engine.bots import play_out
    from game.engine.history import History
    from game.engine.registry import controller_class, game_ids
    clock = time.process_time
    out = {}
    for game_id in game_ids():
        cls = controller_class(game_id)
        seats = SEATS[:min(max(cls.min_seats, 4), cls.max_seats)]
        longest = None
        for seed in range(1, seeds + 1):
            match = Match.new(game_id, seats, seed=seed)
            play_out(match)
            if longest is None or len(match.actions) > len(longest.actions):
                longest = match
        tick = clock()
        history = History(longest)
        history.at(len(history), private_copy=False)
        opened = clock() - tick
        times = []
        order = list(range(len(history) - 1, -1, -1)) + list(range(1, len(history) + 1))
        for step in order:
            tick = clock()
            history.at(step, private_copy=False)
            history.events_of(step)
            times.append(clock() - tick)
        times.sort()
        out[game_id] = {"actions": len(history), "open_ms": opened * 1000,
                        "step_p95_ms": times[int(len(times) * 0.95) - 1] * 1000,
                        "step_max_ms": times[-1] * 1000}
    return out


def balance_modules(wanted: list[str] | None = None) -> dict[str, object]:
    """game id -> its ``balance`` module, for every game that has one."""
    from importlib import import_module
    from importlib.util import find_spec
    from game.engine.registry import game_ids
    found = {}
    for game_id in game_ids():
        if wanted and game_id not in wanted:
            continue
        name = f"game.{game_id}.balance"
        if find_spec(name) is not None:
            found[game_id] = import_module(name)
    return found


def balance(wanted: list[str] | None = None, games: int | None = None) -> dict[str, dict]:
    """Run and print the balance reports; return them as plain data."""
    reports = {}
    for game_id, module in balance_modules(wanted).items():
        start = time.perf_counter()
        report = module.report(games)
        seconds = time.perf_counter() - start
        print(f"\n== {game_id} balance ({seconds:.1f} s) ==")
        print(module.format(report))
        reports[game_id] = report
    return reports


def main(argv: list[str] | None = None) -> int:
    import argparse
    import yaml
    parser = argparse.ArgumentParser(prog="python -m game.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--balance", nargs="*", metavar="GAME",
                        help="only the balance reports (of these games; none named: all)")
    parser.add_argument("--bots", nargs="*", metavar="GAME",
                        help="only the computer levels' tournaments (of these games; none named: "
                             "all; --games N: games with a Hard player per figure); see "
                             "game/bench_bots.py")
    parser.add_argument("--client", action="store_true",
                        help="only the client figures (no balance reports)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per balance cell (default: each report's own)")
    args = parser.parse_args(argv)
    if args.bots is not None:
        from .bench_bots import run
        run(args.bots or None, args.games)
        return 0
    if args.balance is not None:
        reports = balance(args.balance or None, args.games)
        out = Path("bench-balance.yaml")  # other games' last reports are kept
        kept = yaml.safe_load(out.read_text()) if out.exists() else None
        out.write_text(yaml.safe_dump({**(kept if isinstance(kept, dict) else {}), **reports},
                                      sort_keys=False))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("TABLETOP_HOME", tmp)
        first = first_frame_seconds()
        app, _scene = play_scene(tmp)
        median, p95 = frame_times(app)
        from game.engine.registry import game_ids
        per_game = {g: game_frame_times(g, tmp) for g in game_ids()}
        cpu = idle_cpu(app)
        io = save_load_ms(tmp)
    gps = games_per_second()
    mf = fandango_engine()
    steps = history_steps()
    rows = [
        ("first menu frame", first * 1000, "ms", 1500),
        ("play frame median (1280x720)", median, "ms", None),
        ("play frame p95 (1280x720)", p95, "ms", 8),
        ("idle play scene CPU (5 s)", cpu, "% of a core", 5),
        ("save + load, finished match", io, "ms", 50),
        ("random full games", gps, "games/s", None),
    ] + [(f"{g} frame p95", times[1], "ms", 8) for g, times in per_game.items()] + [
        ("fandango 4-seat bot game (CPU)", mf["game_s"], "s", 1),
        ("fandango decision p95 (CPU)", mf["decision_p95_ms"], "ms", 30),
        (f"fandango load {mf['longest_actions']} actions", mf["load_ms"], "ms", 60),
        ("fandango its replay alone", mf["replay_ms"], "ms", None),
    ] + [(f"history step p95, {g} ({h['actions']})", h["step_p95_ms"], "ms", 50)
         for g, h in steps.items()]
    print(f"{'measure':32} {'value':>10}  {'unit':12} target")
    for name, value, unit, target in rows:
        mark = "" if target is None else (f"< {target}  " + ("ok" if value < target else "MISSED"))
        print(f"{name:32} {value:10.2f}  {unit:12} {mark}")
    Path("bench.yaml").write_text(yaml.safe_dump({
        "first_frame_ms": round(first * 1000, 1), "frame_median_ms": round(median, 2),
        "frame_p95_ms": round(p95, 2), "idle_cpu_percent": round(cpu, 2),
        "save_load_ms": round(io, 2), "games_per_second": round(gps, 1),
        "monster_fandango_engine": {k: round(v, 3) for k, v in mf.items()},
        "history_steps": {g: {k: round(v, 2) for k, v in h.items()} for g, h in steps.items()},
        "frame_ms_by_game": {g: {"median": round(m, 2), "p95": round(q, 2)}
                             for g, (m, q) in per_game.items()},
        "balance": {} if args.client else balance(None, args.games)}, sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
