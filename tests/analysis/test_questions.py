"""``rummylab`` with no arguments (issue 31, part 3): the questions a newcomer brings, each with
the command that answers it, then the subcommands; exit 0.  The questions live in
:mod:`analysis.questions`, which the README shows too."""

from __future__ import annotations

import subprocess
import sys

import pytest

from analysis.cli import build_parser, main
from analysis.questions import QUESTIONS, argv_of
from tests.support import ROOT


README = ROOT / "README.md"


def _subcommands() -> list[str]:
    import argparse
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


def test_rummylab_alone_prints_every_question_and_its_command_and_exits_0(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    lines = [x.strip() for x in out.splitlines()]
    for q, cmd in QUESTIONS:
        k = lines.index(q)
        assert lines[k + 1] == cmd, q          # the command right under its question
    tail = out.split("commands (", 1)[1]
    for name in _subcommands():               # then every subcommand with its help line
        assert any(x.split()[:1] == [name] for x in tail.splitlines()), name
    assert "usage:" not in out and "error" not in out


@pytest.mark.slow
def test_rummylab_alone_from_the_shell_exits_0():
    p = subprocess.run([sys.executable, "-c", "import sys; from analysis.cli import main; sys.exit(main())"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert QUESTIONS[0][0] in p.stdout and p.stderr == ""


def test_the_newcomer_questions_cover_the_main_questions():
    cmds = {argv_of(c)[0] for _, c in QUESTIONS}
    assert {"knock-sweep", "knock", "tonk-odds", "balance", "knock-rules", "trace", "demo"} <= cmds
    sweeps = {argv_of(c)[argv_of(c).index("--variant") + 1] for _, c in QUESTIONS if argv_of(c)[0] == "knock-sweep"}
    assert sweeps == {"gin", "knock-rummy", "tonk", "ramino-klop"}
    assert len({q for q, _ in QUESTIONS}) == len(QUESTIONS)


@pytest.mark.parametrize("question, command", QUESTIONS, ids=[q for q, _ in QUESTIONS])
def test_every_listed_command_parses_with_the_real_parser(question, command):
    args = build_parser().parse_args(argv_of(command))
    assert callable(args.func)


def test_the_docs_list_every_question_with_its_command():
    text = (README.parent / "docs" / "commands.md").read_text()
    for q, cmd in QUESTIONS:
        assert q in text and cmd in text, q
