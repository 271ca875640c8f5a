"""bjev: exact blackjack mathematics (see README)."""
__version__ = "0.1.0"
