"""Bad input to every command: one line ``rummylab: error: ...`` naming the problem, exit
code 2, no traceback, and nothing written (DESIGN.md, "Reliability")."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.cli import main
from tests.support.cli_table import cli_cases
from tests.support import ROOT


HAND = "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C"
TONK = ["knock", "--variant", "tonk", "--hand", "AS 2S 3S 4S 5S", "--turn", "2"]

# (arguments, words the error line must contain); {tmp} holds the folder `empty` and the file `file`
CASES = cli_cases("""
    serve --port 0 => --port must be >= 1
    serve --port 70000 => --port must be at most 65,535
    serve --workers 0 => --workers must be >= 1
    simulate --variant knock-rummy --players 6 => players=6 is out of range
    simulate --variant knock-rummy --players 1 => players=1 is out of range
    simulate --variant knock-rummy --rule knocker_penalty=-1 => knocker_penalty=-1 is out of range
    simulate --variant knock-rummy --rule settle=both => settle
    knock-sweep --variant knock-rummy --thresholds 0..120 => knock thresholds run from 0 to 100
    knock-rules --variant knock-rummy --vary stock_out=never => stock_out
    knock-rules --vary nope=1 => gin has no rule 'nope'
    knock-rules => give at least one --vary
    knock-rules --vary undercut_bonus => write RULE=v1,v2
    knock-rules --vary undercut_bonus=-4 => undercut_bonus=-4 is out of range
    knock-rules --vary undercut_bonus=5 --rule undercut_bonus=6 => both fixed with --rule and varied
    simulate --variant nope => unknown variant 'nope'
    simulate --players 3 => exactly 2 players, not 3
    simulate --players 0 => --players must be >= 1
    simulate --variant tonk --players 7 => players=7 is out of range
    simulate --variant tonk --players 1 => players=1 is out of range
    simulate --hands 0 => --hands must be >= 1
    simulate --hands -5 => --hands must be >= 1
    simulate --hands 10000000000000 => --hands must be at most 1,000,000,000,000
    simulate --hands many => --hands takes a whole number
    simulate --jobs abc => --jobs takes a whole number
    simulate --jobs 0 => --jobs must be >= 1, or -1
    simulate --seed -1 => --seed must be >= 0
    simulate --strategies bogus => unknown strategy 'bogus'
    simulate --strategies 'threshold(knock=x)' => bad value 'x' for knock
    simulate --strategies 'threshold(knock=6' => unbalanced '('
    simulate --strategies 'threshold(knock=101)' => knock=101 is out of range
    simulate --strategies 'threshold(nosuch=1)' => no parameter 'nosuch'
    simulate --strategies simple,simple,simple => 3 strategies given for 2 seats
    simulate --rule knock_limit=abc => knock_limit takes a number
    simulate --rule knock_limit=-1 => knock_limit=-1 is out of range
    simulate --rule oklahoma=maybe => oklahoma takes on/off
    simulate --rule nosuch=1 => unknown rule 'nosuch'
    simulate --rule knock_limit => write name=value
    simulate --rule oklahoma=on --rule knock_limit=7 => drop knock_limit or oklahoma
    simulate --rule knock_limit=5 --rule knock_limit=6 => knock_limit is given 2 times
    simulate --variant tonk --rule knock_limit=5 => unknown rule 'knock_limit'
    simulate --variant tonk --game => no whole-game mode
    simulate --backend nope => invalid choice: 'nope'
    simulate --scheduler tcp://127.0.0.1:1 => add --backend dask
    simulate --out '{tmp}/file' => is a file, not a folder
    simulate --out '{tmp}' => not empty and holds no rummylab run
    knock-sweep --variant nope => unknown variant 'nope'
    knock-sweep --variant tonk --players 7 => players=7 is out of range
    knock-sweep --thresholds abc => expected a range like 0..10
    knock-sweep --thresholds 5..1 => empty range '5..1'
    knock-sweep --thresholds 0..10:0 => expected a range like 0..10
    knock-sweep --thresholds 3 => at least two thresholds
    knock-sweep --thresholds 4,2 => increasing and distinct
    knock-sweep --thresholds 0..500 => gin knock thresholds run from 0 to 10 (rule knock_limit=10)
    knock-sweep --thresholds=-3..2 => outside: -3, -2, -1
    knock-sweep --variant tonk --thresholds 0..60 => tonk knock thresholds run from 0 to 50
    knock-sweep --buckets 9,5 --by-turn => mid must start after turn 1 and before late
    knock-sweep --buckets 5 => expected two turns like 5,9
    knock-sweep --bucket-by stock --buckets 5,9 => mid starts at a larger stock
    knock-sweep --variant tonk --bucket-by stock => tonk sweeps buckets by turn, not stock
    knock-sweep --hands 10000000000000 => --hands must be at most 1,000,000,000,000
    knock-sweep --games -1 => --games must be >= 0
    knock-sweep --variant tonk --games 5 => tonk has no whole-game mode: drop --games
    knock-sweep --strategy bogus => unknown strategy 'bogus'
    knock-sweep --opponent bogus => unknown strategy 'bogus'
    knock-sweep --rule oklahoma=maybe => oklahoma takes on/off
    knock-sweep --out '{tmp}/file' => is a file, not a folder
    knock --hand 'AS AS 2S' --turn 3 => AS appears 2 times
    knock --hand 'AS 1S 2S' --turn 3 => bad card '1S'
    knock --hand 'AS 2S 3S' --turn 3 => a gin hand has 10 cards
    knock --hand 'AS 2S 3S 7H 7D 7C 9S 9D 9H 8C KC QC' --turn 3 => got 12
    knock --variant tonk --hand 'AS 2S 3S 4S 5S 6S' --turn 2 => 1 to 5 cards
    knock --hand $HAND => required: --turn
    knock --hand $HAND --turn 0 => --turn must be >= 1
    knock --hand $HAND --turn 3 --variant nope => unknown variant 'nope'
    knock --hand $HAND --turn 3 --upcard AS => AS is both in your hand and the upcard
    knock --hand $HAND --turn 3 --upcard ZZ => bad card 'ZZ'
    knock --hand $HAND --turn 3 --players 3 => exactly 2 players, not 3
    knock --hand $HAND --turn 3 --budget -1 => --budget must be > 0
    knock --hand $HAND --turn 3 --rule knock_limit=-1 => knock_limit=-1 is out of range
    knock --hand $HAND --turn 3 --stock 99 => stock 99 is impossible
    knock --hand 'AS 2S 3S 7H 7D 7C 9S 9D KH 4C' --turn 6 --upcard 5C => deadwood is 32
    $TONK --players 7 => 2 to 6 players, not 7
    $TONK --opp-model played => needs --history
    $TONK --spread '9:7S 7H 7D' => seat 9 is not at this table
    $TONK --spread '7S 8H 9D' => not a legal book
    tonk-odds --players 8 => 2-6 players, not 8
    tonk-odds --players abc => expected a range
    tonk-odds --tonk-min 51 => tonk_min must be in 45..50
    tonk-odds --simulate -1 => --simulate must be >= 0
    tonk-odds --simulate 10000000000000 => --simulate must be at most 1,000,000,000,000
    tonk-odds --jobs abc => --jobs takes a whole number
    tonk-odds --out '{tmp}/file' => is a file, not a folder
    report '{tmp}/missing' => no such run folder
    report '{tmp}/empty' => not a rummylab results folder
    report '{tmp}/file' => no such run folder
    report '{tmp}/empty' --jobs abc => --jobs takes a whole number
    report '{tmp}/empty' --jobs 0 => --jobs must be >= 1, or -1
    demo --scale 0 => --scale takes a number from
    demo --scale -1 => --scale takes a number
    demo --scale nan => --scale takes a number
    demo --scale 1e7 => --scale takes a number
    demo --jobs abc => --jobs takes a whole number
    demo --seed -2 => --seed must be >= 0
    demo --out '{tmp}/file' => is a file, not a folder
    strategies --variant nope => unknown variant 'nope'
    variants --bogus => unrecognized arguments: --bogus
    bench --markdown '{tmp}/missing/bench.md' => its folder does not exist
    bench --bogus => unrecognized arguments: --bogus
    nope => invalid choice: 'nope'
    simulate --variant wildcard --players 8 => players=8 is out of range
    simulate --variant wildcard --rule packs=3 => packs=3 is out of range
    simulate --variant wildcard --players 7 --rule packs=1 => 7 players play with two packs
    simulate --variant cincinnati --players 3 --rule packs=2 => 3 players play with one pack
    simulate --variant cincinnati --players 3 --rule deal_3p=8 => dealt 7 or 10 cards
    simulate --variant wildcard --game => no whole-game mode
    simulate --variant ramino-klop --players 7 => players=7 is out of range
    simulate --variant ramino-klop --strategies 'simple(knock=7)' => knock=7 can never knock
    simulate --variant ramino-klop --rule set_duplicates=maybe => set_duplicates takes on/off
    knock-sweep --variant ramino-klop --thresholds 0..7 => ramino-klop knock thresholds run from 0 to 6 (rule knock_below=7)
    simulate --variant basic-rummy --rule nosuch=1 => unknown rule 'nosuch'
    simulate --variant basic-rummy --rule max_restocks=-1 => max_restocks=-1 is out of range
    simulate --variant block-rummy --rule restock=sometimes => restock takes one of
    simulate --variant basic-rummy --rule round_the_corner=on => needs ace_high_or_low
    simulate --variant basic-rummy --players 7 => players=7 is out of range
    simulate --variant wrotham --rule deal=7 => deal=7 is out of range
    meld --variant basic-rummy --hand '2S 9D' --table 'QS KS AS' => the meld 'QS KS AS' is not legal under this game's rules
    meld --variant loba --hand '2S 9D' --table '7S 7H 7D 7C' => the meld '7S 7H 7D 7C' is not legal
    meld --variant loba --hand '2S 9D' --table '5S X X X 8S' => is not legal
    meld --variant basic-rummy --hand '2S ZZ' => bad card 'ZZ'
    meld --variant basic-rummy --hand 'AS 9D' --table 'AS 2S 3S' => AS appears 2 times
    meld --variant wrotham --hand 'X X X 9D' --table '5H X 7H' => 4 jokers given but this pack has 3
    meld --variant gin --hand AS => rummylab meld plans
    meld --variant basic-rummy --hand AS --rule nosuch=1 => unknown rule 'nosuch'
    buyback --variant gin --games 20 => gin has no buy-backs
    buyback --thresholds 50,25 --games 20 => thresholds must rise
    buyback --thresholds x --games 20 => --thresholds takes whole numbers
    buyback --players 6 --games 20 => players=6 is out of range [2, 5]
    tune --variant knock-rummy --family tonk => family tonk does not play knock-rummy
    tune --variant knock-rummy --field '' => --field is empty
    tune --variant knock-rummy --field simple,bogus => --field member 'bogus'
    tune --variant knock-rummy --budget 150 --min-hands 100 => cannot evaluate one candidate
    tune --variant knock-rummy --players 9 => players=9 is out of range
    meld --variant wrotham --hand 'AS 2S 3S 4S 5S 6S 7S 8S 9S TS' => holds at most 8 cards
    meld --variant basic-rummy --players 2 --hand 'AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS' => holds at most 11 cards
    meld --variant loba --hand '5S 6S 7S 8D 2C' --taken 8D => 8D cannot go into a new meld
    meld --variant basic-rummy --hand '5S 6S' --taken 8D => --taken 8D is not in --hand
    meld --variant basic-rummy --hand '5S 6S' --goal min:0 => use shed, out or min:K
    simulate --variant loba --players 6 => players=6 is out of range
    simulate --variant loba --rule buybacks=-1 => buybacks=-1 is out of range
    simulate --variant loba --strategies 'simple(buyback=-2)' => buyback=-2 is out of range
    simulate --variant ramino-drift --players 8 => players=8 is out of range
    simulate --variant ramino-drift --rule joker_swap=sometimes => joker_swap takes one of
    simulate --variant ramino-drift --rule layoff_needs_meld=sets => layoff_needs_meld takes one of
""", HAND=HAND, TONK=TONK)
# where each command writes (into {tmp}/out unless the case says where), and small sizes so
# that a case which wrongly passes fails fast
WRITES = {"simulate": ["--out"], "knock-sweep": ["--out"], "tonk-odds": ["--out"], "demo": ["--out", "--html"],
          "report": ["--html"], "bench": ["--markdown"]}
TARGET = {"--out": "out", "--html": "out/report.html", "--markdown": "out/bench.md"}
SMALL = {"simulate": [["--hands", "50"], ["--jobs", "1"]],
         "knock-sweep": [["--hands", "50"], ["--games", "0"], ["--jobs", "1"]],
         "tonk-odds": [["--simulate", "100"], ["--jobs", "1"]], "demo": [["--scale", "0.0001"], ["--jobs", "1"]],
         "knock": [["--worlds", "100"]], "bench": [["--quick"]]}


def _argv(args: list[str], tmp: Path) -> list[str]:
    argv = [a.replace("{tmp}", str(tmp)) for a in args]
    cmd = argv[0] if argv else None
    given = {a.split("=")[0] for a in argv}
    for flag in WRITES.get(cmd, []):
        if flag not in given:
            argv += [flag, str(tmp / TARGET[flag])]
    for option in SMALL.get(cmd, []):
        if option[0] not in given:
            argv += option
    return argv


def _args(case) -> list[str]:
    return case.values[0] if hasattr(case, "values") else case[0]


def _files(tmp: Path) -> list[Path]:
    return sorted(tmp.rglob("*"))


@pytest.fixture
def tmp(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("not a folder\n")
    return tmp_path


@pytest.mark.parametrize("args,needle", CASES, ids=[" ".join(_args(c)) or "-" for c in CASES])
def test_bad_input_is_one_error_line_exit_2_and_writes_nothing(args, needle, tmp, capsys):
    before = _files(tmp)
    try:
        code = main(_argv(args, tmp))
    except SystemExit as e:   # argparse
        code = e.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith("rummylab: error: ") and needle in err[0]
    assert _files(tmp) == before


def test_every_command_that_takes_input_has_bad_input_cases():
    args = [_args(c) for c in CASES]
    assert len(args) >= 30
    assert {a[0] for a in args if a} >= {"simulate", "knock-sweep", "knock", "tonk-odds", "report", "demo",
                                         "strategies", "variants", "bench"}


def _run(args, tmp, **env):
    return subprocess.run([sys.executable, "-m", "analysis.cli", *_argv(args, tmp)], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, **env}, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("args,needle", cli_cases("""
    simulate --hands 10000000000000 => --hands must be at most 1,000,000,000,000
    knock --hand 'AS AS 2S' --turn 3 => AS appears 2 times
    simulate --hands 30000 --jobs 2 --backend dask --scheduler tcp://127.0.0.1:1 => cannot reach the dask scheduler tcp://127.0.0.1:1
"""))
def test_terminal_gets_one_error_line_and_no_traceback(args, needle, tmp):
    if "dask" in args:
        pytest.importorskip("dask.distributed")
    before = _files(tmp)
    r = _run(args, tmp, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("rummylab: error: ") and needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and r.stdout == ""
    assert _files(tmp) == before


RAMINO = ["knock", "--variant", "ramino-klop", "--players", "4", "--turn", "3", "--hand"]


@pytest.mark.parametrize("args,needle", cli_cases("""
    $RAMINO 'AS AS AS 2S 3S 7H 7D' => AS appears 3 times; a pack of this game holds it 2 times
    $RAMINO 'AS 2S 3S X 7H 7D 5C' --upcard X --discards 'X X X' => X is given 5 times
    knock --variant knock-rummy --players 4 --turn 3 --hand 'AS 2S 3S X 7H 7D 9C' => 1 jokers given but this pack has 0
    $RAMINO 'AS 2S 3S X 7H 7D 9C' => a Ramino knock needs deadwood below 7
    $RAMINO 'AS 2S 3S X 7H 7D' => a ramino-klop hand holds 7 cards (or 8 before discarding), got 6
    $RAMINO 'AS 2S 3S X 7H 7D 5C' --stock 90 => stock 90 is impossible
""", RAMINO=RAMINO))
def test_ramino_knock_bad_input_is_one_error_line(args, needle, tmp, capsys):
    test_bad_input_is_one_error_line_exit_2_and_writes_nothing(args, needle, tmp, capsys)


# ---------------------------------------------------------------------------- rummylab compare
WRITES["compare"] = ["--out"]
SMALL["compare"] = [["--hands", "50"], ["--jobs", "1"]]
COMPARE_CASES = cli_cases("""
    compare --variant wildcard --players 8 --strategies keep-wilds,discard-wilds-late => players=8 is out of range
    compare --variant wildcard --players 4 --rule packs=3,1 --strategies keep-wilds,discard-wilds-late => packs=3 is out of range
    compare --variant gin => required: --strategies
    compare --strategies simple,tracker --players 2..x => expected a range
    compare --variant nosuch --strategies a,b => unknown variant 'nosuch'
    compare --strategies simple,tracker --hands 1 => --hands must be >= 2
    compare --strategies simple,tracker --out '{tmp}/file' => is a file, not a folder
    compare --variant ramino-klop --strategies 'simple,wild(knock=5)' --rule knock_below=7,3 => can never knock
""")


@pytest.mark.parametrize("args,needle", COMPARE_CASES, ids=[" ".join(c[0]) for c in COMPARE_CASES])
def test_compare_bad_input_is_one_error_line_exit_2_and_writes_nothing(args, needle, tmp, capsys):
    test_bad_input_is_one_error_line_exit_2_and_writes_nothing(args, needle, tmp, capsys)


# ---------------------------------------------------------------------------- issue 18, part 4
# every value checked when the command line is read: ranges sized before they are made, every
# whole number within int64, rule values finite, every output path writable, empty values
# refused; {run} is a complete stored run, {ro} a folder without write permission
BIG = "99999999999999999999"
WRITES.update({"balance": ["--out"], "buyback": ["--out"]})
SMALL.update({"balance": [["--variant", "gin"], ["--hands", "100"], ["--games", "0"], ["--no-sensitivity"],
                          ["--jobs", "1"]],
              "buyback": [["--games", "10"]]})
CMP = ["compare", "--strategies", "simple,tracker"]
SEED = "--seed must be at most 9,223,372,036,854,775,807"
READ_ONLY = "is not writable"
VALUES = "values; give at most 10,000"
CHECKED_CASES = cli_cases("""
    # the ten tracebacks
    knock-sweep --thresholds 0..1000000000000 => holds 1,000,000,000,001 values; give at most 10,000
    knock-sweep --thresholds 0..300000000 => holds 300,000,001 values; give at most 10,000
    $CMP --players 0..1000000000000 => $VALUES
    tonk-odds --players 2..1000000000000 => $VALUES
    tonk-odds --seed $BIG => $SEED
    knock --hand $HAND --turn 3 --seed $BIG => $SEED
    simulate --rule knock_limit=nan => rule knock_limit takes a finite number, got 'nan'
    report '{run}' --html '{tmp}/file/x.html' => {tmp}/file is a file, not a folder
    report '{run}' --html '{ro}/x.html' => $READ_ONLY
    report '{run}' --html '{tmp}/empty' => is a folder; give a file name
    # checked too late
    buyback --out '{ro}/x' => $READ_ONLY
    demo --html '{tmp}/file/x.html' => is a file, not a folder
    balance --seed $BIG => $SEED
    # wrong silence
    simulate --out '' => --out takes a folder name, got ''
    meld --players 0 --hand 'AS 2S 3S' => --players must be >= 1, got 0
    strategies --variant '' => unknown variant ''
    # simulate
    simulate --seed 9223372036854775808 => $SEED
    simulate --hands nan => --hands takes a whole number
    simulate --rule knock_limit=inf => takes a finite number
    simulate --rule knock_limit=-inf => takes a finite number
    simulate --rule undercut_bonus=1e400 => takes a finite number
    simulate --jobs $BIG => --jobs must be at most 4,096
    simulate --strategies 'simple(knock=nan)' => knock=nan is out of range
    simulate --out '{ro}/x' => $READ_ONLY
    simulate --players $BIG => --players must be at most
    # knock-sweep
    knock-sweep --seed $BIG => $SEED
    knock-sweep --thresholds 0..99999999999999999999 => $VALUES
    knock-sweep --thresholds 0..10:0 => a step >= 1
    knock-sweep --thresholds 0..10:-2 => a step >= 1
    knock-sweep --thresholds 0,99999999999999999999 => values must be at most
    knock-sweep --out '' => --out takes a folder name
    knock-sweep --out '{ro}/x' => $READ_ONLY
    knock-sweep --rule knock_limit=nan => takes a finite number
    knock-sweep --games $BIG => --games must be at most
    # knock-rules
    knock-rules --vary undercut_bonus=nan => takes a finite number
    knock-rules --vary undercut_bonus=10 --seed $BIG => $SEED
    knock-rules --vary undercut_bonus=10 --thresholds 0..1000000000000 => $VALUES
    knock-rules --vary undercut_bonus=10 --out '' => --out takes a folder name
    # compare
    $CMP --players 2..99999999999999999999 => $VALUES
    $CMP --seed $BIG => $SEED
    $CMP --rule knock_limit=nan => takes a finite number
    $CMP --out '' => --out takes a folder name
    $CMP --hands $BIG => --hands must be at most
    # tonk-odds
    tonk-odds --tonk-min 0..1000000000000 => $VALUES
    tonk-odds --out '' => --out takes a folder name
    tonk-odds --out '{ro}/x' => $READ_ONLY
    tonk-odds --simulate $BIG => --simulate must be at most
    # demo
    demo --seed $BIG => $SEED
    demo --html '' => --html takes a file name, got ''
    demo --html '{tmp}/empty' => is a folder; give a file name
    demo --html '{ro}/x.html' => $READ_ONLY
    demo --out '' => --out takes a folder name
    demo --out '{ro}/x' => $READ_ONLY
    demo --jobs $BIG => --jobs must be at most
    # knock
    knock --hand $HAND --turn 3 --stock $BIG => --stock must be at most
    knock --hand $HAND --turn 3 --worlds $BIG => --worlds must be at most
    knock --hand $HAND --turn $BIG => --turn must be at most
    knock --hand $HAND --turn 3 --upcard '' => --upcard takes a card like 7H, got ''
    knock --hand $HAND --turn 3 --rule knock_limit=nan => takes a finite number
    knock --hand $HAND --turn 3 --budget nan => --budget must be > 0
    # balance
    balance --players 2..1000000000000 => $VALUES
    balance --hands $BIG => --hands must be at most
    balance --out '' => --out takes a folder name
    balance --out '{ro}/x' => $READ_ONLY
    balance --rule knock_limit=nan => takes a finite number
    balance --players 2..4:2 => --players takes N, A..B or A,B
    # meld
    meld --players -1 --hand 'AS 2S 3S' => --players must be >= 1
    meld --players $BIG --hand 'AS 2S 3S' => --players must be at most
    meld --hand 'AS 2S 3S' --taken '' => --taken takes a card
    meld --hand 'AS 2S 3S' --keep '' => --keep takes a card
    meld --variant wrotham --hand 'AS 2S 3S' --rule deal=nan => takes a finite number
    # buyback
    buyback --players 0 => --players must be >= 1
    buyback --seed $BIG => $SEED
    buyback --games $BIG => --games must be at most
    buyback --out '' => --out takes a folder name
    buyback --out '{tmp}/file/x' => is a file, not a folder
    buyback --rule buybacks=nan => takes a finite number
    # report
    report '{run}' --html '' => --html takes a file name
    report '{run}' --html '{ro}/deep/x.html' => $READ_ONLY
    report '' => a results folder name is empty
    # strategies, variants, bench, no command
    strategies --variant ' ' => unknown variant
    variants extra => unrecognized arguments: extra
    bench --markdown '' => --markdown takes a file name
    bench --markdown '{tmp}/empty' => is a folder; give a file name
    bench --markdown '{tmp}/file/x.md' => is a file, not a folder
    bench --markdown '{ro}/x.md' => $READ_ONLY
    --bogus => required: command
""", HAND=HAND, CMP=CMP, BIG=BIG, SEED=SEED, VALUES=VALUES, READ_ONLY=READ_ONLY)


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("stored") / "run"
    assert main(["simulate", "--hands", "50", "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    return out


@pytest.fixture
def read_only(tmp, monkeypatch):
    """{tmp}/ro without write permission; as root (who may write anyway) os.access honours the bits."""
    ro = tmp / "ro"
    ro.mkdir(mode=0o555)
    real = os.access

    def access(path, mode, **kw):
        return real(path, mode, **kw) and not (mode & os.W_OK and not os.stat(path).st_mode & 0o200)
    monkeypatch.setattr(os, "access", access)
    yield ro
    ro.chmod(0o755)


@pytest.mark.parametrize("args,needle", CHECKED_CASES, ids=[" ".join(c[0]) or "-" for c in CHECKED_CASES])
def test_every_value_and_output_path_is_checked_before_any_work(args, needle, tmp, read_only, stored_run, capsys):
    fill = {"{run}": str(stored_run), "{ro}": str(read_only)}
    args = [fill.get(a, a) for a in args]
    args = [a.replace("{ro}", str(read_only)) for a in args]
    needle = needle.replace("{tmp}", str(tmp))
    capsys.readouterr()
    test_bad_input_is_one_error_line_exit_2_and_writes_nothing(args, needle, tmp, capsys)


def test_the_bad_inputs_cover_every_subcommand():
    from analysis.cli import build_parser
    sub = next(a for a in build_parser()._actions if isinstance(a, __import__("argparse")._SubParsersAction))
    cases = [c[0] for c in CASES + COMPARE_CASES + CHECKED_CASES]
    assert {a[0] for a in cases if a} >= set(sub.choices) - {"trace"}
    assert len(CHECKED_CASES) >= 60


def test_version_prints_the_package_version(capsys):
    from analysis.args import rummylab_version
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.strip() == f"rummylab {rummylab_version()}"
    assert rummylab_version() != "unknown"   # the venv has rummylab installed


@pytest.mark.slow
@pytest.mark.parametrize("args,needle", cli_cases("""
    knock-sweep --thresholds 0..1000000000000 => $VALUES
    balance --seed $BIG => $SEED
    simulate --rule knock_limit=nan => takes a finite number
    report '{tmp}/empty' --html '{tmp}/empty' => is a folder; give a file name
""", BIG=BIG, SEED=SEED, VALUES=VALUES))
def test_bad_input_in_a_real_process_is_one_line_exit_2_no_traceback(args, needle, tmp):
    test_terminal_gets_one_error_line_and_no_traceback(args, needle, tmp)
    assert not [p for p in tmp.rglob(".tmp-*")]


PARSE_TIME = (READ_ONLY, SEED, VALUES, "is a file, not a folder", "is a folder; give a file name",
              "takes a folder name", "takes a file name", "must be at most")
EARLY_CASES = [c for c in CHECKED_CASES if any(s in c[1] for s in PARSE_TIME)]


@pytest.mark.parametrize("args,needle", EARLY_CASES, ids=[" ".join(c[0]) for c in EARLY_CASES])
def test_output_paths_seeds_and_ranges_are_refused_while_the_command_line_is_read(args, needle, tmp, read_only,
                                                                                  stored_run, capsys):
    """Refused by argparse itself (SystemExit 2), so no command starts any work before it."""
    fill = {"{run}": str(stored_run)}
    argv = [fill.get(a, a).replace("{ro}", str(read_only)) for a in _argv(args, tmp)]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and needle.replace("{tmp}", str(tmp)) in capsys.readouterr().err


def test_demo_refuses_a_folder_holding_something_else_before_any_work(tmp, capsys):
    (tmp / "notes").mkdir()
    (tmp / "notes" / "todo.txt").write_text("not a demo\n")
    before = _files(tmp)
    assert main(["demo", "--scale", "0.0005", "--jobs", "1", "--no-progress", "--out", str(tmp / "notes"),
                 "--html", str(tmp / "r.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not empty and holds no demo run" in err[0]
    assert _files(tmp) == before
