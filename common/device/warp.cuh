/// @file warp.cuh
/// Warp primitives: shuffles of any 4k-byte value, and warp-wide reduce and scan.
///
/// Every function here is warp-synchronous through the `*_sync` intrinsics with the full
/// mask: all 32 lanes of the warp must call it together (converged), as on Volta and later,
/// where lanes are scheduled independently, nothing else guarantees.
#pragma once

#include <cstdint>
#include <cstring>

namespace stepwise {

/// The mask of a full warp: every lane takes part.
inline constexpr unsigned kFullWarp = 0xffffffffu;

/// The lanes of this thread's warp below it (bit l set for every lane l < this lane), for
/// ranking a lane among the voters of a ballot: `__popc(ballot & lanes_below())`. For 1-D
/// blocks, whose warps are 32 consecutive threadIdx.x.
__device__ __forceinline__ unsigned lanes_below() { return (1u << (threadIdx.x % 32)) - 1u; }

namespace detail {
template <class T>
struct ShuffleWords {
  static_assert(sizeof(T) % 4 == 0, "shuffled values must be a whole number of 32-bit words");
  static constexpr int kCount = sizeof(T) / 4;
};
}  // namespace detail

/// `__shfl_up_sync` for a trivially copyable value of any 4k bytes, word by word: lane l gets
/// lane l - @p delta's value (its own below @p delta).
template <class T>
__device__ __forceinline__ T shuffle_up(T value, unsigned delta) {
  std::uint32_t words[detail::ShuffleWords<T>::kCount];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < detail::ShuffleWords<T>::kCount; ++w) words[w] = __shfl_up_sync(kFullWarp, words[w], delta);
  memcpy(&value, words, sizeof(T));
  return value;
}

/// `__shfl_down_sync`, word by word: lane l gets lane l + @p delta's value (its own at the top).
template <class T>
__device__ __forceinline__ T shuffle_down(T value, unsigned delta) {
  std::uint32_t words[detail::ShuffleWords<T>::kCount];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < detail::ShuffleWords<T>::kCount; ++w) words[w] = __shfl_down_sync(kFullWarp, words[w], delta);
  memcpy(&value, words, sizeof(T));
  return value;
}

/// `__shfl_sync`, word by word: every lane gets lane @p source_lane's value.
template <class T>
__device__ __forceinline__ T shuffle_index(T value, int source_lane) {
  std::uint32_t words[detail::ShuffleWords<T>::kCount];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < detail::ShuffleWords<T>::kCount; ++w) words[w] = __shfl_sync(kFullWarp, words[w], source_lane);
  memcpy(&value, words, sizeof(T));
  return value;
}

/// The reduction of @p value over the 32 lanes in lane order, valid in lane 0 (other lanes
/// hold partial results): five shuffle-down steps, registers only. The lower lane is always
/// the left operand, so @p op need not commute.
template <class Op>
__device__ __forceinline__ typename Op::value_type warp_reduce(typename Op::value_type value, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) value = op(value, shuffle_down(value, offset));
  return value;
}

/// Inclusive scan across the 32 lanes (Kogge–Stone by shuffles): lane l returns
/// x[0] op ... op x[l]. The value from the lower lane is the left operand.
template <class Op>
__device__ __forceinline__ typename Op::value_type warp_inclusive_scan(typename Op::value_type value, Op op) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const typename Op::value_type lower = shuffle_up(value, offset);
    if (lane >= offset) value = op(lower, value);
  }
  return value;
}

}  // namespace stepwise
