"""The ``rummylab`` command line.

Bad input never shows a traceback: one line ``rummylab: error: ...`` and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
import textwrap

from sim.core.errors import UserInputError
from sim.runner import MAX_UNITS

from .args import (OUT_DIR, add_command, add_csv_option, add_detail_option, add_rule_set_option, add_run_options,
                   add_seat_strategies, add_strategies_option, apply_rule_set, examples, interrupted, int_values,
                   jobs_arg, out_file, output_format, rummylab_version, turn_pair, whole, MAX_TEXT)
from .interrupt import sigterm_as_interrupt
from .lock import release_all
from . import json_text


class UserError(UserInputError):
    """Any other input problem found by the CLI itself."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage + message)
        self.exit(2, f"rummylab: error: {message} (see '{self.prog} --help')\n")




# ----------------------------------------------------------------------------------------
# simulate

def cmd_simulate(args) -> int:
    from sim.runner import make_spec

    from .jobs import run
    from .summary import format_table, summarize
    if args.scheduler and args.backend != "dask":
        raise UserError("--scheduler is the address of a dask scheduler: add --backend dask")
    spec = make_spec(args.variant, rules=args.rule, strategies=args.strategies, n=args.hands,
                     seed=args.seed, players=args.players, rule_set=args.rule_set,
                     mode="games" if args.game else "duplicate" if args.duplicate else "hands")
    res = run(spec, jobs=args.jobs, out_dir=args.out, progress=None if not args.no_progress else False,
              backend=args.backend, scheduler=args.scheduler)
    d = summarize(spec, res.acc, complete=res.complete, elapsed_s=res.elapsed_s,
                  compile_s=res.compile_s, n_simulated=res.n_simulated, from_store=res.from_store)
    if args.out:
        d["out"] = str(args.out)
    print(json_text.dumps(d) if args.json else format_table(d))
    if not res.complete:
        return interrupted(args.out, "interrupted: the summary above covers only the finished hands",
                           "run the same command again")
    return 0


# ----------------------------------------------------------------------------------------
# listings

def cmd_strategies(args) -> int:
    from sim.strategies import FAMILIES, _load_families
    from sim.variants import get_variant
    _load_families()
    variant = get_variant(args.variant).name if args.variant is not None else None
    for fam in FAMILIES.values():
        if variant and variant not in fam.variants:
            continue
        print(f"family {fam.name}  (variants: {', '.join(fam.variants)})")
        print(textwrap.indent(textwrap.fill(fam.doc, 90), "  "))
        print("  parameters (default, range):")
        for p in fam.params:
            print(f"    {p.name:<14} {p.default:>6g}  [{p.lo:g}, {p.hi:g}]  {p.help}")
        for v in fam.variants:
            if variant and v != variant:
                continue
            print(f"  presets for {v}:")
            for n, vals in sorted(fam.presets_for(v).items()):
                desc = ", ".join(f"{k}={x:g}" for k, x in vals.items()) or "all defaults"
                print(f"    {n:<18} {desc}")
            from .studies.tune_presets import tuned_lines
            for line in tuned_lines(v, fam.name):
                print(line)
            if v in fam.search_variants:
                from sim.strategies import search_extra
                for n, vals in {"search": search_extra(fam, v), **fam.search_also.get(v, {})}.items():
                    desc = ", ".join(f"{k}={x:g}" for k, x in vals.items())
                    print(f"    {n:<18} strong, deciding by simulation: {desc} (the search_* parameters above)")
        print()
    return 0


def cmd_variants(args) -> int:
    from sim.variants import available, get_variant

    from .studies.knob import acts_at
    for name in available():
        v = get_variant(name)
        players = (f"{v.min_players}" if v.min_players == v.max_players
                   else f"{v.min_players}-{v.max_players}")
        print(f"{v.name}: {v.doc}  players {players}; outcomes: {', '.join(v.outcomes)}")
        print(f"  scores in {v.score_unit}" + ("" if v.zero_sum is True else " (zero-sum per hand: depends on the rules)"
                                              if callable(v.zero_sum) else " (not zero-sum per hand)")
              + (f"; whole games: {v.game.kind} ({v.game.limit_rule})" if v.game else "")
              + (f"; knock sweeps vary {v.knob.param} ({acts_at(v, 'd')}), default "
                 f"{v.knob.default_range[0]}..{v.knob.default_range[1]}" if v.knob else ""))
        for note in (v.game.notes if v.game else ()):
            print(f"  whole games: {note}")
        print(f"  rule options (rules version {v.rules_cls.VERSION}), set with --rule NAME=VALUE:")
        for f in v.rules_cls.options():
            default = f.default
            if isinstance(default, bool):
                default = "on" if default else "off"
            print(f"    {f.name:<26} {str(default):>6}  {f.metadata.get('help', '')}")
        if v.rule_sets:
            print("  rule sets, chosen with --rule-set NAME (a --rule overrides one option):")
            for rs in v.rule_sets:
                print(textwrap.fill(", ".join(v.rules_with_set(rs)), 100, initial_indent=f"    {rs:<12} ",
                                    subsequent_indent=" " * 17))
        print()
    return 0


def cmd_knock_sweep(args) -> int:
    if args.equilibrium:
        from .studies.equilibrium_text import cmd_equilibrium
        return cmd_equilibrium(args)
    from .studies.knock_sweep import SweepSpec, run_sweep
    from .studies.sweep_text import format_sweep, sweep_csv
    fmt = output_format(args)
    spec = SweepSpec(variant=args.variant, thresholds=args.thresholds or (), by_turn=args.by_turn,
                     buckets=args.buckets or ((20, 10) if args.bucket_by == "stock" else (5, 9)),
                     bucket_by=args.bucket_by, hands=args.hands,
                     games=args.games,
                     seed=args.seed,
                     players=args.players, rules=tuple(args.rule), strategy=args.strategy,
                     opponent=args.opponent, rule_set=args.rule_set)
    res = run_sweep(spec, out_dir=args.out, jobs=args.jobs, progress=None if not args.no_progress else False,
                    backend=args.backend, scheduler=args.scheduler)
    print(sweep_csv(res) if fmt == "csv" else format_sweep(res, as_json=fmt == "json", detail=args.detail),
          end="" if fmt == "csv" else "\n")
    if not res.complete:
        return interrupted(args.out)
    return 0


def cmd_knock_rules(args) -> int:
    from .studies.knock_rules import RulesStudy, format_rules_table, parse_vary, run_rules_study
    from .studies.knock_sweep import SweepSpec
    fmt = output_format(args)
    base = SweepSpec(variant=args.variant, thresholds=args.thresholds or (), hands=args.hands,
                     games=args.games if args.games is not None else 0, seed=args.seed,
                     players=args.players, rules=tuple(args.rule), strategy=args.strategy,
                     opponent=args.opponent, rule_set=args.rule_set)
    study = RulesStudy(base, tuple(parse_vary(v) for v in args.vary))
    table, complete = run_rules_study(study, out_dir=args.out, jobs=args.jobs,
                                      progress=None if not args.no_progress else False,
                                      backend=args.backend, scheduler=args.scheduler)
    if not complete:
        return interrupted(args.out, "interrupted")
    if fmt == "json":
        print(table.to_json(orient="records", indent=2))
    elif fmt == "csv":
        print(table.assign(**{c: table[c].map(lambda v: " ".join(map(str, v))) for c in table
                              if c.endswith("indistinguishable")}).to_csv(index=False), end="")
    else:
        from .studies.knock_rules import rules_table_answer
        from .wording import answer_lines, preset_line, rules_lines
        for line in [*answer_lines(rules_table_answer(base, table)),
                     *rules_lines(base.spec_for(base.base(), 1).rules, base.variant),
                     *preset_line(base.variant, [base.strategy, base.opponent], base.n_players), ""]:
            print(line)
        print(f"best {base.knob().action} threshold by rule setting: {base.variant}, {study.base.spec_for(base.base(), 1).n_seats} "
              f"players, seat 0 = {base.strategy} vs {base.opponent}, {base.hands:,} hands per threshold, "
              f"seed {base.seed}")
        print(format_rules_table(table, base.game.score_unit))
    return 0


def cmd_compare(args) -> int:
    from .studies.compare_stats import compare_csv, format_compare
    from .studies.strategy_compare import CompareSpec, parse_rule_values, parse_strategy_list, run_compare
    fmt = output_format(args)
    if args.scheduler and args.backend != "dask":
        raise UserError("--scheduler is the address of a dask scheduler: add --backend dask")
    fixed, vary = parse_rule_values(args.rule)
    spec = CompareSpec(variant=args.variant, strategies=parse_strategy_list(args.strategies),
                       players=tuple(args.players or ()), rules=fixed, vary=vary, opponent=args.opponent,
                       hands=args.hands, seed=args.seed, rule_set=args.rule_set)
    quiet = args.no_progress
    res = run_compare(spec, out_dir=args.out, jobs=args.jobs, progress=None if not quiet else False,
                      backend=args.backend, scheduler=args.scheduler,
                      log=None if quiet else (lambda text: print(text, file=sys.stderr, flush=True)))
    if not res.complete:
        return interrupted(args.out, "interrupted", "rerun the same command")
    print(compare_csv(res) if fmt == "csv" else format_compare(res, as_json=fmt == "json"),
          end="" if fmt == "csv" else "\n")
    return 0


def cmd_demo(args) -> int:
    from .demo import run_demo
    return run_demo(args)


def cmd_bench(args) -> int:
    from pathlib import Path

    from .bench import main as bench_main
    if args.markdown and not Path(args.markdown).resolve().parent.is_dir():
        raise UserError(f"--markdown {args.markdown}: its folder does not exist; create it first")
    return bench_main(quick=args.quick, out=args.markdown)


# ----------------------------------------------------------------------------------------

def _add_simulate(sub) -> None:
    """The ``simulate`` subcommand."""
    p = add_command(
        sub, "simulate", help="play many hands (or games) and summarise with 95%% CIs",
        description="""\
            Play hands between one strategy per seat; print win rates, points per hand, outcome mix
            and hand length, each with a 95% CI.""",
        epilog="""
            rummylab simulate --variant gin --hands 1000000 --strategies simple,simple --seed 7 --jobs 2
            rummylab simulate --variant gin --hands 200000 --strategies "simple,threshold(knock=6)" --json
            rummylab simulate --variant gin --rule knock_limit=8 --rule undercut_bonus=20 --game
            rummylab simulate --variant gin --hands 500000 --out runs/gin-simple   # store + resume
        """)
    add_run_options(p, 100_000)
    add_strategies_option(p)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--game", action="store_true", help="play whole games to target_score instead of single hands")
    mode.add_argument("--duplicate", action="store_true",
                      help="duplicate deals: each deal played once per position (hands h*n .. h*n+n-1), so "
                           "position effects come free of deal luck")
    p.add_argument("--json", action="store_true", help="print the summary as JSON (its keys: docs/store-and-api.md)")
    p.add_argument("--out", type=OUT_DIR, default=None, metavar="DIR",
                   help="store outcome rows + metadata in DIR (re-running resumes or reuses it)")
    p.set_defaults(func=cmd_simulate)


def _add_knock_sweep(sub) -> None:
    """The ``knock-sweep`` subcommand (and its ``--equilibrium``)."""
    p = add_command(
        sub, "knock-sweep", help="when should I knock? threshold sweep with common random numbers",
        description="""\
            Seat 0 varies its knock threshold against a fixed opponent; every threshold plays the
            same deals, compared by paired differences; thresholds worse than the best are found by
            multiple comparisons with the best (family-wise 95%). --by-turn adds per-turn-bucket
            sweeps, the knock chart (calls Holm-controlled over its cells) and the chart's policy
            played against the best single threshold on fresh deals.""",
        epilog="""
            rummylab knock-sweep --variant gin --thresholds 0..10 --by-turn --hands 200000 --seed 1 --out runs/gin-knock
            rummylab knock-sweep --variant gin --rule undercut_bonus=10 --games 20000 --thresholds 0..10
            rummylab knock-sweep --variant tonk --players 3 --thresholds 0..20 --by-turn
            rummylab knock-sweep --variant gin --equilibrium --out runs/gin-equilibrium
        """)
    add_run_options(p, 200_000)
    p.add_argument("--thresholds", type=int_values, default=None,
                   help="thresholds to try: 0..10, 0..20:2 or 2,4,6 (default: the game's range, "
                        "see `rummylab variants`); with a step, a chart cell a-b covers deadwood a to b")
    p.add_argument("--by-turn", action="store_true", help="also sweep per own-turn bucket and build the knock chart")
    p.add_argument("--buckets", type=turn_pair, default=None,
                   help="where mid and late start: own turns (default 5,9) or, with --bucket-by stock, "
                        "cards left in the stock (default 20,10)")
    p.add_argument("--bucket-by", choices=("turn", "stock"), default="turn",
                   help="turn buckets by own turn number (default) or by stock size (games that allow it)")
    p.add_argument("--games", type=whole("--games", 0, MAX_UNITS), default=None,
                   help="also play this many whole games per threshold (games with a whole-game "
                        f"mode; {MAX_TEXT}; default 10,000 there; 0 to skip)")
    add_seat_strategies(p)
    p.add_argument("--json", action="store_true", help="print tables as JSON")
    add_csv_option(p, "every table (overall, games, by-turn buckets, chart; a 'table' column says which)")
    add_detail_option(p)
    p.add_argument("--out", type=OUT_DIR, default=None, metavar="DIR",
                   help="store the sweep in DIR (rerun resumes/reuses)")
    from .studies.equilibrium_text import HANDS, EquilibriumFlag
    p.add_argument("--equilibrium", action=EquilibriumFlag,
                   help="instead: a tournament of the thresholds and the game's presets (seats swapped, "
                        f"same deals; --hands per seating, default {HANDS:,}): best responses and the "
                        "equilibrium (2 players) or best-response iteration (3+ players)")
    p.set_defaults(func=cmd_knock_sweep)


def _add_knock_rules(sub) -> None:
    """The ``knock-rules`` subcommand."""
    p = add_command(
        sub, "knock-rules", help="how rule options move the best knock threshold",
        description="""\
            One knock sweep per rule setting (defaults, then each --vary value one rule at a time),
            same deals everywhere: the best threshold and the thresholds that cannot be told from
            it, per setting.""",
        epilog="""
            rummylab knock-rules --variant knock-rummy --players 4 --vary knocker_penalty=0,10,20 --vary rummy_bonus=0,25,50
            rummylab knock-rules --variant gin --vary undercut_bonus=10,25 --hands 100000 --out runs/gin-rules
        """)
    add_run_options(p, 100_000)
    p.add_argument("--vary", action="append", default=[], metavar="RULE=V1,V2,...",
                   help="a rule and the values to try, repeatable (one rule varied at a time)")
    p.add_argument("--thresholds", type=int_values, default=None, help="thresholds to try (default: the game's range)")
    p.add_argument("--games", type=whole("--games", 0, MAX_UNITS), default=None,
                   help="also judge each setting on this many whole games per threshold (default 0)")
    add_seat_strategies(p)
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    add_csv_option(p, "the table")
    p.add_argument("--out", type=OUT_DIR, default=None, metavar="DIR", help="store the study in DIR")
    p.set_defaults(func=cmd_knock_rules)


def _add_compare(sub) -> None:
    """The ``compare`` subcommand."""
    p = add_command(
        sub, "compare", help="compare seat 0's strategies on the same deals, by rule setting and player count",
        description="""\
            Seat 0 plays each strategy in turn against a fixed opponent in every other seat, on the
            same deals (common random numbers), for every player count and every rule setting (a
            --rule with several values is varied; several varied rules: every combination). Each
            strategy is compared with the first by paired differences, Holm-controlled over the
            whole study, with Bonferroni simultaneous intervals; rule settings are compared on hand
            length, points per hand and the strategies' differences (Welch intervals).""",
        epilog="""
            rummylab compare --variant wildcard --players 4..6 --rule packs=1,2 --strategies keep-wilds,discard-wilds-late
            rummylab compare --variant gin --strategies simple,tracker,patient --hands 200000 --seed 3
            rummylab compare --variant knock-rummy --players 3,4 --rule knocker_penalty=0,20 --strategies simple,strong --out runs/kr-compare
        """)
    p.add_argument("--variant", default="gin", help="game to play (see `rummylab variants`); default gin")
    p.add_argument("--strategies", required=True,
                   help="seat 0's strategies, comma separated (see `rummylab strategies`); the first is the reference")
    p.add_argument("--opponent", default="simple", help="strategy of every other seat (default simple)")
    p.add_argument("--players", type=int_values, default=None,
                   help="player counts: 4, 4..6 or 4,6 (default: the game's usual count)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=V1[,V2,...]",
                   help="rule option, repeatable; several values: compared as rule settings")
    add_rule_set_option(p)
    p.add_argument("--hands", type=whole("--hands", 2, MAX_UNITS), default=100_000,
                   help=f"deals per player count and setting (every strategy plays them), {MAX_TEXT}; default 100,000")
    p.add_argument("--seed", type=whole("--seed", 0), default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=jobs_arg, default=-1, help="worker processes; -1 = all cores (default)")
    p.add_argument("--out", type=OUT_DIR, default=None, metavar="DIR",
                   help="store the comparison in DIR (rerun resumes/reuses; `rummylab report DIR`)")
    p.add_argument("--json", action="store_true", help="print the tables as JSON")
    add_csv_option(p, "every difference to the reference (one row per cell and strategy)")
    p.add_argument("--no-progress", action="store_true", help="never show progress")
    p.add_argument("--backend", choices=("threads", "loky", "dask"), default="threads",
                   help="parallel backend for --jobs > 1 (as simulate)")
    p.add_argument("--scheduler", default=None, help="dask scheduler address, e.g. tcp://host:8786")
    p.set_defaults(func=cmd_compare)


def _add_demo(sub) -> None:
    """The ``demo`` subcommand."""
    p = add_command(
        sub, "demo", help="the default study: knock sweeps, equilibria, tonk odds, the wild-card games, variant balance, HTML report",
        description="""\
            Run the default study (`make demo`) and render its report: Gin, 3-player Tonk and
            4-player Knock Rummy knock sweeps by turn with their knock charts, Knock Rummy's rule
            effects, knock equilibria, the tonk-on-the-deal odds, one study per wild-card and
            open-melding game, and the balance of every game.  Every run is stored under --out
            (rerun to resume; finished runs are reused), then --html gets the landing page of
            answers and a page per game beside it.  About 5 minutes on 2 cores at --scale 1;
            --scale 0.2 is a quicker, noisier look.""",
        epilog="""
            rummylab demo                                  # runs/demo + reports/index.html
            rummylab demo --scale 0.2 --out runs/small     # a quicker, noisier look
        """)
    p.add_argument("--out", type=OUT_DIR, default="runs/demo", metavar="DIR",
                   help="where the stored runs go (default runs/demo)")
    p.add_argument("--html", type=out_file("--html"), default="reports/index.html",
                   help="report file (default reports/index.html)")
    from .demo import SCALE_RANGE, scale_arg
    p.add_argument("--scale", type=scale_arg, default=1.0,
                   help=f"multiply every sample size, {SCALE_RANGE[0]:g} to {SCALE_RANGE[1]:g} (default 1)")
    p.add_argument("--seed", type=whole("--seed", 0), default=1, help="random seed (default 1)")
    p.add_argument("--jobs", type=jobs_arg, default=-1, help="worker processes; -1 = all cores (default)")
    p.add_argument("--no-progress", action="store_true", help="never show progress bars")
    p.set_defaults(func=cmd_demo)


def _add_listings(sub) -> None:
    """The listings (strategies, variants) and bench."""
    p = sub.add_parser("strategies", help="list strategy families, presets and every parameter")
    p.add_argument("--variant", default=None, help="only families for this variant")
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("variants", help="list variants and every rule option with its default")
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("bench", help="benchmark the engine (hands/s on 1 and all cores, memory)")
    p.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    p.add_argument("--markdown", type=out_file("--markdown"), default=None, metavar="FILE",
                   help="also write the table to FILE")
    p.set_defaults(func=cmd_bench)


def build_parser() -> Parser:
    top = Parser(prog="rummylab", description="Monte Carlo strategy analysis for rummy-family games.",
                 formatter_class=argparse.RawDescriptionHelpFormatter,
                 epilog=examples("""
                     rummylab simulate --variant gin --hands 1000000 --strategies simple,simple --seed 7
                     rummylab simulate --variant gin --hands 200000 --strategies "simple,threshold(knock=6)" --json
                     rummylab simulate --variant gin --rule knock_limit=8 --rule undercut_bonus=20 --game
                     rummylab strategies
                     rummylab variants
                 """))
    top.add_argument("--version", action="version", version=f"rummylab {rummylab_version()}")
    sub = top.add_subparsers(dest="command", required=True, parser_class=Parser)

    from . import trace_cmd
    from .report import add_parser as add_report_parser
    from .serve.cmd import add_parser as add_serve_parser
    from .studies import balance, buyback, knock_advice_cmd, meld_plan, tonk_odds_cmd, tune_cmd
    for add in (_add_simulate, _add_knock_sweep, _add_knock_rules, _add_compare, tonk_odds_cmd.add_parser,
                _add_demo, knock_advice_cmd.add_parser, balance.add_parser, meld_plan.add_parser,
                buyback.add_parser, tune_cmd.add_parser, trace_cmd.add_parser, add_report_parser,
                add_serve_parser):
        add(sub)
    _add_listings(sub)
    return top


def main(argv=None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):   # `rummylab` alone: the questions it answers
        from .questions import overview
        print(overview(parser))
        return 0
    args = parser.parse_args(argv)
    try:
        with sigterm_as_interrupt():   # SIGTERM ends a run as Ctrl-C does: partial summary, resumable
            apply_rule_set(args)
            return args.func(args)
    except UserInputError as e:
        print(f"rummylab: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rummylab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and friends
        sys.stderr.close()
        return 0
    finally:
        release_all()


if __name__ == "__main__":
    sys.exit(main())
