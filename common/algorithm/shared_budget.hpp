/// @file shared_budget.hpp
/// Whether a tile fits the shared memory a kernel may declare statically (48 KB; more needs
/// dynamic shared memory and cudaFuncSetAttribute). A tuned stage compiles many tile shapes and
/// asks this twice: when it compiles a shape (`if constexpr`: a tile that does not fit is refused,
/// not compiled) and when it lists the shapes its --sweep tries. Host and device code alike.
#pragma once

#include <cstddef>

#include "algorithm/hd.hpp"

namespace stepwise {

/// Static shared memory a kernel may declare (48 KB).
inline constexpr std::size_t kStaticSharedBytes = 48 * 1024;
/// What a tiled kernel declares beside its tile: a block scan's warp totals, a ticket, a tile's
/// prefix, a few words (under 1 KB).
inline constexpr std::size_t kOtherSharedBytes = 1024;

/// Whether a tile of @p items items of @p item_bytes each (a key, and a value or whatever else
/// the kernel keeps per item in shared memory) fits the static shared memory beside
/// kOtherSharedBytes.
STEPWISE_HD constexpr bool tile_fits(std::size_t items, std::size_t item_bytes) {
  return items * item_bytes + kOtherSharedBytes <= kStaticSharedBytes;
}

}  // namespace stepwise
