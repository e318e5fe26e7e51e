// Stage 4, data transformation: move the elements into path order, work, move them back.
//
// Changed from stage 3: instead of reaching each element through the index, the elements are
// gathered into path order first (staged[t] = in[IND[t]]), the work reads and writes staged
// positions t (coalesced: the kernel is the plain one of stage 2 on rearranged data), and the
// results are scattered back to the input's order. The scattered accesses have not gone: they
// are in the gather and the scatter, one pass each, where a kernel does nothing else. This pays
// when the work touches its element many times or its data is larger than a thread's registers;
// for a kernel that reads its element once, as here, it moves the same bytes as stage 3 plus a
// round trip through the staging buffers, and the row shows that cost.
#include "divergence.cuh"

namespace stepwise::divergence {
namespace {

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape, cudaStream_t stream) {
  using Item = typename W::Item;
  require_threads(shape.threads);
  const unsigned blocks = blocks_for(args.n, shape.threads);
  auto* staged = static_cast<Item*>(workspace.staged());
  auto* results = static_cast<Item*>(workspace.staged_results());
  const std::uint32_t* order = workspace.sorted_indices(0);
  for (unsigned step = 0; step < args.steps; ++step) {
    const StepBuffers<W> buffers = step_buffers(args, step);
    classify<<<blocks, shape.threads, 0, stream>>>(args.work, buffers.src, args.n, step, workspace.keys(0),
                                                   workspace.indices(0));
    STEPWISE_CHECK_LAUNCH();
    sort_by_path(workspace, 0, workspace.keys(0), workspace.indices(0), args.n, args.work.paths, stream);
    gather<<<blocks, shape.threads, 0, stream>>>(buffers.src, order, args.n, staged);
    STEPWISE_CHECK_LAUNCH();
    apply_staged<<<blocks, shape.threads, 0, stream>>>(args.work, staged, order, args.n, step, results);
    STEPWISE_CHECK_LAUNCH();
    scatter<<<blocks, shape.threads, 0, stream>>>(results, order, args.n, buffers.dst);
    STEPWISE_CHECK_LAUNCH();
  }
}

}  // namespace

template <class W>
DivergeStage<W> transform() {
  DivergeStage<W> stage;
  stage.name = "transform";
  stage.lesson = "move the elements into path order, work coalesced, move the results back";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 4;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::by_path;
  return stage;
}

DIVERGENCE_STAGE_ROWS(transform);

}  // namespace stepwise::divergence
