"""Wildcard Rummy: packs and deal sizes by player count, refused configurations, going out,
the winner's points against a slow reference, keep-wilds strategies, restock."""

import numpy as np
import pytest

from sim.wild.closed_wild import go_out_deal_size, packs_for
from sim.core.errors import UserInputError
from sim.runner import make_spec, play_hands
from sim.variants import wildcard as WC
from tests.support import wild_reference as REF
from tests.support.wild_replay import replay, traced_hand, won_hands

WILDS = {13, 1, 17, 33, 49}   # the joker and the four 2s


@pytest.mark.parametrize("players,rules,packs,size", [
    (2, [], 1, 7), (3, [], 1, 7), (3, ["deal_3p=10"], 1, 10), (4, [], 1, 7), (5, [], 1, 7),
    (6, [], 1, 6), (4, ["packs=2"], 2, 10), (6, ["packs=2"], 2, 10), (7, [], 2, 10), (7, ["packs=2"], 2, 10)])
def test_deal_sizes_and_packs(players, rules, packs, size):
    row, evs, spec = traced_hand("wildcard", players, 2, seed=3, rules=rules)
    assert packs_for(players, spec.rules.packs) == packs
    assert go_out_deal_size(players, packs, spec.rules.deal_3p) == size
    r = replay(evs)
    assert all(len(c) == size for c in r.dealt.values()) and len(r.dealt) == players
    cards = [c for h in r.dealt.values() for c in h]
    counts = np.bincount(cards, minlength=64)
    assert counts[13] <= 2 * packs and np.delete(counts, 13).max() <= packs
    n_stock_drawn = sum(1 for t in r.turns if not t[3])
    if not r.restocks:
        assert row["stock_left"] == 54 * packs - players * size - 1 - n_stock_drawn


@pytest.mark.parametrize("players,rules,words", [
    (7, ["packs=1"], "7 players play with two packs"),
    (3, ["packs=2"], "3 players play with one pack"),
    (4, ["packs=3"], "packs=3 is out of range"),
    (3, ["deal_3p=8"], "7 or 10"),
    (8, [], "players=8 is out of range")])
def test_refused_configurations(players, rules, words):
    with pytest.raises(UserInputError, match=words):
        make_spec("wildcard", players=players, rules=rules)


def test_the_winner_melds_everything_and_scores_the_others_exact_deadwood():
    for n, row, r, w in won_hands("wildcard", seed=41):
        assert row["outcome"] in (WC.O_RUMMY, WC.O_RUMMY_NO_DISCARD)
        assert REF.min_deadwood(tuple(sorted(r.hands[w])), "wildcard-1") == 0
        size = 7 if n < 6 else 6
        assert len(r.hands[w]) == size + (row["outcome"] == WC.O_RUMMY_NO_DISCARD)
        total = 0
        for s in range(n):
            if s != w:
                dw = REF.min_deadwood(tuple(sorted(r.hands[s])), "wildcard-1")
                assert row[f"deadwood{s}"] == dw and row[f"score{s}"] == 0
                total += dw
        assert row[f"score{w}"] == row["points"] == total and row[f"deadwood{w}"] == 0


def test_out_is_taken_at_the_first_chance():
    """No seat passes up going out: before the last turn, no hand after a draw was all melded
    or one legal discard away from it."""
    for h in range(6):
        row, evs, _ = traced_hand("wildcard", 3, h, seed=42)
        r = replay(evs)
        hands = {s: list(c) for s, c in r.dealt.items()}
        for seat, _, drawn, from_pile, disc in r.turns[:-1]:
            hand = hands[seat] + [drawn]
            assert REF.min_deadwood(tuple(sorted(hand)), "wildcard-1") > 0
            best, _ = REF.best_discard(tuple(sorted(hand)), "wildcard-1")
            if best == 0:   # only the card just taken leaves a melded hand: it may not go
                assert from_pile and REF.min_deadwood(tuple(sorted(hands[seat])), "wildcard-1") == 0
            hand.remove(disc)
            hands[seat] = hand


def test_keep_wilds_never_discards_a_wild_and_late_only_late():
    kept = late = 0
    for h in range(25):
        _, evs, _ = traced_hand("wildcard", 4, h, seed=43, strategies="keep-wilds")
        kept += sum(1 for t in replay(evs).turns if t[4] in WILDS)
        _, evs, _ = traced_hand("wildcard", 4, h, seed=43, strategies="discard-wilds-late")
        late += sum(1 for t in replay(evs).turns if t[4] in WILDS and t[1] < 8)
    assert kept == 0 and late == 0
    simple = play_hands("wildcard", n_hands=2000, seed=44, players=4)
    keep = play_hands("wildcard", n_hands=2000, seed=44, players=4, strategies="keep-wilds")
    assert (simple["turns"] != keep["turns"]).any()    # the rule changes play


def test_restock_turns_the_pile_over():
    a = play_hands("wildcard", n_hands=1500, seed=46, players=6)
    b = play_hands("wildcard", n_hands=1500, seed=46, players=6, rules=["restock_shuffle=on"])
    long = a["turns"] > 54 - 37
    assert long.any() and (a["turns"][~long] == b["turns"][~long]).all()
    seen = 0
    for h in np.flatnonzero(a["turns"] > 30)[:4]:
        for shuffle in (False, True):
            _, evs, _ = traced_hand("wildcard", 6, int(h), seed=46,
                                    rules=[f"restock_shuffle={'on' if shuffle else 'off'}"])
            seen += len(replay(evs, shuffled=shuffle).restocks)   # checks the new stock
    assert seen >= 2
