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
from libc.string cimport memcmp, memcpy, memset
from libc.math cimport INFINITY, NAN, isnan
from math import perm
from libc.stdint cimport uint64_t
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from ev.core._constants cimport BLACKJACK, BUST, DOUBLE, HIT, N_OUTCOMES, N_RANKS, SPLIT, STAND, SURRENDER, TEN
from ev.core._dealer cimport DealerTable
from ev.core._player cimport UpcardSolver, N_CTX, ctx_index, ctx_pair, ctx_extra
from ev.core._shapes cimport HandGraphArrays
from ev.core._split_round import RoundTooLarge, SplitRound

cdef enum:
    HAND_CELLS = 20     # doubled (2) x dealer blackjack (2) x result -2..+2 (5)


cdef inline int hand_cell(int doubled, int bj, int result) noexcept nogil:
    return doubled * 10 + bj * 5 + result + 2


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


cdef enum:
    N_TYPES = 14        # a finished hand: total 16 or less, 17 .. 21, bust (22), each with bet 1 or 2


cdef inline int hand_type(int total, int bet) noexcept nogil:
    return ((total if total > 16 else 16) - 16) * 2 + bet - 1


cdef enum:
    N_KINDS = N_RANKS + 1           # the ranks, and the tens of a pair's face (tens split by rank)


cdef struct KindFinal:
    unsigned char cards[N_KINDS]    # the cards a split hand drew beyond its pair card, by kind
    int state                       # its hand state while it is still drawing
    int type                        # hand_type(total, bet) once it has ended
    uint64_t orders                 # the number of drawing orders that reach it


cdef inline double mean_result(const double* p) noexcept nogil:
    """The mean result of a hand's joint distribution (HAND_CELLS), summed in cell order."""
    cdef double mean = 0.0
    cdef int k
    for k in range(HAND_CELLS):
        if p[k] != 0.0:
            mean += (k % 5 - 2) * p[k]
    return mean


cdef class PolicyEvaluator:
    """A strategy's exact values and outcome distributions for the up card of ``solver``."""
    cdef UpcardSolver solver
    cdef int n
    cdef int natural_rank          # hole card making a dealer blackjack (settled or not), or -1
    cdef bint settled
    cdef unsigned char* play       # unsplit hands
    cdef unsigned char* split_play # split hands: N_RANKS tables (one per pair rank) of n codes
    cdef double* value_memo[N_CTX]  # n per deck context, made on first use
    cdef double* dist_memo[N_CTX]   # n * HAND_CELLS per deck context
    cdef char* dist_known[N_CTX]    # n per deck context
    cdef char batched[N_CTX]        # the context's dealer decks evaluated side by side (batch_context)
    cdef readonly dict work        # size of the work (kept by the exact evaluator; empty here)
    # the caps of a split round of three or four hands scored exactly (SplitRound.work_cap and state_cap; -1:
    # none): past one, the round scores those hands independently given the dealer (split_round)
    cdef public long long work_cap, state_cap
    # the hand graph's parents (made on the first change of ``play``: forget_changed): the states from which
    # state s is one card on are parent_of[parent_start[s] .. parent_start[s + 1]]
    cdef int* parent_start
    cdef int* parent_of
    cdef int* stack

    def __cinit__(self, UpcardSolver solver, int natural_rank, bytes play, bytes split_play):
        """``play``: a code per state for unsplit hands; ``split_play``: the same for hands split
        from each pair rank, concatenated (pair A first)."""
        cdef int i
        self.solver = solver
        self.n = solver.n
        self.work_cap = self.state_cap = -1
        self.natural_rank = natural_rank
        self.settled = solver.bj_rank >= 0
        if len(play) != self.n or len(split_play) != N_RANKS * self.n:
            raise ValueError("strategy tables must have one code per hand-graph state (per pair after a split)")
        self.play = <unsigned char*>malloc(self.n)
        self.split_play = <unsigned char*>malloc(N_RANKS * self.n)
        self.parent_start = self.parent_of = self.stack = NULL
        for i in range(N_CTX):
            self.value_memo[i] = NULL
            self.dist_memo[i] = NULL
            self.dist_known[i] = NULL
        self.work = {}
        if not (self.play and self.split_play):
            raise MemoryError()
        memcpy(self.play, <const unsigned char*>play, self.n)
        memcpy(self.split_play, <const unsigned char*>split_play, N_RANKS * self.n)
        self.forget()

    def __dealloc__(self):
        self.forget()
        free(self.play); free(self.split_play)
        free(self.parent_start); free(self.parent_of); free(self.stack)

    cdef void forget(self) noexcept nogil:
        """Drop every memoised value and distribution."""
        cdef int i
        for i in range(N_CTX):
            self.forget_context(i)

    cdef void forget_context(self, int i) noexcept nogil:
        """Drop the memoised values and distributions of deck context i."""
        free(self.value_memo[i])
        free(self.dist_memo[i])
        free(self.dist_known[i])
        self.value_memo[i] = NULL
        self.dist_memo[i] = NULL
        self.dist_known[i] = NULL
        self.batched[i] = 0

    def set_policy(self, bytes play, bytes split_play):
        """Replace the strategy.  The values and distributions of a deck context are forgotten when the table
        it reads changes (the unsplit hands read ``play``; the split hands of a pair read that pair's part of
        ``split_play``); the others are kept, being what the new strategy gives too (the same operations, so
        the same floats)."""
        cdef int p, ctx
        cdef const unsigned char* new_play = play
        cdef const unsigned char* new_split = split_play
        if len(play) != self.n or len(split_play) != N_RANKS * self.n:
            raise ValueError("strategy tables must have one code per hand-graph state (per pair after a split)")
        with nogil:
            if memcmp(new_play, self.play, self.n) != 0:
                self.forget_changed(new_play)
                memcpy(self.play, new_play, self.n)
            for p in range(N_RANKS):
                if memcmp(new_split + p * self.n, self.split_play + p * self.n, self.n) != 0:
                    memcpy(self.split_play + p * self.n, new_split + p * self.n, self.n)
                    for ctx in range(1, N_CTX):
                        if ctx_pair(ctx) == p:
                            self.forget_context(ctx)

    cdef void forget_changed(self, const unsigned char* new_play) noexcept nogil:
        """Before ``play`` becomes ``new_play``: forget the unsplit hands' values that read a changed code, those
        of the states whose code changes and of every state that holds a value reached through one (a value is
        memoised only once its children's are, so a state without one has no parent that read it: the walk up
        stops there); the others are what the new strategy gives too, the same floats.  The unsplit hands'
        distributions are forgotten.  (The basic chart's ascent changes one cell at a time: most values stay.
        The split hands' contexts are forgotten whole: forgetting them state by state measured no faster.)"""
        cdef int s, w
        cdef uint64_t a, b
        cdef double* memo = self.value_memo[0]
        free(self.dist_memo[0])
        free(self.dist_known[0])
        self.dist_memo[0] = NULL
        self.dist_known[0] = NULL
        if memo == NULL:
            return
        if self.parent_start == NULL and not self.make_parents():
            self.forget_context(0)
            return
        for w in range((self.n + 7) // 8):      # eight codes at a time: a cell changes few of them
            if 8 * w + 8 <= self.n:
                memcpy(&a, self.play + 8 * w, 8)
                memcpy(&b, new_play + 8 * w, 8)
                if a == b:
                    continue
            for s in range(8 * w, min(8 * w + 8, self.n)):
                if new_play[s] != self.play[s] and not isnan(memo[s]):
                    self.forget_above(memo, s)

    cdef void forget_above(self, double* memo, int s) noexcept nogil:
        """Forget state s's value and those of the states above it that hold one (``forget_changed``)."""
        cdef int t, i, top = 1
        memo[s] = NAN
        self.stack[0] = s
        while top:
            top -= 1
            t = self.stack[top]
            for i in range(self.parent_start[t], self.parent_start[t + 1]):
                if not isnan(memo[self.parent_of[i]]):
                    memo[self.parent_of[i]] = NAN
                    self.stack[top] = self.parent_of[i]
                    top += 1

    cdef bint make_parents(self) noexcept nogil:
        """The hand graph's parent lists (``parent_start``, ``parent_of``) and a stack of n states; False when
        memory runs out."""
        cdef int s, r, t, links = 0
        for s in range(self.n):
            for r in range(N_RANKS):
                if self.solver.nxt[s * N_RANKS + r] >= 0:
                    links += 1
        self.parent_start = <int*>calloc(self.n + 1, sizeof(int))
        self.parent_of = <int*>malloc((links + 1) * sizeof(int))
        self.stack = <int*>malloc((self.n + 1) * sizeof(int))
        if not (self.parent_start and self.parent_of and self.stack):
            free(self.parent_start); free(self.parent_of); free(self.stack)
            self.parent_start = self.parent_of = self.stack = NULL
            return False
        for s in range(self.n):
            for r in range(N_RANKS):
                t = self.solver.nxt[s * N_RANKS + r]
                if t >= 0:
                    self.parent_start[t + 1] += 1
        for s in range(self.n):
            self.parent_start[s + 1] += self.parent_start[s]
            self.stack[s] = self.parent_start[s]       # (the stack as each list's cursor while filling)
        for s in range(self.n):
            for r in range(N_RANKS):
                t = self.solver.nxt[s * N_RANKS + r]
                if t >= 0:
                    self.parent_of[self.stack[t]] = s
                    self.stack[t] += 1
        return True

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
        cdef int d[N_RANKS]
        cdef int r, t, n, c, i
        if self.value_memo[ctx] == NULL:
            self.value_memo[ctx] = <double*>malloc(self.n * sizeof(double))
            for i in range(self.n):
                self.value_memo[ctx][i] = NAN
        cdef double v = self.value_memo[ctx][s]
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
        self.value_memo[ctx][s] = v
        return v

    def hand_value(self, int s, int ctx=0):
        """Joint value of hand s played by the strategy (its first action read from the table)."""
        with nogil:
            v = self.value(ctx, s)
        return v

    def deal_sum(self, const int[::1] states, const double[::1] probs, const int[::1] pairs,
                 const double[::1] split_values, const double[::1] surrender_values):
        """Sum over deals i of probs[i] x the joint value of hand ``states[i]`` played by the strategy, in deal
        order: ``split_values[pairs[i]]`` where the strategy splits it, ``surrender_values[i]`` where it
        surrenders, else ``hand_value``.  (The basic chart's ascent sums its deals here, one call instead of a
        loop of calls; the same operations in the same order as that loop.)"""
        cdef Py_ssize_t i, m = states.shape[0]
        cdef int s, a
        cdef double v, total = 0.0
        if probs.shape[0] != m or pairs.shape[0] != m or surrender_values.shape[0] != m:
            raise ValueError("one probability, pair and surrender value per deal")
        if split_values.shape[0] != N_RANKS:
            raise ValueError("one split value per pair rank")
        for i in range(m):
            if not 0 <= states[i] < self.n:
                raise ValueError("a deal's state is not a hand-graph state")
            if self.play[states[i]] == SPLIT and not 0 <= pairs[i] < N_RANKS:
                raise ValueError("a split deal's pair rank is not a rank")
        with nogil:
            for i in range(m):
                s = states[i]
                a = self.play[s]
                if a == SPLIT:
                    v = split_values[pairs[i]]
                elif a == SURRENDER:
                    v = surrender_values[i]
                else:
                    v = self.value(0, s)
                total += probs[i] * v
        return total

    def split_value(self, int pair, bint one_card):
        """Joint EV of splitting (one split, both hands): 2 V, exact for any strategy on own cards."""
        cdef int ctx = ctx_index(pair, 1)
        cdef int start = self.solver.nxt[pair]
        cdef int d[N_RANKS]
        cdef int r, t, n
        cdef double v = 0.0
        with nogil:
            self.batch_context(ctx, one_card)
            n = self.solver.deck_of(ctx, start, d)
            for r in range(N_RANKS):
                if d[r] > 0:
                    t = self.solver.nxt[start * N_RANKS + r]
                    v += d[r] * (self.solver.stand(ctx, t) if one_card else self.value(ctx, t))
        return 2.0 * v / n

    cdef void batch_context(self, int ctx, bint one_card) noexcept nogil:
        """Evaluate, side by side, the dealer decks the strategy's split hands of context ``ctx`` stand on
        (every second card; ``UpcardSolver.walk_ahead`` by the table's codes, as ``value`` and ``dist`` play
        them).  Once per context and strategy."""
        if ctx == 0 or self.batched[ctx]:
            return
        self.batched[ctx] = 1
        self.solver.walk_ahead(ctx, ctx, self.split_play + ctx_pair(ctx) * self.n, one_card)

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
        if self.dist_memo[ctx] == NULL:
            self.dist_memo[ctx] = <double*>malloc(self.n * HAND_CELLS * sizeof(double))
            self.dist_known[ctx] = <char*>calloc(self.n, 1)
        cdef double* out = self.dist_memo[ctx] + s * HAND_CELLS
        if not self.dist_known[ctx][s]:
            memset(out, 0, HAND_CELLS * sizeof(double))
            self.play_cells(ctx, s, self.code(ctx, s), out)
            self.dist_known[ctx][s] = 1
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

    cdef const double* context_cells(self, int s, int pair, int extra, bint one_card, double* out) noexcept nogil:
        """The cells (HAND_CELLS) of split hand s in context (pair, extra): the memo's, or, for a hand that
        stands (``one_card``), written into ``out``."""
        cdef int ctx = ctx_index(pair, extra)
        self.batch_context(ctx, one_card)
        if one_card:
            memset(out, 0, HAND_CELLS * sizeof(double))
            self.stand_cells(ctx, s, 0, 1.0, out)
            return out
        return self.dist(ctx, s)

    def context_distribution(self, int s, int pair, int extra, bint one_card):
        """As ``hand_distribution`` for split hand s in context (pair, extra); ``one_card``: it stands."""
        cdef double out[HAND_CELLS]
        cdef const double* p = self.context_cells(s, pair, extra, one_card, out)
        return {(k // 10, (k // 5) % 2, k % 5 - 2): p[k] for k in range(HAND_CELLS) if p[k] != 0.0}

    def context_values(self, int s, int pair, int extra, bint one_card):
        """(mean result, mean stake) of ``context_distribution(s, pair, extra, one_card)``: the sums of
        result x mass and (1 + doubled) x mass over its cells, in its order (the same floats), without the
        dict."""
        cdef double out[HAND_CELLS]
        cdef const double* p = self.context_cells(s, pair, extra, one_card, out)
        cdef double stake = 0.0
        cdef int k
        for k in range(HAND_CELLS):
            if p[k] != 0.0:
                stake += (1 + k // 10) * p[k]
        return mean_result(p), stake

    def context_means(self, int pair, int extra, bint one_card, bytes skip):
        """The mean result of ``context_values`` for the split hand {pair, c} of every second card c (ace
        first), in one call; NaN where ``skip[c]`` (a card the deck cannot deal) or no such hand exists."""
        cdef double out[HAND_CELLS]
        cdef int c, t, start = self.solver.nxt[pair]
        cdef list means = []
        if len(skip) != N_RANKS:
            raise ValueError("skip must hold one byte per rank")
        for c in range(N_RANKS):
            t = self.solver.nxt[start * N_RANKS + c] if start >= 0 else -1
            if t < 0 or skip[c]:
                means.append(NAN)
                continue
            means.append(mean_result(self.context_cells(t, pair, extra, one_card, out)))
        return means

    # ----- a split round: every hand and the dealer from one deck -------------------
    cdef void class_finals(self, const unsigned char* codes, const int* deck, int kinds, int resplit_kind,
                           int pair, bint one_card, bint non_resplit, vector[KindFinal]& out) noexcept nogil:
        """Every way a split hand (its pair card plus draws from ``deck``) ends under the decisions ``codes``:
        the cards drawn (kinds), the number of drawing orders that end it there, and its type.

        ``non_resplit``: the hand's second card is not a resplit card (it completed while more hands
        could still be made).  Kinds are the ten ranks, and for tens split by rank an eleventh: the
        tens of the pair's face (the only ones that resplit).  A breadth-first forward pass over
        (hand state, cards drawn by kind), level by level, so every count is complete when it is used.
        """
        cdef vector[KindFinal] level, grown
        cdef unordered_map[uint64_t, size_t] where      # (state, tens of the pair's face) -> index in grown
        cdef KindFinal f, g
        cdef int k, r, s, t, c, total, bet
        cdef size_t i
        cdef uint64_t key
        memset(f.cards, 0, sizeof(f.cards))
        f.state, f.orders, f.type = self.solver.nxt[pair], 1, 0
        level.push_back(f)
        cdef bint first = True
        while level.size() > 0:
            grown.clear()
            where.clear()
            for i in range(level.size()):
                f = level[i]
                s = f.state
                c = HIT if first else codes[s]
                if not first and (self.solver.total[s] == 21 or c == STAND or one_card):
                    f.type = hand_type(self.solver.total[s], 1)
                    out.push_back(f)
                    continue
                for k in range(kinds):
                    if f.cards[k] >= deck[k] or (first and non_resplit and k == resplit_kind):
                        continue
                    r = TEN if k == N_RANKS else k
                    t = self.solver.nxt[s * N_RANKS + r]
                    g = f
                    g.cards[k] += 1
                    if t < 0 or (not first and c == DOUBLE):
                        total = 22 if t < 0 else self.solver.total[t]
                        bet = 2 if (not first and c == DOUBLE) else 1
                        g.type = hand_type(total, bet)
                        g.state = -1
                        out.push_back(g)
                    else:
                        g.state = t
                        # the same cards reached in another order: one entry (the state fixes the ranks)
                        key = (<uint64_t>t << 8) | g.cards[N_RANKS]
                        if where.count(key):
                            grown[where[key]].orders += g.orders
                        else:
                            where[key] = grown.size()
                            grown.push_back(g)
            level.swap(grown)
            first = False

    def split_round(self, int pair, bint one_card, list configs, dict codes_by_context, int resplit_cards,
                    bint faces, list type_sets, double exact_limit=INFINITY):
        """Joint distribution of a split round's play: {(doubles, dealer_blackjack, net, hands): mass}.

        Exact, resplits included: every card of the hands and the dealer comes
        from one deck.  ``configs``: the outcomes of the second-card process
        grouped as (number of words, resplit cards used, hand classes), a class
        being (context k, second card known not to resplit);
        ``codes_by_context``: k -> the action code of every hand state for a
        hand of context k; ``resplit_cards``: the cards able to resplit in the
        deck less both pair cards (``faces``: they are the tens of the pair's
        face, an eleventh kind of card); ``type_sets``: the multisets of hand
        types (see ``ev.analysis.splits.type_sets``), each with its number of
        doubles, its net result per dealer outcome and its successors.

        P(one assignment of cards to the pieces) = prod over the pieces of their
        drawing orders x ff(D, U) / ff(|D|, |U|) for the deck D less both pair
        cards and the cards U used (the hands' and the dealer's), so the hands
        but the last are merged one at a time into integer weights keyed by the
        union of their cards and their type multiset; the last hand is summed
        per union against the dealer, evaluated once per final union.
        """
        cdef int ctx = ctx_index(pair, 1)
        cdef int deck10[N_RANKS]
        cdef int deck[N_KINDS]
        cdef int kinds = N_KINDS if faces else N_RANKS
        cdef int resplit_kind = N_KINDS - 1 if faces else pair
        cdef int k, most = 2
        cdef size_t i
        cdef vector[KindFinal] fin
        cdef const unsigned char[:] codes
        cdef dict index = {}
        cdef list class_list = []
        cdef list complete = []         # per class: an X-hand, whose finals are every way its play ends
        self.solver.deck_of(ctx, self.solver.nxt[pair], deck10)      # the deck less both pair cards
        for k in range(N_RANKS):
            deck[k] = deck10[k]
        if faces:
            deck[TEN] -= resplit_cards
            deck[N_KINDS - 1] = resplit_cards
        cdef dict by_codes = {}         # hands of different contexts that play alike share their finals
        for count, n_p, classes in configs:
            most = max(most, 2 + n_p)
            for key in classes:
                if key in index:
                    continue
                same = (codes_by_context[key[0]], key[1])
                if same not in by_codes:
                    codes = codes_by_context[key[0]]
                    fin.clear()
                    self.class_finals(&codes[0], deck, kinds, resplit_kind, pair, one_card, key[1], fin)
                    by_codes[same] = len(class_list)
                    complete.append(not key[1])
                    class_list.append([(tuple(fin[i].cards[k] for k in range(kinds)), fin[i].orders, fin[i].type)
                                       for i in range(fin.size())])
                index[key] = by_codes[same]
        # the exact merge's work, bounded above by the products of the classes' finals
        cdef double bound = 0.0, b
        for count, n_p, classes in configs:
            if len(classes) > 2:
                b = 1.0
                for c in classes[:len(classes) - 1]:
                    b *= len(class_list[index[c]])
                bound += b
        cdef int n0 = sum(deck10[k] for k in range(N_RANKS))
        # three and four hands exactly where the bound is within exact_limit, and then unless the work passes
        # this evaluator's caps (work_cap, state_cap): the round is then made again, those hands independent
        for independent in (bound > exact_limit, True):
            sr = SplitRound(self.solver.dealer, [deck10[k] for k in range(N_RANKS)], pair,
                            resplit_cards, faces, type_sets, class_list, most, complete)
            exact = []
            for count, n_p, classes in configs:
                if len(classes) > 2 and independent:
                    n_n = sum(1 for c in classes if c[1])
                    sr.add_config_independent(count * perm(resplit_cards, n_p) * perm(n0 - resplit_cards, n_n)
                                              / perm(n0, n_p + n_n), n_p, [index[c] for c in classes])
                else:
                    exact.append((count, n_p, [index[c] for c in classes]))
            if not independent and bound > 0.0:
                sr.work_cap, sr.state_cap = self.work_cap, self.state_cap
            try:
                sr.add_configs(exact)
                sr.finish()
                break
            except RoundTooLarge:
                self.work["rounds_past_the_caps"] = self.work.get("rounds_past_the_caps", 0) + 1
        for name, value in sr.work().items():
            self.work[name] = self.work.get(name, 0) + value
        return sr.cells_float()


def random_after(HandGraphArrays graph, list stand, list base, int settled):
    """Random play's ``after`` values of one deck context, in floats: the C twin of
    ``ev.analysis.random_play.after_values`` (the same operations in the same order, so the same doubles).

    ``after[s]``: the value of hand s when it has just drawn a card (a third or later): stand or hit,
    1/2 each, below 21; stand at 21.  ``stand``: the context's stand values (NaN where the deck cannot
    hold the hand); ``base``: the context's deck, by rank; ``settled``: the rank whose hole card makes a
    dealer blackjack settled before play, or -1.  NaN where a value is missing."""
    cdef int n = graph.n, s, c, t, m, dc, size = 0, row
    cdef long long bust
    cdef double x, value, hit
    cdef int deck[N_RANKS]
    if len(stand) != n or len(base) != N_RANKS:
        raise ValueError("random_after needs a stand value per hand state and a deck of ten ranks")
    for c in range(N_RANKS):
        deck[c] = base[c]
        size += deck[c]
    cdef double* st = <double*>malloc(n * sizeof(double))
    cdef double* after = <double*>malloc(n * sizeof(double))
    if st == NULL or after == NULL:
        free(st)
        free(after)
        raise MemoryError()
    try:
        for s in range(n):
            st[s] = stand[s]
            after[s] = NAN
        with nogil:
            for s in range(n - 1, -1, -1):          # a hand's successors come later in the graph
                x = st[s]
                if isnan(x):
                    continue
                if graph.total[s] == 21:
                    after[s] = x
                    continue
                row = s * N_RANKS
                m = size - graph.ncards[s]
                value, bust = 0.0, 0
                for c in range(N_RANKS):
                    dc = deck[c] - graph.counts[row + c]
                    if dc > 0:
                        t = graph.nxt[row + c]
                        if t >= 0:
                            value += dc * after[t]
                        elif settled < 0:
                            bust += dc
                        else:
                            bust += dc * (m - 1 - deck[settled] + graph.counts[row + settled] + (c == settled))
                if m <= 0:
                    hit = NAN
                elif bust and settled >= 0:
                    hit = (value - <double>bust / (m - 1)) / m if m > 1 else NAN
                else:
                    hit = (value - <double>bust) / m
                after[s] = (x + hit) * 0.5
        return [after[s] for s in range(n)]
    finally:
        free(st)
        free(after)
