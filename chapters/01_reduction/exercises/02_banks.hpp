/// @file 02_banks.hpp
/// Exercise 01-2 (README.md): the bank conflict of one warp-wide shared-memory access.
#pragma once

#include <vector>

namespace stepwise::reduction::exercises {

/// Your function: the degree of the bank conflict of one warp-wide access to the 4-byte words
/// @p words of shared memory (one word per active lane, at most 32): the wavefronts the access
/// takes. 32 banks, word w in bank w % 32; lanes that read the same word share one broadcast.
/// 1 means conflict free, 0 that no lane is active.
unsigned warp_conflict_degree(const std::vector<unsigned>& words);

}  // namespace stepwise::reduction::exercises
