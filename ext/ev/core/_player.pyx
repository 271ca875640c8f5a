# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Player decisions for one up card: exact EVs by recursion over the hand graph, memoised.

Values are *joint* (see ``ev.reference``): when a dealer blackjack is settled
before play, hole cards making one are left out of the dealer's enumeration,
so a value is E[result; no dealer blackjack].  Divide by P(no dealer blackjack)
to condition.  ``ev.reference`` is the plain twin of this module.

**Deck contexts.** Context 0 is unsplit play; context ``ctx_index(p, e)`` is a
hand split from a pair of rank p whose deck also lacks e more pair cards than
the hand holds (e = 1 with one split; up to 5 with resplits to four hands,
where the exact resplit EV needs the decks of 0 .. 4 extra pair cards beyond
the two original ones).

**Decision sources.** A hand in a split context follows the optimal decisions
of some context of its pair (``decide``): 0, the unsplit hand's (CDZ-); e, the
context with e extra pair cards gone (CDP1: 1; CDP: the context of the number
of hands known when the hand is played).  When the source is the hand's own
context it plays optimally there.  Values depend on both, so the hit memo is
keyed by (deck context, decision source); everything else by deck context.
Memo tables are allocated the first time a context is used.
"""
from libc.math cimport NAN, isnan
from libc.stdlib cimport calloc, free, malloc
from libcpp.vector cimport vector

from ev.core._constants cimport (ACE, BLACKJACK, BUST, CDP1, CDZ, DOUBLE, HIT, N_OUTCOMES, N_RANKS, NO_ACTION,
                                  OPTIMAL, SPLIT, STAND, SURRENDER, TEN)
from ev.core._dealer cimport DealerTable
from ev.core._player cimport (MAX_EXTRA, N_CTX, N_DECIDE, ctx_extra, ctx_index, ctx_pair,
                              decide_context)
from ev.core._shapes cimport HandGraphArrays

#: the constants of ext/ev/core/_constants.pxd, for the test that Python's copies agree
CONSTANTS = {"N_RANKS": N_RANKS, "ACE": ACE, "TEN": TEN, "N_OUTCOMES": N_OUTCOMES, "BUST": BUST,
             "BLACKJACK": BLACKJACK, "STAND": STAND, "HIT": HIT, "DOUBLE": DOUBLE, "SPLIT": SPLIT,
             "SURRENDER": SURRENDER, "NO_ACTION": NO_ACTION, "OPTIMAL": OPTIMAL, "CDZ": CDZ, "CDP1": CDP1}
#: the most extra pair cards a split context's deck may lack
EXTRA_LIMIT = MAX_EXTRA

# Two values closer than this are treated as a tie when a decision is copied
# from another context, so that float rounding cannot flip an exact tie.
cdef double TIE = 1e-12


cdef inline int own_decide(int ctx) noexcept nogil:
    """The decision source under which a context plays its own optimum."""
    return ctx_extra(ctx)


cdef class UpcardSolver:
    """Exact player values for one up card and one unseen deck (the shoe before the player's cards)."""

    def __cinit__(self, int up, base, DealerTable dealer, HandGraphArrays graph, int bj_rank,
                  int double_lo, int double_hi, bint double_soft, bint das):
        cdef int i, r
        self.up = up
        self.dealer = dealer
        self.graph = graph
        self.bj_rank = bj_rank
        for r in range(N_RANKS):
            self.base[r] = base[r]
        self.double_lo, self.double_hi = double_lo, double_hi
        self.double_soft, self.das = double_soft, das
        self.n = graph.n
        self.counts, self.nxt, self.total = graph.counts, graph.nxt, graph.total
        self.soft, self.ncards = graph.soft, graph.ncards
        for i in range(N_CTX):
            self.dealer_cache[i] = NULL
            self.dealer_known[i] = NULL
            self.stand_memo[i] = NULL
            self.double_memo[i] = NULL
        for i in range(N_CTX * N_DECIDE):
            self.hit_memo[i] = NULL
        for i in range(N_CTX * N_DECIDE * 2):
            self.batched[i] = 0

    def __dealloc__(self):
        cdef int i
        for i in range(N_CTX):
            free(self.dealer_cache[i])
            free(self.dealer_known[i])
            free(self.stand_memo[i])
            free(self.double_memo[i])
        for i in range(N_CTX * N_DECIDE):
            free(self.hit_memo[i])

    # ----- decks, memo tables and the dealer ------------------------------
    cdef int deck_of(self, int ctx, int s, int* d) noexcept nogil:
        """Fill d with the deck seen by hand s in context ctx; return its size."""
        cdef int r, n = 0
        cdef int pair = ctx_pair(ctx), extra = ctx_extra(ctx)
        for r in range(N_RANKS):
            d[r] = self.base[r] - self.counts[s * N_RANKS + r] - (extra if r == pair else 0)
            n += d[r]
        return n

    cdef double* memo(self, double** table, int key) noexcept nogil:
        """The memo row ``table[key]`` (one value per state), made and filled with NaN on first use."""
        cdef double* row = table[key]
        cdef int i
        if row == NULL:
            row = <double*>malloc(self.n * sizeof(double))
            for i in range(self.n):
                row[i] = NAN
            table[key] = row
        return row

    cdef int alias(self, int ctx, int s) noexcept nogil:
        """The unsplit state whose deck is hand s's deck in split context ctx (s plus the context's extra pair
        cards, when that hand exists), or -1."""
        cdef int t = s, j
        for j in range(ctx_extra(ctx)):
            if t >= 0:
                t = self.nxt[t * N_RANKS + ctx_pair(ctx)]
        return t

    cdef void dealer_cache_of(self, int ctx) noexcept nogil:
        """Allocate ctx's dealer cache (nothing known; the unsplit context is filled at once)."""
        cdef int i
        if self.dealer_cache[ctx] != NULL:
            return
        self.dealer_cache[ctx] = <double*>malloc(self.n * N_OUTCOMES * sizeof(double))
        self.dealer_known[ctx] = <char*>malloc(self.n)
        for i in range(self.n):
            self.dealer_known[ctx][i] = 0
        if ctx == 0:
            self.every_dealer_dist()

    cdef double* dealer_dist(self, int ctx, int s) noexcept nogil:
        """Dealer distribution (joint units) for hand s in context ctx, memoised.

        A split context's deck equals the unsplit deck of the hand plus its
        extra pair cards when that hand exists, so the two share one cache entry.
        """
        cdef int d[N_RANKS]
        cdef int t
        if ctx > 0:
            t = self.alias(ctx, s)
            if t >= 0:
                return self.dealer_dist(0, t)
        self.dealer_cache_of(ctx)
        cdef double* out = self.dealer_cache[ctx] + s * N_OUTCOMES
        if not self.dealer_known[ctx][s]:
            self.deck_of(ctx, s, d)
            self.dealer.distribution(d, out)
            self.dealer_known[ctx][s] = 1
        return out

    cdef void dealer_batch(self, int ctx, const vector[int]& states) noexcept nogil:
        """Fill ctx's dealer cache for ``states`` (each a hand its deck holds), the decks not known yet side by
        side (``DealerTable.distribution_batch``: the values ``dealer_dist`` would find one by one, to the
        bit); split-context states that share an unsplit state's deck are left to it."""
        cdef vector[int] decks
        cdef vector[int] which
        cdef vector[double] values
        cdef int d[N_RANKS]
        cdef int r, k, s
        cdef size_t j
        for j in range(states.size()):
            s = states[j]
            if ctx > 0 and self.alias(ctx, s) >= 0:
                continue
            self.dealer_cache_of(ctx)       # (only for a deck of its own: the caches are most of the memory)
            if self.dealer_known[ctx][s]:
                continue
            self.dealer_known[ctx][s] = 2        # listed (a state may be listed twice)
            self.deck_of(ctx, s, d)
            which.push_back(s)
            for r in range(N_RANKS):
                decks.push_back(d[r])
        if which.empty():
            return
        values.resize(which.size() * N_OUTCOMES)
        self.dealer.distribution_batch(decks.data(), <int>which.size(), values.data())
        for j in range(which.size()):
            for k in range(N_OUTCOMES):
                self.dealer_cache[ctx][which[j] * N_OUTCOMES + k] = values[j * N_OUTCOMES + k]
            self.dealer_known[ctx][which[j]] = 1

    cdef void split_dealer_batch(self, int ctx, int decide, bint one_card) noexcept nogil:
        """Evaluate, side by side, the dealer decks that ``split_hand_values(ctx, decide)`` will stand on
        (``walk_ahead``; a context whose decisions it follows is walked first).  Once per (context, source, one
        card)."""
        cdef int flag = (ctx * N_DECIDE + decide) * 2 + (1 if one_card else 0)
        cdef int src = decide_context(ctx, decide)
        if self.batched[flag]:
            return
        self.batched[flag] = 1
        if src != ctx and src != 0 and not one_card:      # (a one-card hand stands: it decides nothing)
            self.split_dealer_batch(src, own_decide(src), False)
        self.walk_ahead(ctx, src, NULL, one_card)

    cdef void walk_ahead(self, int ctx, int src, const unsigned char* codes, bint one_card) noexcept nogil:
        """Evaluate, side by side, the dealer decks a split hand of context ``ctx`` will stand on, from each of
        its two-card hands: its play walked ahead without the dealer, as ``after_card`` plays it by the
        decisions of ``src`` (its own context: every action, as the values need), or as a strategy's table
        ``codes`` plays it (``PolicyEvaluator``: stand, double, or else hit).  ``one_card``: the hand stands."""
        cdef int d[N_RANKS]
        cdef vector[int] stack
        cdef vector[int] need
        cdef char* seen
        cdef int s, t, r, act
        cdef bint may_double
        s = self.nxt[ctx_pair(ctx)]
        self.deck_of(ctx, s, d)
        for r in range(N_RANKS):
            t = self.nxt[s * N_RANKS + r]
            if d[r] > 0 and t >= 0:
                if one_card:
                    need.push_back(t)
                else:
                    stack.push_back(t)
        seen = <char*>calloc(self.n, 1)
        if seen == NULL:
            return                  # nothing batched: the hands ask one by one
        while not stack.empty():
            s = stack.back()
            stack.pop_back()
            if seen[s]:
                continue
            seen[s] = 1
            if self.total[s] == 21:
                need.push_back(s)
                continue
            may_double = self.can_double(ctx, s)
            if codes != NULL:
                act = codes[s] if codes[s] == STAND or codes[s] == DOUBLE else HIT
            elif src != ctx:
                act = self.choice(src, s, may_double)
            else:
                act = NO_ACTION
            if act == STAND or act == NO_ACTION:
                need.push_back(s)
            if act == STAND:
                continue
            self.deck_of(ctx, s, d)
            for r in range(N_RANKS):
                t = self.nxt[s * N_RANKS + r]
                if d[r] <= 0 or t < 0:
                    continue
                if act == HIT or act == NO_ACTION:
                    stack.push_back(t)
                if act == DOUBLE or (act == NO_ACTION and may_double):
                    need.push_back(t)
        free(seen)
        self.dealer_batch(ctx, need)

    cdef void every_dealer_dist(self) noexcept nogil:
        """Fill the unsplit context's dealer cache for every hand state this up card's deck can hold, the
        decks side by side: a round asks for nearly all of them."""
        cdef vector[int] states
        cdef int d[N_RANKS]
        cdef int s, r
        for s in range(self.n):
            self.deck_of(0, s, d)
            for r in range(N_RANKS):
                if d[r] < 0:
                    break
            else:
                states.push_back(s)
        self.dealer_batch(0, states)

    cdef double bust_value(self, const int* d, int n, int r) noexcept nogil:
        """Joint value of busting after drawing rank r from deck d (n cards): minus P(no settled blackjack)."""
        if self.bj_rank < 0:
            return -1.0
        return -(1.0 - (d[self.bj_rank] - (1 if r == self.bj_rank else 0)) / <double>(n - 1))

    # ----- the player's actions -------------------------------------------
    cdef double stand(self, int ctx, int s) noexcept nogil:
        cdef double* row = self.memo(self.stand_memo, ctx)
        cdef double v = row[s]
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
            row[s] = v
        return v

    cdef double draw(self, int ctx, int s, int decide, bint then_stand) noexcept nogil:
        """Mean value of drawing one card to hand s: then stand (a double), or play on by ``decide``."""
        cdef int d[N_RANKS]
        cdef int r, t
        cdef int n = self.deck_of(ctx, s, d)
        cdef double v = 0.0
        for r in range(N_RANKS):
            if d[r] > 0:
                t = self.nxt[s * N_RANKS + r]
                if t < 0:
                    v += d[r] * self.bust_value(d, n, r)
                elif then_stand:
                    v += d[r] * self.stand(ctx, t)
                else:
                    v += d[r] * self.after_card(ctx, t, decide)
        return v / n

    cdef double hit(self, int ctx, int s, int decide) noexcept nogil:
        """Draw one card, then play on by the decisions of ``decide`` (see the module docstring)."""
        cdef double* row = self.memo(self.hit_memo, ctx * N_DECIDE + decide)
        if isnan(row[s]):
            row[s] = self.draw(ctx, s, decide, False)
        return row[s]

    cdef double double_down(self, int ctx, int s) noexcept nogil:
        cdef double* row = self.memo(self.double_memo, ctx)
        if isnan(row[s]):
            row[s] = 2.0 * self.draw(ctx, s, 0, True)
        return row[s]

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
        v = self.hit(src, s, own_decide(src))
        if v > vbest + TIE:
            best, vbest = HIT, v
        if may_double:
            v = self.double_down(src, s)
            if v > vbest + TIE:
                best = DOUBLE
        return best

    cdef double after_card(self, int ctx, int s, int decide) noexcept nogil:
        """Value of hand s (total <= 21) that has just received a card, played on by ``decide``'s decisions."""
        cdef bint may_double
        cdef int act, src
        cdef double v, w
        if self.total[s] == 21:
            return self.stand(ctx, s)
        may_double = self.can_double(ctx, s)
        src = decide_context(ctx, decide)
        if src != ctx:
            act = self.choice(src, s, may_double)
            if act == STAND:
                return self.stand(ctx, s)
            if act == HIT:
                return self.hit(ctx, s, decide)
            return self.double_down(ctx, s)
        v = self.stand(ctx, s)
        w = self.hit(ctx, s, decide)
        if w > v:
            v = w
        if may_double:
            w = self.double_down(ctx, s)
            if w > v:
                v = w
        return v

    # ----- Python interface -----------------------------------------------
    cdef bint holds(self, int ctx, int s) noexcept nogil:
        """Can the context's deck hold hand s (two or more cards) with cards to spare?"""
        cdef int d[N_RANKS]
        cdef int r
        if self.ncards[s] < 2 or self.deck_of(ctx, s, d) <= 0:
            return False
        for r in range(N_RANKS):
            if d[r] < 0:
                return False
        return True

    def hand_values(self, int s):
        """Joint values of stand, hit and double (double even where the rules forbid it) for unsplit hand s."""
        with nogil:
            st = self.stand(0, s)
            ht = self.hit(0, s, 0) if self.total[s] < 21 else NAN
            db = self.double_down(0, s) if self.ncards[s] >= 1 else NAN
        return st, ht, db

    def values_table(self):
        """Joint stand, hit and double values of every unsplit hand of two or more cards the deck can hold.

        Returns three lists indexed by hand-graph state (NaN for other states;
        double is given even where the rules forbid it).  This is the whole
        unsplit analysis of the up card: every reachable hand, every decision.
        """
        cdef int s
        cdef bint ok
        cdef double* out = <double*>malloc(3 * self.n * sizeof(double))
        if not out:
            raise MemoryError()
        with nogil:
            for s in range(self.n):
                ok = self.holds(0, s)
                out[3 * s] = self.stand(0, s) if ok else NAN
                out[3 * s + 1] = self.hit(0, s, 0) if ok and self.total[s] < 21 else NAN
                out[3 * s + 2] = self.double_down(0, s) if ok else NAN
        try:
            return ([out[3 * s] for s in range(self.n)], [out[3 * s + 1] for s in range(self.n)],
                    [out[3 * s + 2] for s in range(self.n)])
        finally:
            free(out)

    def context_choices(self, int pair, int extra, int decide):
        """The action (0 stand, 1 hit, 2 double) taken at every hand of deck context (pair, extra) by the
        decisions of ``decide`` (0: the unsplit hand's; e: context (pair, e)'s optimum).

        ``pair`` -1 is unsplit optimal play (without split or surrender).
        NO_ACTION marks hands the context's deck cannot hold and, in a split context, hands without a card
        of the pair (no split hand reaches them).
        """
        if pair >= 0 and not (1 <= extra <= MAX_EXTRA and 0 <= decide <= MAX_EXTRA):
            raise ValueError("split context out of range")
        cdef int ctx = ctx_index(pair, extra)
        cdef int src = decide_context(ctx, decide if pair >= 0 else 0)
        cdef int s
        out = bytearray(self.n)
        for s in range(self.n):
            if not self.holds(ctx, s) or (pair >= 0 and self.counts[s * N_RANKS + pair] == 0):
                out[s] = NO_ACTION
            elif self.total[s] >= 21:
                out[s] = STAND
            else:
                out[s] = self.choice(src, s, self.can_double(ctx, s))
        return bytes(out)

    def split_choices(self, int decide):
        """``context_choices(pair, 1, decide)`` of every pair, concatenated (pair A first): one-split play."""
        return b"".join(self.context_choices(pair, 1, decide) for pair in range(N_RANKS))

    def may_double(self, int s):
        return bool(self.can_double(0, s))

    def split_hand_values(self, int pair, int extra, int decide, bint one_card):
        """Joint values of a split hand {pair, r} for each second card r, in deck context (pair, extra),
        played by the decisions of ``decide``.

        ``extra``: pair cards gone from the deck beyond the hand's own (1 with one
        split; more after resplits).  ``one_card``: the hand receives exactly one
        card and stands (split aces).  Entries for second cards the deck cannot
        hold are NaN.
        """
        if not (0 <= pair < N_RANKS and 1 <= extra <= MAX_EXTRA and 0 <= decide <= MAX_EXTRA):
            raise ValueError("split context out of range")
        cdef int ctx = ctx_index(pair, extra)
        cdef int d[N_RANKS]
        cdef int r, t
        cdef int start = self.nxt[pair]   # the empty hand is state 0
        cdef double v[N_RANKS]
        with nogil:
            self.split_dealer_batch(ctx, decide, one_card)
            self.deck_of(ctx, start, d)
            for r in range(N_RANKS):
                t = self.nxt[start * N_RANKS + r]
                if d[r] <= 0 or t < 0:
                    v[r] = NAN
                else:
                    v[r] = self.stand(ctx, t) if one_card else self.after_card(ctx, t, decide)
        return [v[r] for r in range(N_RANKS)]

    def context_stand_values(self, int pair, int extra):
        """Joint stand values of every hand of deck context (pair, extra): ``pair`` -1 (and ``extra`` 0) is
        unsplit play; otherwise a split hand whose deck lacks ``extra`` pair cards beyond its own.

        A list indexed by state: NaN where the context's deck cannot hold the hand (two or more
        cards) and, in a split context, where the hand holds no card of the pair.
        """
        if pair >= 0 and not (1 <= extra <= MAX_EXTRA):
            raise ValueError("split context out of range")
        cdef int ctx = ctx_index(pair, extra)
        cdef int s
        cdef double* out = <double*>malloc(self.n * sizeof(double))
        cdef vector[int] listed
        if not out:
            raise MemoryError()
        cdef size_t j
        with nogil:
            for s in range(self.n):
                out[s] = NAN
                if self.holds(ctx, s) and (pair < 0 or self.counts[s * N_RANKS + pair] > 0):
                    listed.push_back(s)
            self.dealer_batch(ctx, listed)      # (the unsplit context's are all known already)
            for j in range(listed.size()):
                out[listed[j]] = self.stand(ctx, listed[j])
        try:
            return [out[s] for s in range(self.n)]
        finally:
            free(out)

    def tie_records(self, split_strategy):
        """Exact ties are recorded by the exact solver; floats treat values within 1e-12 as tied."""
        return []

    def work(self):
        """Size of the work done so far: hand states valued (unsplit, split contexts), dealer evaluations."""
        cdef int ctx, s, unsplit = 0, split = 0, dealer = 0
        for ctx in range(N_CTX):
            for s in range(self.n):
                if self.stand_memo[ctx] != NULL and not isnan(self.stand_memo[ctx][s]):
                    if ctx == 0:
                        unsplit += 1
                    else:
                        split += 1
                if self.dealer_known[ctx] != NULL and self.dealer_known[ctx][s]:
                    dealer += 1
        return {"unsplit_hand_states": unsplit, "split_hand_states": split, "dealer_evaluations": dealer}

    def dealer_probabilities(self, int s, int ctx=0):
        """Dealer outcome probabilities (joint units) for hand s in context ctx."""
        cdef double* p = self.dealer_dist(ctx, s)
        return [p[k] for k in range(N_OUTCOMES)]
