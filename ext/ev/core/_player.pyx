# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Player decisions for one up card: exact EVs by recursion over the hand graph, memoised.

Values are *joint* (see ``ev.reference``): when a dealer blackjack is settled
before play, hole cards making one are left out of the dealer's enumeration,
so a value is E[result; no dealer blackjack].  Divide by P(no dealer blackjack)
to condition.  ``ev.reference`` is the plain twin of this module.

Contexts: context 0 is unsplit play; context ``1 + 3 p + (j - 1)`` is a hand
split from a pair of rank p whose deck also lacks j more pair cards than the
hand holds (j = 1 with one split; up to 3 with resplits to four hands).
Split-hand strategies: OPTIMAL (CDP: best play in the hand's own context), CDP1
(play as the context with j = 1 would, the best play knowing one other pair card
is gone) and CDZ (play as the unsplit hand of the same cards would be played,
within what split rules allow).
"""
from libc.stdlib cimport malloc, calloc, free
from libc.math cimport NAN, isnan

from ev.core._constants cimport (ACE, BLACKJACK, BUST, CDP1, CDZ, DOUBLE, HIT, N_MODES, N_OUTCOMES, N_RANKS,
                                  NO_ACTION, OPTIMAL, SPLIT, STAND, SURRENDER, TEN)
from ev.core._dealer cimport DealerTable
from ev.core._player cimport MAX_EXTRA, N_CTX, ctx_index, ctx_pair, ctx_extra

#: the constants of ext/ev/core/_constants.pxd, for the test that Python's copies agree
CONSTANTS = {"N_RANKS": N_RANKS, "ACE": ACE, "TEN": TEN, "N_OUTCOMES": N_OUTCOMES, "BUST": BUST,
             "BLACKJACK": BLACKJACK, "STAND": STAND, "HIT": HIT, "DOUBLE": DOUBLE, "SPLIT": SPLIT,
             "SURRENDER": SURRENDER, "NO_ACTION": NO_ACTION, "OPTIMAL": OPTIMAL, "CDZ": CDZ, "CDP1": CDP1}

# Two values closer than this are treated as a tie when a CDZ decision is copied
# from unsplit play, so that float rounding cannot flip an exact tie.
cdef double TIE = 1e-12


cdef inline int effective_mode(int ctx, int mode) noexcept nogil:
    """Unsplit play is always optimal; CDP1 is optimal in its own source context."""
    if ctx == 0 or (mode == CDP1 and ctx_extra(ctx) == 1):
        return OPTIMAL
    return mode


cdef class UpcardSolver:
    """Exact player values for one up card and one unseen deck (the shoe before the player's cards)."""

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
        self.hit_memo = <double*>malloc(N_MODES * N_CTX * n * sizeof(double))
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
        for i in range(N_MODES * N_CTX * n):
            self.hit_memo[i] = NAN

    def __dealloc__(self):
        free(self.counts); free(self.nxt); free(self.total); free(self.soft); free(self.ncards)
        free(self.dealer_cache); free(self.dealer_known)
        free(self.stand_memo); free(self.hit_memo); free(self.double_memo)

    # ----- decks and the dealer -------------------------------------------
    cdef int deck_of(self, int ctx, int s, int* d) noexcept nogil:
        """Fill d with the deck seen by hand s in context ctx; return its size."""
        cdef int r, n = 0
        cdef int pair = ctx_pair(ctx), extra = ctx_extra(ctx)
        for r in range(N_RANKS):
            d[r] = self.base[r] - self.counts[s * N_RANKS + r] - (extra if r == pair else 0)
            n += d[r]
        return n

    cdef double* dealer_dist(self, int ctx, int s) noexcept nogil:
        """Dealer distribution (joint units) for hand s in context ctx, memoised.

        A split context's deck equals the unsplit deck of the hand plus its
        extra pair cards when that hand exists, so the two share one cache entry.
        """
        cdef int d[N_RANKS]
        cdef int t, j
        if ctx > 0:
            t = s
            for j in range(ctx_extra(ctx)):
                if t >= 0:
                    t = self.nxt[t * N_RANKS + ctx_pair(ctx)]
            if t >= 0:
                return self.dealer_dist(0, t)
        cdef int key = ctx * self.n + s
        cdef double* out = self.dealer_cache + key * N_OUTCOMES
        if not self.dealer_known[key]:
            self.deck_of(ctx, s, d)
            self.dealer.distribution(d, out)
            self.dealer_known[key] = 1
        return out

    cdef double bust_value(self, const int* d, int n, int r) noexcept nogil:
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
            v = dist[BUST] - dist[BLACKJACK]
            for k in range(5):
                if 17 + k < t:
                    v += dist[k]
                elif 17 + k > t:
                    v -= dist[k]
            self.stand_memo[key] = v
        return v

    cdef double hit(self, int ctx, int s, int mode) noexcept nogil:
        cdef int d[N_RANKS]
        cdef int r, t, n
        mode = effective_mode(ctx, mode)
        cdef int key = (mode * N_CTX + ctx) * self.n + s
        cdef double v = self.hit_memo[key]
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

    cdef int choice(self, int src, int s, bint may_double) noexcept nogil:
        """The action optimal play in context src takes at hand s, among stand, hit and (maybe) double."""
        cdef int best = STAND
        cdef double vbest = self.stand(src, s), v
        v = self.hit(src, s, OPTIMAL)
        if v > vbest + TIE:
            best, vbest = HIT, v
        if may_double:
            v = self.double_down(src, s)
            if v > vbest + TIE:
                best = DOUBLE
        return best

    cdef double after_card(self, int ctx, int s, int mode) noexcept nogil:
        """Value of hand s (total <= 21) that has just received a card, played on by the context's strategy."""
        cdef bint may_double
        cdef int act
        cdef double v, w
        if self.total[s] == 21:
            return self.stand(ctx, s)
        may_double = self.can_double(ctx, s)
        mode = effective_mode(ctx, mode)
        if mode != OPTIMAL:
            act = self.choice(0 if mode == CDZ else ctx_index(ctx_pair(ctx), 1), s, may_double)
            if act == STAND:
                return self.stand(ctx, s)
            if act == HIT:
                return self.hit(ctx, s, mode)
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

    def values_table(self):
        """Joint stand, hit and double values of every unsplit hand of two or more cards the deck can hold.

        Returns three lists indexed by hand-graph state (NaN for other states;
        double is given even where the rules forbid it).  This is the whole
        unsplit analysis of the up card: every reachable hand, every decision.
        """
        cdef int d[N_RANKS]
        cdef int s, r
        cdef bint ok
        cdef double* out = <double*>malloc(3 * self.n * sizeof(double))
        if not out:
            raise MemoryError()
        with nogil:
            for s in range(self.n):
                ok = self.deck_of(0, s, d) > 0 and self.ncards[s] >= 2
                for r in range(N_RANKS):
                    if d[r] < 0:
                        ok = False
                out[3 * s] = self.stand(0, s) if ok else NAN
                out[3 * s + 1] = self.hit(0, s, OPTIMAL) if ok and self.total[s] < 21 else NAN
                out[3 * s + 2] = self.double_down(0, s) if ok else NAN
        try:
            return ([out[3 * s] for s in range(self.n)], [out[3 * s + 1] for s in range(self.n)],
                    [out[3 * s + 2] for s in range(self.n)])
        finally:
            free(out)

    def context_choices(self, int pair, int extra, int mode):
        """The action (0 stand, 1 hit, 2 double) a split strategy takes at every hand in context (pair, extra).

        ``mode`` 0 CDP, 1 CDZ-, 2 CDP1, as for ``split_hand_values``; ``pair`` -1
        (with any extra) gives unsplit optimal play without split or surrender.
        NO_ACTION marks hands the context's deck cannot hold.
        """
        cdef int ctx = 0 if pair < 0 else ctx_index(pair, extra)
        cdef int d[N_RANKS]
        cdef int s, r, src
        cdef bint ok
        out = bytearray(self.n)
        cdef int m = effective_mode(ctx, mode)
        src = ctx if m == OPTIMAL else (0 if m == CDZ else ctx_index(pair, 1))
        for s in range(self.n):
            ok = self.deck_of(ctx, s, d) > 0 and self.ncards[s] >= 2
            for r in range(N_RANKS):
                if d[r] < 0:
                    ok = False
            if not ok:
                out[s] = NO_ACTION
            elif self.total[s] >= 21:
                out[s] = STAND
            else:
                out[s] = self.choice(src, s, self.can_double(ctx, s))
        return bytes(out)

    def split_choices(self, int mode):
        """``context_choices(pair, 1, mode)`` of every pair, concatenated (pair A first): post-split play."""
        return b"".join(self.context_choices(pair, 1, mode) for pair in range(N_RANKS))

    def may_double(self, int s):
        return bool(self.can_double(0, s))

    def split_hand_values(self, int pair, int extra, int mode, bint one_card):
        """Joint values of a split hand {pair, r} for each second card r, in context (pair, extra).

        ``extra``: pair cards gone from the deck beyond the hand's own (1 with one
        split; more after resplits).  ``mode``: 0 CDP, 1 CDZ-, 2 CDP1.
        ``one_card``: the hand receives exactly one card and stands (split aces).
        Entries for second cards the deck cannot hold are NaN.
        """
        if not (0 <= pair < N_RANKS and 1 <= extra <= MAX_EXTRA and 0 <= mode < N_MODES):
            raise ValueError("split context out of range")
        cdef int ctx = ctx_index(pair, extra)
        cdef int d[N_RANKS]
        cdef int r, t
        cdef int start = self.nxt[pair]   # the empty hand is state 0
        cdef double v[N_RANKS]
        with nogil:
            self.deck_of(ctx, start, d)
            for r in range(N_RANKS):
                t = self.nxt[start * N_RANKS + r]
                if d[r] <= 0 or t < 0:
                    v[r] = NAN
                else:
                    v[r] = self.stand(ctx, t) if one_card else self.after_card(ctx, t, mode)
        return [v[r] for r in range(N_RANKS)]

    def split_hand_value(self, int pair, int mode, bint one_card):
        """Joint value V of one hand split from a pair (one split, deck less the other pair card): EV(split) = 2 V."""
        cdef int d[N_RANKS]
        cdef int n = self.deck_of(ctx_index(pair, 1), self.nxt[pair], d)
        vals = self.split_hand_values(pair, 1, mode, one_card)
        return sum(d[r] * vals[r] for r in range(N_RANKS) if d[r] > 0) / n

    def tie_records(self, split_strategy):
        """Exact ties are recorded by the exact solver; floats treat values within 1e-12 as tied."""
        return []

    def work(self):
        """Size of the work done so far: hand states valued (unsplit, split contexts), dealer evaluations."""
        cdef int i, unsplit = 0, split = 0, dealer = 0
        for i in range(N_CTX * self.n):
            if not isnan(self.stand_memo[i]):
                if i < self.n:
                    unsplit += 1
                else:
                    split += 1
            if self.dealer_known[i]:
                dealer += 1
        return {"unsplit_hand_states": unsplit, "split_hand_states": split, "dealer_evaluations": dealer}

    def dealer_probabilities(self, int s, int ctx=0):
        """Dealer outcome probabilities (joint units) for hand s in context ctx."""
        cdef double* p = self.dealer_dist(ctx, s)
        return [p[k] for k in range(N_OUTCOMES)]
