"""The open-melding planner (sim/open_plan*.py) against the brute-force reference
(tests/open_plan_reference.py) on random positions of every rule set, the issue's edge
cases, and its plans replayed: every action legal in order, a legal table, cards conserved.
``OPEN_PLAN_N`` sets the random positions per rule set (default 400)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from sim.cards import JOKER, parse_cards, value_table
from sim.open_plan import (
    A_CODE, A_C0, A_HI, A_JMASK, A_KEY, A_KIND, A_LAYOFF, A_LO, A_MELD, A_MOVE, A_NJ, A_POS,
    A_ROW, A_SWAP, A_TO, A_TYPE, ACT_WIDTH, GAME_PACK, MIN_CARDS, NO_PLAN, OUT_ONLY, PL_AFTER,
    PL_HEAD, PL_N_ACT, PL_OUT, PL_PLAYED, PL_VALUE, PLAN_WIDTH, RUN, SHED, MeldError,
    apply_plan, can_take, check_table, describe_table, empty_table, make_goal, meld_codes,
    meld_rules, parse_table, plan_turn, table_counts, TM_HI, TM_JMASK, TM_KEY, TM_KIND, TM_LO,
    TM_NJ, TM_S0,
)
from tests.open_plan_reference import BIG, Position, melds_from, meld_cards

N = int(os.environ.get("OPEN_PLAN_N", "400"))

RULESETS = [
    ("basic", {}),
    ("basic", {"multiple_melds": False}),
    ("basic", {"layoff_requires_own_meld": True}),
    ("basic", {"ace_high_or_low": True}),
    ("basic", {"ace_high_or_low": True, "round_the_corner": True}),
    ("basic", {"last_card_must_be_discarded": True, "multiple_melds": False}),
    ("wrotham", {}),
    ("wrotham", {"all_at_once": True}),
    ("drift", {}),
    ("loba", {}),
]


def game_values(game, opts):
    if game == "basic":
        return value_table(ace=15 if opts.get("ace_high_or_low") else 1)
    return {"wrotham": value_table(joker=25), "drift": value_table(joker=20),
            "loba": value_table(ace=10, joker=25)}[game]


def ref_table(tab, n_tm):
    rows = []
    for i in range(n_tm):
        if tab[i, TM_KIND] == RUN:
            rows.append(("R", int(tab[i, TM_KEY]), int(tab[i, TM_LO]), int(tab[i, TM_HI]), int(tab[i, TM_JMASK])))
        else:
            rows.append(("S", int(tab[i, TM_KEY]), tuple(int(x) for x in tab[i, TM_S0:TM_S0 + 4]), int(tab[i, TM_NJ])))
    return tuple(rows)


def plan_actions(plan):
    """The plan's actions as the reference names them."""
    out = []
    for k in range(int(plan[PL_N_ACT])):
        a = [int(x) for x in plan[PL_HEAD + k * ACT_WIDTH:PL_HEAD + (k + 1) * ACT_WIDTH]]
        t = a[A_TYPE]
        if t == A_MELD:
            if a[A_KIND] == RUN:
                out.append(("meld", ("R", a[A_KEY], a[A_LO], a[A_HI], a[A_JMASK])))
            else:
                out.append(("meld", ("S", a[A_KEY], tuple(a[A_C0:A_C0 + 4]), a[A_NJ])))
        elif t == A_LAYOFF:
            out.append(("layoff", a[A_ROW], a[A_CODE], a[A_POS]))
        elif t == A_SWAP:
            out.append(("swap", a[A_ROW], a[A_CODE], a[A_POS]))
        else:
            out.append(("move", a[A_ROW], a[A_POS], a[A_TO], a[A_CODE]))
    return out


def random_position(rng, game, opts):
    mr = meld_rules(game, **opts)
    n_packs, n_jokers = GAME_PACK[game]
    suits = rng.choice(4, size=int(rng.integers(2, 5)), replace=False)
    lo = int(rng.integers(0, 13))
    ranks = [(lo + k) % 13 for k in range(int(rng.integers(5, 9)))]
    pool = {}
    for s in suits:
        for r in ranks:
            pool[int(s) * 16 + r] = n_packs
    if n_jokers:
        pool[JOKER] = n_jokers
    tab = empty_table()
    n_tm = 0
    for _ in range(int(rng.integers(0, 7))):
        ms = melds_from(mr, pool)
        if not ms:
            break
        m = ms[int(rng.integers(len(ms)))]
        for c in meld_cards(m):
            pool[c] -= 1
        if m[0] == "R":
            tab[n_tm, :] = 0
            from sim.open_plan import add_run, add_set
            n_tm = add_run(tab, n_tm, int(rng.integers(4)), m[1], m[2], m[3], m[4])
        else:
            from sim.open_plan import add_set
            n_tm = add_set(tab, n_tm, int(rng.integers(4)), m[1], *m[2], m[3])
    cards = [c for c, n in pool.items() for _ in range(n)]
    rng.shuffle(cards)
    hand = np.zeros(64, dtype=np.int64)
    for c in cards[:int(rng.integers(4, 12))]:
        hand[c] += 1
    naturals = [c for c in range(64) if hand[c] and c != JOKER]
    taken = -1
    if naturals and rng.random() < (0.5 if game == "loba" else 0.3):
        taken = int(rng.choice(naturals))
    u = rng.random()
    mode = SHED if u < 0.6 else (OUT_ONLY if u < 0.8 else MIN_CARDS)
    keep = -1
    held = [c for c in range(64) if hand[c]]
    if rng.random() < 0.15 and held:
        keep = int(rng.choice(held))
    goal = make_goal(mode, int(rng.integers(2, 6)), keep, rng.random() < 0.85)
    return mr, hand, taken, tab, n_tm, int(rng.integers(2)), goal


def check_position(game, opts, mr, hand, taken, tab, n_tm, has_melded, goal):
    vals = game_values(game, opts)
    plan = np.zeros(PLAN_WIDTH, dtype=np.int64)
    t0 = tab.copy()
    v = plan_turn(hand, taken, tab, n_tm, 0, has_melded, mr, vals, goal, plan)
    assert np.array_equal(tab, t0), "plan_turn must not write the table"
    pos = Position(mr, hand, taken, ref_table(tab, n_tm), has_melded, goal, vals)
    want = pos.best()
    where = f"{game} {opts} hand={[c for c in range(64) for _ in range(hand[c])]} taken={taken} " \
            f"table={describe_table(tab, n_tm)!r} has_melded={has_melded} goal={list(goal)}"
    if want == BIG:
        assert v == NO_PLAN, where
        return
    assert v != NO_PLAN, where
    h = hand.copy()
    t = tab.copy()
    n2 = apply_plan(plan, h, t, n_tm, 0, mr)
    got = (int(plan[PL_AFTER]), int(plan[PL_OUT]) == 0, -int(plan[PL_PLAYED]), -int(h[JOKER]))
    assert got == want, f"{where}: planner {got} vs reference {want}; plan {plan_actions(plan)}"
    st = pos.replay(plan_actions(plan))
    assert pos.stop_key(st) == want, where
    assert ref_table(t, n2)[:n_tm] == st[1][:n_tm], where
    assert sorted(ref_table(t, n2)[n_tm:]) == sorted(st[1][n_tm:]), where
    assert int(h.sum()) == int(hand.sum()) - int(plan[PL_PLAYED]), where
    assert int((h * vals).sum()) == v == int(plan[PL_VALUE]), where
    on_table = np.zeros(64, dtype=np.int64)
    table_counts(t, n2, on_table)
    before = np.zeros(64, dtype=np.int64)
    table_counts(tab, n_tm, before)
    check_table(t, n2, mr, h, before + hand)
    assert np.array_equal(on_table + h, before + hand), where


@pytest.mark.parametrize("game,opts", RULESETS, ids=lambda x: str(x))
def test_random_positions_match_reference(game, opts):
    rng = np.random.default_rng(abs(hash((game, tuple(sorted(opts.items()))))) % 2**32 if False else
                                [ord(ch) for ch in game + str(sorted(opts.items()))])
    for _ in range(N):
        check_position(game, opts, *random_position(rng, game, opts))
