"""The ``rummylab`` command line.

Bad input never shows a traceback: one line ``rummylab: error: ...`` and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

from sim.cards import CardError
from sim.rules import RulesError
from sim.runner import SpecError
from sim.strategies import StrategyError
from sim.variants import VariantError

from .store import StoreError

USER_ERRORS = (CardError, RulesError, StrategyError, VariantError, SpecError, StoreError)


class UserError(ValueError):
    """Any other input problem found by the CLI itself."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage + message)
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _int(name: str, lo: int | None = None):
    def conv(text: str) -> int:
        try:
            v = int(text.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} takes a whole number, got {text!r}") from None
        if lo is not None and v < lo:
            raise argparse.ArgumentTypeError(f"{name} must be >= {lo}, got {v}")
        return v
    return conv


def _jobs(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs takes a whole number (-1 = all cores), got {text!r}") from None
    if v == 0 or v < -1:
        raise argparse.ArgumentTypeError(f"--jobs must be >= 1, or -1 for all cores; got {v}")
    return v


def _examples(text: str) -> str:
    return "examples:\n" + textwrap.indent(textwrap.dedent(text).strip(), "  ")


# ----------------------------------------------------------------------------------------
# simulate

def add_run_options(p: argparse.ArgumentParser, hands_default: int) -> None:
    p.add_argument("--variant", default="gin", help="game to play (see `rummylab variants`); default gin")
    p.add_argument("--players", type=_int("--players", 1), default=None,
                   help="number of players (default: the variant's usual count)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="rule option, repeatable (see `rummylab variants`)")
    p.add_argument("--seed", type=_int("--seed", 0), default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=_jobs, default=-1, help="worker processes; -1 = all cores (default)")
    p.add_argument("--hands", type=_int("--hands", 1), default=hands_default,
                   help=f"hands to play (games with --game); default {hands_default:,}")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--backend", choices=("loky", "dask"), default="loky",
                   help="parallel backend for --jobs > 1 (dask needs --scheduler or runs a local cluster)")
    p.add_argument("--scheduler", default=None, help="dask scheduler address, e.g. tcp://host:8786")


def cmd_simulate(args) -> int:
    from sim.runner import make_spec

    from .engine import run
    from .summary import format_table, summarize
    spec = make_spec(args.variant, rules=args.rule, strategies=args.strategies, n=args.hands,
                     seed=args.seed, players=args.players, mode="games" if args.game else "hands")
    res = run(spec, jobs=args.jobs, out_dir=args.out, progress=None if not args.no_progress else False,
              backend=args.backend, scheduler=args.scheduler)
    d = summarize(spec, res.acc, complete=res.complete, elapsed_s=res.elapsed_s,
                  compile_s=res.compile_s, n_simulated=res.n_simulated, from_store=res.from_store)
    if args.out:
        d["out"] = str(args.out)
    print(json.dumps(d, indent=2) if args.json else format_table(d))
    if not res.complete:
        print("interrupted: the summary above covers only the finished hands"
              + (f"; run the same command again to resume from {args.out}" if args.out else ""),
              file=sys.stderr)
        return 130
    return 0


# ----------------------------------------------------------------------------------------
# listings

def cmd_strategies(args) -> int:
    from sim.strategies import FAMILIES, PRESETS, _load_families
    _load_families()
    for fam in FAMILIES.values():
        if args.variant and args.variant not in fam.variants:
            continue
        print(f"family {fam.name}  (variants: {', '.join(fam.variants)})")
        print(textwrap.indent(textwrap.fill(fam.doc, 90), "  "))
        print("  parameters (default, range):")
        for p in fam.params:
            print(f"    {p.name:<14} {p.default:>6g}  [{p.lo:g}, {p.hi:g}]  {p.help}")
        names = sorted({n for (v, n), (f, _) in PRESETS.items() if f is fam})
        print("  presets:")
        for n in names:
            vals = next(vals for (v, nn), (f, vals) in PRESETS.items() if f is fam and nn == n)
            desc = ", ".join(f"{k}={v:g}" for k, v in vals.items()) or "all defaults"
            print(f"    {n:<18} {desc}")
        print()
    return 0


def cmd_variants(args) -> int:
    from sim.variants import available, get_variant
    for name in available():
        try:
            v = get_variant(name)
        except ImportError:
            continue
        players = (f"{v.min_players}" if v.min_players == v.max_players
                   else f"{v.min_players}-{v.max_players}")
        print(f"{v.name}: {v.doc}  players {players}; outcomes: {', '.join(v.outcomes)}")
        print(f"  rule options (rules version {v.rules_cls.VERSION}), set with --rule NAME=VALUE:")
        for f in v.rules_cls.options():
            default = f.default
            if isinstance(default, bool):
                default = "on" if default else "off"
            print(f"    {f.name:<26} {str(default):>6}  {f.metadata.get('help', '')}")
        print()
    return 0


def cmd_bench(args) -> int:
    from .bench import main as bench_main
    return bench_main(quick=args.quick, out=args.markdown)


# ----------------------------------------------------------------------------------------

def build_parser() -> Parser:
    top = Parser(prog="rummylab", description="Monte Carlo strategy analysis for rummy-family games.",
                 formatter_class=argparse.RawDescriptionHelpFormatter,
                 epilog=_examples("""
                     rummylab simulate --variant gin --hands 1000000 --strategies simple,simple --seed 7
                     rummylab simulate --variant gin --hands 200000 --strategies "simple,threshold(knock=6)" --json
                     rummylab simulate --variant gin --rule knock_limit=8 --rule undercut_bonus=20 --game
                     rummylab strategies
                     rummylab variants
                 """))
    sub = top.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("simulate", help="play many hands (or games) and summarise with 95% CIs",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Play hands between one strategy per seat; print win rates, "
                                   "points per hand, outcome mix and hand length, each with a 95% CI.",
                       epilog=_examples("""
                           rummylab simulate --variant gin --hands 1000000 --strategies simple,simple --seed 7 --jobs 2
                           rummylab simulate --variant gin --hands 200000 --strategies "simple,threshold(knock=6)" --json
                           rummylab simulate --variant gin --rule knock_limit=8 --rule undercut_bonus=20 --game
                           rummylab simulate --variant gin --hands 500000 --out runs/gin-simple   # store + resume
                       """))
    add_run_options(p, 100_000)
    p.add_argument("--strategies", default="simple",
                   help="one spec per seat, comma separated, or one for all (see `rummylab strategies`)")
    p.add_argument("--game", action="store_true", help="play whole games to target_score instead of single hands")
    p.add_argument("--json", action="store_true", help="print the summary as JSON (keys in the README)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="store outcome rows + metadata in DIR (re-running resumes or reuses it)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("strategies", help="list strategy families, presets and every parameter")
    p.add_argument("--variant", default=None, help="only families for this variant")
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("variants", help="list variants and every rule option with its default")
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("bench", help="benchmark the engine (hands/s on 1 and all cores, memory)")
    p.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    p.add_argument("--markdown", default=None, metavar="FILE", help="also write the table to FILE")
    p.set_defaults(func=cmd_bench)
    return top


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except USER_ERRORS + (UserError,) as e:
        print(f"rummylab: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rummylab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and friends
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
