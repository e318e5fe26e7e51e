// Exercise 11-3, solved: each part sorted and sampled at sample_position, the samples packed with
// their global positions and sorted, splitter j the valid sample at splitter_rank(j); each part's
// bucket boundaries counted by bucket_boundary, one per splitter.
#include "03_sample_sort.hpp"

#include <algorithm>

namespace stepwise::multigpu::exercises {

SampleSortPrediction predicted_sample_sort(const std::vector<std::uint32_t>& keys, int gpus, int samples) {
  const std::size_t n = keys.size();
  std::vector<std::vector<std::uint32_t>> parts(static_cast<std::size_t>(gpus));
  std::vector<std::uint64_t> gathered;
  for (int g = 0; g < gpus; ++g) {
    std::vector<std::uint32_t>& part = parts[static_cast<std::size_t>(g)];
    part.assign(keys.begin() + static_cast<std::ptrdiff_t>(part_begin(n, gpus, g)),
                keys.begin() + static_cast<std::ptrdiff_t>(part_begin(n, gpus, g + 1)));
    std::sort(part.begin(), part.end());
    for (int i = 0; i < samples; ++i) {
      if (part.empty()) {
        gathered.push_back(kNoSample);
      } else {
        const std::size_t position = sample_position(part.size(), samples, i);
        gathered.push_back(pack_sample(part[position], part_begin(n, gpus, g) + position));
      }
    }
  }
  std::sort(gathered.begin(), gathered.end());
  const auto valid = static_cast<std::size_t>(
      std::count_if(gathered.begin(), gathered.end(), [](std::uint64_t sample) { return sample != kNoSample; }));
  SampleSortPrediction prediction;
  if (valid > 0)
    for (int j = 1; j < gpus; ++j) prediction.splitters.push_back(gathered[splitter_rank(j, valid, gpus)]);
  for (int g = 0; g < gpus; ++g) {
    const std::vector<std::uint32_t>& part = parts[static_cast<std::size_t>(g)];
    std::size_t previous = 0;
    for (int d = 0; d < gpus; ++d) {
      const std::size_t boundary =
          d + 1 < gpus && valid > 0
              ? bucket_boundary(part.data(), part.size(), part_begin(n, gpus, g), prediction.splitters[d])
              : part.size();
      prediction.counts.push_back(boundary - previous);
      previous = boundary;
    }
  }
  return prediction;
}

}  // namespace stepwise::multigpu::exercises
