#include "inputs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "host/data.hpp"
#include "algorithm/load_balance.hpp"
#include "algorithm/merge_path.hpp"
#include "algorithm/sorted_search.hpp"

namespace stepwise::join {
namespace {

/// @p rows keys uniform over @p key_count keys, sorted: a histogram of the draws, then each key
/// written as often as it was drawn (a counting sort: O(rows + keys)).
std::vector<std::int32_t> sorted_draws(std::size_t rows, std::size_t key_count, std::uint64_t seed) {
  std::vector<std::uint32_t> histogram(key_count, 0);
  for (std::size_t i = 0; i < rows; ++i) ++histogram[splitmix64(seed + i) % key_count];
  // Keys spread over [-2^30, 2^30): step apart, so that they are neither small nor consecutive.
  const std::int64_t step = std::max<std::int64_t>(1, (std::int64_t{1} << 31) / static_cast<std::int64_t>(key_count));
  std::vector<std::int32_t> keys;
  keys.reserve(rows);
  for (std::size_t k = 0; k < key_count; ++k)
    keys.insert(keys.end(), histogram[k],
                static_cast<std::int32_t>(static_cast<std::int64_t>(k) * step - (std::int64_t{1} << 30)));
  return keys;
}

/// Walks the sort-merge join of @p input and calls `emit(a_row, b_row)` for every output row in
/// the talk's order (-1 for a missing side).
template <class Emit>
void walk_join(const JoinInput& input, JoinKind kind, Emit&& emit) {
  const std::vector<std::int32_t>& a = input.a;
  const std::vector<std::int32_t>& b = input.b;
  std::vector<std::int64_t> unmatched_b;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size()) {
    const std::int32_t key = a[i];
    for (; j < b.size() && b[j] < key; ++j)
      if (keeps_unmatched_b(kind)) unmatched_b.push_back(static_cast<std::int64_t>(j));
    std::size_t a_end = i;
    while (a_end < a.size() && a[a_end] == key) ++a_end;
    std::size_t b_end = j;
    while (b_end < b.size() && b[b_end] == key) ++b_end;
    for (std::size_t ai = i; ai < a_end; ++ai) {
      if (b_end > j) {
        for (std::size_t bj = j; bj < b_end; ++bj) emit(static_cast<std::int64_t>(ai), static_cast<std::int64_t>(bj));
      } else if (keeps_unmatched_a(kind)) {
        emit(static_cast<std::int64_t>(ai), std::int64_t{-1});
      }
    }
    i = a_end;
    j = b_end;
  }
  if (!keeps_unmatched_b(kind)) return;
  for (; j < b.size(); ++j) unmatched_b.push_back(static_cast<std::int64_t>(j));
  for (std::int64_t row : unmatched_b) emit(std::int64_t{-1}, row);
}

void require_rows(std::size_t rows, const char* what) {
  if (rows > kMaxRows)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(rows) +
                                " rows, above 2^31 - 1 (int32 row indices)");
}

}  // namespace

const char* to_string(JoinKind kind) {
  switch (kind) {
    case JoinKind::left:
      return "left";
    case JoinKind::right:
      return "right";
    case JoinKind::outer:
      return "outer";
    case JoinKind::inner:
      break;
  }
  return "inner";
}

JoinKind parse_join(const std::string& text) {
  for (JoinKind kind : {JoinKind::inner, JoinKind::left, JoinKind::right, JoinKind::outer})
    if (text == to_string(kind)) return kind;
  throw std::invalid_argument("'" + text + "' is not a join: inner, left, right or outer");
}

JoinInput make_input(std::size_t a_rows, std::size_t b_rows, double duplication, std::uint64_t seed) {
  if (!(duplication >= 1.0) || !std::isfinite(duplication))
    throw std::invalid_argument("the duplication factor must be a number >= 1");
  require_rows(a_rows, "A");
  require_rows(b_rows, "B");
  const auto key_count = static_cast<std::size_t>(std::max(1.0, std::round(static_cast<double>(b_rows) / duplication)));
  JoinInput input;
  input.a = sorted_draws(a_rows, key_count, splitmix64(seed));
  input.b = sorted_draws(b_rows, key_count, splitmix64(~seed));
  return input;
}

JoinPairs join_reference(const JoinInput& input, JoinKind kind) {
  const std::uint64_t rows = join_row_count(input, kind);
  require_rows(static_cast<std::size_t>(rows), "the join");
  JoinPairs pairs;
  pairs.a_index.reserve(rows);
  pairs.b_index.reserve(rows);
  walk_join(input, kind, [&](std::int64_t a_row, std::int64_t b_row) {
    pairs.a_index.push_back(static_cast<std::int32_t>(a_row));
    pairs.b_index.push_back(static_cast<std::int32_t>(b_row));
  });
  return pairs;
}

std::uint64_t join_row_count(const JoinInput& input, JoinKind kind) {
  // The same walk as the reference, counting: each run pair adds its product at once.
  const std::vector<std::int32_t>& a = input.a;
  const std::vector<std::int32_t>& b = input.b;
  std::uint64_t rows = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    if (i == a.size() || (j < b.size() && b[j] < a[i])) {
      rows += keeps_unmatched_b(kind) ? 1 : 0;
      ++j;
      continue;
    }
    const std::int32_t key = a[i];
    std::size_t a_end = i;
    while (a_end < a.size() && a[a_end] == key) ++a_end;
    std::size_t b_end = j;
    while (b_end < b.size() && b[b_end] == key) ++b_end;
    const std::uint64_t matches = b_end - j;
    rows += (a_end - i) * (matches > 0 ? matches : (keeps_unmatched_a(kind) ? 1 : 0));
    i = a_end;
    j = b_end;
  }
  return rows;
}

JoinColumns join_columns(const JoinInput& input, JoinKind kind) {
  const auto na = static_cast<std::int64_t>(input.a.size());
  const auto nb = static_cast<std::int64_t>(input.b.size());
  JoinColumns columns;
  columns.lower.resize(input.a.size());
  columns.upper.resize(input.a.size());
  sorted_search<Bounds::lower>(input.a.data(), na, input.b.data(), nb, columns.lower.data(), Less{});
  sorted_search<Bounds::upper>(input.a.data(), na, input.b.data(), nb, columns.upper.data(), Less{});
  std::vector<std::int32_t> b_in_a(input.b.size());
  sorted_search<Bounds::lower>(input.b.data(), nb, input.a.data(), na, b_in_a.data(), Less{});
  columns.counts.resize(input.a.size() + input.b.size());
  for (std::int64_t i = 0; i < na; ++i) {
    const std::int32_t matches = columns.upper[i] - columns.lower[i];
    columns.counts[i] = matches > 0 ? matches : (keeps_unmatched_a(kind) ? 1 : 0);
  }
  for (std::int64_t j = 0; j < nb; ++j) {
    const bool matched = b_in_a[j] < na && input.a[b_in_a[j]] == input.b[j];
    columns.counts[na + j] = !matched && keeps_unmatched_b(kind) ? 1 : 0;
  }
  columns.offsets.assign(columns.counts.size() + 1, 0);
  std::int64_t total = 0;
  for (std::size_t o = 0; o < columns.counts.size(); ++o) {
    columns.offsets[o] = static_cast<std::int32_t>(total);
    total += columns.counts[o];
    require_rows(static_cast<std::size_t>(total), "the join");
  }
  columns.offsets.back() = static_cast<std::int32_t>(total);
  columns.objects.resize(static_cast<std::size_t>(total));
  columns.ranks.resize(static_cast<std::size_t>(total));
  load_balance_search(columns.offsets.data(), static_cast<std::int64_t>(columns.counts.size()), total,
                      columns.objects.data(), columns.ranks.data());
  return columns;
}

JoinPairs pairs_of(const JoinInput& input, const JoinColumns& columns) {
  const auto na = static_cast<std::int32_t>(input.a.size());
  JoinPairs pairs;
  for (std::size_t r = 0; r < columns.objects.size(); ++r) {
    const std::int32_t object = columns.objects[r];
    const bool from_a = object < na;
    const bool matched = from_a && columns.upper[object] > columns.lower[object];
    pairs.a_index.push_back(from_a ? object : -1);
    pairs.b_index.push_back(from_a ? (matched ? columns.lower[object] + columns.ranks[r] : -1) : object - na);
  }
  return pairs;
}

}  // namespace stepwise::join
