"""The hand-row layout every engine writes and every reader reads (numpy + numba only).

A hand row is the base columns, then ``score{s}`` and ``deadwood{s}`` per seat, then the
game's extra columns (:func:`hand_columns`).  The engines write rows with the constant offsets
here, the registry (:mod:`sim.variants`) declares each game's extras, and the runner, studies
and report find columns by name (:func:`column_index`): the layout lives below the engines so
that no engine imports the registry.
"""

from __future__ import annotations

from numba import njit

BASE_COLUMNS = ("dealer", "ender", "outcome", "turns", "stock_left")
MAX_SEATS = 8


def hand_columns(n_seats: int, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Outcome columns: base columns, score per seat, deadwood/count per seat, extras."""
    return (BASE_COLUMNS + tuple(f"score{s}" for s in range(n_seats))
            + tuple(f"deadwood{s}" for s in range(n_seats)) + tuple(extra))


def column_index(n_seats: int, extra: tuple[str, ...] = ()) -> dict[str, int]:
    """Column name -> index of a hand row (kernels take these as compile-time constants)."""
    return {c: i for i, c in enumerate(hand_columns(n_seats, extra))}


# column offsets shared by every hand row (the functions work in kernels and in Python)
COL_DEALER, COL_ENDER, COL_OUTCOME, COL_TURNS, COL_STOCK_LEFT = range(len(BASE_COLUMNS))
COL_SCORE = len(BASE_COLUMNS)             # score{s} = COL_SCORE + s


@njit(cache=True)
def col_deadwood(n_seats):
    """Index of ``deadwood0`` in a hand row of ``n_seats`` seats."""
    return COL_SCORE + n_seats


@njit(cache=True)
def col_extra(n_seats):
    """Index of the first extra column in a hand row of ``n_seats`` seats."""
    return COL_SCORE + 2 * n_seats
