"""The turn rules of the open-melding games, checked event by event (referee).

From ``rules/common.md`` (turn skeleton), ``basic_rummy.md`` (one meld per turn with
``multiple_melds`` off, layoffs needing an own meld, going out stops play at once, Wrotham's
first turn without a draw, the joker swap, deals 4-6 all seven cards at once), ``ramino.md``
(Drift: lay-offs onto runs only after an own meld, a swapped joker used again in the same
turn) and ``loba.md`` (the pile top taken only to meld it at once, jokers moved only to an
end, never swapped, discarded only as the discard ending the hand).
"""

from __future__ import annotations

from .cards import is_joker


def taken_still_held(t: dict, card: str) -> int:
    """Copies of ``card`` taken from the pile this turn that may still be in the hand.  Copies of
    a two-pack card are alike: a copy played to the table this turn counts as a taken one (the
    reading that lets the player discard the other copy), so only the rest are "just taken"."""
    return max(0, t["taken"].count(card) - t["played"].count(card))


class TurnChecks:
    """Per-turn book-keeping of one :class:`~.open_games.OpenWalker` (``h``), whose walker
    keeps the turn counter (``h.turn``, ``h.seat``, ``h.own_turns``) and calls :meth:`begin`
    and :meth:`close` at each turn's start and end."""

    def __init__(self, walker):
        self.h = walker
        self.first_play = [None] * walker.n     # turn of each seat's first table play
        self.melded = [False] * walker.n        # has the seat laid a meld of its own
        self.out_seat = None
        self.out_turn = None                    # the turn counter when the seat went out
        self.out_by_discard = False
        self.t = None                           # this turn's record
        self.last_seat = None

    @property
    def seat(self) -> int:
        return self.h.seat

    def begin(self, seat: int):
        h = self.h
        want = h.starter() if self.last_seat is None else (self.last_seat + 1) % h.n
        if seat != want:
            h.fail(f"turn {h.turn}: the seat to play", want, seat)
        self.last_seat = seat
        self.t = dict(draws=0, taken=[], played=[], discards=0, melds=0, swapped=0, jokers_down=0,
                      plays=0, taken_melded=False, passed=False)

    def before(self, ev):
        """Checks of a seat's action ``ev`` against the state before it is applied."""
        if self.out_seat is not None:
            self.h.err(ev, f"play goes on after seat {self.out_seat} went out")
        if self.t is None:
            self.h.err(ev, "an action outside any seat's turn")
            return
        getattr(self, "_" + ev["event"], lambda e: None)(ev)

    def after(self, ev):
        """After ``ev`` was applied: an empty hand goes out at once."""
        s = int(ev.get("seat", -1))
        if s < 0 or sum(self.h.hands[s].values()) or self.out_seat is not None:
            return
        self.out_seat, self.out_turn = s, self.h.turn
        self.out_by_discard = ev["event"] == "discard"
        if self.h.rules.last_card_discard and not self.out_by_discard:
            self.h.err(ev, "went out without a final discard (last_card_must_be_discarded)")

    def hand_ended(self, ev):
        """The end line: a seat out must end the hand, and only then is it out."""
        if self.out_seat is not None and ev.get("seat") not in (None, self.out_seat):
            self.h.err(ev, "the seat ending the hand", self.out_seat, ev.get("seat"))

    # -- the events of a turn ----------------------------------------------------------------
    def _draw_or_take(self, ev):
        r, t = self.h.rules, self.t
        if t["draws"] or t["plays"] or t["discards"]:
            self.h.err(ev, "a second draw, or a draw after playing")
        if r.starter_no_draw and self.seat == self.h.starter() and self.h.own_turns[self.seat] == 1:
            self.h.err(ev, "the starting player does not draw on its first turn (Wrotham)")
        t["draws"] += 1

    def _pass(self, ev):
        if self.t["draws"] or self.t["plays"] or self.t["discards"]:
            self.h.err(ev, "a pass after the turn began")
        self.t["passed"] = True

    def _draw(self, ev):
        self._draw_or_take(ev)

    def _take(self, ev):
        self._draw_or_take(ev)
        self.t["taken"] += list(ev["cards"])

    def _play(self, ev, cards):
        t = self.t
        if t["discards"]:
            self.h.err(ev, "a play after the discard")
        t["plays"] += 1
        t["played"] += list(cards)
        t["jokers_down"] += sum(is_joker(c) for c in cards)
        if self.first_play[self.seat] is None:
            self.first_play[self.seat] = self.h.turn

    def _meld(self, ev):
        self._play(ev, ev["cards"])
        t = self.t
        t["melds"] += 1
        if t["melds"] > 1 and not self.h.rules.multiple_melds:
            self.h.err(ev, "a second meld in one turn (multiple_melds off)")
        if any(c in ev["cards"] for c in t["taken"]):
            t["taken_melded"] = True
        self.melded[self.seat] = True

    def _lay_off(self, ev):
        self._play(ev, ev["cards"])

    def after_lay_off(self, ev):
        """A lay-off needing an own meld first; onto a run when the meld can only be a run
        after it (``7S X X`` may be a set, ``7S 7H X X`` is one)."""
        need = self.h.rules.layoff_needs_meld
        i = ev.get("meld", -1)
        reads = self.h.reads[i] if 0 <= i < len(self.h.reads) else []
        onto_run = bool(reads) and all(k == "run" for k, _ in reads)
        if not self.melded[self.seat] and (need == "all" or need == "runs" and onto_run):
            self.h.err(ev, f"laid off onto meld {i} before a meld of its own ({need})")

    def _swap(self, ev):
        self._play(ev, ev["cards"])
        if self.h.rules.joker_swap == "off":
            self.h.err(ev, "a joker swap, which the rules do not allow")
        self.t["swapped"] += 1

    def _move(self, ev):
        self._play(ev, ev.get("cards", []) + ev.get("fill", []))
        if not self.h.rules.joker_moves:
            self.h.err(ev, "a joker move, which the rules do not allow")

    def _discard(self, ev):
        t, r = self.t, self.h.rules
        card, = ev["cards"]
        if t["discards"]:
            self.h.err(ev, "a second discard")
        t["discards"] += 1
        hand = self.h.hands[self.seat]
        if hand[card] <= taken_still_held(t, card):
            self.h.err(ev, f"discarded {card}, just taken from the pile")
        last = sum(hand.values()) == 1
        if is_joker(card) and r.joker_discard_only_out and not last:
            if any(not is_joker(c) for c in hand.elements()):
                self.h.err(ev, "discarded a joker without ending the hand (Loba)")
            else:
                self.h.joker_only_discards += 1
        if is_joker(card) and r.joker_swap == "reuse" and t["swapped"] > t["jokers_down"]:
            self.h.err(ev, "discarded a joker taken by a swap (it must be used again)")

    # -- the end of a turn -------------------------------------------------------------------
    def close(self):
        """The turn in progress is over (a new one starts, or the hand's walk ends)."""
        t, r, h = self.t, self.h.rules, self.h
        if t is None:
            return
        self.t = None
        ev = {"turn": h.turn, "seat": self.seat, "event": "turn end"}
        first_starter = r.starter_no_draw and self.seat == h.starter() and h.own_turns[self.seat] == 1
        if t["passed"]:
            if h.ended is None:
                h.err(ev, "play goes on after a pass (the stock is out)")
            return
        if t["draws"] != (0 if first_starter else 1):
            h.err(ev, "draws in the turn", 0 if first_starter else 1, t["draws"])
        out_here = self.out_seat == self.seat
        if t["discards"] != 1 and not out_here:
            h.err(ev, "discards in a turn that did not go out", 1, t["discards"])
        if r.joker_swap == "reuse" and t["swapped"] > t["jokers_down"]:
            h.err(ev, f"seat {self.seat} took {t['swapped']} jokers by swaps and put down "
                      f"{t['jokers_down']} in the same turn")
        if r.take_to_meld and t["taken"] and not t["taken_melded"]:
            h.err(ev, f"seat {self.seat} took {t['taken']} and did not meld it at once")
        if r.all_at_once and t["plays"] and not out_here:
            h.err(ev, f"seat {self.seat} played to the table without going out (deals 4-6)")

