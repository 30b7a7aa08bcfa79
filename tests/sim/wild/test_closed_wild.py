"""The shared wild-card engine's shortcuts are exact: the discard search against every discard,
the wild-removal bound against the exact deadwood, the pile rule's "touches no meld" filter."""

import numpy as np
import pytest

from sim.wild import closed_wild as CW
from sim.strategies import parse_strategy
from sim.strategies import wild as W
from sim.wild.wild_melds import _discards, new_workspace, random_hands, ws_deadwood

RULES = [("ramino-klop", None), ("wildcard", 1), ("wildcard", 2), ("cincinnati", 1), ("cincinnati", 2)]


def _hands(game, packs, n, size, seed):
    rng = np.random.default_rng(seed)
    most = 2 * (packs or 2) if game != "wildcard" else 4
    return [random_hands(1, size, int(rng.integers(0, most + 1)), game, packs=packs, seed=seed + i)[0].astype(np.int64)
            for i in range(n)]


@pytest.mark.parametrize("game,packs", RULES)
def test_the_discard_search_finds_the_exact_best_discard(game, packs):
    pack, P, vals, wild, order = CW.tables(game, packs)
    set_max = 0 if game == "ramino-klop" else 4 * (packs or 1)
    ace_high = 0 if game == "ramino-klop" else 1
    rows = {name: parse_strategy(name, game).row for name in ("simple", "simple(keep_near=1)")}
    out = np.empty(64, dtype=np.int64)
    for k, counts in enumerate(_hands(game, packs, 300, 8, 7)):
        ws = new_workspace(P, vals)
        ws[:64] = counts
        full = ws_deadwood(ws)
        _discards(counts, P, vals, out)
        held = np.flatnonzero(counts)
        forbidden = int(held[k % len(held)]) if k % 3 == 0 else -1
        legal = [c for c in held if c != forbidden]
        for srow in rows.values():
            code, d = W.choose_discard(srow, ws, full, forbidden, 1, order, vals, wild, ace_high, set_max)
            assert (ws[:64] == counts).all()
            assert d == min(out[c] for c in legal) and out[code] == d and code != forbidden


@pytest.mark.parametrize("game,packs", RULES)
def test_the_wild_removal_bound_never_exceeds_the_exact_deadwood(game, packs):
    pack, P, vals, wild, order = CW.tables(game, packs)
    set_max = 0 if game == "ramino-klop" else 4 * (packs or 1)
    out = np.empty(64, dtype=np.int64)
    tight = 0
    for counts in _hands(game, packs, 400, 8, 11):
        ws = new_workspace(P, vals)
        ws[:64] = counts
        full = ws_deadwood(ws)
        _discards(counts, P, vals, out)
        for w in np.flatnonzero(counts * wild):
            b = W.wild_removal_bound(ws, w, full, vals, wild, set_max)
            assert b <= out[w]
            tight += b > full - vals[w]
    assert tight > 0 or set_max == 0


@pytest.mark.parametrize("game,packs", RULES)
def test_a_card_touching_no_meld_adds_exactly_its_value(game, packs):
    pack, P, vals, wild, order = CW.tables(game, packs)
    ace_high = 0 if game == "ramino-klop" else 1
    for counts in _hands(game, packs, 300, 7, 13):
        ws = new_workspace(P, vals)
        ws[:64] = counts
        d7 = ws_deadwood(ws)
        n_wild = W.wild_count(ws, wild)
        for c in order:
            if counts[c] < (2 if c == 13 or packs == 2 else 1) and not W.touches_meld(ws, c, wild, ace_high, n_wild):
                ws[c] += 1
                assert ws_deadwood(ws) == d7 + vals[c]
                ws[c] -= 1


def test_the_conservation_check_catches_a_lost_or_extra_card():
    pack, P, vals, wild, order = CW.tables("ramino-klop")
    deck = pack.copy()
    wss = CW.new_hands(2, (pack, P, vals, wild, order))
    pile = np.empty(108, dtype=np.int64)
    state = np.zeros(CW.S_WIDTH, dtype=np.int64)
    cfg = np.zeros(CW.C_WIDTH, dtype=np.int64)
    cfg[CW.C_HAND] = 7
    CW.deal(cfg, deck, 0, wss, pile, state)
    CW.check_cards(wss, 2, deck, state[CW.S_SP], pile, state[CW.S_NPILE], pack)
    wss[0, 13] += 1
    with pytest.raises(ValueError, match="not conserved"):
        CW.check_cards(wss, 2, deck, state[CW.S_SP], pile, state[CW.S_NPILE], pack)
    wss[0, 13] -= 1
    with pytest.raises(ValueError, match="not conserved"):
        CW.check_cards(wss, 2, deck, state[CW.S_SP] + 1, pile, state[CW.S_NPILE], pack)


def _can_go_out(hand, taken, tabs):
    """After a draw: the hand ``hand`` (codes) all melds, or a legal discard (not ``taken``,
    the code just taken from the pile, -1 none) leaves it all melded."""
    pack, P, vals, wild, order = tabs
    ws = new_workspace(P, vals)
    for c in hand:
        ws[c] += 1
    if ws_deadwood(ws) == 0:
        return True
    for c in set(hand) - {taken}:
        ws[c] -= 1
        zero = ws_deadwood(ws) == 0
        ws[c] += 1
        if zero:
            return True
    return False


@pytest.mark.parametrize("game,players", [("ramino-klop", 2), ("ramino-klop", 5), ("wildcard", 3),
                                          ("wildcard", 7), ("cincinnati", 3), ("cincinnati", 7)])
def test_random_play_is_legal_and_conserves_cards(game, players):
    """The ``random`` preset under ``debug`` (cards conserved after every turn; the replay
    checks the table rules: the pile top taken, never discarded in the same turn).  It takes
    the pile and draws the stock, does not always discard the same way as ``simple``, ends
    hands legally (Ramino: below ``knock_below``), and goes out at the first chance in
    Wildcard, on a coin in Cincinnati (some chances passed up)."""
    from tests.support.wild_replay import replay, traced_hand
    tabs = CW.tables(game, 2 if players == 7 else (None if game == "ramino-klop" else 1))
    takes = draws = passed = 0
    for h in range(8):
        row, evs, _ = traced_hand(game, players, h, seed=61, strategies="random")
        r = replay(evs)
        simple, _, _ = traced_hand(game, players, h, seed=61)
        assert row["turns"] != simple["turns"] or row["ender"] != simple["ender"]
        hands = {s: list(c) for s, c in r.dealt.items()}
        for k, (seat, _, drawn, from_pile, disc) in enumerate(r.turns):
            takes += from_pile
            draws += not from_pile
            hand = hands[seat] + [drawn]
            if game != "ramino-klop" and k < len(r.turns) - 1 and _can_go_out(hand, drawn if from_pile else -1, tabs):
                assert game == "cincinnati", "Wildcard's random play passed up going out"
                passed += 1
            if disc is not None:
                hand.remove(disc)
            hands[seat] = hand
        if game == "ramino-klop" and row["outcome"] != 2:   # knock or rummy
            assert 0 <= row["knock_deadwood"] < 7
    assert takes > 0 and draws > 0
    assert game != "cincinnati" or passed > 0


@pytest.mark.parametrize("game", ["ramino-klop", "wildcard", "cincinnati"])
def test_random_play_loses_to_simple(game):
    """Seat 0 playing ``random`` against ``simple``, minus seat 0 playing ``simple``, on the
    same deals (2 players, score0 - score1): clearly below 0 (3 standard errors)."""
    from sim.runner import play_hands
    arms = [play_hands(game, strategies=f"{s},simple", n_hands=600, seed=71, players=2)
            for s in ("random", "simple")]
    diff = [a["score0"] - a["score1"] for a in arms]
    d = (diff[0] - diff[1]).astype(float)
    assert d.mean() + 3 * d.std(ddof=1) / np.sqrt(d.size) < 0


@pytest.mark.parametrize("keep_top", [0, 1])
def test_restock_turns_the_whole_pile_over_unless_the_top_is_kept(keep_top):
    """The seed and rules/: an empty stock is replaced by the turned-over discard pile, the
    first discard on top; the [choice] ``restock_keep_top`` keeps the top discard as the pile."""
    deck = np.arange(20, dtype=np.int64) + 100
    pile = np.zeros(20, dtype=np.int64)
    pile[:5] = (3, 17, 22, 40, 51)
    state = np.zeros(CW.S_WIDTH, dtype=np.int64)
    state[CW.S_SP], state[CW.S_NPILE] = 20, 5
    cfg = CW.make_cfg(CW.GAME_CINCINNATI, 4, 7, 0, 0, 1, 4, {}, (-1, 0, 1, 2), keep_top)
    k = CW.restock(cfg, deck, pile, state, np.zeros(1, dtype=np.uint64))
    assert k == 5 - keep_top and state[CW.S_SP] == 20 - k and state[CW.S_NPILE] == keep_top
    assert deck[20 - k:].tolist() == [3, 17, 22, 40, 51][:k]
    assert keep_top == 0 or pile[0] == 51


@pytest.mark.parametrize("game,players", [("cincinnati", 4), ("wildcard", 6), ("ramino-klop", 6)])
def test_simulated_restocks_turn_the_whole_pile_over(game, players):
    """Traced hands (debug: cards conserved): every restock turns the whole pile over by
    default (``turn_over`` events; the replay checks the new stock is that pile in order), or
    all but the top discard with ``restock_keep_top=on`` (``restock`` events)."""
    from sim.runner import play_hands
    from tests.support.wild_replay import replay, traced_hand
    strategies = "simple(knock=0)" if game == "ramino-klop" else "simple"
    turns = play_hands(game, strategies=strategies, n_hands=300, seed=18, players=players)["turns"]
    long = [int(h) for h in np.argsort(-turns)[:6]] + [0, 1]      # the longest hands restock
    for keep in ("off", "on"):                    # off: the default rules
        seen = {"restock": 0, "turn_over": 0}
        for h in long:
            _, evs, _ = traced_hand(game, players, h, seed=18, strategies=strategies,
                                    rules=[] if keep == "off" else ["restock_keep_top=on"])
            replay(evs)                           # asserts the new stock is the turned pile
            for kind, _, _, _ in evs:
                if kind in seen:
                    seen[kind] += 1
        assert seen["turn_over" if keep == "off" else "restock"] >= 2, (keep, seen)
        assert seen["restock" if keep == "off" else "turn_over"] == 0, (keep, seen)
