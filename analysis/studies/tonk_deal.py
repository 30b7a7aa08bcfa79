"""Tonk deal probabilities: exact (``tonk_odds``) beside Monte Carlo estimates from the real
dealing code (``sim.variants.tonk.deal_tonk_flags``), with Wilson 95% CIs (Clopper-Pearson's
where fewer than 5 deals are expected to show it: :func:`analysis.stats.rate`); every estimate
whose CI misses the exact value is flagged.

The simulation is a chunked job (parallel, resumable, stored with ``--out``): deal ``h`` for
each player count is the first deal of hand ``h`` of a Tonk run with that seed, so the
estimates describe exactly what the simulator deals.  "A given player" is seat 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported only where a DataFrame is built
    import pandas as pd

import json

import numpy as np

from sim.runner import CHUNK

from .. import store
from ..jobs import Job, run_job
from ..provenance import git_describe, package_versions
from ..stats import rate
from .tonk_odds import PROB_KEYS, exact_tonk_odds


class TonkDealJob(Job):
    unit = "deal"
    desc = "tonk deals"

    def __init__(self, players: tuple[int, ...], tonk_mins: tuple[int, ...], n: int, seed: int):
        self.players, self.tonk_mins, self.n, self.seed = tuple(players), tuple(tonk_mins), n, seed
        for p in self.players:
            exact_tonk_odds(p, 49)  # validates the player count
        for m in self.tonk_mins:
            exact_tonk_odds(2, m)

    def identity(self):
        return {"kind": "tonk_deal", "players": list(self.players), "tonk_mins": list(self.tonk_mins),
                "seed": self.seed, "chunk": CHUNK}

    def warm_up(self):
        from sim.variants.tonk import deal_tonk_flags
        deal_tonk_flags(self.seed, 0, 1, 2, 49, np.zeros((1, 2), dtype=np.int64))

    def compute(self, a, b, out_dir):
        from sim.variants.tonk import deal_tonk_flags
        part = {}
        for p in self.players:
            for m in self.tonk_mins:
                flags = np.zeros((b - a, p), dtype=np.int64)
                deal_tonk_flags(self.seed, a, b - a, p, m, flags)
                k = flags.sum(axis=1)
                part[f"{p}:{m}"] = [b - a, int(flags[:, 0].sum()), int((k >= 1).sum()),
                                    int((k == 1).sum()), int((k >= 2).sum())]
        return part

    @staticmethod
    def merge(total, part):
        if total is None:
            return {k: list(v) for k, v in part.items()}
        return {k: [x + y for x, y in zip(total[k], part[k])] for k in total}


def odds_rows(players, tonk_mins, total: dict | None) -> "pd.DataFrame":
    """One row per players x tonk_min x quantity: exact, simulated with CI (Wilson, or
    Clopper-Pearson where the exact rate expects fewer than 5 deals), miss flag."""
    import pandas as pd
    rows = []
    for p in players:
        for m in tonk_mins:
            exact = exact_tonk_odds(p, m)
            counts = total.get(f"{p}:{m}") if total else None
            for q, key in enumerate(PROB_KEYS):
                r = {"players": p, "tonk_min": m, "quantity": key, "exact": exact[key]}
                if counts:
                    e = rate(counts[1 + q], counts[0], expected=counts[0] * exact[key])
                    r.update(sim=e.value, sim_lo=e.lo, sim_hi=e.hi, n=e.n,
                             ci_misses_exact=not (e.lo <= exact[key] <= e.hi))
                rows.append(r)
    return pd.DataFrame(rows)


def run_tonk_odds(players, tonk_mins, n: int, seed: int, *, out_dir=None, jobs=-1, progress=None):
    """(table, job result or None).  ``n`` = 0: exact values only."""
    result = None
    if n > 0:
        job = TonkDealJob(players, tonk_mins, n, seed)   # checks the counts before anything is written
        if out_dir is not None:   # held until the command ends: the run, then odds.json
            store.claim(out_dir, ("spec.json",), "tonk odds run")
        result = run_job(job, jobs=jobs, out_dir=out_dir,
                         progress=progress)
    table = odds_rows(players, tonk_mins, result.total if result else None)
    if out_dir is not None and result is not None and result.complete:
        doc = {"kind": "tonk_odds", "deals": n, "seed": seed,
               "rows": json.loads(table.to_json(orient="records")),
               "versions": package_versions(), "git": git_describe()}
        store.write_study(out_dir, "odds", doc)
    return table, result
