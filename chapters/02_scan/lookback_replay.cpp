// The look-back of common/device/lookback.cuh replayed on the CPU, for the --analyze diagram.
#include "lookback_replay.hpp"

#include <stdexcept>
#include <string>

#include "scan_ops.hpp"

namespace stepwise::scan {

char state_letter(TileState state) {
  switch (state) {
    case TileState::invalid:
      return 'X';
    case TileState::aggregate:
      return 'A';
    case TileState::inclusive:
      return 'P';
  }
  return '?';
}

LookbackReplay replay_look_back(long long tile, const StatusAt& status, int max_polls) {
  const WrappingAdd op;
  LookbackReplay replay;
  replay.tile = tile;
  std::int32_t prefix = WrappingAdd::identity();  // the tiles between the window and us, already folded
  long long window_end = tile;
  int poll = 0;
  for (;;) {
    LookbackWindow window;
    window.window_end = window_end;
    bool any_invalid = true;
    while (any_invalid) {  // for (;;) { read; if (!__any_sync(flag == invalid)) break; }
      if (poll == max_polls)
        throw std::invalid_argument("look-back replay of tile " + std::to_string(tile) + ": no progress after " +
                                    std::to_string(max_polls) + " polls");
      std::array<TileState, 32> states{};
      any_invalid = false;
      for (int lane = 0; lane < 32; ++lane) {
        const long long predecessor = window_end - 1 - lane;
        TileStatus seen{TileState::inclusive, WrappingAdd::identity()};  // before tile 0: the identity
        if (predecessor >= 0) seen = status(predecessor, poll);
        states[static_cast<std::size_t>(lane)] = seen.state;
        window.values[static_cast<std::size_t>(lane)] = seen.value;
        any_invalid = any_invalid || seen.state == TileState::invalid;
      }
      window.polls.push_back(states);
      ++poll;
    }
    const std::array<TileState, 32>& states = window.polls.back();
    for (int lane = 0; lane < 32 && window.nearest_inclusive < 0; ++lane)  // __ffs(ballot) - 1
      if (states[static_cast<std::size_t>(lane)] == TileState::inclusive) window.nearest_inclusive = lane;
    window.folded_lanes = window.nearest_inclusive >= 0 ? window.nearest_inclusive + 1 : 32;
    // warp_reduce_backwards: higher lanes are earlier tiles, so they are the left operands.
    window.window_value = WrappingAdd::identity();
    for (int lane = window.folded_lanes - 1; lane >= 0; --lane)
      window.window_value = op(window.window_value, window.values[static_cast<std::size_t>(lane)]);
    prefix = op(window.window_value, prefix);
    window.prefix = prefix;
    replay.windows.push_back(window);
    if (window.nearest_inclusive >= 0) break;
    window_end -= 32;
  }
  replay.exclusive_prefix = prefix;
  return replay;
}

LookbackReplay lookback_example() {
  constexpr long long kTile = 80;
  constexpr long long kLastInclusive = 40;
  return replay_look_back(kTile, [](long long predecessor, int poll) {
    if (predecessor <= kLastInclusive)
      return TileStatus{TileState::inclusive, static_cast<std::int32_t>(predecessor + 1)};
    const bool late = predecessor == 71 || predecessor == 75 || predecessor == 78;
    if (late && poll == 0) return TileStatus{TileState::invalid, 0};
    return TileStatus{TileState::aggregate, 1};
  });
}

}  // namespace stepwise::scan
