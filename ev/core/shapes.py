"""The shapes of play: the player's hand graph and the dealer's terminal hands (pure combinatorics).

Both are pure combinatorics of the rules (no probabilities), enumerated once
per rule set (in C: ``ext/ev/core/_shapes.pyx``) and handed to the solvers as
flat integer lists.

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

from functools import cache

import ev.core._shapes as _shapes
from ev.core.cards import N_RANKS


@cache
def hand_graph(caps: tuple) -> dict:
    """All hands with hard total <= 21 within ``caps`` (counts per rank), ordered by number of cards.

    A dict of lists indexed by state: ``hands`` (rank-count tuples, the empty
    hand first), ``index`` (tuple -> state), ``counts`` (flat), ``next``
    (flat ``state * 10 + rank`` -> the state after drawing that rank, -1 when
    it busts or the shoe holds no more of it), ``total`` (best total), ``soft``,
    ``ncards``.  Within one number of cards, hands are in the order of their
    tuples.
    """
    return _shapes.hand_graph(tuple(caps))


def next_rows(graph: dict) -> list[tuple]:
    """The graph's ``next`` as one tuple of 10 states per state (made once per graph and kept in it)."""
    rows = graph.get("next_rows")
    if rows is None:
        flat, width = graph["next"], N_RANKS
        rows = graph["next_rows"] = [tuple(flat[s * width:(s + 1) * width]) for s in range(len(graph["hands"]))]
    return rows


@cache
def dealer_terminals(up: int, hit_soft_17: bool, exclude_hole: int, caps: tuple) -> list[tuple]:
    """(drawn multiset, number of orders, outcome index) for every way the dealer can finish, by multiset.

    ``exclude_hole`` is a rank the hole card cannot be (the peek), or -1.
    ``caps`` bounds the count of each rank (the shoe less the up card).  The
    hole card is the first card drawn; a two-card 21 is a blackjack (outcome
    6), a total over 21 a bust (5), otherwise the outcome is the total less 17.
    """
    return _shapes.dealer_terminals(up, hit_soft_17, exclude_hole, tuple(caps))
