"""Saving and loading matches as YAML.

A save holds the format name and version, the game id and its rules version,
the seats, options, seed and action list, a snapshot of the state, and
metadata for the load screen (among it the match's own id, which names its
autosave).  Since format 3 the actions are written compactly, one line of text
each in a single block (``3 move {"to":[1,8]}``: seat, type and the other
fields as JSON), which our own checked code reads, and the snapshot is one line
of JSON compared with the replayed game's: a long game no longer costs the YAML
loader tens of thousands of values.  A list of ``{seat, action}`` records and a
snapshot mapping, as format 2 wrote them, are still read.  Loading replays the actions and compares the result with the
snapshot, so a save can never be silently misread.  Writes go to a temporary
file that then replaces the target, so a crash or a bad write never destroys
an existing save; the replaced file keeps its permissions.

Files are read defensively, because a save folder may hold anything: only
regular files of a bounded size are opened (never a pipe or a device), and
nesting, anchors and aliases are refused before the YAML is built, so a
hand-made file cannot exhaust the memory, the stack or the time of the program.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import secrets
import stat
import time
import unicodedata
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

from .errors import IllegalAction, SaveError, TabletopError
from .registry import controller_class, game_ids

FORMAT = "tabletop-match"
VERSION = 4
#: version -> function upgrading a save dict of that version to version + 1.
UPGRADERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
#: The largest file read as a save (the longest real games save to about 40 KB).
MAX_BYTES = 8 * 1024 * 1024
#: Deepest nesting of lists and mappings (saves nest about 10 deep).
MAX_DEPTH = 64
#: Most YAML events (scalars, list and mapping starts and ends) in a file: four times a
#: 30-round Monster Fandango game (about 25,000); bounds the time and memory a file costs.
MAX_EVENTS = 100_000
#: Most flow brackets ([ and {) a file may hold before parsing: saves are written in block
#: style (the compact actions hold one or two each, inside a text block), and deep flow
#: nesting makes the YAML scanner slow down quadratically (their depth is checked too).
MAX_BRACKETS = 100_000
#: Most actions a save holds (a 30-round 4-seat Monster Fandango game has about 2,000).
MAX_ACTIONS = 25_000
#: Longest line of the compact action text.
MAX_ACTION_LINE = 4_096
#: A match's id (letters and digits only: it becomes part of a file name).
MATCH_ID = re.compile(r"[0-9a-z]{6,32}\Z")
#: Our temporary files: ``.<target name>.<8 letters or digits>.tmp``.
TEMP_NAME = re.compile(r"\.(?P<target>.+)\.[0-9a-z_]{8}\.tmp\Z")
#: A temporary file older than this is left over from a write that was killed.
STALE_TEMP_SECONDS = 60.0
#: Finished games' autosaves are kept this many days, and at most this many of them.
KEEP_FINISHED_DAYS = 30
KEEP_FINISHED = 20
AUTOSAVE_PREFIX = "autosave-"
#: The lock file in a saves folder: held while a window checks that a match's autosave is
#: still its own and writes it, so two windows never both decide that it is.
LOCK_NAME = ".tabletop.lock"
#: How long a window waits for another one's autosave before giving up on this one (the
#: lock is held for a few milliseconds; a window stopped while holding it is the only wait).
LOCK_SECONDS = 5.0
#: A save dated more than this far ahead of the clock is dated in the future (a clock that
#: was set back since, or a folder copied from a machine whose clock was ahead).
FUTURE_SLACK = 300.0


def now() -> str:
    """The current local time as ISO text (the client's clock, never the rules')."""
    return _dt.datetime.now().astimezone().isoformat(timespec="seconds")


# ------------------------------------------------------------------------ match ids
def new_match_id() -> str:
    """A fresh id for a match (ten letters and digits)."""
    return secrets.token_hex(5)


def match_id(match: Any) -> str:
    """``match``'s id, created with it on first use (it names the match's autosave).

    The id belongs to the client, not to the rules: it is kept on the match
    object and in the save's metadata, never in the state.
    """
    ident = getattr(match, "match_id", None)
    if not isinstance(ident, str) or not MATCH_ID.match(ident):
        ident = new_match_id()
        match.match_id = ident
    return ident


def autosave_name(game_id: str, ident: str) -> str:
    """The file name of a match's autosave.

    >>> autosave_name("fantasy_racing", "0a1b2c3d4e")
    'autosave-fantasy_racing-0a1b2c3d4e.yaml'
    """
    return f"{AUTOSAVE_PREFIX}{game_id}-{ident}.yaml"


def is_autosave(path: str | Path) -> bool:
    return Path(path).name.startswith(AUTOSAVE_PREFIX)


# ------------------------------------------------------------------------ writing
def match_document(match: Any) -> dict[str, Any]:
    """The plain-data document that a save file holds."""
    created = match.created or now()
    match.created = created
    to_act = match.to_act()
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": match.game_id,
        "rules_version": match.cls.rules_version,
        "seats": match.seats,
        "options": match.options,
        "seed": match.seed,
        "actions": match.actions,
        "snapshot": match.snapshot(),
        "meta": {
            "title": match.title,
            "match_id": match_id(match),
            "created": created,
            "updated": now(),
            "status": match.status(),
            "to_act": [match.seats[s]["name"] for s in to_act],
            "actions": len(match.actions),
            "over": match.is_over(),
        },
    } | ({"lesson": match.guard.record(match)} if getattr(match, "guard", None) is not None
         else {})


# ------------------------------------------------------------- compact actions (format 3)
#: An action type written bare on an action line.
_TYPE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: One action line: the seat, then the type and a JSON object of the other fields, or a
#: JSON object of the whole action (for a type that is not a plain word).
_ACTION_LINE = re.compile(r"(0|[1-9][0-9]{0,3}) (?:([A-Za-z_][A-Za-z0-9_]*)(?: (\{.*\}))?|(\{.*\}))\Z")


class _Block(str):
    """Text written as a YAML literal block (``|``), one line per action."""


class _SaveDumper(Dumper):  # type: ignore[misc, valid-type]
    """The safe dumper, writing :class:`_Block` text as a literal block."""


_SaveDumper.add_representer(
    _Block, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", str(text),
                                                         style="|"))


def _json_exact(value: Any) -> bool:
    """Whether JSON gives ``value`` back exactly (string keys, finite numbers, no tuples)."""
    if value is None or isinstance(value, (str, bool, int)):
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if isinstance(value, list):
        return all(_json_exact(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_exact(v) for k, v in value.items())
    return False


def _action_line(record: Any) -> str | None:
    """One action record as a line of text, or None when it cannot be written exactly."""
    if not isinstance(record, dict) or len(record) != 2:
        return None
    seat, action = record.get("seat"), record.get("action")
    if (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 10_000
            or not isinstance(action, dict) or not _json_exact(action)):
        return None
    kind = action.get("type")
    if isinstance(kind, str) and _TYPE_WORD.match(kind):
        rest = {k: v for k, v in action.items() if k != "type"}
        line = f"{seat} {kind}" + (f" {json.dumps(rest, separators=(',', ':'))}" if rest else "")
    else:
        line = f"{seat} {json.dumps(action, separators=(',', ':'))}"
    return line if len(line) <= MAX_ACTION_LINE else None


def _snapshot_json(snapshot: Any) -> str | None:
    """The snapshot as one line of JSON (None if it holds what JSON cannot write)."""
    try:
        return json.dumps(snapshot, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None


def pack_document(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as format 3 writes it: actions as compact lines (:func:`pack_actions`) and the
    snapshot as a line of JSON (it stays a mapping if JSON cannot hold it)."""
    doc = pack_actions(doc)
    snapshot = doc.get("snapshot")
    text = _snapshot_json(snapshot) if isinstance(snapshot, dict) else None
    return doc if text is None else {**doc, "snapshot": _Block(text + "\n")}


def unpack_document(doc: dict[str, Any], path: str | Path = "save") -> dict[str, Any]:
    """``doc`` as format 2 held it: a list of action records and a snapshot mapping (a
    snapshot's numbers used as keys come back as text: the loader compares snapshots as
    JSON).  For tools and tests that edit saves; loading needs only :func:`unpack_actions`."""
    doc = unpack_actions(doc, path)
    snapshot = doc.get("snapshot")
    if isinstance(snapshot, str):
        try:
            doc = {**doc, "snapshot": json.loads(snapshot)}
        except (ValueError, RecursionError):
            raise SaveError(Path(path), "is damaged: its snapshot cannot be read.") from None
    return doc


def _same_position(saved: Any, snapshot: dict[str, Any]) -> bool:
    """Whether a save's snapshot (a line of JSON, or a mapping) is the replayed game's."""
    if isinstance(saved, dict) and saved == snapshot:
        return True
    mine = _snapshot_json(snapshot)
    if mine is None:
        return False
    if isinstance(saved, str) and saved.strip() == mine:
        return True  # written by this program from the same game: the same text
    try:  # the same values written in another order, or a mapping edited as JSON gives it
        theirs = json.loads(saved) if isinstance(saved, str) else json.loads(
            json.dumps(saved, allow_nan=False))
        return bool(theirs == json.loads(mine))
    except (TypeError, ValueError, RecursionError):
        return False


def pack_actions(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its actions as compact text (a copy; the list stays when an action
    cannot be written exactly that way, e.g. one with a number as a key)."""
    actions = doc.get("actions")
    if not isinstance(actions, list):
        return doc
    lines = []
    for record in actions:
        line = _action_line(record)
        if line is None:
            return doc
        lines.append(line)
    return {**doc, "actions": _Block("".join(line + "\n" for line in lines))}


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a save holds")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def unpack_actions(doc: dict[str, Any], path: str | Path = "save") -> dict[str, Any]:
    """``doc`` with compact action text (format 3) turned back into the list of
    ``{seat, action}`` records that format 2 wrote; a list is left as it is.  SaveError
    names the first line that is not an action line."""
    text = doc.get("actions")
    if not isinstance(text, str):
        return doc
    path = Path(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > MAX_ACTIONS:
        raise SaveError(path, f"is damaged: it holds {len(lines):,} actions, far more than "
                              "a game.")
    records = []
    match_line, decode = _ACTION_LINE.match, _DECODER.decode
    for number, line in enumerate(lines, start=1):
        found = match_line(line) if len(line) <= MAX_ACTION_LINE else None
        if found is None:
            raise SaveError(path, f"is damaged: action {number} is not a seat and an action.")
        seat, kind, rest, whole = found.groups()
        try:
            if whole is not None:
                action = decode(whole)
            else:
                action = {"type": kind}
                if rest is not None:
                    more = decode(rest)
                    if not isinstance(more, dict) or "type" in more:
                        action = None
                    else:
                        action.update(more)
        except (ValueError, RecursionError):
            raise SaveError(path, f"is damaged: action {number} cannot be read.") from None
        if not isinstance(action, dict):
            raise SaveError(path, f"is damaged: action {number} is not a seat and an action.")
        records.append({"seat": int(seat), "action": action})
    return {**doc, "actions": records}


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def remove_stale_temps(folder: str | Path, target: str | None = None,
                       older_than: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Delete our own temporary files in ``folder`` (of ``target``'s name only, if given)
    that a killed write left behind; a fresh one may belong to a write under way."""
    removed = []
    limit = time.time() - older_than
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        found = TEMP_NAME.match(name)
        if found is None or (target is not None and found["target"] != target):
            continue
        path = Path(folder) / name
        try:
            info = path.lstat()
            if stat.S_ISREG(info.st_mode) and info.st_mtime < limit:
                path.unlink()
                removed.append(path)
        except OSError:
            continue
    return removed


def write_yaml_atomic(path: str | Path, document: Any) -> str:
    """Dump ``document`` with the safe dumper to ``path`` via a temporary file, and return
    the text written.

    A file that is replaced keeps its permissions; a new one gets the usual
    ones (0666 less the umask).  Stale temporary files of ``path`` are removed.
    """
    path = Path(path)
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise SaveError(path, f"could not be written: {folder} is not a folder (a file is in "
                              "the way).") from None
    except OSError as exc:
        raise SaveError(path, f"could not be written ({exc.strerror or exc}).") from None
    if not folder.is_dir():
        raise SaveError(path, f"could not be written: {folder} is not a folder.")
    try:
        text = yaml.dump(document, Dumper=_SaveDumper, sort_keys=False, allow_unicode=True)
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            mode = 0o666 & ~_umask()
        tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
                os.chmod(handle.fileno(), mode)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise SaveError(path, f"could not be written ({exc.strerror or exc}).") from None
    remove_stale_temps(folder, path.name)
    return text


def save_match(match: Any, path: str | Path) -> None:
    """Write ``match`` to ``path`` atomically (its actions as compact text)."""
    text = write_yaml_atomic(path, pack_document(match_document(match)))
    _remember(match, Path(path), text)


# ------------------------------------------------------------------------ reading
def _kind_of_file(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not an ordinary file"


def read_text(path: str | Path, max_bytes: int = MAX_BYTES) -> str:
    """The text of a regular file of at most ``max_bytes``; SaveError otherwise.

    Pipes, devices and folders are refused before they are opened (and opened
    without blocking, in case one is swapped in), so nothing can hang here.
    """
    path = Path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SaveError(path, "does not exist.") from None
    except (OSError, ValueError) as exc:
        raise SaveError(path, f"could not be read ({getattr(exc, 'strerror', None) or exc}).") \
            from None
    if not stat.S_ISREG(info.st_mode):
        raise SaveError(path, f"is not a save: it is {_kind_of_file(info.st_mode)}.")
    if info.st_size > max_bytes:
        raise SaveError(path, f"is too large to be a save ({info.st_size:,} bytes; "
                              f"at most {max_bytes:,}).")
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(path, flags)
        try:
            opened = os.fstat(fd)
            if not stat.S_ISREG(opened.st_mode):
                raise SaveError(path, f"is not a save: it is {_kind_of_file(opened.st_mode)}.")
            chunks, size = [], 0
            while size <= max_bytes:
                chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise SaveError(path, "does not exist.") from None
    except OSError as exc:
        raise SaveError(path, f"could not be read ({exc.strerror or exc}).") from None
    if size > max_bytes:
        raise SaveError(path, f"is too large to be a save (more than {max_bytes:,} bytes).")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(path, "is not a text file.") from None


def _bracket_depth(text: str, limit: int = MAX_BRACKETS) -> int:
    """The deepest nesting of [ and { among the first ``limit`` brackets of ``text``
    (quotes are ignored: an upper bound)."""
    depth = deepest = 0
    for char in re.sub(r"[^\[\]{}]+", "", text)[:2 * limit]:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
    return deepest


def check_structure(text: str, path: Path, max_events: int = MAX_EVENTS) -> None:
    """Refuse, before anything is built, YAML that nests too deep, uses anchors or
    aliases, or holds far more values than a save (SaveError says which)."""
    brackets = text.count("[") + text.count("{")
    if brackets and _bracket_depth(text) > MAX_DEPTH:
        raise SaveError(path, f"is damaged: it is nested more than {MAX_DEPTH} deep.")
    if brackets > MAX_BRACKETS:
        raise SaveError(path, f"is damaged: it holds {brackets:,} brackets, far more than "
                              "a save.")
    depth = count = 0
    try:
        for event in yaml.parse(text, Loader=SafeLoader):
            count += 1
            if count > max_events:
                raise SaveError(path, "is damaged: it holds far more values than a save.")
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                raise SaveError(path, "is damaged: it uses YAML anchors or aliases, which "
                                      "saves never do.")
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise SaveError(path, f"is damaged: it is nested more than {MAX_DEPTH} "
                                          "deep.")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        raise SaveError(path, f"is damaged: it is not valid YAML{_where(exc)}.") from None


def _where(exc: BaseException) -> str:
    mark = getattr(exc, "problem_mark", None)
    return f" near line {mark.line + 1}" if mark is not None else ""


def parse_yaml(text: str, path: Path, max_events: int = MAX_EVENTS) -> Any:
    """Check ``text`` (see :func:`check_structure`) and build it with the safe loader."""
    check_structure(text, path, max_events)
    try:
        return yaml.load(text, Loader=SafeLoader)
    except yaml.YAMLError as exc:
        raise SaveError(path, f"is damaged: it is not valid YAML{_where(exc)}.") from None
    except (RecursionError, MemoryError):
        raise SaveError(path, "is damaged: it is too large or too deeply nested to read.") \
            from None
    except Exception as exc:  # noqa: BLE001 - e.g. a 5,000-digit number (ValueError)
        raise SaveError(path, f"is damaged: a value cannot be read ({type(exc).__name__}).") \
            from None


def read_yaml(path: str | Path, max_bytes: int = MAX_BYTES) -> Any:
    """Parse a YAML file with the safe loader; SaveError on any failure.

    Only a regular file of at most ``max_bytes`` is read, and it must pass
    :func:`check_structure`; anything else is refused quickly.
    """
    path = Path(path)
    return parse_yaml(read_text(path, max_bytes), path)


def _need(doc: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    if key not in doc:
        raise SaveError(path, f"is incomplete: '{key}' is missing (was the file cut short?).")
    value = doc[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SaveError(path, f"is damaged: '{key}' has the wrong kind of value.")
    return value


def _upgrade_1(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: every match gets an id (for an old save, one derived from its game,
    seed and creation time, so loading the same old file twice gives the same id)."""
    meta = doc.get("meta")
    if isinstance(meta, dict) and "match_id" not in meta:
        basis = repr((doc.get("game"), doc.get("seed"), meta.get("created")))
        meta["match_id"] = hashlib.sha1(basis.encode("utf-8", "replace")).hexdigest()[:10]
    doc["version"] = 2
    return doc


UPGRADERS[1] = _upgrade_1


def _upgrade_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 2 -> 3: nothing to change; format 3 writes its actions as compact text, and
    reads the list of records that format 2 wrote as well."""
    doc["version"] = 3
    return doc


UPGRADERS[2] = _upgrade_2


def _upgrade_3(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 3 -> 4: nothing to change; format 4 may carry a ``lesson`` header (a lesson
    being played, see game/engine/lesson.py), which older saves never have."""
    doc["version"] = 4
    return doc


UPGRADERS[3] = _upgrade_3


def upgrade(doc: dict[str, Any], path: Path) -> dict[str, Any]:
    """Bring an older save up to VERSION one step at a time."""
    version = _need(doc, "version", int, path)
    if version > VERSION:
        raise SaveError(path, f"was written by a newer version of the program (save format "
                              f"{version}; this one reads up to {VERSION}).")
    while version < VERSION:
        step = UPGRADERS.get(version)
        if step is None:
            raise SaveError(path, f"uses save format {version}, which this version cannot read.")
        doc = step(doc)
        version = doc["version"]
    return doc


class ReplayError(SaveError):
    """A save whose actions stop replaying at some point: the actions before it are good.

    ``good`` is how many actions replay, ``total`` how many the file holds;
    ``Match.load(path, partial=True)`` loads the game up to the last good one.
    """

    def __init__(self, path: object, problem: str, good: int, total: int) -> None:
        super().__init__(path, problem)
        self.good = good
        self.total = total


def read_document(path: str | Path, text: str | None = None) -> dict[str, Any]:
    """A save's document, checked to be a Tabletop save and upgraded to VERSION (``text``:
    the file's text, when it was read already)."""
    path = Path(path)
    doc = read_yaml(path) if text is None else parse_yaml(text, path)
    if not isinstance(doc, dict):
        raise SaveError(path, "is not a Tabletop save (it is empty or not a mapping).")
    if doc.get("format") != FORMAT:
        raise SaveError(path, "is not a Tabletop save (its format is unknown).")
    return unpack_actions(upgrade(doc, path), path)


def load_match(path: str | Path, partial: bool = False) -> Any:
    """Read, validate and replay a save; SaveError says what is wrong with which file.

    When an action cannot be replayed, a :class:`ReplayError` says how many
    did; with ``partial=True`` the match is returned as it stood after the
    last good action instead (its snapshot and metadata are then not compared).
    """
    from .match import Match

    path = Path(path)
    text = read_text(path)
    doc = read_document(path, text)
    game_id = _need(doc, "game", str, path)
    try:
        cls = controller_class(game_id)
    except TabletopError:
        raise SaveError(path, f"is for a game this program does not have ({game_id!r}).") from None
    rules_version = _need(doc, "rules_version", int, path)
    if rules_version > cls.rules_version or rules_version < 1:
        raise SaveError(path, f"was played under rules version {rules_version} of {cls.title}; "
                              f"this program has version {cls.rules_version} (a newer program "
                              f"is needed).")
    #: A game from older rules is replayed under today's rules as far as they allow it.
    older = rules_version < cls.rules_version
    seats = _need(doc, "seats", list, path)
    options = _need(doc, "options", dict, path)
    seed = _need(doc, "seed", int, path)
    actions = _need(doc, "actions", list, path)
    snapshot = _need(doc, "snapshot", (dict, str), path)
    meta = _need(doc, "meta", dict, path)
    lesson = doc.get("lesson")
    if lesson is not None:
        from .lesson import check_record
        wrong = check_record(lesson, game_id)
        if wrong is not None:
            raise SaveError(path, f"is damaged: {wrong}.")
    ident = meta.get("match_id")
    if not isinstance(ident, str) or not MATCH_ID.match(ident):
        raise SaveError(path, "is damaged: its match id is missing or not letters and digits.")
    try:
        match = Match(game_id, seats, seed, options)
    except (ValueError, TypeError, OverflowError) as exc:
        raise SaveError(path, f"is damaged: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a rules bug on a strange setup
        raise SaveError(path, f"is damaged: its game cannot be set up "
                              f"({type(exc).__name__}).") from None
    cut = None
    for number, record in enumerate(actions, start=1):
        if (not isinstance(record, dict) or not isinstance(record.get("seat"), int)
                or not isinstance(record.get("action"), dict)):
            cut = (number, "is not a seat and an action")
        else:
            try:
                match.act(record["seat"], record["action"])
            except IllegalAction as exc:
                cut = (number, f"cannot be replayed ({exc.reason})")
        if cut is not None:
            break
    match.match_id = ident
    if isinstance(meta.get("created"), str) and meta["created"]:
        match.created = meta["created"]
    if cut is not None:
        number, why = cut
        if not partial:
            problem = (f"was played under older rules of {cls.title} (version "
                       f"{rules_version}; this program has {cls.rules_version}): its action "
                       f"{number} {why} under the new rules" if older
                       else f"is damaged: action {number} {why}")
            raise ReplayError(path, problem, good=number - 1, total=len(actions))
        return match  # not remembered: its autosave goes to a new file, the old one stays
    if older:
        # Every action replays under the new rules; the old snapshot and status words were
        # written by the old rules, so only the count is checked.  Its next autosave is
        # written under the new rules.
        if meta.get("actions") != len(actions):
            raise SaveError(path, "is damaged or cut short: its 'actions' does not match the "
                                  "game it holds.")
        match.created = meta.get("created") if isinstance(meta.get("created"), str) else None
        _attach_lesson(match, lesson)
        _remember(match, path, text)
        return match
    if not _same_position(snapshot, match.snapshot()):
        raise SaveError(path, "is damaged: replaying its actions does not give the saved "
                              "position (the file was edited, or the rules changed).")
    check_meta(meta, match, path)
    if lesson is not None and lesson["done"] != min(sum(
            1 for r in match.actions if not match.is_hint(r)), lesson["steps"]):
        raise SaveError(path, "is damaged or cut short: its lesson's 'done' does not match the "
                              "game it holds.")
    match.created = meta["created"]
    _attach_lesson(match, lesson)
    _remember(match, path, text)
    return match


def _attach_lesson(match: Any, record: Any) -> None:
    """A lesson save goes on as its lesson when the game's lesson still fits it (else it
    loads as an ordinary game)."""
    if record is not None:
        from .lesson import attach
        attach(match)


def check_meta(meta: dict[str, Any], match: Any, path: Path) -> None:
    """The metadata must be whole and agree with the replayed match (catches cut files)."""
    expected = {"title": match.title, "status": match.status(), "actions": len(match.actions),
                "over": match.is_over(),
                "to_act": [match.seats[s]["name"] for s in match.to_act()]}
    for key in ("created", "updated"):
        if not isinstance(meta.get(key), str) or not meta[key]:
            raise SaveError(path, f"is incomplete: its '{key}' time is missing or cut short.")
    for key, value in expected.items():
        if meta.get(key) != value:
            raise SaveError(path, f"is damaged or cut short: its '{key}' does not match the "
                                  f"game it holds.")


# ----------------------------------------------------------------------- autosaves
#: match -> {file: digest of its text} of the files this program last wrote or read for it.
#: (The text itself, not the file's size and time: two windows writing within one tick of
#: the file system's clock, each file the same size, can leave identical times.)
_KNOWN: "weakref.WeakKeyDictionary[Any, dict[str, bytes]]" = weakref.WeakKeyDictionary()


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def _remember(match: Any, path: Path, text: str) -> None:
    try:
        _KNOWN.setdefault(match, {})[os.path.abspath(path)] = _digest(text)
    except TypeError:  # not weak-referenceable (a stand-in in a test)
        pass


def _holds_our_past(match: Any, path: Path) -> bool:
    """Whether writing ``match`` over ``path`` loses nothing: the file is missing, is the
    one this match last wrote or read, or holds a beginning of this match's actions."""
    if not os.path.lexists(path):
        return True
    try:
        text = read_text(path)
    except SaveError:
        return False  # unreadable: keep it, it may be someone's game
    try:
        known = _KNOWN.get(match, {}).get(os.path.abspath(path))
    except TypeError:
        known = None
    if known is not None and known == _digest(text):
        return True
    try:
        doc = read_document(path, text)
    except SaveError:
        return False
    theirs = doc.get("actions")
    return (isinstance(theirs, list) and doc.get("seed") == match.seed
            and doc.get("game") == match.game_id and match.actions[:len(theirs)] == theirs)


def _try_lock(fd: int) -> bool:
    """Take the lock on the open lock file ``fd`` without waiting; False while another
    process holds it (POSIX: flock; Windows: a lock on its first byte)."""
    if os.name == "nt":
        import msvcrt
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except PermissionError:
            return False
        except OSError as exc:
            if exc.errno in (13, 36):  # EACCES, EDEADLOCK: held by another process
                return False
            raise
        return True
    import fcntl
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if os.name == "nt":
        import msvcrt
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
    else:
        import fcntl
        fcntl.flock(fd, fcntl.LOCK_UN)


@contextmanager
def folder_lock(folder: str | Path, seconds: float = LOCK_SECONDS) -> Iterator[None]:
    """Hold the saves folder's lock (``LOCK_NAME``) for the block, waiting up to
    ``seconds`` for another window that holds it.

    Where no lock can be had at all (a folder that cannot be made or written, a file system
    without locks) the block runs unlocked: the write that follows then fails with its own
    reason, or succeeds as it did before locks.  SaveError when another window holds the
    lock for longer than ``seconds``.
    """
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                     0o666)
    except OSError:
        yield
        return
    locked = False
    try:
        deadline = time.monotonic() + seconds
        try:
            while not (locked := _try_lock(fd)):
                if time.monotonic() > deadline:
                    raise SaveError(folder, "is being written by another window of this "
                                            "program, which has not finished for "
                                            f"{seconds:g} seconds.")
                time.sleep(0.002)
        except OSError:
            pass  # no locks on this file system: unlocked, as before
        yield
    finally:
        try:
            if locked:
                _unlock(fd)
        finally:
            os.close(fd)


def autosave_match(match: Any, folder: str | Path) -> Path:
    """Write ``match`` to its own autosave in ``folder`` and return the file.

    When that file holds another history (the same game continued in another
    window, or a later point of a game loaded from an earlier save), the match
    becomes a new one with a new id instead of overwriting it.  The check and the
    write are one step: the folder's lock is held for both, so of two windows
    writing one file at the same moment, one keeps it and the other branches.
    """
    folder = Path(folder)
    with folder_lock(folder):
        path = folder / autosave_name(match.game_id, match_id(match))
        if not _holds_our_past(match, path):
            match.match_id = new_match_id()
            path = folder / autosave_name(match.game_id, match.match_id)
        save_match(match, path)
    return path


# ------------------------------------------------------------------------ listing
def clean_line(value: Any, limit: int = 120) -> str:
    """A short single line of text that can be shown, from any value of a file.

    >>> clean_line("Mira\\x00\\u202e's\\ngame")
    "Mira's game"
    """
    text = value if isinstance(value, str) else ""
    text = "".join(" " if ch.isspace() else ch for ch in text[:limit * 4]
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(text.split())[:limit]


@dataclass
class SaveInfo:
    """One entry of the load screen: a save's metadata, or why it can't be read.

    ``meta`` holds only values of the right kind (see :func:`clean_meta`), so
    it can be shown as it is.
    """

    path: Path
    meta: dict[str, Any]
    game: str | None
    error: str | None
    modified: float
    #: (name, "human" or "bot") of each seat.
    seats: list[tuple[str, str]] = field(default_factory=list)
    #: A lesson save's progress: (steps done, steps in all), else None.
    lesson: tuple[int, int] | None = None

    @property
    def title(self) -> str:
        return str(self.meta.get("title") or self.game or self.path.stem)

    @property
    def autosave(self) -> bool:
        return is_autosave(self.path)

    @property
    def over(self) -> bool:
        return self.meta.get("over") is True

    @property
    def unfinished(self) -> bool:
        """A readable save of a game still being played."""
        return self.error is None and not self.over

    @property
    def played(self) -> float | None:
        """When it was last played by the time written inside it (seconds since the epoch),
        or None when it holds no readable time."""
        return stamp_seconds(self.meta.get("updated"))

    def recency(self, now: float | None = None) -> tuple[int, float, float]:
        """Sort key, most recent last: the time written inside the save (which a copy
        keeps), else the file's time; a save dated in the future sorts below every save
        dated sanely, and equal times go by the file's time."""
        now = time.time() if now is None else now
        when = self.played
        if when is None:
            when = self.modified
        return (0 if when > now + FUTURE_SLACK else 1, when, self.modified)


def stamp_seconds(value: Any) -> float | None:
    """An ISO time written in a save as seconds since the epoch (None if it is not one; a
    time without a zone is local time).

    >>> stamp_seconds("1970-01-01T00:01:00+00:00")
    60.0
    >>> stamp_seconds("soon") is None
    True
    """
    if not isinstance(value, str):
        return None
    try:
        return _dt.datetime.fromisoformat(value[:40]).timestamp()
    except (ValueError, OverflowError, OSError):
        return None


def clean_meta(meta: Any) -> dict[str, Any]:
    """The metadata values of the right kind, as short printable text (the rest dropped)."""
    if not isinstance(meta, dict):
        return {}
    clean: dict[str, Any] = {}
    for key in ("title", "created", "updated", "status", "match_id"):
        if isinstance(meta.get(key), str):
            clean[key] = clean_line(meta[key], 200)
    names = meta.get("to_act")
    if isinstance(names, list) and len(names) <= 64:
        clean["to_act"] = [clean_line(name, 24) for name in names if isinstance(name, str)]
    actions = meta.get("actions")
    if isinstance(actions, int) and not isinstance(actions, bool) and 0 <= actions < 10**9:
        clean["actions"] = actions
    if isinstance(meta.get("over"), bool):
        clean["over"] = meta["over"]
    return clean


def clean_seats(seats: Any) -> list[tuple[str, str]]:
    """(name, kind) of each well-formed seat of a save (at most 16)."""
    if not isinstance(seats, list):
        return []
    return [(clean_line(seat.get("name"), 24) or "?",
             "bot" if seat.get("kind") == "bot" else "human")
            for seat in seats[:16] if isinstance(seat, dict)]


#: path -> (its stat signature, what was read): a listing reads only changed files.
_LISTED: dict[str, tuple[tuple[int, ...], SaveInfo]] = {}


def save_info(path: Path) -> SaveInfo | None:
    """What the load screen shows of ``path`` (None if it vanished), without replaying."""
    try:
        info = os.stat(path)
    except OSError as exc:
        try:
            modified = os.lstat(path).st_mtime  # a link to nowhere, or to itself
        except OSError:
            return None  # gone
        return SaveInfo(path, {}, None, f"could not be read ({exc.strerror or exc}).", modified)
    signature = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_mode)
    cached = _LISTED.get(str(path))
    if cached is not None and cached[0] == signature:
        return cached[1]
    modified = info.st_mtime
    try:
        doc = read_document(path)
        game = doc.get("game")
        entry = SaveInfo(path, clean_meta(doc.get("meta")),
                         clean_line(game, 40) if isinstance(game, str) else None, None,
                         modified, clean_seats(doc.get("seats")))
        record = doc.get("lesson")
        if isinstance(game, str):
            from .lesson import check_record
            if record is not None and check_record(record, game) is None:
                entry.lesson = (record["done"], record["steps"])
    except SaveError as exc:
        entry = SaveInfo(path, {}, None, exc.problem, modified)
    except Exception as exc:  # noqa: BLE001 - a listing must never fail on one file
        entry = SaveInfo(path, {}, None, f"could not be read ({type(exc).__name__}).", modified)
    if len(_LISTED) > 4096:
        _LISTED.clear()
    _LISTED[str(path)] = (signature, entry)
    return entry


def list_saves(folder: str | Path, pattern: str = "*.yaml") -> list[SaveInfo]:
    """The saves in ``folder`` matching ``pattern``, without replaying them: the one played
    last first (see :meth:`SaveInfo.recency`: the time inside the save, and one dated in the
    future after those dated sanely)."""
    folder = Path(folder)
    try:
        paths = list(folder.glob(pattern))
    except OSError:
        return []
    infos = [entry for entry in map(save_info, paths) if entry is not None]
    now = time.time()
    infos.sort(key=lambda entry: entry.recency(now), reverse=True)
    return infos


def latest_unfinished(folder: str | Path) -> SaveInfo | None:
    """The autosave of the unfinished match played most recently (by the time inside it,
    never one dated in the future over one dated sanely), or None."""
    return next((entry for entry in list_saves(folder, f"{AUTOSAVE_PREFIX}*.yaml")
                 if entry.unfinished), None)


# ------------------------------------------------------------------------ tidying
def _migrate_old_autosaves(folder: Path) -> None:
    """Format-1 autosaves were one per game (``autosave-<game>.yaml``): give each its
    match's own name, so it is continued in place rather than beside a copy."""
    for game_id in game_ids():
        old = folder / f"{AUTOSAVE_PREFIX}{game_id}.yaml"
        if not old.is_file():
            continue
        try:
            doc = read_document(old)
        except SaveError:
            continue  # damaged: listed as it is, for the player to see
        meta = doc.get("meta")
        ident = meta.get("match_id") if isinstance(meta, dict) else None
        if not isinstance(ident, str) or not MATCH_ID.match(ident):
            continue
        new = folder / autosave_name(game_id, ident)
        if not os.path.lexists(new):
            try:
                os.rename(old, new)
            except OSError:
                continue


def _finished_cleanly(path: Path) -> bool:
    """Whether ``path`` holds a finished game that loads cleanly: it replays to its own
    snapshot (its header alone may say "over" of a damaged file)."""
    try:
        return bool(load_match(path).is_over())
    except SaveError:
        return False
    except Exception:  # noqa: BLE001 - a rules fault replaying it: keep the file
        return False


def prune_finished(folder: str | Path, now_time: float | None = None,
                   keep_days: float = KEEP_FINISHED_DAYS, keep: int = KEEP_FINISHED) -> list[Path]:
    """Delete the autosaves of finished games older than ``keep_days``, and all but the
    newest ``keep`` of them.  Unfinished games, damaged files and named saves stay: a file
    is deleted only when it loads cleanly as a finished game, checked under the folder's
    lock just before (a damaged file whose header says "over" keeps its place among the
    newest, so no start replays twenty games).  Its age is the later of the time inside it
    and its file's time, so neither a copied folder nor a wrong clock makes a game look
    older than it is."""
    limit = (time.time() if now_time is None else now_time) - keep_days * 86400
    finished = [entry for entry in list_saves(folder, f"{AUTOSAVE_PREFIX}*.yaml")
                if entry.error is None and entry.over]
    finished.sort(key=lambda entry: max(entry.played or entry.modified, entry.modified),
                  reverse=True)
    removed = []
    for rank, entry in enumerate(finished):
        if rank < keep and max(entry.played or entry.modified, entry.modified) >= limit:
            continue
        try:
            with folder_lock(folder):
                if os.stat(entry.path).st_mtime != entry.modified:
                    continue  # written again since it was listed
                if not _finished_cleanly(entry.path):
                    continue
                entry.path.unlink()
                removed.append(entry.path)
        except (OSError, SaveError):
            continue
    return removed


def tidy_saves(folder: str | Path) -> None:
    """On start: remove temporary files left by killed writes, give old one-per-game
    autosaves their match's name, and prune finished games' old autosaves."""
    folder = Path(folder)
    if not folder.is_dir():
        return
    remove_stale_temps(folder)
    _migrate_old_autosaves(folder)
    prune_finished(folder)
