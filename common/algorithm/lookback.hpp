/// @file lookback.hpp
/// The device memory of a single-pass kernel with decoupled look-back (lookback.cuh): a
/// ticket counter and one status per tile, laid out in one workspace so that one
/// cudaMemsetAsync clears them before every run. Host code only.
#pragma once

#include <cstddef>

namespace stepwise {

/// Where a single-pass kernel keeps its state inside its workspace: the ticket counter at
/// offset 0, the tile flags (or packed flag + value words, for 4-byte values) from
/// status_offset, cleared together by one memset of clear_bytes; for wider values, separate
/// aggregate and inclusive-prefix arrays after them.
struct LookbackLayout {
  std::size_t status_offset = 256;
  std::size_t clear_bytes = 0;
  std::size_t aggregates_offset = 0;
  std::size_t inclusives_offset = 0;
  std::size_t total_bytes = 0;
};

/// The layout for @p tiles tiles of values of @p element_bytes bytes.
LookbackLayout lookback_layout(std::size_t tiles, std::size_t element_bytes);

/// The layout of statuses packed in one word per tile, of @p word_bytes bytes (8: PackedTileStatus,
/// for values of 4 bytes or fewer, PackedCountStatus and PackedFlaggedStatus; 16:
/// PairedFlaggedStatus): the ticket, then the words, all cleared together.
LookbackLayout packed_lookback_layout(std::size_t tiles, std::size_t word_bytes = 8);

}  // namespace stepwise
