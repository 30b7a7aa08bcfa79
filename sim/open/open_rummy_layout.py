"""The open-melding engine's vectors (:mod:`sim.open.open_rummy`): the game's ``cfg`` (its
``C_*`` fields, built by :func:`make_cfg`), the end kinds and rule codes it holds, and the
hand's ``state`` (``S_*``)."""

from __future__ import annotations

import numpy as np

from ..core.columns import MAX_SEATS
from ..core.deal import S_NPILE, S_SP, S_TO_MOVE, S_TURNS  # noqa: F401  (the state's head)

# end kinds (each mapped to the game's outcome code by cfg[C_OUTCOME + kind], -1: none)
K_OUT, K_RUMMY, K_STOCK_OUT, K_TURN_LIMIT = range(4)
K_NONE = -1
TAKE_FREE, TAKE_TO_MELD = range(2)
RESTOCK_TURN_OVER, RESTOCK_SHUFFLE, RESTOCK_BLOCK = range(3)
SETTLE_WINNER, SETTLE_PENALTY = range(2)
RUMMY_NONE, RUMMY_DOUBLE, RUMMY_PLUS10 = range(3)
NO_OUT_DIFFERENCES, NO_OUT_PENALTY, NO_OUT_VOID = range(3)
(C_PLAYERS, C_HAND, C_STARTER_EXTRA, C_STARTER_NO_DRAW, C_TAKE_RULE, C_TAKEN_NO_DISCARD,
 C_JOKER_LAST_ONLY, C_RESTOCK, C_MAX_RESTOCKS, C_SETTLE, C_RUMMY, C_NO_OUT, C_DEAL, C_DEAL_CYCLE,
 C_LATE_DEAL, C_ACE_HIGH, C_X_WINNER, C_X_POINTS, C_X_RUMMY, C_X_OUT_TURN, C_X_RESTOCKS, C_X_DEAL,
 C_OUTCOME) = range(23)
C_WIDTH = C_OUTCOME + 4
CFG_FIELDS = ("players", "hand", "starter_extra", "starter_no_draw", "take_rule", "taken_no_discard",
              "joker_last_only", "restock", "max_restocks", "settle", "rummy", "no_out", "deal",
              "deal_cycle", "late_deal", "ace_high")
EXTRA_KEYS = ("winner", "points", "rummy", "out_turn", "restocks", "deal")
MAX_TURNS = 1000
NOT_LOOKED = 1 << 20   # fewest_opp_cards when the strategy does not look at the opponents' hands
# state int64[S_WIDTH]: stock pointer, pile size, turns, seat to move (local) - the head every turn
# loop shares (sim.core.deal) - then table melds, restocks, deal number, plan holds this turn's SHED
# plays; then per local seat: own turns, has melded, has played a card
S_NTM, S_RESTOCKS, S_DEAL, S_PLAN_READY, S_OWN = range(S_TO_MOVE + 1, S_TO_MOVE + 6)
S_MELDED = S_OWN + MAX_SEATS
S_PLAYED = S_MELDED + MAX_SEATS
S_WIDTH = S_PLAYED + MAX_SEATS


def make_cfg(outcome_of_end: tuple[int, int, int, int], extras: dict[str, int], **fields) -> np.ndarray:
    """The ``cfg`` vector: every name of ``CFG_FIELDS`` given (``deal``: 0 when the hand rows
    cycle through ``deal_cycle`` deals, hand h playing deal h % deal_cycle + 1, else the deal
    number every hand row plays; ``late_deal``: the deal from which ``mrs[1]`` applies, 0
    never; ``max_restocks`` -1: no limit), ``extras``: column offset (from the first extra) of
    winner, points, rummy, out_turn, restocks, deal (missing: none), ``outcome_of_end``: outcome
    codes of out, rummy, stock out, turn limit (-1: the game has no such end)."""
    missing = set(CFG_FIELDS) - set(fields)
    unknown = set(fields) - set(CFG_FIELDS)
    if missing or unknown:
        raise ValueError(f"make_cfg: missing {sorted(missing)}, unknown {sorted(unknown)}")
    cfg = np.full(C_WIDTH, -1, dtype=np.int64)
    for k, name in enumerate(CFG_FIELDS):
        cfg[k] = int(fields[name])
    for k, name in enumerate(EXTRA_KEYS):
        cfg[C_X_WINNER + k] = extras.get(name, -1)
    cfg[C_OUTCOME:] = outcome_of_end
    return cfg
