# Player decisions for one up card (see _player.pyx).
from ev.core._constants cimport N_OUTCOMES, N_RANKS
from ev.core._dealer cimport DealerTable

cdef enum:
    MAX_EXTRA = 3       # pair cards gone beyond a split hand's own: 1 .. 3 (up to four hands)
    N_CTX = 31          # 1 + N_RANKS * MAX_EXTRA play contexts


cdef class UpcardSolver:
    cdef readonly int up
    cdef readonly int n
    cdef readonly int bj_rank      # hole card that would be a settled blackjack, or -1
    cdef int base[N_RANKS]
    cdef int double_lo, double_hi  # allowed totals for doubling
    cdef bint double_soft, das
    cdef DealerTable dealer
    # hand graph
    cdef int* counts
    cdef int* nxt
    cdef int* total
    cdef char* soft
    cdef int* ncards
    # memo tables
    cdef double* dealer_cache      # N_CTX * n * N_OUTCOMES
    cdef char* dealer_known        # N_CTX * n
    cdef double* stand_memo        # N_CTX * n
    cdef double* hit_memo          # N_MODES * N_CTX * n
    cdef double* double_memo       # N_CTX * n

    cdef int deck_of(self, int ctx, int s, int* d) noexcept nogil
    cdef double* dealer_dist(self, int ctx, int s) noexcept nogil
    cdef double bust_value(self, const int* d, int n, int r) noexcept nogil
    cdef double stand(self, int ctx, int s) noexcept nogil
    cdef double hit(self, int ctx, int s, int mode) noexcept nogil
    cdef double double_down(self, int ctx, int s) noexcept nogil
    cdef bint can_double(self, int ctx, int s) noexcept nogil
    cdef int choice(self, int src, int s, bint may_double) noexcept nogil
    cdef double after_card(self, int ctx, int s, int mode) noexcept nogil


cdef inline int ctx_index(int pair, int extra) noexcept nogil:
    return 1 + pair * MAX_EXTRA + extra - 1


cdef inline int ctx_pair(int ctx) noexcept nogil:
    return -1 if ctx == 0 else (ctx - 1) // MAX_EXTRA


cdef inline int ctx_extra(int ctx) noexcept nogil:
    return 0 if ctx == 0 else (ctx - 1) % MAX_EXTRA + 1
