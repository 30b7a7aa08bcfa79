"""The results store: one folder per run (a single spec or a multi-arm study).

Layout::

    DIR/spec.json             what the results depend on (+ its key), written first
    DIR/chunks/A-B.json       the partial aggregate of units A..B-1 (exact integers)
    DIR/chunks/A-B.npz        single runs: the outcome rows of units A..B-1 (int64)
    DIR/meta.json             written only when the run completes: spec, n, the total,
                              columns, timings, package versions, git describe
    DIR/<name>.json           a study's own result (:func:`write_study`), e.g. odds.json,
                              with a ``"kind"`` key naming the study for the report

A folder holding a different spec is refused, so no result is ever overwritten; files are
written atomically (temp file + rename), so a crash leaves only whole chunks.  A folder is
created only inside an existing one: a mistyped --out parent is refused, not created.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported only where a DataFrame is built
    import pandas as pd

import hashlib
import io
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from sim.errors import UserInputError


class StoreError(UserInputError):
    """A results folder that cannot be used for this run or cannot be read."""


def key_of(identity: dict) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def check_out_dir(out_dir) -> Path:
    """``out_dir`` as a Path if results can go there: an existing folder, or a new one (with any
    missing folders above it) under a writable folder.  Raises :class:`StoreError`, before
    anything is written, when a file is in the way or the place is not writable."""
    d = Path(out_dir)
    if d.exists() and not d.is_dir():
        raise StoreError(f"--out {d} is a file, not a folder")
    base = d
    while not base.exists():
        base = base.parent
    if not base.is_dir():
        raise StoreError(f"--out {d}: {base} is a file, so the folder cannot be created there")
    if not os.access(base, os.W_OK | os.X_OK):
        raise StoreError(f"--out {d}: cannot create or write it ({base} is not writable)")
    return d


def _atomic_write(path: Path, data: bytes) -> None:
    check_out_dir(path.parent).mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _chunk(out_dir, a: int, b: int, ext: str) -> Path:
    return Path(out_dir) / "chunks" / f"{a:012d}-{b:012d}.{ext}"


def write_rows(out_dir, a: int, b: int, rows: np.ndarray) -> None:
    buf = io.BytesIO()
    np.savez_compressed(buf, rows=rows)
    _atomic_write(_chunk(out_dir, a, b, "npz"), buf.getvalue())


def read_rows(out_dir, a: int, b: int) -> np.ndarray:
    with np.load(_chunk(out_dir, a, b, "npz")) as z:
        return z["rows"]


def write_partial(out_dir, a: int, b: int, part: dict) -> None:
    _atomic_write(_chunk(out_dir, a, b, "json"), json.dumps(part).encode())


def read_partial(out_dir, a: int, b: int) -> dict:
    return json.loads(_chunk(out_dir, a, b, "json").read_text())


def write_study(out_dir, name: str, doc: dict) -> Path:
    """Write a study's result ``doc`` as ``out_dir/<name>.json``, atomically; returns its path."""
    path = Path(out_dir) / f"{name}.json"
    _atomic_write(path, json.dumps(doc, indent=2).encode())
    return path


def read_study(out_dir, name: str) -> dict:
    """The result a study stored with :func:`write_study`."""
    doc = _read_json(Path(out_dir) / f"{name}.json")
    if doc is None:
        raise StoreError(f"{out_dir} holds no {name}.json; run the study with --out {out_dir} first")
    return doc


def _read_json(path: Path) -> dict | None:
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise StoreError(f"{path} is not valid JSON ({e}); move the folder away") from None


def open_run(out_dir, key: str, identity: dict, n: int) -> dict | None:
    """Check ``out_dir`` can hold this run; write spec.json if new.  Returns the stored total
    if this exact run (spec and n) is already complete there."""
    d = check_out_dir(out_dir)
    old = _read_json(d / "spec.json")
    if old is None:
        if d.exists() and any(d.iterdir()):
            raise StoreError(f"--out {d} is not empty and holds no rummylab run; choose a new folder")
        _atomic_write(d / "spec.json", json.dumps({"key": key, **identity}, indent=2).encode())
        return None
    if old.get("key") != key:
        raise StoreError(f"--out {d} holds a different run (variant {old.get('variant')}, "
                         f"seed {old.get('seed')}, key {old.get('key')}); choose a new folder")
    meta = _read_json(d / "meta.json")
    if meta is not None and meta.get("complete") and meta.get("n") == n:
        return meta["total"]
    return None


def finished_chunks(out_dir) -> set[tuple[int, int]]:
    """(first unit, stop) of every chunk finished on disk, from one listing of the folder."""
    done = set()
    for path in (Path(out_dir) / "chunks").glob("*-*.json"):
        a, _, b = path.stem.partition("-")
        if a.isdigit() and b.isdigit():
            done.add((int(a), int(b)))
    return done


def finish_run(out_dir, key: str, identity: dict, n: int, total: dict, extra: dict) -> None:
    meta = {"key": key, **identity, "n": n, "complete": True, **extra, "total": total}
    _atomic_write(Path(out_dir) / "meta.json", json.dumps(meta, indent=2).encode())


def load_meta(run_dir) -> dict:
    meta = _read_json(Path(run_dir) / "meta.json")
    if meta is None:
        raise StoreError(f"{run_dir} holds no complete run (no meta.json); run it to the end first")
    return meta


def load_run(run_dir) -> tuple[dict, "pd.DataFrame"]:
    """(metadata, outcome rows as a DataFrame) of a complete stored single run."""
    import pandas as pd
    meta = load_meta(run_dir)
    if "columns" not in meta:
        raise StoreError(f"{run_dir} is a study, not a single run with outcome rows")
    n, size = meta["n"], meta["chunk"]
    try:
        frames = [read_rows(run_dir, a, min(a + size, n)) for a in range(0, n, size)]
    except FileNotFoundError as e:
        raise StoreError(f"{run_dir}: a chunk file is missing ({e.filename})") from None
    rows = np.concatenate(frames) if frames else np.zeros((0, len(meta["columns"])), dtype=np.int64)
    df = pd.DataFrame(rows, columns=meta["columns"])
    if "outcome" in df:
        df["outcome_name"] = pd.Categorical.from_codes(df["outcome"], categories=meta["outcomes"])
    return meta, df
