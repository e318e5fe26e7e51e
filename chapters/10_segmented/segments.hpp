/// @file segments.hpp
/// The chapter's input: n values cut into segments by CSR-style offsets (segment s holds the
/// items [offsets[s], offsets[s + 1]), 64-bit), the distributions of segment lengths that
/// --segments names, their statistics (what --analyze and the tuned stages read), and the
/// values. Host code only: no CUDA header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stepwise::segmented {

/// A distribution of segment lengths (--segments).
struct SegmentSpec {
  enum class Kind {
    uniform,  ///< uniform:L: lengths uniform in [0, 2L], mean L (some empty)
    zipf,     ///< zipf:S: a power law, P(length >= k) ~ k^-(S-1), lengths from 1 to n
    empty,    ///< empty:P: P percent of the segments empty, the first and last among them; the others 1 to 31
    huge,     ///< huge: one segment holds half the items, the others 1 to 31
    ones,     ///< ones: every segment holds one item
  };
  Kind kind = Kind::uniform;
  /// L of uniform:L, S of zipf:S, P of empty:P; unused by huge and ones.
  double parameter = 32;
};

/// Parses --segments: `uniform:L` (L in 1 .. 2^31), `zipf:S` (S in [1.1, 4]), `empty:P` (P in
/// 0 .. 99), `huge`, `ones`.
/// @throws std::invalid_argument naming @p text.
SegmentSpec parse_segments(const std::string& text);
/// The spec as --segments spells it (`uniform:32`, `zipf:1.5`, `huge`).
std::string to_string(const SegmentSpec& spec);

/// The offsets of segments drawn from @p spec covering exactly @p n items, reproducible from
/// @p seed: offsets.front() = 0, offsets.back() = n, non-decreasing; the segment count is
/// offsets.size() - 1 (at least 1).
std::vector<std::uint64_t> make_offsets(std::uint64_t n, const SegmentSpec& spec, std::uint64_t seed);

/// An upper estimate of the segment count make_offsets draws for @p n items (what the host and
/// device memory checks and the segment-id limit read before the offsets exist): the expected
/// count with a margin of a tenth, plus the two empty ends.
double expected_segments(std::uint64_t n, const SegmentSpec& spec);

/// The length of a segment above which the tuned stages call it long (a block's worth of work).
inline constexpr std::uint64_t kLongSegment = 4096;

/// What the segment lengths look like: the numbers the tuned stages and --analyze read.
struct SegmentStats {
  std::uint64_t segments = 0;       ///< segment count
  std::uint64_t items = 0;          ///< n
  std::uint64_t empty = 0;          ///< segments of length 0
  std::uint64_t max_length = 0;     ///< the longest segment
  std::uint64_t long_segments = 0;  ///< segments longer than kLongSegment
  std::uint64_t items_in_long = 0;  ///< items in those segments
  /// items / segments.
  double mean_length() const { return segments == 0 ? 0.0 : static_cast<double>(items) / segments; }
};

/// The statistics of @p offsets (offsets.size() >= 1).
SegmentStats segment_stats(const std::vector<std::uint64_t>& offsets);

/// @p n values reproducible from @p seed, never all equal: int32 uniform over all 2^32 values
/// (every sum wraps), float32 and float64 uniform in [-1, 1) (float64 with 53 random bits).
template <class T>
std::vector<T> make_values(std::uint64_t n, std::uint64_t seed);

}  // namespace stepwise::segmented
