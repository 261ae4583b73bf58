"""Lessons ("Learn to play"): a guided first game of a title, on the real board, by doing.

A lesson is data, one file per game, ``game/<game_id>/lesson.yaml``; this module (pure: no
pygame, no clock) loads it with the saves' bounded safe YAML reader, validates it, checks it
against today's rules (:func:`check_lesson`), and guards a lesson being played
(:class:`LessonGuard`: the match consults it, so a refusal reads "In this lesson: ..." through
the same path as every other refusal, and ``Match.why_not`` gives the same words).
The UI (``game/ui/scenes/lesson*.py``) plays it.

The file format (version 1; fixed, shared by every game's lesson; fields marked OPTIONAL may
be left out)::

    version: 1
    title: "Learn Fantasy Racing"        # shown in the Learn to play list
    minutes: 8                           # about how long the lesson takes a newcomer (5 to 15)
    seed: 4242                           # the match's seed (a whole number)
    options: {}                          # the game's options; missing ones take their defaults
    seats:                               # exactly as Match.new takes them
      - {name: You, kind: human}
      - {name: Bo, kind: bot, level: easy}
    learner: [0]                         # the seat(s) the learner plays; each must be human
    intro: "One or two sentences shown before the first step."
    teaches: ["Movement", "Fights"]      # the TOP-LEVEL (##) headings of rules.md it teaches
    skips:                               # every other ## heading, with why it is not taught
      "Rulings": "looked up when a question comes up, not taught in a first game"
    steps:                               # every action of the lesson, in order
      - seat: 0                          # a learner seat: the learner must do exactly `do`;
        do: {type: roll}                 #   anything else is refused "In this lesson: <say>"
        say: "What happens now and why, in one or two plain sentences."
        section: "Movement"              # a ## or ### heading of rules.md ("Why?" opens it)
        point: {button: "Roll"}          # OPTIONAL: what to point at; default: the places and
                                         #   panel buttons the screen finds for `do` (as the
                                         #   Hint does).  {cell: [x, y]} / {cell: "name"} /
                                         #   {button: "label text"} (a button whose label is,
                                         #   or begins with, the text; case aside).  Used
                                         #   while it is on screen, so it can name the first
                                         #   click of a two-click action ("Aim ..."), after
                                         #   which the default finds the second.
        follow: true                     # OPTIONAL: play the resolution in step mode
        captions: ["first step ...", "second step ..."]   # OPTIONAL with follow
      - seat: 1                          # a computer seat: the lesson plays `do` for it,
        do: {type: roll}                 #   slowly, with `say` as the caption
        say: "Bo rolled a 5 and moved past the obstacle."
        section: "The dice"
    outro:
      learned:                           # the checklist shown at the end (3 to 8 lines)
        - "How a turn goes: roll, move, ..."

Rules the checker enforces (:func:`check_lesson`, and ``tests/test_lessons.py`` over every
lesson): replaying the steps from ``Match.new(game, seats, seed, options)`` succeeds, each
step's seat being in ``to_act()`` then; learner seats are human, the others bots; every
``section`` is a heading of rules.md; every ``teaches`` entry is a ``##`` heading that is the
section (or the ``##`` parent of the section) of a learner step or a followed computer step;
``teaches`` and ``skips`` cover every ``##`` heading; ``say`` is 1 or 2 sentences of at most
260 characters, captions at most 160; a computer step's text names nothing the learner may not
see (no word of another seat's view that the learner's view lacks); 15 to 60 learner steps.

Saves: a lesson being played is an ordinary save with a ``lesson`` header
(see :func:`lesson_record`); "Play on from here" drops the guard, so the save becomes
ordinary.  Hints asked during a lesson are recorded as ``@hint`` actions, which are no game
actions: a lesson's step is the number of game actions played (:func:`played`), so hints and
undo keep it consistent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import IllegalAction, SaveError, TabletopError
from .registry import controller_class, game_ids

LESSON_VERSION = 1
LESSON_FILE = "lesson.yaml"
GLANCE_FILE = "glance.yaml"
MAX_SAY = 260
MAX_CAPTION = 160
MIN_LEARNER_STEPS, MAX_LEARNER_STEPS = 15, 60
#: The refusal's opening words ("In this lesson: <say>").
REFUSAL = "In this lesson: "
_GAMES_DIR = Path(__file__).resolve().parents[1]
_KEYS = {"version", "title", "minutes", "seed", "options", "seats", "learner", "intro",
         "teaches", "skips", "steps", "outro"}
_STEP_KEYS = {"seat", "do", "say", "section", "point", "follow", "captions"}


class LessonError(TabletopError):
    """A lesson file that cannot be used; the message says which file and what is wrong."""


@dataclass
class Step:
    seat: int
    do: dict[str, Any]
    say: str
    section: str
    point: dict[str, Any] | None = None
    follow: bool = False
    captions: list[str] = field(default_factory=list)


@dataclass
class Lesson:
    game_id: str
    title: str
    minutes: int
    seed: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    learner: list[int]
    intro: str
    teaches: list[str]
    skips: dict[str, str]
    steps: list[Step]
    learned: list[str]

    def is_learner(self, step: Step) -> bool:
        return step.seat in self.learner

    @property
    def learner_steps(self) -> int:
        return sum(1 for s in self.steps if self.is_learner(s))

    def new_match(self) -> Any:
        """A fresh match of this lesson, with its guard attached."""
        from .match import Match
        match = Match.new(self.game_id, [dict(s) for s in self.seats], self.seed,
                          dict(self.options))
        match.guard = LessonGuard(self)
        return match


# ---------------------------------------------------------------------------- files
def game_dir(game_id: str) -> Path:
    return _GAMES_DIR / game_id


def lesson_path(game_id: str) -> Path:
    return game_dir(game_id) / LESSON_FILE


def has_lesson(game_id: str) -> bool:
    return lesson_path(game_id).is_file()


def lesson_games() -> list[str]:
    """The installed games that have a lesson file."""
    return [g for g in game_ids() if has_lesson(g)]


def read_data(path: Path) -> Any:
    """A YAML data file read with the saves' bounded safe loader; LessonError on failure."""
    from .saves import read_yaml
    try:
        return read_yaml(path, max_bytes=1024 * 1024)
    except SaveError as exc:
        raise LessonError(str(exc)) from None


def rules_headings(game_id: str) -> list[tuple[int, str]]:
    """(level, text) of every ``##`` and ``###`` heading of the game's rules document,
    outside fenced code."""
    cls = controller_class(game_id)
    text = (game_dir(game_id) / cls.rules_document).read_text(encoding="utf-8")
    out, fenced = [], False
    for line in text.splitlines():
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            continue
        match = re.match(r"^(##|###)\s+(.+?)\s*#*\s*$", line)
        if match and not fenced:
            out.append((len(match.group(1)), match.group(2).strip()))
    return out


def top_section(game_id: str, heading: str) -> str | None:
    """The ``##`` heading that ``heading`` (a ## or ### heading) belongs to, or None."""
    parent = None
    for level, text in rules_headings(game_id):
        if level == 2:
            parent = text
        if text == heading:
            return parent
    return None


def sentences(text: str) -> int:
    """How many sentences ``text`` holds (ends of . ! ? followed by a space or the end).

    >>> sentences("Roll the die. Then move, e.g. down!")
    2
    """
    text = re.sub(r"\b(e\.g|i\.e|etc|vs|Mr|Dr|St)\.", "x", text.strip())
    return len(re.findall(r"[.!?]+[\"')\]]*(?=\s|$)", text)) or (1 if text else 0)


# ---------------------------------------------------------------------------- parsing
def _str(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _good_point(point: Any) -> bool:
    if not isinstance(point, dict) or len(point) != 1:
        return False
    if "button" in point:
        return _str(point["button"])
    cell = point.get("cell")
    return _str(cell) or (isinstance(cell, list) and len(cell) == 2
                          and all(_int(v) for v in cell))


def parse_lesson(doc: Any, game_id: str) -> tuple[Lesson | None, list[str]]:
    """The lesson in ``doc`` and the problems of its form (a lesson only when none)."""
    problems: list[str] = []
    if not isinstance(doc, dict):
        return None, ["the file is not a mapping of fields"]
    for key in sorted(set(doc) - _KEYS):
        problems.append(f"unknown field {key!r}")
    for key in sorted(_KEYS - set(doc)):
        problems.append(f"field {key!r} is missing")
    if problems:
        return None, problems
    if doc["version"] != LESSON_VERSION:
        problems.append(f"version must be {LESSON_VERSION}, not {doc['version']!r}")
    for key in ("title", "intro"):
        if not _str(doc[key]):
            problems.append(f"{key!r} must be some text")
    if not _int(doc["minutes"]) or not 5 <= doc["minutes"] <= 15:
        problems.append("'minutes' must be a whole number from 5 to 15")
    if not _int(doc["seed"]) or not 0 <= doc["seed"] < 2 ** 63:
        problems.append("'seed' must be a whole number from 0 to 2^63-1")
    if not isinstance(doc["options"], dict):
        problems.append("'options' must be a mapping")
    seats = doc["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        problems.append("'seats' must be a list of seats")
        seats = []
    learner = doc["learner"]
    if (not isinstance(learner, list) or not learner or not all(_int(s) for s in learner)
            or len(set(learner)) != len(learner)):
        problems.append("'learner' must be a list of seat numbers")
        learner = []
    for s in learner:
        if not 0 <= s < len(seats):
            problems.append(f"learner seat {s} is not a seat")
    for number, seat in enumerate(seats):
        want = "human" if number in learner else "bot"
        if seat.get("kind", "human") != want:
            problems.append(f"seat {number} must be kind {want} "
                            f"({'a learner seat' if want == 'human' else 'a computer seat'})")
    teaches = doc["teaches"]
    if not isinstance(teaches, list) or not all(_str(t) for t in teaches):
        problems.append("'teaches' must be a list of headings")
        teaches = []
    skips = doc["skips"]
    if not isinstance(skips, dict) or not all(_str(k) and _str(v) for k, v in skips.items()):
        problems.append("'skips' must map headings to a reason")
        skips = {}
    outro = doc["outro"]
    learned = outro.get("learned") if isinstance(outro, dict) else None
    if (not isinstance(learned, list) or not 3 <= len(learned) <= 8
            or not all(_str(t) for t in learned)):
        problems.append("'outro' must hold 'learned': a list of 3 to 8 lines")
        learned = []
    if isinstance(outro, dict) and set(outro) - {"learned"}:
        problems.append(f"unknown outro field {sorted(set(outro) - {'learned'})[0]!r}")
    steps: list[Step] = []
    raw = doc["steps"]
    if not isinstance(raw, list) or not raw:
        problems.append("'steps' must be a list of steps")
        raw = []
    for number, item in enumerate(raw, start=1):
        where = f"step {number}"
        if not isinstance(item, dict):
            problems.append(f"{where} is not a mapping")
            continue
        for key in sorted(set(item) - _STEP_KEYS):
            problems.append(f"{where}: unknown field {key!r}")
        missing = [k for k in ("seat", "do", "say", "section") if k not in item]
        if missing:
            problems.append(f"{where}: {missing[0]!r} is missing")
            continue
        if not _int(item["seat"]) or not 0 <= item["seat"] < max(len(seats), 1):
            problems.append(f"{where}: 'seat' is not a seat number")
            continue
        if not isinstance(item["do"], dict) or not isinstance(item["do"].get("type"), str):
            problems.append(f"{where}: 'do' must be an action with a 'type'")
            continue
        say = item["say"]
        if not _str(say):
            problems.append(f"{where}: 'say' must be some text")
            say = ""
        elif len(say) > MAX_SAY:
            problems.append(f"{where}: 'say' is {len(say)} characters (at most {MAX_SAY})")
        elif not 1 <= sentences(say) <= 2:
            problems.append(f"{where}: 'say' must be one or two sentences, not "
                            f"{sentences(say)}")
        if not _str(item["section"]):
            problems.append(f"{where}: 'section' must be a heading")
        point = item.get("point")
        if point is not None and not _good_point(point):
            problems.append(f"{where}: 'point' must be {{cell: [x, y]}}, {{cell: name}} or "
                            f"{{button: label}}")
            point = None
        follow = item.get("follow", False)
        if not isinstance(follow, bool):
            problems.append(f"{where}: 'follow' must be true or false")
            follow = False
        captions = item.get("captions", [])
        if not isinstance(captions, list) or not all(_str(c) for c in captions):
            problems.append(f"{where}: 'captions' must be a list of lines")
            captions = []
        elif captions and not follow:
            problems.append(f"{where}: 'captions' need 'follow: true'")
        for caption in captions:
            if len(caption) > MAX_CAPTION:
                problems.append(f"{where}: a caption is {len(caption)} characters "
                                f"(at most {MAX_CAPTION})")
        steps.append(Step(item["seat"], dict(item["do"]), str(say).strip(),
                          str(item["section"]).strip(), point, follow, list(captions)))
    if problems:
        return None, problems
    lesson = Lesson(game_id, doc["title"].strip(), doc["minutes"], doc["seed"],
                    dict(doc["options"]), [dict(s) for s in seats], list(learner),
                    doc["intro"].strip(), [t.strip() for t in teaches],
                    {k.strip(): v.strip() for k, v in skips.items()}, steps,
                    [t.strip() for t in learned])
    return lesson, []


_CACHE: dict[str, tuple[tuple[int, int], Lesson]] = {}


def load_lesson(game_id: str) -> Lesson:
    """The game's lesson, its form checked; LessonError says what is wrong."""
    path = lesson_path(game_id)
    try:
        info = path.stat()
    except OSError:
        raise LessonError(f"{controller_class(game_id).title} has no lesson yet.") from None
    key = (info.st_mtime_ns, info.st_size)
    cached = _CACHE.get(game_id)
    if cached is not None and cached[0] == key:
        return cached[1]
    lesson, problems = parse_lesson(read_data(path), game_id)
    if lesson is None:
        raise LessonError(f"{path.name} of {game_id}: " + "; ".join(problems[:3]) + ".")
    _CACHE[game_id] = (key, lesson)
    return lesson


# ---------------------------------------------------------------------------- checking
def _words(value: Any, out: set[str]) -> set[str]:
    """Every string (and its words with '_' read as a space) held anywhere in ``value``."""
    if isinstance(value, str):
        text = value.lower()
        out.add(text)
        out.add(text.replace("_", " "))
    elif isinstance(value, dict):
        for key, item in value.items():
            _words(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _words(item, out)
    return out


def hidden_words(match: Any, learner: list[int]) -> set[str]:
    """Strings (4+ letters) in another seat's view that no learner seat's view holds: a
    computer step's text must never name one."""
    seen: set[str] = set()
    for seat in learner:
        _words(match.view(seat), seen)
    others: set[str] = set()
    for seat in range(len(match.seats)):
        if seat not in learner:
            _words(match.view(seat), others)
    return {w for w in others - seen
            if len(w) >= 4 and re.search(r"[a-z]", w) and not re.fullmatch(r"[\d\W_]+", w)}


def _mentions(text: str, word: str) -> bool:
    return re.search(r"(?<![a-z])" + re.escape(word) + r"(?![a-z])", text.lower()) is not None


def leaks(text: str, word: str, rules_text: str, others: list[str]) -> bool:
    """Whether ``text`` gives away the hidden ``word``: an id of the game's data (a word the
    rules never use, such as a card's id) whenever it is named; a word of the rules (a team,
    a side, a card's kind) only when the text also names another seat, so "Help or Hinder"
    explains the rule but "Bo played Hinder" tells a secret."""
    if not _mentions(text, word):
        return False
    if not _mentions(rules_text, word):
        return True
    return any(name and _mentions(text, name) for name in others)


def check_lesson(game_id: str) -> list[str]:
    """Every problem of the game's lesson against today's rules (empty: it is good)."""
    from .match import Match
    path = lesson_path(game_id)
    if not path.is_file():
        return [f"{game_id} has no {LESSON_FILE}"]
    try:
        lesson, problems = parse_lesson(read_data(path), game_id)
    except LessonError as exc:
        return [str(exc)]
    if lesson is None:
        return problems
    headings = rules_headings(game_id)
    tops = [text for level, text in headings if level == 2]
    every = {text for _level, text in headings}
    for step_no, step in enumerate(lesson.steps, start=1):
        if step.section not in every:
            problems.append(f"step {step_no}: section {step.section!r} is not a heading of "
                            f"rules.md")
    taught = {top_section(game_id, s.section) for s in lesson.steps
              if lesson.is_learner(s) or s.follow}
    for heading in lesson.teaches:
        if heading not in tops:
            problems.append(f"teaches {heading!r}: not a ## heading of rules.md")
        elif heading not in taught:
            problems.append(f"teaches {heading!r}: no learner step (or followed computer "
                            f"step) has it as its section")
    for heading in lesson.skips:
        if heading not in tops:
            problems.append(f"skips {heading!r}: not a ## heading of rules.md")
        if heading in lesson.teaches:
            problems.append(f"{heading!r} is both taught and skipped")
    for heading in tops:
        if heading not in lesson.teaches and heading not in lesson.skips:
            problems.append(f"## {heading!r} is neither taught nor skipped")
    count = lesson.learner_steps
    if not MIN_LEARNER_STEPS <= count <= MAX_LEARNER_STEPS:
        problems.append(f"{count} learner steps (a lesson has {MIN_LEARNER_STEPS} to "
                        f"{MAX_LEARNER_STEPS})")
    cls = controller_class(game_id)
    rules_text = (game_dir(game_id) / cls.rules_document).read_text(encoding="utf-8").lower()
    others = [str(s.get("name", "")).lower() for n, s in enumerate(lesson.seats)
              if n not in lesson.learner]
    try:
        match = Match.new(game_id, [dict(s) for s in lesson.seats], lesson.seed,
                          dict(lesson.options))
    except IllegalAction as exc:
        return problems + [f"the match cannot be set up: {exc.reason}"]
    for step_no, step in enumerate(lesson.steps, start=1):
        if step.seat not in match.to_act():
            waiting = match.to_act()
            problems.append(f"step {step_no}: seat {step.seat} is not to act (waiting for "
                            f"{waiting})")
            break
        try:
            match.act(step.seat, step.do)
        except IllegalAction as exc:
            problems.append(f"step {step_no}: {step.do} is no longer legal: {exc.reason}")
            break
        if not lesson.is_learner(step):
            secret = hidden_words(match, lesson.learner)
            for text in [step.say] + step.captions:
                named = sorted(w for w in secret if leaks(text, w, rules_text, others))
                if named:
                    problems.append(f"step {step_no}: its text names {named[0]!r}, which the "
                                    f"learner may not see")
    return problems


# ---------------------------------------------------------------------------- glance
#: "Rules at a glance" (``game/<game_id>/glance.yaml``), one screen per game:
#:
#:     turn: ["how a turn goes, one short line a stage", ...]   # 2 to 7 lines
#:     win: "how to win, in one or two sentences"
#:     forget: ["three things", "beginners", "forget"]          # exactly 3
#:
#: Lines at most 120 characters (``win`` 240); ``version: 1`` may be given.
GLANCE_LINE, GLANCE_WIN = 120, 240


def parse_glance(doc: Any) -> tuple[dict[str, Any] | None, list[str]]:
    problems: list[str] = []
    if not isinstance(doc, dict):
        return None, ["the file is not a mapping of fields"]
    for key in sorted(set(doc) - {"version", "turn", "win", "forget"}):
        problems.append(f"unknown field {key!r}")
    if doc.get("version", 1) != 1:
        problems.append("version must be 1")
    turn, forget, win = doc.get("turn"), doc.get("forget"), doc.get("win")
    if not isinstance(turn, list) or not 2 <= len(turn) <= 7 or not all(_str(t) for t in turn):
        problems.append("'turn' must be a list of 2 to 7 lines")
    if not isinstance(forget, list) or len(forget) != 3 or not all(_str(t) for t in forget):
        problems.append("'forget' must be a list of exactly 3 lines")
    if not _str(win):
        problems.append("'win' must be some text")
    elif len(win) > GLANCE_WIN:
        problems.append(f"'win' is {len(win)} characters (at most {GLANCE_WIN})")
    for line in (turn if isinstance(turn, list) else []) + (
            forget if isinstance(forget, list) else []):
        if isinstance(line, str) and len(line) > GLANCE_LINE:
            problems.append(f"a line is {len(line)} characters (at most {GLANCE_LINE}): "
                            f"{line[:40]!r}...")
    if problems:
        return None, problems
    return {"turn": [t.strip() for t in turn], "win": win.strip(),
            "forget": [t.strip() for t in forget]}, []


def glance_path(game_id: str) -> Path:
    return game_dir(game_id) / GLANCE_FILE


def load_glance(game_id: str) -> dict[str, Any] | None:
    """The game's "rules at a glance", or None when it has none or it is unusable."""
    path = glance_path(game_id)
    if not path.is_file():
        return None
    try:
        glance, _problems = parse_glance(read_data(path))
    except LessonError:
        return None
    return glance


def check_glance(game_id: str) -> list[str]:
    path = glance_path(game_id)
    if not path.is_file():
        return [f"{game_id} has no {GLANCE_FILE}"]
    try:
        return parse_glance(read_data(path))[1]
    except LessonError as exc:
        return [str(exc)]


# ---------------------------------------------------------------------------- playing
def played(match: Any) -> int:
    """How many game actions (not hint records) the match holds: the lesson's step."""
    return sum(1 for record in match.actions if not match.is_hint(record))


class LessonGuard:
    """Keeps a match to its lesson's script: consulted by ``Match.act`` and
    ``Match.why_not``, it refuses every action but the current step's with "In this lesson:
    <what the step says>".  Hints always pass (they are recorded, never played)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson

    def step_index(self, match: Any) -> int:
        return played(match)

    def on_script(self, match: Any) -> bool:
        """Whether every game action so far is the lesson's (a lesson file changed since a
        save was made may leave a match off its script: then the guard lets it be)."""
        done = [r for r in match.actions if not match.is_hint(r)]
        steps = self.lesson.steps
        return len(done) <= len(steps) and all(
            r["seat"] == s.seat and r["action"] == s.do for r, s in zip(done, steps))

    def current(self, match: Any) -> Step | None:
        """The step awaited now, or None (the lesson is over or off its script)."""
        index = self.step_index(match)
        if index >= len(self.lesson.steps) or not self.on_script(match):
            return None
        return self.lesson.steps[index]

    def finished(self, match: Any) -> bool:
        return self.step_index(match) >= len(self.lesson.steps) or not self.on_script(match)

    def refusal(self, match: Any, seat: int, action: dict[str, Any]) -> str | None:
        """Why the lesson refuses ``action`` by ``seat`` now, or None when it allows it."""
        if isinstance(action, dict) and action.get("type") == "@hint":
            return None
        step = self.current(match)
        if step is None:
            return None
        if seat == step.seat and action == step.do:
            return None
        if seat != step.seat and not self.lesson.is_learner(step):
            return REFUSAL + "wait: the computer is about to play."
        return REFUSAL + step.say

    def record(self, match: Any) -> dict[str, Any]:
        """The ``lesson`` header of a save of this match."""
        return {"version": LESSON_VERSION, "game": self.lesson.game_id,
                "steps": len(self.lesson.steps), "done": min(played(match),
                                                             len(self.lesson.steps))}


def check_record(record: Any, game_id: str) -> str | None:
    """What is wrong with a save's ``lesson`` header, or None."""
    if not isinstance(record, dict):
        return "its lesson is not a mapping"
    if record.get("game") != game_id:
        return "its lesson is for another game"
    if record.get("version") != LESSON_VERSION:
        return "its lesson has an unknown version"
    for key in ("steps", "done"):
        if not _int(record.get(key)) or not 0 <= record[key] <= 100_000:
            return f"its lesson's {key!r} is not a count"
    if record["done"] > record["steps"]:
        return "its lesson has more steps done than it holds"
    return None


def attach(match: Any) -> bool:
    """Attach the game's lesson guard to a loaded lesson save's match when the lesson still
    fits it (same seed and seats); True when attached."""
    try:
        lesson = load_lesson(match.game_id)
    except (LessonError, OSError):
        return False
    if lesson.seed != match.seed or [s["name"] for s in lesson.seats] != [
            s["name"] for s in match.seats]:
        return False
    match.guard = LessonGuard(lesson)
    return True


def play_on(match: Any) -> None:
    """"Play on from here": the lesson's match goes on as an ordinary game, every computer
    seat at Easy (its save is then an ordinary save, with no lesson header)."""
    match.guard = None
    for seat in match.seats:
        if seat.get("kind") == "bot":
            seat["level"] = "easy"


__all__ = ["Lesson", "Step", "LessonError", "LessonGuard", "load_lesson", "check_lesson",
           "has_lesson", "lesson_games", "rules_headings", "top_section", "played",
           "lesson_path", "check_record", "attach", "play_on", "load_glance",
           "check_glance"]
