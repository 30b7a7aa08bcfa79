"""Suite-wide guard: no test writes the repository's tuned presets file.

``rummylab tune --save-preset`` writes ``sim.strategies.TUNED_FILE`` unless given
``--presets-file``; here that default points into each test's own temporary folder (reading
the repository's file, as every preset lookup does, is unchanged)."""

import pytest

import sim.strategies as S


@pytest.fixture(autouse=True)
def _presets_file_out_of_the_repository(tmp_path_factory, monkeypatch):
    monkeypatch.setattr(S, "TUNED_FILE", tmp_path_factory.getbasetemp() / "tuned_presets.json")
