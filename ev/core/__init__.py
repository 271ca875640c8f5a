"""Core: cards, rules, combinatorics and the two solvers (float in Cython, exact in Python)."""
