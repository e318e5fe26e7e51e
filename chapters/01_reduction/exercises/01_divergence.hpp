/// @file 01_divergence.hpp
/// Exercise 01-1 (README.md): which threads add at each step of the tree, for Harris's kernel 1
/// (stage 1) and kernel 3 (stage 4), in a block of 128 threads.
#pragma once

#include <vector>

#include "addressing.hpp"

namespace stepwise::reduction::exercises {

/// The block size of the exercise: 128 threads, 4 warps, 7 steps.
inline constexpr unsigned kDivergenceBlock = 128;

/// One step of the tree as the hardware sees it (reduce_analysis.hpp's TreeStep, three of its columns).
struct StepCount {
  unsigned stride = 0;           ///< s: the step adds sdata[... + s] into sdata[...]
  unsigned active_threads = 0;   ///< threads that add at this step
  unsigned active_warps = 0;     ///< warps with at least one adding thread
  unsigned divergent_warps = 0;  ///< warps where some lanes add and some do not
};

/// Your table: the steps of @p scheme's tree in a block of kDivergenceBlock threads, in the order
/// the kernel runs them. Asked for Addressing::interleaved_divergent (kernel 1) and
/// Addressing::sequential (kernel 3).
std::vector<StepCount> predicted_steps(Addressing scheme);

}  // namespace stepwise::reduction::exercises
