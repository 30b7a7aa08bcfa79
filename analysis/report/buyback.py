"""Report section of a buy-back study (``buyback.json``, :mod:`analysis.studies.buyback`): seat
0's game win rate when it buys back only below a re-entry score, and what one buy-back at those
scores is worth."""

from __future__ import annotations

from pathlib import Path

from ..stats import Estimate
from ..studies.buyback import KIND, buyback_answer, load_buyback
from .figures import finish, new_figure, yerr
from .html import esc, est_html, html_table, kv_table
from .registry import RunSection, section

METHODS = ("<p><strong>Buy-backs.</strong> Seat 0 plays whole games buying back in only when the score "
           "it would re-enter at (the highest total still in play) is below a threshold, from never to "
           "always. Every arm plays the same games with the same random numbers (common random numbers), "
           "so two neighbouring arms differ only in the games where seat 0 faced a buy-back at scores "
           "between their thresholds. The change of seat 0's win indicator, paired per game, has a 95% paired "
           "score interval (Newcombe 1998, method 10: the two Wilson intervals combined with the phi "
           "correlation of the games) per game and, over the games that differ, per buy-back taken: the win "
           "probability a buy-back at those scores buys. Win rates and the share of games differing: Wilson "
           "intervals. The other seats keep their strategies' own decisions.</p>")


def _e(r, name: str) -> Estimate:
    return Estimate(r[name], r[name + "_lo"], r[name + "_hi"], int(r["games"]))


@section(KIND, file="buyback.json", methods=METHODS)
def buyback_section(folder: Path, anchor: str) -> RunSection:
    doc, df = load_buyback(folder)
    spec = doc["spec"]
    n = int(df["players"].iloc[0])
    sec = RunSection(KIND, str(folder), anchor, f"{spec['variant']}, {n} players: what a buy-back is worth — "
                                                f"{folder.name}")
    sec.game, sec.answer, sec.group = spec["variant"], buyback_answer(spec, df), "melding"
    sec.question = f"{spec['variant']}, {n} players: what is a buy-back worth?"
    sec.body.append(f"<p>Seat 0 plays <code>{esc(spec.get('strategies', 'simple'))}</code> in every seat's "
                    f"place; {int(df['games'].iloc[0]):,} whole games per arm, the same games in every arm; "
                    f"seed {spec.get('seed', 0)}.</p>")
    sec.body.append(_figure(f"{anchor}-value", df, spec["variant"], n))
    rows = []
    for _, r in df.iterrows():
        later = r["arm"] != df["arm"].iloc[0]
        rows.append([esc(r["arm"]), est_html(_e(r, "win0"), 1, pct=True), est_html(_e(r, "buybacks0"), 2),
                     est_html(_e(r, "share"), 1, pct=True) if later else "&ndash;",
                     est_html(_e(r, "gain"), 2, pct=True, sign=True) if later else "&ndash;",
                     est_html(_e(r, "value"), 1, pct=True, sign=True) if later and r["value"] == r["value"] else "&ndash;"])
    sec.body.append(html_table(["seat 0 buys back", "games won", "buy-backs per game", "games that differ from the arm above",
                                "win rate change per game", "win probability per buy-back"], rows,
                               caption="Each arm against the one above it, paired on the same games (95% CIs).",
                               numeric={1, 2, 3, 4, 5}))
    sec.methods.append(kv_table([(k, esc(str(v))) for k, v in spec.items()] + [("git", esc(str(doc.get("git"))))],
                                caption=f"{folder.name}: what was run"))
    return sec


def _figure(name: str, df, variant: str, n: int):
    fig = new_figure(9.0, 3.4)
    a1, a2 = fig.subplots(1, 2)
    x = list(range(len(df)))
    a1.errorbar(x, df["win0"] * 100, yerr=yerr(df["win0"] * 100, df["win0_lo"] * 100, df["win0_hi"] * 100),
                marker="o", capsize=3, label="seat 0 wins the game")
    a1.axhline(100 / n, color="grey", lw=0.8, ls="--", label="fair share")
    a1.set_xticks(x, list(df["arm"]), fontsize=8)
    a1.set_xlabel("seat 0 buys back when the re-entry score is")
    a1.set_ylabel("games won, %")
    a1.legend(fontsize=8)
    a1.grid(alpha=0.3)
    v = df.iloc[1:]
    xs = list(range(len(v)))
    a2.errorbar(xs, v["value"] * 100, yerr=yerr(v["value"] * 100, v["value_lo"] * 100, v["value_hi"] * 100),
                fmt="o", capsize=3, color="tab:green", label="win probability per buy-back")
    a2.axhline(0, color="black", lw=0.8)
    a2.set_xticks(xs, [f"{a} vs {b}" for a, b in zip(df["arm"].iloc[1:], df["arm"].iloc[:-1])], fontsize=7,
                  rotation=20)
    a2.set_xlabel("arm against the arm above (the scores where they differ)")
    a2.set_ylabel("win probability bought, %")
    a2.legend(fontsize=8)
    a2.grid(alpha=0.3)
    fig.suptitle(f"{variant}, {n} players: what a buy-back is worth (95% CIs, paired games)", fontsize=11)
    return finish(fig, name, "Left: seat 0's game win rate per buy-back rule. Right: the win probability one "
                  "buy-back buys at the re-entry scores where neighbouring arms differ.", [a1, a2])
