"""Full strategy disclosure: every hand, of any number of cards, where optimal play leaves the chart.

The optimal RTP is earned by optimal composition-dependent play; a lab wants every
decision where that play differs from the basic-strategy chart.  Two-card hands
(doubles, splits and surrender included) come from
:func:`ev.analysis.basic_strategy.find_exceptions`; hands of three or more cards
are found by a forward pass over the hand graph under optimal play: every unsplit
hand optimal play reaches (by hitting) whose optimal action (stand or hit) is not
the chart's.  Hands made by a split are played, under CDZ-, as the same unsplit
hand is, so the list covers them too.

``gain``: EV(optimal action) − EV(chart action) per hand, optimal play afterwards,
conditioned on no dealer blackjack where it is settled before play (initial bets).
``round_gain``: the same weighted by the probability that a round reaches the hand
under optimal play (what the exception adds to the round EV).
"""
from __future__ import annotations

from ev.analysis.basic_strategy import ChartException, Row, find_exceptions
from ev.analysis.game import Game
from ev.analysis.strategy import ACTION_NAMES, HIT, STAND, Policy
from ev.core.cards import ACE, N_RANKS, TEN, blackjack_rank, composition_of, hand_total, subtract

_TOLERANCE = 1e-12


def all_exceptions(game: Game, chart: Policy, optimal: Policy, two_card_results: dict) -> list[ChartException]:
    """Every hand where ``optimal`` (CD play) and ``chart`` disagree; see the module docstring.

    ``two_card_results``: ``Game.hand`` results by (up, c1, c2), as the chart's EV rows hold them.
    Float arithmetic.
    """
    out = find_exceptions(game, chart, two_card_results, three_cards=False)
    hands, nxt, index = game.graph["hands"], game.graph["next"], game.graph["index"]
    n_shoe = sum(game.shoe)
    for up in game.upcards():
        base = subtract(game.shoe, composition_of([up]))
        total = sum(base)
        p_up = game.shoe[up] / n_shoe
        natural = blackjack_rank(up)
        settled = game.rules.settled_blackjack_rank(up) >= 0
        stand, hit, _ = game.solver(up).values_table()
        reach = [0.0] * len(hands)
        for c1 in range(N_RANKS):
            for c2 in range(c1, N_RANKS):
                if {c1, c2} == {ACE, TEN} or base[c1] < 1 + (c1 == c2) or base[c2] < 1:
                    continue
                ways = base[c1] * (base[c2] - (c1 == c2)) * (1 if c1 == c2 else 2)
                reach[index[composition_of([c1, c2])]] = ways / (total * (total - 1))
        play = optimal.play[up]
        for s, hand in enumerate(hands):          # hands are ordered by number of cards: parents first
            if reach[s] == 0.0 or play[s] != HIT:
                continue
            deck = subtract(base, hand)
            n = sum(deck)
            for r in range(N_RANKS):
                child = nxt[s * N_RANKS + r]
                if deck[r] > 0 and child >= 0:
                    reach[child] += reach[s] * deck[r] / n
        for s, hand in enumerate(hands):
            if sum(hand) < 3 or reach[s] == 0.0 or hand_total(hand)[0] >= 21:
                continue
            best, shown = play[s], chart.play[up][s]
            if best == shown or best not in (STAND, HIT) or shown not in (STAND, HIT):
                continue
            values = {STAND: stand[s], HIT: hit[s]}
            joint_gain = values[best] - values[shown]
            if joint_gain <= _TOLERANCE:
                continue
            deck = subtract(base, hand)
            mass = 1.0 - deck[natural] / sum(deck) if settled else 1.0
            total_, soft = hand_total(hand)
            row = Row("soft" if soft else "hard", total_)
            ranks = tuple(r for r in range(N_RANKS) for _ in range(hand[r]))
            out.append(ChartException(up, row, ranks, ACTION_NAMES[shown], ACTION_NAMES[best], joint_gain / mass,
                                      p_up * reach[s] * joint_gain))
    return out


__all__ = ["all_exceptions"]
