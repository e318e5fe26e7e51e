#include <algorithm>
#include <stdexcept>
#include <string>

#include "scan_stages.hpp"

namespace stepwise::scan {
namespace {

constexpr std::size_t kAlignment = 256;

std::size_t round_up(std::size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

/// Elements of block totals the recursive stages need: one per block at every level that
/// has more than one block (stage 1's 256-element blocks need the most).
std::size_t recursive_total_elements(std::size_t n) {
  constexpr std::size_t kSmallestBlock = 256;
  std::size_t elements = 0;
  for (std::size_t level = n; level > kSmallestBlock;) {
    level = (level + kSmallestBlock - 1) / kSmallestBlock;
    elements += level;
  }
  return elements;
}

}  // namespace

SinglePassLayout single_pass_layout(std::size_t tiles, std::size_t element_bytes) {
  SinglePassLayout layout;
  if (element_bytes <= 4) {
    layout.clear_bytes = layout.status_offset + tiles * sizeof(unsigned long long);  // packed flag + value
    layout.total_bytes = layout.clear_bytes;
    return layout;
  }
  layout.clear_bytes = layout.status_offset + tiles * sizeof(std::uint32_t);  // flags only
  layout.aggregates_offset = round_up(layout.clear_bytes);
  layout.inclusives_offset = round_up(layout.aggregates_offset + tiles * element_bytes);
  layout.total_bytes = layout.inclusives_offset + tiles * element_bytes;
  return layout;
}

std::size_t scan_workspace_bytes(std::size_t n, std::size_t element_bytes) {
  const std::size_t tiles = (n + kMinSinglePassItems - 1) / kMinSinglePassItems;
  return std::max({recursive_total_elements(n) * element_bytes, kMaxReduceBlocks * element_bytes,
                   single_pass_layout(tiles, element_bytes).total_bytes});
}

ScanWorkspace::ScanWorkspace(std::size_t n, std::size_t element_bytes)
    : n_(n), element_bytes_(element_bytes), buffer_(scan_workspace_bytes(n, element_bytes)) {}

void ScanWorkspace::require(std::size_t n, std::size_t element_bytes) const {
  if (n > n_ || element_bytes > element_bytes_)
    throw std::invalid_argument("scan workspace sized for " + std::to_string(n_) + " elements of " +
                                std::to_string(element_bytes_) + " bytes, asked for " + std::to_string(n) + " of " +
                                std::to_string(element_bytes));
}

}  // namespace stepwise::scan
