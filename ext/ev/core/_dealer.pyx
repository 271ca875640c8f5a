# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Dealer outcome probabilities for one up card, from its terminal hands.

A terminal hand is a multiset M of cards the dealer draws (hole card first) and
stops on, with the number of drawing orders that reach it (``ev.core.shapes``).
For a deck D with N cards, ``P(M) = orders(M) * prod_r ff(D_r, M_r) / ff(N, |M|)``.

The sum over the terminal hands of one outcome is evaluated in nested (Horner)
form: the hands are grouped by outcome and length and arranged in a trie over
their rank counts (ace first), so a shared prefix of counts is multiplied once.
The busting hands (about half of all) are not summed: P(bust) is what the
other outcomes leave of P(no settled blackjack), which holds whenever the deck
cannot run out before the dealer finishes (at least as many cards as the
longest dealer hand); for smaller decks every terminal hand is summed.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, qsort
from libc.string cimport memcpy, memset
from libcpp.vector cimport vector

from ev.core._constants cimport BUST, N_OUTCOMES, N_RANKS, TEN, compare_counts
from ev.core._keymap cimport keymap_free, keymap_get, keymap_init, keymap_put
from ev.core._shapes cimport OUTCOME_SHIFT, Terminal, terminal_list, unpack


cdef extern from *:
    """
    /* The dealer's trie walk for sixteen decks side by side (DealerTable.walk_batch).  Each lane performs
       the scalar walk's operations in the same order (a product, then a sum), so its values are the
       scalar ones to the bit; the lanes are four 32-byte vectors (the walk is bound by the latency of a
       path's sums, so more lanes cost little more time: 32 lanes gained 2-3 %).  On x86-64 Linux with
       glibc (whose loader makes the choice) GCC makes the function twice and one is picked when the module
       loads: with AVX2 each vector is one instruction (the analysis 17-22 % faster than with 16-byte
       vectors), without it two 16-byte ones, as before.
       No FMA: a product and a sum stay two roundings, the same values on every machine. */
    typedef double bj_v2 __attribute__((vector_size(32)));
    #define BJ_LANES 16
    #define BJ_VECTORS (BJ_LANES / 4)
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) \
        && defined(__GLIBC__) && !defined(BJ_NO_CLONES)
    #define BJ_CLONES __attribute__((target_clones("avx2", "default")))
    #else
    #define BJ_CLONES
    #endif
    #define BJ_RANKS 10
    #define BJ_DRAW 40
    #define BJ_OUTCOMES 7
    BJ_CLONES static void bj_walk_batch(const int* decks, const int* max_count, int max_len, int n_nodes,
                              const int* parent, const unsigned char* rank, const unsigned char* count,
                              const double* ways, const unsigned char* depth, const unsigned char* g_outcome,
                              const int* g_len, double* sums_out) {
        double ff[BJ_RANKS][BJ_DRAW][BJ_LANES] __attribute__((aligned(64)));
        double inv_ff[BJ_DRAW][BJ_LANES] __attribute__((aligned(64)));
        double sums[BJ_OUTCOMES][BJ_LANES] __attribute__((aligned(64)));
        double f[BJ_LANES];
        int n[BJ_LANES];
        int r, k, l, i;
        for (l = 0; l < BJ_LANES; l++) {
            n[l] = 0;
            for (r = 0; r < BJ_RANKS; r++) n[l] += decks[l * BJ_RANKS + r];
        }
        for (r = 0; r < BJ_RANKS; r++) {
            for (l = 0; l < BJ_LANES; l++) ff[r][0][l] = 1.0;
            for (k = 1; k <= max_count[r]; k++)
                for (l = 0; l < BJ_LANES; l++) {
                    int x = decks[l * BJ_RANKS + r] - k + 1;
                    ff[r][k][l] = x > 0 ? ff[r][k - 1][l] * x : 0.0;
                }
        }
        for (l = 0; l < BJ_LANES; l++) { f[l] = 1.0; inv_ff[0][l] = 1.0; }
        for (k = 1; k <= max_len; k++)
            for (l = 0; l < BJ_LANES; l++) { f[l] *= n[l] - k + 1; inv_ff[k][l] = 1.0 / f[l]; }
        for (k = 0; k < BJ_OUTCOMES; k++)
            for (l = 0; l < BJ_LANES; l++) sums[k][l] = 0.0;
        /* The nodes are in depth-first order, a subtree right after its root, so walking backwards a
           node's children are all met just before it: their sum waits in pend[depth + 1].  A node's
           value is then its ways (a leaf) plus its children's sum (an inner node, ways 0), exactly the
           scalar walk's: 0 + x is x. */
        bj_v2 pend[BJ_RANKS + 2][BJ_VECTORS] __attribute__((aligned(64)));
        int j;
        for (k = 0; k < BJ_RANKS + 2; k++)
            for (j = 0; j < BJ_VECTORS; j++) pend[k][j] = (bj_v2){0.0, 0.0, 0.0, 0.0};
        for (i = n_nodes - 1; i >= 0; i--) {
            const bj_v2* q = (const bj_v2*)&ff[rank[i]][count[i]][0];
            int d = depth[i], p = parent[i];
            bj_v2 w = {ways[i], ways[i], ways[i], ways[i]};
            bj_v2 v[BJ_VECTORS];
            for (j = 0; j < BJ_VECTORS; j++) {
                v[j] = (w + pend[d + 1][j]) * q[j];
                pend[d + 1][j] = (bj_v2){0.0, 0.0, 0.0, 0.0};
            }
            if (p >= 0) {
                for (j = 0; j < BJ_VECTORS; j++) pend[d][j] += v[j];
            } else {
                int g = -1 - p;
                bj_v2* s = (bj_v2*)&sums[g_outcome[g]][0];
                const bj_v2* iv = (const bj_v2*)&inv_ff[g_len[g]][0];
                for (j = 0; j < BJ_VECTORS; j++) s[j] += v[j] * iv[j];
            }
        }
        for (k = 0; k < BJ_OUTCOMES; k++)
            for (l = 0; l < BJ_LANES; l++) sums_out[k * BJ_LANES + l] = sums[k][l];
    }
    """
    void bj_walk_batch(const int* decks, const int* max_count, int max_len, int n_nodes, const int* parent,
                       const unsigned char* rank, const unsigned char* count, const double* ways,
                       const unsigned char* depth, const unsigned char* g_outcome, const int* g_len,
                       double* sums) noexcept nogil
    const int BJ_LANES


if BJ_LANES != BATCH:      # the kernel's lanes and the batches DealerTable hands it (_dealer.pxd)
    raise ImportError(f"the dealer kernel walks {BJ_LANES} decks at once, not BATCH = {BATCH}")


#: decks whose outcomes cached_distribution_batch keeps, per up card (about 100 bytes each: 6.5 MB, 65 MB for the
#: ten).  2**18 kept a report's second pass over the split rounds (the basic chart's) 0.8-1.8 s quicker and cost
#: up to 230 MB more (six decks to three hands: 329 -> 487 MiB, 10.3 -> 9.5 s; 2026-12-07)
cdef size_t KNOWN_MOST = 1 << 16


cdef struct Sorted:
    int outcome
    int length
    unsigned char m[N_RANKS]
    double ways


cdef int compare_sorted(const void* a, const void* b) noexcept nogil:
    """Group order of the trie: outcome, then length, then the counts as a tuple (ace first)."""
    cdef const Sorted* x = <const Sorted*>a
    cdef const Sorted* y = <const Sorted*>b
    if x.outcome != y.outcome:
        return x.outcome - y.outcome
    if x.length != y.length:
        return x.length - y.length
    return compare_counts(x.m, y.m)


cdef class DealerTable:
    """Terminal hands of the dealer for one up card (``DealerTable(up, hit_soft_17, excluded, caps)``)."""

    def __cinit__(self, int up, bint hit_soft_17, int excluded, tuple caps):
        cdef int cap[N_RANKS]
        cdef int r, j, k, g, p, depth, prev_depth, n_pairs = 0
        cdef size_t i
        cdef vector[Terminal] terms
        cdef vector[Sorted] by_group
        cdef Sorted s
        cdef int path_node[N_RANKS]
        cdef unsigned char path_rank[N_RANKS]
        cdef unsigned char path_count[N_RANKS]
        cdef int prev_rank[N_RANKS]
        cdef int prev_count[N_RANKS]
        self.up, self.excluded = up, excluded
        self.known_lock = new mutex()
        if keymap_init(&self.known, 10) < 0:
            raise MemoryError()
        for r in range(N_RANKS):
            cap[r] = caps[r]
            self.max_count[r] = 0
        terms = terminal_list(up, hit_soft_17, excluded, cap)
        self.n_terms = terms.size()
        self.max_len = 0
        for i in range(terms.size()):
            unpack(terms[i].key, s.m)
            s.outcome = terms[i].key >> OUTCOME_SHIFT
            s.length = 0
            for r in range(N_RANKS):
                s.length += s.m[r]
                n_pairs += s.m[r] > 0
                if s.m[r] > self.max_count[r]:
                    self.max_count[r] = s.m[r]
            s.ways = <double>terms[i].ways
            if s.length > self.max_len:
                self.max_len = s.length
            by_group.push_back(s)
        if self.max_len >= MAX_DRAW:
            raise ValueError("dealer hand too long for the core")
        n = max(self.n_terms, 1)
        self.term_start = <int*>malloc((n + 1) * sizeof(int))
        self.pair_rank = <unsigned char*>malloc(max(n_pairs, 1))
        self.pair_count = <unsigned char*>malloc(max(n_pairs, 1))
        self.term_len = <int*>malloc(n * sizeof(int))
        self.term_ways = <double*>malloc(n * sizeof(double))
        self.term_outcome = <unsigned char*>malloc(n)
        # the trie has at most one node per (terminal, nonzero rank)
        self.node_parent = <int*>malloc(max(n_pairs, 1) * sizeof(int))
        self.node_rank = <unsigned char*>malloc(max(n_pairs, 1))
        self.node_count = <unsigned char*>malloc(max(n_pairs, 1))
        self.node_ways = <double*>malloc(max(n_pairs, 1) * sizeof(double))
        self.group_len = <int*>malloc(n * sizeof(int))
        self.group_outcome = <unsigned char*>malloc(n)
        if not (self.term_start and self.pair_rank and self.pair_count and self.term_len and self.term_ways
                and self.term_outcome and self.node_parent and self.node_rank and self.node_count
                and self.node_ways and self.group_len and self.group_outcome):
            raise MemoryError()
        # the flat list, in the order of the terminal hands
        k = 0
        for i in range(by_group.size()):
            self.term_start[i] = k
            for r in range(N_RANKS):
                if by_group[i].m[r]:
                    self.pair_rank[k] = r
                    self.pair_count[k] = by_group[i].m[r]
                    k += 1
            self.term_len[i] = by_group[i].length
            self.term_ways[i] = by_group[i].ways
            self.term_outcome[i] = by_group[i].outcome
        self.term_start[self.n_terms] = k
        # the trie of the hands that do not bust
        if by_group.size() > 0:
            qsort(&by_group[0], by_group.size(), sizeof(Sorted), compare_sorted)
        self.n_nodes = self.n_groups = 0
        prev_depth = 0
        for i in range(by_group.size()):
            s = by_group[i]
            if s.outcome == BUST:
                continue
            if (self.n_groups == 0 or self.group_len[self.n_groups - 1] != s.length
                    or self.group_outcome[self.n_groups - 1] != s.outcome):
                self.group_len[self.n_groups] = s.length
                self.group_outcome[self.n_groups] = s.outcome
                self.n_groups += 1
                prev_depth = 0
            g = self.n_groups - 1
            depth = 0
            for r in range(N_RANKS):
                if s.m[r]:
                    path_rank[depth] = r
                    path_count[depth] = s.m[r]
                    depth += 1
            # the nodes shared with the previous hand of the group
            j = 0
            while j < depth and j < prev_depth and prev_rank[j] == path_rank[j] and prev_count[j] == path_count[j]:
                j += 1
            while j < depth:
                self.node_parent[self.n_nodes] = (-1 - g) if j == 0 else path_node[j - 1]
                self.node_rank[self.n_nodes] = path_rank[j]
                self.node_count[self.n_nodes] = path_count[j]
                self.node_ways[self.n_nodes] = 0.0
                path_node[j] = self.n_nodes
                prev_rank[j], prev_count[j] = path_rank[j], path_count[j]
                self.n_nodes += 1
                j += 1
            self.node_ways[path_node[depth - 1]] += s.ways
            prev_depth = depth
        self.node_depth = <unsigned char*>malloc(max(self.n_nodes, 1))
        if not self.node_depth:
            raise MemoryError()
        for i in range(self.n_nodes):
            p = self.node_parent[i]
            self.node_depth[i] = self.node_depth[p] + 1 if p >= 0 else 0

    def __dealloc__(self):
        del self.known_lock
        keymap_free(&self.known)
        free(self.term_start)
        free(self.pair_rank)
        free(self.pair_count)
        free(self.term_len)
        free(self.term_ways)
        free(self.term_outcome)
        free(self.node_parent)
        free(self.node_rank)
        free(self.node_count)
        free(self.node_ways)
        free(self.node_depth)
        free(self.group_len)
        free(self.group_outcome)

    cdef void distribution(self, const int* deck, double* out) noexcept nogil:
        """out[0..6] = P(17), P(18), P(19), P(20), P(21), P(bust), P(blackjack) for this deck (joint units)."""
        cdef double ff[N_RANKS][MAX_DRAW]
        cdef double inv_ff[MAX_DRAW]
        cdef double pend[N_RANKS + 2]
        cdef int r, k, i, j, p, d, n = 0
        cdef double v, f, mass
        for r in range(N_RANKS):
            n += deck[r]
            ff[r][0] = 1.0
            for k in range(1, self.max_count[r] + 1):
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
        if n < self.max_len:
            # the deck may run out before the dealer finishes: sum every terminal hand
            for i in range(self.n_terms):
                v = self.term_ways[i] * inv_ff[self.term_len[i]]
                for j in range(self.term_start[i], self.term_start[i + 1]):
                    v *= ff[self.pair_rank[j]][self.pair_count[j]]
                out[self.term_outcome[i]] += v
            return
        # the walk of bj_walk_batch for one deck: a node's children are met just before it (the nodes are in
        # depth-first order), their sum waiting in pend[depth + 1]; no scratch is shared between calls, so
        # that threads may walk one table at once (ev.analysis.accounting's split rounds)
        memset(pend, 0, sizeof(pend))
        for i in range(self.n_nodes - 1, -1, -1):
            d = self.node_depth[i]
            v = (self.node_ways[i] + pend[d + 1]) * ff[self.node_rank[i]][self.node_count[i]]
            pend[d + 1] = 0.0
            p = self.node_parent[i]
            if p >= 0:
                pend[d] += v
            else:
                out[self.group_outcome[-1 - p]] += v * inv_ff[self.group_len[-1 - p]]
        mass = 1.0 - (deck[self.excluded] / <double>n if self.excluded >= 0 else 0.0)
        v = 0.0
        for k in range(N_OUTCOMES):
            if k != BUST:
                v += out[k]
        out[BUST] = mass - v

    cdef uint64_t deck_key(self, const int* deck) noexcept nogil:
        """The deck packed below bit 63 (never 0): 6 bits a rank, 8 for the tens (8 decks hold 128);
        0 for a deck that does not pack."""
        cdef uint64_t key = (<uint64_t>1) << 63
        cdef int r
        for r in range(N_RANKS):
            if deck[r] < 0 or deck[r] > (255 if r == TEN else 63):
                return 0
            key |= (<uint64_t>deck[r]) << (6 * r)
        return key

    cdef void keep(self, uint64_t key, const double* values) noexcept nogil:
        """Keep the outcomes of the deck of ``key`` (``deck_key``) for ``cached_distribution_batch`` (at most
        KNOWN_MOST decks; a deck kept already is kept once).  The caller holds ``known_lock``."""
        cdef int at, r
        if key == 0 or <size_t>self.known.size >= KNOWN_MOST or keymap_get(&self.known, key) >= 0:
            return
        at = self.known_values.size()
        for r in range(N_OUTCOMES):
            self.known_values.push_back(values[r])
        if keymap_put(&self.known, key, at) < 0:     # out of memory: only the cache is lost
            self.known_values.resize(at)

    cdef void distribution_batch(self, const int* decks, int count, double* out) noexcept nogil:
        """``distribution`` of ``count`` decks (N_RANKS counts each, one after another) into ``out``
        (N_OUTCOMES each).  The trie is walked once for up to BATCH decks side by side; each deck's
        sums are formed in the order ``distribution`` forms them, so the values are the same to the bit.
        A deck that may run out before the dealer finishes goes to ``distribution`` alone."""
        cdef int chunk[BATCH * N_RANKS]
        cdef int where[BATCH]
        cdef int i, r, n, lanes = 0
        for i in range(count):
            n = 0
            for r in range(N_RANKS):
                n += decks[i * N_RANKS + r]
            if n < self.max_len:
                self.distribution(decks + i * N_RANKS, out + i * N_OUTCOMES)
                continue
            memcpy(chunk + lanes * N_RANKS, decks + i * N_RANKS, N_RANKS * sizeof(int))
            where[lanes] = i
            lanes += 1
            if lanes == BATCH:
                self.walk_batch(chunk, lanes, where, out)
                lanes = 0
        if lanes:
            self.walk_batch(chunk, lanes, where, out)

    cdef void walk_batch(self, int* decks, int lanes, const int* where, double* out) noexcept nogil:
        """The trie walk of ``distribution`` for the first ``lanes`` of BATCH decks (each at least max_len
        cards) at once, in vector instructions (``bj_walk_batch``); lane l's outcomes go to
        ``out[where[l] * N_OUTCOMES ..]``.  The idle lanes walk copies of the first deck; a lone deck is
        walked alone."""
        cdef double sums[N_OUTCOMES * BATCH]
        cdef int r, k, l, n
        cdef double mass, rest
        cdef double* o
        if lanes == 1:
            self.distribution(decks, out + where[0] * N_OUTCOMES)
            return
        for l in range(lanes, BATCH):
            memcpy(decks + l * N_RANKS, decks, N_RANKS * sizeof(int))
        bj_walk_batch(decks, self.max_count, self.max_len, self.n_nodes, self.node_parent, self.node_rank,
                      self.node_count, self.node_ways, self.node_depth, self.group_outcome, self.group_len, sums)
        for l in range(lanes):
            n = 0
            for r in range(N_RANKS):
                n += decks[l * N_RANKS + r]
            mass = 1.0 - (decks[l * N_RANKS + self.excluded] / <double>n if self.excluded >= 0 else 0.0)
            o = out + where[l] * N_OUTCOMES
            rest = 0.0
            for k in range(N_OUTCOMES):
                if k != BUST:
                    rest += sums[k * BATCH + l]
                    o[k] = sums[k * BATCH + l]
            o[BUST] = mass - rest

    cdef void cached_distribution_batch(self, const int* decks, int count, double* out) noexcept nogil:
        """``distribution`` of ``count`` decks (as ``distribution_batch``), kept for the next time the same
        deck is asked for (a game's split rounds meet the same decks under every strategy that is evaluated;
        at most KNOWN_MOST decks are kept): the decks met before are read, the others evaluated side by side
        and kept.  Threads may call it at once on one table (the accounting's
        split rounds of one up card run side by side): the kept decks are read and written under a lock, the
        others evaluated outside it (two threads may evaluate one deck: the same values to the bit)."""
        cdef vector[int] missed
        cdef vector[int] which
        cdef vector[uint64_t] keys          # the missed decks' keys, for keep
        cdef vector[double] values
        cdef uint64_t key
        cdef int i, r, at
        cdef size_t j
        self.known_lock.lock()
        for i in range(count):
            key = self.deck_key(decks + i * N_RANKS)
            at = keymap_get(&self.known, key) if key else -1
            if at >= 0:
                memcpy(out + i * N_OUTCOMES, &self.known_values[at], N_OUTCOMES * sizeof(double))
                continue
            which.push_back(i)
            keys.push_back(key)
            for r in range(N_RANKS):
                missed.push_back(decks[i * N_RANKS + r])
        self.known_lock.unlock()
        if which.empty():
            return
        values.resize(which.size() * N_OUTCOMES)
        self.distribution_batch(missed.data(), <int>which.size(), values.data())
        self.known_lock.lock()
        for j in range(which.size()):
            memcpy(out + which[j] * N_OUTCOMES, &values[j * N_OUTCOMES], N_OUTCOMES * sizeof(double))
            self.keep(keys[j], &values[j * N_OUTCOMES])
        self.known_lock.unlock()

    def probabilities_batch(self, decks):
        """Python access to ``distribution_batch``: the 7 outcome probabilities (joint units) of each deck."""
        cdef vector[int] d
        cdef vector[double] out
        for deck in decks:
            for r in range(N_RANKS):
                d.push_back(deck[r])
        out.resize(max(len(decks), 1) * N_OUTCOMES)
        self.distribution_batch(d.data(), len(decks), out.data())
        return [[out[i * N_OUTCOMES + k] for k in range(N_OUTCOMES)] for i in range(len(decks))]

    def probabilities(self, deck):
        """Python access: the 7 outcome probabilities (joint units) for a deck (10 counts)."""
        cdef int d[N_RANKS]
        cdef double out[N_OUTCOMES]
        for r in range(N_RANKS):
            d[r] = deck[r]
        self.distribution(d, out)
        return [out[k] for k in range(N_OUTCOMES)]

    def work(self):
        """Size of one evaluation: terminal hands, trie nodes (multiply-adds) and outcome groups."""
        return {"terminal_hands": self.n_terms, "trie_nodes": self.n_nodes, "groups": self.n_groups}
