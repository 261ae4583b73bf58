"""An online table as the play scene sees it: a :class:`~game.engine.table.Table` built only on
what the referee sends this program's seats (``game.online.client.Player``).

The referee holds the match; this program never has the seed, the controller or another
seat's view.  Everything a screen asks comes from the latest ``update`` of the seat asked
about (view, legal actions, log, whose turn, status, the end and its result) or from the
table's public ``table`` message (seats, options, the public view).  An action is sent with
:meth:`Player.act`; until the referee answers, ``pending`` says so (the panel shows it) and
no other action is sent; a refusal's reason comes back from :meth:`poll` and is shown like a
local refusal (the controls stay as they were meanwhile, so the panel does not jump; a second
action is refused with ``pending``'s words).  "Why not?" for an action that is not legal is
asked of the referee once per step (``why``/``why_kind``): meanwhile the answer is
:data:`~game.engine.table.ASKING`, and the answer's arrival changes ``step`` so the screen
asks again.  Undo and hints are asked of the referee too (``undo``/``hint``): it applies
hot-seat's undo rule (each update says whether the seat may undo now, or why not) and works a
hint out from the seat's own view, recording
the asking as hot-seat does; :meth:`ask_hint` sends the question and :meth:`take_hint` gives
the answer's action once it is here.

Open a game with ``PlayScene(app, table=RemoteTable(player, table_id, seats))`` once
:meth:`RemoteTable.ready` says the referee's ``table`` message and the seats' first updates
have arrived.  ``seats``: the seats people play at this screen (usually one; several share
the screen with the handover card between them).  Saving stays local: an online table has
none (the referee autosaves).
"""

from __future__ import annotations

import hashlib
from typing import Any

from game.engine.controller import Action, View
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.registry import controller_class
from game.engine.rng import Rng
from game.engine.table import ASKING, STEPS, Table

from .client import Player

#: What the panel's status line says while an action is on its way.
SENT = "Sent; waiting for the referee..."
#: ... while an undo asked for is on its way.
UNDOING = "Asked the referee to undo; waiting..."
#: What a screen says while a hint asked for is on its way.
HINTING = "Asking the referee for a hint..."


class News(str):
    """A line :meth:`RemoteTable.poll` has to show: ``kind`` "refused" (the referee's reason
    an action or a question was refused: shown as an error) or "notice" (news about the
    table -- a player left or came back, an undo was done: shown as information)."""

    kind = "refused"

    @classmethod
    def of(cls, text: str, kind: str) -> "News":
        news = cls(text)
        news.kind = kind
        return news


class RemoteTable(Table):
    """One online table, played at this screen for ``seats`` (see the module's text)."""

    local = False

    def __init__(self, player: Player, table_id: str, seats: list[int]) -> None:
        self.player, self.table_id = player, table_id
        info = player.tables.get(table_id) or {}
        if not info.get("game") or not info.get("seats"):
            raise IllegalAction("The referee has not sent this table yet.")
        self.game_id: str = info["game"]
        self.cls = controller_class(self.game_id)
        self.title: str = self.cls.title
        self._here = sorted(set(int(s) for s in seats))
        if not self._here or any(not 0 <= s < len(info["seats"]) for s in self._here):
            raise IllegalAction("Those seats are not at this table.")
        self._sent: str | None = None
        self._asked: set[tuple[int, int, str]] = set()
        #: Every log line taken in, with the seat's own lines marked for that seat only.
        self._log: list[Event] = []
        self._taken: dict[int, int] = {}
        self._refusals = len(player.refusals)
        self._notices = len(player.notices)
        self._mark: Any = None
        self._resets: dict[int, int] = {}
        #: Bumped whenever the merged log is built again (an undo took lines back).
        self.generation = 0
        self._undoing: tuple[int, int, int] | None = None
        self._hinting: dict[int, int] = {}
        self._asked_history: set[tuple[str, int, int]] = set()
        self._step = next(STEPS)
        self._fold()

    @staticmethod
    def ready(player: Player, table_id: str, seats: list[int]) -> bool:
        """Whether the table message and every seat's first update have arrived."""
        info = player.tables.get(table_id) or {}
        return bool(info.get("game") and info.get("seats")) and all(
            (table_id, s) in player.updates for s in seats)

    # ----------------------------------------------------------------- static data
    @property
    def _info(self) -> dict[str, Any]:
        return self.player.tables.get(self.table_id) or {}

    @property
    def seats(self) -> list[dict[str, Any]]:  # type: ignore[override]
        return self._info.get("seats") or []

    @property
    def options(self) -> dict[str, Any]:  # type: ignore[override]
        return self._info.get("options") or {}

    @property
    def here(self) -> list[int]:
        return list(self._here)

    # ------------------------------------------------------------------ the state
    def _update(self, seat: int | None) -> dict[str, Any] | None:
        if seat is None or seat not in self._here:
            return None
        return self.player.updates.get((self.table_id, seat))

    def _latest(self) -> dict[str, Any]:
        """The newest message about the whole table: a seat's update or the table's."""
        found = [self._info] + [u for u in (self._update(s) for s in self._here) if u]
        return max(found, key=lambda m: m.get("step", -1))

    @property
    def step(self) -> int:
        return self._step

    @property
    def pending(self) -> str | None:
        if self._undoing is not None:
            return UNDOING
        return SENT if self._sent is not None and self._sent in self.player.pending else None

    def to_act(self) -> list[int]:
        return list(self._latest().get("to_act") or [])

    def status(self) -> str:
        return str(self._latest().get("status") or "")

    def is_over(self) -> bool:
        return bool(self._latest().get("over"))

    def result(self) -> dict[str, Any] | None:
        return self._latest().get("result") if self.is_over() else None

    def away(self) -> list[str]:
        """The names of the players who left the table and have not come back (the
        referee's latest ``table`` message says; it keeps them across its restarts)."""
        return [str(name) for name in self._info.get("away") or []]

    def view(self, seat: int | None) -> View:
        update = self._update(seat)
        return update["view"] if update is not None else self._info.get("public_view") or {}

    def legal_actions(self, seat: int) -> list[Action]:
        update = self._update(seat)
        if update is None or seat not in (update.get("to_act") or []):
            return []
        return list(update.get("legal") or [])

    def log_for(self, seat: int | None) -> list[Event]:
        return [ev for ev in self._log if "@audience" not in ev or seat in ev["@audience"]]

    @property
    def log(self) -> list[Event]:
        return self._log

    def position(self, seat: int | None) -> Any:
        update = self._update(seat)
        return (update or {}).get("step"), self.generation

    def acted(self, seat: int) -> int:
        update = self._update(seat)
        return int(update.get("acted", 0)) if update is not None else 0

    # -------------------------------------------------------------------- reasons
    def _seat_reason(self, seat: int | None) -> str | None:
        """Why ``seat`` may not do anything from this screen now (None: it may ask)."""
        if seat is None:
            return "Nobody is at the screen yet."
        if seat not in self._here:
            return "That seat is played at another screen."
        return self.pending or None

    def _turn_reason(self, seat: int | None) -> str | None:
        reason = self._seat_reason(seat)
        if reason is not None:
            return reason
        if self.is_over():
            return "The game is over."
        to_act = self.to_act()
        if seat not in to_act:
            waiting = ", ".join(self.seats[s]["name"] for s in to_act)
            return (f"It is not {self.seats[seat]['name']}'s turn"
                    + (f"; waiting for {waiting}." if waiting else "."))
        return None

    def _ask(self, seat: int, action: Action | None, kind: str | None) -> str | None:
        update = self._update(seat) or {}
        step = int(update.get("step", 0))
        question = Player.question(action=action, kind=kind)
        answers = self.player.reasons.get((self.table_id, seat), {})
        if (step, question) in answers:
            return answers[(step, question)]
        if (step, seat, question) not in self._asked:
            self._asked.add((step, seat, question))
            self.player.why(self.table_id, seat, step, action=action, kind=kind)
        return ASKING

    def why_not(self, seat: int | None, action: Action) -> str | None:
        reason = self._turn_reason(seat)
        if reason is not None:
            return reason
        if action in self.legal_actions(seat):
            return None
        return self._ask(seat, action, None)

    def why_not_kind(self, seat: int | None, kind: str) -> str | None:
        reason = self._turn_reason(seat)
        if reason is not None:
            return reason
        if any(a.get("type") == kind for a in self.legal_actions(seat)):
            return None
        return self._ask(seat, None, kind)

    # -------------------------------------------------------------------- actions
    def act(self, seat: int, action: Action) -> None:
        if seat not in self._here:
            raise IllegalAction("That seat is played at another screen.")
        if self.pending:
            raise IllegalAction(self.pending)
        if self.is_over():
            raise IllegalAction("The game is over.")
        self._sent = self.player.act(self.table_id, seat, action)
        self._step = next(STEPS)
        return None

    def poll(self) -> list[News]:
        """Take in what arrived; the reasons of the refusals for this table and the referee's
        notices about it (a player left, came back, an undo), to show (:class:`News`)."""
        self.player.poll()
        if self._undoing is not None and (len(self.player.undone) > self._undoing[1]
                                          or len(self.player.refusals) > self._undoing[2]):
            self._undoing = None  # answered: undone, or refused (the reason is shown)
        refusals = self.player.refusals[self._refusals:]
        self._refusals = len(self.player.refusals)
        if any(r.get("id") is None and r.get("table") == self.table_id for r in refusals):
            self._hinting.clear()  # a question (hint, undo) refused: the reason is shown
        notices = self.player.notices[self._notices:]
        self._notices = len(self.player.notices)
        self._fold()
        return ([News.of(str(r.get("reason") or "The referee refused that."), "refused")
                 for r in refusals if r.get("table") in (self.table_id, "unknown")]
                + [News.of(str(n.get("text"))[:200], "notice") for n in notices
                   if n.get("table") == self.table_id and n.get("text")])

    def _fold(self) -> None:
        """Bring the merged log up to date; a new ``step`` when anything changed."""
        primary = self._here[0]
        resets = {s: self.player.resets.get((self.table_id, s), 0) for s in self._here}
        if resets != self._resets:  # a seat's log was sent again from an earlier line
            self._resets = resets
            self._log, self._taken = [], {}
            self.generation += 1
        for seat in self._here:
            key = (self.table_id, seat)
            lines = self.player.logs.get(key, [])
            flags = self.player.private.get(key, [])
            taken = self._taken.get(seat, 0)
            if len(lines) < taken:  # resent from the start: take the whole log again
                self._log, self._taken = [], {}
                self.generation += 1
                return self._fold()
            for index in range(taken, len(lines)):
                own = index < len(flags) and flags[index]
                if own:
                    self._log.append({**lines[index], "@audience": [seat]})
                elif seat == primary:
                    self._log.append(lines[index])
            self._taken[seat] = len(lines)
        mark = (self.player.taken, len(self._log), self._sent,
                self._sent in self.player.pending, self._undoing, self.generation)
        if mark != self._mark:
            self._mark = mark
            self._step = next(STEPS)

    # ----------------------------------------------------------------------- chat
    def chat_lines(self, arrival: bool = False) -> list[dict[str, Any]]:
        """This table's chat lines, oldest first (``arrival``: in the order they arrived --
        lines read from the room's past come after newer ones): ``by`` (the speaker's seat
        names, or a Matrix account's name), ``seats`` (their seats: a screen draws the
        marks), ``text``, ``mine`` (said from this screen's seats) and ``ts`` (when the
        homeserver took it, or None)."""
        here = set(self._here)
        lines = [{"by": str(m.get("by") or "Someone"), "text": str(m.get("text") or ""),
                  "seats": [s for s in m.get("seats") or [] if isinstance(s, int)
                            and 0 <= s < len(self.seats)],
                  "mine": bool(here & set(m.get("seats") or [])),
                  "ts": m.get("ts") if isinstance(m.get("ts"), (int, float)) else None}
                 for m in self.player.chat if m.get("table") == self.table_id]
        if arrival or all(line["ts"] is None for line in lines):
            return lines
        known = [line["ts"] for line in lines if line["ts"] is not None]
        last = 0.0
        for line in lines:  # a line without a time keeps its place after the one before
            last = line["ts"] if line["ts"] is not None else max(last, min(known))
            line["order"] = last
        lines.sort(key=lambda line: line.pop("order"))
        return lines

    def say(self, text: str) -> str | None:
        """Send ``text`` to the table's chat; the reason it cannot be sent (empty, too long,
        control characters), or None.  The referee may still refuse it (too fast): that
        comes back like any refusal."""
        from .protocol import MAX_CHAT
        text = text.strip()
        if not text:
            return "Type something to say first."
        if len(text) > MAX_CHAT:
            return f"A chat line may hold at most {MAX_CHAT} characters ({len(text)} typed)."
        if any(ord(c) < 32 for c in text):
            return "A chat line may not hold control characters."
        self.player.say(self.table_id, text)
        return None

    # ----------------------------------------------------------------------- undo
    def can_undo(self, seat: int | None) -> bool:
        return self.undo_refusal(seat) is None

    def undo_refusal(self, seat: int | None) -> str | None:  # type: ignore[override]
        """Why ``seat`` may not undo now (None: it may), from the referee's latest update
        for the seat (hot-seat's rule, applied there)."""
        reason = self._seat_reason(seat)
        if reason is not None:
            return reason
        update = self._update(seat)
        if update is None:
            return "The referee has not sent this seat's state yet."
        if "undo" not in update:
            return "The referee's program is too old to undo online."
        return update["undo"]

    def undo(self, seat: int | None = None) -> None:
        """Ask the referee to take back ``seat``'s last action (the answer comes later)."""
        if seat is None:
            seat = next((s for s in self._here if self.can_undo(s)), self._here[0])
        reason = self.undo_refusal(seat)
        if reason is not None:
            raise IllegalAction(reason)
        update = self._update(seat) or {}
        self.player.undo(self.table_id, seat, int(update.get("step", 0)))
        self._undoing = (seat, len(self.player.undone), len(self.player.refusals))
        self._step = next(STEPS)

    # ---------------------------------------------------------------------- hints
    def ask_hint(self, seat: int) -> None:
        """Ask the referee for ``seat``'s hint at this step (see :meth:`take_hint`)."""
        if seat not in self._here:
            raise IllegalAction("That seat is played at another screen.")
        update = self._update(seat) or {}
        step = int(update.get("step", 0))
        self.player.hints.pop((self.table_id, seat), None)
        self._hinting[seat] = step
        self.player.hint(self.table_id, seat, step)

    def history_at(self, seat: int, step: int) -> dict[str, Any] | None:
        """The game after ``step`` actions as ``seat`` saw it (``views``, ``log``, ``status``,
        ``actor``; everything once the game is over), from the referee: None until its
        answer is here (asked once; ``step`` changes when it comes)."""
        key = (self.table_id, seat, step)
        answer = self.player.history.get(key)
        if answer is None and key not in self._asked_history:
            self._asked_history.add(key)
            self.player.ask_history(self.table_id, seat, step)
        return answer

    def take_hint(self, seat: int) -> Action | None:
        """The hinted action for ``seat``, once, when the referee's answer to
        :meth:`ask_hint` is here (and the update that recorded the asking with it)."""
        if seat not in self._hinting:
            return None
        answer = self.player.hints.get((self.table_id, seat))
        update = self._update(seat) or {}
        if answer is None or answer.get("step") != update.get("step"):
            return None
        del self._hinting[seat]
        self.player.hints.pop((self.table_id, seat), None)
        return answer.get("action")

    def hinting(self, seat: int) -> bool:
        """Whether a hint asked for ``seat`` is still on its way (a refusal ends it)."""
        return seat in self._hinting

    def drop_hint(self, seat: int) -> None:
        self._hinting.pop(seat, None)

    def hint_rng(self, seat: int) -> Rng:
        """From the table id, the seat and its step: never the match's seed."""
        update = self._update(seat) or {}
        digest = hashlib.sha256(f"{self.table_id}:{seat}:{update.get('step', 0)}".encode())
        return Rng(int.from_bytes(digest.digest()[:6], "big"))


__all__ = ["RemoteTable", "News", "SENT", "UNDOING", "HINTING"]
