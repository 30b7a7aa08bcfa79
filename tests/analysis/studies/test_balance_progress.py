"""The balance study's one progress bar: its total is every run of the plan (hands, whole games
counted as their hands) before any is played, it reaches that total, and the plan names exactly
the runs the study stores."""

import numpy as np
import pytest

from analysis import progress, store
from analysis.studies import balance as BS
from analysis.studies import balance_plan as P

TINY = dict(hands=200, ladder_hands=100, games=40, rule_hands=100, dup_hands=100, seed=3, per_game_scale=False)


class Recorder:
    """Stands in for tqdm: the totals it was given and the work reported into it."""
    made = []

    def __init__(self, job, show, initial=0):
        self.first_total, self.total, self.unit, self.desc, self.done = job.n, job.n, job.unit, job.desc, 0
        Recorder.made.append(self)

    def update(self, n):
        self.done += n

    def close(self):
        pass


def _study(monkeypatch, out):
    Recorder.made = []
    monkeypatch.setattr(progress, "job_bar", Recorder)
    cfg = BS.default_config(["gin"], (2,), **TINY)
    BS.run_balance(cfg, out, jobs=1, progress=True)
    return cfg


@pytest.mark.slow
def test_one_bar_whose_total_is_every_planned_run_up_front(tmp_path, monkeypatch):
    cfg = _study(monkeypatch, tmp_path / "b")
    assert len(Recorder.made) == 1, "one bar for the whole study, not one per run"
    bar = Recorder.made[0]
    runs = {}
    for folder in (tmp_path / "b" / "runs").iterdir():
        meta, df = store.load_run(folder)
        runs[folder.name] = (len(df), meta["unit"])
    assert sorted(runs) == sorted(P.study_plan(cfg).runs)
    hands = sum(n for n, unit in runs.values() if unit != "game")     # hands, and duplicate deals
    games = sum(n for n, unit in runs.values() if unit == "game")
    assert games == 40 + 2 * 3 * 10          # base games, then a quarter per seat of each ladder pair
    assert bar.unit == "hand" and bar.first_total == hands + games * P.HANDS_PER_GAME_GUESS
    # once the base games are played the ladder's games count as their mean length: the bar still ends full
    _, g = store.load_run(tmp_path / "b" / "runs" / "gin-2p-base-games")
    per_game = max(1, round(float(np.mean(g["hands"]))))
    assert bar.total == hands + 40 * P.HANDS_PER_GAME_GUESS + 60 * per_game
    assert bar.done == bar.total


@pytest.mark.slow
def test_a_stored_study_leaves_nothing_on_the_bar(tmp_path, monkeypatch):
    _study(monkeypatch, tmp_path / "b")
    first = BS.load_balance(tmp_path / "b")
    _study(monkeypatch, tmp_path / "b")
    bar, = Recorder.made
    assert bar.done == 0 and bar.total == 0
    again = BS.load_balance(tmp_path / "b")
    assert again["cells"] == first["cells"] and again["sensitivity"] == first["sensitivity"]


def test_learning_the_game_length_moves_only_the_waiting_game_runs():
    cfg = BS.default_config(["gin"], (2,), **TINY)
    plan = P.study_plan(cfg)
    before = plan.work()
    waiting = [n for n in plan.runs if "games-r" in n]           # the ladder's game runs
    delta = plan.learn("gin-2p", 12.4, waiting)
    assert delta == 60 * (12 - P.HANDS_PER_GAME_GUESS) and plan.work() == before + 40 * 2 + delta
    assert plan.weight("gin-2p-base") == 1 and plan.weight("gin-2p-base-games") == 12


def test_a_piped_balance_reports_one_line_across_its_runs(monkeypatch, capsys, tmp_path):
    from analysis.cli import main
    monkeypatch.setattr(progress, "PROGRESS_EVERY_S", 0.0)
    argv = ["balance", "--variant", "tonk", "--players", "2", "--hands", "200", "--games", "0", "--jobs", "1",
            "--out", str(tmp_path / "t")]
    assert main(argv) == 0
    work = P.study_plan(BS.default_config(["tonk"], (2,), **{**TINY, "games": 0})).work()
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("balance: ") and " runs, " in err[0]
    lines = [x for x in err if x.startswith("balance tonk 2p")]
    assert lines and all(f" of {work:,} hands (" in x for x in lines)
    done = [int(x.split(": ")[1].split(" of ")[0].replace(",", "")) for x in lines]
    assert done == sorted(done) and len(set(done)) == len(done)
