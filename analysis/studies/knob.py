"""How shared analysis reads a game's :class:`sim.variants.Knob` (the decision a sweep varies)
and its whole-game kind (what a games stage plays and what winning one means),
never asking which game it is: the direction of the threshold, its words, its legal range and
what a cell of the chart covers.

* ``compare == "le"`` (the default): the player acts when its hand value is *at or below* the
  threshold d (Gin knocks at deadwood <= d).  Raising d from prev to d adds the values
  prev+1..d: arm d minus arm prev is the margin of acting there.
* ``compare == "ge"``: the player acts when the value is *at or above* d (go out only with melds
  worth at least d).  Raising d from prev to d *removes* the values prev..d-1: arm prev minus
  arm d is the margin of acting there.
* ``limit_rule`` caps the legal thresholds at the rule's value plus ``limit_offset`` (an
  exclusive rule such as "knock with less than 7" has offset -1: thresholds up to 6).
"""

from __future__ import annotations

from sim.variants import Knob, Variant

SYMBOL = {"le": ("<=", "≤"), "ge": (">=", "≥")}


def compare(knob: Knob) -> str:
    """'le' (acts at or below its threshold, the default) or 'ge' (at or above)."""
    c = knob.compare
    if c not in SYMBOL:
        raise ValueError(f"Knob.compare must be 'le' or 'ge', not {c!r}")
    return c


def symbol(knob: Knob, html: bool = False) -> str:
    """'<=' / '>=' (``html``: '≤' / '≥')."""
    return SYMBOL[compare(knob)][int(html)]


def value_word(game: Variant) -> str:
    """What the threshold is compared with: what is left in hand (``hand_word``) for a knob
    acting at or below it; for one acting at or above it, the value of the melds the player
    would go out with (the contract's meaning of 'ge')."""
    return game.hand_word if compare(game.knob) == "le" else "meld value"


def acts_at(game: Variant, t, html: bool = False) -> str:
    """The threshold in words: 'knock at deadwood <= 6', 'go out at meld value >= 30'."""
    return f"{game.knob.action} at {when(game, t, html)}"


def is_zero(t) -> bool:
    """Threshold 0 (not the placeholder 'd' of a label)?"""
    return not isinstance(t, str) and t == 0


def advice(game: Variant, t, html: bool = False) -> str:
    """What to do at threshold ``t`` in a player's words: 'knock at deadwood ≤ 6'; at 0 an
    ``le`` knob acts only with nothing left in hand: the game's words (``Knob.at_zero``, Gin's
    'go for gin; never knock'), else 'drop only with a count of 0'; a ``ge`` knob at 0 acts
    with any melds: 'go out as soon as you can'.  The terminal and the report both word their
    answers with it."""
    if not is_zero(t):
        return acts_at(game, t, html)
    knob = game.knob
    if compare(knob) == "ge":
        return f"{knob.action} as soon as you can"
    return knob.at_zero or f"{knob.action} only with a {game.hand_word} of 0"


def all_hand(game: Variant, t, html: bool = False) -> str:
    """One threshold the whole hand long: 'knock at deadwood ≤ 6 all hand'; at 0 the words of
    :func:`advice` alone ('go for gin; never knock')."""
    return advice(game, t, html) if is_zero(t) else f"{acts_at(game, t, html)} all hand"


def when(game: Variant, t, html: bool = False) -> str:
    """The condition alone: 'deadwood <= 6'."""
    return f"{value_word(game)} {symbol(game.knob, html)} {t}"


def axis_label(game: Variant, html: bool = True) -> str:
    """A sweep chart's x label: 'threshold d: seat 0 may knock at deadwood ≤ d'."""
    return f"threshold d: seat 0 may {game.knob.action} at {when(game, 'd', html)}"


def margin_sign(knob: Knob) -> int:
    """Arm d minus arm prev (prev < d) is ``margin_sign`` times the margin of acting on the
    values the two arms differ on (+1 for 'le', -1 for 'ge')."""
    return 1 if compare(knob) == "le" else -1


def cell_range(knob: Knob, threshold: int, prev: int) -> tuple[int, int]:
    """The values (inclusive) on which the arms prev < threshold act differently: prev+1..d
    ('le') or prev..d-1 ('ge')."""
    return (prev + 1, threshold) if compare(knob) == "le" else (prev, threshold - 1)


def range_label(a: int, b: int) -> str:
    """'5' for one value, '1-2' for a range."""
    return str(a) if a == b else f"{a}-{b}"


def legal_range(knob: Knob, param, rules) -> tuple[int, int, str]:
    """The thresholds that mean something: the strategy parameter's bounds (not below 0) and,
    where the rules cap a legal act, at most that cap plus ``limit_offset``; with the reason of
    the upper end ('' or ' (rule knock_below=7)')."""
    lo, hi = max(int(param.lo), 0), int(param.hi)
    why = ""
    if knob.limit_rule is not None:
        limit = int(getattr(rules, knob.limit_rule))
        offset = int(knob.limit_offset)
        if limit + offset < hi:
            hi = limit + offset
            why = f" (rule {knob.limit_rule}={limit})"
    return lo, hi, why


# whole games (Variant.game) in words: what a games stage plays and what winning one means
GAME_WORDS = {   # kind: (what a games stage plays, a heading, what winning means)
    "target": ("whole games to the target score", "Games won to the target score",
               "won: the highest total when someone reaches {limit}"),
    "elimination": ("whole elimination games", "Games won: the last player left",
                    "won: the last player left; a player is out at {limit} penalty points"),
    "deals": ("whole games of a fixed number of deals", "Games won over a fixed number of deals",
              "won: the best total after {limit} deals"),
}


def games_heading(game: Variant) -> str:
    """'Games won to the target score' / 'Games won: the last player left' / ..."""
    return GAME_WORDS[game.game.kind][1]


def games_phrase(game: Variant) -> str:
    """'whole games to the target score' / 'whole elimination games' / ..."""
    return GAME_WORDS[game.game.kind][0]


def won_phrase(game: Variant, rules=None) -> str:
    """What winning a whole game means, with the rule's value when ``rules`` are given."""
    limit = game.game.limit_rule
    if rules is not None:
        limit = f"{limit}={getattr(rules, limit)}"
    return GAME_WORDS[game.game.kind][2].format(limit=limit)
