/// @file merge_sort.cuh
/// What the tiled merge-sort stages share: the key that pads a partial tile, and the block-sort
/// kernel that turns the input into sorted runs of one tile each (common/device/block_sort.cuh
/// does the sorting). The merge passes that follow are planned by common/algorithm/merge_sort.hpp
/// and partitioned by common/kernels/merge_sort_partitions.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "device/block_sort.cuh"
#include "device/grid_dependency.cuh"
#include "device/tile.cuh"
#include "host/check.hpp"
#include "host/launch.hpp"
#include "sort.hpp"

namespace stepwise::sort {

/// A key whose ordered_bits are all ones, so it sorts after or together with every key: what
/// the block sort pads a partial tile with (the sort is stable and the padding comes last in
/// the input, so no padding key goes before a real one).
template <class K>
STEPWISE_HD inline K last_key() {
  if constexpr (std::is_same<K, float>::value) {
    const std::uint32_t bits = 0x7fffffffu;  // the NaN with the sign bit clear and every payload bit set
    float key;
    memcpy(&key, &bits, sizeof key);
    return key;
  } else if constexpr (std::is_signed<K>::value) {
    return static_cast<K>(static_cast<std::make_unsigned_t<K>>(~std::make_unsigned_t<K>{0}) >> 1);
  } else {
    return static_cast<K>(~K{0});
  }
}

/// The block sort's shared memory: the tile's keys (and the one more key block_merge_sort's
/// merge reads past the tile), and with pairs its values.
template <int NT, int VT, class K, bool kPairs>
struct BlockSortStorage {
  K keys[block_sort_shared_keys(NT, VT)];
  Value values[kPairs ? NT * VT : 1];
};

/// One tile of NT * VT keys per block, read from @p keys_in (values from @p values_in with
/// @p kPairs), sorted stably by ordered_bits (block_merge_sort) and written to the same
/// positions of @p keys_out (@p values_out): runs of NT * VT sorted keys, the last one partial.
/// The tile comes in and goes out warp by warp (warp-striped loads and stores, each warp's
/// transpose through its own slice of shared memory), so the only block barriers are the merge
/// rounds' two each. Once a block's loads are issued it lets a dependent launch of the next
/// kernel start (device/grid_dependency.cuh; nothing happens for an ordinary launch).
template <int NT, int VT, class K, bool kPairs>
__global__ void __launch_bounds__(NT)
    block_sort_tiles(const K* __restrict__ keys_in, const Value* __restrict__ values_in, K* __restrict__ keys_out,
                     Value* __restrict__ values_out, std::int64_t n) {
  static_assert(NT % tile::kWarpSize == 0, "the warp transposes need whole warps");
  constexpr int kTile = NT * VT;
  __shared__ BlockSortStorage<NT, VT, K, kPairs> storage;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * kTile;
  const int count = static_cast<int>(min(static_cast<std::int64_t>(kTile), n - static_cast<std::int64_t>(base)));
  K keys[VT];
  Value values[VT] = {};
  load_warp_striped<NT, VT>(keys_in, base, count, last_key<K>(), keys);
  if constexpr (kPairs) load_warp_striped<NT, VT>(values_in, base, count, Value{0}, values);
  allow_next_grid();
  warp_striped_to_thread_order<NT, VT>(keys, storage.keys);
  if constexpr (kPairs) warp_striped_to_thread_order<NT, VT>(values, storage.values);
  block_merge_sort<NT, VT, kPairs>(keys, values, storage.keys, storage.values, OrderedLess<K>{});
  store_thread_order_by_warp<NT, VT>(keys_out, base, count, keys, storage.keys);
  if constexpr (kPairs) store_thread_order_by_warp<NT, VT>(values_out, base, count, values, storage.values);
}

/// Enqueues block_sort_tiles over the @p n keys (pairs when @p values_in is set).
template <int NT, int VT, class K>
void launch_block_sort(const K* keys_in, const Value* values_in, K* keys_out, Value* values_out, std::int64_t n,
                       cudaStream_t stream) {
  const unsigned grid = grid_of(ceil_div(static_cast<std::size_t>(n), NT * VT));
  if (values_in != nullptr)
    block_sort_tiles<NT, VT, K, true><<<grid, NT, 0, stream>>>(keys_in, values_in, keys_out, values_out, n);
  else
    block_sort_tiles<NT, VT, K, false><<<grid, NT, 0, stream>>>(keys_in, nullptr, keys_out, nullptr, n);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace stepwise::sort
