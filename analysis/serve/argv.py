"""A request's fields as the command line's arguments: ``{"hand": "AS 2S", "turn": 6}`` is
``rummylab knock --hand="AS 2S" --turn=6``, read by the CLI's own parser, so a form takes what the
terminal takes, refuses what it refuses with the same sentence, and gives the same numbers."""

from __future__ import annotations

import argparse
import contextlib
import io
import re

COMMANDS = ("knock", "meld", "trace")
_parser = None


class FieldError(Exception):
    """A field the command cannot read: one sentence and the field's name (None: the request)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class _Parser(argparse.ArgumentParser):
    """The commands' own parsers, refusing with the sentence instead of exiting."""

    def error(self, message):
        raise FieldError(*_sentence(message))


def _top():
    """A parser of the three commands a request may run, each added by its own ``add_parser``
    (the functions ``rummylab``'s parser adds them with)."""
    global _parser
    if _parser is None:
        from analysis import trace_cmd
        from analysis.studies import knock_advice_cmd, meld_plan
        _parser = _Parser(prog="rummylab", add_help=False)
        sub = _parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
        for add in (knock_advice_cmd.add_parser, meld_plan.add_parser, trace_cmd.add_parser):
            add(sub)
    return _parser


def _command(name: str):
    sub = next(a for a in _top()._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices[name]


def fields(command: str) -> dict[str, object]:
    """The fields a command takes, by name (``opp_cards`` for ``--opp-cards``), with the
    argparse action of each (``--json``, ``--csv`` and ``--help`` are the server's to choose)."""
    out = {}
    for a in _command(command)._actions:
        longs = [s for s in a.option_strings if s.startswith("--")]
        if longs and longs[0] not in ("--help", "--json", "--csv"):
            out[longs[0][2:].replace("-", "_")] = a
    return out


def argv(command: str, params: dict) -> list[str]:
    """The command line of ``params``: every value written ``--name=value`` (so no value is read
    as an option), lists repeated, a true flag alone, empty values left out."""
    known = fields(command)
    out = [command]
    for key, value in params.items():
        if key not in known:
            raise FieldError(f"{command} has no field {key!r}", key)
        flag = "--" + key.replace("_", "-")
        if value is None or value == "" or value is False:
            continue
        if known[key].nargs == 0:
            out.append(flag)
            continue
        for v in (value if isinstance(value, list) else [value]):
            if not isinstance(v, (str, int, float)) or isinstance(v, bool):
                raise FieldError(f"{key}: expected text or a number, got {type(v).__name__}", key)
            out.append(f"{flag}={v}")
    return out


def parse(command: str, params: dict):
    """``params`` read by the CLI's parser into its namespace; a :class:`FieldError` (the CLI's
    sentence, without its ``rummylab: error:`` and ``--help`` pointer) when it refuses them."""
    line = argv(command, params)
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            args = _top().parse_args(line)
    except SystemExit:      # --help or --version cannot be asked (every value is --name=value)
        raise FieldError(f"{command}: the request asked for help, not an answer") from None
    from analysis.args import apply_rule_set
    from sim.core.errors import UserInputError
    try:
        apply_rule_set(args)
    except UserInputError as e:
        raise FieldError(str(e), "rule_set") from None
    return args


def _sentence(msg: str) -> tuple[str, str | None]:
    """argparse's message as one sentence, and the field it names."""
    m = re.match(r"argument --([a-z-]+)(?:/[^:]*)?: (.*)", msg)
    if m:
        return m.group(2)[:1].upper() + m.group(2)[1:], m.group(1).replace("-", "_")
    m = re.search(r"required: --([a-z-]+)", msg)
    return msg[:1].upper() + msg[1:], m.group(1).replace("-", "_") if m else None


# the field an engine's sentence is about: the first of these words it names
_WORDS = (("first upcard", "first_upcard"), ("first_upcard", "first_upcard"), ("upcard", "upcard"),
          ("history", "history"), ("discard pile", "discards"), ("discards", "discards"),
          ("spread", "spread"), ("stock", "stock"), ("opp_cards", "opp_cards"), ("turn", "turn"),
          ("player", "players"), ("opponent", "opponent"), ("strateg", "strategy"), ("budget", "budget"),
          ("seed", "seed"), ("rule", "rule"), ("table", "table"), ("taken", "taken"), ("hand", "hand"))


def field_of(message: str) -> str | None:
    """The form field an engine's error sentence is about (the word it names first), or None."""
    low = message.lower()
    hits = [(low.find(w), f) for w, f in _WORDS if w in low]
    return min(hits)[1] if hits else None


def game_name(variant: str) -> str:
    """A variant's canonical name (``gin`` for an alias)."""
    from sim.variants import get_variant
    return get_variant(variant).name
