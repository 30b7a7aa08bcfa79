"""The closed-hand engine for games with wild cards and one or two packs: Ramino Klop,
Wildcard Rummy and Cincinnati (numpy + numba only; rules in shared/rules/).

The three games differ in a few integer-coded places, each decided once here:

* the deal size (``cfg[C_HAND]``, set by the game module from its rules);
* how a hand ends (:func:`_end_of_turn`): Ramino Klop after the discard, by rummy (0 deadwood)
  or a knock (deadwood below ``knock_below``, as the seat's strategy decides); Wildcard and
  Cincinnati after the draw, only with every card melded, without a discard or with one;
* the settlement (:func:`settle`): Ramino every seat scores minus its own exact deadwood
  (penalty); Wildcard the winner scores the others' exact deadwood; Cincinnati the winner
  scores the value of its own melds; a hand reaching ``MAX_TURNS`` is void (no score).

Hands are count vectors in one meld workspace per seat (:func:`sim.wild.wild_melds.new_workspace`,
the counts in ``ws[:64]``, index 13 = jokers).  A turn: draw the stock top or take the pile
top (the strategy, :mod:`sim.strategies.wild`), discard (never a copy of the code just taken
from the pile: with two packs the twin of the taken card is the same card to the table).
**Restock** (the seed): when the stock is empty and the seat to move does not take the top
discard, the whole discard pile is turned over to form the new stock (the first discard on
top; shuffled with the option ``restock_shuffle``) and the seat draws from it ([choice]: the
seat may still take the top discard first, as in :mod:`sim.open.open_rummy`).  **[choice]**
option ``restock_keep_top`` (the engine's reading before issue 18): as soon as a seat finds the
stock empty, every discard but the top one is turned over and the top discard stays as the
pile (if no card could be turned over, the seat takes the pile top).  Nothing to turn over at
all is a guard only: the hands of these games never hold all but two cards of the pack.

Random play (the ``random`` preset, ``random_play``): every seat draws its coins and random
discards from its strategy generator ``st[seat]`` (``st`` uint64[n, 1]; per hand ``(seed,
STREAM_STRATEGY + seat, h)``, per game :func:`sim.core.games.begin_game`); other strategies draw
nothing.

Kernels take plain arrays: ``cfg`` int64[C_WIDTH] (game code, players, deal size, knock
limit, restock, the extra-column offsets and the end-kind -> outcome map), ``tabs`` a tuple
``(pack, P, vals, wild, order)`` (the pack's codes, the meld parameters and values of
:func:`sim.wild.wild_melds.game_rules`, wild flags by code, held codes by value high to low).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core import trace as TR
from ..core.cards import standard_pack
from ..core.rules import RulesBase, RulesError, option
from ..strategies import wild as W
from ..core.trace import log, no_trace
from ..core.columns import COL_DEALER, hand_columns
from .wild_melds import game_rules, new_workspace, ws_deadwood
from ..core import games
from ..core import search_flag as SF
from ..core.deal import chunk_buffers, local_seat, shuffle_hand, turn_upcard
from .wild_decide import play_on_search, searching_seats
from .wild_turn import (C_ACE_HIGH, C_GAME, C_HAND, C_KNOCK_BELOW, C_OUTCOME, C_PLAYERS,  # noqa: F401 (the engine's API)
                        C_RESTOCK_KEEP_TOP, C_RESTOCK_SHUFFLE, C_ROOMY_SET_MAX, C_WIDTH, C_X_END_DW, C_X_END_TURN,
                        C_X_POINTS, C_X_WINNER, END_KNOCK, END_NONE, END_OUT, END_OUT_NO_DISCARD, END_TURN_LIMIT,
                        GAME_CINCINNATI, GAME_RAMINO, GAME_WILDCARD, MAX_TURNS, S_NPILE, S_OWN, S_SP, S_TAKES,
                        S_TO_MOVE, S_TURNS, S_WIDTH, check_cards, play_on, restock, settle, take_turn)


def tables(game: str, packs: int | None = None, set_duplicates: bool = False) -> tuple:
    """``tabs`` of a rule set: (pack codes, meld params, values, wild flags, order)."""
    g = game_rules(game, packs=packs, set_duplicates=set_duplicates)
    pack = standard_pack(g.packs, g.jokers)
    wild = np.zeros(64, dtype=np.int64)
    wild[13] = 1
    if int(g.params[5]):  # twos wild (wild_melds._P_TWOS_WILD)
        wild[[s * 16 + 1 for s in range(4)]] = 1
    codes = sorted(set(pack.tolist()), key=lambda c: (-int(g.values[c]), -(c & 15), -(c >> 4)))
    return (pack, g.params.copy(), g.values.copy(), wild, np.array(codes, dtype=np.int64))


def make_cfg(game: int, players: int, hand: int, knock_below: int, restock_shuffle: int,
             ace_high: int, roomy_set_max: int, extras: dict[str, int],
             outcome_of_end: tuple[int, int, int, int], restock_keep_top: int = 0) -> np.ndarray:
    """The ``cfg`` vector; ``roomy_set_max``: 0, or the largest set where a run always has
    room (:func:`sim.strategies.wild.wild_removal_bound`); ``extras``: column offset (from
    the first extra) of winner, points, end_deadwood, end_turn (missing: none);
    ``restock_keep_top``: 1 keeps the top discard as the pile when restocking."""
    cfg = np.full(C_WIDTH, -1, dtype=np.int64)
    cfg[C_GAME], cfg[C_PLAYERS], cfg[C_HAND] = game, players, hand
    cfg[C_KNOCK_BELOW], cfg[C_RESTOCK_SHUFFLE], cfg[C_ACE_HIGH] = knock_below, restock_shuffle, ace_high
    cfg[C_ROOMY_SET_MAX] = roomy_set_max
    cfg[C_RESTOCK_KEEP_TOP] = restock_keep_top
    for key, c in (("winner", C_X_WINNER), ("points", C_X_POINTS), ("end_deadwood", C_X_END_DW),
                   ("end_turn", C_X_END_TURN)):
        cfg[c] = extras.get(key, -1)
    cfg[C_OUTCOME:] = outcome_of_end
    return cfg


@njit(cache=True)
def play_from_state(cfg, strat, seats, wss, deck, pile, state, tabs, dst, st, row, debug, trace, search=None):
    """Play on from a position until the hand ends; fills ``row`` (all but ``dealer``).

    ``seats`` int64[m]: the seats in play (local seat i is seat ``seats[i]``); ``wss``
    int64[m, workspace]: each local seat's hand in its meld workspace; ``deck`` int64[pack
    size] with the stock as ``deck[state[S_SP]:]`` (top first); ``pile`` the discards
    (``state[S_NPILE]`` of them, top last); ``state`` (S_*: S_TO_MOVE and S_OWN are local);
    ``dst`` the generator of restock shuffles; ``st`` uint64[n, 1] the seats' strategy
    generators (drawn from by ``random_play`` only); ``search``: omitted when no seat searches
    (the search is then not compiled in: :mod:`sim.core.search_flag`)."""
    m = seats.shape[0]
    for c in range(1, row.shape[0]):
        row[c] = 0
    dw = np.empty(m, dtype=np.int64)
    for i in range(m):
        dw[i] = ws_deadwood(wss[i])
    if search is not None:      # pruned when omitted
        if searching_seats(strat, seats):    # a seat decides by search (sim.wild.wild_decide)
            play_on_search(cfg, strat, seats, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace)
            return
    play_on(cfg, strat, seats, wss, dw, deck, pile, state, tabs, dst, st, row, debug, trace)


@njit(cache=True)
def new_hands(m, tabs):
    """int64[m, workspace]: an empty meld workspace per local seat."""
    pack, P, vals, wild, order = tabs
    ws0 = new_workspace(P, vals)
    wss = np.empty((m, ws0.shape[0]), dtype=np.int64)
    for i in range(m):
        wss[i, :] = ws0
    return wss


@njit(cache=True)
def deal(cfg, deck, dealer, wss, pile, state):
    """Deal ``cfg[C_HAND]`` cards one at a time from the local ``dealer``'s left to the
    ``m`` local seats, turn the upcard, set up ``pile`` and ``state``."""
    m = wss.shape[0]
    dealt = m * cfg[C_HAND]
    for i in range(m):
        wss[i, :64] = 0
    for k in range(dealt):
        wss[(dealer + 1 + k) % m, deck[k]] += 1
    turn_upcard(deck, dealt, m, dealer, pile, state)


@njit(cache=True)
def play_hand(cfg, strat, seats, dealer, deck, tabs, dst, st, row, debug, trace, search=None):
    """Deal ``deck`` (shuffled) to the seats in play ``seats`` with ``dealer`` (a seat in
    play) and play the hand; fills ``row``."""
    m = seats.shape[0]
    local = local_seat(seats, dealer)
    wss = new_hands(m, tabs)
    pile = np.empty(deck.shape[0], dtype=np.int64)
    state = np.zeros(S_WIDTH, dtype=np.int64)
    deal(cfg, deck, local, wss, pile, state)
    if trace.shape[0] > 0:
        TR.log_pack(trace, deck)
        for k in range(state[S_SP] - 1):
            log(trace, TR.E_DEAL, seats[(local + 1 + k) % m], deck[k], 0)
        log(trace, TR.E_UPCARD, -1, pile[0], 0)
    play_from_state(cfg, strat, seats, wss, deck, pile, state, tabs, dst, st, row, debug, trace, search)
    row[COL_DEALER] = dealer


@njit(cache=True, nogil=True)
def play_chunk_kernel(cfg, strat, seed, first_hand, out, tabs, debug, trace, search=None):
    """Hand rows ``first_hand ..`` with every seat in play: hand ``h``'s deck and generators
    from :func:`sim.core.deal.shuffle_hand`, dealer ``h % n``."""
    pack = tabs[0]
    seats, deck, st = chunk_buffers(cfg[C_PLAYERS], pack)
    for k in range(out.shape[0]):
        h, dst = shuffle_hand(seed, first_hand + k, pack, deck, seats.shape[0] * cfg[C_HAND], st)
        play_hand(cfg, strat, seats, h % seats.shape[0], deck, tabs, dst, st, out[k], debug, trace, search)


@njit(cache=True, nogil=True)
def game_chunk_kernel(cfg, strat, layout, seed, first_game, out, tabs, debug, search=None):
    """Whole games ``first_game ..`` (the loop of :mod:`sim.core.games`): each hand is dealt to
    the seats still in play (``per[P_ACTIVE]``)."""
    per, sc, st, row = games.game_buffers(strat.shape[0], layout)
    deck = np.empty(tabs[0].shape[0], dtype=np.int64)
    for k in range(out.shape[0]):
        dst = games.begin_game(per, sc, st, seed, first_game + k)
        while games.next_hand(per, sc, layout, row, dst, tabs[0], deck):
            play_hand(cfg, strat, games.seats_in_play(per), sc[games.S_DEALER], deck, tabs, dst, st, row, debug,
                      no_trace(), search)
            games.record_hand(per, sc, layout, row)
        games.finish_game(per, sc, layout, out[k])


# ----------------------------------------------------------------------------------------
# Python side: the checks and calls every game module's play_chunk / play_game_chunk share

_TABS: dict = {}


def cached_tables(game: str, packs: int | None = None, set_duplicates: bool = False) -> tuple:
    key = (game, packs, bool(set_duplicates))
    if key not in _TABS:
        _TABS[key] = tables(game, packs, set_duplicates)
    return _TABS[key]


def run_hands(name: str, cfg, tabs, strat_mat, seed, first_hand, out, width: int, debug=False,
              trace=None) -> None:
    """Check the arguments of a game's ``play_chunk`` and play the hands."""
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    n = int(cfg[C_PLAYERS])
    if strat_mat.shape[0] != n:
        raise ValueError(f"{name}: rules say players={n}, {strat_mat.shape[0]} strategies given")
    if any(int(c) != W.FAMILY_CODE for c in strat_mat[:, 0]):
        raise ValueError(f"{name} needs strategies of family 'wild' (code {W.FAMILY_CODE})")
    if out.ndim != 2 or out.shape[1] != width or out.dtype != np.int64:
        raise ValueError(f"out must be int64 (n_hands, {width})")
    play_chunk_kernel(cfg, strat_mat, np.int64(seed), np.int64(first_hand), out, tabs, bool(debug),
                      TR.NO_TRACE if trace is None else trace, *SF.search_arg(strat_mat, W.P_SEARCH_WORLDS))


# ----------------------------------------------------------------------------------------
# Wildcard and Cincinnati: one or two packs, deal sizes (rules/wildcard_rummy.md, cincinnati.md)

RESTOCK_KEEP_TOP_HELP = ("[choice] restock keeps the top discard as the pile, turning only the rest over "
                         "(off: the seed's whole pile turned over)")


@dataclass(frozen=True)
class GoOutRules(RulesBase):
    """The options Wildcard Rummy and Cincinnati share."""
    players: int = option(4, "number of players", 2, 7)
    packs: int = option(0, "54-card joker packs: 0 by player count (one for 2-6, two for 7), "
                           "1 (2-6 players) or 2 (4-7 players)", 0, 2)
    deal_3p: int = option(7, "cards each with 3 players and one pack: 7 or 10", 7, 10)
    restock_shuffle: bool = option(False, "shuffle the turned-over discard pile into the new stock")
    restock_keep_top: bool = option(False, RESTOCK_KEEP_TOP_HELP)

    def validate(self) -> None:
        super().validate()
        n, k = self.players, self.packs
        if self.deal_3p not in (7, 10):
            raise RulesError(f"rule deal_3p={self.deal_3p}: 3 players are dealt 7 or 10 cards")
        if k == 1 and n == 7:
            raise RulesError("7 players play with two packs: drop packs=1 (or set packs=2)")
        if k == 2 and n <= 3:
            raise RulesError(f"{n} players play with one pack: drop packs=2 (two packs are for 4-7 players)")

    def n_packs(self) -> int:
        return packs_for(self.players, self.packs)


def packs_for(players: int, packs: int) -> int:
    """Packs in play: ``packs``, or by player count when 0 (one for 2-6, two for 7)."""
    return packs if packs else (2 if players == 7 else 1)


def go_out_deal_size(players: int, packs: int, deal_3p: int) -> int:
    """Cards each: two packs 10; one pack 7 (6 with six players, ``deal_3p`` with three)."""
    if packs == 2:
        return 10
    return {3: deal_3p, 6: 6}.get(players, 7)


def go_out_setup(rules_cls, game_name: str, game_code: int, rules_arr, outcome_of_end):
    """``cfg`` and ``tabs`` of a Wildcard / Cincinnati rules array (extras: winner, points,
    out_turn)."""
    r = np.asarray(rules_arr, dtype=np.float64)
    n = int(r[rules_cls.index("players")])
    packs = packs_for(n, int(r[rules_cls.index("packs")]))
    if not 2 <= n <= 7 or (packs == 1 and n == 7):
        raise ValueError(f"{game_name}: players={n} with {packs} pack(s)")
    hand = go_out_deal_size(n, packs, int(r[rules_cls.index("deal_3p")]))
    cfg = make_cfg(game_code, n, hand, 0, int(r[rules_cls.index("restock_shuffle")]), 1, 4 * packs,
                   {"winner": 0, "points": 1, "end_turn": 2}, outcome_of_end,
                   int(r[rules_cls.index("restock_keep_top")]))
    return cfg, cached_tables(game_name, packs)


def go_out_play_chunk(rules_cls, game_name: str, game_code: int, outcome_of_end, extra_columns):
    """The contract's ``play_chunk`` of a Wildcard-like game (:func:`go_out_setup`)."""
    def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False, trace=None):
        """Hand rows ``first_hand .. first_hand + len(out) - 1`` (the sim.variants contract;
        :func:`sim.wild.closed_wild.play_chunk_kernel`); ``debug`` checks card conservation after
        every turn (ValueError), ``trace`` records the events."""
        cfg, tabs = go_out_setup(rules_cls, game_name, game_code, rules_arr, outcome_of_end)
        width = len(hand_columns(int(cfg[C_PLAYERS]), extra_columns))
        run_hands(game_name, cfg, tabs, strat_mat, seed, first_hand, out, width, debug, trace)
    return play_chunk
