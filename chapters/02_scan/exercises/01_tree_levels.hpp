/// @file 01_tree_levels.hpp
/// Exercise 02-1 (README.md): Blelloch's tree (stages 2 and 3) level by level: the threads that
/// work, the bank conflict of their accesses, and the wavefronts the level takes, unpadded and padded.
#pragma once

#include <vector>

namespace stepwise::scan::exercises {

/// One level of the tree of a block of tree::kThreads = 256 threads (512 items), as `--analyze`
/// prints it (bank_conflicts.hpp's TreeLevel).
struct LevelCount {
  bool down = false;   ///< a level of the down-sweep (else the up-sweep)
  int stride = 0;      ///< s: thread t combines nodes s(2t+1) - 1 and s(2t+2) - 1
  int active = 0;      ///< threads that work at this level
  int degree = 0;      ///< the worst bank conflict of one warp-wide access of the level
  int wavefronts = 0;  ///< of every access of every working warp: the up-sweep reads left and right and
                       ///< writes right (3 accesses), the down-sweep reads both and writes both (4)
};

/// Your table: the 18 levels of one block's tree, in the order the kernel runs them (the up-sweep
/// at strides 1, 2, ..., 256, then the down-sweep at 256, ..., 1), with node i at shared-memory word
/// i (@p padded false, stage 2) or at word i + i / 32 (@p padded true, stage 3).
std::vector<LevelCount> predicted_levels(bool padded);

}  // namespace stepwise::scan::exercises
