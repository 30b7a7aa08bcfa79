"""sim/wild/wild_melds.py (multiset hands with wild cards) against two independent references:
tests/support/wild_reference.py (pure Python, slow, obviously correct) and tests/support/wild_fast_reference.py
(numba brute force over subsets, checked here against the first).

(a) hand-made edge cases, (b) hypothesis hands per rule set with the arrangement checked,
(c) numpy random batches (plain and wild-rich) of the batch kernel, (d) best discard and going
out, (e) errors and the ``game=`` dispatch of sim.knock.melds.min_deadwood, (f) the big run: 100,000
hands per rule set against the fast reference (deadwood, the kernel API's discards, going out).
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
import pytest
from tests.support import wild_fast_reference as fast
from tests.support import wild_reference as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit

from sim.knock import melds
from sim.wild import wild_melds
from sim.core.cards import JOKER, CardError, card_code, parse_cards
from sim.core.errors import UserInputError

# (game, keyword options, reference key)
CONFIGS = [
    ("ramino-klop", {}, "ramino-klop"),
    ("ramino-klop", {"set_duplicates": True}, "ramino-klop-dup"),
    ("wildcard", {"packs": 1}, "wildcard-1"),
    ("wildcard", {"packs": 2}, "wildcard-2"),
    ("cincinnati", {"packs": 1}, "cincinnati-1"),
    ("cincinnati", {"packs": 2}, "cincinnati-2"),
]
IDS = [c[2] for c in CONFIGS]
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def packs_of(game, opts):
    return 2 if game == "ramino-klop" else opts["packs"]


def deck(game, opts):
    p = packs_of(game, opts)
    return [card_code(r, s) for s in range(4) for r in range(13)] * p + [JOKER] * (2 * p)


def is_wild(code, key):
    return code == JOKER or (key.startswith("wildcard") and code & 15 == 1)


def ref_deadwood(hand, key):
    return ref.min_deadwood(tuple(sorted(int(c) for c in hand)), key)


def check_arrangement(arr, hand, key):
    """The arrangement uses exactly the hand, its melds are legal and its deadwood adds up."""
    used = [c for m in arr.melds for c in m] + list(arr.deadwood_cards)
    assert Counter(used) == Counter(int(c) for c in hand)
    assert arr.deadwood == sum(ref.value(c, key) for c in arr.deadwood_cards)
    for meld, played in zip(arr.melds, arr.stands_for):
        assert ref.is_natural_meld(list(played), key), (meld, played)
        assert any(a == b and a != JOKER for a, b in zip(meld, played)), "a meld needs a natural card"
        assert all(a == b for a, b in zip(meld, played) if not is_wild(a, key))


def random_batch(game, opts, n, seed, wild_rich=False):
    """Hands as (list of code lists, counts uint8[n, 64]); 6..10 cards, wild-rich: 2..4 wilds."""
    key = [c[2] for c in CONFIGS if c[0] == game and c[1] == opts][0]
    rng = np.random.default_rng(seed)
    cards = np.array(deck(game, opts))
    wild = np.array([is_wild(int(c), key) for c in cards])
    hands = []
    for _ in range(n):
        size = int(rng.integers(6, 11))
        if wild_rich:
            nw = min(int(rng.integers(2, 5)), int(wild.sum()))
            h = np.concatenate([rng.choice(cards[wild], nw, replace=False),
                                rng.choice(cards[~wild], size - nw, replace=False)])
        else:
            h = rng.choice(cards, size, replace=False)
        hands.append([int(c) for c in h])
    counts = np.zeros((n, 64), dtype=np.uint8)
    for i, h in enumerate(hands):
        np.add.at(counts[i], h, 1)
    return hands, counts


# (a) hand-made cases ------------------------------------------------------------------------
EDGE = [
    ("ramino-klop", {}, "X X 7H", 0),                   # two jokers and one natural: a meld
    ("ramino-klop", {}, "3H 4H 5H 6H 7H", 3),           # no 5-card run: 4H-7H, 3H left
    ("ramino-klop", {}, "3H 4H 5H 6H 7H 8H", 0),        # split into two runs of 3
    ("ramino-klop", {}, "7H 7H 7S", 21),                # duplicates in a set: illegal by default
    ("ramino-klop", {"set_duplicates": True}, "7H 7H 7S", 0),
    ("ramino-klop", {}, "7H 7S X 7D 7C", 7),            # a set holds at most 4 cards
    ("ramino-klop", {}, "QH KH AH", 21),                # aces low only
    ("ramino-klop", {}, "X X X", 60),                   # three jokers alone: not a meld
    ("ramino-klop", {}, "5H 6H 7H X", 0),               # the joker extends the run
    ("ramino-klop", {}, "4H 5H 6H 7H X", 4),            # ...but not past 4 cards
    ("ramino-klop", {}, "AS AS X 7H", 29),
    ("wildcard", {"packs": 1}, "KH AH 3H", 24),         # K-A-2 round the corner: illegal ...
    ("wildcard", {"packs": 1}, "KH AH 2H", 0),          # ... but a wild 2 plays Q: Q-K-A
    ("wildcard", {"packs": 1}, "KS AS 2S 3S", 3),       # no K-A-2-3: 2S as QS in Q-K-A, 3S left
    ("wildcard", {"packs": 1}, "AH 2H 3H", 0),          # 2 playing itself (or wild)
    ("wildcard", {"packs": 1}, "2S 2H 2D", 0),          # a set of 2s
    ("wildcard", {"packs": 1}, "QH KH AH", 0),          # ace high
    ("wildcard", {"packs": 2}, "QD KD AD 5C", 5),
    ("cincinnati", {"packs": 1}, "QD KD AD", 0),        # ace high in Cincinnati too
    ("cincinnati", {"packs": 2}, "KD AD 2D", 23),       # ... but never round the corner
    ("cincinnati", {"packs": 1}, "AD 2D 3D", 0),
    ("wildcard", {"packs": 2}, "X X X", 75),
    ("wildcard", {"packs": 1}, "2S X X", 0),            # 2S plays itself: 2S + two wilds
    ("wildcard", {"packs": 2}, "AS AS X 7H 3D 3D", 13),
    ("cincinnati", {"packs": 1}, "2S 2H X", 0),         # 2s are natural in Cincinnati
    ("cincinnati", {"packs": 2}, "X X X X", 60),
    ("cincinnati", {"packs": 2}, "9C 9C 9H 9H X", 0),   # two per suit with two packs
    ("cincinnati", {"packs": 1}, "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC X", 0),
]


@pytest.mark.parametrize("game, opts, text, expected", EDGE)
def test_edge_cases_match_hand_computed_and_reference(game, opts, text, expected):
    arr = wild_melds.min_deadwood(text, game, **opts)
    key = [c[2] for c in CONFIGS if c[0] == game and c[1] == opts][0]
    hand = parse_cards(text, n_packs=2, n_jokers=4)
    assert arr.deadwood == expected
    assert ref_deadwood(hand, key) == expected
    assert fast.evaluate([list(hand)], key)[0][0] == expected
    check_arrangement(arr, hand, key)


def test_wildcard_run_never_goes_round_the_corner():
    assert not ref.is_natural_meld([card_code(12, 0), card_code(0, 0), card_code(1, 0)], "wildcard-1")
    assert wild_melds.min_deadwood("KS AS 3S 4S", "wildcard").deadwood == 10 + 11 + 3 + 4


# (b) hypothesis ------------------------------------------------------------------------------
def hands_of(game, opts, max_size=9):
    cards = deck(game, opts)
    return st.lists(st.integers(0, len(cards) - 1), min_size=1, max_size=max_size, unique=True).map(
        lambda idx: [cards[i] for i in idx])


def wild_rich_hands_of(game, opts):
    key = [c[2] for c in CONFIGS if c[0] == game and c[1] == opts][0]
    cards = deck(game, opts)
    wilds = [c for c in cards if is_wild(c, key)]
    natural = sorted({c for c in cards if not is_wild(c, key)})
    # naturals from a narrow window of ranks, so melds are likely
    return st.tuples(
        st.lists(st.sampled_from(range(len(wilds))), min_size=1, max_size=4, unique=True),
        st.integers(0, 9),
        st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=2, max_size=6),
    ).map(lambda t: [wilds[i] for i in t[0]] + [card_code(min(12, t[1] + dr), s) for s, dr in t[2]]
          ).filter(lambda h: max(Counter(c for c in h if c != JOKER).values(), default=0) <= packs_of(game, opts)
                   and all(c in natural or is_wild(c, key) for c in h))


@pytest.mark.parametrize("game, opts, key", CONFIGS, ids=IDS)
def test_hypothesis_hands_match_reference(game, opts, key):
    @PROPERTY
    @given(st.one_of(hands_of(game, opts), wild_rich_hands_of(game, opts)))
    def check(hand):
        arr = wild_melds.min_deadwood(hand, game, **opts)
        assert arr.deadwood == ref_deadwood(hand, key), (key, sorted(hand), arr)
        assert fast.evaluate([hand], key)[0][0] == arr.deadwood
        check_arrangement(arr, hand, key)
    check()


@pytest.mark.parametrize("game, opts, key", CONFIGS, ids=IDS)
def test_hypothesis_hands_match_fast_reference_with_discards(game, opts, key):
    g = wild_melds.game_rules(game, **opts)

    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.one_of(hands_of(game, opts, max_size=12), wild_rich_hands_of(game, opts)))
    def check(hand):
        dead, disc = fast.evaluate([hand], key)
        counts = np.bincount(hand, minlength=64).astype(np.uint8)[None, :]
        got_dead, got_disc = kernel_api(counts, g)
        assert got_dead[0] == dead[0] and (got_disc[0] == disc[0]).all(), (key, sorted(hand))
    check()


# (c) numpy batches ---------------------------------------------------------------------------
def crosscheck_batch(game, opts, key, n, seed, wild_rich):
    hands, counts = random_batch(game, opts, n, seed, wild_rich)
    got = wild_melds.min_deadwood_counts(counts, game, **opts)
    slow = np.array([ref_deadwood(h, key) for h in hands])
    bad = np.flatnonzero(got != slow)
    assert bad.size == 0, [(sorted(hands[i]), got[i], slow[i]) for i in bad[:3]]
    assert (fast.evaluate(hands, key)[0] == slow).all(), "the fast reference disagrees with the slow one"
    return n


@pytest.mark.slow
@pytest.mark.parametrize("game, opts, key", CONFIGS, ids=IDS)
def test_random_batches_match_reference(game, opts, key):
    crosscheck_batch(game, opts, key, 80, 11, False)
    crosscheck_batch(game, opts, key, 80, 12, True)


# (d) discard and going out -------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("game, opts, key", CONFIGS, ids=IDS)
def test_best_discard_and_go_out_match_reference(game, opts, key):
    hands, _ = random_batch(game, opts, 60, 21, wild_rich=True)
    _, fast_disc = fast.evaluate(hands, key)
    for h, fd in zip(hands, fast_disc):
        got = wild_melds.best_discard(h, game, **opts)
        assert (got.deadwood, tuple(sorted(got.discards))) == ref.best_discard(tuple(sorted(h)), key)
        assert all(fd[c] == ref.min_deadwood(ref._minus(tuple(sorted(h)), (c,)), key) for c in set(h))
        out = wild_melds.go_out(h, game, **opts)
        whole = ref_deadwood(h, key) == 0
        works = sorted(c for c in set(h) if ref.min_deadwood(ref._minus(tuple(sorted(h)), (c,)), key) == 0)
        assert out.without_discard == whole and sorted(out.discards) == works
        assert out.can_go_out == (whole or bool(works))
        total = sum(ref.value(c, key) for c in h)
        expected = total if whole else (total - min(ref.value(c, key) for c in works) if works else -1)
        assert out.meld_value == expected
        if out.can_go_out:
            assert out.arrangement.deadwood == 0


def test_cincinnati_meld_value_prefers_the_cheapest_discard():
    out = wild_melds.go_out("QS KS AS X 5D 5H 5C 9C", "cincinnati")
    assert out.can_go_out and not out.without_discard and out.discards == (card_code(8, 3),)
    assert out.meld_value == 10 + 10 + 11 + 15 + 15
    out = wild_melds.go_out("QS KS AS X 5D 5H 5C", "cincinnati")
    assert out.without_discard and out.meld_value == 61


# (e) errors and dispatch ---------------------------------------------------------------------
@pytest.mark.parametrize("text, game, opts", [
    ("AS AS AS", "ramino-klop", {}),
    ("AS AS", "wildcard", {"packs": 1}),
    ("X X X", "cincinnati", {"packs": 1}),
    ("X X X X X", "ramino-klop", {}),
    ("ZZ", "ramino-klop", {}),
])
def test_impossible_hands_raise_card_error(text, game, opts):
    with pytest.raises(CardError):
        wild_melds.min_deadwood(text, game, **opts)


@pytest.mark.parametrize("game, opts", [("gin", {}), ("wildcard", {"packs": 3}),
                                         ("ramino-klop", {"packs": 1}), ("cincinnati", {"set_duplicates": True})])
def test_bad_rule_options_raise_user_input_error(game, opts):
    with pytest.raises(UserInputError):
        wild_melds.min_deadwood("AS", game, **opts)


def test_sim_melds_dispatches_on_game_and_keeps_its_default():
    assert melds.min_deadwood("AS AS X 7H 7S 7D", game="ramino-klop").deadwood == 2
    assert melds.min_deadwood("KH AH 2H", game="wildcard").deadwood == 0
    plain = melds.min_deadwood("AS 2S 3S 9H")
    assert isinstance(plain, melds.Arrangement) and plain.deadwood == 9
    with pytest.raises(CardError):
        melds.min_deadwood("AS X 3S")


def test_repr_shows_what_wilds_stand_for():
    assert "X=8H" in repr(wild_melds.min_deadwood("5H 6H 7H X", "ramino-klop"))


def test_random_hands_refuse_more_wilds_than_the_packs_hold():
    with pytest.raises(UserInputError):
        wild_melds.random_hands(1, 8, 3, "cincinnati", packs=1)


def test_rate_function_reports_positive_rate(capsys):
    assert wild_melds.wild_deadwood_rate(n=200, repeats=1) > 0
    assert "evaluations/s" in capsys.readouterr().out


# (f) the big run -----------------------------------------------------------------------------
@njit(cache=True)
def _kernel_api(counts, P, vals, dead, disc):
    """The game kernels' view: one workspace, ws_deadwood and ws_discards per hand; checks
    that both leave the hand in the workspace as it was."""
    ws = wild_melds.new_workspace(P, vals)
    out = np.empty(64, dtype=np.int64)
    for i in range(counts.shape[0]):
        for c in range(64):
            ws[c] = counts[i, c]
        dead[i] = wild_melds.ws_deadwood(ws)
        wild_melds.ws_discards(ws, out)
        disc[i, :] = out
        for c in range(64):
            if ws[c] != counts[i, c]:
                dead[i] = -2


def kernel_api(counts, g):
    dead = np.empty(counts.shape[0], dtype=np.int64)
    disc = np.empty((counts.shape[0], 64), dtype=np.int64)
    _kernel_api(counts, g.params, g.values, dead, disc)
    return dead, disc


def bulk_hands(game, opts, n, seed, wild_rich):
    """``n`` random hands of 6..10 cards as (codes int64[n, 10] with -1 after the hand's size,
    sizes, counts uint8[n, 64]); wild-rich: 2..4 wilds (as many as the packs hold)."""
    key = [c[2] for c in CONFIGS if c[0] == game and c[1] == opts][0]
    rng = np.random.default_rng(seed)
    cards = np.array(deck(game, opts))
    sizes = rng.integers(6, 11, n)
    j = np.arange(10)[None, :]
    if wild_rich:
        wild = np.array([is_wild(int(c), key) for c in cards])
        most = min(4, int(wild.sum()))
        nw = np.minimum(rng.integers(2, 5, n), most)[:, None]
        w = cards[wild][rng.random((n, wild.sum())).argsort(axis=1)[:, :most]]
        nat = cards[~wild][rng.random((n, (~wild).sum())).argsort(axis=1)[:, :10]]
        hands = np.where(j < nw, np.take_along_axis(w, np.minimum(j, most - 1).repeat(n, 0), 1),
                         np.take_along_axis(nat, np.clip(j - nw, 0, 9), 1))
    else:
        hands = cards[rng.random((n, cards.size)).argsort(axis=1)[:, :10]]
    hands = np.where(j < sizes[:, None], hands, -1)
    counts = np.zeros((n, 64), dtype=np.uint8)
    rows = np.repeat(np.arange(n), 10).reshape(n, 10)
    np.add.at(counts, (rows[hands >= 0], hands[hands >= 0]), 1)
    return hands, sizes, counts


def go_out_value(hand, dead, disc, key):
    """Cincinnati's meld value from the reference: the hand's value, less the cheapest
    discard that leaves no deadwood, or -1."""
    total = sum(ref.value(c, key) for c in hand)
    if dead == 0:
        return total
    works = [ref.value(c, key) for c in set(hand) if disc[c] == 0]
    return total - min(works) if works else -1


@pytest.mark.slow
@pytest.mark.parametrize("game, opts, key", CONFIGS, ids=IDS)
def test_100k_hands_match_fast_reference(game, opts, key):
    """50,000 random and 50,000 wild-rich hands: deadwood (batch and kernel API), every
    discard, and for Cincinnati the value of the melds laid out going out."""
    t0 = time.perf_counter()
    g = wild_melds.game_rules(game, **opts)
    n_hands = n_wild = n_out = 0
    for seed, wild_rich in ((41, False), (42, True)):
        hands, sizes, counts = bulk_hands(game, opts, 50_000, seed, wild_rich)
        want_dead = np.empty(len(hands), dtype=np.int64)
        want_disc = np.empty((len(hands), 64), dtype=np.int64)
        fast.deadwood_and_discards(np.pad(hands, ((0, 0), (0, fast.MAX_CARDS - 10))), sizes,
                                   fast.rule_vector(key), fast.value_vector(key), want_dead, want_disc)
        got = wild_melds.min_deadwood_counts(counts, game, **opts)
        bad = np.flatnonzero(got != want_dead)
        assert bad.size == 0, [(sorted(hands[i][:sizes[i]]), got[i], want_dead[i]) for i in bad[:3]]
        dead, disc = kernel_api(counts, g)
        assert (dead == want_dead).all() and (disc == want_disc).all()
        n_hands += len(hands)
        n_wild += int((counts[:, JOKER] + (counts[:, 1::16].sum(axis=1) if key.startswith("wildcard") else 0) > 0).sum())
        if game == "cincinnati":
            for h, d, ds in zip(hands, want_dead, want_disc):
                h = [int(c) for c in h if c >= 0]
                expected = go_out_value(h, d, ds, key)
                assert wild_melds.go_out(h, game, **opts).meld_value == expected, (key, sorted(h))
                n_out += expected >= 0
    print(f"{key}: {n_hands} hands ({n_wild} with wilds, {n_out} going out) in {time.perf_counter() - t0:.1f} s")
