// Chapter 11's scan table and the scan's device memory on every GPU.
#include <algorithm>
#include <cstdint>

#include "algorithm/lookback.hpp"
#include "host/launch.hpp"
#include "sample_sort.hpp"
#include "scan.hpp"

namespace stepwise::multigpu {

template <class Op>
const std::vector<ScanStage<Op>>& scan_stages() {
  static const std::vector<ScanStage<Op>> stages = numbered<ScanStage<Op>>({
      scan_then_add<Op>(),     // stages/scan/01_scan_then_add.cu
      reduce_then_scan<Op>(),  // stages/scan/02_reduce_then_scan.cu
      cub_scan_one_gpu<Op>(),  // stages/scan/lib_cub_scan.cu
  });
  return stages;
}

template <class Op>
std::vector<ScanGpuMemory> make_scan_memory(std::size_t n, int gpus) {
  using T = typename Op::value_type;
  std::vector<ScanGpuMemory> memory;
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    const std::size_t count = part_size(n, gpus, g);
    ScanGpuMemory own;
    own.totals = DeviceBuffer<unsigned char>(static_cast<std::size_t>(gpus) * sizeof(T));
    own.lookback = DeviceBuffer<unsigned char>(std::max<std::size_t>(
        packed_lookback_layout(ceil_div(count, static_cast<std::size_t>(kScanTileItems))).total_bytes, 1));
    std::size_t temp = std::max<std::size_t>(cub_reduce_temp_bytes<Op>(std::max<std::size_t>(count, 1)), 1);
    if (g == 0) temp = std::max(temp, cub_scan_temp_bytes<Op>(std::max<std::size_t>(n, 1)));
    own.temp = DeviceBuffer<unsigned char>(temp);
    memory.push_back(std::move(own));
  }
  return memory;
}

template const std::vector<ScanStage<WrappingSum>>& scan_stages<WrappingSum>();
template const std::vector<ScanStage<FloatSum>>& scan_stages<FloatSum>();
template std::vector<ScanGpuMemory> make_scan_memory<WrappingSum>(std::size_t, int);
template std::vector<ScanGpuMemory> make_scan_memory<FloatSum>(std::size_t, int);

}  // namespace stepwise::multigpu
