"""The settlement of a hand of the open-melding engine (:mod:`sim.open.open_rummy`, rules in its
docstring): scores, counts and the extra columns of the hand row."""

from .jit import noalloc

from ..core.columns import COL_SCORE
from .open_rummy_layout import (
    C_NO_OUT, C_OUTCOME, C_PLAYERS, C_RUMMY, C_SETTLE, C_X_POINTS, C_X_RUMMY, C_X_WINNER, K_OUT, K_RUMMY,
    K_STOCK_OUT, NO_OUT_DIFFERENCES, NO_OUT_VOID, RUMMY_DOUBLE, RUMMY_PLUS10, SETTLE_WINNER,
)


@noalloc
def settle(cfg, seats, counts, ender, kind, row):
    """Fill the score, count and extra columns of ``row`` for an end ``kind`` by local seat
    ``ender`` (module docstring); returns the outcome code.  Seats not in play score 0."""
    n = cfg[C_PLAYERS]
    m = seats.shape[0]
    cd = COL_SCORE + n
    for s in range(n):
        row[COL_SCORE + s] = 0
        row[cd + s] = 0
    for i in range(m):
        row[cd + seats[i]] = counts[i]
    winner = -1
    pts = 0
    if kind == K_OUT or kind == K_RUMMY:
        winner = seats[ender]
        mult = 2 if kind == K_RUMMY and cfg[C_RUMMY] == RUMMY_DOUBLE else 1
        bonus = 10 if kind == K_RUMMY and cfg[C_RUMMY] == RUMMY_PLUS10 else 0
        if cfg[C_SETTLE] == SETTLE_WINNER:
            for i in range(m):
                if i != ender:
                    pts += counts[i]
            pts = pts * mult + bonus
            row[COL_SCORE + winner] = pts
        else:
            for i in range(m):
                if i != ender:
                    row[COL_SCORE + seats[i]] = -counts[i] * mult
            pts = bonus
            row[COL_SCORE + winner] = bonus
    elif kind == K_STOCK_OUT and cfg[C_NO_OUT] != NO_OUT_VOID:
        low = counts[0]
        for i in range(m):
            low = min(low, counts[i])
        n_low = 0
        total = 0
        for i in range(m):
            total += counts[i] - low
            if counts[i] == low:
                n_low += 1
                winner = seats[i]
        if n_low > 1:
            winner = -1
        if cfg[C_NO_OUT] == NO_OUT_DIFFERENCES:
            pts = total // n_low
            for i in range(m):
                if counts[i] == low:
                    row[COL_SCORE + seats[i]] = pts
        else:
            for i in range(m):
                row[COL_SCORE + seats[i]] = -counts[i]
    cx = COL_SCORE + 2 * n
    if cfg[C_X_WINNER] >= 0:
        row[cx + cfg[C_X_WINNER]] = winner
    if cfg[C_X_POINTS] >= 0:
        row[cx + cfg[C_X_POINTS]] = pts
    if cfg[C_X_RUMMY] >= 0:
        row[cx + cfg[C_X_RUMMY]] = 1 if kind == K_RUMMY else 0
    return cfg[C_OUTCOME + kind]
