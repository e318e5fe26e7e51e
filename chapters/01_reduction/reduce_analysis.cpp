// --analyze: kernels 1-3's index maps (addressing.hpp) replayed on the CPU, warp by warp.
#include "reduce_analysis.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace stepwise::reduction {

unsigned bank_conflict_degree(const std::vector<unsigned>& words) {
  std::map<unsigned, std::set<unsigned>> words_per_bank;
  for (unsigned word : words) words_per_bank[word % kBanks].insert(word);
  unsigned degree = 0;
  for (const auto& bank : words_per_bank) degree = std::max(degree, static_cast<unsigned>(bank.second.size()));
  return degree;
}

TreeAnalysis analyze(Addressing scheme, unsigned block) {
  if (block < 64 || block > 1024 || (block & (block - 1)) != 0)
    throw std::invalid_argument("analysis needs a power-of-two block size in [64, 1024]");
  TreeAnalysis analysis;
  analysis.scheme = scheme;
  analysis.block = block;
  for (unsigned stride : tree_strides(scheme, block)) {
    TreeStep step;
    step.stride = stride;
    for (unsigned warp = 0; warp < block / kWarpSize; ++warp) {
      std::vector<unsigned> left;
      std::vector<unsigned> right;
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        const ThreadWork work = thread_work(scheme, warp * kWarpSize + lane, stride, block);
        if (!work.active) continue;
        left.push_back(work.left);
        right.push_back(work.right);
      }
      const unsigned active = static_cast<unsigned>(left.size());
      step.active_threads += active;
      if (active > 0) ++step.active_warps;
      if (active > 0 && active < kWarpSize) ++step.divergent_warps;
      // Two reads (left, right) and one write (left): the write conflicts as the left read.
      step.conflict_degree = std::max({step.conflict_degree, bank_conflict_degree(left), bank_conflict_degree(right)});
    }
    if (step.active_threads >= kWarpSize) analysis.avoidable_divergent_warps += step.divergent_warps;
    analysis.wasted_warp_steps += step.active_warps - (step.active_threads + kWarpSize - 1) / kWarpSize;
    analysis.worst_conflict_degree = std::max(analysis.worst_conflict_degree, step.conflict_degree);
    analysis.steps.push_back(step);
  }
  return analysis;
}

namespace {

const char* scheme_name(Addressing scheme) {
  switch (scheme) {
    case Addressing::interleaved_divergent:
      return "interleaved-divergent: if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s]";
    case Addressing::interleaved_strided:
      return "interleaved-strided: index = 2*s*tid; sdata[index] += sdata[index + s]";
    case Addressing::sequential:
      return "sequential: if (tid < s) sdata[tid] += sdata[tid + s]";
  }
  return "?";
}

}  // namespace

std::string render(const TreeAnalysis& analysis) {
  std::ostringstream out;
  out << "kernel " << static_cast<int>(analysis.scheme) << ", " << scheme_name(analysis.scheme) << "\n";
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
  return out.str();
}

std::string analysis_report(unsigned block) {
  std::string report =
      "shared-memory index patterns of kernels 1-3 (kernels 4-6 use kernel 3's), replayed on the CPU\n\n";
  for (Addressing scheme : {Addressing::interleaved_divergent, Addressing::interleaved_strided, Addressing::sequential})
    report += render(analyze(scheme, block)) + "\n";
  return report;
}

}  // namespace stepwise::reduction
