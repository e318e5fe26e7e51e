// Exercise 07-3, solved: the warps 0, stride, 2 stride, ... (stride 1 up to 2048 warps, else
// warps / 2048, so that a little over 2048 may be read), each its longest lane and its lanes'
// rounds; the saving per warp is (longest - lanes / 32) summed, over the warps read, against 40.
#include <algorithm>

#include "03_sample.hpp"
#include "workload.hpp"

namespace stepwise::divergence::exercises {

SampleAnswer stage8_sample(const std::vector<std::uint8_t>& paths, const std::vector<unsigned>& rounds) {
  const std::size_t warps = (paths.size() + 31) / 32;
  const std::size_t stride = warps > 2048 ? warps / 2048 : 1;
  SampleAnswer sample;
  for (std::size_t warp = 0; warp < warps; warp += stride) {
    std::uint64_t longest = 0;
    for (std::size_t i = warp * 32; i < paths.size() && i < (warp + 1) * 32; ++i) {
      longest = std::max<std::uint64_t>(longest, rounds[paths[i]]);
      sample.lane_rounds += rounds[paths[i]];
    }
    sample.longest_rounds += longest;
    ++sample.warps;
  }
  const double saving = static_cast<double>(sample.longest_rounds) - static_cast<double>(sample.lane_rounds) / 32.0;
  sample.remaps = sample.warps > 0 && saving / static_cast<double>(sample.warps) >= kBreakEvenRounds;
  return sample;
}

}  // namespace stepwise::divergence::exercises
