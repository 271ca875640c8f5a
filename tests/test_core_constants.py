"""The Cython core's constants (ext/ev/core/_constants.pxd) agree with Python's (ev.core.actions, ev.core.cards)."""
from ev.core import _player
from ev.core.actions import BLACKJACK_OUTCOME, BUST_OUTCOME, CDP1, CDZ, DEALER_OUTCOMES, NO_ACTION, OPTIMAL, Action
from ev.core.cards import ACE, N_RANKS, TEN


def test_constants_agree():
    python = {"N_RANKS": N_RANKS, "ACE": ACE, "TEN": TEN, "N_OUTCOMES": len(DEALER_OUTCOMES),
              "BUST": BUST_OUTCOME, "BLACKJACK": BLACKJACK_OUTCOME, "NO_ACTION": NO_ACTION,
              "OPTIMAL": OPTIMAL, "CDZ": CDZ, "CDP1": CDP1, **{a.name: int(a) for a in Action}}
    assert python == _player.CONSTANTS
    assert DEALER_OUTCOMES[BUST_OUTCOME] == "bust" and DEALER_OUTCOMES[BLACKJACK_OUTCOME] == "blackjack"
