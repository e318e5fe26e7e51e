// Stage 2, int4 vectors in a grid-stride loop.
//
// Changed from stage 1: every load and store moves 16 bytes (an int4: four elements, one
// LDG.128 / STG.128), so a quarter of stage 1's memory instructions move the same bytes, and a
// thread issues VT of those loads before it stores the first result (VT, the shape's items, is
// a template parameter: the loads of one trip stay in registers). The grid is sized to the GPU
// (blocks_per_sm blocks on every SM), not to n, and the threads walk the array by the grid's
// size with 64-bit indices: any n runs on the same grid. The n % 4 elements after the last full
// int4 are squared one per thread (the scalar tail). An int4 access needs 16-byte aligned
// pointers: require_aligned refuses any other before the launch instead of faulting.
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "square.hpp"

namespace stepwise::square {
namespace {

/// The int4 loads a thread keeps in flight per trip (the shape's items): the compiled VT.
using Vectors = IntList<1, 2, 4>;

__device__ __forceinline__ int4 square4(int4 v) {
  return make_int4(square_wrapping(v.x), square_wrapping(v.y), square_wrapping(v.z), square_wrapping(v.w));
}

template <int VT>
__global__ void square_int4_grid_stride(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out,
                                        std::size_t n) {
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  const std::size_t quads = n / 4;
  const std::size_t tile = static_cast<std::size_t>(blockDim.x) * VT;  // the int4 one block squares per trip
  const std::size_t stride = tile * gridDim.x;
  for (std::size_t first = blockIdx.x * tile + threadIdx.x; first < quads; first += stride) {
    int4 v[VT];
#pragma unroll
    for (int k = 0; k < VT; ++k)  // VT loads in flight, a warp's 32 lanes on 512 consecutive bytes each
      if (first + k * blockDim.x < quads) v[k] = in4[first + k * blockDim.x];
#pragma unroll
    for (int k = 0; k < VT; ++k)
      if (first + k * blockDim.x < quads) out4[first + k * blockDim.x] = square4(v[k]);
  }
  const std::size_t tail = quads * 4 + static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tail < n) out[tail] = square_wrapping(in[tail]);  // the scalar tail: n % 4 elements
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  require_aligned(in, 16);
  require_aligned(out, 16);
  const unsigned grid = resident_grid(shape);
  dispatch(shape.items, Vectors{}, "int4 per thread", [&](auto vectors) {
    if (n == 0) return;
    square_int4_grid_stride<decltype(vectors)::value><<<grid, shape.threads, 0, stream>>>(in, out, n);
    STEPWISE_CHECK_LAUNCH();
  });
}

}  // namespace

SquareStage int4_grid_stride() {
  SquareStage stage;
  stage.name = "int4-grid-stride";
  stage.lesson = "int4 loads, VT in flight, a grid-stride loop: a quarter of the instructions";
  stage.shape = {256, 2, 8};
  stage.sweep = shape_grid({256, 512}, Vectors::values(), {4, 8});
  stage.launch = launch;
  stage.traits.elements_per_load = 4;
  stage.traits.grid_stride = true;
  return stage;
}

}  // namespace stepwise::square
