// Stage 1, Hillis–Steele: the textbook parallel scan, one element per thread.
//
// Each block of 256 threads scans 256 consecutive elements with the Hillis–Steele ladder in
// shared memory: log2(256) = 8 steps, a barrier after each, and at step d every thread
// t >= 2^d adds: 1,793 operations for 256 elements (O(n log n) work, but 88 % of the
// thread-steps busy). The block totals are scanned by the same kernel, recursively, and added
// back (scan_then_propagate in scan.cuh): every element is read and written twice, 4n
// traffic. This is the baseline the later stages are measured against; the README's tables
// show where its time goes.
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

constexpr LaunchShape kShape{256};

/// One block scans NT consecutive elements, one per thread, with the Hillis–Steele ladder:
/// at step d every thread adds the value 2^d places to its left. An in-place version
/// (x[t] += x[t - d] on one array) would race: a thread could read its neighbour after the
/// neighbour has already added. Here each step reads one buffer and writes the other.
/// Writes the exclusive or inclusive scan of its elements and, if @p block_totals is not
/// null, the block's total.
template <int NT, class Op>
__global__ void __launch_bounds__(NT)
    hillis_steele_block_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                             typename Op::value_type* block_totals, bool exclusive) {
  using T = typename Op::value_type;
  static_assert(NT % 32 == 0 && NT <= 1024, "NT must be a multiple of 32, at most 1024");
  const Op op;
  __shared__ T buffers[2][NT];
  const int t = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * NT + t;
  buffers[0][t] = i < n ? in[i] : Op::identity();
  __syncthreads();
  int current = 0;
  for (int offset = 1; offset < NT; offset *= 2) {
    T value = buffers[current][t];
    if (t >= offset) value = op(buffers[current][t - offset], value);
    buffers[current ^ 1][t] = value;
    current ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = exclusive ? (t == 0 ? Op::identity() : buffers[current][t - 1]) : buffers[current][t];
  if (block_totals != nullptr && t == NT - 1) block_totals[blockIdx.x] = buffers[current][NT - 1];
}

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  using T = typename Op::value_type;
  constexpr int NT = kShape.threads;
  require_shape(shape, kShape);
  workspace.require(n, sizeof(T));
  scan_then_propagate<Op, NT>(
      in, out, n, options.kind == ScanKind::exclusive, static_cast<T*>(workspace.data()),
      [stream](const T* from, T* to, std::size_t count, T* totals, bool exclusive, unsigned grid) {
        hillis_steele_block_scan<NT, Op><<<grid, NT, 0, stream>>>(from, to, count, totals, exclusive);
        STEPWISE_CHECK_LAUNCH();
      },
      [stream](T* to, std::size_t count, const T* prefixes, unsigned grid) {
        add_block_prefixes<NT, NT, Op><<<grid, NT, 0, stream>>>(to, count, prefixes);
        STEPWISE_CHECK_LAUNCH();
      });
}

}  // namespace

template <class Op>
ScanStage<Op> hillis_steele() {
  ScanStage<Op> stage;
  stage.name = "hillis-steele";
  stage.lesson = "Hillis–Steele in shared memory per block (n log n work), totals scanned recursively";
  stage.shape = kShape;
  stage.launch = launch<Op>;
  return stage;
}

SCAN_STAGE_ROWS(hillis_steele);

}  // namespace stepwise::scan
