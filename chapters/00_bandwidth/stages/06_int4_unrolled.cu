// Stage 6, int4 with four loads in flight per thread.
//
// Changed from stage 5: stage 5's loop issues one load and must wait for it before the
// store, so each thread has 16 bytes outstanding. Here each thread issues UNROLL = 4
// independent 16-byte loads, then the four stores: four times the bytes in flight per
// thread (Little's law: bandwidth = bytes in flight / latency), so a quarter of the
// resident threads can reach the same bandwidth. When stage 5's threads already cover the
// latency, this is no faster, only leaner: the README's sweep shows which it is.
#include <stdexcept>

#include "bandwidth.hpp"
#include "host/check.hpp"
#include "copy.cuh"
#include "host/launch.hpp"

namespace stepwise::bandwidth {
namespace {

constexpr int kUnroll = 4;

template <int UNROLL>
__global__ void copy_vector4_unrolled(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                                      std::size_t n) {
  const std::size_t quads = n / 4;
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < quads; i += UNROLL * stride) {
    int4 values[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) values[u] = in4[i + u * stride];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) out4[i + u * stride] = values[u];
  }
  for (; i < quads; i += stride) out4[i] = in4[i];
  copy_tail(in, out, quads * 4, n);
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  require_aligned(in, 16);
  require_aligned(out, 16);
  if (shape.items != kUnroll) throw std::invalid_argument("this stage keeps exactly 4 int4 loads in flight");
  const unsigned grid = resident_grid(shape);
  if (n == 0) return;
  copy_vector4_unrolled<kUnroll><<<grid, shape.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

CopyStage int4_unrolled() {
  CopyStage stage;
  stage.name = "int4-unrolled";
  stage.lesson = "four independent 16-byte loads in flight per thread before the stores";
  stage.shape = {128, kUnroll, 4};
  stage.sweep = shape_grid(kSweepThreads, {kUnroll}, kSweepBlocksPerSm);
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth
