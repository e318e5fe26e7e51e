/// @file parts.hpp
/// How the chapter splits n elements over G GPUs, written once for the host and the device: G
/// contiguous parts, the first n % G of them one element longer (any n, n < G included). The
/// all-reduce's ring cuts its buffer into chunks the same way; the scan and the sort give GPU g
/// part g of their input.
#pragma once

#include <cstdint>

#include "algorithm/hd.hpp"

namespace stepwise::multigpu {

/// The first element of part @p part when @p n elements split into @p parts near-equal parts:
/// the first n % parts parts hold one element more. part == parts gives n.
STEPWISE_HD inline std::uint64_t part_begin(std::uint64_t n, int parts, int part) {
  const std::uint64_t whole = n / static_cast<std::uint64_t>(parts);
  const std::uint64_t extra = n % static_cast<std::uint64_t>(parts);
  const std::uint64_t p = static_cast<std::uint64_t>(part);
  return p * whole + (p < extra ? p : extra);
}

/// The element count of part @p part (0 when n < parts leaves it empty).
STEPWISE_HD inline std::uint64_t part_size(std::uint64_t n, int parts, int part) {
  return part_begin(n, parts, part + 1) - part_begin(n, parts, part);
}

}  // namespace stepwise::multigpu
