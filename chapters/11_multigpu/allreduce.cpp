// The chapter's table, in teaching order, and its CPU reference.
#include "allreduce.hpp"

#include <algorithm>
#include <cmath>

#include "ring.hpp"

namespace stepwise::multigpu {

const std::vector<AllReduceStage>& allreduce_stages() {
  static const std::vector<AllReduceStage> table = numbered<AllReduceStage>({
      host_staged(),        // stages/01_host_staged.cu
      peer_copies(),        // stages/02_peer_copies.cu
      ring(),               // stages/03_ring.cu
      pipelined_ring(),     // stages/04_pipelined_ring.cu
      library_allreduce(),  // stages/lib_nccl_allreduce.cu
  });
  return table;
}

int slices_for(const AllReduceTraits& traits, std::uint64_t n, int gpus, std::size_t element_bytes) {
  if (traits.slice_bytes == 0) return 1;
  const std::uint64_t largest_chunk = part_size(n, gpus, 0);  // the first chunk is never smaller than another
  return pipeline_slices(largest_chunk, std::max<std::uint64_t>(traits.slice_bytes / element_bytes, 1),
                         traits.max_slices);
}

std::vector<std::int32_t> allreduce_on_cpu(const std::vector<std::vector<std::int32_t>>& inputs) {
  std::vector<std::int32_t> sums(inputs.front().size(), 0);
  for (const auto& input : inputs)
    for (std::size_t i = 0; i < sums.size(); ++i) sums[i] = sum_of(sums[i], input[i]);
  return sums;
}

void allreduce_on_cpu(const std::vector<std::vector<float>>& inputs, std::vector<double>& sums,
                      std::vector<double>& scales) {
  sums.assign(inputs.front().size(), 0.0);
  scales.assign(inputs.front().size(), 0.0);
  for (const auto& input : inputs)
    for (std::size_t i = 0; i < sums.size(); ++i) {
      sums[i] += static_cast<double>(input[i]);
      scales[i] += std::fabs(static_cast<double>(input[i]));
    }
}

double float_tolerance(int gpus) {
  const double ku = (gpus - 1) * std::ldexp(1.0, -24);
  return ku / (1.0 - ku);
}

}  // namespace stepwise::multigpu
