// Stage 2 of the ticket table, warp-aggregated by hand: one atomicAdd per warp.
//
// Changed from stage 1: the lanes that keep a value vote (__ballot_sync), the lowest of them
// adds the number of voters (__popc) to the counter, broadcasts the base it got back
// (__shfl_sync), and each lane writes at base + the number of voters below it. The atomics on
// the counter drop 32-fold for a warp that keeps everything (about 16-fold here, where half
// the values pass). That is the classic optimization of the filter, and the SASS of stage 1
// shows that nvcc now does the same by itself when every lane uses one address: the two rows
// should time alike. The hand-written form still matters where the compiler cannot see a
// uniform address, or where the per-warp base is needed for more than one store (chapter
// 06's compaction writes several values per lane from one ticket). warp_ticket is in
// common/device/warp_aggregate.cuh.
#include "atomics.hpp"
#include "device/warp_aggregate.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"

namespace stepwise::atomics {
namespace {

__global__ void ticket_warp(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                            unsigned long long* __restrict__ counter, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Lanes past n stay: warp_ticket's vote needs the whole warp.
  const std::int32_t value = i < n ? in[i] : 0;
  const std::int64_t slot = warp_ticket(counter, i < n && keeps(value));
  if (slot >= 0) out[slot] = value;
}

void launch(const std::int32_t* in, std::int32_t* out, unsigned long long* counter, std::size_t n,
            const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof(*counter), stream));
  if (n == 0) return;
  ticket_warp<<<grid_of(ceil_div(n, shape.threads)), shape.threads, 0, stream>>>(in, out, counter,
                                                                                 static_cast<std::int64_t>(n));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

TicketStage ticket_warp_aggregated() {
  TicketStage stage;
  stage.name = "warp-aggregated";
  stage.lesson = "ballot + popc: one atomicAdd per warp, the base broadcast by a shuffle";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512, 1024});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::atomics
