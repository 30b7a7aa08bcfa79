"""Tune every game's ``strong`` preset and check it, as stored, resumable runs.

    python scripts/tune_strong.py --games gin,knock-rummy --out runs/tune-strong
    python scripts/tune_strong.py --summary --out runs/tune-strong      # the table from the stored runs

For each game (:data:`PLAN`): ``rummylab tune`` at the game's default player count, starting
from the strongest hand-picked preset, against a field of ``simple`` and the hand-picked
presets it replaces, and saves the winner as the preset ``strong`` in
``sim/strategies/tuned_presets.json`` (the provenance: command, commit, seeds, edges).  Then,
on a seed the search never saw (``--check-seed``), ``rummylab compare`` plays ``strong``,
every hand-picked preset of the plan and ``simple`` in seat 0 on the same deals against each
opponent in turn (``simple``, each hand-picked preset, ``strong`` itself): the table of
``--summary``.  Every step is a stored run under ``--out``: running the script again continues
an interrupted tune and reuses finished ones.  Budgets are hands (sized so that one game takes
a few minutes on one core of the 2-core machine).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# variant: (base preset, hand-picked presets in the field, search budget in hands)
PLAN = {
    "gin": ("gin-hunter", ("gin-hunter", "eaai-simple"), 5_000_000),
    "knock-rummy": ("hand-strong", ("hand-strong", "strong-v1"), 12_000_000),
    "tonk": ("careful", ("careful",), 15_000_000),
    "ramino-klop": ("hand-strong", ("hand-strong",), 2_500_000),
    "wildcard": ("hand-strong", ("hand-strong",), 1_500_000),
    "cincinnati": ("hand-strong", ("hand-strong",), 1_200_000),
    "basic-rummy": ("hand-strong", ("hand-strong",), 1_200_000),
    "block-rummy": ("hand-strong", ("hand-strong",), 3_000_000),
    "wrotham": ("hand-strong", ("hand-strong",), 2_400_000),
    "ramino-drift": ("hand-strong", ("hand-strong",), 1_200_000),
    "loba": ("hand-strong", ("hand-strong",), 500_000),
}


KNOCK_BUCKETS = "knock,knock_mid,knock_late,mid_from,late_from"
WILDS = "take,take_gain,discard_wilds_from,keep_near,dump_wilds,wilds_opp"
OPEN = ("meld,meld_from,meld_at,meld_at_mid,meld_at_late,mid_from,late_from,layoff,take,discard_rule,"
        "meld_opp,discard_opp")
# the parameters each game's rules use (default: every parameter of the family but random_play);
# knock-rummy: per_opp does nothing at 2 players (the first run, strong-v1, searched it anyway)
PARAMS = {
    "knock-rummy": "knock,knock_mid,knock_late,bucket_by,mid_from,late_from,gin_after,upcard,upcard_gain,"
                   "near_weight,opp_weight,layoff,random_ties,arrange,upcard_knock,discard_rule,no_repeat",
    "ramino-klop": f"{KNOCK_BUCKETS},out_opp,{WILDS}",
    "wildcard": WILDS,
    "cincinnati": f"min_out,min_out_mid,min_out_late,mid_from,late_from,wait_until_turn,out_opp,{WILDS}",
    **{g: f"{OPEN},keep_jokers" for g in ("basic-rummy", "ramino-drift")},
    # second runs: fewer parameters, 2.5-3x the hands (the first, 800,000 / 1,200,000 hands over
    # the 13 above, kept hand-strong)
    **{g: "meld,meld_from,meld_at,take,discard_rule,keep_jokers,meld_opp,discard_opp" for g in ("block-rummy", "wrotham")},
    "loba": f"{OPEN},buyback",
}


def rummylab(*words: str, capture: bool = False) -> str:
    """Run ``rummylab`` (this checkout's) with ``words``; stop the script if it fails."""
    cmd = [sys.executable, "-m", "analysis.cli", *words]
    print("+ rummylab " + " ".join(words), file=sys.stderr, flush=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(cmd, cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE if capture else None)
    if done.returncode:
        sys.exit(f"tune_strong: rummylab {' '.join(words)} failed with exit code {done.returncode}")
    return done.stdout if capture else ""


# a second run of a game: its own seed and folder (knock-rummy's first run, seed 1 against simple
# and hand-strong, is the preset strong-v1: the command in its provenance)
SECOND = {"knock-rummy": (2, "tune-v2b"), "block-rummy": (2, "tune-v2"), "wrotham": (2, "tune-v2")}


def tune(variant: str, out: Path, seed: int, jobs: int) -> None:
    base, hand, budget = PLAN[variant]
    seed, folder = SECOND.get(variant, (seed, "tune"))
    rummylab("tune", "--variant", variant, "--base", base, "--field", ",".join(("simple", *hand)),
             "--budget", str(budget), "--seed", str(seed), "--jobs", str(jobs), "--no-progress",
             "--out", str(out / variant / folder), "--save-preset", "strong",
             *(["--params", PARAMS[variant]] if variant in PARAMS else []))


def opponents(variant: str) -> tuple[str, ...]:
    return ("simple", *PLAN[variant][1], "strong")


def distinct(variant: str) -> tuple[str, ...]:
    """The hand-picked presets of the plan that play differently from the tuned ``strong`` (a
    tuning run may keep its base: then ``strong`` is that preset)."""
    import sim.strategies as S
    hand = {h: S.parse_strategy(h, variant).values for h in PLAN[variant][1]}   # (loads the families)
    # strong from the file a tune just wrote (the presets this process loaded may predate it)
    entry = next(e for e in S.read_tuned()["presets"] if (e["variant"], e["name"]) == (variant, "strong"))
    family, values = S.check_tuned(entry)
    tuned = {p.name: float(p.default) for p in family.params} | values
    return tuple(h for h, v in hand.items() if v != tuned)


def check(variant: str, out: Path, hands: int, seed: int, jobs: int) -> None:
    """``strong``, the hand-picked presets and ``simple`` in seat 0 against each opponent."""
    seat0 = ",".join(("strong", *distinct(variant), "simple"))
    for opp in opponents(variant):
        text = rummylab("compare", "--variant", variant, "--strategies", seat0, "--opponent", opp, "--hands", str(hands),
                 "--seed", str(seed), "--jobs", str(jobs), "--no-progress", "--out", str(out / variant / f"vs-{opp}"),
                 "--json", capture=True)
        (ROOT / out / variant / f"vs-{opp}.json").write_text(text)


def summary(out: Path) -> str:
    """Markdown: per game and opponent, seat 0's result per hand for ``strong``, the hand-picked
    presets and ``simple`` (95% CIs), and ``strong`` minus each (paired, Holm-controlled)."""
    lines = ["| game (players) | opponent | strong | hand-picked | simple | strong - hand-picked | strong - simple |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for variant in PLAN:
        for opp in opponents(variant):
            path = ROOT / out / variant / f"vs-{opp}.json"
            if path.exists():
                lines.append(_row(variant, opp, json.loads(path.read_text())))
    return "\n".join(lines)


def _ci(v: float, lo: float, hi: float) -> str:
    v, lo, hi = (round(x, 2) + 0.0 for x in (v, lo, hi))      # no "-0.00"
    return f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def _row(variant: str, opp: str, doc: dict) -> str:
    """One table row of a stored compare run (``strong`` is its reference strategy)."""
    arms = {a["strategy"]: _ci(a["result"], a["result_lo"], a["result_hi"]) for a in doc["arms"]}
    minus = {d["strategy"]: _ci(-d["diff"], -d["hi"], -d["lo"]) for d in doc["differences"]}  # strong - X
    hand = [h for h in PLAN[variant][1] if h in arms]
    if not hand:
        return (f"| {variant} ({doc['arms'][0]['players']}) | {opp} | {arms['strong']} | (= strong) | "
                f"{arms['simple']} | 0 | {minus['simple']} |")
    both = lambda table: "; ".join(f"{h} {table[h]}" for h in hand)
    return (f"| {variant} ({doc['arms'][0]['players']}) | {opp} | {arms['strong']} | {both(arms)} | "
            f"{arms['simple']} | {both(minus)} | {minus['simple']} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--games", default=",".join(PLAN), help="comma separated games (default: all eleven)")
    ap.add_argument("--out", type=Path, default=Path("runs") / "tune-strong",
                    help="folder of the stored runs, relative to the repository (default runs/tune-strong)")
    ap.add_argument("--seed", type=int, default=1, help="tuning seed (default 1)")
    ap.add_argument("--check-seed", type=int, default=11, help="seed of the compare runs (default 11)")
    ap.add_argument("--check-hands", type=int, default=40_000, help="deals per compare run (default 40,000)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--summary", action="store_true", help="only print the table of the stored compare runs")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in PLAN]
    if unknown:
        ap.error(f"no plan for {', '.join(unknown)}; games: {', '.join(PLAN)}")
    if not args.summary:
        for g in games:
            tune(g, args.out, args.seed, args.jobs)
            check(g, args.out, args.check_hands, args.check_seed, args.jobs)
    print(summary(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
