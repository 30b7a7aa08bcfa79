"""Counter-based random numbers for the kernels.

Every hand draws from its own generator whose state is a pure function of
``(run seed, stream, hand index)``, so results never depend on threads, processes, chunk
sizes or the machine.  ``stream`` separates independent uses of one hand index: the deal
(``STREAM_DEAL``, identical in every arm of a comparison: common random numbers) and each
seat's strategy randomness (``STREAM_STRATEGY + seat``).

**Duplicate deals.**  Hand numbers from ``DUPLICATE`` on (the runner's ``duplicate`` mode adds
it) replay each deal once per position: hand ``DUPLICATE + i`` of ``n`` seats is rotation
``r = i % n`` of deal ``i // n`` (the deck of plain hand ``i // n``), dealt by seat ``r``, with
the cards each position receives taken from the position ``r`` further on (:func:`rotate_deal`;
stock and upcard unchanged).  Over the ``n`` rotations every position plays every hand of the
deal, so position effects are measured free of deal luck (:func:`hand_slot`).

The generator is SplitMix64 (Steele, Lea & Flood 2014): a 64-bit state advanced by a Weyl
constant and finalised by a bijective mixer.  State lives in a 1-element uint64 array so
njit helpers can advance it in place.
"""

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
STREAM_DEAL = 0
STREAM_STRATEGY = 16
STREAM_GAME = 8
DUPLICATE = 1 << 61     # hand numbers from here on are duplicate deals (module doc)


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key(seed, stream, index):
    """uint64 key of generator ``(seed, stream, index)``; all arguments are integers."""
    z = _mix(np.uint64(seed) + GOLDEN)
    z = _mix(z ^ (np.uint64(stream) * np.uint64(0xD1B54A32D192ED03)))
    return _mix(z ^ (np.uint64(index) * GOLDEN))


@njit(cache=True)
def new_state(seed, stream, index):
    st = np.empty(1, dtype=np.uint64)
    st[0] = stream_key(seed, stream, index)
    return st


@njit(cache=True, inline="always")
def next_u64(st):
    st[0] += GOLDEN
    return _mix(st[0])


@njit(cache=True, inline="always")
def randint(st, n):
    """Uniform integer in [0, n) by Lemire's multiply-shift on the top 32 bits (bias < 2^-26
    for n <= 108)."""
    return np.int64(((next_u64(st) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def uniform(st):
    """Float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle_into(st, src, dst):
    """Fisher-Yates: dst[:] = a uniformly random permutation of src (same length)."""
    n = src.shape[0]
    for i in range(n):
        dst[i] = src[i]
    for i in range(n - 1, 0, -1):
        j = randint(st, i + 1)
        t = dst[i]
        dst[i] = dst[j]
        dst[j] = t


@njit(cache=True)
def seat_streams(seed, index, st):
    """Seat ``p``'s strategy generator of hand (or game) ``index``: ``st[p, 0] = (seed,
    STREAM_STRATEGY + p, index)`` for every row of ``st`` (uint64[n, 1])."""
    for p in range(st.shape[0]):
        st[p, 0] = stream_key(seed, STREAM_STRATEGY + p, index)


@njit(cache=True)
def hand_slot(h, n):
    """``(index, deal, rotation)`` of hand number ``h`` with ``n`` seats: ``(h, h, 0)`` for a
    plain hand, ``(i, i // n, i % n)`` for duplicate hand ``h = DUPLICATE + i``.  The index
    numbers the hand (dealer ``index % n``, strategy generators), ``deal`` keys the deck."""
    if h >= DUPLICATE:
        i = h - DUPLICATE
        return i, i // n, i % n
    return h, h, 0


@njit(cache=True)
def rotate_deal(deck, n, dealt, r):
    """Rotation ``r`` of a round-robin deal: the first ``dealt`` cards of ``deck`` go one at a
    time to positions ``0..n-1``; afterwards position ``j`` holds what position ``(j + r) % n``
    held.  The rest of the deck is unchanged."""
    if r == 0:
        return
    tmp = np.empty(n, dtype=deck.dtype)
    for q in range(dealt // n):
        for j in range(n):
            tmp[j] = deck[q * n + (j + r) % n]
        for j in range(n):
            deck[q * n + j] = tmp[j]


@njit(cache=True)
def shuffle_hand(seed, h, n, pack, deck, dealt):
    """Shuffle hand number ``h``'s deck into ``deck`` (duplicate rotation applied, ``dealt``
    cards dealt round-robin to ``n`` seats); returns ``(index, dst)``: the hand's index and its
    deal generator (advanced past the shuffle, for restocks)."""
    i, d, r = hand_slot(h, n)
    dst = new_state(seed, STREAM_DEAL, d)
    shuffle_into(dst, pack, deck)
    rotate_deal(deck, n, dealt, r)
    return i, dst
