"""The hand advisor: "should I knock here?" for Gin Rummy, Tonk, Knock Rummy and Ramino Klop.

Given a concrete position, :func:`advise` samples *worlds*, each a uniformly random way the
cards I cannot see may lie (the opponents' hands, the stock, the buried discards), and scores
both choices on the same world (common random numbers; kernels in :mod:`sim.advisors.worlds`):

* **knock now** (Gin: knock with this hand, scored by the Gin showdown with layoffs, gin and
  undercut bonuses; Tonk: drop at the start of my turn, paid by the Tonk knock rule; Knock
  Rummy, Ramino Klop: knock, or rummy at 0 deadwood, settled on every seat's exact deadwood);
* **play on** (Gin, Knock Rummy, Ramino Klop: discard and let the next seat move; Tonk: draw) with my
  strategy against the opponents' strategies until the hand ends (a void hand scores 0).

It reports the expected points (Gin) or stakes (Tonk) of both, the paired difference
knock - play on, the probability of winning the hand with each and a recommendation:
``knock`` when the 95% interval of the difference lies above 0, ``play on`` when below, else
``too close to call``.  Sampling looks at the interval after ``min_worlds`` worlds and then
every :data:`BATCH`, and stops when it excludes 0 (or every world gave the same result for
both choices), or when the time budget / ``max_worlds`` is reached.  No call is made while
fewer than ``sequential.MIN_VARIED`` worlds differ from the common difference (every world
the same difference: a zero-variance interval is a point and would call it).  Because it stops on what it has
seen, every interval is a 95% **confidence sequence** (the asymptotic confidence sequence of
Waudby-Smith, Arnold, Wu, Ramdas & Howard 2021, normal mixture: :mod:`.sequential`), valid
at whatever time sampling stopped, with an anytime-valid p-value for "no difference": a
true difference of 0 gets a ``knock``/``play on`` call at most 5% of the time however many
looks.  ``worlds=N`` samples exactly N worlds with no look before the end and reports t and
Wilson intervals.  World ``w`` depends only on (inputs, seed, w): a run that stops on the
interval, on ``max_worlds`` or on ``worlds`` is reproducible; one that stops on the time
budget may use a different number of the same worlds on another machine.

Modelling assumptions (stated in the output notes when they apply):

* Opponent model ``uniform`` (default): unseen cards are uniformly distributed; the
  opponents' earlier turns are not used to bias their hands.  Such hands are much weaker
  than real ones (a random 10-card Gin hand has deadwood ~57 on average, a hand after 8
  stock draws with the ``simple`` discard rule ~21), so knocking looks better than it is,
  more so the later the turn.  ``played`` (Gin and Knock Rummy, their default): the uniformly
  dealt hand is replayed through the opponent's ``turn - 1`` turns (each draws an unseen card,
  the opponent's strategy discards, the discard becomes a buried card), and worlds in which
  the opponent would already have knocked are redrawn; the advice reports the worlds kept of
  those drawn (accepted/tried).  If no deal in ``MAX_REDRAWS + 1`` fits, the position is
  refused with an error naming it.
* **History** (Gin and Knock Rummy, ``history=``, :mod:`sim.advisors.history` for the
  syntax): every turn since the deal, as the table saw it.  Both models then deal each
  opponent the cards it took from the pile and kept, never a card on the pile, and the
  unseen cards uniformly; ``played`` weighs every world by how likely the opponents'
  strategies were to make all the observed choices in it (sequential importance sampling:
  exact, not an approximation of the opponents), instead of inventing their turns.  The
  intervals are then weighted ones and the advice reports Kish's effective sample size
  (``ess``) of the worlds kept, and the worlds drawn.  Tonk: the history fixes the table, the pile
  and the kept pickups (``uniform``); ``--opp-model played`` also weighs the worlds.
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
* **Cards.** A game's advisor declares its pack (``AdvisorSpec.packs``, ``jokers``); the
  hand, upcard and discards are read and checked against it here, for any game: a card more
  often than the packs hold it (over all three), a joker in a game without jokers.
* **Knock Rummy.** I am seat 0, the first to play (left of the dealer); ``turn`` is my own turn
  number and the position is after my draw and discard: 10 cards with 2 players, 7 with 3-5
  (one more: the exact best discard is played, as for Gin; ``upcard`` as for Gin).  Knocking is
  legal at any deadwood; 0 deadwood is rummy.  Points: with ``settle=seed`` (the winner alone
  scores) my points minus the average opponent's (``Prepared.scale``), with ``pairwise`` my
  stake change.  Stock after my draw, default: ``52 - n*hand - 1 - (n*(turn-1) + 1)`` (every
  draw from the stock), at least 1 and at most the cards available; an empty stock cannot be
  played on.  ``played`` replays every opponent in seat order; if no world in
  ``MAX_REDRAWS + 1`` deals lets them all reach my turn, the position is refused.
* **Ramino Klop** (its declaration: :mod:`sim.variants.ramino_klop`): two joker packs (108 cards, every card
  twice); seat 0 plays first, the position after my draw and discard (7 cards; 8: the exact
  best discard is played); a knock needs deadwood below ``knock_below`` (7).  Everyone scores
  its own deadwood as penalty, so the points are the **penalty lead**: the average
  opponent's penalty minus mine (higher is better).  Stock default: every draw from the
  stock, the pile turned over whenever it ran out; models ``played`` (default) and
  ``uniform`` as for Knock Rummy.
"""

from __future__ import annotations

# numba modules (sim.advisors.worlds, sim.melds, the variants) are imported inside the functions, so
# building the CLI parser stays fast
import math
import textwrap
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analysis.stats import Estimate
from analysis.studies import sequential as SQ
from sim.core.errors import AdviceError

from ..wording import answer_lines, ci_text, decimals, num, preset_line, rules_lines

BATCH = 2000
FIRST_CALL = 100                # worlds in the first call, which times the kernel
RECOMMENDATIONS = ("knock", "play on", "too close to call")

__all__ = ["Advice", "AdviceError", "advise", "format_advice", "add_parser", "cmd", "BATCH"]




@dataclass(frozen=True)
class Advice:
    variant: str
    unit: str                       # the game's score unit (points, stakes, penalty)
    hand_word: str                  # what hand_score counts (deadwood, count)
    hand: tuple[str, ...]           # the hand evaluated (Gin with 11 cards: after the discard)
    hand_score: int                 # Gin, Knock Rummy, Ramino Klop: deadwood; Tonk: count
    knock_limit: int | None         # Gin; Ramino Klop: the highest deadwood a knock allows
    discard: str | None             # one card more than a hand: the discard chosen
    turn: int
    stock: int
    players: int
    upcard: str | None              # None: drawn from the unseen cards in every world
    ev_knock: Estimate
    ev_play: Estimate
    diff: Estimate                  # paired, knock minus play on
    win_knock: Estimate
    win_play: Estimate
    p_value: float                  # no difference: anytime-valid, or the t test's with --worlds
    recommendation: str
    confidence: str
    stopped: str                    # "ci", "no difference", "budget", "max_worlds", "worlds"
    intervals: str                  # how the intervals were made (valid at the stopping time)
    worlds: int                     # worlds kept (a redrawing model: accepted)
    worlds_tried: int               # worlds drawn (a redrawing model: tried)
    ess: float                      # effective sample size: Kish's for weighted worlds, else worlds
    elapsed: float                  # sampling seconds (compile / cache load apart)
    compile_s: float
    seed: int
    strategy: str
    opponent: str
    opp_model: str
    history: str | None             # the hand's history the worlds were conditioned on
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

# ----------------------------------------------------------------------------------------
# sampling

def _sample(call: Callable[[int, int], np.ndarray], *, budget_s: float, min_worlds: int,
            max_worlds: int, worlds: int | None, batch: int = BATCH, progress=None):
    """Run ``call(first_world, n)`` (rows: knock pts, play pts, knock win, play win, tries)
    and return exact moments, counts and timing.

    ``worlds``: exactly that many, no look before the end.  Else look after ``min_worlds``
    and then every ``batch`` worlds (a fixed schedule: where a run stops on the interval does
    not depend on the machine), and stop when the 95% confidence sequence of knock - play on
    (:mod:`analysis.studies.sequential`) excludes 0 ("ci"; it has no bounds while fewer
    than ``MIN_VARIED`` worlds differ from the common difference) or every world gave
    knock - play on = 0 ("no difference", no call); stop on the time
    budget ("budget", checked after every call, whose size follows the speed so far) or at
    ``max_worlds``.  The sequence covers at every time at once, so the interval reported at
    any of these stopping times is valid.  ``progress(s, n, seconds)``, when given, is called
    after every call (it reads the moments, it changes nothing; an exception it raises, such
    as a cancelled job's, ends the sampling)."""
    t0 = time.perf_counter()
    call(0, 0)  # compile or load the kernel from the numba cache
    compile_s = time.perf_counter() - t0
    target = worlds if worlds is not None else max_worlds
    n = 0
    s = {"a": 0, "aa": 0, "b": 0, "bb": 0, "d": 0, "dd": 0, "wa": 0, "wb": 0, "tried": 0, "m": None,
         "counts": {}}
    stopped = "worlds" if worlds is not None else "max_worlds"
    look = min_worlds
    chunk = batch if worlds is not None else min(batch, FIRST_CALL)
    t0 = time.perf_counter()
    while n < target:
        k = min(chunk, target - n) if worlds is not None else min(chunk, target - n, look - n)
        res = call(n, k)
        _accumulate(s, *(res if isinstance(res, tuple) else (res, None)))
        n += k
        if progress is not None:
            progress(s, n, time.perf_counter() - t0)
        if worlds is not None or n >= target:
            continue
        if n == look:
            look += batch
            est = _interval(s, "d", n, sequential=True)
            if est.lo > 0 or est.hi < 0:
                stopped = "ci"
                break
            if s["counts"] == {0: n}:  # every world: no difference
                stopped = "no difference"
                break
        spent = time.perf_counter() - t0
        if spent >= budget_s:
            stopped = "budget"
            break
        chunk = max(1, min(batch, int(budget_s / 10 * n / max(spent, 1e-9))))
    return s, n, time.perf_counter() - t0, compile_s, stopped


def _accumulate(s: dict, out: np.ndarray, w: np.ndarray | None) -> None:
    """Add a batch of world rows to the moments: exact integers, and with weights ``w`` the
    weighted ones (``s["m"]``: ``sum w``, ``sum w^2`` and per column ``[sum w x, sum w^2 x,
    sum w^2 x^2]``)."""
    from sim.advisors import worlds as K
    a, b = out[:, K.K_PTS], out[:, K.P_PTS]
    cols = {"a": a, "b": b, "d": a - b, "wa": out[:, K.K_WIN], "wb": out[:, K.P_WIN]}
    for v, c in zip(*np.unique(cols["d"], return_counts=True)):
        s["counts"][int(v)] = s["counts"].get(int(v), 0) + int(c)
    for x in ("a", "b", "d"):
        s[x] += int(cols[x].sum())
        s[x + x] += int((cols[x] * cols[x]).sum())
    s["wa"] += int(cols["wa"].sum())
    s["wb"] += int(cols["wb"].sum())
    s["tried"] += int(out[:, K.TRIES].sum())
    if w is None:
        return
    m = s["m"] = s["m"] or {"w": 0.0, "w2": 0.0, **{x: [0.0, 0.0, 0.0] for x in cols}}
    w2 = w * w
    m["w"] += float(w.sum())
    m["w2"] += float(w2.sum())
    for x, v in cols.items():
        v = v.astype(np.float64)
        m[x][0] += float((w * v).sum())
        m[x][1] += float((w2 * v).sum())
        m[x][2] += float((w2 * v * v).sum())


def common(s: dict) -> int:
    """The most common knock - play on over the worlds (the smallest such value on a tie)."""
    return min(s["counts"], key=lambda v: (-s["counts"][v], v))


def varied(s: dict, n: int) -> int:
    """Worlds whose knock - play on differs from the most common one: how many worlds stand
    apart from the common difference.  (Counted against the first world's value, as until
    2026-12-05, a first world with a rare value left almost no world "varied", and no call.)"""
    return n - s["counts"][common(s)] if s["counts"] else 0


def _interval(s: dict, x: str, n: int, *, sequential: bool, scale: float = 1.0) -> Estimate:
    """Column ``x``'s mean (points: ``a``, ``b``, ``d``) or rate (``wa``, ``wb``) with its 95%
    interval, weighted when the worlds are; the difference ``d`` has none while too few
    worlds vary (:func:`analysis.studies.sequential.too_few_varied`)."""
    rate = x in ("wa", "wb")
    v = varied(s, n) if x == "d" else None
    if s["m"] is not None and rate:
        return SQ.weighted_rate(s["m"], x, n, sequential=sequential)
    if s["m"] is not None:
        return SQ.weighted_interval(s["m"], x, n, sequential=sequential, varied=v).scaled(scale)
    if rate:
        return SQ.rate_interval(s[x], n, sequential=sequential)
    return SQ.mean_interval(n, s[x], s[x + x], sequential=sequential, varied=v).scaled(scale)


def _verdict(s: dict, n: int, unit: str, stopped: str, scale: float = 1.0):
    """Estimates from the moments (weighted when the worlds are): confidence sequences unless
    the run had a fixed size (``stopped == "worlds"``); ``scale`` (> 0): the report's worth of one unit of the
    point columns (``Prepared.scale``)."""
    seq = stopped != "worlds"
    ev_k, ev_p, diff, wk, wp = (_interval(s, x, n, sequential=seq, scale=scale)
                                for x in ("a", "b", "d", "wa", "wb"))
    v = varied(s, n)
    if s["m"] is not None:
        p = SQ.weighted_p_value(s["m"], "d", n, sequential=seq, varied=v)
    else:
        p = SQ.p_value(n, s["d"], s["dd"], sequential=seq, varied=v)
    if diff.lo > 0:
        rec = "knock"
    elif diff.hi < 0:
        rec = "play on"
    else:
        rec = "too close to call"
    what = "confidence sequence" if seq else "CI"
    if stopped == "no difference":
        conf = f"both choices gave the same result in all {n:,} worlds"
    elif SQ.too_few_varied(v):
        conf = (f"knock - play on was {common(s) * scale:+g} {unit} in all but {v:,} of {n:,} worlds: no "
                f"call while fewer than {SQ.MIN_VARIED} worlds differ from the rest (an interval from "
                "worlds that hardly vary rests on nothing)")
    else:
        verb = "includes" if rec == "too close to call" else "excludes"
        conf = (f"the 95% {what} of knock - play on, [{diff.lo:+.3f}, {diff.hi:+.3f}] {unit}, "
                f"{verb} 0 after {n:,} worlds ({'anytime-valid ' if seq else ''}{_p(p)} "
                "for no difference)")
    return ev_k, ev_p, diff, wk, wp, p, rec, conf


def snapshot(s: dict, n: int, seconds: float, *, sequential: bool, scale: float = 1.0) -> dict:
    """Where the sampling stands after ``n`` worlds: each choice's expected points, the paired
    difference and the win rates with their 95% intervals (confidence sequences while the
    run may stop on them, so every snapshot is valid when it is shown), as ``Advice.as_dict``
    writes them."""
    est = {k: _interval(s, x, n, sequential=sequential, scale=scale).as_dict()
           for k, x in (("ev_knock", "a"), ("ev_play", "b"), ("diff", "d"), ("win_knock", "wa"),
                        ("win_play", "wb"))}
    return {"worlds": n, "seconds": round(seconds, 3), **est}


def _p(p: float) -> str:
    if p < 0.0001:
        return "p < 0.0001"
    return f"p = {p:.4f}" if p < 0.01 else f"p = {p:.3f}"


# ----------------------------------------------------------------------------------------
# the advisor

def advise(variant: str, hand, *, turn: int, upcard=None, discards=(), spreads=(), players: int = 2,
           opponent: str = "simple", strategy: str = "simple", rules=None, stock: int | None = None,
           opp_cards=None, first_upcard=None, history: str | None = None, budget_s: float = 3.0,
           min_worlds: int = 2000, max_worlds: int = 2_000_000, worlds: int | None = None,
           seed: int = 0, opp_model: str | None = None, debug: bool = False, progress=None) -> Advice:
    """Knock now or play on?  See the module docstring for the model and its assumptions.

    ``hand``/``upcard``/``discards``: card text or codes; ``spreads`` (Tonk): card texts
    (``"SEAT:cards"`` for another seat's) or ``(seat, cards)`` pairs; ``rules``: a rules
    object, a dict or ``["NAME=VALUE", ...]``; ``opponent``: one strategy spec, or (Tonk, Knock
    Rummy, Ramino Klop) one per opponent, comma separated; ``opp_cards`` (Tonk): an int for every opponent or one per
    opponent; ``first_upcard`` (Gin with oklahoma): the hand's first upcard; ``history``
    (Gin, Knock Rummy): every turn since the deal, e.g. ``"up 7D; 0:draw discard KD; 1:take KD
    discard 9H"`` (:mod:`sim.advisors.history`); ``opp_model``: ``uniform`` or (Gin, Knock
    Rummy, Ramino Klop) ``played`` (see the module docstring).  The cards are read by the
    game's pack (:func:`sim.advisors.worlds.position_cards`).  ``progress(snapshot)``: called as the worlds
    come in with :func:`snapshot`'s dict (the web app streams it); it changes no number.
    """
    from sim.variants import available, get_variant
    v = get_variant(variant)
    if v.advisor is None:
        raise AdviceError(f"{v.name} has no knock advisor; it exists for "
                          + ", ".join(n for n in available() if get_variant(n).advisor is not None))
    from ..coldstart import compiling, prestart
    prestart(v.name, "advisor")     # a fresh install: the second compile process starts now
    if isinstance(turn, bool) or not isinstance(turn, (int, np.integer)) or turn < 1:
        raise AdviceError(f"turn must be a whole number >= 1 (your own turn number), got {turn!r}")
    if not (budget_s > 0):
        raise AdviceError(f"the time budget must be > 0 seconds, got {budget_s!r}")
    if min_worlds < 1 or max_worlds < 1 or (worlds is not None and worlds < 1):
        raise AdviceError("min_worlds, max_worlds and worlds must be >= 1")
    if seed < 0:
        raise AdviceError(f"seed must be >= 0, got {seed}")
    models = v.advisor.opp_models
    opp_model = models[0] if opp_model is None else opp_model
    if opp_model not in models:
        raise AdviceError(f"opponent model {opp_model!r}: {v.name} offers {' or '.join(models)}")
    from sim.advisors.worlds import position_cards
    hand, upcard, discards = position_cards(v.advisor, hand, upcard, discards)
    from sim.advisors.advisor import prepare
    prep = prepare(
        v, hand, turn=int(turn), upcard=upcard, discards=discards, spreads=spreads, players=int(players),
        opponent=opponent, strategy=strategy, rules=rules, stock=stock, opp_cards=opp_cards,
        first_upcard=first_upcard, history=history, seed=int(seed), opp_model=opp_model,
        debug=bool(debug))
    seq = worlds is None
    look = None if progress is None else (
        lambda s, n, t: progress(snapshot(s, n, t, sequential=seq, scale=prep.scale)))
    with compiling(v.name, "advisor"):     # after the position is checked: bad input is one line
        s, n, el, comp, stopped = _sample(prep.call, budget_s=float(budget_s), min_worlds=int(min_worlds),
                                          max_worlds=max(int(max_worlds), int(min_worlds)),
                                          worlds=None if worlds is None else int(worlds), progress=look)
    notes = list(prep.notes)
    ess = s["m"]["w"] ** 2 / s["m"]["w2"] if s["m"] is not None else float(n)
    if s["m"] is not None:
        notes.append(f"weighted worlds: Kish effective sample size {ess:,.0f} of the {n:,} worlds kept "
                     f"({s['tried']:,} drawn, {100 * n / s['tried']:.3g}% of them possible at all); "
                     "every interval is a weighted one")
    elif prep.redraws:
        notes.append(f"opponent model 'played': {n:,} of the {s['tried']:,} worlds drawn "
                     f"({100 * n / s['tried']:.3g}%) let the opponents play their turns so far; the "
                     f"estimates rest on these {n:,}, independent draws (accepted/tried)")
    return _finish(variant=v.name, unit=prep.unit or v.score_unit, hand_word=v.hand_word, s=s, n=n, elapsed=el,
                   compile_s=comp, stopped=stopped, seed=int(seed), opp_model=opp_model,
                   history=history, ess=ess, notes=notes, scale=prep.scale, **prep.info)


def _finish(*, variant, unit, s, n, elapsed, compile_s, stopped, notes, scale=1.0, **kw) -> Advice:
    ev_k, ev_p, diff, wk, wp, p, rec, conf = _verdict(s, n, unit, stopped, scale)
    if stopped == "budget" and rec == "too close to call":
        conf += " (time budget reached: a longer --budget may separate them)"
    method = SQ.method(sequential=stopped != "worlds", weighted=s["m"] is not None)
    return Advice(variant=variant, unit=unit, ev_knock=ev_k, ev_play=ev_p, diff=diff, win_knock=wk,
                  win_play=wp, p_value=p, recommendation=rec, confidence=conf, stopped=stopped,
                  intervals=method, worlds=n, worlds_tried=s["tried"], elapsed=elapsed,
                  compile_s=compile_s, notes=tuple(notes) + (f"intervals: {method}",), **kw)


# ----------------------------------------------------------------------------------------
# text output

def _est(e: Estimate, unit: str = "", signed: bool = True) -> str:
    f = "+.3f" if signed else ".3f"
    return f"{e.value:{f}} [{e.lo:{f}}, {e.hi:{f}}]{unit}"


def format_advice(a: Advice) -> str:
    score = f"{a.hand_word} {a.hand_score}" + (
        f", knock limit {a.knock_limit}" if a.knock_limit is not None else "")
    who = "opponent" if a.players == 2 else "opponents"
    lines = [
        *answer_lines(advice_answer(a)),
        *(rules_lines(a.rules, a.variant) if a.rules else []),
        *preset_line(a.variant, [*a.strategy.split(","), *a.opponent.split(",")], a.players),
        "",
        f"{a.variant}: knock now or play on?   hand {' '.join(a.hand)} ({score})",
        f"turn {a.turn}, {a.players} players, stock {a.stock}, upcard {a.upcard or 'unknown'}; "
        f"you play on with {a.strategy}, {who}: {a.opponent}",
        "",
        f"{'':<22}{'knock now':<30}{'play on':<30}",
        f"{'expected ' + a.unit:<22}{_est(a.ev_knock):<30}{_est(a.ev_play):<30}",
        f"{'P(win the hand)':<22}{a.win_knock.fmt(1, pct=True):<30}{a.win_play.fmt(1, pct=True):<30}",
        f"{'knock - play on':<22}{_est(a.diff)} {a.unit} per hand (paired, 95% "
        f"{'CI' if a.stopped == 'worlds' else 'confidence sequence'})",
        "",
        f"recommendation: {a.recommendation.upper()}",
        textwrap.fill(f"confidence: {a.confidence}", 92, subsequent_indent="  "),
        f"worlds: {a.worlds:,}"
        + (f" kept of {a.worlds_tried:,} drawn" if a.worlds_tried != a.worlds else "")
        + f" (stopped: {a.stopped}), {a.elapsed:.2f} s "
        f"(+ {a.compile_s:.2f} s compile/cache load), seed {a.seed}",
    ]
    if a.notes:
        lines.append("notes:")
        lines += [textwrap.fill(n, 92, initial_indent="  - ", subsequent_indent="    ") for n in a.notes]
    return "\n".join(line.rstrip() for line in lines)


# ----------------------------------------------------------------------------------------
# the advisor's answer in sentences (analysis.wording has the words)

def advice_answer(a) -> list[str]:
    """The knock advisor's call on one position (:class:`analysis.studies.knock_advice.Advice`):
    the recommendation with the paired difference, its CI and the worlds, and, where the call
    on expected points and the chance of winning the hand point different ways, why."""
    unit = f"{a.unit} per hand"
    d = a.diff
    head = (f"{a.variant}, {a.players} players, your turn {a.turn}, {a.hand_word} {a.hand_score}: "
            f"{a.recommendation.upper()}")
    if all(map(math.isfinite, (d.value, d.lo, d.hi))):
        diff = (f"knocking now minus playing on is "
                f"{ci_text(d.value, d.lo, d.hi, decimals(d.value, d.lo, d.hi), unit, test=False)}"
                f"{'' if a.recommendation != 'too close to call' else ', not significant'}")
    else:   # too few worlds differ for an interval (the confidence line says how many)
        diff = (f"knocking now minus playing on averages {num(d.value, 2)} {unit}, with no interval: "
                f"too few worlds play differently")
    out = [f"{head}: {diff} (n = {a.worlds:,} sampled worlds, the same ones for both choices)."]
    wk, wp = a.win_knock, a.win_play
    better_ev = "knock" if d.value > 0 else "play on"
    better_win = "knock" if wk.value > wp.value else "play on" if wp.value > wk.value else None
    if better_win is not None and better_win != better_ev and a.recommendation != "too close to call":
        more, fewer = ("knocking", "playing on") if better_win == "knock" else ("playing on", "knocking")
        hi_w, lo_w = (wk, wp) if better_win == "knock" else (wp, wk)
        out.append(f"Why: the call weighs {a.unit}, not wins: {more} wins the hand more often "
                   f"({100 * hi_w.value:.1f}% against {100 * lo_w.value:.1f}%) but scores fewer {a.unit} on "
                   f"average, so {fewer} is worth more.")
    return out
