"""A tuning run as text (``rummylab tune``'s output; its JSON without the per-trial history):
the search, the finalists re-played on fresh deals (:mod:`.tune_final`) and the winner."""

from __future__ import annotations

from .. import json_text
from .tune_final import winner
from .tune_spec import OBJECTIVES

STOPPED = {"budget": "the budget is spent", "trials": "the trial limit is reached"}


def tune_dict(doc: dict) -> dict:
    """The JSON output: the stored run without its per-trial history (kept in tune.json)."""
    keys = ("kind", "spec", "complete", "stopped", "seeds", "finalists", "winner", "method", "hands_search",
            "seconds", "git")
    return {**{k: doc[k] for k in keys if k in doc}, "trials": len(doc["trials"]),
            "winner_spec": winner(doc)["spec"] if doc["finalists"] else None}


def _e(x: dict, d: int = 3) -> str:
    return f"{x['edge']:+.{d}f} [{x['lo']:+.{d}f}, {x['hi']:+.{d}f}]"


def format_tune(doc: dict, as_json: bool = False) -> str:
    if as_json:
        return json_text.dumps(tune_dict(doc))
    sp = doc["spec"]
    states = [t["state"] for t in doc["trials"]]
    rungs = ", ".join(f"{sp['min_hands'] * 3 ** r:,}" for r in range(sp["rungs"]))
    out = [f"tuning {sp['family']} for {sp['variant']} ({sp['players']} players) against "
           f"{', '.join(sp['field'])}; seed {sp['seed']}; objective: {OBJECTIVES[sp.get('objective', 'mean')]}",
           f"search: {len(states)} candidates ({states.count('COMPLETE')} reached the last rung, "
           f"{states.count('PRUNED')} stopped early), {doc['hands_search']:,} of {sp['budget']:,} hands "
           f"(rungs of {rungs} duplicate "
           f"hands, seed {doc['seeds']['search'][0]}); {STOPPED[doc['stopped']]}",
           f"finalists re-played on {sp['final_hands']:,} fresh duplicate hands (seed {doc['seeds']['final'][0]}), "
           f"edge per hand against each member (95% CI; simultaneous)", ""]
    w = doc["winner"]
    for j, row in enumerate(doc["finalists"]):
        mark = "winner " if j == w else "       "
        out.append(f"{mark}trial {row['number']}: {row['spec']}")
        out.append(f"         search estimate {row['search_value']:+.3f} ({row['search_hands']:,} hands); "
                   f"mean over the field {_e(row['mean'])}")
        for x in row["edges"]:
            out.append(f"         vs {x['opponent']:<20} {_e(x)}  simultaneous [{x['sim_lo']:+.3f}, "
                       f"{x['sim_hi']:+.3f}]  n={x['n']:,}")
        for x in row.get("gains", ()):
            out.append(f"         gain over {sp['base']} vs {x['opponent']:<10} {_e(x)}")
        if "worst_gain" in row:
            out.append(f"         worst gain over {sp['base']} (the objective) {_e(row['worst_gain'])}")
    out.append(f"  {doc['method']}")
    return "\n".join(out)
