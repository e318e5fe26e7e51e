#include "inputs.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "host/data.hpp"
#include "host/parallel.hpp"
#include "host/parallel_sort.hpp"
#include "host/sizes.hpp"
#include "host/verify.hpp"

namespace stepwise::sort {
namespace {

/// The random streams of an input (data.hpp's seeded_hash).
constexpr std::uint64_t kKeyStream = 1;
constexpr std::uint64_t kPickStream = 2;

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
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
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
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) values[i] = static_cast<Value>(i & 0x7fffffffu);
  });
  return values;
}

template <class K>
Sorted<K> sort_reference(const std::vector<K>& keys, const std::vector<Value>& values) {
  const std::size_t n = keys.size();
  std::vector<Entry<K>> entries(n);
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) entries[i] = {ordered_bits(keys[i]), i};
  });
  parallel_sort(entries);
  Sorted<K> sorted;
  sorted.keys.resize(n);
  if (!values.empty()) sorted.values.resize(n);
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
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
  const Mismatches keys_total =
      count_mismatches(n, [&](std::size_t i) { return std::memcmp(&got_keys[i], &reference.keys[i], sizeof(K)) != 0; });
  const Mismatches values_total = reference.values.empty() ? Mismatches{} : count_mismatches(n, [&](std::size_t i) {
    return got_values[i] != reference.values[i];
  });
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
