// Stage 2: through GPU 0. The host leaves the path: every other GPU's buffer travels to GPU 0
// with cudaMemcpyPeerAsync (straight over NVLink or PCIe when cudaDeviceCanAccessPeer allows
// peer access, which the run enables and reports; through the host otherwise), GPU 0 adds the G
// buffers in one kernel, and the sum travels back to every GPU the same way. Nothing waits for
// the host, but GPU 0's links carry everything: it receives (G - 1) x n elements and sends
// (G - 1) x n, while the other GPUs' links idle half the time. The README's busbw column shows it
// falling as G grows.
#include "allreduce.cuh"

namespace stepwise::multigpu {
namespace {

template <class T>
void launch_typed(const AllReduceOperands& ops, const LaunchShape& shape) {
  const DeviceTeam& team = *ops.team;
  const int gpus = team.size();
  const std::size_t bytes = ops.n * sizeof(T);
  team.join();  // GPU 0 starts once every GPU is done with its buffers
  ScopedDevice root(0);
  const cudaStream_t stream = team.stream(0);
  for (int g = 1; g < gpus; ++g)  // gather: GPU g's input into GPU 0's slot g - 1
    STEPWISE_CUDA_CHECK(cudaMemcpyPeerAsync(at<T>(ops.root_gather, static_cast<std::size_t>(g - 1) * ops.n), 0,
                                            ops.in[static_cast<std::size_t>(g)], g, bytes, stream));
  add_gathered<T><<<elementwise_grid(ops.n, shape), shape.threads, 0, stream>>>(
      at<T>(ops.in[0], 0), at<T>(static_cast<const void*>(ops.root_gather), 0), gpus - 1, at<T>(ops.out[0], 0), ops.n);
  STEPWISE_CHECK_LAUNCH();
  for (int g = 1; g < gpus; ++g)  // broadcast: GPU 0's sum to every other GPU
    STEPWISE_CUDA_CHECK(cudaMemcpyPeerAsync(ops.out[static_cast<std::size_t>(g)], g, ops.out[0], 0, bytes, stream));
  team.join();  // every GPU's stream waits for its copy of the sum
}

void launch(const AllReduceOperands& ops, const LaunchShape& shape) {
  require_threads(shape.threads);
  by_element(ops.type, [&](auto value) { launch_typed<decltype(value)>(ops, shape); });
}

}  // namespace

AllReduceStage peer_copies() {
  AllReduceStage stage;
  stage.name = "through-gpu0";
  stage.lesson = "peer copies to GPU 0, one kernel adds, peer copies back: no host, but GPU 0's links carry it all";
  stage.shape = {256, 0, 8};
  stage.launch = launch;
  stage.traits.traffic = Traffic::through_root;
  stage.traits.needs_root_gather = true;
  return stage;
}

}  // namespace stepwise::multigpu
