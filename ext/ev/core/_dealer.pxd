# Dealer outcome: one up card's terminal hands, evaluated against a deck.

from ev.core._constants cimport N_RANKS, N_OUTCOMES

cdef enum:
    MAX_DRAW = 40       # bound on cards in one dealer hand / count of one rank in it

cdef class DealerTable:
    cdef readonly int up
    cdef readonly int n_terms
    cdef int max_len
    cdef int* term_start      # n_terms + 1 offsets into pair_rank / pair_count
    cdef unsigned char* pair_rank
    cdef unsigned char* pair_count
    cdef int* term_len
    cdef double* term_ways
    cdef unsigned char* term_outcome

    cdef void distribution(self, const int* deck, double* out) noexcept nogil
