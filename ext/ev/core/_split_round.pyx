# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""The exact outcome distribution of a split round, resplits included.

A split round is the second-card process (which hands exist, ``ev.analysis.splits``)
and then each hand and the dealer drawing from one deck.  By the reordering
lemma (README, "Splits") the probability that the hands end with the cards
c_1 .. c_h and the dealer with M is

    prod_j m_j x m_M x ff(D, U + M) / ff(|D|, |U| + |M|),    U = (#P pair cards) + sum_j c_j,

``m`` the numbers of drawing orders, ``ff`` falling factorials rank by rank.
Summed over the dealer's hands: ff(D, U) / ff(|D|, |U|) x P(dealer outcome | D - U).
So the distribution is a sum over tuples of the hands' finals, in which only
the union U (for the dealer) and the multiset of the hands' types (for the
result) matter.  The hands but the last are merged one at a time into integer
weights keyed by (union, type multiset); the last hand is summed per union:
for each union U and each final f of the last hand, the dealer's outcome on
D - U - f (evaluated once per distinct final union), gathered by f's type,
then crossed with U's type multisets.

*The last hand's commonest type by difference.*  When the last hand's finals
are every way its play can end (its second card may be any card: an X-hand),
and neither it nor the dealer after it can run out of cards, dealing the
dealer first shows

    sum over the finals f of m_f x w(U + f) x P(o | D - U - f) = w(U) x P(o | D - U),

``w(U) = ff(D, U) / ff(|D|, |U|)``: the hand's draws, unseen by the dealer,
leave the dealer's law as it was.  So the finals of one type (the commonest:
a bust, about 45 % of a hand's finals) need not be met: their sum is the
union's own value less the other types'.  Their final unions are then never
placed nor evaluated.  With two hands of one class (one split) the pairs of
two finals of that type are left out the same way: for each such final, the
sum over the other hand is its own union's value less its pairs with the
other types, which are met anyway.

*A second hand merged by difference.*  The same argument holds for any X-hand
followed by more hands and the dealer, given room for all of them: the sum over
its finals of their orders times the rest of the round from U + f is the rest
of the round from U.  In a three-hand round the second hand is merged so: its
busts are not merged, the state (U, S + bust) takes the state's weight, and each
other final f adds (U + f, S + bust) with the weight negated beside its own
(U + f, S + type f).  The last hand then meets about a quarter fewer finals.

Weights are exact integers (128 bits, two's complement: the corrections are
negative) up to the dealer.  ``cells_float``
finishes in floating point with the float core's dealer.
"""
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memset
from libcpp.algorithm cimport sort
from libcpp.vector cimport vector

from ev.core._constants cimport BLACKJACK, BUST, N_OUTCOMES, N_RANKS, TEN
from ev.core._dealer cimport DealerTable
from ev.core._keymap cimport KeyMap, keymap_free, keymap_get, keymap_init, keymap_put, mix64

cdef extern from "<stdlib.h>" nogil:
    void* aligned_alloc(size_t alignment, size_t size)

cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE

cdef size_t HUGE_PAGE = 1 << 21
cdef size_t HUGE_FROM = 1 << 22


cdef void* zeroed(size_t size) noexcept nogil:
    """``size`` bytes of zeros, aligned to a cache line; from HUGE_FROM bytes on, to a 2 MiB page, with the advice
    to back them with huge pages (a large round's tables are read at random: one TLB entry per 2 MiB, not 4 KiB)."""
    cdef size_t align = HUGE_PAGE if size >= HUGE_FROM else 64
    cdef size_t whole = (size + align - 1) & ~(align - 1)
    cdef void* p = aligned_alloc(align, whole)
    if p == NULL:
        return NULL
    if align == HUGE_PAGE:
        madvise(p, whole, MADV_HUGEPAGE)
    memset(p, 0, size)
    return p

cdef extern from *:
    ctypedef unsigned long long uint128 "unsigned __int128"
    ctypedef long long int128 "__int128"

cdef enum:
    N_KINDS = N_RANKS + 1           # the ranks, and the tens of a pair's face (tens split by rank)
    N_TYPES = 14                    # a finished hand: total 16 or less, 17 .. 21, bust; bet 1 or 2
    MAX_HANDS = 4
    NETS = 8 * MAX_HANDS + 1        # a round's net: -8 .. +8 with four doubled hands
    CELLS = (MAX_HANDS + 1) * 2 * NETS * (MAX_HANDS + 1)


cdef inline int cell_index(int doubles, int bj, int net, int hands) noexcept nogil:
    return ((doubles * 2 + bj) * NETS + net + 4 * MAX_HANDS) * (MAX_HANDS + 1) + hands


cdef tuple cell_key(int k):
    """(doubles, dealer_blackjack, net, hands) of a cell index."""
    cdef int hands = k % (MAX_HANDS + 1)
    k //= MAX_HANDS + 1
    cdef int net = k % NETS - 4 * MAX_HANDS
    k //= NETS
    return (k // 2, k % 2, net, hands)


cdef struct Final:
    uint128 cards       # packed by kind
    uint64_t orders
    int type


cdef enum:
    KEY_BITS = 96       # a union's bits in a slot (SplitRound packs at most 11 kinds of 8 bits: 88)


cdef inline uint128 slot_union(uint128 s) noexcept nogil:
    return s & ((<uint128>1 << KEY_BITS) - 1)


cdef inline int slot_number(uint128 s) noexcept nogil:
    return <int>(s >> KEY_BITS)


cdef struct Entry:      # a state of merged hands: their union and type multiset, and its weight
    # the union in the low KEY_BITS bits, the type multiset's number + 1 above them, 0 in a free slot (32 bytes
    # a state, never across two cache lines; a separate multiset field padded a state to 48)
    uint128 key
    uint128 ways


cdef inline uint128 entry_key(uint128 u, int a) noexcept nogil:
    return u | (<uint128>(a + 1) << KEY_BITS)


cdef inline uint128 entry_union(const Entry& e) noexcept nogil:
    return slot_union(e.key)


cdef inline int entry_tset(const Entry& e) noexcept nogil:
    return <int>(e.key >> KEY_BITS) - 1


cdef bint entry_less(const Entry& x, const Entry& y) noexcept nogil:
    return entry_union(x) < entry_union(y)


cdef enum:
    LAYER_SHIFT = 120   # SplitRound.last_hand holds a state's layer above its type multiset's number for a sort


cdef bint entry_layer_less(const Entry& x, const Entry& y) noexcept nogil:
    """By layer (the bits from LAYER_SHIFT), then by union."""
    cdef int lx = <int>(x.key >> LAYER_SHIFT), ly = <int>(y.key >> LAYER_SHIFT)
    return lx < ly or (lx == ly and entry_union(x) < entry_union(y))


cdef inline uint64_t hash128(uint128 u, int a, uint64_t seed) noexcept nogil:
    """A full-avalanche mix (murmur3's finaliser) of the union, the type multiset and the map's seed."""
    return mix64(<uint64_t>u ^ ((<uint64_t>(u >> 64)) * <uint64_t>0xC2B2AE3D27D4EB4F)
                 ^ (<uint64_t>a * <uint64_t>0x165667B19E3779F9) ^ seed)


cdef struct EntryMap:    # open addressing: (union, type multiset) -> integer weight; key 0 marks a free slot
    Entry* slots
    uint64_t capacity
    int shift
    int64_t size
    # Each map hashes with its own seed: a map filled in the slot order of another map of the same hash
    # would get its keys in hash order, and linear probing then builds runs as long as the map (the
    # merges of a four-hand split spent 90 % of their time walking them).  Fixed seeds keep every run
    # the same, so that float sums come in the same order.
    uint64_t seed


cdef int map_init(EntryMap* m, int bits, uint64_t seed) noexcept nogil:
    cdef uint64_t i
    m.capacity = (<uint64_t>1) << bits
    m.shift = 64 - bits
    m.size = 0
    m.seed = mix64(seed + 1)
    # aligned to a cache line (zeroed), so that no state lies across two (malloc's large blocks start 16 bytes in)
    m.slots = <Entry*>zeroed(m.capacity * sizeof(Entry))
    return 0 if m.slots else -1


cdef void map_clear(EntryMap* m) noexcept nogil:
    cdef uint64_t i
    memset(m.slots, 0, m.capacity * sizeof(Entry))
    m.size = 0


cdef int64_t map_slot(EntryMap* m, uint128 u, int a) noexcept nogil:
    """The slot of (u, a), made free-or-found; -1 when memory runs out."""
    cdef uint64_t i
    cdef EntryMap bigger
    if 2 * (m.size + 1) > m.capacity:
        if map_init(&bigger, 65 - m.shift, 0) < 0:
            return -1
        bigger.seed = m.seed            # the same hash, spread over twice the slots: the order is kept
        for i in range(m.capacity):
            if m.slots[i].key != 0:
                bigger.slots[map_slot(&bigger, entry_union(m.slots[i]), entry_tset(m.slots[i]))] = m.slots[i]
                bigger.size += 1
        free(m.slots)
        m[0] = bigger
    cdef uint128 key = entry_key(u, a)
    i = hash128(u, a, m.seed) >> m.shift
    while m.slots[i].key != 0 and m.slots[i].key != key:
        i = (i + 1) & (m.capacity - 1)
    return <int64_t>i


cdef int map_add(EntryMap* m, uint128 u, int a, uint128 w) noexcept nogil:
    cdef int64_t i = map_slot(m, u, a)
    if i < 0:
        return -1
    if m.slots[i].key != 0:
        m.slots[i].ways += w
    else:
        m.slots[i].key, m.slots[i].ways = entry_key(u, a), w
        m.size += 1
    return 0


cdef extern from *:
    void prefetch "__builtin_prefetch"(const void* address) noexcept nogil


cdef inline void prefetch_values(const double* v) noexcept nogil:
    """Ask for a union's seven dealer values (56 bytes: they may cross a cache line) ahead of the sum that reads
    them: the unions' numbers are scattered, each read a cache miss in a large round."""
    prefetch(v)
    prefetch(v + N_OUTCOMES - 1)


cdef struct UnionTable:  # open addressing, linear probing: final union -> its number, in order of arrival
    # A slot is the union in its low KEY_BITS bits and the union's number above them (slot_union,
    # slot_number), so that a probe is one load (16 bytes a slot: a split round's table mostly stays in the
    # cache, where keys beside their seven values, 80 bytes a slot, did not, and a second array of numbers was
    # a second cache miss per lookup); a union's dealer values are kept by its number, densely, in
    # SplitRound.values (numbers do not change when the table grows).
    uint128* keys       # 0 marks a free slot (a union is never empty: every final holds a card)
    uint64_t capacity
    int shift
    int64_t size


cdef inline uint64_t union_hash(uint128 u) noexcept nogil:
    return mix64(<uint64_t>u ^ ((<uint64_t>(u >> 64)) * <uint64_t>0xC2B2AE3D27D4EB4F))


cdef int table_init(UnionTable* t, int bits) noexcept nogil:
    t.capacity = (<uint64_t>1) << bits
    t.shift = 64 - bits
    t.size = 0
    t.keys = <uint128*>zeroed(t.capacity * sizeof(uint128))
    return 0 if t.keys else -1


cdef void table_free(UnionTable* t) noexcept nogil:
    free(t.keys)
    t.keys = NULL


cdef int table_reserve(UnionTable* t, int64_t extra) noexcept nogil:
    """Grow t until ``extra`` more unions fit with the table at most half full (so that no slot moves
    while they are placed); -1 when memory runs out."""
    cdef uint64_t i
    cdef int64_t j
    cdef UnionTable bigger
    while 2 * (t.size + extra) > <int64_t>t.capacity:
        if table_init(&bigger, 65 - t.shift) < 0:
            return -1
        for i in range(t.capacity):
            if t.keys[i] != 0:
                j = table_slot(&bigger, slot_union(t.keys[i]))
                bigger.keys[j] = t.keys[i]
                bigger.size += 1
        table_free(t)
        t[0] = bigger
    return 0


cdef int64_t table_slot(UnionTable* t, uint128 u) noexcept nogil:
    """The slot of u, found or free (its key then 0); the table grows first when half full; -1 when memory
    runs out."""
    cdef uint64_t i
    if table_reserve(t, 1) < 0:
        return -1
    i = union_hash(u) >> t.shift
    while t.keys[i] != 0 and slot_union(t.keys[i]) != u:
        i = (i + 1) & (t.capacity - 1)
    return <int64_t>i


cdef class _TypeSets:
    """The multisets of hand types (``ev.analysis.splits.type_sets``) as arrays: doubles, nets, successors."""
    cdef vector[int] doubles_of
    cdef vector[int] net_of
    cdef vector[int] combine


#: id of a type-set list -> (the list, its arrays): a split round of four hands reads thousands of sets, and the
#: lists are made once per number of hands (the list is kept, so that its id is not reused)
_PACKED: dict = {}


cdef _TypeSets _type_sets(list type_sets):
    cdef _TypeSets sets
    cdef int r
    known = _PACKED.get(id(type_sets))
    if known is not None and known[0] is type_sets:
        return known[1]
    sets = _TypeSets()
    for entry in type_sets:
        sets.doubles_of.push_back(entry[0])
        for r in range(N_OUTCOMES):
            sets.net_of.push_back(entry[1][r])
        for r in range(N_TYPES):
            sets.combine.push_back(entry[2][r])
    if len(_PACKED) > 64:
        _PACKED.clear()
    _PACKED[id(type_sets)] = (type_sets, sets)
    return sets


#: whether a last hand may sum its commonest type by difference (see the module; tests turn it off to compare)
cdef bint _by_difference = True


def by_difference(on=None):
    """Whether split rounds sum a last hand's commonest type by difference (``on``: set it; tests compare both
    ways).  Returns the setting in force before."""
    global _by_difference
    before = _by_difference
    if on is not None:
        _by_difference = bool(on)
    return before


#: whether the hands merged before the last sum their commonest type by difference too (see the module)
cdef bint _merge_by_difference = True


def merge_by_difference(on=None):
    """Whether split rounds merge an X-hand before the last without its commonest type's finals (a signed
    correction instead, see the module; ``on``: set it; tests compare both ways).  Returns the setting before."""
    global _merge_by_difference
    before = _merge_by_difference
    if on is not None:
        _merge_by_difference = bool(on)
    return before


#: a type's sum by difference below this share of the union's value is rounding: the type's finals cannot meet
#: that dealer outcome (a real share is at least the chance of one card, far above)
cdef double DIFFERENCE_FLOOR = 1e-9


cdef enum:
    CHUNK_FRESH = 256           # new unions that make a chunk of last hands (see SplitRound.last_hand)
    CHUNK_FINALS = 1 << 12      # or finals placed (their values are read again: they should still be cached)
    VALUES_AHEAD = 16           # the sums over a chunk's unions ask for the values this many unions ahead


cdef cppclass Chunk:         # last hands placed in the union table, their sums waiting (SplitRound.last_hand)
    vector[int64_t] numbers         # the finals' unions' numbers, group after group
    vector[int] which               # the finals' indices in the last class
    vector[size_t] group_start      # where each group's finals start in numbers
    vector[size_t] group_entries    # each group's entries [a, z)
    vector[int64_t] group_side      # each group's row of sums by difference, or -1
    vector[int64_t] fresh           # the numbers of the unions met for the first time
    vector[double] weights          # their ff-weights
    vector[int] decks               # and their decks (N_RANKS each)


class RoundTooLarge(Exception):
    """A split round's exact work passed its cap (``SplitRound.work_cap``): its caller scores it otherwise."""


cdef enum:
    TOO_LARGE = -2      # a status: the work cap was passed (-1: memory ran out)


cdef class SplitRound:
    """One split round's distribution (see the module): its deck, hand classes and accumulated cells."""
    cdef readonly int pair, kinds, resplit_kind, n0
    cdef int deck10[N_RANKS]                # the deck less both pair cards
    cdef int deck[N_KINDS]                  # the same by kind (tens of the pair's face apart)
    cdef int shift[N_KINDS]
    cdef int width[N_KINDS]
    cdef uint128 bias, guard
    cdef vector[vector[Final]] classes
    cdef vector[int] by_difference          # per class: the type summed by difference (see the module), or -1
    cdef vector[int] most_cards             # per class: the most cards in one of its finals
    cdef vector[int] combine                # [set * N_TYPES + type] -> set with one more hand
    cdef vector[int] doubles_of
    cdef vector[int] net_of                 # [set * N_OUTCOMES + outcome]
    cdef vector[int] hands_of
    cdef double cells[CELLS]
    cdef double icells[CELLS]               # the groups scored independently, rescaled by finish()
    cdef UnionTable unions                  # final unions seen -> their numbers
    cdef double* values                     # by number: ff-weight x P(outcome | the rest), N_OUTCOMES each
    cdef int64_t values_held                # the unions self.values has room for (values_room)
    cdef DealerTable dealer
    cdef dict pending                       # (hands, last class) -> index into gathered
    cdef vector[EntryMap] gathered          # the other hands merged, of every round of that group
    cdef int64_t n_merges, n_last, n_entries, n_independent
    cdef int64_t n_unions                   # the unions of the layers emptied (reset_unions)
    cdef public int64_t work_cap            # the most hands merged and last-hand finals met (-1: no cap): past
                                            # it, add_configs or finish raise RoundTooLarge (checked as the
                                            # merges go, and before a last hand's sum from its pairs to meet)
    cdef public int64_t state_cap           # the most states in one map of merged hands (-1: no cap), the same
    cdef int64_t n_merge_differ, n_merge_full   # states merged with an X-hand by difference (merge_into), and
                                                # those that would be but for the room
    cdef int64_t n_differ, n_full           # unions of the other hands whose last hand summed a type by difference,
                                            # and those whose deck was too short to (every final met)

    def __cinit__(self, DealerTable dealer, deck10, int pair, int resplit_cards, bint faces, list type_sets,
                  list classes, int most, list complete=None):
        """``deck10``: the deck less both pair cards, by rank; ``classes``: per hand class the list of
        its finals (cards by kind, drawing orders, type); ``most``: the most hands; ``complete``: per class,
        whether its finals are every way a hand's play can end (its second card may be any card), so that a
        last hand of that class may sum one type by difference (see the module)."""
        cdef int k, r, cap, top
        cdef int64_t of_type[N_TYPES]
        cdef Final f
        cdef vector[Final] fin
        self.dealer = dealer
        self.pair = pair
        self.kinds = N_KINDS if faces else N_RANKS
        self.resplit_kind = N_RANKS if faces else pair
        self.n0 = 0
        for r in range(N_RANKS):
            self.deck10[r] = deck10[r]
            self.deck[r] = deck10[r]
            self.n0 += deck10[r]
        if faces:
            self.deck[TEN] -= resplit_cards
            self.deck[N_RANKS] = resplit_cards
        cdef _TypeSets sets = _type_sets(type_sets)
        self.doubles_of = sets.doubles_of
        self.net_of = sets.net_of
        self.combine = sets.combine
        # the packing: per kind, room for the most cards a union can hold, and a guard bit
        cdef int most_drawn[N_KINDS]
        memset(most_drawn, 0, sizeof(most_drawn))
        for i, finals in enumerate(classes):
            fin.clear()
            memset(of_type, 0, sizeof(of_type))
            self.most_cards.push_back(0)
            for cards, orders, htype in finals:
                for k in range(self.kinds):
                    most_drawn[k] = max(most_drawn[k], cards[k])
                self.most_cards[i] = max(self.most_cards[i], sum(cards))
                f.orders, f.type, f.cards = orders, htype, 0
                of_type[htype] += 1
                fin.push_back(f)
            self.classes.push_back(fin)
            top = 0
            for r in range(N_TYPES):
                if of_type[r] > of_type[top]:
                    top = r
            self.by_difference.push_back(top if _by_difference and complete is not None and complete[i]
                                         and of_type[top] > 0 else -1)
        top = 0
        self.bias = self.guard = 0
        for k in range(self.kinds):
            cap = most * most_drawn[k] + (most - 2 if k == self.resplit_kind else 0)
            cap = min(cap, self.deck[k])
            self.width[k] = (cap.bit_length() if cap > 0 else 0) + 1
            self.shift[k] = top
            top += self.width[k]
            self.bias |= (<uint128>((1 << (self.width[k] - 1)) - 1 - cap)) << self.shift[k]
            self.guard |= (<uint128>1) << (self.shift[k] + self.width[k] - 1)
        if top > KEY_BITS:
            raise ValueError(f"a split round's cards do not fit {KEY_BITS} bits")
        for i, finals in enumerate(classes):
            for j, (cards, orders, htype) in enumerate(finals):
                for k in range(self.kinds):
                    self.classes[i][j].cards += (<uint128>cards[k]) << self.shift[k]
        memset(self.cells, 0, sizeof(self.cells))
        memset(self.icells, 0, sizeof(self.icells))
        if table_init(&self.unions, 10) < 0:
            raise MemoryError()
        self.pending = {}
        self.n_merges = self.n_last = self.n_entries = self.n_independent = self.n_unions = 0
        self.work_cap = self.state_cap = -1
        self.n_differ = self.n_full = self.n_merge_differ = self.n_merge_full = 0

    cdef inline bint fits(self, uint128 u) noexcept nogil:
        return ((u + self.bias) & self.guard) == 0

    cdef inline int count(self, uint128 u, int k) noexcept nogil:
        return <int>((u >> self.shift[k]) & ((<uint128>1 << self.width[k]) - 1))

    cdef inline int cards_of(self, uint128 u) noexcept nogil:
        cdef int k, n = 0
        for k in range(self.kinds):
            n += self.count(u, k)
        return n

    cdef inline bint leaves_room(self, uint128 u, int cls, int later=0) noexcept nogil:
        """The deck less union u holds enough cards that neither a hand of class ``cls`` nor ``later`` more cards
        (the hands after it) nor the dealer after them can run out: the condition of a sum by difference (see the
        module)."""
        return self.n0 - self.cards_of(u) >= self.most_cards[cls] + later + self.dealer.max_len

    def add_configs(self, list configs):
        """Add the rounds of groups of second-card words: (words, #P resplit cards, class indices) each, the
        indices into the classes given, the last the last hand's.

        The order of the hands but the last does not change a round's union
        or type multiset, and merging a hand's finals is linear in the states
        it is merged into.  So the groups with the same #P and last class are
        merged together: each applies its classes (but the last) in ascending
        order, and the groups whose classes left to apply are the same share
        one map from there on (with CDZ- play a four-hand split merges its
        third hand once instead of five times).  Rounds with the same number
        of hands and the same last class are gathered, and :meth:`finish` sums
        their last hands once.
        """
        cdef dict levels = {}       # (n_p, last) -> {classes left to apply (ascending): map index}
        cdef list maps = []         # EntryMap slots, by index, in self.gathered's storage order
        cdef vector[EntryMap] work
        cdef EntryMap* m
        cdef int status = 0, c, n_p, h, last, src, dst, room
        cdef uint64_t words
        for words, n_p, class_indices in configs:
            h = len(class_indices)
            if h != 2 + n_p or h > MAX_HANDS:
                raise ValueError("a configuration's hands must be its resplit cards plus two (at most four)")
            if h == 2 and class_indices[0] == class_indices[1]:
                c = class_indices[0]
                with nogil:
                    status = self.pair_of_hands(words, n_p, c)
                if status < 0:
                    raise MemoryError()
                continue
            # the last hand: one whose type can be summed by difference, where there is one (any hand may be
            # last: the others are merged in any order)
            ordered = sorted(class_indices, key=lambda c: (self.by_difference[c] >= 0, c))
            last = ordered[h - 1]
            rest = tuple(sorted(ordered[:h - 1]))
            level = levels.setdefault((n_p, last), {})
            if rest not in level:
                level[rest] = work.size()
                work.push_back(EntryMap(NULL, 0, 0, 0, 0))
                if map_init(&work.back(), 10, 1 + work.size()) < 0:
                    raise MemoryError()
            m = &work[level[rest]]
            if map_add(m, (<uint128>n_p) << self.shift[self.resplit_kind], 0, words) < 0:
                raise MemoryError()
        try:
            for (n_p, last), level in levels.items():
                h = 2 + n_p
                while level and len(next(iter(level))) > 0:
                    after = {}
                    for rest, src in sorted(level.items()):
                        if rest[1:] not in after:
                            after[rest[1:]] = work.size()
                            work.push_back(EntryMap(NULL, 0, 0, 0, 0))
                            if map_init(&work.back(), 10, 1 + work.size()) < 0:
                                raise MemoryError()
                        dst, c = after[rest[1:]], rest[0]
                        # the second hand of a three-hand round may merge by difference (see merge_into), with
                        # room for the last hand and the dealer after it.  Measured: it leaves a quarter of the
                        # last hands' finals unmet (two and six decks, resplits to three: 26 % faster); a first
                        # hand's busts share their unions with the other finals' (no fewer unions), and in a
                        # four-hand round the third hand's saved 5 % of the last hands' finals for 70 % more
                        # states (11 % slower): those merge every final
                        room = self.most_cards[last] if h == 3 and len(rest) == 1 else -1
                        with nogil:
                            status = self.merge_into(&work[src], c, &work[dst], room)
                            free(work[src].slots)
                            work[src].slots = NULL
                        if status == TOO_LARGE:
                            raise RoundTooLarge()
                        if status < 0:
                            raise MemoryError()
                    level = after
                for rest, src in level.items():       # every class applied: gather by (hands, last class)
                    key = (h, last)
                    if key not in self.pending:
                        self.pending[key] = len(self.pending)
                        self.gathered.push_back(EntryMap(NULL, 0, 0, 0, 0))
                        if map_init(&self.gathered.back(), 10, 3 + len(self.pending)) < 0:
                            raise MemoryError()
                    dst = self.pending[key]
                    with nogil:
                        if self.gathered[dst].size == 0:     # the first: the map itself, not a copy (its seed is
                            free(self.gathered[dst].slots)      # its own, as no other map's)
                            self.gathered[dst] = work[src]
                        else:
                            status = self.merge_into(&work[src], -1, &self.gathered[dst], -1)
                            free(work[src].slots)
                        work[src].slots = NULL
                        if status == 0 and self.state_cap >= 0 and self.gathered[dst].size > self.state_cap:
                            status = TOO_LARGE
                    if status == TOO_LARGE:
                        raise RoundTooLarge()
                    if status < 0:
                        raise MemoryError()
        finally:
            for i in range(work.size()):
                free(work[i].slots)

    cdef int merge_into(self, EntryMap* src, int cls, EntryMap* dst, int room) noexcept nogil:
        """Add to ``dst`` every state of ``src`` merged with every final of class ``cls`` that fits (-1: the
        states as they are); -1 when memory runs out.

        *By difference* (``room`` >= 0: the most cards the hands after this one take).  Where ``cls`` is an
        X-hand (its finals are every way its play can end) and the deck less a state's union leaves room for it,
        the later hands and the dealer (``leaves_room``), its draws are unseen by what follows (the module's
        argument): the sum over its finals f of orders(f) x (the rest of the round from U + f) is the rest of the
        round from U itself.  So its commonest
        type T (a bust) is not merged: the state (U, S + T) takes the state's weight, and each other final f
        adds (U + f, S + type f) as always and (U + f, S + T) with the weight negated.  The unions the later
        hands meet are then those of the other types' finals only (weights are two's-complement integers)."""
        cdef uint64_t i
        cdef size_t j
        cdef const Entry* e
        cdef const Final* f
        cdef uint128 u, u0
        cdef int tset
        cdef int b, skip = self.by_difference[cls] if cls >= 0 and _merge_by_difference else -1
        cdef int b_skip = 0
        cdef bint differ, may_differ = skip >= 0 and room >= 0
        cdef vector[uint128] fitting
        cdef vector[int] which
        for i in range(src.capacity):
            e = &src.slots[i]
            if e.key == 0:
                continue
            u0, tset = entry_union(e[0]), entry_tset(e[0])
            if cls < 0:
                if e.ways != 0 and map_add(dst, u0, tset, e.ways) < 0:
                    return -1
                continue
            if e.ways == 0:         # a state whose corrections cancelled
                continue
            differ = may_differ and self.leaves_room(u0, cls, room)
            if may_differ and not differ:
                self.n_merge_full += 1
            if differ:
                b_skip = self.combine[tset * N_TYPES + skip]
                if map_add(dst, u0, b_skip, e.ways) < 0:
                    return -1
                self.n_merge_differ += 1
            # as in last_hand: every slot asked for first, then filled
            fitting.clear()
            which.clear()
            for j in range(self.classes[cls].size()):
                f = &self.classes[cls][j]
                if differ and f.type == skip:
                    continue
                u = u0 + f.cards
                if self.fits(u):
                    b = self.combine[tset * N_TYPES + f.type]
                    fitting.push_back(u)
                    which.push_back(<int>j)
                    prefetch(&dst.slots[hash128(u, b, dst.seed) >> dst.shift])
            if self.state_cap >= 0 and dst.size + 2 * <int64_t>fitting.size() > self.state_cap:
                return TOO_LARGE
            for j in range(fitting.size()):
                f = &self.classes[cls][which[j]]
                if map_add(dst, fitting[j], self.combine[tset * N_TYPES + f.type], e.ways * f.orders) < 0:
                    return -1
                if differ and map_add(dst, fitting[j], b_skip, -(e.ways * f.orders)) < 0:
                    return -1
            self.n_merges += fitting.size()
            if self.work_cap >= 0 and self.n_merges + self.n_last > self.work_cap:
                return TOO_LARGE
        return 0

    def finish(self):
        """Sum the last hands of the rounds added (each group once) against the dealer."""
        cdef int status = 0
        cdef int index, hands, last
        for group, position in self.pending.items():
            hands, last, index = group[0], group[1], position
            with nogil:
                status = self.last_hand(&self.gathered[index], last, hands)
                free(self.gathered[index].slots)
                self.gathered[index].slots = NULL
            if status == TOO_LARGE:
                raise RoundTooLarge()
            if status < 0:
                raise MemoryError()
        self.pending.clear()
        self.gathered.clear()
        # the independent groups take the mass the exact ones leave: the round's is P(no settled blackjack)
        cdef double target = 0.0, exact = 0.0, rough = 0.0
        cdef double dist[N_OUTCOMES]
        cdef int k
        if self.n_independent:
            self.dealer.distribution(self.deck10, dist)
            for k in range(N_OUTCOMES):
                target += dist[k]
            for k in range(CELLS):
                exact += self.cells[k]
                rough += self.icells[k]
            for k in range(CELLS):
                self.cells[k] += self.icells[k] * (target - exact) / rough
                self.icells[k] = 0.0

    cdef int last_hand(self, EntryMap* states, int last, int hands) noexcept nogil:
        """Sum the last hand against the dealer, union by union of the other hands, layer by layer.

        *Layers.*  A final union U + f holds count_K(U) + count_K(f) cards of one kind K.  The unions
        are made layer by layer of that count (``layer_kind``: the kind whose largest layer is the
        smallest), so that the table of unions and their dealer values holds one layer at a time and is
        emptied between layers: a round's memory is its largest layer's, not all its unions'.  Each
        group of states (one union, its type multisets) is met once in each layer its finals reach,
        with the finals of that count; its sums of that layer are crossed with its type multisets
        there (the cells are linear in them).  The skipped type of a sum by difference needs every
        other final's sum: a group keeps their total and its own union's values (read in its own
        layer) and is crossed for that type at the end.

        Within a layer the unions are taken in chunks: each group's final unions are placed in the table
        (every slot asked for at once: the lookups are cache misses, and the memory serves many at a time),
        the unions met for the first time are then evaluated side by side (``DealerTable.
        cached_distribution_batch``), and the chunk's groups are summed, in their order."""
        cdef Entry* ordered                 # the states, the map's slots reused
        cdef uint64_t i, n
        cdef size_t a, z, j, g, n_groups
        cdef uint128 u, u0
        cdef vector[uint128] fitting       # a group's final unions, their slots prefetched
        cdef vector[size_t] group_start     # group g's entries: [group_start[g], group_start[g + 1]) of ordered
        cdef vector[int64_t] side           # group g's row in own and rest (a sum by difference), or -1
        cdef vector[double] own             # per row: its union's values (N_OUTCOMES)
        cdef vector[double] rest            # per row: the other types' sums (N_OUTCOMES)
        cdef vector[char] met               # per row: a final of the skipped type fits
        cdef vector[size_t] layer_start     # the groups of count a: [layer_start[a], layer_start[a + 1])
        cdef vector[vector[int]] by_count   # the last class's finals by count_K
        cdef vector[size_t] starts
        cdef Chunk chunk
        cdef int skip = self.by_difference[last]
        cdef int kind, c, b, top_u = 0, top_f = 0, o, t
        cdef int64_t rows = 0, skipped = 0, pairs
        cdef bint differ
        cdef double x, w
        cdef double r[N_OUTCOMES]
        cdef const Final* f
        if states.size == 0:
            self.reset_unions()
            return 0
        kind = self.layer_kind(states, last)
        # the states in place of the map: moved to the front of its slots, which then shrink to them, and sorted
        # by their union's count of the kind, then by union (the count held for the sort above the type multiset,
        # LAYER_SHIFT): the groups of a layer are then in union order
        n = 0
        for i in range(states.capacity):
            if states.slots[i].key != 0:
                c = self.count(entry_union(states.slots[i]), kind)
                if c > top_u:
                    top_u = c
                states.slots[n] = states.slots[i]
                states.slots[n].key |= (<uint128>c) << LAYER_SHIFT
                n += 1
        ordered = <Entry*>realloc(states.slots, <size_t>n * sizeof(Entry))
        if ordered == NULL:
            ordered = states.slots
        states.slots = NULL
        self.n_entries += n
        self.reset_unions()
        sort(ordered, ordered + n, entry_layer_less)
        layer_start.assign(top_u + 2, 0)
        for i in range(n):
            layer_start[<int>(ordered[i].key >> LAYER_SHIFT) + 1] += 1
            ordered[i].key &= ((<uint128>1) << LAYER_SHIFT) - 1
        for c in range(top_u + 1):
            layer_start[c + 1] += layer_start[c]
        # the groups (one union each), layer after layer; layer_start then counts groups
        a = 0
        for c in range(top_u + 1):
            z = layer_start[c + 1]
            layer_start[c] = group_start.size()
            while a < z:
                group_start.push_back(a)
                u0 = entry_union(ordered[a])
                while a < z and entry_union(ordered[a]) == u0:
                    a += 1
                differ = skip >= 0 and self.leaves_room(u0, last)
                if skip >= 0 and not differ:
                    self.n_full += 1
                side.push_back(rows if differ else -1)
                rows += 1 if differ else 0
        n_groups = group_start.size()
        layer_start[top_u + 1] = n_groups
        group_start.push_back(n)
        own.assign(<size_t>rows * N_OUTCOMES, 0.0)
        rest.assign(<size_t>rows * N_OUTCOMES, 0.0)
        met.assign(<size_t>rows, 0)
        if self.work_cap >= 0:      # the pairs to meet, at most: every group with every final (but the skipped)
            for j in range(self.classes[last].size()):
                if self.classes[last][j].type == skip:
                    skipped += 1
            pairs = <int64_t>n_groups * <int64_t>self.classes[last].size() - rows * skipped
            if self.n_merges + self.n_last + pairs > self.work_cap:
                free(ordered)
                return TOO_LARGE
        for j in range(self.classes[last].size()):
            c = self.count(self.classes[last][j].cards, kind)
            if c > top_f:
                top_f = c
        by_count.resize(top_f + 1)
        for j in range(self.classes[last].size()):
            by_count[self.count(self.classes[last][j].cards, kind)].push_back(<int>j)
        for c in range(top_u + top_f + 1):          # layer c: the final unions of count c
            for a in range(c - top_f if c > top_f else 0, (c if c < top_u else top_u) + 1):
                b = c - <int>a
                if by_count[b].empty() and b != 0:
                    continue
                for g in range(layer_start[a], layer_start[a + 1]):
                    u0 = entry_union(ordered[group_start[g]])
                    differ = side[g] >= 0
                    fitting.clear()
                    chunk.group_start.push_back(chunk.numbers.size())
                    for j in range(by_count[b].size()):
                        f = &self.classes[last][by_count[b][j]]
                        u = u0 + f.cards
                        if self.fits(u):
                            if differ and f.type == skip:
                                met[side[g]] = 1
                                continue
                            fitting.push_back(u)
                            chunk.which.push_back(by_count[b][j])
                            self.prefetch_slot(u)
                    if differ and b == 0:       # the union itself, for the skipped type (see the module)
                        fitting.push_back(u0)
                        chunk.which.push_back(-1)
                        self.prefetch_slot(u0)
                    if fitting.empty():
                        chunk.group_start.pop_back()
                        continue
                    if self.place(fitting, chunk) < 0:     # (the chunk keeps numbers: the table may grow meanwhile)
                        free(ordered)
                        return -1
                    chunk.group_entries.push_back(group_start[g])
                    chunk.group_entries.push_back(group_start[g + 1])
                    chunk.group_side.push_back(side[g])
                    if chunk.fresh.size() >= CHUNK_FRESH or chunk.numbers.size() >= CHUNK_FINALS:
                        if self.flush(chunk, ordered, last, hands, own, rest) < 0:
                            free(ordered)
                            return -1
            if self.flush(chunk, ordered, last, hands, own, rest) < 0:     # before the layer's table goes
                free(ordered)
                return -1
            self.reset_unions()
        # the skipped type: each union's own value less the other types' sums over every layer
        for g in range(n_groups):
            if side[g] < 0 or not met[side[g]]:
                continue
            self.n_differ += 1
            for o in range(N_OUTCOMES):
                x = own[side[g] * N_OUTCOMES + o] - rest[side[g] * N_OUTCOMES + o]
                # an outcome the skipped finals cannot meet leaves rounding alone: it is 0
                r[o] = x if x > DIFFERENCE_FLOOR * own[side[g] * N_OUTCOMES + o] else 0.0
            for j in range(group_start[g], group_start[g + 1]):
                w = <double><int128>ordered[j].ways       # negative: a correction of a merge by difference
                if w == 0.0:
                    continue
                b = self.combine[entry_tset(ordered[j]) * N_TYPES + skip]
                for o in range(N_OUTCOMES):
                    if r[o] != 0.0:
                        self.cells[cell_index(self.doubles_of[b], 1 if o == BLACKJACK else 0,
                                              self.net_of[b * N_OUTCOMES + o], hands)] += w * r[o]
        free(ordered)
        return 0

    cdef int layer_kind(self, const EntryMap* states, int last) noexcept nogil:
        """The kind whose layers (``last_hand``) are the smallest: the one whose largest layer holds the fewest
        (state, final) pairs, counted from the states' and the last class's histograms of the kind (one pass over
        the map for every kind)."""
        cdef int k, c, d, best = 0
        cdef uint64_t i
        cdef size_t j
        cdef uint128 u
        cdef int64_t most, least = -1
        cdef vector[int64_t] held, finals, pairs     # [kind * 256 + count]
        held.assign(N_KINDS * 256, 0)
        finals.assign(N_KINDS * 256, 0)
        for i in range(states.capacity):
            if states.slots[i].key != 0:
                u = entry_union(states.slots[i])
                for k in range(self.kinds):
                    held[k * 256 + self.count(u, k)] += 1
        for j in range(self.classes[last].size()):
            for k in range(self.kinds):
                finals[k * 256 + self.count(self.classes[last][j].cards, k)] += 1
        for k in range(self.kinds):
            pairs.assign(512, 0)
            for c in range(256):
                if held[k * 256 + c]:
                    for d in range(256):
                        pairs[c + d] += held[k * 256 + c] * finals[k * 256 + d]
            most = 0
            for c in range(512):
                if pairs[c] > most:
                    most = pairs[c]
            if least < 0 or most < least:
                least, best = most, k
        return best

    cdef void reset_unions(self) noexcept nogil:
        """Empty the table of unions (their values with it: numbers start again from 0), counting them."""
        if self.unions.size:
            self.n_unions += self.unions.size
            memset(self.unions.keys, 0, self.unions.capacity * sizeof(uint128))
            self.unions.size = 0

    cdef inline void prefetch_slot(self, uint128 u) noexcept nogil:
        """Ask for union u's first slot ahead of its probe in ``place`` (a cache miss in a large round; a hint
        only: a table grown meanwhile just makes it useless)."""
        prefetch(&self.unions.keys[union_hash(u) >> self.unions.shift])

    cdef int place(self, const vector[uint128]& unions, Chunk& chunk) noexcept nogil:
        """Put ``unions`` in self.unions (making room for them first), their numbers at the end of
        chunk.numbers; the new ones wait in chunk.fresh, with their decks and weights, to be evaluated."""
        cdef size_t j
        cdef int64_t i
        cdef int k
        cdef int rest[N_RANKS]
        if table_reserve(&self.unions, <int64_t>unions.size()) < 0:
            return -1
        if self.values_room(self.unions.size + <int64_t>unions.size()) < 0:
            return -1
        for j in range(unions.size()):
            i = union_hash(unions[j]) >> self.unions.shift
            while self.unions.keys[i] != 0 and slot_union(self.unions.keys[i]) != unions[j]:
                i = (i + 1) & <int64_t>(self.unions.capacity - 1)
            if self.unions.keys[i] == 0:
                self.unions.keys[i] = unions[j] | (<uint128>self.unions.size << KEY_BITS)
                self.unions.size += 1
                chunk.fresh.push_back(slot_number(self.unions.keys[i]))
                chunk.weights.push_back(self.union_weight(unions[j], rest))
                for k in range(N_RANKS):
                    chunk.decks.push_back(rest[k])
            chunk.numbers.push_back(slot_number(self.unions.keys[i]))
        return 0

    cdef int values_room(self, int64_t unions) noexcept nogil:
        """Room in self.values for the values of ``unions`` unions (the array may move); -1 when memory
        runs out."""
        cdef int64_t want = 2 * self.values_held
        cdef double* grown
        if unions <= self.values_held:
            return 0
        if want < unions:
            want = unions
        if want < 1024:
            want = 1024
        grown = <double*>zeroed(<size_t>want * N_OUTCOMES * sizeof(double))
        if grown == NULL:
            return -1
        if self.values != NULL:
            memcpy(grown, self.values, <size_t>self.values_held * N_OUTCOMES * sizeof(double))
            free(self.values)
        self.values = grown
        self.values_held = want
        return 0

    cdef int flush(self, Chunk& chunk, const Entry* entries, int last, int hands, vector[double]& own,
                   vector[double]& rest) noexcept nogil:
        """Evaluate the chunk's new unions and sum its groups into the cells; a group summing a type by difference
        (row ``chunk.group_side`` >= 0) adds its other types' sums to its row of ``rest``, and its union's own
        values, when met, go to its row of ``own`` (``last_hand``)."""
        cdef size_t g, j, a, z, n_groups
        cdef int o, t, b
        cdef int64_t row
        cdef double r[N_TYPES][N_OUTCOMES]     # by the final's type, then the dealer's outcome
        cdef bint present[N_TYPES]
        cdef const Final* f
        cdef const double* v
        cdef double w
        self.evaluate_fresh(chunk)
        n_groups = chunk.group_entries.size() // 2
        for g in range(n_groups):
            a, z = chunk.group_entries[2 * g], chunk.group_entries[2 * g + 1]
            row = chunk.group_side[g]
            memset(r, 0, sizeof(r))
            memset(present, 0, sizeof(present))
            for j in range(chunk.group_start[g], chunk.group_start[g + 1] if g + 1 < chunk.group_start.size()
                           else chunk.numbers.size()):
                if j + VALUES_AHEAD < chunk.numbers.size():
                    prefetch_values(&self.values[chunk.numbers[j + VALUES_AHEAD] * N_OUTCOMES])
                v = &self.values[chunk.numbers[j] * N_OUTCOMES]
                self.n_last += 1
                if chunk.which[j] < 0:
                    memcpy(&own[row * N_OUTCOMES], v, N_OUTCOMES * sizeof(double))
                    continue
                f = &self.classes[last][chunk.which[j]]
                present[f.type] = True
                for o in range(N_OUTCOMES):
                    r[f.type][o] += f.orders * v[o]
            if row >= 0:
                for t in range(N_TYPES):
                    if present[t]:
                        for o in range(N_OUTCOMES):
                            rest[row * N_OUTCOMES + o] += r[t][o]
            for j in range(a, z):
                w = <double><int128>entries[j].ways       # negative: a correction of a merge by difference
                if w == 0.0:
                    continue
                for t in range(N_TYPES):
                    if not present[t]:
                        continue
                    b = self.combine[entry_tset(entries[j]) * N_TYPES + t]
                    for o in range(N_OUTCOMES):
                        if r[t][o] != 0.0:
                            self.cells[cell_index(self.doubles_of[b], 1 if o == BLACKJACK else 0,
                                                  self.net_of[b * N_OUTCOMES + o], hands)] += w * r[t][o]
        chunk.which.clear()
        chunk.group_start.clear()
        chunk.numbers.clear()
        chunk.group_entries.clear()
        chunk.group_side.clear()
        return 0

    cdef void evaluate_fresh(self, Chunk& chunk) noexcept nogil:
        """Fill in the dealer values of the chunk's new unions, evaluated side by side."""
        cdef vector[double] values
        cdef size_t m
        cdef int k
        if chunk.fresh.empty():
            return
        values.resize(chunk.fresh.size() * N_OUTCOMES)
        self.dealer.cached_distribution_batch(chunk.decks.data(), <int>chunk.fresh.size(), values.data())
        for m in range(chunk.fresh.size()):
            for k in range(N_OUTCOMES):
                self.values[chunk.fresh[m] * N_OUTCOMES + k] = values[m * N_OUTCOMES + k] * chunk.weights[m]
        chunk.fresh.clear()
        chunk.weights.clear()
        chunk.decks.clear()

    cdef int pair_of_hands(self, uint64_t words, int n_p, int c) noexcept nogil:
        """Add the rounds of two hands of one class ``c`` (one split; or two hands, no resplit, in a resplit
        game): the finals (i, j) and (j, i) make the same union and type multiset, so each unordered pair
        is summed once, weighted twice when i != j (half the lookups of the general merge); -1 when
        memory runs out.

        Where the class's commonest type may be summed by difference (an X-hand, see the module) and every
        final of that type leaves room for the other hand and the dealer, the pairs of two such finals are
        not met: for each such final i, their sum over the other hand is i's union's own value less that of
        the pairs (i, j) of the other types, which are met anyway."""
        cdef size_t i, j, q, size = self.classes[c].size()
        cdef const Final* fi
        cdef const Final* fj
        cdef uint128 u, start = (<uint128>n_p) << self.shift[self.resplit_kind]
        cdef uint128 wi
        cdef int o, b, ti
        cdef double w, x
        cdef const double* v
        cdef vector[uint128] unions         # a chunk's final unions, their type sets and weights
        cdef vector[int] tsets
        cdef vector[double] weights
        cdef vector[int64_t] owner          # per pair met: the final of the skipped type whose rest it is part
        cdef vector[double] other           # of (or -1), and the other final's orders
        cdef vector[double] rest            # per final of the skipped type: its pairs with the others' types
        cdef vector[int64_t] busts          # the finals of the skipped type that fit
        cdef Chunk chunk
        cdef int skip = self.by_difference[c]
        cdef bint differ = skip >= 0
        for i in range(size):
            fi = &self.classes[c][i]
            if skip >= 0 and fi.type == skip and self.fits(start + fi.cards):
                busts.push_back(<int64_t>i)
                differ = differ and self.leaves_room(start + fi.cards, c)
        if differ:
            rest.assign(size * N_OUTCOMES, 0.0)
        for i in range(size):
            fi = &self.classes[c][i]
            wi = (<uint128>words) * fi.orders
            ti = self.combine[fi.type]          # the set of one hand of fi's type
            for j in range(i, size):
                fj = &self.classes[c][j]
                if differ and fi.type == skip and fj.type == skip:
                    continue
                u = start + fi.cards + fj.cards
                if not self.fits(u):
                    continue
                unions.push_back(u)
                tsets.push_back(self.combine[ti * N_TYPES + fj.type])
                weights.push_back(<double>(wi * fj.orders * (2 if j != i else 1)))
                if differ and fi.type == skip:
                    owner.push_back(<int64_t>i)
                    other.push_back(<double>fj.orders)
                elif differ and fj.type == skip:
                    owner.push_back(<int64_t>j)
                    other.push_back(<double>fi.orders)
                else:
                    owner.push_back(-1)
                    other.push_back(0.0)
                self.prefetch_slot(u)
            if unions.size() < CHUNK_FINALS and i + 1 < size:
                continue
            if self.place(unions, chunk) < 0:
                return -1
            self.evaluate_fresh(chunk)
            for q in range(unions.size()):
                if q + VALUES_AHEAD < unions.size():
                    prefetch_values(&self.values[chunk.numbers[q + VALUES_AHEAD] * N_OUTCOMES])
                v = &self.values[chunk.numbers[q] * N_OUTCOMES]
                b, w = tsets[q], weights[q]
                for o in range(N_OUTCOMES):
                    if v[o] != 0.0:
                        self.cells[cell_index(self.doubles_of[b], 1 if o == BLACKJACK else 0,
                                              self.net_of[b * N_OUTCOMES + o], 2)] += w * v[o]
                if owner[q] >= 0:
                    for o in range(N_OUTCOMES):
                        rest[owner[q] * N_OUTCOMES + o] += other[q] * v[o]
            self.n_last += unions.size()
            unions.clear()
            tsets.clear()
            weights.clear()
            owner.clear()
            other.clear()
            chunk.numbers.clear()
        self.n_entries += size
        if not differ:          # the unions of one hand that could have been summed by difference, met in full
            self.n_full += busts.size()
            return 0
        # the pairs of two finals of the skipped type: each such final's union, less its pairs met
        for q in range(busts.size()):
            unions.push_back(start + self.classes[c][busts[q]].cards)
        if self.place(unions, chunk) < 0:
            return -1
        self.evaluate_fresh(chunk)
        b = self.combine[self.combine[skip] * N_TYPES + skip]
        for q in range(unions.size()):
            v = &self.values[chunk.numbers[q] * N_OUTCOMES]
            w = <double>((<uint128>words) * self.classes[c][busts[q]].orders)
            for o in range(N_OUTCOMES):
                x = v[o] - rest[busts[q] * N_OUTCOMES + o]
                if x > DIFFERENCE_FLOOR * v[o]:
                    self.cells[cell_index(self.doubles_of[b], 1 if o == BLACKJACK else 0,
                                          self.net_of[b * N_OUTCOMES + o], 2)] += w * x
        self.n_last += unions.size()
        self.n_differ += unions.size()
        return 0

    cdef double union_weight(self, uint128 u, int* rest) noexcept nogil:
        """ff(D, u) / ff(n0, |u|): the probability of drawing u's cards first, in a given order;
        ``rest`` gets the deck less u, by rank."""
        cdef int k, c, j, size = 0
        cdef double weight = 1.0
        for k in range(N_RANKS):
            rest[k] = self.deck10[k]
        for k in range(self.kinds):
            c = self.count(u, k)
            rest[TEN if k == N_RANKS else k] -= c
            for j in range(c):
                weight *= self.deck[k] - j
            size += c
        for j in range(size):
            weight /= self.n0 - j
        return weight

    cdef const double* dealer_of(self, uint128 u) noexcept nogil:
        """Union u's dealer values, ff(D, u) / ff(n0, |u|) x P(outcome | D - u), 7 of them, evaluated when
        first asked for; NULL when memory runs out.  Read them at once: they move when more unions come."""
        cdef int64_t i = table_slot(&self.unions, u)
        if i < 0:
            return NULL
        if self.unions.keys[i] != 0:
            return &self.values[<size_t>slot_number(self.unions.keys[i]) * N_OUTCOMES]
        cdef int k
        cdef int rest[N_RANKS]
        cdef double weight = self.union_weight(u, rest)
        cdef int64_t at = self.unions.size * N_OUTCOMES
        if self.values_room(self.unions.size + 1) < 0:
            return NULL
        self.unions.keys[i] = u | (<uint128>self.unions.size << KEY_BITS)
        self.unions.size += 1
        self.dealer.cached_distribution_batch(rest, 1, &self.values[at])
        for k in range(N_OUTCOMES):
            self.values[at + k] *= weight
        return &self.values[at]

    def add_config_independent(self, double probability, int n_p, list class_indices):
        """Add one group of second-card words approximately: its hands independent given the dealer's
        outcome (the method of bjev 0.1 for three and four hands).

        ``probability``: the group's (its words' probability summed).  Each
        hand's distribution of types per dealer outcome is its own exact
        marginal (its finals on the deck less the resplit cards); the
        dealer's outcome is the first hand's.  The mean is then not exactly
        the split's EV (about 1e-5 bets off per split); the exact method is
        :meth:`add_configs`.  :meth:`finish` scales these groups to the mass the
        exact ones leave, so that the round's is exact.
        """
        cdef int h = len(class_indices)
        cdef int j, t, o, a, b, c
        cdef size_t i
        cdef const Final* f
        cdef uint128 start = (<uint128>n_p) << self.shift[self.resplit_kind]
        cdef int rest[N_RANKS]
        cdef double total, w
        cdef const double* g
        cdef vector[double] q          # [hand][type][outcome]: P(type | outcome), the hand's marginal
        cdef double p_out[N_OUTCOMES]
        cdef double mass[N_TYPES][N_OUTCOMES]
        cdef double any_type[N_TYPES]
        if h != 2 + n_p or h > MAX_HANDS:
            raise ValueError("a configuration's hands must be its resplit cards plus two (at most four)")
        cdef vector[uint128] wanted         # every hand's finals' unions, evaluated side by side first
        cdef Chunk chunk
        for j in range(h):
            c = class_indices[j]
            for i in range(self.classes[c].size()):
                if self.fits(start + self.classes[c][i].cards):
                    wanted.push_back(start + self.classes[c][i].cards)
        if self.place(wanted, chunk) < 0:
            raise MemoryError()
        self.evaluate_fresh(chunk)
        q.resize(h * N_TYPES * N_OUTCOMES)
        for j in range(h):
            memset(mass, 0, sizeof(mass))
            memset(any_type, 0, sizeof(any_type))
            total = 0.0
            c = class_indices[j]
            for i in range(self.classes[c].size()):
                f = &self.classes[c][i]
                if not self.fits(start + f.cards):
                    continue
                total += f.orders * self.union_weight(start + f.cards, rest)
                g = self.dealer_of(start + f.cards)
                if g == NULL:
                    raise MemoryError()
                for o in range(N_OUTCOMES):
                    mass[f.type][o] += f.orders * g[o]
                    any_type[f.type] += f.orders * g[o]
            if total == 0.0:
                return
            for o in range(N_OUTCOMES):
                w = 0.0
                for t in range(N_TYPES):
                    w += mass[t][o]
                if j == 0:
                    p_out[o] = w / total
                for t in range(N_TYPES):     # an outcome this hand's deck cannot meet: its types overall
                    q[(j * N_TYPES + t) * N_OUTCOMES + o] = mass[t][o] / w if w > 0.0 else any_type[t]
            for o in range(N_OUTCOMES):
                w = 0.0
                for t in range(N_TYPES):
                    w += q[(j * N_TYPES + t) * N_OUTCOMES + o]
                for t in range(N_TYPES):
                    if w > 0.0:
                        q[(j * N_TYPES + t) * N_OUTCOMES + o] /= w
        cdef vector[double] states, grown
        cdef int n_sets = self.doubles_of.size()
        for o in range(N_OUTCOMES):
            if p_out[o] == 0.0:
                continue
            states.assign(n_sets, 0.0)
            states[0] = probability * p_out[o]
            for j in range(h):
                grown.assign(n_sets, 0.0)
                for a in range(n_sets):
                    if states[a] == 0.0:
                        continue
                    for t in range(N_TYPES):
                        w = q[(j * N_TYPES + t) * N_OUTCOMES + o]
                        if w != 0.0:
                            b = self.combine[a * N_TYPES + t]
                            grown[b] += states[a] * w
                states.swap(grown)
            for a in range(n_sets):
                if states[a] != 0.0:
                    self.icells[cell_index(self.doubles_of[a], 1 if o == BLACKJACK else 0,
                                           self.net_of[a * N_OUTCOMES + o], h)] += states[a]
        self.n_independent += 1

    def __dealloc__(self):
        table_free(&self.unions)
        free(self.values)
        for i in range(self.gathered.size()):
            free(self.gathered[i].slots)

    def work(self):
        """The size of the work: hand pairs merged, last-hand finals met, states, distinct final unions; the
        unions of the other hands whose last hand summed its commonest type by difference, and those whose deck
        left too few cards to (see the module)."""
        return {"split_rounds": 1, "merges": self.n_merges + self.n_last, "last_hand_finals": self.n_last,
                "states": self.n_entries,
                "unions": self.n_unions + self.unions.size, "independent_groups": self.n_independent,
                "unions_by_difference": self.n_differ, "unions_in_full": self.n_full,
                "states_merged_by_difference": self.n_merge_differ, "states_merged_in_full": self.n_merge_full}

    def cells_float(self):
        """{(doubles, dealer_blackjack, net, hands): mass} in joint units."""
        return {cell_key(k): self.cells[k] for k in range(CELLS) if self.cells[k] != 0.0}
