"""Duplicate deals (``mode="duplicate"``, :func:`sim.core.rng.hand_slot`): each deal is replayed once per
position, dealt by seat ``r`` in rotation ``r``, with every position receiving the cards of the
position ``r`` further on; plain hands are untouched."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core import rng
from sim.runner import make_spec, run_chunk
from sim.core.trace import events, new_trace
from sim.variants import available, get_variant


def dealt_by_position(variant: str, n: int, h: int, seed: int = 3):
    """The dealer and the cards dealt to each position after it (0 = first to play) of hand number h."""
    spec = make_spec(variant, players=n, n=1, seed=seed)
    out = np.zeros((1, len(spec.columns)), dtype=np.int64)
    trace = new_trace()
    spec.variant.play_chunk(*spec.arrays(), seed, h, out, trace=trace)
    dealer = int(out[0, 0])
    hands: dict[int, list[int]] = {}
    for kind, seat, card, _ in events(trace):
        if kind == "deal":
            hands.setdefault((seat - dealer - 1) % n, []).append(card)
    common = min(len(c) for c in hands.values())     # round-robin part (Wrotham's starter gets one more)
    return dealer, {p: sorted(c[:common]) for p, c in hands.items()}


CASES = [(v, n) for v in available() for n in sorted({get_variant(v).min_players, get_variant(v).max_players})]


@pytest.mark.parametrize("variant,n", CASES)
def test_every_position_plays_every_hand_of_a_deal(variant, n):
    g = 7
    deals = [dealt_by_position(variant, n, rng.DUPLICATE + g * n + r) for r in range(n)]
    assert len(deals[0][1]) == n
    for r, (dealer, hands) in enumerate(deals):
        assert dealer == r
        for p in range(n):
            assert hands[p] == deals[0][1][(p + r) % n], (r, p)
    # rotation 0 of deal g is plain hand g's deck (dealt by seat 0 there, by g % n in plain hand g)
    plain_dealer, plain = dealt_by_position(variant, n, g)
    assert sorted(sum(plain.values(), [])) == sorted(sum(deals[0][1].values(), []))


def test_duplicate_runs_are_hands_with_rotated_deals():
    spec = make_spec("knock-rummy", players=3, n=30, seed=9, mode="duplicate")
    rows = run_chunk(spec, 0, 30)
    assert list(rows[:, 0]) == [i % 3 for i in range(30)]          # dealer = rotation
    plain = run_chunk(make_spec("knock-rummy", players=3, n=30, seed=9), 0, 30)
    assert not np.array_equal(rows, plain)


def test_rotate_deal_is_a_rotation_of_positions():
    deck = np.arange(23, dtype=np.int64)
    d = deck.copy()
    rng.rotate_deal(d, 4, 20, 1)
    assert list(d[:4]) == [1, 2, 3, 0] and list(d[20:]) == [20, 21, 22]
    for r in range(4):
        d = deck.copy()
        rng.rotate_deal(d, 4, 20, r)
        assert sorted(d) == list(deck)
        assert all(d[q * 4 + j] == deck[q * 4 + (j + r) % 4] for q in range(5) for j in range(4))
