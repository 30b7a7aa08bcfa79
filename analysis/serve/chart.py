"""What the stored knock chart says for an asked position: the chart cell of the advice's turn
(or stock) bucket and deadwood, from a finished knock sweep under the runs folder (read, never
re-simulated), with a link to the report page that shows the chart."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

MAX_DEPTH = 3            # runs/<study>/<sweep>: how deep the runs folder is searched


def sweeps(runs: Path, game: str) -> list[Path]:
    """Finished knock sweeps of ``game`` under ``runs`` (the one against ``simple`` first)."""
    import json
    found = []
    for depth in range(MAX_DEPTH):
        for p in sorted(runs.glob("/".join(["*"] * depth + ["sweep.json"]))):
            try:
                spec = json.loads(p.read_text()).get("spec", {})
            except (OSError, ValueError):
                continue
            if spec.get("variant") == game and spec.get("by_turn"):
                found.append((spec.get("opponent") != "simple", str(p.parent), p.parent))
    return [p for *_, p in sorted(found)]


def _bucket(spec, turn: int, stock: int) -> str:
    m, late = spec.buckets
    if spec.bucket_by == "stock":
        return "early" if stock > m else "mid" if stock > late else "late"
    return "early" if turn < m else "mid" if turn < late else "late"


@lru_cache(maxsize=32)
def _chart(folder: str, stamp: float):
    from analysis.studies.knock_sweep import load_sweep
    from analysis.studies.sweep_stats import knock_chart
    res = load_sweep(folder)
    return res.spec, knock_chart(res.spec, res.by_turn)


def chart_says(runs: Path, reports: Path, advice: dict) -> dict | None:
    """The chart cell for ``advice`` (``Advice.as_dict``): its call, margin and interval, the
    sweep it comes from and the report link; None when no finished sweep of the game is stored
    or the deadwood is outside the chart's thresholds."""
    from analysis.studies.sweep_stats import bucket_label
    from analysis.report.html import slug
    from analysis.store import StoreError
    for folder in sweeps(Path(runs), advice["variant"]):
        try:
            spec, chart = _chart(str(folder), (folder / "sweep.json").stat().st_mtime)
        except (StoreError, OSError, ValueError, KeyError):
            continue
        b = _bucket(spec, advice["turn"], advice["stock"])
        dw = advice["hand_score"]
        row = chart[(chart["bucket"] == b) & (chart["from"] <= dw) & (chart["to"] >= dw)]
        if row.empty:
            continue
        r = row.iloc[0]
        page = Path(reports) / f"{slug(advice['variant'])}.html"
        return {"word": advice["hand_word"], "decision": str(r["decision"]), "margin": float(r["margin"]), "ci95": [float(r["lo"]), float(r["hi"])],
                "n": int(r["n"]), "cell": str(r["cell"]), "bucket": bucket_label(spec, b),
                "sweep": str(folder), "strategy": spec.strategy, "opponent": spec.opponent,
                "hands": spec.hands, "report": f"/report/{page.name}#{folder.name}-chart" if page.exists() else None}
    return None
