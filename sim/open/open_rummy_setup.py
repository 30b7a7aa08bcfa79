"""Python side of the open-melding engine (:mod:`sim.open.open_rummy`): what every game module's
``play_chunk`` and ``play_game_chunk`` share (argument checks, cached tables, the choice of
the whole-game shape by the rules)."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..core import games
from ..core import search_flag as SF
from . import open_plan_layout as L
from . import open_rummy as OR
from ..core.cards import standard_pack
from ..strategies import open_play as S
from ..core.trace import NO_TRACE
from ..core.columns import hand_columns

_TABS: dict = {}


def tables(key, n_packs: int, n_jokers: int, vals: np.ndarray, mrs: list[np.ndarray]) -> tuple:
    """``tabs`` = (pack codes, values, meld rules rows int64[2, MR_WIDTH]), cached by ``key``
    (a hashable description of the rules that built them)."""
    if key not in _TABS:
        rows = np.stack([np.asarray(m, dtype=np.int64) for m in mrs])
        if rows.shape[0] == 1:
            rows = np.concatenate([rows, rows])
        _TABS[key] = (standard_pack(n_packs, n_jokers), np.asarray(vals, dtype=np.int64).copy(), rows)
    return _TABS[key]


def check_cfg(name: str, cfg, tabs) -> None:
    """The engine's discard and take switches say what the planner's meld rules say (the
    rules are decided once: a game that sets one without the other is a bug)."""
    for mr in tabs[2]:
        pairs = ((OR.C_TAKEN_NO_DISCARD, int(mr[L.MR_TAKE_NO_DISCARD])),
                 (OR.C_JOKER_LAST_ONLY, int(mr[L.MR_JOKER_DISCARD] == L.JD_OUT_ONLY)),
                 (OR.C_TAKE_RULE, OR.TAKE_TO_MELD if mr[L.MR_TAKE_MELD] else OR.TAKE_FREE))
        for c, want in pairs:
            if int(cfg[c]) != want:
                raise ValueError(f"{name}: cfg field {OR.CFG_FIELDS[c]}={int(cfg[c])} contradicts the meld rules "
                                 f"({want})")


def check_strategies_matrix(name: str, cfg, strat_mat) -> np.ndarray:
    strat_mat = np.ascontiguousarray(strat_mat, dtype=np.float64)
    n = int(cfg[OR.C_PLAYERS])
    if strat_mat.ndim != 2 or strat_mat.shape[0] != n:
        raise ValueError(f"{name}: rules say players={n}, {strat_mat.shape[0]} strategies given")
    if any(int(c) != S.FAMILY_CODE for c in strat_mat[:, 0]):
        raise ValueError(f"{name} needs strategies of family 'open' (code {S.FAMILY_CODE})")
    return strat_mat


def hand_chunk(name: str, setup: Callable, extra_columns: tuple[str, ...]) -> Callable:
    """The contract's ``play_chunk`` of a game whose ``setup(rules_arr) -> (cfg, tabs)``."""
    def play_chunk(rules_arr, strat_mat, seed, first_hand, out, debug=False, trace=None):
        """Hand rows ``first_hand .. first_hand + len(out) - 1`` (the sim.variants contract;
        :func:`sim.open.open_rummy.play_chunk_kernel`); ``debug`` checks card conservation and the
        table after every turn (ValueError), ``trace`` records the events."""
        cfg, tabs = setup(rules_arr)
        check_cfg(name, cfg, tabs)
        strat = check_strategies_matrix(name, cfg, strat_mat)
        width = len(hand_columns(int(cfg[OR.C_PLAYERS]), extra_columns))
        if out.ndim != 2 or out.shape[1] != width or out.dtype != np.int64:
            raise ValueError(f"out must be int64 (n_hands, {width})")
        OR.play_chunk_kernel(cfg, strat, np.int64(seed), np.int64(first_hand), out, tabs, bool(debug),
                             NO_TRACE if trace is None else trace, *SF.search_arg(strat, S.P_SEARCH_WORLDS))
    return play_chunk


def game_chunks(name: str, setup: Callable, rules_cls, extra_columns: tuple[str, ...],
                shapes: dict, pick: Callable) -> Callable:
    """The contract's ``play_game_chunk``: ``shapes`` maps a key to a
    :class:`~sim.variants.WholeGame`, ``pick(rules_arr)`` names the shape the rules play
    (Basic Rummy: to a target score, a number of deals, or a penalty limit)."""
    def chunk(rules_arr, strat_mat, layout, seed, first_game, out, ctx, debug):
        cfg, tabs = setup(rules_arr)
        check_cfg(name, cfg, tabs)
        strat = check_strategies_matrix(name, cfg, strat_mat)
        OR.game_chunk_kernel(cfg, strat, layout, seed, first_game, out, tabs, debug,
                             *SF.search_arg(strat, S.P_SEARCH_WORLDS))

    kernels = {k: games.game_kernel(chunk, (), g, rules_cls, extra_columns) for k, g in shapes.items()}

    def play_game_chunk(rules_arr, strat_mat, seed, first_game, out, debug=False, buyback=None,
                        buyback_below=None):
        """Whole games ``first_game ..`` (:mod:`sim.core.games`), in the shape the rules ask for."""
        return kernels[pick(rules_arr)](rules_arr, strat_mat, seed, first_game, out, debug=debug,
                                        buyback=buyback, buyback_below=buyback_below)
    return play_game_chunk
