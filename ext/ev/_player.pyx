# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Player decisions for one up card: exact EVs by recursion over the hand graph, memoised.

Values are *joint* (see ``ev.reference``): when a dealer blackjack is settled
before play, hole cards making one are left out of the dealer's enumeration,
so a value is E[result; no dealer blackjack].  Divide by P(no dealer blackjack)
to condition.  ``ev.reference`` is the plain twin of this module.

Contexts: context 0 is unsplit play; context p+1 is a hand split from a pair
of rank p (deck also lacks the other pair card).  Split-hand strategies:
OPTIMAL (CDP1: best play with the other pair card removed) and CDZ (play as the
unsplit hand of the same cards would be played, within what split rules allow).
"""
from libc.stdlib cimport malloc, calloc, free
from libc.math cimport NAN, isnan

from ev._dealer cimport DealerTable, N_RANKS, N_OUTCOMES

DEF N_CTX = 11

cdef enum:
    OPTIMAL = 0
    CDZ = 1
    ACT_STAND = 0
    ACT_HIT = 1
    ACT_DOUBLE = 2

# Two values closer than this are treated as a tie when a CDZ decision is copied
# from unsplit play, so that float rounding cannot flip an exact tie.
cdef double TIE = 1e-12


cdef class UpcardSolver:
    """Exact player values for one up card and one unseen deck (the shoe before the player's cards)."""
    cdef readonly int up
    cdef int n
    cdef int bj_rank               # hole card that would be a settled blackjack, or -1
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
    cdef double* hit_memo          # 2 * N_CTX * n
    cdef double* double_memo       # N_CTX * n

    def __cinit__(self, int up, base, DealerTable dealer, dict graph, int bj_rank,
                  int double_lo, int double_hi, bint double_soft, bint das):
        cdef int i, r
        self.up = up
        self.dealer = dealer
        self.bj_rank = bj_rank
        for r in range(N_RANKS):
            self.base[r] = base[r]
        self.double_lo, self.double_hi = double_lo, double_hi
        self.double_soft, self.das = double_soft, das
        self.n = len(graph["total"])
        n = self.n
        self.counts = <int*>malloc(n * N_RANKS * sizeof(int))
        self.nxt = <int*>malloc(n * N_RANKS * sizeof(int))
        self.total = <int*>malloc(n * sizeof(int))
        self.soft = <char*>malloc(n)
        self.ncards = <int*>malloc(n * sizeof(int))
        self.dealer_cache = <double*>malloc(N_CTX * n * N_OUTCOMES * sizeof(double))
        self.dealer_known = <char*>calloc(N_CTX * n, 1)
        self.stand_memo = <double*>malloc(N_CTX * n * sizeof(double))
        self.hit_memo = <double*>malloc(2 * N_CTX * n * sizeof(double))
        self.double_memo = <double*>malloc(N_CTX * n * sizeof(double))
        if not (self.counts and self.nxt and self.total and self.soft and self.ncards and self.dealer_cache
                and self.dealer_known and self.stand_memo and self.hit_memo and self.double_memo):
            raise MemoryError()
        for i in range(n * N_RANKS):
            self.counts[i] = graph["counts"][i]
            self.nxt[i] = graph["next"][i]
        for i in range(n):
            self.total[i] = graph["total"][i]
            self.soft[i] = graph["soft"][i]
            self.ncards[i] = graph["ncards"][i]
        for i in range(N_CTX * n):
            self.stand_memo[i] = NAN
            self.double_memo[i] = NAN
        for i in range(2 * N_CTX * n):
            self.hit_memo[i] = NAN

    def __dealloc__(self):
        free(self.counts); free(self.nxt); free(self.total); free(self.soft); free(self.ncards)
        free(self.dealer_cache); free(self.dealer_known)
        free(self.stand_memo); free(self.hit_memo); free(self.double_memo)

    # ----- decks and the dealer -------------------------------------------
    cdef inline int deck_of(self, int ctx, int s, int* d) noexcept nogil:
        """Fill d with the deck seen by hand s in context ctx; return its size."""
        cdef int r, n = 0
        for r in range(N_RANKS):
            d[r] = self.base[r] - self.counts[s * N_RANKS + r] - (1 if r == ctx - 1 else 0)
            n += d[r]
        return n

    cdef double* dealer_dist(self, int ctx, int s) noexcept nogil:
        """Dealer distribution (joint units) for hand s in context ctx, memoised.

        A split context's deck equals the unsplit deck of the hand plus the pair
        card when that hand exists, so the two share one cache entry.
        """
        cdef int d[N_RANKS]
        cdef int t
        if ctx > 0:
            t = self.nxt[s * N_RANKS + ctx - 1]
            if t >= 0:
                return self.dealer_dist(0, t)
        cdef int key = ctx * self.n + s
        cdef double* out = self.dealer_cache + key * N_OUTCOMES
        if not self.dealer_known[key]:
            self.deck_of(ctx, s, d)
            self.dealer.distribution(d, out)
            self.dealer_known[key] = 1
        return out

    cdef inline double bust_value(self, const int* d, int n, int r) noexcept nogil:
        """Joint value of busting after drawing rank r from deck d (n cards): minus P(no settled blackjack)."""
        if self.bj_rank < 0:
            return -1.0
        return -(1.0 - (d[self.bj_rank] - (1 if r == self.bj_rank else 0)) / <double>(n - 1))

    # ----- the player's actions -------------------------------------------
    cdef double stand(self, int ctx, int s) noexcept nogil:
        cdef int key = ctx * self.n + s
        cdef double v = self.stand_memo[key]
        cdef double* dist
        cdef int k, t
        if isnan(v):
            dist = self.dealer_dist(ctx, s)
            t = self.total[s]
            v = dist[5] - dist[6]
            for k in range(5):
                if 17 + k < t:
                    v += dist[k]
                elif 17 + k > t:
                    v -= dist[k]
            self.stand_memo[key] = v
        return v

    cdef double hit(self, int ctx, int s, int mode) noexcept nogil:
        cdef int key = (mode * N_CTX + ctx) * self.n + s
        cdef double v = self.hit_memo[key]
        cdef int d[N_RANKS]
        cdef int r, t, n
        if isnan(v):
            n = self.deck_of(ctx, s, d)
            v = 0.0
            for r in range(N_RANKS):
                if d[r] > 0:
                    t = self.nxt[s * N_RANKS + r]
                    if t < 0:
                        v += d[r] * self.bust_value(d, n, r)
                    else:
                        v += d[r] * self.after_card(ctx, t, mode)
            v /= n
            self.hit_memo[key] = v
        return v

    cdef double double_down(self, int ctx, int s) noexcept nogil:
        cdef int key = ctx * self.n + s
        cdef double v = self.double_memo[key]
        cdef int d[N_RANKS]
        cdef int r, t, n
        if isnan(v):
            n = self.deck_of(ctx, s, d)
            v = 0.0
            for r in range(N_RANKS):
                if d[r] > 0:
                    t = self.nxt[s * N_RANKS + r]
                    v += d[r] * (self.bust_value(d, n, r) if t < 0 else self.stand(ctx, t))
            v = 2.0 * v / n
            self.double_memo[key] = v
        return v

    cdef bint can_double(self, int ctx, int s) noexcept nogil:
        if self.ncards[s] != 2 or (ctx > 0 and not self.das):
            return False
        if self.soft[s] and not self.double_soft:
            return False
        return self.double_lo <= self.total[s] <= self.double_hi

    cdef int unsplit_choice(self, int s, bint may_double) noexcept nogil:
        """The action unsplit optimal play takes at hand s, among stand, hit and (maybe) double."""
        cdef int best = ACT_STAND
        cdef double vbest = self.stand(0, s), v
        v = self.hit(0, s, OPTIMAL)
        if v > vbest + TIE:
            best, vbest = ACT_HIT, v
        if may_double:
            v = self.double_down(0, s)
            if v > vbest + TIE:
                best = ACT_DOUBLE
        return best

    cdef double after_card(self, int ctx, int s, int mode) noexcept nogil:
        """Value of hand s (total <= 21) that has just received a card, played on by the context's strategy."""
        cdef bint may_double
        cdef int act
        cdef double v, w
        if self.total[s] == 21:
            return self.stand(ctx, s)
        may_double = self.can_double(ctx, s)
        if mode == CDZ:
            act = self.unsplit_choice(s, may_double)
            if act == ACT_STAND:
                return self.stand(ctx, s)
            if act == ACT_HIT:
                return self.hit(ctx, s, CDZ)
            return self.double_down(ctx, s)
        v = self.stand(ctx, s)
        w = self.hit(ctx, s, OPTIMAL)
        if w > v:
            v = w
        if may_double:
            w = self.double_down(ctx, s)
            if w > v:
                v = w
        return v

    # ----- Python interface -----------------------------------------------
    def hand_values(self, int s):
        """Joint values of stand, hit and double (double even where the rules forbid it) for unsplit hand s."""
        with nogil:
            st = self.stand(0, s)
            ht = self.hit(0, s, OPTIMAL) if self.total[s] < 21 else NAN
            db = self.double_down(0, s) if self.ncards[s] >= 1 else NAN
        return st, ht, db

    def may_double(self, int s):
        return bool(self.can_double(0, s))

    def split_hand_value(self, int pair, int mode, bint one_card):
        """Joint value V of one hand split from a pair of rank ``pair`` (one split): EV(split) = 2 V.

        mode 0: optimal post-split play (CDP1); mode 1: CDZ-.
        ``one_card``: each split hand receives exactly one card and stands.
        """
        cdef int ctx = pair + 1
        cdef int d[N_RANKS]
        cdef int r, n, t
        cdef int start = self.nxt[pair]   # the empty hand is state 0
        cdef double v = 0.0
        with nogil:
            n = self.deck_of(ctx, start, d)
            for r in range(N_RANKS):
                if d[r] > 0:
                    t = self.nxt[start * N_RANKS + r]
                    v += d[r] * (self.stand(ctx, t) if one_card else self.after_card(ctx, t, mode))
            v /= n
        return v

    def dealer_probabilities(self, int s, int ctx=0):
        """Dealer outcome probabilities (joint units) for hand s in context ctx."""
        cdef double* p = self.dealer_dist(ctx, s)
        return [p[k] for k in range(N_OUTCOMES)]
