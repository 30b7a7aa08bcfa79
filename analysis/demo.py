"""``rummylab demo`` (``make demo``): the README's main job, sized to run in about five minutes on
two cores, numba compilation included.

Knock sweeps for Gin, 3-player Tonk and 4-player Knock Rummy; how Knock Rummy's penalty and
bonus move its best threshold; knock policies against each other (Gin, 3-player Tonk, 4-player Knock Rummy); Gin's
seat edge with and without the first-upcard offer; tonk deal odds; then one short study per
wild-card game: Ramino Klop's knock chart and its elimination games (4 players), Cincinnati's
"go out at once or wait for a richer hand?" chart (4 players), and what holding wild cards is
worth in Wildcard at 4-6 players with one and two packs; for the open-melding games, Basic
Rummy's "meld early or hold back for rummy?" chart under both rummy bonuses, what its restock
rule does to hand length, the cost of Wrotham's all-seven rule, Ramino Drift's and Loba's
meld timing and the value of a Loba buy-back; the variant balance of every game; the report.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

from sim.runner import MAX_UNITS

from .demo_sizes import BALANCE_SCALE, DEMO_DEALS, DEMO_GAMES, DEMO_HANDS

FULL_RUN = "5 min"    # `make demo` at --scale 1 from a fresh clone (venv and numba compile included): BENCHMARKS.md
SCALE_RANGE = (1 / 2_000, MAX_UNITS / DEMO_DEALS)  # every sweep plays >= 1 hand (the sizes guard with max(..))
HOLD_GAMES = ("ramino-drift", "loba")          # the demo's meld-timing comparisons
HOLD_UNTIL = tuple(f"open(meld=1,meld_from={t})" for t in (2, 4, 7, 99))   # hold back for going out until own turn t
MELD_THRESHOLDS = (0, 5, 10, 15, 20, 25, 30)   # Basic Rummy's meld_at: meld when keeping at most this
WILDCARD_STRATEGIES = ("keep-wilds", "discard-wilds-late", "wild(discard_wilds_from=1,dump_wilds=1)", "wild(discard_wilds_from=-1,keep_near=1)")


def scale_arg(text: str) -> float:
    """--scale: a factor for every sample size within :data:`SCALE_RANGE`."""
    lo, hi = SCALE_RANGE
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not lo <= v <= hi:
        raise argparse.ArgumentTypeError(f"--scale takes a number from {lo:g} to {hi:g}, got {text!r}")
    return v


def _say(answer: list[str]) -> None:
    """A study's answer as the landing page words it (each study's ``*_answer``), as it lands."""
    from .wording import answer_lines
    print("\n".join(answer_lines(answer)) + "\n", flush=True)


def _interrupted() -> int:
    print("interrupted; rerun `make demo` to resume", file=sys.stderr)
    return 130


def run_demo(args) -> int:
    """Every study of the demo into ``args.out``, then the report ``args.html``."""
    from .store import claim
    out = claim(args.out, ("gin-knock",), "demo run")   # a new folder or an earlier demo's (resumed)
    k = args.scale
    progress = None if not args.no_progress else False
    if k >= 1 and progress is None:
        print(f"demo: about {FULL_RUN} on 2 cores at --scale {k:g} (finished runs in {args.out} are reused); "
              "--scale 0.2 is a quicker, noisier look", file=sys.stderr, flush=True)
    warmer = start_warmer(args) if k > SCALE_RANGE[0] else None
    try:
        return _run_studies(out, args, progress)
    finally:
        if warmer is not None and warmer.poll() is None:
            warmer.terminate()


def start_warmer(args):
    """On a fresh install (Tonk's kernels not compiled yet), a second process that compiles the
    kernels of the demo's later studies while the first ones run: it plays the whole demo at
    the smallest scale, Gin's first sweep left out (this process compiles it), into a scratch
    folder, printing nothing; its kernels land in the shared numba cache, where this process
    finds them.  None when the cache is warm already."""
    import os
    import subprocess
    from .coldstart import _marker
    m = _marker("tonk.hands")
    if m is None or m.exists():
        return None
    os.environ["RUMMYLAB_SPLIT_COMPILE"] = "0"     # two processes already: no third (analysis.compile_plan)
    return subprocess.Popen([sys.executable, "-m", "analysis.demo", "--warm", str(args.seed)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ))


def warm_main(seed: int) -> int:
    """The warmer's run (:func:`start_warmer`): every study at the smallest scale, no report."""
    import tempfile
    from types import SimpleNamespace
    with tempfile.TemporaryDirectory(prefix="rummylab-warm-") as d:
        args = SimpleNamespace(out=Path(d) / "demo", html=None, scale=SCALE_RANGE[0], seed=seed, jobs=1,
                               no_progress=True, warm=True)
        _run_studies(args.out, args, False)
    return 0


def _run_studies(out: Path, args, progress) -> int:
    """The demo's studies in order, each answer printed as it finishes; then the report
    (``args.html``; None: none, the warmer)."""
    from .report import render_report
    from .studies.tonk_deal import run_tonk_odds
    k = args.scale
    dirs = []
    for studies in (_knock_studies, _seat_runs):
        for name in studies(out, args, progress):
            if name is None:
                return _interrupted()
            dirs.append(str(out / name))
    print("== tonk deal odds: exact vs simulated", flush=True)
    _, res = run_tonk_odds((2, 3, 4, 5, 6), (49, 50), int(DEMO_DEALS * k), args.seed,
                           out_dir=out / "tonk-odds", jobs=args.jobs, progress=progress)
    if res is None or not res.complete:
        return 130
    from .report.odds import stored_odds_answer
    _say(stored_odds_answer(out / "tonk-odds"))
    dirs.append(str(out / "tonk-odds"))
    for name in _game_studies(out, args, progress):
        if name is None:
            return _interrupted()
        dirs.append(str(out / name))
    from .studies.buyback import run_buyback_study
    games = max(20, int(DEMO_GAMES["loba-buyback"] * k))
    print(f"== loba-buyback: what a Loba buy-back is worth, 4 players; {games:,} games per arm", flush=True)
    doc = run_buyback_study(out / "loba-buyback", "loba", players=4, games=games, seed=args.seed)
    import pandas as pd
    from .studies.buyback import buyback_answer
    _say(buyback_answer({"variant": "loba"}, pd.DataFrame(doc["table"])))
    dirs.append(str(out / "loba-buyback"))
    from .studies.balance import demo_balance
    print("== balance: every game at its default player count", flush=True)
    balance = demo_balance(out, scale=k * BALANCE_SCALE, seed=args.seed, jobs=args.jobs, progress=progress)
    from .studies.balance_text import balance_answer
    from .studies.balance import load_balance
    _say(balance_answer(load_balance(balance)))
    dirs.append(str(balance))
    if args.html is None:
        return 0
    pngs = render_report(dirs, args.html, jobs=args.jobs)
    pages = sorted(p.name for p in Path(args.html).parent.glob("*.html"))
    print(f"report: {args.html}, the answers; {len(pages)} pages ({', '.join(pages)}) and {len(pngs)} figures "
          f"beside it; stored runs in {out}/")
    return 0


def _knock_studies(out: Path, args, progress):
    """The demo's knock questions: the three knock sweeps (then each against the tuned strong),
    Knock Rummy's rule study and the three knock equilibria; yields each finished study's folder
    name, None where one was interrupted (then stops)."""
    from .studies.equilibrium_text import summarize
    from .studies.knock_equilibrium import EquilibriumSpec, run_equilibrium
    from .studies.knock_rules import RulesStudy, format_rules_table, run_rules_study
    from .studies.knock_sweep import SweepSpec, run_sweep
    from .studies.sweep_text import format_sweep
    k = args.scale
    steps = [
        ("gin-knock", SweepSpec(variant="gin", thresholds=tuple(range(0, 11)), by_turn=True,
                                hands=int(DEMO_HANDS["gin"] * k), games=int(DEMO_GAMES["gin"] * k), seed=args.seed)),
        ("tonk-knock", SweepSpec(variant="tonk", players=3, thresholds=tuple(range(0, 16)), by_turn=True,
                                 hands=int(DEMO_HANDS["tonk"] * k), seed=args.seed)),
        ("knock-rummy-knock", SweepSpec(variant="knock-rummy", players=4, by_turn=True,
                                        hands=int(DEMO_HANDS["knock-rummy"] * k),
                                        games=int(DEMO_GAMES["knock-rummy"] * k), seed=args.seed)),
    ]
    # the same questions against the tuned strong, with the knock chart, on a quarter of the
    # hands (no games)
    steps += [(f"{name}-vs-strong", replace(spec, opponent="strong", games=0, hands=max(1, spec.hands // 4)))
              for name, spec in steps]
    if getattr(args, "warm", False):
        steps = steps[1:]      # the warmer: Gin's first sweep compiles in the demo's own process
    for name, spec in steps:
        print(f"== {name}: {spec.variant} knock sweep, {spec.hands:,} hands per threshold", flush=True)
        res = run_sweep(spec, out_dir=out / name, jobs=args.jobs, progress=progress)
        if not res.complete:
            yield None
            return
        print(format_sweep(res).split("\n\n")[0] + "\n", flush=True)
        yield name
    rules = RulesStudy(SweepSpec(variant="knock-rummy", players=4, hands=int(DEMO_HANDS["knock-rules"] * k),
                                 games=0, seed=args.seed),
                       (("knocker_penalty", ("0", "20")), ("rummy_bonus", ("0", "50"))))
    print(f"== knock-rummy-rules: best threshold by knocker_penalty and rummy_bonus, "
          f"{rules.base.hands:,} hands per threshold", flush=True)
    table, complete = run_rules_study(rules, out_dir=out / "knock-rummy-rules", jobs=args.jobs, progress=progress)
    if not complete:
        yield None
        return
    print(format_rules_table(table, "points") + "\n", flush=True)
    yield "knock-rummy-rules"
    for name, eq in [
        ("gin-equilibrium", EquilibriumSpec(variant="gin", thresholds=tuple(range(0, 11)),
                                            hands=max(2, int(DEMO_HANDS["equilibrium"] * k)), seed=args.seed)),
        ("tonk-equilibrium", EquilibriumSpec(variant="tonk", players=3, thresholds=tuple(range(0, 16, 3)),
                                             hands=max(2, int(DEMO_HANDS["equilibrium"] * k / 2)), seed=args.seed)),
        ("knock-rummy-equilibrium", EquilibriumSpec(variant="knock-rummy", players=4, thresholds=tuple(range(0, 41, 5)),
                                                    hands=max(2, int(DEMO_HANDS["equilibrium"] * k / 2)), seed=args.seed)),
    ]:
        print(f"== {name}: {eq.variant} knock policies against each other, {eq.hands:,} deals per seating",
              flush=True)
        res = run_equilibrium(eq, out_dir=out / name, jobs=args.jobs, progress=progress)
        if not res.complete:
            yield None
            return
        print("\n".join(summarize(res)["answer"]) + "\n", flush=True)
        yield name


def _seat_runs(out: Path, args, progress):
    """Gin's seat edge, with and without the first-upcard offer; yields as ``_knock_studies``."""
    from sim.runner import make_spec

    from .jobs import run
    k = args.scale
    for name, rule in (("gin-seats", []), ("gin-seats-no-upcard-offer", ["first_upcard_offer=off"])):
        spec = make_spec("gin", rules=rule, n=max(1, int(DEMO_HANDS["seats"] * k)), seed=args.seed)
        print(f"== {name}: Gin seat edge{' with ' + rule[0] if rule else ''}, {spec.n:,} hands", flush=True)
        res = run(spec, jobs=args.jobs, out_dir=out / name, progress=progress)
        if not res.complete:
            yield None
            return
        from .report.run import stored_run_answer
        _say(stored_run_answer(out / name))
        yield name


def _study_steps(args) -> list[tuple[str, object, str]]:
    """(folder, spec, what) of the wild-card and open-melding games' questions."""
    from .studies.knock_sweep import SweepSpec
    from .studies.strategy_compare import CompareSpec
    k, seed = args.scale, args.seed

    def hands(name: str) -> int:
        return max(2, int(DEMO_HANDS[name] * k))
    return [
        ("ramino-klop-knock", SweepSpec(variant="ramino-klop", players=4, by_turn=True, hands=hands("ramino-klop"),
                                        games=max(2, int(DEMO_GAMES["ramino-klop"] * k)), seed=seed),
         "knock chart and elimination games (the last player left)"),
        ("cincinnati-go-out", SweepSpec(variant="cincinnati", players=4, thresholds=tuple(range(0, 61, 10)),
                                        by_turn=True, hands=hands("cincinnati"), seed=seed),
         "go out at once or wait for a richer hand?"),
        ("wildcard-wilds", CompareSpec(variant="wildcard", strategies=WILDCARD_STRATEGIES, players=(4, 5, 6),
                                       vary=(("packs", ("1", "2")),), hands=hands("wildcard"), seed=seed),
         "what holding wild cards is worth, one or two packs, 4-6 players"),
    ] + [
        (f"basic-rummy-meld-{bonus}", SweepSpec(variant="basic-rummy", players=4, thresholds=MELD_THRESHOLDS,
                                                by_turn=True, buckets=(3, 6), hands=hands("basic-rummy"), games=0,
                                                rules=(f"rummy_bonus={bonus}",), seed=seed),
         f"meld early or hold back for rummy (rummy_bonus={bonus})")
        for bonus in ("double", "plus10")
    ] + [
        ("basic-rummy-restock", CompareSpec(variant="basic-rummy", strategies=("simple", "strong"), players=(2, 4),
                                            vary=(("restock", ("turn_over", "shuffle", "block")),),
                                            hands=hands("basic-rummy"), seed=seed),
         "what the restock rule does to hand length"),
        *[(f"{game}-meld", CompareSpec(variant=game, strategies=("simple",) + HOLD_UNTIL, players=(2, 4),
                                       hands=hands(game), seed=seed),
           "meld early or hold back (until own turn t)") for game in HOLD_GAMES],
        ("wrotham-all-seven", CompareSpec(variant="wrotham", strategies=("simple", "strong"), players=(2, 4),
                                          vary=(("deal", ("3", "4")),), hands=hands("wrotham"), seed=seed),
         "the cost of the all-seven rule (deal 3 against deal 4)"),
    ]


def _game_studies(out, args, progress):
    """The wild-card and open-melding games' questions (:func:`_study_steps`); yields each stored
    folder's name (None: interrupted)."""
    from .studies.compare_stats import format_compare
    from .studies.knock_sweep import SweepSpec, run_sweep
    from .studies.strategy_compare import run_compare
    from .studies.sweep_text import format_sweep
    for name, spec, what in _study_steps(args):
        sweep = isinstance(spec, SweepSpec)
        print(f"== {name}: {spec.variant}, {what}; {spec.hands:,} {'hands per threshold' if sweep else 'deals per cell'}",
              flush=True)
        res = (run_sweep if sweep else run_compare)(spec, out_dir=out / name, jobs=args.jobs, progress=progress)
        if not res.complete:
            yield None
            return
        print((format_sweep if sweep else format_compare)(res).split("\n\n")[0] + "\n", flush=True)   # the answer
        yield name


if __name__ == "__main__":     # the warmer: python -m analysis.demo --warm SEED
    if sys.argv[1:2] == ["--warm"]:
        sys.exit(warm_main(int(sys.argv[2])))
    sys.exit("python -m analysis.demo is the demo's kernel warmer; run `rummylab demo`")
