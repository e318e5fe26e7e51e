/// @file chapter.hpp
/// Chapter 01 as run_chapter() sees it: its plan (the options, typed) and its spec. Host code
/// only: no CUDA header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "host/chapter.hpp"

namespace stepwise::reduction {

/// --type: the elements the chapter sums.
enum class ElementType {
  int32,   ///< summed as uint32, wrapping mod 2^32
  float32  ///< checked against a double sum, within float_sum_tolerance
};

/// Everything a run needs beyond the common options.
struct Plan {
  ElementType type = ElementType::int32;  ///< --type
  /// --block: the threads per block of every stage that lists `--block` among its options (the
  /// others keep their tuned shape), and of --analyze's step tables; nullopt when not given.
  std::optional<int> block;
  /// --tree-block: the words of the trees --analyze --format json draws; nullopt when not given.
  std::optional<int> tree_block;
};

/// --analyze's threads per block without --block.
inline constexpr int kDefaultAnalyzeBlock = 256;
/// --analyze --format json's tree words without --tree-block.
inline constexpr int kDefaultTreeBlock = 16;

/// The host memory a run over @p n elements of @p plan's type holds: the input (int32: and its
/// copy as uint32, while it is made).
double host_bytes(const Plan& plan, std::uint64_t n);

/// The chapter: info, options, table, --analyze and run.
Chapter<Plan> chapter();

}  // namespace stepwise::reduction
