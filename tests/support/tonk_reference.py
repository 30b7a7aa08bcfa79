"""Slow, obviously-correct pure-Python reference for Tonk (rules/tonk.md).

Cards are int codes ``suit * 16 + rank`` (rank 0..12 = A..K).  Nothing here imports
``sim.variants.tonk``, ``sim.knock.table`` or ``sim.strategies.tonk``: payouts are written as lists of (payer, payee, units) transfers read off
the rule text, and the best spreads-and-hits of a turn are found by trying every sequence of
actions (lay any legal spread, hit any card on any spread, the turn's new ones included).
"""

from __future__ import annotations

from itertools import combinations

from sim.core.cards import value_table

VALUES = tuple(int(v) for v in value_table())


def count(cards) -> int:
    return sum(VALUES[c] for c in cards)


def is_book(cards) -> bool:
    return 3 <= len(cards) <= 4 and len({c & 15 for c in cards}) == 1


def is_run(cards) -> bool:
    if len(cards) < 3 or len({c >> 4 for c in cards}) != 1:
        return False
    ranks = sorted(c & 15 for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_spread(cards) -> bool:
    return is_book(cards) or is_run(cards)


# --- payouts --------------------------------------------------------------------------------

def _net(n, transfers):
    pay = [0] * n
    for payer, payee, units in transfers:
        pay[payer] -= units
        pay[payee] += units
    return pay


def knock_payout(counts, knocker, tie_paid=False):
    """'If the knocker's count is strictly the lowest, the knocker wins 1x stake [from each
    other player]. Otherwise the knocker pays 2x stake to every player whose count is <= the
    knocker's, and the player with the lowest count also receives 1x stake from every player
    (ties for lowest: each of them is paid). A knocker who is not strictly lowest never
    collects.'  ``tie_paid`` (option knocker_tie_paid): 'a knocker tied for lowest collect[s]
    as one of the tied'.  Returns (outcome, pay)."""
    n = len(counts)
    others = [s for s in range(n) if s != knocker]
    if all(counts[knocker] < counts[s] for s in others):
        return "knock_won", _net(n, [(s, knocker, 1) for s in others])
    transfers = [(knocker, s, 2) for s in others if counts[s] <= counts[knocker]]
    low = min(counts[s] for s in others)
    tied = [w for w in others if counts[w] == low] + ([knocker] if tie_paid and counts[knocker] == low else [])
    for w in tied:
        transfers += [(s, w, 1) for s in range(n) if s != w]
    return "knock_caught", _net(n, transfers)


def stock_out_payout(counts):
    """'The lowest count receives 1x stake from every player (ties: each is paid).'"""
    n = len(counts)
    low = min(counts)
    return _net(n, [(s, w, 1) for w in range(n) if counts[w] == low for s in range(n) if s != w])


def collect_payout(n, winner, units):
    return _net(n, [(s, winner, units) for s in range(n) if s != winner])


# --- the best spreads and hits of a turn ----------------------------------------------------

def reachable(hand, table):
    """Every hand reachable by laying spreads from ``hand`` and hitting its cards onto spreads
    (``table`` and the turn's own), as {remaining frozenset: set of (spread_made, hit_made)}."""
    out: dict[frozenset, set] = {}
    seen = set()
    stack = [(frozenset(hand), tuple(sorted(tuple(sorted(s)) for s in table)), False, False)]
    while stack:
        h, tab, sp, ht = stack.pop()
        key = (h, tab, sp, ht)
        if key in seen:
            continue
        seen.add(key)
        out.setdefault(h, set()).add((sp, ht))
        cards = sorted(h)
        for k in range(3, len(cards) + 1):
            for combo in combinations(cards, k):
                if is_spread(combo):
                    nt = tuple(sorted(tab + (tuple(sorted(combo)),)))
                    stack.append((h - set(combo), nt, True, ht))
        for c in cards:
            for i, s in enumerate(tab):
                if is_spread(s + (c,)):
                    nt = tuple(sorted(tab[:i] + (tuple(sorted(s + (c,))),) + tab[i + 1:]))
                    stack.append((h - {c}, nt, sp, True))
    return out


def lay_down_count(hand, table) -> int:
    """Stock-out lay-down ('players play all the cards they can from their hand'): the lowest
    count of any hand reachable by laying spreads and hitting, no discard to follow."""
    return min(count(rest) for rest in reachable(hand, table))


def _forced_meld(rest) -> bool:
    """must_spread: a spread in hand other than a book of exactly three aces."""
    for k in range(3, len(rest) + 1):
        for combo in combinations(sorted(rest), k):
            if is_spread(combo) and not (len(combo) == 3 and all(c & 15 == 0 for c in combo)):
                return True
    return False


def _highest(cards):
    return max(cards, key=lambda c: (c & 15, -(c >> 4)))


def best_play_score(hand, table, taken, spread_ok, hit_ok, must, needs_new):
    """Lowest score (the engine's scale: 0 a 2x tonk out, 1000 a 1x going out, else 2000 + the
    count after discarding the highest card) over all reachable hands whose actions are
    allowed (spreads: if ``spread_ok``, or to go out this turn, or when ``must`` and the hand
    holds a spread it must lay down; hits: if ``hit_ok`` or to go out), never leaving only the
    card ``taken`` from the pile, and with ``must`` no spread but three aces left in hand;
    None if no hand is allowed."""
    best = None
    forced = must and _forced_meld(hand)  # must_spread lets even a holder lay spreads down
    for rest, flags in reachable(hand, table).items():
        goes_out = len(rest) == 0 or (len(rest) == 1 and taken not in rest)
        allowed = [(sp, ht) for sp, ht in flags
                   if (not sp or spread_ok or goes_out or forced) and (not ht or hit_ok or goes_out)]
        if not allowed:
            continue
        if rest and rest == {taken}:
            continue
        if must and _forced_meld(rest):
            continue
        if not rest:
            score = 0 if (not needs_new or any(sp for sp, _ in allowed)) else 1000
        elif goes_out:
            score = 1000
        else:
            score = 2000 + count(rest) - VALUES[_highest([c for c in rest if c != taken])]
        if best is None or score < best:
            best = score
    return best
