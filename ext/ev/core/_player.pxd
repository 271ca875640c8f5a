# Player decisions for one up card (see _player.pyx).
from ev.core._constants cimport N_OUTCOMES, N_RANKS
from ev.core._dealer cimport DealerTable
from ev.core._shapes cimport HandGraphArrays
from libcpp.vector cimport vector

cdef enum:
    MAX_EXTRA = 5       # value decks of a split hand: pair cards gone beyond its own, 1 .. 5 (four hands: 2(4-2)+1)
    N_CTX = 51          # 1 + N_RANKS * MAX_EXTRA deck contexts
    N_DECIDE = 6        # decision sources of a split hand: 0 (the unsplit hand's) or a context 1 .. MAX_EXTRA


cdef class UpcardSolver:
    cdef readonly int up
    cdef readonly int n
    cdef readonly int bj_rank      # hole card that would be a settled blackjack, or -1
    cdef int base[N_RANKS]
    cdef int double_lo, double_hi  # allowed totals for doubling
    cdef bint double_soft, das
    cdef DealerTable dealer
    cdef HandGraphArrays graph
    # the hand graph (the graph's arrays)
    cdef int* counts
    cdef int* nxt
    cdef int* total
    cdef char* soft
    cdef int* ncards
    # memo tables, allocated when a context is first used
    cdef double* dealer_cache[N_CTX]          # n x N_OUTCOMES
    cdef char* dealer_known[N_CTX]            # n
    cdef double* stand_memo[N_CTX]            # n
    cdef double* double_memo[N_CTX]           # n
    cdef double* hit_memo[N_CTX * N_DECIDE]   # n, by deck context and decision source
    cdef char batched[N_CTX * N_DECIDE * 2]   # split_dealer_batch done, by (context, source, one card)

    cdef int deck_of(self, int ctx, int s, int* d) noexcept nogil
    cdef double* memo(self, double** table, int key) noexcept nogil
    cdef int alias(self, int ctx, int s) noexcept nogil
    cdef void dealer_cache_of(self, int ctx) noexcept nogil
    cdef double* dealer_dist(self, int ctx, int s) noexcept nogil
    cdef void dealer_batch(self, int ctx, const vector[int]& states) noexcept nogil
    cdef void split_dealer_batch(self, int ctx, int decide, bint one_card) noexcept nogil
    cdef void walk_ahead(self, int ctx, int src, const unsigned char* codes, bint one_card) noexcept nogil
    cdef void every_dealer_dist(self) noexcept nogil
    cdef double bust_value(self, const int* d, int n, int r) noexcept nogil
    cdef double stand(self, int ctx, int s) noexcept nogil
    cdef double draw(self, int ctx, int s, int decide, bint then_stand) noexcept nogil
    cdef double hit(self, int ctx, int s, int decide) noexcept nogil
    cdef double double_down(self, int ctx, int s) noexcept nogil
    cdef bint can_double(self, int ctx, int s) noexcept nogil
    cdef int choice(self, int src, int s, bint may_double) noexcept nogil
    cdef double after_card(self, int ctx, int s, int decide) noexcept nogil
    cdef bint holds(self, int ctx, int s) noexcept nogil


cdef inline int ctx_index(int pair, int extra) noexcept nogil:
    return 0 if pair < 0 else 1 + pair * MAX_EXTRA + extra - 1


cdef inline int ctx_pair(int ctx) noexcept nogil:
    return -1 if ctx == 0 else (ctx - 1) // MAX_EXTRA


cdef inline int ctx_extra(int ctx) noexcept nogil:
    return 0 if ctx == 0 else (ctx - 1) % MAX_EXTRA + 1


cdef inline int decide_context(int ctx, int decide) noexcept nogil:
    """The context whose optimal decisions a hand in ``ctx`` follows: ``decide`` 0 is the unsplit hand's,
    1 .. MAX_EXTRA the split context of the same pair with that many extra pair cards gone."""
    return 0 if decide == 0 else ctx_index(ctx_pair(ctx), decide)
