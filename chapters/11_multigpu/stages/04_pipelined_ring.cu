// Stage 4: a pipelined ring. In stage 3 a GPU starts step s once its neighbours have finished the
// whole of step s - 1: at every step the ring waits for its slowest GPU, and one step's fixed cost
// (a launch, a wait across GPUs) is paid 2 (G - 1) times in series. Here each chunk is cut into
// slices (4 MiB each, larger where a chunk would need more than 8), and the ring runs slice by
// slice: a GPU may take slice p of step s as soon as its neighbours have finished slice p of step
// s - 1 (one event per GPU and slice), so a GPU works on step s while its neighbours still finish
// step s - 1, and the steps overlap. The bytes are the ring's; what changes is how long the GPUs
// wait for each other. The README's sweep compares it with stage 3 across sizes (at small sizes a
// chunk is one slice and the two are the same stage): with one stream per GPU, a GPU runs its
// slices of step s before any of step s + 1, so the overlap stays between neighbours, and at 1 GiB
// the extra slices' fixed costs outweigh it (measured slower than stage 3; the README's fit shows
// why).
#include "allreduce.cuh"
#include "ring.hpp"

namespace stepwise::multigpu {
namespace {

constexpr std::uint64_t kSliceBytes = std::uint64_t{4} << 20;
constexpr int kMaxSlices = 8;

template <class T>
void launch_typed(const AllReduceOperands& ops, const LaunchShape& shape, int slices) {
  const DeviceTeam& team = *ops.team;
  const int gpus = team.size();
  if (gpus == 1) {  // one GPU: the sum is its input
    copy_own_input<T>(ops);
    return;
  }
  auto event = [&](int g, int slice) {
    return ops.step_events[static_cast<std::size_t>(g) * ops.max_slices + static_cast<std::size_t>(slice)];
  };
  team.join();  // no GPU writes its output while a neighbour may still read it (the previous all-reduce)
  for (int step = 0; step < ring_steps(gpus); ++step) {
    for (int slice = 0; slice < slices; ++slice) {
      for (int g = 0; g < gpus; ++g) {
        ScopedDevice device(g);
        const int left = ring_left(g, gpus);
        const cudaStream_t stream = team.stream(g);
        if (step > 0) {  // only this slice of the previous step, not the whole step
          STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(stream, event(left, slice), 0));
          STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(stream, event(ring_right(g, gpus), slice), 0));
        }
        const RingStep what = ring_step(g, gpus, step);
        const std::size_t chunk_first = part_begin(ops.n, gpus, what.receive_chunk);
        const std::size_t chunk = part_size(ops.n, gpus, what.receive_chunk);
        const std::size_t first = chunk_first + part_begin(chunk, slices, slice);
        const std::size_t count = part_size(chunk, slices, slice);
        if (count == 0) continue;  // n < G x slices: this slice is empty
        const unsigned grid = elementwise_grid(count, shape);
        T* out = at<T>(ops.out[static_cast<std::size_t>(g)], first);
        if (what.reduce) {
          const T* partial = step == 0
                                 ? at<T>(ops.in[static_cast<std::size_t>(left)], first)
                                 : at<T>(static_cast<const void*>(ops.out[static_cast<std::size_t>(left)]), first);
          add_ranges<T><<<grid, shape.threads, 0, stream>>>(partial, at<T>(ops.in[static_cast<std::size_t>(g)], first),
                                                            out, count);
        } else {
          copy_range<T><<<grid, shape.threads, 0, stream>>>(
              at<T>(static_cast<const void*>(ops.out[static_cast<std::size_t>(left)]), first), out, count);
        }
        STEPWISE_CHECK_LAUNCH();
      }
      for (int g = 0; g < gpus; ++g) {  // recorded after every GPU's waits for this slice were enqueued
        ScopedDevice device(g);
        STEPWISE_CUDA_CHECK(cudaEventRecord(event(g, slice), team.stream(g)));
      }
    }
  }
}

void launch(const AllReduceOperands& ops, const LaunchShape& shape) {
  require_threads(shape.threads);
  AllReduceTraits traits;
  traits.slice_bytes = kSliceBytes;
  traits.max_slices = kMaxSlices;
  const int slices = slices_for(traits, ops.n, ops.team->size(), ops.element_bytes());
  if (slices > ops.max_slices) throw std::logic_error("pipelined ring: more slices than step events");
  by_element(ops.type, [&](auto value) { launch_typed<decltype(value)>(ops, shape, slices); });
}

}  // namespace

AllReduceStage pipelined_ring() {
  AllReduceStage stage;
  stage.name = "pipelined-ring";
  stage.lesson = "the ring in slices, each waiting only for its own slice of the previous step: the steps overlap";
  stage.shape = {256, 0, 8};
  stage.launch = launch;
  stage.traits.traffic = Traffic::pipelined_ring;
  stage.traits.needs_peer_access = true;
  stage.traits.slice_bytes = kSliceBytes;
  stage.traits.max_slices = kMaxSlices;
  return stage;
}

}  // namespace stepwise::multigpu
