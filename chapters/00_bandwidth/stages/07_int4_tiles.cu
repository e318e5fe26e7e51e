// Stage 7, int4 tiles: what the sweep of stages 1-6 points to.
//
// Changed from stage 6: no loop. Block b owns the contiguous tile of VECTORS x threads int4
// starting at b x tile, issues all VECTORS loads (each coalesced across the warp) before its
// first store, and exits: no loop-carried index arithmetic, a grid as large as the array
// (as in stage 1) with stage 5's 16-byte width. The sweep chooses VECTORS; the README shows
// that many short blocks reach cudaMemcpy's bandwidth.
#include "bandwidth.hpp"
#include "host/check.hpp"
#include "copy.cuh"
#include "host/dispatch.hpp"
#include "host/launch.hpp"

namespace stepwise::bandwidth {
namespace {

/// The tile widths compiled in: int4 loads per thread.
using Vectors = IntList<1, 2, 4, 8>;

template <int VECTORS>
__global__ void copy_vector4_tiles(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  const std::size_t quads = n / 4;
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  const std::size_t tile_begin = static_cast<std::size_t>(blockIdx.x) * blockDim.x * VECTORS + threadIdx.x;
  int4 values[VECTORS];
#pragma unroll
  for (int v = 0; v < VECTORS; ++v) {
    const std::size_t i = tile_begin + static_cast<std::size_t>(v) * blockDim.x;
    if (i < quads) values[v] = in4[i];
  }
#pragma unroll
  for (int v = 0; v < VECTORS; ++v) {
    const std::size_t i = tile_begin + static_cast<std::size_t>(v) * blockDim.x;
    if (i < quads) out4[i] = values[v];
  }
  copy_tail(in, out, quads * 4, n);
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  require_aligned(in, 16);
  require_aligned(out, 16);
  dispatch(shape.items, Vectors{}, "int4 per thread", [&](auto vectors) {
    constexpr int kVectors = decltype(vectors)::value;
    if (n == 0) return;
    const unsigned grid = grid_of(ceil_div(n / 4, static_cast<std::size_t>(kVectors) * shape.threads));
    copy_vector4_tiles<kVectors><<<grid, shape.threads, 0, stream>>>(in, out, n);  // block 0 also copies the tail
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

CopyStage int4_tiles() {
  CopyStage stage;
  stage.name = "int4-tiles";
  stage.lesson = "each block copies one contiguous tile, all its int4 loads in flight, no loop";
  stage.shape = {256, 1};
  stage.sweep = shape_grid(kSweepThreads, Vectors::values());
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth
