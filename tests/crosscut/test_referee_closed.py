"""The referee of the closed-hand games (tests/support/referee/, written from the rules files, importing
nothing from sim/) on real `rummylab trace --json` streams of gin, tonk, knock-rummy,
ramino-klop, wildcard and cincinnati, and on small hand-made traces; the mutation checks flip
one rule in the referee and expect it to object to the real traces."""

from __future__ import annotations

import json

import pytest
from tests.support.referee.cards import MeldRules, meld_ok, run_ok_in_order, standard_pack
from tests.support.referee.closed import referee
from tests.support.referee.core import read_hands
from tests.support.referee.search import Arranger, Values

from analysis.trace_cmd import trace_stream
from sim.runner import make_spec
from sim.variants import get_variant


def configs(table: str) -> list[tuple[str, int, str, int, tuple[str, ...]]]:
    """``(variant, players, strategies, hands, rule options)`` from the rows of ``table``
    (columns split by spaces, a row continued after a backslash; ``#`` lines are comments)."""
    rows = [line.split() for line in table.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(v, int(players), strategies, int(hands), tuple(rules)) for v, players, strategies, hands, *rules in rows]


CONFIGS = configs("""
    # each game at its default and its largest table, mixed strategies (`rummylab strategies`);
    # gin is two-handed, so it plays two mixes
    # variant     players strategies                                                       hands
    gin           2       simple,patient                                                   200
    gin           2       tracker,random                                                   120
    knock-rummy   2       strong,rummy-hunter                                              250
    knock-rummy   5       simple,strong,random,rummy-hunter,simple                         200
    tonk          2       simple,hold                                                      250
    tonk          6       careful,drop,simple,hold,random,simple                           200
    ramino-klop   4       simple,strong,random,strong                                      200
    ramino-klop   6       simple,strong,random,simple,strong,simple                        150
    wildcard      4       simple,strong,keep-wilds,discard-wilds-late                      150
    wildcard      7       simple,strong,keep-wilds,random,discard-wilds-late,simple,strong 80
    cincinnati    4       simple,strong,random,strong                                      150
    cincinnati    7       simple,strong,random,simple,strong,simple,strong                 80
    # rule options away from their defaults, as the engine plays them (after the hands)
    gin           2       simple,gin-hunter                 120  oklahoma=on big_gin=on layoff_mode=seed \
                                                                 undercut_on_tie=off discard_stock_draw=on
    gin           2       gin-hunter,openspiel-simple       150  openspiel_wall=on void_stock_left=10
    knock-rummy   3       simple,strong,rummy-hunter        200  settle=pairwise stock_out=showdown
    tonk          3       simple,careful,drop               150  must_spread=on no_upcard=on knocker_tie_paid=on \
                                                                 tonk_out_needs_new_spread=on tonk_deal_min=50
    ramino-klop   3       simple,strong,random              100  set_duplicates=on knock_below=10
    wildcard      4       simple,strong,random,keep-wilds   60   packs=2
    cincinnati    3       simple,strong,random              80   deal_3p=10 restock_shuffle=on
    # random play: long hands that turn the discard pile over
    ramino-klop   3       random                                                           30
    wildcard      2       random                                                           50
""") + [
    # Neller's EAAI framework: its rules and SimpleGinRummyPlayer (random ties and arrangements)
    ("gin", 2, "eaai-simple,simple", 200, tuple(get_variant("gin").rules_with_set("eaai"))),
    # and MARJJ's policy against it there (its arrangements chosen by what it has seen)
    ("gin", 2, "marjj,eaai-simple", 150, tuple(get_variant("gin").rules_with_set("eaai"))),
]

SEED = 18
_TRACES: dict = {}


def trace_lines(variant: str, players: int, strategies: str, hands: int, rules=()) -> list[str]:
    """The JSON lines of `rummylab trace --json --hands 0..hands-1` (in process)."""
    key = (variant, players, strategies, hands, rules)
    if key not in _TRACES:
        spec = make_spec(variant, rules=list(rules), strategies=strategies, n=hands, seed=SEED,
                         players=players)
        _TRACES[key] = [json.dumps(e) for events in trace_stream(spec, range(hands)) for e in events]
    return _TRACES[key]


OLD_RESTOCK = "restock keeps the top discard"


def config(variant: str, players: int):
    return next(c for c in CONFIGS if c[:2] == (variant, players) and not c[4]
                and c[2] != "random")


@pytest.mark.slow
@pytest.mark.parametrize("variant,players,strategies,hands,rules", CONFIGS,
                         ids=[f"{c[0]}-{c[1]}p-{(c[2].split(',') * 2)[1]}{'-options' if c[4] else ''}"
                              for c in CONFIGS])
def test_real_traces_have_no_mismatch(variant, players, strategies, hands, rules):
    lines = trace_lines(variant, players, strategies, hands, rules)
    assert len(read_hands(lines)) == hands
    mismatches = referee(lines)
    assert mismatches == [], "\n".join(map(str, mismatches[:20]))


def test_restock_rule_is_refereed():
    """The restock rule is refereed: with the old reading (the top discard kept back, the engine's
    behaviour before issue 18's fix) flipped into the referee, the real restocks are reported."""
    hands = read_hands(trace_lines(*config("cincinnati", 4)))[:FLIP_HANDS]
    assert any(OLD_RESTOCK in m.what for m in referee(hands, {"restock_keep_top": True}))


def test_tonk_spread_hit_in_the_same_play_is_traced_once():
    """Seat 4 lays down 7D 8D 9D and hits TD on it in one play: the trace used to list the
    spread with TD and the hit again (TD twice, 53 cards)."""
    spec = make_spec("tonk", rules=[], strategies="simple", n=745, seed=31, players=6)
    lines = [json.dumps(e) for events in trace_stream(spec, range(744, 745)) for e in events]
    assert any('"lay_off"' in line and '"TD"' in line for line in lines)
    assert referee(lines) == []


# one rule flipped in the referee: it must then object to real traces (its first hands)
FLIP_HANDS = 100
FLIPS = [
    ("ramino-klop", 4, {"ace_high": True}),          # rules/ramino.md: aces low
    ("ramino-klop", 6, {"joker_value": 25}),          # jokers 20
    ("gin", 2, {"gin_bonus": 20}),                    # the start line says 25
    ("gin", 2, {"knock_limit": 9}),
    ("knock-rummy", 5, {"knocker_penalty": 0}),
    ("tonk", 6, {"knocker_tie_paid": True}),
    ("tonk", 2, {"stockout_laydown": False}),
    ("wildcard", 4, {"wild_twos": False}),            # rules/wildcard_rummy.md: 2s are wild
    ("cincinnati", 4, {"joker_value": 25}),           # jokers 15
]


@pytest.mark.slow
@pytest.mark.parametrize("variant,players,flip", FLIPS, ids=[f"{f[0]}-{next(iter(f[2]))}" for f in FLIPS])
def test_flipped_rule_is_reported(variant, players, flip):
    hands = read_hands(trace_lines(*config(variant, players)))[:FLIP_HANDS]
    assert referee(hands, flip), f"{flip} in the referee found nothing wrong"


# ---- hand-made traces ---------------------------------------------------------------------

class Trace:
    """A small hand written event by event, as `trace --json` writes one."""

    def __init__(self, variant, players, rules, dealer, columns, pack):
        self.lines = [dict(hand=0, turn=0, seat=-1, event="start", cards=[], variant=variant,
                           players=players, rules=rules, strategies=["simple"] * players, seed=1,
                           dealer=dealer, columns=columns, pack=dict(pack))]

    def ev(self, turn, seat, event, cards=(), **more):
        self.lines.append(dict(hand=0, turn=turn, seat=seat, event=event, cards=list(cards), **more))
        return self

    def outcome(self, name, row):
        self.ev(0, -1, "outcome", outcome=row, outcome_name=name)
        return [json.dumps(e) for e in self.lines]


GIN_RULES = dict(knock_limit=10, gin_bonus=25, undercut_bonus=25, first_upcard_offer=True,
                 discard_stock_draw=False, void_stock_left=2, oklahoma=False, big_gin=False,
                 big_gin_bonus=31, undercut_on_tie=True, openspiel_wall=False, layoff_mode="joint")
GIN_COLUMNS = ["dealer", "ender", "outcome", "turns", "stock_left", "score0", "score1",
               "deadwood0", "deadwood1", "winner", "points", "knock_deadwood", "knock_turn"]
KNOCKER = "AS 2S 3S 4H 5H 6H 7C 7D 7S KD".split()      # melds A-2-3S, 4-5-6H, 7s; KD
DEFENDER = "7H 8H 4S 3C 4C 5C 9D JD QD KC".split()     # lays off 7H 8H (chained) and 4S


def gin_hand(knock_card="2C", **row):
    """Seat 1 takes the upcard 2C, discards KD and knocks with 2; seat 0 lays off 7H, 8H, 4S
    and keeps 9D JD QD KC (39): seat 1 wins 37."""
    t = Trace("gin", 2, GIN_RULES, 0, GIN_COLUMNS, standard_pack())
    t.ev(0, 0, "deal", DEFENDER).ev(0, 1, "deal", KNOCKER).ev(0, -1, "upcard", [knock_card])
    t.ev(1, 1, "take", [knock_card]).ev(1, 1, "discard", ["KD"], deadwood=2)
    t.ev(1, 1, "knock", [], deadwood=2).ev(1, 1, "end", [], outcome_name="knock")
    full = dict(dealer=0, ender=1, outcome=0, turns=1, stock_left=31, score0=-37, score1=37,
                deadwood0=39, deadwood1=2, winner=1, points=37, knock_deadwood=2, knock_turn=1)
    full.update(row)
    return t.outcome("knock", full)


def test_hand_made_gin_knock_with_chained_layoffs_is_right():
    assert referee(gin_hand()) == []


@pytest.mark.parametrize("row,what", [
    (dict(points=38, score1=38, score0=-38), "column points"),
    (dict(deadwood0=58), "column deadwood0"),               # lay-offs ignored
    (dict(stock_left=30), "column stock_left"),
    (dict(knock_turn=2), "column knock_turn"),
])
def test_hand_made_gin_wrong_row_is_reported(row, what):
    assert what in {m.what for m in referee(gin_hand(**row))}


def test_gin_flips_change_the_verdict():
    lines = gin_hand()
    assert any("knocks" in m.what for m in referee(lines, {"knock_limit": 1}))
    assert referee(lines, {"layoff_mode": "seed"}) == []       # the lay-offs are all deadwood
    assert any(m.what == "column points" for m in referee(lines, {"run_max": 3}))   # 7H, 8H stay


def test_walker_catches_cards_out_of_nowhere():
    t = Trace("gin", 2, GIN_RULES, 0, GIN_COLUMNS, standard_pack())
    t.ev(0, 0, "deal", DEFENDER).ev(0, 1, "deal", KNOCKER).ev(0, -1, "upcard", ["2C"])
    t.ev(1, 1, "draw", ["7H"])                                 # 7H is in seat 0's hand
    t.ev(1, 1, "discard", ["2C"])                               # 2C is the pile's top, not held
    whats = " / ".join(f"{m.what}: {m.got}" for m in referee(t.outcome("knock", {})))
    assert "draws 7H" in whats and "discards 2C" in whats and "outcome" in whats


def test_walker_catches_a_take_that_is_not_the_top_and_a_taken_card_discarded():
    t = Trace("gin", 2, GIN_RULES, 0, GIN_COLUMNS, standard_pack())
    t.ev(0, 0, "deal", DEFENDER).ev(0, 1, "deal", KNOCKER).ev(0, -1, "upcard", ["2C"])
    t.ev(1, 1, "take", ["3D"]).ev(1, 1, "take", ["2C"]).ev(1, 1, "discard", ["2C"])
    whats = {m.what for m in referee(t.outcome("knock", {}))}
    assert "seat 1 takes from the pile" in whats
    assert "turn 1: seat 1 discards the card taken from the pile" in whats


TONK_RULES = dict(tonk_deal_min=49, tonk_tie_new_dealer=True, no_upcard=False, must_spread=False,
                  tonk_out_needs_new_spread=False, stockout_laydown=True, knocker_tie_paid=False)
TONK_COLUMNS = ["dealer", "ender", "outcome", "turns", "stock_left", "score0", "score1",
                "score2", "deadwood0", "deadwood1", "deadwood2", "knock_count", "knock_turn",
                "n_spreads", "deal_tonks", "redeals"]


@pytest.mark.parametrize("third,name,scores", [
    ("AH 2H 3C 4C 9D", "knock_won", (-1, 2, -1)),     # 19: the dropper's 15 is strictly lowest
    ("AH 2H 3C 4S 5H", "knock_caught", (-1, -3, 4)),  # 15: caught; pays 2 to seat 2, which
])                                                    # also gets 1 from each other seat
def test_hand_made_tonk_drop(third, name, scores):
    """Seat 1 (left of dealer 0) drops at once with 15; seat 0 holds 41."""
    t = Trace("tonk", 3, TONK_RULES, 0, TONK_COLUMNS, standard_pack())
    t.ev(0, 0, "deal", "KS QS 6S 7C 8C".split()).ev(0, 1, "deal", "AS 2S 3H 4D 5C".split())
    t.ev(0, 2, "deal", third.split()).ev(0, -1, "upcard", ["TD"])
    t.ev(1, 1, "drop", [], deadwood=15).ev(1, 1, "end", [], outcome_name=name)
    row = dict(dealer=0, ender=1, outcome=4 if name == "knock_won" else 5, turns=1, stock_left=36,
               score0=scores[0], score1=scores[1], score2=scores[2], deadwood0=41, deadwood1=15,
               deadwood2=15 if name == "knock_caught" else 19, knock_count=15, knock_turn=1,
               n_spreads=0, deal_tonks=0, redeals=0)
    lines = t.outcome(name, row)
    assert referee(lines) == []
    tie_paid = referee(lines, {"knocker_tie_paid": True})     # a knocker tied for lowest paid
    assert (tie_paid == []) == (name == "knock_won")


def test_meld_rules_from_the_rules_files():
    ramino = MeldRules(set_max=4, run_max=4)
    assert meld_ok(["AS", "2S", "3S"], ramino) and not meld_ok(["QS", "KS", "AS"], ramino)
    assert not meld_ok(["3S", "4S", "5S", "6S", "7S"], ramino)          # never more than 4
    assert meld_ok(["7S", "7H", "X", "X"], ramino) and not meld_ok(["X", "X", "X"], ramino)
    assert not meld_ok(["7S", "7S", "7H"], ramino)                        # set_duplicates off
    assert meld_ok(["7S", "7S", "7H"], MeldRules(set_max=4, run_max=4, set_per_suit=2))
    cincinnati = MeldRules(ace_high=True, jokers_wild=True)
    assert meld_ok(["QH", "KH", "AH"], cincinnati) and meld_ok(["AH", "2H", "3H"], cincinnati)
    assert not meld_ok(["KH", "AH", "2H"], cincinnati)                    # round the corner
    assert run_ok_in_order(["QH", "X", "AH"], cincinnati)
    assert not run_ok_in_order(["X", "QH", "AH"], cincinnati)
    wildcard = MeldRules(ace_high=True, wild_ranks=frozenset({2}))
    assert meld_ok(["KH", "AH", "2S"], wildcard)                          # the 2 as a queen


def test_min_deadwood_is_exact_on_known_hands():
    gin = Arranger(MeldRules(jokers_wild=False), Values())
    assert gin.min_deadwood("5S 6S 7S 8S 7H 7D 7C".split()) == 0        # 5-8S and 7H 7D 7C
    assert gin.min_deadwood("5S 6S 7S 7H 7D".split()) == 11              # the set, not the run
    ramino = Arranger(MeldRules(set_max=4, run_max=4), Values(joker=20))
    assert ramino.min_deadwood("X 5H 7H KS".split()) == 10               # 5H X 7H; KS
    assert ramino.min_deadwood("X X KS".split()) == 0                    # KS X X
