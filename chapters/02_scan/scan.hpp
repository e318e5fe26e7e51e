/// @file scan.hpp
/// Chapter 02: prefix scan, from Hillis–Steele to the single-pass scan with decoupled look-back.
///
/// Every stage scans @p n elements of @p in into @p out (in == out is allowed) on @p stream,
/// for any n >= 0 (n = 0 launches nothing), with 64-bit global indices. The operator is a
/// template parameter (scan_ops.hpp): WrappingAdd (int32), FloatAdd (float32) and
/// ComposeAffine, the non-commutative operator the tests use to catch a swapped operand.
/// Scratch memory comes from a ScanWorkspace allocated before timing; no launcher allocates.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/stage.hpp"
#include "scan_ops.hpp"

namespace stepwise::scan {

/// What a stage is asked to compute, beyond its buffers and its shape.
struct ScanOptions {
  ScanKind kind = ScanKind::exclusive;
  /// Stages 4-6 only: the thread-order side of every transpose reads and writes shared memory
  /// one 32-bit word at a time (volatile), as Baxter's talk counts it, instead of the 128-bit
  /// accesses the compiler emits for VT = 8 (--scalar-transpose).
  bool scalar_transpose = false;
  /// Stage 7 only: where VT is a multiple of 4 (and values are 4 bytes), the thread-order side
  /// of its transposes uses explicit 128-bit accesses, whatever the compiler would choose
  /// (--vector-transpose); other tiles are unchanged.
  bool vector_transpose = false;
  /// Stage 7 only: the look-back's first back-off sleep in ns (0: spin without pause).
  unsigned backoff_ns = 0;
  /// Stage 7 only: warp 0 sleeps this long after publishing its tile's aggregate, before the
  /// first poll of its predecessors' statuses (0: polls at once). The default is CUB's L2
  /// write latency for 4-byte sums on sm_90 (fixed_delay_constructor_t<648, 1245>): polling
  /// at once finds the nearest predecessors still without a status, and the early polls
  /// load the L2 slice those predecessors are writing to.
  unsigned first_poll_ns = 1245;
  /// Stage 7 only: load tile blockIdx.x while the ticket is drawn, reloading if the ticket
  /// differs (--speculative-load; off: the ticket first, then the tile).
  bool speculative = false;
  /// Stage 7 only, for the tests: guess tile (blockIdx.x + guess_shift) mod grid; 1 makes
  /// every guess wrong, so that every block takes the reload path.
  unsigned guess_shift = 0;
};

/// The smallest block of items of stages 1-3 (stage 1's 256): sizes their recursion's totals.
inline constexpr int kMinBlockItems = 256;
/// Reduce-then-scan grids (stages 4-6) never exceed this many blocks: one total per block.
inline constexpr int kMaxReduceBlocks = 4096;
/// The smallest tile of any compiled single-pass shape (128 x 7): sizes the tile statuses.
inline constexpr int kMinSinglePassItems = 128 * 7;
/// The CUB row calls cub::DeviceScan with int offsets: it runs up to this n.
inline constexpr std::size_t kCubMaxN = INT_MAX;

/// Device scratch for every row at one n and element size: the per-level block totals of
/// stages 1-3, the per-block totals of stages 4-6, the ticket counter and tile statuses of
/// stage 7, and the library row's temporary storage. The rows run one at a time and share it.
class ScanWorkspace {
 public:
  /// Scratch for up to @p n elements of @p element_bytes, and at least @p library_bytes.
  ScanWorkspace(std::size_t n, std::size_t element_bytes, std::size_t library_bytes = 0);
  /// The first byte (256-byte aligned).
  void* data() { return buffer_.data(); }
  /// The size in bytes.
  std::size_t bytes() const { return buffer_.size(); }
  /// @throws std::invalid_argument if the workspace was sized for fewer than @p n
  ///   elements of @p element_bytes bytes.
  void require(std::size_t n, std::size_t element_bytes) const;

 private:
  std::size_t n_;
  std::size_t element_bytes_;
  DeviceBuffer<unsigned char> buffer_;
};

/// Bytes the stages' scratch takes for @p n elements of @p element_bytes (the library row's
/// temporary storage aside).
std::size_t scan_workspace_bytes(std::size_t n, std::size_t element_bytes);

/// What every row of the chapter is called with.
template <class Op>
using ScanLaunch = void (*)(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                            const ScanOptions& options, ScanWorkspace& workspace, const LaunchShape& shape,
                            cudaStream_t stream);
/// A row of the chapter's table.
template <class Op>
using ScanStage = Stage<ScanLaunch<Op>>;

/// The operators the chapter scans with, named once for every stage file: applies `X(Op, ...)` to each
/// (stage.hpp's STEPWISE_STAGE_ROW, STEPWISE_KEYED_FUNCTION), joined by `;`.
#define SCAN_FOR_EACH_OP(X, ...) \
  X(WrappingAdd, __VA_ARGS__);   \
  X(FloatAdd, __VA_ARGS__);      \
  X(ComposeAffine, __VA_ARGS__)
/// Instantiates the stage factory `ScanStage<Op> factory<Op>()` for each operator: the last line of
/// every stage file but the CUB row's (kHasCubRow's operators only).
#define SCAN_STAGE_ROWS(factory) SCAN_FOR_EACH_OP(STEPWISE_STAGE_ROW, ScanStage, factory)

/// Whether the table has a CUB row for @p Op: cub::DeviceScan's sums compute WrappingAdd and
/// FloatAdd; the affine maps, a test operator, have no library counterpart.
template <class Op>
inline constexpr bool kHasCubRow = std::is_same_v<Op, WrappingAdd> || std::is_same_v<Op, FloatAdd>;

/// The chapter's table: stages 1 to 7 in teaching order, then CUB (when kHasCubRow<Op>).
/// Instantiated for WrappingAdd, FloatAdd and ComposeAffine.
template <class Op>
const std::vector<ScanStage<Op>>& scan_stages();

/// Stage 1, stages/01_hillis_steele.cu (each row's file holds its lesson, kernel and launcher).
template <class Op>
ScanStage<Op> hillis_steele();
/// Stage 2, stages/02_blelloch.cu.
template <class Op>
ScanStage<Op> blelloch();
/// Stage 3, stages/03_blelloch_padded.cu.
template <class Op>
ScanStage<Op> blelloch_padded();
/// Stage 4, stages/04_rts_vt8.cu.
template <class Op>
ScanStage<Op> rts_vt8();
/// Stage 5, stages/05_rts_vt7.cu.
template <class Op>
ScanStage<Op> rts_vt7();
/// Stage 6, stages/06_rts_shuffle.cu.
template <class Op>
ScanStage<Op> rts_shuffle();
/// Stage 7, stages/07_single_pass.cu.
template <class Op>
ScanStage<Op> single_pass();
/// The library row, stages/lib_cub_scan.cu: instantiated for WrappingAdd and FloatAdd only.
template <class Op>
ScanStage<Op> library_cub_scan();

/// Sets the shape of the stage whose --sweep lists @p tile (stage 7) to @p tile.
/// @throws std::invalid_argument naming the compiled tiles when no stage of @p stages lists it.
template <class Launch>
void set_tile(std::vector<Stage<Launch>>& stages, const LaunchShape& tile) {
  std::string compiled;
  for (Stage<Launch>& stage : stages)
    for (const LaunchShape& shape : stage.sweep) {
      if (shape == tile) {
        stage.shape = tile;
        return;
      }
      compiled += (compiled.empty() ? "" : ", ") + describe(shape);
    }
  throw std::invalid_argument("no stage is compiled for the tile " + describe(tile) + " (compiled: " + compiled + ")");
}

/// The temporary storage the CUB row needs for @p n <= kCubMaxN elements, either scan kind.
/// Asks CUB, which reads the current device: needs a GPU. WrappingAdd and FloatAdd only.
template <class Op>
std::size_t cub_scan_temp_bytes(std::size_t n);

/// The workspace every row of scan_stages<Op>() can run in at @p n elements (as main
/// allocates it): with the CUB row's temporary storage where the row runs (needs a GPU).
template <class Op>
ScanWorkspace make_workspace(std::size_t n) {
  std::size_t library_bytes = 0;
  if constexpr (kHasCubRow<Op>) library_bytes = n <= kCubMaxN ? cub_scan_temp_bytes<Op>(n) : 0;
  return ScanWorkspace(n, sizeof(typename Op::value_type), library_bytes);
}

}  // namespace stepwise::scan
