# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Exact sums over the finals of a split: the exact mode's evaluation of truly optimal split play.

``ev.core._optimal_split`` follows a strategy forward to the finals of both
split hands, merged by the union ``u`` of their cards with the number of
drawing orders of each pair of types.  Here those are summed exactly against
the dealer: every probability is an integer over a falling factorial, so the
cells of the outcome distribution are integers over one denominator, summed
modulo enough 31-bit primes and put together by the Chinese remainder theorem
(no big integers in the loop: the residues are reduced by Barrett's method and
the products of a cell accumulated in 128 bits, reduced once at the end).  The
dealer's outcome numerators come from the terminal hands of the float core's
``DealerTable`` (its trie), in 128-bit integers, eight decks walked side by
side.  Two hands of one class are merged as unordered pairs of finals.
"""
from fractions import Fraction

from libc.math cimport log2
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from libcpp.vector cimport vector

from ev.core._constants cimport BLACKJACK, BUST, N_OUTCOMES, N_RANKS
from ev.core._dealer cimport MAX_DRAW, DealerTable
from ev.core._keymap cimport KeyMap, keymap_free, keymap_get, keymap_init, keymap_put
from ev.core._split_finals cimport (N_TYPES, SPLIT_CELLS, Cell, count_of, flatten_cells, merge_cell, split_cell,
                                   unit)

cdef extern from *:
    ctypedef unsigned long long uint128 "unsigned __int128"

cdef extern from *:
    """
    /* The exact trie walk of dealer_numerators for EX_LANES decks side by side (exact_cell_sums): the same
       integer operations per lane as the scalar walk, so the same integers; the lanes' independent
       multiply-add chains overlap where the scalar walk waits on each one.  As in the float kernel
       (_dealer.pyx), the nodes are in depth-first order, so walking backwards a node's children are met
       just before it and their sum waits in pend[depth + 1].  Every lane's deck holds at least max_len
       cards. */
    #define EX_LANES 8
    #define EX_RANKS 10
    #define EX_DRAW 40
    #define EX_OUTCOMES 7
    typedef unsigned __int128 ex_u128;
    typedef unsigned long long ex_u64;
    /* FF_T: the type of the falling factorials of one rank (ex_u64 where every one fits 64 bits: a 128-by-64
       product is two multiplications, not three) */
    #define EX_KERNEL(NAME, FF_T)                                                                              \
    static void NAME(const int* decks, int lanes, const int* max_count, int max_len, int n_nodes,              \
                     const int* parent, const unsigned char* rank, const unsigned char* count,                 \
                     const double* ways, const unsigned char* depth,                                           \
                     const unsigned char* g_outcome, const int* g_len, ex_u128* out) {                         \
        FF_T ff[EX_RANKS][EX_DRAW + 1][EX_LANES];                                                              \
        ex_u128 g[EX_DRAW + 1][EX_LANES];                                                                      \
        ex_u128 pend[EX_RANKS + 2][EX_LANES];                                                                  \
        ex_u128 v[EX_LANES];                                                                                   \
        int n[EX_LANES];                                                                                       \
        int r, k, l, i, j;                                                                                     \
        for (l = 0; l < EX_LANES; l++) {                                                                       \
            n[l] = 0;                                                                                          \
            if (l < lanes)                                                                                     \
                for (r = 0; r < EX_RANKS; r++) n[l] += decks[l * EX_RANKS + r];                                \
        }                                                                                                      \
        for (r = 0; r < EX_RANKS; r++) {                                                                       \
            for (l = 0; l < EX_LANES; l++) ff[r][0][l] = 1;                                                    \
            for (k = 1; k <= max_count[r]; k++)                                                                \
                for (l = 0; l < EX_LANES; l++) {                                                               \
                    int x = l < lanes ? decks[l * EX_RANKS + r] - k + 1 : 0;                                   \
                    ff[r][k][l] = x > 0 ? ff[r][k - 1][l] * (FF_T)x : 0;                                       \
                }                                                                                              \
        }                                                                                                      \
        for (k = 0; k <= max_len; k++)                                                                         \
            for (l = 0; l < EX_LANES; l++) {                                                                   \
                ex_u128 x = 1;                                                                                 \
                for (i = 0; i < max_len - k; i++) x *= (ex_u128)(n[l] - k - i > 0 ? n[l] - k - i : 0);         \
                g[k][l] = x;                                                                                   \
            }                                                                                                  \
        for (k = 0; k < EX_OUTCOMES; k++)                                                                      \
            for (l = 0; l < EX_LANES; l++) out[k * EX_LANES + l] = 0;                                          \
        for (k = 0; k < EX_RANKS + 2; k++)                                                                     \
            for (l = 0; l < EX_LANES; l++) pend[k][l] = 0;                                                     \
        for (i = n_nodes - 1; i >= 0; i--) {                                                                   \
            const FF_T* q = ff[rank[i]][count[i]];                                                             \
            int d = depth[i], p = parent[i];                                                                   \
            ex_u128 w = (ex_u128)(unsigned long long)ways[i];                                                  \
            for (l = 0; l < EX_LANES; l++) {                                                                   \
                v[l] = (w + pend[d + 1][l]) * q[l];                                                            \
                pend[d + 1][l] = 0;                                                                            \
            }                                                                                                  \
            if (p >= 0) {                                                                                      \
                for (l = 0; l < EX_LANES; l++) pend[d][l] += v[l];                                             \
            } else {                                                                                           \
                j = -1 - p;                                                                                    \
                ex_u128* o = out + g_outcome[j] * EX_LANES;                                                    \
                const ex_u128* gl = g[g_len[j]];                                                               \
                for (l = 0; l < EX_LANES; l++) o[l] += v[l] * gl[l];                                           \
            }                                                                                                  \
        }                                                                                                      \
    }
    EX_KERNEL(ex_numerators_batch, ex_u128)
    EX_KERNEL(ex_numerators_batch64, ex_u64)
    """
    const int EX_LANES
    void ex_numerators_batch(const int* decks, int lanes, const int* max_count, int max_len, int n_nodes,
                             const int* parent, const unsigned char* rank, const unsigned char* count,
                             const double* ways, const unsigned char* depth, const unsigned char* g_outcome,
                             const int* g_len, uint128* out) noexcept nogil
    void ex_numerators_batch64(const int* decks, int lanes, const int* max_count, int max_len, int n_nodes,
                               const int* parent, const unsigned char* rank, const unsigned char* count,
                               const double* ways, const unsigned char* depth, const unsigned char* g_outcome,
                               const int* g_len, uint128* out) noexcept nogil

cdef enum:
    MAX_PRIMES = 40     # 1240 bits: enough for ff(416, 150)
    LANES = 8           # EX_LANES

# The largest primes below 2^31 (filled when the module loads).
cdef uint64_t PRIMES[MAX_PRIMES]


cdef bint is_prime(uint64_t n) noexcept nogil:
    cdef uint64_t k = 3
    if n % 2 == 0:
        return n == 2
    while k * k <= n:
        if n % k == 0:
            return False
        k += 2
    return True


cdef void fill_primes() noexcept nogil:
    cdef uint64_t n = (<uint64_t>1 << 31) - 1
    cdef int j = 0
    while j < MAX_PRIMES:
        if is_prime(n):
            PRIMES[j] = n
            j += 1
        n -= 2


fill_primes()


cdef inline uint64_t mod_p(uint64_t x, uint64_t p, uint64_t m) noexcept nogil:
    """x mod p for a prime p below 2^31, ``m`` = floor(2^64 / p) (Barrett): the quotient estimate is the true
    quotient or one less, so one subtraction corrects it."""
    cdef uint64_t q = <uint64_t>((<uint128>x * m) >> 64)
    cdef uint64_t r = x - q * p
    return r - p if r >= p else r


cdef inline uint128 no_settled_blackjack(DealerTable table, const int* d, int n, uint128 whole) noexcept nogil:
    """P(no settled blackjack) = 1 - d[bj] / n, as a numerator over ``whole`` (the walk's denominator)."""
    return whole - (<uint128>d[table.excluded] * whole // <uint128>n if table.excluded >= 0 else 0)


cdef inline void bust_from_rest(uint128* out, uint128 mass) noexcept nogil:
    """P(bust) is what the other outcomes leave of the mass (the busting hands are not in the trie)."""
    cdef uint128 total = 0
    cdef int k
    for k in range(N_OUTCOMES):
        if k != BUST:
            total += out[k]
    out[BUST] = mass - total


cdef inline uint64_t mod_p128(uint128 x, uint64_t p, uint64_t m, uint64_t two64) noexcept nogil:
    """x mod p for a 128-bit x (``two64`` = 2^64 mod p, ``m`` as for :func:`mod_p`)."""
    return mod_p(mod_p(<uint64_t>(x >> 64), p, m) * two64 + mod_p(<uint64_t>x, p, m), p, m)


cdef bint dealer_numerators(DealerTable table, const int* d, int n, uint128* scratch,
                            uint128* out) noexcept nogil:
    """The dealer's 7 outcome numerators (joint units) over ff(n, min(max_len, n)), exactly, from the
    terminal hands of a ``DealerTable`` (the float trie, summed in 128-bit integers: every partial sum
    is at most the denominator, below 2^106 for eight decks; ``scratch`` holds one value per trie node).
    False when the deck runs out before the dealer finishes."""
    cdef uint128 ff[N_RANKS][MAX_DRAW]
    cdef uint128 g[MAX_DRAW]
    cdef uint128 v, total, mass
    cdef int r, k, i, j, p, top = table.max_len if table.max_len < n else n
    if n == 0:      # no card left: the dealer cannot finish
        for k in range(N_OUTCOMES):
            out[k] = 0
        return False
    for r in range(N_RANKS):
        ff[r][0] = 1
        for k in range(1, table.max_count[r] + 1):
            ff[r][k] = ff[r][k - 1] * <uint128>(d[r] - k + 1) if d[r] - k + 1 > 0 else 0
    for k in range(table.max_len + 1):       # g[k] = ff(n - k, top - k): a length-k term to ff(n, top)
        g[k] = 1 if k <= top else 0
        for i in range(top - k):
            g[k] *= <uint128>(n - k - i)
    for k in range(N_OUTCOMES):
        out[k] = 0
    mass = no_settled_blackjack(table, d, n, g[0])
    if n < table.max_len:
        # every terminal hand, busts included; the deck runs out if they fall short of the mass
        total = 0
        for i in range(table.n_terms):
            v = (<uint128><uint64_t>table.term_ways[i]) * g[table.term_len[i]]
            for j in range(table.term_start[i], table.term_start[i + 1]):
                v *= ff[table.pair_rank[j]][table.pair_count[j]]
            out[table.term_outcome[i]] += v
            total += v
        return total == mass
    for i in range(table.n_nodes):
        scratch[i] = <uint128><uint64_t>table.node_ways[i]     # (below 2^53: via 64 bits, no libgcc call)
    for i in range(table.n_nodes - 1, -1, -1):
        v = scratch[i] * ff[table.node_rank[i]][table.node_count[i]]
        p = table.node_parent[i]
        if p >= 0:
            scratch[p] += v
        else:
            out[table.group_outcome[-1 - p]] += v * g[table.group_len[-1 - p]]
    bust_from_rest(out, mass)
    return True


cdef bint narrow_enough(DealerTable table, const int* d0) noexcept nogil:
    """Does every falling factorial ff(d[r], k), k up to the most cards of rank r in a dealer hand, fit 64 bits
    for every deck d within ``d0``?  (With a margin: the logarithms are floats.)"""
    cdef int r, k
    cdef double bits
    for r in range(N_RANKS):
        bits = 0.0
        for k in range(min(table.max_count[r], d0[r])):
            bits += log2(<double>(d0[r] - k))
        if bits > 63.5:
            return False
    return True


cdef void dealer_numerators_batch(DealerTable table, const int* decks, int lanes, bint narrow,
                                  uint128* out) noexcept nogil:
    """:func:`dealer_numerators` of ``lanes`` decks (at most LANES, N_RANKS counts each, every one of at least
    ``table.max_len`` cards), their trie walked side by side (``ex_numerators_batch``): the same integers.
    ``narrow``: every falling factorial of one rank these decks need is below 2^64 (:func:`narrow_enough`).
    ``out``: N_OUTCOMES numerators per deck, deck after deck."""
    cdef uint128 sums[N_OUTCOMES * LANES]
    cdef uint128 whole
    cdef int l, k, r, n
    if narrow:
        ex_numerators_batch64(decks, lanes, table.max_count, table.max_len, table.n_nodes, table.node_parent,
                              table.node_rank, table.node_count, table.node_ways, table.node_depth,
                              table.group_outcome, table.group_len, sums)
    else:
        ex_numerators_batch(decks, lanes, table.max_count, table.max_len, table.n_nodes, table.node_parent,
                            table.node_rank, table.node_count, table.node_ways, table.node_depth,
                            table.group_outcome, table.group_len, sums)
    for l in range(lanes):
        n = 0
        for r in range(N_RANKS):
            n += decks[l * N_RANKS + r]
        whole = 1           # ff(n, max_len)
        for k in range(table.max_len):
            whole *= <uint128>(n - k)
        for k in range(N_OUTCOMES):
            out[l * N_OUTCOMES + k] = sums[k * LANES + l]
        bust_from_rest(&out[l * N_OUTCOMES], no_settled_blackjack(table, &decks[l * N_RANKS], n, whole))


cdef object exact_split_cells(DealerTable table, const int* d0, vector[uint64_t]& unions, vector[Cell]& cells):
    """The exact joint distribution {(doubles, dealer_blackjack, net): Fraction} of the finals of two hands
    (cells by type pair): :func:`exact_cell_sums` with the cells of ``split_cell``."""
    cdef vector[int] cell_of
    cdef int t1, t2, o
    cell_of.resize(N_TYPES * N_TYPES * N_OUTCOMES)
    for t1 in range(N_TYPES):
        for t2 in range(N_TYPES):
            for o in range(N_OUTCOMES):
                cell_of[(t1 * N_TYPES + t2) * N_OUTCOMES + o] = split_cell(t1, t2, o)
    sums = exact_cell_sums(table, d0, unions, cells, cell_of, SPLIT_CELLS)
    return {(c // 18, (c // 9) % 2, c % 9 - 4): v for c, v in sums.items()}


cdef object exact_cell_sums(DealerTable table, const int* d0, vector[uint64_t]& unions, vector[Cell]& cells,
                            vector[int]& cell_of, int n_out):
    """The exact sums {output cell: Fraction} of the finals: a cell's ways of its finals against dealer
    outcome o go to output ``cell_of[cell.tpair * N_OUTCOMES + o]`` (of ``n_out``).

    P(c1, c2, dealer M) = orders(c1) orders(c2) orders(M) ff(D0, c1 + c2 + M) / ff(n0, |c1 + c2 + M|),
    so a union u of both hands' cards contributes ways * ff(D0, u) * a_o(D0 - u) over ff(n0, |u| + L_u)
    (a_o the dealer's numerators over ff(n0 - |u|, L_u)); scaled to one denominator ff(n0, M), every
    cell is an integer below it.  The integers are summed modulo enough 31-bit primes that their
    product exceeds ff(n0, M) and put together by the Chinese remainder theorem."""
    cdef int rest[N_RANKS]
    cdef int decks[LANES * N_RANKS]
    cdef int where[LANES]
    cdef uint128 batch[LANES * N_OUTCOMES]
    cdef uint128 walked[LANES * N_OUTCOMES]
    cdef int r, k, j, o, c, l, lanes, n0 = 0, size, top, M = 0, n_primes = 0, max_len = table.max_len
    cdef size_t i, b, ci
    cdef double bits = 1.0, have = 0.0
    cdef uint128 a[N_OUTCOMES]
    cdef uint64_t p, f
    cdef uint64_t G[N_OUTCOMES][MAX_PRIMES]
    cdef vector[uint128] residue        # [c][j]: output cell c, congruent modulo p_j (reduced at the end)
    cdef uint64_t two64[MAX_PRIMES]
    cdef uint64_t barrett[MAX_PRIMES]   # floor(2^64 / p_j)
    cdef vector[uint64_t] ff_mod        # [j][r][k]: ff(d0[r], k) mod p_j
    cdef vector[uint64_t] scale_mod     # [j][m]: ff(n0 - m, M - m) mod p_j
    cdef int stride = 0
    cdef bint fits = True
    cdef bint narrow = narrow_enough(table, d0)
    cdef uint128* scratch = <uint128*>malloc(max(table.n_nodes, 1) * sizeof(uint128))
    if not scratch:
        raise MemoryError()
    for r in range(N_RANKS):
        n0 += d0[r]
        stride = d0[r] + 1 if d0[r] + 1 > stride else stride
    for i in range(unions.size()):
        size = 0
        for r in range(N_RANKS):
            size += count_of(unions[i], r)
        top = max_len if max_len < n0 - size else n0 - size
        M = size + top if size + top > M else M
    for k in range(M):
        bits += log2(<double>(n0 - k))
    while have <= bits:
        if n_primes == MAX_PRIMES:
            raise ValueError("the exact sum needs more primes than the core holds")
        have += log2(<double>PRIMES[n_primes])
        n_primes += 1
    residue.resize(n_out * MAX_PRIMES, 0)
    ff_mod.resize(n_primes * N_RANKS * stride)
    scale_mod.resize(n_primes * (M + 1))
    for j in range(n_primes):
        p = PRIMES[j]
        two64[j] = ((<uint64_t>1 << 63) % p) * 2 % p
        barrett[j] = <uint64_t>(((<uint128>1) << 64) // p)
        for r in range(N_RANKS):
            f = 1
            for k in range(d0[r] + 1):
                ff_mod[(j * N_RANKS + r) * stride + k] = f
                f = f * <uint64_t>(d0[r] - k) % p if d0[r] > k else 0
        for o in range(M + 1):
            f = 1
            for k in range(M - o):
                f = f * <uint64_t>(n0 - o - k) % p
            scale_mod[j * (M + 1) + o] = f
    with nogil:
        ci = 0
        for i in range(unions.size()):
            if i % LANES == 0:      # the next LANES unions' dealer numerators, side by side where they can be
                lanes = 0
                for b in range(i, min(i + LANES, unions.size())):
                    size = 0
                    for r in range(N_RANKS):
                        rest[r] = d0[r] - count_of(unions[b], r)
                        size += count_of(unions[b], r)
                    if n0 - size < max_len:         # the deck may run out: every terminal hand, alone
                        if not dealer_numerators(table, rest, n0 - size, scratch, &batch[(b - i) * N_OUTCOMES]):
                            fits = False
                    else:
                        memcpy(&decks[lanes * N_RANKS], rest, N_RANKS * sizeof(int))
                        where[lanes] = <int>(b - i)
                        lanes += 1
                if lanes:
                    dealer_numerators_batch(table, decks, lanes, narrow, walked)
                    for l in range(lanes):
                        memcpy(&batch[where[l] * N_OUTCOMES], &walked[l * N_OUTCOMES], N_OUTCOMES * sizeof(uint128))
            memcpy(a, &batch[(i % LANES) * N_OUTCOMES], N_OUTCOMES * sizeof(uint128))
            size = 0
            for r in range(N_RANKS):
                size += count_of(unions[i], r)
            top = max_len if max_len < n0 - size else n0 - size
            for j in range(n_primes):
                p = PRIMES[j]
                f = scale_mod[j * (M + 1) + size + top]
                for r in range(N_RANKS):
                    f = mod_p(f * ff_mod[(j * N_RANKS + r) * stride + count_of(unions[i], r)], p, barrett[j])
                for o in range(N_OUTCOMES):
                    G[o][j] = mod_p(f * mod_p128(a[o], p, barrett[j], two64[j]), p, barrett[j])
            while ci < cells.size() and cells[ci].union_index == <int>i:
                for o in range(N_OUTCOMES):
                    if a[o] == 0:
                        continue
                    c = cell_of[cells[ci].tpair * N_OUTCOMES + o]
                    for j in range(n_primes):   # ways below 2^63, G below 2^31: below 2^128 for 2^33 terms
                        residue[c * MAX_PRIMES + j] += <uint128><uint64_t>cells[ci].ways * G[o][j]
                ci += 1
    free(scratch)
    if not fits:
        raise ValueError("the unseen deck runs out before the dealer can finish")
    modulus = 1
    for j in range(n_primes):
        modulus *= PRIMES[j]
    basis = [(modulus // PRIMES[j]) * pow(modulus // PRIMES[j], -1, PRIMES[j]) for j in range(n_primes)]
    den = 1
    for k in range(M):
        den *= n0 - k
    out = {}
    for c in range(n_out):
        num = sum(<uint64_t>(residue[c * MAX_PRIMES + j] % PRIMES[j]) * basis[j]
                  for j in range(n_primes)) % modulus
        if num:
            out[c] = Fraction(num, den)
    return out


cdef int load_finals(list finals, vector[uint64_t]& keys, vector[int64_t]& ways, vector[int]& types) except -1:
    """Each final (cards drawn by rank, drawing orders, type) as its packed cards (``ev.core._split_finals``:
    6 bits a rank, ace lowest), orders and type; ValueError for a count above 62 (the merges add 1 to a
    key and need the counts of a union below 63)."""
    cdef uint64_t key
    cdef int r, c
    for cards, m, ty in finals:
        key = 0
        for r in range(N_RANKS):
            c = cards[r]
            if not 0 <= c < 63:
                raise ValueError(f"a final holds {c} cards of one rank (0 to 62 fit)")
            key += (<uint64_t>c) * unit(r)
        keys.push_back(key)
        ways.push_back(m)
        types.push_back(ty)
    return 0


def pair_round_cells(DealerTable table, deck10, list finals1, list finals2, long long count):
    """The exact joint distribution {(doubles, dealer_blackjack, net): Fraction} of a split round of two hands.

    ``finals1`` and ``finals2`` list each hand's ways to finish as (cards drawn by rank, number of drawing
    orders, type) (``ev.core.exact_policy.ExactPolicyEvaluator._class_finals``), both drawn from
    ``deck10`` (the deck less both pair cards); ``count`` multiplies every weight.  The two lists are
    merged by the union of their cards here, and summed against the dealer by :func:`exact_split_cells`.
    Returns the cells, the number of pairs of finals merged and the number of distinct unions.
    The caller keeps the weights below 2^62 (count times the sums of both lists' orders).
    """
    cdef int d0[N_RANKS]
    cdef vector[uint64_t] keys1, keys2, unions
    cdef vector[int64_t] ways1, ways2
    cdef vector[int] types1, types2
    cdef KeyMap union_index
    cdef vector[vector[Cell]] per_union
    cdef vector[Cell] cells
    cdef uint64_t u
    cdef size_t i, j
    cdef int r, twice, status = 0
    cdef bint fits
    cdef int64_t pairs = 0
    for r in range(N_RANKS):
        d0[r] = deck10[r]
    load_finals(finals1, keys1, ways1, types1)
    load_finals(finals2, keys2, ways2, types2)
    # both hands from one list: the finals (i, j) and (j, i) make the same union, and a cell of two types is
    # the same either way round (split_cell), so each unordered pair is merged once, its ways twice if i != j
    cdef bint same = finals1 is finals2
    if keymap_init(&union_index, 10) < 0:
        raise MemoryError()
    with nogil:
        for i in range(keys1.size()):
            for j in range(i if same else 0, keys2.size()):
                u = keys1[i] + keys2[j]          # counts stay below 64: a hand holds at most 21 cards
                fits = True
                for r in range(N_RANKS):
                    if count_of(u, r) > d0[r]:
                        fits = False
                        break
                if fits:
                    twice = 2 if same and i != j else 1
                    pairs += twice
                    status |= merge_cell(&union_index, unions, per_union, u, types1[i] * N_TYPES + types2[j],
                                         count * ways1[i] * ways2[j] * twice)
        flatten_cells(per_union, cells)
        keymap_free(&union_index)
    if status < 0:
        raise MemoryError()
    return exact_split_cells(table, d0, unions, cells), pairs, unions.size()


def round_cells(DealerTable table, deck10, list hand_finals, long long count, int start_pairs, int pair,
                list type_sets):
    """The exact joint distribution {(doubles, dealer_blackjack, net): Fraction} of a split round of any
    number of hands (``ev.core.exact_policy.ExactPolicyEvaluator.split_round``, its exact merge in C).

    ``hand_finals`` lists each hand's finals (as for :func:`pair_round_cells`), all drawn from ``deck10``
    (the deck less both pair cards) after ``start_pairs`` further pair cards (those that made the hands
    beyond two); ``type_sets`` is ``ev.analysis.splits.type_sets``: hands carried as the multiset of their
    types.  Every hand's finals but the last are merged into (type set, union of cards) states in turn
    (open-addressing maps, the states kept in the order first met); the last hand's finals go straight to
    the cells of their final unions, which are summed against the dealer by :func:`exact_cell_sums`
    (integer sums: their order does not change them).  The caller keeps the weights below 2^62
    (count times the product of the lists' sums of orders).  Returns the cells, the number of merges and
    the number of distinct unions.
    """
    cdef int d0[N_RANKS]
    cdef vector[uint64_t] keys, unions, union_of
    cdef vector[int64_t] ways
    cdef vector[int] types, grow, cell_of
    cdef KeyMap union_id, union_index   # unions met (union_id: also the empty start, stored as key + 1)
    # the states of the hands merged so far: key (union id << 16 | type set) and weight, in the order first met,
    # and each key's position (state_at: key + 1); the last hand goes straight to the cells by union
    cdef vector[uint64_t] state_keys, grown_keys
    cdef vector[int64_t] state_ways, grown_ways
    cdef KeyMap state_at
    cdef vector[vector[Cell]] per_union
    cdef vector[Cell] cells
    cdef uint64_t u, key, state_key
    cdef size_t i, s
    cdef int r, a, b, o, id_of, at, n_sets = len(type_sets), n_types = N_TYPES, status = 0
    cdef int hand = 0, n_hands = len(hand_finals)
    cdef bint fits, last
    cdef int64_t merges = 0, w
    for r in range(N_RANKS):
        d0[r] = deck10[r]
    grow.resize(n_sets * n_types, -1)
    cell_keys: dict = {}
    cell_of.resize(n_sets * N_OUTCOMES, 0)
    for a, (doubles, nets, combine) in enumerate(type_sets):
        for b in range(n_types):
            grow[a * n_types + b] = combine[b]
        for o in range(N_OUTCOMES):
            cell_of[a * N_OUTCOMES + o] = cell_keys.setdefault((doubles, int(o == BLACKJACK), nets[o]),
                                                               len(cell_keys))
    if keymap_init(&union_id, 10) < 0 or keymap_init(&union_index, 10) < 0:
        keymap_free(&union_id)
        raise MemoryError()
    try:                                # a malformed final raises in load_finals: the maps are freed all the same
        u = (<uint64_t>start_pairs) * unit(pair)
        keymap_put(&union_id, u + 1, 0)     # (counts stay below 63 a rank: key + 1 is never 0 and never collides)
        union_of.push_back(u)
        state_keys.push_back(0)
        state_ways.push_back(count)
        for finals in hand_finals:
            keys.clear(); ways.clear(); types.clear()
            load_finals(finals, keys, ways, types)
            hand += 1
            last = hand == n_hands
            with nogil:
                grown_keys.clear()
                grown_ways.clear()
                if not last and keymap_init(&state_at, 10) < 0:
                    status = -1
                for s in range(state_keys.size()):
                    if status < 0:
                        break
                    a = <int>(state_keys[s] & 0xFFFF)
                    u = union_of[state_keys[s] >> 16]
                    for i in range(keys.size()):
                        key = u + keys[i]
                        fits = True
                        for r in range(N_RANKS):
                            if count_of(key, r) > d0[r]:
                                fits = False
                                break
                        if not fits:
                            continue
                        merges += 1
                        b = grow[a * n_types + types[i]]
                        w = state_ways[s] * ways[i]
                        if last:
                            status |= merge_cell(&union_index, unions, per_union, key, b, w)
                            continue
                        id_of = keymap_get(&union_id, key + 1)
                        if id_of < 0:
                            id_of = <int>union_of.size()
                            status |= keymap_put(&union_id, key + 1, id_of)
                            union_of.push_back(key)
                        state_key = (<uint64_t>id_of << 16) | <uint64_t>b
                        at = keymap_get(&state_at, state_key + 1)
                        if at < 0:
                            at = <int>grown_keys.size()
                            status |= keymap_put(&state_at, state_key + 1, at)
                            grown_keys.push_back(state_key)
                            grown_ways.push_back(0)
                        grown_ways[at] += w
                if not last:
                    keymap_free(&state_at)
                state_keys.swap(grown_keys)
                state_ways.swap(grown_ways)
        with nogil:
            flatten_cells(per_union, cells)
    finally:
        keymap_free(&union_id)
        keymap_free(&union_index)
    if status < 0:
        raise MemoryError()
    sums = exact_cell_sums(table, d0, unions, cells, cell_of, len(cell_keys))
    names = {index: cell for cell, index in cell_keys.items()}
    return {names[c]: v for c, v in sums.items()}, merges, unions.size()


def numerators_batch(DealerTable table, decks, bint wide=False):
    """:func:`numerators` of each deck (each of at least ``table.max_len`` cards) by the batched walk of
    :func:`exact_cell_sums`, LANES at a time; ``wide``: the falling factorials in 128 bits even where
    64 would do (to test both kernels)."""
    cdef int d[LANES * N_RANKS]
    cdef int d0[N_RANKS]
    cdef uint128 a[LANES * N_OUTCOMES]
    cdef int r, l, lanes
    if any(sum(deck) < table.max_len for deck in decks):
        raise ValueError("a deck of fewer cards than the longest dealer hand")
    for r in range(N_RANKS):
        d0[r] = max([deck[r] for deck in decks]) if decks else 0
    cdef bint narrow = narrow_enough(table, d0) and not wide
    out = []
    for start in range(0, len(decks), LANES):
        chunk = decks[start:start + LANES]
        lanes = len(chunk)
        for l in range(lanes):
            for r in range(N_RANKS):
                d[l * N_RANKS + r] = chunk[l][r]
        dealer_numerators_batch(table, d, lanes, narrow, a)
        for l in range(lanes):
            out.append(_as_ints(&a[l * N_OUTCOMES]))
    return out, narrow


cdef tuple _as_ints(const uint128* a):
    """N_OUTCOMES 128-bit numerators as Python integers."""
    cdef int r
    out = []
    for r in range(N_OUTCOMES):
        high, low = <uint64_t>(a[r] >> 64), <uint64_t>a[r]
        out.append((high << 64) | low if high else low)
    return tuple(out)


def numerators(DealerTable table, deck, int n):
    """The dealer's 7 outcome numerators over ff(n, min(max_len, n)) for ``deck`` (n cards), as integers:
    :func:`dealer_numerators` for one deck (``ev.core.exact_solver.DealerPolynomial.numerators`` in C).
    None when the deck runs out before the dealer finishes."""
    cdef int d[N_RANKS]
    cdef uint128 a[N_OUTCOMES]
    cdef int r
    cdef uint128* scratch
    for r in range(N_RANKS):
        d[r] = deck[r]
    scratch = <uint128*>malloc(max(table.n_nodes, 1) * sizeof(uint128))
    if not scratch:
        raise MemoryError()
    try:
        if not dealer_numerators(table, d, n, scratch, a):
            return None
        return _as_ints(a)
    finally:
        free(scratch)
