/// @file divergence.hpp
/// Chapter 07: branch divergence and thread-data remapping (Zhang, Jiang, Guo and Shen,
/// "Streamlining GPU Applications On the Fly").
///
/// Every row computes the same output: each element's path's work (workload.hpp), step after
/// step, the results in the input's order. The rows differ in which thread does which element:
/// 1-2 the element's own thread; 3 a thread chosen after sorting the elements by path
/// (reference redirection: thread t works on element IND[t]); 4 the elements moved into path
/// order and back (data transformation); 5 only the elements of divergent warps moved;
/// 6 and 7 the remap of the next step computed while this step runs, on the CPU (6) or on the
/// GPU (7); 8 a remap only where a sample says it pays. The remap's cost is inside every row's
/// time. A launcher only enqueues work, except that rows 5 and 8 read one count back to the host
/// (to size a sort, to decide) and row 6 computes its remaps on the host between launches.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/stage.hpp"
#include "inputs.hpp"
#include "workload.hpp"

namespace stepwise::divergence {

/// The device operands of one run of a workload.
template <class W>
struct DivergeArgs {
  using Item = typename W::Item;
  W work;                    ///< the workload's parameters
  const Item* in = nullptr;  ///< n elements, read only
  Item* out = nullptr;       ///< n elements: the result after the last step
  Item* spare = nullptr;     ///< n elements: the other buffer of a multi-step run
  std::size_t n = 0;         ///< elements, below 2^32 (indices are 32-bit)
  unsigned steps = 1;        ///< steps (generations) run one after another
  int* remapped = nullptr;   ///< stage 8 writes whether it remapped here (host memory; may be null)
};

/// The device scratch every row shares, allocated before timing for n elements of
/// @p item_bytes: path keys and indices (two sets, for the pipelined stages), a flag per element,
/// the moved elements, CUB's temporary storage, a few counters, a pinned host mirror of them,
/// the side stream and events of the pipelined stages, and, with @p host_orders, two pinned host
/// arrays of n indices where stage 6 computes its remaps on the CPU.
class RemapScratch {
 public:
  RemapScratch(std::size_t n, std::size_t item_bytes, std::size_t cub_bytes, bool host_orders);
  ~RemapScratch();
  RemapScratch(const RemapScratch&) = delete;
  RemapScratch& operator=(const RemapScratch&) = delete;

  std::uint8_t* keys(int set) { return keys_[set].data(); }
  std::uint8_t* sorted_keys(int set) { return sorted_keys_[set].data(); }
  std::uint32_t* indices(int set) { return indices_[set].data(); }
  std::uint32_t* sorted_indices(int set) { return sorted_indices_[set].data(); }
  /// Set @p set's counts of stage 7's remap: kMaxPaths x kMaxRemapBlocks.
  std::uint32_t* path_counts(int set) { return path_counts_[set].data(); }
  std::uint8_t* flags() { return flags_.data(); }
  /// Room for n elements of the workload's item, twice (moved in, results).
  void* staged() { return staged_.data(); }
  void* staged_results() { return staged_results_.data(); }
  unsigned long long* counters() { return counters_.data(); }
  unsigned long long* host_counters() { return host_counters_; }
  /// Pinned host room for n indices, set 0 or 1 (null unless made with host_orders).
  std::uint32_t* host_order(int set) { return host_orders_[set]; }
  void* cub_storage() { return cub_.data(); }
  std::size_t cub_bytes() const { return cub_.size(); }
  cudaStream_t side_stream() const { return side_; }
  cudaEvent_t event(int k) const { return events_[k]; }
  static constexpr int kCounters = 4;
  static constexpr int kEvents = 8;
  /// The most blocks stage 7's remap runs.
  static constexpr int kMaxRemapBlocks = 4096;

 private:
  DeviceBuffer<std::uint8_t> keys_[2], sorted_keys_[2];
  DeviceBuffer<std::uint32_t> indices_[2], sorted_indices_[2], path_counts_[2];
  DeviceBuffer<std::uint8_t> flags_;
  DeviceBuffer<unsigned char> staged_, staged_results_;
  DeviceBuffer<unsigned long long> counters_;
  DeviceBuffer<unsigned char> cub_;
  unsigned long long* host_counters_ = nullptr;
  std::uint32_t* host_orders_[2] = {};
  cudaStream_t side_ = nullptr;
  cudaEvent_t events_[kEvents] = {};
};

/// What every row is called with.
template <class W>
using DivergeLaunch = void (*)(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape,
                               cudaStream_t stream);
/// A row of the table; its traits (inputs.hpp) say how it arranges the elements and what it does
/// on the host mid-run.
template <class W>
using DivergeStage = Stage<DivergeLaunch<W>, DivergeTraits>;

/// The workloads, named once for every stage file: applies `X(W, ...)` to each (stage.hpp's
/// STEPWISE_STAGE_ROW), joined by `;`.
#define DIVERGENCE_FOR_EACH_WORKLOAD(X, ...) \
  X(Synthetic, __VA_ARGS__);                 \
  X(Mutation, __VA_ARGS__)
/// Instantiates the stage factory `DivergeStage<W> factory<W>()` for each workload: the last line of
/// every stage file whose lesson runs on both (the others instantiate Mutation's row alone).
#define DIVERGENCE_STAGE_ROWS(factory) DIVERGENCE_FOR_EACH_WORKLOAD(STEPWISE_STAGE_ROW, DivergeStage, factory)

/// The table of workload W. Each stage sets its own number, the same in both tables: the
/// synthetic workload has one step, and lacks the stages whose lesson needs steps whose paths
/// are known ahead.
template <class W>
const std::vector<DivergeStage<W>>& diverge_stages();

template <class W>
DivergeStage<W> divergent();  ///< stage 1, stages/01_divergent.cu
template <class W>
DivergeStage<W> branch_light();  ///< stage 2, stages/02_branch_light.cu
template <class W>
DivergeStage<W> redirect();  ///< stage 3, stages/03_redirect.cu
template <class W>
DivergeStage<W> transform();  ///< stage 4, stages/04_transform.cu
template <class W>
DivergeStage<W> partial();  ///< stage 5, stages/05_partial.cu
template <class W>
DivergeStage<W> pipelined_cpu();  ///< stage 6, stages/06_pipelined_cpu.cu
template <class W>
DivergeStage<W> pipelined();  ///< stage 7, stages/07_pipelined.cu
template <class W>
DivergeStage<W> controlled();  ///< stage 8, stages/08_controlled.cu
template <class W>
DivergeStage<W> pipelined_lean();  ///< stage 9, stages/09_pipelined_lean.cu

/// Stage 7's remap, a counting sort by path: the indices of step @p step's elements, stably
/// sorted by their path's slot in @p slots, into @p workspace's sorted_indices(@p set), by
/// @p blocks blocks of 256 threads (1 to RemapScratch::kMaxRemapBlocks), each over a chunk of
/// consecutive elements; the slots are left in keys(@p set). Enqueued on @p stream
/// (stages/07_pipelined.cu).
/// @throws std::invalid_argument for a number of blocks out of range.
template <class W>
void counting_remap(const DivergeArgs<W>& args, RemapScratch& workspace, unsigned step, int set, const PathSlots& slots,
                    unsigned blocks, cudaStream_t stream);

/// Stage 9's remap: bit i of @p workspace's indices(@p set) (as 32-bit words) is set when
/// element i of step @p step takes the costliest path, and those elements' indices are listed in
/// sorted_indices(@p set)[0, path_counts(@p set)[0]), ordered within each tile of 2048 elements,
/// tiles in any order; by at most @p blocks blocks of 256 threads. Enqueued on @p stream
/// (stages/09_pipelined_lean.cu).
/// @throws std::invalid_argument for no blocks.
template <class W>
void lean_remap(const DivergeArgs<W>& args, RemapScratch& workspace, unsigned step, int set, unsigned blocks,
                cudaStream_t stream);

/// CUB's temporary storage for the sorts and selections of @p n elements (asks CUB; needs a GPU).
std::size_t cub_temp_bytes(std::size_t n);

}  // namespace stepwise::divergence
