# Exact sums over the finals of a split (see _exact_sums.pyx).
from libc.stdint cimport uint64_t
from libcpp.vector cimport vector

from ev.core._dealer cimport DealerTable
from ev.core._split_finals cimport Cell

cdef object exact_split_cells(DealerTable table, const int* d0, vector[uint64_t]& unions, vector[Cell]& cells)
cdef object exact_cell_sums(DealerTable table, const int* d0, vector[uint64_t]& unions, vector[Cell]& cells,
                            vector[int]& cell_of, int n_out)
