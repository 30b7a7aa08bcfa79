"""The hand advisor: "should I knock here?" for Gin Rummy and Tonk.

Given a concrete position, :func:`advise` samples *worlds*, each a uniformly random way the
cards I cannot see may lie (the opponents' hands, the stock, the buried discards), and scores
both choices on the same world (common random numbers; kernels in :mod:`sim.advice`):

* **knock now** (Gin: knock with this hand, scored by the Gin showdown with layoffs, gin and
  undercut bonuses; Tonk: drop at the start of my turn, paid by the Tonk knock rule);
* **play on** (Gin: discard and let the opponent move; Tonk: draw) with my strategy against the
  opponents' strategies until the hand ends (a void Gin hand scores 0).

It reports the expected points (Gin) or stakes (Tonk) of both, the paired difference
knock - play on with its 95% t interval, the probability of winning the hand with each (Wilson
intervals) and a recommendation: ``knock`` when the 95% CI of the difference lies above 0,
``play on`` when below, else ``too close to call``.  Sampling runs in batches of
:data:`BATCH` worlds until, after at least ``min_worlds``, the CI excludes 0 (or every world
gave the same result for both choices), or the time budget / ``max_worlds`` is reached.
``worlds=N`` samples exactly N worlds instead.  World ``w`` depends only on (inputs, seed, w):
a run that stops on the CI, on ``max_worlds`` or on ``worlds`` is reproducible; one that stops
on the time budget may use a different number of the same worlds on another machine.
The CI is looked at after every batch, so with a true difference of about zero the advisor
says ``knock``/``play on`` somewhat more often than 5% of the time; the one-sided confidence
shows how clear-cut the call is.

Modelling assumptions (stated in the output notes when they apply):

* Opponent model ``uniform`` (default): unseen cards are uniformly distributed; the
  opponents' earlier turns are not used to bias their hands.  Such hands are much weaker
  than real ones (a random 10-card Gin hand has deadwood ~57 on average, a hand after 8
  stock draws with the ``simple`` discard rule ~21), so knocking looks better than it is,
  more so the later the turn.  ``played`` (Gin only so far): the uniformly dealt hand is
  replayed through the opponent's ``turn - 1`` turns (each draws an unseen card, the
  opponent's strategy discards, the discard becomes a buried card), and worlds in which the
  opponent would already have knocked are redrawn.
* **Gin.** I am seat 0 and the non-dealer; ``turn`` is my own turn number (1-based) and the
  position is *after my draw and discard*: the 10 cards kept (11 cards: the advisor picks the
  exact best discard, highest card on ties, and plays it).  The top of the discard pile when
  the opponent moves is ``upcard`` (my discard; with 11 cards the chosen discard, and an
  ``upcard`` given as well is the card under it); not given: drawn from the unseen cards.
  Stock after my draw, default: ``31 - 2*turn + 1`` (both players always drew from the stock)
  clipped to at least ``void_stock_left + 1`` (3 by default) and to the cards available;
  ``stock=`` overrides it within ``[max(void_stock_left, 31 - 2*turn), 31]``.  Oklahoma:
  the knock limit is the value of the *first* upcard of the hand (``first_upcard``).
* **Tonk.** I am seat 0, the first to play in each round (left of the dealer); seats 1..n-1
  follow in playing order and have had ``turn - 1`` turns each.  The knock (drop) is at the
  start of my turn, before drawing - the only moment the rules allow it.  Spreads are given
  as cards, optionally with their owner seat (``"2:7S 7H 7D"``; default me): owners are
  informational (anyone may hit any spread; payouts do not depend on them).  ``opp_cards``:
  cards held per opponent (default 5).  Stock default: the cards left after the deal minus
  one draw per turn begun before mine, clipped to the cards available.
"""

from __future__ import annotations

# numba modules (sim.advice, sim.melds, the variants) are imported inside the functions, so
# building the CLI parser stays fast
import argparse
import json
import math
import sys
import textwrap
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analysis.stats import Estimate, mean_from_moments, t_quantile, wilson
from sim.cards import (
    CardError,
    card_text,
    cards_text,
    parse_cards,
    standard_pack,
    to_mask,
    value_table,
)
from sim.errors import UserInputError
from sim.rules import RulesBase
from sim.strategies import parse_strategy, split_specs, strategy_matrix

BATCH = 2000
VARIANTS = ("gin", "tonk")
RECOMMENDATIONS = ("knock", "play on", "too close to call")
OPP_MODELS = ("uniform", "played")

__all__ = ["Advice", "AdviceError", "advise", "format_advice", "add_parser", "cmd", "BATCH"]


class AdviceError(UserInputError):
    """A position the advisor cannot evaluate (illegal knock, impossible stock, ...)."""


@dataclass(frozen=True)
class Advice:
    variant: str
    unit: str                       # "points" (Gin) or "stakes" (Tonk)
    hand: tuple[str, ...]           # the hand evaluated (Gin with 11 cards: after the discard)
    hand_score: int                 # Gin: deadwood; Tonk: count
    knock_limit: int | None         # Gin only
    discard: str | None             # Gin with 11 cards: the discard chosen
    turn: int
    stock: int
    players: int
    upcard: str | None              # None: drawn from the unseen cards in every world
    ev_knock: Estimate
    ev_play: Estimate
    diff: Estimate                  # paired, knock minus play on
    win_knock: Estimate
    win_play: Estimate
    p_knock_better: float           # one-sided, normal approximation of the paired mean
    recommendation: str
    confidence: str
    stopped: str                    # "ci", "no difference", "budget", "max_worlds", "worlds"
    worlds: int
    elapsed: float                  # sampling seconds (compile / cache load apart)
    compile_s: float
    seed: int
    strategy: str
    opponent: str
    opp_model: str
    rules: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        d = {}
        for k, v in self.__dict__.items():
            if isinstance(v, Estimate):
                d[k] = v.as_dict()
            elif isinstance(v, tuple):
                d[k] = list(v)
            else:
                d[k] = v
        return d


# ----------------------------------------------------------------------------------------
# input helpers

def _cards(text, what: str) -> np.ndarray:
    if isinstance(text, (int, np.integer)):
        text = [int(text)]
    try:
        return parse_cards(text)
    except CardError as e:
        raise CardError(f"{what}: {e}") from None


def _no_overlap(groups: list[tuple[str, np.ndarray]]) -> None:
    where: dict[int, str] = {}
    for name, codes in groups:
        for c in codes:
            c = int(c)
            if c in where:
                raise CardError(f"card {card_text(c)} is both {where[c]} and {name}: "
                                "each card can be in one place only")
            where[c] = name


def _rules(cls, rules, **fixed) -> RulesBase:
    if isinstance(rules, RulesBase):
        if not isinstance(rules, cls):
            raise AdviceError(f"rules {type(rules).__name__} do not belong to this variant ({cls.__name__})")
        return rules
    return cls.from_options(rules, **fixed)


def _pool(exclude: np.ndarray) -> np.ndarray:
    ex = set(int(c) for c in exclude)
    return np.array([c for c in standard_pack() if int(c) not in ex], dtype=np.int64)


def _spread_entries(spreads, players: int) -> list[tuple[int, str]]:
    out = []
    for sp in spreads:
        if isinstance(sp, str):
            owner, text = 0, sp
            if ":" in sp:
                head, text = sp.split(":", 1)
                try:
                    owner = int(head)
                except ValueError:
                    raise AdviceError(f"spread {sp!r}: write 'SEAT:cards' with SEAT a number "
                                      "(0 = you, 1.. = the opponents in playing order)") from None
        else:
            owner, text = sp
        if not 0 <= int(owner) < players:
            raise AdviceError(f"spread {text!r}: seat {owner} is not at this table (seats 0 = you, "
                              f"1..{players - 1} = the opponents in playing order)")
        out.append((int(owner), text))
    return out


# ----------------------------------------------------------------------------------------
# sampling

def _sample(call: Callable[[int, int], np.ndarray], *, budget_s: float, min_worlds: int,
            max_worlds: int, worlds: int | None):
    """Run batches of ``call(first_world, n)`` (rows: knock pts, play pts, knock win, play
    win) and return exact moments, counts and timing."""
    from sim import advice as K
    t0 = time.perf_counter()
    call(0, 0)  # compile or load the kernel from the numba cache
    compile_s = time.perf_counter() - t0
    target = worlds if worlds is not None else max_worlds
    n = 0
    s = {"a": 0, "aa": 0, "b": 0, "bb": 0, "d": 0, "dd": 0, "wa": 0, "wb": 0}
    stopped = "worlds" if worlds is not None else "max_worlds"
    t0 = time.perf_counter()
    while n < target:
        k = min(BATCH, target - n)
        out = call(n, k)
        a, b = out[:, K.K_PTS], out[:, K.P_PTS]
        d = a - b
        s["a"] += int(a.sum())
        s["aa"] += int((a * a).sum())
        s["b"] += int(b.sum())
        s["bb"] += int((b * b).sum())
        s["d"] += int(d.sum())
        s["dd"] += int((d * d).sum())
        s["wa"] += int(out[:, K.K_WIN].sum())
        s["wb"] += int(out[:, K.P_WIN].sum())
        n += k
        if worlds is not None or n >= target:
            continue
        if n >= min_worlds:
            est = mean_from_moments(n, s["d"], s["dd"])
            if est.lo > 0 or est.hi < 0:
                stopped = "ci"
                break
            if n * s["dd"] == s["d"] * s["d"]:  # every world: the same difference
                stopped = "no difference"
                break
            if time.perf_counter() - t0 >= budget_s:
                stopped = "budget"
                break
    return s, n, time.perf_counter() - t0, compile_s, stopped


def _verdict(s: dict, n: int, unit: str, stopped: str):
    ev_k = mean_from_moments(n, s["a"], s["aa"])
    ev_p = mean_from_moments(n, s["b"], s["bb"])
    diff = mean_from_moments(n, s["d"], s["dd"])
    se = (diff.hi - diff.value) / t_quantile(n - 1) if n > 1 else math.inf
    if 0 < se < math.inf:
        p = 0.5 * math.erfc(-diff.value / se / math.sqrt(2))
    else:
        p = 0.5 if se == math.inf or diff.value == 0 else float(diff.value > 0)
    if diff.lo > 0:
        rec = "knock"
    elif diff.hi < 0:
        rec = "play on"
    else:
        rec = "too close to call"
    if rec == "too close to call":
        if stopped == "no difference":
            conf = f"both choices gave the same result in all {n:,} worlds"
        else:
            conf = (f"the 95% CI of knock - play on, [{diff.lo:+.3f}, {diff.hi:+.3f}] {unit}, "
                    f"includes 0 after {n:,} worlds")
    else:
        better = p if rec == "knock" else 1 - p
        conf = (f"the 95% CI of knock - play on, [{diff.lo:+.3f}, {diff.hi:+.3f}] {unit}, "
                f"excludes 0; one-sided confidence that {rec} is better: {_pct(better)}")
    return ev_k, ev_p, diff, wilson(s["wa"], n), wilson(s["wb"], n), p, rec, conf


def _pct(p: float) -> str:
    if p > 0.9999:
        return "> 99.99%"
    if p < 0.0001:
        return "< 0.01%"
    return f"{100 * p:.2f}%"


# ----------------------------------------------------------------------------------------
# the advisor

def advise(variant: str, hand, *, turn: int, upcard=None, discards=(), spreads=(), players: int = 2,
           opponent: str = "simple", strategy: str = "simple", rules=None, stock: int | None = None,
           opp_cards=None, first_upcard=None, budget_s: float = 3.0, min_worlds: int = 2000,
           max_worlds: int = 2_000_000, worlds: int | None = None, seed: int = 0,
           opp_model: str | None = None, debug: bool = False) -> Advice:
    """Knock now or play on?  See the module docstring for the model and its assumptions.

    ``hand``/``upcard``/``discards``: card text or codes; ``spreads`` (Tonk): card texts
    (``"SEAT:cards"`` for another seat's) or ``(seat, cards)`` pairs; ``rules``: a rules
    object, a dict or ``["NAME=VALUE", ...]``; ``opponent``: one strategy spec, or (Tonk) one
    per opponent, comma separated; ``opp_cards`` (Tonk): an int for every opponent or one per
    opponent; ``first_upcard`` (Gin with oklahoma): the hand's first upcard; ``opp_model``:
    ``uniform`` or (Gin) ``played`` (see the module docstring).
    """
    key = str(variant).strip().lower()
    if key not in VARIANTS:
        raise AdviceError(f"the knock advisor knows {', '.join(VARIANTS)}, not {variant!r}")
    if isinstance(turn, bool) or not isinstance(turn, (int, np.integer)) or turn < 1:
        raise AdviceError(f"turn must be a whole number >= 1 (your own turn number), got {turn!r}")
    if not (budget_s > 0):
        raise AdviceError(f"the time budget must be > 0 seconds, got {budget_s!r}")
    if min_worlds < 1 or max_worlds < 1 or (worlds is not None and worlds < 1):
        raise AdviceError("min_worlds, max_worlds and worlds must be >= 1")
    if seed < 0:
        raise AdviceError(f"seed must be >= 0, got {seed}")
    if opp_model is None:  # Gin: a uniform 10-card hand is far weaker than a played one
        opp_model = "played" if key == "gin" else "uniform"
    if opp_model not in OPP_MODELS:
        raise AdviceError(f"opponent model {opp_model!r}: choose {' or '.join(OPP_MODELS)}")
    if opp_model == "played" and key != "gin":
        raise AdviceError("the 'played' opponent model exists for gin only so far: use uniform")
    sample = dict(budget_s=float(budget_s), min_worlds=int(min_worlds),
                  max_worlds=max(int(max_worlds), int(min_worlds)),
                  worlds=None if worlds is None else int(worlds))
    fn = _advise_gin if key == "gin" else _advise_tonk
    return fn(hand, turn=int(turn), upcard=upcard, discards=discards, spreads=spreads,
              players=int(players), opponent=opponent, strategy=strategy, rules=rules,
              stock=stock, opp_cards=opp_cards, first_upcard=first_upcard, seed=int(seed),
              opp_model=opp_model, debug=bool(debug), sample=sample)


def _finish(*, variant, unit, s, n, elapsed, compile_s, stopped, **kw) -> Advice:
    ev_k, ev_p, diff, wk, wp, p, rec, conf = _verdict(s, n, unit, stopped)
    if stopped == "budget" and rec == "too close to call":
        conf += " (time budget reached: a longer --budget may separate them)"
    return Advice(variant=variant, unit=unit, ev_knock=ev_k, ev_play=ev_p, diff=diff, win_knock=wk,
                  win_play=wp, p_knock_better=p, recommendation=rec, confidence=conf,
                  stopped=stopped, worlds=n, elapsed=elapsed, compile_s=compile_s, **kw)


def _advise_gin(hand, *, turn, upcard, discards, spreads, players, opponent, strategy, rules,
                stock, opp_cards, first_upcard, seed, opp_model, debug, sample) -> Advice:
    from sim import advice as K
    from sim.melds import best_discard, min_deadwood
    from sim.variants import gin as G
    if players != 2:
        raise AdviceError(f"gin is played by exactly 2 players, not {players} (drop --players)")
    if spreads:
        raise AdviceError("gin has no spreads on the table before a knock: drop --spread")
    if opp_cards not in (None, G.HAND):
        raise AdviceError(f"the gin opponent holds {G.HAND} cards: drop --opp-cards")
    r = _rules(G.GinRules, rules)
    notes: list[str] = []
    h = _cards(hand, "hand")
    if h.size not in (G.HAND, G.HAND + 1):
        raise AdviceError(f"a gin hand has {G.HAND} cards (the hand you keep after discarding) or "
                          f"{G.HAND + 1} (before discarding: the advisor picks the best discard); "
                          f"got {h.size}")
    up = _cards(upcard, "upcard") if upcard is not None else np.zeros(0, dtype=np.int64)
    if up.size > 1:
        raise AdviceError(f"upcard: give one card, got {up.size}")
    known = _cards(discards, "discards") if discards is not None else np.zeros(0, dtype=np.int64)
    _no_overlap([("in your hand", h), ("the upcard", up), ("in the discards", known)])
    # knock limit
    limit = r.knock_limit
    limit_name = "knock_limit"
    if r.oklahoma:
        if first_upcard is None:
            raise AdviceError("oklahoma sets the knock limit from the hand's first upcard: "
                              "give it with --first-upcard")
        fu = _cards(first_upcard, "first upcard")
        if fu.size != 1:
            raise AdviceError(f"first upcard: give one card, got {fu.size}")
        rank = int(fu[0]) & 15
        limit = 0 if rank == 0 else int(G._TABLES.rank_value[rank])
        limit_name = f"oklahoma, first upcard {card_text(int(fu[0]))}"
    # 11 cards: exact best discard (ties: the highest card, as the strategies do)
    discard = None
    big = False
    knock_cards = h
    if h.size == G.HAND + 1:
        bd = best_discard(h)
        discard = max(bd.discards, key=lambda c: (c & 15, c >> 4))
        dw11 = min_deadwood(h).deadwood
        if r.big_gin and dw11 == 0:
            big = True
            notes.append("11 melded cards: knocking now is big gin")
        keep = np.array([c for c in h if int(c) != discard], dtype=np.int64)
        notes.append(f"11 cards given: the exact best discard is {card_text(discard)} "
                     f"(deadwood {bd.deadwood} after it); playing on discards it face up")
        if up.size:
            notes.append(f"the upcard {card_text(int(up[0]))} given as well is taken to lie "
                         f"under {card_text(discard)}")
            known = np.concatenate([known, up])
        up = np.array([discard], dtype=np.int64)
        if not big:
            knock_cards = keep
        h = keep
    arr = min_deadwood(h)
    dw = arr.deadwood
    if not big and dw > limit:
        melds = "; ".join(cards_text(m) for m in arr.melds) or "none"
        raise AdviceError(
            f"cannot knock: the hand's deadwood is {dw} ({cards_text(arr.deadwood_cards)}; melds: "
            f"{melds}) and knocking needs deadwood <= {limit} ({limit_name}); keep playing")
    # stock after my draw
    lo = max(r.void_stock_left, 31 - 2 * turn)
    room = 31 - known.size           # 52 - 2 hands - the top discard - known discards
    if stock is None:
        st = max(32 - 2 * turn, r.void_stock_left + 1)
        if st > room:
            notes.append(f"stock clipped to {room}: only {room} unseen cards are left for it")
            st = room
        if st < r.void_stock_left:
            raise AdviceError(f"{known.size} known discards leave no room for a stock: give fewer --discards")
        stock_note = f"stock {st} after your draw (default for turn {turn}: both players drew from the stock)"
    else:
        st = int(stock)
        if not lo <= st <= 31:
            raise AdviceError(f"stock {st} is impossible on your turn {turn}: after your draw the "
                              f"stock holds {lo} to 31 cards")
        if st > room:
            raise AdviceError(f"stock {st} is impossible with {known.size} known discards: at most "
                              f"{room} unseen cards are left for the stock")
        stock_note = None
    if stock_note:
        notes.append(stock_note)
    if up.size == 0:
        notes.append("upcard not given: the card on top of the pile is drawn from the unseen cards")
    me = parse_strategy(strategy, "gin")
    opp = parse_strategy(opponent, "gin")
    smat = strategy_matrix([me, opp])
    pool = _pool(np.concatenate([h, up, known]))  # with 11 cards `up` is the discard
    upc = int(up[0]) if up.size else K.UP_SAMPLE
    rarr = r.to_array()
    hmask, kmask = to_mask(h), to_mask(knock_cards)
    history = turn - 1 if opp_model == "played" else 0
    if history:
        notes.append(f"opponent model 'played': its dealt hand was replayed through {history} "
                     "draws and discards by its strategy, without knocking")

    def call(first, n):
        return K.gin_rollouts(rarr, smat, hmask, pool, st, upc, known, turn, limit, seed, first, n,
                              knock_mask=kmask, big=big, history=history, debug=debug)

    s, n, el, comp, stopped = _sample(call, **sample)
    return _finish(variant="gin", unit="points", s=s, n=n, elapsed=el, compile_s=comp,
                   stopped=stopped, hand=tuple(card_text(int(c)) for c in h),
                   hand_score=int(dw), knock_limit=int(limit),
                   discard=None if discard is None else card_text(discard), turn=turn, stock=st,
                   players=2, upcard=card_text(upc) if upc >= 0 else None, seed=seed,
                   strategy=me.spec, opponent=opp.spec, opp_model=opp_model, rules=r.as_dict(),
                   notes=tuple(notes))


def _advise_tonk(hand, *, turn, upcard, discards, spreads, players, opponent, strategy, rules,
                 stock, opp_cards, first_upcard, seed, opp_model, debug, sample) -> Advice:
    from sim import advice as K
    from sim.variants import tonk as TK
    if not 2 <= players <= 6:
        raise AdviceError(f"tonk is played by 2 to 6 players, not {players} (set --players)")
    if first_upcard is not None:
        raise AdviceError("first upcard is a gin (oklahoma) option: drop --first-upcard")
    r = _rules(TK.TonkRules, rules, players=players)
    if r.players != players:
        raise AdviceError(f"rule players={r.players} contradicts players={players}: give the count once")
    notes: list[str] = []
    h = _cards(hand, "hand")
    if not 1 <= h.size <= TK.HAND_SIZE:
        raise AdviceError(f"a tonk hand holds 1 to {TK.HAND_SIZE} cards at the start of a turn, got {h.size}")
    n_opp = players - 1
    if opp_cards is None:
        oc = [TK.HAND_SIZE] * n_opp
    elif isinstance(opp_cards, (int, np.integer)):
        oc = [int(opp_cards)] * n_opp
    else:
        oc = [int(x) for x in opp_cards]
        if len(oc) == 1:
            oc = oc * n_opp
    if len(oc) != n_opp:
        raise AdviceError(f"{len(oc)} opponent card counts given for {n_opp} opponents: give one "
                          "for all or one per opponent")
    if any(not 1 <= x <= TK.HAND_SIZE for x in oc):
        raise AdviceError(f"an opponent holds 1 to {TK.HAND_SIZE} cards (with none the hand is over), "
                          f"got {', '.join(map(str, oc))}")
    up = _cards(upcard, "upcard") if upcard is not None else np.zeros(0, dtype=np.int64)
    if up.size > 1:
        raise AdviceError(f"upcard: give one card (the top of the discard pile), got {up.size}")
    known = _cards(discards, "discards") if discards is not None else np.zeros(0, dtype=np.int64)
    entries = _spread_entries(spreads, players)
    sp = []
    groups = [("in your hand", h), ("the upcard", up), ("in the discards", known)]
    for owner, text in entries:
        codes = _cards(text, f"spread {text!r}")
        m = to_mask(codes)
        kind = TK.BOOK if len({int(c) & 15 for c in codes}) == 1 else TK.RUN
        if not TK.is_legal_spread(kind, np.uint64(m)):
            raise AdviceError(f"spread {cards_text(codes)} is not a legal book (3-4 of a rank) or "
                              "run (3+ in suit, ace low)")
        sp.append((owner, kind, m))
        groups.append((f"in the spread {cards_text(codes)}", codes))
    _no_overlap(groups)
    if turn == 1 and (sp or known.size or h.size != TK.HAND_SIZE or any(x != TK.HAND_SIZE for x in oc)):
        raise AdviceError("on turn 1 nobody has played yet (you are the first to play): every hand "
                          "holds 5 cards and there are no spreads or buried discards")
    if r.no_upcard and turn == 1 and up.size:
        raise AdviceError("with no_upcard there is no discard pile on turn 1: drop --upcard")
    pool = _pool(np.concatenate([codes for _, codes in groups]))
    if up.size:
        upc = int(up[0])
    elif r.no_upcard and turn == 1:
        upc = K.UP_NONE
    else:
        upc = K.UP_SAMPLE
        notes.append("upcard not given: the top of the discard pile is drawn from the unseen cards")
    available = pool.size - sum(oc) - (1 if upc == K.UP_SAMPLE else 0)
    if available < 0:
        raise AdviceError(f"too many cards: the opponents' {sum(oc)} cards do not fit in the "
                          f"{pool.size} unseen cards")
    initial = 52 - TK.HAND_SIZE * players - (0 if r.no_upcard else 1)
    lo = max(0, initial - (turn - 1) * players)
    hi = initial
    if stock is None:
        st = min(lo, available)
        if st < lo:
            notes.append(f"stock clipped to {st}: only {available} unseen cards are left for it")
        else:
            notes.append(f"stock {st} (default for turn {turn}: every turn so far drew from the stock)")
    else:
        st = int(stock)
        if turn == 1 and st != initial:
            raise AdviceError(f"stock {st} is impossible on turn 1 with {players} players: it holds {initial}")
        if not lo <= st <= hi:
            raise AdviceError(f"stock {st} is impossible on your turn {turn} with {players} players: "
                              f"it holds {lo} to {hi} cards")
        if st > available:
            raise AdviceError(f"stock {st} is impossible: only {available} unseen cards are left for "
                              "it after the opponents' hands")
    if any(o != 0 for o, _, _ in sp):
        notes.append("spread owners are informational: anyone may hit any spread")
    notes.append("knock = drop at the start of your turn, before drawing")
    me = parse_strategy(strategy, "tonk")
    opp_specs = split_specs(opponent)
    if len(opp_specs) == 1:
        opp_specs = opp_specs * n_opp
    if len(opp_specs) != n_opp:
        raise AdviceError(f"{len(opp_specs)} opponent strategies given for {n_opp} opponents: give one "
                          "for all or one per opponent")
    opps = [parse_strategy(x, "tonk") for x in opp_specs]
    smat = strategy_matrix([me] + opps)
    rarr = r.to_array()
    hmask = to_mask(h)
    count = int(value_table()[h].sum())
    t_before = (turn - 1) * players

    def call(first, n):
        return K.tonk_rollouts(rarr, smat, hmask, oc, sp, pool, st, upc, known, t_before, seed,
                               first, n, debug=debug)

    s, n, el, comp, stopped = _sample(call, **sample)
    return _finish(variant="tonk", unit="stakes", s=s, n=n, elapsed=el, compile_s=comp,
                   stopped=stopped, hand=tuple(card_text(int(c)) for c in h),
                   hand_score=count, knock_limit=None, discard=None, turn=turn, stock=st,
                   players=players, upcard=card_text(upc) if upc >= 0 else None, seed=seed,
                   strategy=me.spec, opponent=",".join(o.spec for o in opps), opp_model=opp_model,
                   rules=r.as_dict(), notes=tuple(notes))


# ----------------------------------------------------------------------------------------
# text output

def _est(e: Estimate, unit: str = "", signed: bool = True) -> str:
    f = "+.3f" if signed else ".3f"
    return f"{e.value:{f}} [{e.lo:{f}}, {e.hi:{f}}]{unit}"


def format_advice(a: Advice) -> str:
    score = (f"deadwood {a.hand_score}, knock limit {a.knock_limit}" if a.variant == "gin"
             else f"count {a.hand_score}")
    who = "opponent" if a.players == 2 else "opponents"
    lines = [
        f"{a.variant}: knock now or play on?   hand {' '.join(a.hand)} ({score})",
        f"turn {a.turn}, {a.players} players, stock {a.stock}, upcard {a.upcard or 'unknown'}; "
        f"you play on with {a.strategy}, {who}: {a.opponent}",
        "",
        f"{'':<22}{'knock now':<30}{'play on':<30}",
        f"{'expected ' + a.unit:<22}{_est(a.ev_knock):<30}{_est(a.ev_play):<30}",
        f"{'P(win the hand)':<22}{a.win_knock.fmt(1, pct=True):<30}{a.win_play.fmt(1, pct=True):<30}",
        f"{'knock - play on':<22}{_est(a.diff)} {a.unit} per hand (paired, 95% CI)",
        "",
        f"recommendation: {a.recommendation.upper()}",
        textwrap.fill(f"confidence: {a.confidence}", 92, subsequent_indent="  "),
        f"worlds: {a.worlds:,} (stopped: {a.stopped}), {a.elapsed:.2f} s "
        f"(+ {a.compile_s:.2f} s compile/cache load), seed {a.seed}",
    ]
    if a.notes:
        lines.append("notes:")
        lines += [textwrap.fill(n, 92, initial_indent="  - ", subsequent_indent="    ") for n in a.notes]
    return "\n".join(line.rstrip() for line in lines)


# ----------------------------------------------------------------------------------------
# CLI: `rummylab knock`

_EXAMPLES = """
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C" --turn 3 --upcard 5C
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C 5C" --turn 9   # 11 cards
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D KH 4C" --turn 6 --upcard 5C
        (refused: deadwood 32, knocking needs <= 10)
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C" --turn 9 --upcard 5C --opp-model played
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 4C" --turn 4 --rule oklahoma=on --first-upcard 7D
    rummylab knock --variant tonk --players 3 --hand "AS 2D 3C 5H" --turn 4 --spread "7S 7H 7D"
    rummylab knock --variant tonk --players 4 --hand "AS AD" --turn 3 --spread "2:7S 7H 7D" --json
"""


def _budget_arg(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--budget takes seconds, got {text!r}") from None
    if not (v > 0 and math.isfinite(v)):
        raise argparse.ArgumentTypeError(f"--budget must be > 0 seconds, got {text!r}")
    return v


def _opp_cards_arg(text: str) -> list[int]:
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--opp-cards takes a number (every opponent) or one per opponent, e.g. 5,3,4; got {text!r}") from None


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``knock`` subcommand to an argparse subparsers object."""
    from analysis.cli import (  # here: cli may import this module at its top
        _examples,
        _int,
    )
    p = subparsers.add_parser(
        "knock", help="should I knock here? knock-now vs play-on EVs for a concrete hand, 95%% CIs",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.dedent("""\
            Sample the unseen cards (opponents' hands, stock, buried discards) and play both
            choices on the same worlds: knock now, or play on with your strategy.  Prints both
            expected scores and win probabilities with 95% CIs, the paired difference and a
            recommendation.
              gin:  the hand is the one you keep after discarding (10 cards; with 11 the exact
                    best discard is chosen); --upcard is the card you discard.
              tonk: the knock (drop) is at the start of your turn, before drawing; you play
                    first in each round.
            Gin opponents' hands are replayed deals (--opp-model played); Tonk's are uniform over the unseen cards."""),
        epilog=_examples(_EXAMPLES))
    p.add_argument("--variant", default="gin", help="gin or tonk (default gin)")
    p.add_argument("--hand", required=True, help='your cards, e.g. "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C"')
    p.add_argument("--turn", type=_int("--turn", 1), required=True, help="your own turn number, 1-based")
    p.add_argument("--upcard", default=None,
                   help="gin: the card you discard (top of the pile when the opponent moves); tonk: the "
                        "top discard. Default: drawn from the unseen cards")
    p.add_argument("--discards", default=None, help="other discards you know of (buried in the pile)")
    p.add_argument("--spread", action="append", default=[], metavar="[SEAT:]CARDS",
                   help="tonk: a spread on the table, repeatable; SEAT 0 = you (default), 1.. = opponents "
                        "in playing order")
    p.add_argument("--players", type=_int("--players", 1), default=2, help="players at the table (default 2)")
    p.add_argument("--opp-cards", type=_opp_cards_arg, default=None, metavar="N[,N...]",
                   help="tonk: cards held by every opponent, or one count per opponent (default 5)")
    p.add_argument("--stock", type=_int("--stock", 0), default=None,
                   help="cards in the stock (gin: after your draw); default from --turn")
    p.add_argument("--first-upcard", default=None, help="gin with oklahoma: the hand's first upcard")
    p.add_argument("--opponent", default="simple",
                   help="opponents' strategy (tonk: one, or one per opponent, comma separated)")
    p.add_argument("--strategy", default="simple", help="your strategy when playing on")
    p.add_argument("--opp-model", choices=OPP_MODELS, default=None,
                   help="opponent's hand: 'played' (gin default): a uniform deal from the unseen cards "
                        "replayed through its turns so far by its strategy; 'uniform' (tonk default): "
                        "uniform from the unseen cards")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="rule option, repeatable (see `rummylab variants`)")
    p.add_argument("--budget", type=_budget_arg, default=3.0, metavar="SECONDS",
                   help="sampling time budget (default 3); stops earlier once the 95%% CI of the "
                        "difference excludes 0")
    p.add_argument("--worlds", type=_int("--worlds", 1), default=None,
                   help="sample exactly this many worlds (ignores --budget; reproducible anywhere)")
    p.add_argument("--seed", type=_int("--seed", 0), default=0, help="random seed (default 0)")
    p.add_argument("--json", action="store_true", help="print the advice as JSON")
    p.set_defaults(func=cmd)
    return p


def cmd(args) -> int:
    try:
        adv = advise(args.variant, args.hand, turn=args.turn, upcard=args.upcard,
                     discards=args.discards, spreads=args.spread, players=args.players,
                     opponent=args.opponent, strategy=args.strategy, rules=args.rule,
                     stock=args.stock, opp_cards=args.opp_cards, first_upcard=args.first_upcard,
                     budget_s=args.budget, worlds=args.worlds, seed=args.seed,
                     opp_model=args.opp_model)
    except AdviceError as e:
        print(f"rummylab: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(adv.as_dict(), indent=2) if args.json else format_advice(adv))
    return 0
