#include "analysis.hpp"

#include <algorithm>
#include <bitset>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "host/sizes.hpp"
#include "options.hpp"

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

/// What analyze() reports, computed once for the text and the JSON.
struct Analysis {
  std::uint64_t analyzed = 0;
  unsigned rounds[kMaxPaths] = {};
  std::vector<std::size_t> histogram;
  WarpCost own;
  struct Row {
    int number;
    std::string name;
    double issued, efficiency;
    std::size_t divergent, moved;
  };
  std::vector<Row> rows;
  Sample sample;
};

/// The number of the first of @p stages arranged as @p arrangement (0 when none is).
int first_arranged(const std::vector<StageFacts>& stages, Arrangement arrangement) {
  for (const StageFacts& stage : stages)
    if (stage.traits.arrangement == arrangement) return stage.info.number;
  return 0;
}

Analysis analysis_of(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<StageFacts>& stages) {
  Analysis result;
  result.analyzed = std::min(n, kMaxAnalyzedElements);
  const std::vector<std::uint8_t> paths = first_paths(plan, result.analyzed, seed, result.rounds);
  const unsigned* rounds = result.rounds;
  result.histogram.assign(plan.paths, 0);
  for (std::uint8_t p : paths) ++result.histogram[p];
  const WarpCost own = warp_cost(paths, {}, rounds);
  result.own = own;
  const std::vector<std::uint32_t> sorted = order_by_path(paths);
  const WarpCost grouped = warp_cost(paths, sorted, rounds);
  result.sample = sample_warps(paths, rounds);
  const bool remaps = result.sample.remaps();
  for (const StageFacts& stage : stages) {
    Analysis::Row row{stage.info.number, stage.info.name, 0, 0, 0, 0};
    const auto costed = [&row](const WarpCost& cost, std::size_t moved) {
      row.issued = cost.loop_rounds;
      row.efficiency = cost.loop_efficiency();
      row.divergent = cost.divergent_warps;
      row.moved = moved;
    };
    switch (stage.traits.arrangement) {
      case Arrangement::own_branches:
        row.issued = own.branch_rounds;
        row.efficiency = own.branch_efficiency();
        row.divergent = own.divergent_warps;
        break;
      case Arrangement::own_loop:
        costed(own, 0);
        break;
      case Arrangement::by_path:
        costed(grouped, moved_by(sorted));
        break;
      case Arrangement::partial:
        costed(warp_cost(paths, partial_order(paths), rounds), partial_moves(paths).size());
        break;
      case Arrangement::heaviest_first: {
        const std::vector<std::uint32_t> heaviest = order_by_slot(paths, heaviest_first(result.rounds, plan.paths));
        costed(warp_cost(paths, heaviest, rounds), moved_by(heaviest));
        break;
      }
      case Arrangement::sampled:
        costed(remaps ? grouped : own, remaps ? moved_by(sorted) : 0);
        break;
      case Arrangement::lean: {
        std::size_t listed = 0;
        const WarpCost lean = lean_cost(paths, costliest_path(result.rounds, plan.paths), rounds, &listed);
        costed(lean, listed);
        break;
      }
    }
    result.rows.push_back(row);
  }
  return result;
}

/// The distinct paths of each warp of @p width threads, thread t on element order[t] (on
/// element t when @p order is empty).
std::vector<unsigned> paths_per_warp(const std::vector<std::uint8_t>& paths, const std::vector<std::uint32_t>& order,
                                     unsigned width) {
  std::vector<unsigned> distinct;
  for (std::size_t first = 0; first < paths.size(); first += width) {
    unsigned seen = 0;
    for (std::size_t t = first; t < std::min<std::size_t>(first + width, paths.size()); ++t)
      seen |= 1u << paths[order.empty() ? t : order[t]];
    distinct.push_back(static_cast<unsigned>(std::bitset<kMaxPaths>(seen).count()));
  }
  return distinct;
}

}  // namespace

std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<StageFacts>& stages) {
  const Analysis analysis = analysis_of(plan, n, seed, stages);
  const std::uint64_t analyzed = analysis.analyzed;
  std::ostringstream out;
  out << "chapter 07 --analyze | n = " << format_count(n) << " | " << describe_workload(plan) << " | seed " << seed
      << "\n";
  if (analyzed < n)
    out << "analyzed: the first " << format_count(analyzed)
        << " elements (every warp draws its paths alike: their shares and efficiencies stand for all n; the counts "
           "are theirs)\n";
  out << "\npath  rounds  elements    share\n";
  char line[256];
  for (unsigned p = 0; p < plan.paths; ++p) {
    std::snprintf(
        line, sizeof line, "%4u %7u %9s %7.2f %%\n", p, analysis.rounds[p], commas(analysis.histogram[p]).c_str(),
        analyzed == 0 ? 0.0 : 100.0 * static_cast<double>(analysis.histogram[p]) / static_cast<double>(analyzed));
    out << line;
  }
  const WarpCost& own = analysis.own;
  std::snprintf(
      line, sizeof line, "\ndivergent warps: %s of %s (%.2f %%)\n\n", commas(own.divergent_warps).c_str(),
      commas(own.warps).c_str(),
      own.warps == 0 ? 0.0 : 100.0 * static_cast<double>(own.divergent_warps) / static_cast<double>(own.warps));
  out << line;
  std::snprintf(line, sizeof line, "%3s  %-14s %18s %11s %16s %14s\n", "#", "stage", "warp-rounds issued", "efficiency",
                "divergent warps", "elements moved");
  out << line;
  for (const Analysis::Row& row : analysis.rows) {
    std::snprintf(line, sizeof line, "%3d  %-14s %18s %10.1f%% %16s %14s\n", row.number, row.name.c_str(),
                  commas(static_cast<std::uint64_t>(row.issued)).c_str(), 100.0 * row.efficiency,
                  commas(row.divergent).c_str(), commas(row.moved).c_str());
    out << line;
  }
  const Sample& sample = analysis.sample;
  const std::string decision =
      sample.remaps() ? "yes: remaps (stage " + std::to_string(first_arranged(stages, Arrangement::by_path)) + ")"
                      : "no: runs stage " + std::to_string(first_arranged(stages, Arrangement::own_loop));
  std::snprintf(
      line, sizeof line,
      "\nstage %d's sample: %.0f warps, %.1f rounds per warp without a remap, %.1f grouped by path: "
      "saves %.1f >= %.0f? %s\n",
      first_arranged(stages, Arrangement::sampled), sample.warps,
      sample.warps > 0 ? sample.sum_max / sample.warps : 0.0, sample.warps > 0 ? sample.sum_mean / sample.warps : 0.0,
      sample.warps > 0 ? (sample.sum_max - sample.sum_mean) / sample.warps : 0.0, kBreakEvenRounds, decision.c_str());
  out << line;
  out << "warp-rounds issued: per warp of 32 threads, the sum of its paths' rounds (stage "
      << first_arranged(stages, Arrangement::own_branches)
      << ", a branch per path)\n"
         "or its longest lane's rounds (one loop); efficiency: lanes busy per issued round. Per step.\n";
  return out.str();
}

PvectorExample pvector_example() {
  PvectorExample example;
  example.values = {2, 11, 14, 7, 5, 20, 3, 12, 9, 16, 1, 13, 8, 15, 4, 10};
  for (std::uint32_t a : example.values)
    example.paths.push_back(static_cast<std::uint8_t>(2u * (a % 2u) + (a < 10u ? 1u : 0u)));
  example.order = order_by_path(example.paths);
  example.paths_before = paths_per_warp(example.paths, {}, example.warp_width);
  example.paths_after = paths_per_warp(example.paths, example.order, example.warp_width);
  return example;
}

std::string analyze_json(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<StageFacts>& stages) {
  using json = nlohmann::ordered_json;  // keys in the order written: the schema reads top-down
  const PvectorExample example = pvector_example();
  json pvectors = json::array();
  for (std::uint8_t p : example.paths) pvectors.push_back({p >> 1, p & 1});
  std::vector<unsigned> paths(example.paths.begin(), example.paths.end());
  json document;
  document["analysis"] = "divergence-remap";
  document["chapter"] = "07";
  document["pvector_example"] = {{"source", "Zhang, Jiang, Guo, Shen, ICS 2010, slides 10-16"},
                                 {"conditions", {"A[tid] % 2", "A[tid] < 10"}},
                                 {"warp_width", example.warp_width},
                                 {"values", example.values},
                                 {"pvectors", pvectors},
                                 {"paths", paths},
                                 {"order", example.order},
                                 {"paths_per_warp_before", example.paths_before},
                                 {"paths_per_warp_after", example.paths_after}};
  const Analysis analysis = analysis_of(plan, n, seed, stages);
  json histogram = json::array();
  for (unsigned p = 0; p < plan.paths; ++p)
    histogram.push_back({{"path", p}, {"rounds", analysis.rounds[p]}, {"elements", analysis.histogram[p]}});
  json rows = json::array();
  for (const Analysis::Row& row : analysis.rows)
    rows.push_back({{"stage", row.number},
                    {"name", row.name},
                    {"warp_rounds", row.issued},
                    {"efficiency", row.efficiency},
                    {"divergent_warps", row.divergent},
                    {"elements_moved", row.moved}});
  const Sample& sample = analysis.sample;
  document["input"] = {{"n", n},
                       {"analyzed", analysis.analyzed},
                       {"workload", describe_workload(plan)},
                       {"seed", seed},
                       {"paths", histogram},
                       {"warps", analysis.own.warps},
                       {"divergent_warps", analysis.own.divergent_warps},
                       {"stages", rows},
                       {"sample",
                        {{"warps", sample.warps},
                         {"rounds_without_remap", sample.warps > 0 ? sample.sum_max / sample.warps : 0.0},
                         {"rounds_grouped", sample.warps > 0 ? sample.sum_mean / sample.warps : 0.0},
                         {"break_even_rounds", kBreakEvenRounds},
                         {"remaps", sample.remaps()}}}};
  return document.dump(2) + "\n";
}

}  // namespace stepwise::divergence
