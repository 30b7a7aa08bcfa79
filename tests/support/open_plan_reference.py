"""Slow pure-Python reference for the open-melding planner (sim/open/open_plan*.py).

Written from the rules, not from the kernels: a state is (hand, table, turn flags); the
legal single actions are "lay one meld from hand", "lay off one card", "swap one joker",
"move one Loba joker"; :func:`best_key` searches every sequence of them (memoised on the
state: the best over every reachable state) and scores every state the turn may stop in, exactly as plan_turn's doc says:
(value after the best legal discard, not out, -cards played, -jokers kept), lowest best.

Melds: ``("R", suit, lo, hi, jmask)`` (positions as sim/open/open_plan_layout.py: p holds rank
p % 13, 13 = ace high; round-the-corner runs keep 0 <= lo <= 12) and
``("S", rank, (c0, c1, c2, c3), jokers)``.  The rules vector ``mr`` gives the game's rules.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from sim.core.cards import JOKER
from sim.open import open_plan_layout as L

BIG = (10 ** 9,)


# ---------------------------------------------------------------------------------------
# meld legality, from the rules

def run_ok(mr, lo, hi, jm) -> bool:
    n = hi - lo + 1
    if n < mr[L.MR_RUN_MIN]:
        return False
    aces = mr[L.MR_ACES]
    if aces == L.ACE_LOW and not (0 <= lo and hi <= 12):
        return False
    if aces == L.ACE_HIGH_OR_LOW and not (0 <= lo and hi <= 13 and not (lo == 0 and hi == 13)):
        return False
    if aces == L.ACE_ROUND and not (0 <= lo <= 12 and n <= 13):
        return False
    nj = bin(jm).count("1")
    if jm & ~(((1 << n) - 1) << lo):
        return False
    if mr[L.MR_JOKER_A_TO_K] and jm >> 13:
        return False            # Loba (rules/loba.md): a joker never stands above the king
    return nj <= mr[L.MR_RUN_MAX_JOKERS] and n - nj >= mr[L.MR_NATURAL_MIN]


def set_ok(mr, counts, nj) -> bool:
    nat = sum(counts)
    n = nat + nj
    if not (mr[L.MR_SET_MIN] <= n <= mr[L.MR_SET_MAX]) or nat < mr[L.MR_NATURAL_MIN]:
        return False
    if nj and not mr[L.MR_SET_JOKERS]:
        return False
    if mr[L.MR_SET_SUITS] == L.SUITS_DISTINCT:
        return max(counts) <= 1 and n <= 4
    return max(counts) <= mr[L.MR_N_PACKS] and sum(1 for c in counts if c) == 3


def meld_ok(mr, m) -> bool:
    return run_ok(mr, m[2], m[3], m[4]) if m[0] == "R" else set_ok(mr, m[2], m[3])


def code_at(suit, p):
    return suit * 16 + p % 13


def meld_cards(m) -> list[int]:
    if m[0] == "R":
        return [JOKER if (m[4] >> p) & 1 else code_at(m[1], p) for p in range(m[2], m[3] + 1)]
    return [s * 16 + m[1] for s in range(4) for _ in range(m[2][s])] + [JOKER] * m[3]


def norm_run(suit, lo, hi, jm):
    while lo < 0:
        lo, hi, jm = lo + 13, hi + 13, jm << 13
    while lo > 12:
        lo, hi, jm = lo - 13, hi - 13, jm >> 13
    return ("R", suit, lo, hi, jm)


# ---------------------------------------------------------------------------------------
# the single actions

def melds_from(mr, hand):
    """Every legal meld made of cards of ``hand`` (a dict code -> count)."""
    out = []
    nj = hand.get(JOKER, 0)
    cap = 1 if mr[L.MR_SET_SUITS] == L.SUITS_DISTINCT else mr[L.MR_N_PACKS]
    for r in range(13):
        ranges = [range(min(hand.get(s * 16 + r, 0), cap) + 1) for s in range(4)]
        for counts in product(*ranges):
            if sum(counts) == 0:
                continue
            for j in range(nj + 1):
                if set_ok(mr, counts, j):
                    out.append(("S", r, tuple(counts), j))
    top = 25 if mr[L.MR_ACES] == L.ACE_ROUND else 13
    for s in range(4):
        for lo in range(0, 13):
            for hi in range(lo + mr[L.MR_RUN_MIN] - 1, top + 1):
                ps = range(lo, hi + 1)
                free = [p for p in ps if hand.get(code_at(s, p), 0) == 0]
                opt = [p for p in ps if hand.get(code_at(s, p), 0) > 0]
                if len(free) > nj:
                    continue
                base = sum(1 << p for p in free)
                for k in range(len(opt) + 1):
                    if len(free) + k > nj:
                        break
                    for extra in _subsets(opt, k):
                        jm = base | sum(1 << p for p in extra)
                        if run_ok(mr, lo, hi, jm):
                            cards = [JOKER if (jm >> p) & 1 else code_at(s, p) for p in ps]
                            if len(set(c for c in cards if c != JOKER)) == len([c for c in cards if c != JOKER]):
                                out.append(("R", s, lo, hi, jm))
    return out


def _extend(s, lo, hi, jm, p, joker):
    if p < 0:
        lo, hi, jm, p = lo + 13, hi + 13, jm << 13, p + 13
    if joker:
        jm |= 1 << p
    return norm_run(s, min(lo, p), max(hi, p), jm)


def _subsets(items, k):
    if k == 0:
        yield ()
        return
    for i in range(len(items)):
        for rest in _subsets(items[i + 1:], k - 1):
            yield (items[i],) + rest


def _minus(hand, cards):
    h = dict(hand)
    for c in cards:
        if h.get(c, 0) <= 0:
            return None
        h[c] -= 1
    return h


class Position:
    """A turn: rules, start hand, taken card, has_melded, goal, card values."""

    def __init__(self, mr, hand, taken, table, has_melded, goal, vals):
        self.mr = tuple(int(x) for x in mr)
        self.hand0 = {c: int(n) for c, n in enumerate(hand) if n}
        self.taken = int(taken)
        self.table0 = tuple(table)
        self.has_melded = int(has_melded)
        self.goal = tuple(int(x) for x in goal)
        self.vals = tuple(int(v) for v in vals)
        self.total0 = sum(self.hand0.values())
        self.relax = False
        # every meld a hand of this turn could lay: the start hand plus the table's jokers
        richest = dict(self.hand0)
        richest[JOKER] = richest.get(JOKER, 0) + sum(m[3] if m[0] == "S" else bin(m[4]).count("1")
                                                     for m in self.table0)
        self.all_melds = []
        for m in melds_from(self.mr, richest):
            cards = meld_cards(m)
            self.all_melds.append((m, cards, tuple((c, cards.count(c)) for c in set(cards))))

    # --- actions ---------------------------------------------------------------------
    def actions(self, st):
        """[(action, next state)] of the state st = (hand, table, n_new, owed, taken_in, acted, table_acted)."""
        hand_t, table, n_new, owed, taken_in, acted, tacted = st
        hand = dict(hand_t)
        mr = self.mr
        out = []
        if n_new == 0 or not mr[L.MR_ONE_MELD]:
            for m, cards, need in self.all_melds:
                if any(hand.get(c, 0) < k for c, k in need):
                    continue
                h = _minus(hand, cards)
                if not self._keeps(h):
                    continue
                t = tuple(sorted(table[len(self.table0):] + (m,)))
                ti = taken_in or (self.taken >= 0 and self.taken in cards)
                out.append((("meld", m), self._st(h, self.table0_rows(table) + t, min(n_new + 1, 2),
                                                  max(0, owed - cards.count(JOKER)), ti, True, tacted)))
        may_lay = self.has_melded or n_new > 0
        for i, m in enumerate(table):
            for act, m2, played, back in self._row_moves(m, hand, may_lay):
                h = _minus(hand, played)
                if h is None or not self._keeps(h):
                    continue
                if back:
                    h[JOKER] = h.get(JOKER, 0) + back
                if not meld_ok(mr, m2):
                    continue
                ow = owed + (back if mr[L.MR_SWAP] == L.SWAP_REUSE else 0)
                ow = max(0, ow - played.count(JOKER))
                t = table[:i] + (m2,) + table[i + 1:]
                out.append(((act[0], i) + act[1:], self._st(h, t, n_new, ow, taken_in, True, True)))
        return out

    def table0_rows(self, table):
        return table[:len(self.table0)]

    def _keeps(self, h):
        keep = self.goal[L.GOAL_KEEP] if not self.relax else -1
        return keep < 0 or h.get(keep, 0) >= 1

    def _st(self, h, table, n_new, owed, taken_in, acted, tacted):
        return (tuple(sorted((c, n) for c, n in h.items() if n)), table, n_new, owed, bool(taken_in), acted, tacted)

    def _row_moves(self, m, hand, may_lay):
        """(action, new meld, cards from hand, jokers back to hand) for one table meld."""
        mr = self.mr
        lay_ok = may_lay or mr[L.MR_LAYOFF] != L.LAYOFF_OWN_MELD      # onto sets
        run_lay_ok = may_lay or mr[L.MR_LAYOFF] == L.LAYOFF_FREE
        res = []
        if m[0] == "R":
            _, s, lo, hi, jm = m
            for end, p in ((L.END_LOW, lo - 1), (L.END_HIGH, hi + 1)):
                if not run_lay_ok or (p < 0 and mr[L.MR_ACES] != L.ACE_ROUND):
                    continue
                for c in set(hand):
                    if c == JOKER or c == code_at(s, p):
                        res.append((("layoff", c, end), _extend(s, lo, hi, jm, p, c == JOKER), [c], 0))
            for p in range(lo, hi + 1):
                if not (jm >> p) & 1:
                    continue
                c = code_at(s, p)
                if mr[L.MR_SWAP] != L.SWAP_NONE and hand.get(c, 0):
                    res.append((("swap", c, p), ("R", s, lo, hi, jm & ~(1 << p)), [c], 1))
                if mr[L.MR_JOKER_MOVE]:
                    for fill in ([c] if hand.get(c, 0) else []) + [None]:
                        jm2, lo2, hi2 = jm & ~(1 << p), lo, hi
                        if fill is None:
                            if p == lo:
                                lo2 += 1
                            elif p == hi:
                                hi2 -= 1
                            else:
                                continue
                        for to in (L.END_LOW, L.END_HIGH):
                            q = lo2 - 1 if to == L.END_LOW else hi2 + 1
                            if q < 0:
                                continue
                            m2 = ("R", s, min(lo2, q), max(hi2, q), jm2 | (1 << q))
                            res.append((("move", p, to, -1 if fill is None else fill), m2, [] if fill is None else [fill], 0))
        else:
            _, r, counts, nj = m
            for c in set(hand):
                if c == JOKER:
                    if lay_ok:
                        res.append((("layoff", JOKER, -1), ("S", r, counts, nj + 1), [c], 0))
                    continue
                if c & 15 != r:
                    continue
                su = c >> 4
                c2 = tuple(x + (1 if k == su else 0) for k, x in enumerate(counts))
                if lay_ok:
                    res.append((("layoff", c, -1), ("S", r, c2, nj), [c], 0))
                if mr[L.MR_SWAP] != L.SWAP_NONE and nj > 0 and counts[su] == 0:
                    res.append((("swap", c, -1), ("S", r, c2, nj - 1), [c], 1))
        return res

    # --- the end of the turn -------------------------------------------------------------
    def stop_key(self, st):
        """Score of stopping in state st (BIG if the turn may not end there)."""
        hand_t, table, n_new, owed, taken_in, acted, tacted = st
        mr, goal, vals = self.mr, self.goal, self.vals
        hand = dict(hand_t)
        if owed > 0:
            return BIG
        if mr[L.MR_TAKE_MELD] and self.taken >= 0 and not taken_in:
            return BIG
        total = sum(hand.values())
        value = sum(vals[c] * n for c, n in hand.items())
        keep = goal[L.GOAL_KEEP] if not self.relax else -1
        best_d = None
        for c, n in hand.items():
            if c == keep:
                n -= 1
            if (c == self.taken and mr[L.MR_TAKE_NO_DISCARD]
                    and hand.get(c, 0) >= self.hand0.get(c, 0)):
                n -= 1              # no copy of the taken card went down: it is still in hand
            if n <= 0:
                continue
            if c == JOKER and mr[L.MR_JOKER_DISCARD] == L.JD_OUT_ONLY and total != 1 and not self.relax:
                continue
            if best_d is None or vals[c] > best_d:
                best_d = vals[c]
        if total == 0:
            if mr[L.MR_LAST_DISCARD]:
                return BIG
            after, out = 0, L.OUT_EMPTY
        elif best_d is None:
            return BIG
        elif total == 1:
            after, out = 0, L.OUT_DISCARD
        else:
            after, out = value - best_d, L.OUT_NONE
        played = self.total0 - total
        if acted and out == L.OUT_NONE:
            if goal[L.GOAL_MODE] == L.OUT_ONLY or mr[L.MR_ALL_AT_ONCE]:
                return BIG
            if goal[L.GOAL_MODE] == L.MIN_CARDS and played < goal[L.GOAL_K]:
                return BIG
            if goal[L.GOAL_LAYOFF] == 0 and tacted:
                return BIG
        return (after, out == L.OUT_NONE, -played, -hand.get(JOKER, 0))

    def start(self):
        return self._st(self.hand0, self.table0, 0, 0, False, False, False)

    def best(self):
        """The best score over every legal sequence of actions (BIG: no legal turn); waives
        the kept card and the joker-discard rule when nothing is legal, like plan_turn."""
        for relax in (False, True):
            self.relax = relax
            # the score depends on the final state only: the best over every reachable state
            seen = {self.start()}
            todo = [self.start()]
            b = BIG
            while todo:
                st = todo.pop()
                b = min(b, self.stop_key(st))
                for _, nxt in self.actions(st):
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            if b != BIG:
                return b
        return BIG

    def replay(self, actions):
        """Follow planner actions (tuples as :meth:`actions` names them) from the start; returns
        the final state, or raises AssertionError naming the first illegal one."""
        st = self.start()
        for a in actions:
            nxt = dict(self.actions(st))
            assert a in nxt, f"illegal action {a} in state {st}"
            st = nxt[a]
        return st
