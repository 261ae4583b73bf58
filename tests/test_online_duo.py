"""Issue 30's "done when": two people on two machines play every game to its end over a local
Synapse, live, with one of them leaving mid-game and coming back.

Each person is a process of its own (``python -m game.online.duo``) running the program's own
online stack headless -- the OnlineService signed in to its own account, the Player it hands
the table screens and a RemoteTable for its one seat -- and choosing only from its own seat's
update.  The host's program runs the referee.  In every game one of the two kills itself
(SIGKILL) right after one of its actions left, mid-game, and is started again with the same
folder: it signs in with its kept token, and the game goes on.  (When the host is the one
killed, the referee goes down with it and resumes from its saves folder.)

Asserted: every game ends; both programs saw the same public log and the same result, equal to
the referee's; and the referee's final actions, replayed locally from the seed, give the same
state and result.  Needs TABLETOP_TEST_HOMESERVER and TABLETOP_TEST_SHARED_SECRET (``eval
"$(python -m game.tools.synapse_local env DIR)"``); marker ``online``."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.engine import Match
from game.online import protocol

pytestmark = [pytest.mark.online,
              pytest.mark.skipif(os.name != "posix", reason="SIGKILL: POSIX")]

PROJECT = Path(__file__).resolve().parents[1]
HOMESERVER = os.environ.get("TABLETOP_TEST_HOMESERVER")
SECRET = os.environ.get("TABLETOP_TEST_SHARED_SECRET")
#: A bound on the whole run (never a speed check): past it the games have stalled.
STALLED_SECONDS = 300.0

#: game -> (seats: H the host, G the guest, B a computer; options that keep it short;
#: who leaves mid-game and after how many of their own actions).
GAMES = {
    "odysseus": ("HBG", None, "guest", 4),
    "mothership": ("HG", None, "host", 6),
    "fantasy_expedition": ("HBGBBBBBB", {"trade_rounds": 0}, "guest", 1),
    "fantasy_racing": ("HG", {"turns": 5, "characters": "random"}, "host", 5),
    "monster_fandango": ("HG", {"round_limit": 1}, "guest", 2),
}


def _need():
    if not HOMESERVER or not SECRET:
        pytest.skip("no homeserver: set TABLETOP_TEST_HOMESERVER and "
                    "TABLETOP_TEST_SHARED_SECRET (python -m game.tools.synapse_local env DIR)")
    pytest.importorskip("nio", reason="matrix-nio is not installed (the 'online' extra)")


class Duo:
    """One game: the host's and the guest's processes, each in a folder of its own."""

    def __init__(self, root: Path, game: str, run: str, password: str) -> None:
        from game.tools.synapse_local import register_with_secret
        kinds, options, self.leaver, self.after = GAMES[game]
        self.root, self.game = root, game
        self.users = {role: register_with_secret(HOMESERVER, SECRET,
                                                 f"{role}{run}{sorted(GAMES).index(game)}", password)
                      for role in ("host", "guest")}
        self.password = password
        self.seats = {"host": kinds.index("H"), "guest": kinds.index("G")}
        self.kinds = kinds.replace("H", "P").replace("G", "P")
        self.options = options
        self.processes: dict[str, subprocess.Popen] = {}
        self.restarts = 0
        for role in ("host", "guest"):
            self.start(role, first=True)

    def out(self, role: str) -> Path:
        return self.root / f"{role}.out.json"

    def start(self, role: str, first: bool = False) -> None:
        args = [sys.executable, "-m", "game.online.duo", role,
                "--home", str(self.root / role), "--homeserver", HOMESERVER,
                "--user", self.users[role], "--password", self.password,
                "--seat", str(self.seats[role]), "--out", str(self.out(role))]
        if role == "host":
            args += ["--game", self.game, "--kinds", self.kinds, "--guest", self.users["guest"],
                     "--other-out", str(self.out("guest"))]
            if self.options:
                args += ["--options", json.dumps(self.options)]
        if first and role == self.leaver:
            args += ["--die-after", str(self.after)]
        env = dict(os.environ, PYTHONPATH=str(PROJECT))
        with open(self.root / f"{role}.log", "ab") as log:
            self.processes[role] = subprocess.Popen(args, cwd=PROJECT, env=env, stdout=log,
                                                    stderr=subprocess.STDOUT)

    def step(self) -> bool:
        """Restart a process that was killed; whether both have finished."""
        done = True
        for role, process in self.processes.items():
            code = process.poll()
            if code is None:
                done = False
            elif code == -9 and role == self.leaver and not self.restarts:
                self.restarts += 1
                time.sleep(0.5)  # gone for a moment, then back
                self.start(role)
                done = False
        return done

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
            process.wait()

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n" + path.read_text(errors="replace")[-3000:]
                         for path in sorted(self.root.glob("*.log")))


def test_two_programs_play_every_game_to_its_end_with_one_leaving_and_coming_back(tmp_path):
    _need()
    run, password = secrets.token_hex(3), secrets.token_hex(12)
    duos = {}
    for game in GAMES:
        (tmp_path / game).mkdir()
        duos[game] = Duo(tmp_path / game, game, run, password)
    deadline = time.monotonic() + STALLED_SECONDS
    try:
        while not all([duo.step() for duo in duos.values()]):
            assert time.monotonic() < deadline, "stalled:\n" + "\n".join(
                d.logs() for d in duos.values())
            time.sleep(0.1)
    finally:
        for duo in duos.values():
            duo.stop()
    for game, duo in duos.items():
        codes = {role: p.returncode for role, p in duo.processes.items()}
        assert codes == {"host": 0, "guest": 0}, f"{game}: {codes}\n{duo.logs()}"
        assert duo.restarts == 1, f"{game}: the leaver never left\n{duo.logs()}"
        host, guest = (json.loads(duo.out(role).read_text()) for role in ("host", "guest"))
        assert host["table"] == guest["table"]
        # The referee's match, as its program saved it, and a local replay of its actions.
        saves = duo.root / "host" / "referee"
        [path] = saves.glob(f"*/autosave-{game}-{host['table']}.yaml")
        final = Match.load(path)
        assert final.is_over(), game
        replay = Match.new(game, final.seats, seed=final.seed, options=final.options)
        for record in final.actions:
            replay.act(record["seat"], record["action"])
        assert replay.snapshot() == final.snapshot(), game
        expected_result = json.loads(json.dumps(protocol.to_wire(replay.result())))
        expected_log = json.loads(json.dumps(protocol.to_wire(
            [{k: v for k, v in ev.items() if k != "@audience"}
             for ev in replay.log_for(None)])))
        assert expected_log and expected_result, game
        for side in (host, guest):
            assert side["result"] == expected_result, game
            assert side["public_log"] == expected_log, game
            seat_log = json.loads(json.dumps(protocol.to_wire(
                [{k: v for k, v in ev.items() if k != "@audience"}
                 for ev in replay.log_for(side["seat"])])))
            assert [{k: v for k, v in ev.items() if k != "@audience"}
                    for ev in side["seat_log"]] == seat_log, game
            assert side["step"] == len(final.actions), game
        # Both people played (the guest's actions went over the homeserver).
        people = {record["seat"] for record in final.actions}
        assert {duo.seats["host"], duo.seats["guest"]} <= people, game
