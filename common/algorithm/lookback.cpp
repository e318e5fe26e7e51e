#include "algorithm/lookback.hpp"

#include <cstdint>

namespace stepwise {
namespace {

constexpr std::size_t kAlignment = 256;

std::size_t round_up(std::size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

}  // namespace

LookbackLayout packed_lookback_layout(std::size_t tiles, std::size_t word_bytes) {
  LookbackLayout layout;
  layout.clear_bytes = layout.status_offset + tiles * word_bytes;  // packed flag + value
  layout.total_bytes = layout.clear_bytes;
  return layout;
}

LookbackLayout lookback_layout(std::size_t tiles, std::size_t element_bytes) {
  if (element_bytes <= 4) return packed_lookback_layout(tiles);
  LookbackLayout layout;
  layout.clear_bytes = layout.status_offset + tiles * sizeof(std::uint32_t);  // flags only
  layout.aggregates_offset = round_up(layout.clear_bytes);
  layout.inclusives_offset = round_up(layout.aggregates_offset + tiles * element_bytes);
  layout.total_bytes = layout.inclusives_offset + tiles * element_bytes;
  return layout;
}

}  // namespace stepwise
