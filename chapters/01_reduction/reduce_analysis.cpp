// --analyze: kernels 1-3's index maps (addressing.hpp) replayed on the CPU, warp by warp,
// printed as a table or as JSON for tools/plot.
#include "reduce_analysis.hpp"

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "reduction.hpp"

namespace stepwise::reduction {
namespace {

using json = nlohmann::ordered_json;  // keys in the order written: the schema reads top-down

/// The schemes --analyze reports, in the order of the slides.
constexpr Addressing kSchemes[] = {Addressing::interleaved_divergent, Addressing::interleaved_strided,
                                   Addressing::sequential};

bool power_of_two(unsigned value) { return value != 0 && (value & (value - 1)) == 0; }

/// The row of the table whose tree --analyze replays for @p scheme (its replayed_tree trait).
const ReduceStage<std::uint32_t>& scheme_stage(Addressing scheme) {
  for (const ReduceStage<std::uint32_t>& stage : reduce_stages<std::uint32_t>())
    if (stage.traits.replayed_tree == scheme) return stage;
  throw std::logic_error("no stage of the table replays this addressing scheme");
}

/// The name of the stage that runs @p scheme.
const std::string& scheme_name(Addressing scheme) { return scheme_stage(scheme).name; }

/// The line of the kernel that the scheme is, as the slides write it.
const char* scheme_formula(Addressing scheme) {
  switch (scheme) {
    case Addressing::interleaved_divergent:
      return "if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s]";
    case Addressing::interleaved_divergent_mask:
      return "if ((tid & (2*s - 1)) == 0) sdata[tid] += sdata[tid + s]";
    case Addressing::interleaved_strided:
      return "index = 2*s*tid; if (index < blockDim.x) sdata[index] += sdata[index + s]";
    case Addressing::sequential:
      return "if (tid < s) sdata[tid] += sdata[tid + s]";
  }
  return "?";
}

/// "kernel 2 (stage 3)", or "stage 2" for a scheme the slides do not have.
std::string scheme_label(Addressing scheme) {
  const std::string stage = "stage " + std::to_string(scheme_stage(scheme).number);
  if (harris_kernel(scheme) == 0) return stage;
  return "kernel " + std::to_string(harris_kernel(scheme)) + " (" + stage + ")";
}

/// True when @p a and @p b give every thread of a @p block-thread block the same work at
/// every stride of @p a's tree.
bool same_work(Addressing a, Addressing b, unsigned block) {
  if (tree_strides(a, block) != tree_strides(b, block)) return false;
  for (unsigned stride : tree_strides(a, block)) {
    for (unsigned tid = 0; tid < block; ++tid) {
      const ThreadWork x = thread_work(a, tid, stride, block);
      const ThreadWork y = thread_work(b, tid, stride, block);
      if (x.active != y.active || (x.active && (x.left != y.left || x.right != y.right))) return false;
    }
  }
  return true;
}

/// Warp 0's lanes at one stride: each lane's words, banks and the ways of its banks.
std::vector<LaneWork> warp0_lanes(Addressing scheme, unsigned stride, unsigned block) {
  std::vector<LaneWork> lanes;
  std::vector<unsigned> left;
  std::vector<unsigned> right;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    LaneWork work;
    work.lane = lane;
    work.thread = lane;
    const ThreadWork w = thread_work(scheme, lane, stride, block);
    work.active = w.active;
    if (w.active) {
      work.left = w.left;
      work.right = w.right;
      work.left_bank = w.left % kBanks;
      work.right_bank = w.right % kBanks;
      left.push_back(w.left);
      right.push_back(w.right);
    }
    lanes.push_back(work);
  }
  for (LaneWork& work : lanes) {
    if (!work.active) continue;
    work.left_ways = bank_ways(left, work.left_bank);
    work.right_ways = bank_ways(right, work.right_bank);
  }
  return lanes;
}

}  // namespace

unsigned bank_conflict_degree(const std::vector<unsigned>& words) {
  std::map<unsigned, std::set<unsigned>> words_per_bank;
  for (unsigned word : words) words_per_bank[word % kBanks].insert(word);
  unsigned degree = 0;
  for (const auto& bank : words_per_bank) degree = std::max(degree, static_cast<unsigned>(bank.second.size()));
  return degree;
}

unsigned bank_ways(const std::vector<unsigned>& words, unsigned bank) {
  std::set<unsigned> distinct;
  for (unsigned word : words)
    if (word % kBanks == bank) distinct.insert(word);
  return static_cast<unsigned>(distinct.size());
}

WarpAccesses warp_accesses(Addressing scheme, unsigned block, unsigned stride, unsigned warp) {
  WarpAccesses accesses;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const ThreadWork work = thread_work(scheme, warp * kWarpSize + lane, stride, block);
    if (!work.active) continue;
    accesses.left.push_back(work.left);
    accesses.right.push_back(work.right);
  }
  return accesses;
}

TreeAnalysis analyze(Addressing scheme, unsigned block) {
  if (block < 64 || block > 1024 || !power_of_two(block))
    throw std::invalid_argument("analysis needs a power-of-two block size in [64, 1024]");
  TreeAnalysis analysis;
  analysis.scheme = scheme;
  analysis.block = block;
  for (unsigned stride : tree_strides(scheme, block)) {
    TreeStep step;
    step.stride = stride;
    for (unsigned warp = 0; warp < block / kWarpSize; ++warp) {
      const WarpAccesses accesses = warp_accesses(scheme, block, stride, warp);
      const std::vector<unsigned>& left = accesses.left;
      const std::vector<unsigned>& right = accesses.right;
      const unsigned active = static_cast<unsigned>(left.size());
      step.active_threads += active;
      if (active > 0) ++step.active_warps;
      if (active > 0 && active < kWarpSize) ++step.divergent_warps;
      // Two reads (left, right) and one write (left): the write conflicts as the left read.
      const unsigned degree = std::max(bank_conflict_degree(left), bank_conflict_degree(right));
      step.conflict_degree = std::max(step.conflict_degree, degree);
      if (active > 0) {
        analysis.shared_accesses += 3;
        analysis.shared_wavefronts += 2 * bank_conflict_degree(left) + bank_conflict_degree(right);
      }
      if (warp == 0) step.warp0_conflict_degree = degree;
    }
    step.warp0 = warp0_lanes(scheme, stride, block);
    if (step.active_threads >= kWarpSize) analysis.avoidable_divergent_warps += step.divergent_warps;
    analysis.wasted_warp_steps += step.active_warps - (step.active_threads + kWarpSize - 1) / kWarpSize;
    analysis.worst_conflict_degree = std::max(analysis.worst_conflict_degree, step.conflict_degree);
    analysis.steps.push_back(step);
  }
  return analysis;
}

std::vector<long long> example_values(unsigned elements) {
  static const long long kSlides[] = {10, 1, 8, -1, 0, -2, 3, 5, -2, -3, 2, 7, 0, 11, 0, 2};
  std::vector<long long> values;
  for (unsigned i = 0; i < elements; ++i) values.push_back(kSlides[i % 16]);
  return values;
}

AdditionTree addition_tree(Addressing scheme, unsigned elements) {
  if (elements < kMinTreeElements || elements > kMaxTreeElements || !power_of_two(elements))
    throw std::invalid_argument("a drawn tree has a power-of-two number of words in [" +
                                std::to_string(kMinTreeElements) + ", " + std::to_string(kMaxTreeElements) + "]");
  AdditionTree tree;
  tree.scheme = scheme;
  tree.elements = elements;
  tree.input = example_values(elements);
  std::vector<long long> values = tree.input;
  for (unsigned stride : tree_strides(scheme, elements)) {
    TreeLevel level;
    level.stride = stride;
    for (unsigned tid = 0; tid < elements; ++tid) {
      const ThreadWork w = thread_work(scheme, tid, stride, elements);
      if (w.active) level.adds.push_back({tid, w.left, w.right});
    }
    // The threads of a step read before any writes (no word is both written and read as a
    // right operand in one step: a CPU test checks it), so applying them in order is exact.
    for (const TreeAdd& add : level.adds) values[add.left] += values[add.right];
    level.values = values;
    tree.levels.push_back(level);
  }
  return tree;
}

std::string render(const TreeAnalysis& analysis) {
  std::ostringstream out;
  out << scheme_label(analysis.scheme) << ", " << scheme_name(analysis.scheme) << ": "
      << scheme_formula(analysis.scheme) << "\n";
  out << "  " << analysis.block << " threads per block (" << analysis.block / kWarpSize << " warps)\n";
  out << "  step  stride  active threads  active warps  divergent warps  worst bank conflict\n";
  int number = 1;
  for (const TreeStep& step : analysis.steps) {
    out << "  " << std::setw(4) << number++ << "  " << std::setw(6) << step.stride << "  " << std::setw(14)
        << step.active_threads << "  " << std::setw(12) << step.active_warps << "  " << std::setw(15)
        << step.divergent_warps << "  " << std::setw(17) << step.conflict_degree << "-way\n";
  }
  out << "  divergent warps while >= 32 threads add: " << analysis.avoidable_divergent_warps
      << "; warp-steps spent beyond ceil(active / 32): " << analysis.wasted_warp_steps
      << "; worst bank conflict: " << analysis.worst_conflict_degree << "-way\n";
  out << "  shared-memory accesses per block (two loads and a store per active warp and step): "
      << analysis.shared_accesses << ", taking " << analysis.shared_wavefronts << " wavefronts\n";
  return out.str();
}

std::string analysis_report(unsigned block) {
  std::string report =
      "shared-memory index patterns of Harris's kernels 1-3 (stages 1, 3, 4; stages 5-8 use kernel 3's), replayed "
      "on the CPU\n\n";
  for (Addressing scheme : kSchemes) report += render(analyze(scheme, block)) + "\n";
  const Addressing mask = Addressing::interleaved_divergent_mask;
  const bool same = same_work(mask, Addressing::interleaved_divergent, block);
  report += scheme_label(mask) + ", " + scheme_name(mask) + ": " + scheme_formula(mask) + "\n  " +
            (same ? "the same threads add the same words as kernel 1 at every step (replayed for all " +
                        std::to_string(block) + " threads): kernel 1's table, without the division"
                  : "DIFFERS from kernel 1") +
            "\n";
  return report;
}

std::string analysis_json(const ChapterInfo& chapter, unsigned block, unsigned tree_elements) {
  json schemes = json::array();
  for (Addressing scheme : kSchemes) {
    const TreeAnalysis analysis = analyze(scheme, block);
    json steps = json::array();
    int number = 1;
    for (const TreeStep& step : analysis.steps) {
      json lanes = json::array();
      unsigned active_lanes = 0;
      for (const LaneWork& lane : step.warp0) {
        if (!lane.active) {
          lanes.push_back({{"lane", lane.lane}, {"thread", lane.thread}, {"active", false}});
          continue;
        }
        ++active_lanes;
        lanes.push_back({{"lane", lane.lane},
                         {"thread", lane.thread},
                         {"active", true},
                         {"left", lane.left},
                         {"right", lane.right},
                         {"left_bank", lane.left_bank},
                         {"right_bank", lane.right_bank},
                         {"left_ways", lane.left_ways},
                         {"right_ways", lane.right_ways}});
      }
      steps.push_back(
          {{"step", number++},
           {"stride", step.stride},
           {"active_threads", step.active_threads},
           {"active_warps", step.active_warps},
           {"divergent_warps", step.divergent_warps},
           {"conflict_degree", step.conflict_degree},
           {"warp0",
            {{"active_lanes", active_lanes}, {"conflict_degree", step.warp0_conflict_degree}, {"lanes", lanes}}}});
    }
    const AdditionTree tree = addition_tree(scheme, tree_elements);
    json levels = json::array();
    number = 1;
    for (const TreeLevel& level : tree.levels) {
      json adds = json::array();
      for (const TreeAdd& add : level.adds)
        adds.push_back({{"thread", add.thread}, {"left", add.left}, {"right", add.right}});
      levels.push_back({{"step", number++}, {"stride", level.stride}, {"adds", adds}, {"values", level.values}});
    }
    schemes.push_back({{"kernel", harris_kernel(scheme)},
                       {"stage", scheme_stage(scheme).number},
                       {"name", scheme_name(scheme)},
                       {"formula", scheme_formula(scheme)},
                       {"avoidable_divergent_warps", analysis.avoidable_divergent_warps},
                       {"wasted_warp_steps", analysis.wasted_warp_steps},
                       {"worst_conflict_degree", analysis.worst_conflict_degree},
                       {"shared_accesses", analysis.shared_accesses},
                       {"shared_wavefronts", analysis.shared_wavefronts},
                       {"steps", steps},
                       {"tree", levels}});
  }
  const Addressing mask = Addressing::interleaved_divergent_mask;
  json variants = json::array();
  variants.push_back({{"stage", scheme_stage(mask).number},
                      {"name", scheme_name(mask)},
                      {"formula", scheme_formula(mask)},
                      {"same_work_as_kernel", 1},
                      {"same_work", same_work(mask, Addressing::interleaved_divergent, block) &&
                                        same_work(mask, Addressing::interleaved_divergent, tree_elements)}});
  const json document = {{"analysis", "reduction-addressing"},
                         {"chapter", {{"id", chapter.id}, {"name", chapter.name}, {"title", chapter.title}}},
                         {"block", block},
                         {"warp_size", kWarpSize},
                         {"banks", kBanks},
                         {"word_bytes", 4},
                         {"tree_elements", tree_elements},
                         {"tree_input", example_values(tree_elements)},
                         {"schemes", schemes},
                         {"variants", variants}};
  return document.dump(1) + "\n";
}

}  // namespace stepwise::reduction
