"""The draw of the closed knock games (Gin, Knock Rummy): one step on their shared hand state.

Their hand loops keep a stock-and-pile position in plain arrays: ``deck`` int64[52] with the
stock as ``deck[state[S_SP]:]`` (top first), ``pile`` int64[52] with ``state[S_NPILE]``
discards (top last), ``picked`` uint64[n] the cards each seat took from the pile, and an int64
``state`` vector whose first slots are :data:`S_SP`, :data:`S_NPILE` and :data:`S_TURNS`
(turns begun); each game lays out the rest of its vector after them.
"""

from __future__ import annotations

from numba import njit

from ..core.bits import bit
from ..core.trace import E_DRAW_STOCK, E_TAKE_PILE, log

S_SP, S_NPILE, S_TURNS = range(3)   # the state vector's shared first slots


@njit(cache=True, inline="always")
def draw_card(p, from_pile, deck, pile, picked, state, own, trace):
    """Seat ``p`` begins a turn (``state[S_TURNS]`` and its own-turn counter ``state[own]``
    counted) and takes the pile's top card (``from_pile``; it joins ``picked[p]``) or draws the
    stock's.  Returns the card; the seat's hand is not changed."""
    state[S_TURNS] += 1
    state[own] += 1
    if from_pile:
        state[S_NPILE] -= 1
        card = pile[state[S_NPILE]]
        picked[p] |= bit(card)
        log(trace, E_TAKE_PILE, p, card, 0)
        return card
    card = deck[state[S_SP]]
    state[S_SP] += 1
    log(trace, E_DRAW_STOCK, p, card, 0)
    return card
