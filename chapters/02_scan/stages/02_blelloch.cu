// Stage 2, Blelloch: the work-efficient tree.
//
// Changed from stage 1: each block of 256 threads scans 512 elements with Blelloch's
// up-sweep/down-sweep tree, O(n) operations where stage 1 does O(n log n), and each thread
// owns two elements, so the same data needs half the blocks; the recursion over the block
// totals is stage 1's. Less work is not less time: the tree takes 2 x log2(512) barrier
// steps, leaves most threads idle near the root, and its strided indices conflict in
// shared memory. The README's tables measure it slower than stage 1; the next stages drop
// the tree and keep each thread's work in registers.
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

constexpr LaunchShape kShape{256};

/// One block of NT threads scans 2*NT elements with Blelloch's work-efficient tree: an
/// up-sweep builds partial sums in place (2*NT - 1 operations), the root is replaced by the
/// identity, and a down-sweep pushes prefixes back down (another 2*NT - 1). Writes the
/// exclusive or inclusive scan of its elements and, if @p block_totals is not null, the
/// block's total.
template <int NT, class Op>
__global__ void __launch_bounds__(NT)
    blelloch_block_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                        typename Op::value_type* block_totals, bool exclusive) {
  using T = typename Op::value_type;
  static_assert((NT & (NT - 1)) == 0 && NT >= 32 && NT <= 1024, "the tree needs a power-of-two NT");
  constexpr int kItems = 2 * NT;
  const Op op;
  __shared__ T tree[kItems];
  const int t = threadIdx.x;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kItems;
  const T low = base + t < n ? in[base + t] : Op::identity();
  const T high = base + t + NT < n ? in[base + t + NT] : Op::identity();
  tree[t] = low;
  tree[t + NT] = high;

  int stride = 1;
  for (int active = NT; active > 0; active /= 2) {  // up-sweep: right child = left op right
    __syncthreads();
    if (t < active) {
      const int right = stride * (2 * t + 2) - 1;
      tree[right] = op(tree[right - stride], tree[right]);
    }
    stride *= 2;
  }
  if (t == 0) {
    if (block_totals != nullptr) block_totals[blockIdx.x] = tree[kItems - 1];
    tree[kItems - 1] = Op::identity();
  }
  for (int active = 1; active <= NT; active *= 2) {  // down-sweep: left gets the parent's prefix,
    stride /= 2;                                     // right gets parent prefix op left subtree
    __syncthreads();
    if (t < active) {
      const int right = stride * (2 * t + 2) - 1;
      const T left_total = tree[right - stride];
      tree[right - stride] = tree[right];
      tree[right] = op(tree[right], left_total);
    }
  }
  __syncthreads();
  if (base + t < n) out[base + t] = exclusive ? tree[t] : op(tree[t], low);
  if (base + t + NT < n) out[base + t + NT] = exclusive ? tree[t + NT] : op(tree[t + NT], high);
}

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  using T = typename Op::value_type;
  constexpr int NT = kShape.threads;
  require_shape(shape, kShape);
  workspace.require(n, sizeof(T));
  scan_then_propagate<Op, 2 * NT>(
      in, out, n, options.kind == ScanKind::exclusive, static_cast<T*>(workspace.data()),
      [stream](const T* from, T* to, std::size_t count, T* totals, bool exclusive, unsigned grid) {
        blelloch_block_scan<NT, Op><<<grid, NT, 0, stream>>>(from, to, count, totals, exclusive);
        STEPWISE_CHECK_LAUNCH();
      },
      [stream](T* to, std::size_t count, const T* prefixes, unsigned grid) {
        add_block_prefixes<NT, 2 * NT, Op><<<grid, NT, 0, stream>>>(to, count, prefixes);
        STEPWISE_CHECK_LAUNCH();
      });
}

}  // namespace

template <class Op>
ScanStage<Op> blelloch() {
  ScanStage<Op> stage;
  stage.name = "blelloch";
  stage.lesson = "work-efficient up-sweep/down-sweep per block: O(n) operations, half the threads";
  stage.shape = kShape;
  stage.launch = launch<Op>;
  return stage;
}

template ScanStage<WrappingAdd> blelloch<WrappingAdd>();
template ScanStage<FloatAdd> blelloch<FloatAdd>();
template ScanStage<ComposeAffine> blelloch<ComposeAffine>();

}  // namespace stepwise::scan
