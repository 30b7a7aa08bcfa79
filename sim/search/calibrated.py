"""The ``calibrated`` belief: a world's opponent hand built to the strength real hands have.

A uniform guess of the opponent's hand is a random hand: after a few turns a real opponent
holds melds and far less deadwood, so uniform worlds price a knock as safer than it is.  Here
the guess is developed (after jdh8/gin-rummy-engine's hand calibration): a target deadwood
is drawn from what real opponent hands held at this discard-pile length (:func:`target`,
the quantiles of the calibration table), and the guess swaps its free cards (not those the
seat knows the opponent holds) with unseen ones, keeping a swap only when it brings the
hand's deadwood closer to the target (:func:`sim.knock.develop.develop`).  The target is drawn, not the mean,
so the worlds spread as real hands do.

The tables, one per game and player count, live in ``calibration.json`` beside this module with their
provenance (the command, seed, hands and commit that measured them:
``scripts/calibrate_belief.py``); :func:`table` reads one.  The game module freezes it into
its kernels as a constant (the engine's cache folder is keyed by every ``.py`` and ``.json``
file of the package, so a new table compiles anew).

Shared here: the tables and the target; the development needs the game's own deadwood, so it
lives with the game family (single-pack knock games: :func:`sim.knock.develop.develop`; numba
would not cache a kernel that takes the deadwood kernel as an argument).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from ..core import rng
from ..core.bits import popcount

PATH = Path(__file__).with_name("calibration.json")


def key(game: str, players: int) -> str:
    """The name of a table in ``calibration.json``: ``gin-2p``."""
    return f"{game}-{players}p"


def table(game: str, players: int) -> np.ndarray:
    """The calibration table of ``game`` with ``players`` (float64[pile lengths, quantiles]);
    a table of zeros (every target 0: the guess develops toward going out) when none is
    stored."""
    if PATH.exists():
        doc = json.loads(PATH.read_text())
        if key(game, players) in doc:
            return np.array(doc[key(game, players)]["quantiles"], dtype=np.float64)
    return np.zeros((1, 1), dtype=np.float64)


def tables(game: str, players) -> np.ndarray:
    """The tables of ``game`` for each player count of ``players`` stacked by that count:
    float64[max players + 1, pile lengths, quantiles], each padded with its own last row
    (the row that pools the longest piles)."""
    tabs = {n: table(game, n) for n in players}
    rows = max(t.shape[0] for t in tabs.values())
    q = max(t.shape[1] for t in tabs.values())
    out = np.zeros((max(players) + 1, rows, q))
    for n, t in tabs.items():
        if t.shape[1] != q:
            t = np.zeros((1, q))
        out[n, :t.shape[0]] = t
        out[n, t.shape[0]:] = t[-1]
    return out


@njit(cache=True)
def target(tab, pile_len, st):
    """A target deadwood for pile length ``pile_len``: the row's quantiles read at a uniform
    random level, linear between the midpoint quantiles."""
    row = tab[min(max(pile_len, 0), tab.shape[0] - 1)]
    q = row.shape[0]
    x = rng.uniform(st) * q - 0.5
    if x <= 0.0:
        return row[0]
    i = int(x)
    if i >= q - 1:
        return row[q - 1]
    f = x - i
    return row[i] * (1.0 - f) + row[i + 1] * f


_U1 = np.uint64(1)


@njit(cache=True, inline="always")
def pick(m, st):
    """The bit of a uniformly random card of the mask ``m`` (non-empty)."""
    k = rng.randint(st, popcount(m))
    for _ in range(k):
        m &= m - _U1
    return m & (~m + _U1)
