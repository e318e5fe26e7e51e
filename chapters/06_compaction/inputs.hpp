/// @file inputs.hpp
/// The chapter's inputs, its CPU reference and the check of a row's output, shared by main,
/// --analyze and the tests. Host code only.
///
/// A stream compaction keeps the elements that pass a test. Here the test is either a
/// predicate on the key, `key < 0` (cub::DeviceSelect::If's form), or a separate byte per
/// element, kept where it is not zero (`--flags`, DeviceSelect::Flagged's form). Which
/// elements pass is drawn first, with probability P (`--selectivity`) per element (`random`) or
/// per run of R elements (`runs:R`: long kept and dropped runs, which cross tile edges); the
/// keys are then drawn on the matching side of 0 (negative when kept), so the predicate and
/// the flags keep the same elements and every input is random, never all zeros or all ones.
/// With `--payload` each key carries a random int32 value that is kept with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithm/hd.hpp"
#include "host/verify.hpp"

namespace stepwise::compaction {

/// The value a key carries with --payload.
using Payload = std::int32_t;

/// Where the kept elements lie.
struct Pattern {
  enum class Kind { random, runs };
  Kind kind = Kind::random;
  std::uint64_t run = 1;  ///< runs:R: the run length R (at least 1)
  friend bool operator==(const Pattern& a, const Pattern& b) { return a.kind == b.kind && a.run == b.run; }
};

/// `random` or `runs:R` (R a decimal integer in [1, 2^40]).
/// @throws std::invalid_argument saying what is wrong with @p text.
Pattern parse_pattern(const std::string& text);
/// The pattern as --pattern takes it: `random`, `runs:1000`.
std::string to_string(const Pattern& pattern);

/// A selectivity as --selectivity takes it: a percentage `50%`, `0.5%`, or a fraction `0.5`,
/// in [0, 1] (0 keeps nothing, 1 keeps everything).
/// @throws std::invalid_argument saying what is wrong with @p text.
double parse_selectivity(const std::string& text);

/// Whether element @p i is kept, for inputs drawn from @p seed: with probability
/// @p selectivity, independently per element (random) or per run of R elements (runs:R).
/// A function of (seed, i) alone, so the tests can ask about any element.
bool is_kept(std::uint64_t seed, std::size_t i, double selectivity, const Pattern& pattern);

/// One compaction input: the keys, the flags (1-255 where kept, 0 where not; filled for every
/// input, used by --flags) and, with a payload, the values.
template <class K>
struct SelectInput {
  std::vector<K> keys;
  std::vector<std::uint8_t> flags;
  std::vector<Payload> values;  ///< empty without --payload
};

/// n elements as the file comment says: kept ones (is_kept) get a key below 0 (int32: in
/// [-2^31, -1]; float: in [-1, 0)), dropped ones a key at or above 0 (int32: [0, 2^31 - 1];
/// float: [0, 1)); values, with @p payload, are random int32.
template <class K>
SelectInput<K> make_input(std::size_t n, double selectivity, const Pattern& pattern, bool payload, std::uint64_t seed);

/// The predicate of the If form, `key < 0`: the kernels, the library rows' functor and the CPU
/// reference all call this one.
template <class K>
STEPWISE_HD inline bool keeps_key(K key) {
  return key < K(0);
}

/// What a compaction returns: the kept keys (and values) in input order.
template <class K>
struct Selection {
  std::vector<K> keys;
  std::vector<Payload> values;  ///< empty without a payload
};

/// The CPU reference: the elements whose flag is set (@p by_flags) or whose key is below 0,
/// in input order. Both forms keep the same elements of a make_input input.
template <class K>
Selection<K> select_reference(const SelectInput<K>& input, bool by_flags);

/// Sorts 32- or 64-bit unsigned words in place, least significant 16 bits first (2 or 4
/// counting passes): linear time, for the multiset check of the unordered rows at 2^28.
void radix_sort(std::vector<std::uint64_t>& words, int significant_bits);

/// Checks one row's output: @p got_count must equal the reference's size; the first
/// got_count keys (and values) must equal the reference in order when @p ordered, or as a
/// multiset (sorted bit patterns of key and value together) when not; every element past
/// got_count must still hold the poison the harness wrote (@p poison_key, @p poison_value),
/// compared as bit patterns. @p got_values is empty without a payload.
template <class K>
Check check_selection(const std::vector<K>& got_keys, const std::vector<Payload>& got_values, std::uint64_t got_count,
                      const Selection<K>& reference, bool ordered, K poison_key, Payload poison_value);

}  // namespace stepwise::compaction
