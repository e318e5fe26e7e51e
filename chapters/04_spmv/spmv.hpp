/// @file spmv.hpp
/// Chapter 04: sparse matrix-vector multiplication y = A x with A in CSR form, from a thread
/// per row to merge-based load balancing, against cuSPARSE.
///
/// Every row of the table computes y for any matrix the chapter accepts (no rows, empty rows,
/// one row holding most of the nonzeros, rectangular), with 32-bit CSR indices (cuSPARSE's
/// CUSPARSE_INDEX_32I) and 64-bit arithmetic wherever a count of nonzeros or merge items is
/// formed. A launcher only enqueues work: its scratch (tile boundaries and carries, cuSPARSE's
/// buffers) comes from an SpmvScratch made before timing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "host/device_buffer.hpp"
#include "host/stage.hpp"

namespace stepwise::spmv {

/// A CSR matrix on the device: what every launcher reads. Pointers to device memory.
template <class T>
struct CsrView {
  std::int32_t rows = 0;
  std::int32_t cols = 0;
  std::int64_t nnz = 0;
  const std::int32_t* offsets = nullptr;  ///< rows + 1 row pointers (the lecture's Ap)
  const std::int32_t* columns = nullptr;  ///< nnz column indices (Aj)
  const T* values = nullptr;              ///< nnz values (Av)
  /// The longest row: host-side knowledge of the matrix, found once when the matrix is made (as
  /// cuSPARSE's preprocessing analyses it once), which stage 5 uses to pick its kernel.
  std::int32_t longest_row = 0;
  /// Whether the columns are banded (analysis.hpp's columns_are_banded): found with longest_row.
  bool banded = false;
};

/// cuSPARSE's handle, descriptors and buffers for one matrix and one pair of vectors
/// (stages/lib_cusparse.cu). Opaque here.
struct CusparseState;

/// The smallest tile (NT x VT merge items) the merge-based stages compile: it sizes the tile
/// boundaries and carries of the workspace. Each merge-based stage static_asserts its tiles
/// are no smaller.
inline constexpr int kMinTileItems = 128 * 5;

/// The device scratch of a run, made before timing and shared by the rows (they run one at a
/// time): the merge-based stages' tile boundaries and tile carries, and cuSPARSE's state.
class SpmvScratch {
 public:
  /// Room for the tiles of @p merge_items (rows + nonzeros) merge items with values of
  /// @p value_bytes, and @p cusparse (may be null: the library rows then refuse to run).
  SpmvScratch(std::size_t merge_items, std::size_t value_bytes, std::shared_ptr<CusparseState> cusparse);
  /// Room for @p count tile boundaries (int64).
  /// @throws std::invalid_argument when the workspace is too small.
  std::int64_t* partitions(std::size_t count);
  /// Room for @p count tile carries of @p bytes each (a row index and a partial sum).
  /// @throws std::invalid_argument when the workspace is too small.
  void* carries(std::size_t count, std::size_t bytes);
  /// @throws std::invalid_argument when the workspace has no cuSPARSE state.
  CusparseState& cusparse();

  /// Tile boundaries kept from one launch to the next (stage 5). Where the merge path cuts a
  /// matrix into tiles depends on nothing but its row offsets and the tile size, so they can be
  /// searched once per matrix, as cusparseSpMV_preprocess analyses the matrix once for the
  /// library rows. A buffer of its own (stage 4's search, every launch, never overwrites it).
  struct KeptPartitions {
    std::int64_t* data = nullptr;
    bool searched = false;  ///< data already holds the boundaries for this tile size
  };
  /// Room for @p count boundaries of tiles of @p tile_items items; `searched` is false the first
  /// time a tile size is asked for (and after another was): the caller then enqueues the search
  /// before its first use, on the stream of its launches.
  /// @throws std::invalid_argument when the workspace is too small.
  KeptPartitions kept_partitions(std::size_t tile_items, std::size_t count);

 private:
  DeviceBuffer<std::int64_t> partitions_;
  DeviceBuffer<std::int64_t> kept_partitions_;
  std::size_t kept_tile_items_ = 0;  ///< the tile size kept_partitions_ holds (0: none)
  DeviceBuffer<unsigned char> carries_;
  std::shared_ptr<CusparseState> cusparse_;
};

/// What every row of the table is called with: the matrix, x (cols values), y (rows values).
template <class T>
using SpmvLaunch = void (*)(const CsrView<T>& matrix, const T* x, T* y, SpmvScratch& workspace,
                            const LaunchShape& shape, cudaStream_t stream);
/// Which of cuSPARSE's CSR algorithms a library row calls.
enum class CusparseAlgorithm {
  none,      ///< not a cuSPARSE row: the chapter's own stage
  csr_alg1,  ///< CUSPARSE_SPMV_CSR_ALG1
  csr_alg2,  ///< CUSPARSE_SPMV_CSR_ALG2
};

/// What the chapter's run and tests read about a row, set in the row's own file.
struct SpmvTraits {
  /// The cuSPARSE algorithm the row calls: cuSPARSE may refuse to prepare it for a matrix
  /// (cusparse_refusal), and the run then leaves the row out with a note.
  CusparseAlgorithm cusparse = CusparseAlgorithm::none;
  /// The row keeps its tile boundaries from one launch to the next (SpmvScratch::kept_partitions):
  /// searched once per matrix and tile size.
  bool keeps_partitions = false;
  /// The section of the --analyze report that tells what the row makes of the matrix.
  StageModel model = StageModel::none;
  /// The row adds every y in an order fixed by the matrix and the launch shape (no floating-point
  /// atomics; for a library row, an order its documentation promises), so it gives the same bits
  /// from run to run on one GPU. False: the last bits may differ between runs (within the
  /// tolerance of matrix.hpp; --values integer, whose sums are exact, gives the same bits anyway).
  bool deterministic = false;
};

/// A row of the table.
template <class T>
using SpmvStage = Stage<SpmvLaunch<T>, SpmvTraits>;

/// The value types the chapter multiplies, named once for every stage file: applies `X(T, ...)` to each
/// (stage.hpp's STEPWISE_STAGE_ROW), joined by `;`.
#define SPMV_FOR_EACH_VALUE(X, ...) \
  X(float, __VA_ARGS__);            \
  X(double, __VA_ARGS__)
/// Instantiates the stage factory `SpmvStage<T> factory<T>()` for each value type: the last line of
/// every stage file.
#define SPMV_STAGE_ROWS(factory) SPMV_FOR_EACH_VALUE(STEPWISE_STAGE_ROW, SpmvStage, factory)

/// The table: stages 1-5 in teaching order, then cuSPARSE's two CSR algorithms. float and double.
template <class T>
const std::vector<SpmvStage<T>>& spmv_stages();

/// Stage 1, stages/01_scalar.cu (each row's file holds its lesson, kernel and launcher).
template <class T>
SpmvStage<T> spmv_scalar();
/// Stage 2, stages/02_shared_cache.cu.
template <class T>
SpmvStage<T> spmv_shared_cache();
/// Stage 3, stages/03_vector.cu.
template <class T>
SpmvStage<T> spmv_vector();
/// Stage 4, stages/04_merge_based.cu.
template <class T>
SpmvStage<T> spmv_merge_based();
/// Stage 5, stages/05_tuned.cu.
template <class T>
SpmvStage<T> spmv_tuned();
/// cusparseSpMV with CUSPARSE_SPMV_CSR_ALG1, stages/lib_cusparse.cu.
template <class T>
SpmvStage<T> spmv_library_cusparse_alg1();
/// cusparseSpMV with CUSPARSE_SPMV_CSR_ALG2, stages/lib_cusparse.cu.
template <class T>
SpmvStage<T> spmv_library_cusparse_alg2();

/// The number and name of each stage of @p table that a section of the --analyze report (and
/// the run's notes) describes, found by its model trait.
template <class T>
AnalyzedStages analyzed_stages(const std::vector<SpmvStage<T>>& table);

/// cuSPARSE's state for @p matrix, @p x and @p y (device memory that outlives it): the handle,
/// the descriptors, the buffers both algorithms ask for, and CSR_ALG2's preprocessing (done
/// once per matrix, outside the timed region, as an application multiplying the same matrix
/// many times would). An algorithm cuSPARSE refuses to prepare for this matrix is recorded
/// (cusparse_refusal), not thrown. Needs a GPU.
template <class T>
std::shared_ptr<CusparseState> make_cusparse_state(const CsrView<T>& matrix, const T* x, T* y);

/// Why cuSPARSE refused to prepare @p algorithm for the matrix of @p state (the call and the
/// status it returned: `cusparseSpMV_bufferSize returned CUSPARSE_STATUS_INTERNAL_ERROR`), or ""
/// when it is ready, or for CusparseAlgorithm::none. A refused row is left out of the run with a
/// note; launched anyway, it throws std::invalid_argument.
std::string cusparse_refusal(const CusparseState& state, CusparseAlgorithm algorithm);

}  // namespace stepwise::spmv
