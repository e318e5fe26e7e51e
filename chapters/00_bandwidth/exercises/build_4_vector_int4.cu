// Exercise 00-4: build stage 5, int4 vectors, from stage 4 (README.md, "00-4").
//
// Stage 5's lesson (stages/05_vector_int4.cu): 16 bytes per instruction (LDG.128 / STG.128), the
// widest access a thread can issue: a quarter of stage 2's memory instructions, and 16 bytes in
// flight per outstanding load, which is what Little's law asks of 2048 threads per SM.
//
// Start from stage 4 (stages/04_vector_int2.cu), whose kernel copies int2 pairs over a grid-stride
// loop and leaves the last element of an odd n to copy_tail (copy.cuh). Write copy_vector4 below:
// the launcher and the row are written, and the launcher has checked that both pointers are 16-byte
// aligned. Then delete the first line of exercise_00_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-00-4 --output-on-failure`.
#include "build_4_vector_int4.hpp"
#include "copy.cuh"
#include "host/check.hpp"
#include "host/exercise.hpp"
#include "host/launch.hpp"

namespace stepwise::bandwidth::exercises {
namespace {

/// Copies @p n int32 from @p in to @p out, for any n >= 0: the whole grid moves n / 4 int4 vectors
/// in a grid-stride loop, then the n % 4 elements left over.
__global__ void copy_vector4(const std::int32_t* __restrict__ in, std::int32_t* __restrict__ out, std::size_t n) {
  // TODO: stage 4's loop over int4 instead of int2: how many vectors, and where does the tail start?
}

void launch(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  require_aligned(in, 16);
  require_aligned(out, 16);
  const unsigned grid = resident_grid(shape);
  if (n == 0) return;
  copy_vector4<<<grid, shape.threads, 0, stream>>>(in, out, n);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

CopyStage exercise_00_4_stage() {
  // Delete the next line once copy_vector4 is written: until then the grader stops here.
  not_done_yet("00-4", "copy_vector4", __FILE__);
  CopyStage stage;
  stage.name = "vector-int4";
  stage.lesson = "16-byte loads and stores: a quarter of the instructions";
  stage.shape = {1024, 0, 32};
  stage.sweep = shape_grid(kSweepThreads, {}, kSweepBlocksPerSm);
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::bandwidth::exercises
