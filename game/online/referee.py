"""The referee of online tables: it alone holds each match (seed, secrets, actions).

Pure of the network: :meth:`Referee.handle` takes one message from one account (with the time,
read by the caller: there is no clock in here) and returns the messages to send, as
``(recipient, message)`` pairs; a recipient is an account id (that account's private room with
the referee) or :data:`TABLE` (the table's public room).  The transport delivers them.

What it guarantees, whatever arrives:

- every action is validated by the game's controller (``Match.act``); a refusal has the
  controller's readable reason;
- an action is applied once: its id (made by the sender) is remembered with the step it made;
  the same id again gets the same answer, applied nothing; the ids are written beside the
  autosave BEFORE it (see :meth:`Referee._persist`), so after a restart an action resent is
  still applied once;
- only the account bound to a seat plays it; malformed, oversized, unknown or version-mismatched
  messages are refused with a reason; an account sending too fast (a token bucket counted in
  messages) is told once and then ignored until it slows down;
- each seat receives only :func:`protocol.seat_update` (its own view, legal actions, log
  lines); the table only :func:`protocol.table_update` (public);
- computer seats are played here by ``game.engine.bots`` at their seat's level;
- it never raises out of :meth:`handle`: an unexpected fault is logged and answered.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine.bots import choose_action
from game.engine.errors import IllegalAction, SaveError
from game.engine.match import Match
from game.engine.saves import (autosave_name, load_match, new_match_id, read_yaml,
                               save_match, write_yaml_atomic)

from . import protocol
from .protocol import BadMessage, check_incoming, stamp

log = logging.getLogger(__name__)

#: The recipient that means "the table's public room".
TABLE = "#table"
#: The file beside an autosave that binds seats to accounts and lists the applied action ids.
TABLE_PREFIX = "online-"
TABLE_FORMAT = "tabletop-online-table"
TABLE_VERSION = 1
#: Refused action ids remembered (same answer when resent), per table.
MAX_REFUSED = 512
#: Computer actions in a row the referee plays before answering (a bound, never reached).
MAX_BOT_RUN = 10_000
#: Chat lines an account may send at once, and how many more a second after that.
CHAT_BURST = 5
CHAT_RATE = 0.25
MAX_CHAT_IDS = 64
CHAT_FLOOD = ("You are chatting too fast: that line was not sent. Wait a few seconds "
              "before the next one.")

Outgoing = list[tuple[str, dict[str, Any]]]


@dataclass
class Bucket:
    """A token bucket counted in messages: ``capacity`` at once, ``rate`` more per second."""

    capacity: float
    rate: float
    tokens: float
    last: float | None = None
    warned: bool = False

    def take(self, now: float) -> bool:
        if self.last is not None and now > self.last:
            self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now if self.last is None else max(self.last, now)
        if self.tokens >= 1:
            self.tokens -= 1
            self.warned = False
            return True
        return False


@dataclass
class Table:
    """One match and who plays it."""

    table_id: str
    match: Match
    #: seat -> account id (a person's seat) or None (a computer seat).
    accounts: list[str | None]
    #: action id -> [seat, step after it] for every action applied.
    applied: dict[str, list[int]] = field(default_factory=dict)
    refused: "OrderedDict[str, str]" = field(default_factory=OrderedDict)
    #: seat -> how many of its log lines it has been sent; the table's public count.
    sent_log: dict[int, int] = field(default_factory=dict)
    public_log: int = 0
    #: seat -> digest of the last update sent (an unchanged seat is not sent it again).
    digest: dict[int, str] = field(default_factory=dict)
    #: (step, seat, question) -> the answer to a ``why``/``why_kind`` (this step's only).
    reasons: dict[tuple[int, int, str], str | None] = field(default_factory=dict)
    #: the accounts that left the table's rooms and have not come back (kept beside the
    #: save, so a restarted referee still knows who is away).
    away: set[str] = field(default_factory=set)
    #: (actions when made, History of the match) for ``history`` questions.
    history: Any = None
    #: The ids of the latest chat lines said (kept beside the save): a line read again after
    #: a restart is not said twice.
    chat_ids: list[str] = field(default_factory=list)

    def seats_of(self, account: str) -> list[int]:
        return [seat for seat, who in enumerate(self.accounts) if who == account]

    def name(self, seat: int) -> str:
        return self.match.seats[seat]["name"]


class Referee:
    """Holds matches keyed by table id; see the module's text."""

    def __init__(self, saves: str | Path | None = None, capacity: float = 30,
                 rate: float = 10.0, program: str | None = None) -> None:
        self.saves = Path(saves) if saves is not None else None
        self.capacity, self.rate = float(capacity), float(rate)
        self.program = program or protocol.program_version()
        self.tables: dict[str, Table] = {}
        self.buckets: dict[str, Bucket] = {}
        #: A second, slower bucket per account for chat lines (people read them).
        self.chat_buckets: dict[str, Bucket] = {}
        #: Held while a message is handled or a table opened: a program that hands the
        #: referee's work (and its saves' disk writes) to a worker thread, so that its network
        #: loop goes on meanwhile, may still call it from that loop.
        self.lock = threading.RLock()

    # ------------------------------------------------------------------ tables
    def open_table(self, game_id: str, seats: list[dict[str, Any]],
                   accounts: list[str | None], seed: int | None = None,
                   options: dict[str, Any] | None = None,
                   table_id: str | None = None) -> tuple[str, Outgoing]:
        """Start a match; ``accounts[i]`` is the account playing seat ``i`` (None for a
        computer seat).  Returns the table id and the first messages.  Raises IllegalAction
        (a readable reason) for a bad game, seat list or binding."""
        with self.lock:
            return self._open_table(game_id, seats, accounts, seed, options, table_id)

    def _open_table(self, game_id: str, seats: list[dict[str, Any]],
                    accounts: list[str | None], seed: int | None,
                    options: dict[str, Any] | None, table_id: str | None) -> tuple[str, Outgoing]:
        table_id = table_id or new_match_id()
        if not protocol.TABLE_ID.match(table_id) or table_id in self.tables:
            raise IllegalAction(f"The table id {table_id!r} is taken or malformed.")
        match = Match.new(game_id, seats, seed=seed, options=options)
        if len(accounts) != len(match.seats):
            raise IllegalAction("Every seat needs an account (or None for a computer seat).")
        for seat, (info, who) in enumerate(zip(match.seats, accounts)):
            if (info["kind"] == "bot") != (who is None):
                raise IllegalAction(f"Seat {seat + 1} ({info['name']}): a person's seat needs "
                                    "an account, a computer's none.")
            if who is not None and (not isinstance(who, str) or not who or who == TABLE):
                raise IllegalAction(f"Seat {seat + 1} has no usable account id.")
        match.match_id = table_id
        table = Table(table_id, match, list(accounts))
        self.tables[table_id] = table
        self._play_bots(table)
        self._persist(table)
        return table_id, self.greet(table_id)

    def greet(self, table_id: str) -> Outgoing:
        """Every seat's whole update and the table's whole state (at the start, after a
        restart): each program replaces what it had from ``log_from`` 0."""
        table = self.tables[table_id]
        table.sent_log.clear()
        table.digest.clear()
        table.public_log = 0
        return self._updates(table)

    @classmethod
    def resume(cls, saves: str | Path, **kwargs: Any) -> tuple["Referee", Outgoing]:
        """A referee with every table found in ``saves`` (after a crash or a restart), and the
        messages that bring every seat up to date.  A table whose files cannot be read is
        logged and left out (its files stay)."""
        referee = cls(saves, **kwargs)
        out: Outgoing = []
        for path in sorted(Path(saves).glob(f"{TABLE_PREFIX}*.yaml")):
            try:
                table = referee._load_table(path)
            except (SaveError, IllegalAction, ValueError, KeyError, TypeError) as exc:
                log.error("online table %s could not be resumed: %s", path, exc)
                continue
            referee.tables[table.table_id] = table
            if referee._play_bots(table):
                referee._persist(table)
            out += referee.greet(table.table_id)
        return referee, out

    def _load_table(self, path: Path) -> Table:
        doc = read_yaml(path)
        if not isinstance(doc, dict) or doc.get("format") != TABLE_FORMAT:
            raise ValueError("not an online table file")
        if doc.get("version") != TABLE_VERSION:
            raise ValueError(f"online table file version {doc.get('version')!r} is not "
                             f"{TABLE_VERSION}")
        table_id = doc["table"]
        if not isinstance(table_id, str) or not protocol.TABLE_ID.match(table_id):
            raise ValueError("bad table id")
        match = load_match(path.parent / autosave_name(doc["game"], table_id))
        match.match_id = table_id
        accounts = doc["accounts"]
        if not isinstance(accounts, list) or len(accounts) != len(match.seats):
            raise ValueError("the accounts do not fit the seats")
        applied = {}
        for ident, (seat, step) in dict(doc.get("applied") or {}).items():
            # Written before the save: an id whose step the save does not hold was lost with
            # its action (the sender resends it and it is applied then).
            if (isinstance(step, int) and 1 <= step <= len(match.actions)
                    and match.actions[step - 1]["seat"] == seat):
                applied[str(ident)] = [seat, step]
        away = {str(a) for a in doc.get("away") or [] if a in accounts}
        chat_ids = [str(i) for i in doc.get("chat_ids") or []][-MAX_CHAT_IDS:]
        return Table(table_id, match, list(accounts), applied, away=away, chat_ids=chat_ids)

    def _persist(self, table: Table, match_too: bool = True) -> None:
        """The ids beside the save first, then the save (both atomic): a crash between the two
        leaves an id whose step the save lacks, which resuming drops (see _load_table)."""
        if self.saves is None:
            return
        match = table.match
        doc = {"format": TABLE_FORMAT, "version": TABLE_VERSION, "table": table.table_id,
               "game": match.game_id, "program": self.program,
               "accounts": table.accounts, "applied": table.applied,
               "away": sorted(table.away), "chat_ids": list(table.chat_ids)}
        try:
            write_yaml_atomic(self.saves / f"{TABLE_PREFIX}{table.table_id}.yaml", doc)
            if match_too:
                save_match(match, self.saves / autosave_name(match.game_id, table.table_id))
        except SaveError as exc:  # the match goes on in memory; the host must know
            log.error("online table %s could not be saved: %s", table.table_id, exc)

    # ------------------------------------------------------------------ messages
    def handle(self, sender: str, message: Any, now: float) -> Outgoing:
        """Answer one message from ``sender`` (an account id) received at time ``now``."""
        try:
            with self.lock:
                return self._handle(sender, message, now)
        except Exception:  # noqa: BLE001 - the referee never falls over
            log.exception("online referee: a message from %s could not be handled", sender)
            table = message.get("table") if isinstance(message, dict) else None
            return [(sender, self._refusal(str(table or "unknown"), None,
                                           "The referee could not handle that message (an "
                                           "internal fault, logged); nothing was changed."))]

    def presence(self, table_id: str, account: str, here: bool) -> Outgoing:
        """A remote player left the table's rooms (``here`` False: Matrix membership "leave")
        or came back: a line for the table, once per change (nothing for an account without a
        seat, or for what changes nothing).  The match itself never changes: it waits."""
        with self.lock:
            return self._presence(table_id, account, here)

    def _presence(self, table_id: str, account: str, here: bool) -> Outgoing:
        table = self.tables.get(table_id)
        if table is None or not isinstance(account, str) or not table.seats_of(account):
            return []
        if here == (account not in table.away):
            return []
        seats = table.seats_of(account)
        names = " and ".join(table.name(s) for s in seats)
        match = table.match
        if here:
            table.away.discard(account)
            text = f"{names} came back to the table."
        else:
            table.away.add(account)
            if match.is_over():
                text = f"{names} left the table."
            elif set(seats) & set(match.to_act()):
                text = f"{names} left the table; the game waits for them."
            else:
                text = (f"{names} left the table; the game goes on and waits for them at "
                        "their turn.")
        self._persist(table, match_too=False)  # who is away outlives a restart
        return [(TABLE, stamp("notice", table.table_id, self.program,
                              rules=match.cls.rules_version, text=text, account=account,
                              away=not here))] + self._updates(table)

    def _refusal(self, table_id: str, ident: str | None, reason: str,
                 table: Table | None = None) -> dict[str, Any]:
        extra = {"rules": table.match.cls.rules_version} if table else {}
        return stamp("refused", table_id if protocol.TABLE_ID.match(table_id) else "unknown",
                     self.program, id=ident, reason=reason, **extra)

    def _handle(self, sender: str, message: Any, now: float) -> Outgoing:
        bucket = self.buckets.get(sender)
        if bucket is None:
            bucket = self.buckets[sender] = Bucket(self.capacity, self.rate, self.capacity)
        if not bucket.take(now):
            if bucket.warned:
                return []
            bucket.warned = True
            table_id = message.get("table") if isinstance(message, dict) else None
            return [(sender, self._refusal(str(table_id or "unknown"), None,
                                           "Too many messages: the referee ignores yours "
                                           "for a moment. Send one at a time."))]
        try:
            message = check_incoming(message)
        except BadMessage as exc:
            table_id = message.get("table") if isinstance(message, dict) else None
            ident = message.get("id") if isinstance(message, dict) else None
            return [(sender, self._refusal(str(table_id or "unknown")[:32],
                                           ident if isinstance(ident, str)
                                           and protocol.ACTION_ID.match(ident) else None,
                                           str(exc)))]
        table = self.tables.get(message["table"])
        if table is None:
            return [(sender, self._refusal(message["table"], message.get("id"),
                                           "This referee holds no such table."))]
        ident = message.get("id")
        if not table.seats_of(sender):
            return [(sender, self._refusal(table.table_id, ident,
                                           "You have no seat at this table.", table))]
        rules = message.get("rules")
        if rules is not None and rules != table.match.cls.rules_version:
            return [(sender, self._refusal(
                table.table_id, ident,
                f"Your program plays {table.match.title} by rules version {rules}, the "
                f"referee by version {table.match.cls.rules_version} (your program "
                f"{message['program']}, the referee's {self.program}). Update the older one.",
                table))]
        kind = message["kind"]
        if kind == "chat":
            return self._chat(table, sender, message["text"], now, message.get("id"))
        seat = message["seat"]
        if not 0 <= seat < len(table.accounts):
            return [(sender, self._refusal(table.table_id, ident, f"There is no seat {seat}.",
                                           table))]
        if table.accounts[seat] != sender:
            return [(sender, self._refusal(
                table.table_id, ident,
                f"Seat {seat + 1} ({table.name(seat)}) is not yours to play.", table))]
        if kind in ("why", "why_kind"):
            return [(sender, self._why(table, seat, message))]
        if kind == "undo":
            return self._undo(table, sender, seat, message["step"])
        if kind == "hint":
            return self._hint(table, sender, seat, message["step"])
        if kind == "history":
            return [(sender, self._history(table, seat, message["step"]))]
        if kind == "sync":
            table.sent_log.pop(seat, None)
            table.digest.pop(seat, None)
            return [(sender, self._seat_update(table, seat))]
        return self._act(table, sender, seat, ident, protocol.from_wire(message["action"]))

    def _chat(self, table: Table, sender: str, text: str, now: float,
              ident: str | None = None) -> Outgoing:
        """A line for the table from ``sender`` (checked for length and characters on
        arrival), said in the table's room with the sender's seats' names and numbers (a
        screen draws their marks); refused with a reason when the sender chats too fast.
        Chat is the players' own words: nothing of the match goes with it.  A line whose id
        was said already (read again after a restart) is not said twice."""
        if ident is not None and ident in table.chat_ids:
            return []
        bucket = self.chat_buckets.get(sender)
        if bucket is None:
            bucket = self.chat_buckets[sender] = Bucket(CHAT_BURST, CHAT_RATE, CHAT_BURST)
        if not bucket.take(now):
            return [(sender, self._refusal(table.table_id, None, CHAT_FLOOD, table))]
        seats = table.seats_of(sender)
        if ident is not None:
            table.chat_ids = (table.chat_ids + [ident])[-MAX_CHAT_IDS:]
            self._persist(table, match_too=False)
        return [(TABLE, stamp("chat", table.table_id, self.program,
                              rules=table.match.cls.rules_version,
                              by=" and ".join(table.name(s) for s in seats), seats=seats,
                              account=sender, text=text))]

    def _act(self, table: Table, sender: str, seat: int, ident: str,
             action: dict[str, Any]) -> Outgoing:
        if ident in table.applied:  # resent: the same answer, applied nothing
            done_seat, step = table.applied[ident]
            if done_seat != seat:
                return [(sender, self._refusal(table.table_id, ident,
                                               "That action id was used for another seat.",
                                               table))]
            table.digest.pop(seat, None)
            return [(sender, self._ack(table, ident, seat, step)),
                    (sender, self._seat_update(table, seat))]
        if ident in table.refused:
            return [(sender, self._refusal(table.table_id, ident, table.refused[ident], table))]
        if action.get("type") == "@hint":
            reason = "A hint is asked for with a hint request, not sent as an action."
        else:
            try:
                table.match.act(seat, action)
                reason = None
            except IllegalAction as exc:
                reason = str(exc)
        if reason is not None:
            table.refused[ident] = reason
            while len(table.refused) > MAX_REFUSED:
                table.refused.popitem(last=False)
            return [(sender, self._refusal(table.table_id, ident, reason, table))]
        table.applied[ident] = [seat, len(table.match.actions)]
        step = len(table.match.actions)
        self._play_bots(table)
        self._persist(table)
        return [(sender, self._ack(table, ident, seat, step))] + self._updates(table)

    def _why(self, table: Table, seat: int, message: dict[str, Any]) -> dict[str, Any]:
        """The controller's reason ``seat`` may not take the action (or any action of the
        type) asked about, or None; worked out once per step and question."""
        match, kind = table.match, message["kind"]
        question = message.get("action", message.get("type"))
        key = (len(match.actions), seat, kind + json.dumps(question, sort_keys=True))
        if key not in table.reasons:
            if len(table.reasons) > MAX_REFUSED or any(k[0] != key[0] for k in table.reasons):
                table.reasons.clear()
            table.reasons[key] = (match.why_not(seat, protocol.from_wire(question))
                                  if kind == "why"
                                  else match.why_not_kind(seat, question))
        answer = {"action": question} if kind == "why" else {"type": question}
        return stamp("why", table.table_id, self.program, rules=match.cls.rules_version,
                     seat=seat, step=message["step"], reason=table.reasons[key], **answer)

    def _undo(self, table: Table, sender: str, seat: int, step: int) -> Outgoing:
        """Take back ``seat``'s last action by the hot-seat rule (``Match.can_undo``: it is the
        last action a person made, and nothing was revealed or rolled since), asked at
        ``step``; else the rule's reason.  Every seat is sent its whole log again (lines were
        taken back) and the table is told; the ids of the actions taken back are refused if
        they are ever resent."""
        from game.engine.table import LocalTable
        match = table.match
        if match.is_over():
            reason: str | None = "The game is over."
        elif step != len(match.actions):
            reason = "The game has moved on since you asked; look again."
        elif not match.can_undo(seat):
            reason = LocalTable(match).undo_refusal(seat)
        else:
            reason = None
        if reason is not None:
            return [(sender, self._refusal(table.table_id, None, reason, table))]
        point = match.undo_point()
        match.undo()
        for ident, (_, done) in list(table.applied.items()):
            if point is not None and done > point:
                del table.applied[ident]
                table.refused[ident] = "That action was taken back (undone)."
        self._play_bots(table)
        self._persist(table)
        table.sent_log.clear()
        table.digest.clear()
        table.public_log = 0
        table.reasons.clear()
        rules = match.cls.rules_version
        return ([(sender, stamp("undone", table.table_id, self.program, rules=rules, seat=seat,
                                step=len(match.actions)))]
                + [(TABLE, stamp("notice", table.table_id, self.program, rules=rules,
                                 text=f"{table.name(seat)} took back their last action.",
                                 account=sender, away=False))]
                + self._updates(table))

    def _hint(self, table: Table, sender: str, seat: int, step: int) -> Outgoing:
        """What the Normal computer player would do for ``seat`` now, worked out here from
        that seat's own view and legal actions (``game.ui.hints.suggest``, as hot-seat does),
        and the asking recorded as hot-seat records it (a public log line)."""
        from game.engine.table import LocalTable
        from game.ui.hints import suggest
        match = table.match
        if match.is_over():
            reason: str | None = "The game is over."
        elif seat not in match.to_act():
            reason = f"It is not {table.name(seat)}'s turn."
        elif step != len(match.actions):
            reason = "The game has moved on since you asked; ask again."
        else:
            reason = None
        action = suggest(LocalTable(match), seat) if reason is None else None
        if reason is None and action is None:
            reason = "There is nothing to choose now."
        if reason is not None:
            return [(sender, self._refusal(table.table_id, None, reason, table))]
        if match.record_hint(seat):
            self._persist(table)
        return self._updates(table) + [(sender, stamp(
            "hint", table.table_id, self.program, rules=match.cls.rules_version, seat=seat,
            step=len(match.actions), action=protocol.to_wire(action)))]

    def _history(self, table: Table, seat: int, step: int) -> dict[str, Any]:
        """The game after ``step`` actions as ``seat`` saw it (its view and its log then);
        once the game is over, everything (every seat's view, every line with its
        audience), as hot-seat's History shows it after the end."""
        from game.engine.history import History
        match = table.match
        if step > len(match.actions):
            return self._refusal(table.table_id, None,
                                 f"The game has no step {step} yet (it is at step "
                                 f"{len(match.actions)}).", table)
        if table.history is None or table.history[0] != len(match.actions):
            table.history = (len(match.actions), History(match))
        then = table.history[1].at(step)
        over = match.is_over()
        if over:
            views = {s: then.view(s) for s in range(len(match.seats))}
            log = [{**{k: v for k, v in ev.items() if k != "@audience"},
                    "audience": ev.get("@audience")} for ev in then.log]
        else:
            views = {seat: then.view(seat)}
            log = [{k: v for k, v in ev.items() if k != "@audience"}
                   for ev in then.log_for(seat)]
        actor = match.actions[step - 1]["seat"] if step else None
        return stamp("history", table.table_id, self.program, rules=match.cls.rules_version,
                     seat=seat, step=step, of=len(match.actions), over=over, actor=actor,
                     views=protocol.to_wire(views), log=protocol.to_wire(log),
                     status=then.status(), to_act=then.to_act())

    def _ack(self, table: Table, ident: str, seat: int, step: int) -> dict[str, Any]:
        return stamp("ack", table.table_id, self.program, rules=table.match.cls.rules_version,
                     id=ident, seat=seat, step=step)

    def _play_bots(self, table: Table) -> int:
        """Computer seats take their actions until a person is awaited or the game ends."""
        match, played = table.match, 0
        while played < MAX_BOT_RUN and not match.is_over():
            bots = [s for s in match.to_act() if table.accounts[s] is None]
            if not bots:
                break
            match.act(bots[0], choose_action(match, bots[0]))
            played += 1
        return played

    # ------------------------------------------------------------------ updates
    def _seat_update(self, table: Table, seat: int) -> dict[str, Any]:
        log_from = table.sent_log.get(seat, 0)
        update = protocol.seat_update(table.match, seat, table.table_id, log_from, self.program)
        table.sent_log[seat] = log_from + len(update["log"])
        table.digest[seat] = self._digest(update)
        return update

    @staticmethod
    def _digest(update: dict[str, Any]) -> str:
        same = {k: update.get(k) for k in ("view", "legal", "to_act", "status", "over", "undo")}
        return hashlib.sha256(json.dumps(same, sort_keys=True, default=str).encode()).hexdigest()

    def _updates(self, table: Table) -> Outgoing:
        """An update for every person's seat whose view, choices or log changed, and the
        table's message when anything public did."""
        out: Outgoing = []
        match = table.match
        for seat, account in enumerate(table.accounts):
            if account is None:
                continue
            log_from = table.sent_log.get(seat, 0)
            update = protocol.seat_update(match, seat, table.table_id, log_from, self.program)
            if update["log"] or self._digest(update) != table.digest.get(seat):
                table.sent_log[seat] = log_from + len(update["log"])
                table.digest[seat] = self._digest(update)
                out.append((account, update))
        mentions = sorted({table.accounts[s] for s in match.to_act()
                           if table.accounts[s] is not None})
        away = [table.name(s) for s, who in enumerate(table.accounts) if who in table.away]
        public = protocol.table_update(match, table.table_id, table.public_log, mentions,
                                       self.program, away=away)
        table.public_log += len(public["log"])
        out.append((TABLE, public))
        return out


__all__ = ["Referee", "Table", "Bucket", "TABLE"]
