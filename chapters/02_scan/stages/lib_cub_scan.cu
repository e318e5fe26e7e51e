// The library row: cub::DeviceScan::ExclusiveSum or InclusiveSum (as --scan), on the same
// buffers, through the same timing and checks as the stages. CUB's scan is the single pass
// with decoupled look-back of stage 7, tuned per GPU architecture. Sums only: the table has
// this row for WrappingAdd and FloatAdd (int32 is scanned as uint32: the same bits, with
// defined wrap-around).
#include <cub/device/device_scan.cuh>

#include <stdexcept>

#include "host/check.hpp"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

const std::uint32_t* as_cub(const std::int32_t* p) { return reinterpret_cast<const std::uint32_t*>(p); }
std::uint32_t* as_cub(std::int32_t* p) { return reinterpret_cast<std::uint32_t*>(p); }
const float* as_cub(const float* p) { return p; }
float* as_cub(float* p) { return p; }

/// CUB takes an int count here: the offset type CUB users pass, and the fastest.
int cub_count(std::size_t n) {
  if (n > kCubMaxN) throw std::invalid_argument("the CUB row takes n <= 2^31 - 1 (int offsets)");
  return static_cast<int>(n);
}

/// One CUB call: with @p temp null, sets @p temp_bytes to the storage CUB needs and runs nothing.
template <class T>
void run_cub(const T* in, T* out, std::size_t n, ScanKind kind, void* temp, std::size_t& temp_bytes,
             cudaStream_t stream) {
  if (kind == ScanKind::exclusive)
    STEPWISE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, as_cub(in), as_cub(out), cub_count(n), stream));
  else
    STEPWISE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, as_cub(in), as_cub(out), cub_count(n), stream));
}

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape&, cudaStream_t stream) {
  workspace.require(n, sizeof(typename Op::value_type));
  if (n == 0) return;
  std::size_t bytes = workspace.bytes();
  run_cub(in, out, n, options.kind, workspace.data(), bytes, stream);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class Op>
std::size_t cub_scan_temp_bytes(std::size_t n) {
  std::size_t most = 0;
  for (ScanKind kind : {ScanKind::exclusive, ScanKind::inclusive}) {
    std::size_t bytes = 0;
    run_cub<typename Op::value_type>(nullptr, nullptr, n, kind, nullptr, bytes, nullptr);
    most = bytes > most ? bytes : most;
  }
  return most;
}

template <class Op>
ScanStage<Op> library_cub_scan() {
  ScanStage<Op> stage;
  stage.name = "cub";
  stage.lesson = "cub::DeviceScan::ExclusiveSum / InclusiveSum (as --scan), same data, same timing";
  stage.kind = RowKind::library;
  stage.launch = launch<Op>;
  return stage;
}

template std::size_t cub_scan_temp_bytes<WrappingAdd>(std::size_t);
template std::size_t cub_scan_temp_bytes<FloatAdd>(std::size_t);
template ScanStage<WrappingAdd> library_cub_scan<WrappingAdd>();
template ScanStage<FloatAdd> library_cub_scan<FloatAdd>();

}  // namespace stepwise::scan
