/// @file analysis.hpp
/// What `--analyze` prints, without a GPU: the talk's worked examples (the ballots of the peer
/// loop on 8 lanes, the sub-tree's rounds on those lanes and on the talk's 16-lane example),
/// then, for the chosen keys, how many distinct keys each warp of 32 sees and the atomics each
/// stage issues per element; as text, or (`--format json`) as the document `tools/plot analysis`
/// draws the peers and sub-tree diagrams from. Every number comes from the functions the kernels
/// run (common/algorithm/warp_aggregate.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "plan.hpp"
#include "traits.hpp"

namespace stepwise::atomics {

/// The talk's example: lanes 0-7 hold keys 2 3 3 1 2 3 1 2.
const std::vector<Key>& talk_keys();

/// The talk's sub-tree example (slides 19-20): 16 lanes in three groups of peers, lanes
/// 0 4 7 10 12 13, lanes 1 2 5 8 14 and lanes 3 6 9 11 15. The slides give the peer masks, not
/// the keys: the groups hold keys 1, 2 and 3 here.
const std::vector<Key>& subtree_example_keys();
/// The talk's values of the 16-lane example: 9 8 2 6 2 7 1 4 7 6 1 8 7 8 4 7.
const std::vector<std::int64_t>& subtree_example_values();

/// One trip around the ballot loop (the talk's stage 1).
struct BallotIteration {
  int leader = 0;                ///< the lowest unassigned lane, whose key is broadcast
  Key key = 0;                   ///< its key
  std::uint32_t unassigned = 0;  ///< the lanes still in the loop before the ballot
  std::uint32_t ballot = 0;      ///< __ballot_sync(key == leader's key): the peers of those lanes
};

/// The ballot loop replayed over up to 32 lanes' keys, with ballot_loop().
struct BallotReplay {
  std::vector<BallotIteration> iterations;  ///< one per distinct key, in the loop's order
  std::vector<std::uint32_t> peers;         ///< each lane's peer mask
};

/// The ballot loop over @p keys (1 to 32 lanes, lane l holding keys[l]).
/// @throws std::invalid_argument for no key or more than 32
BallotReplay replay_ballots(const std::vector<Key>& keys);

/// One lane's work in one round of the sub-tree reduction.
struct SubtreeAdd {
  int lane = 0;       ///< the lane that adds
  int source = 0;     ///< the lane whose value (of the round before) it adds
  bool used = false;  ///< false when the sum is never read: the lane's own value is taken this round or was before
};

/// One round of the sub-tree reduction, replayed as the kernels run it (SubtreeLane).
struct SubtreeRound {
  std::vector<SubtreeAdd> adds;      ///< every lane that has a peer above it left
  std::vector<std::int64_t> values;  ///< each lane's value after the round
  std::uint32_t taken = 0;           ///< the lanes whose values lower lanes took this round (odd ranks)
};

/// The sub-tree reduction of one warp's values, round by round.
struct SubtreeReplay {
  std::vector<std::uint32_t> peers;   ///< each lane's peer mask
  std::vector<int> ranks;             ///< each lane's rank among its peers (the leader is 0)
  std::vector<std::int64_t> initial;  ///< the values before the first round
  std::vector<SubtreeRound> rounds;   ///< ceil(log2(largest group)) of them
};

/// The sub-tree reduction (the talk's stage 2) of @p values over the peers of @p keys (1 to 32
/// lanes, as many values as keys): each group's leader ends with its group's sum.
/// @throws std::invalid_argument for no key, more than 32, or a different number of values
SubtreeReplay replay_subtree(const std::vector<Key>& keys, const std::vector<std::int64_t>& values);

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
/// kMaxAnalyzedKeys keys at most (the text says when it profiled fewer than n), and the atomics
/// per element of each row of @p stages, counted as its traits say (HistogramTraits).
std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<HistogramRow>& stages);

/// The same analysis as a JSON document ("analysis": "atomics-peers") for `tools/plot analysis`:
/// the ballot loop and the sub-tree of the 8-lane example, the sub-tree of the 16-lane example,
/// and the profile of the chosen keys (the first tile's keys, distinct keys per tile, atomics
/// per element of each kernel row of @p stages).
std::string analyze_json(const Plan& plan, std::uint64_t n, std::uint64_t seed,
                         const std::vector<HistogramRow>& stages);

}  // namespace stepwise::atomics
