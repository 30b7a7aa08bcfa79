"""What the stored runs behind a report are: games, simulated units, seeds, rules versions and
commits, read from the stored metadata of every run (``meta.json``) and study file; the date
is when the newest of those files was stored.  Never simulates."""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from pathlib import Path

STUDY_FILES = ("sweep.json", "compare.json", "equilibrium.json", "knock_rules.json", "balance.json",
               "odds.json", "buyback.json")


@dataclass
class Provenance:
    """Totals over the folders of a report, and one row per folder."""
    games: list[str] = field(default_factory=list)
    hands: int = 0            # hands (deals) simulated, all arms and stages
    whole_games: int = 0      # whole games simulated
    deals: int = 0            # tonk deals dealt for the odds
    seeds: list = field(default_factory=list)
    commits: list[str] = field(default_factory=list)
    rules_versions: list[str] = field(default_factory=list)
    stored: str = ""          # UTC date of the newest stored file
    folders: list[dict] = field(default_factory=list)


def _load(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _seed(doc: dict):
    for d in (doc, doc.get("spec") or {}, doc.get("config") or {}):
        if isinstance(d, dict) and isinstance(d.get("seed"), int):
            return d["seed"]
    return None


def _metas(folder: Path):
    for p in sorted(folder.rglob("meta.json")):
        if "chunks" not in p.parts:
            yield p, _load(p)


def folder_row(folder: Path) -> dict:
    """One folder: its simulated units, seed, games, rules versions, commits and newest file time."""
    row = {"folder": folder.name, "hands": 0, "games": 0, "deals": 0, "variants": set(), "rules_versions": set(),
           "commits": set(), "seed": None, "mtime": 0.0}
    files = [folder / f for f in STUDY_FILES if (folder / f).exists()]
    for f in files:
        doc = _load(f)
        row["seed"] = row["seed"] if row["seed"] is not None else _seed(doc)
        row["mtime"] = max(row["mtime"], f.stat().st_mtime)
        if f.name == "odds.json":
            row["deals"] += int(doc.get("deals", 0)) * len({r.get("players") for r in doc.get("rows", [])})
            row["variants"].add("tonk")
            row["commits"].add(str(doc.get("git")))
    for p, meta in _metas(folder):
        arms = meta.get("arms") or [meta]
        mode = arms[0].get("mode", meta.get("mode", "hands"))
        row["games" if mode == "games" else "hands"] += int(meta.get("n", 0)) * len(arms)
        for a in arms:
            if a.get("variant"):
                row["variants"].add(a["variant"])
            if a.get("rules_version") is not None:
                row["rules_versions"].add(f"{a.get('variant')} {a['rules_version']}")
        if meta.get("git"):
            row["commits"].add(str(meta["git"]))
        if row["seed"] is None and isinstance(meta.get("seed"), int):
            row["seed"] = meta["seed"]
        row["mtime"] = max(row["mtime"], p.stat().st_mtime)
    return row


def provenance(run_dirs) -> Provenance:
    pv = Provenance()
    for d in run_dirs:
        r = folder_row(Path(d))
        pv.folders.append(r)
        pv.hands += r["hands"]
        pv.whole_games += r["games"]
        pv.deals += r["deals"]
    pv.games = sorted({v for r in pv.folders for v in r["variants"]})
    pv.seeds = sorted({r["seed"] for r in pv.folders if r["seed"] is not None})
    pv.commits = sorted({c for r in pv.folders for c in r["commits"] if c and c != "None"})
    pv.rules_versions = sorted({v for r in pv.folders for v in r["rules_versions"]})
    newest = max((r["mtime"] for r in pv.folders), default=0.0)
    if newest:
        pv.stored = _dt.datetime.fromtimestamp(newest, _dt.timezone.utc).strftime("%Y-%m-%d")
    return pv


def simulated_line(pv: Provenance) -> str:
    """One line (plain text) on what was simulated."""
    parts = [f"{pv.hands:,} hands"] + ([f"{pv.whole_games:,} whole games"] if pv.whole_games else []) \
        + ([f"{pv.deals:,} tonk deals"] if pv.deals else [])
    seeds = ", ".join(map(str, pv.seeds)) or "unknown"
    return (f"Simulated: {len(pv.games)} game{'s' if len(pv.games) != 1 else ''} ({', '.join(pv.games)}), "
            f"{', '.join(parts)}; seed{'s' if len(pv.seeds) > 1 else ''} {seeds}; commit "
            f"{', '.join(pv.commits) or 'unknown'}; stored {pv.stored or 'unknown'}.")
