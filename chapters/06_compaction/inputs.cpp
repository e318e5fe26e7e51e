#include "inputs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "host/data.hpp"
#include "host/parallel.hpp"
#include "host/sizes.hpp"

namespace stepwise::compaction {
namespace {

/// The random streams of an input: which elements are kept, their keys, flags and values.
enum Stream : std::uint64_t { kKeepStream = 1, kKeyStream = 2, kFlagStream = 3, kValueStream = 4 };

/// A 64-bit hash of (seed, stream, index).
std::uint64_t hash(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return splitmix64(splitmix64(seed + stream * 0x632BE59BD9B4E019ull) + index);
}

template <class K>
K kept_key(std::uint64_t bits);
template <class K>
K dropped_key(std::uint64_t bits);

template <>
std::int32_t kept_key<std::int32_t>(std::uint64_t bits) {  // [-2^31, -1]
  return static_cast<std::int32_t>(-1 - static_cast<std::int64_t>(bits >> 33));
}
template <>
std::int32_t dropped_key<std::int32_t>(std::uint64_t bits) {  // [0, 2^31 - 1]
  return static_cast<std::int32_t>(bits >> 33);
}
template <>
float kept_key<float>(std::uint64_t bits) {  // [-1, -2^-24]
  return -static_cast<float>((bits >> 40) + 1) * 0x1p-24f;
}
template <>
float dropped_key<float>(std::uint64_t bits) {  // [0, 1)
  return static_cast<float>(bits >> 40) * 0x1p-24f;
}

/// The bit pattern of @p value, widened.
template <class T>
std::uint64_t bits_of(T value) {
  static_assert(sizeof(T) == 4, "4-byte keys and values");
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// Key and value of element @p i as one word: key bits high, value bits low (key alone
/// without a payload). Sorting these words sorts the pairs.
template <class K>
std::vector<std::uint64_t> pair_words(const std::vector<K>& keys, const std::vector<Payload>& values,
                                      std::size_t count) {
  std::vector<std::uint64_t> words(count);
  const bool payload = !values.empty();
  for_each_range(count, kHostChunk, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      words[i] = payload ? (bits_of(keys[i]) << 32 | bits_of(values[i])) : bits_of(keys[i]);
  });
  return words;
}

}  // namespace

Pattern parse_pattern(const std::string& text) {
  if (text == "random") return {};
  const std::string prefix = "runs:";
  if (text.rfind(prefix, 0) == 0) {
    Pattern pattern;
    pattern.kind = Pattern::Kind::runs;
    try {
      pattern.run = static_cast<std::uint64_t>(parse_decimal(text.substr(prefix.size()), 1, std::int64_t{1} << 40));
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("pattern '" + text + "': the run length R of runs:R must be an integer in [1, 2^40]");
    }
    return pattern;
  }
  throw std::invalid_argument("pattern '" + text + "' is not random or runs:R");
}

std::string to_string(const Pattern& pattern) {
  return pattern.kind == Pattern::Kind::runs ? "runs:" + std::to_string(pattern.run) : "random";
}

double parse_selectivity(const std::string& text) { return parse_fraction(text, "selectivity"); }

bool is_kept(std::uint64_t seed, std::size_t i, double selectivity, const Pattern& pattern) {
  if (selectivity <= 0.0) return false;
  if (selectivity >= 1.0) return true;
  const std::uint64_t unit = pattern.kind == Pattern::Kind::runs ? i / pattern.run : i;
  const double uniform = static_cast<double>(hash(seed, kKeepStream, unit) >> 11) * 0x1p-53;  // [0, 1)
  return uniform < selectivity;
}

template <class K>
SelectInput<K> make_input(std::size_t n, double selectivity, const Pattern& pattern, bool payload, std::uint64_t seed) {
  SelectInput<K> input;
  input.keys.resize(n);
  input.flags.resize(n);
  if (payload) input.values.resize(n);
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      const bool kept = is_kept(seed, i, selectivity, pattern);
      const std::uint64_t key_bits = hash(seed, kKeyStream, i);
      input.keys[i] = kept ? kept_key<K>(key_bits) : dropped_key<K>(key_bits);
      input.flags[i] = kept ? static_cast<std::uint8_t>(1 + hash(seed, kFlagStream, i) % 255) : 0;
      if (payload) input.values[i] = static_cast<Payload>(static_cast<std::uint32_t>(hash(seed, kValueStream, i)));
    }
  });
  return input;
}

template <class K>
Selection<K> select_reference(const SelectInput<K>& input, bool by_flags) {
  Selection<K> selection;
  const bool payload = !input.values.empty();
  for (std::size_t i = 0; i < input.keys.size(); ++i) {
    if (by_flags ? input.flags[i] != 0 : keeps_key(input.keys[i])) {
      selection.keys.push_back(input.keys[i]);
      if (payload) selection.values.push_back(input.values[i]);
    }
  }
  return selection;
}

void radix_sort(std::vector<std::uint64_t>& words, int significant_bits) {
  constexpr int kDigitBits = 16;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  std::vector<std::uint64_t> scratch(words.size());
  std::vector<std::size_t> offsets(kBuckets);
  for (int shift = 0; shift < significant_bits; shift += kDigitBits) {
    std::fill(offsets.begin(), offsets.end(), 0);
    for (std::uint64_t word : words) ++offsets[(word >> shift) & (kBuckets - 1)];
    std::size_t running = 0;
    for (std::size_t& offset : offsets) running += std::exchange(offset, running);
    for (std::uint64_t word : words) scratch[offsets[(word >> shift) & (kBuckets - 1)]++] = word;
    words.swap(scratch);
  }
}

template <class K>
Check check_selection(const std::vector<K>& got_keys, const std::vector<Payload>& got_values, std::uint64_t got_count,
                      const Selection<K>& reference, bool ordered, K poison_key, Payload poison_value) {
  const std::size_t want = reference.keys.size();
  const bool payload = !reference.values.empty();
  if (got_count != want) return {false, "kept count " + std::to_string(got_count) + ", want " + std::to_string(want)};
  if (got_keys.size() < want || (payload && got_values.size() < want))
    return {false, "the output holds " + std::to_string(got_keys.size()) + " elements, fewer than the " +
                       std::to_string(want) + " kept"};
  for (std::size_t i = want; i < got_keys.size(); ++i)
    if (bits_of(got_keys[i]) != bits_of(poison_key) || (payload && bits_of(got_values[i]) != bits_of(poison_value)))
      return {false, "output element " + std::to_string(i) + " was written, past the " + std::to_string(want) +
                         " kept elements"};
  if (ordered) {
    for (std::size_t i = 0; i < want; ++i) {
      if (bits_of(got_keys[i]) != bits_of(reference.keys[i]) || (payload && got_values[i] != reference.values[i])) {
        std::size_t mismatches = 0;
        for (std::size_t j = i; j < want; ++j)
          mismatches +=
              bits_of(got_keys[j]) != bits_of(reference.keys[j]) || (payload && got_values[j] != reference.values[j]);
        return {false, std::to_string(mismatches) + " of " + std::to_string(want) +
                           " kept elements differ from the input order; first at index " + std::to_string(i) +
                           ": got key " + std::to_string(got_keys[i]) + ", want " + std::to_string(reference.keys[i])};
      }
    }
    return {};
  }
  std::vector<std::uint64_t> got_words = pair_words(got_keys, got_values, want);
  std::vector<std::uint64_t> want_words = pair_words(reference.keys, reference.values, want);
  radix_sort(got_words, payload ? 64 : 32);
  radix_sort(want_words, payload ? 64 : 32);
  const auto [got_at, want_at] = std::mismatch(got_words.begin(), got_words.end(), want_words.begin());
  if (got_at == got_words.end()) return {};
  return {false, "the kept elements are not the reference's (as a multiset): after sorting, element " +
                     std::to_string(got_at - got_words.begin()) + " differs"};
}

template SelectInput<std::int32_t> make_input<std::int32_t>(std::size_t, double, const Pattern&, bool, std::uint64_t);
template SelectInput<float> make_input<float>(std::size_t, double, const Pattern&, bool, std::uint64_t);
template Selection<std::int32_t> select_reference<std::int32_t>(const SelectInput<std::int32_t>&, bool);
template Selection<float> select_reference<float>(const SelectInput<float>&, bool);
template Check check_selection<std::int32_t>(const std::vector<std::int32_t>&, const std::vector<Payload>&,
                                             std::uint64_t, const Selection<std::int32_t>&, bool, std::int32_t,
                                             Payload);
template Check check_selection<float>(const std::vector<float>&, const std::vector<Payload>&, std::uint64_t,
                                      const Selection<float>&, bool, float, Payload);

}  // namespace stepwise::compaction
