/// @file 02_transpose.hpp
/// Exercise 02-2 (README.md): the bank conflicts of the thread-order side of the strided <->
/// thread-order transpose (stages 4-7), for a tile of NT x VT and a given access width.
#pragma once

namespace stepwise::scan::exercises {

/// The thread-order side of one transpose, as `--analyze` counts it (bank_conflicts.hpp).
struct TransposePrediction {
  int instructions = 0;              ///< shared-memory accesses per thread: VT / width
  int degree = 0;                    ///< the worst bank conflict of any of them (1: conflict-free)
  long long conflicts_per_tile = 0;  ///< what Nsight Compute counts for one tile: wavefronts - ideal, every warp
};

/// Your function: the thread-order side of an @p nt x @p vt tile (nt a multiple of 32 in [32, 1024],
/// vt in [1, 32]) where thread t reads its words t*VT .. t*VT + VT - 1 with accesses of @p width_words
/// consecutive words (1: 32-bit LDS, 2: LDS.64, 4: LDS.128; width_words divides vt).
TransposePrediction predict_transpose(int nt, int vt, int width_words);

}  // namespace stepwise::scan::exercises
