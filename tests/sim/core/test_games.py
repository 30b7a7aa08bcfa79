"""Whole-game machinery of sim.core.games, independent of any real card game.

A synthetic one-hand function draws per-seat scores from the game generator; the game loop
of sim.core.games around it and :func:`sim.core.games.game_kernel` turn it into whole games of each shape
(``target``, ``elimination`` with buy-backs, ``deals``) for 2..6 seats.  The game rows are
compared column by column with a plain-Python reference written from the docstring of
sim/core/games.py, which replays the same hands by calling the synthetic function on generators it
derives itself; the synthetic function also logs what it was called with (dealer, seats in
play, void or not, turns, winner) so rotation and counts are checked on their own.  Scripted
hands (penalties read from an array) pin the buy-back and elimination rules on cases worked
out by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pytest
from numba import njit

from sim.core import games, rng
from sim.core.games import KINDS, game_columns, game_kernel
from sim.core.rules import RulesBase, option
from sim.variants import COL_DEALER, COL_OUTCOME, COL_SCORE, COL_TURNS, WholeGame, col_extra, hand_columns

SEATS = (2, 3, 4, 5, 6)
EXTRA = ("winner", "dealer_seen", "in_play")
O_PLAY, O_VOID = 0, 3                     # outcome codes of the synthetic game
SH_TARGET, SH_ELIMINATION, SH_DEALS = 0, 1, 2
LOG_W = 5                                 # log entry: dealer, in-play mask, void, turns, winner
LOG_SIZE = 1 + LOG_W * 200_000


@dataclass(frozen=True)
class SynthRules(RulesBase):
    # every shape
    shape: int = option(SH_TARGET, "what the synthetic hand scores: 0 target, 1 elimination, 2 deals", 0, 2)
    void_pct: int = option(15, "chance (percent) that a hand is void", 0, 99)
    scripted: bool = option(False, "hands read from the script array instead of drawn")
    # the target shape
    target: int = option(60, "target: points to reach", 1, 100000)
    line_bonus: int = option(0, "target: bonus per hand won", 0, 1000)
    game_bonus: int = option(0, "target: bonus to the game winner", 0, 1000)
    shutout: bool = option(False, "target: a loser who scored nothing pays double")
    max_pts: int = option(25, "target: the hand winner's points are 0..max_pts", 0, 1000)
    # the elimination shape
    limit: int = option(61, "elimination: penalty total that puts a seat out", 1, 100000)
    buybacks: int = option(0, "elimination: buy-backs per seat", 0, 10)
    max_pen: int = option(40, "elimination: each seat's penalty is 0..max_pen (+5 for the dealer)", 0, 1000)
    win_bonus: int = option(0, "elimination: subtracted from the penalty of the hand's winner", 0, 1000)
    # the deals shape
    deals: int = option(5, "deals: scoring hands per game", 1, 1000)


R = {f.name: SynthRules.index(f.name) for f in SynthRules.options()}
R_SHAPE, R_VOID_PCT, R_MAX_PTS, R_MAX_PEN = R["shape"], R["void_pct"], R["max_pts"], R["max_pen"]
R_WIN_BONUS, R_SCRIPTED = R["win_bonus"], R["scripted"]

GAMES = {
    "target": WholeGame(kind="target", limit_rule="target", winner_column="winner", void_outcome=O_VOID,
                        line_bonus_rule="line_bonus", game_bonus_rule="game_bonus", shutout_rule="shutout"),
    "elimination": WholeGame(kind="elimination", limit_rule="limit", winner_column="winner",
                             void_outcome=O_VOID, buyback_rule="buybacks"),
    "deals": WholeGame(kind="deals", limit_rule="deals", winner_column="winner", void_outcome=O_VOID),
}
SHAPE_OF = {"target": SH_TARGET, "elimination": SH_ELIMINATION, "deals": SH_DEALS}


@njit(cache=True)
def synth_deal(rules, strat, log, script, dst, dealer, active, st, row, debug):
    """One synthetic hand: a pure function of (rules, strat, the generators' states, dealer,
    active).  Every call appends an entry to ``log``; scripted hands take ``[void, winner,
    score0..]`` from ``script`` (``script[0]``: read position)."""
    n = active.shape[0]
    for j in range(row.shape[0]):
        if row[j] != 0:
            raise ValueError("hand row not zeroed")
    if active[dealer] == 0:
        raise ValueError("dealer not in play")
    ex = COL_SCORE + 2 * n                  # first extra column: winner, dealer_seen, in_play
    dw = COL_SCORE + n                      # deadwood columns
    mask = 0
    for s in range(n):
        if active[s]:
            mask |= 1 << s
    row[COL_DEALER] = dealer
    row[ex + 1] = dealer
    row[ex + 2] = mask
    row[COL_TURNS] = 1 + rng.randint(st[dealer], 9)      # the dealer's strategy generator
    shape = np.int64(rules[R_SHAPE])
    if rules[R_SCRIPTED] != 0:
        pos = script[0]
        if pos + 2 + n > script.shape[0]:
            raise ValueError("script exhausted")
        row[COL_OUTCOME] = O_VOID if script[pos] else O_PLAY
        row[ex] = script[pos + 1]
        for s in range(n):
            row[COL_SCORE + s] = script[pos + 2 + s]
        script[0] = pos + 2 + n
    elif rng.randint(dst, 100) < rules[R_VOID_PCT]:
        # a void hand: scores and winner are noise the game must ignore
        row[COL_OUTCOME] = O_VOID
        for s in range(n):
            row[COL_SCORE + s] = rng.randint(dst, 61) - 30
        row[ex] = rng.randint(dst, n)
    else:
        row[COL_OUTCOME] = O_PLAY
        if shape == SH_TARGET:
            # one winner (a random step left of the dealer) credited 0..max_pts; the others
            # carry negative scores, which a target game does not credit
            w = (dealer + 1 + rng.randint(dst, n)) % n
            pts = rng.randint(dst, np.int64(rules[R_MAX_PTS]) + 1)
            for s in range(n):
                row[COL_SCORE + s] = pts if s == w else -rng.randint(dst, pts + 1)
            row[ex] = w
        elif shape == SH_ELIMINATION:
            best = -1
            for s in range(n):
                if active[s]:
                    pen = rng.randint(dst, np.int64(rules[R_MAX_PEN]) + 1) + (5 if s == dealer else 0)
                    row[dw + s] = pen
                    if best < 0 or pen < row[dw + best]:
                        best = s
            for s in range(n):
                if active[s]:
                    pen = row[dw + s] - (np.int64(rules[R_WIN_BONUS]) if s == best else 0)
                    row[COL_SCORE + s] = -pen
                else:
                    row[COL_SCORE + s] = -7          # a seat out of play: the game ignores it
            row[ex] = best if rng.randint(dst, 4) != 0 else -1
        else:
            w = 0
            for s in range(n):
                row[COL_SCORE + s] = (rng.randint(dst, 41) - 20 + (3 if s == dealer else 0)
                                      + np.int64(strat[s, 0]))
                if row[COL_SCORE + s] > row[COL_SCORE + w]:
                    w = s
            row[ex] = w if rng.randint(dst, 5) != 0 else -1
    k = log[0]
    if 1 + LOG_W * (k + 1) > log.shape[0]:
        raise ValueError("log full")
    e = 1 + LOG_W * k
    log[e] = dealer
    log[e + 1] = mask
    log[e + 2] = 1 if row[COL_OUTCOME] == O_VOID else 0
    log[e + 3] = row[COL_TURNS]
    log[e + 4] = row[ex]
    log[0] = k + 1


@njit(cache=True)
def synth_chunk(rules, strat, layout, seed, first_game, out, ctx, debug):
    """The game loop of sim.core.games around the synthetic hand; ``ctx = (log, script)``."""
    log, script = ctx
    per, sc, st, row = games.game_buffers(strat.shape[0], layout)
    for i in range(out.shape[0]):
        dst = games.begin_game(per, sc, st, seed, first_game + i)
        while games.game_running(per, sc, layout):
            row[:] = 0
            synth_deal(rules, strat, log, script, dst, sc[games.S_DEALER], per[games.P_ACTIVE], st, row, debug)
            games.record_hand(per, sc, layout, row)
        games.finish_game(per, sc, layout, out[i])


def new_ctx(script=()):
    log = np.zeros(LOG_SIZE, dtype=np.int64)
    scr = np.array([1, *script], dtype=np.int64)
    return (log, scr)


def strat_for(n):
    s = np.zeros((n, 3), dtype=np.float64)
    s[:, 0] = np.arange(n)                   # a per-seat edge in the deals shape
    return s


def log_entries(ctx):
    log = ctx[0]
    return log[1:1 + LOG_W * log[0]].reshape(-1, LOG_W)


def play_kernel(shape, rules, n, seed, first, count, buyback=None, ctx=None, buyback_below=None):
    """Game rows ``first .. first + count - 1`` from sim.core.games (and the ctx holding the log)."""
    ctx = new_ctx() if ctx is None else ctx
    kernel = game_kernel(synth_chunk, ctx, GAMES[shape], SynthRules, EXTRA)
    out = np.full((count, len(game_columns(n))), -999, dtype=np.int64)   # every column is written
    kernel(rules.to_array(), strat_for(n), seed, first, out, buyback=buyback, buyback_below=buyback_below)
    return out, ctx


# ----------------------------------------------------------------------------------------
# the reference, from the docstring of sim/core/games.py

def _rule(rules, name):
    return 0 if name is None else int(getattr(rules, name))


def reference_games(shape, rules, n, seed, first, count, buyback=None, script=(), buyback_below=None):
    game = GAMES[shape]
    rules_arr, strat = rules.to_array(), strat_for(n)
    ctx = new_ctx(script)
    limit = _rule(rules, game.limit_rule)
    max_buy = _rule(rules, game.buyback_rule)
    allowance = [max_buy] * n if buyback is None else list(buyback)
    threshold = [float("inf")] * n if buyback_below is None else list(buyback_below)
    wcol = col_extra(n) + EXTRA.index(game.winner_column)
    width = len(hand_columns(n, EXTRA))
    rows = []
    for g in range(first, first + count):
        dst = rng.new_state(seed, rng.STREAM_GAME, g)
        st = np.array([[rng.stream_key(seed, rng.STREAM_STRATEGY + s, g)] for s in range(n)], dtype=np.uint64)
        total, won, bought = [0] * n, [0] * n, [0] * n
        in_play = [1] * n
        gone = []                                   # seats in the order they went out
        dealer = first_dealer = g % n
        hands = voids = turns = scored = 0

        def over():
            if game.kind == "target":
                return max(total) >= limit
            if game.kind == "elimination":
                return sum(in_play) == 1
            return scored == limit

        while not over():
            row = np.zeros(width, dtype=np.int64)
            synth_deal(rules_arr, strat, *ctx, dst, dealer, np.array(in_play, dtype=np.int64), st, row, False)
            hands += 1
            turns += int(row[COL_TURNS])
            if row[COL_OUTCOME] == game.void_outcome:
                voids += 1
                continue                            # redealt by the same dealer
            scored += 1
            w = int(row[wcol])
            if w >= 0:
                won[w] += 1
            sc = [int(x) for x in row[COL_SCORE:COL_SCORE + n]]
            if game.kind == "target":
                for s in range(n):
                    total[s] += max(sc[s], 0)       # credited points: the positive part
            elif game.kind == "deals":
                for s in range(n):
                    total[s] += sc[s]
            else:
                for s in range(n):
                    if in_play[s]:
                        total[s] -= sc[s]           # penalty = minus the score
                reached = [s for s in range(n) if in_play[s] and total[s] >= limit]
                below = [s for s in range(n) if in_play[s] and total[s] < limit]
                if reached and not below:
                    # every seat left reached the limit in one hand: the lowest total stays in
                    keep = min(reached, key=lambda s: (total[s], s))
                    going = [s for s in reached if s != keep]
                else:
                    going = []
                    for s in reached:
                        if (bought[s] < min(max_buy, allowance[s])
                                and max(total[q] for q in below) < threshold[s]):   # the seat's decision
                            bought[s] += 1
                            total[s] = max(total[q] for q in below)   # highest total still under
                        else:
                            going.append(s)
                # out together: higher total is worse, then higher seat is worse
                for s in sorted(going, key=lambda s: (-total[s], -s)):
                    in_play[s] = 0
                    gone.append(s)
            for k in range(1, n + 1):               # next seat in play on the left
                if in_play[(dealer + k) % n]:
                    dealer = (dealer + k) % n
                    break

        place, net = [0] * n, [0] * n
        if game.kind == "elimination":
            (winner,) = [s for s in range(n) if in_play[s]]
            place[winner] = 1
            for k, s in enumerate(gone):            # first out: last place
                place[s] = n - k
            net = [-t for t in total]
        else:
            winner = max(range(n), key=lambda s: (total[s], -s))     # first seat on a tie
            order = [winner] + sorted((s for s in range(n) if s != winner), key=lambda s: (-total[s], s))
            for k, s in enumerate(order):
                place[s] = k + 1
            if game.kind == "deals":
                net = list(total)
            else:
                line = _rule(rules, game.line_bonus_rule)
                bonus = _rule(rules, game.game_bonus_rule)
                shutout = _rule(rules, game.shutout_rule)
                tot = [total[s] + line * won[s] for s in range(n)]
                tot[winner] += bonus                # the game bonus goes to the winner's total
                for s in range(n):
                    if s != winner:
                        m = tot[winner] - tot[s]
                        if shutout and total[s] == 0:
                            m *= 2
                        net[s] = -m
                        net[winner] += m
        vals = {"first_dealer": first_dealer, "winner": winner, "hands": hands, "voids": voids,
                "turns": turns}
        for s in range(n):
            vals.update({f"points{s}": total[s], f"hands_won{s}": won[s], f"net{s}": net[s],
                         f"place{s}": place[s], f"buybacks{s}": bought[s]})
        rows.append([vals[c] for c in game_columns(n)])
    return np.array(rows, dtype=np.int64).reshape(count, len(game_columns(n))), ctx


def cols(rows, n):
    return {c: rows[:, i] for i, c in enumerate(game_columns(n))}


def per_seat(rows, n, key):
    return np.stack([cols(rows, n)[f"{key}{s}"] for s in range(n)], axis=1)


def assert_same_rows(got, want, n):
    names = game_columns(n)
    bad = np.argwhere(got != want)
    if len(bad):
        i = bad[0, 0]
        diff = {names[j]: (int(got[i, j]), int(want[i, j])) for j in np.flatnonzero(got[i] != want[i])}
        raise AssertionError(f"{len(set(bad[:, 0]))} games differ; first: row {i}, "
                             f"(kernel, reference) {diff}")


# rule sets per shape; every one runs for 2..6 seats
CASES = {
    "target-plain": ("target", SynthRules(shape=SH_TARGET, target=60)),
    "target-house": ("target", SynthRules(shape=SH_TARGET, target=50, line_bonus=7, game_bonus=30,
                                          shutout=True, max_pts=20)),
    "elimination-out": ("elimination", SynthRules(shape=SH_ELIMINATION, limit=61)),
    "elimination-buybacks": ("elimination", SynthRules(shape=SH_ELIMINATION, limit=61, buybacks=2)),
    "elimination-bonus": ("elimination", SynthRules(shape=SH_ELIMINATION, limit=40, buybacks=1,
                                                    max_pen=25, win_bonus=15)),
    "deals": ("deals", SynthRules(shape=SH_DEALS, deals=5, void_pct=25)),
}
N_GAMES = 200


def allowance_for(case, n):
    """elimination-buybacks: seat s may buy back at most s times (the rule allows 2)."""
    return list(range(n)) if case == "elimination-buybacks" else None


_RUNS: dict = {}


def run(case, n, seed=7):
    """Kernel rows, kernel log, reference rows and reference log for a case (memoised)."""
    key = (case, n, seed)
    if key not in _RUNS:
        shape, rules = CASES[case]
        bb = allowance_for(case, n)
        got, kctx = play_kernel(shape, rules, n, seed, 0, N_GAMES, buyback=bb)
        want, rctx = reference_games(shape, rules, n, seed, 0, N_GAMES, buyback=bb)
        _RUNS[key] = (got, kctx, want, rctx)
    return _RUNS[key]


ALL = [(c, n) for c in CASES for n in SEATS]


def cases_of(kind):
    return [(c, n) for c, n in ALL if CASES[c][0] == kind]


# ----------------------------------------------------------------------------------------
# every shape: the reference, the log, the dealer

@pytest.mark.parametrize("case,n", ALL)
def test_game_rows_match_reference_replay_of_docstring(case, n):
    got, kctx, want, rctx = run(case, n)
    assert got.shape == (N_GAMES, len(game_columns(n)))
    assert_same_rows(got, want, n)
    # both played exactly the same hands, in the same order
    assert np.array_equal(log_entries(kctx), log_entries(rctx))


@pytest.mark.parametrize("case,n", ALL)
def test_voids_keep_dealer_else_deal_passes_left_to_next_seat_in_play(case, n):
    got, kctx, _, _ = run(case, n)
    c = cols(got, n)
    log = log_entries(kctx)
    assert len(log) == c["hands"].sum()
    start = 0
    rotated = kept = 0
    for g in range(N_GAMES):
        hands = log[start:start + c["hands"][g]]
        start += c["hands"][g]
        assert hands[0, 0] == c["first_dealer"][g] == g % n
        for (dealer, mask, void, _, _), (nxt, nxt_mask, _, _, _) in zip(hands[:-1], hands[1:]):
            assert mask >> dealer & 1 and nxt_mask >> nxt & 1
            if void:
                assert nxt == dealer and nxt_mask == mask
                kept += 1
            else:
                step = next(k for k in range(1, n + 1) if nxt_mask >> ((dealer + k) % n) & 1)
                assert nxt == (dealer + step) % n
                rotated += 1
    assert rotated > 0 and kept > 0


@pytest.mark.parametrize("case,n", ALL)
def test_hands_voids_turns_and_hands_won_count_the_hands_played(case, n):
    got, kctx, _, _ = run(case, n)
    c = cols(got, n)
    log = log_entries(kctx)
    bounds = np.concatenate([[0], np.cumsum(c["hands"])])
    won = per_seat(got, n, "hands_won")
    for g in range(N_GAMES):
        hands = log[bounds[g]:bounds[g + 1]]
        assert c["voids"][g] == hands[:, 2].sum()
        assert c["turns"][g] == hands[:, 3].sum()
        scoring = hands[hands[:, 2] == 0]
        assert list(won[g]) == [int((scoring[:, 4] == s).sum()) for s in range(n)]
        assert not hands[-1, 2]                      # a game never ends on a void
    assert (c["voids"] > 0).any()


@pytest.mark.parametrize("case,n", ALL)
def test_places_are_a_permutation_with_the_winner_first(case, n):
    got, _, _, _ = run(case, n)
    c = cols(got, n)
    place = per_seat(got, n, "place")
    assert (np.sort(place, axis=1) == np.arange(1, n + 1)).all()
    assert (place[np.arange(N_GAMES), c["winner"]] == 1).all()


@pytest.mark.parametrize("case", list(CASES))
def test_results_do_not_depend_on_chunking(case):
    shape, rules = CASES[case]
    n = 4
    bb = allowance_for(case, n)
    whole, _ = play_kernel(shape, rules, n, 11, 0, 100, buyback=bb)
    a, _ = play_kernel(shape, rules, n, 11, 0, 50, buyback=bb)
    b, _ = play_kernel(shape, rules, n, 11, 50, 50, buyback=bb)
    assert np.array_equal(whole, np.concatenate([a, b]))
    c, _ = play_kernel(shape, rules, n, 11, 37, 1, buyback=bb)
    assert np.array_equal(c[0], whole[37])
    other, _ = play_kernel(shape, rules, n, 12, 0, 100, buyback=bb)
    assert not np.array_equal(other, whole)          # the seed matters


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown whole-game kind"):
        game_kernel(synth_chunk, new_ctx(),
                    WholeGame(kind="race", limit_rule="target", winner_column="winner"), SynthRules, EXTRA)
    assert KINDS == ("target", "elimination", "deals", "penalty")


# ----------------------------------------------------------------------------------------
# target

@pytest.mark.parametrize("case,n", cases_of("target"))
def test_target_winner_alone_reaches_target(case, n):
    got, _, _, _ = run(case, n)
    target = CASES[case][1].target
    c = cols(got, n)
    pts = per_seat(got, n, "points")
    w = c["winner"]
    is_w = np.arange(n) == w[:, None]
    assert (pts[is_w] >= target).all()
    assert (pts[~is_w] < target).all()
    assert (pts[~is_w] < pts[is_w].repeat(n - 1)).all()


@pytest.mark.parametrize("case,n", cases_of("target"))
def test_target_net_is_zero_sum_margin_with_bonuses_and_shutout_doubling(case, n):
    got, _, _, _ = run(case, n)
    r = CASES[case][1]
    c = cols(got, n)
    pts, won, net = per_seat(got, n, "points"), per_seat(got, n, "hands_won"), per_seat(got, n, "net")
    assert (net.sum(axis=1) == 0).all()
    tot = pts + r.line_bonus * won
    doubled = 0
    for g in range(N_GAMES):
        w = c["winner"][g]
        assert net[g, w] >= 0 or r.line_bonus > 0
        for s in range(n):
            if s == w:
                continue
            m = tot[g, w] + r.game_bonus - tot[g, s]
            if r.shutout and pts[g, s] == 0:
                m *= 2
                doubled += 1
            assert net[g, s] == -m
    assert doubled > 0 or not r.shutout
    # place by points below the winner
    place = per_seat(got, n, "place")
    for g in range(N_GAMES):
        order = sorted(range(n), key=lambda s: place[g, s])
        assert all(pts[g, a] >= pts[g, b] for a, b in zip(order[1:], order[2:]))


# ----------------------------------------------------------------------------------------
# elimination

@pytest.mark.parametrize("case,n", cases_of("elimination"))
def test_elimination_single_survivor_wins_and_losers_reached_limit(case, n):
    got, kctx, _, _ = run(case, n)
    r = CASES[case][1]
    c = cols(got, n)
    pts, net = per_seat(got, n, "points"), per_seat(got, n, "net")
    place = per_seat(got, n, "place")
    assert ((place == 1).sum(axis=1) == 1).all()
    assert (net == -pts).all()
    is_w = np.arange(n) == c["winner"][:, None]
    assert (pts[~is_w] >= r.limit).all()
    # the last hand's in-play mask holds the winner; seats never come back once out
    log = log_entries(kctx)
    bounds = np.concatenate([[0], np.cumsum(c["hands"])])
    for g in range(N_GAMES):
        masks = log[bounds[g]:bounds[g + 1], 1]
        assert masks[0] == (1 << n) - 1
        assert all(b & ~a == 0 for a, b in zip(masks[:-1], masks[1:]))
        assert masks[-1] >> c["winner"][g] & 1


@pytest.mark.parametrize("case,n", cases_of("elimination"))
def test_elimination_buybacks_within_rule_and_allowance(case, n):
    got, _, _, _ = run(case, n)
    r = CASES[case][1]
    bought = per_seat(got, n, "buybacks")
    allow = allowance_for(case, n) or [r.buybacks] * n
    assert (bought <= r.buybacks).all()
    assert (bought <= np.array(allow)).all()
    if r.buybacks:
        assert (bought > 0).any()
        assert (bought == np.minimum(r.buybacks, allow)).any()
    else:
        assert (bought == 0).all()


def scripted(shape, n, hands, buyback=None, buyback_below=None, **rules):
    """Game 0 (first dealer 0) of scripted hands, checked against the reference; returns its
    row as a dict and the log.  ``hands``: ``(winner, [score0, ..])`` (a ``None`` winner: a void hand)."""
    script = []
    for w, scores in hands:
        script += [1 if w is None else 0, -1 if w is None else w, *scores]
    r = SynthRules(shape=SHAPE_OF[shape], scripted=True, void_pct=0, **rules)
    ctx = new_ctx(script)
    out, _ = play_kernel(shape, r, n, 5, 0, 1, ctx=ctx, buyback=buyback, buyback_below=buyback_below)
    assert ctx[1][0] == len(ctx[1]), "every scripted hand is played"
    want, _ = reference_games(shape, r, n, 5, 0, 1, buyback=buyback, script=script, buyback_below=buyback_below)
    assert_same_rows(out, want, n)
    return {k: int(v[0]) for k, v in cols(out, n).items()}, log_entries(ctx)


def pens(*p):
    return [-x for x in p]


def test_buyback_reenters_at_highest_total_still_under_limit():
    # limit 100, one buy-back each.  Hand 1 (dealer 0): 30, 50, 100 -> seat 2 buys back at 50.
    # Hand 2 (dealer 1): 0, 0, 60 -> seat 2 at 110 has no buy-back left: out, third.
    # Hand 3 (dealer 0): 80, 10 -> seat 0 at 110 buys back at 60.  Hand 4 (dealer 1):
    # 50, 0 -> seat 0 at 110 is out: seat 1 wins with 60.
    row, log = scripted("elimination", 3, [(0, pens(30, 50, 100)), (0, pens(0, 0, 60)),
                                           (1, pens(80, 10, 0)), (1, pens(50, 0, 0))],
                        limit=100, buybacks=1)
    assert list(log[:, 0]) == [0, 1, 0, 1]
    assert list(log[:, 1]) == [0b111, 0b111, 0b011, 0b011]
    assert row["winner"] == 1
    assert [row[f"points{s}"] for s in range(3)] == [110, 60, 110]
    assert [row[f"buybacks{s}"] for s in range(3)] == [1, 0, 1]
    assert [row[f"place{s}"] for s in range(3)] == [2, 1, 3]
    assert [row[f"hands_won{s}"] for s in range(3)] == [2, 2, 0]


def test_buyback_reentry_level_may_be_negative():
    # penalties can be negative (a bonus); limit 50, one buy-back each.  Hand 1: -10, -20, 60
    # -> seat 2 re-enters at -10 (the highest total under the limit is negative).  Hand 2:
    # seat 2 +75 = 65: out.  Hand 3: seat 0 +70 = 60 re-enters at -20.  Hand 4: seat 0 +80 = 60:
    # out, seat 1 wins with -20.
    row, _ = scripted("elimination", 3, [(1, pens(-10, -20, 60)), (1, pens(0, 0, 75)),
                                         (1, pens(70, 0, 0)), (1, pens(80, 0, 0))],
                      limit=50, buybacks=1)
    assert row["winner"] == 1
    assert [row[f"points{s}"] for s in range(3)] == [60, -20, 65]
    assert [row[f"buybacks{s}"] for s in range(3)] == [1, 0, 1]
    assert [row[f"place{s}"] for s in range(3)] == [2, 1, 3]


def test_buyback_allowance_argument_limits_each_seat():
    # the rule allows 2, seat 0's allowance is 0: it goes out at once; seat 1 buys back once
    # (allowance 1) at 40, then goes out.  Hand 1: 55, 60, 40.  Hand 2: 0, 15, 0.
    row, _ = scripted("elimination", 3, [(2, pens(55, 60, 40)), (2, pens(0, 15, 0))],
                      limit=50, buybacks=2, buyback=[0, 1, 2])
    assert row["winner"] == 2
    assert [row[f"buybacks{s}"] for s in range(3)] == [0, 1, 0]
    assert [row[f"points{s}"] for s in range(3)] == [55, 55, 40]
    assert [row[f"place{s}"] for s in range(3)] == [3, 2, 1]


def test_everyone_reaching_limit_together_leaves_lowest_total_in():
    # limit 50, buy-backs allowed but nobody is under the limit to re-enter at.
    # Hand 1: 20, 20, 20, 20.  Hand 2: 40, 35, 60, 35 -> 60, 55, 80, 55: all over; seats 1
    # and 3 tie lowest, the first seat (1) stays in and wins; out worst first: 2 (80), 0 (60),
    # 3 (55): places 1: 1, 3: 2, 0: 3, 2: 4.
    row, log = scripted("elimination", 4, [(0, pens(20, 20, 20, 20)), (1, pens(40, 35, 60, 35))],
                        limit=50, buybacks=3)
    assert len(log) == 2
    assert row["winner"] == 1
    assert [row[f"points{s}"] for s in range(4)] == [60, 55, 80, 55]
    assert [row[f"place{s}"] for s in range(4)] == [3, 1, 4, 2]
    assert [row[f"buybacks{s}"] for s in range(4)] == [0, 0, 0, 0]
    assert [row[f"net{s}"] for s in range(4)] == [-60, -55, -80, -55]


def test_same_hand_eliminations_place_lower_total_then_lower_seat_better():
    # 5 seats, limit 30, no buy-backs.  Hand 1 (dealer 0): 30, 45, 30, 10, 0 -> seats 1 (45),
    # then 2 and 0 (30, tie: seat 2 out first) go out: places 5, 4, 3 for seats 1, 2, 0.
    # Dealer passes to seat 3 (seats 1, 2 out).  Hand 2: seat 3 +25 = 35 out: place 2.
    row, log = scripted("elimination", 5, [(4, pens(30, 45, 30, 10, 0)), (4, pens(0, 0, 0, 25, 5))],
                        limit=30)
    assert list(log[:, 0]) == [0, 3]
    assert list(log[:, 1]) == [0b11111, 0b11000]
    assert row["winner"] == 4
    assert [row[f"place{s}"] for s in range(5)] == [3, 5, 4, 2, 1]
    assert [row[f"points{s}"] for s in range(5)] == [30, 45, 30, 35, 5]


def test_void_hand_is_redealt_by_same_dealer_and_ignored():
    # deals, 3 seats, 2 deals: hand 1 void (noise scores), hand 2 and 3 score.
    row, log = scripted("deals", 3, [(None, [50, 50, 50]), (2, [1, 2, 3]), (0, [10, -5, -5])], deals=2)
    assert list(log[:, 0]) == [0, 0, 1]
    assert (row["hands"], row["voids"]) == (3, 1)
    assert [row[f"points{s}"] for s in range(3)] == [11, -3, -2]
    assert [row[f"net{s}"] for s in range(3)] == [11, -3, -2]
    assert [row[f"place{s}"] for s in range(3)] == [1, 3, 2]
    assert [row[f"hands_won{s}"] for s in range(3)] == [1, 0, 1]


def test_target_scripted_bonuses_and_shutout():
    # 3 seats, target 20, line 10, game 50, shutouts double.  Hand 1: seat 1 wins 12 (the
    # others' negative scores are not credited); hand 2: seat 2 wins 5; hand 3: seat 1 wins 9.
    # points 0, 21, 5; totals with line bonuses 0, 41, 15; winner 1 gets
    # from seat 0: (41 + 50 - 0) * 2 = 182 (shutout), from seat 2: 41 + 50 - 15 = 76.
    row, _ = scripted("target", 3, [(1, [-12, 12, -3]), (2, [0, -5, 5]), (1, [-1, 9, -9])],
                      target=20, line_bonus=10, game_bonus=50, shutout=True)
    assert row["winner"] == 1
    assert [row[f"points{s}"] for s in range(3)] == [0, 21, 5]
    assert [row[f"net{s}"] for s in range(3)] == [-182, 258, -76]
    assert [row[f"place{s}"] for s in range(3)] == [3, 1, 2]


# ----------------------------------------------------------------------------------------
# deals

@pytest.mark.parametrize("case,n", cases_of("deals"))
def test_deals_play_exact_number_of_scoring_hands_plus_voids(case, n):
    got, kctx, _, _ = run(case, n)
    r = CASES[case][1]
    c = cols(got, n)
    assert (c["hands"] == r.deals + c["voids"]).all()
    log = log_entries(kctx)
    bounds = np.concatenate([[0], np.cumsum(c["hands"])])
    for g in range(N_GAMES):
        assert (log[bounds[g]:bounds[g + 1], 2] == 0).sum() == r.deals
    pts, net = per_seat(got, n, "points"), per_seat(got, n, "net")
    assert (net == pts).all()
    assert (pts[np.arange(N_GAMES), c["winner"]] == pts.max(axis=1)).all()
    first_max = np.argmax(pts == pts.max(axis=1, keepdims=True), axis=1)
    assert (c["winner"] == first_max).all()


def test_buyback_threshold_is_each_seats_decision():
    # limit 50, two buy-backs each; seat 0 buys back only below 30, seat 1 only below 45.
    # Hand 1: 55, 10, 40 -> seat 0 would re-enter at 40: it declines and is out.  Hand 2: -, 45,
    # 0 -> seat 1 at 55 re-enters at 40 (below 45).  Hand 3: -, 20, 0 -> seat 1 at 60 would
    # re-enter at 40 again: it buys back (second time).  Hand 4: -, 30, 0 -> 70: no buy-back left.
    row, _ = scripted("elimination", 3, [(2, pens(55, 10, 40)), (2, pens(0, 45, 0)), (2, pens(0, 20, 0)),
                                         (2, pens(0, 30, 0))],
                      limit=50, buybacks=2, buyback_below=[30, 45, 1000])
    assert row["winner"] == 2
    assert [row[f"buybacks{s}"] for s in range(3)] == [0, 2, 0]
    assert [row[f"points{s}"] for s in range(3)] == [55, 70, 40]
    assert [row[f"place{s}"] for s in range(3)] == [3, 2, 1]


@pytest.mark.parametrize("n", (3, 5))
def test_random_buyback_thresholds_match_the_reference(n):
    shape, rules = CASES["elimination-buybacks"]
    below = [20 + 15 * s for s in range(n)]
    got, _ = play_kernel(shape, rules, n, 17, 0, 300, buyback_below=below)
    want, _ = reference_games(shape, rules, n, 17, 0, 300, buyback_below=below)
    assert_same_rows(got, want, n)
    assert (per_seat(got, n, "buybacks")[:, 0] < per_seat(got, n, "buybacks")[:, -1]).any()


def test_buyback_thresholds_from_a_strategy_parameter():
    from sim.core.games import ALWAYS_BUY, buyback_thresholds
    from sim.strategies import parse_strategies, strategy_matrix
    mat = strategy_matrix(parse_strategies("simple", "ramino-klop", 2))
    assert list(buyback_thresholds(mat, None)) == [ALWAYS_BUY] * 2
    assert list(buyback_thresholds(mat, "knock")) == [6, 6]
    mat[1, 1] = -1
    assert list(buyback_thresholds(mat, "knock")) == [6, ALWAYS_BUY]
