"""The one way a command that answers one question (``knock``, ``meld``) prints its answer:
text, its ``--json`` document, or that document as one ``--csv`` row, so the rows of several
calls stack in a spreadsheet.

The row flattens the document: an estimate ``{"value", "ci95", "n"}`` becomes ``NAME``,
``NAME_lo``, ``NAME_hi``, ``NAME_n`` (as in the study tables' CSV), a nested dict ``NAME.KEY``,
a list one cell (joined by spaces, or by "; " where an item holds a space), and a number
that is not finite an empty cell, as ``null`` in the JSON (:mod:`.json_text`).
"""

from __future__ import annotations

from collections.abc import Callable

from . import json_text


def flat(doc: dict, prefix: str = "") -> dict:
    """``doc`` (JSON-able) as one level of columns, in its order (see the module docstring)."""
    out = {}
    for k, x in doc.items():
        name = f"{prefix}{k}"
        if isinstance(x, dict) and set(x) == {"value", "ci95", "n"}:
            lo, hi = x["ci95"]
            out.update({name: x["value"], f"{name}_lo": lo, f"{name}_hi": hi, f"{name}_n": x["n"]})
        elif isinstance(x, dict):
            out.update(flat(x, f"{name}."))
        elif isinstance(x, list):
            words = [str(y) for y in x]
            out[name] = ("; " if any(" " in w for w in words) else " ").join(words)
        else:
            out[name] = x
    return out


def one_row_csv(doc: dict) -> str:
    """``doc`` as CSV: a header row and one row (non-finite numbers empty)."""
    import pandas as pd
    return pd.DataFrame([flat(json_text.finite(doc))]).to_csv(index=False)


def print_answer(fmt: str, doc: dict, text: Callable[[], str]) -> None:
    """Print one answer in ``fmt`` (:func:`analysis.args.output_format`): ``doc`` as JSON, as one
    CSV row, or ``text()``."""
    if fmt == "json":
        print(json_text.dumps(doc))
    elif fmt == "csv":
        print(one_row_csv(doc), end="")
    else:
        print(text())
