"""``tabletop referee``: run the online tables headless (issue 30).

    tabletop referee --homeserver https://matrix.example.org --user @ref:example.org \\
        --password-file ~/.ref-password --saves ~/tables \\
        [--new odysseus --seat Ada=@ada:example.org --seat Bo=bot:hard --seat Cy=@cy:example.org]

It resumes every table found in the saves folder (after a stop or a crash), opens a new one
when ``--new`` is given (each ``--seat`` is NAME=ACCOUNT for a person or NAME=bot[:LEVEL] for a
computer player), makes the Matrix rooms and invitations, and referees until interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from game.engine.errors import IllegalAction
from game.engine.match import LEVELS


def add_arguments(sub: Any) -> None:
    """The ``referee`` command on ``game.app``'s parser."""
    cmd = sub.add_parser("referee", help="run online tables headless over a Matrix homeserver",
                         description=__doc__.splitlines()[0])
    cmd.add_argument("--homeserver", required=True, metavar="URL")
    cmd.add_argument("--user", required=True, metavar="ID", help="the referee's Matrix account")
    cmd.add_argument("--password-file", required=True, type=Path, metavar="FILE")
    cmd.add_argument("--saves", required=True, type=Path, metavar="DIR",
                     help="where the tables' autosaves and the room map are kept")
    cmd.add_argument("--new", metavar="GAME", help="open a table of this game")
    cmd.add_argument("--seat", action="append", default=[], metavar="NAME=ACCOUNT|bot[:LEVEL]")
    cmd.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    cmd.add_argument("--seconds", type=float, help="stop after this long (for tests)")


def parse_seat(text: str) -> tuple[dict[str, str], str | None]:
    """``NAME=@user:server`` or ``NAME=bot[:LEVEL]`` as (seat, account).

    >>> parse_seat("Ada=@ada:example.org")
    ({'name': 'Ada', 'kind': 'human'}, '@ada:example.org')
    >>> parse_seat("Bo=bot:hard")
    ({'name': 'Bo', 'kind': 'bot', 'level': 'hard'}, None)
    """
    name, sep, who = text.partition("=")
    if not sep or not name.strip() or not who.strip():
        raise ValueError(f"--seat {text!r}: write NAME=@user:server or NAME=bot[:LEVEL]")
    who = who.strip()
    if who == "bot" or who.startswith("bot:"):
        level = who.partition(":")[2] or "normal"
        if level not in LEVELS:
            raise ValueError(f"--seat {text!r}: the level must be one of {', '.join(LEVELS)}")
        return {"name": name.strip(), "kind": "bot", "level": level}, None
    if not (who.startswith("@") and ":" in who):
        raise ValueError(f"--seat {text!r}: {who!r} is not a Matrix account (@user:server)")
    return {"name": name.strip(), "kind": "human"}, who


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise ValueError(f"--option {text!r}: write KEY=VALUE")
    if value.lower() in ("yes", "true", "no", "false"):
        return key, value.lower() in ("yes", "true")
    return key, int(value) if value.lstrip("-").isdigit() else value


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="referee: %(message)s")
    logging.getLogger("nio").setLevel(logging.WARNING)
    say = lambda text: print(f"tabletop referee: {text}", file=sys.stderr)  # noqa: E731
    from .matrix import ROOMS_FILE, NetworkError, need_nio
    try:
        need_nio()
    except NetworkError as exc:
        say(str(exc))
        return 2
    try:
        password = args.password_file.read_text(encoding="utf-8").strip()
    except OSError as exc:
        say(f"cannot read the password file {args.password_file} ({exc.strerror or exc}).")
        return 2
    if not password:
        say(f"the password file {args.password_file} is empty.")
        return 2
    from .referee import Referee
    referee, greeting = Referee.resume(args.saves)
    if args.new:
        try:
            pairs = [parse_seat(text) for text in args.seat]
            options = dict(parse_option(text) for text in args.option)
            table, out = referee.open_table(args.new, [p[0] for p in pairs],
                                            [p[1] for p in pairs], options=options)
        except (ValueError, IllegalAction) as exc:
            say(str(exc))
            return 2
        greeting += out
        say(f"opened table {table} ({referee.tables[table].match.title}).")
    if not referee.tables:
        say(f"no tables in {args.saves}; open one with --new GAME --seat NAME=ACCOUNT ...")
        return 2
    return asyncio.run(_serve(args, password, referee, greeting, ROOMS_FILE, say))


async def _serve(args: argparse.Namespace, password: str, referee: Any, greeting: list,
                 rooms_file: str, say: Any) -> int:
    from .matrix import MatrixTransport, NetworkError, run_referee
    from .transport import send_all
    transport = MatrixTransport(args.homeserver, args.user, password,
                                state=args.saves / rooms_file)
    try:
        await transport.login()
        for table_id, table in referee.tables.items():
            await transport.open_table(table_id, table.accounts, table.match.title)
            say(f"table {table_id}: {table.match.title}, {table.match.status()}")
    except NetworkError as exc:
        say(str(exc))
        await transport.close()
        return 2
    send_all(transport, greeting)
    try:
        await run_referee(transport, referee, seconds=args.seconds)
    except (KeyboardInterrupt, asyncio.CancelledError):
        say("stopped; the tables are saved and resume when it starts again.")
    finally:
        await transport.close()
    return 0


__all__ = ["add_arguments", "run", "parse_seat"]
