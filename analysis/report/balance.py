"""Report section of a balance study (``balance.json``): every game x player count on one page:
the comparison table, the strategy ladders, seat edges, tempo and outcomes, rule sensitivity,
and the plots (seat edge against skill gradient, turns per hand, a tornado per game)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..stats import Estimate
from ..studies.balance import KIND, load_balance
from ..studies.balance_stats import INTERACTION_CI
from .figures import finish, label_axes, new_figure, yerr
from .html import esc, est_html, html_table, kv_table
from .registry import RunSection, section
from ..studies.balance_text import balance_answer, balance_rows
from ..wording import ci_text, covers_zero

METHODS = (
    "<p><strong>Balance.</strong> Per game, player count and rules, every seat first plays the game's "
    "<code>simple</code> strategy: the <em>seat edge</em> is the win rate and mean score by position after the "
    "dealer (position 1 plays first), per hand and, where the game has whole games, per game (position after "
    "the first dealer). A hand's winner is the seat with the strictly highest score (a void hand has none). "
    "The first player's edge is its win flag (or score) minus the mean over the seats of the same hand, a t "
    "interval over hands: with equal players it is 0. Positions are fixed by the hand number (the dealer of "
    "hand <em>h</em> is <em>h</em> mod <em>n</em>), so the seat edge is not measured on duplicate deals; its "
    "intervals carry the deal luck.</p>"
    "<p><strong>Skill vs luck.</strong> Each game declares a strategy ladder: <code>random</code> (every "
    "decision a uniform random legal choice), <code>simple</code> and its strongest preset. For each pair the "
    "stronger strategy plays one seat and the weaker the others, once per seat: hand <em>h</em> is dealt from "
    "the seed and <em>h</em> alone, so the runs replay the same deals with the strategies rotated (duplicate "
    "deals; whole games start from the same deal generator but later deals follow the play). The edge is the "
    "stronger player's score minus the average opponent's, averaged over the rotations of a deal (t interval "
    "over deals); the <em>skill gradient</em> is that edge per hand divided by its SD (random against the "
    "strongest), with a 95% CI by the delta method over deals on the per-deal rotation means of the edge and "
    "of its square, so it carries the SD's own error as well as the edge's. Hands (games) to be ahead: the "
    "smallest <em>N</em> with P(total edge over <em>N</em> &gt; 0) "
    "&ge; 95% under the normal approximation, (1.645&nbsp;SD/edge)<sup>2</sup>, after Jaffe et al., "
    "&ldquo;Evaluating competitive game balance with restricted play&rdquo; (AIIDE 2012); its interval follows "
    "the skill gradient's CI (&infin; where that reaches 0). Variance shares split the mean square of the "
    "per-hand edge "
    "into the strategy (the mean edge squared) and the deal (the rest), the deal into the cards (the variation "
    "between the seats of one deal: which cards the stronger player held, plus the random player's own coin "
    "flips) and the interaction (deals on which the stronger strategy gains more or less whatever its seat: "
    "the between-deal variance of the rotation means less its within-deal part, a one-way random-effects "
    "ANOVA); 95% CIs by a Poisson bootstrap over deals, the interaction's " + esc(INTERACTION_CI) + ".</p>"
    "<p><strong>Tempo, volatility, rules.</strong> Turns per hand (mean, 10/50/90% quantiles), hands per game, "
    "hands with no one out (the outcomes each game declares: void, stock exhausted, block) and every outcome's "
    "share (Wilson intervals). Volatility: the SD of a seat's score per hand and of its net per game (CIs from "
    "the t interval of squared deviations) and the share of games made of a single scoring hand; whether a "
    "longer game was decided by one hand cannot be read from the stored game rows (they keep totals, not the "
    "hands of a game) and is not reported. Rule sensitivity: at the default and the largest player count each "
    "on/off or text option is changed alone (numeric options: <code>--rule</code>), and the first player's win edge and the "
    "skill gradient are compared with the defaults on the same seed: hand <em>h</em> is the same deal in "
    "both, so the change is a paired t interval over hands (deals), for the skill gradient of the two "
    "settings' delta-method pseudo-values (the SDs' errors included). Options that act only on whole games, "
    "or on situations these strategies never reach, leave both unchanged (a change of exactly 0).</p>")


def _e(d: dict | None) -> Estimate:
    if not d:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    return Estimate(d["value"], d["ci95"][0], d["ci95"][1], d["n"])


def _label(c: dict) -> str:
    return f"{c['variant']} {c['players']}p" + (f" [{c['rules'][0]}]" if c["rules"] else "")


def _ahead(d: dict | None) -> str:
    e = _e(d)
    if e.n == 0:
        return "n/a"
    f = (lambda x: "&infin;" if not math.isfinite(x) else f"{x:,.0f}")
    return f"{f(e.value)} <span class=\"ci\">[{f(e.lo)}, {f(e.hi)}]</span>"


def _pair(c: dict, weak: str, strong: str) -> dict:
    return next(p for p in c["ladder"] if p["weak"] == weak and p["strong"] == strong)


@section(KIND, file="balance.json", methods=METHODS, claims=lambda doc: "cells" in doc)
def balance_section(folder: Path, anchor: str) -> RunSection:
    doc = load_balance(folder)
    cells = doc["cells"]
    cfg = doc["config"]
    sec = RunSection(KIND, str(folder), anchor, f"Variant balance: {len(cells)} game x player count settings "
                                                f"— {folder.name}")
    sec.group, sec.answer, sec.summary = "balance", balance_answer(doc), summary_table(doc)
    sec.per_game = {g: summary_table(doc, g) for g in dict.fromkeys(c["variant"] for c in cells)}
    sec.question = f"Balance of {len(cells)} game settings: seat edge, how much skill matters, hand length"
    sec.body.append(
        f"<p>Base runs: {cfg['hands']:,} hands (every seat <code>simple</code>) and {cfg['games']:,} whole games "
        f"where the game has them; ladder runs: {cfg['ladder_hands']:,} hands (and {cfg['games'] // 2:,} games) "
        f"per seat of the stronger player; rule sensitivity: {cfg['rule_hands']:,} hands per run; seed "
        f"{cfg['seed']}. Every number below comes from the runs stored under <code>{esc(folder.name)}/runs</code>."
        "</p>")
    sec.body.append(comparison_table(cells))
    sec.body.append(_scatter(f"{anchor}-edge-skill", cells))
    sec.body.append(_rungs(f"{anchor}-rungs", cells))
    sec.body.append(ladder_table(cells))
    sec.body.append(seat_table(cells))
    sec.body.append(_turns(f"{anchor}-turns", cells))
    sec.body.append(tempo_table(cells))
    for s in doc.get("sensitivity", []):
        sec.body.append(_tornado(f"{anchor}-tornado-{s['variant']}-{s['players']}p", s))
        sec.body.append(sensitivity_table(s))
    t = doc.get("timing", {})
    sec.methods.append(kv_table([
        ("games", esc(", ".join(cfg["variants"]))),
        ("player counts", esc("; ".join(f"{k}: {', '.join(map(str, v))}" for k, v in cfg["players"].items()))),
        ("rule change", esc(cfg.get("rule") or "none (defaults; sensitivity of every on/off and text option)")),
        ("seed", str(cfg["seed"])),
        ("wall time", f"{t.get('wall_s', float('nan')):,.0f} s ({t.get('simulated', 0):,} units simulated now)"),
    ], caption=f"{folder.name}: what was run"))
    return sec


def summary_table(doc: dict, game: str | None = None) -> str:
    """Every game in one small table: the first player's win edge, the skill gradient and the
    hand length, with their 95% CIs and n (the landing page's balance answer)."""
    rows = []
    for r in balance_rows(doc):
        if game is not None and r["game"] != game:
            continue
        s, k, t = r["seat"], r["skill"], r["turns"]
        label = f"{r['game']} {r['players']}p" + (f" [{', '.join(r['rules'])}]" if r["rules"] else "")
        rows.append([esc(label), esc(ci_text(s.value, s.lo, s.hi, 1, scale=100, test=False))
                     + (" <span class=\"ns\">not significant</span>" if covers_zero(s.lo, s.hi) else ""),
                     esc(ci_text(k.value, k.lo, k.hi, 2, test=False)) + f" <span class=\"small\">({esc(r['strong'])})</span>",
                     esc(ci_text(t.value, t.lo, t.hi, 1, sign=False, test=False)), f"{s.n:,}"])
    return html_table(["game", "first player's win edge, pp", "skill: strongest vs random, SD/hand",
                       "turns per hand", "n hands"], rows, numeric={1, 2, 3, 4}, limit=None,
                      caption="Balance at a glance (95% CIs): the first player's win rate minus the average "
                              "seat's; the strongest preset's edge over uniform random play in standard "
                              "deviations per hand; all players' turns per hand.")


def _dup_cell(d) -> str:
    """The first player's edges on duplicate deals, with the number of deals."""
    if not d:
        return "&ndash;"
    return (est_html(_e(d["first_win"]), 1, pct=True, sign=True) + "; "
            + est_html(_e(d["first_score"]), 2, sign=True) + f" ({d['deals']:,} deals &times; each position)")


def comparison_table(cells: list[dict]) -> str:
    rows = []
    for c in cells:
        rungs = c["rungs"]
        skill, upper = _pair(c, rungs[0], rungs[-1]), _pair(c, rungs[-2], rungs[-1])
        sg = c.get("seat_game")
        t = c["tempo"]
        rows.append([
            esc(_label(c)),
            est_html(_e(c["seat_hand"]["first_win"]), 1, pct=True, sign=True),
            est_html(_e(c["seat_hand"]["first_score"]), 2, sign=True) + f" {esc(c['score_unit'])}",
            _dup_cell(c.get("seat_dup")),
            est_html(_e(sg["first_win"]), 1, pct=True, sign=True) if sg else "no whole game",
            est_html(_e(skill["hand"]["effect"]), 2, sign=True),
            f"{esc(upper['weak'])}&rarr;{esc(upper['strong'])}: {_ahead(upper['hand']['ahead'])}"
            + (f"; games {_ahead(upper['game']['ahead'])}" if "game" in upper else ""),
            est_html(_e(upper["hand"]["shares"]["deal"]), 1, pct=True),
            est_html(_e(t["turns"]), 1) + f" ({t['turns_q'].get('q10', 0):.0f}/{t['turns_q'].get('q50', 0):.0f}/"
                                          f"{t['turns_q'].get('q90', 0):.0f})",
            est_html(_e(t.get("hands_per_game")), 2) if "hands_per_game" in t else "&ndash;",
            est_html(_e(t["no_out"]), 1, pct=True),
            est_html(_e(c["volatility"]["hand_sd"]), 1),
            f"{_e(c['seat_hand']['first_win']).n:,}",
        ])
    return html_table(
        ["game, players", "first player: win edge", "first player: score edge",
         "first player on duplicate deals: win edge; score edge", "first player: game win edge",
         "skill gradient (random&rarr;strongest, edge/SD)", "hands to be ahead", "variance explained by the deal",
         "turns/hand (q10/q50/q90)", "hands/game", "no one out", "score SD/hand", "n hands"], rows,
        caption="Comparison across games (95% CIs in brackets). Win edge: the first player's win rate above "
                "the average seat's (percentage points); hands to be ahead and the deal share are for the "
                "simple player against the strongest preset (the top of the ladder), duplicate deals.",
        numeric=set(range(1, 13)))


def ladder_table(cells: list[dict]) -> str:
    rows = []
    for c in cells:
        for p in c["ladder"]:
            h = p["hand"]
            g = p.get("game")
            rows.append([esc(_label(c)), f"{esc(p['weak'])} &lt; {esc(p['strong'])}",
                         est_html(_e(h["win"]), 1, pct=True) + f" (fair {h['fair']:.1%})",
                         est_html(_e(h["edge"]), 2, sign=True), est_html(_e(h["effect"]), 3, sign=True),
                         _ahead(h["ahead"]), _ahead(g["ahead"]) if g else "&ndash;",
                         est_html(_e(g["win"]), 1, pct=True) if g else "&ndash;",
                         est_html(_e(h["shares"]["strategy"]), 1, pct=True),
                         est_html(_e(h["shares"]["cards"]), 1, pct=True),
                         est_html(_e(h["shares"]["interaction"]), 1, pct=True), f"{h['units']:,}"])
    return html_table(
        ["game, players", "pair", "stronger wins hand", "score edge/hand vs avg opponent", "edge/SD",
         "hands to be ahead", "games to be ahead", "stronger wins game", "variance: strategy",
         "variance: cards", "variance: deal x strategy (approximate CI)", "hands (deals x seats)"], rows,
        caption="The strategy ladder on duplicate deals: the stronger player in one seat, the weaker in the "
                "others, every deal played once per seat. Fair: a seat's win rate if every seat won equally. "
                "The deal x strategy (interaction) share's CI is " + INTERACTION_CI + ".",
        numeric=set(range(2, 12)))


def seat_table(cells: list[dict]) -> str:
    """Win rate and mean score by position: one table per player count, so that no game shows
    positions it does not have."""
    counts = sorted({len(c["seat_hand"]["win"]) for c in cells})
    return "".join(_seat_table([c for c in cells if len(c["seat_hand"]["win"]) == k]) for k in counts)


def _seat_table(cells: list[dict]) -> str:
    rows = []
    most = max(len(c["seat_hand"]["win"]) for c in cells)
    for c in cells:
        for unit, key in (("hand", "seat_hand"), ("game", "seat_game")):
            s = c.get(key)
            if not s:
                continue
            rows.append([esc(_label(c)), unit] + [
                est_html(_e(w), 1, pct=True) + "<br>" + est_html(_e(m), 2, sign=True)
                for w, m in zip(s["win"], s["score"])] + ["&ndash;"] * (most - len(s["win"])))
    return html_table(["game, players", "per"] + [f"position {p + 1}: win rate<br>mean score" for p in range(most)],
                      rows, caption="Win rate and mean score (net per game) by position after the dealer (per "
                                    "game: after the first dealer); every seat plays simple.",
                      numeric=set(range(2, 2 + most)))


def tempo_table(cells: list[dict]) -> str:
    rows = []
    for c in cells:
        v = c["volatility"]
        oc = "; ".join(f"{esc(k)} {_e(e).fmt(1, pct=True)}" for k, e in c["tempo"]["outcomes"].items()
                       if e["value"] > 0)
        rows.append([esc(_label(c)), esc(", ".join(c["tempo"]["no_out_outcomes"]) or "none"), oc,
                     est_html(_e(v["hand_sd"]), 1), est_html(_e(v.get("game_sd")), 1) if "game_sd" in v else "&ndash;",
                     est_html(_e(v.get("one_hand_games")), 1, pct=True) if "one_hand_games" in v else "&ndash;"])
    return html_table(["game, players", "no-one-out outcomes", "outcome shares [95% CI]", "score SD per hand",
                       "net SD per game", "games of one scoring hand"], rows,
                      caption="Outcomes and volatility (every seat simple).", numeric={3, 4, 5})


def sensitivity_table(s: dict) -> str:
    rows = []
    d = s["default"]
    rows.append(["defaults", est_html(_e(d["first_win"]), 1, pct=True, sign=True), "",
                 est_html(_e(d["skill"]), 3, sign=True), ""])
    for o in s["options"]:
        rows.append([esc(o["rule"]), est_html(_e(o["first_win"]), 1, pct=True, sign=True),
                     est_html(_e(o["d_first_win"]), 1, pct=True, sign=True),
                     est_html(_e(o["skill"]), 3, sign=True), est_html(_e(o["d_skill"]), 3, sign=True)])
    rows += [[esc(k["rule"]), "not run: " + esc(k["why"]), "", "", ""] for k in s["skipped"]]
    return html_table(["rule", "first player win edge", "change", "skill gradient", "change"], rows,
                      caption=f"{esc(s['variant'])}, {s['players']} players: one rule option changed at a time, "
                              f"{s['hands']:,} hands per run.", numeric={1, 2, 3, 4})


def _scatter(name, cells):
    fig = new_figure(7.5, 4.6)
    ax = fig.add_subplot()
    games = list(dict.fromkeys(c["variant"] for c in cells))
    for g in games:
        cs = [c for c in cells if c["variant"] == g]
        x = [_e(c["seat_hand"]["first_win"]) for c in cs]
        y = [_e(_pair(c, c["rungs"][0], c["rungs"][-1])["hand"]["effect"]) for c in cs]
        xv, yv = np.array([e.value for e in x]) * 100, np.array([e.value for e in y])
        ax.errorbar(xv, yv, xerr=yerr(xv, [e.lo * 100 for e in x], [e.hi * 100 for e in x]),
                    yerr=yerr(yv, [e.lo for e in y], [e.hi for e in y]), fmt="o", capsize=2, label=g)
        for c, a, b in zip(cs, xv, yv):
            ax.annotate(f"{c['players']}p" + ("*" if c["rules"] else ""), (a, b), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")
    ax.axvline(0, color="grey", lw=0.8)
    label_axes(ax, "first player's win edge over the average seat (percentage points)",
               "skill gradient: random → strongest, edge per hand / SD",
               "Seat edge against skill gradient (bars: 95% CI; labels: players, * rule change)")
    return finish(fig, name, "One point per game and player count: how much the first seat gains against how "
                  "much skill (the strongest preset over uniform random play) moves a hand.", [ax])


def _rungs(name, cells, linthresh=None):
    """Each rung's step up the ladder (neighbouring pairs, the search rung on top where played):
    the stronger player's edge per hand over its SD, per game and player count, with CIs;
    ``linthresh``: a symmetric-log axis, linear within it (the upper rungs are 10-100x smaller
    than random < simple)."""
    fig = new_figure(7.5, 4.2)
    ax = fig.add_subplot()
    steps = list(dict.fromkeys(f"{p['weak']} < {p['strong']}" for c in cells for p in c["ladder"]
                               if _neighbours(c, p)))
    width = 0.8 / max(1, len(cells))
    for i, c in enumerate(cells):
        ps = {f"{p['weak']} < {p['strong']}": _e(p["hand"]["effect"]) for p in c["ladder"] if _neighbours(c, p)}
        xs = [k + (i - (len(cells) - 1) / 2) * width for k, st in enumerate(steps) if st in ps]
        es = [ps[st] for st in steps if st in ps]
        v = np.array([e.value for e in es])
        ax.errorbar(xs, v, yerr=yerr(v, [e.lo for e in es], [e.hi for e in es]), fmt="o", capsize=2,
                    label=_label(c))
    ax.axhline(0, color="grey", lw=0.8)
    if linthresh:
        ax.set_yscale("symlog", linthresh=linthresh)
    ax.set_xticks(range(len(steps)), steps)
    label_axes(ax, "rung: weaker < stronger", "edge per hand / SD (the stronger over the weaker)",
               "The skill ladder, one rung at a time (bars: 95% CI)", legend_size=7, legend_cols=2)
    return finish(fig, name, "How much each step up the strategy ladder moves a hand, per game and player count: "
                  "the stronger rung in one seat, the weaker in the others, duplicate deals; the champion and "
                  "search rungs are shown where the study played them (--champion-hands, --search-hands).", [ax])


def _neighbours(c: dict, p: dict) -> bool:
    """True for a pair of neighbouring rungs (or a rung above the ladder: the champion's, the
    search rung)."""
    r = c["rungs"]
    if p["strong"] in ("search", c.get("champion")):
        return True
    return p["weak"] in r and p["strong"] in r and r.index(p["strong"]) == r.index(p["weak"]) + 1


def _turns(name, cells):
    fig = new_figure(7.5, 4.2)
    ax = fig.add_subplot()
    for c in cells:
        h = np.asarray(c["tempo"]["turns_hist"], dtype=float)
        if h.sum() == 0:
            continue
        ax.step(np.arange(h.size), np.cumsum(h) / h.sum(), where="post", label=_label(c), lw=1)
    label_axes(ax, "turns in the hand", "share of hands with at most this many turns",
               "Turns per hand (every seat simple)", legend_size=7, legend_cols=2)
    return finish(fig, name, "Cumulative distribution of the number of turns per hand, one curve per game and "
                  "player count.", [ax])


def _by_size(opts: list[dict]) -> list[dict]:
    """Options from the smallest change to the largest (the largest at the top of a tornado):
    by the larger of the two changes, each relative to the largest change of its kind."""
    top = {k: max([abs(o[k]["value"]) for o in opts] + [1e-12]) for k in ("d_first_win", "d_skill")}
    return sorted(opts, key=lambda o: max(abs(o[k]["value"]) / top[k] for k in top))


def _tornado(name, s):
    opts = _by_size(s["options"])
    fig = new_figure(8.0, 1.2 + 0.32 * max(len(opts), 1))
    axes = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(opts))
    labels = [o["rule"] for o in opts]
    for ax, key, scale, xlabel in ((axes[0], "d_first_win", 100, "change of first player's win edge (pp)"),
                                   (axes[1], "d_skill", 1, "change of skill gradient (edge/SD)")):
        es = [_e(o[key]) for o in opts]
        v = np.array([e.value for e in es]) * scale
        ax.barh(y, v, color="tab:blue" if key == "d_first_win" else "tab:orange", alpha=0.75, label="change")
        ax.errorbar(v, y, xerr=yerr(v, [e.lo * scale for e in es], [e.hi * scale for e in es]), fmt="none",
                    ecolor="black", capsize=3, label="95% CI")
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("rule option" if key == "d_first_win" else "")
        ax.grid(axis="x", alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_yticks(y, labels, fontsize=8)
    axes[1].set_ylabel("rule option")
    fig.suptitle(f"{s['variant']}, {s['players']} players: what each rule option does to balance")
    return finish(fig, name, f"Each on/off or text option of {s['variant']} changed alone against the defaults "
                  "(same seed): the first player's win edge and the skill gradient.", list(axes))
