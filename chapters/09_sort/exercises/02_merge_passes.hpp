/// @file 02_merge_passes.hpp
/// Exercise 09-2 (README.md): a merge sort's passes and the key bytes it moves, as --analyze counts them.
#pragma once

#include <cstdint>

namespace stepwise::sort::exercises {

/// What --analyze prints for one merge row: its global merge passes and the bytes of keys it reads and writes.
struct MergeSortCount {
  std::uint64_t passes = 0;     ///< merge passes after the first runs are sorted
  std::uint64_t key_bytes = 0;  ///< bytes of keys read and written over the whole sort
};

/// Your function: the passes and key bytes of a merge sort of @p n keys of @p key_bytes bytes each whose
/// first merge pass starts from sorted runs of @p first_run keys. With @p first_run = 1 there is no block
/// sort (merge stage 1: pairwise, from runs of one key); with @p first_run > 1 a block sort first sorts each
/// tile of @p first_run keys on chip, reading and writing every key once. Every merge pass reads and writes
/// every key once (the partition searches' few extra loads are not counted).
MergeSortCount predicted_merge_sort(std::uint64_t n, std::uint64_t first_run, std::uint64_t key_bytes);

}  // namespace stepwise::sort::exercises
