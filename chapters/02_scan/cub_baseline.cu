// The library row: cub::DeviceScan on the same buffers, through the same harness.
#include <cub/device/device_scan.cuh>

#include <climits>
#include <cstdint>
#include <stdexcept>

#include "check.hpp"
#include "scan_stages.hpp"

namespace stepwise::scan {
namespace {

// int32 sums are scanned as uint32: the same bits, with defined wrap-around.
const std::uint32_t* as_cub(const std::int32_t* p) { return reinterpret_cast<const std::uint32_t*>(p); }
std::uint32_t* as_cub(std::int32_t* p) { return reinterpret_cast<std::uint32_t*>(p); }
const float* as_cub(const float* p) { return p; }
float* as_cub(float* p) { return p; }

/// CUB takes an int count here: the offset type CUB users pass, and the fastest.
int cub_count(std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("the CUB row takes n <= 2^31 - 1 (int offsets)");
  return static_cast<int>(n);
}

template <class T>
void run_cub(const T* in, T* out, std::size_t n, ScanKind kind, void* temp, std::size_t& temp_bytes,
             cudaStream_t stream) {
  if (kind == ScanKind::exclusive)
    STEPWISE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, as_cub(in), as_cub(out), cub_count(n), stream));
  else
    STEPWISE_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, as_cub(in), as_cub(out), cub_count(n), stream));
}

}  // namespace

template <class Op>
std::size_t cub_scan_temp_bytes(std::size_t n, ScanKind kind) {
  std::size_t bytes = 0;
  run_cub<typename Op::value_type>(nullptr, nullptr, n, kind, nullptr, bytes, nullptr);
  return bytes;
}

template <class Op>
void cub_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind, void* temp,
              std::size_t temp_bytes, cudaStream_t stream) {
  if (n == 0) return;
  std::size_t bytes = temp_bytes;
  run_cub(in, out, n, kind, temp, bytes, stream);
  STEPWISE_CHECK_LAUNCH();
}

template std::size_t cub_scan_temp_bytes<WrappingAdd>(std::size_t, ScanKind);
template std::size_t cub_scan_temp_bytes<FloatAdd>(std::size_t, ScanKind);
template void cub_scan<WrappingAdd>(const std::int32_t*, std::int32_t*, std::size_t, ScanKind, void*, std::size_t,
                                    cudaStream_t);
template void cub_scan<FloatAdd>(const float*, float*, std::size_t, ScanKind, void*, std::size_t, cudaStream_t);

}  // namespace stepwise::scan
