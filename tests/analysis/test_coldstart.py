"""The first run's compile notice (analysis.coldstart): said once, on stderr, with the expected
time; not said again once the cache has the kernels; not recorded when the block fails."""

import pytest

from analysis import coldstart


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(coldstart, "_said", set())
    return tmp_path


def test_first_compile_is_announced_once_with_its_expected_time(fresh_cache, capsys):
    with coldstart.compiling("gin", "hands"):
        pass
    err = capsys.readouterr()
    assert err.out == ""
    assert err.err.count("\n") == 1
    assert "compiling Gin's kernels for the first run, about" in err.err
    assert f"about {coldstart.SERIAL_S['gin.hands']} s" in err.err      # the suite compiles in one process
    assert "later runs start at once" in err.err
    assert (fresh_cache / "rummylab-compiled" / "gin.hands").exists()
    coldstart._said.clear()             # a new process: the marker alone keeps it quiet
    with coldstart.compiling("gin", "hands"):
        pass
    assert capsys.readouterr().err == ""


def test_a_first_compile_on_two_cores_says_its_own_time(fresh_cache, capsys, monkeypatch):
    from analysis import compile_plan
    ran = []
    monkeypatch.setenv("RUMMYLAB_SPLIT_COMPILE", "1")
    monkeypatch.setattr(compile_plan, "precompile", ran.append)
    monkeypatch.setattr(compile_plan.os, "cpu_count", lambda: 2)
    with coldstart.compiling("gin", "hands"):
        pass
    assert ran == ["gin.hands"]
    assert f"about {coldstart.EXPECTED_S['gin.hands']} s" in capsys.readouterr().err


def test_an_entry_without_a_measured_time_says_so_plainly(fresh_cache, capsys):
    with coldstart.compiling("gin", "hands.search"):
        pass
    err = capsys.readouterr().err
    assert "Gin's kernels (hands.search)" in err and "up to a minute" in err


def test_a_failed_first_run_leaves_no_marker(fresh_cache, capsys):
    with pytest.raises(ValueError):
        with coldstart.compiling("tonk", "hands"):
            raise ValueError("boom")
    assert not (fresh_cache / "rummylab-compiled" / "tonk.hands").exists()


def test_one_process_says_it_once_even_before_the_marker_is_written(fresh_cache, capsys):
    with coldstart.compiling("loba", "hands"):
        with coldstart.compiling("loba", "hands"):
            pass
    assert capsys.readouterr().err.count("compiling Loba") == 1


def test_the_engine_and_the_advisor_announce_their_game(fresh_cache):
    from sim.runner import make_spec
    from analysis.jobs import SimJob
    spec = make_spec("knock-rummy", n=10, seed=1, players=3, mode="games")
    assert coldstart.spec_key(spec) == ("knock-rummy", "games")
    assert coldstart.spec_key(make_spec("gin", strategies="search,strong", n=10, seed=1)) == ("gin", "hands.search")
    from contextlib import nullcontext
    assert not isinstance(coldstart.compiling_job(SimJob(spec)), nullcontext)
    assert isinstance(coldstart.compiling_job(object()), nullcontext)
