// Stage 7, thread runs: eight consecutive keys per thread, runs of equal keys added up in
// registers, and only each thread's last run aggregated across the warp.
//
// Changed from stage 6: stages 1-6 give each lane one key per step, so every key costs the
// step's instructions (a load, a match or a vote, the sub-tree's shuffles) even when nothing
// needs aggregating: with every key equal, stage 6 does one shared-memory atomic per warp and
// still runs at a fifth of a memcpy. Here a thread loads 8 consecutive keys (two 16-byte loads,
// and its values likewise), walks them once, and adds each run of equal keys into a register:
// a key equal to the one before costs a compare and an add. A run that ends inside the 8 keys
// gets its own atomic (on the shared-memory bins, or the global ones when they do not fit); the
// thread's last run, which may continue in the next lane's keys, is aggregated with the warp's
// other last runs by stage 4's match and sub-tree. All-equal keys: one atomic per warp per 256
// keys. Random keys over many bins: one atomic per key, as stage 6's skipping warps do, plus a
// match per 8 keys.
#include "atomics.cuh"

namespace stepwise::atomics {
namespace {

static_assert(kKeysPerThread == 8, "load_keys loads 8 keys as two 16-byte vectors");

/// Loads the @p kKeysPerThread keys (and values) from @p first: vector loads when all are in
/// range, else one at a time, with kNoKey and a zero value past n.
template <class Op>
__device__ __forceinline__ void load_keys(const Key* keys, const typename Op::Value* values, std::int64_t n,
                                          std::int64_t first, Key (&key)[kKeysPerThread],
                                          typename Op::Value (&value)[kKeysPerThread]) {
  using Value = typename Op::Value;
  if (first + kKeysPerThread <= n) {
    const int4* key_vectors = reinterpret_cast<const int4*>(keys + first);
    const int4 low = key_vectors[0];
    const int4 high = key_vectors[1];
    const Key loaded[kKeysPerThread] = {low.x, low.y, low.z, low.w, high.x, high.y, high.z, high.w};
#pragma unroll
    for (int i = 0; i < kKeysPerThread; ++i) key[i] = loaded[i];
    if constexpr (Op::kHasValues) {
      // 32 bytes of floats or 64 of doubles, as 16-byte vectors.
      constexpr int kPerVector = 16 / static_cast<int>(sizeof(Value));
      const int4* value_vectors = reinterpret_cast<const int4*>(values + first);
#pragma unroll
      for (int v = 0; v < kKeysPerThread / kPerVector; ++v) {
        const int4 bits = value_vectors[v];
        Value unpacked[kPerVector];
        memcpy(unpacked, &bits, sizeof bits);
#pragma unroll
        for (int c = 0; c < kPerVector; ++c) value[v * kPerVector + c] = unpacked[c];
      }
    } else {
#pragma unroll
      for (int i = 0; i < kKeysPerThread; ++i) value[i] = 1;
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < kKeysPerThread; ++i) {
    const bool in_range = first + i < n;
    key[i] = in_range ? keys[first + i] : kNoKey;
    value[i] = in_range ? value_of<Op>(values, first + i) : Value(0);
  }
}

/// Every chunk of blockDim.x x kKeysPerThread keys the block owns (grid-stride), into @p bins.
template <class Op>
__device__ __forceinline__ void thread_runs(const Key* keys, const typename Op::Value* values, std::int64_t n,
                                            typename Op::Bin* bins) {
  using Value = typename Op::Value;
  const std::int64_t chunk = static_cast<std::int64_t>(blockDim.x) * kKeysPerThread;
  // The loop's bounds are the same in every lane of a block, so whole warps reach the match.
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * chunk; base < n;
       base += static_cast<std::int64_t>(gridDim.x) * chunk) {
    Key key[kKeysPerThread];
    Value value[kKeysPerThread];
    load_keys<Op>(keys, values, n, base + static_cast<std::int64_t>(threadIdx.x) * kKeysPerThread, key, value);
    Key run_key = key[0];
    Value run_sum = value[0];
#pragma unroll
    for (int i = 1; i < kKeysPerThread; ++i) {
      if (key[i] == run_key) {
        run_sum += value[i];
      } else {
        if (run_key != kNoKey) atomic_update<Op>(bins + run_key, run_sum);
        run_key = key[i];
        run_sum = value[i];
      }
    }
    aggregate_into<Op>(bins, run_key, run_sum, run_key != kNoKey);
  }
}

template <class Op>
__global__ void histogram_runs_shared(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                      typename Op::Bin* __restrict__ bins, std::int64_t n, int bin_count) {
  typename Op::Bin* local = privatized_bins<Op>(bin_count);
  thread_runs<Op>(keys, values, n, local);
  merge_private_bins<Op>(local, bins, bin_count);
}

template <class Op>
__global__ void histogram_runs_global(const Key* __restrict__ keys, const typename Op::Value* __restrict__ values,
                                      typename Op::Bin* __restrict__ bins, std::int64_t n) {
  thread_runs<Op>(keys, values, n, bins);
}

template <class Op>
void launch(const Key* keys, const typename Op::Value* values, typename Op::Bin* bins, std::size_t n, int bin_count,
            Workspace&, const LaunchShape& shape, cudaStream_t stream) {
  require_aligned(keys, 16);
  if constexpr (Op::kHasValues) require_aligned(values, 16);
  launch_privatized<Op>(histogram_runs_shared<Op>, histogram_runs_global<Op>, keys, values, bins, n, bin_count, shape,
                        stream);
}

}  // namespace

template <class Op>
HistogramStage<Op> histogram_thread_runs() {
  HistogramStage<Op> stage;
  stage.name = "thread-runs";
  stage.lesson = "8 consecutive keys per thread, runs of equal keys added in registers, the last run aggregated";
  stage.shape = {512};
  stage.sweep = shape_grid({256, 512, 1024});
  stage.launch = launch<Op>;
  stage.traits.privatizes_in_shared = true;
  stage.traits.atomics = AtomicsModel::per_thread_runs;
  stage.traits.detail = AnalysisDetail::thread_runs;
  return stage;
}

HISTOGRAM_STAGE_ROWS(histogram_thread_runs);

}  // namespace stepwise::atomics
