# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Exact sums over the finals of a split: the exact mode's evaluation of truly optimal split play.

``ev.core._optimal_split`` follows a strategy forward to the finals of both
split hands, merged by the union ``u`` of their cards with the number of
drawing orders of each pair of types.  Here those are summed exactly against
the dealer: every probability is an integer over a falling factorial, so the
cells of the outcome distribution are integers over one denominator, summed
modulo enough 31-bit primes and put together by the Chinese remainder theorem
(no big integers in the loop).  The dealer's outcome numerators come from the
terminal hands of the float core's ``DealerTable`` (its trie), in 128-bit
integers.
"""
from fractions import Fraction

from libc.math cimport log2
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from ev.core._constants cimport BLACKJACK, BUST, N_OUTCOMES, N_RANKS
from ev.core._dealer cimport MAX_DRAW, DealerTable
from ev.core._keymap cimport KeyMap, keymap_free, keymap_get, keymap_init, keymap_put
from ev.core._split_finals cimport (N_TYPES, SPLIT_CELLS, Cell, count_of, flatten_cells, merge_cell, split_cell,
                                   unit)

cdef extern from *:
    ctypedef unsigned long long uint128 "unsigned __int128"

cdef enum:
    MAX_PRIMES = 40     # 1240 bits: enough for ff(416, 150)

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
    # P(no settled blackjack) = 1 - d[bj] / n
    mass = g[0] - (<uint128>d[table.excluded] * g[0] // <uint128>n if table.excluded >= 0 else 0)
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
    total = 0              # P(bust) is what the other outcomes leave of the mass
    for k in range(N_OUTCOMES):
        if k != BUST:
            total += out[k]
    out[BUST] = mass - total
    return True


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
    cdef int r, k, j, o, c, n0 = 0, size, top, M = 0, n_primes = 0, max_len = table.max_len
    cdef size_t i, ci
    cdef double bits = 1.0, have = 0.0
    cdef uint128 a[N_OUTCOMES]
    cdef uint64_t p, f, w
    cdef uint64_t G[N_OUTCOMES][MAX_PRIMES]
    cdef vector[uint64_t] residue       # [c][j]: output cell c modulo p_j
    cdef uint64_t two64[MAX_PRIMES]
    cdef vector[uint64_t] ff_mod        # [j][r][k]: ff(d0[r], k) mod p_j
    cdef vector[uint64_t] scale_mod     # [j][m]: ff(n0 - m, M - m) mod p_j
    cdef int stride = 0
    cdef bint fits = True
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
            size = 0
            for r in range(N_RANKS):
                rest[r] = d0[r] - count_of(unions[i], r)
                size += count_of(unions[i], r)
            if not dealer_numerators(table, rest, n0 - size, scratch, a):
                fits = False
            top = max_len if max_len < n0 - size else n0 - size
            for j in range(n_primes):
                p = PRIMES[j]
                f = scale_mod[j * (M + 1) + size + top]
                for r in range(N_RANKS):
                    f = f * ff_mod[(j * N_RANKS + r) * stride + count_of(unions[i], r)] % p
                for o in range(N_OUTCOMES):
                    G[o][j] = f * ((<uint64_t>(a[o] >> 64) % p * two64[j] + <uint64_t>a[o] % p) % p) % p
            while ci < cells.size() and cells[ci].union_index == <int>i:
                for o in range(N_OUTCOMES):
                    if a[o] == 0:
                        continue
                    c = cell_of[cells[ci].tpair * N_OUTCOMES + o]
                    for j in range(n_primes):
                        w = <uint64_t>cells[ci].ways % PRIMES[j]
                        residue[c * MAX_PRIMES + j] = (residue[c * MAX_PRIMES + j] + w * G[o][j]) % PRIMES[j]
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
        num = sum(residue[c * MAX_PRIMES + j] * basis[j] for j in range(n_primes)) % modulus
        if num:
            out[c] = Fraction(num, den)
    return out


cdef int load_finals(list finals, vector[uint64_t]& keys, vector[int64_t]& ways, vector[int]& types) except -1:
    """Each final (cards drawn by rank, drawing orders, type) as its packed cards (``ev.core._split_finals``:
    6 bits a rank, ace lowest), orders and type."""
    cdef uint64_t key
    cdef int r
    for cards, m, ty in finals:
        key = 0
        for r in range(N_RANKS):
            key += (<uint64_t>cards[r]) * unit(r)
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
    cdef int r, status = 0
    cdef bint fits
    cdef int64_t pairs = 0
    for r in range(N_RANKS):
        d0[r] = deck10[r]
    load_finals(finals1, keys1, ways1, types1)
    load_finals(finals2, keys2, ways2, types2)
    if keymap_init(&union_index, 10) < 0:
        raise MemoryError()
    with nogil:
        for i in range(keys1.size()):
            for j in range(keys2.size()):
                u = keys1[i] + keys2[j]          # counts stay below 64: a hand holds at most 21 cards
                fits = True
                for r in range(N_RANKS):
                    if count_of(u, r) > d0[r]:
                        fits = False
                        break
                if fits:
                    pairs += 1
                    status |= merge_cell(&union_index, unions, per_union, u, types1[i] * N_TYPES + types2[j],
                                         count * ways1[i] * ways2[j])
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
    types.  Every hand's finals are merged into (type set, union of cards) states in turn, and the
    states summed against the dealer by :func:`exact_cell_sums`.  The caller keeps the weights below 2^62
    (count times the product of the lists' sums of orders).  Returns the cells, the number of merges and
    the number of distinct unions.
    """
    cdef int d0[N_RANKS]
    cdef vector[uint64_t] keys, unions, union_of
    cdef vector[int64_t] ways
    cdef vector[int] types, grow, cell_of
    cdef KeyMap union_id, union_index   # unions met (union_id: also the empty start, stored as key + 1)
    cdef unordered_map[uint64_t, int64_t] states, grown
    cdef vector[vector[Cell]] per_union
    cdef vector[Cell] cells
    cdef uint64_t u, key
    cdef size_t i
    cdef int r, a, b, o, id_of, n_sets = len(type_sets), n_types = N_TYPES, status = 0
    cdef bint fits
    cdef int64_t merges = 0
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
    u = (<uint64_t>start_pairs) * unit(pair)
    keymap_put(&union_id, u + 1, 0)     # (counts stay below 63 a rank: key + 1 is never 0 and never collides)
    union_of.push_back(u)
    states[0] = count                  # key: union id << 16 | type set
    for finals in hand_finals:
        keys.clear(); ways.clear(); types.clear()
        load_finals(finals, keys, ways, types)
        with nogil:
            grown.clear()
            for item in states:
                a = <int>(item.first & 0xFFFF)
                u = union_of[item.first >> 16]
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
                    id_of = keymap_get(&union_id, key + 1)
                    if id_of < 0:
                        id_of = <int>union_of.size()
                        status |= keymap_put(&union_id, key + 1, id_of)
                        union_of.push_back(key)
                    b = grow[a * n_types + types[i]]
                    grown[(<uint64_t>id_of << 16) | <uint64_t>b] += item.second * ways[i]
            states.swap(grown)
    with nogil:
        for item in states:
            status |= merge_cell(&union_index, unions, per_union, union_of[item.first >> 16],
                                 <int>(item.first & 0xFFFF), item.second)
        flatten_cells(per_union, cells)
        keymap_free(&union_id)
        keymap_free(&union_index)
    if status < 0:
        raise MemoryError()
    sums = exact_cell_sums(table, d0, unions, cells, cell_of, len(cell_keys))
    names = {index: cell for cell, index in cell_keys.items()}
    return {names[c]: v for c, v in sums.items()}, merges, unions.size()


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
        out = []
        for r in range(N_OUTCOMES):
            high, low = <uint64_t>(a[r] >> 64), <uint64_t>a[r]
            out.append((high << 64) | low if high else low)
        return tuple(out)
    finally:
        free(scratch)
