"""``rummylab trace``: every game at two player counts gives the event stream of the schema
(analysis/trace_cmd.py), each hand's outcome line is the row ``simulate`` gives for that hand,
the open-melding games show the whole table after every change, the text is the playthrough's,
and bad input is one error line with exit 2."""

import importlib.util
import json
import shlex
from collections import Counter

import pytest

from analysis import store
from analysis.cli import main
from sim.core.cards import parse_card
from sim.runner import make_spec, run_chunk
from sim.variants import available, get_variant
from tests.support import ROOT


_spec = importlib.util.spec_from_file_location("playthroughs", ROOT / "scripts" / "playthroughs.py")
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)

CASES = [(v, n) for v in available() for n in sorted({get_variant(v).min_players, get_variant(v).max_players})]
REQUIRED = {"hand": int, "turn": int, "seat": int, "event": str, "cards": list}
EVENTS = {"start", "deal", "upcard", "draw", "take", "pass", "discard", "knock", "meld", "lay_off", "swap",
          "move", "drop", "restock", "turn_over", "end", "outcome"}
TABLE_EVENTS = {"meld", "lay_off", "swap", "move"}
SEED, HANDS = 5, (3, 12)


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
        assert evs[-2]["turn"] == outcome["outcome"]["turns"]      # the engine's count of turns
        _check_cards(evs)
        if spec.variant.meld_setup is not None:
            _check_open_table(evs)


def _check_cards(evs):
    """Every card a seat plays is in its hand, a take is the pile's top, and at the end the
    hands, the pile, the table and the stock left make the pack."""
    start, row = evs[0], evs[-1]["outcome"]
    hands = {e["seat"]: Counter(e["cards"]) for e in evs if e["event"] == "deal"}
    pile, table = [], []

    def out_of_hand(seat, cards):
        for c in cards:
            assert hands[seat][c] > 0, (seat, c, hands[seat])
            hands[seat][c] -= 1

    for e in evs:
        kind, seat, cards = e["event"], e["seat"], e["cards"]
        if kind == "upcard":
            pile += cards
        elif kind == "draw":
            hands[seat].update(cards)
        elif kind == "take":
            assert pile[-len(cards):] == cards
            del pile[-len(cards):]
            hands[seat].update(cards)
        elif kind == "discard":
            out_of_hand(seat, cards)
            pile += cards
        elif kind in ("meld", "lay_off"):
            out_of_hand(seat, cards)
        elif kind == "swap":
            out_of_hand(seat, cards)
            hands[seat]["X"] += 1
        elif kind == "move":
            out_of_hand(seat, e["fill"])
        elif kind in ("restock", "turn_over"):      # restock keeps the top discard
            assert e["count"] == len(pile) - (kind == "restock")
            pile = pile[-1:] if kind == "restock" else []
        table = e.get("table", table)
    held = sum(hands.values(), Counter()) + Counter(pile) + Counter(c for m in table for c in m)
    assert held <= Counter(start["pack"])
    assert sum(held.values()) + row["stock_left"] == sum(start["pack"].values())


def _check_open_table(evs):
    """Every table change shows the whole table: a new meld is the next row and holds the
    meld's cards, runs low to high with jokers where they stand (each natural at the place its
    rank gives it), and each change is the play it names and nothing else (:func:`_changed`)."""
    table = []
    for e in evs:
        if e["event"] not in TABLE_EVENTS:
            assert "table" not in e
            continue
        new = e["table"]
        assert len(e["owners"]) == len(new) and len(e["kinds"]) == len(new)
        assert all((k == "set") == _is_set(m) for k, m in zip(e["kinds"], new) if len(set(m) - {"X"}) > 1)
        for meld in new:
            _check_meld(meld)
        if e["event"] == "meld":
            assert new[:-1] == table and new[-1] == e["cards"] and e["meld"] == len(table)
        else:
            i = e["meld"]
            assert len(new) == len(table) and new[:i] == table[:i] and new[i + 1:] == table[i + 1:]
            assert _changed(e, table[i], new[i]), (e, table[i])
        table = new


def _is_set(meld) -> bool:
    ranks = [parse_card(c) & 15 for c in meld if c != "X"]
    return len(ranks) > 1 and len(set(ranks)) == 1


def _changed(e, before, after) -> bool:
    """Is ``after`` the meld ``before`` with the play ``e`` made on it?  A lay-off goes at an
    end of a run (a set: anywhere), a swap puts its card where a joker stood, a move puts the
    filling card (if any) where the joker stood and the joker at the end ``to`` names."""
    kind, cards, X = e["event"], e["cards"], ["X"]
    if _is_set(before) or _is_set(after):
        fill = e.get("fill", [])
        return Counter(after) == Counter(before) + Counter(cards + fill) - Counter(X * (kind == "swap"))
    if kind == "lay_off":
        return after in (cards + before, before + cards)
    jokers = [j for j, c in enumerate(before) if c == "X"]
    if kind == "swap":
        return any(after == before[:j] + cards + before[j + 1:] for j in jokers)
    if not e["fill"]:        # a joker at one end goes to the other
        return after == (X + before[:-1] if e["to"] == "low" else before[1:] + X)
    filled = [before[:j] + e["fill"] + before[j + 1:] for j in jokers]
    return any(after == (X + f if e["to"] == "low" else f + X) for f in filled)


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


@pytest.mark.parametrize("variant,n", [("tonk", 3), ("wrotham", 5)])
def test_hand_is_the_row_simulate_stores(variant, n, tmp_path, capsys):
    args = ["--variant", variant, "--players", str(n), "--strategies", _mixed(n), "--rule",
            "restock=shuffle" if variant == "wrotham" else "no_upcard=on", "--seed", "4"]
    assert main(["simulate", *args, "--hands", "12", "--jobs", "1", "--no-progress", "--out", str(tmp_path / "run")]) == 0
    capsys.readouterr()
    _, rows = store.load_run(tmp_path / "run")
    out = _trace(capsys, *args, "--hands", "0..11", "--json")
    got = [json.loads(t)["outcome"] for t in out.splitlines() if '"event":"outcome"' in t]
    assert got == [{c: r[c] for c in got[0]} for r in rows.to_dict("records")]   # the store adds names


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


def test_every_help_example_runs(capsys):
    with pytest.raises(SystemExit):
        main(["trace", "--help"])
    examples = capsys.readouterr().out.split("examples:")[1].strip().splitlines()
    assert len(examples) >= 3
    for line in examples:
        args = shlex.split(line.split(">")[0])
        assert args[:2] == ["rummylab", "trace"]
        assert main(args[1:]) == 0, line
        assert capsys.readouterr().out


@pytest.mark.parametrize("variant,n,rules", [("ramino-klop", 4, ()), ("wildcard", 7, ()), ("cincinnati", 4, ()),
                                             ("ramino-klop", 3, ("set_duplicates=on",))])
def test_wild_arrangement_shown_is_the_engine_search_s(variant, n, rules):
    """The wild games' shown arrangement (placed by the kernel, sim/wild/wild_shown.py) holds
    the melds and deadwood of the Python API's arrangement of the same search
    (sim.wild.wild_melds.min_deadwood), meld by meld; each seat's cards are its hand."""
    from analysis.trace_cmd import trace_stream
    from sim.wild.wild_melds import min_deadwood
    spec = make_spec(variant, rules=list(rules), players=n, strategies="simple", n=40, seed=3)
    packs = int(spec.rules.as_dict().get("packs", 0)) or (2 if n == 7 else 1)      # 0: by the table
    options = {"packs": None if variant == "ramino-klop" else packs,
               "set_duplicates": bool(spec.rules.as_dict().get("set_duplicates", False))}
    seen = 0
    for events in trace_stream(spec, range(40)):
        line = next((e for e in events if "melds" in e), None)
        if line is None:
            continue
        for s in [line] + line["defenders"]:
            hand = [c for m in s["melds"] for c in m] + s["deadwood_cards"]
            arr = min_deadwood(" ".join(hand), variant, **options)
            want = [Counter(_text(m)) for m in arr.melds]
            assert [Counter(m) for m in s["melds"]] == want, (s, arr)
            assert Counter(s["deadwood_cards"]) == Counter(_text(arr.deadwood_cards))
            seen += 1
    assert seen > 20


def _text(codes) -> list[str]:
    from sim.core.cards import card_text
    return [card_text(c) for c in codes]
