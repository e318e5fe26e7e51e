/// @file plan.hpp
/// The chapter's typed options (its Plan) and what the host code derives from them. Host code
/// only: no CUDA header, no option parser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "segments.hpp"
#include "setop_data.hpp"

namespace stepwise::segmented {

/// The element types (--type).
enum class ValueType { int32, float32, float64 };

/// The default --n: 2^26 items (256 MiB of float32 values, five times the L2 of an H100).
inline constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 26;
/// The largest --n: segment ids (cub::DeviceReduce::ReduceByKey's keys) are uint32, and a
/// distribution of length-1 segments has one segment per item.
inline constexpr std::uint64_t kMaxN = (std::uint64_t{1} << 32) - 1;

/// Everything a run of the chapter needs beyond the common options; the options write straight
/// into it.
struct Plan {
  std::string problem = "segreduce";    ///< --problem: a name of segmented_problems() (registry.hpp)
  ValueType type = ValueType::float32;  ///< --type
  SegmentSpec segments;                 ///< --segments
  std::optional<SetOp> set_op;          ///< --op (setop only; intersection when not given)
  std::optional<SetInput> sets;         ///< --sets (setop only; interleaved when not given)
};

/// `int32`, `float32`, `float64`.
const char* to_string(ValueType type);
/// Bytes of one value of @p type.
std::size_t value_bytes(ValueType type);

/// Calls @p run with a value of the C++ type of @p plan's --type (std::int32_t, float or
/// double) and returns what it returns: the one place a problem's host code turns --type into
/// its template argument.
template <class Run>
auto by_type(const Plan& plan, Run&& run) {
  switch (plan.type) {
    case ValueType::int32:
      return run(std::int32_t{});
    case ValueType::float64:
      return run(double{});
    case ValueType::float32:
      break;
  }
  return run(float{});
}

}  // namespace stepwise::segmented
