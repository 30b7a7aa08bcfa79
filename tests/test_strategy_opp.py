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


def _rummy_share(cols, seat=0):
    """Share of the hands seat ``seat`` went out of by rummy (the whole hand in one turn)."""
    return float(np.mean((cols["winner"] == seat) & (cols["outcome"] == RUMMY)))


@pytest.mark.parametrize("variant", ["basic-rummy", "loba"])
def test_meld_opp_at_its_top_melds_as_soon_as_possible_and_off_changes_nothing(variant):
    """meld_opp=20 (every opponent holds at most 20 cards) turns a hold-back strategy into
    ``simple`` (melds and lays off as soon as possible), layoff=0 included; meld_opp=-1 is the
    strategy itself."""
    kw = dict(n_hands=400, seed=3, players=3)
    simple = play_hands(variant, strategies="simple", **kw)
    held = play_hands(variant, strategies="open(meld=1,layoff=0)", **kw)
    assert not _same(simple, held)
    assert _same(play_hands(variant, strategies="open(meld=1,layoff=0,meld_opp=20)", **kw), simple)
    assert _same(play_hands(variant, strategies="open(meld=1,layoff=0,meld_opp=-1)", **kw), held)


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
    high = play_hands("basic-rummy", strategies="simple(discard_rule=0)", **kw)
    near = play_hands("basic-rummy", strategies="simple", **kw)
    assert _same(play_hands("basic-rummy", strategies="simple(discard_opp=20)", **kw), high)
    some = play_hands("basic-rummy", strategies="simple(discard_opp=3)", **kw)
    assert not _same(some, high) and not _same(some, near)
    assert _same(play_hands("basic-rummy", strategies="simple(discard_opp=-1)", **kw), near)
