#include "setop_data.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <random>

namespace stepwise::segmented {

const char* to_string(SetOp op) {
  switch (op) {
    case SetOp::intersection:
      return "intersection";
    case SetOp::union_:
      return "union";
    case SetOp::difference:
      return "difference";
    case SetOp::symmetric_difference:
      break;
  }
  return "symmetric_difference";
}

const char* to_string(SetInput input) {
  for (const auto& [name, value] : set_input_names())
    if (value == input) return name.c_str();
  return "?";
}

const std::vector<std::pair<std::string, SetOp>>& set_op_names() {
  static const std::vector<std::pair<std::string, SetOp>> names = {
      {"intersection", SetOp::intersection},
      {"union", SetOp::union_},
      {"difference", SetOp::difference},
      {"symmetric_difference", SetOp::symmetric_difference}};
  return names;
}

const std::vector<std::pair<std::string, SetInput>>& set_input_names() {
  static const std::vector<std::pair<std::string, SetInput>> names = {{"disjoint", SetInput::disjoint},
                                                                      {"identical", SetInput::identical},
                                                                      {"interleaved", SetInput::interleaved},
                                                                      {"duplicates", SetInput::duplicates},
                                                                      {"empty_a", SetInput::empty_a},
                                                                      {"empty_b", SetInput::empty_b},
                                                                      {"skew", SetInput::skew}};
  return names;
}

std::pair<std::uint64_t, std::uint64_t> set_sizes(std::uint64_t n, SetInput input) {
  switch (input) {
    case SetInput::empty_a:
      return {0, n};
    case SetInput::empty_b:
      return {n, 0};
    case SetInput::skew:
      return {n - n / 1001, n / 1001};  // |B| = floor(|A| / 1000) for n >= 1001
    default:
      break;
  }
  return {n - n / 2, n / 2};
}

namespace {

constexpr std::int64_t kLowest = std::numeric_limits<std::int32_t>::min();
constexpr double kSpan = 4294967295.0;  // the int32 keys from kLowest up

/// @p count sorted keys from kLowest + @p offset (or from @p offset, where they fit above 0), consecutive keys @p
/// mean_gap apart on average (integer gaps, 0 included when the mean is below 1), at most kSpan / @p stride apart in
/// all: each key is kLowest + offset + stride * (running sum of the gaps), capped at the last one that fits.
std::vector<std::int32_t> sorted_keys(std::uint64_t count, double mean_gap, std::int64_t stride, std::int64_t offset,
                                      std::mt19937_64& rng) {
  // Keys start at 0 (plus offset) where a quarter of the int32 range holds them, else at INT_MIN.
  if (static_cast<double>(count) * mean_gap * static_cast<double>(stride) < kSpan / 4) offset += std::int64_t{1} << 31;
  const double room = (kSpan - static_cast<double>(offset)) / static_cast<double>(stride);
  if (count > 0) mean_gap = std::min(mean_gap, 0.9 * room / static_cast<double>(count));
  const auto last = static_cast<std::int64_t>(room);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<std::int32_t> keys(count);
  std::int64_t position = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    position += static_cast<std::int64_t>(2.0 * mean_gap * unit(rng) + unit(rng));
    position = std::min(position, last);
    keys[i] = static_cast<std::int32_t>(kLowest + offset + stride * position);
  }
  return keys;
}

}  // namespace

SetInputs make_sets(std::uint64_t n, SetInput input, std::uint64_t seed) {
  const auto [a_count, b_count] = set_sizes(n, input);
  std::mt19937_64 rng(seed);
  SetInputs sets;
  switch (input) {
    case SetInput::disjoint:
      sets.a = sorted_keys(a_count, 1.0, 2, 0, rng);
      sets.b = sorted_keys(b_count, 1.0, 2, 1, rng);
      break;
    case SetInput::identical:
      sets.a = sorted_keys(a_count, 2.0, 1, 0, rng);
      sets.b.assign(sets.a.begin(), sets.a.begin() + static_cast<std::ptrdiff_t>(b_count));
      break;
    case SetInput::duplicates:
      sets.a = sorted_keys(a_count, 1.0 / 16, 1, 0, rng);
      sets.b = sorted_keys(b_count, 1.0 / 16, 1, 0, rng);
      break;
    case SetInput::skew:
      sets.a = sorted_keys(a_count, 2.0, 1, 0, rng);
      sets.b = sorted_keys(b_count, b_count == 0 ? 2.0 : 2.0 * static_cast<double>(a_count) / b_count, 1, 0, rng);
      break;
    default:  // interleaved, empty_a, empty_b
      sets.a = sorted_keys(a_count, 2.0, 1, 0, rng);
      sets.b = sorted_keys(b_count, 2.0, 1, 0, rng);
      break;
  }
  return sets;
}

std::uint64_t set_op_bound(SetOp op, std::uint64_t a_count, std::uint64_t b_count) {
  return op_reads_b_side(op) ? a_count + b_count : a_count;
}

std::vector<std::int32_t> set_op_on_cpu(SetOp op, const std::vector<std::int32_t>& a,
                                        const std::vector<std::int32_t>& b) {
  std::vector<std::int32_t> out;
  out.reserve(set_op_bound(op, a.size(), b.size()));
  auto to = std::back_inserter(out);
  switch (op) {
    case SetOp::intersection:
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), to);
      break;
    case SetOp::union_:
      std::set_union(a.begin(), a.end(), b.begin(), b.end(), to);
      break;
    case SetOp::difference:
      std::set_difference(a.begin(), a.end(), b.begin(), b.end(), to);
      break;
    case SetOp::symmetric_difference:
      std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), to);
      break;
  }
  return out;
}

}  // namespace stepwise::segmented
