"""The open-melding planner (sim/open/open_plan*.py) against the brute-force reference
(tests/support/open_plan_reference.py) on random positions of every rule set, the issue's edge
cases, and its plans replayed: every action legal in order, a legal table, cards conserved.
``OPEN_PLAN_SCALE`` multiplies the random positions per rule set (default 1: about 35 s on a quiet machine; the
reference is slow where jokers abound: 2000 positions of every rule set passed, ~23 min)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from sim.core.cards import JOKER, parse_cards, value_table
from sim.core.errors import UserInputError
from sim.open.open_plan import (
    A_CODE, A_C0, A_HI, A_JMASK, A_KEY, A_KIND, A_LAYOFF, A_LO, A_MELD, A_MOVE, A_NJ, A_POS,
    A_ROW, A_SWAP, A_TO, A_TYPE, ACT_WIDTH, GAME_PACK, MIN_CARDS, NO_PLAN, OUT_ONLY, PL_AFTER,
    PL_HEAD, PL_N_ACT, PL_OUT, PL_PLAYED, PL_VALUE, PLAN_WIDTH, RUN, SHED, MeldError,
    apply_plan, can_take, check_table, describe_table, empty_table, make_goal, meld_codes,
    meld_rules, parse_table, plan_turn, planner_values, table_counts, TM_HI, TM_JMASK, TM_KEY, TM_KIND, TM_LO,
    TM_NJ, TM_S0,
)
from tests.support.open_plan_reference import BIG, Position, melds_from, meld_cards

SCALE = float(os.environ.get("OPEN_PLAN_SCALE", "1"))

# (game, options, random positions at scale 1)
RULESETS = [
    ("basic", {}, 800),
    ("basic", {"multiple_melds": False}, 500),
    ("basic", {"layoff_requires_own_meld": True}, 500),
    ("basic", {"ace_high_or_low": True}, 500),
    ("basic", {"ace_high_or_low": True, "round_the_corner": True}, 400),
    ("basic", {"last_card_must_be_discarded": True, "multiple_melds": False}, 500),
    ("wrotham", {}, 60),
    ("wrotham", {"all_at_once": True}, 50),
    ("drift", {}, 250),
    ("loba", {}, 300),
]


def game_values(game, opts):
    return planner_values(game, **opts)


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
            from sim.open.open_plan import add_run, add_set
            n_tm = add_run(tab, n_tm, int(rng.integers(4)), m[1], m[2], m[3], m[4])
        else:
            from sim.open.open_plan import add_set
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


@pytest.mark.slow
@pytest.mark.parametrize("game,opts,n", RULESETS, ids=lambda x: str(x))
def test_random_positions_match_reference(game, opts, n):
    rng = np.random.default_rng([ord(ch) for ch in game + str(sorted(opts.items()))])
    for _ in range(max(1, int(n * SCALE))):
        check_position(game, opts, *random_position(rng, game, opts))


# ---------------------------------------------------------------------------------------
# the edge cases: each checked against the reference and by a rule-derived property

def counts(text):
    h = np.zeros(64, dtype=np.int64)
    for c in parse_cards(text, n_packs=2, n_jokers=4):
        h[c] += 1
    return h


def play(game, hand, table="", taken=None, has_melded=0, goal=None, **opts):
    """Plan a position given as text; cross-check it; return (value, plan, hand after, table
    after, n_tm after, mr)."""
    mr = meld_rules(game, **opts)
    tab, n_tm = parse_table(table, mr)
    h = counts(hand)
    t = -1 if taken is None else int(parse_cards(taken)[0])
    if t >= 0:
        h[t] += 1
    goal = make_goal() if goal is None else goal
    check_position(game, opts, mr, h, t, tab, n_tm, has_melded, goal)
    plan = np.zeros(PLAN_WIDTH, dtype=np.int64)
    v = plan_turn(h, t, tab, n_tm, 0, has_melded, mr, game_values(game, opts), goal, plan)
    if v == NO_PLAN:
        return v, plan, h, tab, n_tm, mr
    h2 = h.copy()
    n2 = apply_plan(plan, h2, tab, n_tm, 0, mr)
    return v, plan, h2, tab, n2, mr


def action_types(plan):
    return [a[0] for a in plan_actions(plan)]


def melds(by_rules: dict) -> list[tuple[str, dict, str]]:
    """``(game, options, meld text)`` from ``{"game option ...": [meld texts]}`` (the options
    named are switched on)."""
    return [(key.split()[0], dict.fromkeys(key.split()[1:], True), text)
            for key, texts in by_rules.items() for text in texts]


@pytest.mark.parametrize("game,opts,text", melds({
    "basic": ["QS KS AS", "7S 7H", "5S 6S 8S"],
    "basic ace_high_or_low": ["KS AS 2S"],
    "wrotham": ["X X X"],
    "drift": ["7S 7H 7D 7C X"],
    "loba": ["7S 7H 7D 7C", "7S 7S 7H", "7S 7H X", "5S 6S 7S", "X 5S X 7S X",
             "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "7S 7S 7S"],
}))
def test_illegal_melds_are_user_errors(game, opts, text):
    with pytest.raises(UserInputError, match="not legal|appears 3 times"):
        parse_table(text, meld_rules(game, **opts))


@pytest.mark.parametrize("game,opts,text", melds({
    "basic ace_high_or_low": ["QS KS AS"],
    "basic ace_high_or_low round_the_corner": ["KS AS 2S"],
    "wrotham": ["7H X X"],
    "drift": ["5H X 7H"],
    "loba": ["7S 7S 7H 7D", "7S 7S 7H 7H 7D 7D", "X 5S X 7S", "JS QS KS AS"],
}))
def test_legal_melds_parse_and_describe(game, opts, text):
    mr = meld_rules(game, **opts)
    tab, n = parse_table(text, mr)
    assert n == 1 and sorted(meld_codes(tab, 0)) == sorted(parse_cards(text, n_packs=2, n_jokers=4).tolist())
    assert parse_table(describe_table(tab, n), mr)[1] == 1


def test_bad_options_are_user_errors():
    with pytest.raises(MeldError, match="no meld option"):
        meld_rules("basic", nosuch=True)
    with pytest.raises(MeldError, match="needs ace_high_or_low"):
        meld_rules("basic", round_the_corner=True)
    with pytest.raises(MeldError, match="unknown planner game"):
        meld_rules("gin")


def test_drift_swapped_joker_must_be_used_again():
    # the joker of 5H X 7H can go onto the Q set: swap 6H, lay the joker there
    _, plan, h, tab, n, mr = play("drift", "6H 9C KD 2S", "5H X 7H | QS QH QC")
    assert "swap" in action_types(plan) and h[JOKER] == 0
    # nowhere to use it (runs need an own meld first): no swap
    _, plan, h, tab, n, mr = play("drift", "6H 9C KD 2S", "5H X 7H")
    assert "swap" not in action_types(plan) and h[JOKER] == 0
    # Wrotham may keep a swapped joker; it swaps when that pays (here: to go out)
    _, plan, h, _, _, _ = play("wrotham", "6H 8S 9S", "5H X 7H")
    assert int(plan[PL_OUT]) != 0


def test_loba_piernas_use_exactly_three_suits():
    sevens = parse_cards("7S 7H 7D 7C")
    _, plan, h, tab, n, _ = play("loba", "7S 7S 7H 7D 9C 2D", has_melded=1)
    assert h[sevens].sum() == 0                        # all four sevens in one pierna
    _, plan, h, tab, n, _ = play("loba", "7S 7H 7D 7C 9C 2D", has_melded=1)
    assert h[sevens].sum() == 1                        # one seven must stay


def test_loba_escalera_takes_at_most_two_jokers():
    _, plan, h, tab, n, mr = play("loba", "5S X X X 9C 2D")
    for i in range(n):
        assert tab[i, TM_NJ] <= 2
    assert h[JOKER] >= 1


def test_loba_joker_moves_to_an_end():
    _, plan, h, tab, n, _ = play("loba", "6S 2C 9D KH", "5S X 7S 8S")
    assert "move" in action_types(plan)
    assert tab[0, TM_NJ] == 1 and not (tab[0, TM_JMASK] >> 5) & 1


def test_ace_never_high_and_low():
    _, plan, h, tab, n, _ = play("loba", "2S 3S 9D KH 5C", "JS QS KS AS")
    assert h[1] == 1                                   # 2S (code 1) cannot follow the high ace
    _, plan, h, tab, n, _ = play("basic", "2S 9D", "QS KS AS", ace_high_or_low=True)
    assert h[1] == 1


def test_king_ace_two_only_round_the_corner():
    _, plan, h, _, _, _ = play("basic", "AS 2S 9D 8C", "JS QS KS", ace_high_or_low=True)
    assert h[0] == 0 and h[1] == 1
    _, plan, h, _, _, _ = play("basic", "AS 2S 9D 8C", "JS QS KS", ace_high_or_low=True,
                               round_the_corner=True)
    assert h[0] == 0 and h[1] == 0


def test_layoff_needs_own_meld():
    _, plan, h, _, _, _ = play("basic", "4S 9H 9D 9C KD", "AS 2S 3S", layoff_requires_own_meld=True)
    assert action_types(plan)[:2] == ["meld", "layoff"]
    _, plan, h, _, _, _ = play("basic", "4S KD QH", "AS 2S 3S", layoff_requires_own_meld=True)
    assert int(plan[PL_N_ACT]) == 0
    _, plan, h, _, _, _ = play("basic", "4S KD QH", "AS 2S 3S", has_melded=1, layoff_requires_own_meld=True)
    assert action_types(plan) == ["layoff"]


def test_one_meld_per_turn():
    _, plan, h, _, _, _ = play("basic", "2H 3H 4H 9S 9D 9C KD", multiple_melds=False)
    assert action_types(plan).count("meld") == 1
    _, plan, h, _, _, _ = play("basic", "2H 3H 4H 9S 9D 9C KD")
    assert action_types(plan).count("meld") == 2


def test_all_at_once_deals():
    _, plan, h, _, _, _ = play("wrotham", "AS 2S 3S 4S 7H 7D 7C KD", all_at_once=True)
    assert int(plan[PL_OUT]) != 0
    _, plan, h, _, _, _ = play("wrotham", "AS 2S 3S 7H 7D 7C KD QC", all_at_once=True)
    assert int(plan[PL_N_ACT]) == 0


def test_taken_card_rules():
    mr = meld_rules("loba")
    vals = game_values("loba", {})
    tab, n = parse_table("", mr)
    hand = counts("5S 6S 7S 2C")
    assert can_take(hand, int(parse_cards("8S")[0]), tab, n, 0, 0, mr, vals)
    assert not can_take(hand, int(parse_cards("2D")[0]), tab, n, 0, 0, mr, vals)
    v, plan, h, _, _, _ = play("loba", "5S 6S 7S 2C", taken="2D")
    assert v == NO_PLAN
    v, plan, h, _, _, _ = play("loba", "5S 6S 7S 2C", taken="8S")
    assert h[int(parse_cards("8S")[0])] == 0
    # Basic: the card taken may not be discarded, so the king held goes instead
    v, plan, h, _, _, _ = play("basic", "KD 2C", taken="KS")
    assert int(plan[PL_AFTER]) == 12


def test_loba_joker_discarded_only_to_go_out():
    v, plan, h, _, _, _ = play("loba", "X 5C 9D")
    assert int(plan[PL_AFTER]) == 25 + 5
    v, plan, h, _, _, _ = play("loba", "X 5S 6S 7S 8S")
    assert int(plan[PL_OUT]) != 0
    v, plan, h, _, _, _ = play("loba", "X X")               # nothing else: the rule is waived
    assert v != NO_PLAN


def test_last_card_must_be_discarded():
    _, plan, h, _, _, _ = play("basic", "AS 2S 3S", last_card_must_be_discarded=True)
    assert int(h.sum()) >= 1
    _, plan, h, _, _, _ = play("basic", "AS 2S 3S 4S", last_card_must_be_discarded=True)
    assert int(plan[PL_OUT]) == 2 and int(h.sum()) == 1
    _, plan, h, _, _, _ = play("basic", "AS 2S 3S")
    assert int(plan[PL_OUT]) == 1 and int(h.sum()) == 0


def test_goals():
    # OUT_ONLY holds back a meld that does not go out; MIN_CARDS k waits for k cards
    _, plan, _, _, _, _ = play("basic", "AS 2S 3S 9D KC", goal=make_goal(OUT_ONLY))
    assert int(plan[PL_N_ACT]) == 0
    _, plan, _, _, _, _ = play("basic", "AS 2S 3S 9D KC QH", goal=make_goal(MIN_CARDS, 4))
    assert int(plan[PL_N_ACT]) == 0
    _, plan, _, _, _, _ = play("basic", "AS 2S 3S 4S KC QH", goal=make_goal(MIN_CARDS, 4))
    assert int(plan[PL_PLAYED]) >= 4
    _, plan, h, _, _, _ = play("basic", "AS 2S 3S 4S KC QH", goal=make_goal(SHED, keep=int(parse_cards("4S")[0])))
    assert h[3] == 1


def test_meld_command_prints_the_plan(capsys):
    from analysis.cli import main
    argv = ["meld", "--variant", "wrotham", "--hand", "6H 8S 9S 2C", "--table", "5H X 7H"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    v, plan, h, tab, n, _ = play("wrotham", "6H 8S 9S 2C", "5H X 7H")
    assert "plan:" in out and f"= {v} points" in out
    assert describe_table(tab, n) in out


def test_plan_turn_leaves_its_inputs_alone():
    mr = meld_rules("drift")
    tab, n = parse_table("5H X 7H | QS QH QC", mr)
    hand = counts("6H 9C KD 2S 8H")
    h0, t0 = hand.copy(), tab.copy()
    plan = np.zeros(PLAN_WIDTH, dtype=np.int64)
    plan_turn(hand, -1, tab, n, 0, 0, mr, planner_values("drift"), make_goal(), plan)
    assert np.array_equal(hand, h0) and np.array_equal(tab, t0) and int(plan[PL_N_ACT]) > 0


# ---------------------------------------------------------------------------------------
# speed: `PYTHONPATH=. python tests/sim/open/test_open_plan.py` prints planner calls/s per game on
# dealt positions (a random table laid from part of the pack, the hand from the rest)

def _bench_positions(game, hand_n, n_melds, count, seed=5):
    from sim.core.cards import standard_pack
    from sim.open.open_plan import MAX_TM, TM_WIDTH, add_run, add_set
    mr = meld_rules(game)
    n_packs, n_jokers = GAME_PACK[game]
    rng = np.random.default_rng(seed)
    hands = np.zeros((count, 64), dtype=np.int64)
    tabs = np.zeros((count, MAX_TM, TM_WIDTH), dtype=np.int64)
    ntm = np.zeros(count, dtype=np.int64)
    for k in range(count):
        pack = [int(c) for c in standard_pack(n_packs, n_jokers)]
        rng.shuffle(pack)
        part = {}
        for c in pack[:24]:
            part[c] = part.get(c, 0) + 1
        for _ in range(n_melds):
            ms = [m for m in melds_from(mr, part) if m[0] == "S" or m[3] - m[2] < 5]
            if not ms:
                break
            m = ms[int(rng.integers(len(ms)))]
            for c in meld_cards(m):
                part[c] -= 1
            ntm[k] = (add_run(tabs[k], ntm[k], 1, m[1], m[2], m[3], m[4]) if m[0] == "R"
                      else add_set(tabs[k], ntm[k], 1, m[1], *m[2], m[3]))
        for c in pack[24:24 + hand_n]:
            hands[k, c] += 1
    return mr, hands, tabs, ntm


def bench(count=300):
    import time
    from numba import njit

    @njit
    def run(hands, tabs, ntm, mr, vals, goal, reps):
        plan = np.zeros(PLAN_WIDTH, dtype=np.int64)
        tot = 0
        for _ in range(reps):
            for k in range(hands.shape[0]):
                tot += plan_turn(hands[k], -1, tabs[k], ntm[k], 0, 1, mr, vals, goal, plan)
        return tot

    goal = make_goal()
    for game, hand_n, n_melds in (("basic", 8, 0), ("basic", 8, 3), ("wrotham", 8, 3),
                                  ("drift", 8, 3), ("loba", 10, 4)):
        mr, hands, tabs, ntm = _bench_positions(game, hand_n, n_melds, count)
        vals = planner_values(game)
        plan = np.zeros(PLAN_WIDTH, dtype=np.int64)
        plays = np.zeros(count, dtype=bool)
        for k in range(count):
            plan_turn(hands[k], -1, tabs[k], ntm[k], 0, 1, mr, vals, goal, plan)
            plays[k] = plan[PL_N_ACT] > 0
        run(hands[:1], tabs[:1], ntm[:1], mr, vals, goal, 1)
        for name, sel in (("no play", ~plays), ("a play", plays)):
            if not sel.any():
                continue
            reps = max(1, 50000 // int(sel.sum()))
            t = time.perf_counter()
            run(hands[sel], tabs[sel], ntm[sel], mr, vals, goal, reps)
            dt = (time.perf_counter() - t) / (reps * int(sel.sum()))
            print(f"{game:8s} hand {hand_n:2d}, {n_melds} melds dealt to the table, {name:7s} "
                  f"({sel.mean():4.0%}): {1 / dt:12,.0f} calls/s  {dt * 1e6:6.2f} us/call")


if __name__ == "__main__":
    bench()
