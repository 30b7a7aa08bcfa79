"""Every study command answers first (issue 22, part 6): its first lines are the answer
sentences of each study's ``*_answer`` (the report's landing page), written from the same stored
numbers; ``--csv`` prints tables a spreadsheet reads; ``--json`` keeps its content; the help
texts read as they should.  Small runs (a few hundred hands, --jobs 1)."""

from __future__ import annotations

import dataclasses
import io
import json

import pandas as pd
import pytest

from analysis import progress
from analysis.cli import main
from analysis.studies.balance_text import balance_answer
from analysis.studies.buyback import buyback_answer
from analysis.studies.compare_stats import compare_answer
from analysis.studies.equilibrium_text import equilibrium_answer
from analysis.studies.knock_advice import advice_answer
from analysis.studies.knock_rules import knock_rules_answer
from analysis.studies.meld_plan import meld_answer
from analysis.studies.sweep_text import sweep_answer
from analysis.studies.tonk_odds import tonk_odds_answer
from analysis.wording import answer_lines

FAST = ["--jobs", "1", "--no-progress"]


def _run(capsys, argv) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def _opens_with(out: str, sentences: list[str]) -> None:
    want = answer_lines(sentences)
    assert want, "the study wrote no answer"
    assert out.splitlines()[:len(want)] == want


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("term") / "gin-knock"
    assert main(["knock-sweep", "--variant", "gin", "--thresholds", "4..10", "--by-turn", "--hands", "400",
                 "--games", "0", "--seed", "3", *FAST, "--out", str(out)]) == 0
    return out


SWEEP = ["knock-sweep", "--variant", "gin", "--thresholds", "4..10", "--by-turn", "--hands", "400",
         "--games", "0", "--seed", "3", *FAST]


def test_knock_sweep_opens_with_its_answer_then_rules_then_detail(sweep_dir, capsys):
    from analysis.studies.knock_sweep import load_sweep
    res = load_sweep(sweep_dir)
    out = _run(capsys, [*SWEEP, "--out", str(sweep_dir)])
    _opens_with(out, sweep_answer(res))
    lines = out.splitlines()
    k = len(answer_lines(sweep_answer(res)))
    assert lines[k].startswith("rules: gin's defaults: knock_limit=10")
    assert any(x.startswith("presets: simple = threshold") for x in lines[k:k + 6])
    assert "By turn, the chart reads knock" in out.split("knock sweep: gin")[0]


def test_knock_sweep_drops_the_chart_rows_no_hand_played_differently_in(sweep_dir, capsys):
    from analysis.studies.knock_sweep import load_sweep
    from analysis.studies.sweep_stats import knock_chart
    res = load_sweep(sweep_dir)
    chart = knock_chart(res.spec, res.by_turn)
    empty = int((chart["hands_affected"] == 0).sum())
    rows = (lambda text: [x for x in text.splitlines() if x.split()[:1] in (["early"], ["mid"], ["late"])
                          and len(x.split()) >= 6 and x.split()[1].isdigit()])
    short = _run(capsys, [*SWEEP, "--out", str(sweep_dir)])
    full = _run(capsys, [*SWEEP, "--out", str(sweep_dir), "--detail"])
    assert len(rows(full)) == len(chart)
    assert len(rows(short)) == len(chart) - empty
    assert (f"({empty} cells where no hand played differently" in short) == (empty > 0)
    # the chart's grid: a column only where some hand of some bucket played differently
    busy = chart.groupby("cell")["hands_affected"].sum()
    grid = (lambda text: next(x for x in text.splitlines()[text.splitlines().index(
        next(y for y in text.splitlines() if y.startswith("  calls: "))) + 1:]).split())
    assert grid(full) == list(chart[chart.bucket == "early"]["cell"])
    assert grid(short) == [c for c in chart[chart.bucket == "early"]["cell"] if busy[c] > 0]


def test_knock_sweep_csv_parses_and_json_is_unchanged(sweep_dir, capsys):
    from analysis.studies.knock_sweep import load_sweep
    from analysis.studies.sweep_text import sweep_dict
    res = load_sweep(sweep_dir)
    df = pd.read_csv(io.StringIO(_run(capsys, [*SWEEP, "--out", str(sweep_dir), "--csv"])))
    assert df.columns[0] == "table"
    counts = df["table"].value_counts().to_dict()
    assert counts["overall"] == len(res.spec.thresholds) == counts["by_turn:early"]
    assert counts["chart"] == len(json.loads(json.dumps(sweep_dict(res)))["knock_chart"])
    best = df[(df["table"] == "overall") & (df["best"])]
    assert list(best["threshold"]) == [res.best_overall]
    doc = json.loads(_run(capsys, [*SWEEP, "--out", str(sweep_dir), "--json"]))
    assert set(doc) >= {"overall", "by_turn", "knock_chart", "policy"} and doc["best_overall"] == res.best_overall


def test_json_and_csv_together_are_refused(capsys):
    assert main([*SWEEP, "--json", "--csv"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummylab: error:") and "--csv" in err and err.count("\n") == 1


def test_knock_rules_opens_with_its_answer_and_its_csv_parses(tmp_path, capsys):
    from analysis.studies.knock_rules import load_rules_study
    argv = ["knock-rules", "--variant", "knock-rummy", "--players", "3", "--thresholds", "10..20:5",
            "--vary", "knocker_penalty=0", "--hands", "300", *FAST, "--out", str(tmp_path / "kr")]
    out = _run(capsys, argv)
    _opens_with(out, knock_rules_answer(load_rules_study(tmp_path / "kr")))
    df = pd.read_csv(io.StringIO(_run(capsys, [*argv, "--csv"])))
    assert list(df["setting"]) == ["defaults", "knocker_penalty=0"]
    assert all(str(b) in str(s).split() for b, s in zip(df["best"], df["indistinguishable"]))


def test_compare_opens_with_its_answer_and_its_csv_parses(tmp_path, capsys):
    from analysis.studies.strategy_compare import load_compare
    argv = ["compare", "--variant", "knock-rummy", "--players", "3", "--strategies", "simple,strong",
            "--rule", "knocker_penalty=0,10", "--hands", "300", *FAST, "--out", str(tmp_path / "c")]
    out = _run(capsys, argv)
    res = load_compare(tmp_path / "c")
    _opens_with(out, compare_answer(res))
    assert "(knocker_penalty varied over 0, 10)" in out
    assert "strong = " in out                      # the preset named says what it is
    df = pd.read_csv(io.StringIO(_run(capsys, [*argv, "--csv"])))
    assert len(df) == 2 and set(df["strategy"]) == {"strong"} and {"diff", "lo", "hi", "call"} <= set(df.columns)


def test_balance_opens_with_its_answer_names_players_and_units(tmp_path, capsys):
    from analysis.studies.balance import load_balance
    argv = ["balance", "--variant", "ramino-klop", "--players", "4", "--hands", "300", "--games", "0",
            "--no-sensitivity", *FAST, "--out", str(tmp_path / "b")]
    out = _run(capsys, argv)
    doc = load_balance(tmp_path / "b")
    _opens_with(out, balance_answer(doc))
    assert out.startswith("ramino-klop (4 players): the first player's win rate is")
    head = next(x for x in out.splitlines() if x.startswith("game "))
    assert "players" in head.split() and " n " not in head
    row = next(x for x in out.splitlines() if x.startswith("ramino-klop ") and " pp [" in x)
    assert row.split()[1] == "4"
    assert "percentage points [95% CI]" in out and "SD per hand [95% CI]" in out
    df = pd.read_csv(io.StringIO(_run(capsys, [*argv, "--csv"])))
    assert len(df) == 1 and df.loc[0, "players"] == 4
    assert df.loc[0, "first_win_edge"] == pytest.approx(doc["cells"][0]["seat_hand"]["first_win"]["value"])


def test_tonk_odds_opens_with_its_answer_and_its_csv_parses(capsys):
    argv = ["tonk-odds", "--players", "2,3", "--tonk-min", "49", "--simulate", "3000", "--seed", "2", *FAST]
    doc = json.loads(_run(capsys, [*argv, "--json"]))
    out = _run(capsys, argv)
    _opens_with(out, tonk_odds_answer(doc, 49))
    assert out.startswith("Tonk on the deal (five cards counting 49 or more, the default), exact")
    df = pd.read_csv(io.StringIO(_run(capsys, [*argv, "--csv"])))
    assert len(df) == len(doc["rows"]) and list(df["exact"]) == pytest.approx([r["exact"] for r in doc["rows"]], rel=1e-5)
    exact = _run(capsys, ["tonk-odds", "--players", "3", "--simulate", "0"])
    assert exact.startswith("Tonk on the deal") and "simulated" not in exact.split("\n\n")[0]


def test_buyback_opens_with_its_answer_and_its_csv_parses(tmp_path, capsys):
    from analysis.studies.buyback import load_buyback
    argv = ["buyback", "--players", "3", "--games", "40", "--thresholds", "50", "--out", str(tmp_path / "bb")]
    out = _run(capsys, argv)
    doc, df = load_buyback(tmp_path / "bb")
    _opens_with(out, buyback_answer(doc["spec"], df))
    assert out.startswith("loba, 3 players: seat 0 wins most games buying back")
    csv = pd.read_csv(io.StringIO(_run(capsys, [*argv, "--csv"])))
    assert list(csv["arm"]) == list(df["arm"]) and list(csv["win0"]) == pytest.approx(list(df["win0"]))


def test_meld_opens_with_the_plan_in_a_sentence(capsys):
    out = _run(capsys, ["meld", "--variant", "basic-rummy", "--hand", "4S 5S 9H 9D 9C KD 2C",
                        "--table", "AS 2S 3S | 7H 7D 7C"])
    first = " ".join(out.split("\n\n")[0].split())
    assert first.startswith("basic-rummy, 4 players: meld 9H 9D 9C; lay off 4S on meld 1")
    assert "12 points left in hand, 2 after the best discard." in first
    assert "rules: basic-rummy's defaults:" in first and "rummy_bonus=double" in first
    assert "left in hand: KD 2C = 12 points" in out          # the detail follows


def test_knock_opens_with_the_call_and_says_why_when_wins_point_the_other_way(capsys):
    from analysis.studies.knock_advice import advise, format_advice
    a = advise("knock-rummy", "AS 2S 3S 7H 7D 7C 9S", turn=3, players=4, worlds=300, seed=1)
    text = format_advice(a)
    _opens_with(text, advice_answer(a))
    assert text.startswith(f"knock-rummy, 4 players, your turn 3, deadwood 9: {a.recommendation.upper()}")
    # a call on points against the chance of winning: the answer says why
    d = a.diff
    flipped = dataclasses.replace(a, recommendation="play on", diff=dataclasses.replace(d, value=-0.53, lo=-0.9,
                                                                                          hi=-0.1),
                                  win_knock=dataclasses.replace(a.win_play, value=0.984),
                                  win_play=dataclasses.replace(a.win_play, value=0.932))
    why = advice_answer(flipped)
    assert why[0].split(": ")[1] == "PLAY ON"
    assert len(why) == 2 and why[1].startswith("Why: the call weighs points, not wins: knocking wins the hand "
                                               "more often (98.4% against 93.2%)")
    agree = dataclasses.replace(flipped, win_knock=flipped.win_play, win_play=flipped.win_knock)
    assert len(advice_answer(agree)) == 1


def test_the_knock_equilibrium_opens_with_its_answer(tmp_path, capsys):
    argv = ["knock-sweep", "--variant", "gin", "--equilibrium", "--thresholds", "8,10", "--hands", "200", *FAST,
            "--out", str(tmp_path / "eq")]
    d = json.loads(_run(capsys, [*argv, "--json"]))
    out = _run(capsys, argv)
    _opens_with(out, equilibrium_answer(d))
    df = pd.read_csv(io.StringIO(_run(capsys, [*argv, "--csv"])))
    assert len(df) == len(d["best_responses"])


def _one_row(text: str) -> dict:
    df = pd.read_csv(io.StringIO(text), keep_default_na=False)
    assert len(df) == 1
    return df.iloc[0].to_dict()


def test_the_advisors_csv_is_one_row_of_its_json(capsys):
    argv = ["knock", "--variant", "gin", "--hand", "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C", "--turn", "3",
            "--upcard", "5C", "--worlds", "400"]
    d = json.loads(_run(capsys, [*argv, "--json"]))
    row = _one_row(_run(capsys, [*argv, "--csv"]))
    for k in ("ev_knock", "ev_play", "diff", "win_knock", "win_play"):
        lo, hi = d[k]["ci95"]
        assert row[k] == pytest.approx(d[k]["value"]) and row[f"{k}_n"] == d[k]["n"] == 400
        assert [row[f"{k}_lo"], row[f"{k}_hi"]] == [pytest.approx(lo) if lo is not None else "",
                                                    pytest.approx(hi) if hi is not None else ""]
    assert row["recommendation"] == d["recommendation"] and row["hand"] == " ".join(d["hand"])
    assert row["worlds"] == d["worlds"] and row["rules.knock_limit"] == d["rules"]["knock_limit"] == 10


def test_the_meld_planners_csv_is_one_row_of_its_json(capsys):
    argv = ["meld", "--variant", "basic-rummy", "--hand", "4S 5S 9H 9D 9C KD 2C", "--table", "AS 2S 3S | 7H 7D 7C"]
    d = json.loads(_run(capsys, [*argv, "--json"]))
    assert d["plan"] == ["meld 9H 9D 9C", "lay off 4S on meld 1 (high end)", "lay off 5S on meld 1 (high end)"]
    assert (d["points_left"], d["points_after_best_discard"], d["left_in_hand"]) == (12, 2, ["KD", "2C"])
    row = _one_row(_run(capsys, [*argv, "--csv"]))
    assert row["plan"] == "; ".join(d["plan"]) and row["left_in_hand"] == "KD 2C"
    assert (row["points_left"], row["points_after_best_discard"]) == (12, 2)
    assert row["table_after"] == d["table_after"] and row["rules.target_score"] == d["rules"]["target_score"]
    text = _run(capsys, argv)
    _opens_with(text, meld_answer("basic-rummy", 4, d["plan"], 12, 2))


def test_help_texts(capsys):
    for cmd, words in (("tonk-odds", "How often is a tonk dealt?"), ("demo", "Run the default study")):
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        text = capsys.readouterr().out
        assert " ".join(text.split()).count(words) == 1, cmd
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    assert "95%%" not in text and "with a 95% CI" in " ".join(text.split())
    for cmd in ("knock-sweep", "knock-rules", "compare", "balance", "tonk-odds", "buyback", "meld", "knock"):
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        assert "--csv" in capsys.readouterr().out, cmd


def test_a_run_piped_or_logged_reports_progress_in_lines(monkeypatch, capsys):
    monkeypatch.setattr(progress, "PROGRESS_EVERY_S", 0.0)
    assert main(["simulate", "--variant", "gin", "--hands", "20000", "--jobs", "1"]) == 0
    err = [x for x in capsys.readouterr().err.splitlines() if " of 20,000 hands (" in x]
    assert err and all("% ) after" not in x and " after " in x for x in err)
    assert "8,192 of 20,000 hands (41%)" in err[0] and "left" in err[0]
    assert main(["simulate", "--variant", "gin", "--hands", "20000", "--jobs", "1", "--no-progress"]) == 0
    assert " of 20,000 hands" not in capsys.readouterr().err


def test_a_long_by_turn_sweep_says_how_long_the_rest_takes(monkeypatch, capsys):
    from analysis.studies import knock_sweep
    monkeypatch.setattr(knock_sweep, "LONG_S", 0.0)
    argv = ["knock-sweep", "--variant", "gin", "--thresholds", "8..10", "--by-turn", "--hands", "300",
            "--games", "0", "--jobs", "1"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "knock sweep: the by-turn chart and its policy take about " in err
    assert "fewer --hands or --thresholds make it quicker" in err
    assert main([*argv, "--no-progress"]) == 0
    assert "take about" not in capsys.readouterr().err


@pytest.mark.slow
def test_one_progress_line_runs_across_the_stages_of_a_sweep(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(progress, "PROGRESS_EVERY_S", 0.0)
    argv = ["knock-sweep", "--variant", "gin", "--thresholds", "8..10", "--by-turn", "--hands", "9000",
            "--games", "0", "--jobs", "1", "--out", str(tmp_path / "s")]
    assert main(argv) == 0
    work = 9000 * (3 + 3 * 3 + 2)                # overall 3 arms, by turn 9, policy 2
    lines = [x for x in capsys.readouterr().err.splitlines() if x.startswith("knock sweep gin, hand stages: ")]
    assert lines and all(f" of {work:,} hands (" in x for x in lines)
    done = [int(x.split(": ")[1].split(" of ")[0].replace(",", "")) for x in lines]
    assert done == sorted(done) and len(set(done)) == len(done) and done[-1] < work
    assert main(argv) == 0                       # all stored: nothing left, no line
    assert "hand stages" not in capsys.readouterr().err


def test_a_long_default_run_says_how_long_it_takes_and_how_to_shorten_it(monkeypatch, capsys, tmp_path):
    from analysis import demo
    from analysis.studies import balance
    seen = {}

    def stop(*args, **kwargs):
        seen["ran"] = True
        raise KeyboardInterrupt
    monkeypatch.setattr(balance, "run_balance", stop)
    assert main(["balance", "--jobs", "1"]) == 130
    err = capsys.readouterr().err
    assert seen and f"takes about {balance.FULL_RUN} on 2 cores" in err and "make it quicker" in err
    assert main(["balance", "--variant", "gin", "--jobs", "1"]) == 130     # not the full default run
    assert "takes about" not in capsys.readouterr().err
    from analysis.studies import knock_sweep
    monkeypatch.setattr(knock_sweep, "run_sweep", stop)
    for scale, said in (("1", True), ("0.2", False)):
        main(["demo", "--jobs", "1", "--scale", scale, "--out", str(tmp_path / f"d{scale}"),
              "--html", str(tmp_path / "r" / "index.html")])
        err = capsys.readouterr().err
        assert (f"demo: about {demo.FULL_RUN} on 2 cores at --scale 1" in err) == said, scale


@pytest.mark.parametrize("variant, words, old", [
    ("gin", "go for gin; never knock", "knock at deadwood"),
    ("tonk", "drop only with a count of 0", "drop at count"),
])
def test_threshold_zero_reads_as_a_player_says_it_in_the_terminal_and_on_the_landing_page(
        variant, words, old, tmp_path, capsys):
    """Thresholds 0 and 10: threshold 0 is the best or the runner-up whatever the deals, and is
    named in words either way (issue 31, part 5)."""
    from analysis.studies.knock_sweep import load_sweep
    from analysis.studies.sweep_stats import sweep_table
    out = tmp_path / f"{variant}-zero"
    argv = ["knock-sweep", "--variant", variant, "--thresholds", "0,10", "--hands", "200", "--games", "0",
            *FAST, "--out", str(out)]
    head = " ".join(_run(capsys, argv).split("\n\n")[0].split())
    t = sweep_table(load_sweep(out).spec, load_sweep(out).overall)
    best = int(t.loc[t["best"], "threshold"].iloc[0])
    assert (f"players, against simple: {words}: the best of thresholds 0, 10" in head) == (best == 0)
    assert (f"over the runner-up ({words})" in head or f"tied with the runner-up ({words})" in head) == (best == 10)
    assert f"{old} ≤ 0" not in head and f"{old} <= 0" not in head
    page = tmp_path / "site" / "index.html"
    assert main(["report", str(out), "--html", str(page)]) == 0
    capsys.readouterr()
    html = page.read_text(encoding="utf-8")
    assert words in html
    assert f"{old} ≤ 0" not in html and f"{old} &lt;= 0" not in html and f"{old} <= 0" not in html


def test_the_chart_policy_reads_bucket_by_bucket_with_zero_in_words():
    from analysis.studies.sweep_text import _by_turn_phrase
    from analysis.studies.knock_sweep import SweepSpec
    from sim.variants import get_variant
    gin, spec = get_variant("gin"), SweepSpec(variant="gin", thresholds=tuple(range(11)))
    assert (_by_turn_phrase(spec, gin, {"early": 0, "mid": 3, "late": 10})
            == "go for gin; never knock in your turns 1–4, knock at deadwood ≤ 3 in turns 5–8, ≤ 10 from turn 9")
    assert (_by_turn_phrase(spec, gin, {"early": 8, "mid": 5, "late": 2})
            == "knock at deadwood ≤ 8 in your turns 1–4, ≤ 5 in turns 5–8, ≤ 2 from turn 9")
    assert _by_turn_phrase(spec, gin, dict.fromkeys(("early", "mid", "late"), 0)) == "go for gin; never knock in every turn"
