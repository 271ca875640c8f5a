# An open-addressing map from nonzero 64-bit keys to int indices, for the core's memo tables.
# Linear probing, at most half full, 16 bytes a slot (a key beside its value: a hit reads one cache line).
# The caller keeps the keys nonzero (0 marks a free slot).
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free


cdef struct Slot:
    uint64_t key
    int64_t value


cdef struct KeyMap:
    Slot* slots
    uint64_t capacity
    int shift
    int64_t size


cdef inline uint64_t mix64(uint64_t h) noexcept nogil:
    """murmur3's finaliser: every bit of the key moves every bit of the slot."""
    h ^= h >> 33
    h *= <uint64_t>0xFF51AFD7ED558CCD
    h ^= h >> 33
    h *= <uint64_t>0xC4CEB9FE1A85EC53
    h ^= h >> 33
    return h


cdef inline int keymap_init(KeyMap* m, int bits) noexcept nogil:
    """An empty map of 2**bits slots; -1 when memory runs out."""
    m.capacity = (<uint64_t>1) << bits
    m.shift = 64 - bits
    m.size = 0
    m.slots = <Slot*>calloc(m.capacity, sizeof(Slot))
    return 0 if m.slots else -1


cdef inline void keymap_free(KeyMap* m) noexcept nogil:
    free(m.slots)
    m.slots = NULL


cdef inline int keymap_get(const KeyMap* m, uint64_t key) noexcept nogil:
    """The value of ``key``, or -1."""
    cdef uint64_t i = mix64(key) >> m.shift
    while m.slots[i].key != 0:
        if m.slots[i].key == key:
            return <int>m.slots[i].value
        i = (i + 1) & (m.capacity - 1)
    return -1


cdef inline void _keymap_place(KeyMap* m, uint64_t key, int value) noexcept nogil:
    cdef uint64_t i = mix64(key) >> m.shift
    while m.slots[i].key != 0:
        i = (i + 1) & (m.capacity - 1)
    m.slots[i].key = key
    m.slots[i].value = value
    m.size += 1


cdef inline int keymap_put(KeyMap* m, uint64_t key, int value) noexcept nogil:
    """Add ``key`` (not in the map) with ``value``, doubling the map when it would be over half full; -1 when
    memory runs out."""
    cdef KeyMap bigger
    cdef uint64_t i
    if 2 * (m.size + 1) > <int64_t>m.capacity:
        if keymap_init(&bigger, 65 - m.shift) < 0:
            return -1
        for i in range(m.capacity):
            if m.slots[i].key != 0:
                _keymap_place(&bigger, m.slots[i].key, <int>m.slots[i].value)
        keymap_free(m)
        m[0] = bigger
    _keymap_place(m, key, value)
    return 0
