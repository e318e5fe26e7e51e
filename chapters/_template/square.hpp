/// @file square.hpp
/// The template chapter: out[i] = in[i] * in[i] (int32, wrapping), the smallest complete
/// chapter, to copy when starting a new one (docs/writing-a-chapter.md walks through it).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stage.hpp"

namespace stepwise::square {

/// What every stage of the chapter is called with: inputs, output, size, then the shape and stream.
using SquareLaunch = void (*)(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape,
                              cudaStream_t stream);
/// A row of the chapter's table.
using SquareStage = Stage<SquareLaunch>;

/// The chapter's table: its stages in teaching order, then the library rows.
const std::vector<SquareStage>& square_stages();

SquareStage one_per_thread();     ///< stages/01_one_per_thread.cu
SquareStage library_transform();  ///< stages/lib_thrust_transform.cu

/// The CPU reference of one element: in * in, wrapping mod 2^32.
inline std::int32_t square_wrapping(std::int32_t value) {
  const std::uint32_t bits = static_cast<std::uint32_t>(value);
  return static_cast<std::int32_t>(bits * bits);
}

}  // namespace stepwise::square
