"""Every registered game has a recorded playthrough (tests/crosscut/playthroughs/, written by
scripts/playthroughs.py) and plays it exactly the same way today."""

import importlib.util

import pytest

from tests.support import ROOT


_spec = importlib.util.spec_from_file_location("playthroughs", ROOT / "scripts" / "playthroughs.py")
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)


@pytest.mark.parametrize("name,players", P.cases(), ids=[f"{n}-{p}p" for n, p in P.cases()])
def test_playthrough_is_unchanged(name, players):
    path = P.path_of(name, players)
    assert path.exists(), f"no playthrough for {name} with {players} players: run scripts/playthroughs.py"
    assert P.playthrough(name, players) == path.read_text(), (
        f"{path.name} changed: if the change is meant, run scripts/playthroughs.py and commit the diff")


def test_playthroughs_show_a_whole_hand():
    for name, players in P.cases():
        text = P.path_of(name, players).read_text()
        assert "is dealt" in text and "hand ends:" in text and "outcome row:" in text
