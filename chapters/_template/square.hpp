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

/// What the chapter's analysis reads about a stage, set in the stage's own file.
struct SquareTraits {
  int elements_per_thread = 1;  ///< elements one thread squares per launch step (0: the library)
};

/// A row of the chapter's table.
using SquareStage = Stage<SquareLaunch, SquareTraits>;

/// The chapter's table: its stages in teaching order, then the library rows.
const std::vector<SquareStage>& square_stages();

SquareStage one_per_thread();     ///< stages/01_one_per_thread.cu
SquareStage library_transform();  ///< stages/lib_thrust_transform.cu

}  // namespace stepwise::square
