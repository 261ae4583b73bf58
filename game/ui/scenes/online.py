"""Play online (issue 30): sign in, the list of online games and invitations, hosting a game.

The scenes are thin: they read :class:`game.online.session.OnlineService` (which does the
network in its own thread) in ``update`` and send it commands; nothing here waits for the
network.
"""

from __future__ import annotations

import time
from typing import Any

import pygame
import pygame_gui

from game.engine import IllegalAction, Match, controller_class
from game.engine.text import clean_text

from .. import online
from ..backdrop import backdrop
from ..look import px
from ..scene import Scene
from ..widgets import GOLD, MUTED, draw_text, wrap_text
from .setup import LEVEL_NAMES, SetupScene, parse_seed

ERROR = (255, 150, 140)
#: Where the list starts under the column's top (the buttons, then a status line).
LIST_TOP = 100
HOSTING = ("The host's computer deals and holds every secret of the game, as a dealer would: "
           "the others' programs get only what their seats may see.")


def play_online(app: Any) -> None:
    """The menu's Play online: sign in first, or the list of online games; a plain message
    when the online extra is not installed."""
    why = online.missing()
    if why:
        from .notice import NoticeScene
        app.push(NoticeScene(app, "Online play is not installed", why))
        return
    service = online.service(app)
    app.push(OnlineGamesScene(app) if service.signed_in else SignInScene(app))


def _title(surface: pygame.Surface, text: str) -> None:
    width, _height = surface.get_size()
    surface.blit(backdrop(surface.get_size()), (0, 0))
    draw_text(surface, text, (width / 2, px(60)), 40, GOLD, bold=True, anchor="center",
              shadow=True)


def _lines(surface: pygame.Surface, text: str, pos: tuple[int, int], width: int, size: int = 16,
           colour: Any = MUTED, bold: bool = False) -> int:
    """Draw ``text`` wrapped to ``width``; returns the y under it."""
    x, y = pos
    for line in wrap_text(text, size, width, bold=bold):
        draw_text(surface, line, (x, y), size, colour, bold=bold)
        y += px(size + 6)
    return y


class OnlineScene(Scene):
    """What the online scenes share: the service, and its news read each loop turn."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.service = online.service(app)
        self.message = ""
        self.message_error = False

    def update(self, dt: float) -> bool:
        notes = self.service.take_notes() if self.service is not None else []
        for note in notes:
            self.note(note)
        if notes:
            self.app.touch()
        return False

    def note(self, note: Any) -> None:
        if note.kind == "error":
            self.say(note.text, error=True)
        elif note.kind == "signed_out" and not isinstance(self, SignInScene):
            self.app.replace(SignInScene(self.app, why=note.text))

    def say(self, text: str, error: bool = False) -> None:
        self.message, self.message_error = text, error
        self.app.touch()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == online.ONLINE_EVENT:
            self.app.touch()
            return True
        return super().handle_event(event)

    def column(self) -> pygame.Rect:
        """The page's column: up to 900 pixels (at 100%) in the middle."""
        width, height = self.app.window_size
        inner = min(px(900), width - 2 * px(30))
        return pygame.Rect((width - inner) // 2, px(110), inner, height - px(110))


class SignInScene(OnlineScene):
    """Homeserver, user and password; only the access token is kept."""

    def __init__(self, app: Any, why: str = "") -> None:
        super().__init__(app)
        creds = self.service.homeserver if self.service else None
        self.fields = {"homeserver": creds or "matrix.org", "user": "", "password": ""}
        self.entries: dict[str, Any] = {}
        self.waiting = False
        if why:
            self.say(why, error=True)

    def build(self) -> None:
        column = self.column()
        label_width = px(170)
        inner = min(column.width, px(640))
        x = column.centerx - inner // 2
        y = column.y + px(60)
        for key, label, hint in (("homeserver", "Homeserver", "matrix.org"),
                                 ("user", "User", "@you:matrix.org or you"),
                                 ("password", "Password", "")):
            self.controls.label(pygame.Rect(x, y, label_width, px(40)), label)
            entry = self.controls.entry(pygame.Rect(x + label_width + px(10), y,
                                                    inner - label_width - px(10), px(40)),
                                        self.fields[key], hint)
            entry.set_text_length_limit(255)
            if key == "password":
                entry.set_text_hidden(True)
            self.entries[key] = entry
            y += px(52)
        buttons = pygame.Rect(x, y + px(20), (inner - px(20)) // 2, px(52))
        self.controls.button(buttons, "Sign in", self.sign_in, object_id="#primary",
                             enabled=not self.waiting)
        self.controls.button(buttons.move(buttons.width + px(20), 0), "Back", self.app.pop)
        self.controls.on_escape = self.app.pop
        first = next((key for key in ("homeserver", "user") if not self.fields[key].strip()),
                     "password")
        self.controls.focus_widget(self.entries[first])

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Enter in a box goes on to the next one; in the password box, signs in."""
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            boxes = list(self.entries.values())
            if event.ui_element in boxes:
                index = boxes.index(event.ui_element)
                if index + 1 < len(boxes):
                    self.controls.focus_widget(boxes[index + 1])
                elif not self.waiting:
                    self.sign_in()
                return True
        return super().handle_event(event)

    def _read(self) -> None:
        for key, entry in self.entries.items():
            if entry.alive():
                self.fields[key] = entry.get_text() if key == "password" \
                    else clean_text(entry.get_text(), 255)

    def rebuild(self) -> None:
        self._read()
        super().rebuild()

    def sign_in(self) -> None:
        from game.online.session import homeserver_url
        self._read()
        try:
            homeserver = homeserver_url(self.fields["homeserver"])
        except ValueError as exc:
            self.say(str(exc), error=True)
            return
        if not self.fields["user"].strip() or not self.fields["password"]:
            self.say("Type your user name and password.", error=True)
            return
        self.waiting = True
        self.say(f"Signing in to {homeserver}...")
        self.service.command("sign_in", homeserver, self.fields["user"].strip(),
                             self.fields["password"])
        self.fields["password"] = ""
        self.rebuild()

    def note(self, note: Any) -> None:
        if note.kind == "signed_in":
            self.app.replace(OnlineGamesScene(self.app))
            return
        if note.kind == "error" and self.waiting:
            self.waiting = False
            self.rebuild()
        super().note(note)

    def draw(self, surface: pygame.Surface) -> None:
        _title(surface, "Play online: sign in")
        column = self.column()
        inner = min(column.width, px(640))
        x = column.centerx - inner // 2
        _lines(surface, "Sign in with a Matrix account (any homeserver). Only a sign-in token "
               "is kept on this computer, never the password.", (x, column.y), inner)
        y = column.y + px(60) + 3 * px(52) + px(20) + px(52) + px(24)
        if self.message:
            _lines(surface, self.message, (x, y), inner,
                   colour=ERROR if self.message_error else MUTED)


class OnlineGamesScene(OnlineScene):
    """Your online tables (whose turn, since when), invitations, Host a game, Sign out."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.page = 0
        #: The table being opened (game/ui/online.Opening), until its screen shows.
        self.opening: Any = None
        self.rows: list[tuple[str, Any, pygame.Rect]] = []
        self.shown: tuple = ()
        #: Whether finished games are listed too (they stay reachable for their history).
        self.show_finished = False

    def finished(self) -> int:
        return sum(1 for info in self.service.table_list() if info.over)

    def entries(self) -> list[tuple[str, Any]]:
        service = self.service
        return ([("invite", inv) for inv in service.invitations()]
                + [("table", info) for info in service.table_list()
                   if self.show_finished or not info.over])

    def toggle_finished(self) -> None:
        self.show_finished = not self.show_finished
        self.page = 0
        self.rebuild()

    def row_lines(self, kind: str, item: Any, now: float) -> list[tuple[str, int, Any, bool]]:
        """One entry's lines (text, size, colour, bold), wrapped beside its buttons."""
        from game.online.session import turn_words
        width = self.text_width()
        if kind == "invite":
            parts = [(f"Invitation: {item.name}", 18, GOLD, True),
                     (f"from {item.inviter}", 15, MUTED, False)]
        else:
            head = f"{item.title} ({'you host it' if item.hosted else 'hosted by ' + item.referee})"
            parts = [(head, 18, GOLD if item.my_turn else (235, 235, 235), True),
                     (", ".join(item.seats), 15, MUTED, False),
                     (turn_words(item, now), 15, GOLD if item.my_turn else MUTED, False)]
            if item.away and not item.over:
                parts.append((f"Away from the table: {', '.join(item.away)}", 15, MUTED,
                              False))
        return [(line, size, colour, bold) for text, size, colour, bold in parts
                for line in wrap_text(text, size, width, bold=bold)]

    def text_width(self) -> int:
        return self.column().width - 2 * px(120) - px(30)

    def pages(self, entries: list) -> list[list[tuple[str, Any, list, int]]]:
        """The entries packed into pages that fit under the buttons: (kind, item, lines,
        height) each."""
        column = self.column()
        room = self.app.window_size[1] - px(12) - (column.y + px(LIST_TOP)) - px(56)
        now = time.time()
        pages: list[list] = [[]]
        used = 0
        for kind, item in entries:
            lines = self.row_lines(kind, item, now)
            height = max(px(52), sum(px(size + 6) for _t, size, _c, _b in lines)) + px(10)
            if pages[-1] and used + height > room:
                pages.append([])
                used = 0
            pages[-1].append((kind, item, lines, height))
            used += height
        return pages

    def build(self) -> None:
        column = self.column()
        width = (column.width - 3 * px(15)) // 4
        top = pygame.Rect(column.x, column.y, width, px(44))
        self.controls.button(top, "Host a game", self.host, object_id="#primary",
                             tooltip="Start a game here and invite others by their Matrix ID")
        finished = self.finished()
        self.controls.button(
            top.move(width + px(15), 0),
            "Hide finished" if self.show_finished else f"Show finished ({finished})",
            self.toggle_finished, enabled=finished > 0 or self.show_finished,
            tooltip=("List only the games in play" if self.show_finished else
                     "List the finished games too, with their results; open one to step "
                     "through its history") if finished or self.show_finished
            else "Not now: none of your online games has finished yet")
        self.controls.button(top.move(2 * (width + px(15)), 0), "Sign out", self.sign_out,
                             tooltip="Forget the sign-in kept on this computer")
        self.controls.button(top.move(3 * (width + px(15)), 0), "Back", self.app.pop)
        self.controls.on_escape = self.app.pop
        entries = self.entries()
        self.shown = self._summary(entries)
        pages = self.pages(entries) if entries else [[]]
        self.page = min(self.page, len(pages) - 1)
        self.rows = []
        button_width = px(120)
        y = column.y + px(LIST_TOP)
        for kind, item, lines, height in pages[self.page]:
            row = pygame.Rect(column.x, y, column.width, height - px(10))
            self.rows.append((kind, item, row, lines))
            place = pygame.Rect(row.right - button_width, row.y, button_width, px(44))
            if kind == "invite":
                self.controls.button(place.move(-button_width - px(10), 0), "Accept",
                                     lambda r=item.room: self.answer("accept", r))
                self.controls.button(place, "Decline",
                                     lambda r=item.room: self.answer("decline", r))
            else:
                self.controls.button(place, "Open", lambda i=item: self.open(i),
                                     object_id="#primary" if item.my_turn else None,
                                     tooltip=f"Play {item.title} (table {item.table})")
            y += height
        self.page_count = len(pages)
        if len(pages) > 1:
            bottom = self.app.window_size[1] - px(12) - px(44)
            half = pygame.Rect(column.x, bottom, px(160), px(44))
            self.controls.button(half, "Previous", lambda: self.turn(-1),
                                 enabled=self.page > 0)
            self.controls.button(half.move(column.width - px(160), 0), "Next",
                                 lambda: self.turn(1), enabled=self.page < len(pages) - 1)
        self.controls.move(1)

    def _summary(self, entries: list) -> tuple:
        """What the list shows, to rebuild it when that changes (the minutes too)."""
        now = time.time()
        return (self.show_finished, self.finished()) + tuple((
                     kind, getattr(item, "room", ""), getattr(item, "since", None),
                      tuple(getattr(item, "waiting", ())), tuple(getattr(item, "my_seats", ())),
                      tuple(self.row_lines(kind, item, now)))
                     for kind, item in entries)

    def turn(self, step: int) -> None:
        self.page += step
        self.rebuild()

    def open(self, info: Any) -> None:
        self.opening = online.open_table(self.app, info)
        if self.opening is not None:
            self.say(f"Opening {info.title}: asking the referee for your seat...")

    def update(self, dt: float) -> bool:
        super().update(dt)
        opening = self.opening
        if opening is not None:
            try:
                done = opening.poll()
            except Exception as exc:  # noqa: BLE001 - a table that cannot be shown is said
                self.opening = None
                self.say(f"{opening.info.title} cannot be shown: {exc}", error=True)
                return False
            if done:
                self.opening = None
                self.message = ""
                return False
            if opening.slow and not self.message_error:
                self.say(f"The referee of {opening.info.title} ({opening.info.referee}) has not "
                         "answered yet: its program may be closed. Still waiting...",
                         error=True)
        if self.service.signed_in and self._changed():
            self.rebuild()
        return False

    def _changed(self) -> bool:
        now = time.monotonic()
        if now < getattr(self, "_checked", 0.0):
            return False
        self._checked = now + 0.5  # the list's look is compared twice a second at most
        return self._summary(self.entries()) != self.shown

    def note(self, note: Any) -> None:
        if note.kind == "accepted":
            self.say("Joined: the game shows here once its referee's news arrives.")
        elif note.kind == "declined":
            self.say("Declined.")
            self.rebuild()
        elif note.kind == "hosted":
            self.say(f"Hosting {note.data['title']} (table {note.data['table']}): the others "
                     "are invited. This program referees it: the others can play while it "
                     "runs, and it goes on when you start the program again.")
        super().note(note)

    def answer(self, what: str, room: str) -> None:
        self.service.command(what, room)
        self.say("Accepting the invitation..." if what == "accept" else "Declining...")

    def host(self) -> None:
        self.app.push(HostScene(self.app))

    def sign_out(self) -> None:
        from .confirm import ConfirmScene

        def really() -> None:
            self.service.command("sign_out")
        hosted = self.service.referee is not None and bool(self.service.referee.tables)
        self.app.push(ConfirmScene(
            self.app, "Sign out?",
            "The sign-in kept on this computer is forgotten." + (
                " The games you host stay saved here and go on when you sign in again "
                "with the same account." if hosted else ""),
            "Sign out", really))

    def draw(self, surface: pygame.Surface) -> None:
        _title(surface, "Online games")
        column = self.column()
        who = self.service.user_id or ""
        if not self.rows:
            finished = self.finished() if who else 0
            text = (f"No online games in play; {finished} finished (Show finished lists "
                    "them)." if finished else "No online games yet. Host one, or ask a "
                    f"friend to invite {who}." if who else "Signing in...")
            _lines(surface, text, (column.x, column.y + px(LIST_TOP)), column.width)
        for _kind, _item, row, lines in self.rows:
            y = row.y
            for text, size, colour, bold in lines:
                draw_text(surface, text, (row.x, y), size, colour, bold=bold)
                y += px(size + 6)
        if getattr(self, "page_count", 1) > 1:
            draw_text(surface, f"Page {self.page + 1} of {self.page_count}",
                      (column.centerx, self.app.window_size[1] - px(12) - px(22)), 15, MUTED,
                      anchor="center")
        line = self.message or (f"Signed in as {who}" if who else "")
        if line:
            _lines(surface, line, (column.x, column.y + px(52)), column.width, 15,
                   colour=ERROR if self.message_error else MUTED)


class HostScene(OnlineScene, SetupScene):
    """The new-game page for an online game: each seat a person here, a remote player (by
    Matrix ID) or a computer.  The referee runs in this program."""

    heading = "Host an online game"
    KIND_HELP = "Press to switch between a person here, a remote player and a computer"
    offers_lesson = False
    KINDS = ("here", "remote", "bot")
    KIND_NAMES = {"here": "Here", "remote": "Remote", "bot": "Computer"}

    def __init__(self, app: Any, game_id: str | None = None) -> None:
        SetupScene.__init__(self, app, game_id)
        self.service = online.service(app)
        me = self.service.user_id if self.service else None
        if me:  # the host's seat is named after the account
            self.seats[0]["name"] = me[1:].split(":")[0][:24] or self.seats[0]["name"]
        self.message, self.message_error = "", False

    def _resize_seats(self, count: int) -> None:
        super()._resize_seats(count)
        for index, seat in enumerate(self.seats):
            seat.setdefault("where", "here" if seat["kind"] == "human" else "bot")
            if index == 1 and seat["where"] == "bot" and not seat.get("touched"):
                seat.update(kind="human", where="remote", name="")

    def kind_label(self, seat: dict[str, Any]) -> str:
        return self.KIND_NAMES[seat.get("where", "here")]

    def name_placeholder(self, index: int, seat: dict[str, Any]) -> str:
        return "@user:server" if seat.get("where") == "remote" else f"Player {index + 1}"

    def name_limit(self, seat: dict[str, Any]) -> int:
        return 255 if seat.get("where") == "remote" else super().name_limit(seat)

    def summary(self) -> str:
        return "Your computer deals and holds the secrets, as a dealer would."

    def _toggle_kind(self, index: int) -> None:
        seat = self.seats[index]
        where = self.KINDS[(self.KINDS.index(seat.get("where", "here")) + 1) % len(self.KINDS)]
        if where == "remote" or seat.get("where") == "remote":
            seat["name"] = ""
        seat.update(where=where, kind="bot" if where == "bot" else "human", touched=True)
        seat.setdefault("level", "normal")

    def start(self) -> None:
        from game.online.session import valid_matrix_id
        self._read_entries()
        me = self.service.user_id if self.service else None
        if not me:
            self.app.toast("Sign in first.", error=True)
            return
        try:
            seed = parse_seed(self.seed_text)
        except ValueError as exc:
            self.app.toast(str(exc), error=True)
            return
        seats, accounts = [], []
        for index, seat in enumerate(self.seats):
            where = seat.get("where", "here")
            if where == "remote":
                who = seat["name"].strip()
                if not valid_matrix_id(who):
                    self.app.toast(f"Seat {index + 1}: {who or 'the box'!r} is not a Matrix ID; "
                                   "type it as @user:server.", error=True, seconds=6)
                    return
                if who == me:
                    self.app.toast(f"Seat {index + 1}: that is you; make the seat Here.",
                                   error=True)
                    return
                name = who[1:].split(":")[0][:24] or f"Player {index + 1}"
                seats.append({"name": name, "kind": "human"})
                accounts.append(who)
            elif where == "bot":
                seats.append({"name": seat["name"], "kind": "bot",
                              "level": seat.get("level", "normal")})
                accounts.append(None)
            else:
                seats.append({"name": seat["name"], "kind": "human"})
                accounts.append(me)
        if "remote" not in [seat.get("where") for seat in self.seats]:
            self.app.toast("An online game needs at least one remote player (for a game at "
                           "this computer only, use New game).", error=True, seconds=6)
            return
        try:  # the same checks the referee makes, said here before anything is sent
            Match.new(self.game_id, [dict(s) for s in seats], seed=seed, options=self.options)
        except IllegalAction as exc:
            self.app.toast(str(exc), error=True)
            return
        self.service.command("host", self.game_id, seats, accounts, dict(self.options))
        self.app.pop()
        self.app.toast(f"Hosting {controller_class(self.game_id).title}: inviting the others...",
                       seconds=5)

    def update(self, dt: float) -> bool:
        return OnlineScene.update(self, dt)

    def draw(self, surface: pygame.Surface) -> None:
        SetupScene.draw(self, surface)


__all__ = ["play_online", "SignInScene", "OnlineGamesScene", "HostScene", "HOSTING",
           "LEVEL_NAMES"]
