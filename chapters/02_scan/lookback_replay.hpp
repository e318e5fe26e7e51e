/// @file lookback_replay.hpp
/// The decoupled look-back of stage 7 (common/device/lookback.cuh, look_back()) replayed on the CPU,
/// one warp step at a time, for the look-back diagram of `--analyze --format json`.
///
/// look_back() is device code built on warp intrinsics (__any_sync, __ballot_sync, shuffles),
/// so this is not the same code: it is the same algorithm, line for line, with the 32 lanes
/// held in arrays. Lane l inspects tile window_end - 1 - l; the warp polls until no lane sees
/// an invalid status; the nearest lane that sees an inclusive prefix (the lowest such lane)
/// ends the search; the values of lanes 0 .. that lane (every lane, when none is inclusive)
/// are reduced in tile order, the earlier tile on the left, and folded into the prefix on its
/// left; without an inclusive prefix the window moves 32 tiles back. Predecessors before tile 0
/// read as an inclusive identity. The tests check the replay against a sequential reduction.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace stepwise::scan {

/// What a tile has published, as common/device/lookback.cuh's TileFlag: nothing yet (X), its own
/// aggregate (A), or its inclusive prefix (P).
enum class TileState { invalid, aggregate, inclusive };

/// `X`, `A` or `P`.
char state_letter(TileState state);

/// What one tile's status word holds when a lane reads it.
struct TileStatus {
  TileState state = TileState::invalid;
  std::int32_t value = 0;  ///< the aggregate or the inclusive prefix (int32, added wrapping)
};

/// One window of 32 predecessors, as the warp saw it.
struct LookbackWindow {
  long long window_end = 0;  ///< lane l inspected tile window_end - 1 - l
  /// The states every lane saw at each poll of this window (the last poll has none invalid).
  std::vector<std::array<TileState, 32>> polls;
  std::array<std::int32_t, 32> values{};  ///< the values of the last poll
  int nearest_inclusive = -1;             ///< the lowest lane that saw an inclusive prefix, or -1
  int folded_lanes = 32;                  ///< lanes 0 .. folded_lanes - 1 were reduced
  std::int32_t window_value = 0;          ///< their reduction, in tile order
  std::int32_t prefix = 0;                ///< the exclusive prefix folded so far, after this window
};

/// A whole look-back of one tile.
struct LookbackReplay {
  long long tile = 0;
  std::vector<LookbackWindow> windows;
  std::int32_t exclusive_prefix = 0;
};

/// Reads the status of @p tile at the warp's @p poll-th poll (counted from 0 over the whole
/// look-back): how the statuses change while the warp spins.
using StatusAt = std::function<TileStatus(long long tile, int poll)>;

/// The look-back of tile @p tile over the statuses @p status gives. Stops after @p max_polls
/// polls without progress (a status sequence in which some predecessor never publishes).
/// @throws std::invalid_argument when the polls run out.
LookbackReplay replay_look_back(long long tile, const StatusAt& status, int max_polls = 64);

/// The diagram's example, deterministic: tile 80 looks back while every tile's aggregate is 1
/// (so a prefix counts tiles). Tiles 0-40 have published their inclusive prefix (tile k: k + 1),
/// tiles 41-79 their aggregate, except tiles 71, 75 and 78, which publish theirs only after the
/// warp's first poll: the warp spins once, folds the 32 aggregates of tiles 48-79, moves back,
/// and finds tile 40's prefix in lane 7 of the second window: 41 + 7 + 32 = 80.
LookbackReplay lookback_example();

}  // namespace stepwise::scan
