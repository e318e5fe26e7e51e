#include "inputs.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "algorithm/merge_path.hpp"
#include "host/data.hpp"
#include "host/parallel.hpp"
#include "host/sizes.hpp"

namespace stepwise::sort {
namespace {

/// The random streams of an input (data.hpp's seeded_hash).
constexpr std::uint64_t kKeyStream = 1;
constexpr std::uint64_t kPickStream = 2;

/// Elements per chunk of the parallel loops.
constexpr std::size_t kChunk = std::size_t{1} << 20;

std::int64_t chunks_of(std::size_t n) { return static_cast<std::int64_t>((n + kChunk - 1) / kChunk); }

/// The key whose bits are the low bits of @p word.
template <class K>
K key_from_word(std::uint64_t word) {
  if constexpr (sizeof(K) == 8) {
    return static_cast<K>(word);
  } else {
    const std::uint32_t bits = static_cast<std::uint32_t>(word);
    K key;
    std::memcpy(&key, &bits, sizeof key);
    return key;
  }
}

/// The AND of @p words random words at position @p index of the key stream.
std::uint64_t and_of_words(std::uint64_t seed, std::uint64_t index, std::uint64_t words) {
  std::uint64_t word = ~std::uint64_t{0};
  for (std::uint64_t w = 0; w < words; ++w) word &= seeded_hash(seed, kKeyStream + 16 * w, index);
  return word;
}

/// The mismatches of a checked range: how many, and the index of the first.
struct Mismatches {
  std::size_t count = 0;
  std::size_t first = 0;
  void add(std::size_t index) {
    if (count++ == 0) first = index;
  }
};

/// The mismatches of every chunk together, in chunk order (@p none: the first index when there are none).
Mismatches combine(const std::vector<Mismatches>& chunks, std::size_t none) {
  Mismatches total{0, none};
  for (const Mismatches& chunk : chunks) {
    if (chunk.count != 0 && total.count == 0) total.first = chunk.first;
    total.count += chunk.count;
  }
  return total;
}

/// One reference entry: a key's ordered bits and its input position; ordering by both sorts
/// stably by the bits.
template <class K>
struct Entry {
  /// Leaves the entry unset, so that a vector of 2^31 of them is not first zeroed by one thread:
  /// the parallel loops that fill it touch its pages first.
  Entry() {}
  Entry(OrderedBits<K> key_bits, std::uint64_t position) : bits(key_bits), index(position) {}
  OrderedBits<K> bits;
  std::uint64_t index;
  bool operator<(const Entry& other) const { return bits != other.bits ? bits < other.bits : index < other.index; }
};

/// Sorts @p items in parallel: chunks sorted on their own, then merged pairwise, level by level.
/// Every level is cut into pieces of kChunk outputs by Merge Path (chapter 03's search), so that
/// the last levels, with one or two pairs left, keep every thread busy too.
template <class T>
void parallel_sort(std::vector<T>& items) {
  const std::size_t n = items.size();
  const std::int64_t chunks = chunks_of(n);
  for_each_chunk(chunks, [&](std::int64_t c) {
    const std::size_t first = static_cast<std::size_t>(c) * kChunk;
    std::sort(items.begin() + first, items.begin() + std::min(n, first + kChunk));
  });
  if (chunks <= 1) return;
  std::vector<T> merged(n);
  for (std::size_t width = kChunk; width < n; width *= 2) {
    // Piece c writes the outputs [c kChunk, (c + 1) kChunk) of the level; its pair is the one those fall in.
    for_each_chunk(chunks, [&](std::int64_t c) {
      const std::size_t out_first = static_cast<std::size_t>(c) * kChunk;
      const std::size_t pair_first = out_first / (2 * width) * (2 * width);
      const std::size_t middle = std::min(n, pair_first + width);
      const std::size_t pair_last = std::min(n, pair_first + 2 * width);
      const T* a = items.data() + pair_first;
      const T* b = items.data() + middle;
      const std::size_t a_count = middle - pair_first, b_count = pair_last - middle;
      const std::size_t diagonal = out_first - pair_first;
      const std::size_t diagonal_end = std::min(pair_last, out_first + kChunk) - pair_first;
      const auto less = [](const T& x, const T& y) { return x < y; };
      const std::size_t a_begin = merge_path(a, a_count, b, b_count, diagonal, less);
      const std::size_t a_end = merge_path(a, a_count, b, b_count, diagonal_end, less);
      std::merge(a + a_begin, a + a_end, b + (diagonal - a_begin), b + (diagonal_end - a_end),
                 merged.begin() + out_first);
    });
    items.swap(merged);
  }
}

}  // namespace

InputClass parse_input(const std::string& text) {
  InputClass input;
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string argument = colon == std::string::npos ? "" : text.substr(colon + 1);
  const bool has_argument = colon != std::string::npos;
  if (name == "entropy" || name == "few") {
    if (!has_argument)
      throw std::invalid_argument("'" + text + "': " + name + " takes :" + (name == "entropy" ? "K" : "D"));
    const bool entropy = name == "entropy";
    input.kind = entropy ? InputClass::Kind::entropy : InputClass::Kind::few;
    try {
      input.parameter = static_cast<std::uint64_t>(entropy ? parse_decimal(argument, 0, 5)
                                                           : parse_decimal(argument, 1, std::int64_t{1} << 32));
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument("'" + text + "': " + error.what());
    }
    return input;
  }
  if (has_argument) throw std::invalid_argument("'" + text + "': " + name + " takes no argument");
  if (name == "uniform")
    input.kind = InputClass::Kind::uniform;
  else if (name == "sorted")
    input.kind = InputClass::Kind::sorted;
  else if (name == "reversed")
    input.kind = InputClass::Kind::reversed;
  else if (name == "equal")
    input.kind = InputClass::Kind::equal;
  else
    throw std::invalid_argument("'" + text + "': not one of uniform, entropy:K, sorted, reversed, equal, few:D");
  return input;
}

std::string to_string(const InputClass& input) {
  switch (input.kind) {
    case InputClass::Kind::uniform:
      return "uniform";
    case InputClass::Kind::entropy:
      return "entropy:" + std::to_string(input.parameter);
    case InputClass::Kind::sorted:
      return "sorted";
    case InputClass::Kind::reversed:
      return "reversed";
    case InputClass::Kind::equal:
      return "equal";
    case InputClass::Kind::few:
      return "few:" + std::to_string(input.parameter);
  }
  return "?";
}

std::vector<InputClass> all_input_classes() {
  using Kind = InputClass::Kind;
  return {{Kind::uniform, 0},  {Kind::entropy, 0}, {Kind::entropy, 3}, {Kind::entropy, 5}, {Kind::sorted, 0},
          {Kind::reversed, 0}, {Kind::equal, 0},   {Kind::few, 1},     {Kind::few, 7},     {Kind::few, 300}};
}

template <class K>
std::vector<K> make_keys(std::size_t n, const InputClass& input, std::uint64_t seed) {
  using Kind = InputClass::Kind;
  std::vector<K> keys(n);
  const std::uint64_t the_key = seeded_hash(seed, kKeyStream, 0);
  for_each_chunk(chunks_of(n), [&](std::int64_t c) {
    const std::size_t first = static_cast<std::size_t>(c) * kChunk;
    const std::size_t last = std::min(n, first + kChunk);
    for (std::size_t i = first; i < last; ++i) {
      std::uint64_t word = 0;
      switch (input.kind) {
        case Kind::entropy:
          word = input.parameter == 0 ? the_key : and_of_words(seed, i, input.parameter);
          break;
        case Kind::equal:
          word = the_key;
          break;
        case Kind::few:
          word = seeded_hash(seed, kKeyStream, seeded_hash(seed, kPickStream, i) % input.parameter);
          break;
        default:
          word = seeded_hash(seed, kKeyStream, i);
          break;
      }
      keys[i] = key_from_word<K>(word);
    }
  });
  if (input.kind == Kind::sorted || input.kind == Kind::reversed) {
    keys = sort_reference(keys, {}).keys;
    if (input.kind == Kind::reversed) std::reverse(keys.begin(), keys.end());
  }
  return keys;
}

std::vector<Value> make_values(std::size_t n) {
  std::vector<Value> values(n);
  for_each_chunk(chunks_of(n), [&](std::int64_t c) {
    const std::size_t first = static_cast<std::size_t>(c) * kChunk;
    const std::size_t last = std::min(n, first + kChunk);
    for (std::size_t i = first; i < last; ++i) values[i] = static_cast<Value>(i & 0x7fffffffu);
  });
  return values;
}

template <class K>
Sorted<K> sort_reference(const std::vector<K>& keys, const std::vector<Value>& values) {
  const std::size_t n = keys.size();
  std::vector<Entry<K>> entries(n);
  for_each_chunk(chunks_of(n), [&](std::int64_t c) {
    const std::size_t first = static_cast<std::size_t>(c) * kChunk;
    const std::size_t last = std::min(n, first + kChunk);
    for (std::size_t i = first; i < last; ++i) entries[i] = {ordered_bits(keys[i]), i};
  });
  parallel_sort(entries);
  Sorted<K> sorted;
  sorted.keys.resize(n);
  if (!values.empty()) sorted.values.resize(n);
  for_each_chunk(chunks_of(n), [&](std::int64_t c) {
    const std::size_t first = static_cast<std::size_t>(c) * kChunk;
    const std::size_t last = std::min(n, first + kChunk);
    for (std::size_t j = first; j < last; ++j) {
      sorted.keys[j] = keys[entries[j].index];
      if (!values.empty()) sorted.values[j] = values[entries[j].index];
    }
  });
  return sorted;
}

template <class K>
Check check_sorted(const std::vector<K>& got_keys, const std::vector<Value>& got_values, const Sorted<K>& reference) {
  const std::size_t n = reference.keys.size();
  if (got_keys.size() != n || got_values.size() != reference.values.size())
    return {false, "output size " + std::to_string(got_keys.size()) + ", want " + std::to_string(n)};
  // Each chunk counts its own mismatches and notes its first; the first chunk with any has the first index.
  const std::int64_t chunks = chunks_of(n);
  std::vector<Mismatches> keys_wrong(static_cast<std::size_t>(chunks)), values_wrong(keys_wrong.size());
  const bool with_values = !reference.values.empty();
  for_each_chunk(chunks, [&](std::int64_t c) {
    const std::size_t first = static_cast<std::size_t>(c) * kChunk;
    const std::size_t last = std::min(n, first + kChunk);
    Mismatches& keys = keys_wrong[static_cast<std::size_t>(c)];
    Mismatches& values = values_wrong[static_cast<std::size_t>(c)];
    for (std::size_t i = first; i < last; ++i) {
      if (std::memcmp(&got_keys[i], &reference.keys[i], sizeof(K)) != 0) keys.add(i);
      if (with_values && got_values[i] != reference.values[i]) values.add(i);
    }
  });
  const Mismatches keys_total = combine(keys_wrong, n), values_total = combine(values_wrong, n);
  const std::size_t key_errors = keys_total.count, first_key = keys_total.first;
  const std::size_t value_errors = values_total.count, first_value = values_total.first;
  if (key_errors == 0 && value_errors == 0) return {};
  std::ostringstream text;
  text.precision(9);
  if (key_errors != 0)
    text << key_errors << " of " << n << " keys differ; first at index " << first_key << ": got "
         << +got_keys[first_key] << ", want " << +reference.keys[first_key];
  if (value_errors != 0)
    text << (key_errors != 0 ? "; " : "") << value_errors << " of " << n
         << " values differ (equal keys out of input order, or values not moved with their keys); first at index "
         << first_value << ": got " << got_values[first_value] << ", want " << reference.values[first_value];
  return {false, text.str()};
}

#define SORT_INPUT_FUNCTIONS(K)                                                           \
  template std::vector<K> make_keys<K>(std::size_t, const InputClass&, std::uint64_t);    \
  template Sorted<K> sort_reference<K>(const std::vector<K>&, const std::vector<Value>&); \
  template Check check_sorted<K>(const std::vector<K>&, const std::vector<Value>&, const Sorted<K>&)
SORT_INPUT_FUNCTIONS(std::uint32_t);
SORT_INPUT_FUNCTIONS(std::int32_t);
SORT_INPUT_FUNCTIONS(float);
SORT_INPUT_FUNCTIONS(std::uint64_t);
#undef SORT_INPUT_FUNCTIONS

}  // namespace stepwise::sort
