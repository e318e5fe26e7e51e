/// @file 02_expansion.hpp
/// Exercise 08-2 (README.md): the load-balancing search, each output row's object and rank.
#pragma once

#include <cstdint>
#include <vector>

namespace stepwise::join::exercises {

/// The columns of the expansion (inputs.hpp's JoinColumns, its output columns).
struct OutputColumns {
  std::vector<std::int32_t> objects;  ///< per output row: the object that emits it (LBS)
  std::vector<std::int32_t> ranks;    ///< per output row: its rank among that object's rows (RANK)
};

/// Your function: the load-balancing search over @p offsets, the exclusive scan of the objects'
/// counts with one more entry, the row total (08-1's `offsets`): for each output row 0 .. total - 1,
/// the object it belongs to and its rank in it. Objects that emit no row repeat an offset.
OutputColumns expand(const std::vector<std::int32_t>& offsets);

}  // namespace stepwise::join::exercises
