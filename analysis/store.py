"""The results store: one folder per run.

Layout::

    DIR/spec.json             what the results depend on (+ its key), written first
    DIR/chunks/A-B.npz        outcome rows of units A..B-1 (int64 ``rows`` + ``columns``)
    DIR/meta.json             written only when the run completes: spec, n, seed, timings,
                              package versions, git describe, summary accumulator

A folder holding a different spec is refused, so no result is ever overwritten; chunks are
written atomically (temp file + rename), so a crash leaves only whole chunks.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from sim.runner import Accumulator, RunSpec


class StoreError(ValueError):
    """A results folder that cannot be used for this run or cannot be read."""


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _chunk_path(out_dir, a: int, b: int) -> Path:
    return Path(out_dir) / "chunks" / f"{a:012d}-{b:012d}.npz"


def write_chunk(out_dir, a: int, b: int, rows: np.ndarray) -> None:
    import io
    buf = io.BytesIO()
    np.savez_compressed(buf, rows=rows)
    _atomic_write(_chunk_path(out_dir, a, b), buf.getvalue())


def read_chunk(out_dir, a: int, b: int) -> np.ndarray:
    with np.load(_chunk_path(out_dir, a, b)) as z:
        return z["rows"]


def _read_json(path: Path) -> dict | None:
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise StoreError(f"{path} is not valid JSON ({e}); move the folder away") from None


def open_run(out_dir, spec: RunSpec) -> Accumulator | None:
    """Check ``out_dir`` can hold ``spec``; write spec.json if new.  Returns the stored
    summary if this exact run (spec and n) is already complete there."""
    d = Path(out_dir)
    if d.exists() and not d.is_dir():
        raise StoreError(f"--out {d} is a file, not a folder")
    ident = spec.identity()
    key = spec.key()
    old = _read_json(d / "spec.json")
    if old is None:
        if d.exists() and any(d.iterdir()):
            raise StoreError(f"--out {d} is not empty and holds no rummylab run; choose a new folder")
        _atomic_write(d / "spec.json", json.dumps({"key": key, **ident}, indent=2).encode())
        return None
    if old.get("key") != key:
        raise StoreError(f"--out {d} holds a different run (variant {old.get('variant')}, "
                         f"seed {old.get('seed')}, key {old.get('key')}); choose a new folder")
    meta = _read_json(d / "meta.json")
    if meta is not None and meta.get("complete") and meta.get("n") == spec.n:
        return Accumulator.from_dict(meta["summary"])
    return None


def finished_chunks(out_dir, spec: RunSpec) -> list[tuple[int, int]]:
    """Chunks of ``spec`` already on disk (from an interrupted or shorter run)."""
    wanted = {(a, b) for _, a, b in spec.chunks()}
    found = []
    for p in sorted((Path(out_dir) / "chunks").glob("*.npz")):
        try:
            a, b = (int(x) for x in p.stem.split("-"))
        except ValueError:
            continue
        if (a, b) in wanted:
            found.append((a, b))
    return found


def finish_run(out_dir, spec: RunSpec, acc: Accumulator, elapsed: float, compile_s: float) -> None:
    from .engine import git_describe, package_versions
    meta = {
        "key": spec.key(),
        **spec.identity(),
        "n": spec.n,
        "columns": list(spec.columns),
        "outcomes": list(spec.variant.outcomes),
        "score_unit": spec.variant.score_unit,
        "players": spec.n_seats,
        "complete": True,
        "elapsed_s": elapsed,
        "compile_s": compile_s,
        "versions": package_versions(),
        "git": git_describe(),
        "summary": acc.to_dict(),
    }
    _atomic_write(Path(out_dir) / "meta.json", json.dumps(meta, indent=2).encode())


def load_meta(run_dir) -> dict:
    meta = _read_json(Path(run_dir) / "meta.json")
    if meta is None:
        raise StoreError(f"{run_dir} holds no complete run (no meta.json); run it to the end first")
    return meta


def load_run(run_dir) -> tuple[dict, pd.DataFrame]:
    """(metadata, outcome rows as a DataFrame) of a complete stored run."""
    meta = load_meta(run_dir)
    n, size = meta["n"], meta["chunk"]
    try:
        frames = [read_chunk(run_dir, a, min(a + size, n)) for a in range(0, n, size)]
    except FileNotFoundError as e:
        raise StoreError(f"{run_dir}: a chunk file is missing ({e.filename})") from None
    rows = np.concatenate(frames) if frames else np.zeros((0, len(meta["columns"])), dtype=np.int64)
    if rows.shape[0] != n:
        raise StoreError(f"{run_dir}: {rows.shape[0]} rows on disk for a run of {n}")
    df = pd.DataFrame(rows, columns=meta["columns"])
    if "outcome" in df:
        df["outcome_name"] = pd.Categorical.from_codes(df["outcome"], categories=meta["outcomes"])
    return meta, df
