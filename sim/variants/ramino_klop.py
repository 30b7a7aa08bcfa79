"""Ramino Klop, 2-6 players (rules: ``rules/ramino.md``, first part; source: seed 000,
"Ramino (Klop)").

Two 54-card joker packs (108 cards, 4 jokers); 7 cards each, dealt one at a time from the
dealer's left; the upcard starts the pile.  Melds of exactly 3 or 4 cards, runs in one suit
or sets of one rank, aces low, jokers wild (every meld holds a natural card).  A turn: draw
the stock top or the pile top, discard (never the card just taken from the pile), then end
the hand or not: **rummy** (0 deadwood) or a **knock** with deadwood below ``knock_below``.
Every player then scores its own exact minimum deadwood as penalty points (A 1, 2-10 face,
J Q K 10, joker 20).  An empty stock is replaced by the turned-over discard pile.

| option          | default | meaning |
|-----------------|---------|---------|
| players         | 4       | 2-6 players, 7 cards each |
| knock_below     | 7       | a knock needs deadwood below this (a strategy threshold set at or above it is refused) |
| set_duplicates  | off     | a set may hold two identical cards (two packs) |
| restock_shuffle | off     | shuffle the turned-over discard pile into the new stock |
| restock_keep_top | off    | **[choice]** keep the top discard as the pile, turn only the rest over |
| penalty_limit   | 101     | whole games: a player reaching this many penalty points is out; the last one left wins |

[choice]s where the rules are silent:

* The end is judged after the discard, on the 7 cards kept; 0 deadwood is always declared
  (rummy, no strategy declines it).  Rummy and knock score alike (no bonus, no penalty for a
  knocker beaten): the seed scores every player on its own cards only.
* Restock (:mod:`sim.wild.closed_wild`): when the stock is empty and the seat to move does not
  take the top discard, the whole pile is turned over, the first discard on top (the seed:
  "keer je de Aflegstapel om"); ``restock_keep_top`` keeps the top discard as the pile
  instead.  With two packs, "the card just taken" forbids
  discarding either copy of that card in the turn.
* A hand reaching ``MAX_TURNS`` (1000) is ``turn_limit``: void, no score, redealt by the same
  dealer in a whole game.
* ``winner`` of a hand: the seat with the lowest penalty, -1 if two or more share it.  The
  first dealer of a game is seat ``g % n``; the deal passes to the next seat still in play.
* Whole games (``rules/ramino.md`` records it as a **[choice]**; the seed is silent): if every
  player left reaches ``penalty_limit`` in the same hand, the one with the fewest penalty
  points stays in and wins (a tie: the lowest seat; :mod:`sim.core.games`).

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; ``score{s}`` = minus seat s's penalty (0 on a
void hand); ``deadwood{s}`` its exact minimum deadwood at the end (the ender's after its
discard); ``knock_deadwood`` / ``knock_turn`` the ender's deadwood and own turn (-1 on a void
hand).  In a whole game, hands are dealt to the seats still in play only; a seat out of play
has score and deadwood 0 in the rows.

Strategies (family ``wild``, :mod:`sim.strategies.wild`): ``simple`` knocks as soon as the
rules allow (deadwood <= 6), takes the pile top when it melds, discards the card leaving the
least deadwood.  ``hand-strong`` (the hand-picked ``strong`` before tuning; ``strong`` is tuned: README) = simple + ``keep_near=1`` (equal-deadwood discards keep pairs and
near-runs) + ``discard_wilds_from=-1`` (never discards a joker).  Seat 0 playing it against
``simple`` opponents, minus seat 0 playing ``simple``, on the same deals (penalty points per
hand of seat 0 against the others' mean; higher is better): +0.41 +- 0.06 with 2 players,
+0.29 +- 0.04 with 4 (95% CI, 30,000 paired hands each, seed 202; picked on seed 101, where a
lower knock threshold lost, knock <= 3: -0.57 +- 0.04, and so did the take=1 pile rule,
-1.20 +- 0.15, at 4 players).  The knock
sweep varies ``knock`` over 0..6 (``knock_below`` - 1).

Kernels: :mod:`sim.wild.closed_wild` (``play_chunk_kernel``, ``play_hand``, ``play_from_state``,
``deal``, ``settle``, ``game_chunk_kernel``), called with this game's ``cfg``.  The knock
advisor's declaration (``ADVISOR``, its world pieces: :mod:`sim.advisors.advisor`) is at the end.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..advisors import worlds as A
from ..wild import closed_wild as CW
from ..advisors.worlds import AdvisorSpec
from ..core import games
from ..core import search_flag as SF
from ..core.cards import cards_text
from ..core.errors import AdviceError
from ..core.rules import RulesBase, option
from ..strategies import StrategyError
from ..strategies import wild as W
from ..strategies.random_play import coin
from ..core.trace import NO_TRACE, no_trace
from ..wild.wild_melds import best_discard, min_deadwood, ws_deadwood
from . import COL_SCORE, Knob, WholeGame, column_index, hand_columns
from .wild_games import wild_variant

OUTCOMES = ("knock", "rummy", "turn_limit")
O_KNOCK, O_RUMMY, O_TURN_LIMIT = range(len(OUTCOMES))
EXTRA_COLUMNS = ("winner", "knock_deadwood", "knock_turn")
MIN_PLAYERS, MAX_PLAYERS = 2, 6
HAND_SIZE = 7
N_CARDS = 52 * 2 + 4        # two packs and 4 jokers (its AdvisorSpec's)


@dataclass(frozen=True)
class RaminoKlopRules(RulesBase):
    VERSION = 2  # 2: restock turns the whole pile over (issue 18); restock_keep_top keeps the old reading
    players: int = option(4, "number of players, 7 cards each", MIN_PLAYERS, MAX_PLAYERS)
    knock_below: int = option(7, "a knock needs deadwood (penalty) below this", 1, 100)
    set_duplicates: bool = option(False, "a set may hold two identical cards")
    restock_shuffle: bool = option(False, "shuffle the turned-over discard pile into the new stock")
    restock_keep_top: bool = option(False, CW.RESTOCK_KEEP_TOP_HELP)
    penalty_limit: int = option(101, "game: a player reaching this many penalty points is out", 1, 100000)


R_PLAYERS = RaminoKlopRules.index("players")


def _setup(rules_arr):
    n = RaminoKlopRules.checked_players(rules_arr, MIN_PLAYERS, MAX_PLAYERS, "ramino-klop")

    def rule(name):
        return int(RaminoKlopRules.value(rules_arr, name))

    cfg = CW.make_cfg(CW.GAME_RAMINO, n, HAND_SIZE, rule("knock_below"), rule("restock_shuffle"), 0, 0,
                      {"winner": 0, "end_deadwood": 1, "end_turn": 2},
                      (O_KNOCK, O_RUMMY, -1, O_TURN_LIMIT), rule("restock_keep_top"))
    return cfg, CW.cached_tables("ramino-klop", None, bool(rule("set_duplicates")))


def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False, trace=NO_TRACE):
    """Hand rows ``first_hand .. first_hand + len(out) - 1`` (see the sim.variants contract and
    :func:`sim.wild.closed_wild.play_chunk_kernel`); ``debug`` checks card conservation after every
    turn (ValueError), ``trace`` records the events."""
    cfg, tabs = _setup(rules_arr)
    CW.run_hands("ramino-klop", cfg, tabs, strat_mat, seed, first_hand, out,
                 len(hand_columns(int(cfg[CW.C_PLAYERS]), EXTRA_COLUMNS)), debug, trace)


def _game_chunk(rules_arr, strat_mat, layout, seed, first_game, out, ctx, debug):
    cfg, tabs = _setup(rules_arr)
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    CW.game_chunk_kernel(cfg, strat_mat, layout, seed, first_game, out, tabs, debug,
                         *SF.search_arg(strat_mat, W.P_SEARCH_WORLDS))


def check_strategies(rules, strategies) -> None:
    """A knock threshold set (not the family default, which the rules cap) at or above
    ``knock_below`` can never knock: refused."""
    for s in strategies:
        for k in ("knock", "knock_mid", "knock_late"):
            v = s.values.get(k, -1)
            if v >= rules.knock_below and v != s.family.params[s.family.index(k)].default:
                raise StrategyError(f"ramino-klop: {k}={v:g} can never knock: a knock needs deadwood below "
                                    f"knock_below={rules.knock_below}, so thresholds run from 0 to "
                                    f"{rules.knock_below - 1}")


GAME = WholeGame(kind="elimination", limit_rule="penalty_limit", winner_column="winner",
                 void_outcome=O_TURN_LIMIT, sweep_games=2_000, notes=(games.all_out_note(101),))
play_game_chunk = games.game_kernel(_game_chunk, (), GAME, RaminoKlopRules, EXTRA_COLUMNS)

VARIANT = wild_variant(
    name="ramino-klop",
    rules_cls=RaminoKlopRules,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    outcomes=OUTCOMES,
    play_chunk=play_chunk,
    score_unit="penalty",
    doc="Ramino Klop: 2-6 players, two joker packs, 7 cards, melds of 3-4, jokers wild; knock "
        "below 7 or rummy; everyone scores its own deadwood as penalty; out at 101.",
    extra_columns=EXTRA_COLUMNS,
    knob=Knob("knock", "knock_mid", "knock_late", "mid_from", "late_from", same=-1,
              default_range=(0, 6), limit_rule="knock_below", limit_offset=-1, bucket_kinds=("turn",),
              at_zero="go for rummy; never knock"),
    game=GAME,
    game_kernel=play_game_chunk,
    balance_scale=0.5,   # hand-strong beats simple: the docstring above
    check_strategies=check_strategies,
    advisor=AdvisorSpec("sim.variants.ramino_klop", opp_models=("played", "uniform"), packs=2, jokers=4),
)


# ----------------------------------------------------------------------------------------
# the knock advisor's declaration (sim.advisors.advisor): "knock now" vs "play on" after my
# draw and discard (7 cards kept; 8 given: the exact best discard is played), seat 0 playing
# first.  Two packs: hands are count vectors (meld workspaces of sim.wild.wild_melds) and the
# unseen pool a code array with duplicates.  A (legal only below knock_below; 0 deadwood is
# rummy, which the rules end the hand with anyway): every seat shows its exact minimum
# deadwood, settled by closed_wild.settle (each scores minus its own deadwood); B: seat 1
# moves with my discard on the pile, played by closed_wild.play_from_state (restocks
# included; a void hand scores 0).  My result: the penalty lead, (n-1)*score0 - the others'
# scores (1/(n-1) of it in the report).  "Won": my penalty is the hand's lowest, alone (the
# winner column).  Model "played": every opponent's dealt hand is replayed (sim.advisors.worlds.replayed).

RaminoWorld = namedtuple("RaminoWorld", "cfg strat tabs hand dw0 stock_size known turn replay c_winner deck pile "
                                        "seats wss dw state row st layout search")


def _advice_deal(g, perm, pos, ws):
    n = g.cfg[CW.C_PLAYERS]
    hs = g.cfg[CW.C_HAND]
    wss = g.wss
    for c in range(64):         # element by element: the draws run without reference counts
        wss[0, c] = g.hand[c]
    for s in range(1, n):
        for c in range(64):
            wss[s, c] = 0
        for j in range(hs):
            wss[s, perm[pos + j]] += 1
        pos += hs
    return pos, A.replayed(g, perm, pos + g.stock_size, g.replay, g.turn, g.stock_size, ws)


def _advice_replay_turn(g, s, c, t, stock_then, ws):
    w = g.wss[s]
    w[c] += 1
    rp = g.strat[s, W.P_RANDOM_PLAY]
    code, d = _advice_discard_kernel(g.cfg, g.strat[s], g.tabs, w, t, g.st[s])
    w[code] -= 1
    return code, d == 0 or (d < g.cfg[CW.C_KNOCK_BELOW] and coin(rp, g.st[s], d <= W.knock_threshold(g.strat[s], t)))


@njit(cache=True, _nrt=True)    # called from the replays (no reference counts): the strategies allocate
def _advice_discard_kernel(cfg, srow, tabs, w, t, st):
    """A replayed turn's discard from the hand ``w`` (drawn card in) and the deadwood it leaves
    (``random_play``: at random from the seat's generator ``st``)."""
    pack, P, vals, wild, order = tabs
    if srow[W.P_RANDOM_PLAY] != 0:
        code = W.random_discard(w, -1, st)
        w[code] -= 1
        d = ws_deadwood(w)
        w[code] += 1
        return code, d
    return W.choose_discard(srow, w, ws_deadwood(w), -1, t, order, vals, wild, cfg[CW.C_ACE_HIGH],
                            cfg[CW.C_ROOMY_SET_MAX], False)


def _advice_end_now(g, i):
    n = g.cfg[CW.C_PLAYERS]
    g.dw[0] = g.dw0
    for s in range(1, n):
        g.dw[s] = ws_deadwood(g.wss[s])
    g.row[:] = 0
    CW.settle(g.cfg, g.seats, g.dw, 0, CW.END_OUT if g.dw0 == 0 else CW.END_KNOCK, 0, g.row)
    return A.net_vs_others(g.row, COL_SCORE, n), 1 if g.row[g.c_winner] == 0 else 0


def _advice_play_on(g, i, perm, pos, up, ws, debug):
    n = g.cfg[CW.C_PLAYERS]
    n_cards = g.deck.shape[0]
    sp = n_cards - g.stock_size
    npile = A.pile_for_play_on(perm, pos, g.stock_size, g.deck, sp, g.known, g.pile, up)
    if g.layout.shape[0] > 0:
        g.layout[i] = 0
        for s in range(n):
            g.layout[i, s] = g.wss[s, :64]
        for k in range(sp, n_cards):
            g.layout[i, n, g.deck[k]] += 1
        for k in range(npile):
            g.layout[i, n + 1, g.pile[k]] += 1
    s = g.state
    s[:] = 0
    for q in range(n):
        s[CW.S_OWN + q] = g.turn if q == 0 else g.turn - 1
        s[CW.S_TURNS] += s[CW.S_OWN + q]
    s[CW.S_SP] = sp
    s[CW.S_NPILE] = npile
    s[CW.S_TO_MOVE] = 1     # seat 1 moves, `up` (my discard) on top of the pile
    g.row[:] = 0
    CW.play_from_state(g.cfg, g.strat, g.seats, g.wss, g.deck, g.pile, s, g.tabs, ws, g.st, g.row, debug,
                       no_trace(), g.search)
    return A.net_vs_others(g.row, COL_SCORE, n), 1 if g.row[g.c_winner] == 0 else 0


A.world_pieces(RaminoWorld, deal=_advice_deal, end_now=_advice_end_now, play_on=_advice_play_on,
               replay_turn=_advice_replay_turn)


def advice_world(rules_arr, smat, h, kn, stock_size, known, turn, seen, replay):
    """The sampler's :class:`sim.advisors.worlds.World` for ``count`` worlds; its extras: int64[count,
    n + 2, 64], every seat's hand (counts), then the stock's and the pile's as play on starts."""
    rules_arr = np.ascontiguousarray(rules_arr, dtype=np.float64)
    smat = np.ascontiguousarray(smat, dtype=np.float64)
    n = smat.shape[0]
    if int(rules_arr[R_PLAYERS]) != n:
        raise ValueError(f"ramino-klop: rules say players={int(rules_arr[R_PLAYERS])}, {n} strategies given")
    cfg, tabs = _setup(rules_arr)
    counts = np.bincount(np.asarray(h, dtype=np.int64), minlength=64).astype(np.int64)
    ws = CW.new_hands(1, tabs)[0]
    ws[:64] = counts
    n_cards = tabs[0].shape[0]
    cols = column_index(n, EXTRA_COLUMNS)

    def world(count, with_hands=False):
        layout = np.zeros((int(count) if with_hands else 0, n + 2, 64), dtype=np.int64)
        g = RaminoWorld(cfg, smat, tabs, counts, np.int64(ws_deadwood(ws)), np.int64(stock_size),
                        np.ascontiguousarray(known, dtype=np.int64), np.int64(turn), np.int64(replay),
                        np.int64(cols["winner"]), np.empty(n_cards, np.int64), np.empty(n_cards, np.int64),
                        np.arange(n), CW.new_hands(n, tabs), np.zeros(n, np.int64), np.zeros(CW.S_WIDTH, np.int64),
                        np.zeros(len(cols), np.int64), np.empty((n, 1), np.uint64), layout,
                        SF.search_field(smat, W.P_SEARCH_WORLDS))
        return A.World(g, (layout,) if with_hands else ())
    return world


def _advice_discard(r, h, took, notes):
    """The exact best discard of 8 cards (ties: the highest card, as the strategies do)."""
    vals = CW.cached_tables("ramino-klop", None, r.set_duplicates)[2]
    bd = best_discard(h, set_duplicates=r.set_duplicates)
    return max(bd.discards, key=lambda c: (int(vals[c]), c & 15, c >> 4)), bd.deadwood


def _advice_knock(r, p, k, given, h, notes):
    """The knock now: legal only below ``knock_below``; 0 deadwood is rummy (noted)."""
    arr = min_deadwood(h, set_duplicates=r.set_duplicates)
    if arr.deadwood >= r.knock_below:
        raise AdviceError(f"a Ramino knock needs deadwood below {r.knock_below}: the hand {cards_text(h)} has "
                          f"deadwood {A.shown(arr)}, so knocking is not an option")
    notes.append("deadwood 0: this is rummy, which the rules end the hand with at once; 'play on' shows what "
                 "keeping it back would give" if arr.deadwood == 0 else f"knocking now shows deadwood {A.shown(arr)}")
    return A.Knock(arr.deadwood, r.knock_below - 1)


def _advice_replay_notes(notes, n, replay, buried):
    if replay:
        A.replay_notes(notes, n, replay, buried)
    else:
        notes.append("opponent model 'uniform': the opponents' hands are uniform over the unseen "
                     "cards, much weaker than hands played for some turns (knocking looks better)")


def _advice_points(r, n, notes):
    notes.append("penalty lead: " + ("the average opponent's penalty minus yours" if n > 2 else
                                     "the opponent's penalty minus yours")
                 + " in the hand (everyone scores its own deadwood; higher is better: +3 = "
                 "3 penalty points fewer than " + ("the average opponent)" if n > 2 else "the opponent)"))
    notes.append("play on: you keep this hand and seat 1 moves next (an empty stock is replaced "
                 "by the turned-over discards; a hand reaching the turn limit is void, 0)")
    return 1.0 / (n - 1), "penalty lead"


def advice_stock(r, n, turn, stock, n_known, notes) -> int:
    """The stock after my draw: given, or every draw so far from the stock (with restocks:
    every turned-over pile held all the cards outside the hands, or all but its top with
    ``restock_keep_top``).  ``n_known``: the known discards (never in the stock)."""
    full = N_CARDS - n * HAND_SIZE - 1              # the stock after the deal and upcard
    room = full - n_known                           # unseen cards left for the stock
    drawn = n * (turn - 1) + 1                      # draws so far, mine included
    lo = full - drawn if drawn <= full else 0
    if stock is None:
        cycle = full if r.restock_keep_top else full + 1    # the stock a restock makes
        later = max(drawn - full - 1, 0)            # draws after the first restock, mine excluded
        st = full - drawn if drawn <= full else cycle - 1 - later % cycle
        how = ("every draw so far came from the stock" if drawn <= full else
               f"every draw so far came from the stock, the pile turned over {1 + later // cycle} "
               "time(s)")
        if A.clipped(st, room, notes) == st:
            notes.append(f"stock {st} after your draw (default for turn {turn} with {n} players: {how})")
        return max(min(st, room), 0)
    return A.given_stock(int(stock), turn, lo, full, room, seats=f" with {n} players",
                         short=f": at most {room} unseen cards are left for it (the known discards "
                               "and the top of the pile are not in it)")


ADVISOR = A.AdvisorGame(
    refuses=(("spreads", "drop --spread: ramino-klop has no spreads (melds stay in the hands until the showdown)"),
             ("first_upcard", "drop --first-upcard: it is a gin (oklahoma) option"),
             ("opp_cards", "drop --opp-cards: every ramino-klop opponent holds {hs} cards between turns"),
             ("history", "drop --history: the ramino-klop advisor does not read a history yet")),
    hand_size=lambda n: HAND_SIZE,
    hand_error="a ramino-klop hand holds {hs} cards (or {more} before discarding), got {got}",
    discard=_advice_discard, knock=_advice_knock, stock=advice_stock, replay_notes=_advice_replay_notes,
    points=_advice_points, world=advice_world,
    no_world="let every opponent reach your turn {turn} without going rummy or knocking")
