/// @file bandwidth.hpp
/// Chapter 00: copy kernels, the ceiling every other chapter is measured against.
///
/// Every stage copies @p n int32 values from @p in to @p out on @p stream, for any n >= 0,
/// with 64-bit indices. The vectorized stages need 16-byte-aligned pointers (cudaMalloc
/// gives 256) and copy the n % 4 tail separately.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/stage.hpp"

namespace stepwise::bandwidth {

/// What every stage of the chapter is called with.
using CopyLaunch = void (*)(const std::int32_t* in, std::int32_t* out, std::size_t n, const LaunchShape& shape,
                            cudaStream_t stream);
/// A row of the chapter's table.
using CopyStage = Stage<CopyLaunch>;

/// The bytes a copy of @p n int32 moves through DRAM: 4n read and 4n written. The table's GB/s
/// column is this over the median time (derive_columns, host/report.hpp).
constexpr double copy_bytes_moved(std::size_t n) { return 2.0 * sizeof(std::int32_t) * static_cast<double>(n); }

/// The chapter's table: stages 1 to 7 in teaching order, then cudaMemcpy.
const std::vector<CopyStage>& copy_stages();

/// The rows, one per file in stages/ (the file named after the stage holds its kernel).
CopyStage one_per_thread();
CopyStage grid_stride();
CopyStage warp_sequences();
CopyStage vector_int2();
CopyStage vector_int4();
CopyStage int4_unrolled();
CopyStage int4_tiles();
CopyStage library_memcpy();

}  // namespace stepwise::bandwidth
