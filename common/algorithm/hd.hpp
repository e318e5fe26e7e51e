/// @file hd.hpp
/// STEPWISE_HD marks a function that runs on both sides: `__host__ __device__` when the
/// file is compiled by nvcc, nothing when it is compiled by the host compiler. Algorithmic
/// pieces (index maps, merge-path searches, per-thread scans) are written once with it:
/// the kernels call them, and the CPU tests and `--analyze` call the very same code.
#pragma once

#if defined(__CUDACC__)
#define STEPWISE_HD __host__ __device__
#else
#define STEPWISE_HD
#endif

/// `#pragma unroll` for nvcc's device pass, nothing for the host compiler (which does not
/// know it, also when nvcc hands it the host side of a .cu): for loops in STEPWISE_HD
/// functions whose trip count is a template parameter.
#if defined(__CUDA_ARCH__)
#define STEPWISE_UNROLL _Pragma("unroll")
#else
#define STEPWISE_UNROLL
#endif
