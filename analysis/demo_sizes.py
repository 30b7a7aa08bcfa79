"""The default study's sample sizes (``rummylab demo`` at ``--scale 1``), what they were before the
cut and why: the demo plays them (:mod:`analysis.demo`), the report's methods page says so
(:func:`sizes_note`, :mod:`analysis.report.site`)."""

from __future__ import annotations

# The default study's sample sizes, per threshold / cell / seating at --scale 1.  Cut on
# 2026-12-07 (issue 31) to 0.1-0.5 of the sizes before (in brackets), so that `make demo` fits
# 5 minutes on 2 cores from a fresh clone: the answers where those intervals were far from
# deciding anything keep their calls; every answer still states its n and 95% interval, and the
# report's methods page says so (:func:`sizes_note`).  `--scale 3` plays at least the old sizes.
DEMO_HANDS = {"gin": 30_000, "tonk": 25_000, "knock-rummy": 12_000, "knock-rules": 5_000,   # [100k, 50k, 30k, 20k]
              "equilibrium": 2_000, "seats": 100_000, "ramino-klop": 8_000,                  # [20k, 200k, 20k]
              "cincinnati": 4_000, "wildcard": 4_000, "basic-rummy": 4_000,                  # [10k, 10k, 10k]
              "wrotham": 2_000, "ramino-drift": 2_000, "loba": 1_000}                        # [5k, 4k, 2k]
DEMO_GAMES = {"gin": 1000, "knock-rummy": 800, "ramino-klop": 400, "loba-buyback": 150}     # [5000, 2000, 1000, 400]
DEMO_DEALS = 400_000                                                                        # [1,000,000]
BALANCE_SCALE = 0.2         # of demo_balance's own sizes [1]
BEFORE = {"gin": 100_000, "tonk": 50_000, "knock-rummy": 30_000, "knock-rules": 20_000, "equilibrium": 20_000,
          "seats": 200_000, "ramino-klop": 20_000, "cincinnati": 10_000, "wildcard": 10_000,
          "basic-rummy": 10_000, "wrotham": 5_000, "ramino-drift": 4_000, "loba": 2_000}


def sizes_note() -> str:
    """The methods page's paragraph on the default study's sample sizes (what was cut, why)."""
    cut = ", ".join(f"{name} {DEMO_HANDS[name]:,} (was {BEFORE[name]:,})" for name in DEMO_HANDS)
    return ("The default study (`rummylab demo`) was cut to fit five minutes on two cores from a fresh "
            f"clone: hands per threshold, cell or seating at --scale 1 are now {cut}; whole games "
            f"{', '.join(f'{g} {n:,}' for g, n in DEMO_GAMES.items())} (were 5,000, 2,000, 1,000, 400); "
            f"tonk deals {DEMO_DEALS:,} (were 1,000,000); the balance study at {BALANCE_SCALE:g} of its "
            "sizes. Why: the earlier sizes gave intervals several times narrower than the differences "
            "the answers call (Gin's best threshold +0.64 [+0.54, +0.74] points per hand over the "
            "runner-up at 100,000 hands), so the calls rest on the same methods at a fraction of the cost. "
            "Nothing else changed: every estimate keeps its 95% interval and its n, the comparisons "
            "their multiplicity control, so a smaller sample shows as a wider interval or a 'not "
            "significant', never as a false call. `rummylab demo --scale 3` plays at least the earlier "
            "sizes.")
