"""The kernels' trailing ``search`` argument: omitted (numba types it ``Omitted(None)``, and the
branch ``if search is not None`` is pruned at compile time) when no seat searches, so a run of
heuristics compiles none of the search's kernels (in Gin they were 60% of the compile time);
an array when a seat does, and the kernels then dispatch per seat as before."""

import numpy as np


def search_arg(strat_mat, column: int) -> tuple:
    """``()`` unless a seat's ``search_worlds`` parameter (column ``column`` of the strategy
    matrix) is positive; then a one-element tuple holding a placeholder array."""
    return (np.zeros(1, dtype=np.uint64),) if (np.asarray(strat_mat)[:, column] > 0).any() else ()


def search_field(strat_mat, column: int):
    """The same for a namedtuple field (an advisor's world): None or the array."""
    a = search_arg(strat_mat, column)
    return a[0] if a else None
