/// @file 03_sample_sort.hpp
/// Exercise 11-3 (README.md): the splitters and the G x G bucket counts of the distributed sample sort of a
/// small input, as sort_plan.hpp's replay_sample_sort (the kernels' arithmetic, sample_sort.hpp) computes them.
#pragma once

#include <cstdint>
#include <vector>

#include "sample_sort.hpp"

namespace stepwise::multigpu::exercises {

/// The plan of one sample sort: its splitters and who sends how many keys to whom.
struct SampleSortPrediction {
  /// The G - 1 splitters, each a (key, global position) pair packed by pack_sample; empty when n = 0.
  std::vector<std::uint64_t> splitters;
  /// counts[g * G + d]: the keys of GPU g's part that go to GPU d (its bucket d).
  std::vector<std::uint64_t> counts;
};

/// Your function: the splitters and bucket counts of the sample sort of @p keys over @p gpus GPUs with
/// @p samples samples per GPU. GPU g holds the part [part_begin(n, G, g), part_begin(n, G, g + 1)) of @p keys
/// and sorts it; its sample i is the key at sample_position(part size, s, i) of the sorted part, paired with that
/// key's global position (the part's first index plus the position); a GPU with an empty part sends kNoSample
/// slots. Sorted, the valid samples give splitter j (1 <= j < G) at splitter_rank(j, valid, G). Bucket d of a
/// part holds its keys that sort, by (key, global position), at or after splitter d - 1 and before splitter d.
SampleSortPrediction predicted_sample_sort(const std::vector<std::uint32_t>& keys, int gpus, int samples);

}  // namespace stepwise::multigpu::exercises
