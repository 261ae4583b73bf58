"""A loopback network in a folder, and the referee's and players' processes on it (issue 30).

For the tests that kill real processes with SIGKILL at random moments (``tests/
test_online_kills.py``): the network must outlive them, as a Matrix room does.  Each account
has an inbox folder of numbered message files (``000000042.json``): a sender writes a hidden
temporary file and links it to the next free number, so a file is seen whole or not at all,
numbers run without gaps, and what one sender sends keeps its order.  A reader keeps a cursor
(the next number), like a Matrix sync token.

    python -m game.online.filenet referee ROOT      # the saves in ROOT/saves, resumed
    python -m game.online.filenet player ROOT ACCOUNT

The referee saves its cursor only after the referee handled (and saved) what came before it,
exactly as :class:`~game.online.matrix.MatrixTransport` keeps its sync token: killed between
the two, it reads those messages again and the action ids make that harmless.  A player keeps
its unanswered actions, and the step it last acted at per seat, in ``ROOT/ACCOUNT.yaml``,
written before an action leaves; it reads its inbox from the start when it comes back (a
fresh sync), resends what is unanswered and never acts twice on the same step.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from game.engine.saves import read_yaml, write_yaml_atomic

from .protocol import split
from .referee import TABLE
from .transport import Transport

REFEREE = "@referee:loopback"
#: A player resends an action unanswered this long (the referee was killed meanwhile), and
#: asks for its update again when it has waited this long on a step it already acted at.
RESEND_SECONDS = 1.0
POLL_SECONDS = 0.01


def folder_name(account: str) -> str:
    return hashlib.sha256(account.encode()).hexdigest()[:16]


class FolderTransport(Transport):
    """One account's end of the folder network.  ``members``: table id -> its accounts (the
    referee's end, to send to :data:`TABLE`); ``cursor``: where this end's cursor is kept."""

    def __init__(self, root: str | Path, account: str,
                 members: dict[str, list[str | None]] | None = None,
                 cursor: str | Path | None = None) -> None:
        self.root, self.account = Path(root), account
        self.members = members or {}
        self.cursor_path = Path(cursor) if cursor else None
        self.inbox = self.root / folder_name(account)
        self.inbox.mkdir(parents=True, exist_ok=True)
        self.cursor = 0
        if self.cursor_path is not None and self.cursor_path.exists():
            self.cursor = int(self.cursor_path.read_text(encoding="ascii") or 0)
        self.next: dict[str, int] = {}

    def send(self, recipient: str, message: dict[str, Any]) -> None:
        targets = ([a for a in self.members.get(message.get("table", ""), []) if a]
                   if recipient == TABLE else [recipient])
        for piece in split(message):
            text = json.dumps({"from": self.account, "message": piece},
                              separators=(",", ":"))
            for target in targets:
                self._append(target, text)

    def _append(self, target: str, text: str) -> None:
        folder = self.root / folder_name(target)
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{os.getpid()}-{time.monotonic_ns()}.tmp"
        tmp.write_text(text, encoding="utf-8")
        number = self.next.get(target, 0)
        try:
            while True:
                try:
                    os.link(tmp, folder / f"{number:09d}.json")
                    break
                except FileExistsError:
                    number += 1
        finally:
            tmp.unlink()
        self.next[target] = number + 1

    def receive(self) -> list[tuple[str, dict[str, Any]]]:
        out = []
        while True:
            try:
                doc = json.loads((self.inbox / f"{self.cursor:09d}.json").read_text("utf-8"))
            except FileNotFoundError:
                return out
            out.append((doc["from"], doc["message"]))
            self.cursor += 1

    def commit(self) -> None:
        """Keep the cursor (after what was read has been handled)."""
        if self.cursor_path is not None:
            tmp = self.cursor_path.with_suffix(".tmp")
            tmp.write_text(str(self.cursor), encoding="ascii")
            os.replace(tmp, self.cursor_path)


def members_of(referee: Any) -> dict[str, list[str | None]]:
    return {table_id: list(table.accounts) for table_id, table in referee.tables.items()}


def run_referee(root: Path) -> int:
    """The referee's process: resume from ROOT/saves, then serve until killed."""
    from .referee import Referee
    from .transport import send_all, serve
    referee, greeting = Referee.resume(root / "saves", capacity=1000, rate=1000.0)
    net = FolderTransport(root, REFEREE, members_of(referee), root / "referee.cursor")
    send_all(net, greeting)
    while True:
        arrived = serve(referee, net, time.monotonic())
        net.commit()
        if not arrived:
            time.sleep(POLL_SECONDS)


def run_player(root: Path, account: str, choose: Any = None) -> int:
    """A player's process: plays its seats from only what it receives, until every one of its
    games is over.  ``choose(game, update)`` picks an action (the load test's policy)."""
    from .client import Player
    if choose is None:
        from .loadtest import choose
    state_path = root / f"{folder_name(account)}.yaml"
    state = read_yaml(state_path) if state_path.exists() else {}
    acted: dict[str, int] = dict(state.get("acted") or {})
    player = Player(FolderTransport(root, account), REFEREE)
    player.pending = dict(state.get("pending") or {})

    def journal(_: Player) -> None:
        write_yaml_atomic(state_path, {"pending": player.pending, "acted": acted})

    player.journal = journal
    waited: dict[str, float] = {}
    last_send = time.monotonic()
    player.resend()
    while True:
        arrived = player.poll()
        now = time.monotonic()
        if player.pending and now - last_send > RESEND_SECONDS:
            player.resend()
            last_send = now
        if player.updates and all(up.get("over") for up in player.updates.values()):
            return 0
        for key in player.my_turn():
            table, seat = key
            update = player.updates[key]
            name = f"{table}:{seat}"
            if any(p["seat"] == seat and p["table"] == table for p in player.pending.values()):
                continue
            if update["step"] <= acted.get(name, -1):  # acted on it: wait for what follows
                if now - waited.setdefault(name, now) > RESEND_SECONDS:
                    player.sync(table, seat)
                    waited[name] = now
                continue
            waited.pop(name, None)
            acted[name] = update["step"]
            player.act(table, seat, choose(update["game"], update))
            last_send = now
        if not arrived:
            time.sleep(POLL_SECONDS)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) == 2 and argv[0] == "referee":
        return run_referee(Path(argv[1]))
    if len(argv) == 3 and argv[0] == "player":
        return run_player(Path(argv[1]), argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
