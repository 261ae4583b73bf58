"""A hint: what the Normal computer player would do for the person at the screen.

The choice is made exactly as a Normal computer seat makes it (the game's ``policy``), from
that person's own view and legal actions only: a hint never looks at anything they may not
see, and never uses the Hard player's search.  It is told in plain words: what to do, and a
one-line reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.engine.table import as_table

#: What an action type means, as "<do this>" (a value of the action is named by {key}).
DOING = {
    "pass": "Pass", "pass_all": "Pass with every unit", "roll": "Roll the die",
    "keep": "Keep this roll", "reroll": "Roll again", "shield": "Raise your shield",
    "take": "Take what lies here", "stop": "Stop here", "rally": "Rally",
    "search": "Search this hex", "pickup": "Pick up what lies here", "burrow": "Burrow",
    "defer": "Defer your turn", "end": "End your turn", "deactivate": "Deactivate the trap",
    "accept": "Accept the trade", "decline": "Decline the trade", "skip": "Skip",
    "draw": "Draw cards", "break_free": "Break free",
}
#: Why the Normal player likes an action of that type, in plain words (one line).
WHY = {
    "pick": "Its power suits the race ahead better than the others left.",
    "choose": "It is the strongest choice for what you know of the game so far.",
    "roll": "You have to roll to move on, and nothing else is worth doing first.",
    "step": "It heads for the finish and keeps you out of harm's way.",
    "keep": "The roll is good enough: rolling again risks a worse one.",
    "reroll": "The roll is poor: another throw is likely better.",
    "use": "Using it now gains the most while it still matters.",
    "shield": "Your shield stops the shock that is coming at you.",
    "take": "What lies here helps you later in the race.",
    "tactical": "The side step leaves you better placed for what comes next.",
    "stop": "Stopping here is better than going on.",
    "select": "This unit can do the most useful thing this turn.",
    "move": "It brings you closer to what you are after, without walking into danger.",
    "attack": "The odds of this attack are good and it weakens the other side.",
    "shoot": "You can hurt them from where you stand, without going close.",
    "rally": "More troops make every later turn stronger.",
    "search": "Searching may find treasure or a quest item here.",
    "pickup": "What lies here makes this unit stronger.",
    "open": "The chest is within reach: open it before someone else does.",
    "pass": "Nothing you may do now gains more than waiting.",
    "pass_all": "None of your units gains anything by acting this round.",
    "lucky": "Your luck is best spent on this roll.",
    "give": "The item is more useful in the other unit's hands.",
    "escape": "This hex takes the kitten out of danger.",
    "start": "It is a safe start, close to treasure and far from trouble.",
    "flag": "Your flag is safest here, hard for others to reach.",
    "peek": "Knowing what is under that tile makes the next step safe.",
    "far_peek": "Knowing what lies further ahead saves a bad step later.",
    "sneak": "Sneaking past gets you there without setting the trap off.",
    "disarm": "Disarming the trap clears the way for everyone.",
    "deactivate": "Each trap switched off brings the crew closer to the way out.",
    "defer": "Someone better placed should act first.",
    "end": "Nothing left this turn is worth its cost.",
    "assist": "Your companion is stuck; helping keeps the whole crew moving.",
    "propose": "A trade with this player is likely to help your team.",
    "accept": "The trade is likely to help your team.",
    "decline": "The trade is unlikely to help your team.",
    "vote": "This is the choice your team most likely wants.",
    "destiny": "This destiny fits what you know of the voyage.",
    "bet": "The bet pays well for what you know of the voyage.",
    "play": "This card moves the adventure your way at the least cost.",
    "draw": "Your hand is thin: more cards keep your choices open.",
    "claim": "This reward is worth the most to you now.",
    "skip": "Nothing here is worth its cost.",
    "break_free": "Breaking free lets you act again.",
}


def plain(value: Any) -> str:
    """An id in words: ``stealing_gloves`` -> ``stealing gloves``."""
    return str(value).replace("_", " ")


def suggest(table: Any, seat: int) -> dict[str, Any] | None:
    """The action a Normal computer player would take for ``seat`` now (from ``seat``'s own
    view: the game's policy sees only ``table.view(seat)`` and the legal actions), or None
    when ``seat`` has nothing to do.  ``table``: a Table (game/engine/table.py) or a Match.
    Asked before the hint is recorded, with the generator a computer seat would use at this
    point (on a local table), so the same position gives the same hint."""
    table = as_table(table)
    legal = table.legal_actions(seat)
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    rng = table.hint_rng(seat)
    choice = table.cls.policy(table.view(seat), legal, rng)
    return choice if choice is not None else rng.choice(legal)


def coordinates(value: Any) -> str:
    if isinstance(value, str):  # a place's own name ("reward:3")
        return value.replace(":", " tile ")
    return f"{value[0]},{value[1]}"


NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
           8: "eight", 9: "nine"}


def relative(dx: int, dy: int, what: str = "square") -> str:
    """A place ``dx`` columns right and ``dy`` rows down of the player's own piece, in the
    words a player sees on the board: "the square left of you", "the square two up",
    "the square two right and one down of you"."""
    if dx == dy == 0:
        return f"the {what} you stand on"
    if abs(dx) + abs(dy) == 1:
        side = {(-1, 0): "left of you", (1, 0): "right of you", (0, -1): "above you",
                (0, 1): "below you"}[(dx, dy)]
        return f"the {what} {side}"
    parts = []
    for amount, less, more in ((dx, "left", "right"), (dy, "up", "down")):
        if amount:
            count = NUMBERS.get(abs(amount), str(abs(amount)))
            parts.append(f"{count} {less if amount < 0 else more}")
    return f"the {what} " + " and ".join(parts) + " of you"


def describe(table: Any, seat: int, action: dict[str, Any], place: Any = coordinates) -> str:
    """``action`` in a few plain words, named from ``seat``'s own view; ``place`` names a
    board place the way the screen does (e.g. ``F3``)."""
    kind = action.get("type", "")
    table = as_table(table)
    view = table.view(seat)
    names = [s["name"] for s in table.seats]

    def who(value: Any) -> str:
        return names[value] if isinstance(value, int) and 0 <= value < len(names) else plain(value)

    def unit(uid: Any) -> str:
        for u in view.get("units", []) if isinstance(view.get("units"), list) else []:
            if u.get("id") == uid:
                owner = "your " if u.get("owner") == seat else ""
                return f"{owner}{u.get('name', 'unit')} at {place(u['hex'])}"
        return "that unit"

    if kind in ("move", "sneak", "skip") and "to" in action:
        return f"{plain(kind).capitalize()} to {place(action['to'])}"
    if kind in ("peek", "far_peek", "disarm") and "at" in action:
        return f"{plain(kind).capitalize()} at {place(action['at'])}"
    if kind == "step" or kind == "tactical":
        way = {-1: "left", 0: "straight ahead", 1: "right"}.get(action.get("dx"), "on")
        return ("Step " if kind == "step" else "Side-step ") + way
    if kind in ("pick", "choose") and "character" in action:
        return f"Take the {plain(action['character'])}"
    if kind == "choose":
        parts = [f"slot {action['slot']}"] if "slot" in action else []
        if "communal" in action:
            parts.append(f"communal number {action['communal']}")
        return "Choose " + " and ".join(parts) if parts else "Make your choice"
    if kind == "use":
        target = f" on {who(action['seat'])}" if "seat" in action else ""
        where = f" at {place(action['cell'])}" if "cell" in action else ""
        return f"Use the {plain(action.get('object', 'object'))}{target}{where}"
    if kind == "select":
        return f"Choose {unit(action.get('unit'))}" + (" to ride" if "ride" in action else "")
    if kind in ("attack", "shoot"):
        return f"{kind.capitalize()} {unit(action.get('target'))}"
    if kind == "open":
        return "Open the chest"
    if kind == "give":
        return f"Give the item to {unit(action.get('to'))}"
    if kind == "lucky":
        return "Use your luck" if action.get("change") else "Keep the roll as it is"
    if kind in ("start", "flag") and "hex" in action:
        return f"Put your {'start' if kind == 'start' else 'flag'} at {place(action['hex'])}"
    if kind == "escape":
        return f"Escape to {place(action['to'])}"
    if kind == "assist":
        return f"Assist {who(action.get('seat'))}"
    if kind == "propose":
        return f"Propose a trade to {who(action.get('to'))}"
    if kind == "vote":
        return f"Vote for {who(action.get('candidate'))}"
    if kind == "destiny":
        return f"Put your destiny chip on your Destiny card {action.get('slot', 0) + 1}"
    if kind == "bet":
        if "round" in action:
            return f"Bet on the voyage lasting to round {action['round']}"
        return f"Bet on destiny {action.get('destiny', 0) + 1}"
    if kind == "play":
        return f"Play your card {plain(action.get('card', ''))}"
    if kind == "claim":
        return "Claim " + place(f"reward:{action.get('tile')}")
    if kind == "draw" and "help" in action:
        return "Draw cards" + (" from the help deck" if action["help"] else "")
    return DOING.get(kind, plain(kind).capitalize())


@dataclass
class Hint:
    """A hint shown to ``seat``: the action, in words, with a reason, and the board places
    it means (marked), valid while the table is at step ``at``."""

    seat: int
    at: int
    action: dict[str, Any]
    what: str
    why: str

    @property
    def line(self) -> str:
        return f"Hint: {self.what}. {self.why}"


def hint_for(table: Any, seat: int, place: Any = coordinates,
             action: dict[str, Any] | None = None) -> Hint | None:
    """What a Normal computer player would do for ``seat`` now, in words (None: nothing);
    ``table``: a Table or a Match.  ``action``: the suggestion already worked out (online,
    by the referee), put in words here."""
    table = as_table(table)
    if action is None:
        action = suggest(table, seat)
    if action is None:
        return None
    why = WHY.get(action.get("type", ""), "The computer player rates it best of what you may "
                                           "do now.")
    if len(table.legal_actions(seat)) == 1:
        why = "It is the only thing you may do now."
    return Hint(seat, table.step, action, describe(table, seat, action, place), why)
