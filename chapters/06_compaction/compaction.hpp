/// @file compaction.hpp
/// Chapter 06: stream compaction, from one atomic per kept element to a single ordered pass,
/// against cub::DeviceSelect.
///
/// Every row computes the same thing: the elements of an input that pass a test (a predicate on
/// the key, or a flag byte per element), written to the front of the output, and how many there
/// are. Some rows write them in whatever order their atomics hand out (unordered); the others
/// and the library keep the input order (a stable compaction, as CUB's): each row says which in
/// its traits (traits.hpp). Every row runs for any n with 64-bit indexing; a launcher only
/// enqueues work.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "host/stage.hpp"
#include "host/workspace.hpp"
#include "inputs.hpp"
#include "traits.hpp"

namespace stepwise::compaction {

/// The test a row applies: DeviceSelect::If's predicate on the key (`key < 0`), or
/// DeviceSelect::Flagged's flag byte (kept where not zero).
enum class Form { predicate, flags };

/// The device operands of one compaction, and how the look-back rows run their look-back.
template <class K>
struct SelectArgs {
  const K* keys = nullptr;
  const std::uint8_t* flags = nullptr;       ///< Form::flags; null for the predicate
  const Payload* values = nullptr;           ///< the payload, or null
  K* kept_keys = nullptr;                    ///< n elements of room; the kept ones land at the front
  Payload* kept_values = nullptr;            ///< with a payload
  unsigned long long* kept_count = nullptr;  ///< one counter, written by the row
  std::size_t n = 0;
  /// The look-back rows: warp 0 sleeps this long after publishing its tile's count, before its
  /// first poll of the predecessors (--first-poll-ns; 0 polls at once; unset: the stage's own
  /// default, set in its file).
  std::optional<unsigned> first_poll_ns;
  /// The speculative row: load tile blockIdx.x while the ticket is drawn, and reload if the
  /// ticket differs (--speculative-load; false: the ticket first, then the tile).
  bool speculative = false;
  /// The speculative row, for the tests: guess tile (blockIdx.x + guess_shift) mod grid; 1 makes every guess
  /// wrong, so that every block takes the reload path.
  unsigned guess_shift = 0;
};

/// What every row is called with: the operands, the scratch every row of a table shares
/// (counts per block, look-back statuses, CUB's temporary storage; allocated before timing, a row
/// clears what it uses), the shape and the stream.
template <class K>
using SelectLaunch = void (*)(const SelectArgs<K>& args, Workspace& workspace, const LaunchShape& shape,
                              cudaStream_t stream);
/// A row of the table, with its traits set in its own file.
template <class K>
using SelectStage = Stage<SelectLaunch<K>, SelectTraits>;

/// The key types the chapter compacts, named once for every stage file: applies `X(K, ...)` to each
/// (stage.hpp's STEPWISE_STAGE_ROW, STEPWISE_KEYED_FUNCTION), joined by `;`.
#define COMPACTION_FOR_EACH_KEY(X, ...) \
  X(std::int32_t, __VA_ARGS__);         \
  X(float, __VA_ARGS__)
/// Instantiates the stage factory `SelectStage<K> factory<K>()` for each key type: the last line of
/// every stage file.
#define COMPACTION_STAGE_ROWS(factory) COMPACTION_FOR_EACH_KEY(STEPWISE_STAGE_ROW, SelectStage, factory)

/// The table of @p form: stages 1-8 in teaching order, then cub::DeviceSelect::If (predicate)
/// or cub::DeviceSelect::Flagged (flags).
template <class K>
const std::vector<SelectStage<K>>& select_stages(Form form);

template <class K>
SelectStage<K> atomic_per_element();  ///< stage 1, stages/01_atomic.cu
template <class K>
SelectStage<K> warp_aggregated();  ///< stage 2, stages/02_warp_aggregated.cu
template <class K>
SelectStage<K> block_aggregated();  ///< stage 3, stages/03_block_aggregated.cu
template <class K>
SelectStage<K> count_scan_scatter();  ///< stage 4, stages/04_count_scan_scatter.cu
template <class K>
SelectStage<K> two_kernels();  ///< stage 5, stages/05_two_kernels.cu
template <class K>
SelectStage<K> single_pass();  ///< stage 6, stages/06_single_pass.cu
template <class K>
SelectStage<K> tuned();  ///< stage 7, stages/07_tuned.cu
template <class K>
SelectStage<K> tuned_unordered();  ///< stage 8, stages/08_tuned_unordered.cu
template <class K>
SelectStage<K> library_cub_if();  ///< stages/lib_cub_select.cu
template <class K>
SelectStage<K> library_cub_flagged();  ///< stages/lib_cub_select.cu

/// The workspace bytes every row of the tables needs for @p n elements (asks CUB for its
/// temporary storage: needs a GPU).
template <class K>
std::size_t workspace_bytes(std::size_t n, bool payload);

/// The CUB rows' temporary storage for @p n elements of this form (asks CUB).
template <class K>
std::size_t cub_temp_bytes(std::size_t n, Form form, bool payload);

/// The most blocks stages 4 and 5 launch: 32 per SM on the largest GPU they expect (the
/// workspace holds one count per block).
inline constexpr std::size_t kMaxCountBlocks = 32 * 256;
/// The smallest tile of stages 6 and 7 (the workspace holds one status per tile).
inline constexpr std::size_t kMinLookbackTile = 512;

}  // namespace stepwise::compaction
