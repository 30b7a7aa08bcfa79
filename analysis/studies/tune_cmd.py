"""The ``rummylab tune`` subcommand (:mod:`.tune`)."""

from __future__ import annotations

import shlex
import sys

from sim.runner import MAX_UNITS

from ..args import OUT_DIR, add_command, jobs_arg, out_file, whole
from ..errors import TuneError

_EXAMPLES = """\
    rummylab tune --variant knock-rummy --players 4 --field simple,strong --budget 1500000 --seed 1 --out runs/tune-knock-rummy
    rummylab tune --variant gin --params knock,knock_mid,knock_late,mid_from,late_from --budget 400000 --out runs/tune-gin
    rummylab tune --variant knock-rummy --players 4 --out runs/tune-knock-rummy --save-preset tuned-small   # reuses the stored run
    rummylab tune --variant knock-rummy --base hand-strong --field simple,hand-strong,strong --objective worst-gain --budget 2000000
    rummylab report runs/tune-knock-rummy --html reports/tune.html"""


def add_parser(subparsers):
    p = add_command(
        subparsers, "tune", help="search a strategy family's parameters for the best result against a field",
        description="""\
            Searches the parameters of a strategy family (their ranges as the family declares
            them) for the strategy with the best mean edge per hand over a field of opponents.
            Every candidate plays the same duplicate deals (each deal once per position) against
            each field member; Optuna's TPE sampler proposes candidates and its successive-halving
            pruner gives the budget to the promising ones (rungs of 3x more hands).  The
            finalists are re-played on fresh deals of a seed the search never saw; the winner's
            edge against each field member comes from those deals only, with 95% CIs.
            With --out the run is stored and resumable: an interrupted run continues from its
            stored trials.""",
        epilog=_EXAMPLES)
    p.add_argument("--variant", required=True, help="game to tune for (see `rummylab variants`)")
    p.add_argument("--players", type=whole("--players", 1), default=None, help="number of players (default: the game's)")
    p.add_argument("--family", default=None, help="strategy family to tune (default: the family of the game's `simple`)")
    p.add_argument("--base", default=None,
                   help="preset the candidates start from: unsearched parameters keep its values, and it is the "
                        "first candidate, before the field members of the family (default simple)")
    p.add_argument("--params", default=None,
                   help="parameters to search, comma separated (default: all but random_play)")
    p.add_argument("--field", default=None,
                   help="opponents, comma separated strategy specs (default simple,strong, or simple)")
    p.add_argument("--budget", type=whole("--budget", 1, MAX_UNITS), default=200_000,
                   help="hands the candidates may play in the search, over all field members (default 200,000)")
    p.add_argument("--min-hands", type=whole("--min-hands", 1, MAX_UNITS), default=None,
                   help="hands of the first rung (default: the budget / (field x rungs x 100), at least 100)")
    p.add_argument("--rungs", type=whole("--rungs", 1, 12), default=4, help="successive-halving rungs (default 4)")
    p.add_argument("--trials", type=whole("--trials", 1, 100_000), default=1000, help="most candidates (default 1,000)")
    p.add_argument("--finalists", type=whole("--finalists", 1, 20), default=3,
                   help="candidates re-played on fresh deals (default 3)")
    p.add_argument("--final-hands", type=whole("--final-hands", 2, MAX_UNITS), default=None,
                   help="fresh duplicate hands per finalist and field member (default: the last rung's)")
    p.add_argument("--objective", choices=("mean", "worst-gain"), default="mean",
                   help="what the search maximises: mean, the mean edge over the field (default); worst-gain, the "
                        "least gain over --base against any one field member (a winner above 0 beats the base "
                        "against every member, not only on average)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="rule option, repeatable")
    p.add_argument("--seed", type=whole("--seed", 0), default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=jobs_arg, default=1, help="worker processes per evaluation (default 1)")
    p.add_argument("--out", type=OUT_DIR, default=None, metavar="DIR",
                   help="store the run in DIR (rerun resumes or reuses it; `rummylab report DIR`)")
    p.add_argument("--save-preset", default=None, metavar="NAME",
                   help="write the winner into the tuned presets file as preset NAME (with its provenance)")
    p.add_argument("--stands-for", default=None, metavar="PRESET",
                   help="with --save-preset: the saved preset stands for PRESET (e.g. strong) at --players players "
                        "(per player count where the best parameters differ; `search` follows `strong`)")
    p.add_argument("--presets-file", type=out_file("--presets-file"), default=None, metavar="FILE",
                   help="presets file to write (default sim/strategies/tuned_presets.json)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(func=cmd)
    return p


def command(spec, out=None) -> str:
    """The command line that runs ``spec`` (every option spelled out)."""
    words = ["rummylab", "tune", "--variant", spec.variant, "--players", str(spec.players), "--family", spec.family,
             "--base", spec.base, "--params", ",".join(n for n, *_ in spec.params), "--field", ",".join(spec.field),
             "--budget", str(spec.budget), "--min-hands", str(spec.min_hands), "--rungs", str(spec.rungs),
             "--trials", str(spec.trials), "--finalists", str(spec.finalists), "--final-hands", str(spec.final_hands),
             "--seed", str(spec.seed)]
    if spec.objective != "mean":
        words += ["--objective", spec.objective]
    for r in spec.rules:
        words += ["--rule", r]
    return shlex.join(words + (["--out", str(out)] if out else []))


def cmd(args) -> int:
    from .tune import build_spec, run_tune
    from .tune_text import format_tune
    spec = build_spec(args.variant, players=args.players, family=args.family, field=args.field, base=args.base,
                      params=args.params, budget=args.budget, min_hands=args.min_hands, rungs=args.rungs,
                      trials=args.trials, finalists=args.finalists, final_hands=args.final_hands, seed=args.seed,
                      rules=tuple(args.rule), objective=args.objective)
    if args.stands_for and not args.save_preset:
        raise TuneError("--stands-for names the preset the saved one stands for: give --save-preset too")
    if args.save_preset:
        from .tune_presets import check_name
        check_name(args.save_preset, spec.variant, spec.family, args.stands_for)
    try:
        doc = run_tune(spec, out_dir=args.out, jobs=args.jobs, progress=False if args.no_progress else None)
    except KeyboardInterrupt:
        print("rummylab: interrupted" + (f"; run the same command again to continue from {args.out}"
                                         if args.out else ""), file=sys.stderr)
        return 130
    print(format_tune(doc, as_json=args.json))
    if args.save_preset:
        from sim.strategies import TUNED_FILE

        from .tune_presets import save_preset
        path = args.presets_file or TUNED_FILE
        save_preset(doc, args.save_preset, command(spec, args.out), path, stands_for=args.stands_for)
        print(f"saved preset {args.save_preset!r} for {spec.variant} in {path}", file=sys.stderr)
    return 0
