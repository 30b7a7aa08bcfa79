"""The results store writes hand rows as Parquet that other tools read without rummylab; runs
stored before (as .npz) stay readable."""

import json

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from analysis import jobs, store
from sim.runner import CHUNK, make_spec, run_chunk


@pytest.mark.parametrize("variant,players,mode", [("tonk", 3, "hands"), ("knock-rummy", 4, "hands"),
                                                  ("gin", 2, "games")])
def test_parquet_rows_round_trip_and_read_without_rummylab(tmp_path, variant, players, mode):
    spec = make_spec(variant, players=players, n=CHUNK + 37 if mode == "hands" else 60, seed=5, mode=mode)
    out = tmp_path / "run"
    jobs.run(spec, jobs=1, out_dir=out, progress=False)
    wide = np.concatenate([run_chunk(spec, a, b) for a, b in spec.chunks()])
    meta, df = store.load_run(out)
    assert (df[list(spec.columns)].to_numpy() == wide).all()
    # plain pandas over the folder of Parquet files: one row per (unit, seat)
    files = sorted((out / "rows").glob("*.parquet"))
    assert len(files) == len(list(spec.chunks()))
    long = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    unit = "hand" if mode == "hands" else "game"
    assert len(long) == spec.n * players and list(long.columns[:2]) == [unit, "seat"]
    key = "score" if mode == "hands" else "net"
    assert key in store.seat_columns(spec.columns, players)
    by_seat = long.groupby("seat")[key].mean()
    for s in range(players):
        assert by_seat[s] == pytest.approx(df[f"{key}{s}"].mean())
    first = long[long[unit] == 7].set_index("seat")
    for c in spec.columns:
        stem = c.rstrip("0123456789")
        if stem != c and stem in long.columns:
            assert first.loc[int(c[len(stem):]), stem] == df[c][7]
        else:
            assert (first[c] == df[c][7]).all()
    if mode == "hands":
        names = long.drop_duplicates(unit)["outcome_name"].astype(str).to_numpy()
        assert (names == np.asarray(spec.variant.outcomes)[df["outcome"].to_numpy()]).all()
    schema_meta = json.loads(pq.read_schema(files[0]).metadata[b"rummylab"])
    assert schema_meta["columns"] == list(spec.columns) and schema_meta["players"] == players
    assert schema_meta["identity"]["variant"] == variant and meta["rows"] == "rows/*.parquet"


def test_runs_stored_as_npz_before_parquet_stay_readable(tmp_path):
    spec = make_spec("gin", n=CHUNK + 5, seed=9)
    out = tmp_path / "run"
    jobs.run(spec, jobs=1, out_dir=out, progress=False)
    _, new = store.load_run(out)
    for path in (out / "rows").glob("*.parquet"):       # rewrite the run in the old layout
        a, b = (int(x) for x in path.stem.split("-"))
        np.savez_compressed(out / "chunks" / f"{path.stem}.npz", rows=run_chunk(spec, a, b))
        path.unlink()
    for path in (out / "chunks").glob("*.json"):          # chunk records and meta.json as they were
        path.write_text(json.dumps(json.loads(path.read_text())["part"]))
    meta = json.loads((out / "meta.json").read_text())
    for k in ("sha256", "chunks_sha256", "chunk_size"):
        del meta[k]
    (out / "meta.json").write_text(json.dumps(meta))
    _, old = store.load_run(out)
    pd.testing.assert_frame_equal(old, new)


def test_seat_columns_are_the_stems_every_seat_has():
    cols = ("dealer", "score0", "score1", "deadwood0", "deadwood1", "x2", "knock_turn")
    assert store.seat_columns(cols, 2) == ["score", "deadwood"]
    assert store.seat_columns(cols, 3) == []
