"""Whole games over a real Matrix homeserver: for the ``online`` tests and the bench.

:func:`play_over_matrix` registers fresh accounts (Synapse's shared-secret registration), starts
one referee and ``tables`` tables of Odysseus (two remote people and one computer seat each),
and lets every remote seat play from only what it receives (the game's policy on its own view
and legal actions) until every game is over.  It returns the referee, every message each
account received, and the round trips (an action sent until its ``ack`` came back).
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from game.engine.registry import controller_class
from game.engine.rng import Rng

from .client import Player
from .matrix import ROOMS_FILE, MatrixTransport, run_referee
from .referee import Referee
from .transport import send_all, serve

#: How long a player's sync waits for news before it asks again.
PLAYER_SYNC_MS = 10_000
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]


def choose(game: str, update: dict[str, Any]) -> dict[str, Any]:
    """A remote player's choice from its own update only (deterministic per step and seat)."""
    rng = Rng.derive(7, update["step"], update["seat"])
    choice = controller_class(game).policy(update["view"], update["legal"], rng)
    return choice if choice is not None else rng.choice(update["legal"])


class TimedReferee(Referee):
    """A referee that notes when it first handled each action (the bench splits each round
    trip there: player to referee, then referee to player)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: dict[str, float] = {}

    def handle(self, sender: str, message: Any, now: float) -> Any:
        if isinstance(message, dict) and message.get("kind") == "action":
            self.arrivals.setdefault(str(message.get("id")), now)
        return super().handle(sender, message, now)


class Recording(MatrixTransport):
    """A player's transport that keeps every message it received (for the privacy checks)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.received: list[dict[str, Any]] = []

    def receive(self) -> list[tuple[str, dict[str, Any]]]:
        out = super().receive()
        self.received.extend(message for _, message in out)
        return out


async def play_over_matrix(homeserver: str, shared_secret: str, saves: str | Path,
                           tables: int = 1, game: str = "odysseus", seed: int = 0x5EC2E7ABCD17,
                           max_seconds: float = 600.0,
                           restart_at: int | None = None, seats: list[dict] | None = None,
                           options: dict[str, Any] | None = None,
                           think: tuple[float, float] | None = None) -> dict[str, Any]:
    """Play; ``restart_at``: once the referee has applied that many actions in all, its process
    is "killed" (the referee and its connection dropped, their unsent answers lost) and a new
    one resumes from the saves folder and the room map.  ``seats`` (default: Ada and Cy
    remote, Bo a computer) and ``options`` set up each table.  ``think``: (least, most)
    seconds a remote player takes before each action (seeded per table, step and seat, as a
    person would); None: each acts the moment its turn arrives (the full-speed figure)."""
    from game.tools.synapse_local import register_with_secret
    saves = Path(saves)
    run = secrets.token_hex(3)
    password = secrets.token_hex(12)
    referee_id = register_with_secret(homeserver, shared_secret, f"ref{run}", password)
    ref_end = MatrixTransport(homeserver, referee_id, password, state=saves / ROOMS_FILE)
    await ref_end.login()
    referee = TimedReferee(saves, capacity=60, rate=30.0)
    seats = seats or [{"name": NAMES[0], "kind": "human"}, {"name": NAMES[1], "kind": "bot"},
                      {"name": NAMES[2], "kind": "human"}]
    people: list[tuple[str, Player, Recording]] = []
    table_ids = []
    for number in range(tables):
        accounts = [register_with_secret(homeserver, shared_secret, f"p{run}t{number}s{s}",
                                         password) if info["kind"] != "bot" else None
                    for s, info in enumerate(seats)]
        table, out = referee.open_table(game, seats, accounts, seed=seed + number,
                                        options=options)
        table_ids.append(table)
        await ref_end.open_table(table, accounts, referee.tables[table].match.title)
        send_all(ref_end, out)
        for account in accounts:
            if account:
                end = Recording(homeserver, account, password, referee=referee_id)
                await end.login()
                people.append((account, Player(end, referee_id), end))
    stop = asyncio.Event()
    trips: list[float] = []
    #: (sent, handled by the referee, ack received) per action that made the round trip.
    legs: list[tuple[str, float, float]] = []
    started = time.monotonic()
    deadline = started + max_seconds

    holder = {"referee": referee, "end": ref_end, "restarts": 0}

    def finished() -> bool:
        referee = holder["referee"]
        if not referee.lock.acquire(blocking=False):  # busy in its worker thread: not yet
            return False
        try:
            return all(referee.tables[t].match.is_over() for t in table_ids)
        finally:
            referee.lock.release()

    async def thought(end: Recording, key: tuple[str, int], update: dict[str, Any],
                      sent: dict[str, float], player: Player, busy: set) -> None:
        """Act after a think time (the sync meanwhile stays open: the action goes now)."""
        least, most = think or (0.0, 0.0)
        rng = Rng.derive(11, table_ids.index(key[0]), update["step"], key[1])
        await asyncio.sleep(least + (most - least) * rng.randbelow(1_000_000) / 1_000_000)
        busy.discard(key)
        sent[player.act(key[0], key[1], choose(game, update))] = time.monotonic()
        await end.flush()

    async def seat_loop(player: Player, end: Recording) -> None:
        sent: dict[str, float] = {}
        acted: dict[Any, Any] = {}
        thinking: set[asyncio.Task] = set()
        busy: set[tuple[str, int]] = set()  # (table, seat) thinking now
        seen = 0
        while not finished() and time.monotonic() < deadline:
            # Long-polls: a sync returns as soon as something arrives, so a short timeout
            # only adds idle requests (40 players at 1 s were 40 syncs a second).
            await end.pump(timeout_ms=PLAYER_SYNC_MS)
            player.poll()
            for ident in list(player.pending):  # unanswered for long: the referee restarted
                if time.monotonic() - sent.get(ident, 0) > 5.0:
                    end.send(referee_id, player.pending[ident])
                    sent[ident] = time.monotonic()
            for ack in player.acks[seen:]:
                if ack.get("id") in sent:
                    legs.append((ack["id"], sent[ack["id"]], time.monotonic()))
                    trips.append(time.monotonic() - sent.pop(ack["id"]))
            seen = len(player.acks)
            for key in player.my_turn():
                update = player.updates[key]
                if acted.get(key) is update or player.pending or key in busy:
                    continue
                acted[key] = update
                if think is None:
                    sent[player.act(key[0], key[1], choose(game, update))] = time.monotonic()
                else:
                    busy.add(key)
                    task = asyncio.create_task(thought(end, key, update, sent, player, busy))
                    thinking.add(task)
                    task.add_done_callback(thinking.discard)

    async def referee_loop() -> None:
        if restart_at is None:
            await run_referee(ref_end, referee, seconds=max_seconds, stop=stop)
            return
        while not stop.is_set() and time.monotonic() < deadline:
            end = holder["end"]
            await end.pump(timeout_ms=1_000)
            serve(holder["referee"], end, time.monotonic())
            done = sum(len(holder["referee"].tables[t].match.actions) for t in table_ids)
            if not holder["restarts"] and done >= restart_at:
                await end.close()  # killed: what it had not sent yet is lost
                holder["referee"], out = TimedReferee.resume(saves, capacity=60, rate=30.0)
                holder["end"] = MatrixTransport(homeserver, referee_id, password,
                                                state=saves / ROOMS_FILE)
                await holder["end"].login()
                send_all(holder["end"], out)
                holder["restarts"] += 1
        await holder["end"].flush()

    ref_task = asyncio.create_task(referee_loop())
    try:
        await asyncio.gather(*(seat_loop(p, e) for _, p, e in people))
    finally:
        stop.set()
        await ref_task
        for _, _, end in people:
            await end.close()
        await holder["end"].close()
    referee = holder["referee"]
    elapsed = time.monotonic() - started
    arrivals = referee.arrivals
    up = [arrivals[i] - t0 for i, t0, _ in legs if i in arrivals]
    down = [t1 - arrivals[i] for i, _, t1 in legs if i in arrivals]
    return {"referee": referee, "tables": table_ids, "seconds": elapsed, "trips": trips,
            "to_referee": up, "from_referee": down,
            "received": {account: end.received for account, _, end in people},
            "accounts": {account: i for i, (account, _, _) in enumerate(people)},
            "actions": sum(len(referee.tables[t].match.actions) for t in table_ids),
            "over": finished(), "restarts": holder["restarts"]}


def bench_main(tables: int = 20, think: tuple[float, float] | None = None) -> int:
    """``python -m game.bench --online``: prints the figures and writes bench-online.yaml
    (``--think LEAST,MOST``: remote players take a seeded think time before each action, a
    figure labelled as such; without it they act at once, the full-speed figure)."""
    import os
    import tempfile

    import yaml
    homeserver = os.environ.get("TABLETOP_TEST_HOMESERVER")
    secret = os.environ.get("TABLETOP_TEST_SHARED_SECRET")
    if not homeserver or not secret:
        print("bench --online: set TABLETOP_TEST_HOMESERVER and TABLETOP_TEST_SHARED_SECRET "
              "(python -m game.tools.synapse_local env DIR)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(play_over_matrix(homeserver, secret, tmp, tables=tables,
                                              max_seconds=1800 if think else 900, think=think))
    trips = result["trips"]
    figures = {"tables": tables,
               "players": (f"think {think[0]:g}-{think[1]:g} s before each action (seeded)"
                           if think else "act at once (full speed)"),
               "over": result["over"], "actions": result["actions"],
               "seconds": round(result["seconds"], 1),
               "actions_per_second": round(result["actions"] / result["seconds"], 1),
               "round_trips": len(trips),
               "round_trip_p50_s": round(percentile(trips, 0.5), 3),
               "round_trip_p95_s": round(percentile(trips, 0.95), 3),
               "round_trip_max_s": round(max(trips), 3) if trips else None,
               "to_referee_p50_s": round(percentile(result["to_referee"], 0.5), 3),
               "to_referee_p95_s": round(percentile(result["to_referee"], 0.95), 3),
               "from_referee_p50_s": round(percentile(result["from_referee"], 0.5), 3),
               "from_referee_p95_s": round(percentile(result["from_referee"], 0.95), 3),
               "load_average": [round(x, 2) for x in os.getloadavg()],
               "target_p95_s": 1.0}
    for key, value in figures.items():
        print(f"{key:22} {value}")
    Path("bench-online.yaml").write_text(yaml.safe_dump(figures, sort_keys=False))
    return 0 if result["over"] else 1


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


__all__ = ["play_over_matrix", "percentile", "choose", "bench_main"]
