# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""A fixed strategy, evaluated exactly: values and outcome distributions for one up card.

Where ``_player`` finds the best play, this module follows a strategy handed
in as data (``ev.analysis.strategy.Policy``: an action code per hand-graph state
for unsplit hands and for split hands) and computes, exactly:

* the joint value of a hand played by the strategy (the EV of a chart);
* the joint distribution of a hand's result, its stake and whether the dealer
  has an (unsettled) blackjack;
* for one split, the joint distribution of *both* hands' results against the
  *same* dealer hand, by enumerating the first hand's final cards, then the
  second hand's, then the dealer's outcome for what is left.

Units are those of ``_player``: joint, i.e. when a dealer blackjack is settled
before play the masses sum to P(no dealer blackjack).  The dealer's
distributions come from the solver's cache (one per deck, shared).
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.math cimport NAN, isnan
from libc.stdint cimport uint64_t
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from ev.core._constants cimport BLACKJACK, BUST, DOUBLE, HIT, N_OUTCOMES, N_RANKS, STAND
from ev.core._dealer cimport DealerTable
from ev.core._player cimport UpcardSolver, N_CTX, ctx_index, ctx_pair, ctx_extra

cdef enum:
    HAND_CELLS = 20     # doubled (2) x dealer blackjack (2) x result -2..+2 (5)
    OUTCOME_CELLS = 70  # doubled (2) x dealer outcome (7) x result -2..+2 (5)
    SPLIT_CELLS = 54    # doubles 0..2 (3) x dealer blackjack (2) x net -4..+4 (9)


cdef inline int hand_cell(int doubled, int bj, int result) noexcept nogil:
    return doubled * 10 + bj * 5 + result + 2


cdef inline int split_cell(int doubles, int bj, int net) noexcept nogil:
    return doubles * 18 + bj * 9 + net + 4


cdef inline int result_of(int total, int bet, int outcome) noexcept nogil:
    """A hand's result in initial bets: total 22 means bust; outcome indexes 17..21, bust, blackjack."""
    if total > 21 or outcome == BLACKJACK:
        return -bet
    if outcome == BUST:
        return bet
    if total > 17 + outcome:
        return bet
    if total < 17 + outcome:
        return -bet
    return 0


cdef struct Final:
    unsigned char cards[N_RANKS]   # the cards a split hand drew beyond its pair card
    int type                       # hand_type(total, bet)
    double ways                    # the number of drawing orders that end the hand there


cdef enum:
    N_TYPES = 14        # a finished hand: total 16 or less, 17 .. 21, bust (22), each with bet 1 or 2


cdef inline int hand_type(int total, int bet) noexcept nogil:
    return ((total if total > 16 else 16) - 16) * 2 + bet - 1


cdef int TYPE_RESULT[N_TYPES][N_OUTCOMES]
for _type in range(N_TYPES):
    for _o in range(N_OUTCOMES):
        TYPE_RESULT[_type][_o] = result_of(16 + _type // 2, 1 + _type % 2, _o)


cdef class PolicyEvaluator:
    """A strategy's exact values and outcome distributions for the up card of ``solver``."""
    cdef UpcardSolver solver
    cdef int n
    cdef int natural_rank          # hole card making a dealer blackjack (settled or not), or -1
    cdef bint settled
    cdef unsigned char* play       # unsplit hands
    cdef unsigned char* split_play # split hands: N_RANKS tables (one per pair rank) of n codes
    cdef double* value_memo        # N_CTX * n
    cdef double* dist_memo         # N_CTX * n * HAND_CELLS
    cdef char* dist_known          # N_CTX * n
    cdef double* mass              # n, scratch for forward passes
    cdef double* odist_memo        # n * OUTCOME_CELLS, for one context at a time
    cdef char* odist_known         # n
    cdef int odist_ctx
    cdef readonly dict work        # size of the work (kept by the exact evaluator; empty here)

    def __cinit__(self, UpcardSolver solver, int natural_rank, bytes play, bytes split_play):
        """``play``: a code per state for unsplit hands; ``split_play``: the same for hands split
        from each pair rank, concatenated (pair A first)."""
        cdef int i
        self.solver = solver
        self.n = solver.n
        self.natural_rank = natural_rank
        self.settled = solver.bj_rank >= 0
        if len(play) != self.n or len(split_play) != N_RANKS * self.n:
            raise ValueError("strategy tables must have one code per hand-graph state (per pair after a split)")
        self.play = <unsigned char*>malloc(self.n)
        self.split_play = <unsigned char*>malloc(N_RANKS * self.n)
        self.value_memo = <double*>malloc(N_CTX * self.n * sizeof(double))
        self.dist_memo = <double*>malloc(N_CTX * self.n * HAND_CELLS * sizeof(double))
        self.dist_known = <char*>calloc(N_CTX * self.n, 1)
        self.mass = <double*>calloc(self.n, sizeof(double))
        self.odist_memo = <double*>malloc(self.n * OUTCOME_CELLS * sizeof(double))
        self.odist_known = <char*>calloc(self.n, 1)
        self.odist_ctx = -1
        self.work = {}
        if not (self.play and self.split_play and self.value_memo and self.dist_memo and self.dist_known
                and self.mass and self.odist_memo and self.odist_known):
            raise MemoryError()
        self.set_policy(play, split_play)

    def __dealloc__(self):
        free(self.play); free(self.split_play); free(self.value_memo); free(self.dist_memo)
        free(self.dist_known); free(self.mass); free(self.odist_memo); free(self.odist_known)

    def set_policy(self, bytes play, bytes split_play):
        """Replace the strategy (forgetting every value computed under the old one)."""
        cdef int i
        for i in range(self.n):
            self.play[i] = play[i]
        for i in range(N_RANKS * self.n):
            self.split_play[i] = split_play[i]
        for i in range(N_CTX * self.n):
            self.value_memo[i] = NAN
        memset(self.dist_known, 0, N_CTX * self.n)
        self.odist_ctx = -1

    cdef inline int code(self, int ctx, int s) noexcept nogil:
        return self.play[s] if ctx == 0 else self.split_play[ctx_pair(ctx) * self.n + s]

    cdef inline double p_natural(self, const int* d, int n) noexcept nogil:
        """P(the hole card makes an unsettled dealer blackjack) for deck d."""
        if self.settled or self.natural_rank < 0 or n <= 0:
            return 0.0
        return d[self.natural_rank] / <double>n

    # ----- values ------------------------------------------------------------
    cdef double value(self, int ctx, int s) noexcept nogil:
        """Joint value of hand s, which has just received a card, played on by the strategy."""
        cdef int key = ctx * self.n + s
        cdef double v = self.value_memo[key]
        cdef int d[N_RANKS]
        cdef int r, t, n, c
        if not isnan(v):
            return v
        c = self.code(ctx, s)
        if self.solver.total[s] == 21 or c == STAND:
            v = self.solver.stand(ctx, s)
        elif c == DOUBLE:
            v = self.solver.double_down(ctx, s)
        else:
            n = self.solver.deck_of(ctx, s, d)
            v = 0.0
            for r in range(N_RANKS):
                if d[r] > 0:
                    t = self.solver.nxt[s * N_RANKS + r]
                    v += d[r] * (self.solver.bust_value(d, n, r) if t < 0 else self.value(ctx, t))
            v /= n
        self.value_memo[key] = v
        return v

    def hand_value(self, int s, int ctx=0):
        """Joint value of hand s played by the strategy (its first action read from the table)."""
        with nogil:
            v = self.value(ctx, s)
        return v

    def split_value(self, int pair, bint one_card):
        """Joint EV of splitting (one split, both hands): 2 V, exact for any strategy on own cards."""
        cdef int ctx = ctx_index(pair, 1)
        cdef int start = self.solver.nxt[pair]
        cdef int d[N_RANKS]
        cdef int r, t, n
        cdef double v = 0.0
        with nogil:
            n = self.solver.deck_of(ctx, start, d)
            for r in range(N_RANKS):
                if d[r] > 0:
                    t = self.solver.nxt[start * N_RANKS + r]
                    v += d[r] * (self.solver.stand(ctx, t) if one_card else self.value(ctx, t))
        return 2.0 * v / n

    # ----- one hand's distribution ---------------------------------------------
    cdef void stand_cells(self, int ctx, int s, int doubled, double weight, double* out) noexcept nogil:
        cdef double* p = self.solver.dealer_dist(ctx, s)
        cdef int o, total = self.solver.total[s], bet = 2 if doubled else 1
        for o in range(N_OUTCOMES):
            if p[o] != 0.0:
                out[hand_cell(doubled, 1 if o == BLACKJACK else 0, result_of(total, bet, o))] += weight * p[o]

    cdef void bust_cells(self, const int* d, int n, int r, int doubled, double weight, double* out) noexcept nogil:
        """Busting after drawing r from deck d: the bet is lost; note an unsettled dealer blackjack."""
        cdef int bet = 2 if doubled else 1
        cdef double live = -self.solver.bust_value(d, n, r)   # P(no settled blackjack)
        cdef int rest[N_RANKS]
        cdef int q
        cdef double p_bj
        for q in range(N_RANKS):
            rest[q] = d[q] - (1 if q == r else 0)
        p_bj = self.p_natural(rest, n - 1)
        out[hand_cell(doubled, 0, -bet)] += weight * live * (1.0 - p_bj)
        out[hand_cell(doubled, 1, -bet)] += weight * live * p_bj

    cdef void play_cells(self, int ctx, int s, int c, double* out) noexcept nogil:
        """Add the joint distribution (HAND_CELLS) of hand s played from here with first action c."""
        cdef double* child
        cdef int d[N_RANKS]
        cdef int r, t, n, k
        if self.solver.total[s] == 21 or c == STAND:
            self.stand_cells(ctx, s, 0, 1.0, out)
            return
        n = self.solver.deck_of(ctx, s, d)
        for r in range(N_RANKS):
            if d[r] <= 0:
                continue
            t = self.solver.nxt[s * N_RANKS + r]
            if t < 0:
                self.bust_cells(d, n, r, 1 if c == DOUBLE else 0, d[r] / <double>n, out)
            elif c == DOUBLE:
                self.stand_cells(ctx, t, 1, d[r] / <double>n, out)
            else:
                child = self.dist(ctx, t)
                for k in range(HAND_CELLS):
                    out[k] += d[r] / <double>n * child[k]

    cdef double* dist(self, int ctx, int s) noexcept nogil:
        """Joint distribution (HAND_CELLS) of hand s, which has just received a card, played on."""
        cdef int key = ctx * self.n + s
        cdef double* out = self.dist_memo + key * HAND_CELLS
        if not self.dist_known[key]:
            memset(out, 0, HAND_CELLS * sizeof(double))
            self.play_cells(ctx, s, self.code(ctx, s), out)
            self.dist_known[key] = 1
        return out

    def hand_distribution(self, int s, int ctx=0, int first=-1):
        """Joint distribution of hand s played by the strategy: {(doubled, dealer_blackjack, result): mass}.

        ``first``: the first action (STAND, HIT or DOUBLE) when it is not the
        table's, e.g. the fallback of a pair that cannot be split; -1 reads it
        from the table.
        """
        cdef double out[HAND_CELLS]
        memset(out, 0, sizeof(out))
        with nogil:
            self.play_cells(ctx, s, self.code(ctx, s) if first < 0 else first, out)
        return {(k // 10, (k // 5) % 2, k % 5 - 2): out[k] for k in range(HAND_CELLS) if out[k] != 0.0}

    def context_distribution(self, int s, int pair, int extra, bint one_card):
        """As ``hand_distribution`` for split hand s in context (pair, extra); ``one_card``: it stands."""
        cdef double* p
        cdef double out[HAND_CELLS]
        cdef int ctx = ctx_index(pair, extra)
        if one_card:
            memset(out, 0, sizeof(out))
            self.stand_cells(ctx, s, 0, 1.0, out)
            p = out
        else:
            p = self.dist(ctx, s)
        return {(k // 10, (k // 5) % 2, k % 5 - 2): p[k] for k in range(HAND_CELLS) if p[k] != 0.0}

    # ----- one hand's results jointly with the dealer's outcome (for resplits) ----
    cdef void outcome_stand(self, int ctx, int s, int doubled, double weight, double* out) noexcept nogil:
        cdef double* p = self.solver.dealer_dist(ctx, s)
        cdef int o, total = self.solver.total[s], bet = 2 if doubled else 1
        for o in range(N_OUTCOMES):
            if p[o] != 0.0:
                out[doubled * 35 + o * 5 + result_of(total, bet, o) + 2] += weight * p[o]

    cdef void outcome_bust(self, int ctx, int s, const int* d, int n, int r, int doubled, double weight,
                           double* out) noexcept nogil:
        """A bust loses the bet; the dealer's outcome is spread as for the hand before the busting card."""
        cdef double* p = self.solver.dealer_dist(ctx, s)
        cdef double live = -self.solver.bust_value(d, n, r), total = 0.0
        cdef int o, bet = 2 if doubled else 1
        for o in range(N_OUTCOMES):
            total += p[o]
        if total <= 0.0:
            return
        for o in range(N_OUTCOMES):
            out[doubled * 35 + o * 5 - bet + 2] += weight * live * p[o] / total

    cdef double* odist(self, int ctx, int s) noexcept nogil:
        cdef double* out = self.odist_memo + s * OUTCOME_CELLS
        cdef double* child
        cdef int d[N_RANKS]
        cdef int r, t, n, c, k
        if ctx != self.odist_ctx:
            memset(self.odist_known, 0, self.n)
            self.odist_ctx = ctx
        if self.odist_known[s]:
            return out
        memset(out, 0, OUTCOME_CELLS * sizeof(double))
        c = self.code(ctx, s)
        if self.solver.total[s] == 21 or c == STAND:
            self.outcome_stand(ctx, s, 0, 1.0, out)
        else:
            n = self.solver.deck_of(ctx, s, d)
            for r in range(N_RANKS):
                if d[r] <= 0:
                    continue
                t = self.solver.nxt[s * N_RANKS + r]
                if t < 0:
                    self.outcome_bust(ctx, s, d, n, r, 1 if c == DOUBLE else 0, d[r] / <double>n, out)
                elif c == DOUBLE:
                    self.outcome_stand(ctx, t, 1, d[r] / <double>n, out)
                else:
                    child = self.odist(ctx, t)
                    for k in range(OUTCOME_CELLS):
                        out[k] += d[r] / <double>n * child[k]
        self.odist_known[s] = 1
        return out

    def outcome_distribution(self, int s, int pair, int extra, bint one_card):
        """Joint distribution {(doubled, dealer outcome 0..6, result): mass} of split hand s in context
        (pair, extra).  Exact for standing and doubled hands; a bust's dealer outcome is spread as for the
        hand before the busting card (an approximation used only for resplit rounds)."""
        cdef double out[OUTCOME_CELLS]
        cdef double* p
        cdef int ctx = ctx_index(pair, extra)
        cdef int k
        memset(out, 0, sizeof(out))
        with nogil:
            if one_card:
                self.outcome_stand(ctx, s, 0, 1.0, out)
            else:
                p = self.odist(ctx, s)
                for k in range(OUTCOME_CELLS):
                    out[k] = p[k]
        return {(k // 35, (k // 5) % 7, k % 5 - 2): out[k] for k in range(OUTCOME_CELLS) if out[k] != 0.0}

    # ----- both split hands against the same dealer hand -------------------------
    cdef void finals(self, int ctx, const int* deck0, int pair, bint one_card, vector[Final]& out) noexcept nogil:
        """Every way a split hand (the pair card plus draws from deck0) can end: the cards drawn, the
        number of drawing orders that reach them and end the hand there, and the hand's type.

        A breadth-first forward pass over hand-graph states, following the split
        strategy.  Each draw adds one card, so the queue holds states level by
        level and every state's count is complete before it is processed.
        """
        cdef int start = self.solver.nxt[pair]
        cdef int s, r, t, q, c, total, bet
        cdef double w
        cdef Final f
        cdef vector[int] touched
        self.mass[start] = 1.0
        touched.push_back(start)
        cdef size_t i = 0
        while i < touched.size():
            s = touched[i]
            i += 1
            w = self.mass[s]
            self.mass[s] = 0.0
            c = STAND if s == start else self.code(ctx, s)
            if s != start and (self.solver.total[s] == 21 or c == STAND or one_card):
                for q in range(N_RANKS):
                    f.cards[q] = self.solver.counts[s * N_RANKS + q] - (1 if q == pair else 0)
                f.type, f.ways = hand_type(self.solver.total[s], 1), w
                out.push_back(f)
                continue
            for r in range(N_RANKS):
                if self.solver.counts[s * N_RANKS + r] - (1 if r == pair else 0) >= deck0[r]:
                    continue
                t = self.solver.nxt[s * N_RANKS + r]
                if t < 0 or (s != start and c == DOUBLE):
                    for q in range(N_RANKS):
                        f.cards[q] = (self.solver.counts[s * N_RANKS + q] - (1 if q == pair else 0)
                                      + (1 if q == r else 0))
                    total = 22 if t < 0 else self.solver.total[t]
                    bet = 2 if (s != start and c == DOUBLE) else 1
                    f.type, f.ways = hand_type(total, bet), w
                    out.push_back(f)
                else:
                    if self.mass[t] == 0.0:
                        touched.push_back(t)
                    self.mass[t] += w

    def split_distribution(self, int pair, bint one_card):
        """Joint distribution of a one-split round's play: {(doubles, dealer_blackjack, net): mass}.

        ``net`` is the sum of both hands' results (initial bets); the stake of
        the play is 2 + doubles.  Exact: every card of both hands and the
        dealer comes from one deck.  P(hand cards c1, c2, dealer's cards M) is
        orders(c1) orders(c2) orders(M) ff(D, c1 + c2 + M) / ff(|D|, |c1| + |c2| + |M|)
        for the deck D less both pair cards, so the pairs of finals are merged
        by their union u = c1 + c2 and the dealer is evaluated once per union
        (on D - u, which the dealer's own orders and falling factorials complete).
        """
        cdef int ctx = ctx_index(pair, 1)
        cdef int deck[N_RANKS]
        cdef int rest[N_RANKS]
        cdef unsigned char u[N_RANKS]
        cdef double out[SPLIT_CELLS]
        cdef double dd[N_OUTCOMES]
        cdef vector[Final] fin
        cdef vector[vector[int]] by_type
        cdef vector[int]* first
        cdef vector[int]* second
        cdef unordered_map[uint64_t, double] merged
        cdef unordered_map[uint64_t, int] union_index
        cdef vector[double] dealer         # per union: its 7 outcome probabilities times P(both hands' cards)
        cdef uint64_t key
        cdef int r, o, a, b, n0, size, ui, cell_base
        cdef size_t i, j, j0
        cdef double w, weight, f
        cdef bint ok
        memset(out, 0, sizeof(out))
        by_type.resize(N_TYPES)
        with nogil:
            n0 = self.solver.deck_of(ctx, self.solver.nxt[pair], deck)    # base less both pair cards
            self.finals(ctx, deck, pair, one_card, fin)
            for i in range(fin.size()):
                by_type[fin[i].type].push_back(i)
            for a in range(N_TYPES):
                first = &by_type[a]
                for b in range(a, N_TYPES):
                    second = &by_type[b]
                    merged.clear()
                    for i in range(first.size()):
                        j0 = i if a == b else 0
                        for j in range(j0, second.size()):
                            ok = True
                            key = 0
                            for r in range(N_RANKS):
                                u[r] = fin[first[0][i]].cards[r] + fin[second[0][j]].cards[r]
                                if u[r] > deck[r]:
                                    ok = False
                                    break
                                key = (key << 6) | u[r]
                            if not ok:
                                continue
                            # ordered pairs: (x, y) and (y, x) both, once when x is y
                            w = fin[first[0][i]].ways * fin[second[0][j]].ways
                            merged[key] += w if (a == b and i == j) else 2.0 * w
                    for item in merged:
                        key, w = item.first, item.second
                        if union_index.count(key) == 0:
                            ui = dealer.size() // N_OUTCOMES
                            union_index[key] = ui
                            size = 0
                            for r in range(N_RANKS - 1, -1, -1):
                                u[r] = (key >> (6 * (N_RANKS - 1 - r))) & 63
                                rest[r] = deck[r] - u[r]
                                size += u[r]
                            # P(the two hands hold exactly these cards, in one given order each)
                            f = 1.0
                            for r in range(N_RANKS):
                                for o in range(u[r]):
                                    f *= (deck[r] - o)
                            for o in range(size):
                                f /= (n0 - o)
                            self.solver.dealer.distribution(rest, dd)
                            for o in range(N_OUTCOMES):
                                dealer.push_back(f * dd[o])
                        ui = union_index[key]
                        for o in range(N_OUTCOMES):
                            weight = dealer[ui * N_OUTCOMES + o]
                            if weight != 0.0:
                                out[split_cell((a % 2) + (b % 2), 1 if o == BLACKJACK else 0,
                                               TYPE_RESULT[a][o] + TYPE_RESULT[b][o])] += w * weight
        return {(k // 18, (k // 9) % 2, k % 9 - 4): out[k] for k in range(SPLIT_CELLS) if out[k] != 0.0}
