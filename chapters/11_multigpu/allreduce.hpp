/// @file allreduce.hpp
/// The chapter's all-reduce: G GPUs each hold n elements, and each must end with the element-wise
/// sum over all G. What every stage is called with (the team's buffers and workspace), what the
/// rest of the chapter reads about a stage (its traits), the table and the CPU reference.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithm/hd.hpp"
#include "host/multi_device.hpp"
#include "host/stage.hpp"
#include "model.hpp"

namespace stepwise::multigpu {

/// The element types of `--type`.
enum class Element { float32, int32 };

/// The chapter's one operation, used by every kernel, the host-staged sum and the reference:
/// a + b, wrapping mod 2^32 for int32 (added as unsigned, so that overflow is defined).
STEPWISE_HD inline float sum_of(float a, float b) { return a + b; }
/// a + b for int32, added as unsigned: wraps mod 2^32 (overflow is defined).
STEPWISE_HD inline std::int32_t sum_of(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

/// What every stage works on: each GPU's input and output, and the workspace the problem
/// allocated for the selected rows before timing (a launcher allocates nothing).
struct AllReduceOperands {
  const DeviceTeam* team = nullptr;
  Element type = Element::float32;
  std::size_t n = 0;                ///< elements per GPU
  std::vector<const void*> in;      ///< GPU g's n inputs, on GPU g
  std::vector<void*> out;           ///< GPU g's n outputs, on GPU g
  std::vector<void*> host_staging;  ///< pinned host memory: G buffers of n elements, then the sum (host-staged rows)
  void* root_gather = nullptr;      ///< on GPU 0: (G - 1) x n elements, the other GPUs' inputs (rows through GPU 0)
  std::vector<cudaEvent_t> step_events;  ///< G x max_slices events, member g's on its device (ring rows)
  int max_slices = 1;
  std::vector<ncclComm_t> comms;  ///< one per GPU (library rows)
  bool peer_access = false;       ///< every GPU can read its ring neighbours' memory
  /// Element size in bytes.
  std::size_t element_bytes() const { return 4; }
};

/// What every stage of the chapter is called with: the operands, then the shape of its kernels.
using AllReduceLaunch = void (*)(const AllReduceOperands& operands, const LaunchShape& shape);

/// What the chapter's problem, analysis and tests read about a stage, set in the stage's own file.
struct AllReduceTraits {
  Traffic traffic = Traffic::ring;  ///< how the data moves between the GPUs (the cost model)
  bool needs_host_staging = false;  ///< the problem allocates AllReduceOperands::host_staging
  bool needs_root_gather = false;   ///< the problem allocates AllReduceOperands::root_gather
  bool needs_peer_access = false;   ///< its kernels read the neighbours' memory: left out without peer access
  bool needs_comms = false;         ///< the problem creates the NCCL communicators
  /// The pipelined ring's largest slice, bytes (0: a chunk is not sliced) and its most slices per chunk.
  std::uint64_t slice_bytes = 0;
  int max_slices = 1;
};

/// A row of the chapter's table.
using AllReduceStage = Stage<AllReduceLaunch, AllReduceTraits>;

/// The chapter's table: its stages in teaching order, then the library row.
const std::vector<AllReduceStage>& allreduce_stages();

/// The slices per chunk a row cuts @p n elements per GPU into, on @p gpus GPUs (1 unless it is pipelined).
int slices_for(const AllReduceTraits& traits, std::uint64_t n, int gpus, std::size_t element_bytes);

/// The CPU reference of an int32 all-reduce: element-wise sums of every GPU's input, wrapping mod 2^32.
std::vector<std::int32_t> allreduce_on_cpu(const std::vector<std::vector<std::int32_t>>& inputs);

/// The CPU reference of a float32 all-reduce in double, and each element's scale (the sum of the
/// absolute values of its terms), the bound the rounding error of any summation order is proportional to.
void allreduce_on_cpu(const std::vector<std::vector<float>>& inputs, std::vector<double>& sums,
                      std::vector<double>& scales);

/// The tolerance of a float32 all-reduce of @p gpus terms per element: any order of G - 1 float
/// additions errs by at most (G - 1) u / (1 - (G - 1) u) times the sum of the terms' magnitudes,
/// u = 2^-24; 0 for one GPU, whose output is its input.
double float_tolerance(int gpus);

AllReduceStage host_staged();        ///< stages/01_host_staged.cu
AllReduceStage peer_copies();        ///< stages/02_peer_copies.cu
AllReduceStage ring();               ///< stages/03_ring.cu
AllReduceStage pipelined_ring();     ///< stages/04_pipelined_ring.cu
AllReduceStage library_allreduce();  ///< stages/lib_nccl_allreduce.cu

}  // namespace stepwise::multigpu
