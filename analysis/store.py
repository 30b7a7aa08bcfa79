"""The results store: one folder per run (a single spec or a multi-arm study).

Layout::

    DIR/spec.json             what the results depend on (+ its key), written first
    DIR/chunks/A-B.json       the partial aggregate of units A..B-1 (exact integers)
    DIR/rows/A-B.parquet      single runs: the outcome rows of units A..B-1, one row per
                              (unit, seat): ``hand`` (or ``game``), ``seat``, the unit's own
                              columns and the seat's (``score``, ``deadwood``, ...); the run's
                              metadata is in the Parquet schema (key ``rummylab``) too
    DIR/meta.json             written only when the run completes: spec, n, the total,
                              columns, timings, package versions, git describe
    DIR/<name>.json           a study's own result (:func:`write_study`), e.g. odds.json,
                              with a ``"kind"`` key naming the study for the report

A folder holding a different spec is refused, so no result is ever overwritten; files are
written atomically (temp file + rename), so a crash leaves only whole chunks.  A folder is
created only inside an existing one: a mistyped --out parent is refused, not created.

The rows are plain Parquet, so pandas, DuckDB or polars read a run without rummylab::

    duckdb -c "select seat, avg(score) from 'runs/x/rows/*.parquet' group by seat"

Runs stored before the Parquet layout (``chunks/A-B.npz``, int64 rows of the wide hand
columns) stay readable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported only where a DataFrame is built
    import pandas as pd

import hashlib
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


def _rows_path(out_dir, a: int, b: int) -> Path:
    return Path(out_dir) / "rows" / f"{a:012d}-{b:012d}.parquet"


def seat_columns(columns, n_seats: int) -> list[str]:
    """The per-seat column stems of wide rows: ``score`` when ``score0 .. score{n-1}`` are all
    columns (in any game), in order of first appearance."""
    names = set(columns)
    stems = []
    for c in columns:
        stem = c.rstrip("0123456789")
        if (stem != c and stem not in stems and not stem.endswith("_")
                and all(f"{stem}{s}" in names for s in range(n_seats))):
            stems.append(stem)
    return stems


def write_rows(out_dir, a: int, b: int, rows: np.ndarray, columns, n_seats: int, unit: str = "hand",
               outcomes=None, metadata: dict | None = None) -> None:
    """Write wide int64 rows of units ``a..b-1`` (``columns``) as one Parquet file of seat rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    columns = list(columns)
    stems = seat_columns(columns, n_seats)
    per_seat = {f"{st}{s}" for st in stems for s in range(n_seats)}
    k = rows.shape[0]
    data = {unit: np.repeat(np.arange(a, a + k, dtype=np.int64), n_seats),
            "seat": np.tile(np.arange(n_seats, dtype=np.int64), k)}
    for i, c in enumerate(columns):
        if c not in per_seat:
            data[c] = np.repeat(rows[:, i], n_seats)
            if c == "outcome" and outcomes is not None:
                data["outcome_name"] = pa.DictionaryArray.from_arrays(
                    pa.array(data[c].astype(np.int32)), pa.array(list(outcomes)))
    for st in stems:
        data[st] = np.ascontiguousarray(rows[:, [columns.index(f"{st}{s}") for s in range(n_seats)]]).ravel()
    table = pa.table(data)
    meta = {"columns": columns, "players": n_seats, "unit": unit, "first": a, "stop": b, **(metadata or {})}
    table = table.replace_schema_metadata({"rummylab": json.dumps(meta, default=str)})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    _atomic_write(_rows_path(out_dir, a, b), sink.getvalue().to_pybytes())


def read_rows(out_dir, a: int, b: int, columns, n_seats: int, unit: str = "hand") -> np.ndarray:
    """The wide int64 rows of units ``a..b-1`` (Parquet, or a run stored before it as .npz)."""
    old = _chunk(out_dir, a, b, "npz")
    if not _rows_path(out_dir, a, b).exists() and old.exists():
        with np.load(old) as z:
            return z["rows"]
    import pyarrow.parquet as pq
    t = pq.read_table(_rows_path(out_dir, a, b))
    stems = seat_columns(columns, n_seats)
    out = np.empty((t.num_rows // n_seats, len(columns)), dtype=np.int64)
    for i, c in enumerate(columns):
        stem = c.rstrip("0123456789")
        if stem in stems and stem != c:
            out[:, i] = t.column(stem).to_numpy()[int(c[len(stem):])::n_seats]
        else:
            out[:, i] = t.column(c).to_numpy()[::n_seats]
    return out


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
    cols, seats, unit = meta["columns"], meta.get("players", 1), meta.get("unit", "hand")
    try:
        frames = [read_rows(run_dir, a, min(a + size, n), cols, seats, unit) for a in range(0, n, size)]
    except FileNotFoundError as e:
        raise StoreError(f"{run_dir}: a chunk file is missing ({e.filename})") from None
    rows = np.concatenate(frames) if frames else np.zeros((0, len(meta["columns"])), dtype=np.int64)
    df = pd.DataFrame(rows, columns=meta["columns"])
    if "outcome" in df:
        df["outcome_name"] = pd.Categorical.from_codes(df["outcome"], categories=meta["outcomes"])
    return meta, df
