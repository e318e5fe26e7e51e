/// @file reduction.hpp
/// Chapter 01: parallel reduction, from Harris's kernel 1 to a single-pass kernel that
/// competes with cub::DeviceReduce::Sum.
///
/// Every stage reduces @p n values at @p in to ONE value written to @p out[0], with every
/// pass it needs (per-block partial sums, then passes over the partials) enqueued on
/// @p stream. All are correct for any n >= 0 (n = 0 writes the identity, 0), at every shape
/// they accept, and index with 64 bits.
///
/// Element types: `std::uint32_t` and `float`. The chapter's int32 data is summed as uint32
/// (two's complement, wrapping mod 2^32): that addition is associative and commutative, so
/// every stage, whatever its order of additions, must give the bit-exact sum the CPU
/// computes, and no signed overflow (undefined behaviour) ever happens.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "addressing.hpp"
#include "host/device_buffer.hpp"
#include "host/dispatch.hpp"
#include "host/stage.hpp"

namespace stepwise::reduction {

/// Threads per block every stage supports: powers of two from 64 (the last-warp step of
/// stages 6 to 8 reads sdata[tid + 32]) to 1024 (the hardware limit). Stages 7 and 8
/// compile one kernel for each.
using Blocks = IntList<64, 128, 256, 512, 1024>;

/// The fewest resident threads per SM a grid-sized stage (8 to 12) runs with: threads x
/// blocks_per_sm of its shape. The float tolerance (reduce_reference.hpp) counts on it.
inline constexpr int kMinThreadsPerSm = 512;
/// The most resident threads per SM a grid-sized stage runs with: the hardware's limit.
inline constexpr int kMaxThreadsPerSm = 2048;

/// Device workspace of the reductions of up to @p capacity elements: two ping-pong buffers
/// of per-block partial sums, the last-block counter of the single-pass stage (zero between
/// runs), and the temporary storage of cub::DeviceReduce::Sum. Allocated once, before any
/// timing: the launchers allocate nothing.
template <class T>
class ReduceWorkspace {
 public:
  explicit ReduceWorkspace(std::size_t capacity);

  /// @throws std::invalid_argument when @p n is more than the capacity it was built for.
  void require_capacity(std::size_t n) const;
  /// Partial sums: buffer 0 holds ceil(capacity / 64) (one per block of the smallest block
  /// size), buffer 1 the partials of those.
  DeviceBuffer<T>& partials(int which) { return which == 0 ? first_ : second_; }
  unsigned int* counter() { return counter_.data(); }
  void* cub_storage() { return cub_storage_.data(); }
  std::size_t cub_storage_bytes() const { return cub_storage_.size(); }

 private:
  std::size_t capacity_;
  DeviceBuffer<T> first_;
  DeviceBuffer<T> second_;
  DeviceBuffer<unsigned int> counter_;
  DeviceBuffer<unsigned char> cub_storage_;
};

/// The temporary storage cub::DeviceReduce::Sum needs for @p n elements (stages/lib_cub_reduce.cu).
template <class T>
std::size_t cub_sum_storage_bytes(std::size_t n);

/// What every stage of the chapter is called with.
template <class T>
using ReduceLaunch = void (*)(const T* in, T* out, std::size_t n, ReduceWorkspace<T>& workspace,
                              const LaunchShape& shape, cudaStream_t stream);
/// What the chapter reads about a stage beyond StageInfo, set in the stage's own file.
struct ReduceTraits {
  /// The shared-memory tree this stage's kernel walks, when --analyze replays it (addressing.hpp):
  /// set by the stage that introduces the scheme, so that the analysis names that stage.
  std::optional<Addressing> replayed_tree;
};

/// A row of the chapter's table. Its `options` lists `--block` when --block sets its threads
/// per block (with_block).
template <class T>
using ReduceStage = Stage<ReduceLaunch<T>, ReduceTraits>;

/// The element types the chapter sums, named once for every stage file: applies `X(T, ...)` to each
/// (stage.hpp's STEPWISE_STAGE_ROW, STEPWISE_KEYED_FUNCTION), joined by `;`.
#define REDUCTION_FOR_EACH_TYPE(X, ...) \
  X(std::uint32_t, __VA_ARGS__);        \
  X(float, __VA_ARGS__)
/// Instantiates the stage factory `ReduceStage<T> factory<T>()` for each element type: the last
/// line of every stage file.
#define REDUCTION_STAGE_ROWS(factory) REDUCTION_FOR_EACH_TYPE(STEPWISE_STAGE_ROW, ReduceStage, factory)

/// The chapter's table: stages 1 to 12 in teaching order, then CUB.
template <class T>
const std::vector<ReduceStage<T>>& reduce_stages();

/// The rows, one per file in stages/ (the file named after the stage holds its kernel).
template <class T>
ReduceStage<T> interleaved_divergent();
template <class T>
ReduceStage<T> interleaved_divergent_mask();
template <class T>
ReduceStage<T> interleaved_strided();
template <class T>
ReduceStage<T> sequential();
template <class T>
ReduceStage<T> first_add();
template <class T>
ReduceStage<T> unroll_last_warp();
template <class T>
ReduceStage<T> complete_unroll();
template <class T>
ReduceStage<T> multiple_per_thread();
template <class T>
ReduceStage<T> warp_shuffle();
template <class T>
ReduceStage<T> vectorized();
template <class T>
ReduceStage<T> large_blocks();
template <class T>
ReduceStage<T> single_pass();
template <class T>
ReduceStage<T> library_cub_reduce();

/// @throws std::invalid_argument unless @p shape.threads is one of Blocks.
void require_block(const LaunchShape& shape);
/// require_block, and @throws std::invalid_argument unless the shape's threads per SM
/// (threads x blocks_per_sm) is in [kMinThreadsPerSm, kMaxThreadsPerSm].
void require_resident_threads(const LaunchShape& shape);

/// The sweep of stages 1 to 7: every block size of Blocks.
std::vector<LaunchShape> block_sweep();
/// The sweep of the grid-sized stages 8, 9, 11 and 12 (stage 10 keeps stage 9's shape):
/// every block size of Blocks with 512, 1024 and 2048 threads per SM (as blocks_per_sm), the
/// block no larger than the threads per SM.
std::vector<LaunchShape> resident_sweep();

/// @p shape with @p block threads per block (`--block`): a grid-sized shape keeps its
/// threads per SM, so its blocks_per_sm becomes threads per SM / @p block.
LaunchShape with_block(const LaunchShape& shape, int block);

}  // namespace stepwise::reduction
