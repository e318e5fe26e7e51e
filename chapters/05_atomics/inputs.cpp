#include "inputs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "host/data.hpp"
#include "host/parallel.hpp"

namespace stepwise::atomics {
namespace {

/// Keys per chunk of make_keys' parallel loops.
constexpr std::uint64_t kChunkKeys = std::uint64_t{1} << 20;

/// The most runs that share a group (runs:1: a warp's 32 keys).
constexpr std::uint64_t kMaxGroupRuns = 32;

/// A uniform double in [0, 1) from 53 bits of a hash.
double unit_interval(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1p-53; }

/// R of `runs:R` or `strided:R` (@p name is the part before the colon).
std::uint64_t parse_run(const std::string& name, const std::string& text) {
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw std::invalid_argument(name + ":R needs R, a decimal integer >= 1 (" + name + ":8)");
  const std::uint64_t run = std::stoull(text);
  if (run < 1) throw std::invalid_argument(name + ":R needs R >= 1");
  return run;
}

/// The bins of one group's runs under runs:R: @p count distinct bins of [0, @p bins) (count <=
/// bins, count <= kMaxGroupRuns), every count-subset equally likely and in random order, from the
/// random numbers splitmix64(@p draw + 0, 1, ...). Floyd's sampling picks the set in count draws
/// (for j = bins - count, ..., bins - 1: a random t in [0, j], or j when t is already taken), a
/// Fisher-Yates shuffle of the count bins then orders it.
void distinct_random_bins(std::uint64_t bins, std::uint64_t count, std::uint64_t draw, Key* chosen) {
  std::uint64_t next = 0;
  for (std::uint64_t j = bins - count; j < bins; ++j) {
    const auto t = static_cast<Key>(splitmix64(draw + next++) % (j + 1));
    Key* const end = chosen + (j - (bins - count));
    chosen[j - (bins - count)] = std::find(chosen, end, t) == end ? t : static_cast<Key>(j);
  }
  for (std::uint64_t i = count; i > 1; --i) std::swap(chosen[i - 1], chosen[splitmix64(draw + next++) % i]);
}

double parse_exponent(const std::string& text) {
  std::size_t used = 0;
  double exponent = 0.0;
  const bool digits =
      !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
  try {
    if (digits) exponent = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (!digits || used != text.size() || !(exponent > 0.0 && exponent <= 10.0))
    throw std::invalid_argument("zipf:S needs S, a decimal number in (0, 10] (zipf:1.1)");
  return exponent;
}

}  // namespace

Distribution parse_distribution(const std::string& text) {
  Distribution distribution;
  if (text == "uniform") return distribution;
  if (text == "all-equal") {
    distribution.kind = Distribution::Kind::all_equal;
    return distribution;
  }
  if (text.rfind("runs:", 0) == 0) {
    distribution.kind = Distribution::Kind::runs;
    distribution.run = parse_run("runs", text.substr(5));
    return distribution;
  }
  if (text.rfind("strided:", 0) == 0) {
    distribution.kind = Distribution::Kind::strided;
    distribution.run = parse_run("strided", text.substr(8));
    return distribution;
  }
  if (text.rfind("zipf:", 0) == 0) {
    distribution.kind = Distribution::Kind::zipf;
    distribution.exponent = parse_exponent(text.substr(5));
    return distribution;
  }
  throw std::invalid_argument("'" + text + "' is not uniform, runs:R, strided:R, zipf:S or all-equal");
}

std::string to_string(const Distribution& distribution) {
  switch (distribution.kind) {
    case Distribution::Kind::runs:
      return "runs:" + std::to_string(distribution.run);
    case Distribution::Kind::strided:
      return "strided:" + std::to_string(distribution.run);
    case Distribution::Kind::zipf: {
      std::string text = std::to_string(distribution.exponent);
      text.erase(text.find_last_not_of('0') + 1);
      if (text.back() == '.') text.pop_back();
      return "zipf:" + text;
    }
    case Distribution::Kind::all_equal:
      return "all-equal";
    case Distribution::Kind::uniform:
      break;
  }
  return "uniform";
}

Distribution keys_per_warp_distribution(int keys_per_warp) {
  Distribution distribution;
  distribution.kind = Distribution::Kind::runs;
  distribution.run = static_cast<std::uint64_t>(32 / std::max(1, keys_per_warp));
  return distribution;
}

std::vector<Key> make_keys(std::size_t n, int bin_count, const Distribution& distribution, std::uint64_t seed) {
  if (bin_count < 1) throw std::invalid_argument("at least one bin");
  std::vector<Key> keys(n);
  const auto bins = static_cast<std::uint64_t>(bin_count);
  const std::uint64_t stream = splitmix64(seed ^ 0x5157A7E5ull);
  switch (distribution.kind) {
    case Distribution::Kind::uniform:
      for_each_range(n, kChunkKeys, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) keys[i] = static_cast<Key>(splitmix64(stream + i) % bins);
      });
      break;
    case Distribution::Kind::all_equal: {
      const Key key = static_cast<Key>(splitmix64(stream) % bins);
      std::fill(keys.begin(), keys.end(), key);
      break;
    }
    case Distribution::Kind::runs:
    case Distribution::Kind::strided: {
      // Group g holds runs [g d, (g + 1) d), elements [g d R, (g + 1) d R): each chunk takes whole groups.
      const std::uint64_t run = distribution.run;
      const std::uint64_t per_group = std::max<std::uint64_t>(1, kMaxGroupRuns / run);
      const std::uint64_t group_keys = per_group * run;
      const std::uint64_t groups = (n + group_keys - 1) / group_keys;
      const bool strided = distribution.kind == Distribution::Kind::strided;
      const std::uint64_t distinct = std::min(per_group, bins);
      const std::uint64_t stride = std::max<std::uint64_t>(1, bins / per_group);
      for_each_range(groups, std::max<std::uint64_t>(1, kChunkKeys / group_keys),
                     [&](std::uint64_t first_group, std::uint64_t last_group) {
                       Key chosen[kMaxGroupRuns];
                       for (std::uint64_t g = first_group; g < last_group; ++g) {
                         const std::uint64_t first = splitmix64(stream + g) % bins;
                         if (!strided) distinct_random_bins(bins, distinct, splitmix64(stream ^ ~g), chosen);
                         const std::uint64_t end = std::min<std::uint64_t>(n, (g + 1) * group_keys);
                         for (std::uint64_t i = g * group_keys; i < end; ++i) {
                           const std::uint64_t slot = (i / run) % per_group;
                           keys[i] =
                               strided ? static_cast<Key>((first + slot * stride) % bins) : chosen[slot % distinct];
                         }
                       }
                     });
      break;
    }
    case Distribution::Kind::zipf: {
      std::vector<double> cumulative(bins);
      double total = 0.0;
      for (std::uint64_t b = 0; b < bins; ++b) {
        total += std::pow(static_cast<double>(b + 1), -distribution.exponent);
        cumulative[b] = total;
      }
      for_each_range(n, kChunkKeys, [&](std::uint64_t first, std::uint64_t last) {
        for (std::uint64_t i = first; i < last; ++i) {
          const double draw = unit_interval(splitmix64(stream + i)) * total;
          const auto bin = std::upper_bound(cumulative.begin(), cumulative.end(), draw) - cumulative.begin();
          keys[i] = static_cast<Key>(std::min<std::int64_t>(bin, bin_count - 1));
        }
      });
      break;
    }
  }
  return keys;
}

template <class Op>
std::vector<typename Op::Value> make_values(std::size_t n, std::uint64_t seed) {
  std::vector<typename Op::Value> values;
  if constexpr (Op::kHasValues) {
    values.resize(n);
    const std::uint64_t stream = splitmix64(seed ^ 0xA770F1C5ull);
    for (std::size_t i = 0; i < n; ++i)
      values[i] = static_cast<typename Op::Value>(2.0 * unit_interval(splitmix64(stream + i)) - 1.0);
  }
  return values;
}

template <class Value>
BinReference reference_bins(const std::vector<Key>& keys, const std::vector<Value>& values, int bin_count) {
  BinReference reference;
  const auto bins = static_cast<std::size_t>(bin_count);
  reference.sum.assign(bins, 0.0);
  reference.magnitude.assign(bins, 0.0);
  reference.count.assign(bins, 0);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto bin = static_cast<std::size_t>(keys[i]);
    const double value = values.empty() ? 1.0 : static_cast<double>(values[i]);
    reference.sum[bin] += value;
    reference.magnitude[bin] += std::fabs(value);
    ++reference.count[bin];
  }
  return reference;
}

double bin_tolerance(double unit_roundoff, std::uint64_t count, double magnitude) {
  return unit_roundoff * static_cast<double>(count) * magnitude;
}

template <class Op>
Check check_bins(const std::vector<typename Op::Bin>& got, const BinReference& want) {
  if constexpr (!Op::kHasValues) {
    std::vector<typename Op::Bin> counts(want.count.size());
    for (std::size_t b = 0; b < counts.size(); ++b)
      counts[b] = static_cast<typename Op::Bin>(static_cast<std::uint32_t>(want.count[b]));
    return compare_exact(got, counts);
  } else {
    std::vector<double> scale(want.count.size());
    for (std::size_t b = 0; b < scale.size(); ++b) scale[b] = bin_tolerance(1.0, want.count[b], want.magnitude[b]);
    return compare_within(got, want.sum, scale, unit_roundoff<Op>());
  }
}

std::vector<std::int32_t> make_ticket_values(std::size_t n, std::uint64_t seed) {
  return random_ints(n, seed, -1000000000, 1000000000);
}

std::vector<std::int32_t> kept_sorted(const std::vector<std::int32_t>& values) {
  std::vector<std::int32_t> kept;
  for (std::int32_t value : values)
    if (keeps(value)) kept.push_back(value);
  std::sort(kept.begin(), kept.end());
  return kept;
}

Check check_ticket(std::vector<std::int32_t> out, unsigned long long counter, const std::vector<std::int32_t>& want,
                   std::int32_t poison_value) {
  if (counter != want.size())
    return {false, "the counter is " + std::to_string(counter) + ", want " + std::to_string(want.size())};
  if (out.size() < want.size()) return {false, "the output is shorter than the kept values"};
  const auto untouched = std::find_if(out.begin() + static_cast<std::ptrdiff_t>(want.size()), out.end(),
                                      [&](std::int32_t value) { return value != poison_value; });
  if (untouched != out.end())
    return {false, "out[" + std::to_string(untouched - out.begin()) + "] was written, past the count " +
                       std::to_string(want.size())};
  out.resize(want.size());
  std::sort(out.begin(), out.end());
  const Check kept = compare_exact(out, want);
  if (!kept.passed) return {false, "the kept values, sorted: " + kept.detail};
  return kept;
}

template std::vector<std::int32_t> make_values<IntAdd>(std::size_t, std::uint64_t);
template std::vector<float> make_values<FloatAdd>(std::size_t, std::uint64_t);
template std::vector<double> make_values<DoubleCas>(std::size_t, std::uint64_t);
template BinReference reference_bins<std::int32_t>(const std::vector<Key>&, const std::vector<std::int32_t>&, int);
template BinReference reference_bins<float>(const std::vector<Key>&, const std::vector<float>&, int);
template BinReference reference_bins<double>(const std::vector<Key>&, const std::vector<double>&, int);
template Check check_bins<IntAdd>(const std::vector<std::int32_t>&, const BinReference&);
template Check check_bins<FloatAdd>(const std::vector<float>&, const BinReference&);
template Check check_bins<DoubleCas>(const std::vector<double>&, const BinReference&);

}  // namespace stepwise::atomics
