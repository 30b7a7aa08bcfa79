"""Cross-check the Gin kernel against OpenSpiel's gin_rummy, both played by SimpleGinRummyBot.

    python scripts/crosscheck_openspiel.py --hands 20000 --seed 1

OpenSpiel (PyPI ``open_spiel``, the optional extra ``open-spiel``: ``pip install -e .[open-spiel]``)
plays N hands of ``gin_rummy`` with two C++ ``SimpleGinRummyBot``s; rummylab plays N hands
with the strategy preset ``openspiel-simple`` under OpenSpiel's rules (the rule set ``openspiel``):
``undercut_on_tie=off`` (a tie scores 0), ``discard_stock_draw=on``, ``openspiel_wall=on`` (at 2 stock cards the next
player may only knock with the upcard, else the hand is void), ``first_upcard_offer=on``.  The
deals are independent.  Seat 0 is OpenSpiel's player 0, the non-dealer, offered the upcard
first; seat 1 the dealer (rummylab's dealer alternates: its rows are mapped to these seats).

Printed: the outcome mix (knock, gin, undercut, void; a tie without undercut counts as a knock)
with Wilson 95% CIs, the mean score per seat with t 95% CIs, and two checks of the play itself
(the knocker's mean deadwood over knocked hands, the mean stock left when the hand ends), for
each engine, and per quantity a two-sample test (rates: pooled z test; means: Welch t test) at
the Bonferroni level 0.05 / (number of quantities).  The seat means are one test each although
seat 1's is minus seat 0's (both engines are zero-sum).

Gin defender: OpenSpiel's bot answers a gin with a pass before laying its melds, so OpenSpiel
scores the defender on its whole hand.  The rules (and rummylab) score the defender's minimum
deadwood: the script recomputes it from the final OpenSpiel state for those hands, rescoring
them (the knocker wins the defender's minimum deadwood + the gin bonus), and prints how many
hands and points the correction moved.  The raw OpenSpiel means are printed too.

Differences that stay (the bot's tie-breaks and one rule): OpenSpiel lets a player discard the
upcard it just took; the bot does so only when it takes the upcard to knock and then throws
it back (a dealt hand already within the knock limit); rummylab never discards the card taken
from the pile, so its bot takes the upcard to knock only with another discard.  The script
counts those OpenSpiel hands.  Among several minimum-deadwood arrangements OpenSpiel keeps the
first it enumerates; rummylab takes the upcard when it is melded in every one and discards the
highest card that is deadwood in some one.

Without OpenSpiel installed the script says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUTCOMES = ("knock", "gin", "undercut", "void")
RULE_SET = "openspiel"      # the rule options: sim/variants/gin.py RULE_SETS (`--rule-set openspiel`)
STRATEGY = "openspiel-simple"
GIN_BONUS = 25


def play_rummylab(n: int, seed: int) -> dict:
    """Outcome codes (in OUTCOMES) and scores per seat (0 = non-dealer) of ``n`` kernel hands."""
    from sim.runner import play_hands
    from sim.variants import gin
    cols = play_hands("gin", rule_set=RULE_SET, strategies=STRATEGY, n_hands=n, seed=seed)
    non_dealer = 1 - cols["dealer"]
    s0 = np.where(non_dealer == 0, cols["score0"], cols["score1"])
    names = np.array(gin.OUTCOMES)[cols["outcome"]]
    assert not (names == "big_gin").any()
    outcome = np.array([OUTCOMES.index(x) for x in names])
    kd = cols["knock_deadwood"]
    return {"outcome": outcome, "score0": s0, "score1": -s0, "knock_dw": kd[kd >= 0],
            "stock_left": cols["stock_left"]}


def _min_deadwood(cards) -> int:
    from sim.knock.melds import min_deadwood
    return min_deadwood([16 * (c // 13) + c % 13 for c in cards]).deadwood


def play_openspiel(n: int, seed: int, pyspiel) -> dict:
    """Outcome codes, scores per seat (gin defenders rescored) and the raw scores of ``n``
    OpenSpiel hands, with counts of the corrections and of thrown-back upcards."""
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    gen = np.random.default_rng(seed)
    draw_up, knock = 52, 55  # kDrawUpcardAction, kKnockAction
    outcome = np.zeros(n, dtype=np.int64)
    stock_left = np.zeros(n, dtype=np.int64)
    knock_dw = []
    score0 = np.zeros(n, dtype=np.int64)
    raw0 = np.zeros(n, dtype=np.int64)
    gin_fixed = thrown_back = 0
    for h in range(n):
        state = game.new_initial_state()
        bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)]
        taken = [None, None]  # the upcard each player took this turn
        knocked_turn = False
        while not state.is_terminal():
            if state.is_chance_node():
                actions = [a for a, _ in state.chance_outcomes()]
                state.apply_action(int(actions[gen.integers(len(actions))]))
                continue
            p = state.current_player()
            a = bots[p].step(state)
            if a == draw_up:
                taken[p] = state.upcard()
            elif a == knock:
                knocked_turn = True
            elif a < 52 and knocked_turn and a == taken[p]:
                thrown_back += 1
                knocked_turn = False
            elif a < 52:
                taken[p] = None
                knocked_turn = False
            state.apply_action(a)
        ret = state.returns()
        raw0[h] = int(ret[0])
        stock_left[h] = state.stock_size()
        k = [i for i, x in enumerate(state.knocked()) if x]
        if not k:
            outcome[h] = OUTCOMES.index("void")
            continue
        k = k[0]
        dk, dd = state.deadwood()[k], state.deadwood()[1 - k]
        knock_dw.append(dk)
        pts = ret[k]
        if dk == 0:
            true_dd = _min_deadwood(state.hands()[1 - k])
            if true_dd != dd:
                gin_fixed += 1
            pts = true_dd + GIN_BONUS
            outcome[h] = OUTCOMES.index("gin")
        else:
            outcome[h] = OUTCOMES.index("undercut" if dd < dk else "knock")
        score0[h] = pts if k == 0 else -pts
    return {"outcome": outcome, "score0": score0, "score1": -score0, "raw0": raw0,
            "knock_dw": np.array(knock_dw, dtype=np.int64), "stock_left": stock_left,
            "gin_fixed": gin_fixed, "thrown_back": thrown_back}


def _rate_test(k1, n1, k2, n2) -> float:
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return math.erfc(abs(z) / math.sqrt(2))


MEANS = (("mean score seat 0", "score0"), ("mean score seat 1", "score1"),
         ("mean knocker deadwood", "knock_dw"), ("mean stock left at end", "stock_left"))


def rate_row(name: str, k1: int, n1: int, k2: int, n2: int, level: float) -> tuple:
    """A rate's row of :func:`compare`: both Wilson 95% CIs, the pooled z test's p-value and
    whether it is at least ``level`` (no difference detected)."""
    from analysis.stats import wilson
    p = _rate_test(k1, n1, k2, n2)
    return (name, wilson(k1, n1).fmt(2, pct=True), wilson(k2, n2).fmt(2, pct=True), p, p >= level)


def compare(ours: dict, theirs: dict, alpha: float = 0.05, outcomes=OUTCOMES, means=MEANS,
            extra_tests: int = 0) -> list[tuple]:
    """Rows (quantity, rummylab estimate, OpenSpiel estimate, p-value, no difference detected
    at the Bonferroni level alpha / rows): the rate of each of ``outcomes`` (the codes in
    ``outcome``) and the mean of each ``(name, key)`` of ``means``; ``extra_tests``: tests the
    caller adds to the Bonferroni count."""
    from scipy import stats as S

    from analysis.stats import mean_ci
    level = alpha / (len(outcomes) + len(means) + extra_tests)
    rows = []
    n1, n2 = len(ours["outcome"]), len(theirs["outcome"])
    for i, name in enumerate(outcomes):
        k1, k2 = int((ours["outcome"] == i).sum()), int((theirs["outcome"] == i).sum())
        rows.append(rate_row(f"rate {name}", k1, n1, k2, n2, level))
    for name, key in means:
        a, b = ours[key], theirs[key]
        p = float(S.ttest_ind(a, b, equal_var=False).pvalue)
        rows.append((name, mean_ci(a).fmt(3), mean_ci(b).fmt(3), p, p >= level))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20000, help="hands per engine (default 20000)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed (module pyspiel): pip install open_spiel, or "
              "pip install -e .[open-spiel]; nothing was compared.")
        return 2
    from analysis.stats import mean_ci
    t0 = time.perf_counter()
    ours = play_rummylab(a.hands, a.seed)
    t1 = time.perf_counter()
    theirs = play_openspiel(a.hands, a.seed, pyspiel)
    t2 = time.perf_counter()
    rows = compare(ours, theirs)
    m = len(rows)
    print(f"Gin, SimpleGinRummyBot vs itself: {a.hands} hands per engine, seed {a.seed}")
    from sim.variants import get_variant
    rules = get_variant("gin").rules_with_set(RULE_SET)
    print(f"rummylab rule set {RULE_SET}: {', '.join(rules)}; strategies: {STRATEGY} (both seats)")
    print(f"seat 0 = non-dealer (OpenSpiel player 0), seat 1 = dealer; tests at 0.05/{m} (Bonferroni)")
    print(f"time: rummylab {t1 - t0:.1f} s (compile included), OpenSpiel {t2 - t1:.1f} s")
    print()
    print("\n".join(table_lines(rows)))
    print()
    gins = int((theirs["outcome"] == OUTCOMES.index("gin")).sum())
    diff = theirs["score0"] - theirs["raw0"]
    print(f"OpenSpiel gin defender rescored on its minimum deadwood: {theirs['gin_fixed']} of {gins} gin hands "
          f"changed, by {np.abs(diff).sum() / max(gins, 1):.2f} points per gin hand; raw OpenSpiel mean "
          f"score seat 0 {mean_ci(theirs['raw0']).fmt(3)}")
    print(f"OpenSpiel knocks that threw back the upcard just taken (not legal in rummylab): "
          f"{theirs['thrown_back']} of {a.hands} hands")
    print(verdict(rows, a.hands))
    return 0


def table_lines(rows: list[tuple], other: str = "OpenSpiel") -> list[str]:
    """The comparison table: per quantity both estimates (rummylab's and ``other``'s), the
    p-value and whether a difference was detected (at the Bonferroni level)."""
    w = max(len(r[0]) for r in rows)
    out = [f"{'quantity':<{w}}  {'rummylab [95% CI]':<28}{other + ' [95% CI]':<28}{'p':>8}  difference"]
    for name, x, y, p, ok in rows:
        out.append(f"{name:<{w}}  {x:<28}{y:<28}{p:>8.3f}  {'not detected' if ok else 'DETECTED'}")
    return out


def verdict(rows: list[tuple], hands: int, alpha: float = 0.05) -> str:
    """The last line: no difference detected is not agreement proven, so it says what was
    tested, on how many hands, and what it cannot rule out."""
    m = len(rows)
    if all(r[4] for r in rows):
        return (f"no difference detected in any of the {m} quantities ({hands:,} hands per engine, two-sample "
                f"tests at {alpha}/{m}): not a proof of equality; differences within the 95% CIs above "
                "could go unseen")
    bad = [r[0] for r in rows if not r[4]]
    return f"DIFFERENCE DETECTED ({hands:,} hands per engine, tests at {alpha}/{m}): {', '.join(bad)}"


if __name__ == "__main__":
    raise SystemExit(main())
