"""Command-line cases written as a table, one case a line: ``ARGS => WORDS`` (test helper).

ARGS are split as a shell splits them (:func:`shlex.split`); WORDS, the rest of the line, are
what the command's output (its error line) must contain.  An argument ``$NAME`` stands for
``names[NAME]`` (a list is spliced in as several arguments), and so do WORDS that are just
``$NAME``.  Blank lines and lines starting with ``#`` are skipped.
"""

from __future__ import annotations

import shlex


def cli_cases(table: str, **names) -> list[tuple[list[str], str]]:
    """The ``(arguments, words)`` of every case in ``table``, in order."""
    cases = []
    for line in table.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        args, sep, words = line.partition("=>")
        if not sep:
            raise ValueError(f"a case is written ARGS => WORDS: {line!r}")
        argv: list[str] = []
        for a in shlex.split(args):
            value = names[a[1:]] if a.startswith("$") else a
            argv += value if isinstance(value, list) else [value]
        words = words.strip()
        cases.append((argv, names[words[1:]] if words.startswith("$") else words))
    return cases
