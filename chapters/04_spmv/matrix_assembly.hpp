/// @file matrix_assembly.hpp
/// Chapter 04's internals shared by the CSR core (matrix.cpp), the generators (generators.cpp) and
/// the Matrix Market reader (matrix_market.cpp): the 32-bit limits, the row-parallel loop, the
/// seeded random streams, and the assembly of CSR rows from entries given in chunks. Not for the
/// rest of the chapter: include matrix.hpp, generators.hpp or matrix_market.hpp instead.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "host/data.hpp"
#include "host/parallel.hpp"
#include "matrix.hpp"

namespace stepwise::spmv::detail {

/// The most rows, columns or nonzeros a CsrMatrix holds: 32-bit signed indices.
inline constexpr std::int64_t kMaxIndex = std::numeric_limits<std::int32_t>::max();

/// "2^31 - 1", for messages.
inline constexpr const char* kLimitText = "2^31 - 1 (32-bit indices)";

// Threads -----------------------------------------------------------------------------------------

/// Rows per chunk of the row-parallel loops (generators, sorting rows, the reference).
inline constexpr std::int64_t kRowsPerChunk = 4096;

/// Runs @p body(first_row, last_row, chunk) over [0, @p rows) in chunks of kRowsPerChunk rows.
inline void for_each_row_chunk(std::int64_t rows,
                               const std::function<void(std::int64_t, std::int64_t, std::int64_t)>& body) {
  for_each_chunk((rows + kRowsPerChunk - 1) / kRowsPerChunk, [&](std::int64_t chunk) {
    body(chunk * kRowsPerChunk, std::min(rows, (chunk + 1) * kRowsPerChunk), chunk);
  });
}

// Random numbers ----------------------------------------------------------------------------------

/// The independent random streams of the generators: each (seed, stream, chunk) starts its own.
enum class Stream : std::uint64_t {
  uniform = 1,
  long_row,
  rmat_permutation,
  rmat_edges,
  rmat_values,
  x,
  integer_values,  ///< --values integer: the matrix's values
  integer_x,       ///< --values integer: x
};

/// A SplitMix64 sequence started from (seed, stream, chunk): chunk k of a generator draws from
/// its own sequence, so what it draws does not depend on which thread runs it or when.
class RandomStream {
 public:
  RandomStream(std::uint64_t seed, Stream stream, std::uint64_t chunk)
      : state_(seeded_hash(seed, static_cast<std::uint64_t>(stream), chunk)) {}

  /// The next 64 random bits.
  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return splitmix64(state_);
  }

  /// A random integer in [0, @p bound), bound <= 2^32: the high half of a 64 x 64-bit product
  /// (bias below 2^-32).
  std::int64_t below(std::int64_t bound) {
    return static_cast<std::int64_t>((static_cast<unsigned __int128>(next()) * static_cast<std::uint64_t>(bound)) >>
                                     64);
  }

 private:
  std::uint64_t state_;
};

/// A value uniform in [-1, 1) from the top 24 bits of @p word: (k - 2^23) / 2^23, exact in float.
inline double unit_value(std::uint64_t word) {
  constexpr double kHalfRange = 8388608.0;  // 2^23
  return (static_cast<double>(word >> 40) - kHalfRange) / kHalfRange;
}

/// A nonzero integer in [-@p bound, @p bound] (bound >= 1), uniform over the 2 x bound of them.
inline double nonzero_integer(RandomStream& random, std::int64_t bound) {
  const std::int64_t k = random.below(2 * bound) - bound;  // [-bound, bound - 1]
  return static_cast<double>(k < 0 ? k : k + 1);
}

// CSR assembly ------------------------------------------------------------------------------------

/// An array of @p count elements left uninitialized (scratch the threads fill: zeroing it first
/// would cost a serial pass over memory).
template <class T>
std::unique_ptr<T[]> uninitialized(std::int64_t count) {
  return std::unique_ptr<T[]>(new T[static_cast<std::size_t>(count)]);
}

/// A generator's entry: row << 32 | column (its value is drawn once the rows are built).
using PackedEntry = std::uint64_t;

/// A file's entry.
struct FileEntry {
  std::int32_t row;
  std::int32_t column;
  double value;
};

inline std::int64_t row_of(PackedEntry entry) { return static_cast<std::int64_t>(entry >> 32); }
inline std::int32_t column_of(PackedEntry entry) { return static_cast<std::int32_t>(entry & 0xFFFFFFFFu); }
inline std::int64_t row_of(const FileEntry& entry) { return entry.row; }
inline std::int32_t column_of(const FileEntry& entry) { return entry.column; }

/// Sorts the entries [first, last) of one row by column and keeps each column once, at the
/// front. @returns how many entries the row keeps.
inline std::int64_t sort_and_merge_row(PackedEntry* first, PackedEntry* last) {
  std::sort(first, last);  // one row: the order of the columns
  return std::unique(first, last) - first;
}

/// The same for a file's row, stably: the values of a repeated entry are summed in file order.
inline std::int64_t sort_and_merge_row(FileEntry* first, FileEntry* last) {
  if (first == last) return 0;
  const auto by_column = [](const FileEntry& a, const FileEntry& b) { return a.column < b.column; };
  if (last - first <= 32) {  // insertion sort: stable, and no buffer to allocate for short rows
    for (FileEntry* next = first + 1; next < last; ++next)
      for (FileEntry* at = next; at > first && by_column(*at, at[-1]); --at) std::swap(*at, at[-1]);
  } else {
    std::stable_sort(first, last, by_column);
  }
  FileEntry* kept = first;
  for (FileEntry* entry = first + 1; entry < last; ++entry) {
    if (entry->column == kept->column)
      kept->value += entry->value;
    else
      *++kept = *entry;
  }
  return kept - first + 1;
}

/// The most buckets of rows the first pass of assemble() sorts into.
inline constexpr std::int64_t kMostRowBuckets = 1024;

/// The CSR matrix of entries given in chunks (chunk 0's entries first, then chunk 1's, ...: the
/// order of the file, or of the generator's draws), at most 2^31 - 1 of them. Every row is
/// sorted by column and its repeated columns merged (sort_and_merge_row); a kept entry's value
/// is @p value_of(row, entry). The chunks are emptied.
///
/// A stable counting sort by row in two cache-friendly passes, both parallel: first into at
/// most 1024 buckets of consecutive rows (each chunk counts its entries per bucket, and a scan
/// over (bucket, chunk) gives every chunk its own places in every bucket), then, bucket by
/// bucket, by row. The result depends on the chunks alone, never on the threads.
template <class Entry, class ValueOf>
CsrMatrix assemble(std::int64_t rows, std::int64_t cols, std::vector<std::vector<Entry>>& chunks, ValueOf value_of) {
  CsrMatrix matrix;
  matrix.rows = static_cast<std::int32_t>(rows);
  matrix.cols = static_cast<std::int32_t>(cols);
  matrix.offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  if (rows == 0) return matrix;
  int shift = 0;  // bucket b holds rows [b << shift, (b + 1) << shift)
  while (((rows - 1) >> shift) >= kMostRowBuckets) ++shift;
  const std::int64_t buckets = ((rows - 1) >> shift) + 1;
  const std::int64_t chunk_count = static_cast<std::int64_t>(chunks.size());

  // 1. Each chunk's entries per bucket, then (a scan over bucket, then chunk) the place of the
  //    chunk's first entry in each bucket, and the entries moved there.
  std::vector<std::int64_t> places(static_cast<std::size_t>(chunk_count * buckets));
  for_each_chunk(chunk_count, [&](std::int64_t chunk) {
    for (const Entry& entry : chunks[chunk]) ++places[chunk * buckets + (row_of(entry) >> shift)];
  });
  std::vector<std::int64_t> bucket_starts(static_cast<std::size_t>(buckets) + 1);
  std::int64_t running = 0;
  for (std::int64_t bucket = 0; bucket < buckets; ++bucket) {
    bucket_starts[bucket] = running;
    for (std::int64_t chunk = 0; chunk < chunk_count; ++chunk) {
      const std::int64_t count = places[chunk * buckets + bucket];
      places[chunk * buckets + bucket] = running;
      running += count;
    }
  }
  bucket_starts[buckets] = running;
  std::unique_ptr<Entry[]> bucketed = uninitialized<Entry>(running);
  for_each_chunk(chunk_count, [&](std::int64_t chunk) {
    std::int64_t* next_place = places.data() + chunk * buckets;
    for (const Entry& entry : chunks[chunk]) bucketed[next_place[row_of(entry) >> shift]++] = entry;
    std::vector<Entry>().swap(chunks[chunk]);
  });

  // 2. Bucket by bucket: the entries by row (stable), each row sorted and merged, the bucket's
  //    kept entries moved together at its start, in row order.
  std::vector<std::int32_t> kept(static_cast<std::size_t>(rows));
  for_each_chunk(buckets, [&](std::int64_t bucket) {
    const std::int64_t first_row = bucket << shift, last_row = std::min(rows, (bucket + 1) << shift);
    const std::int64_t begin = bucket_starts[bucket], end = bucket_starts[bucket + 1];
    std::vector<std::int64_t> row_starts(static_cast<std::size_t>(last_row - first_row) + 1);
    for (std::int64_t i = begin; i < end; ++i) ++row_starts[row_of(bucketed[i]) - first_row + 1];
    for (std::int64_t row = first_row; row < last_row; ++row)
      row_starts[row - first_row + 1] += row_starts[row - first_row];
    std::vector<std::int64_t> next(row_starts.begin(), row_starts.end() - 1);
    std::vector<Entry> by_row(static_cast<std::size_t>(end - begin));
    for (std::int64_t i = begin; i < end; ++i) by_row[next[row_of(bucketed[i]) - first_row]++] = bucketed[i];
    Entry* write = bucketed.get() + begin;
    for (std::int64_t row = first_row; row < last_row; ++row) {
      Entry* row_begin = by_row.data() + row_starts[row - first_row];
      const std::int64_t keep = sort_and_merge_row(row_begin, by_row.data() + row_starts[row - first_row + 1]);
      kept[row] = static_cast<std::int32_t>(keep);
      write = std::copy(row_begin, row_begin + keep, write);
    }
  });

  // 3. The CSR arrays: the buckets' kept entries are already in row order.
  std::int64_t nnz = 0;
  for (std::int64_t row = 0; row < rows; ++row) {
    matrix.offsets[row] = static_cast<std::int32_t>(nnz);
    nnz += kept[row];
  }
  matrix.offsets[rows] = static_cast<std::int32_t>(nnz);
  matrix.columns.resize(static_cast<std::size_t>(nnz));
  matrix.values.resize(static_cast<std::size_t>(nnz));
  for_each_chunk(buckets, [&](std::int64_t bucket) {
    const Entry* entry = bucketed.get() + bucket_starts[bucket];
    for (std::int64_t row = bucket << shift; row < std::min(rows, (bucket + 1) << shift); ++row)
      for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j, ++entry) {
        matrix.columns[j] = column_of(*entry);
        matrix.values[j] = value_of(row, *entry);
      }
  });
  return matrix;
}

}  // namespace stepwise::spmv::detail
