/// @file square.hpp
/// The template chapter: out[i] = in[i] * in[i] (int32, wrapping), the smallest complete
/// chapter, to copy when starting a new one (docs/writing-a-chapter.md walks through it).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithm/hd.hpp"
#include "host/stage.hpp"

namespace stepwise::square {

/// The chapter's one operation, used by every kernel, the library functor and the CPU
/// reference: in * in, wrapping mod 2^32.
STEPWISE_HD inline std::int32_t square_wrapping(std::int32_t value) {
  const std::uint32_t bits = static_cast<std::uint32_t>(value);
  return static_cast<std::int32_t>(bits * bits);
}

/// What every stage of the chapter is called with: inputs, output, size, then the shape and stream.
using SquareLaunch = void (*)(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape,
                              cudaStream_t stream);

/// What the chapter's analysis and tests read about a stage, set in the stage's own file.
struct SquareTraits {
  /// The int32 elements one load instruction reads: 1 (an int32), 4 (an int4); 0 for the
  /// library row, which chooses its own loads and grid.
  int elements_per_load = 1;
  /// Whether the grid is sized to the GPU (`shape.blocks_per_sm` blocks on every SM) and the
  /// threads walk the array by the grid's size; otherwise one thread per load, the grid sized to n.
  bool grid_stride = false;
};

/// A row of the chapter's table.
using SquareStage = Stage<SquareLaunch, SquareTraits>;

/// The chapter's table: its stages in teaching order, then the library rows.
const std::vector<SquareStage>& square_stages();

/// The CPU reference: square_wrapping of every element of @p input, in order.
std::vector<std::int32_t> square_on_cpu(const std::vector<std::int32_t>& input);

SquareStage one_per_thread();     ///< stages/01_one_per_thread.cu
SquareStage int4_grid_stride();   ///< stages/02_int4_grid_stride.cu
SquareStage library_transform();  ///< stages/lib_thrust_transform.cu

}  // namespace stepwise::square
