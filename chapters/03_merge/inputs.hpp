/// @file inputs.hpp
/// The chapter's inputs and CPU references, shared by main and the tests. Host code only.
///
/// Every input is generated in O(n) from a seed (sorted arrays are built by random gaps, never
/// by sorting), is never all zeros or all ones, and comes in five distributions that put the
/// merge's ties and skews where bugs live.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host/verify.hpp"
#include "merge.hpp"

namespace stepwise::merge {

/// How the keys of A and B (or the objects' counts) are drawn.
enum class Distribution {
  uniform,     ///< both arrays spread over the same range; equal keys are rare
  duplicates,  ///< runs of about 16 equal keys, the same keys in A and B: ties everywhere
  equal,       ///< every key of A and B is one (random, non-zero) value
  disjoint,    ///< every key of A is below every key of B
  interleaved  ///< distinct keys that alternate between A and B as evenly as the sizes allow
};

/// The names --distribution accepts, in this order: uniform, duplicates, equal, disjoint, interleaved.
const std::vector<std::string>& distribution_names();
/// The distribution named @p name. @throws std::invalid_argument for any other name.
Distribution parse_distribution(const std::string& name);
/// The name of @p distribution.
const char* to_string(Distribution distribution);

/// Two sorted arrays of keys (std::int32_t or std::int64_t).
template <class K>
struct SortedArrays {
  std::vector<K> a;
  std::vector<K> b;
};

/// A of @p a_count and B of @p b_count sorted keys drawn as @p distribution says, reproducible
/// from @p seed. 64-bit keys span far more than 32 bits (keys equal in their low word differ in
/// their high one).
template <class K>
SortedArrays<K> sorted_arrays(std::size_t a_count, std::size_t b_count, Distribution distribution, std::uint64_t seed);

/// The values of a pair merge: element i of the concatenation A then B carries
/// `pair_value(i, seed)`, distinct for every i < 2^32, so that any reordering of equal keys
/// (an unstable merge) changes the output's values.
Value pair_value(std::uint64_t index, std::uint64_t seed);
/// pair_value(first + k, seed) for k < count.
std::vector<Value> pair_values(std::size_t first, std::size_t count, std::uint64_t seed);

/// The objects' offsets of a load-balancing search: @p object_count objects sharing
/// @p item_count items, as @p distribution says (uniform: random cut points; duplicates: about 15
/// of every 16 objects empty; equal: the same count for every object, up to one; disjoint: the
/// first half of the objects empty; interleaved: empty and full objects alternate).
/// offsets[0] = 0, non-decreasing, the last at most @p item_count.
/// @throws std::invalid_argument for items without objects or counts above kMaxIndexed.
std::vector<std::int32_t> lbs_offsets(std::size_t object_count, std::size_t item_count, Distribution distribution,
                                      std::uint64_t seed);

/// The CPU reference of the merge: the talk's sequential merge (ties take A), keys and, when
/// @p a_values is not empty, values. Writes out_keys (and out_values), sized by the caller.
template <class K>
void merge_reference(const std::vector<K>& a_keys, const std::vector<Value>& a_values, const std::vector<K>& b_keys,
                     const std::vector<Value>& b_values, std::vector<K>& out_keys, std::vector<Value>& out_values);

/// Exact comparison of a merge's keys and (if @p want_values is not empty) values.
template <class K>
Check check_merge(const std::vector<K>& got_keys, const std::vector<Value>& got_values, const std::vector<K>& want_keys,
                  const std::vector<Value>& want_values);

}  // namespace stepwise::merge
