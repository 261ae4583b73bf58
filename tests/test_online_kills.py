"""Nothing lost, nothing twice (issue 30): the referee and the players' programs run as real
processes over the folder network (:mod:`game.online.filenet`, which outlives them as a Matrix
room does) and are killed with SIGKILL at random moments of whole computer-played Odysseus
games, then started again.  Each game must go on to its end, its final actions must be exactly
those of the same game played undisturbed, a local replay of them (same seed, ``Match``) must
give the same state, and every person's action must have been applied once, under one id.

The default run kills each of the three processes once in one game; the ``slow`` sweep kills
50 times over five games (``pytest -m slow tests/test_online_kills.py``)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.engine.saves import read_yaml
from game.online.filenet import REFEREE, FolderTransport, folder_name, members_of
from game.online.loadtest import choose
from game.online.referee import Referee
from game.online.transport import send_all

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL and os.link: POSIX")

PROJECT = Path(__file__).resolve().parents[1]
SEATS = [{"name": "Ada", "kind": "human"}, {"name": "Bo", "kind": "bot"},
         {"name": "Cy", "kind": "human"}]
ACCOUNTS = ["@ada:loopback", None, "@cy:loopback"]
#: A game that does not end in this long has stalled (a bound, never a speed check).
STALLED_SECONDS = 240.0


def undisturbed(seed: int) -> list[dict]:
    """The actions of the same game played in one process by the same choices."""
    match = Match.new("odysseus", SEATS, seed=seed)
    while not match.is_over():
        seat = match.to_act()[0]
        if match.seats[seat]["kind"] == "bot":
            action = choose_action(match, seat)
        else:
            action = choose("odysseus", {"view": match.view(seat), "legal":
                                         match.legal_actions(seat), "step": len(match.actions),
                                         "seat": seat})
        match.act(seat, action)
    return match.actions


class Stormy:
    """One table, its referee process and one process per person's seat, in ``root``."""

    def __init__(self, root: Path, seed: int, table: str) -> None:
        self.root, self.seed = root, seed
        referee = Referee(root / "saves")
        self.table, greeting = referee.open_table("odysseus", SEATS, ACCOUNTS, seed=seed,
                                                  table_id=table)
        send_all(FolderTransport(root, REFEREE, members_of(referee)), greeting)
        self.processes: dict[str, subprocess.Popen] = {}
        self.kills = 0
        for who in ("referee", *[a for a in ACCOUNTS if a]):
            self.start(who)

    def start(self, who: str) -> None:
        args = ["referee", str(self.root)] if who == "referee" else \
            ["player", str(self.root), who]
        env = dict(os.environ, PYTHONPATH=str(PROJECT))
        log = open(self.root / f"{folder_name(who)}.log", "ab")
        self.processes[who] = subprocess.Popen(
            [sys.executable, "-m", "game.online.filenet", *args], cwd=PROJECT, env=env,
            stdout=log, stderr=subprocess.STDOUT)
        log.close()

    def kill(self, who: str) -> None:
        process = self.processes[who]
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            self.kills += 1
        process.wait()
        self.start(who)

    def to_referee(self) -> int:
        """How many messages the players have sent the referee so far."""
        inbox = self.root / folder_name(REFEREE)
        return sum(1 for name in os.listdir(inbox) if name.endswith(".json"))

    def received(self, account: str) -> list[dict]:
        """Every message ``account`` was sent, batches opened (parts stay parts)."""
        out = []
        for path in sorted((self.root / folder_name(account)).glob("*.json")):
            message = json.loads(path.read_text(encoding="utf-8"))["message"]
            out += message["messages"] if message["kind"] == "batch" else [message]
        return out

    def players_done(self) -> bool:
        return all(self.processes[a].poll() is not None for a in ACCOUNTS if a)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
            process.wait()

    def logs(self) -> str:
        return "\n".join(path.read_text(errors="replace")[-2000:]
                         for path in sorted(self.root.glob("*.log")))


def play_through_kills(root: Path, seed: int, kills: int, chance: random.Random,
                       victims: list[str] | None = None) -> Stormy:
    """Play one game, killing ``kills`` times (the victims in order, or at random) when the
    referee has been sent a random number of messages and a random moment more."""
    expected = undisturbed(seed)
    people = sum(1 for record in expected if SEATS[record["seat"]]["kind"] == "human")
    moments = sorted(chance.randint(2, people - 2) for _ in range(kills))
    victims = victims or [chance.choice(["referee", *[a for a in ACCOUNTS if a]])
                          for _ in range(kills)]
    game = Stormy(root, seed, f"kill{seed:x}"[:32])
    deadline = time.monotonic() + STALLED_SECONDS
    try:
        for moment, victim in zip(moments, victims):
            while game.to_referee() < moment and not game.players_done():
                assert time.monotonic() < deadline, "the game stalled:\n" + game.logs()
                time.sleep(0.005)
            time.sleep(chance.uniform(0.0, 0.08))
            game.kill(victim)
        while not game.players_done():  # each player's program ends when its game is over
            assert time.monotonic() < deadline, "the game stalled:\n" + game.logs()
            time.sleep(0.02)
    finally:
        game.stop()
    assert all(game.processes[a].returncode == 0 for a in ACCOUNTS if a), game.logs()
    check(game, expected)
    return game


def check(game: Stormy, expected: list[dict]) -> None:
    saves = game.root / "saves"
    final = Match.load(saves / f"autosave-odysseus-{game.table}.yaml")
    assert final.is_over()
    assert final.actions == expected
    replay = Match.new("odysseus", SEATS, seed=game.seed)
    for record in final.actions:
        replay.act(record["seat"], record["action"])
    assert replay.snapshot() == final.snapshot()
    # Every person's action applied once, under exactly one id.
    applied = read_yaml(saves / f"online-{game.table}.yaml")["applied"]
    people = [step for step, record in enumerate(final.actions, 1)
              if SEATS[record["seat"]]["kind"] == "human"]
    assert sorted(step for _, step in applied.values()) == people
    assert all(final.actions[step - 1]["seat"] == seat for seat, step in applied.values())
    # A resent action was answered as the first time (an ack), never refused as out of turn.
    answers = [m for account in ACCOUNTS if account for m in game.received(account)]
    assert not [m for m in answers if m["kind"] == "refused"]
    acks = [m["id"] for m in answers if m["kind"] == "ack"]
    assert set(acks) == set(applied)
    game.resent = len(acks) - len(set(acks))


def test_killing_the_referee_and_each_player_once_loses_nothing_and_repeats_nothing(tmp_path):
    chance = random.Random(30)
    victims = ["referee", *[a for a in ACCOUNTS if a]]
    chance.shuffle(victims)
    game = play_through_kills(tmp_path, 0x5EC2E7ABCD17, 3, chance, victims)
    assert game.kills >= 2  # a victim may have just ended by itself: then it is restarted
    assert game.resent, "no action was resent: the kills tested nothing"


@pytest.mark.slow
@pytest.mark.parametrize("number", range(5))
def test_fifty_kills_over_five_games_lose_nothing_and_repeat_nothing(tmp_path, number):
    chance = random.Random(3000 + number)
    game = play_through_kills(tmp_path, 0x5EC2E7AB0000 + number, 10, chance)
    assert game.kills >= 8
    assert game.resent
