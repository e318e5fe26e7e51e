/// @file inputs.hpp
/// The chapter's inputs, its CPU reference and the check of a row's output. Host code only.
///
/// An input is n keys of one type (uint32, int32, float32, uint64), drawn from a seed as
/// --input says, and, with --pairs, one int32 value per key: its input position (modulo 2^31),
/// so that an output whose equal keys came out of order shows it in the values. Every class but
/// `equal` draws its keys from random words; `equal` repeats one random key, and its values still
/// differ, so no input is all zeros or all ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host/verify.hpp"
#include "keys.hpp"

namespace stepwise::sort {

/// The value a key carries with --pairs.
using Value = std::int32_t;

/// How the keys are drawn (--input).
struct InputClass {
  enum class Kind {
    uniform,   ///< random words: every bit pattern equally likely (float: NaNs and infinities included)
    entropy,   ///< entropy:K: the AND of K random words (Thearling & Smith): fewer bits set as K grows
    sorted,    ///< uniform keys, already in order
    reversed,  ///< uniform keys, in reverse order
    equal,     ///< one random key n times
    few,       ///< few:D: each key one of D random keys
  };
  Kind kind = Kind::uniform;
  /// entropy:K: the words ANDed (0: one random key repeated, as `equal`; 1: uniform; 5: about
  /// 6.4 bits of entropy per 32-bit key); few:D: the distinct keys D.
  std::uint64_t parameter = 0;
  friend bool operator==(const InputClass& a, const InputClass& b) {
    return a.kind == b.kind && a.parameter == b.parameter;
  }
};

/// `uniform`, `entropy:K` (K in 0..5), `sorted`, `reversed`, `equal`, `few:D` (D in [1, 2^32]).
/// @throws std::invalid_argument saying what is wrong with @p text.
InputClass parse_input(const std::string& text);
/// The class as --input takes it.
std::string to_string(const InputClass& input);

/// The inputs every GPU test runs: each class once.
std::vector<InputClass> all_input_classes();

/// n keys of type K drawn as @p input says from @p seed (the same keys for any thread count).
template <class K>
std::vector<K> make_keys(std::size_t n, const InputClass& input, std::uint64_t seed);

/// The values of --pairs: value i is i modulo 2^31.
std::vector<Value> make_values(std::size_t n);

/// What a sort returns: the keys in order, and with pairs the values in the same order.
template <class K>
struct Sorted {
  std::vector<K> keys;
  std::vector<Value> values;  ///< empty for keys only
};

/// The CPU reference: @p keys (and @p values, when not empty) stably sorted by ordered_bits(),
/// in parallel chunks merged pairwise (common/host/parallel.hpp).
template <class K>
Sorted<K> sort_reference(const std::vector<K>& keys, const std::vector<Value>& values);

/// Checks one row's output against @p reference: the keys as bit patterns (so that NaNs and
/// -0.0 compare), and with pairs the values, which differ where equal keys left their input
/// order. The first mismatch is named.
template <class K>
Check check_sorted(const std::vector<K>& got_keys, const std::vector<Value>& got_values, const Sorted<K>& reference);

}  // namespace stepwise::sort
