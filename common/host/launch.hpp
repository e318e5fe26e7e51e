/// @file launch.hpp
/// Host helpers every launcher uses: grid sizes that cannot overflow, the grid of a
/// GPU-sized (persistent) stage, and the checks a launcher makes before it launches.
#pragma once

#include <cstddef>

#include "host/types.hpp"

namespace stepwise {

/// ceil(@p a / @p b) for b > 0.
constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

/// A 1-D grid of @p blocks (at least 1).
/// @throws std::invalid_argument above the gridDim.x limit (2^31 - 1).
unsigned grid_of(std::size_t blocks);

/// The grid of a GPU-sized stage: @p shape.blocks_per_sm blocks on every SM of the current device.
unsigned resident_grid(const LaunchShape& shape);

/// @throws std::invalid_argument unless @p threads is a multiple of 32 in [32, 1024].
void require_threads(int threads);

/// A fixed-shape stage's launcher calls this first: its kernel is compiled for one shape, which
/// is its lesson.
/// @throws std::invalid_argument unless @p shape is @p compiled.
void require_shape(const LaunchShape& shape, const LaunchShape& compiled);

/// @throws std::invalid_argument unless @p pointer is aligned to @p alignment bytes.
void require_aligned(const void* pointer, std::size_t alignment);

}  // namespace stepwise
