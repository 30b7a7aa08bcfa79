"""``rummylab trace``: every game at two player counts gives the event stream of the schema
(analysis/trace_cmd.py), each hand's outcome line is the row ``simulate`` gives for that hand,
the open-melding games show the whole table after every change, the text is the playthrough's,
and bad input is one error line with exit 2."""

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from analysis.cli import main
from sim.cards import parse_card
from sim.runner import make_spec, run_chunk
from sim.variants import available, get_variant

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("playthroughs", ROOT / "scripts" / "playthroughs.py")
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)

CASES = [(v, n) for v in available() for n in sorted({get_variant(v).min_players, get_variant(v).max_players})]
REQUIRED = {"hand": int, "turn": int, "seat": int, "event": str, "cards": list}
EVENTS = {"start", "deal", "upcard", "draw", "take", "pass", "discard", "knock", "meld", "lay_off", "swap",
          "move", "drop", "restock", "turn_over", "end", "outcome"}
TABLE_EVENTS = {"meld", "lay_off", "swap", "move"}
SEED, HANDS = 5, (3, 6)


def _trace(capsys, *args) -> str:
    assert main(["trace", *map(str, args)]) == 0
    return capsys.readouterr().out


def _mixed(n: int) -> str:
    return ",".join(["random"] + ["simple"] * (n - 1))


def _hands(lines: list[dict]) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for e in lines:
        out.setdefault(e["hand"], []).append(e)
    return out


@pytest.mark.parametrize("variant,n", CASES, ids=[f"{v}-{n}p" for v, n in CASES])
def test_json_lines_follow_the_schema_and_end_with_simulates_row(variant, n, capsys):
    out = _trace(capsys, "--variant", variant, "--players", n, "--strategies", _mixed(n), "--seed", SEED,
                 "--hands", f"{HANDS[0]}..{HANDS[1]}", "--json")
    lines = [json.loads(t) for t in out.splitlines()]
    spec = make_spec(variant, players=n, strategies=_mixed(n), n=HANDS[1] + 1, seed=SEED)
    rows = run_chunk(spec, HANDS[0], HANDS[1] + 1)           # what simulate computes, untraced
    hands = _hands(lines)
    assert sorted(hands) == list(range(HANDS[0], HANDS[1] + 1))
    for h, evs in hands.items():
        for e in evs:
            assert all(isinstance(e[k], t) for k, t in REQUIRED.items()), e
            assert e["event"] in EVENTS, e
            for c in e["cards"]:
                parse_card(c)
        start, outcome = evs[0], evs[-1]
        assert start["event"] == "start" and outcome["event"] == "outcome"
        assert start["variant"] == variant and start["players"] == n and start["seed"] == SEED
        assert start["columns"] == list(spec.columns) and start["rules"] == spec.rules.as_dict()
        assert sum(start["pack"].values()) >= sum(len(e["cards"]) for e in evs if e["event"] == "deal")
        assert [e["seat"] for e in evs if e["event"] == "deal"] == list(range(n))
        assert all(e["turn"] == 0 for e in evs if e["event"] in ("start", "deal", "upcard"))
        turns = [e["turn"] for e in evs]
        assert turns == sorted(turns)
        assert outcome["outcome"] == dict(zip(spec.columns, rows[h - HANDS[0]].tolist()))
        assert outcome["outcome_name"] == spec.variant.outcomes[outcome["outcome"]["outcome"]]
        assert [e["event"] for e in evs].count("end") == 1
        if spec.variant.meld_setup is not None:
            _check_open_table(evs)


def _check_open_table(evs):
    """Every table change shows the whole table: a new meld is the next row and holds the
    meld's cards, a lay-off's or swap's card is on its meld, runs low to high with jokers
    where they stand (each natural at the place its rank gives it)."""
    table = []
    for e in evs:
        if e["event"] not in TABLE_EVENTS:
            assert "table" not in e
            continue
        new = e["table"]
        assert len(new) == len(table) + (e["event"] == "meld") and len(e["owners"]) == len(new)
        if e["event"] == "meld":
            assert new[-1] == e["cards"] and e["meld"] == len(table)
        else:
            assert e["cards"] == [] or Counter(e["cards"]) <= Counter(new[e["meld"]])
        for meld in new:
            _check_meld(meld)
        table = new


def _check_meld(meld):
    """A set: one rank, its jokers last; a run: one suit, each natural at the place its rank
    gives it counted from the meld's first natural (jokers fill the other places)."""
    natural = [(i, parse_card(c)) for i, c in enumerate(meld) if c != "X"]
    ranks = {c & 15 for _, c in natural}
    if len(ranks) == 1 and len(natural) > 1:
        assert meld[:len(natural)] == [c for c in meld if c != "X"], meld
        return
    assert len({c >> 4 for _, c in natural}) == 1 and len(ranks) == len(natural), meld
    i0, r0 = natural[0][0], natural[0][1] & 15
    assert all((c & 15) == (r0 + i - i0) % 13 for i, c in natural), meld


def test_hand_is_simulates_hand_beyond_the_first_chunk(capsys):
    out = _trace(capsys, "--variant", "gin", "--seed", 11, "--strategies", "simple,tracker", "--hand", 8195, "--json")
    last = json.loads(out.splitlines()[-1])
    spec = make_spec("gin", strategies="simple,tracker", n=8196, seed=11)
    assert last["outcome"] == dict(zip(spec.columns, run_chunk(spec, 8195, 8196)[0].tolist()))


def test_a_loba_joker_move_names_its_end_and_the_card_in_its_place(capsys):
    out = _trace(capsys, "--variant", "loba", "--players", 4, "--seed", P.SEED, "--hand", P.HAND, "--json")
    moves = [json.loads(t) for t in out.splitlines() if '"event":"move"' in t]
    assert moves and all(m["to"] in ("low", "high") and len(m["fill"]) <= 1 for m in moves)
    assert {len(m["fill"]) for m in moves} == {0, 1}


@pytest.mark.parametrize("name,players", P.cases(), ids=[f"{n}-{p}p" for n, p in P.cases()])
def test_text_is_the_playthrough(name, players, capsys):
    out = _trace(capsys, "--variant", name, "--players", players, "--seed", P.SEED, "--hand", P.HAND)
    recorded = P.path_of(name, players).read_text().splitlines(keepends=True)
    assert out == "".join(line for line in recorded if not line.startswith("# regenerate:"))


@pytest.mark.parametrize("args,needle", [
    (["--variant", "nope", "--hand", "0"], "unknown variant 'nope'"),
    (["--hand", "1000000000000"], "--hand must be at most"),
    (["--hand", "-1"], "--hand must be >= 0"),
    (["--hands", "5..3"], "expected 0 <= A <= B"),
    (["--hands", "a..b"], "a range of hand numbers"),
    (["--hands", "7"], "a range of hand numbers"),
    (["--hands", "0..100000"], "at most 100,000 hands"),
    (["--hands", "0..1000000000000"], "hand numbers go up to"),
    (["--hand", "1", "--hands", "0..2"], "not allowed with argument"),
    ([], "one of the arguments --hand --hands is required"),
    (["--hand", "0", "--variant", "tonk", "--players", "9"], "players=9 is out of range"),
    (["--hand", "0", "--strategies", "bogus"], "unknown strategy 'bogus'"),
    (["--hand", "0", "--rule", "nosuch=1"], "unknown rule 'nosuch'"),
    (["--hand", "0", "--seed", "x"], "--seed takes a whole number"),
])
def test_bad_input_is_one_error_line_and_exit_2(args, needle, capsys):
    try:
        code = main(["trace", *args])
    except SystemExit as e:   # argparse
        code = e.code
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert code == 2 and cap.out == ""
    assert len(err) == 1 and err[0].startswith("rummylab: error: ") and needle in err[0], err


def test_help_has_examples(capsys):
    with pytest.raises(SystemExit):
        main(["trace", "--help"])
    assert "examples:" in capsys.readouterr().out
