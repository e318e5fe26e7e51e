// Scan stage 2, reduce then scan: the offset is known before the scan, so the scan writes the
// final values at once. Each GPU first reduces its part (cub::DeviceReduce: a read of the part,
// chapter 01's subject), the G totals travel by ncclAllGather as in stage 1, and each GPU runs
// chapter 02's single-pass scan with the sum of the totals before it folded into every tile's
// prefix (scan.cuh's seed). Changed from stage 1: the add pass is fused into the scan, so each
// value is read twice and written once, 3n bytes instead of 4n. The AllGather now sits between
// the two passes instead of after them, still a latency of G values.
#include <cub/device/device_reduce.cuh>

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
    if (count > 0) {
      std::size_t bytes = own.temp.size();
      STEPWISE_CUDA_CHECK(cub::DeviceReduce::Reduce(own.temp.data(), bytes, ops.in[static_cast<std::size_t>(g)],
                                                    totals + g, count, Op{}, Op::identity(), team.stream(g)));
    } else {
      STEPWISE_CUDA_CHECK(cudaMemsetAsync(totals + g, 0, sizeof(T), team.stream(g)));
    }
  }
  STEPWISE_NCCL_CHECK(ncclGroupStart());
  for (int g = 0; g < gpus; ++g) {
    T* totals = reinterpret_cast<T*>(memory[static_cast<std::size_t>(g)].totals.data());
    STEPWISE_NCCL_CHECK(ncclAllGather(totals + g, totals, sizeof(T), ncclUint8, ops.comms[static_cast<std::size_t>(g)],
                                      team.stream(g)));
  }
  STEPWISE_NCCL_CHECK(ncclGroupEnd());
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    ScanGpuMemory& own = memory[static_cast<std::size_t>(g)];
    launch_seeded_scan<Op>(ops.in[static_cast<std::size_t>(g)], ops.out[static_cast<std::size_t>(g)],
                           part_size(ops.n, gpus, g), own.lookback.data(),
                           reinterpret_cast<const T*>(own.totals.data()), g, team.stream(g));
  }
}

}  // namespace

template <class Op>
std::size_t cub_reduce_temp_bytes(std::size_t n) {
  using T = typename Op::value_type;
  std::size_t bytes = 0;
  STEPWISE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, static_cast<const T*>(nullptr),
                                                static_cast<T*>(nullptr), n, Op{}, Op::identity()));
  return bytes;
}

template <class Op>
ScanStage<Op> reduce_then_scan() {
  ScanStage<Op> stage;
  stage.name = "reduce-then-scan";
  stage.lesson = "each GPU reduces, the totals are all-gathered, the scan starts from the offset: 3n/G traffic a GPU";
  stage.launch = launch<Op>;
  stage.traits.accesses = 3;
  return stage;
}

template std::size_t cub_reduce_temp_bytes<WrappingSum>(std::size_t);
template std::size_t cub_reduce_temp_bytes<FloatSum>(std::size_t);
template ScanStage<WrappingSum> reduce_then_scan<WrappingSum>();
template ScanStage<FloatSum> reduce_then_scan<FloatSum>();

}  // namespace stepwise::multigpu
