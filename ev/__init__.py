"""bjev: exact blackjack mathematics (see README).

The Python API lives in the layers below; the entry points most code needs:

* ``ev.analysis.game.Game``: every EV of a hand and of a round (``exact=True`` for fractions);
* ``ev.analysis.accounting.round_stats``: stakes, both RTPs and the outcome distribution;
* ``ev.core.rules.Rules``: a validated rule set.
"""
__version__ = "0.2.0"
