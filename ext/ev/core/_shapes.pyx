# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""The shapes of play, enumerated in C: the player's hand graph and the dealer's terminal hands.

Both are pure combinatorics of the rules (no probabilities); ``ev.core.shapes``
is their Python face and documents them.
"""
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc, qsort
from libc.string cimport memcpy
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from ev.core._constants cimport ACE, BLACKJACK, BUST, N_RANKS
from ev.core._constants cimport compare_counts  # the hand graph's order


cdef struct State:
    int n                      # number of cards
    unsigned char c[N_RANKS]


cdef int compare_states(const void* a, const void* b) noexcept nogil:
    """Order of the hand graph: by number of cards, then by the counts as a tuple (ace first)."""
    cdef const State* x = <const State*>a
    cdef const State* y = <const State*>b
    if x.n != y.n:
        return x.n - y.n
    return compare_counts(x.c, y.c)


cdef void enumerate_hands(const int* caps, int r, State* cur, int hard, vector[State]& out) noexcept nogil:
    cdef int k = 0
    if r == N_RANKS:
        out.push_back(cur[0])
        return
    while k <= caps[r] and hard + k * (r + 1) <= 21:
        cur.c[r] = k
        cur.n += k
        enumerate_hands(caps, r + 1, cur, hard + k * (r + 1), out)
        cur.n -= k
        k += 1
    cur.c[r] = 0


cdef inline uint64_t pack(const unsigned char* c) noexcept nogil:
    cdef uint64_t key = 0
    cdef int r
    for r in range(N_RANKS):
        key = (key << RANK_BITS) | c[r]
    return key


cdef inline void best_total(const unsigned char* c, int extra_rank, int* total, bint* soft) noexcept nogil:
    """Best total of the multiset c plus one card of ``extra_rank`` (-1: none)."""
    cdef int r, hard = 0
    cdef bint ace = extra_rank == ACE
    for r in range(N_RANKS):
        hard += (r + 1) * c[r]
    if extra_rank >= 0:
        hard += extra_rank + 1
    ace = ace or c[ACE] > 0
    if ace and hard + 10 <= 21:
        total[0], soft[0] = hard + 10, True
    else:
        total[0], soft[0] = hard, False


def hand_graph(tuple caps):
    """Every hand (multiset of ranks) with hard total <= 21 within ``caps``, ordered by number of cards.

    Returns the dict documented in ``ev.core.shapes.hand_graph``.
    """
    cdef int cap[N_RANKS]
    cdef State cur
    cdef vector[State] states
    cdef unordered_map[uint64_t, int] index
    cdef int i, r, n, total
    cdef bint soft
    cdef uint64_t key
    cdef unsigned char grown[N_RANKS]
    for r in range(N_RANKS):
        cap[r] = caps[r]
        cur.c[r] = 0
    cur.n = 0
    enumerate_hands(cap, 0, &cur, 0, states)
    n = states.size()
    qsort(&states[0], n, sizeof(State), compare_states)
    for i in range(n):
        index[pack(states[i].c)] = i
    hands = []
    nxt = [0] * (n * N_RANKS)
    totals = [0] * n
    softs = [0] * n
    for i in range(n):
        hands.append(tuple([states[i].c[r] for r in range(N_RANKS)]))
        for r in range(N_RANKS):
            memcpy(grown, states[i].c, N_RANKS)
            grown[r] += 1
            key = pack(grown)
            nxt[i * N_RANKS + r] = index[key] if index.count(key) else -1
        best_total(states[i].c, -1, &total, &soft)
        totals[i] = total
        softs[i] = int(soft)
    return {
        "arrays": HandGraphArrays(nxt, totals, softs, [states[i].n for i in range(n)],
                                  [c for h in hands for c in h]),
        "hands": hands,
        "index": {h: i for i, h in enumerate(hands)},
        "counts": [c for h in hands for c in h],
        "next": nxt,
        "total": totals,
        "soft": softs,
        "ncards": [states[i].n for i in range(n)],
    }


cdef void unpack(uint64_t key, unsigned char* m) noexcept nogil:
    cdef int q
    for q in range(N_RANKS - 1, -1, -1):
        m[q] = key & ((1 << RANK_BITS) - 1)
        key >>= RANK_BITS


cdef int compare_terminals(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const Terminal*>a).key & ((<uint64_t>1 << OUTCOME_SHIFT) - 1)
    cdef uint64_t y = (<const Terminal*>b).key & ((<uint64_t>1 << OUTCOME_SHIFT) - 1)
    return -1 if x < y else (1 if x > y else 0)


cdef vector[Terminal] terminal_list(int up, bint hit_soft_17, int exclude_hole, const int* caps) noexcept nogil:
    """Every terminal dealer hand, sorted by multiset (see ``dealer_terminals``)."""
    cdef unordered_map[uint64_t, int64_t] frontier, grown
    cdef unordered_map[uint64_t, int64_t] terminal
    cdef unsigned char drawn[N_RANKS]
    cdef unsigned char m[N_RANKS]
    cdef uint64_t key
    cdef int64_t ways
    cdef int r, q, total, outcome, n_drawn
    cdef bint soft, first
    cdef vector[Terminal] out
    cdef Terminal t
    for r in range(N_RANKS):
        drawn[r] = 0
    frontier[pack(drawn)] = 1
    while frontier.size() > 0:
        grown.clear()
        for item in frontier:
            key, ways = item.first, item.second
            unpack(key, drawn)
            n_drawn = 0
            for q in range(N_RANKS):
                n_drawn += drawn[q]
            first = n_drawn == 0
            for r in range(N_RANKS):
                if drawn[r] >= caps[r] or (first and r == exclude_hole):
                    continue
                memcpy(m, drawn, N_RANKS)
                m[r] += 1
                best_total(m, up, &total, &soft)
                if first and total == 21:
                    outcome = BLACKJACK
                elif total > 21:
                    outcome = BUST
                elif total > 17 or (total == 17 and not (soft and hit_soft_17)):
                    outcome = total - 17
                else:
                    grown[pack(m)] += ways
                    continue
                terminal[(<uint64_t>outcome << OUTCOME_SHIFT) | pack(m)] += ways
        frontier.swap(grown)
    for item in terminal:
        t.key, t.ways = item.first, item.second
        out.push_back(t)
    if out.size() > 0:
        qsort(&out[0], out.size(), sizeof(Terminal), compare_terminals)
    return out


def dealer_terminals(int up, bint hit_soft_17, int exclude_hole, tuple caps):
    """(drawn multiset, number of orders, outcome index) for every way the dealer can finish.

    See ``ev.core.shapes.dealer_terminals``; sorted by multiset (as tuples).
    """
    cdef int cap[N_RANKS]
    cdef unsigned char m[N_RANKS]
    cdef vector[Terminal] out
    cdef size_t i
    for r in range(N_RANKS):
        cap[r] = caps[r]
    out = terminal_list(up, hit_soft_17, exclude_hole, cap)
    result = []
    for i in range(out.size()):
        unpack(out[i].key, m)
        result.append((tuple([m[q] for q in range(N_RANKS)]), out[i].ways, <int>(out[i].key >> OUTCOME_SHIFT)))
    return result


cdef class HandGraphArrays:
    """The hand graph as C arrays (see ``hand_graph``), built once and shared by the solvers."""

    def __cinit__(self, list nxt, list totals, list softs, list ncards, list counts):
        cdef int i
        self.n = len(totals)
        self.counts = <int*>malloc(self.n * N_RANKS * sizeof(int))
        self.nxt = <int*>malloc(self.n * N_RANKS * sizeof(int))
        self.total = <int*>malloc(self.n * sizeof(int))
        self.soft = <char*>malloc(self.n)
        self.ncards = <int*>malloc(self.n * sizeof(int))
        if not (self.counts and self.nxt and self.total and self.soft and self.ncards):
            raise MemoryError()
        for i in range(self.n * N_RANKS):
            self.counts[i] = counts[i]
            self.nxt[i] = nxt[i]
        for i in range(self.n):
            self.total[i] = totals[i]
            self.soft[i] = softs[i]
            self.ncards[i] = ncards[i]

    def __dealloc__(self):
        free(self.counts)
        free(self.nxt)
        free(self.total)
        free(self.soft)
        free(self.ncards)
