"""The questions a newcomer brings, each with the one command that answers it.

``rummylab`` with no arguments prints them (:func:`questions_text`), then the list of
subcommands; the README shows the same list and the tests parse every command with the real
parser.  Edit the questions here, nowhere else."""

from __future__ import annotations

import argparse
import shlex
import textwrap

# (question, the command that answers it): default sizes, so the answer is one to act on
QUESTIONS: tuple[tuple[str, str], ...] = (
    ("When should I knock in Gin?",
     "rummylab knock-sweep --variant gin --thresholds 0..10 --by-turn --out runs/gin-knock"),
    ("When should I knock in Knock Rummy?",
     "rummylab knock-sweep --variant knock-rummy --players 4 --by-turn --out runs/kr-knock"),
    ("When should I drop in Tonk?",
     "rummylab knock-sweep --variant tonk --players 3 --thresholds 0..20 --by-turn --out runs/tonk-knock"),
    ("When should I knock in Ramino Klop?",
     "rummylab knock-sweep --variant ramino-klop --players 4 --by-turn --out runs/rk-knock"),
    ("Should I knock with this hand?",
     'rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C" --turn 6 --upcard 5C'),
    ("How likely is a tonk on the deal?",
     "rummylab tonk-odds"),
    ("Which game is the most balanced, and where does skill count most?",
     "rummylab balance"),
    ("What does a rule change do to when I should knock?",
     "rummylab knock-rules --variant knock-rummy --players 4 --vary knocker_penalty=0,10,20 "
     "--vary rummy_bonus=0,25,50"),
    ("What should I lay down here?",
     'rummylab meld --variant basic-rummy --hand "4S 5S 9H 9D 9C KD 2C" --table "AS 2S 3S | 7H 7D 7C"'),
    ("What is a buy-back worth in Loba?",
     "rummylab buyback"),
    ("What happened in a hand?",
     "rummylab trace --variant gin --seed 7 --hand 1234"),
    ("Can I ask by clicking my cards, and watch a hand, in the browser?",
     "rummylab serve"),
    ("All of it at once, with an HTML report?",
     "rummylab demo"),
)


def argv_of(command: str) -> list[str]:
    """A listed command's arguments after ``rummylab`` (as the shell would split them)."""
    words = shlex.split(command)
    assert words[0] == "rummylab", command
    return words[1:]


def questions_text() -> str:
    """The questions, each followed by its command, indented."""
    out = ["rummylab: Monte Carlo answers for rummy-family card games. Ask it:", ""]
    for q, cmd in QUESTIONS:
        out += [f"  {q}", f"      {cmd}"]
    return "\n".join(out)


def commands_text(parser: argparse.ArgumentParser) -> str:
    """Every subcommand with its one-line help, from the parser itself."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: (a.help or "").replace("%%", "%") for a in sub._choices_actions}
    width = max(map(len, sub.choices)) + 2
    out = ["commands (`rummylab COMMAND --help`: its options and examples):"]
    for name in sub.choices:
        out += textwrap.wrap(helps.get(name, ""), 100, initial_indent=f"  {name:<{width}}",
                             subsequent_indent=" " * (width + 2)) or [f"  {name}"]
    return "\n".join(out)


def overview(parser: argparse.ArgumentParser) -> str:
    """What ``rummylab`` alone prints: the questions, then the commands."""
    return f"{questions_text()}\n\n{commands_text(parser)}"
