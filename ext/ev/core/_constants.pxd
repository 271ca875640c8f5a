# Numbers shared by every module of the Cython core, declared once.
# Python holds the same numbers: ev/core/cards.py (ranks) and ev/core/actions.py (actions,
# outcomes, split modes); tests/test_core_constants.py checks that the two agree.

cdef enum:
    N_RANKS = 10        # rank indices: 0 ace, 1..8 the cards 2..9, 9 any ten-valued card
    ACE = 0
    TEN = 9
    N_OUTCOMES = 7      # the dealer's final outcome: 17, 18, 19, 20, 21, bust, blackjack
    BUST = 5
    BLACKJACK = 6
    STAND = 0           # action codes of a strategy (ev.core.actions.Action)
    HIT = 1
    DOUBLE = 2
    SPLIT = 3
    SURRENDER = 4
    NO_ACTION = 255     # a state the strategy never meets
    OPTIMAL = 0         # split-play modes (ev.core.actions.split_mode): CDP
    CDZ = 1             # CDZ-: copy the unsplit decision
    CDP1 = 2            # CDP1: copy the decision with one extra pair card gone
    N_MODES = 3


cdef inline int compare_counts(const unsigned char* x, const unsigned char* y) noexcept nogil:
    """Order of two rank-count tuples, ace first (for qsort): negative, zero or positive."""
    cdef int r
    for r in range(N_RANKS):
        if x[r] != y[r]:
            return <int>x[r] - <int>y[r]
    return 0
