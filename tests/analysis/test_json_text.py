"""Every ``--json`` answer is strict JSON: an unbounded interval is ``null``, never ``Infinity``."""

import json
import math

import numpy as np
import pytest

from analysis import json_text
from analysis.cli import main


def strict_loads(text: str):
    def refuse(name):
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def test_non_finite_floats_become_null():
    doc = {"ci95": (-math.inf, math.inf), "value": np.float64("nan"), "n": np.int64(7),
           "ok": np.bool_(True), "rows": np.array([1.5, np.inf])}
    assert strict_loads(json_text.dumps(doc)) == {"ci95": [None, None], "value": None, "n": 7,
                                                  "ok": True, "rows": [1.5, None]}
    assert "\n" not in json_text.dumps(doc, compact=True)


def test_unknown_objects_are_refused():
    with pytest.raises(TypeError):
        json_text.dumps({"x": object()})


def test_knock_advice_with_few_worlds_is_strict_json(capsys):
    # fewer than 20 differing worlds: the difference's interval has no bounds (no call)
    main(["knock", "--variant", "gin", "--hand", "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C", "--turn", "3",
          "--worlds", "10", "--json"])
    doc = strict_loads(capsys.readouterr().out)
    assert doc["ev_knock"]["n"] == 10
    assert None in doc["diff"]["ci95"]
