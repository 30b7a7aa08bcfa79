"""``rummylab serve``: the local web app (Ask, Meld, Watch a hand, Report); :mod:`.app` builds it."""
