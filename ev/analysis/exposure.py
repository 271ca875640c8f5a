"""The most a round can put at stake, lose and win under a rule set, for any legal play.

Found by enumerating what the rules allow, card by card against the shoe: every up
card, every first two cards, and then every legal line of play of that deal:
insurance or not (under an ace, where offered), even money on a natural, late
surrender, a double, or a split into 2 ... ``split_hands(pair)`` hands of which any
number double (after a split only with ``double_after_split``, never on hands
that get one card).  A line is kept only if the shoe holds its cards: the up card,
the pair cards, for each doubled split hand a second card that may double, and one
card more for each double.

For each line: the total stake W (initial bet, split bets, doubles, 0.5 for
insurance or even money), the largest win (every hand wins, a doubled hand twice;
a natural pays the blackjack payout; a split hand's 21 pays 1:1; insurance lost
when the dealer has no blackjack) and the largest loss (every wager on the table
lost: the dealer has no blackjack, so insurance is lost too).  Units: initial bets,
exact fractions.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ev.core.cards import ACE, N_RANKS, TEN, full_shoe, hand_total
from ev.core.rules import Rules

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Line:
    """One line of play: what is on the table and what it can win or lose (initial bets)."""

    description: str
    stake: Fraction
    win: Fraction
    loss: Fraction


def _doubling_cards(rules: Rules, pair: int, counts: list[int]) -> list[int]:
    """Second cards that let a hand split from ``pair`` double (a pair card only when it cannot resplit)."""
    out = []
    for c in range(N_RANKS):
        if counts[c] <= 0 or (c == pair and rules.may_resplit(pair)):
            continue
        hand = [0] * N_RANKS
        hand[pair] += 1
        hand[c] += 1
        total, soft = hand_total(tuple(hand))
        if rules.may_double(total, soft, after_split=True):
            out.append(c)
    return out


def _split_lines(rules: Rules, pair: int, counts: list[int], insured: Fraction) -> list[Line]:
    """Every split of ``pair`` into k hands, j of them doubled, that the remaining cards allow."""
    lines = []
    may_double = rules.double_after_split and not rules.one_card_after_split(pair)
    for k in range(2, rules.split_hands(pair) + 1):
        left = list(counts)
        left[pair] -= k - 2           # the pair cards beyond the first two
        if left[pair] < 0:
            break
        doubled = 0
        if may_double:
            for _ in range(k):
                options = _doubling_cards(rules, pair, left)
                if not options:
                    break
                left[options[0]] -= 1
                if sum(left) < 1:       # the double's own card
                    left[options[0]] += 1
                    break
                left[max(range(N_RANKS), key=lambda r: left[r])] -= 1
                doubled += 1
        for j in range(doubled + 1):
            stake = k + j + insured
            lines.append(Line(f"split {k} hands, {j} doubled" + (", insured" if insured else ""),
                              stake, k + j - insured, stake))
    return lines


def round_lines(rules: Rules) -> list[Line]:
    """Every line of play the rules allow that the shoe can deal (see the module docstring)."""
    shoe = list(full_shoe(rules.decks))
    payout = rules.payout
    lines = []
    for up in range(N_RANKS):
        counts = list(shoe)
        counts[up] -= 1
        for c1 in range(N_RANKS):
            for c2 in range(c1, N_RANKS):
                left = list(counts)
                left[c1] -= 1
                left[c2] -= 1
                if min(left) < 0:
                    continue
                hand = [0] * N_RANKS
                hand[c1] += 1
                hand[c2] += 1
                total, soft = hand_total(tuple(hand))
                if {c1, c2} == {ACE, TEN}:
                    lines.append(Line("natural", Fraction(1), payout, Fraction(0)))
                    if up == ACE and rules.even_money:
                        # even money: stake 1 (no chips are placed for it)
                        lines.append(Line("natural, even money", Fraction(1), Fraction(1), Fraction(0)))
                    continue
                offers = [Fraction(0)] + ([HALF] if up == ACE and rules.insurance else [])
                for insured in offers:
                    tag = ", insured" if insured else ""
                    lines.append(Line("play" + tag, 1 + insured, 1 - insured, 1 + insured))
                    if rules.may_double(total, soft) and sum(left) >= 1:
                        lines.append(Line("double" + tag, 2 + insured, 2 - insured, 2 + insured))
                    if rules.late_surrender:
                        lines.append(Line("surrender" + tag, 1 + insured, -HALF - insured, HALF + insured))
                    if c1 == c2 and rules.may_split:
                        lines += _split_lines(rules, c1, left, insured)
    return lines


def max_exposure(rules: Rules) -> dict:
    """The largest total stake, loss and win of a round over every legal line of play (initial bets).

    Returns fractions ``max_stake``, ``max_loss``, ``max_win`` and, under
    ``*_lines``, every kind of line that reaches each (e.g. ``double, insured``).
    """
    lines = round_lines(rules)
    out: dict = {"lines_enumerated": len(lines)}
    for key, attr in (("max_stake", "stake"), ("max_loss", "loss"), ("max_win", "win")):
        top = max(getattr(x, attr) for x in lines)
        out[key] = top
        out[f"{key}_lines"] = sorted({x.description for x in lines if getattr(x, attr) == top})
    return out


__all__ = ["Line", "max_exposure", "round_lines"]
