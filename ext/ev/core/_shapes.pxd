# The shapes of play, for the other Cython modules (see _shapes.pyx).
from libc.stdint cimport int64_t, uint64_t
from libcpp.vector cimport vector

cdef enum:
    RANK_BITS = 6              # a count of one rank in a packed multiset (a dealer hand holds < 64 of a rank)
    OUTCOME_SHIFT = 60

cdef struct Terminal:
    uint64_t key               # outcome << OUTCOME_SHIFT | packed multiset (ace in the top bits)
    int64_t ways               # the number of drawing orders that reach it

cdef vector[Terminal] terminal_list(int up, bint hit_soft_17, int exclude_hole, const int* caps) noexcept nogil
cdef void unpack(uint64_t key, unsigned char* m) noexcept nogil
