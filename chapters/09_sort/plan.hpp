/// @file plan.hpp
/// The chapter's typed options (its Plan) and what the host code derives from them. Host code
/// only: no CUDA header, no option parser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "inputs.hpp"
#include "traits.hpp"

namespace stepwise::sort {

/// The key types (--key).
enum class KeyType { uint32, int32, float32, uint64 };

/// The default --n: 2^26 keys (256 MiB of uint32 keys, five times the L2 of an H100).
inline constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 26;

/// Everything a run of the chapter needs beyond the common options; the options write straight
/// into it.
struct Plan {
  Algorithm problem = Algorithm::radix;  ///< --problem: which table
  KeyType key = KeyType::uint32;         ///< --key
  InputClass input;                      ///< --input
  bool pairs = false;                    ///< --pairs: an int32 value travels with each key
  int digit_bits = 0;                    ///< --digit-bits (4 or 8) for the rows that read it; 0: each row's own
};

/// `uint32`, `int32`, `float32`, `uint64`.
const char* to_string(KeyType key);
/// `radix`, `merge`.
const char* to_string(Algorithm algorithm);
/// Bytes of one key of @p key.
std::size_t key_bytes(KeyType key);
/// Bytes of one element: the key, and its value with pairs.
double element_bytes(const Plan& plan);

/// What --analyze prints for one kernel row: its passes, its launches and the key bytes it moves
/// (keys only, never values), from the row's traits alone.
struct RowModel {
  std::uint64_t passes = 0;    ///< digit passes, or merge passes after the block sort
  std::uint64_t launches = 0;  ///< kernels launched over the whole sort
  double key_bytes = 0.0;      ///< bytes of keys read and written over the whole sort
};

/// The model of @p row sorting @p n keys of @p plan's key type (--digit-bits where the row reads
/// it): a radix row makes ceil(key bits / digit bits) passes, a merge row merge_sort_passes(n,
/// first_run) (common/algorithm/merge_sort.hpp); each pass moves the keys key_reads_per_pass +
/// key_writes_per_pass times, and the sort key_reads_per_sort + key_writes_per_sort times more.
/// 0 passes where the library decides (a library row has no such traits).
RowModel row_model(const SortRow& row, const Plan& plan, std::uint64_t n);

/// The host memory a run of @p plan over @p n keys holds at its peak: the input, the reference
/// and its rerun, the reference's sort entries and their merge buffer, the downloaded output.
double host_bytes(const Plan& plan, std::uint64_t n);

}  // namespace stepwise::sort
