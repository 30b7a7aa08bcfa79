"""Every module of sim/ and analysis/ is imported by the tests (issue 34, part 5).

Two checks.  Every module imports (here, by name: so the fast tier, ``make test-fast``, runs
every module's top level at least, its eager compiles and registrations included).  And every
module is named by an import statement of at least one test file (``tests/**/test_*.py``, read
with ``ast`` as ``scripts/import_circles.py`` reads the source: lazy imports inside functions
count, ``from pkg import mod`` names the submodule ``mod``), so that a change to a module shows
which tests guard it.  A package counts as imported when one of its modules is (its
``__init__`` runs first).

The modules no test file imports yet are named in ``NOT_IMPORTED``, each with where it is tested
instead.  The list only shrinks: a module that a test file imports, or that is gone, must leave
it (a test says so), and a new module of sim/ or analysis/ needs a test file that imports it.
"""

import importlib
import re

import pytest

from tests.support import ROOT, script

circles = script("import_circles")            # the import scan of the layer checks and the circle command

MODULES = circles.source_files(ROOT)          # dotted name -> file, every module of sim/ and analysis/
THIS = "tests.crosscut.test_modules_imported"  # imports every module by name: it names none

_REPORT = "rendered from stored runs by tests/analysis/report/test_report.py and test_report_pages.py"
_OPEN_LOOP = ("a piece of the open engine's turn loop (sim.open.open_rummy), played by every open game's "
              "tests, settled against tests/support/open_replay.py in tests/sim/variants/test_basic_rummy.py")
_TUNE = "a piece of `rummylab tune` (analysis.studies.tune), run end to end by tests/analysis/studies/test_tune.py"

# module -> where it is tested instead (a test file naming it by an import leaves it off this list)
NOT_IMPORTED = {
    "analysis.bench": ("`rummylab bench`'s timings (minutes; `make bench` runs them): tests/crosscut/"
                       "test_bad_input.py checks only the command's refusals"),
    "analysis.csv_text": ("the --json/--csv printer of `rummylab knock` and `meld`, through their commands "
                          "in tests/analysis/test_cli_answers.py"),
    "analysis.demo_sizes": ("the default study's sizes, read by analysis.demo: tests/analysis/"
                            "test_engine_cli.py runs the demo at a tiny scale"),
    "analysis.interrupt": ("SIGTERM as Ctrl-C, set up by analysis.cli.main: tests/crosscut/"
                           "test_store_damage.py kills a real run and resumes it"),
    "analysis.provenance": ("the versions and commit analysis.jobs stores with every run, read back "
                            "from a stored run's meta.json by tests/analysis/test_engine_cli.py"),
    "analysis.report.balance": "a report section (registered by analysis.report), " + _REPORT,
    "analysis.report.buyback": "a report section (registered by analysis.report), " + _REPORT,
    "analysis.report.figures": "the sections' matplotlib helpers, " + _REPORT,
    "analysis.report.knock_rules": "a report section (registered by analysis.report), " + _REPORT,
    "analysis.report.odds": "a report section (registered by analysis.report), " + _REPORT,
    "analysis.report.provenance": "the report's provenance lines (analysis.report.site), " + _REPORT,
    "analysis.report.run": "a report section (registered by analysis.report), " + _REPORT,
    "analysis.report.site": "the report's pages (analysis.report), " + _REPORT,
    "analysis.report.sweep": "a report section (registered by analysis.report), " + _REPORT,
    "analysis.report.tune": ("a report section (registered by analysis.report), rendered from a stored run "
                             "by tests/analysis/studies/test_tune.py"),
    "analysis.serve.api": ("the JSON API's routes (analysis.serve.app), asked over HTTP by tests/analysis/"
                           "serve/test_serve.py"),
    "analysis.serve.chart": ("the stored chart's cell for an asked position (analysis.serve.api), asked by "
                             "tests/analysis/serve/test_serve.py"),
    "analysis.serve.cmd": ("`rummylab serve`, started as a process by scripts/load_test.py for tests/"
                           "analysis/serve/test_serve.py (the serve_url fixture of tests/conftest.py)"),
    "analysis.studies.tonk_odds_cmd": ("`rummylab tonk-odds` through analysis.cli.main: tests/analysis/"
                                       "studies/test_tonk_deal.py, tests/analysis/test_cli_answers.py"),
    "analysis.studies.tune_cmd": "`rummylab tune` through analysis.cli.main: tests/analysis/studies/test_tune.py",
    "analysis.studies.tune_final": _TUNE,
    "analysis.studies.tune_spec": _TUNE,
    "analysis.studies.tune_text": _TUNE,
    "analysis.trace_events": ("the events of `rummylab trace` (analysis.trace_cmd.trace_stream), checked by "
                              "tests/analysis/test_trace.py and the referee's tests in tests/crosscut/"),
    "sim.core.deal": ("the deal the turn loops share, pinned through every game's seeded runs by "
                      "tests/crosscut/test_regression_pins.py and tests/sim/core/test_duplicate.py"),
    "sim.core.search_flag": ("the kernels' omitted `search` argument (a numba typing helper, no behaviour "
                             "of its own): every kernel call compiles through it"),
    "sim.knock.meld_tables": ("sim.knock.melds' run tables, checked through melds against tests/support/"
                              "naive.py by tests/sim/knock/test_melds.py"),
    "sim.knock.shown": ("the arrangements shown at a knock (trace rows), settled by the referee in "
                        "tests/crosscut/test_referee_shown.py"),
    "sim.open.jit": "the open engine's two compile modes: every open kernel compiles through them",
    "sim.open.open_plan_bounds": ("the planner's bounds (sim.open.open_plan), checked against the brute "
                                  "force of tests/support/open_plan_reference.py in tests/sim/open/test_open_plan.py"),
    "sim.open.open_plan_search": ("the planner's search (sim.open.open_plan), checked against the brute "
                                  "force of tests/support/open_plan_reference.py in tests/sim/open/test_open_plan.py"),
    "sim.open.open_rummy_layout": _OPEN_LOOP,
    "sim.open.open_rummy_plays": _OPEN_LOOP,
    "sim.open.open_rummy_settle": _OPEN_LOOP,
    "sim.open.open_rummy_setup": _OPEN_LOOP,
    "sim.strategies.family": ("the families' shared pieces and registry, read through sim.strategies "
                              "(parse_strategy, FAMILIES) by every strategy test, e.g. tests/sim/strategies/test_eaai.py"),
    "sim.strategies.knock_belief": ("the search player's belief (sim.variants.gin_search): tests/sim/search/"
                                    "test_belief_calibrated.py, tests/sim/variants/test_gin_search.py"),
    "sim.variants.basic_rummy": ("a game declaration, loaded by name (sim.variants.get_variant): played by "
                                 "tests/sim/variants/test_basic_rummy.py"),
    "sim.variants.block_rummy": ("a game declaration, loaded by name (sim.variants.get_variant): played by "
                                 "tests/sim/variants/test_basic_rummy.py"),
    "sim.variants.wrotham": ("a game declaration, loaded by name (sim.variants.get_variant): played by "
                             "tests/sim/variants/test_wrotham.py"),
    "sim.variants.knock_games": ("what the closed knock games' declarations share (Gin, Knock Rummy, Tonk), "
                                 "read through their VARIANT by tests/crosscut/test_contract.py"),
    "sim.variants.open_games": ("what the open games' declarations share, read through their VARIANT by "
                                "tests/crosscut/test_contract.py"),
    "sim.variants.wild_games": ("what the wild-card games' declarations share, read through their VARIANT by "
                                "tests/crosscut/test_contract.py"),
    "sim.variants.tonk_rules": "Tonk's rules and payouts (sim.variants.tonk): tests/sim/variants/test_tonk.py",
    "sim.wild.wild_arrange": ("the arrangement kernels behind sim.wild.wild_melds, checked against tests/support/"
                              "wild_reference.py by tests/sim/wild/test_wild_melds.py"),
    "sim.wild.wild_discards": ("every discard at once, behind sim.wild.wild_melds.best_discard: tests/sim/wild/"
                               "test_wild_melds.py, tests/sim/wild/test_closed_wild.py"),
    "sim.wild.wild_shown": ("the arrangements shown at the end of a wild hand (trace rows), settled by the "
                            "referee in tests/crosscut/test_referee_shown.py"),
}

# the list's length when it was written: lower it as modules leave the list, never raise it (a module
# renamed or split may swap its entry for its new name's)
CEILING = 47


def _test_files() -> list:
    return sorted(p for p in (ROOT / "tests").rglob("test_*.py")
                  if circles.module_name(p, ROOT) != THIS)


def imported_by_tests() -> dict[str, list[str]]:
    """module of sim/ or analysis/ -> the test files that name it in an import (packages: also
    through any of their modules)."""
    found: dict[str, list[str]] = {}
    for path in _test_files():
        rel = str(path.relative_to(ROOT))
        names = circles.imported_names(path.read_text(), circles.module_name(path, ROOT), is_package=False,
                                       submodules=frozenset(MODULES))
        for name in names:
            parts = name.split(".")
            for cut in range(1, len(parts) + 1):      # the module and every package above it
                m = ".".join(parts[:cut])
                if m in MODULES and rel not in found.setdefault(m, []):
                    found[m].append(rel)
    return found


IMPORTED = imported_by_tests()


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_imports(module):
    importlib.import_module(module)


def test_every_module_is_imported_by_a_test_file():
    missing = sorted(set(MODULES) - set(IMPORTED) - set(NOT_IMPORTED))
    assert not missing, ("imported by no test file: " + ", ".join(missing)
                         + " (import it in the test file that checks it, in the folder mirroring its own)")


def test_the_exception_list_only_shrinks():
    assert len(NOT_IMPORTED) <= CEILING, f"NOT_IMPORTED grew past {CEILING}: import the new module in its test file"
    gone = sorted(m for m in NOT_IMPORTED if m not in MODULES)
    assert not gone, f"no longer a module, drop from NOT_IMPORTED: {gone}"
    now = {m: IMPORTED[m] for m in NOT_IMPORTED if m in IMPORTED}
    assert not now, f"imported by a test file now, drop from NOT_IMPORTED: {now}"


def test_the_exceptions_name_test_files_that_exist():
    for module, reason in NOT_IMPORTED.items():
        for path in re.findall(r"tests/[\w/]+\.py", reason):
            assert (ROOT / path).exists(), f"NOT_IMPORTED[{module!r}] names {path}, which does not exist"


def test_the_scan_counts_submodules_lazy_imports_and_packages():
    names = circles.imported_names("def f():\n    from sim.variants import gin\nimport analysis.stats\n",
                                   "tests.x.test_y", is_package=False, submodules=frozenset(MODULES))
    assert {"sim.variants.gin", "analysis.stats"} <= names
    assert "tests/sim/variants/test_gin.py" in IMPORTED["sim.variants.gin"]
    assert "sim" in IMPORTED and "sim.variants" in IMPORTED and "analysis" in IMPORTED
    assert len(MODULES) > 100
