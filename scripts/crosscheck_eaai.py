"""Cross-check the Gin kernel against Neller's EAAI Gin Rummy framework, both played by
SimpleGinRummyPlayer.

    python scripts/crosscheck_eaai.py --framework DIR --hands 20000 --seed 1

``DIR`` holds the framework's sources (github tneller/gin-rummy-eaai: ``ginrummy/*.java``).  The
script compiles them, unchanged, with a small driver of its own (:data:`DRIVER`: two
``SimpleGinRummyPlayer``s, ``GinRummyGame.setPlayVerbose(true)``, whole games to 100 until
enough hands are played) and reads each hand from the framework's own verbose log: the
outcome (a knock won by the knocker, gin, undercut, or the hand cancelled at two stock cards),
the points and who scored them, the knocker's deadwood, and the stock draws (a draw of the
card on the discard pile is a face-up draw, any other a stock draw; 31 cards start in the
stock).  rummylab plays the same number of hands with the preset ``eaai-simple`` under the rule
set ``eaai``.  The deals are independent (the framework seeds ``java.util.Random`` itself, so
its side does not repeat from run to run).  Seat 0 is the player who moves first (the
framework's starting player, rummylab's non-dealer).

Printed, as scripts/crosscheck_openspiel.py does: the outcome mix with Wilson 95% CIs, the mean
score per seat, the knocker's mean deadwood and the mean stock left, for each engine, with a
two-sample test per quantity (rates: pooled z test; means: Welch t test) at the Bonferroni level
0.05 / (number of quantities); and the mean points per hand of each.

Without ``javac``/``java`` or the sources the script says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from crosscheck_openspiel import OUTCOMES, compare, table_lines, verdict  # noqa: E402

RULE_SET = "eaai"
STRATEGY = "eaai-simple"
HANDS_PER_GAME = 4          # fewer than a game to 100 holds (about 6): more games than needed
def driver(main: str, player0: str, player1: str) -> str:
    """Java source of the driver class ``main``: verbose games to 100 (as many as its argument)
    of the framework's player classes ``player0`` and ``player1`` (package ``ginrummy``)."""
    imports = "".join(f"import ginrummy.{c};\n" for c in sorted({"GinRummyGame", player0, player1}))
    return (f"{imports}\npublic class {main} {{\n    public static void main(String[] args) {{\n"
            "        int games = Integer.parseInt(args[0]);\n        GinRummyGame.setPlayVerbose(true);\n"
            f"        GinRummyGame game = new GinRummyGame(new {player0}(), new {player1}());\n"
            "        for (int i = 0; i < games; i++)\n            game.play();\n    }\n}\n")


DRIVER = driver("EaaiSelfPlay", "SimpleGinRummyPlayer", "SimpleGinRummyPlayer")

_DRAW = re.compile(r"^Player (\d) draws (\S+)\.$")
_DISCARD = re.compile(r"^Player (\d) discards (\S+)\.$")
_KNOCK = re.compile(r"^Player (\d) melds .* with (\d+) deadwood from ")
_GIN = re.compile(r"^Player (\d) goes gin with melds ")
_SCORE = re.compile(r"^Player (\d) (scores the gin bonus|scores the deadwood difference|undercuts).*?(\d+)"
                    r"(?: total points)?\.$")


def play_rummylab(n: int, seed: int) -> dict:
    """Outcome codes (in OUTCOMES), scores per seat (0 = non-dealer), knocker deadwood, stock
    left and points of ``n`` kernel hands."""
    from sim.runner import play_hands
    from sim.variants import gin
    cols = play_hands("gin", rule_set=RULE_SET, strategies=STRATEGY, n_hands=n, seed=seed)
    non_dealer = 1 - cols["dealer"]
    s0 = np.where(non_dealer == 0, cols["score0"], cols["score1"])
    names = np.array(gin.OUTCOMES)[cols["outcome"]]
    outcome = np.array([OUTCOMES.index(x) for x in names])
    kd = cols["knock_deadwood"]
    return {"outcome": outcome, "score0": s0, "score1": -s0, "knock_dw": kd[kd >= 0],
            "stock_left": cols["stock_left"], "points": cols["points"]}


@contextmanager
def framework_log(framework: Path, main: str, driver: str, games: int, players: dict | None = None):
    """The lines of the framework's verbose log, as they are written: its sources and the
    driver class ``main`` (source ``driver``, its argument: ``games``) compiled in a temporary
    folder with ``players`` (class name: Java source of a player, compiled in the package
    ``ginrummy`` beside the framework's; never stored); the game stops when the block ends."""
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / f"{main}.java").write_text(driver)
        sources = sorted(str(p) for p in (framework / "ginrummy").glob("*.java"))
        (t / "ginrummy").mkdir()
        for name, text in (players or {}).items():
            (t / "ginrummy" / f"{name}.java").write_text(text if text.lstrip().startswith("package")
                                                          else "package ginrummy;\n" + text)
            sources.append(str(t / "ginrummy" / f"{name}.java"))
        subprocess.run(["javac", "-nowarn", "-d", str(t), *sources, str(t / f"{main}.java")], check=True,
                       capture_output=True)
        with subprocess.Popen(["java", "-cp", str(t), main, str(games)], stdout=subprocess.PIPE,
                              text=True) as proc:
            try:
                yield (line.rstrip("\n") for line in proc.stdout)
            finally:
                proc.kill()


def run_framework(framework: Path, n_hands: int) -> list[dict]:
    """The first ``n_hands`` hands (:func:`parse_hands`) of framework self-play; the log is read
    as it is written and the games stop once enough are in."""
    with framework_log(framework, "EaaiSelfPlay", DRIVER, n_hands // HANDS_PER_GAME) as lines:
        return [h for _, h in zip(range(n_hands), parse_hands(lines))]


def parse_hands(lines):
    """One dict per hand of the log (lazily): outcome, starter, winner, points, knocker and its
    deadwood (-1 in a void hand), stock draws."""
    h: dict = {}
    for line in lines:
        if line.endswith("starts."):
            h = {"starter": int(line.split()[1]), "stock_draws": 0, "top": None, "knock_dw": -1, "knocker": -1}
        elif line.startswith("The initial face up card is "):
            h["top"] = line.rsplit(" ", 1)[1].rstrip(".")
        elif m := _DRAW.match(line):
            h["stock_draws"] += m.group(2) != h["top"]
        elif m := _DISCARD.match(line):
            h["top"] = m.group(2)
        elif m := _KNOCK.match(line):
            h["knock_dw"] = int(m.group(2))
            h["knocker"] = int(m.group(1))
        elif m := _GIN.match(line):
            h["knock_dw"] = 0
            h["knocker"] = int(m.group(1))
        elif m := _SCORE.match(line):
            kind = {"scores the gin bonus": "gin", "scores the deadwood difference": "knock"}.get(m.group(2), "undercut")
            yield {**h, "outcome": kind, "winner": int(m.group(1)), "points": int(m.group(3))}
        elif line.startswith("The draw pile was reduced to two cards"):
            yield {**h, "outcome": "void", "winner": -1, "points": 0}


def framework_columns(hands: list[dict]) -> dict:
    """The hands' columns: outcome (codes of OUTCOMES), score per seat (seat 0 = the starter),
    the knocker's deadwood (hands with a knock), stock left, points, player 0's score and the
    knocker (-1: void)."""
    outcome = np.array([OUTCOMES.index(h["outcome"]) for h in hands])
    pts = np.array([h["points"] for h in hands], dtype=np.float64)
    s0 = np.array([0.0 if h["winner"] < 0 else (p if h["winner"] == h["starter"] else -p)
                   for h, p in zip(hands, pts)])
    kd = np.array([h["knock_dw"] for h in hands if h["outcome"] != "void"], dtype=np.int64)
    left = np.array([31 - h["stock_draws"] for h in hands], dtype=np.int64)
    void = outcome == OUTCOMES.index("void")
    assert (left[void] == 2).all() and (left >= 2).all(), "the log was misread: a void hand ends at 2 stock cards"
    player0 = np.array([0.0 if h["winner"] < 0 else (p if h["winner"] == 0 else -p) for h, p in zip(hands, pts)])
    knocker = np.array([h["knocker"] for h in hands], dtype=np.int64)
    return {"outcome": outcome, "score0": s0, "score1": -s0, "knock_dw": kd, "stock_left": left, "points": pts,
            "player0": player0, "knocker": knocker}


def java_missing(framework: Path) -> str | None:
    """Why the framework cannot be played here (no ``javac``/``java``, no sources), or None."""
    if not shutil.which("javac") or not shutil.which("java"):
        return "no Java compiler (javac) on the path: apt-get install default-jdk-headless; nothing was compared."
    if not (framework / "ginrummy" / "GinRummyGame.java").exists():
        return f"{framework} holds no ginrummy/GinRummyGame.java; nothing was compared."
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--framework", type=Path, required=True, help="folder holding ginrummy/*.java")
    ap.add_argument("--hands", type=int, default=20000, help="hands per engine (default 20000)")
    ap.add_argument("--seed", type=int, default=1, help="rummylab's seed (the framework seeds itself)")
    a = ap.parse_args()
    if (why := java_missing(a.framework)) is not None:
        print(why)
        return 2
    from analysis.stats import mean_ci
    t0 = time.perf_counter()
    ours = play_rummylab(a.hands, a.seed)
    t1 = time.perf_counter()
    hands = run_framework(a.framework, a.hands)
    if len(hands) < a.hands:
        print(f"the framework played only {len(hands)} hands; lower HANDS_PER_GAME")
        return 2
    theirs = framework_columns(hands)
    t2 = time.perf_counter()
    rows = compare(ours, theirs)
    print(f"Gin, SimpleGinRummyPlayer vs itself: {a.hands} hands per engine, rummylab seed {a.seed}")
    from sim.variants import get_variant
    print(f"rummylab rule set {RULE_SET}: {', '.join(get_variant('gin').rules_with_set(RULE_SET))}; "
          f"strategies: {STRATEGY} (both seats)")
    print(f"seat 0 = the first to move (the framework's starting player, rummylab's non-dealer); "
          f"tests at 0.05/{len(rows)} (Bonferroni)")
    print(f"time: rummylab {t1 - t0:.1f} s (compile included), framework {t2 - t1:.1f} s (compile included)")
    print()
    print("\n".join(table_lines(rows, other="framework")))
    print()
    print(f"points per hand: rummylab {mean_ci(ours['points'].astype(float)).fmt(3)}, "
          f"framework {mean_ci(theirs['points']).fmt(3)}")
    print(verdict(rows, a.hands))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
