"""The settlement of an open-melding hand, re-derived from its trace (referee).

``rules/basic_rummy.md`` (Basic, Block, Wrotham: the one out scores the count of every other
hand, rummy doubles it or adds 10; nobody out: the lowest count scores the differences to every
other hand, tied lowest players share it; ``penalty_scoring``: the others score their own count
against themselves), ``ramino.md`` (Drift: the first out scores 0, the others their hand as
penalty) and ``loba.md`` (penalty points, the joker ``joker_penalty``, 10 off for going out with
the whole hand at once).  Only the columns the start line names are compared; the meaning of
each column is the variant's docstring's.
"""

from __future__ import annotations

from .open_rules import wrotham_deal

POINTS_GAMES = ("basic-rummy", "block-rummy", "wrotham")


def outcome_name(hand) -> str | None:
    """The outcome the rules give, or None where the trace's word must be taken (no one out:
    the stock ran out, the turn limit, a void hand; checked separately)."""
    tc = hand.turns
    out = tc.out_seat
    if out is None:
        return None
    all_at_once = tc.first_play[out] == tc.out_turn
    if hand.rules.variant in POINTS_GAMES:
        return "rummy" if all_at_once else "out"
    if hand.rules.variant == "loba":
        return "at_once" if all_at_once else "out"
    return "out"


def _points_scores(hand, vals, name):
    """score per seat, winner, points for Basic / Block / Wrotham."""
    r, n, out = hand.rules, hand.n, hand.turns.out_seat
    if name in ("out", "rummy"):
        others = sum(v for s, v in enumerate(vals) if s != out)
        double = 2 if name == "rummy" and r.rummy_bonus == "double" else 1
        plus = 10 if name == "rummy" and r.rummy_bonus == "plus10" else 0
        if r.penalty_scoring:
            scores = [plus if s == out else -double * vals[s] for s in range(n)]
            return scores, out, None
        pts = others * double + plus
        return [pts if s == out else 0 for s in range(n)], out, pts
    if name == "stock_out":
        low = min(vals)
        best = [s for s in range(n) if vals[s] == low]
        winner = best[0] if len(best) == 1 else -1
        if r.penalty_scoring:
            return [-v for v in vals], winner, None
        share = sum(v - low for v in vals) // len(best)    # tied lowest share it [choice: floor]
        return [share if s in best else 0 for s in range(n)], winner, share
    return [0] * n, -1, None


def _penalty_scores(hand, vals, name):
    """score per seat and winner for Drift and Loba (minus the penalty)."""
    r, n, out = hand.rules, hand.n, hand.turns.out_seat
    if name in ("out", "at_once"):
        bonus = r.at_once_bonus if name == "at_once" else 0
        return [bonus if s == out else -vals[s] for s in range(n)], out, None
    return [0] * n, -1, None


def _no_one_out_errors(hand, name) -> list[str]:
    """Is the trace's word for a hand nobody went out of one the rules allow here?"""
    r = hand.rules
    stock = hand.stock
    if name == "stock_out" and r.variant in POINTS_GAMES:
        if stock:
            return [f"stock_out with {stock} cards in the stock"]
        if r.restock != "block" and len(hand.restocks) < r.max_restocks:
            return [f"stock_out after {len(hand.restocks)} restocks, max_restocks {r.max_restocks}"]
        return []
    if name == "void" and r.variant not in POINTS_GAMES:
        return []   # stock and pile empty, or the turn limit
    if name == "turn_limit" and r.variant in POINTS_GAMES:
        return []
    return [f"outcome {name} for a hand nobody went out of"]


def expected_columns(hand, name) -> dict:
    vals = [hand.rules.values.total(h.elements()) for h in hand.hands]
    fn = _points_scores if hand.rules.variant in POINTS_GAMES else _penalty_scores
    scores, winner, points = fn(hand, vals, name)
    out = hand.turns.out_seat
    cols = {f"score{s}": v for s, v in enumerate(scores)}
    cols.update({f"deadwood{s}": v for s, v in enumerate(vals)})
    cols.update(dealer=hand.dealer, stock_left=hand.stock, turns=hand.turn,
                restocks=len(hand.restocks), out_turn=-1 if out is None else hand.own_turns[out])
    if winner is not None:
        cols["winner"] = winner
    if points is not None:
        cols["points"] = points
    if out is not None:
        cols["ender"] = out
    if hand.rules.variant == "loba":
        cols["at_once"] = int(name == "at_once")
    if hand.rules.variant == "wrotham":
        cols["deal"] = wrotham_deal(hand.hand.start.get("rules", {}), int(hand.hand.start.get("hand", 0)))
    return cols


def settle_errors(hand, ev) -> list[str]:
    """Every outcome column of ``ev`` (the outcome line) the rules disagree with."""
    got, name = ev.get("outcome", {}), ev.get("outcome_name")
    errors = []
    end_name = (hand.ended or {}).get("outcome_name", name)
    if end_name != name:
        errors.append(f"end says {end_name}, outcome says {name}")
    want_name = outcome_name(hand)
    if want_name is None:
        errors += _no_one_out_errors(hand, name)
    elif want_name != name:
        errors.append(f"outcome {name}, the rules say {want_name}")
    want = expected_columns(hand, want_name or name)
    columns = hand.hand.start.get("columns", list(got))
    for col in columns:
        if col in want and col in got and got[col] != want[col]:
            errors.append(f"{col} = {got[col]}, the rules give {want[col]}")
    missing = [c for c in columns if c not in got]
    if missing:
        errors.append(f"outcome lacks columns {missing}")
    return [f"settlement: {e}" for e in errors]
