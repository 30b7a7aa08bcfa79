"""The strategy parameters that look at the opponents (issue 20): the open family's
``meld_opp`` / ``discard_opp`` (the opponents' hand sizes).  Each is checked two ways: at its
extremes it plays exactly as the fixed rule it switches to (byte-identical rows on the same
deals), and in between it moves a measured quantity in the intended direction."""

import numpy as np
import pytest

from sim.runner import play_hands
from sim.variants import get_variant

RUMMY = get_variant("basic-rummy").outcomes.index("rummy")


def _same(a, b):
    return all(np.array_equal(a[c], b[c]) for c in a)


def _switches(variant, kw, off, on, at_top, at_off):
    """``off`` and ``on`` (two fixed rules) differ on these deals; ``at_top`` (the parameter at
    its extreme) plays exactly as ``on``, ``at_off`` (-1) exactly as ``off``."""
    a, b = play_hands(variant, strategies=off, **kw), play_hands(variant, strategies=on, **kw)
    assert not _same(a, b)
    assert _same(play_hands(variant, strategies=at_top, **kw), b)
    assert _same(play_hands(variant, strategies=at_off, **kw), a)


def _rummy_share(cols, seat=0):
    """Share of the hands seat ``seat`` went out of by rummy (the whole hand in one turn)."""
    return float(np.mean((cols["winner"] == seat) & (cols["outcome"] == RUMMY)))


@pytest.mark.parametrize("variant", ["basic-rummy", "loba"])
def test_meld_opp_at_its_top_melds_as_soon_as_possible_and_off_changes_nothing(variant):
    """meld_opp=20 (every opponent holds at most 20 cards) turns a hold-back strategy into
    ``simple`` (melds and lays off as soon as possible), layoff=0 included; meld_opp=-1 is the
    strategy itself."""
    _switches(variant, dict(n_hands=400, seed=3, players=3), "open(meld=1,layoff=0)", "simple",
              "open(meld=1,layoff=0,meld_opp=20)", "open(meld=1,layoff=0,meld_opp=-1)")


def test_meld_opp_gives_up_rummy_hunting_when_an_opponent_is_close():
    """Seat 0 holds back for rummy against two ``simple`` seats: with meld_opp=3 it stops
    holding back once an opponent is down to 3 cards, so it goes out by rummy less often than
    the pure rummy hunter, and more often than ``simple``."""
    kw = dict(n_hands=3000, seed=8, players=3)
    hunt = play_hands("basic-rummy", strategies="rummy,simple,simple", **kw)
    mid = play_hands("basic-rummy", strategies="rummy(meld_opp=3),simple,simple", **kw)
    shed = play_hands("basic-rummy", strategies="simple,simple,simple", **kw)
    r_hunt, r_mid, r_shed = _rummy_share(hunt), _rummy_share(mid), _rummy_share(shed)
    assert r_hunt > r_mid > r_shed, (r_hunt, r_mid, r_shed)


def test_discard_opp_switches_to_the_highest_discard():
    """discard_opp=20: the discard is the highest card on every turn (discard_rule=0); in
    between (3) it is neither rule on every deal."""
    kw = dict(n_hands=400, seed=5, players=4)
    _switches("basic-rummy", kw, "simple", "simple(discard_rule=0)", "simple(discard_opp=20)",
              "simple(discard_opp=-1)")
    some = play_hands("basic-rummy", strategies="simple(discard_opp=3)", **kw)
    assert not _same(some, play_hands("basic-rummy", strategies="simple(discard_rule=0)", **kw))
    assert not _same(some, play_hands("basic-rummy", strategies="simple", **kw))


# ----------------------------------------------------------------------------------------
# the wild family: the discards the opponents took (``out_opp``, ``wilds_opp``)

def _ended_by(cols, seat, outcome_names, variant):
    codes = [get_variant(variant).outcomes.index(o) for o in outcome_names]
    return float(np.mean((cols["ender"] == seat) & np.isin(cols["outcome"], codes)))


def test_out_opp_at_zero_knocks_as_soon_as_the_rules_allow_and_off_changes_nothing():
    """Ramino: out_opp=0 (every turn counts) knocks at any legal deadwood (below knock_below
    7, as knock=6); -1 is the strategy itself.  Cincinnati: out_opp=0 goes out with any value
    (as min_out=0)."""
    kw = dict(n_hands=300, seed=4, players=3)
    _switches("ramino-klop", kw, "simple(knock=1)", "simple(knock=6)", "simple(knock=1,out_opp=0)",
              "simple(knock=1,out_opp=-1)")
    _switches("cincinnati", kw, "simple(min_out=60)", "simple(min_out=0)", "simple(min_out=60,out_opp=0)",
              "simple(min_out=60,out_opp=-1)")


def test_out_opp_knocks_sooner_once_an_opponent_has_taken_discards():
    """Seat 0 waits for a low knock (knock=1) against ``simple``; with out_opp=1 it knocks at
    any legal deadwood once an opponent has taken a discard: it ends more hands by a knock
    than the waiting seat, fewer than the seat that always knocks at once, and its hands are
    shorter."""
    kw = dict(n_hands=2000, seed=9, players=3)
    wait = play_hands("ramino-klop", strategies="simple(knock=1),simple,simple", **kw)
    mid = play_hands("ramino-klop", strategies="simple(knock=1,out_opp=1),simple,simple", **kw)
    now = play_hands("ramino-klop", strategies="simple(knock=6),simple,simple", **kw)
    k = [_ended_by(c, 0, ["knock"], "ramino-klop") for c in (wait, mid, now)]
    assert k[0] < k[1] < k[2], k
    assert np.mean(mid["turns"]) < np.mean(wait["turns"])


def test_wilds_opp_releases_wilds_when_an_opponent_takes_discards():
    """A seat that keeps its wilds (discard_wilds_from=-1): wilds_opp=0 releases them on every
    turn (as discard_wilds_from=0); with dump_wilds a released wild always goes, so with
    wilds_opp=1 seat 0 discards more wilds (counted on traced hands) than keeping them and
    fewer than releasing them on every turn."""
    _switches("wildcard", dict(n_hands=300, seed=6, players=4), "simple(discard_wilds_from=-1)",
              "simple(discard_wilds_from=0)", "simple(discard_wilds_from=-1,wilds_opp=0)",
              "simple(discard_wilds_from=-1,wilds_opp=-1)")
    given = [_wild_discards("wildcard", f"simple(discard_wilds_from=-1,dump_wilds=1{extra}),simple,simple,simple")
             for extra in ("", ",wilds_opp=1", ",wilds_opp=0")]
    assert given[0] < given[1] < given[2], given


def _wild_discards(variant, strategies, hands=150, seed=2):
    """Wild cards (jokers and 2s) seat 0 discards over ``hands`` traced 4-player hands."""
    from tests.support.wild_replay import traced_hand
    n = 0
    for h in range(hands):
        _, evs, _ = traced_hand(variant, 4, h, seed=seed, strategies=strategies)
        n += sum(1 for kind, seat, a, b in evs if kind == "discard" and seat == 0 and (a == 13 or a & 15 == 1))
    return n
