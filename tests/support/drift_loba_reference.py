"""Pure-Python settlement of a Ramino Drift or Loba hand, written from rules/ramino.md (Drift),
rules/loba.md and seed 000, independent of the kernels: given the cards each seat holds at the
end and who went out (and how), the hand row's scores, deadwood and winner.
"""

from __future__ import annotations

JOKER = 13


def card_points(code: int, game: str, joker_penalty: int = 25) -> int:
    """Penalty points of one card left in hand."""
    if code == JOKER:
        return 20 if game == "drift" else joker_penalty
    rank = code & 15                      # 0 = ace .. 12 = king
    if rank == 0:
        return 1 if game == "drift" else 10
    return rank + 1 if rank < 10 else 10


def hand_points(codes, game: str, joker_penalty: int = 25) -> int:
    """Penalty points of a hand given as a list of card codes."""
    return sum(card_points(int(c), game, joker_penalty) for c in codes)


def codes_of(counts) -> list[int]:
    """The card codes of a count vector (int[64])."""
    return [c for c in range(64) for _ in range(int(counts[c]))]


def settle(hands: dict[int, list[int]], out_seat: int, n_seats: int, game: str, *, at_once: bool = False,
           joker_penalty: int = 25, at_once_bonus: int = 10) -> dict[str, int]:
    """The row fields ``score{s}``, ``deadwood{s}`` and ``winner`` of a hand.

    ``hands``: seat in play -> the codes it holds at the end; ``out_seat``: the seat that went
    out (-1: nobody, a void hand: no scores).  Drift: the seat out scores 0, the others minus
    their points.  Loba: the same, and the seat out scores +``at_once_bonus`` (its total drops)
    when it laid its whole hand down at once.  Seats not in play score 0 with deadwood 0."""
    row = {"winner": out_seat}
    for s in range(n_seats):
        pts = hand_points(hands[s], game, joker_penalty) if s in hands else 0
        row[f"deadwood{s}"] = pts
        if out_seat < 0 or s not in hands:
            row[f"score{s}"] = 0
        elif s == out_seat:
            if pts != 0:
                raise ValueError("the seat out holds cards")
            row[f"score{s}"] = at_once_bonus if (game == "loba" and at_once) else 0
        else:
            row[f"score{s}"] = -pts
    return row


def _run_fits(positions: list[int], jokers: int, lo_pos: int, hi_pos: int, min_len: int) -> bool:
    """Can distinct ``positions`` plus ``jokers`` jokers form one consecutive run with every
    position in ``lo_pos..hi_pos`` and at least ``min_len`` cards?"""
    if len(set(positions)) != len(positions) or not positions:
        return False
    lo, hi = min(positions), max(positions)
    if lo < lo_pos or hi > hi_pos:
        return False
    gaps = (hi - lo + 1) - len(positions)
    if gaps > jokers:
        return False
    length = len(positions) + jokers
    # the spare jokers extend the run at either end within lo_pos..hi_pos
    return length >= min_len and length <= hi_pos - lo_pos + 1


def legal_meld(codes: list[int], game: str) -> bool:
    """Is ``codes`` one legal meld on the table of ``game`` ("drift" or "loba")?  From the rules
    text: Drift sets of 3-4 cards of one rank in distinct suits (jokers stand for missing
    suits), runs of 3+ in one suit, aces low, jokers anywhere; every meld has a natural card.
    Loba piernas of 3-6 cards of one rank in exactly three suits, no jokers; escaleras of 4+ in
    one suit, ace low or high (not both), at most two jokers, never standing below the ace or
    above the king (the seed's limit on moving them, read as where a joker may stand)."""
    jokers = sum(1 for c in codes if c == JOKER)
    nat = [c for c in codes if c != JOKER]
    if not nat:
        return False
    ranks = {c & 15 for c in nat}
    suits = [c >> 4 for c in nat]
    if game == "drift":
        if len(codes) < 3:
            return False
        if len(ranks) == 1 and len(set(suits)) == len(suits) and len(codes) <= 4:
            return True
        if len(set(suits)) != 1:
            return False
        return _run_fits([c & 15 for c in nat], jokers, 0, 12, 3)
    if len(ranks) == 1 and jokers == 0 and 3 <= len(codes) <= 6 and len(set(suits)) == 3:
        return True                                   # a pierna
    if len(set(suits)) != 1 or jokers > 2 or len(codes) < 4:
        return False
    pos = [c & 15 for c in nat]
    if _run_fits(pos, jokers, 0, 12, 4):              # ace low
        return True
    # ace high: a natural ace at the top (a joker never stands above the king)
    return 0 in pos and _run_fits([13 if p == 0 else p for p in pos], jokers, 1, 13, 4)


# ---------------------------------------------------------------------------- replaying traces

def replay_hand(evs, restock: str = "turn_over"):
    """Replay a traced Drift or Loba hand with :func:`tests.open_replay.replay` (which checks
    the draws, the pile and every card laid down), after translating what it does not know:
    a Loba pierna holding two copies of a card (the trace's mask names each suit once: the
    second copies become lay-offs onto the new meld, of the suits the seat holds twice), and
    a Loba joker move (the hand's card filling the joker's old place: a lay-off onto that
    meld; a move without one changes no card).  Returns ``(replay, ambiguous)``: the number
    of piernas where the seat held more doubled suits than the meld took (the replay then
    takes the lowest suits; a wrong guess fails a later check)."""
    from tests.support.open_replay import SPREAD_CARDS, replay
    out, ambiguous = [], 0
    for kind, seat, a, b in evs:
        if kind == "move":
            if a >= 0:
                out.append(("hit", seat, a, b))
            continue
        if kind != "spread":
            out.append((kind, seat, a, b))
            continue
        n_cards, n_jokers = divmod(b, SPREAD_CARDS)
        naturals = [c for c in range(64) if (a >> c) & 1 and c != JOKER]
        surplus = n_cards - len(naturals) - n_jokers
        if surplus == 0:
            out.append((kind, seat, a, b))
            continue
        now = replay(out, restock)
        hand = now.hands[seat]
        doubled = [c for c in naturals if hand.count(c) >= 2]
        ambiguous += len(doubled) > surplus
        out.append((kind, seat, a, SPREAD_CARDS * (len(naturals) + n_jokers) + n_jokers))
        out += [("hit", seat, c, len(now.table)) for c in doubled[:surplus]]
    return replay(out, restock), ambiguous


def restock_of(rules) -> str:
    """How a run with the rule options ``rules`` (NAME=VALUE texts) restocks."""
    return "shuffle" if "restock_shuffle=on" in rules else "turn_over"


def replayed_hands(variant: str, players: int, strategies: str, rules: list, *, hands: int, seed: int):
    """Hands ``0..hands-1`` of ``variant`` ("ramino-drift" or "loba") traced and replayed
    (:func:`replay_hand`), every meld left on the table checked legal by :func:`legal_meld`:
    yields ``(hand, row, evs, spec, replay)``."""
    from tests.support.open_replay import traced_hand
    game = "loba" if variant == "loba" else "drift"
    for h in range(hands):
        row, evs, spec = traced_hand(variant, players, h, seed=seed, strategies=strategies, rules=rules)
        r, _ = replay_hand(evs, restock_of(rules))
        for meld in r.table:
            assert legal_meld(meld, game), (h, meld)
        yield h, row, evs, spec, r


def is_set(meld: list[int]) -> bool:
    """A meld on the table is a set (one rank among its natural cards) unless it is a run."""
    nat = [c for c in meld if c != JOKER]
    return len({c & 15 for c in nat}) == 1 and len({c >> 4 for c in nat}) > 1


def turn_checks(evs, game: str) -> list[str]:
    """Rule breaches visible in the events of one hand (empty: none).  Drift: a lay-off onto a
    run before the seat's own first meld; a swapped joker not used again in the same turn.
    Loba: a pile top taken and not laid down in a new meld that turn; a joker discarded while
    the hand goes on (event index given: allowed only from a hand of jokers alone, which the
    caller checks); a joker swap (never allowed)."""
    bad, melded, table = [], set(), []
    turn: dict = {}

    def new_turn(seat):
        turn.clear()
        turn.update(seat=seat, swaps=0, jokers_out=0, taken=None, taken_melded=False)

    from tests.support.open_replay import SPREAD_CARDS
    joker_gone = False
    for i, (kind, seat, a, b) in enumerate(evs):
        if joker_gone and kind != "end":
            bad.append(f"a joker discarded without ending the hand: event {i - 1}")
        joker_gone = game == "loba" and kind == "discard" and a == JOKER
        if kind in ("draw_stock", "take_pile"):
            new_turn(seat)
            if kind == "take_pile":
                turn["taken"] = a
        elif kind == "spread":
            melded.add(seat)
            n_cards, n_jokers = divmod(b, SPREAD_CARDS)
            nat = [c for c in range(64) if (a >> c) & 1 and c != JOKER]
            table.append(nat + [JOKER] * n_jokers)
            turn["jokers_out"] = turn.get("jokers_out", 0) + n_jokers
            if turn.get("taken") in nat:
                turn["taken_melded"] = True
        elif kind == "hit":
            if game == "drift" and seat not in melded and not is_set(table[b]):
                bad.append(f"seat {seat} laid {a} off onto the run {table[b]} before its own meld")
            table[b].append(a)
            turn["jokers_out"] = turn.get("jokers_out", 0) + (a == JOKER)
        elif kind == "swap":
            if game == "loba":
                bad.append("a joker swap in Loba")
            table[b].remove(JOKER)
            table[b].append(a)
            turn["swaps"] = turn.get("swaps", 0) + 1
        elif kind in ("discard", "end"):
            if turn.get("swaps", 0) > turn.get("jokers_out", 0):
                bad.append(f"seat {seat} kept a swapped joker")
            if game == "loba" and turn.get("taken") is not None and not turn.get("taken_melded"):
                bad.append(f"seat {seat} took {turn['taken']} and did not meld it")
            turn.update(swaps=0, jokers_out=0, taken=None)
    return bad
