"""Referee of the closed go-out games: Wildcard Rummy (``rules/wildcard_rummy.md``) and
Cincinnati (``rules/cincinnati.md``), seed 000.  Nobody melds during play; a player goes out
in one go with every card in legal melds, with or without a final discard."""

from __future__ import annotations

from .closed import ClosedWalker, MAX_TURNS, deadwoods_for, scores_for


class GoOutWalker(ClosedWalker):
    """The go-out skeleton: the hand ends only when the ender's cards all meld."""

    NAMES = ("out", "out_no_discard")

    def may_end_without_discard(self) -> bool:
        return True

    def check_turn_shape(self, kinds) -> None:
        super().check_turn_shape(kinds)
        if "knock" in kinds:
            self.fail(f"turn {self.turn}: knock", "no knock in this game", kinds)

    def settle(self) -> dict:
        dws = self.all_deadwood()
        if self.end_seat is None or self.end_seat < 0 or self.turn >= MAX_TURNS:
            if self.turn < MAX_TURNS:
                self.fail("the hand ends", "a player going out (or the turn limit)",
                          f"an end at turn {self.turn}")
            return {**scores_for(self.n, {}), **deadwoods_for(dws), "winner": -1, "points": 0,
                    "out_turn": -1, "outcome_name": "turn_limit"}
        w = self.end_seat
        kept = list(self.hands[w].elements())
        if not self.arr.all_melded(kept):
            self.fail(f"seat {w} goes out", "every card in legal melds", sorted(kept))
        discarded = self.turn_events and any(e["event"] == "discard" for e in self.turn_events)
        points = self.points(w, kept, dws)
        dws[w] = 0
        return {**scores_for(self.n, {w: points}), **deadwoods_for(dws), "ender": w,
                "winner": w, "points": points, "out_turn": self.own_turns[w],
                "outcome_name": self.NAMES[0] if discarded else self.NAMES[1]}

    def points(self, w: int, kept: list[str], dws: list[int]) -> int:
        raise NotImplementedError


class WildcardWalker(GoOutWalker):
    """Wildcard: jokers and 2s wild, aces high or low; the winner scores the others' minimum
    deadwood (A 11, 3-10 face, J Q K 10, jokers and 2s 25)."""

    NAMES = ("rummy", "rummy_no_discard")

    def points(self, w, kept, dws) -> int:
        return sum(dws[s] for s in range(self.n) if s != w)


class CincinnatiWalker(GoOutWalker):
    """Cincinnati: jokers wild, aces high or low; the winner scores the value of its own melds
    (2-10 face, J Q K 10, aces 11, jokers 15), the others nothing."""

    def points(self, w, kept, dws) -> int:
        shown = self.shown()
        return self.p.values.total(kept if shown is None else [c for m in shown[w].melds for c in m])
