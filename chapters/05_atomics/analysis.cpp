#include "analysis.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "algorithm/warp_aggregate.hpp"
#include "host/sizes.hpp"

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

/// The lanes of @p keys as a mask: lanes 0 to keys.size() - 1.
std::uint32_t lanes_of(const std::vector<Key>& keys) {
  if (keys.empty() || keys.size() > static_cast<std::size_t>(kWarpLanes))
    throw std::invalid_argument("a warp replay takes 1 to 32 lanes' keys");
  return keys.size() == static_cast<std::size_t>(kWarpLanes) ? 0xffffffffu : lanes_below(static_cast<int>(keys.size()));
}

/// The lanes of @p mask, as `0 4 7`.
std::string lane_list(std::uint32_t mask) {
  std::string text;
  for (int lane = 0; lane < kWarpLanes; ++lane)
    if ((mask & lane_bit(lane)) != 0) text += (text.empty() ? "" : " ") + std::to_string(lane);
  return text;
}

/// The sub-tree's rounds of @p replay, one line each (the adds whose sums are read), then the
/// leaders' sums.
std::string subtree_text(const std::vector<Key>& keys, const SubtreeReplay& replay) {
  std::ostringstream out;
  int round_number = 0;
  for (const SubtreeRound& round : replay.rounds) {
    out << "  round " << ++round_number << ":";
    for (const SubtreeAdd& add : round.adds)
      if (add.used) out << "  lane " << add.lane << " += lane " << add.source;
    out << "\n";
  }
  const std::vector<std::int64_t>& last = replay.rounds.empty() ? replay.initial : replay.rounds.back().values;
  out << "  leaders: ";
  for (std::size_t lane = 0; lane < keys.size(); ++lane)
    if (replay.ranks[lane] == 0) out << "lane " << lane << " (key " << keys[lane] << ") = " << last[lane] << "  ";
  out << "\n";
  return out.str();
}

/// The talk's examples, drawn: the ballot loop's iterations and each lane's peers on 8 lanes,
/// the sub-tree's rounds on those lanes (values 10, 20, ..., 80), then on the 16-lane example.
std::string worked_example() {
  const std::vector<Key>& keys = talk_keys();
  const int lanes = static_cast<int>(keys.size());
  const BallotReplay ballots = replay_ballots(keys);

  std::ostringstream out;
  out << "The talk's example (S5151, stage 1): 8 lanes, keys";
  for (Key key : keys) out << " " << key;
  out << "\n  lane:  ";
  for (int lane = 0; lane < lanes; ++lane) out << lane << " ";
  out << "\n  key:   ";
  for (Key key : keys) out << key << " ";
  out << "\n";
  int number = 0;
  for (const BallotIteration& iteration : ballots.iterations)
    out << "  iteration " << ++number << ": lowest unassigned lane " << iteration.leader << " (key " << iteration.key
        << "), __ballot_sync(key == " << iteration.key << ") = " << hex(iteration.ballot) << " = "
        << slide_bits(iteration.ballot, lanes) << " (lane 0 on the right)\n";
  out << "  peers:  ";
  for (std::uint32_t peers : ballots.peers) out << " " << hex(peers);
  out << "\n  (__match_any_sync returns the same masks in one instruction)\n\n";

  std::vector<std::int64_t> values(keys.size());
  for (int lane = 0; lane < lanes; ++lane) values[static_cast<std::size_t>(lane)] = 10 * (lane + 1);
  out << "The sub-tree reduction (stage 2 of the talk) on values";
  for (std::int64_t value : values) out << " " << value;
  out << ":\n" << subtree_text(keys, replay_subtree(keys, values));
  out << "  one atomic per key: 3 instead of 8\n\n";

  const std::vector<Key>& wide = subtree_example_keys();
  const SubtreeReplay replay = replay_subtree(wide, subtree_example_values());
  out << "The talk's sub-tree example (slides 19-20): 16 lanes, peers";
  for (std::size_t lane = 0; lane < wide.size(); ++lane)
    if (replay.ranks[lane] == 0) out << " {" << lane_list(replay.peers[lane]) << "}";
  out << ", values";
  for (std::int64_t value : replay.initial) out << " " << value;
  int largest = 0;
  for (std::uint32_t peers : replay.peers) largest = std::max(largest, popcount32(peers));
  out << "\n"
      << subtree_text(wide, replay) << "  " << replay.rounds.size() << " rounds for a largest group of " << largest
      << " lanes: ceil(log2(" << largest << "))\n";
  return out.str();
}

/// Atomics per element of a row with @p model on keys of @p profile.
double atomics_per_element(AtomicsModel model, const WarpProfile& profile) {
  const double elements = static_cast<double>(std::max<std::uint64_t>(profile.elements, 1));
  switch (model) {
    case AtomicsModel::per_group:
      return static_cast<double>(profile.groups) / elements;
    case AtomicsModel::adaptive:
      return static_cast<double>(profile.adaptive_atomics) / elements;
    case AtomicsModel::per_thread_runs:
      return static_cast<double>(profile.run_atomics) / elements;
    case AtomicsModel::per_element:
      break;
  }
  return 1.0;
}

/// Where a row's atomics go: the global bins, or shared ones where the bins fit.
const char* bins_of(const HistogramRow& row) { return row.traits.privatizes_in_shared ? "shared" : "global"; }

double per_tile(std::uint64_t count, const WarpProfile& profile) {
  return static_cast<double>(count) / static_cast<double>(std::max<std::uint64_t>(profile.tiles, 1));
}

}  // namespace

const std::vector<Key>& talk_keys() {
  static const std::vector<Key> keys = {2, 3, 3, 1, 2, 3, 1, 2};
  return keys;
}

const std::vector<Key>& subtree_example_keys() {
  static const std::vector<Key> keys = {1, 2, 2, 3, 1, 2, 3, 1, 2, 3, 1, 3, 1, 1, 2, 3};
  return keys;
}

const std::vector<std::int64_t>& subtree_example_values() {
  static const std::vector<std::int64_t> values = {9, 8, 2, 6, 2, 7, 1, 4, 7, 6, 1, 8, 7, 8, 4, 7};
  return values;
}

BallotReplay replay_ballots(const std::vector<Key>& keys) {
  const std::uint32_t taking_part = lanes_of(keys);
  Key warp[kWarpLanes] = {};
  std::copy(keys.begin(), keys.end(), warp);
  std::uint32_t ballots[kWarpLanes] = {};
  std::uint32_t peers[kWarpLanes] = {};
  const int iterations = ballot_loop(warp, taking_part, ballots, peers);
  BallotReplay replay;
  std::uint32_t unassigned = taking_part;
  for (int i = 0; i < iterations; ++i) {
    BallotIteration iteration;
    iteration.leader = leader_of(unassigned);
    iteration.key = warp[iteration.leader];
    iteration.unassigned = unassigned;
    iteration.ballot = ballots[i];
    replay.iterations.push_back(iteration);
    unassigned ^= ballots[i];
  }
  replay.peers.assign(peers, peers + keys.size());
  return replay;
}

SubtreeReplay replay_subtree(const std::vector<Key>& keys, const std::vector<std::int64_t>& values) {
  const std::uint32_t taking_part = lanes_of(keys);
  if (values.size() != keys.size()) throw std::invalid_argument("replay_subtree: one value per key");
  const int lanes = static_cast<int>(keys.size());
  Key warp[kWarpLanes] = {};
  std::copy(keys.begin(), keys.end(), warp);
  SubtreeReplay replay;
  replay.initial = values;
  SubtreeLane state[kWarpLanes];
  for (int lane = 0; lane < lanes; ++lane) {
    const std::uint32_t peers = peers_of(warp, taking_part, lane);
    replay.peers.push_back(peers);
    replay.ranks.push_back(ticket_rank(peers, lane));
    state[lane] = SubtreeLane::start(peers, lane);
  }
  std::vector<std::int64_t> current = values;
  std::uint32_t taken_before = 0;  // lanes whose sums lower lanes took in an earlier round
  while (std::any_of(state, state + lanes, [](const SubtreeLane& lane) { return lane.remaining != 0; })) {
    SubtreeRound round;
    round.values = current;
    for (int lane = 0; lane < lanes; ++lane) {
      if (state[lane].done()) round.taken |= lane_bit(lane);
      const int source = state[lane].source();
      if (source < 0) continue;
      round.values[static_cast<std::size_t>(lane)] =
          current[static_cast<std::size_t>(lane)] + current[static_cast<std::size_t>(source)];
      // A lane whose value a lower lane takes this round, or took before, still adds (every lane
      // shuffles), but nobody reads its sum.
      const bool used = (taken_before & lane_bit(lane)) == 0 && !state[lane].done();
      round.adds.push_back({lane, source, used});
    }
    for (int lane = 0; lane < lanes; ++lane) state[lane].advance(round.taken);
    taken_before |= round.taken;
    current = round.values;
    replay.rounds.push_back(std::move(round));
  }
  return replay;
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

std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<HistogramRow>& stages) {
  std::ostringstream out;
  out << worked_example() << "\n";
  const std::uint64_t profiled = std::min(n, kMaxAnalyzedKeys);
  const std::vector<Key> keys = make_keys(profiled, plan.bins, plan.distribution, seed);
  const WarpProfile profile = profile_warps(keys);
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
  out << "  mean "
      << fixed(static_cast<double>(profile.groups) / static_cast<double>(std::max<std::uint64_t>(profile.tiles, 1)), 2)
      << " distinct keys per tile\n\n";
  out << "atomics per element, by stage:\n";
  // The rows the details name: the global fallback of the privatizing rows (the last row on the
  // global bins), and the first privatizing row.
  int global_fallback = 0, first_shared = 0;
  for (const HistogramRow& row : stages) {
    if (row.kind != RowKind::kernel) continue;
    if (!row.traits.privatizes_in_shared) global_fallback = row.number;
    if (row.traits.privatizes_in_shared && first_shared == 0) first_shared = row.number;
  }
  const double tiles = static_cast<double>(std::max<std::uint64_t>(profile.tiles, 1));
  for (const HistogramRow& row : stages) {
    if (row.kind != RowKind::kernel) {
      out << "  lib " << row.name << " (int-add): per-block privatized bins, its own scheme\n";
      continue;
    }
    char head[64];
    std::snprintf(head, sizeof head, "  %d  %-15s", row.number, row.name.c_str());
    out << head << fixed(atomics_per_element(row.traits.atomics, profile), 3) << " " << bins_of(row);
    switch (row.traits.detail) {
      case AnalysisDetail::ballot_loop:
        out << "  (ballot loop: " << fixed(static_cast<double>(profile.groups) / tiles, 2)
            << " trips per tile; 32 shuffles per tile for the sums)";
        break;
      case AnalysisDetail::match:
        out << "  (one match per tile; 32 shuffles per tile)";
        break;
      case AnalysisDetail::subtree_rounds:
        out << "  (one match per tile; " << fixed(static_cast<double>(profile.subtree_rounds) / tiles, 2)
            << " sub-tree rounds per tile)";
        break;
      case AnalysisDetail::shared_merge:
        out << ", plus at most " << plan.bins
            << " global per block at the merge (bins that fit in shared memory; else stage " << global_fallback
            << "'s)";
        break;
      case AnalysisDetail::adaptive_skips:
        out << " (or global, as stage " << first_shared << "), "
            << fixed(100.0 * static_cast<double>(profile.adaptive_skipped) / tiles, 1)
            << " % of tiles without a match (replayed with " << kAdaptiveWarps << " warps)";
        break;
      case AnalysisDetail::thread_runs:
        out << " (or global, as stage " << first_shared << "): a run of equal keys inside a thread's " << kKeysPerThread
            << " is one atomic, the warp's last runs are matched";
        break;
      case AnalysisDetail::none:
        break;
    }
    out << "\n";
  }
  return out.str();
}

namespace {

using json = nlohmann::ordered_json;  // keys in the order written: the schema reads top-down

json ballot_json(const std::vector<Key>& keys) {
  const BallotReplay replay = replay_ballots(keys);
  const int lanes = static_cast<int>(keys.size());
  json iterations = json::array();
  for (const BallotIteration& iteration : replay.iterations)
    iterations.push_back({{"leader", iteration.leader},
                          {"key", iteration.key},
                          {"unassigned", iteration.unassigned},
                          {"ballot", iteration.ballot},
                          {"ballot_bits", slide_bits(iteration.ballot, lanes)}});
  return {{"lanes", lanes}, {"keys", keys}, {"iterations", iterations}, {"peers", replay.peers}};
}

json subtree_json(const std::vector<Key>& keys, const std::vector<std::int64_t>& values, const std::string& source) {
  const SubtreeReplay replay = replay_subtree(keys, values);
  json rounds = json::array();
  for (const SubtreeRound& round : replay.rounds) {
    json adds = json::array();
    for (const SubtreeAdd& add : round.adds)
      adds.push_back({{"lane", add.lane}, {"source", add.source}, {"used", add.used}});
    rounds.push_back({{"adds", adds}, {"taken", round.taken}, {"values", round.values}});
  }
  json leaders = json::array();
  const std::vector<std::int64_t>& last = replay.rounds.empty() ? replay.initial : replay.rounds.back().values;
  for (std::size_t lane = 0; lane < keys.size(); ++lane)
    if (replay.ranks[lane] == 0)
      leaders.push_back({{"lane", lane}, {"key", keys[lane]}, {"peers", replay.peers[lane]}, {"sum", last[lane]}});
  return {{"source", source},      {"lanes", keys.size()},     {"keys", keys},     {"peers", replay.peers},
          {"ranks", replay.ranks}, {"values", replay.initial}, {"rounds", rounds}, {"leaders", leaders}};
}

}  // namespace

std::string analyze_json(const Plan& plan, std::uint64_t n, std::uint64_t seed,
                         const std::vector<HistogramRow>& stages) {
  std::vector<std::int64_t> tens(talk_keys().size());
  for (std::size_t lane = 0; lane < tens.size(); ++lane) tens[lane] = 10 * static_cast<std::int64_t>(lane + 1);
  json document;
  document["analysis"] = "atomics-peers";
  document["chapter"] = "05";
  document["warp_size"] = kWarpLanes;
  json ballot = ballot_json(talk_keys());
  ballot["source"] = "Westphal, GTC 2015 S5151, slides 9-15";
  document["ballot_example"] = ballot;
  document["subtree_small"] = subtree_json(talk_keys(), tens, "the ballot example's lanes, values 10, 20, ..., 80");
  document["subtree_example"] =
      subtree_json(subtree_example_keys(), subtree_example_values(), "Westphal, GTC 2015 S5151, slides 19-20");

  const std::uint64_t profiled = std::min(n, kMaxAnalyzedKeys);
  const std::vector<Key> keys = make_keys(profiled, plan.bins, plan.distribution, seed);
  const WarpProfile profile = profile_warps(keys);
  json distinct = json::array();
  for (int d = 1; d <= kWarpLanes; ++d)
    if (profile.distinct[static_cast<std::size_t>(d)] > 0)
      distinct.push_back({{"keys", d}, {"tiles", profile.distinct[static_cast<std::size_t>(d)]}});
  json rows = json::array();
  for (const HistogramRow& stage : stages)
    if (stage.kind == RowKind::kernel)
      rows.push_back({{"stage", stage.number},
                      {"name", stage.name},
                      {"atomics_per_element", atomics_per_element(stage.traits.atomics, profile)},
                      {"bins", bins_of(stage)}});
  const std::size_t first_tile = std::min<std::size_t>(keys.size(), kWarpLanes);
  document["keys"] = {
      {"n", n},
      {"profiled", profiled},
      {"bins", plan.bins},
      {"distribution", to_string(plan.distribution)},
      {"seed", seed},
      {"tiles", profile.tiles},
      {"first_tile", std::vector<Key>(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(first_tile))},
      {"distinct_per_tile", distinct},
      {"mean_distinct", per_tile(profile.groups, profile)},
      {"subtree_rounds_per_tile", per_tile(profile.subtree_rounds, profile)},
      {"adaptive_skipped_share", per_tile(profile.adaptive_skipped, profile)},
      {"stages", rows}};
  return document.dump(2) + "\n";
}

}  // namespace stepwise::atomics
