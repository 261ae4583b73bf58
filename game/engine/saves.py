"""Saving and loading matches as YAML.

A save holds the format name and version, the game id and its rules version,
the seats, options, seed and action list, a snapshot of the state, and
metadata for the load screen.  Loading replays the actions and compares the
result with the snapshot, so a save can never be silently misread.  Writes go
to a temporary file that then replaces the target, so a crash or a bad write
never destroys an existing save.
"""

from __future__ import annotations

import datetime as _dt
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import yaml

from .errors import IllegalAction, SaveError, TabletopError
from .registry import controller_class

FORMAT = "tabletop-match"
VERSION = 1
#: version -> function upgrading a save dict of that version to version + 1.
UPGRADERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
MAX_BYTES = 16 * 1024 * 1024


def now() -> str:
    """The current local time as ISO text (the client's clock, never the rules')."""
    return _dt.datetime.now().astimezone().isoformat(timespec="seconds")


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
            "created": created,
            "updated": now(),
            "status": match.status(),
            "to_act": [match.seats[s]["name"] for s in to_act],
            "actions": len(match.actions),
            "over": match.is_over(),
        },
    }


def write_yaml_atomic(path: str | Path, document: Any) -> None:
    """Dump ``document`` with the safe dumper to ``path`` via a temporary file."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = yaml.dump(document, Dumper=Dumper, sort_keys=False, allow_unicode=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise SaveError(path, f"could not be written ({exc.strerror or exc}).") from None


def save_match(match: Any, path: str | Path) -> None:
    """Write ``match`` to ``path`` atomically."""
    write_yaml_atomic(path, match_document(match))


def read_yaml(path: str | Path) -> Any:
    """Parse a YAML file with the safe loader; SaveError on any failure."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise SaveError(path, "is too large to be a save.")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(path, "does not exist.") from None
    except UnicodeDecodeError:
        raise SaveError(path, "is not a text file.") from None
    except OSError as exc:
        raise SaveError(path, f"could not be read ({exc.strerror or exc}).") from None
    try:
        return yaml.load(text, Loader=SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" near line {mark.line + 1}" if mark is not None else ""
        raise SaveError(path, f"is damaged: it is not valid YAML{where}.") from None


def _need(doc: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    if key not in doc:
        raise SaveError(path, f"is incomplete: '{key}' is missing (was the file cut short?).")
    value = doc[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SaveError(path, f"is damaged: '{key}' has the wrong kind of value.")
    return value


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


def load_match(path: str | Path) -> Any:
    """Read, validate and replay a save; SaveError says what is wrong with which file."""
    from .match import Match

    path = Path(path)
    doc = read_yaml(path)
    if not isinstance(doc, dict):
        raise SaveError(path, "is not a Tabletop save (it is empty or not a mapping).")
    if doc.get("format") != FORMAT:
        raise SaveError(path, "is not a Tabletop save (its format is unknown).")
    doc = upgrade(doc, path)
    game_id = _need(doc, "game", str, path)
    try:
        cls = controller_class(game_id)
    except TabletopError:
        raise SaveError(path, f"is for a game this program does not have ({game_id!r}).") from None
    rules_version = _need(doc, "rules_version", int, path)
    if rules_version != cls.rules_version:
        raise SaveError(path, f"was played under rules version {rules_version} of {cls.title}; "
                              f"this program has version {cls.rules_version}.")
    seats = _need(doc, "seats", list, path)
    options = _need(doc, "options", dict, path)
    seed = _need(doc, "seed", int, path)
    actions = _need(doc, "actions", list, path)
    snapshot = _need(doc, "snapshot", dict, path)
    meta = _need(doc, "meta", dict, path)
    try:
        match = Match(game_id, seats, seed, options)
    except ValueError as exc:
        raise SaveError(path, f"is damaged: {exc}") from None
    for number, record in enumerate(actions, start=1):
        if (not isinstance(record, dict) or not isinstance(record.get("seat"), int)
                or not isinstance(record.get("action"), dict)):
            raise SaveError(path, f"is damaged: action {number} is not a seat and an action.")
        try:
            match.act(record["seat"], record["action"])
        except IllegalAction as exc:
            raise SaveError(path, f"is damaged: action {number} cannot be replayed "
                                  f"({exc.reason})") from None
    if match.snapshot() != snapshot:
        raise SaveError(path, "is damaged: replaying its actions does not give the saved "
                              "position (the file was edited, or the rules changed).")
    check_meta(meta, match, path)
    match.created = meta["created"]
    return match


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


@dataclass
class SaveInfo:
    """One entry of the load screen: a save's metadata, or why it can't be read."""

    path: Path
    meta: dict[str, Any]
    game: str | None
    error: str | None
    modified: float

    @property
    def title(self) -> str:
        return str(self.meta.get("title") or self.game or self.path.stem)


def list_saves(folder: str | Path, pattern: str = "*.yaml") -> list[SaveInfo]:
    """The saves in ``folder`` matching ``pattern``, newest first, without replaying them."""
    folder = Path(folder)
    infos = []
    for path in folder.glob(pattern):
        try:
            modified = path.stat().st_mtime
        except OSError:
            continue
        try:
            doc = read_yaml(path)
            if not isinstance(doc, dict) or doc.get("format") != FORMAT:
                raise SaveError(path, "is not a Tabletop save.")
            meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
            infos.append(SaveInfo(path, meta, str(doc.get("game")), None, modified))
        except SaveError as exc:
            infos.append(SaveInfo(path, {}, None, exc.problem, modified))
    infos.sort(key=lambda info: info.modified, reverse=True)
    return infos
