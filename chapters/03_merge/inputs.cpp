#include "inputs.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "host/data.hpp"

namespace stepwise::merge {
namespace {

/// The k-th random word of the stream @p stream of @p seed.
std::uint64_t random_word(std::uint64_t seed, std::uint64_t stream, std::uint64_t k) {
  return seeded_hash(seed, stream, k);
}

/// Keys are generated as offsets from the smallest key of K (0 .. kSpan), which keeps their
/// order: the key of offset x is lowest + x.
template <class K>
constexpr std::uint64_t kSpan = static_cast<std::uint64_t>(std::numeric_limits<std::make_unsigned_t<K>>::max());

template <class K>
K key_at(std::uint64_t offset) {
  using U = std::make_unsigned_t<K>;
  return static_cast<K>(static_cast<U>(static_cast<U>(std::numeric_limits<K>::min()) + static_cast<U>(offset)));
}

/// @p count sorted keys from offset @p low, spread over [low, low + span]: random gaps in
/// [0, span / count], whose sum can never pass span.
template <class K>
std::vector<K> spread_keys(std::size_t count, std::uint64_t low, std::uint64_t span, std::uint64_t seed,
                           std::uint64_t stream) {
  std::vector<K> keys(count);
  const std::uint64_t widest = count == 0 ? 0 : span / count;
  std::uint64_t offset = low;
  for (std::size_t i = 0; i < count; ++i) {
    offset += widest == 0 ? 0 : random_word(seed, stream, i) % (widest + 1);
    keys[i] = key_at<K>(offset);
  }
  return keys;
}

/// @p count sorted keys from offset @p low in runs of about 16 equal keys (the next key, one
/// above, with probability 1/16): every key between the first and the last occurs.
template <class K>
std::vector<K> duplicate_keys(std::size_t count, std::uint64_t low, std::uint64_t seed, std::uint64_t stream) {
  std::vector<K> keys(count);
  std::uint64_t offset = low;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t word = random_word(seed, stream, i);
    if (word % 16 == 0) ++offset;
    keys[i] = key_at<K>(offset);
  }
  return keys;
}

/// A random offset in the second quarter of the key range: its key is negative, so never 0 or -1.
template <class K>
std::uint64_t quarter_offset(std::uint64_t seed, std::uint64_t stream) {
  return kSpan<K> / 4 + random_word(seed, stream, 0) % (kSpan<K> / 4);
}

template <class K>
SortedArrays<K> interleaved_keys(std::size_t a_count, std::size_t b_count, std::uint64_t seed) {
  SortedArrays<K> arrays;
  arrays.a.reserve(a_count);
  arrays.b.reserve(b_count);
  const std::uint64_t total = a_count + b_count;
  const std::uint64_t step = total == 0 ? 1 : std::max<std::uint64_t>(1, kSpan<K> / (total + 1));
  // Position p of the merged order goes to A when the running share of A crosses a whole element
  // (Bresenham's line through (total, a_count)): exactly a_count of them, spread evenly.
  std::uint64_t share = total / 2;
  for (std::uint64_t p = 0; p < total; ++p) {
    const K key = key_at<K>(p * step + random_word(seed, 7, p) % step);
    share += a_count;
    if (share >= total) {
      share -= total;
      arrays.a.push_back(key);
    } else {
      arrays.b.push_back(key);
    }
  }
  return arrays;
}

/// Offsets from per-object gaps: object k starts at floor(cum_k * items / cum_total).
std::vector<std::int32_t> offsets_from_gaps(const std::vector<std::uint64_t>& gaps, std::size_t item_count) {
  std::vector<std::int32_t> offsets(gaps.size());
  unsigned __int128 total = 0;
  for (std::uint64_t gap : gaps) total += gap;
  unsigned __int128 running = 0;
  for (std::size_t k = 0; k < gaps.size(); ++k) {
    offsets[k] = total == 0 ? 0 : static_cast<std::int32_t>(running * item_count / total);
    running += gaps[k];
  }
  return offsets;
}

}  // namespace

const std::vector<std::string>& distribution_names() {
  static const std::vector<std::string> names = {"uniform", "duplicates", "equal", "disjoint", "interleaved"};
  return names;
}

Distribution parse_distribution(const std::string& name) {
  const std::vector<std::string>& names = distribution_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<Distribution>(i);
  throw std::invalid_argument("unknown distribution '" + name + "'");
}

const char* to_string(Distribution distribution) {
  return distribution_names()[static_cast<std::size_t>(distribution)].c_str();
}

template <class K>
SortedArrays<K> sorted_arrays(std::size_t a_count, std::size_t b_count, Distribution distribution, std::uint64_t seed) {
  constexpr std::uint64_t kHalf = kSpan<K> / 2;
  switch (distribution) {
    case Distribution::uniform:
      return {spread_keys<K>(a_count, 0, kHalf, seed, 1), spread_keys<K>(b_count, 0, kHalf, seed, 2)};
    case Distribution::duplicates: {
      const std::uint64_t low = quarter_offset<K>(seed, 3);
      return {duplicate_keys<K>(a_count, low, seed, 1), duplicate_keys<K>(b_count, low, seed, 2)};
    }
    case Distribution::equal: {
      const K key = key_at<K>(quarter_offset<K>(seed, 4));
      return {std::vector<K>(a_count, key), std::vector<K>(b_count, key)};
    }
    case Distribution::disjoint:
      return {spread_keys<K>(a_count, 0, kHalf - 1, seed, 1), spread_keys<K>(b_count, kHalf + 1, kHalf - 1, seed, 2)};
    case Distribution::interleaved:
      return interleaved_keys<K>(a_count, b_count, seed);
  }
  throw std::invalid_argument("unknown distribution");
}

Value pair_value(std::uint64_t index, std::uint64_t seed) {
  const auto salt = static_cast<std::uint32_t>(splitmix64(seed ^ 0x5A17ull));
  return static_cast<Value>(static_cast<std::uint32_t>(index) * 0x9E3779B1u + salt);  // odd factor: a bijection
}

std::vector<Value> pair_values(std::size_t first, std::size_t count, std::uint64_t seed) {
  std::vector<Value> values(count);
  for (std::size_t k = 0; k < count; ++k) values[k] = pair_value(first + k, seed);
  return values;
}

std::vector<std::int32_t> lbs_offsets(std::size_t object_count, std::size_t item_count, Distribution distribution,
                                      std::uint64_t seed) {
  if (item_count > 0 && object_count == 0) throw std::invalid_argument("items need at least one object");
  if (item_count > kMaxIndexed || object_count > kMaxIndexed)
    throw std::invalid_argument("the load-balancing search takes at most 2^31 - 1 items and objects");
  const std::size_t m = object_count;
  std::vector<std::uint64_t> gaps(m, 1);
  switch (distribution) {
    case Distribution::uniform:  // random cut points: counts spread around the mean, some empty
      for (std::size_t k = 0; k < m; ++k) gaps[k] = random_word(seed, 5, k) % (1u << 20);
      break;
    case Distribution::duplicates:  // about 15 of 16 objects empty, the rest large
      for (std::size_t k = 0; k < m; ++k) {
        const std::uint64_t word = random_word(seed, 6, k);
        gaps[k] = word % 16 == 0 ? 1 + (word >> 32) % (1u << 20) : 0;
      }
      break;
    case Distribution::equal:
      break;
    case Distribution::disjoint:  // the first half empty, the second half sharing every item
      for (std::size_t k = 0; k < m / 2; ++k) gaps[k] = 0;
      break;
    case Distribution::interleaved:  // empty and full objects alternate (one object: full)
      for (std::size_t k = 0; k < m; ++k) gaps[k] = m == 1 || k % 2 == 1 ? 1 : 0;
      break;
  }
  // Object k's count is its gap's share of the items; a last all-zero draw falls back to equal.
  bool any = false;
  for (std::uint64_t gap : gaps) any = any || gap != 0;
  if (!any) gaps.assign(m, 1);
  return offsets_from_gaps(gaps, item_count);
}

template <class K>
void merge_reference(const std::vector<K>& a_keys, const std::vector<Value>& a_values, const std::vector<K>& b_keys,
                     const std::vector<Value>& b_values, std::vector<K>& out_keys, std::vector<Value>& out_values) {
  const bool pairs = !a_values.empty() || !b_values.empty();
  const std::size_t a_count = a_keys.size(), b_count = b_keys.size();
  std::size_t a = 0, b = 0;
  for (std::size_t i = 0; i < a_count + b_count; ++i) {
    const bool from_a = b >= b_count || (a < a_count && !(b_keys[b] < a_keys[a]));  // a[ai] <= b[bi]: A first
    if (from_a) {
      out_keys[i] = a_keys[a];
      if (pairs) out_values[i] = a_values[a];
      ++a;
    } else {
      out_keys[i] = b_keys[b];
      if (pairs) out_values[i] = b_values[b];
      ++b;
    }
  }
}

template <class K>
Check check_merge(const std::vector<K>& got_keys, const std::vector<Value>& got_values, const std::vector<K>& want_keys,
                  const std::vector<Value>& want_values) {
  const Check keys = compare_exact(got_keys, want_keys);
  if (!keys.passed) return {false, "keys: " + keys.detail};
  if (want_values.empty()) return keys;
  const Check values = compare_exact(got_values, want_values);
  if (!values.passed) return {false, "values (keys all right: equal keys reordered?): " + values.detail};
  return values;
}

template SortedArrays<std::int32_t> sorted_arrays<std::int32_t>(std::size_t, std::size_t, Distribution, std::uint64_t);
template SortedArrays<std::int64_t> sorted_arrays<std::int64_t>(std::size_t, std::size_t, Distribution, std::uint64_t);
template void merge_reference<std::int32_t>(const std::vector<std::int32_t>&, const std::vector<Value>&,
                                            const std::vector<std::int32_t>&, const std::vector<Value>&,
                                            std::vector<std::int32_t>&, std::vector<Value>&);
template void merge_reference<std::int64_t>(const std::vector<std::int64_t>&, const std::vector<Value>&,
                                            const std::vector<std::int64_t>&, const std::vector<Value>&,
                                            std::vector<std::int64_t>&, std::vector<Value>&);
template Check check_merge<std::int32_t>(const std::vector<std::int32_t>&, const std::vector<Value>&,
                                         const std::vector<std::int32_t>&, const std::vector<Value>&);
template Check check_merge<std::int64_t>(const std::vector<std::int64_t>&, const std::vector<Value>&,
                                         const std::vector<std::int64_t>&, const std::vector<Value>&);

}  // namespace stepwise::merge
