# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: language = c++
"""Truly optimal play of one split (two hands) for one up card: values in floats, finals for exact sums.

The first split hand is played knowing that a second follows; the second is
played knowing every card seen, the first hand's included.  Units are joint,
as everywhere in the core (``_player``).

*The key fact.*  The second hand never sees the dealer's cards, so the dealer
may be dealt right after the first hand without changing the joint law of
(hand 1, hand 2, dealer): nothing the second hand decides changes the first
hand's expected result.  Hence

* hand 2 plays the ordinary optimal single-hand strategy from the deck
  ``D0 - drawn1`` (``D0``: the deck less both pair cards; ``drawn1``: the
  cards hand 1 drew), with value ``V2(drawn1)``;
* hand 1 maximises its own result plus ``V2(drawn1)``: a one-hand recursion
  whose terminal payoff is ``bet * own(drawn1) + V2(drawn1)`` (``own``: stand
  or bust against the dealer drawing from ``D0 - drawn1``);
* ``EV(split) = sum_c P(c) V1({pair, c})``.

*The minimum* (``sense`` -1).  The same argument holds for a player who aims
at the lowest EV: hand 2 plays the worst single-hand strategy for its deck,
hand 1 minimises its own result plus that value.  The recursions run once, on
values multiplied by ``sense`` at the leaves (stand and bust values): maximising
``-result`` is minimising the result, ties still go to the earlier of stand,
hit, double.  Values are handed back in their own sign; the dealer memo holds
unsigned values and serves both senses.

*The work.*  The split hand's states are the hand-graph states holding the
pair card (``ev.core.shapes.hand_graph``), plus one leaf for every bust
multiset (the second hand's value depends on the exact cards of a busted first
hand).  Every first-hand state needs a full second-hand recursion over the
states its deck can still hold: about ``(states)^2`` node visits per pair.  The
dealer's outcome is memoised per up card in an open-addressing table keyed by
the cards gone from the shoe (both pair cards and both hands' draws), shared by
the ten pairs; each entry keeps the 7 outcome probabilities (a total's stand
value is worked out from them where it is read: kept beside them, the six
stand values took a fifth of the memo).

*Finals.*  For the exact evaluation, the strategy is followed forward
(``pair_finals``): the first hand's final multisets with their numbers of
drawing orders, and for each distinct ``drawn1`` the second hand's finals
under its own optimal strategy for that deck.  P(c1, c2, dealer) depends on
the deck only through the union c1 + c2 (+ the dealer's cards), so pairs of
finals are merged by their union, with integer numbers of orders, and summed
against the exact dealer (``exact_distribution``, ``_exact_sums``).  Decisions
whose runner-up lies within ``eps`` of the best are reported as near ties: the
exact mode decides them exactly and hands them back as overrides.  The float
distribution (``split_distribution``) needs no union: it follows both hands
forward with probabilities, the second hand on each ``drawn1``'s deck as
``second_hand`` plays it, and settles each second-hand final against the
dealer entry ``second_hand`` found for that very deck (a bust: one link on),
its sums compensated.
"""
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from math import comb

from libc.math cimport INFINITY, NAN, fabs
from libc.string cimport memcpy, memset
from libcpp.unordered_map cimport unordered_map
from libcpp.vector cimport vector

from ev.core._constants cimport ACE, BLACKJACK, BUST, DOUBLE, HIT, N_OUTCOMES, N_RANKS, STAND
from ev.core._exact_sums cimport exact_cell_sums, exact_split_cells
from ev.core._keymap cimport KeyMap, keymap_free, keymap_init
from ev.core._player cimport UpcardSolver, ctx_index
from ev.core._split_finals cimport (N_TYPES, SPLIT_CELLS, Cell, count_of, flatten_cells, hand_type, merge_cell,
                                   split_cell, unit)

cdef enum:
    N_CLASSES = 6       # stand-value classes: 16 or less, 17, 18, 19, 20, 21
    MEMO_START_BITS = 10    # the dealer memo's first capacity: 2^10 slots (half as many entries)
    PREFETCH_AHEAD = 64     # second_hand: how many states ahead a dealer memo load is asked for

# Values closer than this are a tie (the earlier of stand, hit, double is taken), as in _player.
cdef double TIE = 1e-12
# split_value keeps the first hand's near-tie masks for this eps (the exact mode's NEAR_TIE, the float
# distribution's), so that following the strategy forward needs no second first-hand recursion
cdef double PLAN_EPS = 1e-9


cdef struct Node:
    uint64_t drawn      # the cards drawn beyond the pair card, packed
    int parent          # the node it was first reached from, and the rank drawn there
    int added
    int ndrawn
    int total           # 22 for a bust
    int klass           # stand-value class: 0 (16 or less), 1 .. 5 (17 .. 21)
    bint leaf           # stands (21, one-card aces) or busted
    bint bust
    bint may_double
    int bust_children   # bit r: drawing rank r busts
    int child[N_RANKS]  # -1: the deck less both pair cards holds no more of that rank
    int n_live          # the ranks whose card keeps the hand live (a child state, no bust), in rank order
    unsigned char live_rank[N_RANKS]


cdef struct Final:
    uint64_t drawn
    int htype
    int64_t ways        # the number of drawing orders that end the hand here


cdef struct Scratch:    # per-state arrays of following a split's two hands forward (pair_finals, split_distribution)
    double* v1
    double* value
    double* stand
    double* p           # split_distribution: the probability of reaching each state
    int64_t* ways       # pair_finals: the drawing orders reaching each state
    int* entries
    char* feasible
    unsigned char* act1
    unsigned char* near1
    unsigned char* act2
    unsigned char* near2


cdef bint scratch_alloc(Scratch* t, size_t G) noexcept nogil:
    """Every array of ``t`` for G states; False when memory runs out (free them with ``scratch_free``)."""
    t.v1 = <double*>malloc(G * sizeof(double))
    t.value = <double*>malloc(G * sizeof(double))
    t.stand = <double*>malloc(G * sizeof(double))
    t.p = <double*>malloc(G * sizeof(double))
    t.ways = <int64_t*>malloc(G * sizeof(int64_t))
    t.entries = <int*>malloc(G * sizeof(int))
    t.feasible = <char*>malloc(G)
    t.act1 = <unsigned char*>malloc(G)
    t.near1 = <unsigned char*>malloc(G)
    t.act2 = <unsigned char*>malloc(G)
    t.near2 = <unsigned char*>malloc(G)
    return (t.v1 != NULL and t.value != NULL and t.stand != NULL and t.p != NULL and t.ways != NULL
            and t.entries != NULL and t.feasible != NULL and t.act1 != NULL and t.near1 != NULL and t.act2 != NULL
            and t.near2 != NULL)


cdef void scratch_free(Scratch* t) noexcept nogil:
    free(t.v1); free(t.value); free(t.stand); free(t.p); free(t.ways); free(t.entries); free(t.feasible)
    free(t.act1); free(t.near1); free(t.act2); free(t.near2)


cdef struct RSlot:      # a state of the resplit search and its value (times the sense) and stake, joint units
    uint64_t key        # 0: a free slot (every key has bit 63 set)
    double value
    double stake


#: set by ``request_stop`` (an interrupted command): the searches return at their next state, and the Python side
#: raises KeyboardInterrupt.  Process-wide: an interrupt stops every search.
cdef int _stop_requested = 0

#: the most slots a resplit search's state table may take (2^26 slots of 24 bytes: 1.5 GiB); a larger search is
#: refused with one message instead of running the machine out of memory
cdef uint64_t RMAP_MOST_SLOTS = (<uint64_t>1) << 26


def state_bound(slots=None):
    """The most slots a resplit search's state table may take (``slots``: set it, a power of two; tests make it
    small).  Returns the bound in force before."""
    global RMAP_MOST_SLOTS
    before = RMAP_MOST_SLOTS
    if slots is not None:
        RMAP_MOST_SLOTS = slots
    return before


#: the most states a resplit play followed forward may hold on two levels of cards gone at once (about 64 bytes
#: each: 2^26 states, about 4 GiB); beyond it the distribution is refused with one message instead of the process
#: running out of memory (the maps' allocation failing would end it).  2^24 refused the one-deck round resplitting
#: to four hands (2-2 against a 7 needs more); with 2^26 it runs (1,267 s, 5.9 GiB peak, 2026-12-06)
cdef size_t FOLLOW_MOST_STATES = (<size_t>1) << 26


def follow_bound(states=None):
    """The most states a resplit play followed forward may hold at once (``states``: set it; tests make it small).
    Returns the bound in force before."""
    global FOLLOW_MOST_STATES
    before = FOLLOW_MOST_STATES
    if states is not None:
        FOLLOW_MOST_STATES = states
    return before


#: the size (bits) each resplit search's state table last grew to, by what sets it but the up card (see
#: ``resplit_search``): the next up card's search of the same pair starts there instead of at 2^16
_TABLE_BITS = {}


def request_stop(bint stop=True):
    """Ask every running search to return at its next state (``stop`` False: let searches run again)."""
    global _stop_requested
    _stop_requested = stop


cdef struct RMap:       # open addressing, linear probing
    RSlot* slots
    uint64_t capacity
    int shift
    int64_t size
    bint too_large      # it would have grown past RMAP_MOST_SLOTS


cdef extern from "<sys/mman.h>" nogil:
    int madvise(void* addr, size_t length, int advice)
    int MADV_HUGEPAGE

cdef extern from "<stdlib.h>" nogil:
    void* aligned_alloc(size_t alignment, size_t size)

cdef extern from *:
    void prefetch "__builtin_prefetch"(const void* address) noexcept nogil

cdef size_t HUGE_PAGE = 1 << 21


cdef inline void prefetch_entry(const double* p) noexcept nogil:
    """Ask for a memo entry's seven probabilities (56 bytes: they may cross a cache line)."""
    prefetch(p)
    prefetch(p + N_OUTCOMES - 1)


cdef void advise_huge(void* p, size_t size) noexcept nogil:
    """Ask for 2 MiB pages under a large dealer memo array (advice only: the 4 KiB-aligned part of it; the kernel
    backs the 2 MiB-aligned stretches inside it with huge pages where it can).  Only arrays of 32 MiB or more:
    the memos of resplit searches (10^6 decks) gain about a quarter of their time; the one-split searches'
    smaller memos, freed and grown again per up card, measured a third slower with the advice."""
    cdef size_t start = <size_t>p, first
    if p == NULL or size < 16 * HUGE_PAGE:
        return
    first = (start + 4095) & ~(<size_t>4095)
    madvise(<void*>first, (start + size - first) & ~(<size_t>4095), MADV_HUGEPAGE)


cdef int rmap_init(RMap* m, int bits) noexcept nogil:
    """An empty table of 2^bits slots.  A large one (every probe a cache miss) is asked for in 2 MiB pages, where
    the kernel gives them on request: one TLB entry then covers 2 MiB of slots instead of 4 KiB."""
    cdef size_t size
    m.capacity = (<uint64_t>1) << bits
    m.shift = 64 - bits
    m.size = 0
    m.too_large = False
    size = m.capacity * sizeof(RSlot)
    if size >= 2 * HUGE_PAGE:
        m.slots = <RSlot*>aligned_alloc(HUGE_PAGE, size)
        if m.slots:
            madvise(m.slots, size, MADV_HUGEPAGE)       # advice only: without it the table works the same
            memset(m.slots, 0, size)
    else:
        m.slots = <RSlot*>calloc(m.capacity, sizeof(RSlot))
    return 0 if m.slots else -1


cdef int64_t rmap_slot(RMap* m, uint64_t key) noexcept nogil:
    """The slot of ``key``, found or free (its key then 0); grows first at 3/4 full; -1 when memory runs out."""
    cdef uint64_t i
    cdef RMap bigger
    if 4 * (m.size + 1) > 3 * m.capacity:
        if 2 * m.capacity > RMAP_MOST_SLOTS:
            m.too_large = True
            return -1
        if rmap_init(&bigger, 65 - m.shift) < 0:
            return -1
        for i in range(m.capacity):
            if m.slots[i].key:
                bigger.slots[rmap_slot(&bigger, m.slots[i].key)] = m.slots[i]
                bigger.size += 1
        free(m.slots)
        m[0] = bigger
    i = (key * <uint64_t>0x9E3779B97F4A7C15) >> m.shift
    while m.slots[i].key and m.slots[i].key != key:
        i = (i + 1) & (m.capacity - 1)
    return <int64_t>i


cdef inline void rmap_prefetch(const RMap* m, uint64_t key) noexcept nogil:
    """Ask for ``key``'s first slot ahead of its probe: a state's children are probed one after another, each
    probe of a large table a cache miss; fetched together, the misses overlap (a hint only: a table grown
    meanwhile just makes it useless)."""
    prefetch(&m.slots[(key * <uint64_t>0x9E3779B97F4A7C15) >> m.shift])


cdef struct RCtx:       # one resplit search: the pair, the rules that bear on a split hand, the key's layout
    int pair
    int most            # the most hands
    bint one_card       # split aces take one card
    bint das
    int double_lo, double_hi
    bint double_soft
    double sense
    uint64_t cunit[N_RANKS]     # one card of each rank in the compact key (its field's lowest bit)
    int key_bits                # the compact cards' bits; the state's fields follow
    RMap memo
    int64_t n_states, n_hands
    bint failed                 # out of memory, too large, or stopped
    bint follow_too_large       # the play followed forward outgrew FOLLOW_MOST_STATES
    bint stopped                # request_stop was called
    bint count_ways             # the play followed forward counts drawing orders (exact mode), not probabilities
    double near                 # counting ways: a decision whose runner-up lies within this of the best is near


cdef extern from *:
    """
    #include <cstdint>
    #include <cstddef>
    struct FKey {
        uint64_t a, b;
        bool operator==(const FKey& o) const { return a == o.a && b == o.b; }
    };
    struct FKeyHash {
        size_t operator()(const FKey& k) const {
            uint64_t x = (k.a ^ (k.b * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
            x ^= x >> 31;
            x *= 0x94D049BB133111EBULL;
            return (size_t)(x ^ (x >> 29));
        }
    };
    """
    cdef cppclass FKey:     # a state of a split round followed forward: its cards gone, and the rest packed
        uint64_t a
        uint64_t b
    cdef cppclass FKeyHash:
        pass

cdef extern from *:
    """
    #include <algorithm>
    #include <cstdlib>
    #include <cstring>
    #include <vector>
    struct FItem {          // a followed state and its probability (or drawing orders)
        FKey k;
        double p;
    };
    // by decision: the cards gone, then the rest without the type multiset (f_pack's low 20 bits), then the
    // type multiset; the states of one decision (the same cards gone, hands waiting and made, hand in play) are
    // then side by side, whatever the hands finished
    static inline bool fitem_less(const FItem& x, const FItem& y) {
        if (x.k.a != y.k.a) return x.k.a < y.k.a;
        return x.k.b < y.k.b;
    }
    static inline bool fitem_same_decision(const FItem& x, const FItem& y) {
        return x.k.a == y.k.a && (x.k.b >> 20) == (y.k.b >> 20);
    }
    // A level's followed states: open addressing, linear probing, (cards gone, rest) -> probability; the cards
    // gone are never 0 (the pair cards are gone), so a slot whose key's cards gone are 0 is free.  Emptied
    // between levels, its room kept.  std::unordered_map's node per state, allocated and hashed through a
    // prime modulus, was half of following a split of one deck to four hands forward.
    struct FFlat {
        FItem* slots = nullptr;
        size_t cap = 0, used = 0;
        bool failed = false;            // out of memory: at() returned nullptr
        FFlat() {}
        FFlat(const FFlat&) = delete;
        FFlat& operator=(const FFlat&) = delete;
        ~FFlat() { std::free(slots); }
        static size_t slot_of(const FKey& k, size_t mask) { return FKeyHash()(k) & mask; }
        bool grow() {
            size_t cap2 = cap ? 2 * cap : 1024;
            FItem* s2 = (FItem*)std::calloc(cap2, sizeof(FItem));
            if (!s2) { failed = true; return false; }
            for (size_t i = 0; i < cap; ++i) {
                if (slots[i].k.a == 0) continue;
                size_t j = slot_of(slots[i].k, cap2 - 1);
                while (s2[j].k.a != 0) j = (j + 1) & (cap2 - 1);
                s2[j] = slots[i];
            }
            std::free(slots);
            slots = s2;
            cap = cap2;
            return true;
        }
        double* at(const FKey& k) {     // the state's probability, 0 when new; nullptr when memory runs out
            if (4 * (used + 1) > 3 * cap && !grow()) return nullptr;
            size_t mask = cap - 1, i = slot_of(k, mask);
            while (true) {
                FItem& s = slots[i];
                if (s.k.a == 0) { s.k = k; s.p = 0.0; ++used; return &s.p; }
                if (s.k.a == k.a && s.k.b == k.b) return &s.p;
                i = (i + 1) & mask;
            }
        }
        size_t size() const { return used; }
        bool empty() const { return used == 0; }
        void clear() { if (used) std::memset(slots, 0, cap * sizeof(FItem)); used = 0; }
        void swap(FFlat& o) {
            std::swap(slots, o.slots); std::swap(cap, o.cap); std::swap(used, o.used); std::swap(failed, o.failed);
        }
        bool drain(std::vector<FItem>& out) noexcept {  // the states, by fitem_less, the table emptied; false: no memory
            try {
                out.clear();
                out.reserve(used);
                for (size_t i = 0; i < cap; ++i) if (slots[i].k.a != 0) out.push_back(slots[i]);
            } catch (...) {
                return false;
            }
            std::sort(out.begin(), out.end(), fitem_less);
            clear();
            return true;
        }
    };
    """
    cdef cppclass FItem:
        FKey k
        double p
    cdef cppclass FFlat:
        bint failed
        double* at(const FKey& k) nogil
        size_t size() nogil
        bint empty() nogil
        void clear() nogil
        void swap(FFlat& o) nogil
        bint drain(vector[FItem]& out) nogil
    bint fitem_same_decision(const FItem& x, const FItem& y) nogil



cdef inline size_t decision_end(const vector[FItem]& items, size_t i) noexcept nogil:
    """The end of the states of ``items`` (sorted by ``fitem_less``) that share the decision of ``items[i]``."""
    cdef size_t j = i + 1
    while j < items.size() and fitem_same_decision(items[i], items[j]):
        j += 1
    return j


cdef inline bint fadd(FFlat& m, const FKey& k, double q) noexcept nogil:
    """Add ``q`` to state ``k`` of ``m``; False when memory runs out."""
    cdef double* slot = m.at(k)
    if slot == NULL:
        return False
    slot[0] += q
    return True

cdef enum:
    F_HANDS = 5             # hands made: 2 .. 4 (index up to 4)
    F_NETS = 17             # the round's net: -8 .. +8
    F_CELLS = 5 * 2 * F_NETS * F_HANDS      # doubles 0 .. 4, dealer blackjack, net, hands


cdef inline uint64_t f_pack(int tset, int w, int m, int hard, bint ace, bint two) noexcept nogil:
    """The rest of a followed state: type multiset of the hands finished, hands waiting and made, and the hand in
    play (hard total, an ace, two cards; 0 between hands)."""
    return (<uint64_t>tset) | (<uint64_t>w << 20) | (<uint64_t>m << 23) | (<uint64_t>hard << 26) \
        | (<uint64_t>ace << 32) | (<uint64_t>two << 33)


cdef inline int f_tset(uint64_t b) noexcept nogil:
    return <int>(b & ((1 << 20) - 1))


cdef inline int f_w(uint64_t b) noexcept nogil:
    return <int>((b >> 20) & 7)


cdef inline int f_m(uint64_t b) noexcept nogil:
    return <int>((b >> 23) & 7)


cdef inline int f_hard(uint64_t b) noexcept nogil:
    return <int>((b >> 26) & 63)


cdef inline bint f_ace(uint64_t b) noexcept nogil:
    return (b >> 32) & 1


cdef inline bint f_two(uint64_t b) noexcept nogil:
    return (b >> 33) & 1


cdef inline int f_total(int hard, bint ace) noexcept nogil:
    """A hand's total (a bust 22), from its hard total and whether it holds an ace."""
    if hard > 21:
        return 22
    return hard + 10 if ace and hard + 10 <= 21 else hard


cdef inline int f_cell(int doubles, bint bj, int net, int hands) noexcept nogil:
    return ((doubles * 2 + bj) * F_NETS + net + 8) * F_HANDS + hands


cdef tuple f_cell_key(int k):
    """(doubles, dealer_blackjack, net, hands) of a cell index."""
    cdef int hands = k % F_HANDS
    k //= F_HANDS
    cdef int net = k % F_NETS - 8
    k //= F_NETS
    return (k // 2, k % 2, net, hands)


cdef inline int cards_in(uint64_t gone) noexcept nogil:
    cdef int r, n = 0
    for r in range(N_RANKS):
        n += count_of(gone, r)
    return n


cdef inline int best_option(const double* o) noexcept nogil:
    """The play a search takes among stand, hit and double (``o`` as ``OptimalSplitter.hand_options`` gives
    them): the first of the best, a later one only when it is better by more than TIE (a NaN double never)."""
    cdef int choice = 0
    if o[2] > o[0] + TIE:
        choice = 1
    if o[4] == o[4] and o[4] > o[2 * choice] + TIE:
        choice = 2
    return choice


cdef inline int near_options(const double* o, double near) noexcept nogil:
    """How many of stand, hit and double (``o`` as for ``best_option``; a NaN double is not an option) lie within
    ``near`` of the best."""
    cdef double best = o[0]
    cdef int k, count = 0
    for k in range(2, 6, 2):
        if o[k] == o[k] and o[k] > best:
            best = o[k]
    for k in range(0, 6, 2):
        if o[k] == o[k] and o[k] >= best - near:
            count += 1
    return count


cdef inline bint stop_following(RCtx* c, size_t held) noexcept nogil:
    """Must the play followed forward stop: its search failed, or it holds more than FOLLOW_MOST_STATES states
    (then flagged as too large)?"""
    if not c.failed and held > FOLLOW_MOST_STATES:
        c.failed = c.follow_too_large = True
    return c.failed


cdef void preorder(vector[Node]& g, vector[int]& order) noexcept nogil:
    """The states of ``g`` (numbered parents first) in depth-first preorder of the tree of first parents
    (``Node.parent``), the children of a state in the order of their numbers: ``order[0]`` is the root."""
    cdef int G = g.size(), s, i
    cdef vector[int] last_child, prev_sibling, stack
    last_child.resize(G, -1)
    prev_sibling.resize(G, -1)
    for s in range(1, G):           # each state's children, linked from the last back to the first
        i = g[s].parent
        prev_sibling[s] = last_child[i]
        last_child[i] = s
    order.clear()
    stack.push_back(0)
    while stack.size():
        s = stack.back()
        stack.pop_back()
        order.push_back(s)
        i = last_child[s]           # pushed last first: they come off the stack first first
        while i >= 0:
            stack.push_back(i)
            i = prev_sibling[i]


cdef class OptimalSplitter:
    """Truly optimal one-split values and finals for the up card of a float ``UpcardSolver``.

    The solver supplies the deck (its ``base``: the shoe less the up card), the
    hand graph, the dealer's terminal hands and the doubling rules.
    """
    cdef UpcardSolver solver
    cdef int base[N_RANKS]
    cdef int bj                    # the hole card of a settled blackjack, or -1
    # the dealer memo: open addressing on keys (cards gone from base, packed, plus one; 0 is empty) to
    # entry numbers; the entries are dense: 7 outcome probabilities each (stand values: stand_of)
    cdef uint64_t* keys
    cdef int* slot_entry
    cdef uint64_t capacity
    cdef int shift
    cdef int size
    cdef double* probs
    cdef bint short_deck           # some deck met ran out before the dealer could finish
    cdef bint out_of_memory
    cdef char* shorts              # per entry: its deck runs short (only read once any has)
    cdef int* links                # per entry and rank: the entry of the deck with one more card gone, or -1
    cdef bint any_short
    cdef vector[int] pending       # entries made, their decks not evaluated yet (fill_pending)
    cdef vector[int] pending_decks # their decks, N_RANKS each
    cdef vector[double] batch_values
    cdef readonly dict values      # (pair, sense) -> EV of splitting (joint); ("stake", pair, sense) -> its stake
    # (pair, one card, sense) -> (eps, the first hand's decisions, its near-tie masks): the first hand's plan, once
    # computed;
    # following a strategy forward (pair_finals) then needs no first-hand recursion
    cdef dict plans
    # work counters
    cdef int64_t n_first, n_second, n_lookups, n_pairs, n_unions, n_released   # n_released: decks of freed memos
    cdef int64_t n_round_states, n_hand_states     # the resplit searches' states (round, and hands in play)
    cdef double last_gap           # second_card: how far resplitting and keeping lay apart (INFINITY: no choice)
    cdef vector[uint64_t] ends     # the play followed counting ways: each end (no hand waiting), its cards gone,
    cdef vector[int] end_group     # its type multiset and hands made (tset * F_HANDS + hands),
    cdef vector[double] end_ways   # and its number of drawing orders (an integer, exact below 2^53)
    cdef vector[uint64_t] near_at  # counting ways: the near ties met, (cards gone, decision key) pairs
    cdef unordered_map[FKey, int, FKeyHash] overrides    # decision key -> the action decided exactly instead
    cdef object decider            # resplit_exact's ``decide``: asked (with the GIL) at each near tie met

    def __cinit__(self, UpcardSolver solver):
        cdef int r
        self.solver = solver
        for r in range(N_RANKS):
            self.base[r] = solver.base[r]
        self.bj = solver.bj_rank
        self.new_memo()
        self.values = {}
        self.plans = {}
        self.n_first = self.n_second = self.n_lookups = self.n_pairs = self.n_unions = self.n_released = 0
        self.n_round_states = self.n_hand_states = 0

    cdef void new_memo(self) except *:
        """An empty dealer memo of the starting size (small: ten up cards' empty memos after ``release`` would
        otherwise hold 5 MiB each; the table doubles as it fills)."""
        self.capacity, self.shift, self.size, self.any_short = 1 << MEMO_START_BITS, 64 - MEMO_START_BITS, 0, False
        self.pending.clear()
        self.pending_decks.clear()
        self.keys = <uint64_t*>calloc(self.capacity, sizeof(uint64_t))
        self.slot_entry = <int*>malloc(self.capacity * sizeof(int))
        self.probs = <double*>malloc(self.capacity // 2 * N_OUTCOMES * sizeof(double))
        self.shorts = <char*>malloc(self.capacity // 2)
        self.links = <int*>malloc(self.capacity // 2 * N_RANKS * sizeof(int))
        if not (self.keys and self.slot_entry and self.probs and self.shorts and self.links):
            raise MemoryError()

    cdef void free_memo(self) noexcept:
        free(self.keys)
        free(self.slot_entry)
        free(self.probs)
        free(self.shorts)
        free(self.links)
        self.keys = NULL
        self.slot_entry = NULL
        self.probs = NULL
        self.shorts = NULL
        self.links = NULL

    def __dealloc__(self):
        self.free_memo()

    def release(self):
        """Free the dealer memo and start an empty one, keeping everything found (values, stakes, plans): the memo
        is most of the memory (about 170 bytes a deck met; 10^5 to 10^6 decks an up card), and a later question
        regrows what it needs.  ``work()`` keeps counting."""
        self.n_released += self.size
        self.free_memo()
        self.new_memo()

    def memo_entries(self):
        """The decks the dealer memo holds now."""
        return self.size

    # ----- the dealer memo ----------------------------------------------------------
    cdef bint grow(self) noexcept nogil:
        """Double the table (the entries keep their numbers); False when memory runs out."""
        cdef uint64_t capacity = 2 * self.capacity, i, j
        cdef uint64_t* keys = <uint64_t*>calloc(capacity, sizeof(uint64_t))
        cdef int* slot_entry = <int*>malloc(capacity * sizeof(int))
        cdef double* probs
        cdef char* shorts
        cdef int* links
        probs = <double*>realloc(self.probs, capacity // 2 * N_OUTCOMES * sizeof(double))
        if probs:
            self.probs = probs
        shorts = <char*>realloc(self.shorts, capacity // 2)
        if shorts:
            self.shorts = shorts
        links = <int*>realloc(self.links, capacity // 2 * N_RANKS * sizeof(int))
        if links:
            self.links = links
        if not (keys and slot_entry and probs and shorts and links):
            free(keys)
            free(slot_entry)
            return False
        advise_huge(keys, capacity * sizeof(uint64_t))
        advise_huge(slot_entry, capacity * sizeof(int))
        advise_huge(probs, capacity // 2 * N_OUTCOMES * sizeof(double))
        advise_huge(links, capacity // 2 * N_RANKS * sizeof(int))
        for i in range(self.capacity):
            if self.keys[i]:
                j = (self.keys[i] * <uint64_t>0x9E3779B97F4A7C15) >> (self.shift - 1)
                while keys[j]:
                    j = (j + 1) & (capacity - 1)
                keys[j], slot_entry[j] = self.keys[i], self.slot_entry[i]
        free(self.keys)
        free(self.slot_entry)
        self.keys, self.slot_entry, self.capacity, self.shift = keys, slot_entry, capacity, self.shift - 1
        return True

    cdef inline uint64_t slot(self, uint64_t key) noexcept nogil:
        return (key * <uint64_t>0x9E3779B97F4A7C15) >> self.shift

    cdef int dealer(self, uint64_t gone) noexcept nogil:
        """The memo entry of the deck ``base - gone``: ``probs[7 i ..]`` the 7 outcome probabilities (joint
        units), ``stand_of(i, t)`` the stand values of totals 16 (or less) to 21.  0 when memory runs out."""
        cdef int entry = self.entry_of(gone)
        if self.out_of_memory:
            return 0
        self.fill_pending()
        return entry

    cdef int entry_of(self, uint64_t gone) noexcept nogil:
        """``dealer``'s entry, found or made; a new one waits (``pending``) until ``fill_pending`` evaluates the
        decks waiting side by side.  0 (and ``out_of_memory``) when memory runs out."""
        cdef uint64_t key = gone + 1
        cdef uint64_t i = self.slot(key)
        cdef int r, entry
        self.n_lookups += 1
        while self.keys[i]:
            if self.keys[i] == key:
                entry = self.slot_entry[i]
                if self.any_short and self.shorts[entry]:
                    self.short_deck = True
                return entry
            i = (i + 1) & (self.capacity - 1)
        if 2 * (self.size + 1) > <int>self.capacity:
            if not self.grow():
                self.out_of_memory = True
                return 0
            return self.entry_of(gone)
        entry = self.size
        self.keys[i], self.slot_entry[i] = key, entry
        self.size += 1
        for r in range(N_RANKS):
            self.links[entry * N_RANKS + r] = -1
        self.shorts[entry] = 0          # (until evaluated: fill_pending marks a short deck)
        self.pending.push_back(entry)
        for r in range(N_RANKS):
            self.pending_decks.push_back(self.base[r] - count_of(gone, r))
        return entry

    cdef void fill_pending(self) noexcept nogil:
        """Evaluate the waiting entries' decks side by side (``DealerTable.distribution_batch``, the values of
        one by one to the bit) and fill their probabilities and short-deck marks."""
        cdef int m = <int>self.pending.size()
        cdef int j, k, r, n, entry
        cdef const int* d
        cdef double* p
        cdef double total, mass
        if m == 0:
            return
        self.batch_values.resize(m * N_OUTCOMES)
        self.solver.dealer.distribution_batch(self.pending_decks.data(), m, self.batch_values.data())
        for j in range(m):
            entry = self.pending[j]
            d = self.pending_decks.data() + j * N_RANKS
            p = self.probs + entry * N_OUTCOMES
            memcpy(p, self.batch_values.data() + j * N_OUTCOMES, N_OUTCOMES * sizeof(double))
            n = 0
            for r in range(N_RANKS):
                n += d[r]
            total = 0.0
            for k in range(N_OUTCOMES):
                total += p[k]
            mass = 1.0 - (d[self.bj] / <double>n if self.bj >= 0 and n > 0 else 0.0)
            self.shorts[entry] = n == 0 or total < mass - 1e-9
            if self.shorts[entry]:
                self.short_deck = self.any_short = True
        self.pending.clear()
        self.pending_decks.clear()

    cdef inline double stand_of(self, int entry, int t) noexcept nogil:
        """The stand value of class ``t`` (totals 16 or less, 17, ..., 21) against the dealer of memo entry
        ``entry``: P(bust) - P(blackjack) + P(below) - P(above), summed in that order (joint units)."""
        cdef const double* p = self.probs + entry * N_OUTCOMES
        cdef double v = p[BUST] - p[BLACKJACK]
        cdef int k
        for k in range(5):
            if 17 + k < 16 + t:
                v += p[k]
            elif 17 + k > 16 + t:
                v -= p[k]
        return v

    cdef inline int linked(self, int entry, int r, uint64_t gone) noexcept nogil:
        """The memo entry of the deck ``base - gone``, where ``gone`` is the deck of ``entry`` with one more card
        of rank ``r`` gone: through the entry's link when it has been followed before (no hashing)."""
        cdef int child = self.linked_lazy(entry, r, gone)
        self.fill_pending()
        return child

    cdef inline int linked_lazy(self, int entry, int r, uint64_t gone) noexcept nogil:
        """``linked``, a new entry left waiting for ``fill_pending``."""
        cdef int child = self.links[entry * N_RANKS + r]
        if child < 0:
            child = self.entry_of(gone)
            if self.out_of_memory:
                return 0
            self.links[entry * N_RANKS + r] = child
            return child
        self.n_lookups += 1
        if self.any_short and self.shorts[child]:
            self.short_deck = True
        return child

    cdef inline double mass(self, int bj_left, int n) noexcept nogil:
        """P(no settled dealer blackjack) from a deck of ``n`` cards holding ``bj_left`` blackjack hole cards:
        the weight of a bet settled there, in joint units (a bust's loss, a double's stake)."""
        return 1.0 if self.bj < 0 or n <= 0 else 1.0 - bj_left / <double>n

    # ----- the split hand's states ----------------------------------------------------
    cdef int build(self, int pair, const int* d0, bint one_card, vector[Node]& g) noexcept nogil:
        """The states of a hand split from ``pair`` whose draws fit in d0, parents before children: the
        live states (hand-graph states, breadth first) and then the bust leaves.  Returns the number of
        live states."""
        cdef vector[int] local
        cdef vector[int] graph_state
        cdef vector[Node] bust_nodes
        cdef unordered_map[uint64_t, int] busts
        cdef int ctx = ctx_index(pair, 1)
        cdef int i, r, s, t, live
        cdef Node node
        cdef uint64_t drawn
        local.resize(self.solver.n, -1)
        g.clear()
        s = self.solver.nxt[pair]                 # the hand holding the pair card alone (state 0 is empty)
        node.drawn, node.parent, node.added, node.ndrawn, node.bust_children = 0, -1, -1, 0, 0
        node.total, node.klass, node.leaf, node.bust, node.may_double = self.solver.total[s], 0, False, False, False
        g.push_back(node)
        graph_state.push_back(s)
        local[s] = 0
        i = 0
        while i < <int>g.size():
            if g[i].leaf:
                i += 1
                continue
            s = graph_state[i]
            for r in range(N_RANKS):
                g[i].child[r] = -1
                if count_of(g[i].drawn, r) >= d0[r]:
                    continue
                drawn = g[i].drawn + unit(r)
                t = self.solver.nxt[s * N_RANKS + r]
                node.drawn, node.parent, node.added, node.ndrawn = drawn, i, r, g[i].ndrawn + 1
                node.bust_children = 0
                if t < 0:                         # a bust: numbered after the live states
                    g[i].bust_children |= 1 << r
                    if not busts.count(drawn):
                        node.total, node.klass, node.bust, node.leaf, node.may_double = 22, 0, True, True, False
                        busts[drawn] = bust_nodes.size()
                        bust_nodes.push_back(node)
                    g[i].child[r] = -2 - busts[drawn]
                    continue
                if local[t] < 0:
                    node.total, node.bust = self.solver.total[t], False
                    node.klass = node.total - 16 if node.total > 16 else 0
                    node.leaf = node.total >= 21 or one_card
                    node.may_double = node.ndrawn == 1 and self.solver.can_double(ctx, t)
                    local[t] = g.size()
                    g.push_back(node)
                    graph_state.push_back(t)
                g[i].child[r] = local[t]
            i += 1
        live = g.size()
        for i in range(bust_nodes.size()):
            g.push_back(bust_nodes[i])
        for i in range(live):
            g[i].n_live = 0
            for r in range(N_RANKS):
                if g[i].child[r] <= -2:
                    g[i].child[r] = live - 2 - g[i].child[r]
                elif g[i].child[r] >= 0:
                    g[i].live_rank[g[i].n_live] = r
                    g[i].n_live += 1
        for i in range(live, <int>g.size()):
            g[i].n_live = 0
        return live

    # ----- the second hand: optimal (or worst) single-hand play from D0 - drawn1 ----------------
    cdef void second_hand(self, vector[Node]& g, int live, const int* d0, uint64_t gone0, uint64_t drawn1,
                          int ns, const double* senses, double* value, double* stand, char* feasible, int* entry,
                          unsigned char* act, unsigned char* near, double eps, double* doubles, double* d2,
                          double* v2) noexcept nogil:
        """V2(drawn1) for each of the ``ns`` (1 or 2) senses (``senses[j]``: 1 the best play, -1 the worst), in
        ``v2[j]`` (times the sense).  The senses share the deck's feasibility and dealer lookups, the larger part of the
        work; sense j's arrays start at ``j * G`` (G: the states of ``g``).  Fills ``value``/``stand`` of the
        live states, and (when ``act`` is given) the decision and the near-tie mask (the actions within ``eps``
        of the best) of every live state the deck can hold.  Bust leaves are valued where they are drawn.
        When ``doubles`` is given: the expected doubled stake (joint units) from every live state under the
        decisions, and ``d2[j]`` the hand's."""
        cdef int deck[N_RANKS]
        cdef int r, s, k, n, n2 = 0, a, bj_left, j, c, o, p, i, k_live, k_bj
        cdef int G = g.size()
        cdef const Node* node
        cdef double v_stand, best, v, m, u, m_other = 0.0, m_bj = 0.0, h0, h1, x0, x1, above
        cdef double v_hit[2]
        cdef double v_double[2]
        cdef unsigned char mask
        for r in range(N_RANKS):
            deck[r] = d0[r] - count_of(drawn1, r)
            n2 += deck[r]
        # which states the deck can hold, and their stand values: a state's dealer entry is its parent's
        # with one more card gone, followed by the memo's links (the lookups are the cost).  The stand values
        # are gathered in a loop of their own: its loads are independent, so the memory fetches overlap.
        # Both loops load from the dealer memo at scattered places (a cache miss each at 8 decks, where the memo
        # is hundreds of MiB): the load PREFETCH_AHEAD states on is asked for first, so that the misses overlap
        # (where that state's parent has its entry already: states are numbered parents first).
        feasible[0] = 1
        entry[0] = self.dealer(gone0 + drawn1)
        for s in range(1, live):
            if s + PREFETCH_AHEAD < live:
                p = g[s + PREFETCH_AHEAD].parent
                if p < s and feasible[p]:
                    prefetch(&self.links[entry[p] * N_RANKS + g[s + PREFETCH_AHEAD].added])
            node = &g[s]
            feasible[s] = feasible[node.parent] and count_of(node.drawn, node.added) <= deck[node.added]
            if feasible[s]:
                entry[s] = self.linked_lazy(entry[node.parent], node.added, gone0 + drawn1 + node.drawn)
        self.fill_pending()
        for s in range(1, live):
            if s + PREFETCH_AHEAD < live and feasible[s + PREFETCH_AHEAD]:
                prefetch_entry(self.probs + entry[s + PREFETCH_AHEAD] * N_OUTCOMES)
            if feasible[s]:
                u = self.stand_of(entry[s], g[s].klass)
                for j in range(ns):
                    stand[j * G + s] = senses[j] * u
        for s in range(live - 1, 0, -1):
            if not feasible[s]:
                continue
            node = &g[s]
            self.n_second += 1
            n = n2 - node.ndrawn
            if node.leaf:
                for j in range(ns):
                    value[j * G + s] = stand[j * G + s]
                    if doubles != NULL:
                        doubles[j * G + s] = 0.0
                continue
            bj_left = deck[self.bj] - count_of(node.drawn, self.bj) if self.bj >= 0 else 0
            if node.bust_children:
                # P(no settled dealer blackjack) from the deck after a busting card: one of two values (the card
                # a blackjack's hole card or not), worked out once per state instead of once per busting rank
                m_other, m_bj = self.mass(bj_left, n - 1), self.mass(bj_left - 1, n - 1)
            # the sums of the (at most two) senses in scalars, not in the arrays: kept in registers.  Over the
            # live children only; the busting cards, k_bust of them (the cards left less the live children's),
            # each lose P(no settled dealer blackjack) from the deck after them: one of two values, the
            # blackjack's hole card or another
            h0 = h1 = x0 = x1 = 0.0
            k_live = 0
            for i in range(node.n_live):
                r = node.live_rank[i]
                k = deck[r] - count_of(node.drawn, r)
                if k <= 0:
                    continue
                k_live += k
                c = node.child[r]
                h0 += k * value[c]
                x0 += k * stand[c]
                if ns == 2:
                    h1 += k * value[G + c]
                    x1 += k * stand[G + c]
            if node.bust_children:
                k_bj = bj_left if self.bj >= 0 and node.bust_children >> self.bj & 1 else 0
                m = (n - k_live - k_bj) * m_other + k_bj * m_bj
                h0 -= senses[0] * m
                x0 -= senses[0] * m
                if ns == 2:
                    h1 -= senses[1] * m
                    x1 -= senses[1] * m
            v_hit[0], v_double[0], v_hit[1], v_double[1] = h0, x0, h1, x1
            for j in range(ns):
                o = j * G + s
                # the options compared times n, so that the search divides only the value it keeps (perf put a
                # sixth of this function's samples just after the two divisions a visit made):
                # hit/n > stand + TIE is hit > (stand + TIE) n, and the value kept is the same h/n or 2x/n
                v_stand = stand[o]
                v_double[j] *= 2.0
                above, a = (v_stand + TIE) * n, STAND
                if v_hit[j] > above:
                    above, a = v_hit[j] + TIE * n, HIT
                if node.may_double and v_double[j] > above:
                    a = DOUBLE
                if act == NULL:
                    value[o] = v_stand if a == STAND else (v_hit[j] if a == HIT else v_double[j]) / n
                else:           # the decision and its near-tie mask, which needs every option's value
                    v_hit[j] /= n
                    v_double[j] /= n
                    best = v_stand if a == STAND else (v_hit[j] if a == HIT else v_double[j])
                    value[o] = best
                    act[o] = a
                    mask = (1 << STAND) if v_stand >= best - eps else 0
                    if v_hit[j] >= best - eps:
                        mask |= 1 << HIT
                    if node.may_double and v_double[j] >= best - eps:
                        mask |= 1 << DOUBLE
                    near[o] = mask
                if doubles != NULL:
                    v = 0.0
                    for r in range(N_RANKS):
                        k = deck[r] - count_of(node.drawn, r)
                        if k > 0 and a == DOUBLE:
                            v += k * self.mass(bj_left - (r == self.bj), n - 1)
                        elif k > 0 and a == HIT and not (node.bust_children >> r & 1):
                            v += k * doubles[j * G + node.child[r]]
                    doubles[o] = v / n
        for j in range(ns):
            v2[j] = 0.0
            if doubles != NULL:
                d2[j] = 0.0
            for r in range(N_RANKS):
                if deck[r] > 0:
                    v2[j] += deck[r] * value[j * G + g[0].child[r]]
                    if doubles != NULL:
                        d2[j] += deck[r] * doubles[j * G + g[0].child[r]] / n2
            v2[j] /= n2

    # ----- the first hand ---------------------------------------------------------------
    cdef int prepare(self, int pair, bint one_card, int* d0, uint64_t* gone0, int* live,
                     vector[Node]& g) noexcept nogil:
        """d0 (the deck less both pair cards), the packed pair cards, the split hand's states and the
        number of live ones; returns |d0|."""
        cdef int r, n0 = 0
        for r in range(N_RANKS):
            d0[r] = self.base[r] - (2 if r == pair else 0)
            n0 += d0[r]
        gone0[0] = 2 * unit(pair)
        live[0] = self.build(pair, d0, one_card, g)
        return n0

    cdef int first_hand(self, vector[Node]& g, int live, const int* d0, int n0, uint64_t gone0, int ns,
                        const double* senses, double* v1, unsigned char* act1, unsigned char* near1, double eps,
                        double* doubles) noexcept nogil:
        """Optimal first-hand play for each of the ``ns`` senses (``senses[j]`` -1: the worst), at ``j * G``
        in the arrays: v1 (its value times the sense, V2 included; ``v1[j * G]`` the EV of the split), the
        decision and the near-tie mask of every state; when ``doubles`` is given, ``doubles[j]`` the expected
        doubled stake of both hands (joint units; 0 without computing when no state may double).  Returns -1
        when memory runs out, -2 when ``request_stop`` was called, else 0."""
        cdef int r, s, k, n, a, entry, j, o, i
        cdef int G = g.size()
        cdef const Node* node
        cdef double own, u, v_hit, v_double, best
        cdef double v2[2]
        cdef double d2[2]
        cdef double* t1 = <double*>malloc(ns * G * sizeof(double))
        cdef double* t2 = <double*>malloc(ns * G * sizeof(double))
        cdef double* value = <double*>malloc(ns * G * sizeof(double))
        cdef double* stand = <double*>malloc(ns * G * sizeof(double))
        cdef char* feasible = <char*>malloc(G)
        cdef int* entries = <int*>malloc(G * sizeof(int))
        cdef double* dbl2 = NULL        # the second hand's doubles, then (per state) the first hand's
        cdef double* td = NULL          # per state: the second hand's expected doubles after these draws
        for s in range(G):
            if doubles != NULL and g[s].may_double:
                dbl2 = <double*>malloc(ns * G * sizeof(double))
                td = <double*>malloc(ns * G * sizeof(double))
                if not (dbl2 and td):
                    free(dbl2); free(td); free(t1); free(t2); free(value); free(stand); free(feasible); free(entries)
                    return -1
                break
        if not (t1 and t2 and value and stand and feasible and entries):
            free(t1); free(t2); free(value); free(stand); free(feasible); free(entries); free(dbl2); free(td)
            return -1
        # the states in depth-first order of the tree of first parents: a state then mostly follows its parent,
        # whose second hand met nearly the same dealer entries (one card more gone), still in the cache; each
        # state's own value and V2 depend on nothing computed before them, so any order gives the same values
        cdef vector[int] order
        preorder(g, order)
        for i in range(1, G):
            s = order[i]
            node = &g[s]
            self.n_first += 1
            if _stop_requested:
                free(t1); free(t2); free(value); free(stand); free(feasible); free(entries); free(dbl2); free(td)
                return -2
            if node.bust:
                u = -self.mass(d0[self.bj] - count_of(node.drawn, self.bj) if self.bj >= 0 else 0,
                               n0 - node.ndrawn)
            else:
                entry = self.dealer(gone0 + node.drawn)
                u = self.stand_of(entry, node.klass)
            self.second_hand(g, live, d0, gone0, node.drawn, ns, senses, value, stand, feasible, entries, NULL,
                             NULL, 0.0, dbl2, d2, v2)
            for j in range(ns):
                own = senses[j] * u
                if td != NULL:
                    td[j * G + s] = d2[j]
                t1[j * G + s] = own + v2[j]
                t2[j * G + s] = 2.0 * own + v2[j]
        for j in range(ns):
            for s in range(G - 1, 0, -1):
                node = &g[s]
                o = j * G + s
                act1[o], near1[o] = STAND, 1 << STAND
                if node.leaf:
                    v1[o] = t1[o]
                    continue
                n = n0 - node.ndrawn
                v_hit = v_double = 0.0
                for r in range(N_RANKS):
                    k = d0[r] - count_of(node.drawn, r)
                    if k > 0:
                        v_hit += k * v1[j * G + node.child[r]]
                        v_double += k * t2[j * G + node.child[r]]
                v_hit /= n
                v_double /= n
                best, a = t1[o], STAND
                if v_hit > best + TIE:
                    best, a = v_hit, HIT
                if node.may_double and v_double > best + TIE:
                    best, a = v_double, DOUBLE
                v1[o], act1[o] = best, a
                near1[o] = (1 << STAND) if t1[o] >= best - eps else 0
                if v_hit >= best - eps:
                    near1[o] |= 1 << HIT
                if node.may_double and v_double >= best - eps:
                    near1[o] |= 1 << DOUBLE
            if td != NULL:      # the expected doubles of both hands under these decisions, in dbl2
                for s in range(G - 1, 0, -1):
                    node = &g[s]
                    o = j * G + s
                    if node.leaf or act1[o] == STAND:
                        dbl2[o] = td[o]
                        continue
                    n = n0 - node.ndrawn
                    dbl2[o] = 0.0
                    for r in range(N_RANKS):
                        k = d0[r] - count_of(node.drawn, r)
                        if k > 0 and act1[o] == DOUBLE:
                            dbl2[o] += k * (td[j * G + node.child[r]] + self.mass(
                                d0[self.bj] - count_of(g[node.child[r]].drawn, self.bj) if self.bj >= 0 else 0,
                                n - 1))
                        elif k > 0:
                            dbl2[o] += k * dbl2[j * G + node.child[r]]
                    dbl2[o] /= n
            v1[j * G] = 0.0
            if doubles != NULL:
                doubles[j] = 0.0
            for r in range(N_RANKS):
                if d0[r] > 0:
                    v1[j * G] += d0[r] * v1[j * G + g[0].child[r]]
                    if td != NULL:
                        doubles[j] += d0[r] * dbl2[j * G + g[0].child[r]] / n0
            v1[j * G] /= n0
        free(t1); free(t2); free(value); free(stand); free(feasible); free(entries); free(dbl2); free(td)
        return 0

    def split_value(self, int pair, bint one_card, int sense=1):
        """Joint EV of splitting a pair of rank ``pair`` (both hands), truly optimal play (``sense`` 1), or the
        minimum over all play of both hands (``sense`` -1)."""
        self.split_values(pair, one_card, (sense,))
        return self.values[pair, sense]

    def split_values(self, int pair, bint one_card, tuple senses):
        """``split_value`` for each sense of ``senses`` (1, -1 or both), the senses not yet known searched
        together: one pass over the states and the dealer's decks serves both (about 0.6 times the work of two
        passes).  Returns the values in the order of ``senses``."""
        cdef vector[Node] g
        cdef int d0[N_RANKS]
        cdef double sense_of[2]
        cdef uint64_t gone0
        cdef double doubles[2]
        cdef double* v1 = NULL
        cdef unsigned char* act1 = NULL
        cdef unsigned char* near1 = NULL
        cdef int n0, live, j, ns = 0, G, status = -1
        for sense in senses:
            self.check_pair(pair, sense)
            if (pair, sense) not in self.values and (ns == 0 or sense_of[0] != sense) and ns < 2:  # (two at most)
                sense_of[ns] = sense
                ns += 1
        if ns:
            with nogil:
                n0 = self.prepare(pair, one_card, d0, &gone0, &live, g)
                G = g.size()
                v1 = <double*>malloc(ns * G * sizeof(double))
                act1 = <unsigned char*>malloc(ns * G)
                near1 = <unsigned char*>malloc(ns * G)
                if v1 and act1 and near1:
                    status = self.first_hand(g, live, d0, n0, gone0, ns, sense_of, v1, act1, near1, PLAN_EPS,
                                             doubles)
            try:
                if status == -2:
                    raise KeyboardInterrupt("the search was stopped")
                if status < 0:
                    raise MemoryError()
                self.check_deck()
                for j in range(ns):
                    sense = int(sense_of[j])
                    self.values[pair, sense] = sense * v1[j * G]
                    self.values["stake", pair, sense] = (2.0 * self.mass(d0[self.bj] if self.bj >= 0 else 0, n0)
                                                         + doubles[j])
                    self.plans[pair, one_card, sense] = (PLAN_EPS, act1[j * G:(j + 1) * G],
                                                         near1[j * G:(j + 1) * G])
            finally:
                free(v1); free(act1); free(near1)
        return tuple(self.values[pair, sense] for sense in senses)

    def split_stake(self, int pair, bint one_card, int sense=1):
        """The expected total stake of splitting ``pair`` under the play of ``split_value`` (joint units: both
        hands' bets and doubles, counted where no settled dealer blackjack takes the initial bet alone)."""
        self.split_value(pair, one_card, sense)
        return self.values["stake", pair, sense]

    def share(self, dict plans, dict values):
        """Keep the first hands' plans and the split values and stakes in these dicts (another splitter of the same
        deck may have filled them: what it found is not computed again)."""
        self.plans, self.values = plans, values

    def check_pair(self, int pair, int sense=1):
        if not 0 <= pair < N_RANKS or self.base[pair] < 2:
            raise ValueError("the deck does not hold the pair")
        if sense not in (1, -1):
            raise ValueError(f"sense must be 1 (the best play) or -1 (the worst), not {sense}")

    def check_deck(self):
        if self.out_of_memory:
            raise MemoryError()
        if self.short_deck:
            raise ValueError("the unseen deck runs out before the dealer can finish")

    # ----- resplits: the search over the round's states ----------------------------------------
    cdef inline uint64_t rkey(self, RCtx* c, uint64_t ckey, int w, int m, int hand) noexcept nogil:
        """The memo key of a state: the compact cards gone, hands waiting (0..3), hands made (2..4) and,
        within a hand, ``hand`` = 1 + total * 4 + soft * 2 + two-card (0 between hands); bit 63 set."""
        return ((<uint64_t>1) << 63) | ckey | ((<uint64_t>(w | ((m - 2) << 2) | (hand << 4))) << c.key_bits)

    cdef inline int64_t rmap_find(self, RCtx* c, uint64_t key, double* v, double* st) noexcept nogil:
        """The free slot for a state not yet searched; -1 when it was (its value and stake then in ``v``, ``st``)
        or memory runs out (``c.failed``)."""
        cdef int64_t i = rmap_slot(&c.memo, key)
        if i < 0:
            c.failed = True
            return -1
        if c.memo.slots[i].key:
            v[0], st[0] = c.memo.slots[i].value, c.memo.slots[i].stake
            return -1
        return i

    cdef inline bint rmap_store(self, RCtx* c, int64_t i, uint64_t capacity, uint64_t key, double v, double st
                                ) noexcept nogil:
        """Store a state found free at slot ``i`` when the table had ``capacity`` slots (probed again when it has
        grown since, or the slot was taken meanwhile); False when memory runs out."""
        if c.memo.capacity != capacity or c.memo.slots[i].key:
            i = rmap_slot(&c.memo, key)
            if i < 0:
                c.failed = True
                return False
        c.memo.slots[i].key = key
        c.memo.slots[i].value = v
        c.memo.slots[i].stake = st
        c.memo.size += 1
        return True

    cdef void between(self, RCtx* c, uint64_t gone, uint64_t ckey, int n, int w, int m, double* v, double* st
                      ) noexcept nogil:
        """V(D, w, m): the value (times the sense) and stake of the hands still to play, ``w`` of them waiting
        for their second card (one pair card each), ``m`` hands made, from the deck ``base - gone`` of ``n``
        cards."""
        cdef int64_t i
        cdef uint64_t capacity
        cdef int r, k
        cdef double acc_v = 0.0, acc_s = 0.0, hv, hs
        cdef uint64_t key
        v[0] = st[0] = 0.0
        if w == 0 or c.failed:
            return
        if _stop_requested:
            c.failed = c.stopped = True
            return
        key = self.rkey(c, ckey, w, m, 0)
        i = self.rmap_find(c, key, v, st)
        if i < 0:
            return
        capacity = c.memo.capacity
        c.n_states += 1
        if n <= 0:
            self.short_deck = True
            return
        if not (c.one_card and c.pair == ACE):
            for r in range(N_RANKS):
                if self.base[r] - count_of(gone, r) > 0:
                    self.prefetch_hand(c, ckey + c.cunit[r], c.pair + r + 2, c.pair == ACE or r == ACE, True,
                                       w - 1, m)
        for r in range(N_RANKS):
            k = self.base[r] - count_of(gone, r)
            if k <= 0:
                continue
            self.second_card(c, gone, ckey, n, r, w, m, &hv, &hs)
            acc_v += k * hv
            acc_s += k * hs
        if c.failed:
            return
        v[0], st[0] = acc_v / n, acc_s / n
        self.rmap_store(c, i, capacity, key, v[0], st[0])

    cdef bint second_card(self, RCtx* c, uint64_t gone, uint64_t ckey, int n, int r, int w, int m, double* v,
                          double* st) noexcept nogil:
        """The next waiting hand takes its second card, of rank ``r``, from the deck ``base - gone`` (``n`` cards):
        the value and stake of the hand (pair, r) played on, then the hands still waiting; or, for a pair card
        while fewer than ``c.most`` hands exist, of resplitting it (a new hand waits, this one draws again),
        unless keeping it is better by more than TIE.  True when it is resplit."""
        cdef double rv, rs
        self.last_gap = INFINITY
        if c.one_card and c.pair == ACE:
            self.leaf(c, gone + unit(r), ckey + c.cunit[r], n - 1, -1, r + 2, True, 1, w - 1, m, v, st)
        else:
            self.hand(c, gone + unit(r), ckey + c.cunit[r], n - 1, -1, c.pair + r + 2, c.pair == ACE or r == ACE,
                      True, w - 1, m, v, st)
        if r == c.pair and m < c.most:
            self.between(c, gone + unit(r), ckey + c.cunit[r], n - 1, w + 1, m + 1, &rv, &rs)
            self.last_gap = fabs(v[0] - rv)
            if not (v[0] > rv + TIE):
                v[0] = rv
                st[0] = rs
                return True
        return False

    cdef void leaf(self, RCtx* c, uint64_t gone, uint64_t ckey, int n, int entry, int hard, bint ace, int bet, int w,
                   int m, double* v, double* st) noexcept nogil:
        """A hand ends with this hard total (aces as 1; above 21 a bust) and bet, its cards gone (``n`` cards
        left; ``entry``: the dealer memo's entry of that deck, or -1 to look it up): its result against the
        dealer drawing from what is left, plus the hands still to play."""
        cdef int total
        cdef double own, weight
        weight = self.mass(self.base[self.bj] - count_of(gone, self.bj) if self.bj >= 0 else 0, n)
        if hard > 21:
            own = -weight
        else:
            total = hard + 10 if ace and hard + 10 <= 21 else hard
            if entry < 0:
                entry = self.dealer(gone)
                if self.out_of_memory:
                    c.failed = True
                    return
            own = self.stand_of(entry, total - 16 if total > 16 else 0)
        self.between(c, gone, ckey, n, w, m, v, st)
        v[0] += bet * c.sense * own
        st[0] += bet * weight

    cdef inline void prefetch_hand(self, RCtx* c, uint64_t ckey, int hard, bint ace, bint two, int w, int m
                                   ) noexcept nogil:
        """Prefetch the memo slot ``hand`` will probe for this hand in play (a total of 21 or more is a leaf,
        which probes the state between hands instead)."""
        cdef int total = hard + 10 if ace and hard + 10 <= 21 else hard
        if total < 21:
            rmap_prefetch(&c.memo, self.rkey(c, ckey, w, m if w else 2, 1 + total * 4 + (total != hard) * 2 + two))
        elif w:
            rmap_prefetch(&c.memo, self.rkey(c, ckey, w, m, 0))

    cdef void hand(self, RCtx* c, uint64_t gone, uint64_t ckey, int n, int entry, int hard, bint ace, bint two, int w,
                   int m, double* v, double* st) noexcept nogil:
        """A live split hand (hard total, an ace or not, two cards or more) to play from the deck ``base - gone``
        (``n`` cards; ``entry`` its dealer memo entry or -1), then the hands waiting: the best of stand, hit and
        double (where allowed) for the sense."""
        cdef int64_t i
        cdef uint64_t capacity
        cdef int total, choice
        cdef double o[6]
        cdef uint64_t key
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        if total >= 21:
            self.leaf(c, gone, ckey, n, entry, hard, ace, 1, w, m, v, st)
            return
        # with no hand waiting, the hands made no longer matter (no card can be resplit): one state for any m
        key = self.rkey(c, ckey, w, m if w else 2, 1 + total * 4 + (total != hard) * 2 + two)
        i = self.rmap_find(c, key, v, st)
        if i < 0:
            return
        capacity = c.memo.capacity
        c.n_hands += 1
        if self.hand_options(c, gone, ckey, n, entry, hard, ace, two, w, m, o) < 0:
            v[0] = o[0]                     # a failed search, or a deck run out: no stored state
            st[0] = o[1]
            return
        choice = best_option(o)
        v[0] = o[2 * choice]
        st[0] = o[2 * choice + 1]
        self.rmap_store(c, i, capacity, key, v[0], st[0])

    cdef int hand_options(self, RCtx* c, uint64_t gone, uint64_t ckey, int n, int entry, int hard, bint ace, bint two,
                          int w, int m, double* o) noexcept nogil:
        """The value and stake of each play of a live split hand (total below 21; see ``hand``), hands waiting
        included: ``o`` = stand, hit, double (value, stake each; the double's value NaN where it is not
        allowed).  -1 when the search failed or the deck ran out (``o`` then holds the stand, or 0)."""
        cdef int r, k, child, total
        cdef bint soft, may_double
        cdef double sv, ss, hv = 0.0, hs = 0.0, dv = 0.0, ds = 0.0, x, y, lost
        o[0] = 0.0
        o[1] = 0.0
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        soft = total != hard
        if entry < 0:
            entry = self.dealer(gone)
            if self.out_of_memory:
                c.failed = True
                return -1
        self.leaf(c, gone, ckey, n, entry, hard, ace, 1, w, m, &sv, &ss)
        o[0] = sv
        o[1] = ss
        may_double = two and c.das and (c.double_soft or not soft) and c.double_lo <= total <= c.double_hi
        if n <= 0:
            self.short_deck = True
            return -1
        for r in range(N_RANKS):        # the children's memo slots, fetched together
            if self.base[r] - count_of(gone, r) > 0:
                if hard + r + 1 > 21 or may_double:
                    if w:
                        rmap_prefetch(&c.memo, self.rkey(c, ckey + c.cunit[r], w, m, 0))
                if hard + r + 1 <= 21:
                    self.prefetch_hand(c, ckey + c.cunit[r], hard + r + 1, ace or r == ACE, False, w, m)
        for r in range(N_RANKS):
            k = self.base[r] - count_of(gone, r)
            if k <= 0:
                continue
            if hard + r + 1 > 21:
                self.leaf(c, gone + unit(r), ckey + c.cunit[r], n - 1, -1, hard + r + 1, ace, 1, w, m, &x, &y)
                hv += k * x
                hs += k * y
                if may_double:     # a doubled bust loses its second bet too
                    lost = self.mass(self.base[self.bj] - count_of(gone + unit(r), self.bj) if self.bj >= 0 else 0,
                                     n - 1)
                    dv += k * (x - c.sense * lost)
                    ds += k * (y + lost)
                continue
            child = self.linked(entry, r, gone + unit(r))         # the dealer entry of the deck one card less
            if self.out_of_memory:
                c.failed = True
                return -1
            self.hand(c, gone + unit(r), ckey + c.cunit[r], n - 1, child, hard + r + 1, ace or r == ACE, False, w, m,
                      &x, &y)
            hv += k * x
            hs += k * y
            if may_double:
                self.leaf(c, gone + unit(r), ckey + c.cunit[r], n - 1, child, hard + r + 1, ace or r == ACE, 2, w, m,
                          &x, &y)
                dv += k * x
                ds += k * y
        if c.failed:
            return -1
        o[2] = hv / n
        o[3] = hs / n
        o[4] = dv / n if may_double else NAN
        o[5] = ds / n if may_double else NAN
        return 0

    def resplit_value(self, int pair, bint one_card, int most, int sense=1):
        """Truly optimal play of a split that may make up to ``most`` hands (2 to 4; ``sense`` -1: the worst
        play): (joint EV of all the hands, their expected total stake in joint units, work).

        Every decision sees every card seen so far and knows how many hands may still be made; an arriving
        pair card may be resplit or kept (a tie: resplit).  A hand's result is valued against the dealer
        drawing from the deck left when it ends (no later hand sees the dealer's cards, so this is its
        expected result against the dealer of the round's end), and the search runs over the round's states:
        the cards gone, hands waiting and hands made, and within a hand its total, softness and whether it
        holds two cards.  Each (pair, sense) is searched once; the memo of states is freed after it."""
        key = ("resplit", pair, most, sense)
        if key not in self.values:
            self.resplit_search(pair, one_card, most, sense, None)
        return self.values[key]

    def resplit_distribution(self, int pair, bint one_card, int most, list type_sets, int sense=1):
        """The outcome distribution of the play of ``resplit_value`` (searched again, its memo kept while the
        play is followed forward): {(doubles, dealer_blackjack, net, hands): mass}, joint units (the masses sum
        to P(no settled dealer blackjack)), the stake of a cell hands + doubles.  ``type_sets``:
        ``ev.analysis.splits.type_sets(most)``.

        Each hand plays as the search decided (the same comparisons, the same ties), and the round's states
        (cards gone, hands waiting and made, the hand in play, the types of the hands finished) are followed
        card by card, states that meet merged; when no hand waits, the dealer draws from the deck left and
        every hand is settled against the same dealer outcome."""
        return self.resplit_search(pair, one_card, most, sense, type_sets)

    def resplit_exact(self, int pair, bint one_card, int most, list type_sets, int sense=1, double near=1e-9,
                      decide=None):
        """The exact outcome distribution of the play of ``resplit_value``, unless that play meets a near tie.
        The play is followed forward as for ``resplit_distribution``, counting each state's drawing orders (an
        integer) instead of its probability, and at each end (no hand waiting) the cards gone, the hands' types
        and the orders are kept; those are summed exactly against the dealer (``_exact_sums.exact_cell_sums``:
        P = orders x ff(D, u) x dealer numerators over one falling factorial, modulo primes, then the Chinese
        remainder theorem).  At a hand in play whose runner-up lies within ``near`` of the best,
        ``decide(cards gone, hard total, ace, two cards, hands waiting, hands made)`` (hands made 2 where none
        waits) is asked for the action (0 stand, 1 hit, 2 double; None: it cannot say), once per decision, and
        that action is played.  Returns ``(near, cells)``: the near ties not decided, each once, as
        ("hand", cards gone, hard, ace, two, waiting, made) or
        ("resplit", cards gone, pair card's rank, waiting, made) (cards gone packed, 6 bits a rank, ace lowest);
        and, when there are none, {(doubles, dealer_blackjack, net, hands): Fraction} in joint units (else
        None: the float play may not be the exact optimum there)."""
        cdef vector[uint64_t] unions
        cdef vector[vector[Cell]] per_union
        cdef vector[Cell] cells
        cdef vector[int] cell_of
        cdef KeyMap union_index
        cdef int d0[N_RANKS]
        cdef int r, o, g, tset, hands, status = 0
        cdef size_t i
        cdef uint64_t start = 2 * unit(pair)
        self.overrides.clear()
        self.decider = decide
        try:
            met = self.resplit_search(pair, one_card, most, sense, type_sets, True, near)
        finally:
            self.overrides.clear()
            self.decider = None
        near_ties = []
        for gone, b in dict.fromkeys(met):
            if f_hard(b):
                near_ties.append(("hand", gone, f_hard(b), bool(f_ace(b)), bool(f_two(b)), f_w(b), f_m(b)))
            else:
                near_ties.append(("resplit", gone, f_tset(b), f_w(b), f_m(b)))
        try:
            if near_ties:
                return near_ties, None
            for i in range(self.end_ways.size()):
                if not self.end_ways[i] < 9007199254740992.0:      # 2^53: the orders counted exactly below it
                    raise ValueError("a state of the split round is reached in too many drawing orders for the exact "
                                     "sum (2^53 or more)")
            n_groups = len(type_sets) * F_HANDS
            cell_of.resize(n_groups * N_OUTCOMES)
            for g in range(n_groups):
                tset, hands = g // F_HANDS, g % F_HANDS
                for o in range(N_OUTCOMES):
                    cell_of[g * N_OUTCOMES + o] = f_cell(type_sets[tset][0], o == BLACKJACK,
                                                         type_sets[tset][1][o], hands)
            if keymap_init(&union_index, 10) < 0:
                raise MemoryError()
            with nogil:
                for i in range(self.ends.size()):
                    status |= merge_cell(&union_index, unions, per_union, self.ends[i] - start, self.end_group[i],
                                         <int64_t>self.end_ways[i])
                flatten_cells(per_union, cells)
            keymap_free(&union_index)
            if status < 0:
                raise MemoryError()
        finally:
            self.ends.clear()
            self.end_group.clear()
            self.end_ways.clear()
        for r in range(N_RANKS):
            d0[r] = self.base[r] - (2 if r == pair else 0)
        sums = exact_cell_sums(self.solver.dealer, d0, unions, cells, cell_of, F_CELLS)
        return 0, {f_cell_key(k): v for k, v in sums.items()}

    cdef object resplit_search(self, int pair, bint one_card, int most, int sense, list type_sets,
                               bint count_ways=False, double near=0.0):
        cdef RCtx c
        cdef int r, cap, top = 0, per_hand
        cdef double v, st
        cdef uint64_t gone0
        cdef int n0 = sum([self.base[r] for r in range(N_RANKS)])
        cdef vector[int] combine
        cdef vector[int] doubles_of
        cdef vector[int] net_of
        cdef vector[double] cells
        self.check_pair(pair, sense)
        if not 2 <= most <= 4:
            raise ValueError("a split makes 2 to 4 hands at most")
        key = ("resplit", pair, most, sense)
        if type_sets is not None:
            if len(type_sets) != sum(comb(N_TYPES + k - 1, k) for k in range(most + 1)):
                raise ValueError(f"type_sets must be ev.analysis.splits.type_sets({most}): every multiset of at most "
                                 f"{most} hand types")
            for entry in type_sets:
                doubles_of.push_back(entry[0])
                for r in range(N_OUTCOMES):
                    net_of.push_back(entry[1][r])
                for r in range(N_TYPES):
                    combine.push_back(entry[2][r])
            cells.resize(F_CELLS)
        c.pair, c.most, c.one_card, c.sense = pair, most, one_card, sense
        c.das, c.double_soft = self.solver.das, self.solver.double_soft
        c.double_lo, c.double_hi = self.solver.double_lo, self.solver.double_hi
        c.n_states = c.n_hands = 0
        c.failed = c.stopped = c.follow_too_large = False
        c.count_ways, c.near = count_ways, near
        self.ends.clear()
        self.end_group.clear()
        self.end_ways.clear()
        self.near_at.clear()
        for r in range(N_RANKS):
            # the most cards of rank r the round can hold: each hand at most 21 // value + 1 (its last
            # card may bust it)
            per_hand = 21 // (r + 1) + 1      # rank index r is worth r + 1 (an ace 1, a ten 10)
            cap = min(self.base[r], most * per_hand)
            c.cunit[r] = (<uint64_t>1) << top
            top += int(cap).bit_length()
        if top + 4 + 7 > 63:
            raise ValueError("the deck is too large for the resplit search's keys")
        c.key_bits = top
        # the table starts at the size the same search (pair, hands, rules, shoe less another up card) last grew
        # to: growing from 2^16, each doubling placing every state again in fresh pages, was a third of a large
        # search (8-8 against a ten, one deck, four hands: 8.0-10.0 s against 5.4-6.1 s started at its size;
        # 7-7 against a 9 after 7-7 against a ten, four alternated pairs: 5.7-7.0 -> 4.6-5.5 s, the same value)
        size_key = (pair, most, one_card, c.das, c.double_soft, c.double_lo, c.double_hi, n0 + 1, count_ways)
        if rmap_init(&c.memo, max(16, min(_TABLE_BITS.get(size_key, 16), int(RMAP_MOST_SLOTS).bit_length() - 1))) < 0:
            raise MemoryError()
        gone0 = 2 * unit(pair)
        try:
            with nogil:
                self.between(&c, gone0, 2 * c.cunit[pair], n0 - 2, 2, 2, &v, &st)
                if type_sets is not None and not c.failed and not c.memo.too_large and not self.short_deck:
                    self.follow(&c, gone0, n0, combine, doubles_of, net_of, cells)
            if c.stopped:
                raise KeyboardInterrupt("the search was stopped")
            which = f"{'A23456789T'[pair]}-{'A23456789T'[pair]} against {'A23456789T'[self.solver.up]}"
            if c.follow_too_large:
                raise ValueError(
                    f"following the truly optimal play with resplits of {which} forward needs more than "
                    f"{FOLLOW_MOST_STATES:,} states at once on this shoe ({n0} cards): the outcome distribution "
                    f"of truly optimal play resplitting to {most} hands is not made here (--split-strategy cdz, "
                    "cdp1 or cdp make it)")
            if c.memo.too_large:
                raise ValueError(
                    f"the truly optimal search with resplits of {which} needs more than {RMAP_MOST_SLOTS:,} "
                    f"state slots ({<double>(RMAP_MOST_SLOTS * sizeof(RSlot)) / 2**30:.1f} GiB) on this shoe "
                    f"({n0} cards): it is made for one or two decks")
            if c.failed:
                raise MemoryError()
            self.check_deck()
        finally:
            if not (c.failed or c.memo.too_large):
                _TABLE_BITS[size_key] = 64 - c.memo.shift
            free(c.memo.slots)
        if key not in self.values:
            self.values[key] = (sense * v, st, {"states": c.n_states, "hand_states": c.n_hands})
            self.n_round_states += c.n_states
            self.n_hand_states += c.n_hands
        if type_sets is None:
            return None
        if count_ways:
            return [(self.near_at[2 * i], self.near_at[2 * i + 1]) for i in range(self.near_at.size() // 2)]
        return {f_cell_key(k): cells[k] for k in range(F_CELLS) if cells[k] != 0.0}

    cdef void follow(self, RCtx* c, uint64_t gone0, int n0, const vector[int]& combine, const vector[int]& doubles_of,
                     const vector[int]& net_of, vector[double]& cells) noexcept nogil:
        """Follow the searched play forward from the split (see ``resplit_distribution``), level by level of the
        cards gone: a level's hands in play first (a hand that stands ends on its own level), then its states
        between hands.  A level's states are taken in the order of their decisions (``fitem_less``: the cards
        gone, the hands waiting and made, the hand in play, then the types of the hands finished), so that each
        decision (the same whatever hands finished before it: they add a fixed amount to every choice) is read
        from the search's memo once for all the type multisets that reach it, not once for each.  Sets
        ``c.failed`` when the search's memo or the dealer's fails."""
        cdef FFlat hands_now, between_now, hands_next, between_next
        cdef vector[FItem] items
        cdef FKey k0
        k0.a, k0.b = gone0, f_pack(0, 2, 2, 0, False, False)
        if not fadd(between_now, k0, 1.0):
            c.failed = True
            return
        while not (hands_now.empty() and between_now.empty()):
            if _stop_requested:         # an interrupt: return at once, as the search does
                c.failed = c.stopped = True
                return
            self.follow_level(c, hands_now, True, items, n0, combine, doubles_of, net_of, cells, between_now,
                              hands_next, between_next)
            if c.failed:
                return
            self.follow_level(c, between_now, False, items, n0, combine, doubles_of, net_of, cells, between_now,
                              hands_next, between_next)
            if c.failed:
                return
            hands_now.swap(hands_next)
            between_now.swap(between_next)
            hands_next.clear()
            between_next.clear()

    cdef void follow_level(self, RCtx* c, FFlat& level, bint hands, vector[FItem]& items, int n0,
                           const vector[int]& combine, const vector[int]& doubles_of, const vector[int]& net_of,
                           vector[double]& cells, FFlat& between_now, FFlat& hands_next, FFlat& between_next
                           ) noexcept nogil:
        """A level's hands in play (``hands``) or its states between hands, taken out of ``level`` in the order of
        their decisions and followed one decision at a time; sets ``c.failed`` when memory runs out, the search's
        memo or the dealer's fails, or the states held pass FOLLOW_MOST_STATES."""
        cdef size_t i = 0, j
        if not level.drain(items):
            c.failed = True
            return
        while i < items.size():
            j = decision_end(items, i)
            if hands:
                self.follow_hand(c, items, i, j, n0, combine, between_now, hands_next, between_next)
            else:
                self.follow_between(c, items, i, j, n0, combine, doubles_of, net_of, cells, hands_next,
                                    between_next)
            if stop_following(c, items.size() + between_now.size() + hands_next.size() + between_next.size()):
                return
            i = j

    cdef void follow_hand(self, RCtx* c, const vector[FItem]& items, size_t first, size_t end, int n0,
                          const vector[int]& combine, FFlat& between_now, FFlat& hands_next, FFlat& between_next
                          ) noexcept nogil:
        """The states ``items[first:end]``: one hand in play (the same cards gone, hands waiting and made), each
        with its own hands finished and probability: the hand's play as the search decided (decided once for
        all of them), card by card."""
        cdef uint64_t gone = items[first].k.a, b = items[first].k.b
        cdef int tset, w = f_w(b), m = f_m(b), hard = f_hard(b)
        cdef bint ace = f_ace(b), two = f_two(b)
        cdef int total = hard + 10 if ace and hard + 10 <= 21 else hard
        cdef int n = n0 - cards_in(gone), r, k, choice, h2
        cdef size_t x
        cdef bint ace2
        cdef double o[6]
        cdef double q, p
        cdef FKey nk
        if total >= 21:
            choice = 0
        else:
            if self.hand_options(c, gone, self.compact(c, gone), n, -1, hard, ace, two, w, m, o) < 0:
                c.failed = True
                return
            choice = best_option(o)
            if c.count_ways and near_options(o, c.near) > 1:   # a near tie: decided once per decision, by its key
                nk.a, nk.b = gone, f_pack(0, w, m if w else 2, hard, ace, two)
                if not self.overrides.count(nk):
                    self.overrides[nk] = self.ask_decider(gone, hard, ace, two, w, m if w else 2)
                if self.overrides[nk] >= 0:
                    choice = self.overrides[nk]
                else:                                   # not decided: kept, to be refused
                    self.near_at.push_back(nk.a)
                    self.near_at.push_back(nk.b)
        if choice == 0:             # stand: the hand ends on this level
            nk.a = gone
            for x in range(first, end):
                tset = f_tset(items[x].k.b)
                nk.b = f_pack(combine[tset * N_TYPES + hand_type(total, 1)], w, m, 0, False, False)
                if not fadd(between_now, nk, items[x].p):
                    c.failed = True
                    return
            return
        for r in range(N_RANKS):
            k = self.base[r] - count_of(gone, r)
            if k <= 0:
                continue
            h2, ace2 = hard + r + 1, ace or r == ACE
            nk.a = gone + unit(r)
            for x in range(first, end):
                tset, p = f_tset(items[x].k.b), items[x].p
                q = p if c.count_ways else p * k / n
                if choice == 2 or h2 > 21:      # doubled, or busted: the hand ends
                    nk.b = f_pack(combine[tset * N_TYPES + hand_type(f_total(h2, ace2), choice)], w, m, 0, False,
                                  False)
                    if not fadd(between_next, nk, q):
                        c.failed = True
                        return
                else:
                    nk.b = f_pack(tset, w, m, h2, ace2, False)
                    if not fadd(hands_next, nk, q):
                        c.failed = True
                        return

    cdef void follow_between(self, RCtx* c, const vector[FItem]& items, size_t first, size_t end, int n0,
                             const vector[int]& combine, const vector[int]& doubles_of, const vector[int]& net_of,
                             vector[double]& cells, FFlat& hands_next, FFlat& between_next) noexcept nogil:
        """The states ``items[first:end]`` between hands (the same cards gone, hands waiting and made), each with
        its own hands finished and probability: the next hand's second card (resplit where the search resplits,
        decided once for all of them), or, with no hand waiting, the dealer (looked up once) and the settlement of
        every hand."""
        cdef uint64_t gone = items[first].k.a, b = items[first].k.b, ckey
        cdef int tset, w = f_w(b), m = f_m(b)
        cdef int n = n0 - cards_in(gone), r, k, entry, o
        cdef size_t x
        cdef double q, p, hv, hs
        cdef bint resplit
        cdef const double* e
        cdef FKey nk
        cdef bint aces = c.one_card and c.pair == ACE
        if w == 0 and c.count_ways:         # exact mode: the end and its ways, summed exactly by resplit_exact
            for x in range(first, end):
                self.ends.push_back(gone)
                self.end_group.push_back(f_tset(items[x].k.b) * F_HANDS + m)
                self.end_ways.push_back(items[x].p)
            return
        if w == 0:
            entry = self.dealer(gone)
            if self.out_of_memory:
                c.failed = True
                return
            e = self.probs + entry * N_OUTCOMES
            for x in range(first, end):
                tset, p = f_tset(items[x].k.b), items[x].p
                for o in range(N_OUTCOMES):
                    if e[o] != 0.0:
                        cells[f_cell(doubles_of[tset], o == BLACKJACK, net_of[tset * N_OUTCOMES + o], m)] += p * e[o]
            return
        ckey = self.compact(c, gone)
        for r in range(N_RANKS):
            k = self.base[r] - count_of(gone, r)
            if k <= 0:
                continue
            nk.a = gone + unit(r)
            resplit = False
            if r == c.pair and m < c.most:      # the search's own choice (its values read from the memo)
                resplit = self.second_card(c, gone, ckey, n, r, w, m, &hv, &hs)
                if c.failed:
                    return
                if c.count_ways and self.last_gap <= c.near:      # resplit or keep: (gone, 0, w, m) and the card
                    self.near_at.push_back(gone)
                    self.near_at.push_back(f_pack(r, w, m, 0, False, False))
            for x in range(first, end):
                tset, p = f_tset(items[x].k.b), items[x].p
                q = p if c.count_ways else p * k / n
                if resplit:
                    nk.b = f_pack(tset, w + 1, m + 1, 0, False, False)
                    if not fadd(between_next, nk, q):
                        c.failed = True
                        return
                elif aces:                # a split ace takes one card and stands
                    nk.b = f_pack(combine[tset * N_TYPES + hand_type(f_total(r + 2, True), 1)], w - 1, m, 0, False,
                                  False)
                    if not fadd(between_next, nk, q):
                        c.failed = True
                        return
                else:
                    nk.b = f_pack(tset, w - 1, m, c.pair + r + 2, c.pair == ACE or r == ACE, True)
                    if not fadd(hands_next, nk, q):
                        c.failed = True
                        return

    cdef int ask_decider(self, uint64_t gone, int hard, bint ace, bint two, int w, int m) noexcept with gil:
        """The action ``self.decider`` gives a hand in play at a near tie (0 stand, 1 hit, 2 double), or -1 where it
        gives none (no decider, None, or an error: the near tie is then reported, not decided)."""
        if self.decider is None:
            return -1
        try:
            action = self.decider(gone, hard, bool(ace), bool(two), w, m)
            return -1 if action is None else int(action)
        except Exception:
            return -1

    cdef inline uint64_t compact(self, RCtx* c, uint64_t gone) noexcept nogil:
        """The search's compact key of the cards gone."""
        cdef uint64_t ckey = 0
        cdef int r
        for r in range(N_RANKS):
            ckey += count_of(gone, r) * c.cunit[r]
        return ckey

    # ----- finals: the strategy followed forward --------------------------------------------
    cdef int plan_of(self, int pair, bint one_card, int sense, double eps, vector[Node]& g, int live, const int* d0,
                     int n0, uint64_t gone0, double* v1, unsigned char* act1, unsigned char* near1) noexcept nogil:
        """The first hand's decisions and near-tie masks for ``eps`` in ``act1``, ``near1``: the plan the search
        kept (0), else a first-hand search of this one sense (1; ``v1`` its values), or its failure (< 0)."""
        cdef double sense_of = sense
        cdef int status = -1
        with gil:
            plan = self.plans.get((pair, one_card, sense))
            if plan is not None and plan[0] == eps:
                memcpy(act1, <const unsigned char*>plan[1], g.size())
                memcpy(near1, <const unsigned char*>plan[2], g.size())
                status = 0
        if status == 0:
            return 0
        status = self.first_hand(g, live, d0, n0, gone0, 1, &sense_of, v1, act1, near1, eps, NULL)
        return 1 if status == 0 else status

    cdef void hand_finals(self, vector[Node]& g, const int* deck, const unsigned char* act,
                          const unsigned char* near, int64_t* ways, unordered_map[uint64_t, int]& override,
                          vector[Final]& out, vector[int]& ties) noexcept nogil:
        """Every way a hand (from the root, drawing from ``deck``) ends under the decisions ``act``
        (``override``, keyed by the packed draws, wins): the draws, the type and the number of orders.
        States met with a near tie and no override are appended to ``ties``."""
        cdef int s, r, k, a, c
        cdef const Node* node
        cdef Final f
        cdef unordered_map[uint64_t, int64_t] merged
        memset(ways, 0, g.size() * sizeof(int64_t))
        for r in range(N_RANKS):
            if deck[r] > 0:
                ways[g[0].child[r]] += 1
        for s in range(1, g.size()):
            if ways[s] == 0:
                continue
            node = &g[s]
            if node.leaf:
                a = STAND
            elif override.count(node.drawn):
                a = override[node.drawn]
            else:
                a = act[s]
                if near[s] & (near[s] - 1):          # two or more actions within eps of the best
                    ties.push_back(s)
            if a == STAND:
                merged[(node.drawn << 4) | hand_type(node.total, 1)] += ways[s]
                continue
            for r in range(N_RANKS):
                k = deck[r] - count_of(node.drawn, r)
                if k <= 0:
                    continue
                c = node.child[r]
                if a == DOUBLE:
                    merged[(g[c].drawn << 4) | hand_type(g[c].total, 2)] += ways[s]
                else:
                    ways[c] += ways[s]
        out.clear()
        for item in merged:
            f.drawn, f.htype, f.ways = item.first >> 4, item.first & 15, item.second
            out.push_back(f)

    cdef int pair_finals(self, int pair, bint one_card, int sense, double eps, dict override1, dict override2,
                         vector[uint64_t]& unions, vector[Cell]& cells, list near) except -1:
        """Both hands' finals, merged by their union: ``unions`` (packed draws of both hands) and
        ``cells`` (union, type pair, number of orders).  Near ties go to ``near``."""
        cdef vector[Node] g
        cdef int d0[N_RANKS]
        cdef int deck1[N_RANKS]
        cdef uint64_t gone0, u, drawn1
        cdef int r, s, G, n0, live, ui, status = -1
        cdef bint new_plan = False
        cdef double sense_of = sense, v2
        cdef size_t i, j, k, m
        cdef Scratch t
        cdef vector[Final] first
        cdef vector[Final] second
        cdef vector[int] ties
        cdef unordered_map[uint64_t, int] ov1
        cdef unordered_map[uint64_t, int] ov2
        cdef KeyMap union_index
        cdef unordered_map[uint64_t, vector[int]] by_drawn
        cdef vector[vector[Cell]] per_union
        self.check_pair(pair, sense)
        for key, a in override1.items():
            ov1[key] = a
        if keymap_init(&union_index, 10) < 0:
            raise MemoryError()
        with nogil:
            n0 = self.prepare(pair, one_card, d0, &gone0, &live, g)
            G = g.size()
            if scratch_alloc(&t, G):
                status = self.plan_of(pair, one_card, sense, eps, g, live, d0, n0, gone0, t.v1, t.act1, t.near1)
                new_plan = status == 1
                status = min(status, 0)
            if status == 0:
                self.hand_finals(g, d0, t.act1, t.near1, t.ways, ov1, first, ties)
        try:
            if status == -2:
                raise KeyboardInterrupt("the search was stopped")
            if status < 0:
                raise MemoryError()
            for s in ties:
                near.append((1, g[s].drawn, 0, tuple(a for a in range(3) if t.near1[s] >> a & 1)))
            for i in range(first.size()):
                by_drawn[first[i].drawn].push_back(i)
            for item in by_drawn:
                drawn1 = item.first
                ov2.clear()
                for key, a in override2.get(drawn1, {}).items():
                    ov2[key] = a
                ties.clear()
                with nogil:
                    for r in range(N_RANKS):
                        deck1[r] = d0[r] - count_of(drawn1, r)
                    self.second_hand(g, live, d0, gone0, drawn1, 1, &sense_of, t.value, t.stand, t.feasible,
                                     t.entries, t.act2, t.near2, eps, NULL, NULL, &v2)
                    self.hand_finals(g, deck1, t.act2, t.near2, t.ways, ov2, second, ties)
                    for k in range(item.second.size()):
                        i = item.second[k]
                        for j in range(second.size()):
                            u = drawn1 + second[j].drawn
                            self.n_pairs += 1
                            if merge_cell(&union_index, unions, per_union, u, first[i].htype * N_TYPES
                                          + second[j].htype, first[i].ways * second[j].ways) < 0:
                                status = -1
                for s in ties:
                    near.append((2, drawn1, g[s].drawn, tuple(a for a in range(3) if t.near2[s] >> a & 1)))
            if status < 0:
                raise MemoryError()
            flatten_cells(per_union, cells)
            self.n_unions += unions.size()
            self.check_deck()
            if new_plan:            # kept only for a deck that lasts (a plan may be shared: see share)
                self.plans[pair, one_card, sense] = (eps, t.act1[:G], t.near1[:G])
        finally:
            scratch_free(&t)
            keymap_free(&union_index)
        return 0

    # ----- exact sums -------------------------------------------------------------------------
    def exact_distribution(self, int pair, bint one_card, dict override1, dict override2, double eps=1e-9,
                           int sense=1):
        """The exact joint distribution of the split's play under the float strategy, unless it meets a near
        tie.  Returns ``(near, cells)``: ``near`` lists the decisions met (without an override) whose
        runner-up lies within ``eps`` of the best: ``(1, drawn1, 0, actions)`` for the first hand,
        ``(2, drawn1, drawn2, actions)`` for the second (draws packed, 6 bits per rank, ace lowest;
        ``actions`` the codes within ``eps``); ``cells`` is then None.  Otherwise ``near`` is empty and
        ``cells`` is {(doubles, dealer_blackjack, net): Fraction}, joint units.  ``override1``
        {drawn1: action} and ``override2`` {drawn1: {drawn2: action}} replace float decisions.  ``sense``: as
        for ``split_value`` (-1: the strategy of lowest EV; "best" and "runner-up" then mean lowest)."""
        cdef vector[uint64_t] unions
        cdef vector[Cell] cells
        cdef int d0[N_RANKS]
        cdef int r
        near = []
        self.pair_finals(pair, one_card, sense, eps, override1, override2, unions, cells, near)
        if near:
            return near, None
        for r in range(N_RANKS):
            d0[r] = self.base[r] - (2 if r == pair else 0)
        return near, exact_split_cells(self.solver.dealer, d0, unions, cells)

    def split_distribution(self, int pair, bint one_card, int sense=1):
        """Joint distribution of a one-split round's play under truly optimal split play (``sense`` -1: the
        play of lowest EV): {(doubles, dealer_blackjack, net): mass} (the stake of the play is 2 + doubles).

        Floats, followed forward with probabilities instead of merged by union (``exact_distribution``'s way):
        hand 1's finals with their probabilities on ``D0``; for each distinct ``drawn1``, hand 2's optimal play
        on ``D0 - drawn1`` (``second_hand``, the search's own decisions) followed forward the same way, each of
        its finals settled against the dealer of the deck both hands leave, which is the memo entry
        ``second_hand`` found for that state (a bust: one link further).  P(c1, c2, dealer) = P(c1) P(c2 | D0 -
        c1) P(dealer | D0 - c1 - c2), the law of the cards in the order they are dealt."""
        cdef vector[Node] g
        cdef double out[SPLIT_CELLS]
        cdef double lost[SPLIT_CELLS]       # out's rounding, carried (Neumaier's compensated sum)
        cdef double here[SPLIT_CELLS]       # one drawn1's sum
        cdef double x, y
        cdef int cell
        cdef int d0[N_RANKS]
        cdef int deck1[N_RANKS]
        cdef uint64_t gone0, drawn1, gone
        cdef int r, s, c, k, n, n0, n1, a, live, G, status = -1
        cdef size_t i
        cdef double sense_of = sense, v2, q
        cdef const Node* node
        cdef Scratch t
        cdef unordered_map[uint64_t, double] finals1         # (drawn << 4 | type) -> probability
        cdef unordered_map[uint64_t, vector[uint64_t]] by_drawn
        cdef vector[int] t1s
        cdef vector[double] p1s
        cdef vector[int] bust_entry                         # hand 2's busts of one state: entry, type, mass
        cdef vector[int] bust_type
        cdef vector[double] bust_mass
        self.check_pair(pair, sense)
        memset(out, 0, sizeof(out))
        memset(lost, 0, sizeof(lost))
        with nogil:
            n0 = self.prepare(pair, one_card, d0, &gone0, &live, g)
            G = g.size()
            if scratch_alloc(&t, G):
                status = min(0, self.plan_of(pair, one_card, sense, PLAN_EPS, g, live, d0, n0, gone0, t.v1, t.act1,
                                             t.near1))
            if status == 0:
                # hand 1 followed forward: each final's cards, type and probability
                self.forward(g, d0, n0, t.act1, t.p)
                for s in range(1, G):
                    if t.p[s] == 0.0:
                        continue
                    node = &g[s]
                    a = STAND if node.leaf else t.act1[s]
                    n = n0 - node.ndrawn
                    if a == STAND:
                        finals1[(node.drawn << 4) | hand_type(node.total, 1)] += t.p[s]
                    elif a == DOUBLE:
                        for r in range(N_RANKS):
                            k = d0[r] - count_of(node.drawn, r)
                            if k > 0:
                                c = node.child[r]
                                finals1[(g[c].drawn << 4) | hand_type(g[c].total, 2)] += t.p[s] * k / n
                for item in finals1:
                    by_drawn[item.first >> 4].push_back(item.first)
                # hand 2 on the deck hand 1 leaves, each of its finals against the dealer of what both leave
                for group in by_drawn:
                    drawn1 = group.first
                    t1s.clear()
                    p1s.clear()
                    for i in range(group.second.size()):
                        t1s.push_back(<int>(group.second[i] & 15))
                        p1s.push_back(finals1[group.second[i]])
                    n1 = n0
                    for r in range(N_RANKS):
                        deck1[r] = d0[r] - count_of(drawn1, r)
                        n1 -= count_of(drawn1, r)
                    self.second_hand(g, live, d0, gone0, drawn1, 1, &sense_of, t.value, t.stand, t.feasible,
                                     t.entries, t.act2, t.near2, PLAN_EPS, NULL, NULL, &v2)
                    if self.out_of_memory:
                        break
                    self.forward(g, deck1, n1, t.act2, t.p)
                    memset(here, 0, sizeof(here))
                    for s in range(1, live):
                        if t.p[s] == 0.0:
                            continue
                        node = &g[s]
                        a = STAND if node.leaf else t.act2[s]
                        n = n1 - node.ndrawn
                        if a == STAND:
                            self.settle(here, t1s, p1s, hand_type(node.total, 1), t.entries[s], t.p[s])
                            continue
                        bust_entry.clear()
                        bust_type.clear()
                        bust_mass.clear()
                        gone = gone0 + drawn1 + node.drawn
                        for r in range(N_RANKS):
                            k = deck1[r] - count_of(node.drawn, r)
                            if k <= 0:
                                continue
                            q = t.p[s] * k / n
                            if node.bust_children >> r & 1:
                                bust_entry.push_back(self.linked_lazy(t.entries[s], r, gone + unit(r)))
                                bust_type.push_back(hand_type(22, 2 if a == DOUBLE else 1))
                                bust_mass.push_back(q)
                            elif a == DOUBLE:
                                c = node.child[r]
                                self.settle(here, t1s, p1s, hand_type(g[c].total, 2), t.entries[c], q)
                        if self.out_of_memory:
                            break
                        self.fill_pending()
                        for i in range(bust_entry.size()):
                            self.settle(here, t1s, p1s, bust_type[i], bust_entry[i], bust_mass[i])
                    if self.out_of_memory:
                        break
                    # each drawn1's sum added to the whole with its rounding carried: a plain sum of 10^5 and
                    # more sums into cells of 0.1 to 0.3 lost about 1e-12 (measured at 8 decks)
                    for cell in range(SPLIT_CELLS):
                        x, y = out[cell], here[cell]
                        out[cell] = x + y
                        if fabs(x) >= fabs(y):
                            lost[cell] += (x - out[cell]) + y
                        else:
                            lost[cell] += (y - out[cell]) + x
        try:
            if status == -2:
                raise KeyboardInterrupt("the search was stopped")
            if status < 0 or self.out_of_memory:
                raise MemoryError()
            self.check_deck()
        finally:
            scratch_free(&t)
        for cell in range(SPLIT_CELLS):
            out[cell] += lost[cell]
        return {(k // 18, (k // 9) % 2, k % 9 - 4): out[k] for k in range(SPLIT_CELLS) if out[k] != 0.0}

    cdef void forward(self, vector[Node]& g, const int* deck, int n0, const unsigned char* act, double* p
                      ) noexcept nogil:
        """The probability of reaching each state of a hand drawing from ``deck`` (``n0`` cards) under the
        decisions ``act``, bust leaves included (parents before children; a state that stands or doubles passes
        nothing on)."""
        cdef int s, r, k, n
        cdef const Node* node
        memset(p, 0, g.size() * sizeof(double))
        for r in range(N_RANKS):
            if deck[r] > 0:
                p[g[0].child[r]] += deck[r] / <double>n0
        for s in range(1, g.size()):
            node = &g[s]
            if p[s] == 0.0 or node.leaf or act[s] != HIT:
                continue
            n = n0 - node.ndrawn
            for r in range(N_RANKS):
                k = deck[r] - count_of(node.drawn, r)
                if k > 0:
                    p[node.child[r]] += p[s] * k / n

    cdef inline void settle(self, double* out, vector[int]& t1s, vector[double]& p1s, int t2, int entry, double q
                            ) noexcept nogil:
        """Add a final of hand 2 (type ``t2``, probability ``q`` given hand 1's cards) against the dealer of memo
        entry ``entry``, paired with each of hand 1's finals of these cards (types ``t1s``, probabilities
        ``p1s``)."""
        cdef const double* e = self.probs + entry * N_OUTCOMES
        cdef size_t i
        cdef int o
        cdef double f
        self.n_pairs += t1s.size()
        for i in range(t1s.size()):
            f = p1s[i] * q
            for o in range(N_OUTCOMES):
                if e[o] != 0.0:
                    out[split_cell(t1s[i], t2, o)] += f * e[o]

    def work(self):
        """Size of the work so far: first-hand states, second-hand node visits, dealer lookups and
        evaluations (distinct decks), pairs of finals and unions; with resplits, the round states and the hands in
        play the searches met."""
        return {"first_hand_states": self.n_first, "second_hand_visits": self.n_second,
                "dealer_lookups": self.n_lookups, "dealer_evaluations": self.n_released + self.size,
                "final_pairs": self.n_pairs, "unions": self.n_unions, "resplit_round_states": self.n_round_states,
                "resplit_hand_states": self.n_hand_states}
