#include "analysis.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "sizes.hpp"
#include "warp_aggregate.hpp"

namespace stepwise::atomics {
namespace {

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

std::string hex(std::uint32_t mask) {
  std::ostringstream text;
  text << "0x" << std::hex << std::setw(2) << std::setfill('0') << mask;
  return text.str();
}

/// The talk's example, drawn: the ballot loop's iterations, each lane's peers, and the
/// sub-tree's rounds on values 10, 20, ..., 80.
std::string worked_example() {
  const std::vector<Key>& keys = talk_keys();
  const int lanes = static_cast<int>(keys.size());
  Key warp[kWarpLanes] = {};
  std::copy(keys.begin(), keys.end(), warp);
  const std::uint32_t taking_part = lanes_below(lanes);
  std::uint32_t ballots[kWarpLanes] = {};
  std::uint32_t peers[kWarpLanes] = {};
  const int iterations = ballot_loop(warp, taking_part, ballots, peers);

  std::ostringstream out;
  out << "The talk's example (S5151, stage 1): 8 lanes, keys";
  for (Key key : keys) out << " " << key;
  out << "\n  lane:  ";
  for (int lane = 0; lane < lanes; ++lane) out << lane << " ";
  out << "\n  key:   ";
  for (Key key : keys) out << key << " ";
  out << "\n";
  std::uint32_t unassigned = taking_part;
  for (int i = 0; i < iterations; ++i) {
    const int leader = leader_of(unassigned);
    out << "  iteration " << i + 1 << ": lowest unassigned lane " << leader << " (key " << keys[leader]
        << "), __ballot_sync(key == " << keys[leader] << ") = " << hex(ballots[i]) << " = "
        << slide_bits(ballots[i], lanes) << " (lane 0 on the right)\n";
    unassigned ^= ballots[i];
  }
  out << "  peers:  ";
  for (int lane = 0; lane < lanes; ++lane) out << " " << hex(peers[lane]);
  out << "\n  (__match_any_sync returns the same masks in one instruction)\n\n";

  int values[kWarpLanes] = {};
  for (int lane = 0; lane < lanes; ++lane) values[lane] = 10 * (lane + 1);
  out << "The sub-tree reduction (stage 2 of the talk) on values";
  for (int lane = 0; lane < lanes; ++lane) out << " " << values[lane];
  out << ":\n";
  SubtreeLane state[kWarpLanes];
  for (int lane = 0; lane < lanes; ++lane) state[lane] = SubtreeLane::start(peers[lane], lane);
  std::uint32_t taken = 0;  // lanes whose sums were added into a lower lane: what they add next is never read
  for (int round = 1;; ++round) {
    if (std::none_of(state, state + lanes, [](const SubtreeLane& s) { return s.remaining != 0; })) break;
    int before[kWarpLanes] = {};
    std::copy(values, values + kWarpLanes, before);
    std::uint32_t done = 0;
    out << "  round " << round << ":";
    for (int lane = 0; lane < lanes; ++lane) {
      const int source = state[lane].source();
      if (source >= 0) {
        values[lane] = before[lane] + before[source];
        if ((taken & lane_bit(lane)) == 0) out << "  lane " << lane << " += lane " << source;
      }
      if (state[lane].done()) done |= lane_bit(lane);
    }
    out << "\n";
    taken |= done;
    for (int lane = 0; lane < lanes; ++lane) state[lane].advance(done);
  }
  out << "  leaders: ";
  for (int lane = 0; lane < lanes; ++lane)
    if (leader_of(peers[lane]) == lane)
      out << "lane " << lane << " (key " << keys[lane] << ") = " << values[lane] << "  ";
  out << "\n  one atomic per key: 3 instead of 8\n";
  return out.str();
}

}  // namespace

const std::vector<Key>& talk_keys() {
  static const std::vector<Key> keys = {2, 3, 3, 1, 2, 3, 1, 2};
  return keys;
}

std::string slide_bits(std::uint32_t mask, int lanes) {
  std::string bits;
  for (int lane = lanes - 1; lane >= 0; --lane) bits += (mask & lane_bit(lane)) != 0 ? '1' : '0';
  return bits;
}

WarpProfile profile_warps(const std::vector<Key>& keys, std::uint64_t warps) {
  WarpProfile profile;
  profile.distinct.assign(kWarpLanes + 1, 0);
  profile.elements = keys.size();
  profile.tiles = (keys.size() + kWarpLanes - 1) / kWarpLanes;
  std::vector<int> skip(static_cast<std::size_t>(std::max<std::uint64_t>(warps, 1)), 0);
  for (std::uint64_t tile = 0; tile < profile.tiles; ++tile) {
    const std::uint64_t first = tile * kWarpLanes;
    const int lanes = static_cast<int>(std::min<std::uint64_t>(kWarpLanes, keys.size() - first));
    const std::uint32_t taking_part = lanes == kWarpLanes ? 0xffffffffu : lanes_below(lanes);
    Key warp[kWarpLanes] = {};
    std::copy(keys.begin() + static_cast<std::ptrdiff_t>(first),
              keys.begin() + static_cast<std::ptrdiff_t>(first + static_cast<std::uint64_t>(lanes)), warp);
    int groups = 0;
    int largest = 0;
    for (int lane = 0; lane < lanes; ++lane) {
      const std::uint32_t peers = peers_of(warp, taking_part, lane);
      if (leader_of(peers) == lane) ++groups;
      largest = std::max(largest, popcount32(peers));
    }
    ++profile.distinct[static_cast<std::size_t>(groups)];
    profile.groups += static_cast<std::uint64_t>(groups);
    profile.subtree_rounds += static_cast<std::uint64_t>(subtree_rounds(largest));
    // Stage 6 (06_adaptive.cu): the warp that owns this tile skips, or matches and decides.
    int& countdown = skip[static_cast<std::size_t>(tile % skip.size())];
    if (countdown > 0) {
      --countdown;
      ++profile.adaptive_skipped;
      profile.adaptive_atomics += static_cast<std::uint64_t>(lanes);
    } else if (4 * groups >= 3 * lanes) {
      countdown = 8;
      profile.adaptive_atomics += static_cast<std::uint64_t>(lanes);
    } else {
      profile.adaptive_atomics += static_cast<std::uint64_t>(groups);
    }
  }
  // Stage 7 (07_thread_runs.cu): each warp walks 32 x kKeysPerThread consecutive keys, each lane
  // its own kKeysPerThread of them.
  const std::uint64_t per_thread = kKeysPerThread;
  const std::uint64_t per_warp = kWarpLanes * per_thread;
  for (std::uint64_t chunk = 0; chunk < keys.size(); chunk += per_warp) {
    std::vector<Key> last_runs;
    for (std::uint64_t first = chunk; first < std::min<std::uint64_t>(chunk + per_warp, keys.size());
         first += per_thread) {
      const std::uint64_t end = std::min<std::uint64_t>(first + per_thread, keys.size());
      for (std::uint64_t i = first + 1; i < end; ++i)
        if (keys[i] != keys[i - 1]) ++profile.run_atomics;  // the run before i ends inside the thread
      if (end - first < per_thread)
        ++profile.run_atomics;  // past n the kernel's keys are kNoKey: the last real run ends inside too
      else
        last_runs.push_back(keys[end - 1]);
    }
    std::sort(last_runs.begin(), last_runs.end());
    profile.run_atomics +=
        static_cast<std::uint64_t>(std::unique(last_runs.begin(), last_runs.end()) - last_runs.begin());
  }
  return profile;
}

std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed) {
  std::ostringstream out;
  out << worked_example() << "\n";
  const std::uint64_t profiled = std::min(n, kMaxAnalyzedKeys);
  const std::vector<Key> keys = make_keys(profiled, plan.bins, plan.distribution, seed);
  const WarpProfile profile = profile_warps(keys);
  const double elements = static_cast<double>(std::max<std::uint64_t>(profile.elements, 1));
  out << format_count(n) << " keys, distribution " << to_string(plan.distribution) << ", " << plan.bins
      << " bins, seed " << seed << ": ";
  if (profiled < n)
    out << "profiled on the first " << format_count(profiled)
        << " (every key is drawn alike: their shares stand for all), ";
  out << profile.tiles << " warp tiles of 32\n";
  out << "distinct keys per warp (tiles):\n";
  for (int d = 1; d <= kWarpLanes; ++d)
    if (profile.distinct[static_cast<std::size_t>(d)] > 0)
      out << "  " << std::setw(2) << d << ": " << std::setw(12) << profile.distinct[static_cast<std::size_t>(d)] << "  "
          << fixed(100.0 * static_cast<double>(profile.distinct[static_cast<std::size_t>(d)]) /
                       static_cast<double>(profile.tiles),
                   2)
          << " %\n";
  const double per_element = static_cast<double>(profile.groups) / elements;
  out << "  mean "
      << fixed(static_cast<double>(profile.groups) / static_cast<double>(std::max<std::uint64_t>(profile.tiles, 1)), 2)
      << " distinct keys per tile\n\n";
  out << "atomics per element, by stage:\n";
  out << "  1  naive          1.000 global\n";
  out << "  2  ballot-peers   " << fixed(per_element, 3) << " global  (ballot loop: "
      << fixed(static_cast<double>(profile.groups) / static_cast<double>(std::max<std::uint64_t>(profile.tiles, 1)), 2)
      << " trips per tile; 32 shuffles per tile for the sums)\n";
  out << "  3  match-peers    " << fixed(per_element, 3) << " global  (one match per tile; 32 shuffles per tile)\n";
  out << "  4  subtree        " << fixed(per_element, 3) << " global  (one match per tile; "
      << fixed(static_cast<double>(profile.subtree_rounds) /
                   static_cast<double>(std::max<std::uint64_t>(profile.tiles, 1)),
               2)
      << " sub-tree rounds per tile)\n";
  out << "  5  shared         " << fixed(per_element, 3) << " shared, plus at most " << plan.bins
      << " global per block at the merge (bins that fit in shared memory; else stage 4's)\n";
  out << "  6  adaptive       " << fixed(static_cast<double>(profile.adaptive_atomics) / elements, 3)
      << " shared (or global, as stage 5), "
      << fixed(100.0 * static_cast<double>(profile.adaptive_skipped) /
                   static_cast<double>(std::max<std::uint64_t>(profile.tiles, 1)),
               1)
      << " % of tiles without a match (replayed with " << kAdaptiveWarps << " warps)\n";
  out << "  7  thread-runs    " << fixed(static_cast<double>(profile.run_atomics) / elements, 3)
      << " shared (or global, as stage 5): a run of equal keys inside a thread's " << kKeysPerThread
      << " is one atomic, the warp's last runs are matched\n";
  out << "  lib cub::DeviceHistogram (int-add): per-block privatized bins, its own scheme\n";
  return out.str();
}

}  // namespace stepwise::atomics
