"""One person's program at an online table, headless: the program's own online stack
(:class:`~game.online.session.OnlineService` signed in to a homeserver, the
:class:`~game.online.client.Player` it hands the table screens, and
:class:`~game.online.remote_table.RemoteTable` for the seat played here), with a chooser in
place of the person.  Two of these processes and two accounts are two people on two machines
(issue 30's "done when"; ``tests/test_online_duo.py``).

``host`` signs in, hosts the game (its own seat and the guest's, the others computers) and so
runs the referee; ``guest`` signs in, accepts the invitation and plays its seat.  Each chooses
only from its own seat's update (its view and legal actions: ``loadtest.choose``, the game's
Normal policy with a generator drawn from the step and seat), never from the match.
``--die-after N`` kills the process (SIGKILL) right after its N-th action left, mid-game; started
again with the same ``--home`` it signs in with the kept token, finds its table in the file it
wrote there and goes on (the host's referee resumes from its saves folder).  When the game is
over it writes ``--out``: the result, the public log and its seat's log as it saw them (the
host waits for the guest's file first, so the referee's last messages reach the guest).

    python -m game.online.duo host|guest --home DIR --homeserver URL --user U --password P
        --seat N --out FILE [--game G --kinds PBP --options JSON --guest @id:server
        --other-out FILE] [--die-after N]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from . import protocol

#: A game that shows no progress for this long has stalled (the process gives up, exit 3).
STALLED_SECONDS = 120.0
#: Ask the referee for this seat's update again, and resend what is unanswered, after this
#: long without news (a restart of either side may have lost a message in flight).
QUIET_SECONDS = 6.0


def _wait(what: str, done: Any, limit: float = 60.0) -> Any:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        value = done()
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit(f"duo: never happened: {what}")


def _write(path: Path, doc: dict[str, Any]) -> None:
    temp = path.with_suffix(".tmp")
    temp.write_text(json.dumps(doc), encoding="utf-8")
    os.replace(temp, path)


def run(args: argparse.Namespace) -> int:
    from .client import Player
    from .loadtest import choose
    from .remote_table import RemoteTable
    from .session import OnlineService

    home = Path(args.home)
    home.mkdir(parents=True, exist_ok=True)
    host = args.role == "host"
    service = OnlineService(home / "account.yaml", home / "referee", host=host).start()
    if not service.signed_in:
        service.command("sign_in", args.homeserver, args.user, args.password)
    _wait("signed in", lambda: service.tables is not None and service.user_id)
    me = service.user_id
    where = home / "table.json"
    if where.exists():  # came back: the same table
        known = json.loads(where.read_text(encoding="utf-8"))
        table_id, referee = known["table"], known["referee"]
    elif host:
        kinds = args.kinds
        seats = [{"name": f"{'Host' if s == args.seat else 'Guest' if k == 'P' else 'Bot'}"
                  f"{s + 1}", "kind": "human" if k == "P" else "bot"}
                 for s, k in enumerate(kinds)]
        accounts = [me if s == args.seat else args.guest if k == "P" else None
                    for s, k in enumerate(kinds)]
        service.command("host", args.game, seats, accounts,
                        json.loads(args.options) if args.options else {})
        hosted: list[Any] = []

        def was_hosted() -> Any:
            for item in service.take_notes():
                if item.kind == "hosted":
                    hosted.append(item.data["table"])
                elif item.kind == "error":
                    print("duo: service said:", item.text, file=sys.stderr, flush=True)
            return hosted
        table_id, referee = _wait("the game hosted", was_hosted)[0], me
        _write(where, {"table": table_id, "referee": referee})
    else:
        def invited() -> Any:
            service.take_notes()
            return service.invitations()
        for invitation in _wait("an invitation", invited):
            service.command("accept", invitation.room)

        def joined() -> Any:
            service.take_notes()
            return [t for t in service.table_list() if not t.hosted]
        info = _wait("the table joined", joined)[0]
        table_id, referee = info.table, info.referee
        _write(where, {"table": table_id, "referee": referee})

    player: Player = service.player(referee)
    seat = args.seat
    remote: RemoteTable | None = None
    acted = 0
    last_news, news_mark, asked_at = time.monotonic(), None, 0.0
    started = time.monotonic()
    while True:
        for item in service.take_notes():
            if item.kind == "error":
                print("duo: service said:", item.text, file=sys.stderr, flush=True)
        now = time.monotonic()
        if remote is None:
            player.poll()
            if RemoteTable.ready(player, table_id, [seat]):
                remote = RemoteTable(player, table_id, [seat])
        else:
            remote.poll()
        mark = (player.taken, remote.step if remote else None)
        if mark != news_mark:
            news_mark, last_news = mark, now
        if now - last_news > QUIET_SECONDS and now - asked_at > QUIET_SECONDS:
            asked_at = now
            player.sync(table_id, seat)  # also how a program that came back asks first
            player.resend()
        elif remote is None and now - asked_at > 2.0:
            asked_at = now
            player.sync(table_id, seat)
        if now - last_news > STALLED_SECONDS or now - started > 4 * STALLED_SECONDS:
            print(f"duo: stalled at {table_id}", file=sys.stderr, flush=True)
            service.stop()
            return 3
        if remote is None:
            time.sleep(0.05)
            continue
        if remote.is_over():
            break
        legal = remote.legal_actions(seat)
        if legal and not remote.pending:
            update = player.updates[(table_id, seat)]
            remote.act(seat, choose(remote.game_id, update))
            acted += 1
            if args.die_after and acted >= args.die_after:
                time.sleep(float(args.die_delay))
                os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.02)
    out = {"table": table_id, "seat": seat, "account": me,
           "result": protocol.to_wire(remote.result()),
           "public_log": protocol.to_wire(remote.log_for(None)),
           "seat_log": protocol.to_wire(remote.log_for(seat)),
           "step": player.updates[(table_id, seat)].get("step"), "acted": acted}
    _write(Path(args.out), out)
    if args.other_out:  # keep the referee up until the other side has seen the end
        end = time.monotonic() + 90
        while time.monotonic() < end and not Path(args.other_out).exists():
            service.take_notes()
            time.sleep(0.1)
    service.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.online.duo")
    parser.add_argument("role", choices=("host", "guest"))
    parser.add_argument("--home", required=True)
    parser.add_argument("--homeserver", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--game", default="odysseus")
    parser.add_argument("--kinds", default="PBP")
    parser.add_argument("--options", default="")
    parser.add_argument("--guest", default="")
    parser.add_argument("--other-out", default="")
    parser.add_argument("--die-after", type=int, default=0)
    parser.add_argument("--die-delay", default="0.0")
    args = parser.parse_args(argv)
    import logging
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
