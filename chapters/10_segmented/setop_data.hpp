/// @file setop_data.hpp
/// The set-operation problem's host side: its operations and input classes by name, the two
/// sorted multisets it runs on, and the CPU reference (std::set_*). Host code only: no CUDA
/// header, so the CPU tests link it alone.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "set_ops.hpp"

namespace stepwise::segmented {

/// The keys of the set operations.
using SetKey = std::int32_t;

/// The two inputs' shapes (--sets).
enum class SetInput {
  disjoint,     ///< A's keys even, B's odd: no key in both, the merge alternates
  identical,    ///< B is A (n odd: A's first n/2 keys)
  interleaved,  ///< both drawn over one range, gaps of 0 to 4: some keys in both, few duplicates
  duplicates,   ///< about 16 copies of every key on both sides: the multiset counts decide
  empty_a,      ///< A empty, all n in B
  empty_b,      ///< B empty, all n in A
  skew,         ///< |B| = |A| / 1000, spread over A's range
};

/// `intersection`, `union`, `difference`, `symmetric_difference`.
const char* to_string(SetOp op);
/// `disjoint`, `identical`, ... as --sets spells them.
const char* to_string(SetInput input);

/// The names --op takes, each with its operation.
const std::vector<std::pair<std::string, SetOp>>& set_op_names();
/// The names --sets takes, each with its input class.
const std::vector<std::pair<std::string, SetInput>>& set_input_names();

/// The two sorted multisets of one run.
struct SetInputs {
  std::vector<std::int32_t> a;
  std::vector<std::int32_t> b;
};

/// How @p n elements split between A and B for @p input: {|A|, |B|}, summing to n.
std::pair<std::uint64_t, std::uint64_t> set_sizes(std::uint64_t n, SetInput input);

/// Two sorted multisets of @p n elements in all, of class @p input, reproducible from @p seed.
/// Drawn already sorted (random gaps between consecutive keys), so that n past 2^31 costs one
/// pass; the keys stay within int32, with more duplicates where n is too large for the gaps.
SetInputs make_sets(std::uint64_t n, SetInput input, std::uint64_t seed);

/// The most elements @p op can keep from inputs of @p a_count and @p b_count elements: the
/// output buffer's size (|A| for intersection and difference, |A| + |B| otherwise).
std::uint64_t set_op_bound(SetOp op, std::uint64_t a_count, std::uint64_t b_count);

/// The CPU reference: std::set_intersection, set_union, set_difference or
/// set_symmetric_difference of @p a and @p b.
std::vector<std::int32_t> set_op_on_cpu(SetOp op, const std::vector<std::int32_t>& a,
                                        const std::vector<std::int32_t>& b);

}  // namespace stepwise::segmented
