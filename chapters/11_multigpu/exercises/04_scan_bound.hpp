/// @file 04_scan_bound.hpp
/// Exercise 11-4 (README.md): the least time G GPUs can take to scan n values split into equal parts, from the
/// rate of a read-only pass and of a copy, as model.hpp's scan_least_seconds computes it for --analyze.
#pragma once

#include <cstdint>

#include "model.hpp"

namespace stepwise::multigpu::exercises {

/// Your function: the least time in seconds in which @p gpus GPUs scan @p n values of @p value_bytes bytes, part g
/// (n / G values) on GPU g, when a pass that only reads moves @p read_bytes_per_s on each GPU and a copy (bytes read
/// plus bytes written) @p copy_bytes_per_s. One GPU reads and writes every value once.
double predicted_scan_least_seconds(std::uint64_t n, int gpus, double value_bytes, double read_bytes_per_s,
                                    double copy_bytes_per_s);

}  // namespace stepwise::multigpu::exercises
