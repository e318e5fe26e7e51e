/// @file traits.hpp
/// What the rest of the chapter reads about a row, set in the row's own file: which family it
/// belongs to and its pass and byte model for --analyze. Host code only: no CUDA header.
#pragma once

#include "host/stage.hpp"
#include "host/types.hpp"

namespace stepwise::sort {

/// Which family of sorts a row belongs to (--problem).
enum class Algorithm { radix, merge };

/// The facts of one row, set in its own file: --analyze's pass and byte model, and what it is.
struct SortTraits {
  Algorithm algorithm = Algorithm::radix;
  /// Equal keys keep their input order (every row of this chapter: the check of the values
  /// requires it).
  bool stable = true;
  /// Radix rows: the bits each digit pass sorts by (1 for stage 1); the passes are
  /// key bits / digit_bits. 0 for the merge rows, whose passes are log2 of n over the first run.
  int digit_bits = 0;
  /// Merge rows: the length of the sorted runs the first merge pass starts from (1: pairwise).
  int first_run = 0;
  /// The key (and value) traffic of one pass, in units of the key array: how many times each
  /// pass reads the keys (a count kernel and a scatter kernel: 2) and writes them (1).
  double key_reads_per_pass = 0.0;
  double key_writes_per_pass = 0.0;
  /// Reads of the keys once per sort, outside the passes (Onesweep's histogram kernel: 1).
  double key_reads_per_sort = 0.0;
  /// Writes of the keys once per sort, outside the passes (a merge sort's block sort: 1).
  double key_writes_per_sort = 0.0;
  /// Kernels launched per pass (and, for Onesweep, once per sort: launches_per_sort).
  int launches_per_pass = 0;
  int launches_per_sort = 0;
};

/// A row as the host-only code reads it (--analyze): what --list shows and its traits.
using SortRow = RowFacts<SortTraits>;

}  // namespace stepwise::sort
