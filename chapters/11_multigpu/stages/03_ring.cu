// Stage 3: a ring. Stage 2 sent everything through GPU 0's links; a ring uses every GPU's link
// at once. The n elements split into G chunks; in G - 1 reduce-scatter steps each GPU reads one
// chunk of its left neighbour's partial sums straight from the neighbour's memory (peer access),
// adds its own input and keeps the result, so that after them GPU g holds the whole sum of chunk
// g + 1; in G - 1 all-gather steps the finished chunks travel once more around the ring. Each GPU
// receives 2 (G - 1) / G x n elements, under 2n for any G: the least any all-reduce must move per
// GPU (nccl-tests' busbw counts exactly this). Each step is one kernel per GPU; a GPU starts a step
// once its neighbours have finished the previous one (events recorded on their streams, waited on
// from its own). The README's sweep shows busbw near the link's rate at large sizes, and the
// 2 (G - 1) steps' latency at small ones.
#include "allreduce.cuh"
#include "ring.hpp"

namespace stepwise::multigpu {
namespace {

template <class T>
void launch_typed(const AllReduceOperands& ops, const LaunchShape& shape) {
  const DeviceTeam& team = *ops.team;
  const int gpus = team.size();
  if (gpus == 1) {  // one GPU: the sum is its input
    copy_own_input<T>(ops);
    return;
  }
  team.join();  // no GPU writes its output while a neighbour may still read it (the previous all-reduce)
  for (int step = 0; step < ring_steps(gpus); ++step) {
    for (int g = 0; g < gpus; ++g) {
      ScopedDevice device(g);
      const int left = ring_left(g, gpus);
      const cudaStream_t stream = team.stream(g);
      if (step > 0) {  // the neighbours finished the previous step: its result is ready, its reads done
        STEPWISE_CUDA_CHECK(
            cudaStreamWaitEvent(stream, ops.step_events[static_cast<std::size_t>(left) * ops.max_slices], 0));
        STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(
            stream, ops.step_events[static_cast<std::size_t>(ring_right(g, gpus)) * ops.max_slices], 0));
      }
      const RingStep what = ring_step(g, gpus, step);
      const std::size_t first = part_begin(ops.n, gpus, what.receive_chunk);
      const std::size_t count = part_size(ops.n, gpus, what.receive_chunk);
      if (count == 0) continue;  // n < G: this chunk is empty
      const unsigned grid = elementwise_grid(count, shape);
      T* out = at<T>(ops.out[static_cast<std::size_t>(g)], first);
      if (what.reduce) {
        // The left neighbour's partial sum: its input at the first step, its output after.
        const T* partial = step == 0 ? at<T>(ops.in[static_cast<std::size_t>(left)], first)
                                     : at<T>(static_cast<const void*>(ops.out[static_cast<std::size_t>(left)]), first);
        add_ranges<T><<<grid, shape.threads, 0, stream>>>(partial, at<T>(ops.in[static_cast<std::size_t>(g)], first),
                                                          out, count);
      } else {
        copy_range<T><<<grid, shape.threads, 0, stream>>>(
            at<T>(static_cast<const void*>(ops.out[static_cast<std::size_t>(left)]), first), out, count);
      }
      STEPWISE_CHECK_LAUNCH();
    }
    for (int g = 0; g < gpus; ++g) {  // recorded after every GPU's waits for this step were enqueued
      ScopedDevice device(g);
      STEPWISE_CUDA_CHECK(
          cudaEventRecord(ops.step_events[static_cast<std::size_t>(g) * ops.max_slices], team.stream(g)));
    }
  }
}

void launch(const AllReduceOperands& ops, const LaunchShape& shape) {
  require_threads(shape.threads);
  by_element(ops.type, [&](auto value) { launch_typed<decltype(value)>(ops, shape); });
}

}  // namespace

AllReduceStage ring() {
  AllReduceStage stage;
  stage.name = "ring";
  stage.lesson = "reduce-scatter then all-gather around a ring, peer reads: 2(G-1)/G of the data per GPU";
  stage.shape = {256, 0, 8};
  stage.launch = launch;
  stage.traits.traffic = Traffic::ring;
  stage.traits.needs_peer_access = true;
  return stage;
}

}  // namespace stepwise::multigpu
