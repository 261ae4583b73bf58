"""The program's online service (issue 30): one per window, made on first use.

:class:`game.online.session.OnlineService` runs the network in a background thread; here it is
given the program's folders and a ``notify`` that posts :data:`ONLINE_EVENT`, so an idle loop
wakes when something arrives (the online scenes read the service in ``update``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame

from . import paths

#: Posted by the network thread when something arrived (the scenes read the service then).
ONLINE_EVENT = pygame.event.custom_type()
#: The kept sign-in (an access token, never a password), beside the settings file.
CREDENTIALS_FILE = "online-account.yaml"
#: What talks to the homeserver (None: :class:`game.online.session.Session`), and whether this
#: program runs the referee of the games it hosts; tests give a fake session and no referee.
SESSION_FACTORY: Any = None
HOSTING = os.environ.get("TABLETOP_ONLINE_HOST", "1") != "0"


def credentials_path() -> Path:
    return paths.settings_path().parent / CREDENTIALS_FILE


def referee_dir() -> Path:
    """Where the games this program hosts are kept (its referee's saves): the saves folder's
    ``online`` subfolder (``$TABLETOP_SAVES/online`` in tests)."""
    return paths.saves_dir() / "online"


def _notify() -> None:
    if pygame.get_init():
        try:
            pygame.event.post(pygame.event.Event(ONLINE_EVENT))
        except pygame.error:
            pass


def missing() -> str | None:
    """Why online play is not available (matrix-nio missing, how to install), or None."""
    try:
        from game.online.session import nio_missing
    except ImportError as exc:  # pragma: no cover - a broken install
        return f"Online play is not available: {exc}"
    return nio_missing()


def service(app: Any, start: bool = True) -> Any:
    """The window's online service (started, and signed in again with a kept sign-in, which
    resumes the games this program hosts), or None when online play is not available."""
    existing = getattr(app, "online", None)
    if existing is not None or not start:
        return existing
    if missing():
        return None
    from game.online.session import OnlineService
    app.online = OnlineService(credentials_path(), referee_dir(), notify=_notify,
                               session_factory=SESSION_FACTORY, host=HOSTING)
    app.online.start()
    return app.online


def resume_hosted(app: Any) -> None:
    """At start-up: when a sign-in is kept, start the service so the games hosted here go on
    (their referee runs in this program)."""
    if getattr(app, "online", None) is None and credentials_path().exists() and not missing():
        service(app)


class Opening:
    """An online table being opened: its seats' first updates asked for; :meth:`poll` (each
    loop turn) shows the play screen once they and the table's message are here."""

    #: Loop turns to wait before saying the referee has not answered (the host's program may
    #: be closed; the wait goes on).
    PATIENCE = 600

    def __init__(self, app: Any, info: Any, player: Any, table_cls: Any) -> None:
        self.app, self.info, self.player, self.table_cls = app, info, player, table_cls
        self.turns = 0
        for seat in info.my_seats:
            player.sync(info.table, seat)
        # The chat said before this program started is in the table's room: read it.
        app.online.command("chat_history", info.table)

    @property
    def slow(self) -> bool:
        return self.turns > self.PATIENCE

    def poll(self) -> bool:
        """Whether the play screen was shown (then this opening is done)."""
        self.turns += 1
        player, table = self.player, self.info.table
        player.poll()
        if not (player.tables.get(table) or {}).get("game"):
            message = self.app.online.table_message(table)
            if message is not None:
                player.tables[table] = {**message, **player.tables.get(table, {})}
        if not self.table_cls.ready(player, table, list(self.info.my_seats)):
            return False
        from .scenes.play import PlayScene
        self.app.push(PlayScene(self.app, table=self.table_cls(player, table,
                                                               list(self.info.my_seats))))
        return True


def open_table(app: Any, info: Any) -> Opening | None:
    """Start opening the online table ``info`` (a :class:`~game.online.session.TableInfo`);
    the caller polls the :class:`Opening`.  None, with a clear message (not a crash), while
    this program has no remote table screen or the seats here are not known yet."""
    online = service(app)
    try:
        from game.online.remote_table import RemoteTable
    except ImportError:
        app.toast("Playing an online table on this screen is not available in this version "
                  "yet; the list shows whose turn it is.", error=True, seconds=7)
        return None
    if not info.my_seats:
        app.toast("Your seat at this table is not known yet (the referee's first news has not "
                  "arrived); try again in a moment.", error=True, seconds=6)
        return None
    return Opening(app, info, online.player(info.referee), RemoteTable)
