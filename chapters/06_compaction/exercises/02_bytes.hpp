/// @file 02_bytes.hpp
/// Exercise 06-2 (README.md): the bytes each stage moves through device memory, and what a
/// second pass costs.
#pragma once

#include <cstdint>

#include "traits.hpp"

namespace stepwise::compaction::exercises {

/// What the bytes of a compaction depend on.
struct CompactionInput {
  std::uint64_t n = 0;     ///< elements: int32 (or float32) keys, 4 bytes each
  std::uint64_t kept = 0;  ///< the elements that pass the test
  bool by_flags = false;   ///< the Flagged form: a flag byte per element is read besides the key, and is the test
  bool payload = false;    ///< an int32 value travels with each key: read with it, written with it when kept
};

/// Your function: the bytes a stage whose cost model is @p cost (traits.hpp's SelectCost, set in
/// the stage's file) moves through device memory on @p input: the input read once, the kept
/// elements written once, each further pass's reading of the test bytes (the keys, or the flag
/// bytes), the counts of its @p blocks blocks (a fixed grid) and, for a look-back stage, 16 bytes
/// per tile of @p tile elements (its ticket and its status word, written and read).
double bytes_moved(const CompactionInput& input, const SelectCost& cost, std::uint64_t tile, double blocks);

}  // namespace stepwise::compaction::exercises
