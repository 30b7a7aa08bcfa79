"""The deal of a hand as the turn-loop engines share it (numpy + numba only).

* a chunk of hand rows: :func:`chunk_buffers` (the seats, a deck, the seats' generators) and
  :func:`shuffle_hand` (hand ``h``'s deck and its seats' strategy generators, :mod:`sim.core.rng`);
* a hand: :func:`local_seat` (the dealer among the seats in play) and, once the cards are
  dealt, :func:`turn_upcard` (the first discard and a fresh turn state).

The state vector (int64) of a turn loop that plays from a stock and a face-up pile (the open
engine, the wild engine, Knock Rummy) starts with the same four fields: the stock pointer
``S_SP``, the pile size ``S_NPILE``, the turns played ``S_TURNS`` and the local seat to move
``S_TO_MOVE``; each engine's own fields follow.
"""

import numpy as np
from numba import njit

from . import rng

S_SP, S_NPILE, S_TURNS, S_TO_MOVE = range(4)


@njit(cache=True)
def chunk_buffers(n, pack):
    """The seats ``0..n-1`` (int64[n]), a deck (int64, as long as ``pack``) and the seats'
    strategy generators (uint64[n, 1]) of a chunk of hand rows."""
    return np.arange(n), np.empty(pack.shape[0], dtype=np.int64), np.empty((n, 1), dtype=np.uint64)


@njit(cache=True)
def shuffle_hand(seed, h, pack, deck, dealt, st):
    """Hand number ``h`` of ``n = st.shape[0]`` seats: its deck into ``deck`` (deals from
    ``(seed, STREAM_DEAL, h)``, duplicate rotations applied to the ``dealt`` cards dealt round
    the table: :func:`sim.core.rng.shuffle_hand`) and seat ``p``'s strategy generator
    ``(seed, STREAM_STRATEGY + p, index)`` into ``st[p]``; returns ``(index, dst)``, the hand's
    index (its dealer is ``index % n``) and its deal generator (its restock shuffles continue it)."""
    index, dst = rng.shuffle_hand(seed, h, st.shape[0], pack, deck, dealt)
    rng.seat_streams(seed, index, st)
    return index, dst


@njit(cache=True)
def local_seat(seats, seat):
    """The index of ``seat`` among the seats in play ``seats`` (0 if it is not among them)."""
    local = 0
    for i in range(seats.shape[0]):
        if seats[i] == seat:
            local = i
    return local


@njit(cache=True)
def turn_upcard(deck, dealt, m, dealer, pile, state):
    """After ``dealt`` cards of ``deck`` went to ``m`` seats: the next one starts the pile
    (``pile[0]``) and ``state`` starts afresh: zeros, the stock from card ``dealt + 1``, a pile of
    one card, the seat left of the local ``dealer`` to move."""
    pile[0] = deck[dealt]
    state[:] = 0
    state[S_SP] = dealt + 1
    state[S_NPILE] = 1
    state[S_TO_MOVE] = (dealer + 1) % m
