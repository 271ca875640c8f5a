"""Analysis: the game, accounting, strategies, charts derivation, sensitivity and simulation."""
