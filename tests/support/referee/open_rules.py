"""The rules of the five open-melding games as the referee applies them (from ``rules/``).

``game_rules(start, flips)`` reads the trace's start line (variant, players, every rule option)
and returns a :class:`GameRules`; ``flips`` overrides any field (the mutation check flips one
rule and the referee must then report mismatches on real traces).  Sources:
``rules/basic_rummy.md`` (Basic, Block, Wrotham), ``rules/ramino.md`` (Drift), ``rules/loba.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .cards import Values
from .open_melds import OpenMeldRules

OPEN_GAMES = ("basic-rummy", "block-rummy", "wrotham", "ramino-drift", "loba")


@dataclass(frozen=True)
class GameRules:
    variant: str
    players: int
    melds: OpenMeldRules
    values: Values = field(default_factory=Values)
    hand_size: int = 7
    starter_extra: int = 0               # Wrotham: the starting player gets one more card
    starter_no_draw: bool = False        # Wrotham: ... and does not draw on its first turn
    settlement: str = "points"           # "points" (to the one out) or "penalty" (own hand)
    rummy_bonus: str = "double"          # Basic / Wrotham: double or plus10
    at_once_bonus: int = 0               # Loba: 10 off for going out all at once
    multiple_melds: bool = True
    last_card_discard: bool = False
    layoff_needs_meld: str = "none"      # none / runs / all
    joker_swap: str = "off"              # off / free (Wrotham) / reuse / keep (Drift)
    joker_moves: bool = False            # Loba
    take_to_meld: bool = False           # Loba: the pile top only to meld it at once
    joker_discard_only_out: bool = False  # Loba
    all_at_once: bool = False            # Wrotham deals 4-6
    restock: str = "turn_over"           # turn_over / shuffle (all but the top) / block
    max_restocks: int = -1               # -1: no limit
    penalty_scoring: bool = False        # Basic option


def wrotham_deal(rules: dict, hand: int) -> int:
    """The deal (1-6) a Wrotham hand row plays: option ``deal``, or 0 to cycle."""
    deal = int(rules.get("deal", 0))
    return deal if deal else hand % 6 + 1


def _basic(variant, n, rules, hand):
    ace_hl = bool(rules.get("ace_high_or_low", False))
    wrotham = variant == "wrotham"
    deal = wrotham_deal(rules, hand) if wrotham else 0
    mr = OpenMeldRules(min_set=3, max_set=4, set_suits="distinct", set_jokers=True, min_run=3,
                   ace_high=ace_hl, round_corner=ace_hl and bool(rules.get("round_the_corner", False)))
    size = 7 if wrotham else (10 if n == 2 else 7 if n <= 4 else 6)
    return dict(melds=mr, values=Values(ace=15 if ace_hl else 1, joker=25), hand_size=size,
                starter_extra=int(wrotham), starter_no_draw=wrotham, settlement="points",
                rummy_bonus=str(rules.get("rummy_bonus", "double")),
                multiple_melds=bool(rules.get("multiple_melds", True)),
                last_card_discard=bool(rules.get("last_card_must_be_discarded", False)),
                layoff_needs_meld="all" if rules.get("layoff_requires_own_meld", False) else "none",
                joker_swap="free" if wrotham else "off", all_at_once=wrotham and deal >= 4,
                restock=str(rules.get("restock", "block" if variant == "block-rummy" else "turn_over")),
                max_restocks=int(rules.get("max_restocks", 2)),
                penalty_scoring=bool(rules.get("penalty_scoring", False)))


def _drift(rules):
    mr = OpenMeldRules(min_set=3, max_set=4, set_suits="distinct", set_jokers=True, min_run=3)
    return dict(melds=mr, values=Values(ace=1, joker=20), hand_size=7, settlement="penalty",
                last_card_discard=bool(rules.get("last_card_must_be_discarded", False)),
                layoff_needs_meld=str(rules.get("layoff_needs_meld", "runs")),
                joker_swap=str(rules.get("joker_swap", "reuse")),
                restock="shuffle" if rules.get("restock_shuffle", False) else "turn_over")


def _loba(rules):
    mr = OpenMeldRules(min_set=3, max_set=6, set_suits="three", set_jokers=False, min_run=4,
                   run_max_jokers=2, ace_high=True, joker_above_king=False)
    return dict(melds=mr, values=Values(ace=10, joker=int(rules.get("joker_penalty", 25))), hand_size=9,
                settlement="penalty", at_once_bonus=10, joker_moves=True, take_to_meld=True,
                joker_discard_only_out=True,
                last_card_discard=bool(rules.get("last_card_must_be_discarded", False)),
                restock="shuffle" if rules.get("restock_shuffle", False) else "turn_over")


def game_rules(start: dict, flips: dict | None = None) -> GameRules:
    """The rules of the hand whose start line is ``start``; ``flips``: field -> value, a field
    of :class:`OpenMeldRules` or of :class:`GameRules` (the mutation check)."""
    variant, rules = start["variant"], dict(start.get("rules", {}))
    n = int(start["players"])
    if variant in ("basic-rummy", "block-rummy", "wrotham"):
        kw = _basic(variant, n, rules, int(start.get("hand", 0)))
    elif variant == "ramino-drift":
        kw = _drift(rules)
    elif variant == "loba":
        kw = _loba(rules)
    else:
        raise ValueError(f"not an open-melding game: {variant}")
    gr = GameRules(variant=variant, players=n, **kw)
    flips = dict(flips or {})
    meld_flips = {k: v for k, v in flips.items() if k in OpenMeldRules.__dataclass_fields__}
    game_flips = {k: v for k, v in flips.items() if k not in meld_flips}
    return replace(gr, melds=replace(gr.melds, **meld_flips), **game_flips)
