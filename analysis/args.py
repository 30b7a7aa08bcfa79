"""Argument converters shared by every subcommand: each value is checked, and bounded, when the
command line is read, before any work starts (one line ``rummylab: error: ...``, exit 2).

* whole numbers (:func:`whole`) are bounded above by the int64 range even where the option sets
  no maximum, so a seed like 99999999999999999999 is refused by every command alike;
* ranges (:func:`int_values`) are sized before anything is allocated;
* output places (:func:`out_folder`, :func:`out_file`) go through :func:`analysis.store.check_output`,
  the one "can I write this?" check of the project.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap

from sim.runner import MAX_UNITS

MAX_INT = 2**63 - 1          # every count and seed ends up in an int64
MAX_VALUES = 10_000          # values in one range argument (thresholds, player counts, ...)


def whole(name: str, lo: int | None = None, hi: int | None = None):
    """A converter for a whole number in [lo, hi] (hi: at most :data:`MAX_INT`)."""
    top = MAX_INT if hi is None else min(hi, MAX_INT)

    def conv(text: str) -> int:
        try:
            v = int(text.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} takes a whole number, got {text!r}") from None
        if lo is not None and v < lo:
            raise argparse.ArgumentTypeError(f"{name} must be >= {lo}, got {v}")
        if v > top:
            raise argparse.ArgumentTypeError(f"{name} must be at most {top:,}, got {v:,}")
        return v
    return conv


def jobs_arg(text: str) -> int:
    """--jobs: worker count, or -1 for all cores."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs takes a whole number (-1 = all cores), got {text!r}") from None
    if v == 0 or v < -1:
        raise argparse.ArgumentTypeError(f"--jobs must be >= 1, or -1 for all cores; got {v}")
    if v > 4096:
        raise argparse.ArgumentTypeError(f"--jobs must be at most 4,096, got {v:,}")
    return v


def resolve_jobs(jobs: int) -> int:
    """The worker count a --jobs value means on this machine (-1: every core)."""
    n = os.cpu_count() or 1
    if jobs in (-1, 0):
        return n
    if jobs < -1:
        return max(1, n + 1 + jobs)
    return jobs


def int_values(text: str) -> tuple[int, ...]:
    """'0..10', '0..20:2' or '2,4,6', at most :data:`MAX_VALUES` values, sized before they are made."""
    try:
        if ".." in text:
            lo, rest = text.split("..", 1)
            hi, _, step = rest.partition(":")
            lo, hi, step = int(lo), int(hi), int(step) if step else 1
            size = max(0, (hi - lo) // step + 1) if step > 0 else None
            values = range(lo, hi + 1, step) if size is not None and size <= MAX_VALUES else None
        else:
            values = [int(x) for x in text.split(",")]
            size = len(values)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a range like 0..10 or a list like 2,4,6; got {text!r}") from None
    if size is None:
        raise argparse.ArgumentTypeError(f"expected a range like 0..10 or 0..20:2 (a step >= 1); got {text!r}")
    if size > MAX_VALUES:
        raise argparse.ArgumentTypeError(f"{text!r} holds {size:,} values; give at most {MAX_VALUES:,}")
    if not values:
        raise argparse.ArgumentTypeError(f"empty range {text!r}")
    ends = values if isinstance(values, list) else (values[0], values[-1])
    if max(abs(v) for v in ends) > MAX_INT:
        raise argparse.ArgumentTypeError(f"{text!r}: values must be at most {MAX_INT:,}")
    return tuple(values)


def card_text(flag: str):
    """A card written as text (checked later against the game): never empty."""
    def conv(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{flag} takes a card like 7H, got {text!r}")
        return text
    return conv


def turn_pair(text: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected two turns like 5,9; got {text!r}") from None
    if max(abs(a), abs(b)) > MAX_INT:
        raise argparse.ArgumentTypeError(f"expected two turns like 5,9; got {text!r}")
    return a, b


def _checked(flag: str, folder: bool):
    def conv(text: str) -> str:
        from .store import StoreError, check_output
        try:
            check_output(text, flag, folder=folder)
        except StoreError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        return text
    return conv


def out_folder(flag: str = "--out"):
    """A folder results can go to (existing, or creatable under a writable folder); nothing is
    created here."""
    return _checked(flag, folder=True)


def out_file(flag: str):
    """A file that can be written (not a folder; its folder existing or creatable, and writable)."""
    return _checked(flag, folder=False)


def rummylab_version() -> str:
    """The installed package's version (``unknown`` when run from a checkout never installed)."""
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("rummylab")
    except (ImportError, PackageNotFoundError):
        return "unknown"


OUT_DIR = out_folder("--out")                      # the usual --out DIR of a stored run or study
MAX_TEXT = f"at most {MAX_UNITS:,}"


# ----------------------------------------------------------------------------------------
# options many subcommands share (simulate, trace, the studies)

def examples(text: str) -> str:
    """A ``--help`` epilog: the command lines in ``text``, indented under "examples:"."""
    return "examples:\n" + textwrap.indent(textwrap.dedent(text).strip(), "  ")


def add_command(subparsers, name: str, *, help: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` shows ``description`` (a triple-quoted paragraph, wrapped by
    hand; its common indentation is removed) and the example command lines ``epilog`` (see
    ``examples``)."""
    return subparsers.add_parser(name, help=help, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 description=textwrap.dedent(description).strip(), epilog=examples(epilog))


def add_game_options(p: argparse.ArgumentParser) -> None:
    """--variant, --players, --rule, --seed: the game and the deals (simulate, trace, ...)."""
    p.add_argument("--variant", default="gin", help="game to play (see `rummylab variants`); default gin")
    p.add_argument("--players", type=whole("--players", 1), default=None,
                   help="number of players (default: the variant's usual count)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="rule option, repeatable (see `rummylab variants`)")
    add_rule_set_option(p)
    p.add_argument("--seed", type=whole("--seed", 0), default=0, help="random seed (default 0)")


def add_rule_set_option(p: argparse.ArgumentParser) -> None:
    """--rule-set NAME: a named bundle of rule options (every command with a --rule list)."""
    p.add_argument("--rule-set", default=None, metavar="NAME",
                   help="a named set of rule options of the game (see `rummylab variants`), e.g. gin's "
                        "eaai or openspiel; a --rule of the same option overrides it")


def apply_rule_set(args: argparse.Namespace) -> None:
    """Expand ``--rule-set`` into ``args.rule`` (the set's options first, a ``--rule`` of the same
    option wins; :meth:`sim.variants.Variant.rules_with_set`), once, before any command runs; an
    unknown name raises the variant's one-line error (exit 2).  ``args.rule_set`` stays, so a
    command can record the name (``make_spec(rule_set=...)`` re-applies it: the same rules)."""
    name = getattr(args, "rule_set", None)
    if name is None:
        return
    from sim.variants import get_variant
    args.rule = get_variant(args.variant).rules_with_set(name, args.rule)


def add_strategies_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategies", default="simple",
                   help="one spec per seat, comma separated, or one for all (see `rummylab strategies`)")


def add_run_options(p: argparse.ArgumentParser, hands_default: int) -> None:
    add_game_options(p)
    p.add_argument("--jobs", type=jobs_arg, default=-1, help="worker processes; -1 = all cores (default)")
    p.add_argument("--hands", type=whole("--hands", 1, MAX_UNITS), default=hands_default,
                   help=f"hands to play (games with --game), {MAX_TEXT}; default {hands_default:,}")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--backend", choices=("threads", "loky", "dask"), default="threads",
                   help="parallel backend for --jobs > 1: threads in one process (default), loky "
                        "processes, or dask (--scheduler ADDRESS, else a local cluster)")
    p.add_argument("--scheduler", default=None, help="dask scheduler address, e.g. tcp://host:8786")




def add_seat_strategies(p: argparse.ArgumentParser) -> None:
    """--strategy and --opponent of the knock studies: seat 0's base strategy (its threshold is varied)
    against one strategy in every other seat."""
    p.add_argument("--strategy", default="simple", help="seat 0's base strategy (its threshold is varied)")
    p.add_argument("--opponent", default="simple", help="strategy of every other seat")


def interrupted(out, head: str = "interrupted: partial results above", rerun: str = "rerun") -> int:
    """Say on stderr that a run stopped early (and how to resume it from ``out``); the exit code 130."""
    print(head + (f"; {rerun} to resume from {out}" if out else ""), file=sys.stderr)
    return 130


def add_csv_option(p: argparse.ArgumentParser, what: str = "the study's tables") -> None:
    """--csv: print ``what`` as CSV (one header row, then one row per line) instead of text."""
    p.add_argument("--csv", action="store_true",
                   help=f"print {what} as CSV, for spreadsheets (instead of the text; not with --json)")


def add_detail_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--detail", action="store_true",
                   help="print every row, also those that carry no information (e.g. chart cells no hand "
                        "played differently in); --json always holds them all")


def output_format(args) -> str:
    """'json', 'csv' or 'text' from --json / --csv (both: refused before any work starts)."""
    js, csv = getattr(args, "json", False), getattr(args, "csv", False)
    if js and csv:
        from sim.core.errors import UserInputError
        raise UserInputError("--json and --csv both choose the output format; give one")
    return "json" if js else "csv" if csv else "text"
