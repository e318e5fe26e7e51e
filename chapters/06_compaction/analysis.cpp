#include "analysis.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "parallel.hpp"
#include "sizes.hpp"

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

}  // namespace

std::vector<StageCost> stage_costs(const Plan& plan, std::uint64_t n, std::uint64_t seed,
                                   const std::vector<StageInfo>& stages, std::uint64_t& kept) {
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
  for (const StageInfo& stage : stages) {
    if (stage.kind != RowKind::kernel) continue;
    StageCost cost;
    cost.name = stage.name;
    const std::uint64_t tile =
        static_cast<std::uint64_t>(stage.shape.threads) * static_cast<std::uint64_t>(stage.shape.items);
    const double blocks = static_cast<double>(kAnalyzedSms) * stage.shape.blocks_per_sm;
    cost.input_passes = 1;
    cost.launches = 1;
    cost.bytes = stream_bytes;
    switch (stage.number) {
      case 1:
        cost.counter_atomics = kept;
        break;
      case 2:
        cost.counter_atomics = groups_with_kept(32);
        break;
      case 3:
      case 8:
        cost.counter_atomics = groups_with_kept(tile);
        break;
      case 4:
        cost.input_passes = 2;
        cost.launches = 3;
        cost.bytes += elements * test_bytes + 3.0 * 8.0 * blocks;  // counts written, read and rewritten, read
        break;
      case 5:
        cost.input_passes = 2;
        cost.launches = 2;
        cost.bytes += elements * test_bytes + 8.0 * blocks;  // the sums of counts before each block hit L2
        break;
      default:  // 6, 7: one ticket per tile; the statuses are 8 bytes per tile
        cost.ticket_atomics = (n + tile - 1) / tile;
        cost.bytes += 16.0 * static_cast<double>(cost.ticket_atomics);
        break;
    }
    costs.push_back(cost);
  }
  return costs;
}

std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<StageInfo>& stages) {
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
  out << "\nstage 2: one atomic per 32-element warp holding a kept element; stages 3 and 8: one per tile holding\n"
         "one; stages 4 and 5 read the test bytes (keys or flags) a second time and use no atomic; 6 and 7 draw one\n"
         "ticket per tile and find their place by the look-back. Stages 4 and 5 assume "
      << kAnalyzedSms << " SMs.\n";
  return out.str();
}

}  // namespace stepwise::compaction
