# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Dealer outcome probabilities for one up card, from precomputed terminal hands.

A terminal hand is a multiset M of cards the dealer draws (hole card first) and
stops on, with the number of drawing orders that reach it (``ev.core.shapes``).  For a
deck D with N cards, ``P(M) = orders(M) * prod_r ff(D_r, M_r) / ff(N, |M|)``.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memset


cdef class DealerTable:
    """Terminal hands of the dealer for one up card; see ``ev.core.shapes.dealer_terminals``."""

    def __cinit__(self, int up, list terms):
        cdef Py_ssize_t i, k = 0
        cdef int r, n_pairs = 0
        self.up = up
        self.n_terms = len(terms)
        for m, ways, outcome in terms:
            n_pairs += sum(1 for c in m if c)
        self.term_start = <int*>malloc((self.n_terms + 1) * sizeof(int))
        self.pair_rank = <unsigned char*>malloc(max(n_pairs, 1))
        self.pair_count = <unsigned char*>malloc(max(n_pairs, 1))
        self.term_len = <int*>malloc(max(self.n_terms, 1) * sizeof(int))
        self.term_ways = <double*>malloc(max(self.n_terms, 1) * sizeof(double))
        self.term_outcome = <unsigned char*>malloc(max(self.n_terms, 1))
        if not (self.term_start and self.pair_rank and self.pair_count and self.term_len
                and self.term_ways and self.term_outcome):
            raise MemoryError()
        self.max_len = 0
        for i, (m, ways, outcome) in enumerate(terms):
            self.term_start[i] = k
            for r in range(N_RANKS):
                if m[r]:
                    if m[r] >= MAX_DRAW:
                        raise ValueError("dealer hand too long for the core")
                    self.pair_rank[k] = r
                    self.pair_count[k] = m[r]
                    k += 1
            self.term_len[i] = sum(m)
            self.term_ways[i] = <double>ways
            self.term_outcome[i] = outcome
            if self.term_len[i] > self.max_len:
                self.max_len = self.term_len[i]
        self.term_start[self.n_terms] = k
        if self.max_len >= MAX_DRAW:
            raise ValueError("dealer hand too long for the core")

    def __dealloc__(self):
        free(self.term_start)
        free(self.pair_rank)
        free(self.pair_count)
        free(self.term_len)
        free(self.term_ways)
        free(self.term_outcome)

    cdef void distribution(self, const int* deck, double* out) noexcept nogil:
        """out[0..6] = P(17), P(18), P(19), P(20), P(21), P(bust), P(blackjack) for this deck."""
        cdef double ff[N_RANKS][MAX_DRAW]
        cdef double inv_ff[MAX_DRAW]
        cdef int r, k, i, j, n = 0
        cdef double p, f
        for r in range(N_RANKS):
            n += deck[r]
            ff[r][0] = 1.0
            for k in range(1, self.max_len + 1):
                ff[r][k] = ff[r][k - 1] * (deck[r] - k + 1) if deck[r] - k + 1 > 0 else 0.0
        f = 1.0
        inv_ff[0] = 1.0
        for k in range(1, self.max_len + 1):
            if n - k + 1 > 0:
                f *= (n - k + 1)
                inv_ff[k] = 1.0 / f
            else:
                inv_ff[k] = 0.0
        memset(out, 0, N_OUTCOMES * sizeof(double))
        for i in range(self.n_terms):
            p = self.term_ways[i] * inv_ff[self.term_len[i]]
            for j in range(self.term_start[i], self.term_start[i + 1]):
                p *= ff[self.pair_rank[j]][self.pair_count[j]]
            out[self.term_outcome[i]] += p

    def probabilities(self, deck):
        """Python access: the 7 outcome probabilities for a deck (10 counts)."""
        cdef int d[N_RANKS]
        cdef double out[N_OUTCOMES]
        for r in range(N_RANKS):
            d[r] = deck[r]
        self.distribution(d, out)
        return [out[k] for k in range(N_OUTCOMES)]
