/// @file inputs.hpp
/// The chapter's inputs, CPU references and checks, shared by main, --analyze and the tests.
/// Host code only.
///
/// Keys are bin indices in [0, K) drawn from one of five distributions (`--distribution`):
/// `uniform`, `runs:R` (runs of R equal keys on random bins: correlated with the lane, the case
/// where aggregation pays), `strided:R` (the same runs on bins K/d apart: a pattern that puts a
/// warp's keys in few shared-memory banks on purpose), `zipf:S` (a few bins take most keys),
/// `all-equal`. Every input is a function of the seed, and never all zeros or all ones (values
/// are random and non-constant; with K = 1 the keys are all 0, the only bin).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host/verify.hpp"
#include "ops.hpp"

namespace stepwise::atomics {

/// How keys are drawn.
struct Distribution {
  enum class Kind { uniform, runs, strided, zipf, all_equal };
  Kind kind = Kind::uniform;
  std::uint64_t run = 1;  ///< runs:R and strided:R: the run length R (at least 1)
  double exponent = 1.0;  ///< zipf:S: the exponent S (in (0, 10])
  friend bool operator==(const Distribution& a, const Distribution& b) {
    return a.kind == b.kind && a.run == b.run && a.exponent == b.exponent;
  }
};

/// `uniform`, `runs:R` or `strided:R` (R a decimal integer >= 1), `zipf:S` (S a decimal number
/// in (0, 10]) or `all-equal`.
/// @throws std::invalid_argument saying what is wrong with @p text.
Distribution parse_distribution(const std::string& text);
/// The distribution as --distribution takes it: `runs:8`, `strided:1`, `zipf:1.1`.
std::string to_string(const Distribution& distribution);

/// The distribution of --surface's cell with @p keys_per_warp distinct keys in every warp
/// (1, 2, 4, ..., 32): runs of 32 / keys_per_warp on random bins (`runs:R`).
Distribution keys_per_warp_distribution(int keys_per_warp);

/// n keys in [0, @p bin_count) drawn as @p distribution says, reproducible from @p seed.
/// - uniform: independent, uniform over the bins;
/// - runs:R: element i belongs to run i / R; the d = max(1, 32 / R) runs of a group (32
///   elements when R divides 32, so a warp's tile) get min(d, K) distinct bins drawn at random
///   (every d-subset of the bins equally likely, in random order; with fewer bins than runs,
///   every bin, and the runs cycle through them), so a warp of such a group sees exactly
///   min(32 / R, K) keys; R >= 32 gives one random key per run;
/// - strided:R: the same runs and groups, but the group's runs go to the bins first,
///   first + K/d, first + 2K/d, ... (mod K, K/d rounded down and at least 1), first drawn at
///   random per group. At K = 1024, strided:1 puts a warp's 32 keys 32 bins apart: with 4-byte
///   bins, all in one shared-memory bank (at K = 256, 8 apart: 4 banks, 8 keys each);
/// - zipf:S: bin b with probability proportional to 1 / (b + 1)^S (bin 0 the most frequent);
/// - all-equal: one random bin for all.
std::vector<Key> make_keys(std::size_t n, int bin_count, const Distribution& distribution, std::uint64_t seed);

/// n values in [-1, 1) of @p Op (float or double), reproducible from @p seed; empty for IntAdd,
/// which counts.
template <class Op>
std::vector<typename Op::Value> make_values(std::size_t n, std::uint64_t seed);

/// The CPU reference of a scatter-add: per bin, the exact sum (in double; for IntAdd the count),
/// the number of values and the sum of their magnitudes (what the rounding error is
/// proportional to).
struct BinReference {
  std::vector<double> sum;
  std::vector<double> magnitude;
  std::vector<std::uint64_t> count;
};

/// The reference of @p keys and @p values (empty for a count) over @p bin_count bins.
template <class Value>
BinReference reference_bins(const std::vector<Key>& keys, const std::vector<Value>& values, int bin_count);

/// The unit roundoff of @p Op's bins: 2^-24 for float, 2^-53 for double, 0 for int (exact).
template <class Op>
constexpr double unit_roundoff() {
  if constexpr (Op::kHasValues) return sizeof(typename Op::Bin) == 4 ? 0x1p-24 : 0x1p-53;
  return 0.0;
}

/// The tolerance of a bin summed in an unknown order: whatever the order (atomics from many
/// warps, trees inside a warp), the sum of c values in floating point is off by at most
/// (c - 1) u sum|v| + O(u^2) (each of the c - 1 additions rounds a partial sum, which is at most
/// sum|v|); the check allows c u sum|v|, which also covers the final rounding.
/// @return the allowed |got - want| for a bin of @p count values of magnitude sum @p magnitude.
double bin_tolerance(double unit_roundoff, std::uint64_t count, double magnitude);

/// Checks a scatter-add's bins: counts exactly (as unsigned 32-bit, wrapping like the
/// atomics), floating point within bin_tolerance.
template <class Op>
Check check_bins(const std::vector<typename Op::Bin>& got, const BinReference& want);

/// The ticket problem's input: n random int32 values, about half of them kept (keeps()).
std::vector<std::int32_t> make_ticket_values(std::size_t n, std::uint64_t seed);

/// The kept values of @p values, sorted: what out[0, count) must hold, in any order.
std::vector<std::int32_t> kept_sorted(const std::vector<std::int32_t>& values);

/// Checks a ticket run: the counter is the number kept, out[0, count) holds the kept values in
/// any order (each exactly once), and out[count, n) is still the poison the check wrote.
Check check_ticket(std::vector<std::int32_t> out, unsigned long long counter, const std::vector<std::int32_t>& want,
                   std::int32_t poison_value);

}  // namespace stepwise::atomics
