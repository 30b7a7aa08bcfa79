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

from . import integrity as seal
from .integrity import Damaged, StoreError

__all__ = ["Damaged", "StoreError"]


def key_of(identity: dict) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


def check_output(path, flag: str = "--out", folder: bool = True) -> Path:
    """``path`` as a Path if it can be written: a folder (``folder``; existing, or new with any
    missing folders above it) or a file (not a folder, its folder existing or creatable) under a
    writable folder.  The one "can I write this output?" check: every --out, --html and
    --markdown goes through it when the command line is read, before anything is written or
    computed.  Raises :class:`StoreError`."""
    what = "folder" if folder else "file"
    if str(path).strip() == "":
        raise StoreError(f"{flag} takes a {what} name, got {str(path)!r}")
    p = Path(path)
    try:
        if folder and p.exists() and not p.is_dir():
            raise StoreError(f"{flag} {p} is a file, not a folder")
        if not folder and p.is_dir():
            raise StoreError(f"{flag} {p} is a folder; give a file name")
        base = p if folder else p.parent
        while not base.exists():
            base = base.parent
    except OSError as e:
        raise StoreError(f"{flag} {p}: {e.strerror or e}") from None
    if not base.is_dir():
        raise StoreError(f"{flag} {p}: {base} is a file, not a folder")
    if not os.access(base, os.W_OK | os.X_OK) or (not folder and p.exists() and not os.access(p, os.W_OK)):
        raise StoreError(f"{flag} {p}: cannot write there ({base} is not writable)")
    return p


def check_out_dir(out_dir) -> Path:
    """``out_dir`` as a Path if results can go there (:func:`check_output` of a folder)."""
    return check_output(out_dir, "--out", folder=True)


def atomic_write(path, data: bytes, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` through a temp file and a rename, so readers see the old file or
    the whole new one; ``mode``: permission bits (else mkstemp's 0600).  A failure leaves no temp
    file behind and is one :class:`StoreError` line."""
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise StoreError(f"cannot write {path} ({e.strerror or e})") from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def _atomic_write(path: Path, data: bytes) -> None:
    check_out_dir(path.parent)
    atomic_write(path, data)


def _chunk(out_dir, a: int, b: int, ext: str) -> Path:
    return Path(out_dir) / "chunks" / f"{a:012d}-{b:012d}.{ext}"


def rows_path(out_dir, a: int, b: int) -> Path:
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
    _atomic_write(rows_path(out_dir, a, b), sink.getvalue().to_pybytes())


def read_rows(out_dir, a: int, b: int, columns, n_seats: int, unit: str = "hand") -> np.ndarray:
    """The wide int64 rows of units ``a..b-1`` (Parquet, or a run stored before it as .npz)."""
    old = _chunk(out_dir, a, b, "npz")
    if not rows_path(out_dir, a, b).exists() and old.exists():
        with np.load(old) as z:
            return z["rows"]
    import pyarrow as pa
    import pyarrow.parquet as pq
    try:
        t = pq.read_table(rows_path(out_dir, a, b))
    except FileNotFoundError:
        raise Damaged(rows_path(out_dir, a, b), "it is missing") from None
    except (OSError, pa.ArrowException) as e:
        raise Damaged(rows_path(out_dir, a, b), f"it cannot be read as Parquet: {e}") from None
    stems = seat_columns(columns, n_seats)
    out = np.empty((t.num_rows // n_seats, len(columns)), dtype=np.int64)
    for i, c in enumerate(columns):
        stem = c.rstrip("0123456789")
        if stem in stems and stem != c:
            out[:, i] = t.column(stem).to_numpy()[int(c[len(stem):])::n_seats]
        else:
            out[:, i] = t.column(c).to_numpy()[::n_seats]
    return out


def write_partial(out_dir, a: int, b: int, part: dict, key: str, files=()) -> None:
    """The chunk record of units a..b-1 of run ``key``: its partial aggregate and the hashes of
    ``files`` (written with it), sealed."""
    doc = {"key": key, "first": a, "stop": b, "part": part, "files": seal.files_digests(out_dir, files)}
    _atomic_write(_chunk(out_dir, a, b, "json"), json.dumps(seal.seal(doc)).encode())


def read_partial(out_dir, a: int, b: int, key: str) -> dict:
    """The partial aggregate of units a..b-1, checked against its seal, its run and its files;
    :class:`Damaged` if anything differs from what was written."""
    path = _chunk(out_dir, a, b, "json")
    doc = seal.unseal(read_json(path, required=True), path, sealed_keys=("part",))
    if "part" not in doc:   # stored before chunk records were sealed: the partial itself
        return doc
    if (doc.get("key"), doc.get("first"), doc.get("stop")) != (key, a, b):
        raise Damaged(path, f"it belongs to another run or chunk ({doc.get('key')}, {doc.get('first')}..{doc.get('stop')})")
    seal.check_files(out_dir, doc.get("files", {}))
    return doc["part"]


def write_study(out_dir, name: str, doc: dict) -> Path:
    """Write a study's result ``doc`` as ``out_dir/<name>.json``, sealed, atomically; returns its path."""
    path = Path(out_dir) / f"{name}.json"
    _atomic_write(path, json.dumps(seal.seal(doc), indent=2).encode())
    return path


def read_study(out_dir, name: str) -> dict:
    """The result a study stored with :func:`write_study` (checked against its seal)."""
    path = Path(out_dir) / f"{name}.json"
    doc = read_json(path)
    if doc is None:
        raise StoreError(f"{out_dir} holds no {name}.json; run the study with --out {out_dir} first")
    return seal.unseal(doc, path)


def read_json(path: Path, required: bool = False) -> dict | None:
    """A stored JSON document; None if there is none (``required``: :class:`Damaged`);
    unreadable or not JSON: :class:`Damaged`."""
    try:
        text = Path(path).read_bytes()
    except FileNotFoundError:
        if required:
            raise Damaged(path, "it is missing") from None
        return None
    except OSError as e:
        raise Damaged(path, f"it cannot be read: {e.strerror or e}") from None
    try:
        return json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Damaged(path, f"it is not valid JSON: {e}") from None


def holds_files(folder) -> bool:
    """Whether ``folder`` exists and holds anything but rummylab's lock file."""
    from .lock import LOCK_NAME
    d = Path(folder)
    return d.is_dir() and any(p.name != LOCK_NAME for p in d.iterdir())


def claim(out_dir, markers: tuple[str, ...], what: str) -> Path:
    """Check ``out_dir`` can hold this study (a new or empty folder, or one holding any of
    ``markers``), then hold its lock for the rest of the command; returns it as a Path."""
    from .lock import hold
    d = check_out_dir(out_dir)
    if holds_files(d) and not any((d / m).exists() for m in markers):
        raise StoreError(f"--out {d} is not empty and holds no {what}; choose a new folder")
    hold(d)
    return d


def open_run(out_dir, key: str, identity: dict, n: int) -> dict | None:
    """Check ``out_dir`` can hold this run, hold its lock, write spec.json if new.  Returns the
    stored total if this exact run (spec and n) is complete there and every stored file checks
    out; a damaged meta.json or chunk is named in a warning and the run resumes (the damaged
    chunks are recomputed, the total rebuilt from the chunks)."""
    d = claim(out_dir, ("spec.json",), "rummylab run")
    old = read_json(d / "spec.json")
    if old is None:
        _atomic_write(d / "spec.json", json.dumps({"key": key, **identity}, indent=2).encode())
        return None
    if old.get("key") != key:
        raise StoreError(f"--out {d} holds a different run (variant {old.get('variant')}, "
                         f"seed {old.get('seed')}, key {old.get('key')}); choose a new folder")
    if key_of({k: v for k, v in old.items() if k != "key"}) != key:
        raise Damaged(d / "spec.json", "its content does not match its key; move the folder away")
    if not (d / "meta.json").exists():
        return None
    try:
        meta = load_meta(d)
    except Damaged as e:   # a damaged chunk is named where it is recomputed (jobs._resume)
        if e.path == d / "meta.json":
            seal.warn(f"{e.path} is damaged ({e.why}); rebuilding the run's total from its chunks")
        return None
    if meta.get("complete") and meta.get("n") == n:
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


def _chunks_digest(out_dir, n: int, size: int) -> str:
    return seal.chain_digest(seal.file_digest(_chunk(out_dir, a, min(a + size, n), "json"))
                             for a in range(0, n, size))


def finish_run(out_dir, key: str, identity: dict, n: int, total: dict, extra: dict, chunk_size: int) -> None:
    """Write meta.json, sealed, with the hash of every chunk record of the run."""
    meta = {"key": key, **identity, "n": n, "complete": True, **extra, "total": total,
            "chunk_size": chunk_size, "chunks_sha256": _chunks_digest(out_dir, n, chunk_size)}
    _atomic_write(Path(out_dir) / "meta.json", json.dumps(seal.seal(meta), indent=2).encode())


def load_meta(run_dir) -> dict:
    """The metadata of a complete run, checked: its seal, every chunk record (its seal and the
    rows it lists) and their hash; :class:`Damaged` names the first file that differs."""
    path = Path(run_dir) / "meta.json"
    meta = read_json(path)
    if meta is None:
        raise StoreError(f"{run_dir} holds no complete run (no meta.json); run it to the end first")
    meta = seal.unseal(meta, path, sealed_keys=("chunks_sha256",))
    if "chunks_sha256" in meta:
        n, size, key = meta["n"], meta["chunk_size"], meta["key"]
        for a in range(0, n, size):
            read_partial(run_dir, a, min(a + size, n), key)
        if _chunks_digest(run_dir, n, size) != meta["chunks_sha256"]:
            raise Damaged(path, "its chunk records differ from the ones it was written with")
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
    except (OSError, KeyError, ValueError) as e:
        raise StoreError(f"{run_dir}: a rows file cannot be read ({e})") from None
    rows = np.concatenate(frames) if frames else np.zeros((0, len(meta["columns"])), dtype=np.int64)
    df = pd.DataFrame(rows, columns=meta["columns"])
    if "outcome" in df:
        df["outcome_name"] = pd.Categorical.from_codes(df["outcome"], categories=meta["outcomes"])
    return meta, df
