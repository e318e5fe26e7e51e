/// @file library_limit.hpp
/// Where cub::DeviceHistogram::HistogramEven cannot run the chapter's histogram: the grid it
/// launches for n int32 keys and the 32-bit index of its per-block bins. Host code only.
///
/// With more than 256 bins CUB privatizes the bins in global memory: one histogram of K int
/// counters per block, in its temporary storage (blocks x K x 4 bytes). Each block finds its
/// own at `d_privatized_histograms + blockId * num_privatized_bins`, both `int`
/// (cub/agent/agent_histogram.cuh, AgentHistogram's constructor, CUB 3.0): when
/// (blocks - 1) x K passes 2^31 - 1 the product wraps, and the blocks past it zero and count
/// bins gigabytes before the allocation (`InitBinCounters` writes out of bounds). The grid
/// (cub/device/dispatch/dispatch_histogram.cuh) has one block per tile of 384 threads x 16 keys
/// (the Policy500 tuning, which sm_90 and sm_100 use for 4-byte samples: their own tunings
/// cover 1- and 2-byte samples only), capped at the sweep kernel's occupancy x the SMs (3
/// blocks of 384 threads per SM on an H100 at 54 registers: 396 blocks on 132 SMs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace stepwise::atomics {

/// Keys per tile of CUB's histogram sweep for int32 samples: 384 threads x 16 keys.
inline constexpr std::uint64_t kCubHistogramTileKeys = 384 * 16;

/// The blocks CUB launches for @p n keys when @p resident_blocks blocks of its sweep kernel fit
/// on the GPU at once (occupancy x SMs): one per tile, at most @p resident_blocks.
std::uint64_t cub_histogram_blocks(std::uint64_t n, std::uint64_t resident_blocks);

/// True when @p blocks blocks can index their @p bin_count privatized bins: the last block's
/// first bin, (blocks - 1) x K, is at most 2^31 - 1.
bool cub_histogram_offsets_fit(std::uint64_t blocks, int bin_count);

/// The condition in full: CUB can histogram @p n keys into @p bin_count bins on a GPU of
/// @p sm_count SMs where @p blocks_per_sm blocks of its sweep kernel are resident.
bool cub_histogram_fits(std::uint64_t n, int bin_count, int sm_count, int blocks_per_sm);

/// The blocks CUB will launch, read back from the temporary storage it asks for (@p temp_bytes:
/// blocks x K x 4 bytes of privatized bins, plus at most 766 bytes of alignment and tile queue),
/// so that the chapter follows whatever grid this CUB chooses. Exact from K = 192 bins up;
/// below, at most 191 blocks too many, which never reaches the limit.
std::uint64_t cub_histogram_blocks_of_temp(std::size_t temp_bytes, int bin_count);

/// The most keys whose grid indexes @p bin_count bins within 2^31 - 1 (one tile per block below
/// the resident cap; the cap itself is the GPU's): n above it needs more than
/// 2^31 / K blocks, rounded up.
std::uint64_t cub_histogram_max_keys(int bin_count);

/// The report's note for a CUB row left out: `cub::DeviceHistogram left out: ...` naming the
/// bins, the blocks and the library's limit.
std::string cub_histogram_limit_note(std::uint64_t n, int bin_count, std::uint64_t blocks);

}  // namespace stepwise::atomics
