/// @file analysis.hpp
/// --analyze: what each stage costs on the chosen input, counted on the CPU from the same
/// elements the GPU run would keep: atomics on the output counter, passes over the input,
/// kernel launches and the bytes each stage moves. Host code only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"
#include "types.hpp"

namespace stepwise::compaction {

/// The SM count --analyze assumes for the fixed grids of stages 4 and 5 (an H100 SXM's).
inline constexpr int kAnalyzedSms = 132;

/// The most elements --analyze counts one by one: 2^26, about a second. Above, it counts the
/// first 2^26 and scales their shares to n, and says so.
inline constexpr std::uint64_t kMaxCountedElements = std::uint64_t{1} << 26;

/// What one stage costs on one input.
struct StageCost {
  std::string name;
  std::uint64_t counter_atomics = 0;  ///< atomics on the output counter (stages 1-3 and 8)
  std::uint64_t ticket_atomics = 0;   ///< atomics on the tile ticket (stages 6-7)
  int input_passes = 0;               ///< times the input (or its test bytes) is read
  int launches = 0;                   ///< kernels per run
  double bytes = 0.0;                 ///< the bytes the stage moves through device memory
};

/// The costs of @p stages (the table's kernel rows, with their default shapes) on the input of
/// @p plan with @p n elements drawn from @p seed; kept is set to the kept count. Counted on the
/// first kMaxCountedElements elements at most, and scaled to n beyond.
/// Stage 2's atomics: the 32-element groups (warps) holding a kept element; stage 3's: the
/// tiles holding one; stages 4 and 5: kAnalyzedSms x blocks_per_sm blocks.
std::vector<StageCost> stage_costs(const Plan& plan, std::uint64_t n, std::uint64_t seed,
                                   const std::vector<StageInfo>& stages, std::uint64_t& kept);

/// The --analyze report.
std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<StageInfo>& stages);

}  // namespace stepwise::compaction
