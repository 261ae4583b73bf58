"""Odysseus: Winds of Fate's rule controller.

The game runs as a small state machine.  ``self.step`` names what happens
next; automatic steps (encounter effects, resolving an adventure, the
journey, wandering) run by themselves in :meth:`_run`, and the machine stops
whenever a seat must decide: a *prompt* (bet, Destiny action, draw, claim) at
the head of ``self.prompts``, or a card to play or pass in the ``play`` step.

Steps: ``setup`` -> ``encounter`` -> ``adventure`` -> ``play`` -> ``claim`` ->
``resolve`` -> ``journey`` -> (``encounter`` | ``wander_arrive`` ->
``wander_move`` -> ...), and ``over``.
"""

from __future__ import annotations

from typing import Any

from game.engine import Action, Controller, Event, Rng, View, event
from game.engine.search import SearchSettings

from . import hard
from .data import (CARDS, CREW, DATA, DESTINIES, ENCOUNTERS, LINKS, OLYMPUS, OLYMPUS_BY_ID,
                   REWARDS, SEA_SPACES, TILES, TURN_TILES)

__all__ = ["OdysseusController", "bet_payout", "adventure_outcome", "bet_stack_size"]

ENDINGS = ("safe", "dead", "stranded")
LAST_ROUND = 12
#: The Hard player's playouts per decision, and the actions each plays before the estimate.
SEARCH_PLAYOUTS = 200
SEARCH_DEPTH = 16
SPECIAL_NAMES = {k: v["title"] for k, v in DATA["specials"].items()}
SPECIAL_CONTRIBUTION = DATA["special_contribution"]
DECK_NAMES = {"help": "Help", "hinder": "Hinder"}
GOD_NAMES = {"athena": "Athena", "poseidon": "Poseidon"}


# --------------------------------------------------------------------- pure rules
def bet_payout(stack: int, bet_round: int, final_round: int) -> int:
    """Chips a bet of ``stack`` on ``bet_round`` pays when the game ends on ``final_round``.

    The whole stack on the final round, else 3 chips fewer per space away, never below 0.

    >>> bet_payout(8, 9, 7)
    2
    >>> bet_payout(8, 9, 9), bet_payout(5, 3, 12)
    (8, 0)
    """
    return max(0, stack - 3 * abs(bet_round - final_round))


def adventure_outcome(help_total: int, hinder_total: int) -> str:
    """``"lost"`` when Hinder is strictly greater than Help, else ``"won"`` (a tie wins).

    >>> adventure_outcome(5, 5), adventure_outcome(5, 6)
    ('won', 'lost')
    """
    return "lost" if hinder_total > help_total else "won"


def bet_stack_size(current_round: int, bet_round: int) -> int:
    """Chips in a new bet's stack: 1 from the player plus 1 per space from the current round.

    >>> bet_stack_size(2, 9)   # Tom's bet: 1 chip + 7 from the supply
    8
    """
    return 1 + (bet_round - current_round)


def card_text(card_id: str) -> str:
    """'Help 3', 'Hinder 1' or a special card's title."""
    card = CARDS[card_id]
    if card["special"]:
        return f"{SPECIAL_NAMES[card['special']]} ({DECK_NAMES[card['deck']]} deck)"
    return f"{DECK_NAMES[card['deck']]} {card['value']}"


def reward_text(tile: int) -> str:
    r = REWARDS[tile]
    amount = r["amount"]
    if r["kind"] == "vp":
        what = f"{amount} VP"
    elif r["kind"] == "draw":
        what = f"draw {amount} card{'s' if amount > 1 else ''}"
    elif r["kind"] == "chip":
        what = f"{amount} Bet Chip{'s' if amount > 1 else ''}"
    else:
        what = f"{amount} Destiny action{'s' if amount > 1 else ''}"
    return what


def place(encounter: str) -> str:
    """An encounter's name as it reads inside a sentence.

    >>> place("lotophagi"), place("charybdis"), place("ithaca"), place("troy")
    ('the Isle of the Lotophagi', 'the Dreaded Charybdis', 'Ithaca', 'Troy')
    """
    if encounter == "ithaca":
        return "Ithaca"
    title = ENCOUNTERS[encounter]["title"]
    if title.startswith("The "):
        return "the " + title[4:]
    if title.startswith(("Isle ", "Cliff ")):
        return "the " + title
    return title


def short_place(encounter: str) -> str:
    """An encounter's name without its 'Isle of' (for the one-line status).

    >>> short_place("laestrygonians"), short_place("charybdis"), short_place("troy")
    ('Laestrygonians', 'Charybdis', 'Troy')
    """
    title = ENCOUNTERS[encounter]["title"]
    for prefix in ("Isle of the ", "Isle of ", "The Dreaded ", "Cliff of "):
        title = title.removeprefix(prefix)
    return title


def names_and(names: list[str]) -> str:
    """'Mira', 'Mira and Bo', 'Mira, Bo and Tess'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class OdysseusController(Controller):
    """Three to five seats steer (or sink) Odysseus toward the fate they bet on."""

    game_id = "odysseus"
    title = "Odysseus: Winds of Fate"
    rules_version = 2
    min_seats = 3
    max_seats = 5
    has_secrets = True
    board = "odysseus.tmx"
    options = ()

    def __init__(self, seats: list[dict[str, str]], options: dict[str, Any], rng: Rng) -> None:
        super().__init__(seats, options, rng)
        n = self.n = len(seats)
        tiles = list(TILES)
        rng.shuffle(tiles)
        self.tiles: dict[str, str | None] = {"troy": None, "ithaca": None}
        self.up: dict[str, bool] = {"troy": True, "ithaca": True}
        for space, tile in zip(SEA_SPACES, tiles):
            self.tiles[space], self.up[space] = tile, True
        self.leftover: str = tiles[9]
        self.pos = "troy"
        self.round = 1
        self.crew = CREW[n]
        self.piles: dict[str, list[str]] = {}
        self.discards: dict[str, list[str]] = {"help": [], "hinder": []}
        for deck in ("help", "hinder"):
            pile = sorted(c for c in CARDS if CARDS[c]["deck"] == deck)
            rng.shuffle(pile)
            self.piles[deck] = pile
        self.hands: list[list[str]] = [[] for _ in range(n)]
        for seat in range(n):
            for deck in ("help", "hinder"):
                for _ in range(DATA["deal_per_deck"]):
                    self.hands[seat].append(self.piles[deck].pop())
        self.olympus = [o["id"] for o in OLYMPUS]
        rng.shuffle(self.olympus)
        self.olympus_discard: list[str] = []
        self.last_olympus: str | None = None
        self.order = list(range(n))
        rng.shuffle(self.order)
        self.chips = [DATA["chips_per_seat"]] * n
        self.supply = DATA["bet_chips"] - sum(self.chips)
        self.vp = [0] * n
        self.bets: list[dict[str, int]] = []
        self.next_bet = 1
        self.destiny: list[list[str]] = []
        for _ in range(n):
            cards = list(ENDINGS)
            rng.shuffle(cards)
            self.destiny.append(cards)
        self.destiny_chips = [[0, 0, 0] for _ in range(n)]
        #: A seat looks at its Destiny cards only after its first, blind chip (ruling 31).
        self.looked = [False] * n
        self.adv: dict[str, Any] | None = None
        self.last_outcome: str | None = None
        self.history: list[dict[str, Any]] = []
        self.wander: dict[str, Any] | None = None
        self.prompts: list[dict[str, Any]] = [{"seat": s, "kind": "setup"} for s in self.order]
        self.step = "setup"
        self.ending: str | None = None
        self.final: dict[str, Any] | None = None
        self._events: list[Event] = []

    # ------------------------------------------------------------------ helpers
    @property
    def encounter(self) -> str:
        """The encounter in force at Odysseus's space (a tile name, troy or ithaca)."""
        if self.pos == "ithaca":
            return "ithaca"
        if self.pos == "troy" and self.tiles["troy"] is None:
            return "troy"
        return self.tiles[self.pos] or "troy"

    def effect(self, key: str, default: Any = 0) -> Any:
        return ENCOUNTERS[self.encounter].get(key, default)

    def face_up(self, space: str) -> bool:
        return self.up[space]

    def tile_space(self, tile: str) -> str | None:
        """The space holding ``tile`` face up, if any."""
        for space, name in self.tiles.items():
            if name == tile and self.up[space]:
                return space
        return None

    def _emit(self, kind: str, text: str, **data: Any) -> None:
        """A public event; it carries the table's public counters as of this moment
        (``tally``), so that a screen animating it shows no later outcome."""
        self._events.append(event(kind, text, tally=self._tally(), **data))

    def _tally(self) -> dict[str, Any]:
        """What everyone sees on the table now: points, chips, hand sizes, Destiny chips,
        supply, decks, the last Olympus card, bets, turn order and the adventure's public
        part (None once its journey has begun)."""
        adv = self._adventure_view(None)
        if adv is not None:
            for key in ("mine", "my_type", "turn"):
                del adv[key]
        return {
            "step": self.step, "round": self.round, "crew": self.crew,
            "vp": list(self.vp), "chips": list(self.chips),
            "hand": [len(h) for h in self.hands],
            "destiny_chips": [list(c) for c in self.destiny_chips],
            "supply": self.supply, "decks": {d: len(p) for d, p in self.piles.items()},
            "discards": {d: len(p) for d, p in self.discards.items()},
            "olympus": {"deck": len(self.olympus), "last": self.last_olympus},
            "bets": [dict(b) for b in self.bets], "order": list(self.order),
            "adventure": adv,
        }

    def _advance_round(self, times: int, why: str) -> None:
        before = self.round
        self.round = min(LAST_ROUND, self.round + times)
        if self.round != before:
            self._emit("round", f"{why}: the Round marker advances to {self.round}.",
                       round=self.round)
        else:
            self._emit("round", f"{why}, but the Round marker stays on {LAST_ROUND}.",
                       round=self.round)

    def _lose_crew(self, count: int, why: str) -> bool:
        """Lose crew; True if Odysseus died (the game is then over)."""
        if count <= 0:
            return False
        lost = min(count, self.crew)
        self.crew -= lost
        self._emit("crew", f"{why}: Odysseus loses {lost} crew ({self.crew} left).",
                   change=-lost, crew=self.crew)
        if self.crew == 0:
            self._end("dead")
            return True
        return False

    def _return_crew(self, count: int, why: str) -> None:
        self.crew += count
        self._emit("crew", f"{why}: {count} crew return ({self.crew} now).", change=count,
                   crew=self.crew)

    def _take_supply(self, wanted: int) -> int:
        got = min(wanted, self.supply)
        self.supply -= got
        return got

    def _draw_card(self, seat: int, deck: str) -> str | None:
        pile = self.piles[deck]
        if not pile and self.discards[deck]:
            pile.extend(self.discards[deck])
            self.discards[deck].clear()
            self.rng.shuffle(pile)
            self._emit("reshuffle", f"The {DECK_NAMES[deck]} discards are shuffled into a new "
                                    f"deck.", deck=deck)
        if not pile:
            other = "hinder" if deck == "help" else "help"
            if self.piles[other] or self.discards[other]:
                return self._draw_card(seat, other)
            return None
        card = pile.pop()
        self.hands[seat].append(card)
        return card

    def _olympus(self) -> dict[str, Any]:
        if not self.olympus:
            self.olympus = list(self.olympus_discard)
            self.olympus_discard.clear()
            self.rng.shuffle(self.olympus)
            self._emit("reshuffle", "The six Olympus cards are shuffled into a new deck.",
                       deck="olympus")
        card = self.olympus.pop()
        self.olympus_discard.append(card)
        self.last_olympus = card
        return OLYMPUS_BY_ID[card]

    # --------------------------------------------------------------- whose turn
    def to_act(self) -> list[int]:
        if self.step == "over":
            return []
        if self.prompts:
            return [self.prompts[0]["seat"]]
        if self.step == "play" and self.adv and self.adv["turn"] is not None:
            return [self.adv["turn"]]
        return []

    def decision(self) -> dict[str, Any] | None:
        """The pending decision: a prompt, or ``{"kind": "play"}``."""
        if self.step == "over":
            return None
        if self.prompts:
            return self.prompts[0]
        if self.step == "play" and self.adv and self.adv["turn"] is not None:
            return {"seat": self.adv["turn"], "kind": "play"}
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        d = self.decision()
        assert d is not None
        kind = d["kind"]
        if kind == "setup":
            return [{"type": "destiny", "slot": i} for i in range(3)]
        if kind in ("bet", "circe"):
            out = self._bet_actions(seat)
            if kind == "circe":
                out += [{"type": "move_bet", "bet": b["id"], "to": r} for b in self.bets
                        if b["seat"] == seat for r in (b["round"] - 1, b["round"] + 1)
                        if 1 <= r <= LAST_ROUND]
                if self.supply > 0:
                    out.append({"type": "take_chip"})
            return out + [{"type": "skip"}]
        if kind in ("destiny", "reward_destiny"):
            out = [{"type": "destiny", "slot": i} for i in range(3)]
            return out + ([{"type": "skip"}] if kind == "destiny" else [])
        if kind == "draw":
            return [{"type": "draw", "help": k} for k in range(d["count"] + 1)]
        if kind == "claim":
            return [{"type": "claim", "tile": t} for t in self.adv["rewards"]
                    if t not in self.adv["claimed"]]
        # play
        return [{"type": "play", "card": c} for c in self._playable(seat)] + [{"type": "pass"}]

    def _bet_actions(self, seat: int) -> list[Action]:
        if self.chips[seat] < 1:
            return []
        taken = {b["round"] for b in self.bets if b["seat"] == seat}
        out: list[Action] = [{"type": "bet", "round": r}
                             for r in range(self.round, LAST_ROUND + 1) if r not in taken]
        return out + [{"type": "bet", "destiny": i} for i in range(3)]

    def _playable(self, seat: int) -> list[str]:
        fixed = self.adv["types"][seat]
        return [c for c in self.hands[seat]
                if CARDS[c]["special"] or fixed is None or CARDS[c]["deck"] == fixed]

    # ------------------------------------------------------------------ actions
    def apply(self, seat: int, action: Action) -> list[Event]:
        if self.step == "over":
            raise self.refuse("The game is over.")
        if seat not in self.to_act():
            raise self.refuse(f"It is not {self.name(seat)}'s turn.")
        d = self.decision()
        assert d is not None
        kind = action.get("type")
        handler = {
            ("setup", "destiny"): self._act_setup,
            ("bet", "bet"): self._act_bet, ("bet", "skip"): self._act_skip,
            ("circe", "bet"): self._act_bet, ("circe", "move_bet"): self._act_move,
            ("circe", "take_chip"): self._act_take_chip, ("circe", "skip"): self._act_skip,
            ("destiny", "destiny"): self._act_destiny, ("destiny", "skip"): self._act_skip,
            ("reward_destiny", "destiny"): self._act_destiny,
            ("draw", "draw"): self._act_draw,
            ("claim", "claim"): self._act_claim,
            ("play", "play"): self._act_play, ("play", "pass"): self._act_pass,
        }.get((d["kind"], kind))
        if handler is None:
            raise self.refuse(self._wrong(d, kind))
        self._events = []
        handler(seat, action, d)
        self._run()
        events, self._events = self._events, []
        return events

    def _wrong(self, d: dict[str, Any], kind: Any) -> str:
        expected = {
            "setup": "placing your first Bet Chip on one of your Destiny cards",
            "bet": "placing a bet (or skipping)",
            "circe": "placing or moving a bet, taking a Bet Chip, or skipping",
            "destiny": "a Destiny action (or skipping)",
            "reward_destiny": "the Destiny action your Reward tile gives",
            "draw": "choosing how many of your cards come from the Help deck",
            "claim": "claiming a Reward tile",
            "play": "playing a card or passing",
        }[d["kind"]]
        return f"'{kind}' is not possible now; the game is waiting for {expected}."

    def _check_slot(self, action: Action) -> int:
        slot = action.get("slot")
        if not _is_int(slot) or not 0 <= slot < 3:
            raise self.refuse("Choose one of your three Destiny cards (slot 0, 1 or 2).")
        return slot

    def _act_setup(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        slot = self._check_slot(action)
        self.prompts.pop(0)
        self.chips[seat] -= 1
        self.destiny_chips[seat][slot] += 1
        self.looked[seat] = True
        self._emit("destiny", f"{self.name(seat)} puts a Bet Chip on their face-down Destiny "
                              f"card {slot + 1}, then looks at the cards.", seat=seat, slot=slot)
        self._events.append(event(
            "looked", "Your Destiny cards, in order: "
            + ", ".join(DESTINIES[d] for d in self.destiny[seat]) + ".", audience=[seat],
            seat=seat, cards=list(self.destiny[seat]), reveal=True))

    def _act_skip(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        self.prompts.pop(0)
        what = {"bet": "places no bet", "circe": "does nothing at Circe's",
                "destiny": "takes no Destiny action"}[d["kind"]]
        self._emit("skip", f"{self.name(seat)} {what}.", seat=seat)

    def _act_bet(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        if self.chips[seat] < 1:
            raise self.refuse("You have no unused Bet Chip to bet with.")
        if "destiny" in action:
            slot = action["destiny"]
            if not _is_int(slot) or not 0 <= slot < 3 or "round" in action:
                raise self.refuse("Bet on one Destiny card (0, 1 or 2) or one round, not both.")
            self.prompts.pop(0)
            extra = self._take_supply(2)
            self.chips[seat] -= 1
            self.destiny_chips[seat][slot] += 1 + extra
            self._emit("bet", f"{self.name(seat)} bets on their Destiny card {slot + 1}: "
                              f"1 Bet Chip and {extra} from the supply.",
                       seat=seat, destiny=slot, stack=1 + extra)
            return
        r = action.get("round")
        if not _is_int(r) or not self.round <= r <= LAST_ROUND:
            raise self.refuse(f"Bet on a round from the current one ({self.round}) to "
                              f"{LAST_ROUND}.")
        if any(b["seat"] == seat and b["round"] == r for b in self.bets):
            raise self.refuse(f"You already have a bet on round {r}.")
        self.prompts.pop(0)
        extra = self._take_supply(r - self.round)
        self.chips[seat] -= 1
        bet = {"id": self.next_bet, "seat": seat, "round": r, "stack": 1 + extra}
        self.next_bet += 1
        self.bets.append(bet)
        short = "" if extra == r - self.round else " (the supply ran short)"
        self._emit("bet", f"{self.name(seat)} bets on round {r}: 1 Bet Chip and {extra} from "
                          f"the supply{short}.", seat=seat, round=r, stack=bet["stack"],
                   bet=bet["id"])

    def _act_move(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        bet = next((b for b in self.bets if b["id"] == action.get("bet")
                    and _is_int(action.get("bet"))), None)
        if bet is None or bet["seat"] != seat:
            raise self.refuse("Choose one of your own bets to move.")
        to = action.get("to")
        if not _is_int(to) or abs(to - bet["round"]) != 1 or not 1 <= to <= LAST_ROUND:
            raise self.refuse("A bet moves to a neighbouring space of the round track.")
        self.prompts.pop(0)
        old = bet["round"]
        bet["round"] = to
        self._emit("move_bet", f"{self.name(seat)} slides their bet from round {old} to round "
                               f"{to}.", seat=seat, bet=bet["id"], origin=old, target=to)

    def _act_take_chip(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        if self.supply < 1:
            raise self.refuse("The supply has no Bet Chip left.")
        self.prompts.pop(0)
        self.supply -= 1
        self.chips[seat] += 1
        self._emit("chip", f"{self.name(seat)} takes a Bet Chip.", seat=seat)

    def _act_destiny(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        slot = self._check_slot(action)
        self.prompts.pop(0)
        got = self._take_supply(1)
        self.destiny_chips[seat][slot] += got
        if got:
            self._emit("destiny", f"{self.name(seat)} puts a Bet Chip from the supply on "
                                  f"their Destiny card {slot + 1}.", seat=seat, slot=slot)
        else:
            self._emit("destiny", f"The supply is empty: {self.name(seat)}'s Destiny action "
                                  f"gains nothing.", seat=seat, slot=slot)

    def _act_draw(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        k = action.get("help")
        count = d["count"]
        if not _is_int(k) or not 0 <= k <= count:
            raise self.refuse(f"Say how many of your {count} cards come from the Help deck "
                              f"(0 to {count}); the rest come from the Hinder deck.")
        self.prompts.pop(0)
        self._draw(seat, k, count - k)

    def _draw(self, seat: int, helps: int, hinders: int) -> None:
        drawn = []
        for deck, number in (("help", helps), ("hinder", hinders)):
            for _ in range(number):
                card = self._draw_card(seat, deck)
                if card is not None:
                    drawn.append(card)
        parts = [f"{n} {DECK_NAMES[deck]}" for deck, n in (("help", helps), ("hinder", hinders))
                 if n]
        cards = f"card{'s' if helps + hinders != 1 else ''}"
        if len(parts) == 1:
            what = f"{helps + hinders} {cards} from the {parts[0].split()[1]} deck"
        else:
            what = f"{' and '.join(parts)} {cards}"
        short = "" if len(drawn) == helps + hinders else (
            f" (only {len(drawn)} left to draw)" if drawn else " (no card left to draw)")
        self._emit("draw", f"{self.name(seat)} draws {what}{short}.",
                   seat=seat, count=len(drawn), help=helps, hinder=hinders)
        if drawn:
            self._events.append(event(
                "drew", "You draw " + ", ".join(card_text(c) for c in drawn) + ".",
                audience=[seat], seat=seat, cards=drawn, reveal=True))

    def _act_claim(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        tile = action.get("tile")
        if not _is_int(tile) or tile not in self.adv["rewards"]:
            raise self.refuse("Claim one of the revealed Reward tiles.")
        if tile in self.adv["claimed"]:
            raise self.refuse("That Reward tile is already claimed.")
        self.prompts.pop(0)
        self._claim(seat, tile)

    def _claim(self, seat: int, tile: int, forced: bool = False) -> None:
        self.adv["claimed"][tile] = seat
        r = REWARDS[tile]
        if r["kind"] == "vp":
            self.vp[seat] += r["amount"]
        elif r["kind"] == "chip":
            got = self._take_supply(r["amount"])
            self.chips[seat] += got
        how = (f"{self.name(seat)} gets the last Reward tile, '{reward_text(tile)}'."
               if forced else
               f"{self.name(seat)} claims the Reward tile '{reward_text(tile)}'.")
        self._emit("claim", how, seat=seat, tile=tile)
        if r["kind"] in ("vp", "chip"):
            pass
        elif r["kind"] == "draw":
            self.prompts.insert(0, {"seat": seat, "kind": "draw", "count": r["amount"],
                                    "why": "reward"})
        else:
            for _ in range(r["amount"]):
                if self.supply > 0:
                    self.prompts.insert(0, {"seat": seat, "kind": "reward_destiny"})

    def _act_play(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        card = action.get("card")
        if card not in self.hands[seat]:
            raise self.refuse("Play a card from your own hand.")
        info = CARDS[card]
        fixed = self.adv["types"][seat]
        if not info["special"] and fixed is not None and info["deck"] != fixed:
            raise self.refuse(f"You are playing {DECK_NAMES[fixed]} cards in this adventure: "
                              f"every card you play face down must be a {DECK_NAMES[fixed]} "
                              f"card.")
        self.hands[seat].remove(card)
        self.adv["played"][seat].append(card)
        self.adv["sequence"].append({"seat": seat, "card": card})
        if info["special"]:
            self.adv["face_up"].append({"seat": seat, "card": card})
            if info["special"] == "vp2":
                self.vp[seat] += 2
            self._emit("special", f"{self.name(seat)} plays the card "
                                  f"'{SPECIAL_NAMES[info['special']]}' face up.",
                       seat=seat, card=card, special=info["special"])
            if info["special"] == "vp2":
                pass
            elif info["special"] == "advance":
                self._advance_round(1, f"{self.name(seat)}'s card")
            else:
                self.prompts.append({"seat": seat, "kind": "draw", "count": 2, "why": "card"})
        else:
            if fixed is None:
                self.adv["types"][seat] = info["deck"]
            self._emit("play", f"{self.name(seat)} plays a card face down.", seat=seat)
            self._events.append(event("played", f"You play {card_text(card)} face down.",
                                      audience=[seat], seat=seat, card=card))
        self._next_player(seat)

    def _act_pass(self, seat: int, action: Action, d: dict[str, Any]) -> None:
        adv = self.adv
        number = self.n - len(adv["passed"])
        adv["passed"].append(seat)
        adv["tiles"][seat] = number
        gain = TURN_TILES[number]
        self.vp[seat] += gain["vp"]
        parts = ([f"{gain['vp']} VP"] if gain["vp"] else []) + (
            [f"draws {gain['draw']}"] if gain["draw"] else [])
        self._emit("pass", f"{self.name(seat)} passes and takes Turn Order tile {number}"
                           f" ({', '.join(parts)}).", seat=seat, tile=number)
        if gain["draw"]:
            self.prompts.append({"seat": seat, "kind": "draw", "count": gain["draw"],
                                 "why": "turn tile"})
        self._next_player(seat)

    def _next_player(self, seat: int) -> None:
        adv = self.adv
        i = self.order.index(seat)
        for k in range(1, self.n + 1):
            other = self.order[(i + k) % self.n]
            if other not in adv["passed"]:
                adv["turn"] = other
                return
        adv["turn"] = None

    # --------------------------------------------------------------- automation
    def _run(self) -> None:
        steps = {"setup": self._step_setup, "encounter": self._step_encounter,
                 "adventure": self._step_adventure, "play": self._step_play_done,
                 "claim": self._step_claim_done, "resolve": self._step_resolve,
                 "journey": self._step_journey, "wander_arrive": self._step_wander_arrive,
                 "wander_move": self._step_wander_move}
        # After every action as well as after every automatic step: a prompt with nothing
        # to choose is answered for its seat (rulings 11 and 14), in every batch of prompts.
        self._skip_empty_prompts()
        while self.step != "over" and not self.prompts:
            if self.step == "play" and self.adv["turn"] is not None:
                return
            steps[self.step]()
            self._skip_empty_prompts()

    def _skip_empty_prompts(self) -> None:
        """Answer the prompts at the head of the queue that leave their seat nothing to
        choose, with a log line: a bet with no unused chip, a Destiny action with an empty
        supply, a Circe's choice where only "do nothing" is possible, a draw with no card
        left anywhere, and the last unclaimed Reward tile (rulings 11 and 14)."""
        while self.prompts and self.step != "over":
            p = self.prompts[0]
            seat = p["seat"]
            kind = p["kind"]
            if kind == "bet" and self.chips[seat] < 1:
                self._emit("skip", f"{self.name(seat)} has no unused Bet Chip to bet.",
                           seat=seat, forced=True)
            elif kind in ("destiny", "reward_destiny") and self.supply < 1:
                self._emit("skip", f"The supply is empty: no Destiny action for "
                                   f"{self.name(seat)}.", seat=seat, forced=True)
            elif kind == "circe" and self.legal_actions(seat) == [{"type": "skip"}]:
                self._emit("skip", f"{self.name(seat)} has nothing to do at Circe's (no "
                                   f"unused Bet Chip, no bet to move, an empty supply).",
                           seat=seat, forced=True)
            elif kind == "draw" and not any(self.piles.values()) \
                    and not any(self.discards.values()):
                self.prompts.pop(0)
                self._draw(seat, 0, p["count"])
                continue
            elif kind == "claim" and self._unclaimed_count() == 1:
                self.prompts.pop(0)
                tile = next(t for t in self.adv["rewards"] if t not in self.adv["claimed"])
                self._claim(seat, tile, forced=True)
                continue
            else:
                return
            self.prompts.pop(0)

    def _unclaimed_count(self) -> int:
        return sum(1 for t in self.adv["rewards"] if t not in self.adv["claimed"])

    def _step_setup(self) -> None:
        self._emit("phase", f"Round 1 begins at Troy. Turn order: "
                            f"{', '.join(self.name(s) for s in self.order)}.", round=1)
        self.step = "encounter"

    def _step_encounter(self) -> None:
        enc = self.encounter
        e = ENCOUNTERS[enc]
        self._emit("encounter", f"Encounter at {place(enc)}: {e['text']}", encounter=enc,
                   space=self.pos, round=self.round)
        self.step = "adventure"
        if e.get("lose_crew") and self._lose_crew(e["lose_crew"], e["title"]):
            return
        if e.get("return_crew"):
            self._return_crew(e["return_crew"], e["title"])
        if e.get("advance"):
            self._advance_round(e["advance"], e["title"])
        if e.get("vp_per_chip"):
            for seat in self.order:
                gain = e["vp_per_chip"] * self.chips[seat]
                if not gain:
                    continue
                self.vp[seat] += gain
                self._emit("score", f"{self.name(seat)} scores {gain} VP for "
                                    f"{self.chips[seat]} unused Bet Chip"
                                    f"{'s' if self.chips[seat] != 1 else ''}.",
                           seat=seat, vp=gain)
        for seat in self.order:
            if e.get("bet"):
                self.prompts.append({"seat": seat, "kind": "bet"})
            if e.get("circe"):
                self.prompts.append({"seat": seat, "kind": "circe"})
            if e.get("destiny"):
                self.prompts.append({"seat": seat, "kind": "destiny"})
            if e.get("draw"):
                self.prompts.append({"seat": seat, "kind": "draw", "count": e["draw"],
                                     "why": "encounter"})

    def _step_adventure(self) -> None:
        double = bool(self.effect("double", False))
        second = self.adv is not None and self.adv.get("double") and self.adv["number"] == 1
        if second:
            rewards = list(self.adv["rewards"])
            claimed = dict(self.adv["claimed"])
            number = 2
        else:
            count = self.n * (2 if double else 1)
            rewards = sorted(self.rng.sample(list(REWARDS), count))
            claimed = {}
            number = 1
        self.adv = {"rewards": rewards, "claimed": claimed, "number": number, "double": double,
                    "played": [[] for _ in range(self.n)], "types": [None] * self.n,
                    "face_up": [], "sequence": [], "passed": [], "resolved": False,
                    "tiles": {}, "turn": self.order[0], "encounter": self.encounter}
        label = " (the first of two)" if double and number == 1 else (
            " (the second)" if number == 2 else "")
        if number == 1:
            text = ", ".join(f"'{reward_text(t)}' (red {REWARDS[t]['red']})" for t in rewards)
            self._emit("rewards", f"Adventure{label}: the Reward tiles revealed are {text}.",
                       tiles=list(rewards))
        else:
            self._emit("rewards", f"Adventure{label}: the unclaimed Reward tiles stay in play.",
                       tiles=list(rewards))
        self.step = "play"

    def _step_play_done(self) -> None:
        adv = self.adv
        self.order = sorted(range(self.n), key=lambda s: adv["tiles"][s])
        self._emit("order", "Everyone has passed. The new turn order: "
                            f"{', '.join(self.name(s) for s in self.order)}.",
                   order=list(self.order))
        self.step = "claim"
        for seat in self.order:  # one Reward tile each (at Ithaca: one per adventure)
            self.prompts.append({"seat": seat, "kind": "claim"})

    def _step_claim_done(self) -> None:
        self.step = "resolve"

    def _step_resolve(self) -> None:
        adv = self.adv
        e = ENCOUNTERS[adv["encounter"]]
        totals = {"help": 0, "hinder": 0}
        contribution = [0] * self.n
        self._emit("resolve", "The adventure is resolved: the played cards are revealed.",
                   reveal=True)
        for play in adv["sequence"]:  # one at a time, in the order they were played
            seat, card = play["seat"], play["card"]
            info = CARDS[card]
            if info["special"]:
                contribution[seat] += SPECIAL_CONTRIBUTION
                self._emit("reveal", f"{self.name(seat)}'s face-up card "
                                     f"'{SPECIAL_NAMES[info['special']]}' counts "
                                     f"{SPECIAL_CONTRIBUTION} toward their contribution.",
                           seat=seat, card=card, side=None, value=0,
                           help=totals["help"], hinder=totals["hinder"])
            else:
                contribution[seat] += info["value"]
                totals[info["deck"]] += info["value"]
                self._emit("reveal", f"{self.name(seat)} played {card_text(card)}.",
                           seat=seat, card=card, side=info["deck"], value=info["value"],
                           help=totals["help"], hinder=totals["hinder"])
        played = [s for s in range(self.n) if adv["played"][s]]
        best = max((contribution[s] for s in played), default=0)
        top = [s for s in self.order if s in played and contribution[s] == best] if best > 0 \
            else []
        for seat in top:
            self.vp[seat] += 2
        if top:
            self._emit("top", f"Top contribution ({best}): "
                              f"{names_and([self.name(s) for s in top])}"
                              f" score{'s' if len(top) == 1 else ''} 2 VP.",
                       seats=top, contribution=list(contribution))
        else:
            self._emit("top", "Nobody contributed anything: no top contributor.", seats=[],
                       contribution=list(contribution))
        god = self._olympus()
        factor = e.get("olympus_factor", 1)
        value = god["value"] * factor
        side = "help" if god["god"] == "athena" else "hinder"
        totals[side] += value
        doubled = " (doubled by Charybdis)" if factor != 1 else ""
        self._emit("olympus", f"The Olympus card: {GOD_NAMES[god['god']]} {god['value']}"
                              f"{doubled} adds {value} to {DECK_NAMES[side]}.",
                   card=god["id"], god=god["god"], value=value, side=side, reveal=True,
                   help=totals["help"], hinder=totals["hinder"])
        for side in ("help", "hinder"):
            if e.get(side):
                totals[side] += e[side]
                where = place(adv["encounter"])
                self._emit("modifier", f"{where[0].upper()}{where[1:]} adds {e[side]} to "
                                       f"{DECK_NAMES[side]}.",
                           side=side, value=e[side], help=totals["help"],
                           hinder=totals["hinder"])
        outcome = adventure_outcome(totals["help"], totals["hinder"])
        self.last_outcome = outcome
        word = "wins" if outcome == "won" else "loses"
        self._emit("totals", f"Help {totals['help']} against Hinder {totals['hinder']}: "
                             f"Odysseus {word} the adventure.", help=totals["help"],
                   hinder=totals["hinder"], outcome=outcome)
        red = sum(REWARDS[t]["red"] for t in adv["rewards"])
        self.history.append({"round": self.round, "encounter": adv["encounter"],
                             "help": totals["help"], "hinder": totals["hinder"],
                             "outcome": outcome, "red": red if outcome == "lost" else 0})
        for seat in range(self.n):
            for card in adv["played"][seat]:
                self.discards[CARDS[card]["deck"]].append(card)
        adv["resolved"] = True
        if outcome == "lost":
            if self._lose_crew(red, "The adventure is lost"):
                return
        elif e.get("win_return"):
            self._return_crew(e["win_return"], e["title"])
        if adv["double"] and adv["number"] == 1:
            self.step = "adventure"
        elif adv["double"]:
            self._end("safe")
        elif self.round >= LAST_ROUND:
            self._end("stranded")
        else:
            self.step = "journey"

    def _step_journey(self) -> None:
        enc = self.adv["encounter"]
        self.adv["left"] = True  # the adventure leaves the table (see _adventure_view)
        if self._lose_crew(1, "The journey"):
            return
        won = self.last_outcome == "won"
        kind = "calm" if won else "stormy"
        target = LINKS[self.pos][kind]
        jump = ENCOUNTERS[enc].get("jump") if won else None
        how = f"the {kind} path"
        if jump:
            dest = "ithaca" if jump == "ithaca" else self.tile_space(jump)
            if dest is not None:
                target, how = dest, "the winds"
            else:
                how = f"the calm path ({place(jump)} is not face up on the board)"
        left = self.pos
        if left == "troy":
            self.tiles["troy"] = self.leftover
        self.up[left] = False
        self._advance_round(1, "The journey")
        self.pos = target
        if how == "the winds":
            text = f"The winds carry Odysseus straight to {self.space_title(target)}."
        else:
            text = f"Odysseus sails by {how} to {self.space_title(target)}."
        self._emit("sail", f"{text} The tile left behind is turned face down.",
                   origin=left, target=target, left=left,
                   path="jump" if how == "the winds" else kind)
        self._arrive(kind)

    def space_title(self, space: str) -> str:
        if space == "ithaca":
            return "Ithaca"
        if not self.up[space]:
            return "a face-down tile"
        return place(self.encounter_at(space))

    def encounter_at(self, space: str) -> str:
        if space == "ithaca":
            return "ithaca"
        return self.tiles[space] or "troy"

    def _arrive(self, via: str) -> None:
        if self.up[self.pos]:
            self.step = "encounter"
            return
        if self.wander is None:
            self.wander = {"seen": [], "via": via}
            self._advance_round(1, "Odysseus wanders among face-down tiles")
        self.wander["via"] = via
        self.step = "wander_arrive"

    def _step_wander_arrive(self) -> None:
        self.wander["seen"].append(self.pos)
        self.step = "wander_move"
        if self.wander["via"] == "calm":
            self._emit("wander", "Odysseus reaches a face-down tile by a calm path: everyone "
                                 "draws 1 card.", space=self.pos)
            for seat in self.order:
                self.prompts.append({"seat": seat, "kind": "draw", "count": 1,
                                     "why": "face-down tile"})
        else:
            self._emit("wander", "Odysseus reaches a face-down tile by a stormy path.",
                       space=self.pos)
            self._lose_crew(1, "The storm")

    def _step_wander_move(self) -> None:
        here = self.pos
        if self.wander["seen"].count(here) >= 2:
            kind = "calm"
            self._emit("olympus_skip", "This face-down tile was already reached in this wander:"
                                       " Odysseus takes its calm path.", space=here)
        else:
            god = self._olympus()
            kind = "calm" if god["god"] == "athena" else "stormy"
            self._emit("olympus", f"The Olympus card: {GOD_NAMES[god['god']]} sends Odysseus "
                                  f"along the {kind} path.", card=god["id"], god=god["god"],
                       value=god["value"], side=None, reveal=True, wander=True)
        target = LINKS[here][kind]
        self.pos = target
        self._emit("sail", f"Odysseus drifts by the {kind} path to {self.space_title(target)}.",
                   origin=here, target=target, path=kind)
        if self.up[target]:
            self.wander = None
            if self.round >= LAST_ROUND and target != "ithaca":
                self._end("stranded")
                return
            self.step = "encounter"
        else:
            self.wander["via"] = kind
            self.step = "wander_arrive"

    # ---------------------------------------------------------------------- end
    def _end(self, ending: str) -> None:
        self.prompts = []
        if self.adv is not None:
            self.adv["turn"] = None
        self.step = "over"
        self.ending = ending
        where = {"safe": "Odysseus is home: Safe Return!",
                 "dead": "Odysseus's crew is gone: Odysseus is Dead.",
                 "stranded": "Round 12 is over and Odysseus is not home: Stranded at Sea."}
        self._events.append(event("over", where[ending], ending=ending, round=self.round,
                                  reveal=True))
        payouts = []
        for bet in self.bets:
            paid = bet_payout(bet["stack"], bet["round"], self.round)
            self.chips[bet["seat"]] += paid
            self.supply += bet["stack"] - paid
            payouts.append({**bet, "paid": paid})
            self._emit("payout", f"{self.name(bet['seat'])}'s bet on round {bet['round']} "
                                 f"({bet['stack']} chip{'s' if bet['stack'] != 1 else ''}) "
                                 f"pays {paid}.", seat=bet["seat"],
                       round=bet["round"], stack=bet["stack"], paid=paid)
        self.bets = []
        destiny_paid = []
        for seat in range(self.n):
            won = 0
            for slot in range(3):
                c = self.destiny_chips[seat][slot]
                if self.destiny[seat][slot] == ending:
                    won += c
                    self.chips[seat] += c
                else:
                    self.supply += c
            order = ", ".join(DESTINIES[d] for d in self.destiny[seat])
            self._emit("destiny_reveal", f"{self.name(seat)}'s Destiny cards: {order}. "
                                         f"{won} chip{'s' if won != 1 else ''} on "
                                         f"{DESTINIES[ending]}.", seat=seat,
                       cards=list(self.destiny[seat]), chips=list(self.destiny_chips[seat]),
                       paid=won)
            destiny_paid.append({"seat": seat, "cards": list(self.destiny[seat]),
                                 "chips": list(self.destiny_chips[seat]), "paid": won})
            self.destiny_chips[seat] = [0, 0, 0]
        scores = [self.vp[s] + 2 * self.chips[s] for s in range(self.n)]
        best = max(scores)
        tied = [s for s in range(self.n) if scores[s] == best]
        most = max(self.chips[s] for s in tied)
        winners = [s for s in tied if self.chips[s] == most]
        if len(tied) == 1:
            how = "highest score"
        elif len(winners) == 1:
            how = "tied on score; most Bet Chips"
        else:
            how = "tied on score and Bet Chips: all tied players win"
        self.final = {
            "ending": ending, "ending_title": DESTINIES[ending], "round": self.round,
            "crew": self.crew, "position": self.pos, "vp": list(self.vp),
            "chips": list(self.chips), "scores": scores, "winners": winners,
            "tie_break": how, "bet_payouts": payouts, "destiny_payouts": destiny_paid,
            "history": [dict(h) for h in self.history],
        }
        names = " and ".join(self.name(s) for s in winners)
        self._emit("winner", "Final scores: " + ", ".join(
            f"{self.name(s)} {scores[s]}" for s in range(self.n)) + f". {names} win"
            f"{'s' if len(winners) == 1 else ''} ({how}).", winners=winners, scores=scores)

    # -------------------------------------------------------------------- views
    def view(self, seat: int | None) -> View:
        over = self.step == "over"
        seats = []
        for s in range(self.n):
            mine = seat == s or over
            seats.append({
                "seat": s, "name": self.name(s), "kind": self.seats[s]["kind"],
                "vp": self.vp[s], "chips": self.chips[s], "hand_size": len(self.hands[s]),
                "destiny_chips": list(self.destiny_chips[s]),
                "destiny": list(self.destiny[s]) if mine and (self.looked[s] or over) else None,
                "hand": sorted(self.hands[s]) if mine else None,
                "turn_tile": self.order.index(s) + 1,
            })
        out: View = {
            "game": self.game_id, "viewer": seat, "step": self.step, "round": self.round,
            "position": self.pos, "crew": self.crew, "seats": seats, "order": list(self.order),
            "to_act": self.to_act(), "decision": self._public_decision(),
            "spaces": {sp: {"tile": self.tiles[sp] if self.up[sp] or over else None,
                            "up": self.up[sp],
                            "was": self.tiles[sp] if not self.up[sp] and sp != "troy" else None}
                       for sp in self.tiles},
            "bets": [dict(b) for b in self.bets], "supply": self.supply,
            "decks": {d: len(self.piles[d]) for d in self.piles},
            "discards": {d: len(self.discards[d]) for d in self.discards},
            "olympus": {"deck": len(self.olympus), "last": self.last_olympus,
                        "discard": list(self.olympus_discard)},
            "adventure": self._adventure_view(seat),
            "history": [dict(h) for h in self.history],
            "wander": dict(self.wander, seen=list(self.wander["seen"])) if self.wander else None,
            "result": self.result(),
            "tally": self._tally(),
        }
        return out

    def _public_decision(self) -> dict[str, Any] | None:
        d = self.decision()
        return dict(d) if d else None

    def _adventure_view(self, seat: int | None) -> dict[str, Any] | None:
        """The adventure on the table, from its Reward tiles to its resolve; a resolved one
        leaves the table when the journey begins, and never comes back (not even at the end)."""
        adv = self.adv
        if adv is None or adv.get("left") or (adv["resolved"] and self.step not in
                                               ("resolve", "over")):
            return None
        return {
            "number": adv["number"], "double": adv["double"], "encounter": adv["encounter"],
            "rewards": list(adv["rewards"]), "claimed": dict(adv["claimed"]),
            "played_count": [len(p) for p in adv["played"]],
            "face_up": [dict(f) for f in adv["face_up"]],
            "passed": list(adv["passed"]), "tiles": dict(adv["tiles"]), "turn": adv["turn"],
            "mine": list(adv["played"][seat]) if seat is not None else None,
            "my_type": adv["types"][seat] if seat is not None else None,
            "red": sum(REWARDS[t]["red"] for t in adv["rewards"]),
        }

    def is_over(self) -> bool:
        return self.step == "over"

    def result(self) -> dict[str, Any] | None:
        if self.final is None:
            return None
        out = dict(self.final)
        out["bet_payouts"] = [dict(p) for p in self.final["bet_payouts"]]
        out["destiny_payouts"] = [dict(p, cards=list(p["cards"]), chips=list(p["chips"]))
                                  for p in self.final["destiny_payouts"]]
        for key in ("vp", "chips", "scores", "winners"):
            out[key] = list(self.final[key])
        out["history"] = [dict(h) for h in self.final["history"]]
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            "step": self.step, "round": self.round, "pos": self.pos, "crew": self.crew,
            "tiles": dict(self.tiles), "up": dict(self.up), "leftover": self.leftover,
            "piles": {d: list(p) for d, p in self.piles.items()},
            "discards": {d: list(p) for d, p in self.discards.items()},
            "hands": [list(h) for h in self.hands], "olympus": list(self.olympus),
            "olympus_discard": list(self.olympus_discard), "order": list(self.order),
            "chips": list(self.chips), "supply": self.supply, "vp": list(self.vp),
            "bets": [dict(b) for b in self.bets], "destiny": [list(d) for d in self.destiny],
            "looked": list(self.looked),
            "destiny_chips": [list(c) for c in self.destiny_chips],
            "adv": None if self.adv is None else {
                **self.adv, "rewards": list(self.adv["rewards"]),
                "claimed": dict(self.adv["claimed"]),
                "played": [list(p) for p in self.adv["played"]],
                "types": list(self.adv["types"]),
                "face_up": [dict(f) for f in self.adv["face_up"]],
                "sequence": [dict(f) for f in self.adv["sequence"]],
                "passed": list(self.adv["passed"]), "tiles": dict(self.adv["tiles"])},
            "prompts": [dict(p) for p in self.prompts], "last_outcome": self.last_outcome,
            "wander": None if self.wander is None else {**self.wander,
                                                        "seen": list(self.wander["seen"])},
            "ending": self.ending, "history": [dict(h) for h in self.history],
        }

    def chips_in_play(self) -> int:
        """Every Bet Chip: supply, players, bet stacks and Destiny cards (always 50)."""
        return (self.supply + sum(self.chips) + sum(b["stack"] for b in self.bets)
                + sum(sum(c) for c in self.destiny_chips))

    def cards_in_play(self) -> int:
        """Every Adventure card: hands, decks, discards and the table (always 54)."""
        table = 0 if self.adv is None or self.adv["resolved"] else sum(
            len(p) for p in self.adv["played"])
        return (sum(len(h) for h in self.hands) + sum(len(p) for p in self.piles.values())
                + sum(len(p) for p in self.discards.values()) + table)

    def status(self) -> str:
        if self.step == "over":
            return f"Over: {DESTINIES[self.ending]} in round {self.round}"
        d = self.decision()
        where = short_place(self.encounter) if self.up.get(self.pos) else "at sea"
        head = f"Round {self.round}, {where}, crew {self.crew}"
        if d is None:
            return head
        what = {"setup": "first chip", "bet": "bet", "circe": "Circe",
                "destiny": "Destiny", "reward_destiny": "Destiny",
                "draw": f"draw {d.get('count')}", "claim": "claim",
                "play": "play"}[d["kind"]]
        return f"{head}: {self.name(d['seat'])}, {what}"

    # --------------------------------------------------------------------- bots
    @classmethod
    def policy(cls, view: View, legal: list[Action], rng: Rng) -> Action | None:
        from .bot import choose
        return choose(view, legal, rng)

    #: The Hard player's search (see ``hard.py``): playouts of a few decisions, then the
    #: estimate of how the voyage will end.
    search_settings = SearchSettings(iterations=SEARCH_PLAYOUTS, rollout_actions=SEARCH_DEPTH,
                                     work=hard.WORK_BUDGET)

    def determinize(self, seat: int, rng: Rng) -> None:
        """Redraw what ``seat`` may not see: other hands and face-down plays, the decks'
        order, other Destiny cards (``hard.determinize``)."""
        hard.determinize(self, seat, rng)

    def evaluate(self, seat: int) -> float:
        """How well ``seat`` is doing in an unfinished game, 0 to 1 (``hard.standing``)."""
        return hard.standing(self)[seat]
