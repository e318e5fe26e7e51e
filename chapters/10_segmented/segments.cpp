#include "segments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "host/data.hpp"
#include "host/sizes.hpp"

namespace stepwise::segmented {
namespace {

/// The random streams of the input (seeded_hash): each part drawn on its own.
constexpr std::uint64_t kLengthStream = 1;
constexpr std::uint64_t kEmptyStream = 2;
constexpr std::uint64_t kValueStream = 3;

/// A uniform double in [0, 1) from draw @p index of @p stream.
double unit(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return static_cast<double>(seeded_hash(seed, stream, index) >> 11) * 0x1.0p-53;
}

/// A length uniform in [lo, hi] from draw @p index.
std::uint64_t uniform_length(std::uint64_t seed, std::uint64_t index, std::uint64_t lo, std::uint64_t hi) {
  return lo + seeded_hash(seed, kLengthStream, index) % (hi - lo + 1);
}

}  // namespace

SegmentSpec parse_segments(const std::string& text) {
  SegmentSpec spec;
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string argument = colon == std::string::npos ? "" : text.substr(colon + 1);
  const bool has_argument = colon != std::string::npos;
  try {
    if (name == "uniform" || name == "zipf" || name == "empty") {
      if (!has_argument)
        throw std::invalid_argument(name + " takes :" + (name == "uniform" ? "L" : name == "zipf" ? "S" : "P"));
      if (name == "uniform") {
        spec.kind = SegmentSpec::Kind::uniform;
        spec.parameter = static_cast<double>(parse_decimal(argument, 1, std::int64_t{1} << 31));
      } else if (name == "zipf") {
        spec.kind = SegmentSpec::Kind::zipf;
        spec.parameter = parse_plain_real(argument, 1.1, 4.0);
      } else {
        spec.kind = SegmentSpec::Kind::empty;
        spec.parameter = static_cast<double>(parse_decimal(argument, 0, 99));
      }
      return spec;
    }
    if (has_argument) throw std::invalid_argument(name + " takes no argument");
    if (name == "huge")
      spec.kind = SegmentSpec::Kind::huge;
    else if (name == "ones")
      spec.kind = SegmentSpec::Kind::ones;
    else
      throw std::invalid_argument("not one of uniform:L, zipf:S, empty:P, huge, ones");
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("'" + text + "': " + error.what());
  }
  return spec;
}

std::string to_string(const SegmentSpec& spec) {
  switch (spec.kind) {
    case SegmentSpec::Kind::uniform:
      return "uniform:" + std::to_string(static_cast<std::uint64_t>(spec.parameter));
    case SegmentSpec::Kind::zipf: {
      std::string s = std::to_string(spec.parameter);
      s.erase(s.find_last_not_of('0') + 1);
      if (s.back() == '.') s.pop_back();
      return "zipf:" + s;
    }
    case SegmentSpec::Kind::empty:
      return "empty:" + std::to_string(static_cast<std::uint64_t>(spec.parameter));
    case SegmentSpec::Kind::huge:
      return "huge";
    case SegmentSpec::Kind::ones:
      return "ones";
  }
  return "?";
}

std::vector<std::uint64_t> make_offsets(std::uint64_t n, const SegmentSpec& spec, std::uint64_t seed) {
  std::vector<std::uint64_t> offsets = {0};
  std::uint64_t total = 0;
  std::uint64_t draw = 0;
  const auto push = [&](std::uint64_t length) {
    total += std::min(length, n - total);
    offsets.push_back(total);
  };
  switch (spec.kind) {
    case SegmentSpec::Kind::ones:
      offsets.resize(n + 1);
      for (std::uint64_t i = 0; i <= n; ++i) offsets[i] = i;
      return offsets;
    case SegmentSpec::Kind::uniform: {
      const auto mean = static_cast<std::uint64_t>(spec.parameter);
      while (total < n) push(uniform_length(seed, draw++, 0, 2 * mean));
      return offsets;
    }
    case SegmentSpec::Kind::zipf: {
      const double exponent = -1.0 / (spec.parameter - 1.0);  // P(length >= k) = k^-(S-1)
      while (total < n) {
        const double u = 1.0 - unit(seed, kLengthStream, draw++);  // (0, 1]
        const double length = std::floor(std::pow(u, exponent));
        push(length >= static_cast<double>(n) ? n : static_cast<std::uint64_t>(length));
      }
      return offsets;
    }
    case SegmentSpec::Kind::empty: {
      const double share = spec.parameter / 100.0;
      if (share > 0) offsets.push_back(0);  // an empty segment first
      while (total < n) {
        if (unit(seed, kEmptyStream, draw) < share)
          offsets.push_back(total);
        else
          push(uniform_length(seed, draw, 1, 31));
        ++draw;
      }
      if (share > 0) offsets.push_back(total);  // and last
      return offsets;
    }
    case SegmentSpec::Kind::huge: {
      const std::uint64_t huge = n / 2;
      const std::uint64_t before = (n - huge) / 2;
      while (total < before) push(std::min(uniform_length(seed, draw++, 1, 31), before - total));
      if (huge > 0) push(huge);
      while (total < n) push(uniform_length(seed, draw++, 1, 31));
      return offsets;
    }
  }
  return offsets;
}

double expected_segments(std::uint64_t n, const SegmentSpec& spec) {
  const double items = static_cast<double>(n);
  // The mean count, with a tenth and ten standard deviations of margin: the lengths are drawn
  // independently, so the count strays from its mean by about its square root.
  const auto bound = [](double mean, double spread) { return 1.1 * mean + 10.0 * std::sqrt(spread) + 3.0; };
  switch (spec.kind) {
    case SegmentSpec::Kind::uniform:
      return bound(items / spec.parameter, items / spec.parameter + 1.0);
    case SegmentSpec::Kind::empty: {
      const double full = 1.0 - spec.parameter / 100.0;  // the share of non-empty segments
      const double mean = (items / 16.0 + 1.0) / full;
      return bound(mean, mean / full);
    }
    case SegmentSpec::Kind::huge:
      return items / 2.0 + 3.0;
    case SegmentSpec::Kind::zipf:  // every length is at least 1
    case SegmentSpec::Kind::ones:
      break;
  }
  return items;
}

SegmentStats segment_stats(const std::vector<std::uint64_t>& offsets) {
  SegmentStats stats;
  stats.segments = offsets.size() - 1;
  stats.items = offsets.back() - offsets.front();
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const std::uint64_t length = offsets[s + 1] - offsets[s];
    stats.empty += length == 0;
    stats.max_length = std::max(stats.max_length, length);
    if (length > kLongSegment) {
      ++stats.long_segments;
      stats.items_in_long += length;
    }
  }
  return stats;
}

template <>
std::vector<std::int32_t> make_values<std::int32_t>(std::uint64_t n, std::uint64_t seed) {
  std::vector<std::int32_t> values(n);
  for (std::uint64_t i = 0; i < n; ++i)
    values[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(seeded_hash(seed, kValueStream, i)));
  return values;
}

template <>
std::vector<float> make_values<float>(std::uint64_t n, std::uint64_t seed) {
  std::vector<float> values(n);
  for (std::uint64_t i = 0; i < n; ++i)  // 24 random bits: exact in float
    values[i] = static_cast<float>(static_cast<double>(seeded_hash(seed, kValueStream, i) >> 40) * 0x1.0p-23 - 1.0);
  return values;
}

template <>
std::vector<double> make_values<double>(std::uint64_t n, std::uint64_t seed) {
  std::vector<double> values(n);
  for (std::uint64_t i = 0; i < n; ++i)
    values[i] = static_cast<double>(seeded_hash(seed, kValueStream, i) >> 11) * 0x1.0p-52 - 1.0;
  return values;
}

}  // namespace stepwise::segmented
