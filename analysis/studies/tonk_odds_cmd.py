"""The ``tonk-odds`` subcommand: the exact odds of a tonk on the deal (``tonk_odds.py``) beside
simulated deals of the real dealing code (``tonk_deal.py``)."""

from __future__ import annotations

import json

from sim.runner import MAX_UNITS

from .. import json_text
from ..args import OUT_DIR, MAX_TEXT, add_command, add_csv_option, int_values, jobs_arg, output_format, whole


def cmd_tonk_odds(args) -> int:
    from .tonk_deal import run_tonk_odds
    fmt = output_format(args)
    players = args.players or (2, 3, 4, 5, 6)
    mins = args.tonk_min or (49, 50)
    table, res = run_tonk_odds(players, mins, args.simulate, args.seed, out_dir=args.out,
                               jobs=args.jobs, progress=None if not args.no_progress else False)
    doc = {"deals": res.n_done if res else 0, "seed": args.seed,
           "complete": res.complete if res else True,
           "rows": json.loads(table.to_json(orient="records"))}
    if fmt == "json":
        print(json_text.dumps(doc))
    elif fmt == "csv":
        print(table.to_csv(index=False), end="")
    else:
        from sim.variants import get_variant

        from ..wording import answer_lines
        from .tonk_odds import tonk_odds_answer
        default = get_variant("tonk").rules_cls().tonk_deal_min
        for line in answer_lines(tonk_odds_answer(doc, default)) + [""]:
            print(line)
        sim = "sim" in table
        head = ("Tonk on the deal: exact probability (combinatorics over the shared 52-card deck)"
                + (f" vs {res.n_done:,} simulated deals of the real dealing code, seed {args.seed}, "
                   f"95% CI: Wilson, Clopper-Pearson below 5 expected" if sim else ""))
        print(head)
        print("probabilities as shares of deals (0.01 = 1% of deals)")
        print(f"{'players':>7} {'min':>4} {'quantity':<15} {'exact':>11}" + (f" {'simulated [95% CI]':>36}  check" if sim else ""))
        for r in table.itertuples():
            line = f"{r.players:>7} {r.tonk_min:>4} {r.quantity:<15} {r.exact:>11.6f}"
            if sim:
                line += (f" {r.sim:>11.6f} [{r.sim_lo:.6f}, {r.sim_hi:.6f}]  "
                         + ("CI MISSES EXACT" if r.ci_misses_exact else "ok"))
            print(line)
        if sim:
            miss = int(table.ci_misses_exact.sum())
            print(f"{miss} of {len(table)} CIs miss the exact value (about {0.05 * len(table):.1f} expected by chance at 95%)")
        print("p_given: a given player is dealt a tonk; p_exactly_one: the hand is paid out; "
              "p_two_or_more: tied tonks, redeal")
    return 0


def add_parser(sub) -> None:
    """The ``tonk-odds`` subcommand."""
    p = add_command(
        sub, "tonk-odds", help="probability of a tonk on the deal: exact and simulated",
        description="""\
            How often is a tonk dealt?  In Tonk a five-card hand counting at least
            tonk_deal_min (49 or 50) on the deal wins at once.  Prints, per player count and
            tonk_deal_min, the exact probability (combinatorics over the 52-card deck) that a given
            player, at least one player, exactly one (the hand is paid) or two or more (a tie,
            redealt) are dealt one, and checks each against --simulate deals of the real dealing
            code (95% Wilson intervals; Clopper-Pearson below 5 expected).""",
        epilog="""
            rummylab tonk-odds
            rummylab tonk-odds --players 4 --tonk-min 50 --simulate 2000000 --json
            rummylab tonk-odds --simulate 0          # exact values only
        """)
    p.add_argument("--players", type=int_values, default=None, help="player counts, e.g. 4 or 2..6 (default 2..6)")
    p.add_argument("--tonk-min", type=int_values, default=None, help="tonk_deal_min values: 49, 50 or 49,50 (default both)")
    p.add_argument("--simulate", type=whole("--simulate", 0, MAX_UNITS), default=1_000_000,
                   help=f"deals to simulate for the Monte Carlo check, {MAX_TEXT} "
                        "(default 1,000,000; 0 = exact only)")
    p.add_argument("--seed", type=whole("--seed", 0), default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=jobs_arg, default=-1, help="worker processes; -1 = all cores (default)")
    p.add_argument("--out", type=OUT_DIR, default=None, metavar="DIR",
                   help="store the simulation (and odds.json for reports) in DIR")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_csv_option(p, "the table")
    p.set_defaults(func=cmd_tonk_odds)
