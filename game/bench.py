"""Benchmark: ``python -m game.bench`` prints a table and writes ``bench.yaml``.

``python -m game.bench --balance [GAME ...] [--games N] [--seed S]`` runs only the
balance reports: every game package with a ``balance.py`` module offers
``report(games: int | None) -> dict`` (plain data, seeded, computer players
in every seat; a report that also takes ``seed`` plays the block from seed S)
and ``format(report) -> str`` (a table for people).  A plain
``python -m game.bench`` runs the client figures and then every report; ``--client`` skips
the reports.

Figures: time from start to the first drawn menu frame; for every game at
1280x720 and 1920x1080, the play scene's frame times while a piece moves
(median and 95th percentile of composing and presenting a frame) and the CPU
use of its idle screen -- in a real window whenever one can be opened here
(``DISPLAY`` set and SDL's x11 driver works), with the same figures under the
dummy video driver beside them; save and load time of a finished match,
random full games per second, and History through the loop in a 1,000-action game
(opening it and every kind of step; ``--history`` runs only that).  ``--online`` (only) plays
20 tables through one referee over a Matrix homeserver: actions per second and the round trip
of an action (p50, p95; the target is p95 <= 1 s).  Compare figures from one run; these machines
are shared and noisy.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


#: Window sizes the frame figures are taken at.
FRAME_SIZES = ((1280, 720), (1920, 1080))
#: Targets for a frame while a piece moves (p95, ms, in a real window) and an idle screen.
FRAME_TARGETS = {(1280, 720): 5.0, (1920, 1080): 9.0}
IDLE_TARGET = 2.0


def real_display() -> bool:
    """Whether a real window can be opened here: ``DISPLAY`` is set and SDL's x11 video
    driver opens a window (tried in a child process, so this one stays free of pygame)."""
    if not os.environ.get("DISPLAY"):
        return False
    probe = ("import pygame; pygame.display.init(); pygame.display.set_mode((64, 64)); "
             "print('DRIVER', pygame.display.get_driver())")
    env = {**os.environ, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
    try:
        run = subprocess.run([sys.executable, "-c", probe], env=env, text=True,
                             capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return run.returncode == 0 and "DRIVER x11" in run.stdout


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, min(len(ordered) - 1, int(len(ordered) * share + 0.5) - 1))]


def moving(scene) -> bool:
    """Whether a piece of the play scene's board is in flight (a tween not yet done)."""
    return any(t.elapsed < t.duration for t in scene.screen.tweens.values())


#: Moves played ahead, per game, for the frame figures (game id -> seats, seed, moves, and
#: how many of them come before the first that moves a piece, less one).
_SCRIPTS: dict[str, tuple[list[dict], int, list[tuple[int, dict]], int]] = {}


def scripted_moves(game_id: str, seed: int = 3, count: int = 200):
    """Seats, seed and the first ``count`` moves of a seeded game of ``game_id`` between
    people whose moves the Easy computer player chose (played once, then kept), and the
    number of moves to make before watching: up to the one before the first move whose
    events set a piece in flight (found by the game's screen animating them off screen)."""
    import types
    from game.engine import Match, controller_class
    from game.engine.bots import choose_action
    from game.ui.gamescreen import screen_for
    if game_id not in _SCRIPTS:
        cls = controller_class(game_id)
        seats = [{"name": f"P{i + 1}", "kind": "human", "level": "easy"}
                 for i in range(min(max(cls.min_seats, 4), cls.max_seats))]
        match, moves = Match.new(game_id, seats, seed=seed), []
        while not match.is_over() and len(moves) < count:
            seat = match.to_act()[0]
            action = choose_action(match, seat)
            match.act(seat, action)
            moves.append((seat, action))
        skip = 0
        try:
            match = Match.new(game_id, [dict(s) for s in seats], seed=seed)
            screen = screen_for(types.SimpleNamespace(match=match, viewer=None))
            screen.reset(match.view(None))
            for index, (seat, action) in enumerate(moves):
                for event in match.act(seat, action):
                    screen.animate(event, match.view(None))
                if moving(types.SimpleNamespace(screen=screen)):
                    skip = max(0, index - 1)
                    break
                screen.finish()
        except Exception:  # noqa: BLE001 - a screen that needs more of a scene: no skipping
            skip = 0
        _SCRIPTS[game_id] = (seats, seed, moves, skip)
    return _SCRIPTS[game_id]


def scripted_match(game_id: str):
    """The match of :func:`scripted_moves` with its first moves made, and the moves left."""
    from game.engine import Match
    seats, seed, moves, skip = scripted_moves(game_id)
    match = Match.new(game_id, [dict(s) for s in seats], seed=seed)
    for seat, action in moves[:skip]:
        match.act(seat, action)
    return match, list(moves[skip:])


def animation_frames(game_id: str, size: tuple[int, int], wanted: int = 120,
                     budget: float = 20.0) -> dict[str, float]:
    """Frames of ``game_id``'s play scene while its pieces move.

    The moves of :func:`scripted_match` are made one at a time, each once the board has
    shown the last (every seat is a person; no handover cards).  The loop runs as in play,
    at normal animation speed, and every frame drawn while a piece is in flight is timed
    -- composing and presenting it, in ms: wall time, and the drawing thread's CPU time,
    which leaves out waits for the X server and for a CPU other programs hold -- until
    ``wanted`` frames or ``budget`` seconds.  Events that move nothing are cut short (the
    loop runs uncapped meanwhile) to reach the moving ones.  Also the part of the window
    those frames presented (share of its pixels)."""
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    app = App(settings=Settings(handover=False, recap=False), size=size)
    app.to_menu()
    match, todo = scripted_match(game_id)
    scene = app.push(PlayScene(app, match))
    samples, cpu, shares = [], [], []
    start = time.perf_counter()
    while len(samples) < wanted and time.perf_counter() - start < budget:
        if app.stack.top is not scene:
            app.pop()  # a card or a notice over the board: not what is measured
        app.fps = 60 if moving(scene) else 0
        if not moving(scene):
            if scene.busy_for:
                scene.busy_for = 0.0  # nothing in flight: on to the next event
            elif not scene.queue:
                if not todo:
                    break
                seat, action = todo.pop(0)
                if not scene.perform(seat, action):
                    break
        frames = app.frames
        app.step()
        if app.frames != frames and app.stack.top is scene and moving(scene):
            samples.append(app.draw_ms)
            cpu.append(app.draw_cpu_ms)
            sent = sum(r.width * r.height for r in app.presenter.last)
            shares.append(sent / (size[0] * size[1]))
    if not samples:
        return {"frames": 0}
    return {"frames": len(samples), "p50": statistics.median(samples),
            "p95": percentile(samples, 0.95), "cpu_p50": statistics.median(cpu),
            "cpu_p95": percentile(cpu, 0.95), "presented": statistics.mean(shares)}


def idle_play_cpu(game_id: str, size: tuple[int, int], seconds: float = 3.0) -> float:
    """CPU use (% of a core) of ``game_id``'s play scene waiting for a person's move."""
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    app = App(settings=Settings(), size=size)
    app.to_menu()
    app.push(PlayScene(app, person_to_act(game_id)))
    settle = time.perf_counter()
    while time.perf_counter() - settle < 2.0:  # window events, first frames, settling
        app.step()
    return idle_cpu(app, seconds)


def frame_figures(budget: float = 20.0, idle_seconds: float = 3.0) -> dict:
    """Every game at every size of ``FRAME_SIZES``: frames while a piece moves and idle
    CPU, under this process's video driver (run by :func:`frames_with`).  (pygame is
    not quit between runs: the UI's fonts are cached.)"""
    from game.engine.registry import game_ids
    from game.ui.frames import framebuffer_kind
    out: dict = {"driver": None, "sizes": {}}
    for width, height in FRAME_SIZES:
        table = {}
        for game_id in game_ids():
            figures = animation_frames(game_id, (width, height), budget=budget)
            figures["idle_cpu"] = idle_play_cpu(game_id, (width, height), idle_seconds)
            table[game_id] = figures
        out["sizes"][f"{width}x{height}"] = table
    out["driver"] = framebuffer_kind()
    return out


def frames_with(driver: str, budget: float = 20.0, idle_seconds: float = 3.0) -> dict:
    """:func:`frame_figures` in a child process whose SDL video driver is ``driver``."""
    import yaml
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "frames.yaml"
        code = ("import sys, yaml; from pathlib import Path; from game.bench import frame_figures; "
                f"Path(sys.argv[1]).write_text(yaml.safe_dump(frame_figures({budget}, "
                f"{idle_seconds})))")
        env = {**os.environ, "SDL_VIDEODRIVER": driver, "SDL_AUDIODRIVER": "dummy",
               "TABLETOP_HOME": tmp, "TABLETOP_SAVES": tmp}
        run = subprocess.run([sys.executable, "-c", code, str(out)], env=env, text=True,
                             capture_output=True, cwd=Path(__file__).resolve().parents[1])
        if run.returncode != 0:
            raise RuntimeError(f"frame figures under {driver} failed:\n{run.stderr[-3000:]}")
        return yaml.safe_load(out.read_text())


def frame_table(results: dict[str, dict]) -> str:
    """The frame figures as a table: per size and game, for each driver the wall-time
    p50/p95 and CPU-time p95 of a frame while a piece moves, and the idle CPU."""
    drivers = list(results)
    cell = " | {:>5} {:>6} {:>6} {:>5} {:>5}"
    head = f"{'':28}" + "".join(f" | {results[d]['driver'][:31]:^31}" for d in drivers)
    sub = f"{'size, game':28}" + "".join(
        cell.format("p50", "p95", "cpu95", "idle%", "shown") for _ in drivers)
    lines = [head, sub]
    for size in results[drivers[0]]["sizes"]:
        target = FRAME_TARGETS.get(tuple(int(v) for v in size.split("x")))
        for game_id in results[drivers[0]]["sizes"][size]:
            row = f"{size + ' ' + game_id:28}"
            for d in drivers:
                f = results[d]["sizes"][size][game_id]
                if not f.get("frames"):
                    row += f" | {'(no moving frames)':^31}"
                    continue
                row += " | {:5.1f} {:6.1f} {:6.1f} {:5.2f} {:4.0f}%".format(
                    f["p50"], f["p95"], f["cpu_p95"], f["idle_cpu"], 100 * f["presented"])
            first = results[drivers[0]]["sizes"][size][game_id]
            if target is not None and first.get("frames"):
                ok = first["p95"] <= target and first["idle_cpu"] <= IDLE_TARGET
                row += "  ok" if ok else "  MISSED"
            lines.append(row)
    lines.append(f"(ms; targets in the first driver's column: p95 <= "
                 f"{', '.join(f'{v:g} at {w}x{h}' for (w, h), v in FRAME_TARGETS.items())}, "
                 f"idle <= {IDLE_TARGET:g}% of a core; shown: the part of the window presented)")
    return "\n".join(lines)


#: Target for a loop turn's 95th percentile while a Hard computer thinks (ms, issue 27).
THINK_TURN_TARGET = 20.0


def thinking_loop(game_id: str = "fantasy_racing", seconds: float = 8.0,
                  in_process: bool = True, seed: int = 5) -> dict[str, float]:
    """The loop's turn (one ``App.step``, wall ms, at the play scene's 60 frames a second)
    while Hard computers think and the player moves the mouse (a motion event every turn, so
    every turn draws a frame and the idle screen's sleep does not count), with the search in
    a worker process (``in_process``) or on a thread as before issue 27: every seat is a Hard
    computer, the pacing delay is off, and only the turns during which a search was in
    progress count.  Also how many Hard decisions were made in the time."""
    import pygame
    from game.engine import Match, controller_class
    from game.ui import thinker as thinker_module
    from game.ui.app import App
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    cls = controller_class(game_id)
    count = min(max(cls.min_seats, 3), cls.max_seats)
    seats = [{"name": f"P{i + 1}", "kind": "bot", "level": "hard"} for i in range(count)]
    app = App(settings=Settings(handover=False, recap=False, bot_delay=0.0), size=(1280, 720))
    app.to_menu()
    before = thinker_module.HARD_IN_PROCESS
    thinker_module.HARD_IN_PROCESS = in_process
    try:
        thinker_module.warm_up()
        match = Match.new(game_id, seats, seed=seed)
        scene = app.push(PlayScene(app, match))
        turns: list[float] = []
        cpu: list[float] = []
        decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds and not match.is_over():
            if app.stack.top is not scene:
                app.pop()
            acted = len(match.actions)
            thinking = scene.thinker is not None and not scene.thinker._done.is_set()
            x = 200 + len(turns) % 400
            motion = pygame.event.Event(pygame.MOUSEMOTION, pos=(x, 300), rel=(1, 0),
                                        buttons=(0, 0, 0))
            tick, used = time.perf_counter(), time.thread_time()
            app.step([motion])
            if thinking and scene.thinker is not None:
                turns.append((time.perf_counter() - tick) * 1000)
                cpu.append((time.thread_time() - used) * 1000)
            decisions += len(match.actions) > acted
        scene.stop_thinking()
    finally:
        thinker_module.HARD_IN_PROCESS = before
        thinker_module.shutdown()
    if not turns:
        return {"turns": 0}
    return {"turns": len(turns), "p50": statistics.median(turns), "p95": percentile(turns, 0.95),
            "max": max(turns), "cpu_p95": percentile(cpu, 0.95), "decisions": decisions,
            "load": os.getloadavg()[0]}


def thinking_table(game_id: str = "fantasy_racing", seconds: float = 8.0) -> dict[str, dict]:
    """:func:`thinking_loop` both ways, printed: the thread (before) and the process."""
    out = {"thread": thinking_loop(game_id, seconds, in_process=False),
           "process": thinking_loop(game_id, seconds, in_process=True)}
    print(f"loop turn while Hard thinks ({game_id}, all seats Hard, {seconds:g} s each; ms):")
    for way, f in out.items():
        if not f.get("turns"):
            print(f"  {way:8} (no turn while thinking)")
            continue
        mark = "ok" if f["p95"] <= THINK_TURN_TARGET else "MISSED"
        print(f"  {way:8} turns {f['turns']:5d}  p50 {f['p50']:6.1f}  p95 {f['p95']:6.1f}  "
              f"max {f['max']:6.1f}  (its CPU p95 {f['cpu_p95']:5.1f})  decisions "
              f"{f['decisions']}  load {f['load']:.1f}"
              + (f"  (target p95 <= {THINK_TURN_TARGET:g}: {mark})" if way == "process" else ""))
    return out


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
    computer games (its replay included) and step one action at a time from the end to the
    start and back, as the History view does (the step's match and its events); ms, CPU
    time."""
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
        while history.prepare():  # the replay behind the earlier steps, done all at once
            pass
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


#: Targets for History through the loop (ms): opening it, and a step's 95th percentile.
HISTORY_TARGETS = {"open": 250.0, "step_p95": 50.0}


def long_game(game_id: str = "monster_fandango", actions: int = 1000, seats: int = 4):
    """The first seeded finished game of computer players with at least ``actions`` actions
    (Monster Fandango, 4 seats: seed 1, exactly 1,000)."""
    from game.engine import Match
    from game.engine.bots import play_out
    for seed in range(1, 200):
        match = Match.new(game_id, SEATS[:seats], seed=seed)
        play_out(match)
        if len(match.actions) >= actions:
            return match
    raise RuntimeError(f"no {game_id} game of {actions} actions in 200 seeds")


def history_loop(match=None, size: tuple[int, int] = (1280, 720)) -> dict:
    """History through the app's loop, as a person uses it: H pressed in the play scene of a
    finished game (``match``: :func:`long_game`), then the arrow keys held (a key event
    every 40 ms, SDL's key repeat, with the loop running between them), Page Up/Down, Home
    and End, each posted to pygame's event queue.  Opening is the loop turn that handles H
    and draws History; a step the turn that handles its key and draws the step (wall and
    this thread's CPU time, ms).  The frame rate is not capped meanwhile, so no turn waits
    for the next 1/60 s.  Also how long after opening the replay behind the earlier steps
    was done (``ready_ms``) and the machine's load around the run."""
    import pygame
    from game.ui.app import App
    from game.ui.scenes.history import HistoryScene
    from game.ui.scenes.play import PlayScene
    from game.ui.settings import Settings
    match = match or long_game()
    load_before = os.getloadavg()[0]
    app = App(settings=Settings(handover=False, recap=False), size=size)
    app.fps = 0
    app.to_menu()
    app.push(PlayScene(app, match))
    for _ in range(10):
        app.step()

    def turn(key: int) -> tuple[float, float]:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="",
                                             scancode=0))
        wall, cpu = time.perf_counter(), time.thread_time()
        app.step()
        return (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000

    def run_for(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.step()

    opened, opened_cpu = turn(pygame.K_h)
    scene = app.stack.top
    assert isinstance(scene, HistoryScene) and app.frames, "H did not open History"
    start = time.perf_counter()
    while not getattr(scene.history, "ready", True) and time.perf_counter() - start < 10:
        app.step()
    ready = (time.perf_counter() - start) * 1000 + opened
    run_for(0.3)
    keys = [("left", pygame.K_LEFT, 150), ("right", pygame.K_RIGHT, 150),
            ("page up", pygame.K_PAGEUP, 20), ("page down", pygame.K_PAGEDOWN, 20)]
    keys += [("home", pygame.K_HOME, 1), ("end", pygame.K_END, 1)] * 10
    walls: dict[str, list[float]] = {}
    cpus: list[float] = []
    steps = 0
    for name, key, count in keys:
        for _ in range(count):
            before = scene.step
            wall, cpu = turn(key)
            steps += scene.step != before
            walls.setdefault(name, []).append(wall)
            cpus.append(cpu)
            run_for(0.04 - wall / 1000)
    everything = [w for samples in walls.values() for w in samples]
    out = {"actions": len(match.actions), "size": f"{size[0]}x{size[1]}", "open_ms": opened,
           "open_cpu_ms": opened_cpu, "ready_ms": ready, "steps": steps,
           "step_p50_ms": statistics.median(everything),
           "step_p95_ms": percentile(everything, 0.95), "step_max_ms": max(everything),
           "step_cpu_p95_ms": percentile(cpus, 0.95),
           "by_key": {name: {"p50": statistics.median(samples),
                             "p95": percentile(samples, 0.95), "max": max(samples)}
                      for name, samples in walls.items()},
           "load": [load_before, os.getloadavg()[0]], "cores": os.cpu_count()}
    app.pop()
    return out


def rounded(value):
    """``value`` with its floats to two decimals (for the YAML files)."""
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    return value


def history_table(h: dict) -> str:
    """:func:`history_loop`'s figures for people."""
    lines = [f"History through the loop: {h['actions']}-action finished game at {h['size']}, "
             f"{h['steps']} steps; machine load {h['load'][0]:.1f} -> {h['load'][1]:.1f} "
             f"(1-min average, {h['cores']} cores)",
             f"  open {h['open_ms']:.0f} ms (CPU {h['open_cpu_ms']:.0f}), every step ready "
             f"{h['ready_ms']:.0f} ms after H",
             f"  {'key':10} {'p50':>6} {'p95':>6} {'max':>6}  (ms, wall)"]
    for name, f in h["by_key"].items():
        lines.append(f"  {name:10} {f['p50']:6.1f} {f['p95']:6.1f} {f['max']:6.1f}")
    lines.append(f"  {'all':10} {h['step_p50_ms']:6.1f} {h['step_p95_ms']:6.1f} "
                 f"{h['step_max_ms']:6.1f}  (CPU p95 {h['step_cpu_p95_ms']:.1f}); targets: "
                 f"open <= {HISTORY_TARGETS['open']:g}, step p95 <= "
                 f"{HISTORY_TARGETS['step_p95']:g}")
    return "\n".join(lines)


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


def balance(wanted: list[str] | None = None, games: int | None = None,
            seed: int | None = None) -> dict[str, dict]:
    """Run and print the balance reports; return them as plain data (``seed``: the first
    seed of the block, for the reports whose ``report`` takes one)."""
    import inspect
    reports = {}
    for game_id, module in balance_modules(wanted).items():
        start = time.perf_counter()
        if seed is not None and "seed" in inspect.signature(module.report).parameters:
            report = module.report(games, seed=seed)
        else:
            report = module.report(games)
        seconds = time.perf_counter() - start
        print(f"\n== {game_id} balance ({seconds:.1f} s) ==")
        print(module.format(report))
        reports[game_id] = report
    return reports


def main(argv: list[str] | None = None) -> int:
    import argparse
    import yaml
    parser = argparse.ArgumentParser(prog="python -m game.bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--balance", nargs="*", metavar="GAME",
                        help="only the balance reports (of these games; none named: all)")
    parser.add_argument("--bots", nargs="*", metavar="GAME",
                        help="only the computer levels' tournaments (of these games; none named: "
                             "all; --games N: games with a Hard player per figure, --quick: a "
                             "handful); see game/bench_bots.py")
    parser.add_argument("--quick", action="store_true",
                        help="with --bots: a handful of games per figure (checks the printout)")
    parser.add_argument("--client", action="store_true",
                        help="only the client figures (no balance reports)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per balance cell (default: each report's own)")
    parser.add_argument("--seed", type=int, default=None,
                        help="first seed of the balance games (reports that take one; default: "
                             "each report's own block)")
    parser.add_argument("--history", action="store_true",
                        help="only History's figures through the loop (a long game)")
    parser.add_argument("--thinking", nargs="?", const="fantasy_racing", metavar="GAME",
                        help="only the loop's turn while Hard computers think, on a thread "
                             "and in a worker process (default game: fantasy_racing)")
    parser.add_argument("--frames", action="store_true",
                        help="only the frame figures (real window and dummy driver)")
    parser.add_argument("--online", action="store_true",
                        help="only the online figures: --tables N tables (default 20) played "
                             "through one referee and the homeserver named by "
                             "TABLETOP_TEST_HOMESERVER (see game/online/loadtest.py)")
    parser.add_argument("--tables", type=int, default=20, help="tables for --online")
    parser.add_argument("--think", metavar="LEAST,MOST", default=None,
                        help="for --online: remote players think LEAST to MOST seconds "
                             "(seeded) before each action, as people would; labelled so in "
                             "the figures (without it they act at once: the full-speed figure)")
    args = parser.parse_args(argv)
    # This process never opens a real window; the frame figures run in child processes.
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if args.online:
        from .online.loadtest import bench_main
        think = None
        if args.think:
            try:
                least, most = (float(x) for x in args.think.split(","))
            except ValueError:
                parser.error("--think takes LEAST,MOST in seconds, e.g. 2,5")
            if not 0 <= least <= most:
                parser.error("--think: 0 <= LEAST <= MOST")
            think = (least, most)
        return bench_main(args.tables, think)
    if args.bots is not None:
        from .bench_bots import QUICK_HARD, QUICK_PLAIN, run
        if args.quick:
            run(args.bots or None, args.games or QUICK_HARD, QUICK_PLAIN)
        else:
            run(args.bots or None, args.games)
        return 0
    if args.thinking is not None:
        thinking_table(args.thinking)
        return 0
    if args.balance is not None:
        reports = balance(args.balance or None, args.games, args.seed)
        out = Path("bench-balance.yaml")  # other games' last reports are kept
        kept = yaml.safe_load(out.read_text()) if out.exists() else None
        out.write_text(yaml.safe_dump({**(kept if isinstance(kept, dict) else {}), **reports},
                                      sort_keys=False))
        return 0
    if args.history:
        figures = history_loop()
        print(history_table(figures))
        Path("bench-history.yaml").write_text(yaml.safe_dump(rounded(figures), sort_keys=False))
        return 0
    drivers = (["x11"] if real_display() else []) + ["dummy"]
    frames = {driver: frames_with(driver) for driver in drivers}
    print(frame_table(frames))
    if args.frames:
        Path("bench-frames.yaml").write_text(yaml.safe_dump(frames, sort_keys=False))
        return 0
    main_frames = frames[drivers[0]]["sizes"]["1280x720"]
    moved = [f for f in main_frames.values() if f.get("frames")]
    median = statistics.median(f["p50"] for f in moved) if moved else float("nan")
    p95 = max(f["p95"] for f in moved) if moved else float("nan")
    cpu = max(f["idle_cpu"] for f in main_frames.values())
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("TABLETOP_HOME", tmp)
        first = first_frame_seconds()
        io = save_load_ms(tmp)
    gps = games_per_second()
    mf = fandango_engine()
    steps = history_steps()
    looped = history_loop()
    print(history_table(looped))
    thinking = thinking_table()
    rows = [
        ("first menu frame", first * 1000, "ms", 1500),
        (f"play frame median, {drivers[0]}", median, "ms", None),
        (f"worst play frame p95, {drivers[0]}", p95, "ms", FRAME_TARGETS[(1280, 720)]),
        (f"worst idle play CPU, {drivers[0]}", cpu, "% of a core", IDLE_TARGET),
        ("save + load, finished match", io, "ms", 50),
        ("random full games", gps, "games/s", None),
    ] + [
        ("fandango 4-seat bot game (CPU)", mf["game_s"], "s", 1),
        ("fandango decision p95 (CPU)", mf["decision_p95_ms"], "ms", 30),
        (f"fandango load {mf['longest_actions']} actions", mf["load_ms"], "ms", 60),
        ("fandango its replay alone", mf["replay_ms"], "ms", None),
    ] + [(f"history step p95, {g} ({h['actions']})", h["step_p95_ms"], "ms", 50)
         for g, h in steps.items()] + [
        (f"history open, loop ({looped['actions']})", looped["open_ms"], "ms",
         HISTORY_TARGETS["open"]),
        (f"history step p95, loop ({looped['actions']})", looped["step_p95_ms"], "ms",
         HISTORY_TARGETS["step_p95"]),
    ] + [
        (f"loop turn p95, Hard thinks ({way})", f.get("p95", float("nan")), "ms",
         THINK_TURN_TARGET if way == "process" else None) for way, f in thinking.items()]
    print(f"\n{'measure':32} {'value':>10}  {'unit':12} target")
    for name, value, unit, target in rows:
        mark = "" if target is None else (f"< {target}  " + ("ok" if value < target else "MISSED"))
        print(f"{name:32} {value:10.2f}  {unit:12} {mark}")
    Path("bench.yaml").write_text(yaml.safe_dump({
        "first_frame_ms": round(first * 1000, 1), "frame_median_ms": round(median, 2),
        "frame_p95_ms": round(p95, 2), "idle_cpu_percent": round(cpu, 2),
        "frame_driver": frames[drivers[0]]["driver"],
        "save_load_ms": round(io, 2), "games_per_second": round(gps, 1),
        "monster_fandango_engine": {k: round(v, 3) for k, v in mf.items()},
        "history_steps": {g: {k: round(v, 2) for k, v in h.items()} for g, h in steps.items()},
        "history_loop": rounded(looped),
        "thinking_loop": {w: {k: round(v, 2) for k, v in f.items()} for w, f in thinking.items()},
        "frames": {d: {"driver": f["driver"], "sizes": {
            size: {g: {k: round(v, 3) if isinstance(v, float) else v for k, v in fig.items()}
                   for g, fig in games.items()}
            for size, games in f["sizes"].items()}} for d, f in frames.items()},
        "balance": {} if args.client else balance(None, args.games)}, sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
