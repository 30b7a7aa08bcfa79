"""``rummylab tune`` (analysis/studies/tune.py): bad input, reproducibility, resume, fresh seeds
for the finalists, every strategy family tunable, and tuned presets as data."""

import json
import math
from pathlib import Path

import pytest

import sim.strategies as S
from analysis.cli import main
from analysis.studies.tune import build_spec, run_tune
from analysis.studies.tune_presets import save_preset

S._load_families()
FAST = ("knock-rummy", "basic-rummy", "tonk", "wildcard")      # one quick game per family
TINY = dict(budget=2400, min_hands=100, rungs=2, trials=5, finalists=2, final_hands=200)


def family_variant(fam) -> str:
    return next((v for v in FAST if v in fam.variants), fam.variants[0])


def knock_spec(**kw):
    return build_spec("knock-rummy", players=4, params="knock,knock_mid,per_opp", seed=3, **{**TINY, **kw})


def trials_of(doc):
    return [(t["number"], t["state"], t["params"], [r["value"] for r in t["rungs"]]) for t in doc["trials"]]


@pytest.mark.parametrize("argv, words", [
    (["--variant", "knock-rummy", "--family", "tonk"], "family tonk does not play knock-rummy"),
    (["--variant", "knock-rummy", "--family", "nosuch"], "no strategy family named so"),
    (["--variant", "nope"], "unknown variant 'nope'"),
    (["--variant", "knock-rummy", "--field", ""], "--field is empty"),
    (["--variant", "knock-rummy", "--field", "simple,bogus"], "--field member 'bogus'"),
    (["--variant", "knock-rummy", "--field", "simple,simple"], "listed twice in --field"),
    (["--variant", "knock-rummy", "--budget", "150", "--min-hands", "100"], "cannot evaluate one candidate"),
    (["--variant", "knock-rummy", "--players", "9"], "players=9 is out of range"),
    (["--variant", "knock-rummy", "--players", "0"], "--players must be >= 1"),
    (["--variant", "knock-rummy", "--params", "nosuch"], "has no parameter 'nosuch'"),
    (["--variant", "knock-rummy", "--base", "bogus"], "--base 'bogus' is not a preset"),
    (["--variant", "knock-rummy", "--save-preset", "hand-strong"], "is a hand-picked preset"),
    (["--variant", "knock-rummy", "--save-preset", "Bad Name"], "write lower-case letters"),
    (["--variant", "knock-rummy", "--budget", "0"], "--budget must be >= 1"),
    (["--variant", "knock-rummy", "--objective", "best"], "invalid choice: 'best'"),
])
def test_bad_input_is_one_line_and_exit_2(argv, words, capsys, tmp_path):
    try:
        code = main(["tune", *argv, "--out", str(tmp_path / "out")])
    except SystemExit as e:      # refused while the command line is read
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and words in err and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()


def test_help_has_examples(capsys):
    with pytest.raises(SystemExit):
        main(["tune", "--help"])
    out = capsys.readouterr().out
    assert "examples:" in out and "rummylab tune --variant knock-rummy" in out


def test_same_seed_same_trials_and_winner():
    a, b = run_tune(knock_spec()), run_tune(knock_spec())
    assert trials_of(a) == trials_of(b)
    assert a["winner"] == b["winner"] and a["finalists"] == b["finalists"]
    c = run_tune(build_spec("knock-rummy", players=4, params="knock,knock_mid,per_opp", seed=4, **TINY))
    assert [t[2] for t in trials_of(c)][1:] != [t[2] for t in trials_of(a)][1:]   # trial 0 is the base


def test_budget_is_respected_and_the_first_trials_are_the_base_and_the_field():
    doc = run_tune(knock_spec())
    assert doc["hands_search"] <= TINY["budget"]
    assert doc["trials"][0]["params"] == {"knock": 15, "knock_mid": -1, "per_opp": 0}   # knock-rummy simple
    strong = S.parse_strategy("strong", "knock-rummy", 4).values                    # the field member, at 4 players
    assert doc["trials"][1]["params"] == {k: strong[k] for k in ("knock", "knock_mid", "per_opp")}


def test_interrupted_run_resumes_to_the_uninterrupted_result(tmp_path):
    whole = run_tune(knock_spec(), out_dir=tmp_path / "whole")
    seen = []

    def stop(number, rung):
        seen.append((number, rung))
        if len(seen) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tune(knock_spec(), out_dir=tmp_path / "cut", on_rung=stop)
    assert not json.loads((tmp_path / "cut" / "tune.json").read_text())["complete"]
    resumed = run_tune(knock_spec(), out_dir=tmp_path / "cut")
    assert trials_of(resumed) == trials_of(whole)
    numbers = [t[0] for t in trials_of(resumed)]
    assert len(numbers) == len(set(numbers)) == TINY["trials"]
    assert resumed["finalists"] == whole["finalists"]
    again = run_tune(knock_spec(), out_dir=tmp_path / "cut")          # complete: read back, nothing run
    assert again["finalists"] == whole["finalists"]


def test_finalists_play_seeds_the_search_never_saw(tmp_path):
    doc = run_tune(knock_spec(), out_dir=tmp_path)
    def seeds(pattern):
        return {a["seed"] for p in tmp_path.glob(pattern) for a in json.loads(p.read_text())["arms"]}
    search = seeds("search/*/*/spec.json") | seeds("reference/*/spec.json")
    final = seeds("final/*/spec.json")
    assert search == set(doc["seeds"]["search"]) and final == set(doc["seeds"]["final"])
    assert final and not search & final
    finals = [json.loads(p.read_text()) for p in (tmp_path / "final").glob("*/meta.json")]
    assert all(m["n"] == TINY["final_hands"] for m in finals)
    for row in doc["finalists"]:
        for x in row["edges"]:
            assert x["n"] == TINY["final_hands"] and x["lo"] <= x["edge"] <= x["hi"]
            assert x["sim_lo"] <= x["lo"] and x["hi"] <= x["sim_hi"]


@pytest.mark.parametrize("family", sorted(S.FAMILIES))
def test_every_family_can_be_tuned(family):
    fam = S.FAMILIES[family]
    variant = family_variant(fam)
    spec = build_spec(variant, family=family, field="simple", seed=1, budget=600, min_hands=100, rungs=2,
                      trials=3, finalists=2, final_hands=100)
    assert {n for n, *_ in spec.params} <= {p.name for p in fam.params} - {"random_play"}
    doc = run_tune(spec)
    assert doc["complete"] and doc["trials"]
    w = doc["finalists"][doc["winner"]]
    for name, lo, hi, integer in spec.params:
        assert lo <= w["params"][name] <= hi
        assert not integer or float(w["params"][name]).is_integer()
    assert all(math.isfinite(x["edge"]) and x["n"] >= 100 for x in w["edges"])


def test_ranges_are_narrowed_to_what_the_game_accepts():
    spec = build_spec("ramino-klop", params="knock", budget=1000, min_hands=100, field="simple")
    (name, lo, hi, integer), = spec.params
    assert (name, lo, integer) == ("knock", 0.0, True) and hi < 100     # knock_below caps it


@pytest.fixture
def tuned_file(tmp_path, monkeypatch):
    """A presets file in tmp_path that the strategy loader reads; what it adds is removed after."""
    path = tmp_path / "tuned_presets.json"
    read = S.read_tuned
    monkeypatch.setattr(S, "read_tuned", lambda p=path: read(p))
    before = dict(S.PRESETS), set(S.TUNED), dict(S.PLAYER_ALIASES)
    yield path
    S.PRESETS.clear()
    S.PRESETS.update(before[0])
    for k in set(S.TUNED) - before[1]:
        del S.TUNED[k]
    S.PLAYER_ALIASES.clear()
    S.PLAYER_ALIASES.update(before[2])


def test_presets_file_round_trip_and_strategies_show_provenance(tmp_path, tuned_file, capsys, monkeypatch):
    out = tmp_path / "run"
    argv = ["tune", "--variant", "knock-rummy", "--players", "4", "--params", "knock,knock_mid,per_opp",
            "--seed", "3", "--out", str(out), "--presets-file", str(tuned_file), "--save-preset", "tuned-test",
            "--no-progress", *[f"--{k.replace('_', '-')}={v}" for k, v in TINY.items()]]
    assert main(argv) == 0
    doc = json.loads(tuned_file.read_text())
    (entry,) = doc["presets"]
    w = json.loads((out / "tune.json").read_text())
    win = w["finalists"][w["winner"]]
    assert entry["name"] == "tuned-test" and entry["variant"] == "knock-rummy" and entry["players"] == 4
    assert {k: entry["params"][k] for k in win["params"]} == win["params"]
    pv = entry["provenance"]
    assert pv["seed"] == 3 and pv["field"] == ["simple", "strong"] and pv["hands_final"] == TINY["final_hands"]
    assert [x["edge"] for x in pv["edges"]] == [x["edge"] for x in win["edges"]]
    assert pv["command"].startswith("rummylab tune --variant knock-rummy") and pv["commit"]
    save_preset(w, "tuned-test", pv["command"], tuned_file)            # updating keeps one entry
    assert len(json.loads(tuned_file.read_text())["presets"]) == 1
    monkeypatch.setattr(S, "_TUNED_LOADED", False)
    S._load_families()
    st = S.parse_strategy("tuned-test", "knock-rummy")
    assert st.values == entry["params"]
    capsys.readouterr()
    assert main(["strategies", "--variant", "knock-rummy"]) == 0
    text = capsys.readouterr().out
    assert "tuned-test" in text and "tuned:" in text and "edge vs simple" in text and pv["command"] in text


def test_a_preset_tuned_for_a_player_count_stands_in_there_only(tmp_path, tuned_file, capsys, monkeypatch):
    out = tmp_path / "run"
    argv = ["tune", "--variant", "knock-rummy", "--players", "4", "--params", "knock,knock_mid", "--seed", "4",
            "--out", str(out), "--presets-file", str(tuned_file), "--save-preset", "tuned-4p", "--stands-for", "strong",
            "--no-progress", *[f"--{k.replace('_', '-')}={v}" for k, v in TINY.items()]]
    assert main(argv) == 0
    (entry,) = json.loads(tuned_file.read_text())["presets"]
    assert (entry["stands_for"], entry["at_players"]) == ("strong", [4])
    monkeypatch.setattr(S, "_TUNED_LOADED", False)
    S._load_families()
    general = S.PRESETS[("knock-rummy", "strong")][1]
    assert S.parse_strategy("strong", "knock-rummy", 4).values == entry["params"] != general
    assert S.parse_strategy("strong", "knock-rummy", 2).values == S.parse_strategy("strong", "knock-rummy").values
    seats = S.parse_strategies("strong,simple,simple,simple", "knock-rummy", 4)
    assert seats[0].values == entry["params"] and seats[0].spec == "strong"
    assert main(argv[:-1 - len(TINY)] + ["--stands-for", "nobody", *argv[-len(TINY):]]) == 2
    assert main(["tune", "--variant", "knock-rummy", "--stands-for", "strong"]) == 2
    assert "--save-preset" in capsys.readouterr().err


def test_a_damaged_presets_file_is_one_line(tuned_file, capsys, monkeypatch):
    tuned_file.write_text("{not json")
    monkeypatch.setattr(S, "_TUNED_LOADED", False)
    assert main(["simulate", "--variant", "knock-rummy", "--hands", "10"]) == 2
    assert "tuned presets file" in capsys.readouterr().err


def test_report_section_reads_the_stored_run(tmp_path):
    from analysis.report import build_report
    run_tune(knock_spec(), out_dir=tmp_path / "t")
    rep = build_report([str(tmp_path / "t")])
    (sec,) = rep.sections
    assert sec.kind == "tune" and len(sec.figures) == 1
    html = "\n".join(b for b in sec.body if isinstance(b, str))
    assert "family default" in html and "edge per hand" in html and "mean over the field" in html


def test_the_repository_presets_file_loads_and_every_game_has_a_tuned_strong():
    from sim.variants import available
    doc = S.read_tuned(Path(S.__file__).with_name("tuned_presets.json"))
    for entry in doc["presets"]:
        S.check_tuned(entry)
        assert entry["provenance"]["edges"] and entry["provenance"]["command"].startswith("rummylab tune ")
    assert {e["variant"] for e in doc["presets"] if e["name"] == "strong"} == set(available())
    for v in available():   # strong is the tuned one: no family keeps a hand-picked strong
        assert all("strong" not in f.presets_for(v) for f in S.FAMILIES.values() if v in f.variants)
        assert S.parse_strategy("strong", v).values.items() >= S.TUNED[(v, "strong")]["params"].items()


def test_worst_gain_scores_the_base_zero_and_picks_the_best_least_gain():
    """--objective worst-gain: the base preset (trial 0) gains exactly 0 over itself at every rung;
    every other trial's value is its least edge-minus-the-base's-edge; the winner has the
    highest least gain on the fresh deals, where the base plays too."""
    doc = run_tune(knock_spec(objective="worst-gain", base="hand-strong", field="simple,hand-strong"))
    assert doc["spec"]["objective"] == "worst-gain"
    base = doc["trials"][0]
    assert base["rungs"] and all(r["value"] == 0.0 for r in base["rungs"])
    for t in doc["trials"][1:]:
        for r, b in zip(t["rungs"], base["rungs"]):
            assert r["value"] == pytest.approx(min(e - f for e, f in zip(r["edges"], b["edges"])))
    rows = doc["finalists"]
    for row in rows:
        assert [g["opponent"] for g in row["gains"]] == ["simple", "hand-strong"]
        assert row["worst_gain"] == min(row["gains"], key=lambda g: g["edge"])
        for g, e in zip(row["gains"], row["edges"]):
            assert g["n"] == e["n"] and g["lo"] <= g["edge"] <= g["hi"]
    assert doc["winner"] == max(range(len(rows)), key=lambda j: (rows[j]["worst_gain"]["edge"], -rows[j]["number"]))
