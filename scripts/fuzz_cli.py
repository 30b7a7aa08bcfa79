"""Feed every subcommand hundreds of bad command lines, in one process, and count what happens.

    PYTHONPATH=. python scripts/fuzz_cli.py            # prints the tally and every case that is not
                                                      # "one error line, exit 2"

Each case is a small valid command line with one argument replaced by a bad value (an unknown
name, a number out of range, beyond int64, not finite, a range of a trillion values, an output
path under a file, in a read-only folder, an existing folder where a file goes, ...).  A case
is "ok" when the command ends with exit code 2 and exactly one line ``rummylab: error: ...`` on
stderr, nothing on stdout; "traceback" when an exception escapes ``main``; "late" when it is
still working after ``--limit`` seconds (the bad value was not checked before the work);
"silent" when it exits 0.  As root a folder without write permission is still writable, so
``os.access`` is made to honour the permission bits (as for any other user).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import signal
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

HAND = "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C"
BIG = "99999999999999999999"
BAD_INT = ["", "abc", "1.5", "nan", "inf", "1e3", "0x10", BIG, "-" + BIG]
BAD_COUNT = ["0", "-5", *BAD_INT]
BAD_SEED = ["-1", "9223372036854775808", *BAD_INT]
BAD_RANGE = ["", "..", "a..b", "5..1", "0..10:0", "0..10:-1", "0..1000000000000", "2..1000000000000",
             "0..300000000", "1,,2", ",", "nan", "-5..-1", f"0..{BIG}", f"2,{BIG}"]
BAD_PLAYERS = ["0", "-1", "1", "99", *BAD_INT]
BAD_RULES = ["knock_limit=nan", "knock_limit=inf", "knock_limit=-inf", "knock_limit=1e400", "knock_limit=",
             "=5", "knock_limit", "nosuch=1", f"knock_limit={BIG}", "undercut_bonus=nan", "oklahoma=", ""]
BAD_STRATS = ["", ",", "simple(knock=nan)", "simple(knock=inf)", "threshold(", "simple,,simple", "nope",
              f"simple(knock={BIG})", "simple,simple,simple"]
BAD_VARIANT = ["", "nope", " "]
BAD_JOBS = ["0", "-2", "abc", "", BIG]


def out_dirs(t: Path) -> list[str]:
    return ["", str(t / "file"), str(t / "file" / "x"), str(t / "readonly" / "x"), str(t / "foreign")]


def out_files(t: Path, ext: str) -> list[str]:
    return ["", str(t / "file" / f"x.{ext}"), str(t / "readonly" / f"x.{ext}"), str(t / "empty"),
            str(t / "readonly" / "deep" / f"x.{ext}")]


def commands(t: Path, run: Path) -> dict[str, tuple[list[str], dict[str, list[str]]]]:
    """subcommand: (a small valid command line, {option: bad values})."""
    quick = ["--jobs", "1", "--no-progress"]
    common = {"--variant": BAD_VARIANT, "--players": BAD_PLAYERS, "--rule": BAD_RULES, "--seed": BAD_SEED,
              "--jobs": BAD_JOBS, "--out": out_dirs(t)}
    return {
        "simulate": (["simulate", "--hands", "20", *quick],
                     {**common, "--hands": BAD_COUNT, "--strategies": BAD_STRATS, "--backend": ["", "nope"]}),
        "knock-sweep": (["knock-sweep", "--hands", "20", "--games", "0", "--thresholds", "0..2", *quick],
                        {**common, "--thresholds": BAD_RANGE, "--buckets": ["", "5", "9,5", "a,b", f"5,{BIG}"],
                         "--games": ["-1", *BAD_INT], "--strategy": BAD_STRATS[2:], "--opponent": BAD_STRATS[2:]}),
        "knock-rules": (["knock-rules", "--vary", "undercut_bonus=10", "--hands", "20", "--thresholds", "0..2", *quick],
                        {**common, "--vary": ["", "undercut_bonus", "undercut_bonus=nan", "nope=1", f"undercut_bonus={BIG}"],
                         "--thresholds": BAD_RANGE}),
        "compare": (["compare", "--strategies", "simple,tracker", "--hands", "20", *quick],
                    {**common, "--players": BAD_RANGE + ["0", "1"], "--strategies": BAD_STRATS,
                     "--hands": ["1", *BAD_COUNT]}),
        "tonk-odds": (["tonk-odds", "--simulate", "100", *quick],
                      {"--players": BAD_RANGE + ["0", "1", "7"], "--tonk-min": BAD_RANGE + ["51"],
                       "--simulate": ["-1", *BAD_INT], "--seed": BAD_SEED, "--jobs": BAD_JOBS, "--out": out_dirs(t)}),
        "demo": (["demo", "--scale", "0.0005", "--out", str(t / "demo"), "--html", str(t / "demo.html"), *quick],
                 {"--scale": ["0", "-1", "nan", "inf", "1e7", "", "abc"], "--seed": BAD_SEED, "--jobs": BAD_JOBS,
                  "--out": out_dirs(t), "--html": out_files(t, "html")}),
        "knock": (["knock", "--hand", HAND, "--turn", "3", "--worlds", "100"],
                  {"--turn": ["0", *BAD_INT], "--seed": BAD_SEED, "--budget": ["0", "-1", "nan", "inf", "", "abc"],
                   "--players": BAD_PLAYERS, "--stock": ["-1", "99", *BAD_INT], "--worlds": ["0", *BAD_INT],
                   "--upcard": ["ZZ", "AS", ""], "--rule": BAD_RULES, "--hand": ["", "AS", "ZZ " * 10],
                   "--variant": BAD_VARIANT}),
        "balance": (["balance", "--variant", "gin", "--hands", "100", "--games", "0", "--no-sensitivity",
                     "--out", str(t / "bal"), *quick],
                    {"--players": BAD_RANGE + ["0"], "--seed": BAD_SEED, "--hands": ["0", "99", *BAD_INT],
                     "--variant": BAD_VARIANT, "--rule": BAD_RULES, "--out": out_dirs(t), "--jobs": BAD_JOBS}),
        "meld": (["meld", "--variant", "basic-rummy", "--hand", "AS 2S 3S 9D"],
                 {"--players": BAD_PLAYERS, "--hand": ["", "ZZ", "AS AS AS"], "--table": ["ZZ", "AS 2S"],
                  "--goal": ["", "min:0", "min:x", "nope"], "--taken": ["ZZ", "KD"], "--keep": ["ZZ", "KD"],
                  "--rule": BAD_RULES, "--variant": BAD_VARIANT + ["gin"]}),
        "buyback": (["buyback", "--games", "10", "--out", str(t / "bb")],
                    {"--players": BAD_PLAYERS, "--games": ["0", "9", *BAD_INT], "--thresholds": ["", "x", "50,25", "0"],
                     "--seed": BAD_SEED, "--out": out_dirs(t), "--rule": BAD_RULES, "--strategies": BAD_STRATS,
                     "--variant": BAD_VARIANT + ["gin"]}),
        "report": (["report", str(run), "--html", str(t / "r.html")],
                   {"--html": out_files(t, "html"), "RUN": [str(t / "missing"), str(t / "file"), str(t / "empty"), ""]}),
        "trace": (["trace", "--variant", "gin", "--seed", "1", "--hand", "3"],
                  {"--variant": BAD_VARIANT, "--players": BAD_PLAYERS, "--rule": BAD_RULES, "--seed": BAD_SEED,
                   "--strategies": BAD_STRATS, "--hand": ["-1", *BAD_INT],
                   "--hands": ["", "5..1", "a..b", "0..1000000000000", f"0..{BIG}", "1,2"]}),
        "strategies": (["strategies"], {"--variant": BAD_VARIANT, "--bogus": ["1"]}),
        "variants": (["variants"], {"--bogus": ["1"], "extra": ["x"]}),
        "bench": (["bench", "--quick"], {"--markdown": out_files(t, "md"), "--bogus": ["1"]}),
    }


def check_bases(t: Path, run: Path) -> None:
    """Every small valid command line must read as valid, or its cases would test nothing."""
    from analysis.cli import build_parser
    for name, (base, _) in commands(t, run).items():
        with contextlib.redirect_stderr(io.StringIO()) as err:
            try:
                build_parser().parse_args(base)
            except SystemExit:
                raise SystemExit(f"the base command line of {name} is not valid: {err.getvalue().strip()}") from None


def cases(t: Path, run: Path):
    for name, (base, bad) in commands(t, run).items():
        for opt, values in bad.items():
            for v in values:
                if opt == "RUN":
                    yield name, [base[0], v, *base[2:]]
                elif opt == "extra":
                    yield name, [*base, v]
                elif opt in base:
                    i = base.index(opt)
                    yield name, [*base[:i + 1], v, *base[i + 2:]]
                else:
                    yield name, [*base, opt, v]
    for argv in (["nope"], [], ["--bogus"]):
        yield "top", argv


class Late(BaseException):
    """Still working when the time limit rang."""


def _alarm(signum, frame):
    raise Late


def run_case(main, argv, limit: int) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    tb = ""
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:
                code = e.code
    except Late:
        return "late", ""
    except BaseException:   # noqa: BLE001 - what escapes main is what this script counts
        tb = traceback.format_exc().strip().splitlines()[-1]
        return "traceback", tb
    finally:
        signal.alarm(0)
    lines = err.getvalue().strip().splitlines()
    if code == 0:
        return "silent", ""
    if code == 2 and len(lines) == 1 and lines[0].startswith("rummylab: error: ") and not out.getvalue():
        return "ok", lines[0]
    return "other", f"exit {code}; stderr {lines[:3]}; stdout {out.getvalue()[:80]!r}"


def fixture(t: Path) -> Path:
    t.mkdir()
    (t / "empty").mkdir()
    (t / "file").write_text("a file\n")
    (t / "readonly").mkdir()
    (t / "readonly").chmod(0o555)
    (t / "foreign").mkdir()
    (t / "foreign" / "notes.txt").write_text("not a run\n")
    return t / "run"


def honour_permission_bits() -> None:
    real = os.access

    def access(path, mode, **kw):
        ok = real(path, mode, **kw)
        if ok and mode & os.W_OK and os.getuid() == 0:
            try:
                ok = bool(os.stat(path).st_mode & 0o200)
            except OSError:
                return False
        return ok
    os.access = access


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=20, help="seconds before a case counts as 'late' (default 20)")
    ap.add_argument("--only", default=None, help="only this subcommand")
    opts = ap.parse_args()
    from analysis.cli import main as cli_main
    honour_permission_bits()
    root = Path(tempfile.mkdtemp(prefix="rummylab-fuzz-"))
    tally, shown = Counter(), []
    try:
        run = fixture(root / "fixed")
        with contextlib.redirect_stdout(io.StringIO()):
            cli_main(["simulate", "--hands", "50", "--jobs", "1", "--no-progress", "--out", str(run)])
        check_bases(root / "fixed", run)
        for k, (name, argv) in enumerate(cases(root / "fixed", run)):
            if opts.only and name != opts.only:
                continue
            work = root / f"case{k}"
            os.chdir(root)
            kind, detail = run_case(cli_main, argv, opts.limit)
            tally[kind] += 1
            if kind != "ok":
                shown.append(f"{kind:<9} {' '.join(repr(a) if not a or ' ' in a else a for a in argv)}  {detail}")
            shutil.rmtree(work, ignore_errors=True)
            for p in (root / "fixed").iterdir():   # undo what an accepted case wrote
                if p.name not in {"empty", "file", "readonly", "foreign", "run"}:
                    shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink()
    finally:
        if (root / "fixed" / "readonly").exists():
            (root / "fixed" / "readonly").chmod(0o755)
        shutil.rmtree(root, ignore_errors=True)
    print("\n".join(shown))
    print(f"{sum(tally.values())} bad command lines: " + ", ".join(f"{k} {v}" for k, v in tally.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
