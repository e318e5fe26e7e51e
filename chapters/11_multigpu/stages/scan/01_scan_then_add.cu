// Scan stage 1, scan then add: each GPU scans its own part with chapter 02's single-pass scan,
// as if it were alone; then the G part totals (the last value of each part's scan) travel by
// one ncclAllGather of one value per GPU, and each GPU adds the sum of the totals before it to
// every value of its part. The data never leaves its GPU: the exchange is G values, a latency,
// not a bandwidth. The price is the second pass, a read and a write of the part after the
// scan's read and write: 4n bytes per value moved where one GPU alone moves 2n. On G GPUs each
// moves 4n/G, so the stage can beat one GPU only where 2/G of the traffic plus the AllGather's
// latency is below one GPU's time; stage 2 removes the second pass.
#include <cstdint>

#include "host/check.hpp"
#include "nccl_check.hpp"
#include "sample_sort.hpp"
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::multigpu {
namespace {

template <class Op>
void launch(const ScanOperands<Op>& ops, const LaunchShape&) {
  using T = typename Op::value_type;
  const DeviceTeam& team = *ops.team;
  const int gpus = team.size();
  std::vector<ScanGpuMemory>& memory = *ops.memory;
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    const std::size_t count = part_size(ops.n, gpus, g);
    ScanGpuMemory& own = memory[static_cast<std::size_t>(g)];
    T* totals = reinterpret_cast<T*>(own.totals.data());
    T* out = ops.out[static_cast<std::size_t>(g)];
    launch_seeded_scan<Op>(ops.in[static_cast<std::size_t>(g)], out, count, own.lookback.data(), nullptr, g,
                           team.stream(g));
    // The part's total is its scan's last value (the identity, 0, for an empty part).
    if (count > 0)
      STEPWISE_CUDA_CHECK(
          cudaMemcpyAsync(totals + g, out + count - 1, sizeof(T), cudaMemcpyDeviceToDevice, team.stream(g)));
    else
      STEPWISE_CUDA_CHECK(cudaMemsetAsync(totals + g, 0, sizeof(T), team.stream(g)));
  }
  STEPWISE_NCCL_CHECK(ncclGroupStart());
  for (int g = 0; g < gpus; ++g) {
    T* totals = reinterpret_cast<T*>(memory[static_cast<std::size_t>(g)].totals.data());
    STEPWISE_NCCL_CHECK(ncclAllGather(totals + g, totals, sizeof(T), ncclUint8, ops.comms[static_cast<std::size_t>(g)],
                                      team.stream(g)));
  }
  STEPWISE_NCCL_CHECK(ncclGroupEnd());
  for (int g = 1; g < gpus; ++g) {
    const ScopedDevice device(g);
    const T* totals = reinterpret_cast<const T*>(memory[static_cast<std::size_t>(g)].totals.data());
    launch_add_offset<Op>(ops.out[static_cast<std::size_t>(g)], part_size(ops.n, gpus, g), totals, g, team.stream(g));
  }
}

}  // namespace

template <class Op>
ScanStage<Op> scan_then_add() {
  ScanStage<Op> stage;
  stage.name = "scan-then-add";
  stage.lesson = "each GPU scans its part, the totals are all-gathered, each GPU adds its offset: 4n/G traffic a GPU";
  stage.launch = launch<Op>;
  stage.traits.accesses = 4;
  return stage;
}

template ScanStage<WrappingSum> scan_then_add<WrappingSum>();
template ScanStage<FloatSum> scan_then_add<FloatSum>();

}  // namespace stepwise::multigpu
