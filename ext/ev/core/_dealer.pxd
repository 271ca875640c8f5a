# Dealer outcome: one up card's terminal hands, evaluated against a deck.
from libc.stdint cimport uint64_t
from libcpp.vector cimport vector

from ev.core._constants cimport N_OUTCOMES, N_RANKS
from ev.core._keymap cimport KeyMap


cdef extern from "<mutex>" namespace "std" nogil:
    cdef cppclass mutex:
        void lock()
        void unlock()

cdef enum:
    MAX_DRAW = 40       # bound on cards in one dealer hand / count of one rank in it
    BATCH = 16          # decks evaluated side by side by distribution_batch (BJ_LANES of its kernel)

cdef class DealerTable:
    cdef readonly int up
    cdef readonly int excluded      # the hole card left out of the enumeration (settled blackjack), or -1
    cdef readonly int n_terms
    cdef readonly int max_len
    cdef int max_count[N_RANKS]     # the most cards of each rank in one terminal hand
    # every terminal hand, flat: for a deck small enough that the dealer may run out of cards
    cdef int* term_start            # n_terms + 1 offsets into pair_rank / pair_count
    cdef unsigned char* pair_rank
    cdef unsigned char* pair_count
    cdef int* term_len
    cdef double* term_ways
    cdef unsigned char* term_outcome
    # the terminal hands that do not bust, as a trie over (outcome, length, then ranks A..T)
    cdef int n_nodes
    cdef int* node_parent           # >= 0: a node; < 0: the group -1 - parent (an outcome and a length)
    cdef unsigned char* node_rank
    cdef unsigned char* node_count
    cdef double* node_ways          # the leaves' numbers of orders, 0 elsewhere
    cdef int n_groups
    cdef int* group_len
    cdef unsigned char* group_outcome
    cdef unsigned char* node_depth  # 0 for a node under a group, its parent's plus one below
    # outcomes of the decks met by cached_distribution_batch: deck (6 bits a rank, 8 the tens) -> offset into known_values
    cdef KeyMap known
    cdef vector[double] known_values
    cdef mutex* known_lock          # held while known is read or written: threads may share the table

    cdef void distribution(self, const int* deck, double* out) noexcept nogil
    cdef void distribution_batch(self, const int* decks, int count, double* out) noexcept nogil
    cdef void walk_batch(self, int* decks, int lanes, const int* where, double* out) noexcept nogil
    cdef void cached_distribution_batch(self, const int* decks, int count, double* out) noexcept nogil
    cdef uint64_t deck_key(self, const int* deck) noexcept nogil
    cdef void keep(self, uint64_t key, const double* values) noexcept nogil
