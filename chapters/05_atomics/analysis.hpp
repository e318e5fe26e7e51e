/// @file analysis.hpp
/// What `--analyze` prints, without a GPU: the talk's worked example (the ballots of the peer
/// loop and the sub-tree's rounds), then, for the chosen keys, how many distinct keys each warp
/// of 32 sees and the atomics each stage issues per element. Every number comes from the
/// functions the kernels run (common/warp_aggregate.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "options.hpp"

namespace stepwise::atomics {

/// The talk's example: lanes 0-7 hold keys 2 3 3 1 2 3 1 2.
const std::vector<Key>& talk_keys();

/// A mask of @p lanes lanes as the talk's slides write it: a binary number, lane 0 on the right
/// (0x91 over 8 lanes is "10010001": lanes 0, 4 and 7).
std::string slide_bits(std::uint32_t mask, int lanes);

/// What a set of keys looks like to the warps, tile by tile (32 consecutive keys, the last
/// tile partial).
struct WarpProfile {
  std::uint64_t tiles = 0;
  std::uint64_t elements = 0;
  std::vector<std::uint64_t> distinct;  ///< distinct[d]: tiles with d distinct keys (d = 1..32)
  std::uint64_t groups = 0;             ///< sum over tiles of their distinct keys: stages 2-5's atomics
  std::uint64_t subtree_rounds = 0;     ///< sum over tiles of ceil(log2(largest group))
  std::uint64_t adaptive_atomics = 0;   ///< stage 6's atomics (see adaptive_warps)
  std::uint64_t adaptive_skipped = 0;   ///< tiles stage 6 ran without a match
  /// Stage 7's atomics: per thread of kKeysPerThread consecutive keys, one per run that ends
  /// inside them (for the thread that n cuts short, its last run too), plus, per warp of 32
  /// such threads, one per distinct key among their last runs.
  std::uint64_t run_atomics = 0;
};

/// The grid stage 6 is replayed with: 132 SMs x 64 warps, an H100 full of warps (which warp
/// runs which tile, and so what it skips, depends on the grid).
inline constexpr std::uint64_t kAdaptiveWarps = 132 * 64;

/// The profile of @p keys: every tile's peers from peers_of(), its groups and sub-tree rounds,
/// stage 6's rule replayed with @p warps warps taking tiles w, w + warps, ... in turn, and stage
/// 7's runs.
WarpProfile profile_warps(const std::vector<Key>& keys, std::uint64_t warps = kAdaptiveWarps);

/// The whole `--analyze` text for @p plan at @p n keys and @p seed: the profile of the first
/// kMaxAnalyzedKeys keys at most (the text says when it profiled fewer than n).
std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed);

}  // namespace stepwise::atomics
