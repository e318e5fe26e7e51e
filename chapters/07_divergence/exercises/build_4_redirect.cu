// Exercise 07-4: build stage 3, reference redirection, from stage 2 (README.md, "07-4").
//
// Stage 3's lesson (stages/03_redirect.cu): give a warp elements of one path. Stage 2's thread i
// works on element i, so a warp holding elements of several paths runs as long as its costliest
// lane. Here each element's path is computed first, the (path, index) pairs are sorted by path
// (a stable radix sort: sort_by_path, written for you, because the lesson is the remap, not the
// sort), and thread t then works on element IND[t], wherever it lies. Consecutive threads hold
// elements of one path, so a warp pays one path's cost. Nothing is moved: the work reads and writes
// each element at its own place, through the index, which costs scattered accesses and the sort's
// passes, all of them in the time.
//
// Start from stage 2 (stages/02_branch_light.cu and apply_own in divergence.cuh, whose thread i
// computes dst[i] = work.apply(src[i], work.path(src[i], i, step), i, step)). Write label_paths
// and apply_through_index below: the launcher, the sort and the row are written. Then delete the
// first line of exercise_07_4_stage() and grade it on a GPU with
// `ctest --test-dir build -R exercise-07-4 --output-on-failure`.
#include "build_4_redirect.hpp"
#include "divergence.cuh"
#include "host/check.hpp"
#include "host/exercise.hpp"
#include "host/launch.hpp"

namespace stepwise::divergence::exercises {
namespace {

/// The sort's input: keys[i] = element i's path in step @p step (path_of reads the element only
/// where its path depends on it), indices[i] = i, for i in [0, n). One thread per element; the
/// last block may run past n.
template <class W>
__global__ void label_paths(W work, const typename W::Item* src, std::size_t n, unsigned step, std::uint8_t* keys,
                            std::uint32_t* indices) {
  // TODO: this thread's element i (global_thread()), nothing past n; its path as a byte, its index.
}

/// Reference redirection: thread t works on element i = order[t] (the indices sorted by path),
/// in place: dst[i] = the work on src[i], its path and its own index i (the mutation's random
/// stream depends on i, not t), for t in [0, n).
template <class W>
__global__ void apply_through_index(W work, const typename W::Item* src, typename W::Item* dst,
                                    const std::uint32_t* order, std::size_t n, unsigned step) {
  // TODO: t, nothing past n; i = order[t]; read src[i] once; write dst[i] with work.apply and work.path.
}

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  const unsigned blocks = blocks_for(args.n, shape.threads);
  for (unsigned step = 0; step < args.steps; ++step) {
    const StepBuffers<W> buffers = step_buffers(args, step);
    label_paths<<<blocks, shape.threads, 0, stream>>>(args.work, buffers.src, args.n, step, workspace.keys(0),
                                                      workspace.indices(0));
    STEPWISE_CHECK_LAUNCH();
    sort_by_path(workspace, 0, workspace.keys(0), workspace.indices(0), args.n, args.work.paths, stream);
    apply_through_index<<<blocks, shape.threads, 0, stream>>>(args.work, buffers.src, buffers.dst,
                                                              workspace.sorted_indices(0), args.n, step);
    STEPWISE_CHECK_LAUNCH();
  }
}

}  // namespace

template <class W>
DivergeStage<W> exercise_07_4_stage() {
  // Delete the next line once label_paths and apply_through_index are written: until then the
  // grader stops here.
  not_done_yet("07-4", "apply_through_index", __FILE__);
  DivergeStage<W> stage;
  stage.name = "redirect";
  stage.lesson = "sort (path, index) pairs by path, thread t works on element IND[t]: warps of one path";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 3;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::by_path;
  return stage;
}

DIVERGENCE_STAGE_ROWS(exercise_07_4_stage);

}  // namespace stepwise::divergence::exercises
