/// @file plan.hpp
/// The chapter's typed options (its Plan) and what the host code derives from them: the input's
/// description and the host memory of a run. Host code only: no CUDA header, no option parser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "inputs.hpp"

namespace stepwise::compaction {

/// The key types (--type).
enum class KeyType { int32, float32 };

/// The default --n: 2^26 elements (256 MiB of int32 keys, five times the L2 of an H100), large
/// enough to measure the memory and small enough for the CPU to check the unordered rows (a
/// sort of their output) twice per row in seconds.
inline constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 26;

/// Everything a run of the chapter needs beyond the common options; the chapter's options write
/// straight into it.
struct Plan {
  KeyType type = KeyType::int32;          ///< --type
  double selectivity = 0.5;               ///< --selectivity
  Pattern pattern;                        ///< --pattern
  bool by_flags = false;                  ///< --flags: the Flagged form
  bool payload = false;                   ///< --payload: an int32 value travels with each key
  std::optional<unsigned> first_poll_ns;  ///< --first-poll-ns; unset: each look-back stage's own
  bool speculative_load = false;  ///< --speculative-load: stage 7 loads tile blockIdx.x while drawing its ticket
};

/// The host memory a run of @p plan over @p n elements holds at its peak: the input, the
/// reference and its rerun, the output the check downloads, and the sorted copies with which
/// the check compares an unordered row's output.
double host_bytes(const Plan& plan, std::uint64_t n);

/// `int32` or `float32`.
const char* to_string(KeyType type);

/// What the report's header and notes say about the input: `50 % kept (random), by key < 0`.
std::string describe_input(const Plan& plan);

}  // namespace stepwise::compaction
