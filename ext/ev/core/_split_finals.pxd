# The finished hands of a split and their cells, shared by _optimal_split and _exact_sums.
from libc.stdint cimport int64_t, uint64_t
from libcpp.vector cimport vector

from ev.core._constants cimport BLACKJACK, BUST
from ev.core._keymap cimport KeyMap, keymap_get, keymap_put

cdef enum:
    BITS = 6            # bits per rank in a packed multiset of cards (counts below 64), ace lowest
    N_TYPES = 14        # a finished hand: total 16 or less, 17 .. 21, bust, each with bet 1 or 2
    SPLIT_CELLS = 54    # doubles 0..2 (3) x dealer blackjack (2) x net -4..+4 (9)


cdef struct Cell:       # pairs of finished hands whose cards make one union, by their types
    int union_index
    int tpair           # t1 * N_TYPES + t2
    int64_t ways        # the number of drawing orders of both hands together


cdef inline int count_of(uint64_t key, int r) noexcept nogil:
    return <int>((key >> (BITS * r)) & 63)


cdef inline uint64_t unit(int r) noexcept nogil:
    return (<uint64_t>1) << (BITS * r)


cdef inline int hand_type(int total, int bet) noexcept nogil:
    return ((total if total > 16 else 16) - 16) * 2 + bet - 1


cdef inline int type_result(int htype, int outcome) noexcept nogil:
    """A finished hand's result in initial bets against a dealer outcome (17..21, bust, blackjack)."""
    cdef int total = 16 + htype // 2, bet = 1 + htype % 2
    if total > 21 or outcome == BLACKJACK:
        return -bet
    if outcome == BUST or total > 17 + outcome:
        return bet
    return -bet if total < 17 + outcome else 0


cdef inline int split_cell(int t1, int t2, int outcome) noexcept nogil:
    """The (doubles, dealer blackjack, net) cell of two finished hands against one dealer outcome."""
    cdef int doubles = t1 % 2 + t2 % 2
    cdef int net = type_result(t1, outcome) + type_result(t2, outcome)
    return doubles * 18 + (9 if outcome == BLACKJACK else 0) + net + 4


cdef inline int merge_cell(KeyMap* union_index, vector[uint64_t]& unions, vector[vector[Cell]]& per_union,
                           uint64_t u, int tpair, int64_t ways) noexcept nogil:
    """Add ``ways`` drawing orders of a pair of finals of types ``tpair`` whose cards make the union ``u``
    (never empty: each final holds a card): unions numbered in the order first met, each with its cells by
    type pair.  -1 when memory runs out."""
    cdef size_t m
    cdef int ui = keymap_get(union_index, u)
    cdef Cell cell
    if ui < 0:
        ui = <int>unions.size()
        if keymap_put(union_index, u, ui) < 0:
            return -1
        unions.push_back(u)
        per_union.resize(unions.size())
    for m in range(per_union[ui].size()):
        if per_union[ui][m].tpair == tpair:
            per_union[ui][m].ways += ways
            return 0
    cell.union_index, cell.tpair, cell.ways = ui, tpair, ways
    per_union[ui].push_back(cell)
    return 0


cdef inline void flatten_cells(vector[vector[Cell]]& per_union, vector[Cell]& cells) noexcept nogil:
    """The cells of every union, in union order (as ``exact_split_cells`` reads them)."""
    cdef size_t i, m
    for i in range(per_union.size()):
        for m in range(per_union[i].size()):
            cells.push_back(per_union[i][m])
