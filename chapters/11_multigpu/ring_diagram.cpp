// The ring-steps diagram's data: stage 3's ring replayed on the host with ring.hpp's schedule, the
// partial sums each step leaves.
#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

#include "analysis.hpp"
#include "ring.hpp"

namespace stepwise::multigpu {
namespace {

/// The union of two sorted lists of GPUs, sorted.
std::vector<int> merged(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> sum;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(sum));
  return sum;
}

}  // namespace

RingDiagram ring_diagram(int gpus) {
  if (gpus < 1 || gpus > kMaxDiagramGpus)
    throw std::invalid_argument("the ring of " + std::to_string(gpus) + " GPUs: 1 to " +
                                std::to_string(kMaxDiagramGpus));
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  RingDiagram ring;
  ring.gpus = gpus;
  ring.start.assign(g_count, std::vector<std::vector<int>>(g_count));
  for (int g = 0; g < gpus; ++g) {
    for (std::vector<int>& chunk : ring.start[static_cast<std::size_t>(g)]) chunk = {g};
    ring.owned.push_back(ring_owned_chunk(g, gpus));
  }
  RingHoldings holds = ring.start;
  for (int s = 0; s < ring_steps(gpus); ++s) {
    RingDiagramStep step;
    const RingHoldings before = holds;  // every GPU reads what its neighbour held before this step
    for (int g = 0; g < gpus; ++g) {
      const RingStep what = ring_step(g, gpus, s);
      const int left = ring_left(g, gpus);
      step.reduce = what.reduce;
      step.moves.push_back({g, left, what.receive_chunk, ring_right(g, gpus), what.send_chunk});
      const std::vector<int>& partial =
          before[static_cast<std::size_t>(left)][static_cast<std::size_t>(what.receive_chunk)];
      holds[static_cast<std::size_t>(g)][static_cast<std::size_t>(what.receive_chunk)] =
          what.reduce ? merged(partial, {g}) : partial;
    }
    step.holds = holds;
    ring.steps.push_back(std::move(step));
  }
  return ring;
}

}  // namespace stepwise::multigpu
