# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Monte Carlo core: deals and plays real rounds of blackjack from a shuffled shoe.

Generator: xoshiro256** (D. Blackman and S. Vigna, "Scrambled linear
pseudorandom number generators", ACM Trans. Math. Softw. 47(4), 2021), its
state filled by splitmix64 from the user seed.  The rounds of a run are cut
into fixed chunks of ``CHUNK_ROUNDS`` (2^20) rounds: chunk ``k`` holds rounds
``k * 2^20`` to ``(k + 1) * 2^20 - 1``, starts from a fresh shoe in face order,
and draws from its own stream: the seeded generator advanced by
``k // CHUNKS_PER_BLOCK`` long jumps (2^192 steps each) and then
``k % CHUNKS_PER_BLOCK`` jumps (2^128 steps each), that is
``(k // 1024) * 2^192 + (k % 1024) * 2^128`` steps.  No two chunks' streams
overlap (a chunk draws fewer than 2^30 numbers), chunk ``k``'s start costs at
most 1023 jumps and ``k // 1024`` long jumps, and the next chunk's start is
one more jump (or long jump) away.  So the tallies of a seed do not depend on
how the chunks are shared among workers or machines.  Bounded integers: Lemire's nearly divisionless
method (D. Lemire, "Fast random integer generation in an interval", ACM TOMS
29(1), 2019), on the upper 32 bits of each 64-bit output.

Shuffling: each round is a fresh Fisher-Yates shuffle of the whole shoe, drawn
lazily: the k-th card dealt is a uniformly random card among the cards not yet
dealt in this round (swapped into position k).  The array always holds a
permutation of the shoe, so the next round starts from wherever the last one
left it, and its deal is again uniform.

Cards are faces 0..12 (A, 2..9, T, J, Q, K); ranks are 0..9 with every
ten-valued face rank 9.  Money is counted in integer *tenths* of an initial
bet, so every tally is exact (a 6:5 blackjack wins 12 tenths).

No Python object is touched inside a chunk of rounds: the loop runs without
the GIL on C arrays.
"""
cimport cython
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from ev.core._constants cimport ACE, DOUBLE, HIT, N_RANKS, NO_ACTION, SPLIT, STAND, SURRENDER, TEN

cdef enum:
    N_FACES = 13
    MAX_HANDS = 4
    HIST_OFFSET = 128           # histogram bin of a net result n (tenths) is n + HIST_OFFSET
    HIST_BINS = 257

# error codes of a chunk (0: fine)
cdef enum:
    ERR_NO_ACTION = 1           # the strategy has no action for a hand that was dealt
    ERR_BAD_ACTION = 2          # an action the table may not hold for that hand
    ERR_SHOE_EMPTY = 3          # cannot happen (a round uses at most ~150 of 340 points)
    ERR_NET_RANGE = 4           # cannot happen (net within -8.5 .. +8 bets)

cdef uint64_t[4] JUMP = [0x180ec6d33cfd0aba, 0xd5a61266f0c9392c, 0xa9582618e03fc9aa, 0x39abdc4529b1661c]
cdef uint64_t[4] LONG_JUMP = [0x76e15d3efefdcbbf, 0xc5004e441c522fb3, 0x77710069854ee241, 0x39109bb02acbe635]

cdef enum:
    C_CHUNK_ROUNDS = 1 << 20
    C_CHUNKS_PER_BLOCK = 1 << 10

#: rounds per chunk: chunk k is rounds [k * CHUNK_ROUNDS, (k + 1) * CHUNK_ROUNDS), with its own stream
CHUNK_ROUNDS = C_CHUNK_ROUNDS
#: chunks per block: a block is one long jump (2^192 steps), a chunk within it one jump (2^128 steps)
CHUNKS_PER_BLOCK = C_CHUNKS_PER_BLOCK

# tally slots
cdef enum:
    T_ROUNDS = 0
    T_NET = 1                   # sum of net (tenths)
    T_NET2 = 2                  # sum of net^2 (hundredths)
    T_WAGER = 3                 # sum of wager (tenths)
    T_WAGER2 = 4                # sum of wager^2
    T_NETWAGER = 5              # sum of net * wager
    T_DOUBLE = 6                # rounds with at least one double
    T_SPLIT = 7                 # rounds with at least one split
    T_INSURANCE = 8             # rounds with insurance taken
    T_EVEN_MONEY = 9            # rounds with even money taken
    T_PLAYER_BJ = 10            # rounds where the player is dealt a natural
    T_DEALER_BJ = 11            # rounds where the dealer has blackjack
    T_SURRENDER = 12            # rounds surrendered
    N_TALLIES = 13

TALLY_NAMES = ("rounds", "net", "net_sq", "wager", "wager_sq", "net_wager", "double", "split",
               "insurance", "even_money", "player_blackjack", "dealer_blackjack", "surrender")

GENERATOR = "xoshiro256**"
GENERATOR_REFERENCE = ("D. Blackman and S. Vigna, \"Scrambled linear pseudorandom number generators\", "
                       "ACM Transactions on Mathematical Software 47(4), article 36, 2021; seeded with "
                       "splitmix64; one stream per chunk of 2^20 rounds, chunk k advanced by k // 1024 long "
                       "jumps (2^192 steps) and k % 1024 jumps (2^128 steps); bounded "
                       "integers by D. Lemire, \"Fast random integer generation in an interval\", "
                       "ACM TOMS 29(1), 2019")


# ----- generator ---------------------------------------------------------------
cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t xoshiro_next(uint64_t* s) noexcept nogil:
    cdef uint64_t result = rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


cdef void jump_by(uint64_t* s, const uint64_t* polynomial) noexcept nogil:
    """Advance ``s`` by the steps whose jump polynomial is given (JUMP: 2^128, LONG_JUMP: 2^192)."""
    cdef uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0
    cdef int i, b
    for i in range(4):
        for b in range(64):
            if polynomial[i] & ((<uint64_t>1) << b):
                s0 ^= s[0]
                s1 ^= s[1]
                s2 ^= s[2]
                s3 ^= s[3]
            xoshiro_next(s)
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3


cdef inline uint64_t splitmix64_next(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9e3779b97f4a7c15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xbf58476d1ce4e5b9
    z = (z ^ (z >> 27)) * <uint64_t>0x94d049bb133111eb
    return z ^ (z >> 31)


cdef inline uint32_t bounded(uint64_t* s, uint32_t bound) noexcept nogil:
    """A uniform integer in [0, bound): Lemire's nearly divisionless method (bound > 0)."""
    cdef uint32_t x = <uint32_t>(xoshiro_next(s) >> 32)
    cdef uint64_t m = <uint64_t>x * bound
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < bound:
        threshold = (<uint32_t>0 - bound) % bound
        while low < threshold:
            x = <uint32_t>(xoshiro_next(s) >> 32)
            m = <uint64_t>x * bound
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef void seed_state(uint64_t* s, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    cdef int i
    for i in range(4):
        s[i] = splitmix64_next(&x)


cdef void chunk_state(uint64_t* s, uint64_t seed, int64_t chunk) noexcept nogil:
    """The start of chunk ``chunk``'s stream: the seeded state, then chunk // 1024 long jumps, chunk % 1024 jumps."""
    cdef int64_t i
    seed_state(s, seed)
    for i in range(chunk // C_CHUNKS_PER_BLOCK):
        jump_by(s, LONG_JUMP)
    for i in range(chunk % C_CHUNKS_PER_BLOCK):
        jump_by(s, JUMP)


def chunk_start_state(seed, int64_t chunk):
    """The 4-word xoshiro256** state at which chunk ``chunk`` of a run seeded with ``seed`` starts."""
    cdef uint64_t s[4]
    if chunk < 0:
        raise ValueError("chunk must be 0 or more")
    chunk_state(s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF), chunk)
    return [s[0], s[1], s[2], s[3]]


def splitmix64_outputs(seed, int n):
    """The first ``n`` outputs of splitmix64 seeded with ``seed`` (for checking against published vectors)."""
    cdef uint64_t x = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    return [splitmix64_next(&x) for _ in range(n)]


def xoshiro_outputs(state, int n, int jumps=0, int long_jumps=0):
    """The first ``n`` outputs of xoshiro256** from a 4-word state, after ``long_jumps`` long jumps
    (2^192 steps each) and then ``jumps`` jumps (2^128 steps each)."""
    cdef uint64_t s[4]
    cdef int i
    for i in range(4):
        s[i] = <uint64_t>(int(state[i]) & 0xFFFFFFFFFFFFFFFF)
    for i in range(long_jumps):
        jump_by(s, LONG_JUMP)
    for i in range(jumps):
        jump_by(s, JUMP)
    return [xoshiro_next(s) for _ in range(n)]


def bounded_outputs(state, uint32_t bound, int n):
    """``n`` bounded integers in [0, bound) from a 4-word xoshiro256** state."""
    cdef uint64_t s[4]
    cdef int i
    for i in range(4):
        s[i] = <uint64_t>(int(state[i]) & 0xFFFFFFFFFFFFFFFF)
    return [bounded(s, bound) for _ in range(n)]


# ----- the simulator -------------------------------------------------------------
cdef uint8_t[N_FACES] RANK_OF = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9]


@cython.final
cdef class Simulator:
    """The chunks of one seeded run: a shoe, a generator and the strategy tables, with running tallies.

    ``spec`` is the plain dict built by ``ev.analysis.simulation``: the rules as integers
    and the strategy as byte strings indexed ``up * n_states + state``.  ``run_chunk(k, n)``
    plays the first ``n`` rounds of chunk ``k`` and adds them to the tallies; the chunks
    a Simulator plays may be any set, in any order (consecutive ones are cheapest).
    """

    cdef uint64_t s[4]
    cdef uint64_t seed
    cdef uint64_t chunk_start[4]     # the state at which the last chunk played started
    cdef uint64_t block_start[4]     # ... and the start of its block (chunk // CHUNKS_PER_BLOCK)
    cdef int64_t last_chunk          # -1: none yet
    cdef uint8_t* cards
    cdef uint32_t n_cards
    cdef uint32_t pos
    cdef int n_states
    cdef int32_t* nxt            # n_states x 10, -1 bust / impossible
    cdef uint8_t* total          # best total per state
    cdef uint8_t* play           # 10 x n_states
    cdef uint8_t* fallback
    cdef uint8_t* split_play
    cdef uint8_t* insurance      # per state
    cdef int even_money          # table takes even money (and rules offer it)
    cdef int offer_insurance
    cdef int payout_tenths       # blackjack win in tenths (15, 12, 10)
    cdef int h17, tens_by_value, unchecked_all
    cdef uint8_t split_hands[N_RANKS]    # rule answers per rank (ev.core.rules.Rules): most hands a pair makes,
    cdef uint8_t one_card[N_RANKS]       # whether its split hands get one card,
    cdef uint8_t peeks[N_RANKS]          # whether the dealer checks the hole card under it
    cdef int64_t tallies[N_TALLIES]
    cdef int64_t hist[HIST_BINS]
    cdef readonly int error
    cdef readonly int error_state
    cdef readonly int error_up

    def __cinit__(self, dict spec, seed):
        cdef int i, n, d
        self.cards = NULL
        self.nxt = NULL
        self.total = NULL
        self.play = NULL
        self.fallback = NULL
        self.split_play = NULL
        self.insurance = NULL
        n = spec["n_states"]
        self.n_states = n
        if len(spec["next"]) != n * N_RANKS or len(spec["total"]) != n:
            raise ValueError("hand graph tables have the wrong size")
        for name in ("play", "fallback", "split_play"):
            if len(spec[name]) != N_RANKS * n:
                raise ValueError(f"strategy table {name} has the wrong size")
        if len(spec["insurance"]) != n:
            raise ValueError("insurance table has the wrong size")
        d = spec["decks"]
        self.n_cards = 52 * d
        self.cards = <uint8_t*>malloc(self.n_cards)
        self.nxt = <int32_t*>malloc(n * N_RANKS * sizeof(int32_t))
        self.total = <uint8_t*>malloc(n)
        self.play = <uint8_t*>malloc(N_RANKS * n)
        self.fallback = <uint8_t*>malloc(N_RANKS * n)
        self.split_play = <uint8_t*>malloc(N_RANKS * n)
        self.insurance = <uint8_t*>malloc(n)
        if (self.cards == NULL or self.nxt == NULL or self.total == NULL or self.play == NULL
                or self.fallback == NULL or self.split_play == NULL or self.insurance == NULL):
            raise MemoryError()
        # a fresh shoe in face order: d decks of 4 suits x 13 faces
        for i in range(self.n_cards):
            self.cards[i] = i % N_FACES
        self.pos = 0
        for i, v in enumerate(spec["next"]):
            self.nxt[i] = v
        for i, v in enumerate(spec["total"]):
            self.total[i] = v
        cdef const uint8_t[:] view
        view = spec["play"]
        for i in range(N_RANKS * n):
            self.play[i] = view[i]
        view = spec["fallback"]
        for i in range(N_RANKS * n):
            self.fallback[i] = view[i]
        view = spec["split_play"]
        for i in range(N_RANKS * n):
            self.split_play[i] = view[i]
        view = spec["insurance"]
        for i in range(n):
            self.insurance[i] = view[i]
        self.even_money = spec["even_money"]
        self.offer_insurance = spec["insurance_offered"]
        self.payout_tenths = spec["payout_tenths"]
        self.h17 = spec["hit_soft_17"]
        for i in range(N_RANKS):
            self.split_hands[i] = spec["split_hands"][i]
            self.one_card[i] = spec["one_card"][i]
            self.peeks[i] = spec["peeks"][i]
        self.tens_by_value = spec["tens_by_value"]
        self.unchecked_all = spec["unchecked_all"]
        memset(self.tallies, 0, sizeof(self.tallies))
        memset(self.hist, 0, sizeof(self.hist))
        self.error = 0
        self.error_state = -1
        self.error_up = -1
        self.seed = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
        self.last_chunk = -1

    def __dealloc__(self):
        free(self.cards)
        free(self.nxt)
        free(self.total)
        free(self.play)
        free(self.fallback)
        free(self.split_play)
        free(self.insurance)

    def run_chunk(self, int64_t chunk, int64_t rounds):
        """Play the first ``rounds`` rounds (at most CHUNK_ROUNDS) of chunk ``chunk`` without the GIL:
        a fresh shoe in face order and the chunk's own stream.  Returns the error code (0: fine)."""
        cdef int64_t i
        if chunk < 0 or not 0 <= rounds <= C_CHUNK_ROUNDS:
            raise ValueError(f"chunk {chunk}, rounds {rounds}: a chunk is 0 or more, at most "
                             f"{C_CHUNK_ROUNDS} rounds")
        if self.error:
            return self.error
        with nogil:
            self.start_chunk(chunk)
            for i in range(self.n_cards):
                self.cards[i] = i % N_FACES
            for i in range(rounds):
                self.play_round()
                if self.error:
                    break
        return self.error

    cdef void start_chunk(self, int64_t chunk) noexcept nogil:
        """Set the generator to chunk ``chunk``'s start: one jump from the last chunk's when it follows it."""
        cdef int i
        if chunk == self.last_chunk + 1 and self.last_chunk >= 0:
            if chunk % C_CHUNKS_PER_BLOCK == 0:
                jump_by(self.block_start, LONG_JUMP)
                for i in range(4):
                    self.chunk_start[i] = self.block_start[i]
            else:
                jump_by(self.chunk_start, JUMP)
        elif chunk != self.last_chunk:
            chunk_state(self.block_start, self.seed, chunk - chunk % C_CHUNKS_PER_BLOCK)
            for i in range(4):
                self.chunk_start[i] = self.block_start[i]
            for i in range(chunk % C_CHUNKS_PER_BLOCK):
                jump_by(self.chunk_start, JUMP)
        self.last_chunk = chunk
        for i in range(4):
            self.s[i] = self.chunk_start[i]

    def counts(self):
        """The running tallies: a dict of integers (money in tenths) and the histogram {net tenths: rounds}."""
        out = {name: self.tallies[k] for k, name in enumerate(TALLY_NAMES)}
        out["histogram"] = {b - HIST_OFFSET: self.hist[b] for b in range(HIST_BINS) if self.hist[b]}
        return out

    # ----- one round ------------------------------------------------------------
    cdef inline int deal(self) noexcept nogil:
        """The next card of this round's shuffle: a uniform pick among the cards not yet dealt."""
        cdef uint32_t i = self.pos
        cdef uint32_t j
        cdef uint8_t c
        if i >= self.n_cards:
            self.error = ERR_SHOE_EMPTY
            return 0
        j = i + bounded(self.s, self.n_cards - i)
        c = self.cards[j]
        self.cards[j] = self.cards[i]
        self.cards[i] = c
        self.pos = i + 1
        return c

    cdef inline void fail(self, int code, int up, int state) noexcept nogil:
        if not self.error:
            self.error = code
            self.error_up = up
            self.error_state = state

    cdef void play_round(self) noexcept nogil:
        cdef int up_face, hole_face, f1, f2, c, up, hole, r1, r2, r
        cdef int s, a, base, n_hands, i, pair, pair_face, may_resplit
        cdef int net = 0, wager = 10, ins = 0
        cdef int dealer_bj, player_bj, doubled = 0, did_split = 0
        cdef int dealer_hard, dealer_aces, dealer_total, dt
        cdef int hand_state[MAX_HANDS]
        cdef int hand_bet[MAX_HANDS]
        cdef int n_bust = 0
        cdef int64_t* t = self.tallies

        self.pos = 0
        up_face = self.deal()
        f1 = self.deal()
        f2 = self.deal()
        hole_face = self.deal()
        up = RANK_OF[up_face]
        hole = RANK_OF[hole_face]
        r1 = RANK_OF[f1]
        r2 = RANK_OF[f2]
        dealer_bj = (up == ACE and hole == TEN) or (up == TEN and hole == ACE)
        player_bj = (r1 == ACE and r2 == TEN) or (r1 == TEN and r2 == ACE)
        base = up * self.n_states
        t[T_ROUNDS] += 1
        if dealer_bj:
            t[T_DEALER_BJ] += 1
        s = self.nxt[self.nxt[r1] * N_RANKS + r2]      # state 0 is the empty hand

        if player_bj:
            # a natural takes even money (its insurance) or nothing; it is never insured
            t[T_PLAYER_BJ] += 1
            if up == ACE and self.even_money:
                t[T_EVEN_MONEY] += 1
                self.settle(10, 10)          # even money: stake 1 (the initial bet; no chips placed)
                return
            self.settle(0 if dealer_bj else self.payout_tenths, 10)
            return

        # insurance is decided before the peek (and stays on the table without one)
        if up == ACE and self.offer_insurance and self.insurance[s]:
            t[T_INSURANCE] += 1
            ins = 10 if dealer_bj else -5
            wager = 15
        # the peek
        if dealer_bj and self.peeks[up]:
            self.settle(ins - 10, wager)
            return

        a = self.play[base + s]
        if a == SPLIT and r1 == TEN and not self.tens_by_value and f1 != f2:
            a = self.fallback[base + s]
        if a == NO_ACTION:
            self.fail(ERR_NO_ACTION, up, s)
            return

        if a == SURRENDER:
            t[T_SURRENDER] += 1
            # an unchecked dealer blackjack takes the whole bet of a surrendered hand
            self.settle(ins + (-10 if dealer_bj else -5), wager)
            return

        n_hands = 1
        hand_bet[0] = 1
        if a == SPLIT:
            did_split = 1
            pair = r1
            pair_face = f1
            n_hands = 2
            i = 0
            while i < n_hands:
                hand_bet[i] = 1
                # the second card; a pair card makes a new hand while hands may be added
                while True:
                    c = self.deal()
                    r = RANK_OF[c]
                    if (n_hands < self.split_hands[pair] and r == pair
                            and (r != TEN or self.tens_by_value or c == pair_face)):
                        n_hands += 1
                        continue
                    break
                s = self.nxt[self.nxt[pair] * N_RANKS + r]
                if not self.one_card[pair]:
                    s = self.play_hand(s, up, self.split_play, &hand_bet[i], 1)
                    if hand_bet[i] == 2:
                        doubled = 1
                hand_state[i] = s
                if s < 0:
                    n_bust += 1
                i += 1
        elif a == DOUBLE:
            doubled = 1
            hand_bet[0] = 2
            c = self.deal()
            hand_state[0] = self.nxt[s * N_RANKS + RANK_OF[c]]
            if hand_state[0] < 0:
                n_bust = 1
        elif a == HIT or a == STAND:
            hand_state[0] = self.play_hand(s, up, self.play, &hand_bet[0], 0)
            if hand_state[0] < 0:
                n_bust = 1
        else:
            self.fail(ERR_BAD_ACTION, up, s)
            return
        if self.error:
            return
        # a double or split whose wager is returned (an unchecked blackjack that takes only
        # the original bet) is void: neither staked nor counted
        if not (dealer_bj and not self.unchecked_all):
            t[T_DOUBLE] += doubled
            t[T_SPLIT] += did_split

        if dealer_bj:
            # found after play (no peek under this up card)
            if self.unchecked_all:
                for i in range(n_hands):
                    wager += 10 * hand_bet[i]
                    net -= 10 * hand_bet[i]
                wager -= 10                     # the initial bet was already counted
            else:
                net = -10                        # doubles and splits are returned
            self.settle(net + ins, wager)
            return

        for i in range(n_hands):
            wager += 10 * hand_bet[i]
        wager -= 10
        if n_bust == n_hands:
            net = 0
            for i in range(n_hands):
                net -= 10 * hand_bet[i]
            self.settle(net + ins, wager)
            return

        # the dealer draws
        dealer_hard = (up + 1) + (hole + 1)
        dealer_aces = (up == ACE) + (hole == ACE)
        while True:
            dt = dealer_hard
            if dealer_aces and dealer_hard + 10 <= 21:
                dt = dealer_hard + 10
                if dt > 17 or (dt == 17 and not self.h17):
                    break
            elif dt >= 17:
                break
            c = RANK_OF[self.deal()]
            dealer_hard += c + 1
            dealer_aces += c == ACE
        dealer_total = dt if dealer_hard <= 21 else 0    # 0: bust
        if self.error:
            return
        for i in range(n_hands):
            s = hand_state[i]
            if s < 0 or (dealer_total and self.total[s] < dealer_total):
                net -= 10 * hand_bet[i]
            elif not dealer_total or self.total[s] > dealer_total:
                net += 10 * hand_bet[i]
        self.settle(net + ins, wager)

    cdef inline int play_hand(self, int s, int up, uint8_t* table, int* bet, int after_split) noexcept nogil:
        """Play one hand from state ``s`` by ``table`` (STAND / HIT, DOUBLE on two cards); final state or -1."""
        cdef int a, c
        cdef int base = up * self.n_states
        cdef int first = 1
        while True:
            if self.total[s] == 21:
                return s
            a = table[base + s]
            if a == STAND:
                return s
            if a == HIT:
                c = RANK_OF[self.deal()]
                s = self.nxt[s * N_RANKS + c]
                if s < 0:
                    return -1
            elif a == DOUBLE and first:
                bet[0] = 2
                c = RANK_OF[self.deal()]
                return self.nxt[s * N_RANKS + c]
            elif a == NO_ACTION:
                self.fail(ERR_NO_ACTION, up, s)
                return s
            else:
                self.fail(ERR_BAD_ACTION, up, s)
                return s
            first = 0

    cdef inline void settle(self, int net, int wager) noexcept nogil:
        cdef int64_t* t = self.tallies
        t[T_NET] += net
        t[T_NET2] += net * net
        t[T_WAGER] += wager
        t[T_WAGER2] += wager * wager
        t[T_NETWAGER] += net * wager
        if net + HIST_OFFSET < 0 or net + HIST_OFFSET >= HIST_BINS:
            self.fail(ERR_NET_RANGE, -1, -1)
            return
        self.hist[net + HIST_OFFSET] += 1


def deal_counts(int decks, seed, int64_t rounds, int cards_per_round=4):
    """Shuffle-and-deal check: counts[k][face] of the k-th card dealt in a round, and of two-card
    rank pairs (first and second card), over ``rounds`` rounds dealt as the simulator deals them."""
    cdef uint64_t s[4]
    cdef int n = 52 * decks
    cdef uint8_t* cards = <uint8_t*>malloc(n)
    cdef int64_t[8][N_FACES] pos_counts
    cdef int64_t[N_RANKS][N_RANKS] pair_counts
    cdef int64_t r
    cdef int i, j, k, c, first = 0
    cdef uint8_t tmp
    if cards == NULL:
        raise MemoryError()
    if not 2 <= cards_per_round <= 8:
        free(cards)
        raise ValueError("cards_per_round must be from 2 to 8")
    memset(pos_counts, 0, sizeof(pos_counts))
    memset(pair_counts, 0, sizeof(pair_counts))
    for i in range(n):
        cards[i] = i % N_FACES
    seed_state(s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    with nogil:
        for r in range(rounds):
            for k in range(cards_per_round):
                j = k + bounded(s, n - k)
                tmp = cards[j]
                cards[j] = cards[k]
                cards[k] = tmp
                pos_counts[k][tmp] += 1
            pair_counts[RANK_OF[cards[0]]][RANK_OF[cards[1]]] += 1
    free(cards)
    return ([[pos_counts[k][c] for c in range(N_FACES)] for k in range(cards_per_round)],
            [[pair_counts[i][j] for j in range(N_RANKS)] for i in range(N_RANKS)])
