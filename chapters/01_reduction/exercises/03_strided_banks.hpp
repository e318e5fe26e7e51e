/// @file 03_strided_banks.hpp
/// Exercise 01-3 (README.md): the worst bank conflict of Harris's kernel 2 (stage 3) at each stride.
#pragma once

namespace stepwise::reduction::exercises {

/// Your function: the worst bank conflict, over the warps of a block of @p block threads (a power
/// of two in [64, 1024]), of kernel 2's step at stride @p stride (1, 2, 4, ..., block / 2), where
/// thread tid adds sdata[2*s*tid + s] into sdata[2*s*tid] if 2*s*tid < block: the most distinct
/// words one bank serves in one of the step's warp-wide accesses. A closed form, not a replay.
unsigned strided_conflict_degree(unsigned stride, unsigned block);

}  // namespace stepwise::reduction::exercises
