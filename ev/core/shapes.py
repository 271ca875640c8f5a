"""The shapes of play: the player's hand graph and the dealer's terminal hands (pure combinatorics).

Both are pure combinatorics of the rules (no probabilities), built once per
rule set in Python and handed to the core as flat integer lists.

*Hand graph*: every multiset of ranks with hard total <= 21 that the shoe can
hold, the empty hand included, with ``next[s][r]`` the hand after adding rank
``r`` (-1 when that busts or the shoe holds no such card).

*Dealer terminal hands*: for an up card, each multiset ``M`` of cards the dealer
can draw (hole card first) to finish, with the number of drawing orders that
reach it and stop exactly there.  Then
``P(M | deck) = orders(M) * prod_r ff(deck[r], M[r]) / ff(|deck|, |M|)``, where
``ff`` is the falling factorial: integers until one division, which the exact
mode uses too.
"""
from __future__ import annotations

from collections import defaultdict
from functools import cache

from ev.core.actions import BLACKJACK_OUTCOME, BUST_OUTCOME
from ev.core.cards import N_RANKS, hand_total


@cache
def hand_graph(caps: tuple) -> dict:
    """All hands with hard total <= 21 within ``caps`` (counts per rank), ordered by number of cards."""
    hands: list[tuple] = []

    def rec(r: int, cur: list, hard: int) -> None:
        if r == N_RANKS:
            hands.append(tuple(cur))
            return
        k = 0
        while k <= caps[r] and hard + k * (r + 1) <= 21:
            cur.append(k)
            rec(r + 1, cur, hard + k * (r + 1))
            cur.pop()
            k += 1

    rec(0, [], 0)
    hands.sort(key=lambda h: (sum(h), h))
    index = {h: i for i, h in enumerate(hands)}
    nxt = []
    for h in hands:
        for r in range(N_RANKS):
            g = h[:r] + (h[r] + 1,) + h[r + 1:]
            nxt.append(index.get(g, -1))
    totals = [hand_total(h) for h in hands]
    return {
        "hands": hands,
        "index": index,
        "counts": [c for h in hands for c in h],
        "next": nxt,
        "total": [t for t, _ in totals],
        "soft": [int(s) for _, s in totals],
        "ncards": [sum(h) for h in hands],
    }


@cache
def dealer_terminals(up: int, hit_soft_17: bool, exclude_hole: int, caps: tuple) -> list[tuple]:
    """(drawn multiset, number of orders, outcome index) for every way the dealer can finish.

    ``exclude_hole`` is a rank the hole card cannot be (the peek), or -1.
    ``caps`` bounds the count of each rank (the shoe less the up card).
    """
    frontier = {(0,) * N_RANKS: 1}
    terminal: dict = defaultdict(int)
    while frontier:
        grown: dict = defaultdict(int)
        for drawn, ways in frontier.items():
            first = sum(drawn) == 0
            for r in range(N_RANKS):
                if drawn[r] >= caps[r] or (first and r == exclude_hole):
                    continue
                m = drawn[:r] + (drawn[r] + 1,) + drawn[r + 1:]
                hand = m[:up] + (m[up] + 1,) + m[up + 1:]
                total, soft = hand_total(hand)
                if first and total == 21:
                    terminal[(m, BLACKJACK_OUTCOME)] += ways
                elif total > 21:
                    terminal[(m, BUST_OUTCOME)] += ways
                elif total > 17 or (total == 17 and not (soft and hit_soft_17)):
                    terminal[(m, total - 17)] += ways
                else:
                    grown[m] += ways
        frontier = grown
    return sorted((m, w, o) for (m, o), w in terminal.items())
