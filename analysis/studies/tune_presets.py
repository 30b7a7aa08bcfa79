"""Tuned presets are data: writing a tuning run's winner into the presets file
(``sim/strategies/tuned_presets.json``, read by :mod:`sim.strategies`) with its provenance,
and showing them in ``rummylab strategies``.

The engine (``sim``) only reads the file, with the standard library, when the strategy families
load; the analysis layer writes it.  So a tuned preset is a preset like any other in every
command and in plain ``sim.runner.play_hands``, and ``sim`` never imports ``analysis``.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

from sim.strategies import (FAMILIES, PRESETS, TUNED, TUNED_FILE, TUNED_VERSION, _load_families, check_tuned, preset_at,
                            read_tuned)

from ..errors import TuneError
from ..store import atomic_write
from .tune_final import winner

NAME = re.compile(r"^[a-z][a-z0-9-]*$")


def preset_entry(doc: dict, name: str, command: str) -> dict:
    """The presets-file entry of a complete tuning run's winner."""
    sp = doc["spec"]
    w = winner(doc)
    fam = FAMILIES[sp["family"]]
    base = preset_at(sp["variant"], sp["base"], sp["players"])[1]
    values = {p.name: float(p.default) for p in fam.params}
    values.update(base)
    values.update({k: float(v) for k, v in w["params"].items()})
    return {"name": name, "variant": sp["variant"], "players": sp["players"], "family": sp["family"],
            "params": values,
            "provenance": {"command": command, "commit": doc.get("git"), "seed": sp["seed"],
                           "final_seed": doc["seeds"]["final"][0], "hands_search": doc["hands_search"],
                           "hands_final": sp["final_hands"], "trial": w["number"], "field": list(sp["field"]),
                           "edges": [{k: x[k] for k in ("opponent", "edge", "lo", "hi", "n")} for x in w["edges"]],
                           **({"objective": sp["objective"], "base": sp["base"], "gains": w["gains"]}
                              if "gains" in w else {}),
                           "saved": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}}


def check_name(name: str, variant: str, family: str, stands_for: str | None = None) -> None:
    """A new tuned preset's name: lower-case words, not a hand-picked preset or a family; the
    preset it stands for (if any) one of the variant's."""
    _load_families()
    if stands_for is not None and (variant, stands_for) not in PRESETS:
        raise TuneError(f"--stands-for {stands_for!r}: {variant} has no such preset")
    if not NAME.match(name):
        raise TuneError(f"--save-preset {name!r}: write lower-case letters, digits and '-', e.g. tuned-small")
    fam = FAMILIES[family]
    if name in FAMILIES or (name in fam.presets_for(variant) and (variant, name) not in TUNED):
        raise TuneError(f"--save-preset {name!r} is a hand-picked preset or a family of {variant}; tuned presets "
                        "do not replace those from the command line: choose another name")


def save_preset(doc: dict, name: str, command: str, path=TUNED_FILE, stands_for: str | None = None) -> dict:
    """Write (or update) the entry ``name`` for the run's variant in the presets file; with
    ``stands_for``, the preset stands for that one at the run's player count (added to the
    counts an earlier entry of the name stood for)."""
    sp = doc["spec"]
    check_name(name, sp["variant"], sp["family"], stands_for)
    entry = preset_entry(doc, name, command)
    if stands_for:
        old = next((e for e in read_tuned(path)["presets"]
                    if (e.get("variant"), e.get("name"), e.get("stands_for")) == (sp["variant"], name, stands_for)), {})
        entry.update(stands_for=stands_for, at_players=sorted({*old.get("at_players", ()), sp["players"]}))
    check_tuned(entry)
    file = read_tuned(path)
    presets = [e for e in file["presets"] if (e.get("variant"), e.get("name")) != (sp["variant"], name)]
    presets.append(entry)
    presets.sort(key=lambda e: (e["variant"], e["name"]))
    atomic_write(Path(path), (json.dumps({"version": TUNED_VERSION, "presets": presets}, indent=2) + "\n").encode(),
                 mode=0o644)
    return entry


def tuned_lines(variant: str, family: str) -> list[str]:
    """``rummylab strategies`` lines for the tuned presets of ``family`` in ``variant``."""
    out = []
    for (v, name), e in sorted(TUNED.items()):
        if v != variant or e["family"] != family:
            continue
        fam = FAMILIES[family]
        changed = {k: x for k, x in e["params"].items() if x != fam.params[fam.index(k)].default}
        pv = e.get("provenance", {})
        out.append(f"    {name:<18} tuned: " + (", ".join(f"{k}={x:g}" for k, x in changed.items()) or "all defaults"))
        out.append(f"      {e.get('players')} players; seed {pv.get('seed')}, {pv.get('hands_search', 0):,} search + "
                   f"{pv.get('hands_final', 0):,} fresh hands; commit {pv.get('commit')}")
        for x in pv.get("edges", []):
            out.append(f"      edge vs {x['opponent']}: {x['edge']:+.3f} [{x['lo']:+.3f}, {x['hi']:+.3f}] "
                       f"per hand, n={x['n']:,}")
        for x in pv.get("gains", []):
            out.append(f"      gain over {pv['base']} vs {x['opponent']}: {x['edge']:+.3f} [{x['lo']:+.3f}, "
                       f"{x['hi']:+.3f}] per hand (the objective: the least of these)")
        if "stands_for" in e:
            out.append(f"      stands for {e['stands_for']} at {', '.join(map(str, e['at_players']))} players")
        out.append(f"      command: {pv.get('command')}")
    return out
