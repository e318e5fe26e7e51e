/// @file 02_slice.hpp
/// Exercise 04-2 (README.md): the nonzeros that find x in stage 2's shared-memory slice.
#pragma once

#include <cstdint>

#include "matrix.hpp"

namespace stepwise::spmv::exercises {

/// Your function: how many nonzeros of @p matrix have their column in the slice of x that their
/// row's block copies to shared memory in stage 2: the block of rows [b NT, (b + 1) NT) copies
/// x[b NT, (b + 1) NT), clipped to the columns the matrix has (NT = @p threads_per_block >= 1).
std::int64_t slice_hits(const CsrMatrix& matrix, int threads_per_block);

}  // namespace stepwise::spmv::exercises
