"""Whole games of every shape, played from a game's one-hand function (numpy + numba only).

A game module writes its whole-game chunk loop with the step kernels here (numba's cache
cannot keep a kernel that takes another kernel as an argument, so each game owns this loop)::

    @njit(cache=True, nogil=True)
    def _play_game_chunk(rules, strat, layout, seed, first_game, out, ctx, debug):
        per, sc, st, row = games.game_buffers(strat.shape[0], layout)
        for i in range(out.shape[0]):
            dst = games.begin_game(per, sc, st, seed, first_game + i)
            while games.game_running(per, sc, layout):
                row[:] = 0
                # shuffle the pack from dst, deal with dealer sc[games.S_DEALER] to the seats
                # with per[games.P_ACTIVE] == 1, play the hand into row with generators st
                games.record_hand(per, sc, layout, row)
            games.finish_game(per, sc, layout, out[i])

:func:`next_hand` is the ``while`` test, the cleared row and the shuffle in one step (the pack
shuffled from ``dst``).  :func:`game_kernel` turns the loop, the arrays it needs (``ctx``) and the game's
:class:`~sim.variants.WholeGame` into the contract's ``play_game_chunk``.

Shapes (``WholeGame.kind``):

* ``target``: credited points (the positive part of each ``score`` column) accumulate until
  someone reaches the target; the highest total wins (first seat on a tie).  Optional house
  rules: a bonus per hand won (``line_bonus``), a game bonus, a shutout doubling.  ``net`` is
  each seat's margin: the winner gets from every other seat ``total[w] - total[s]`` (doubled
  when ``s`` scored nothing and shutouts double), with totals = points + line bonuses.
* ``elimination``: each hand adds its penalty (minus the ``score`` column) to the seats in
  play; a seat reaching the limit is out, unless it buys back in (at most ``buybacks`` times,
  as far as its ``buyback`` allowance goes) at the highest total still under the limit.
  Whether it buys back is the seat's decision: it does when that re-entry total is below its
  ``buyback_below`` threshold (default: always; ``WholeGame.buyback_param`` names the
  strategy parameter holding it, see :func:`game_kernel`).  The
  last seat in wins; if every seat left reaches the limit in one hand, the lowest total stays
  in and wins.  ``points`` are the final penalty totals, ``net`` minus them.
* ``deals``: a fixed number of scoring hands; totals of the ``score`` columns; the highest
  total wins; ``points`` and ``net`` are the totals.
* ``penalty``: each hand adds its penalty (minus the ``score`` column) to every seat until
  someone reaches the limit; then the lowest total wins (first seat on a tie), nobody leaves
  (Basic Rummy's ``penalty_scoring``).  ``points`` are the penalty totals, ``net`` minus them.

Every shape: a hand whose outcome is the game's ``void_outcome`` is redealt by the same
dealer (counted in ``voids``); otherwise the deal passes to the next seat in play on the left.
``place`` is 1 for the winner, then by final standing (target, deals: by total; elimination:
later out is better, same hand by lower total), ties by seat.  Game ``g`` uses the deal
generator ``(seed, STREAM_GAME, g)`` and strategy generators ``(seed, STREAM_STRATEGY + s, g)``
and its first dealer is ``g % n``: a row depends only on ``(rules, strategies, seed, g)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import rng
from .columns import COL_OUTCOME, COL_SCORE, COL_TURNS, col_extra, hand_columns

KINDS = ("target", "elimination", "deals", "penalty")
K_TARGET, K_ELIMINATION, K_DEALS, K_PENALTY = range(4)
MAX_HANDS = 100_000          # a game still running after this many hands is an engine error
ALWAYS_BUY = 1 << 62         # buy-back threshold: every re-entry total is below it
NEVER_BUY = -(1 << 62)       # buy-back threshold: no re-entry total is below it
# layout vector (int64) handed to the kernel; per-seat buyback allowances follow at L_WIDTH,
# then the per-seat buy-back thresholds (buy back when the re-entry total is below it)
(L_KIND, L_LIMIT, L_VOID, L_WINNER_COL, L_LINE_BONUS, L_GAME_BONUS, L_SHUTOUT, L_BUYBACKS,
 L_ROW_WIDTH, L_WIDTH) = range(10)
P_TOTAL, P_WON, P_BOUGHT, P_OUT_RANK, P_ACTIVE, P_ROWS = range(6)      # per-seat state rows
S_DEALER, S_FIRST_DEALER, S_HANDS, S_VOIDS, S_TURNS, S_SCORED, S_N_OUT, S_WIDTH = range(8)
GAME_BASE = ("first_dealer", "winner", "hands", "voids", "turns")


def all_out_note(limit: int, never: bool = False) -> str:
    """The ``WholeGame.notes`` line of an elimination game's **[choice]** (:func:`_eliminate`)
    for a default ``penalty_limit`` of ``limit``; ``never``: the game's seat out scores 0, so
    the case cannot arise."""
    return (f"[choice] if every player left reaches penalty_limit ({limit}) in the same hand, the "
            "lowest total stays in and wins (a tie: the lowest seat); the seed is silent on this case"
            + ("; it cannot arise here: the player who goes out scores 0" if never else ""))

PER_SEAT = ("points", "hands_won", "net", "place", "buybacks")
G_FIRST_DEALER, G_WINNER, G_HANDS, G_VOIDS, G_TURNS = range(len(GAME_BASE))


def game_columns(n_seats: int) -> tuple[str, ...]:
    """Columns of a game row: base columns, then each per-seat series for every seat."""
    return GAME_BASE + tuple(f"{k}{s}" for k in PER_SEAT for s in range(n_seats))


@njit(cache=True, inline="always")
def _next_in(active, seat):
    """The next seat in play to the left of ``seat``."""
    n = active.shape[0]
    for k in range(1, n + 1):
        q = (seat + k) % n
        if active[q]:
            return q
    return seat


@njit(cache=True)
def seats_in_play(per):
    """The seats still in play (``per[P_ACTIVE]``), in seat order: who is dealt the next hand."""
    n = per.shape[1]
    m = 0
    for s in range(n):
        m += per[P_ACTIVE, s]
    seats = np.empty(m, dtype=np.int64)
    j = 0
    for s in range(n):
        if per[P_ACTIVE, s]:
            seats[j] = s
            j += 1
    return seats


@njit(cache=True)
def _places_by_total(total, winner, place):
    """place[s]: 1 for the winner, then by total (higher better), ties by seat."""
    n = total.shape[0]
    for s in range(n):
        if s == winner:
            place[s] = 1
            continue
        p = 2
        for t in range(n):
            if t != winner and t != s and (total[t] > total[s] or (total[t] == total[s] and t < s)):
                p += 1
        place[s] = p


@njit(cache=True)
def _eliminate(pen, active, bought, allowance, below, limit, max_buy, out_rank, n_out):
    """Seats in play at or over ``limit`` buy back in (if allowed, and if the re-entry total is
    below the seat's threshold ``below[s]``) or go out; returns the new number of seats out.
    ``out_rank[s]``: order of going out (0 first)."""
    n = pen.shape[0]
    left = 0
    for s in range(n):
        if active[s] and pen[s] < limit:
            left += 1
    # buy-backs first, at the highest total still under the limit
    top = np.int64(0)
    have_top = False
    for s in range(n):
        if active[s] and pen[s] < limit and (not have_top or pen[s] > top):
            top = pen[s]
            have_top = True
    for s in range(n):
        if (active[s] and pen[s] >= limit and left >= 1 and bought[s] < max_buy and bought[s] < allowance[s]
                and top < below[s]):
            pen[s] = top
            bought[s] += 1
    over = 0
    for s in range(n):
        if active[s] and pen[s] >= limit:
            over += 1
    if over == 0:
        return n_out
    n_in = 0
    for s in range(n):
        if active[s]:
            n_in += 1
    keep = -1
    if over == n_in:  # everyone left went over together: the lowest total stays in
        for s in range(n):
            if active[s] and (keep < 0 or pen[s] < pen[keep]):
                keep = s
    # out in order of higher total first (a lower total went out "later": better place)
    while True:
        worst = -1
        for s in range(n):
            if active[s] and s != keep and pen[s] >= limit and (worst < 0 or pen[s] > pen[worst]
                                                                 or (pen[s] == pen[worst] and s > worst)):
                worst = s
        if worst < 0:
            break
        active[worst] = 0
        out_rank[worst] = n_out
        n_out += 1
    return n_out


@njit(cache=True)
def game_buffers(n, layout):
    """Work arrays of a game: per-seat state int64[P_ROWS, n], scalars int64[S_WIDTH], the
    seats' strategy generators uint64[n, 1] and a hand row."""
    return (np.zeros((P_ROWS, n), dtype=np.int64), np.zeros(S_WIDTH, dtype=np.int64),
            np.empty((n, 1), dtype=np.uint64), np.zeros(layout[L_ROW_WIDTH], dtype=np.int64))


@njit(cache=True)
def begin_game(per, sc, st, seed, g):
    """Reset the state for game ``g``; fill the strategy generators; return the deal generator."""
    n = per.shape[1]
    per[:, :] = 0
    per[P_ACTIVE, :] = 1
    per[P_OUT_RANK, :] = -1
    sc[:] = 0
    sc[S_DEALER] = g % n
    sc[S_FIRST_DEALER] = g % n
    rng.seat_streams(seed, g, st)
    return rng.new_state(seed, rng.STREAM_GAME, g)


@njit(cache=True)
def game_running(per, sc, layout):
    """Is another hand to be dealt?"""
    kind = layout[L_KIND]
    if kind == K_TARGET:
        return per[P_TOTAL].max() < layout[L_LIMIT]
    if kind == K_ELIMINATION:
        return sc[S_N_OUT] < per.shape[1] - 1
    if kind == K_PENALTY:
        return per[P_TOTAL].max() < layout[L_LIMIT]
    return sc[S_SCORED] < layout[L_LIMIT]


@njit(cache=True)
def next_hand(per, sc, layout, row, dst, pack, deck):
    """Is another hand to be dealt (:func:`game_running`)?  If so, ``row`` is cleared and the
    ``pack`` shuffled into ``deck`` from the game's deal generator ``dst``."""
    if not game_running(per, sc, layout):
        return False
    row[:] = 0
    rng.shuffle_into(dst, pack, deck)
    return True


@njit(cache=True)
def record_hand(per, sc, layout, row):
    """Book a played hand row: counts, totals, eliminations, the next dealer."""
    n = per.shape[1]
    kind = layout[L_KIND]
    sc[S_HANDS] += 1
    sc[S_TURNS] += row[COL_TURNS]
    if sc[S_HANDS] > MAX_HANDS:
        raise ValueError("game did not end")
    if row[COL_OUTCOME] == layout[L_VOID]:
        sc[S_VOIDS] += 1
        return  # redeal, same dealer
    sc[S_SCORED] += 1
    w = row[layout[L_WINNER_COL]]
    if w >= 0:
        per[P_WON, w] += 1
    for s in range(n):
        x = row[COL_SCORE + s]
        if kind == K_TARGET:
            if x > 0:
                per[P_TOTAL, s] += x
        elif kind == K_ELIMINATION:
            if per[P_ACTIVE, s]:
                per[P_TOTAL, s] -= x
        elif kind == K_PENALTY:
            per[P_TOTAL, s] -= x
        else:
            per[P_TOTAL, s] += x
    if kind == K_ELIMINATION:
        sc[S_N_OUT] = _eliminate(per[P_TOTAL], per[P_ACTIVE], per[P_BOUGHT], layout[L_WIDTH:L_WIDTH + n],
                                 layout[L_WIDTH + n:L_WIDTH + 2 * n], layout[L_LIMIT], layout[L_BUYBACKS],
                                 per[P_OUT_RANK], sc[S_N_OUT])
    sc[S_DEALER] = _next_in(per[P_ACTIVE], sc[S_DEALER])


@njit(cache=True)
def finish_game(per, sc, layout, grow):
    """Fill the game row ``grow`` (columns :func:`game_columns`)."""
    n = per.shape[1]
    kind = layout[L_KIND]
    total = per[P_TOTAL]
    place = np.zeros(n, dtype=np.int64)
    net = np.zeros(n, dtype=np.int64)
    if kind == K_ELIMINATION:
        winner = 0
        for s in range(n):
            if per[P_ACTIVE, s]:
                winner = s
        for s in range(n):
            place[s] = 1 if s == winner else n - per[P_OUT_RANK, s]
            net[s] = -total[s]
    elif kind == K_PENALTY:
        winner = 0
        for s in range(1, n):
            if total[s] < total[winner]:
                winner = s
        _places_by_total(-total, winner, place)
        net[:] = -total
    else:
        winner = 0
        for s in range(1, n):
            if total[s] > total[winner]:
                winner = s
        _places_by_total(total, winner, place)
        net[:] = total
        if kind == K_TARGET:
            net[:] = 0
            tot = total + per[P_WON] * layout[L_LINE_BONUS]
            tot[winner] += layout[L_GAME_BONUS]
            for s in range(n):
                if s != winner:
                    m = tot[winner] - tot[s]
                    if layout[L_SHUTOUT] != 0 and total[s] == 0:
                        m *= 2
                    net[s] = -m
                    net[winner] += m
    grow[G_FIRST_DEALER] = sc[S_FIRST_DEALER]
    grow[G_WINNER] = winner
    grow[G_HANDS] = sc[S_HANDS]
    grow[G_VOIDS] = sc[S_VOIDS]
    grow[G_TURNS] = sc[S_TURNS]
    b = len(GAME_BASE)
    for s in range(n):
        grow[b + s] = total[s]
        grow[b + n + s] = per[P_WON, s]
        grow[b + 2 * n + s] = net[s]
        grow[b + 3 * n + s] = place[s]
        grow[b + 4 * n + s] = per[P_BOUGHT, s]


def buyback_thresholds(strat_mat, param: str | None) -> np.ndarray:
    """Each seat's buy-back threshold from its strategy row: the value of the parameter
    ``param`` of the seat's family (negative: whenever the rules allow; a family without it,
    or ``param`` None: always too).  Never buying back is a zero allowance (``buyback``)."""
    from ..strategies import FAMILIES, _load_families
    _load_families()
    by_code = {f.code: f for f in FAMILIES.values()}
    out = np.full(strat_mat.shape[0], ALWAYS_BUY, dtype=np.int64)
    for s in range(strat_mat.shape[0]):
        fam = by_code.get(int(strat_mat[s, 0]))
        if param is None or fam is None or param not in {p.name for p in fam.params}:
            continue
        v = float(strat_mat[s, 1 + fam.index(param)])
        out[s] = ALWAYS_BUY if v < 0 else int(np.ceil(v))
    return out


def game_kernel(chunk, ctx: tuple, game, rules_cls, extra_columns: tuple[str, ...], search_arg=None):
    """The contract's ``play_game_chunk(rules_arr, strat_mat, seed, first_game, out, debug=False,
    buyback=None, buyback_below=None)`` for a game: ``chunk`` is the game's loop (module
    docstring), ``ctx`` the tuple of arrays it needs, ``game`` its
    :class:`~sim.variants.WholeGame`.  ``buyback``: per-seat buy-back allowances (default: as
    many as the rules allow); ``buyback_below``: per-seat thresholds, a seat at the limit buys
    back only when the re-entry total is below its threshold (default: from the strategy
    parameter ``game.buyback_param`` (:func:`buyback_thresholds`), else always).  ``search_arg``:
    the game's trailing kernel arguments for a strategy matrix (``()`` when no seat searches,
    so that the search is pruned from the compiled loop), if the game's loop takes them."""
    if game.kind not in KINDS:
        raise ValueError(f"unknown whole-game kind {game.kind!r}; kinds: {', '.join(KINDS)}")
    kind = KINDS.index(game.kind)

    def idx(name):
        return None if name is None else rules_cls.index(name)

    limit_i, buy_i = idx(game.limit_rule), idx(game.buyback_rule)
    line_i, bonus_i, shut_i = idx(game.line_bonus_rule), idx(game.game_bonus_rule), idx(game.shutout_rule)

    def play_game_chunk(rules_arr, strat_mat, seed, first_game, out, debug=False, buyback=None,
                        buyback_below=None):
        n = strat_mat.shape[0]

        def val(i):
            return 0 if i is None else int(rules_arr[i])

        layout = np.zeros(L_WIDTH + 2 * n, dtype=np.int64)
        layout[L_KIND] = kind
        layout[L_LIMIT] = val(limit_i)
        layout[L_VOID] = game.void_outcome
        width = len(hand_columns(n, extra_columns))
        layout[L_WINNER_COL] = col_extra(n) + extra_columns.index(game.winner_column)
        layout[L_LINE_BONUS] = val(line_i)
        layout[L_GAME_BONUS] = val(bonus_i)
        layout[L_SHUTOUT] = val(shut_i)
        layout[L_BUYBACKS] = val(buy_i)
        layout[L_ROW_WIDTH] = width
        layout[L_WIDTH:L_WIDTH + n] = (layout[L_BUYBACKS] if buyback is None
                                       else np.asarray(buyback, dtype=np.int64))
        layout[L_WIDTH + n:] = (buyback_thresholds(strat_mat, game.buyback_param) if buyback_below is None
                                else np.asarray(buyback_below, dtype=np.int64))
        extra = () if search_arg is None else search_arg(strat_mat)
        chunk(rules_arr, strat_mat, layout, np.int64(seed), np.int64(first_game), out, ctx, bool(debug), *extra)

    return play_game_chunk
