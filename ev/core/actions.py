"""The player's actions, the dealer's outcomes and the split strategies: one set of names and codes.

The codes are shared with the Cython core (``ext/ev/core/_constants.pxd``
declares the same numbers): a strategy is handed to the core as bytes of
these codes, one per hand-graph state.
"""
from __future__ import annotations

from enum import IntEnum

from ev.errors import EngineError


class Action(IntEnum):
    """A play decision.  The order is the tie-break order: an exact tie goes to the earlier action."""

    STAND = 0
    HIT = 1
    DOUBLE = 2
    SPLIT = 3
    SURRENDER = 4

    @property
    def label(self) -> str:
        """'stand', 'hit', 'double', 'split', 'surrender'."""
        return self.name.lower()


#: a hand-graph state the strategy never meets (its deck cannot hold it)
NO_ACTION = 255
#: the action names in code order: ACTION_NAMES[code]
ACTION_NAMES = tuple(a.label for a in Action)

#: the dealer's final outcomes, in the order of every outcome vector
DEALER_OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST_OUTCOME, BLACKJACK_OUTCOME = 5, 6

#: how split hands are played (see docs/usage.md, "Split strategy"): the fixed post-split strategies (each
#: split hand's play depends on its own cards and the pair cards gone), then truly optimal play
FIXED_SPLIT_STRATEGIES = ("cdz", "cdp1", "cdp")
SPLIT_STRATEGIES = (*FIXED_SPLIT_STRATEGIES, "optimal")
#: split figures that are not strategies a player can follow: "cdp-terms" values each term of the resplit
#: formula with the play that is best for that term's own deck (docs/how-it-works.md, "Two CDPs"); EVs only
FORMULA_SPLIT_STRATEGIES = ("cdp-terms",)
SPLIT_STRATEGY_NAMES = {
    "cdz": "CDZ- (each split hand played as the same unsplit hand would be, among the actions allowed after a "
           "split)",
    "cdp1": "CDP1 (split hands played optimally knowing the other pair card is gone)",
    "cdp": "CDP (as CDP1, also varying with pair cards removed by resplits)",
    "cdp-terms": "CDP per term (each term of the resplit formula played best for its own deck: a figure, not a "
                 "strategy)",
    "optimal": "truly optimal (each split hand played knowing every card seen and how many hands may still "
               "follow)",
}
#: the core's split-play modes: OPTIMAL is CDP (best play in the hand's own context); TRULY_OPTIMAL is
#: not a mode of the core's play contexts but of ev.analysis.optimal_split; CDP_TERMS is a split value only
#: (``Game.split_value``), never a strategy table
OPTIMAL, CDZ, CDP1, TRULY_OPTIMAL, CDP_TERMS = 0, 1, 2, 3, 4
_MODES = {"cdp": OPTIMAL, "cdz": CDZ, "cdp1": CDP1, "optimal": TRULY_OPTIMAL, "cdp-terms": CDP_TERMS}


def split_mode(split_strategy: str) -> int:
    """The core's split-play mode of a split strategy name; an unknown name is an error that lists them."""
    try:
        return _MODES[split_strategy]
    except (KeyError, TypeError):
        raise EngineError(f"unknown split strategy {split_strategy!r}; "
                          f"choose one of {', '.join(SPLIT_STRATEGIES + FORMULA_SPLIT_STRATEGIES)}") from None


def playable_split_mode(split_strategy: str) -> int:
    """:func:`split_mode` of a split strategy a player can follow: "cdp-terms" is refused in one line."""
    mode = split_mode(split_strategy)
    if mode == CDP_TERMS:
        raise EngineError("split strategy 'cdp-terms' is a figure of the resplit formula, not a strategy a player "
                          "can follow: it has an EV (bjev rtp, bjev hand), but no strategy table, chart, "
                          "distribution or simulation")
    return mode
