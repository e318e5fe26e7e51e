// Stage 6, pipelined on the CPU, as the paper does it: the host computes the remap of step k+1
// while the GPU runs step k.
//
// Changed from stage 3: in the mutation workload a generation's paths are random draws that do
// not depend on the genomes, so the remap of generation k+1 needs nothing from generation k. The
// paper (on a Tesla C1060) hides the remap on the CPU: while the GPU runs generation k, the host
// computes the next generation's paths and the index array IND (here a counting sort by path on
// every core, order_on_host), copies it to the GPU on a second stream, and generation k+1 starts
// once it has arrived. Only the first generation's remap is exposed, if the CPU and the bus keep
// up with the GPU. The row shows whether they do: the host must draw 2^24 paths and write 64 MiB
// of indices, and the bus must carry them, in the time the GPU takes for a generation.
//
// Napkin math (2^24 individuals, 10 % mutating): 64 MiB of indices over PCIe at about 25-50 GB/s
// is 1.3-2.7 ms a generation, before the CPU has drawn a single path (2^24 draws and a counting
// sort, two passes over 64 MiB, on 16 cores: several milliseconds more); the GPU's generation,
// once remapped, takes about 1 ms. The host cannot keep up.
#include "divergence.cuh"
#include "inputs.hpp"

namespace stepwise::divergence {
namespace {

/// Enqueues on @p side the copy of the host's remap, set @p set, to the device's set @p set, and
/// records @p ready there.
void upload_order(RemapScratch& workspace, int set, std::size_t n, cudaStream_t side, cudaEvent_t ready) {
  STEPWISE_CUDA_CHECK(cudaMemcpyAsync(workspace.sorted_indices(set), workspace.host_order(set),
                                      n * sizeof(std::uint32_t), cudaMemcpyHostToDevice, side));
  STEPWISE_CUDA_CHECK(cudaEventRecord(ready, side));
}

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape, cudaStream_t stream) {
  static_assert(!W::kPathReadsItem, "a pipelined remap needs paths that do not depend on the previous step");
  require_threads(shape.threads);
  if (args.n == 0) return;
  cudaStream_t side = workspace.side_stream();
  const cudaEvent_t start = workspace.event(0);
  const cudaEvent_t ready[2] = {workspace.event(1), workspace.event(2)};     // a set's indices are on the device
  const cudaEvent_t released[2] = {workspace.event(3), workspace.event(4)};  // a set's last reader is done
  for (const cudaEvent_t uploaded : ready) STEPWISE_CUDA_CHECK(cudaEventSynchronize(uploaded));  // a run before
  STEPWISE_CUDA_CHECK(cudaEventRecord(start, stream));
  STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(side, start, 0));      // earlier work on the stream may read set 0
  order_on_host(args.work, args.n, 0, workspace.host_order(0));  // the first remap: exposed
  upload_order(workspace, 0, args.n, side, ready[0]);
  for (unsigned step = 0; step < args.steps; ++step) {
    const int set = static_cast<int>(step % 2);
    const int next = 1 - set;
    const StepBuffers<W> buffers = step_buffers(args, step);
    STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(stream, ready[set], 0));
    apply_redirected<<<blocks_for(args.n, shape.threads), shape.threads, 0, stream>>>(
        args.work, buffers.src, buffers.dst, workspace.sorted_indices(set), args.n, step);
    STEPWISE_CHECK_LAUNCH();
    STEPWISE_CUDA_CHECK(cudaEventRecord(released[set], stream));
    if (step + 1 < args.steps) {
      // The host writes set `next` once its last upload (for step - 1) has left it; the device's
      // set `next` is overwritten once step - 1's kernel has read it. Meanwhile the GPU runs step.
      if (step >= 1) STEPWISE_CUDA_CHECK(cudaEventSynchronize(ready[next]));
      order_on_host(args.work, args.n, step + 1, workspace.host_order(next));
      if (step >= 1) STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(side, released[next], 0));
      upload_order(workspace, next, args.n, side, ready[next]);
    }
  }
}

}  // namespace

template <class W>
DivergeStage<W> pipelined_cpu() {
  DivergeStage<W> stage;
  stage.name = "pipelined-cpu";
  stage.lesson = "the paper's pipeline: the CPU computes the next step's remap and copies it while the GPU works";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 6;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::by_path;
  stage.traits.host_work = HostWork::computes_remaps;
  stage.synchronizes = true;  // host work between launches
  return stage;
}

template DivergeStage<Mutation> pipelined_cpu<Mutation>();

}  // namespace stepwise::divergence
