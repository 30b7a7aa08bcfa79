"""Hand-picked Gin hands and their exact minimum deadwood (one pack, ace low, worked out by
hand), shared by the kernel's tests (test_melds) and the naive reference's (test_naive)."""

DEADWOOD_CASES = [
    ("", 0),
    ("KS", 10),
    ("AS 2H", 3),
    ("AS 2S 3S", 0),
    # 4S can be used once.  The brief suggested "AS 2S 3S 4S 4H 4D" -> 4, but there
    # A-2-3 + 4-4-4 melds everything (0).  Without the ace: the run 2-3-4S leaves 4H 4D
    # (8), the set 4-4-4 leaves 2S 3S (5).
    ("AS 2S 3S 4S 4H 4D", 0),
    ("2S 3S 4S 4H 4D", 5),
    # greedy "longest run first": 4-5-6-7S leaves 7H 7D (14); 4-5-6 + 7-7-7 melds all
    ("4S 5S 6S 7S 7H 7D", 0),
    # greedy "biggest set first": the 4-set leaves 8C 9C (17); 7-7-7 + 7-8-9C melds all
    ("7S 7H 7D 7C 8C 9C", 0),
    # all-melded 10-card gin hands; the second defeats "longest run first" (3-8S leaves 22)
    ("AS 2S 3S 4S 5H 5D 5C KH KD KC", 0),
    ("3S 4S 5S 6S 7S 8S 3H 3D 8H 8D", 0),
    # run 9-T-J beats the set of 9s (dead 9H 9D = 18 vs TS JS = 20)
    ("9S 9H 9D TS JS", 18),
    ("QS KS AS", 21),  # ace low in Gin
    ("KS AS 2S", 13),
    ("TS JS QS KS 2H 3H 4D", 9),
    # 13 cards, a full suit: one 13-card run
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", 0),
    # 13 cards, no meld possible
    ("AS 3S 5S 7S 9S JS KS 2H 4H 6H 8H TH QH", 1 + 3 + 5 + 7 + 9 + 10 + 10 + 2 + 4 + 6 + 8 + 10 + 10),
]
