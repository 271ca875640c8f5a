"""Pure-Python reference twin of the Cython core: the same mathematics, slow and plain.

This module is the oracle of the test suite and the readable statement of the
mathematics.  It works with :class:`fractions.Fraction` throughout, so every
value is exact; it enumerates card by card with no precomputed tables, so it
shares no code path with the core beyond the rules object.

Units and conventions (shared with the core):

* Values are in initial bets.
* *Joint units*: when a dealer blackjack under the up card is settled before
  play (peek, or an unchecked blackjack that takes only the original bet), the
  dealer's hole card is enumerated only over cards that do not make a
  blackjack, without renormalising.  A joint value is therefore
  ``E[result; no dealer blackjack]`` and the EV *conditioned on no dealer
  blackjack* is the joint value divided by ``P(no dealer blackjack)``.
  Maximising joint values makes the same choices as maximising conditioned ones
  (they differ by a positive factor common to all actions at a decision), and
  a player's later draws keep their plain ``count / remaining`` probabilities.
* Split hands (one split): ``EV(split) = 2 * V`` where ``V`` is the joint value of
  one hand that starts with the pair card, dealt from the deck that also lacks
  the other pair card (exact by exchangeability).  Resplits: see ``split_value``.

Three modules: :mod:`ev.reference.values` (the dealer, one hand's values, splits by
formula, the round's EV), :mod:`ev.reference.exhaustive` (every card dealt in
table order: split distributions, a whole round's distribution, truly optimal
split play by search) and :mod:`ev.reference.random_play` (random play's EV and
stake, every card dealt in table order).
"""
from ev.reference.exhaustive import (
                                     minimum_round_ev,
                                     optimal_split_search,
                                     round_distribution,
                                     split_distribution_exhaustive,
                                     split_value_exhaustive,
)
from ev.reference.random_play import random_play_round
from ev.reference.values import (
                                     ACTIONS,
                                     OUTCOMES,
                                     Player,
                                     blackjack_rank,
                                     dealer_distribution,
                                     hand_values,
                                     round_ev,
                                     split_contexts,
                                     split_value,
                                     stand_value,
                                     surrender_value,
                                     upcard_ev,
)

__all__ = ["ACTIONS", "OUTCOMES", "Player", "blackjack_rank", "dealer_distribution", "hand_values",
           "minimum_round_ev", "optimal_split_search", "random_play_round", "round_distribution", "round_ev",
           "split_contexts",
           "split_distribution_exhaustive", "split_value", "split_value_exhaustive", "stand_value",
           "surrender_value", "upcard_ev"]
