"""Hand-written traces of the open-melding games for the referee's own tests (schema:
``notes/TRACE_SCHEMA.md``; every card, table and score worked out by hand from ``rules/``)."""

from __future__ import annotations

import copy

from .cards import standard_pack

BASIC_RULES = {"players": 2, "multiple_melds": True, "last_card_must_be_discarded": False,
               "rummy_bonus": "double", "ace_high_or_low": False, "round_the_corner": False,
               "layoff_requires_own_meld": False, "restock": "turn_over", "max_restocks": 2,
               "penalty_scoring": False}


def _e(turn, seat, event, cards=(), **more):
    return {"hand": 0, "turn": turn, "seat": seat, "event": event, "cards": list(cards), **more}


def _columns(n, extra):
    return (["dealer", "ender", "outcome", "turns", "stock_left"] + [f"score{s}" for s in range(n)]
            + [f"deadwood{s}" for s in range(n)] + list(extra))


def basic_hand() -> list[dict]:
    """Basic Rummy, 2 players, dealer 1: seat 0 melds A-2-3 of spades and three 5s, seat 1 takes
    the KD, melds 2-3-4 of hearts and lays the 4S off at the top of the spades; seat 0 melds
    9-10-J-Q of clubs and goes out discarding the 4C (not rummy: it melded before).  Seat 1
    keeps 8S 8D 9D TD 7C KD = 52 points, all to seat 0."""
    t0 = [["AS", "2S", "3S"]]
    t1 = t0 + [["5H", "5D", "5C"]]
    t2 = t1 + [["2H", "3H", "4H"]]
    t3 = [["AS", "2S", "3S", "4S"]] + t2[1:]
    t4 = t3 + [["9C", "TC", "JC", "QC"]]
    out = dict(dealer=1, ender=0, outcome=0, turns=3, stock_left=29, score0=52, score1=0,
               deadwood0=0, deadwood1=52, winner=0, points=52, out_turn=2, restocks=0)
    return [
        _e(0, -1, "start", variant="basic-rummy", players=2, rules=BASIC_RULES, seed=1, dealer=1,
           strategies=["simple", "simple"], pack=dict(standard_pack()),
           columns=_columns(2, ["winner", "points", "out_turn", "restocks"])),
        _e(0, 0, "deal", "AS 2S 3S 5H 5D 5C 9C TC JC KD".split()),
        _e(0, 1, "deal", "2H 3H 4H 8S 8D 9D TD 7C 6C 4S".split()),
        _e(0, -1, "upcard", ["QD"]),
        _e(1, 0, "draw", ["4C"]), _e(1, 0, "meld", t0[0], table=t0),
        _e(1, 0, "meld", t1[1], table=t1), _e(1, 0, "discard", ["KD"]),
        _e(2, 1, "take", ["KD"]), _e(2, 1, "meld", t2[2], table=t2),
        _e(2, 1, "lay_off", ["4S"], meld=0, table=t3), _e(2, 1, "discard", ["6C"]),
        _e(3, 0, "draw", ["QC"]), _e(3, 0, "meld", t4[3], table=t4),
        _e(3, 0, "discard", ["4C"]), _e(3, 0, "end", outcome_name="out"),
        _e(3, -1, "outcome", outcome=out, outcome_name="out"),
    ]


LOBA_RULES = {"players": 2, "joker_penalty": 25, "last_card_must_be_discarded": False,
              "restock_shuffle": False, "penalty_limit": 100, "buybacks": 2}


def loba_hand(above_king: bool) -> list[dict]:
    """Loba, 2 players, dealer 1 (after the example of issue 18): seat 0 lays down
    ``9C X JC QC X`` (the jokers as TC and KC) and discards; seat 1 draws and discards; seat 0
    draws the KC and plays it in the joker's place: the legal move sends that joker to the low
    end (the 8C place: ``X 9C X JC QC KC``); ``above_king`` has it stand above the King instead
    (``9C X JC QC KC X``).  Seat 0 then lays down the pierna 5S 5H 5D and goes out discarding
    the 9H (not at once: it melded before).  Seat 1 keeps 2S 3S 4D 6D 7D 8H 9S TH JD:
    2+3+4+6+7+8+9+10+10 = 59 penalty points."""
    run = ["9C", "X", "JC", "QC", "X"]
    moved = ["9C", "X", "JC", "QC", "KC", "X"] if above_king else ["X", "9C", "X", "JC", "QC", "KC"]
    cols = _columns(2, ["winner", "out_turn", "at_once", "restocks"])
    out = dict(dealer=1, ender=0, outcome=0, turns=3, stock_left=108 - 18 - 1 - 3, score0=0,
               score1=-59, deadwood0=0, deadwood1=59, winner=0, out_turn=2, at_once=0, restocks=0)
    return [
        _e(0, -1, "start", variant="loba", players=2, rules=LOBA_RULES, seed=1, dealer=1,
           strategies=["simple", "simple"], pack=dict(standard_pack(2, 4)), columns=cols),
        _e(0, 0, "deal", "9C JC X X 5S 5H 5D 9H 2H".split()),
        _e(0, 1, "deal", "2S 3S 4D 6D 7D 8H 9S TH AC".split()),
        _e(0, -1, "upcard", ["2D"]),
        _e(1, 0, "draw", ["QC"]), _e(1, 0, "meld", run, meld=0, table=[run]),
        _e(1, 0, "discard", ["2H"]),
        _e(2, 1, "draw", ["JD"]), _e(2, 1, "discard", ["AC"]),
        _e(3, 0, "draw", ["KC"]),
        _e(3, 0, "move", [], meld=0, fill=["KC"], to="high" if above_king else "low",
           table=[moved]),
        _e(3, 0, "meld", ["5S", "5H", "5D"], meld=1, table=[moved, ["5S", "5H", "5D"]]),
        _e(3, 0, "discard", ["9H"]), _e(3, 0, "end", outcome_name="out"),
        _e(3, -1, "outcome", outcome=out, outcome_name="out"),
    ]


def edited(events: list[dict], index: int, **changes) -> list[dict]:
    """A copy of ``events`` with event ``index`` changed (keys set, or removed when None)."""
    out = copy.deepcopy(events)
    for k, v in changes.items():
        if v is None:
            out[index].pop(k, None)
        else:
            out[index][k] = v
    return out
