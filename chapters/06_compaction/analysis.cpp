#include "analysis.hpp"

#include <algorithm>
#include <atomic>
#include <bitset>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "host/cli.hpp"
#include "host/parallel.hpp"
#include "host/sizes.hpp"

namespace stepwise::compaction {
namespace {

/// Kept elements, and the aligned groups of @p group elements that hold at least one.
struct GroupCount {
  std::uint64_t kept = 0;
  std::uint64_t groups_with_kept = 0;
};

GroupCount count_groups(const Plan& plan, std::uint64_t n, std::uint64_t seed, std::uint64_t group) {
  constexpr std::uint64_t kGroupsPerChunk = 1 << 12;
  const std::uint64_t groups = (n + group - 1) / group;
  std::atomic<std::uint64_t> kept{0}, with_kept{0};
  for_each_chunk(static_cast<std::int64_t>((groups + kGroupsPerChunk - 1) / kGroupsPerChunk), [&](std::int64_t chunk) {
    std::uint64_t chunk_kept = 0, chunk_groups = 0;
    const std::uint64_t first = static_cast<std::uint64_t>(chunk) * kGroupsPerChunk;
    for (std::uint64_t g = first; g < groups && g < first + kGroupsPerChunk; ++g) {
      std::uint64_t in_group = 0;
      for (std::uint64_t i = g * group; i < n && i < (g + 1) * group; ++i)
        in_group += is_kept(seed, i, plan.selectivity, plan.pattern);
      chunk_kept += in_group;
      chunk_groups += in_group != 0;
    }
    kept += chunk_kept;
    with_kept += chunk_groups;
  });
  return {kept, with_kept};
}

std::string with_commas(std::uint64_t value) { return format_grouped(static_cast<std::int64_t>(value)); }

using nlohmann::json;

/// The tile that looks back in the look-back example (the last one when there are fewer).
constexpr std::uint64_t kExampleLookbackTile = 40;

/// __popc on the CPU.
int popcount(std::uint32_t bits) { return static_cast<int>(std::bitset<32>(bits).count()); }

/// The kept elements among [first, last) (and below n).
unsigned kept_between(const Plan& plan, std::uint64_t n, std::uint64_t seed, std::uint64_t first, std::uint64_t last) {
  unsigned kept = 0;
  for (std::uint64_t i = first; i < last && i < n; ++i) kept += is_kept(seed, i, plan.selectivity, plan.pattern);
  return kept;
}

/// The kernel row that draws @p diagram, or nullptr.
const SelectRow* row_drawing(const std::vector<SelectRow>& stages, Diagram diagram) {
  for (const SelectRow& stage : stages)
    if (stage.kind == RowKind::kernel && stage.traits.diagram == diagram) return &stage;
  return nullptr;
}

/// @p text without its leading `stage ` or `stages `: `6 and 7`.
std::string without_noun(const std::string& text) { return text.substr(text.find(' ') + 1); }

json shape_json(const LaunchShape& shape) {
  return {{"threads", shape.threads}, {"items", shape.items}, {"blocks_per_sm", shape.blocks_per_sm}};
}

json warp_json(const WarpBallot& warp) {
  json kept = json::array();
  for (int lane = 0; lane < 32; ++lane) kept.push_back(((warp.ballot >> lane) & 1u) != 0);
  return {
      {"first", warp.first}, {"ballot", warp.ballot}, {"voters", warp.voters}, {"kept", kept}, {"ranks", warp.ranks}};
}

json lookback_json(const LookbackExample& example) {
  json windows = json::array();
  for (const LookbackExample::Window& window : example.windows) {
    json flags = json::array();
    for (CountFlag flag : window.flags) flags.push_back(flag == CountFlag::inclusive ? "P" : "A");
    windows.push_back({{"window_end", window.window_end},
                       {"tiles", window.tiles},
                       {"flags", flags},
                       {"values", window.values},
                       {"nearest_inclusive", window.nearest_inclusive < 0 ? json() : json(window.nearest_inclusive)},
                       {"folded_lanes", window.folded_lanes},
                       {"window_sum", window.window_sum},
                       {"prefix", window.prefix}});
  }
  return {{"tile", example.tile},
          {"tile_elements", example.tile_elements},
          {"last_inclusive", example.last_inclusive},
          {"own_count", example.own_count},
          {"windows", windows},
          {"exclusive_prefix", example.exclusive_prefix},
          {"sequential", example.sequential}};
}

}  // namespace

std::vector<StageCost> stage_costs(const Plan& plan, std::uint64_t n, std::uint64_t seed,
                                   const std::vector<SelectRow>& stages, std::uint64_t& kept) {
  const double key_bytes = 4.0;
  const double element_bytes = key_bytes + (plan.payload ? 4.0 : 0.0);  // what a kept element writes
  const double input_bytes = element_bytes + (plan.by_flags ? 1.0 : 0.0);
  const double test_bytes = plan.by_flags ? 1.0 : key_bytes;
  const double elements = static_cast<double>(n);
  // Above kMaxCountedElements the groups are counted on the first ones and scaled to n: every
  // element is drawn alike, so the shares of the first stand for all.
  const std::uint64_t counted = std::min(n, kMaxCountedElements);
  const auto groups_with_kept = [&](std::uint64_t group) {
    const std::uint64_t found = count_groups(plan, counted, seed, group).groups_with_kept;
    if (counted == n) return found;
    const double share = static_cast<double>(found) / static_cast<double>((counted + group - 1) / group);
    return static_cast<std::uint64_t>(std::llround(share * static_cast<double>((n + group - 1) / group)));
  };
  kept = groups_with_kept(1);
  const double stream_bytes = elements * input_bytes + static_cast<double>(kept) * element_bytes;
  std::vector<StageCost> costs;
  for (const SelectRow& stage : stages) {
    if (stage.kind != RowKind::kernel) continue;
    StageCost cost;
    cost.name = stage.name;
    const std::uint64_t tile =
        static_cast<std::uint64_t>(stage.shape.threads) * static_cast<std::uint64_t>(stage.shape.items);
    const double blocks = static_cast<double>(kAnalyzedSms) * stage.shape.blocks_per_sm;
    cost.bytes = stream_bytes;
    const SelectCost& model = stage.traits.cost;
    switch (model.counter_atomics) {
      case CounterAtomics::none:
        break;
      case CounterAtomics::per_kept_element:
        cost.counter_atomics = kept;
        break;
      case CounterAtomics::per_warp:
        cost.counter_atomics = groups_with_kept(32);
        break;
      case CounterAtomics::per_tile:
        cost.counter_atomics = groups_with_kept(tile);
        break;
    }
    cost.input_passes = model.input_passes;
    cost.launches = model.launches;
    if (model.input_passes > 1 || model.count_bytes_per_block > 0.0) {
      cost.bytes +=
          static_cast<double>(model.input_passes - 1) * elements * test_bytes + model.count_bytes_per_block * blocks;
    }
    if (model.ticket_per_tile) {  // one ticket per tile; the statuses are 8 bytes per tile
      cost.ticket_atomics = (n + tile - 1) / tile;
      cost.bytes += 16.0 * static_cast<double>(cost.ticket_atomics);
    }
    costs.push_back(cost);
  }
  return costs;
}

std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<SelectRow>& stages) {
  std::uint64_t kept = 0;
  const std::vector<StageCost> costs = stage_costs(plan, n, seed, stages, kept);
  std::ostringstream out;
  out << "chapter 06 --analyze | n = " << format_count(n) << " | " << describe_input(plan) << " | seed " << seed
      << "\n";
  if (n > kMaxCountedElements)
    out << "estimated: counted on the first " << format_count(kMaxCountedElements)
        << " elements and scaled to n (every element is drawn alike)\n";
  char line[256];
  std::snprintf(line, sizeof line, "kept: %s of %s (%.2f %%)\n", with_commas(kept).c_str(), with_commas(n).c_str(),
                n == 0 ? 0.0 : 100.0 * static_cast<double>(kept) / static_cast<double>(n));
  out << line;
  out << "bytes: the input read once and the kept elements written once = "
      << format_bytes(costs.empty() ? 0.0 : costs.front().bytes) << " (the GB/s column's numerator)\n\n";
  std::snprintf(line, sizeof line, "%3s  %-20s %16s %12s %16s %7s %9s %12s\n", "#", "stage", "counter atomics",
                "per element", "ticket atomics", "passes", "launches", "bytes moved");
  out << line;
  int number = 0;
  for (const StageCost& cost : costs) {
    std::snprintf(line, sizeof line, "%3d  %-20s %16s %12.6f %16s %7d %9d %12s\n", ++number, cost.name.c_str(),
                  with_commas(cost.counter_atomics).c_str(),
                  n == 0 ? 0.0 : static_cast<double>(cost.counter_atomics) / static_cast<double>(n),
                  with_commas(cost.ticket_atomics).c_str(), cost.input_passes, cost.launches,
                  format_bytes(cost.bytes).c_str());
    out << line;
  }
  const auto counting = [&](CounterAtomics where) {
    return describe_stage_numbers(
        kernel_numbers_where(stages, [&](const SelectRow& row) { return row.traits.cost.counter_atomics == where; }));
  };
  const std::string two_passes = describe_stage_numbers(
      kernel_numbers_where(stages, [](const SelectRow& row) { return row.traits.cost.input_passes > 1; }));
  const std::string ticketed = describe_stage_numbers(
      kernel_numbers_where(stages, [](const SelectRow& row) { return row.traits.cost.ticket_per_tile; }));
  out << "\n"
      << counting(CounterAtomics::per_warp) << ": one atomic per 32-element warp holding a kept element; "
      << counting(CounterAtomics::per_tile) << ": one per tile holding\none; " << two_passes
      << " read the test bytes (keys or flags) a second time and use no atomic; " << without_noun(ticketed)
      << " draw one\nticket per tile and find their place by the look-back. S" << two_passes.substr(1) << " assume "
      << kAnalyzedSms << " SMs.\n";
  return out.str();
}

WarpBallot warp_ballot(const Plan& plan, std::uint64_t n, std::uint64_t seed, std::uint64_t first) {
  WarpBallot warp;
  warp.first = first;
  for (int lane = 0; lane < 32; ++lane) {
    const std::uint64_t i = first + static_cast<std::uint64_t>(lane);
    if (i < n && is_kept(seed, i, plan.selectivity, plan.pattern)) warp.ballot |= 1u << lane;
  }
  warp.voters = popcount(warp.ballot);
  for (int lane = 0; lane < 32; ++lane)
    warp.ranks[static_cast<std::size_t>(lane)] =
        ((warp.ballot >> lane) & 1u) != 0 ? popcount(warp.ballot & ((1u << lane) - 1u)) : -1;
  return warp;
}

StridedPacking strided_packing(const Plan& plan, std::uint64_t n, std::uint64_t seed, std::uint64_t tile,
                               const LaunchShape& shape) {
  StridedPacking packing;
  packing.tile = tile;
  packing.threads = shape.threads;
  packing.items = shape.items;
  packing.warps = shape.threads / 32;
  const auto threads = static_cast<std::uint64_t>(shape.threads);
  const std::uint64_t base = tile * threads * static_cast<std::uint64_t>(shape.items);
  unsigned before = 0;  // TileRanks's order: step by step, warp by warp within a step
  for (int step = 0; step < shape.items; ++step) {
    std::vector<unsigned> counts, offsets;
    for (int warp = 0; warp < packing.warps; ++warp) {
      const std::uint64_t first = base + static_cast<std::uint64_t>(step) * threads + 32u * static_cast<unsigned>(warp);
      counts.push_back(static_cast<unsigned>(warp_ballot(plan, n, seed, first).voters));
      offsets.push_back(before);
      before += counts.back();
    }
    packing.counts.push_back(counts);
    packing.offsets.push_back(offsets);
  }
  packing.total = before;
  return packing;
}

SlicedPacking sliced_packing(const Plan& plan, std::uint64_t n, std::uint64_t seed, std::uint64_t tile,
                             const LaunchShape& shape) {
  SlicedPacking packing;
  packing.tile = tile;
  packing.threads = shape.threads;
  packing.items = shape.items;
  packing.warps = shape.threads / 32;
  packing.slice = 32 * shape.items;
  const auto slice = static_cast<std::uint64_t>(packing.slice);
  const std::uint64_t base = tile * static_cast<std::uint64_t>(packing.warps) * slice;
  for (int warp = 0; warp < packing.warps; ++warp) {
    const std::uint64_t first = base + static_cast<std::uint64_t>(warp) * slice;
    packing.offsets.push_back(packing.total);
    packing.counts.push_back(kept_between(plan, n, seed, first, first + slice));
    packing.total += packing.counts.back();
  }
  return packing;
}

LookbackExample lookback_example(const Plan& plan, std::uint64_t n, std::uint64_t seed, const LaunchShape& shape,
                                 std::uint64_t unresolved) {
  LookbackExample example;
  example.tile_elements = static_cast<std::uint64_t>(shape.threads) * static_cast<std::uint64_t>(shape.items);
  const std::uint64_t tiles = n == 0 ? 1 : (n + example.tile_elements - 1) / example.tile_elements;
  example.tile = std::min(kExampleLookbackTile, tiles - 1);
  example.last_inclusive = example.tile > unresolved + 1 ? example.tile - unresolved - 1 : 0;
  std::vector<std::uint64_t> inclusive;  // the kept elements of tiles 0 .. k, for every k up to the tile
  std::uint64_t running = 0;
  for (std::uint64_t k = 0; k <= example.tile; ++k) {
    const unsigned count = kept_between(plan, n, seed, k * example.tile_elements, (k + 1) * example.tile_elements);
    if (k == example.tile) {
      example.own_count = count;
      example.sequential = running;
    }
    running += count;
    inclusive.push_back(running);
  }
  // The look-back of common/device/lookback.cuh over the snapshot: one window of 32 predecessors at a time.
  std::uint64_t prefix = 0;
  auto window_end = static_cast<std::int64_t>(example.tile);
  while (example.tile != 0) {
    LookbackExample::Window window;
    window.window_end = window_end;
    for (int lane = 0; lane < 32; ++lane) {
      const auto at = static_cast<std::size_t>(lane);
      const std::int64_t predecessor = window_end - 1 - lane;
      window.tiles[at] = predecessor;
      window.flags[at] = CountFlag::inclusive;  // before tile 0: an inclusive prefix of nothing
      window.values[at] = 0;
      if (predecessor >= 0) {
        const auto k = static_cast<std::uint64_t>(predecessor);
        const bool published = k <= example.last_inclusive;
        window.flags[at] = published ? CountFlag::inclusive : CountFlag::aggregate;
        window.values[at] = published ? inclusive[k] : inclusive[k] - (k == 0 ? 0 : inclusive[k - 1]);
      }
      if (window.nearest_inclusive < 0 && window.flags[at] == CountFlag::inclusive) window.nearest_inclusive = lane;
    }
    window.folded_lanes = window.nearest_inclusive >= 0 ? window.nearest_inclusive + 1 : 32;
    for (int lane = 0; lane < window.folded_lanes; ++lane)
      window.window_sum += window.values[static_cast<std::size_t>(lane)];
    prefix += window.window_sum;
    window.prefix = prefix;
    example.windows.push_back(window);
    if (window.nearest_inclusive >= 0) break;
    window_end -= 32;
  }
  example.exclusive_prefix = prefix;
  return example;
}

std::string analyze_json(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<SelectRow>& stages) {
  std::uint64_t kept = 0;
  const std::vector<StageCost> costs = stage_costs(plan, n, seed, stages, kept);
  json rows = json::array();
  for (const SelectRow& stage : stages) {
    if (stage.kind != RowKind::kernel) continue;
    const StageCost& cost = costs[rows.size()];
    rows.push_back({{"number", stage.number},
                    {"name", cost.name},
                    {"shape", shape_json(stage.shape)},
                    {"counter_atomics", cost.counter_atomics},
                    {"ticket_atomics", cost.ticket_atomics},
                    {"input_passes", cost.input_passes},
                    {"launches", cost.launches},
                    {"bytes", cost.bytes}});
  }
  json document = {{"analysis", "compaction"},
                   {"chapter", "06"},
                   {"n", n},
                   {"seed", seed},
                   {"input", describe_input(plan)},
                   {"selectivity", plan.selectivity},
                   {"pattern", to_string(plan.pattern)},
                   {"by_flags", plan.by_flags},
                   {"payload", plan.payload},
                   {"estimated", n > kMaxCountedElements},
                   {"analyzed_sms", kAnalyzedSms},
                   {"kept", kept},
                   {"stages", rows}};
  document["warp"] = warp_json(warp_ballot(plan, n, seed, 0));
  if (const SelectRow* stage = row_drawing(stages, Diagram::strided_tile)) {
    const StridedPacking packing = strided_packing(plan, n, seed, 0, stage->shape);
    document["strided_tile"] = {{"stage", stage->number},     {"name", stage->name},        {"tile", packing.tile},
                                {"threads", packing.threads}, {"items", packing.items},     {"warps", packing.warps},
                                {"counts", packing.counts},   {"offsets", packing.offsets}, {"total", packing.total}};
  }
  if (const SelectRow* stage = row_drawing(stages, Diagram::sliced_tile_lookback)) {
    const SlicedPacking packing = sliced_packing(plan, n, seed, 0, stage->shape);
    document["sliced_tile"] = {{"stage", stage->number},     {"name", stage->name},      {"tile", packing.tile},
                               {"threads", packing.threads}, {"items", packing.items},   {"warps", packing.warps},
                               {"slice", packing.slice},     {"counts", packing.counts}, {"offsets", packing.offsets},
                               {"total", packing.total}};
    json lookback = lookback_json(lookback_example(plan, n, seed, stage->shape));
    lookback["stage"] = stage->number;
    lookback["name"] = stage->name;
    document["lookback"] = lookback;
  }
  return document.dump(1) + "\n";
}

}  // namespace stepwise::compaction
