"""Ramino Klop's advisor: rollouts of "knock now" vs "play on" from a concrete position.

Two packs: the pack is the 108-card multiset (every card twice, 4 jokers), hands are count
vectors (meld workspaces of :mod:`sim.wild_melds`) and the pool of unseen cards is a code
array with duplicates: the 108 cards less my hand, the upcard and the known discards.
Worlds as in :mod:`sim.advice` (upcard if unknown, the opponents' hands seat by seat, the
stock, the buried discards).  I am seat 0, the first to play (left of the dealer, seat
n-1); ``turn`` is my own turn number and the position is *after my draw and discard* (7
cards kept; 8 given: the exact best discard is played), so ``n*(turn-1) + 1`` turns have
been played and every opponent has had ``turn - 1``.

* **A, knock now** (legal only below ``knock_below``; 0 deadwood is rummy, which the rules
  end the hand with anyway): every seat shows its exact minimum deadwood and the hand is
  settled by ``closed_wild.settle``: each seat scores minus its own deadwood.
* **B, play on**: seat 1 moves with my discard on top of the pile and the hand is played out
  by ``closed_wild.play_from_state`` (restocks included; a void hand scores 0).

Result per world (``K_PTS``/``P_PTS``): my **penalty lead**, the average opponent's penalty
minus mine (scores are stored as minus penalty, so higher is better), stored as the integer
``(n-1)*score0 - sum(other scores)`` and scaled by ``1/(n-1)`` in the report.  "Won": I have
the hand's lowest penalty alone (the ``winner`` column).

Opponent model ``played`` (default): each opponent's uniformly dealt hand is replayed, in
seat order, through its ``turn - 1`` turns, drawing the buried cards and discarding by its
strategy; a world in which an opponent would already have gone rummy or knocked is redrawn.
``uniform``: the dealt hands as they are.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import advice as A
from . import advisor as AD
from ..wild import closed_wild as CW
from ..core.cards import cards_text
from ..strategies import wild as W
from ..strategies.random_play import coin
from ..core.trace import no_trace
from ..variants import COL_SCORE, column_index
from ..variants import ramino_klop as RK
from ..wild.wild_melds import best_discard, min_deadwood, ws_deadwood

GAME = AD.Game("ramino-klop", RK.VARIANT, RK.RaminoKlopRules)
PACKS, JOKERS = GAME.packs, GAME.jokers         # its AdvisorSpec's: 2 packs, 4 jokers
N_CARDS = 52 * PACKS + JOKERS


@njit(cache=True)
def _replay(cfg, strat, tabs, wss, perm, r0, r_end, turns, own_turn, st):
    """Replay each opponent's (seat 1, 2, ...) last ``turns`` turns on the buried cards
    ``perm[r0:r_end]`` (fewer when they run out): it draws the card, discards by its strategy
    (``random_play``: at random from its generator ``st[s]``), and its discard takes the drawn
    card's place.  Returns False if an opponent would have ended the hand on the way (rummy,
    or a knock its strategy makes)."""
    pack, P, vals, wild, order = tabs
    n = cfg[CW.C_PLAYERS]
    off = r0
    for s in range(1, n):
        k = min(turns, r_end - off)
        ws = wss[s]
        for j in range(k):
            c = perm[off + j]
            ws[c] += 1
            t = own_turn - k + j        # its own turn number then
            rp = strat[s, W.P_RANDOM_PLAY]
            if rp != 0:
                code = W.random_discard(ws, -1, st[s])
                ws[code] -= 1
                d = ws_deadwood(ws)
                ws[code] += 1
            else:
                code, d = W.choose_discard(strat[s], ws, ws_deadwood(ws), -1, t, order, vals, wild,
                                           cfg[CW.C_ACE_HIGH], cfg[CW.C_ROOMY_SET_MAX], False)
            ws[code] -= 1
            perm[off + j] = code
            if d == 0 or (d < cfg[CW.C_KNOCK_BELOW]
                          and coin(rp, st[s], d <= W.knock_threshold(strat[s], t))):
                return False
        off += k
    return True


@njit(cache=True)
def ramino_worlds(cfg, strat, tabs, hand, dw0, pool, stock_size, upcard, known, turn, replay,
                  max_tries, seed, first_world, c_winner, row_width, out, layout, fail, debug):
    """Worlds ``first_world .. first_world + len(out) - 1`` of a Ramino Klop knock question.

    ``cfg``/``tabs``: the game's (:func:`sim.variants.ramino_klop._setup`); ``hand`` int64[64]
    my counts after the discard, deadwood ``dw0``; ``pool`` int64: the unseen cards with
    duplicates (opponents' hands, stock, buried discards, and the upcard if ``upcard ==
    UP_SAMPLE``); ``known``: known buried discards; ``replay`` > 0 (model "played"): every
    opponent is replayed through ``replay`` turns (:func:`_replay`) and a world where one
    would have ended the hand is redrawn, at most ``max_tries`` draws (else ``fail[0]`` gets
    the world).  ``layout[i]`` (when it has rows): counts of every seat's hand, then of the
    stock and of the pile (top included) as play on starts."""
    n = cfg[CW.C_PLAYERS]
    hs = cfg[CW.C_HAND]
    n_cards = tabs[0].shape[0]
    n_pool = pool.shape[0]
    perm = np.empty(n_pool, dtype=np.int64)
    deck = np.empty(n_cards, dtype=np.int64)
    pile = np.empty(n_cards, dtype=np.int64)
    seats = np.arange(n)
    wss = CW.new_hands(n, tabs)
    dw = np.zeros(n, dtype=np.int64)
    state = np.zeros(CW.S_WIDTH, dtype=np.int64)
    row = np.zeros(row_width, dtype=np.int64)
    st = np.empty((n, 1), dtype=np.uint64)
    sp = n_cards - stock_size
    kind = CW.END_OUT if dw0 == 0 else CW.END_KNOCK
    for i in range(out.shape[0]):
        w, gen = AD.world_generator(seed, first_world, i)   # the world, then its restocks
        AD.seat_streams(st, seed, w)        # before the replays: random play draws from them
        tries = 0
        while True:
            up, pos, tries = AD.draw_world(gen, pool, perm, upcard, tries)
            wss[0, :64] = hand
            for s in range(1, n):
                wss[s, :64] = 0
                for j in range(hs):
                    wss[s, perm[pos + j]] += 1
                pos += hs
            if replay == 0 or _replay(cfg, strat, tabs, wss, perm, pos + stock_size, n_pool, replay,
                                      turn, st):
                break
            if tries >= max_tries:
                fail[0] = w
                return
        out[i, A.TRIES] = tries
        # A: knock now (rummy at 0 deadwood), every seat's exact deadwood
        dw[0] = dw0
        for s in range(1, n):
            dw[s] = ws_deadwood(wss[s])
        row[:] = 0
        CW.settle(cfg, seats, dw, 0, kind, 0, row)
        out[i, A.K_PTS] = A.net_vs_others(row, COL_SCORE, n)
        out[i, A.K_WIN] = 1 if row[c_winner] == 0 else 0
        # B: play on; seat 1 moves with `up` (my discard) on top of the pile
        npile = AD.pile_for_play_on(perm, pos, n_pool, stock_size, deck, sp, known, pile, up)
        if layout.shape[0] > 0:
            layout[i] = 0
            for s in range(n):
                layout[i, s] = wss[s, :64]
            for k in range(sp, n_cards):
                layout[i, n, deck[k]] += 1
            for k in range(npile):
                layout[i, n + 1, pile[k]] += 1
        state[:] = 0
        for s in range(n):
            state[CW.S_OWN + s] = turn if s == 0 else turn - 1
            state[CW.S_TURNS] += state[CW.S_OWN + s]
        state[CW.S_SP] = sp
        state[CW.S_NPILE] = npile
        state[CW.S_TO_MOVE] = 1
        row[:] = 0
        CW.play_from_state(cfg, strat, seats, wss, deck, pile, state, tabs, gen, st, row, debug,
                           no_trace())
        out[i, A.P_PTS] = A.net_vs_others(row, COL_SCORE, n)
        out[i, A.P_WIN] = 1 if row[c_winner] == 0 else 0


def rollouts(rules_arr, strat_mat, hand, pool, stock_size, upcard, known, turn, seed, first_world,
             n_worlds, *, replay=0, debug=False, with_hands=False, position=""):
    """Python entry: int64[n_worlds, N_OUT] (columns K_PTS, P_PTS, K_WIN, P_WIN, TRIES); with
    ``with_hands`` also int64[n_worlds, n + 2, 64]: every seat's hand (counts), then the
    stock's and the pile's as play on starts (:func:`ramino_worlds`).

    ``strat_mat``: one row per seat (seat 0 = me), its length the player count; ``hand``: my
    cards after the discard (codes, duplicates allowed); ``pool``/``known`` card codes;
    ``upcard`` a code or ``UP_SAMPLE``; ``replay``: opponent turns to replay (model
    "played"); ``position``: how the position is named in the error when no world fits."""
    rules_arr = np.ascontiguousarray(rules_arr, dtype=np.float64)
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    n = strat_mat.shape[0]
    if int(rules_arr[RK.R_PLAYERS]) != n:
        raise ValueError(f"ramino-klop: rules say players={int(rules_arr[RK.R_PLAYERS])}, "
                         f"{n} strategies given")
    cfg, tabs = RK._setup(rules_arr)
    counts = np.bincount(np.asarray(hand, dtype=np.int64), minlength=64).astype(np.int64)
    ws = CW.new_hands(1, tabs)[0]
    ws[:64] = counts
    dw0 = int(ws_deadwood(ws))
    cols = column_index(n, RK.EXTRA_COLUMNS)
    out, _, fail = AD.world_buffers(n_worlds)
    layout = np.zeros((int(n_worlds) if with_hands else 0, n + 2, 64), dtype=np.int64)
    ramino_worlds(cfg, strat_mat, tabs, counts, np.int64(dw0),
                  np.ascontiguousarray(pool, dtype=np.int64), np.int64(stock_size), np.int64(upcard),
                  np.ascontiguousarray(known, dtype=np.int64), np.int64(turn), np.int64(replay),
                  np.int64(A.MAX_REDRAWS + 1), np.int64(seed), np.int64(first_world),
                  np.int64(cols["winner"]), np.int64(len(cols)), out, layout, fail, bool(debug))
    AD.refuse_failed(fail, A.MAX_REDRAWS + 1, f"let every opponent reach your turn {turn} without "
                     "going rummy or knocking", position)
    return AD.with_extras(out, (layout, with_hands))


def _check(p: AD.Position) -> A.Prepared:
    """Check a Ramino Klop knock position (see ``analysis.studies.knock_advice``) and set up
    its worlds."""
    n = p.players
    r = AD.open_position(GAME, n, p.rules, (
        (p.spreads, "drop --spread: ramino-klop has no spreads (melds stay in the hands until "
                    "the showdown)"),
        (p.first_upcard is not None, "drop --first-upcard: it is a gin (oklahoma) option"),
        (p.opp_cards is not None, f"drop --opp-cards: every ramino-klop opponent holds "
                                  f"{RK.HAND_SIZE} cards between turns"),
        (p.history is not None, "drop --history: the ramino-klop advisor does not read a history yet")))
    hs = RK.HAND_SIZE
    notes: list[str] = []
    h = AD.read_hand(GAME, p.hand)
    if h.size not in (hs, hs + 1):
        raise A.AdviceError(f"a ramino-klop hand holds {hs} cards (or {hs + 1} before discarding), "
                            f"got {h.size}")
    up, known = AD.read_pile(GAME, h, p.upcard, p.discards)
    dup = dict(set_duplicates=r.set_duplicates)
    discard = None
    if h.size == hs + 1:    # the exact best discard; ties: the highest card, as the strategies do
        vals = CW.cached_tables("ramino-klop", None, r.set_duplicates)[2]
        bd = best_discard(h, **dup)
        discard = max(bd.discards, key=lambda c: (int(vals[c]), c & 15, c >> 4))
        h, up, known = AD.play_extra_card(h, up, known, discard, bd.deadwood, notes)
    arr = min_deadwood(h, **dup)
    dw = arr.deadwood
    melds = "; ".join(cards_text(m) for m in arr.melds) or "none"
    if dw >= r.knock_below:
        raise A.AdviceError(f"a Ramino knock needs deadwood below {r.knock_below}: the hand "
                            f"{cards_text(h)} has deadwood {dw} ({cards_text(arr.deadwood_cards)}; "
                            f"melds: {melds}), so knocking is not an option")
    if dw == 0:
        notes.append("deadwood 0: this is rummy, which the rules end the hand with at once; "
                     "'play on' shows what keeping it back would give")
    else:
        notes.append(f"knocking now shows deadwood {dw} ({cards_text(arr.deadwood_cards)}; melds: "
                     f"{melds})")
    me, opps, smat = AD.seat_strategies(GAME, p.strategy, p.opponent, n)
    RK.check_strategies(r, [me] + opps)
    st = _stock(n, p.turn, p.stock, int(known.size), notes, r.restock_keep_top)
    pool = A.pool_without(np.concatenate([h, up, known]), PACKS, JOKERS)
    replay = p.turn - 1 if p.opp_model == "played" else 0
    if replay:
        AD.replay_notes(notes, n, replay, pool.size - (n - 1) * hs - int(up.size == 0) - st)
    else:
        notes.append("opponent model 'uniform': the opponents' hands are uniform over the unseen "
                     "cards, much weaker than hands played for some turns (knocking looks better)")
    upc = AD.upcard_code(up, notes)
    rarr = r.to_array()
    notes.append("penalty lead: " + ("the average opponent's penalty minus yours" if n > 2 else
                                     "the opponent's penalty minus yours")
                 + " in the hand (everyone scores its own deadwood; higher is better: +3 = "
                 "3 penalty points fewer than " + ("the average opponent)" if n > 2 else "the opponent)"))
    notes.append("play on: you keep this hand and seat 1 moves next (an empty stock is replaced "
                 "by the turned-over discards; a hand reaching the turn limit is void, 0)")
    where = f" (hand {cards_text(h)}, {n} players)"

    def call(first, count, with_hands=False):
        return rollouts(rarr, smat, h, pool, st, upc, known, p.turn, p.seed, first, count,
                        replay=replay, debug=p.debug, with_hands=with_hands, position=where)

    return AD.prepared(call, h=h, score=dw, limit=r.knock_below - 1, discard=discard, turn=p.turn,
                       stock=st, players=n, upc=upc, me=me, opps=opps, r=r, notes=notes,
                       scale=1.0 / (n - 1), redraws=replay > 0, unit="penalty lead")


prepare = AD.entry(_check)


def _stock(n, turn, stock, n_known, notes, keep_top=False) -> int:
    """The stock after my draw: given, or every draw so far from the stock (with restocks:
    every turned-over pile held all the cards outside the hands, or all but its top with
    ``keep_top``).  ``n_known``: the known discards (never in the stock)."""
    full = N_CARDS - n * RK.HAND_SIZE - 1           # the stock after the deal and upcard
    room = full - n_known                           # unseen cards left for the stock
    drawn = n * (turn - 1) + 1                      # draws so far, mine included
    lo = full - drawn if drawn <= full else 0
    if stock is None:
        cycle = full if keep_top else full + 1      # the stock a restock makes
        later = max(drawn - full - 1, 0)            # draws after the first restock, mine excluded
        st = full - drawn if drawn <= full else cycle - 1 - later % cycle
        how = ("every draw so far came from the stock" if drawn <= full else
               f"every draw so far came from the stock, the pile turned over {1 + later // cycle} "
               "time(s)")
        if st > room:
            st = room
            notes.append(f"stock clipped to {room}: only {room} unseen cards are left for it")
        else:
            notes.append(f"stock {st} after your draw (default for turn {turn} with {n} players: {how})")
        return max(st, 0)
    return AD.given_stock(int(stock), turn, lo, full, room, seats=f" with {n} players",
                          short=f": at most {room} unseen cards are left for it (the known discards "
                                "and the top of the pile are not in it)")
