// The workspace of chapter 02: one device buffer that every row's scratch fits in.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "algorithm/lookback.hpp"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

/// Elements of block totals the recursive stages need: one per block at every level that
/// has more than one block (the smallest blocks, stage 1's, need the most).
std::size_t recursive_total_elements(std::size_t n) {
  constexpr std::size_t kBlock = kMinBlockItems;
  std::size_t elements = 0;
  for (std::size_t level = n; level > kBlock;) {
    level = (level + kBlock - 1) / kBlock;
    elements += level;
  }
  return elements;
}

}  // namespace

std::size_t scan_workspace_bytes(std::size_t n, std::size_t element_bytes) {
  const std::size_t tiles = (n + kMinSinglePassItems - 1) / kMinSinglePassItems;
  return std::max({recursive_total_elements(n) * element_bytes, kMaxReduceBlocks * element_bytes,
                   lookback_layout(tiles, element_bytes).total_bytes});
}

ScanWorkspace::ScanWorkspace(std::size_t n, std::size_t element_bytes, std::size_t library_bytes)
    : n_(n), element_bytes_(element_bytes), buffer_(std::max(scan_workspace_bytes(n, element_bytes), library_bytes)) {}

void ScanWorkspace::require(std::size_t n, std::size_t element_bytes) const {
  if (n > n_ || element_bytes > element_bytes_)
    throw std::invalid_argument("scan workspace sized for " + std::to_string(n_) + " elements of " +
                                std::to_string(element_bytes_) + " bytes, asked for " + std::to_string(n) + " of " +
                                std::to_string(element_bytes));
}

}  // namespace stepwise::scan
