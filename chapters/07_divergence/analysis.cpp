#include "analysis.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "options.hpp"
#include "sizes.hpp"

namespace stepwise::divergence {
namespace {

std::string commas(std::uint64_t value) { return format_grouped(static_cast<std::int64_t>(value)); }

/// The first generation's paths of @p plan's input, and the rounds of each path.
std::vector<std::uint8_t> first_paths(const Plan& plan, std::uint64_t n, std::uint64_t seed, unsigned* rounds) {
  if (plan.workload == WorkloadKind::mutation) {
    const Mutation work = mutation_work(plan, seed);
    for (unsigned p = 0; p < kMaxPaths; ++p) rounds[p] = work.rounds[p];
    return paths_of(work, std::vector<Genome>(n), 0);  // a mutation draw does not read the genome
  }
  const Synthetic work = synthetic_work(plan);
  for (unsigned p = 0; p < kMaxPaths; ++p) rounds[p] = work.rounds[p];
  return paths_of(work, synthetic_input(n, plan.paths, plan.divergence, seed), 0);
}

std::size_t moved_by(const std::vector<std::uint32_t>& order) {
  std::size_t moved = 0;
  for (std::size_t t = 0; t < order.size(); ++t) moved += order[t] != t ? 1 : 0;
  return moved;
}

}  // namespace

std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed) {
  unsigned rounds[kMaxPaths] = {};
  const std::uint64_t analyzed = std::min(n, kMaxAnalyzedElements);
  const std::vector<std::uint8_t> paths = first_paths(plan, analyzed, seed, rounds);
  std::ostringstream out;
  out << "chapter 07 --analyze | n = " << format_count(n) << " | " << describe_workload(plan) << " | seed " << seed
      << "\n";
  if (analyzed < n)
    out << "analyzed: the first " << format_count(analyzed)
        << " elements (every warp draws its paths alike: their shares and efficiencies stand for all n; the counts "
           "are theirs)\n";
  out << "\npath  rounds  elements    share\n";
  std::size_t histogram[kMaxPaths] = {};
  for (std::uint8_t p : paths) ++histogram[p];
  char line[256];
  for (unsigned p = 0; p < plan.paths; ++p) {
    std::snprintf(line, sizeof line, "%4u %7u %9s %7.2f %%\n", p, rounds[p], commas(histogram[p]).c_str(),
                  analyzed == 0 ? 0.0 : 100.0 * static_cast<double>(histogram[p]) / static_cast<double>(analyzed));
    out << line;
  }
  const WarpCost own = warp_cost(paths, {}, rounds);
  const std::vector<std::uint32_t> sorted = order_by_path(paths);
  const WarpCost grouped = warp_cost(paths, sorted, rounds);
  const std::vector<std::uint32_t> partial = partial_order(paths);
  const WarpCost partly = warp_cost(paths, partial, rounds);
  const std::size_t partial_moved = partial_moves(paths).size();
  const Sample sample = sample_warps(paths, rounds);
  std::snprintf(
      line, sizeof line, "\ndivergent warps: %s of %s (%.2f %%)\n\n", commas(own.divergent_warps).c_str(),
      commas(own.warps).c_str(),
      own.warps == 0 ? 0.0 : 100.0 * static_cast<double>(own.divergent_warps) / static_cast<double>(own.warps));
  out << line;
  std::snprintf(line, sizeof line, "%3s  %-14s %18s %11s %16s %14s\n", "#", "stage", "warp-rounds issued", "efficiency",
                "divergent warps", "elements moved");
  out << line;
  struct Row {
    int number;
    const char* name;
    double issued, efficiency;
    std::size_t divergent, moved;
  };
  const bool remaps = sample.remaps();
  std::vector<Row> rows = {
      {1, "divergent", own.branch_rounds, own.branch_efficiency(), own.divergent_warps, 0},
      {2, "branch-light", own.loop_rounds, own.loop_efficiency(), own.divergent_warps, 0},
      {3, "redirect", grouped.loop_rounds, grouped.loop_efficiency(), grouped.divergent_warps, moved_by(sorted)},
      {4, "transform", grouped.loop_rounds, grouped.loop_efficiency(), grouped.divergent_warps, moved_by(sorted)},
      {5, "partial", partly.loop_rounds, partly.loop_efficiency(), partly.divergent_warps, partial_moved}};
  if (plan.workload == WorkloadKind::mutation) {
    rows.push_back({6, "pipelined-cpu", grouped.loop_rounds, grouped.loop_efficiency(), grouped.divergent_warps,
                    moved_by(sorted)});
    const std::vector<std::uint32_t> heaviest = order_by_slot(paths, heaviest_first(rounds, plan.paths));
    const WarpCost pipelined = warp_cost(paths, heaviest, rounds);
    rows.push_back({7, "pipelined", pipelined.loop_rounds, pipelined.loop_efficiency(), pipelined.divergent_warps,
                    moved_by(heaviest)});
  }
  std::size_t lean_listed = 0;
  const WarpCost lean = plan.workload == WorkloadKind::mutation
                            ? lean_cost(paths, costliest_path(rounds, plan.paths), rounds, &lean_listed)
                            : WarpCost{};
  rows.push_back({8, "controlled", remaps ? grouped.loop_rounds : own.loop_rounds,
                  remaps ? grouped.loop_efficiency() : own.loop_efficiency(),
                  remaps ? grouped.divergent_warps : own.divergent_warps, remaps ? moved_by(sorted) : 0});
  if (plan.workload == WorkloadKind::mutation)
    rows.push_back({9, "pipelined-lean", lean.loop_rounds, lean.loop_efficiency(), lean.divergent_warps, lean_listed});
  for (const Row& row : rows) {
    std::snprintf(line, sizeof line, "%3d  %-14s %18s %10.1f%% %16s %14s\n", row.number, row.name,
                  commas(static_cast<std::uint64_t>(row.issued)).c_str(), 100.0 * row.efficiency,
                  commas(row.divergent).c_str(), commas(row.moved).c_str());
    out << line;
  }
  std::snprintf(line, sizeof line,
                "\nstage 8's sample: %.0f warps, %.1f rounds per warp without a remap, %.1f grouped by path: "
                "saves %.1f >= %.0f? %s\n",
                sample.warps, sample.warps > 0 ? sample.sum_max / sample.warps : 0.0,
                sample.warps > 0 ? sample.sum_mean / sample.warps : 0.0,
                sample.warps > 0 ? (sample.sum_max - sample.sum_mean) / sample.warps : 0.0, kBreakEvenRounds,
                remaps ? "yes: remaps (stage 3)" : "no: runs stage 2");
  out << line;
  out << "warp-rounds issued: per warp of 32 threads, the sum of its paths' rounds (stage 1, a branch per path)\n"
         "or its longest lane's rounds (one loop); efficiency: lanes busy per issued round. Per step.\n";
  return out.str();
}

}  // namespace stepwise::divergence
