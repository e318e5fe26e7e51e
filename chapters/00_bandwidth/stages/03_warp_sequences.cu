// Stage 3, warp-stride sequences (the layout of Billeter et al.'s stream compaction).
//
// Changed from stage 2: instead of interleaving with the whole grid, warp w owns the
// contiguous sequence of 32 x items elements starting at w x 32 x items, and walks it 32
// elements at a time, each lane one element: every warp-wide access is one coalesced
// 128-byte line, and no two warps touch the same data, the shape compaction and scan need.
// The source copies one int per lane per step, yet it runs at memcpy speed: with
// __restrict__ pointers the compiler unrolls the loop and issues several loads before the
// first store, so each thread has 16 bytes in flight, as many as one int4 (the SASS is in
// the README).
#include <stdexcept>

#include "bandwidth.hpp"
#include "host/check.hpp"
#include "copy.cuh"
#include "host/launch.hpp"

namespace stepwise::bandwidth {
namespace {

__global__ void copy_warp_sequences(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n,
                                    std::size_t sequence) {
  const std::size_t warp = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t begin = warp * sequence;
  if (begin >= n) return;
  const std::size_t end = begin + sequence < n ? begin + sequence : n;
  for (std::size_t i = begin + lane; i < end; i += 32) out[i] = in[i];
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  if (shape.items < 1) throw std::invalid_argument("warp sequences need at least 1 element per lane");
  if (n == 0) return;
  const std::size_t sequence = 32 * static_cast<std::size_t>(shape.items);
  const std::size_t warps = ceil_div(n, sequence);
  copy_warp_sequences<<<grid_of(ceil_div(warps * 32, shape.threads)), shape.threads, 0, stream>>>(in, out, n, sequence);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

CopyStage warp_sequences() {
  CopyStage stage;
  stage.name = "warp-sequences";
  stage.lesson = "each warp walks its own contiguous sequence (items per lane), coalesced per step";
  stage.shape = {128, 4};
  stage.sweep = shape_grid(kSweepThreads, {4, 16, 64, 256, 1024});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth
