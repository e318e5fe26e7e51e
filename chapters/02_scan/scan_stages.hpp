/// @file scan_stages.hpp
/// Chapter 02: prefix scan, from Hillis–Steele to the single-pass scan with decoupled look-back.
///
/// Every launcher scans @p n elements of @p in into @p out (in == out is allowed) on
/// @p stream, for any n >= 0 (n = 0 launches nothing), with 64-bit global indices. The
/// operator is a template parameter; the library is instantiated for WrappingAdd (int32),
/// FloatAdd (float32) and ComposeAffine (the non-commutative test operator). Workspace
/// comes from a ScanWorkspace allocated before timing; no launcher allocates.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "device_buffer.hpp"
#include "scan_ops.hpp"

namespace stepwise::scan {

/// Threads per block (NT) and values per thread (VT) of a register-blocked tile of NT*VT items.
struct TileShape {
  int nt = 0;
  int vt = 0;
  /// Stage 6 only: the look-back's first back-off sleep in ns (0: spin without pause).
  unsigned backoff_ns = 0;
  /// Stage 6 only: load tile blockIdx.x while the ticket is drawn (reload if the ticket differs).
  bool speculative = true;
  /// Stage 6 only, for tests: guess tile (blockIdx.x + guess_shift) mod grid; 1 makes every guess wrong.
  unsigned guess_shift = 0;
  int items() const { return nt * vt; }
};

/// Tile shapes of the stages. Stage 6's default, 128 x 31, won the --sweep at 2^28 and at
/// 2^24 on an H200 (see README.md); 128 x 32 is 19 % slower: 32-way transpose conflicts.
constexpr TileShape kEvenShape{128, 8};                  ///< stage 3
constexpr TileShape kOddShape{128, 7};                   ///< stages 4 and 5
constexpr TileShape kSinglePassShape{128, 31, 0, true};  ///< stage 6
/// The smallest tile any single-pass shape uses: sizes the tile-status array.
constexpr int kMinSinglePassItems = 128 * 7;
/// Reduce-then-scan grids never exceed this many blocks (the spine scans one total per block).
constexpr int kMaxReduceBlocks = 4096;

/// Device scratch for every stage at one n and element size: the per-level block totals of
/// stages 1-2, the per-block totals of stages 3-5, and the ticket counter and tile
/// statuses of stage 6. Allocated once, before timing.
class ScanWorkspace {
 public:
  ScanWorkspace(std::size_t n, std::size_t element_bytes);
  void* data() { return buffer_.data(); }
  std::size_t bytes() const { return buffer_.size(); }
  /// @throws std::invalid_argument if the workspace was sized for fewer than @p n
  /// elements of @p element_bytes bytes.
  void require(std::size_t n, std::size_t element_bytes) const;

 private:
  std::size_t n_;
  std::size_t element_bytes_;
  DeviceBuffer<unsigned char> buffer_;
};

/// Bytes ScanWorkspace allocates for @p n elements of @p element_bytes.
std::size_t scan_workspace_bytes(std::size_t n, std::size_t element_bytes);

/// Where stage 6 keeps its state inside the workspace: the ticket counter at offset 0,
/// the tile flags (or packed flag+value words) from status_offset, cleared together by
/// one cudaMemsetAsync of clear_bytes; for elements wider than 4 bytes, separate
/// aggregate and inclusive-prefix arrays after them.
struct SinglePassLayout {
  std::size_t status_offset = 256;
  std::size_t clear_bytes = 0;
  std::size_t aggregates_offset = 0;
  std::size_t inclusives_offset = 0;
  std::size_t total_bytes = 0;
};
SinglePassLayout single_pass_layout(std::size_t tiles, std::size_t element_bytes);

template <class Op>
using ScanLauncher = void (*)(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                              ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream);

/// Stage 1: Hillis–Steele in shared memory per block of 256, block totals scanned recursively.
template <class Op>
void scan_hillis_steele(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                        ScanWorkspace& workspace, cudaStream_t stream);
/// Stage 2: Blelloch up-sweep/down-sweep per block of 512, block totals scanned recursively.
template <class Op>
void scan_blelloch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                   ScanWorkspace& workspace, cudaStream_t stream);
/// Stage 3: reduce-then-scan, 128 x 8 tiles transposed through shared memory (8-way conflicts).
template <class Op>
void scan_reduce_then_scan_even(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                                ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream);
/// Stage 4: the same with 128 x 7 tiles: conflict-free transposes.
template <class Op>
void scan_reduce_then_scan_odd(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                               ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream);
/// Stage 5: stage 4 with warp-shuffle scans in place of the shared-memory ladder.
template <class Op>
void scan_reduce_then_scan_shuffle(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                                   ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream);
/// Stage 6: single pass with decoupled look-back, kSinglePassShape tiles.
template <class Op>
void scan_single_pass(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                      ScanWorkspace& workspace, cudaStream_t stream);

/// The tile shapes compiled for the --sweep of stage 6 (NT in {128, 256} x VT in {7, 8, 11, 12, 15, 16, 23, 24}, each
/// with and without back-off).
std::vector<TileShape> single_pass_sweep_shapes();
/// Stage 6 with any shape of single_pass_sweep_shapes(); instantiated for WrappingAdd and FloatAdd.
/// @throws std::invalid_argument for a shape that is not compiled in.
template <class Op>
void scan_single_pass_shaped(TileShape shape, const typename Op::value_type* in, typename Op::value_type* out,
                             std::size_t n, ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream);

/// A numbered stage of the chapter: the list main.cpp and the tests walk.
template <class Op>
struct ScanAlgorithm {
  int number;
  const char* name;
  const char* lesson;
  ScanLauncher<Op> launch;
};

/// Stages 1-6 in order.
template <class Op>
std::vector<ScanAlgorithm<Op>> scan_algorithms() {
  return {
      {1, "hillis-steele", "Hillis–Steele in shared memory per block (n log n work), totals scanned recursively",
       scan_hillis_steele<Op>},
      {2, "blelloch", "work-efficient up-sweep/down-sweep per block: O(n) operations, half the threads",
       scan_blelloch<Op>},
      {3, "rts-vt8", "reduce-then-scan, 128x8 register tiles: 3n traffic, few blocks; transposes 8-way conflicted",
       scan_reduce_then_scan_even<Op>},
      {4, "rts-vt7", "VT = 7, odd: every bank once per warp per step, conflict-free transposes",
       scan_reduce_then_scan_odd<Op>},
      {5, "rts-shuffle", "warp shuffles scan the per-thread totals: no shared-memory ladder, fewer barriers",
       scan_reduce_then_scan_shuffle<Op>},
      {6, "single-pass", "decoupled look-back: one pass, 2n traffic, tiles chained through published prefixes",
       scan_single_pass<Op>},
  };
}

/// The library baseline for WrappingAdd and FloatAdd: cub::DeviceScan::ExclusiveSum or
/// InclusiveSum (int32 is scanned as uint32, bit-identical and free of signed overflow).
template <class Op>
std::size_t cub_scan_temp_bytes(std::size_t n, ScanKind kind);
template <class Op>
void cub_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind, void* temp,
              std::size_t temp_bytes, cudaStream_t stream);

}  // namespace stepwise::scan
