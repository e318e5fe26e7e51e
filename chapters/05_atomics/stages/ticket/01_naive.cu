// Stage 1 of the ticket table, naive: out[atomicAdd(counter, 1)] = value for every kept value.
//
// Every lane that keeps its value takes the next free slot with its own atomicAdd on the one
// counter. One address for the whole grid is the worst case for atomics (they serialize in
// the L2 slice that owns it), and it was the case that warp-aggregated atomics were invented
// for. But the address is the same in every lane, and nvcc sees it: since CUDA 9 it compiles
// this atomicAdd into a vote of the lanes that take part, one atomicAdd of their count by the
// lowest of them, a shuffle of the result and a popc of the lanes below
// (`cuobjdump -sass`: VOTEU.ANY, FLO, POPC, ATOMG, SHFL.IDX), which is stage 2 written by
// hand. The README shows the SASS and the times.
#include "atomics.hpp"
#include "host/check.hpp"
#include "host/launch.hpp"

namespace stepwise::atomics {
namespace {

__global__ void ticket_each(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                            unsigned long long* __restrict__ counter, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const std::int32_t value = in[i];
    if (keeps(value)) out[atomicAdd(counter, 1ull)] = value;
  }
}

void launch(const std::int32_t* in, std::int32_t* out, unsigned long long* counter, std::size_t n,
            const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof(*counter), stream));
  if (n == 0) return;
  ticket_each<<<grid_of(ceil_div(n, shape.threads)), shape.threads, 0, stream>>>(in, out, counter,
                                                                                 static_cast<std::int64_t>(n));
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

TicketStage ticket_naive() {
  TicketStage stage;
  stage.name = "naive";
  stage.lesson = "one atomicAdd on the counter per kept value (which nvcc already aggregates per warp)";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512, 1024});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::atomics
