"""Cross-check the Gin preset ``marjj`` against the Java original: MARJJ_v5 against
SimpleGinRummyPlayer in Neller's EAAI Gin Rummy framework, and rummylab's ``marjj`` against
``eaai-simple`` under the rule set ``eaai``.

    python scripts/crosscheck_marjj.py --framework DIR --marjj FILE --games 2000 --seed 1

``DIR`` holds the framework's sources (github tneller/gin-rummy-eaai: ``ginrummy/*.java``);
``FILE`` is MARJJ's ``MARJJ_v5-1.java`` (github aqib-a99/MARJJ).  That repository has no
licence: the file is read from the path given, compiled in a temporary folder (in the package
``ginrummy``, as the class ``MARJJ_v5``) and never stored.  The framework plays ``--games``
verbose games to 100 with MARJJ as its player 0 (:data:`DRIVER`); its log is read by
scripts/crosscheck_eaai.py's parser.  rummylab plays as many games (``--game`` mode, seed
``--seed``) and as many hands as the framework's games held, with ``marjj`` at seat 0.

Compared, with Wilson 95% CIs (rates) and t intervals (means) and two-sample tests at the
Bonferroni level 0.05 / (number of quantities), as crosscheck_eaai.py does: the games won by
MARJJ; per hand who knocked and how the hand ended (:data:`BY_KNOCKER`); MARJJ's mean points
per hand, the knocker's mean deadwood and the stock left at the end.  The deals are
independent (the framework seeds ``java.util.Random`` itself).

Without ``javac``/``java``, the framework or MARJJ's file the script says so and exits with
status 2.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from crosscheck_eaai import (_DISCARD, _DRAW, _GIN, _KNOCK, RULE_SET, driver, framework_columns,  # noqa: E402
                            framework_log, java_missing, parse_hands)
from crosscheck_openspiel import compare, rate_row, table_lines, verdict  # noqa: E402

STRATEGIES = "marjj,eaai-simple"
MARJJ_CLASS = "MARJJ_v5"
BY_KNOCKER = ("knock by marjj", "gin by marjj", "undercut of marjj", "knock by simple", "gin by simple",
              "undercut of simple", "void")
MEANS = (("mean score marjj", "score0"), ("mean knocker deadwood", "knock_dw"),
         ("mean stock left at end", "stock_left"))
DRIVER = driver("MarjjVsSimple", MARJJ_CLASS, "SimpleGinRummyPlayer")
_WINS = re.compile(r"^Player (\d) wins\.$")
_DECLINE = re.compile(r"^Player (\d) declines (\S+)\.$")


def by_knocker(outcome_names, knocker) -> np.ndarray:
    """Codes of :data:`BY_KNOCKER` from each hand's outcome name and knocker (seat 0: marjj)."""
    kinds = {"knock": 0, "gin": 1, "undercut": 2}
    return np.array([len(BY_KNOCKER) - 1 if o == "void" else 3 * int(k) + kinds[o]
                     for o, k in zip(outcome_names, knocker)], dtype=np.int64)


def play_framework(framework: Path, marjj: Path, games: int, keep: Path | None = None) -> tuple[dict, np.ndarray]:
    """The framework's hands (columns as :func:`by_knocker` codes, player 0's score, knocker
    deadwood, stock left) and its games' winners.  ``keep``: a file for the framework's log,
    read instead of playing when it exists (a rerun of rummylab's side)."""
    if keep is not None and keep.exists():
        log = keep.read_text().splitlines()
    else:
        with framework_log(framework, "MarjjVsSimple", DRIVER, games, {MARJJ_CLASS: marjj.read_text()}) as lines:
            log = list(lines)
        if keep is not None:
            keep.write_text("\n".join(log) + "\n")
    hands = list(parse_hands(log))
    winners = np.array([int(m.group(1)) for line in log if (m := _WINS.match(line))], dtype=np.int64)
    cols = framework_columns(hands)
    names = [h["outcome"] for h in hands]
    return {"outcome": by_knocker(names, cols["knocker"]), "score0": cols["player0"], "knock_dw": cols["knock_dw"],
            "stock_left": cols["stock_left"]}, winners


class _Replay:
    """What MARJJ (player 0 of the framework's log) knows during a hand, as it counts it: its
    hand, the cards it has seen (dealt, offered face up, drawn, the opponent's discards), the
    opponent's pickups, its turn; and the tallies of :func:`replay`."""

    def __init__(self):
        from sim.strategies import parse_strategy
        from sim.variants import gin
        t = gin.TABLES
        self.tables = (t.run_value, t.suit_total, t.rank_value)
        self.srow = parse_strategy("marjj", "gin").row
        self.n = {k: 0 for k in ("upcard", "upcard_same", "discard", "discard_same", "discard_engine_seen",
                                 "knock", "knock_same")}
        self.knock_due = None

    @staticmethod
    def mask(cards) -> np.uint64:
        from sim.core.cards import parse_cards
        return np.uint64(sum(1 << int(c) for c in parse_cards(" ".join(cards))))

    def deal(self, p: int, cards: list[str]) -> None:
        if p == 0:
            self.hand, self.seen, self.opp, self.turn, self.pile, self.picked = (
                self.mask(cards), self.mask(cards), np.uint64(0), 0, [], [np.uint64(0), np.uint64(0)])
            self.declines, self.draws = 0, 0

    def offer(self, top: str, took: bool) -> None:
        from sim.core.cards import parse_cards
        from sim.knock.melds import deadwood
        from sim.strategies import marjj as M
        from sim.variants import gin
        self.seen |= self.mask([top])
        dw = deadwood(self.hand, *self.tables)
        t = gin.TABLES
        self.n["upcard"] += 1
        self.n["upcard_same"] += M.marjj_takes(self.hand, dw, int(parse_cards(top)[0]), self.opp, self.seen, t.run_value,
                                               t.run_cover, t.run_starts, t.suit_total, t.rank_value) == took

    def discard(self, card: str, forbidden: np.uint64) -> None:
        from sim.knock.melds import deadwood
        from sim.strategies import marjj as M
        self.turn += 1
        c = self.mask([card])
        engine_seen = self.hand | self.picked[0] | self.picked[1] | (self.mask(self.pile) if self.pile else np.uint64(0))
        ok = [self._acceptable(forbidden, seen, M) for seen in (self.seen, engine_seen)]
        self.n["discard"] += 1
        self.n["discard_same"] += int(c) in ok[0]
        self.n["discard_engine_seen"] += ok[0] != ok[1]
        self.hand ^= c
        self.knock_due = (deadwood(self.hand, *self.tables), self.turn)

    def _acceptable(self, forbidden, seen, M) -> set:
        """The discards MARJJ's rule allows here in rummylab: the lowest scores (any gin discard)."""
        codes, dws, scores = np.empty(11, np.int64), np.empty(11, np.int64), np.empty(11)
        n = M.discard_scores(self.hand, forbidden, self.opp, seen, self.turn, *self.tables, codes, dws, scores)
        if n < 0:
            return {1 << int(codes[0])} if dws[0] else {
                1 << int(x) for x in range(64) if self.hand >> np.uint64(x) & np.uint64(1)
                and M.deadwood(self.hand ^ np.uint64(1 << x), *self.tables) == 0}
        low = scores[:n].min()
        return {1 << int(codes[i]) for i in range(n) if scores[i] == low}

    def knock(self, knocked: bool) -> None:
        dw, turn = self.knock_due
        self.knock_due = None
        if dw <= 10:
            self.n["knock"] += 1
            self.n["knock_same"] += (turn < 4 or dw == 0) == knocked


def replay(log) -> dict:
    """MARJJ's decisions in the framework's log (player 0) replayed by rummylab's kernels from
    what MARJJ knew (:class:`_Replay`): the upcard offers, the discards and the turns it could
    knock, each with how many rummylab decides alike (a discard alike when it is among the
    lowest scores of ``discard_rule=2``); ``discard_engine_seen``: the discards whose lowest
    scores change when the seen cards are counted as rummylab's engine counts them
    (:func:`sim.variants.gin_hand.seen_by`)."""
    r = _Replay()
    dealt = re.compile(r"^Player (\d) is dealt \[(.*)\]\.$")
    for line in log:
        if r.knock_due is not None and not line.startswith("Player 0 has "):
            r.knock(bool(_KNOCK.match(line) or _GIN.match(line)) and line.startswith("Player 0 "))
        if m := dealt.match(line):
            r.deal(int(m.group(1)), m.group(2).split(", "))
        elif line.startswith("The initial face up card is "):
            r.pile = [line.rsplit(" ", 1)[1].rstrip(".")]
        elif m := _DECLINE.match(line):
            r.declines += 1
            if m.group(1) == "0":
                r.offer(m.group(2), False)
        elif m := _DRAW.match(line):
            p, card = int(m.group(1)), m.group(2)
            face = bool(r.pile) and card == r.pile[-1]
            if p == 0:
                if not (r.declines == 2 and r.draws == 0):       # both passed: a draw without an offer
                    r.offer(r.pile[-1], face)
                r.hand |= r.mask([card])
                r.seen |= r.mask([card])
                r.forbidden = r.mask([card]) if face else np.uint64(0)
            r.draws += 1
            if face:
                r.pile.pop()
                r.picked[p] |= r.mask([card])
                if p == 1:
                    r.opp |= r.mask([card])
        elif m := _DISCARD.match(line):
            p, card = int(m.group(1)), m.group(2)
            if p == 0:
                r.discard(card, r.forbidden)
            else:
                r.seen |= r.mask([card])
            r.pile.append(card)
    return r.n


def log_lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def replay_lines(n: dict) -> str:
    """The replay's tallies (:func:`replay`) as text."""
    def part(k, what):
        return f"{what} {n[k + '_same']:,} of {n[k]:,} ({n[k + '_same'] / max(n[k], 1):.2%})"
    return ("MARJJ's own decisions in the framework's log replayed by rummylab's kernels from what MARJJ knew: "
            + "; ".join([part("upcard", "upcard offers alike"), part("discard", "discards among rummylab's best"),
                         part("knock", "knock chances alike")])
            + f"; discards whose best changes with the engine's count of the seen cards: {n['discard_engine_seen']:,}")


def play_rummylab(n_hands: int, games: int, seed: int) -> tuple[dict, np.ndarray]:
    """rummylab's hands and games (winners) of ``marjj`` (seat 0) against ``eaai-simple``."""
    from sim.runner import play_hands
    from sim.variants import gin
    cols = play_hands("gin", rule_set=RULE_SET, strategies=STRATEGIES, n_hands=n_hands, seed=seed)
    names = np.array(gin.OUTCOMES)[cols["outcome"]]
    kd = cols["knock_deadwood"]
    hands = {"outcome": by_knocker(names, cols["ender"]), "score0": cols["score0"].astype(float),
             "knock_dw": kd[kd >= 0], "stock_left": cols["stock_left"]}
    g = play_hands("gin", rule_set=RULE_SET, strategies=STRATEGIES, n_hands=games, seed=seed, mode="games")
    return hands, g["winner"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--framework", type=Path, required=True, help="folder holding ginrummy/*.java")
    ap.add_argument("--marjj", type=Path, required=True, help="MARJJ's MARJJ_v5-1.java (never stored)")
    ap.add_argument("--games", type=int, default=2000, help="games to 100 per engine (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="rummylab's seed (the framework seeds itself)")
    ap.add_argument("--json-out", type=Path, help="write the table's rows here as JSON")
    ap.add_argument("--keep-log", type=Path, help="the framework's log: written after its games, read "
                                                  "instead of replaying them when the file exists")
    a = ap.parse_args()
    if (why := java_missing(a.framework)) is not None:
        print(why)
        return 2
    if not a.marjj.is_file() or f"class {MARJJ_CLASS}" not in a.marjj.read_text():
        print(f"{a.marjj} is not MARJJ's Java player (no class {MARJJ_CLASS}); nothing was compared.")
        return 2
    t0 = time.perf_counter()
    theirs, their_wins = play_framework(a.framework, a.marjj, a.games, a.keep_log)
    t1 = time.perf_counter()
    n = len(theirs["outcome"])
    ours, our_wins = play_rummylab(n, a.games, a.seed)
    t2 = time.perf_counter()
    same = replay(log_lines(a.keep_log)) if a.keep_log is not None else None
    rows = compare(ours, theirs, outcomes=BY_KNOCKER, means=MEANS, extra_tests=1)
    level = 0.05 / (len(rows) + 1)
    rows.insert(0, rate_row("games won by marjj", int((our_wins == 0).sum()), len(our_wins),
                            int((their_wins == 0).sum()), len(their_wins), level))
    print(f"Gin, MARJJ_v5 (seat 0) vs SimpleGinRummyPlayer: {a.games} games to 100 and {n} hands per engine, "
          f"rummylab seed {a.seed}")
    print(f"rummylab: --rule-set {RULE_SET}, strategies {STRATEGIES}; tests at 0.05/{len(rows)} (Bonferroni)")
    print(f"time: framework {t1 - t0:.1f} s, rummylab {t2 - t1:.1f} s (compile included)")
    print()
    print("\n".join(table_lines(rows, other="framework")))
    print()
    print(verdict(rows, n))
    if same is not None:
        print()
        print(replay_lines(same))
    if a.json_out:
        a.json_out.write_text(json.dumps({"games": a.games, "hands": n, "seed": a.seed, "rule_set": RULE_SET,
                                          "strategies": STRATEGIES, "rows": [
                                              {"quantity": r[0], "rummylab": r[1], "framework": r[2], "p": r[3],
                                               "detected": not r[4]} for r in rows], "replay": same}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
