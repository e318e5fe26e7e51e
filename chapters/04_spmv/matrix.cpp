#include "matrix.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>

#include <sys/stat.h>

#include "host/data.hpp"
#include "host/host_memory.hpp"
#include "host/parallel.hpp"
#include "host/sizes.hpp"

namespace stepwise::spmv {
namespace {

/// The most rows, columns or nonzeros a CsrMatrix holds: 32-bit signed indices.
constexpr std::int64_t kMaxIndex = std::numeric_limits<std::int32_t>::max();

/// "2^31 - 1", for messages.
constexpr const char* kLimitText = "2^31 - 1 (32-bit indices)";

// Threads -----------------------------------------------------------------------------------------

/// Rows per chunk of the row-parallel loops (generators, sorting rows, the reference).
constexpr std::int64_t kRowsPerChunk = 4096;

/// Runs @p body(first_row, last_row, chunk) over [0, @p rows) in chunks of kRowsPerChunk rows.
void for_each_row_chunk(std::int64_t rows, const std::function<void(std::int64_t, std::int64_t, std::int64_t)>& body) {
  for_each_chunk((rows + kRowsPerChunk - 1) / kRowsPerChunk, [&](std::int64_t chunk) {
    body(chunk * kRowsPerChunk, std::min(rows, (chunk + 1) * kRowsPerChunk), chunk);
  });
}

// Random numbers ----------------------------------------------------------------------------------

/// The independent random streams of the generators: each (seed, stream, chunk) starts its own.
enum class Stream : std::uint64_t { uniform = 1, long_row, rmat_permutation, rmat_edges, rmat_values, x };

/// A SplitMix64 sequence started from (seed, stream, chunk): chunk k of a generator draws from
/// its own sequence, so what it draws does not depend on which thread runs it or when.
class RandomStream {
 public:
  RandomStream(std::uint64_t seed, Stream stream, std::uint64_t chunk)
      : state_(splitmix64(splitmix64(seed ^ (static_cast<std::uint64_t>(stream) * 0xD1B54A32D192ED03ull)) + chunk)) {}

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
double unit_value(std::uint64_t word) {
  constexpr double kHalfRange = 8388608.0;  // 2^23
  return (static_cast<double>(word >> 40) - kHalfRange) / kHalfRange;
}

/// Writes @p count distinct integers of [0, @p range), sorted, to @p out: a uniformly random
/// subset. Dense subsets (count >= range / 16) by selection sampling (Knuth's algorithm S: walk
/// the range once, keeping each integer with probability needed / left); sparse ones by drawing
/// count integers, sorting, dropping repeats and drawing again what is missing.
void draw_distinct_sorted(std::int64_t count, std::int64_t range, RandomStream& random, std::int32_t* out) {
  if (count == 0) return;
  if (count * 16 >= range) {
    std::int64_t needed = count;
    for (std::int64_t candidate = 0; needed > 0; ++candidate) {
      if (random.below(range - candidate) < needed) {
        *out++ = static_cast<std::int32_t>(candidate);
        --needed;
      }
    }
    return;
  }
  std::int64_t have = 0;
  while (have < count) {
    for (std::int64_t i = have; i < count; ++i) out[i] = static_cast<std::int32_t>(random.below(range));
    std::sort(out, out + count);
    have = std::unique(out, out + count) - out;
  }
}

// Generator specs ---------------------------------------------------------------------------------

/// A generator with its synopsis for --help.
struct Generator {
  const char* name;
  const char* synopsis;
};

const std::vector<Generator>& generators() {
  static const std::vector<Generator> list = {
      {"lecture", "lecture                  the lecture's 4 x 4 example, with an empty row"},
      {"stencil5", "stencil5:NXxNY           2-D 5-point Laplacian on an NX x NY grid"},
      {"stencil27", "stencil27:NXxNYxNZ       3-D 27-point stencil on an NX x NY x NZ grid"},
      {"uniform", "uniform:ROWS[xCOLS]:K    K distinct random columns in every row (COLS = ROWS by default)"},
      {"rmat", "rmat:SCALE:EDGES_PER_ROW R-MAT power-law graph (Graph500): 2^SCALE rows, skewed row lengths"},
      {"huge-row", "huge-row:ROWS:K:LONG     uniform:ROWS:K with one row (the middle one) of LONG nonzeros"},
  };
  return list;
}

/// The generator name of @p spec: what comes before the first ':'.
std::string spec_name(const std::string& spec) { return spec.substr(0, spec.find(':')); }

/// @p text cut at every @p separator.
std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (std::size_t end = text.find(separator); end != std::string::npos; end = text.find(separator, begin)) {
    parts.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  parts.push_back(text.substr(begin));
  return parts;
}

/// Reads a generator's arguments: counts as --n writes them (`4194304`, `4Mi`, `2^22`), each
/// checked against its range, every error a MatrixError naming the spec.
class SpecReader {
 public:
  /// Cuts @p spec into its name and @p argument_count ':'-separated arguments; @p synopsis, what
  /// the arguments should be, closes every message.
  SpecReader(const std::string& spec, std::size_t argument_count, const std::string& synopsis)
      : spec_(spec), synopsis_(synopsis) {
    std::vector<std::string> fields = split(spec, ':');
    fields.erase(fields.begin());
    if (fields.size() != argument_count)
      fail("expected " + std::to_string(argument_count) + " argument" + (argument_count == 1 ? "" : "s") +
           " after the name, got " + std::to_string(fields.size()));
    fields_ = fields;
  }

  /// Argument @p index cut at 'x' into @p min_parts to @p max_parts fields (`128x128x256`).
  std::vector<std::string> dimensions(std::size_t index, std::size_t min_parts, std::size_t max_parts) const {
    std::vector<std::string> parts = split(fields_[index], 'x');
    if (parts.size() < min_parts || parts.size() > max_parts)
      fail("'" + fields_[index] + "' should be " +
           (min_parts == max_parts ? std::to_string(min_parts)
                                   : std::to_string(min_parts) + " or " + std::to_string(max_parts)) +
           " counts separated by 'x'");
    return parts;
  }

  /// Argument @p index as a count.
  std::int64_t count(std::size_t index, const char* name, std::int64_t min, std::int64_t max) const {
    return count_of(fields_[index], name, min, max);
  }

  /// @p text (one field or one dimension) as a count in [@p min, @p max].
  std::int64_t count_of(const std::string& text, const char* name, std::int64_t min, std::int64_t max) const {
    std::uint64_t value = 0;
    try {
      value = parse_count(text);
    } catch (const std::invalid_argument& error) {
      fail(std::string(name) + ": " + error.what());
    }
    if (value < static_cast<std::uint64_t>(min) || value > static_cast<std::uint64_t>(max))
      fail(std::string(name) + " = " + text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) +
           "]");
    return static_cast<std::int64_t>(value);
  }

  /// @throws MatrixError `SPEC: what (SYNOPSIS)`.
  [[noreturn]] void fail(const std::string& what) const {
    throw MatrixError(spec_ + ": " + what + " (" + synopsis_ + ")");
  }

  /// Refuses a matrix of more than 2^31 - 1 @p what (rows, nonzeros).
  void check_limit(std::int64_t value, const char* what) const {
    if (value > kMaxIndex) fail(std::to_string(value) + " " + what + " is above " + kLimitText);
  }

 private:
  std::string spec_;
  std::string synopsis_;
  std::vector<std::string> fields_;
};

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

std::int64_t row_of(PackedEntry entry) { return static_cast<std::int64_t>(entry >> 32); }
std::int32_t column_of(PackedEntry entry) { return static_cast<std::int32_t>(entry & 0xFFFFFFFFu); }
std::int64_t row_of(const FileEntry& entry) { return entry.row; }
std::int32_t column_of(const FileEntry& entry) { return entry.column; }

/// Sorts the entries [first, last) of one row by column and keeps each column once, at the
/// front. @returns how many entries the row keeps.
std::int64_t sort_and_merge_row(PackedEntry* first, PackedEntry* last) {
  std::sort(first, last);  // one row: the order of the columns
  return std::unique(first, last) - first;
}

/// The same for a file's row, stably: the values of a repeated entry are summed in file order.
std::int64_t sort_and_merge_row(FileEntry* first, FileEntry* last) {
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
constexpr std::int64_t kMostRowBuckets = 1024;

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

/// Offsets of rows whose lengths @p length_of(row) gives, after checking the total against the
/// 32-bit limit (@p spec names the matrix in the message).
template <class LengthOf>
std::vector<std::int32_t> offsets_of(std::int64_t rows, LengthOf length_of, const SpecReader& spec) {
  std::vector<std::int32_t> offsets(static_cast<std::size_t>(rows) + 1);
  std::int64_t nnz = 0;
  for (std::int64_t row = 0; row < rows; ++row) {
    offsets[row] = static_cast<std::int32_t>(nnz);
    nnz += length_of(row);
    spec.check_limit(nnz, "nonzeros");
  }
  offsets[rows] = static_cast<std::int32_t>(nnz);
  return offsets;
}

// Generators --------------------------------------------------------------------------------------

/// The lecture's 4 x 4 example of matrix.hpp.
CsrMatrix lecture_matrix(const std::string& spec) {
  if (spec != "lecture") throw MatrixError(spec + ": lecture takes no arguments");
  CsrMatrix matrix;
  matrix.rows = 4;
  matrix.cols = 4;
  matrix.offsets = {0, 2, 2, 5, 7};
  matrix.columns = {0, 2, 1, 2, 3, 0, 3};
  matrix.values = {3, 1, 2, 4, 1, 1, 1};
  matrix.description = "lecture 4x4";
  return matrix;
}

/// A stencil's grid (nz = 1 for the 2-D one), its rows and nonzeros within the 32-bit limits.
struct GridSpec {
  std::int64_t nx = 1, ny = 1, nz = 1;
  std::int64_t rows() const { return nx * ny * nz; }
};

constexpr const char* kStencil5Synopsis = "stencil5:NXxNY";
constexpr const char* kStencil27Synopsis = "stencil27:NXxNYxNZ";

/// The 5-point stencil's nonzeros: the diagonal, and each pair of neighbours twice.
std::int64_t stencil5_nonzeros(const GridSpec& grid) {
  return grid.nx * grid.ny + 2 * ((grid.nx - 1) * grid.ny + grid.nx * (grid.ny - 1));
}

/// The 27-point stencil's nonzeros: per dimension of n points, the neighbours in that dimension
/// sum to 3n - 2 over the points.
std::int64_t stencil27_nonzeros(const GridSpec& grid) {
  return (3 * grid.nx - 2) * (3 * grid.ny - 2) * (3 * grid.nz - 2);
}

/// stencil5:NXxNY's grid, checked.
GridSpec read_stencil5(const SpecReader& reader) {
  const std::vector<std::string> sizes = reader.dimensions(0, 2, 2);
  GridSpec grid;
  grid.nx = reader.count_of(sizes[0], "NX", 1, kMaxIndex);
  grid.ny = reader.count_of(sizes[1], "NY", 1, kMaxIndex);
  reader.check_limit(grid.rows(), "rows");
  reader.check_limit(stencil5_nonzeros(grid), "nonzeros");
  return grid;
}

/// stencil27:NXxNYxNZ's grid, checked.
GridSpec read_stencil27(const SpecReader& reader) {
  const std::vector<std::string> sizes = reader.dimensions(0, 3, 3);
  GridSpec grid;
  grid.nx = reader.count_of(sizes[0], "NX", 1, kMaxIndex);
  grid.ny = reader.count_of(sizes[1], "NY", 1, kMaxIndex);
  grid.nz = reader.count_of(sizes[2], "NZ", 1, kMaxIndex);
  reader.check_limit(grid.nx * grid.ny, "rows");  // first: nx ny nz then fits 64 bits
  reader.check_limit(grid.rows(), "rows");
  reader.check_limit(stencil27_nonzeros(grid), "nonzeros");
  return grid;
}

/// The 2-D 5-point Laplacian: row r = x + NX y, neighbours (x, y +- 1) and (x +- 1, y).
CsrMatrix stencil5_matrix(const std::string& spec) {
  const SpecReader reader(spec, 1, kStencil5Synopsis);
  const GridSpec grid = read_stencil5(reader);
  const std::int64_t nx = grid.nx, ny = grid.ny;
  CsrMatrix matrix;
  matrix.rows = matrix.cols = static_cast<std::int32_t>(nx * ny);
  matrix.offsets = offsets_of(
      nx * ny,
      [&](std::int64_t row) {
        const std::int64_t x = row % nx, y = row / nx;
        return 1 + (x > 0) + (x < nx - 1) + (y > 0) + (y < ny - 1);
      },
      reader);
  matrix.columns.resize(static_cast<std::size_t>(matrix.offsets.back()));
  matrix.values.resize(matrix.columns.size());
  for_each_row_chunk(matrix.rows, [&](std::int64_t first_row, std::int64_t last_row, std::int64_t) {
    for (std::int64_t row = first_row; row < last_row; ++row) {
      const std::int64_t x = row % nx, y = row / nx;
      std::int64_t j = matrix.offsets[row];
      const auto put = [&](std::int64_t column, double value) {
        matrix.columns[j] = static_cast<std::int32_t>(column);
        matrix.values[j++] = value;
      };
      if (y > 0) put(row - nx, -1.0);
      if (x > 0) put(row - 1, -1.0);
      put(row, 4.0);
      if (x < nx - 1) put(row + 1, -1.0);
      if (y < ny - 1) put(row + nx, -1.0);
    }
  });
  matrix.description = "stencil5 " + std::to_string(nx) + "x" + std::to_string(ny);
  return matrix;
}

/// The 3-D 27-point stencil: row r = x + NX (y + NY z), every neighbour (x + dx, y + dy, z + dz)
/// inside the grid, in increasing column order (dz, then dy, then dx from -1 to 1).
CsrMatrix stencil27_matrix(const std::string& spec) {
  const SpecReader reader(spec, 1, kStencil27Synopsis);
  const GridSpec grid = read_stencil27(reader);
  const std::int64_t nx = grid.nx, ny = grid.ny, nz = grid.nz;
  const auto span = [](std::int64_t at, std::int64_t size) { return 1 + (at > 0) + (at < size - 1); };
  CsrMatrix matrix;
  matrix.rows = matrix.cols = static_cast<std::int32_t>(nx * ny * nz);
  matrix.offsets = offsets_of(
      nx * ny * nz,
      [&](std::int64_t row) { return span(row % nx, nx) * span(row / nx % ny, ny) * span(row / (nx * ny), nz); },
      reader);
  matrix.columns.resize(static_cast<std::size_t>(matrix.offsets.back()));
  matrix.values.resize(matrix.columns.size());
  for_each_row_chunk(matrix.rows, [&](std::int64_t first_row, std::int64_t last_row, std::int64_t) {
    for (std::int64_t row = first_row; row < last_row; ++row) {
      const std::int64_t x = row % nx, y = row / nx % ny, z = row / (nx * ny);
      std::int64_t j = matrix.offsets[row];
      for (std::int64_t dz = z > 0 ? -1 : 0; dz <= (z < nz - 1 ? 1 : 0); ++dz)
        for (std::int64_t dy = y > 0 ? -1 : 0; dy <= (y < ny - 1 ? 1 : 0); ++dy)
          for (std::int64_t dx = x > 0 ? -1 : 0; dx <= (x < nx - 1 ? 1 : 0); ++dx) {
            const bool diagonal = dx == 0 && dy == 0 && dz == 0;
            matrix.columns[j] = static_cast<std::int32_t>(row + dx + nx * (dy + ny * dz));
            matrix.values[j++] = diagonal ? 26.0 : -1.0;
          }
    }
  });
  matrix.description = "stencil27 " + std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
  return matrix;
}

/// Rows [first_row, last_row) of a matrix whose offsets are set: each row's nonzeros at
/// distinct random columns of [0, cols), sorted, with values uniform in [-1, 1), drawn from
/// @p random.
void fill_random_rows(CsrMatrix& matrix, std::int64_t first_row, std::int64_t last_row, RandomStream& random) {
  for (std::int64_t row = first_row; row < last_row; ++row) {
    const std::int32_t begin = matrix.offsets[row], end = matrix.offsets[row + 1];
    draw_distinct_sorted(end - begin, matrix.cols, random, matrix.columns.data() + begin);
    for (std::int32_t j = begin; j < end; ++j) matrix.values[j] = unit_value(random.next());
  }
}

/// uniform:ROWS[xCOLS]:K, or huge-row:ROWS:K:LONG (long_row >= 0: row ROWS / 2 has that many
/// nonzeros, and the matrix has max(ROWS, LONG) columns).
struct RandomRowsSpec {
  std::int64_t rows = 0, cols = 0, k = 0;
  std::int64_t long_row = -1;
  std::int64_t nonzeros() const { return long_row >= 0 ? (rows - 1) * k + long_row : rows * k; }
};

constexpr const char* kUniformSynopsis = "uniform:ROWS[xCOLS]:K";
constexpr const char* kHugeRowSynopsis = "huge-row:ROWS:K:LONG";

/// Refuses rows of K distinct columns among fewer, and a matrix above the 32-bit limits.
RandomRowsSpec checked(const SpecReader& reader, const RandomRowsSpec& spec) {
  if (spec.k > spec.cols)
    reader.fail("K = " + std::to_string(spec.k) + " distinct columns per row need at least " + std::to_string(spec.k) +
                " columns, the matrix has " + std::to_string(spec.cols));
  reader.check_limit(spec.nonzeros(), "nonzeros");
  return spec;
}

/// uniform:ROWS[xCOLS]:K, checked.
RandomRowsSpec read_uniform(const SpecReader& reader) {
  const std::vector<std::string> sizes = reader.dimensions(0, 1, 2);
  RandomRowsSpec spec;
  spec.rows = reader.count_of(sizes[0], "ROWS", 1, kMaxIndex);
  spec.cols = sizes.size() == 2 ? reader.count_of(sizes[1], "COLS", 1, kMaxIndex) : spec.rows;
  spec.k = reader.count(1, "K", 0, kMaxIndex);
  return checked(reader, spec);
}

/// huge-row:ROWS:K:LONG, checked: the short rows' columns are drawn from all max(ROWS, LONG).
RandomRowsSpec read_huge_row(const SpecReader& reader) {
  RandomRowsSpec spec;
  spec.rows = reader.count(0, "ROWS", 1, kMaxIndex);
  spec.k = reader.count(1, "K", 0, kMaxIndex);
  spec.long_row = reader.count(2, "LONG", 1, kMaxIndex);
  spec.cols = std::max(spec.rows, spec.long_row);
  return checked(reader, spec);
}

/// The matrix of a checked uniform or huge-row spec: the long row drawn from its own stream.
CsrMatrix random_rows_matrix(const SpecReader& reader, const RandomRowsSpec& spec, std::uint64_t seed) {
  const std::int64_t rows = spec.rows, k = spec.k, long_row = spec.long_row;
  const std::int64_t middle = long_row >= 0 ? rows / 2 : -1;
  CsrMatrix matrix;
  matrix.rows = static_cast<std::int32_t>(rows);
  matrix.cols = static_cast<std::int32_t>(spec.cols);
  matrix.offsets = offsets_of(
      rows, [&](std::int64_t row) { return row == middle ? long_row : k; }, reader);
  matrix.columns.resize(static_cast<std::size_t>(matrix.offsets.back()));
  matrix.values.resize(matrix.columns.size());
  for_each_row_chunk(rows, [&](std::int64_t first_row, std::int64_t last_row, std::int64_t chunk) {
    RandomStream random(seed, Stream::uniform, static_cast<std::uint64_t>(chunk));
    if (middle < first_row || middle >= last_row) {
      fill_random_rows(matrix, first_row, last_row, random);
      return;
    }
    fill_random_rows(matrix, first_row, middle, random);
    fill_random_rows(matrix, middle + 1, last_row, random);
    RandomStream long_random(seed, Stream::long_row, 0);
    fill_random_rows(matrix, middle, middle + 1, long_random);
  });
  return matrix;
}

/// uniform:ROWS[xCOLS]:K.
CsrMatrix uniform_matrix(const std::string& spec, std::uint64_t seed) {
  const SpecReader reader(spec, 2, kUniformSynopsis);
  const RandomRowsSpec rows = read_uniform(reader);
  CsrMatrix matrix = random_rows_matrix(reader, rows, seed);
  matrix.description = "uniform " + std::to_string(rows.rows) + "x" + std::to_string(rows.cols) + ", " +
                       std::to_string(rows.k) + " per row";
  return matrix;
}

/// huge-row:ROWS:K:LONG: the short rows' columns are drawn from all max(ROWS, LONG) columns.
CsrMatrix huge_row_matrix(const std::string& spec, std::uint64_t seed) {
  const SpecReader reader(spec, 3, kHugeRowSynopsis);
  const RandomRowsSpec rows = read_huge_row(reader);
  CsrMatrix matrix = random_rows_matrix(reader, rows, seed);
  matrix.description = "huge-row " + std::to_string(rows.rows) + "x" + std::to_string(rows.cols) + ", " +
                       std::to_string(rows.k) + " per row, row " + std::to_string(rows.rows / 2) + " of " +
                       std::to_string(rows.long_row);
  return matrix;
}

/// One level of an R-MAT edge's descent: a draw u of 12 random bits picks the quadrant with
/// the Graph500 probabilities (a, b, c, d) = (0.57, 0.19, 0.19, 0.05), to 12 bits 2335, 778,
/// 778 and 205 out of 4096 (a below 2335, b below 3113, c below 3891, d above). kRmatQuadrant[u]
/// holds the quadrant's row bit (c or d: the lower half) times 2 plus its column bit (b or d:
/// the right half).
constexpr int kRmatBits = 12;
constexpr std::array<std::uint8_t, 1u << kRmatBits> kRmatQuadrant = [] {
  std::array<std::uint8_t, 1u << kRmatBits> quadrant{};
  for (std::uint32_t u = 0; u < quadrant.size(); ++u) quadrant[u] = u < 2335 ? 0 : u < 3113 ? 1 : u < 3891 ? 2 : 3;
  return quadrant;
}();

/// Edges per chunk of the R-MAT generator.
constexpr std::int64_t kEdgesPerChunk = 1 << 18;

/// A random permutation of [0, n) (Fisher-Yates), reproducible from @p seed.
std::vector<std::int32_t> random_permutation(std::int64_t n, std::uint64_t seed) {
  std::vector<std::int32_t> permutation(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) permutation[i] = static_cast<std::int32_t>(i);
  RandomStream random(seed, Stream::rmat_permutation, 0);
  for (std::int64_t i = n - 1; i > 0; --i) std::swap(permutation[i], permutation[random.below(i + 1)]);
  return permutation;
}

/// rmat:SCALE:EDGES_PER_ROW: 2^SCALE vertices, EDGES_PER_ROW x 2^SCALE edges drawn.
struct RmatSpec {
  std::int64_t scale = 0, edges_per_row = 0;
  std::int64_t vertices() const { return std::int64_t{1} << scale; }
  std::int64_t edges() const { return edges_per_row * vertices(); }
};

constexpr const char* kRmatSynopsis = "rmat:SCALE:EDGES_PER_ROW";

/// rmat:SCALE:EDGES_PER_ROW, checked.
RmatSpec read_rmat(const SpecReader& reader) {
  RmatSpec rmat;
  rmat.scale = reader.count(0, "SCALE", 0, 30);
  rmat.edges_per_row = reader.count(1, "EDGES_PER_ROW", 1, kMaxIndex);
  if (rmat.edges_per_row > kMaxIndex >> rmat.scale)
    reader.fail(std::to_string(rmat.edges_per_row) + " x 2^" + std::to_string(rmat.scale) + " edges is above " +
                kLimitText);
  return rmat;
}

/// rmat:SCALE:EDGES_PER_ROW. Each edge descends SCALE levels of the adjacency matrix's
/// quadrants (kRmatQuadrant); its row and column are then relabelled by one random permutation
/// of the vertices. assemble() keeps a repeated edge once; a value depends on its (row,
/// column) alone.
CsrMatrix rmat_matrix(const std::string& spec, std::uint64_t seed) {
  const RmatSpec rmat = read_rmat(SpecReader(spec, 2, kRmatSynopsis));
  const std::int64_t scale = rmat.scale, edges_per_row = rmat.edges_per_row;
  const std::int64_t n = rmat.vertices();
  const std::int64_t edge_count = rmat.edges();

  const std::vector<std::int32_t> permutation = random_permutation(n, seed);
  std::vector<std::vector<PackedEntry>> chunks(
      static_cast<std::size_t>((edge_count + kEdgesPerChunk - 1) / kEdgesPerChunk));
  for_each_chunk(static_cast<std::int64_t>(chunks.size()), [&](std::int64_t chunk) {
    RandomStream random(seed, Stream::rmat_edges, static_cast<std::uint64_t>(chunk));
    std::vector<PackedEntry>& edges = chunks[chunk];
    edges.resize(static_cast<std::size_t>(std::min(kEdgesPerChunk, edge_count - chunk * kEdgesPerChunk)));
    for (PackedEntry& edge : edges) {
      std::uint32_t row = 0, column = 0;
      std::uint64_t bits = 0;
      for (std::int64_t level = 0; level < scale; ++level) {
        if (level % 5 == 0) bits = random.next();  // 5 levels of 12 bits a word
        const std::uint32_t quadrant = kRmatQuadrant[bits & ((1u << kRmatBits) - 1)];
        bits >>= kRmatBits;
        row = row << 1 | quadrant >> 1;
        column = column << 1 | (quadrant & 1);
      }
      edge = PackedEntry{row} << 32 | column;
    }
    // Relabelled in a loop of their own: its random reads of the permutation, free of the draws'
    // arithmetic, overlap one another (many cache misses in flight at once).
    for (PackedEntry& edge : edges)
      edge = PackedEntry(static_cast<std::uint32_t>(permutation[row_of(edge)])) << 32 |
             static_cast<std::uint32_t>(permutation[column_of(edge)]);
  });
  const std::uint64_t value_key = splitmix64(seed ^ static_cast<std::uint64_t>(Stream::rmat_values));
  CsrMatrix matrix = assemble(n, n, chunks, [&](std::int64_t row, PackedEntry entry) {
    return unit_value(splitmix64(value_key + (static_cast<std::uint64_t>(row) << 32 | (entry & 0xFFFFFFFFu))));
  });
  matrix.description = "rmat scale " + std::to_string(scale) + ", " + std::to_string(edges_per_row) + " edges per row";
  return matrix;
}

// Matrix Market -----------------------------------------------------------------------------------

/// @p text in lower case (the banner's words are case-insensitive).
std::string lower_case(std::string_view text) {
  std::string lower(text);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return lower;
}

/// The generator names, for messages: `lecture, stencil5, ...`.
std::string known_generators() {
  std::string known;
  for (const Generator& generator : generators()) known += std::string(known.empty() ? "" : ", ") + generator.name;
  return known;
}

/// A file open for reading, and what fstat says of it.
class OpenFile {
 public:
  /// @throws MatrixError `PATH: cannot open the file: reason`, or `...: it is a directory`.
  explicit OpenFile(const std::string& path) : file_(std::fopen(path.c_str(), "rb"), std::fclose), path_(path) {
    if (!file_) throw MatrixError(path + ": cannot open the file: " + std::strerror(errno));
    if (fstat(fileno(file_.get()), &status_) != 0)
      throw MatrixError(path + ": cannot read the file: " + std::strerror(errno));
    if (S_ISDIR(status_.st_mode)) throw MatrixError(path + ": cannot read the file: it is a directory");
  }

  bool regular() const { return S_ISREG(status_.st_mode); }
  /// The size of a regular file.
  std::int64_t bytes() const { return static_cast<std::int64_t>(status_.st_size); }

  /// Appends up to @p count bytes to @p text; false at the end of the file.
  /// @throws MatrixError when the read fails.
  bool read_into(std::string& text, std::size_t count) {
    const std::size_t before = text.size();
    text.resize(before + count);
    const std::size_t got = std::fread(text.data() + before, 1, count, file_.get());
    text.resize(before + got);
    if (std::ferror(file_.get())) throw MatrixError(path_ + ": cannot read the file: " + std::strerror(errno));
    return got > 0;
  }

 private:
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::string path_;
  struct stat status_ {};
};

/// Bytes read at a time from a file that is not regular, and from a header.
constexpr std::size_t kReadBlockBytes = std::size_t{1} << 16;

/// The banner's first word, which a Matrix Market file starts with.
constexpr std::string_view kBannerWord = "%%matrixmarket";

/// Refuses @p text, the start of the file at @p path, unless it starts with the banner's first
/// word (any case); a text shorter than the word is left to the parser.
void require_banner_start(const std::string& path, std::string_view text) {
  const std::string start = lower_case(text.substr(0, kBannerWord.size()));
  if (text.size() >= kBannerWord.size() && start != kBannerWord)
    throw MatrixError(path + ":1: not a Matrix Market file: the first line must start with %%MatrixMarket");
}

/// The whole text of @p file: a regular file at once; anything else (a pipe) in blocks, refused
/// at its first block unless it starts with the banner (`/dev/zero` ends there), and once it
/// holds more than half the host memory available.
std::string read_whole_file(const std::string& path, OpenFile& file) {
  std::string text;
  if (file.regular()) {
    if (file.bytes() > 0) file.read_into(text, static_cast<std::size_t>(file.bytes()));
    while (file.read_into(text, kReadBlockBytes)) {  // the end of a file that grew
    }
    return text;
  }
  const double limit = static_cast<double>(available_host_bytes()) / 2.0;
  while (file.read_into(text, kReadBlockBytes)) {
    require_banner_start(path, text);
    if (limit > 0.0 && static_cast<double>(text.size()) > limit)
      throw MatrixError(path + ": this stream holds more than " + format_bytes(limit) +
                        " (half the host memory available) and has not ended: too large to read");
  }
  return text;
}

/// The start of the regular file @p file up to the end of its size line (the first line after the
/// banner that is neither blank nor a comment), or the whole file when it has none: its header,
/// read without its entries. Refused at once unless it starts with the banner.
std::string read_header_text(const std::string& path, OpenFile& file) {
  std::string text;
  std::size_t line_start = 0;
  bool banner_read = false;
  for (bool more = true; more;) {
    more = file.read_into(text, kReadBlockBytes);
    require_banner_start(path, text);
    for (std::size_t newline; (newline = text.find('\n', line_start)) != std::string::npos;) {
      const std::string_view line(text.data() + line_start, newline - line_start);
      line_start = newline + 1;
      if (!banner_read) {
        banner_read = true;
        continue;
      }
      const std::size_t first = line.find_first_not_of(" \t\r\v\f");
      if (first != std::string_view::npos && line[first] != '%') return text.substr(0, line_start);
    }
  }
  return text;
}

/// A Matrix Market file's banner words.
enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric, skew_symmetric };

/// The lines of a text, one at a time, with their numbers, and the tokens of the current line.
class LineCursor {
 public:
  /// The lines of [@p begin, @p end), the first of them numbered @p first_line_number.
  LineCursor(const char* begin, const char* end, std::int64_t first_line_number)
      : next_(begin), end_(end), line_number_(first_line_number - 1) {}

  /// Moves to the next line; false at the end of the text.
  bool next_line() {
    if (next_ >= end_) return false;
    const char* newline = static_cast<const char*>(std::memchr(next_, '\n', static_cast<std::size_t>(end_ - next_)));
    cursor_ = next_;
    line_end_ = newline ? newline : end_;
    next_ = newline ? newline + 1 : end_;
    ++line_number_;
    return true;
  }

  /// Moves to the next line that is neither blank nor a comment (`%`); false at the end.
  bool next_content_line() {
    while (next_line()) {
      const char* first = cursor_;
      while (first < line_end_ && is_space(*first)) ++first;
      if (first < line_end_ && *first != '%') return true;
    }
    return false;
  }

  /// The next whitespace-separated token of the line, empty at its end.
  std::string_view next_token() {
    while (cursor_ < line_end_ && is_space(*cursor_)) ++cursor_;
    const char* begin = cursor_;
    while (cursor_ < line_end_ && !is_space(*cursor_)) ++cursor_;
    return {begin, static_cast<std::size_t>(cursor_ - begin)};
  }

  /// The number of the current line (one-based; 0 before the first).
  std::int64_t line_number() const { return line_number_; }
  /// Where the next line starts.
  const char* rest() const { return next_; }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

  const char* next_;                ///< the start of the next line
  const char* end_;                 ///< the end of the text
  const char* cursor_ = nullptr;    ///< the next character of the current line
  const char* line_end_ = nullptr;  ///< the end of the current line (its '\n' or the end of the text)
  std::int64_t line_number_;
};

/// Bytes of entry lines per chunk of the parallel parse (cut at the next line end).
constexpr std::int64_t kTextChunkBytes = 1 << 22;

/// Parses a Matrix Market file held in memory. The banner and the size line are read first;
/// the entry lines are then cut into chunks of about 4 MiB (at line ends, so the chunks depend
/// on the file alone) that threads parse at once. If any chunk finds an error, or the entries
/// do not add up to the size line's count, the entries are read again one line after the other
/// to name the first problem and its line.
class MatrixMarketParser {
 public:
  /// The parser of @p text, the file at @p path whole, or its header only (read_header_text) of
  /// a file of @p file_bytes bytes (-1: the text is the whole file).
  MatrixMarketParser(const std::string& path, const std::string& text, std::int64_t file_bytes = -1)
      : path_(path),
        begin_(text.data()),
        end_(text.data() + text.size()),
        file_bytes_(file_bytes < 0 ? static_cast<std::int64_t>(text.size()) : file_bytes) {}

  /// What the banner and the size line say of the matrix (the entries are not read).
  MatrixSize header() {
    LineCursor lines(begin_, end_, 1);
    read_banner(lines);
    read_size_line(lines);
    MatrixSize size;
    size.rows = rows_;
    size.cols = cols_;
    const std::int64_t entries = std::min(entry_count_, entry_capacity_);  // at most what the file holds
    const std::int64_t stored = symmetry_ == Symmetry::general ? entries : 2 * entries;
    size.nonzeros = std::min(stored, rows_ * cols_);
    // The text, the entries as read and as sorted by row (16 bytes each), the rows' counts.
    size.build_bytes = static_cast<double>(file_bytes_) + 2.0 * sizeof(FileEntry) * static_cast<double>(stored) +
                       4.0 * static_cast<double>(rows_);
    return size;
  }

  CsrMatrix parse() {
    LineCursor lines(begin_, end_, 1);
    read_banner(lines);
    read_size_line(lines);
    std::vector<std::vector<FileEntry>> chunks = read_entries(lines.rest(), lines.line_number() + 1);
    std::int64_t stored = 0;
    for (const std::vector<FileEntry>& chunk : chunks) stored += static_cast<std::int64_t>(chunk.size());
    if (stored > kMaxIndex)
      fail(size_line_number_, std::to_string(stored) + " nonzeros once the triangle is mirrored: above " + kLimitText);
    CsrMatrix matrix = assemble(rows_, cols_, chunks, [](std::int64_t, const FileEntry& entry) { return entry.value; });
    const std::int64_t merged = stored - static_cast<std::int64_t>(matrix.nnz());
    const char* field = field_ == Field::real ? "real" : field_ == Field::integer ? "integer" : "pattern";
    const char* symmetry = symmetry_ == Symmetry::general     ? "general"
                           : symmetry_ == Symmetry::symmetric ? "symmetric, expanded"
                                                              : "skew-symmetric, expanded";
    matrix.description = path_.substr(path_.find_last_of('/') + 1) + " (" + field + ", " + symmetry +
                         (merged > 0 ? ", " + std::to_string(merged) + " duplicates summed" : "") + ")";
    return matrix;
  }

 private:
  /// @throws MatrixError `PATH:LINE: what`.
  [[noreturn]] void fail(std::int64_t line_number, const std::string& what) const {
    throw MatrixError(path_ + ":" + std::to_string(line_number) + ": " + what);
  }

  void read_banner(LineCursor& lines) {
    if (!lines.next_line()) fail(1, "empty file: expected the banner %%MatrixMarket matrix coordinate FIELD SYMMETRY");
    const std::string_view marker = lines.next_token();
    if (lower_case(marker) != "%%matrixmarket")
      fail(lines.line_number(), "not a Matrix Market file: the first line must start with %%MatrixMarket");
    const std::string object = lower_case(lines.next_token()), format = lower_case(lines.next_token());
    const std::string field = lower_case(lines.next_token()), symmetry = lower_case(lines.next_token());
    if (symmetry.empty())
      fail(lines.line_number(), "incomplete banner: expected %%MatrixMarket matrix coordinate FIELD SYMMETRY");
    if (const std::string_view extra = lines.next_token(); !extra.empty())
      fail(lines.line_number(), "unexpected '" + std::string(extra) + "' after the banner's symmetry");
    if (object != "matrix") fail(lines.line_number(), "object '" + object + "' is not supported: only 'matrix'");
    if (format == "array") fail(lines.line_number(), "array (dense) format is not supported: only 'coordinate'");
    if (format != "coordinate") fail(lines.line_number(), "unknown format '" + format + "': only 'coordinate'");
    if (field == "real" || field == "double") {
      field_ = Field::real;
    } else if (field == "integer") {
      field_ = Field::integer;
    } else if (field == "pattern") {
      field_ = Field::pattern;
    } else if (field == "complex") {
      fail(lines.line_number(), "complex values are not supported: only real, integer or pattern");
    } else {
      fail(lines.line_number(), "unknown field '" + field + "': only real, integer or pattern");
    }
    if (symmetry == "general") {
      symmetry_ = Symmetry::general;
    } else if (symmetry == "symmetric") {
      symmetry_ = Symmetry::symmetric;
    } else if (symmetry == "skew-symmetric") {
      symmetry_ = Symmetry::skew_symmetric;
    } else if (symmetry == "hermitian") {
      fail(lines.line_number(),
           "hermitian symmetry is not supported (complex values): only general, symmetric or skew-symmetric");
    } else {
      fail(lines.line_number(), "unknown symmetry '" + symmetry + "': only general, symmetric or skew-symmetric");
    }
  }

  /// @p token as a non-negative integer of the size line.
  std::int64_t size_field(const LineCursor& lines, std::string_view token) const {
    std::int64_t value = -1;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (token.empty() || error != std::errc() || end != token.data() + token.size() || value < 0)
      fail(lines.line_number(), "bad size line: expected ROWS COLS ENTRIES, three non-negative integers");
    return value;
  }

  void read_size_line(LineCursor& lines) {
    if (!lines.next_content_line())
      fail(lines.line_number(), "no size line: expected ROWS COLS ENTRIES after the banner");
    size_line_number_ = lines.line_number();
    rows_ = size_field(lines, lines.next_token());
    cols_ = size_field(lines, lines.next_token());
    entry_count_ = size_field(lines, lines.next_token());
    if (const std::string_view extra = lines.next_token(); !extra.empty())
      fail(lines.line_number(), "bad size line: unexpected '" + std::string(extra) + "' after ROWS COLS ENTRIES");
    if (rows_ > kMaxIndex) fail(lines.line_number(), std::to_string(rows_) + " rows is above " + kLimitText);
    if (cols_ > kMaxIndex) fail(lines.line_number(), std::to_string(cols_) + " columns is above " + kLimitText);
    if (entry_count_ > kMaxIndex)
      fail(lines.line_number(), std::to_string(entry_count_) + " entries is above " + kLimitText);
    if (entry_count_ > rows_ * cols_)
      fail(lines.line_number(), std::to_string(entry_count_) + " entries do not fit a " + std::to_string(rows_) +
                                    " x " + std::to_string(cols_) + " matrix");
    if (symmetry_ != Symmetry::general && rows_ != cols_)
      fail(lines.line_number(),
           "a symmetric matrix must be square, not " + std::to_string(rows_) + " x " + std::to_string(cols_));
    // Every entry line takes at least 4 bytes (`1 1` and its line end; 6 with a value), the last
    // one a byte less: the rest of the file holds at most this many entries. Rows and columns
    // cost memory whether entries fill them or not, so a file may declare only so many more.
    const std::int64_t rest = file_bytes_ - (lines.rest() - begin_);
    entry_capacity_ = std::max<std::int64_t>(0, rest + 1) / (field_ == Field::pattern ? 4 : 6);
    for (const auto& [count, what] : {std::pair{rows_, "rows"}, std::pair{cols_, "columns"}})
      if (count > entry_capacity_ + kMostEmptyRows)
        fail(lines.line_number(), std::to_string(count) + " " + what + " in a file whose " +
                                      std::to_string(file_bytes_) + " bytes hold at most " +
                                      std::to_string(entry_capacity_) + " entries: at most 2^24 " + what +
                                      " more than that are read (the others could only be empty)");
  }

  /// @p token as a one-based index in [1, @p limit], returned zero-based.
  std::int32_t index(const LineCursor& lines, std::string_view token, const char* what, std::int64_t limit) const {
    if (token.empty()) fail(lines.line_number(), std::string("missing ") + what);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error == std::errc::invalid_argument || end != token.data() + token.size())
      fail(lines.line_number(), std::string(what) + " '" + std::string(token) + "' is not an integer");
    if (error != std::errc() || value < 1 || value > limit)
      fail(lines.line_number(),
           std::string(what) + " " + std::string(token) + " out of range [1, " + std::to_string(limit) + "]");
    return static_cast<std::int32_t>(value - 1);
  }

  /// @p token as the entry's value (a finite number; an integer for an integer file).
  double value(const LineCursor& lines, std::string_view token) const {
    if (token.empty())
      fail(lines.line_number(),
           std::string("missing value (the field is ") + (field_ == Field::real ? "real" : "integer") + ")");
    const char* begin = token.data();
    const char* end = token.data() + token.size();
    if (*begin == '+' && token.size() > 1 && begin[1] != '-') ++begin;  // from_chars takes no '+'
    if (field_ == Field::integer) {
      std::int64_t number = 0;
      const auto [stop, error] = std::from_chars(begin, end, number);
      if (error == std::errc::result_out_of_range)
        fail(lines.line_number(), "value " + std::string(token) + " is out of range");
      if (error != std::errc() || stop != end)
        fail(lines.line_number(), "value '" + std::string(token) + "' is not an integer");
      return static_cast<double>(number);
    }
    double number = 0;
    const auto [stop, error] = std::from_chars(begin, end, number);
    if (error == std::errc::result_out_of_range)
      fail(lines.line_number(), "value " + std::string(token) + " is out of the range of double");
    if (error != std::errc() || stop != end)
      fail(lines.line_number(), "value '" + std::string(token) + "' is not a number");
    if (!std::isfinite(number)) fail(lines.line_number(), "value " + std::string(token) + " is not a finite number");
    return number;
  }

  /// Reads the entry on the current line of @p lines into @p entries, and its mirror for a
  /// (skew-)symmetric file.
  void read_entry(LineCursor& lines, std::vector<FileEntry>& entries) const {
    const std::int32_t row = index(lines, lines.next_token(), "row index", rows_);
    const std::int32_t column = index(lines, lines.next_token(), "column index", cols_);
    const double entry_value = field_ == Field::pattern ? kPatternValue : value(lines, lines.next_token());
    if (const std::string_view extra = lines.next_token(); !extra.empty())
      fail(lines.line_number(), "unexpected '" + std::string(extra) + "' after the entry" +
                                    (field_ == Field::pattern ? " (a pattern file has no values)" : ""));
    const auto where = [&] { return "(" + std::to_string(row + 1) + ", " + std::to_string(column + 1) + ")"; };
    if (symmetry_ != Symmetry::general && row < column)
      fail(lines.line_number(),
           "entry " + where() + " above the diagonal in a symmetric file: only the lower triangle is stored");
    if (symmetry_ == Symmetry::skew_symmetric && row == column)
      fail(lines.line_number(),
           "diagonal entry " + where() + " in a skew-symmetric file: its diagonal is zero and is not stored");
    entries.push_back({row, column, entry_value});
    if (symmetry_ != Symmetry::general && row != column)
      entries.push_back({column, row, symmetry_ == Symmetry::skew_symmetric ? -entry_value : entry_value});
  }

  /// The entries of the lines from @p begin (line @p line_number) to the end of the file, in
  /// chunks in file order. @throws MatrixError naming the first bad line, or the count that
  /// does not match the size line.
  std::vector<std::vector<FileEntry>> read_entries(const char* begin, std::int64_t line_number) const {
    std::vector<const char*> cuts = {begin};
    while (cuts.back() < end_) {
      const char* cut = std::min(end_, cuts.back() + kTextChunkBytes);
      const char* newline = static_cast<const char*>(std::memchr(cut, '\n', static_cast<std::size_t>(end_ - cut)));
      cuts.push_back(newline ? newline + 1 : end_);
    }
    const std::int64_t chunk_count = static_cast<std::int64_t>(cuts.size()) - 1;
    std::vector<std::vector<FileEntry>> chunks(static_cast<std::size_t>(chunk_count));
    std::vector<std::int64_t> found(static_cast<std::size_t>(chunk_count));
    std::vector<char> failed(static_cast<std::size_t>(chunk_count), 0);
    for_each_chunk(chunk_count, [&](std::int64_t chunk) {
      LineCursor lines(cuts[chunk], cuts[chunk + 1], 1);  // numbered later, if a line is bad
      try {
        while (lines.next_content_line()) {
          read_entry(lines, chunks[chunk]);
          ++found[chunk];
        }
      } catch (const MatrixError&) {
        failed[chunk] = 1;
      }
    });
    std::int64_t total = 0;
    for (std::int64_t count : found) total += count;
    if (total != entry_count_ || std::find(failed.begin(), failed.end(), 1) != failed.end()) {
      check_entries_in_order(begin, line_number);
      throw std::logic_error("read_matrix_market: a chunk failed but the file reads well in order");
    }
    return chunks;
  }

  /// Reads the entries from @p begin (line @p line_number) one line after the other and throws
  /// for the first bad line, an entry past the size line's count, or too few entries.
  void check_entries_in_order(const char* begin, std::int64_t line_number) const {
    LineCursor lines(begin, end_, line_number);
    std::vector<FileEntry> entries;
    std::int64_t found = 0;
    while (lines.next_content_line()) {
      if (found == entry_count_)
        fail(lines.line_number(), "more entries than the " + std::to_string(entry_count_) + " the size line announces");
      read_entry(lines, entries);
      entries.clear();
      ++found;
    }
    if (found < entry_count_)
      fail(lines.line_number(), "the file ends after " + std::to_string(found) + " entries, the size line announces " +
                                    std::to_string(entry_count_));
  }

  std::string path_;
  const char* begin_;  ///< the file's text
  const char* end_;
  Field field_ = Field::real;
  Symmetry symmetry_ = Symmetry::general;
  std::int64_t file_bytes_;  ///< the whole file's size (the text may be its header only)
  std::int64_t rows_ = 0, cols_ = 0, entry_count_ = 0;
  std::int64_t entry_capacity_ = 0;  ///< the most entries the rest of the file can hold
  std::int64_t size_line_number_ = 0;
};

}  // namespace

void validate(const CsrMatrix& matrix) {
  const auto fail = [](const std::string& what) { throw std::invalid_argument("invalid CSR matrix: " + what); };
  if (matrix.rows < 0 || matrix.cols < 0)
    fail("negative size " + std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols));
  if (matrix.offsets.size() != static_cast<std::size_t>(matrix.rows) + 1)
    fail(std::to_string(matrix.offsets.size()) + " offsets for " + std::to_string(matrix.rows) +
         " rows (want rows + 1)");
  if (matrix.values.size() != matrix.columns.size())
    fail(std::to_string(matrix.values.size()) + " values for " + std::to_string(matrix.columns.size()) + " columns");
  if (matrix.columns.size() > static_cast<std::size_t>(kMaxIndex))
    fail(std::to_string(matrix.columns.size()) + " nonzeros is above " + kLimitText);
  if (matrix.offsets[0] != 0) fail("offsets[0] = " + std::to_string(matrix.offsets[0]) + ", want 0");
  for (std::int32_t row = 0; row < matrix.rows; ++row)
    if (matrix.offsets[row + 1] < matrix.offsets[row])
      fail("offsets[" + std::to_string(row + 1) + "] = " + std::to_string(matrix.offsets[row + 1]) + " < offsets[" +
           std::to_string(row) + "] = " + std::to_string(matrix.offsets[row]) + ": offsets must not decrease");
  if (static_cast<std::size_t>(matrix.offsets[matrix.rows]) != matrix.columns.size())
    fail("offsets[rows] = " + std::to_string(matrix.offsets[matrix.rows]) + ", want the nonzero count " +
         std::to_string(matrix.columns.size()));
  for (std::int32_t row = 0; row < matrix.rows; ++row) {
    for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j) {
      const std::int32_t column = matrix.columns[j];
      if (column < 0 || column >= matrix.cols)
        fail("row " + std::to_string(row) + ": column " + std::to_string(column) + " out of range [0, " +
             std::to_string(matrix.cols) + ")");
      if (j > matrix.offsets[row] && column <= matrix.columns[j - 1])
        fail("row " + std::to_string(row) + ": column " + std::to_string(column) + " after column " +
             std::to_string(matrix.columns[j - 1]) + ": columns must increase strictly within a row");
    }
  }
}

const std::vector<std::string>& generator_synopses() {
  static const std::vector<std::string> synopses = [] {
    std::vector<std::string> lines;
    for (const Generator& generator : generators()) lines.push_back(generator.synopsis);
    return lines;
  }();
  return synopses;
}

bool is_generator_spec(const std::string& spec) {
  const std::string name = spec_name(spec);
  return std::any_of(generators().begin(), generators().end(),
                     [&](const Generator& generator) { return name == generator.name; });
}

CsrMatrix generate_matrix(const std::string& spec, std::uint64_t seed) {
  const std::string name = spec_name(spec);
  if (name == "lecture") return lecture_matrix(spec);
  if (name == "stencil5") return stencil5_matrix(spec);
  if (name == "stencil27") return stencil27_matrix(spec);
  if (name == "uniform") return uniform_matrix(spec, seed);
  if (name == "rmat") return rmat_matrix(spec, seed);
  if (name == "huge-row") return huge_row_matrix(spec, seed);
  throw MatrixError(spec + ": unknown generator '" + name + "' (known: " + known_generators() + ")");
}

CsrMatrix read_matrix_market(const std::string& path) {
  OpenFile file(path);
  const std::string text = read_whole_file(path, file);
  return MatrixMarketParser(path, text).parse();
}

double host_bytes_needed(const MatrixSize& size, std::size_t value_bytes, bool analyze) {
  const double rows = static_cast<double>(size.rows), cols = static_cast<double>(size.cols);
  const double nonzeros = static_cast<double>(size.nonzeros);
  const double matrix = 12.0 * nonzeros + 4.0 * (rows + 1.0);           // int32 columns, double values, offsets
  if (analyze) return matrix + std::max(size.build_bytes, 4.0 * rows);  // the row lengths, sorted
  // x and x rounded (8 bytes a column each), the values or x converted for the device, the
  // reference, its row scales and its timed copy (8 bytes a row each), y read back.
  const double run = 16.0 * cols + static_cast<double>(value_bytes) * std::max(nonzeros, cols) + 24.0 * rows +
                     static_cast<double>(value_bytes) * rows;
  return matrix + std::max(size.build_bytes, run);
}

std::string scaled_default_matrix(std::uint64_t nonzeros) {
  if (nonzeros == 0 || nonzeros > static_cast<std::uint64_t>(kMaxIndex))
    throw MatrixError(std::to_string(nonzeros) + " nonzeros: the 27-point stencil takes from 1 to " + kLimitText);
  const auto count = [](std::int64_t x) { return stencil27_nonzeros(GridSpec{x, x, 2 * x}); };
  const auto wanted = static_cast<std::int64_t>(nonzeros);
  std::int64_t x = 1;
  while (count(x + 1) <= kMaxIndex && count(x) < wanted) ++x;
  if (x > 1 && wanted - count(x - 1) <= count(x) - wanted) --x;  // the nearer of the two around it
  return "stencil27:" + std::to_string(x) + "x" + std::to_string(x) + "x" + std::to_string(2 * x);
}

MatrixSource::MatrixSource(const std::string& spec) : spec_(spec) {
  if (spec.empty()) throw MatrixError("empty: give a generator (" + known_generators() + ") or a Matrix Market file");
  generated_ = is_generator_spec(spec);
  if (generated_) {
    const std::string name = spec_name(spec);
    if (name == "lecture") {
      lecture_matrix(spec);  // checks that it has no arguments
      size_ = {4, 4, 7, 0.0, {}};
    } else if (name == "stencil5" || name == "stencil27") {
      const bool five = name == "stencil5";
      const SpecReader reader(spec, 1, five ? kStencil5Synopsis : kStencil27Synopsis);
      const GridSpec grid = five ? read_stencil5(reader) : read_stencil27(reader);
      size_ = {grid.rows(), grid.rows(), five ? stencil5_nonzeros(grid) : stencil27_nonzeros(grid), 0.0, {}};
    } else if (name == "uniform" || name == "huge-row") {
      const bool huge = name == "huge-row";
      const SpecReader reader(spec, huge ? 3 : 2, huge ? kHugeRowSynopsis : kUniformSynopsis);
      const RandomRowsSpec rows = huge ? read_huge_row(reader) : read_uniform(reader);
      size_ = {rows.rows, rows.cols, rows.nonzeros(), 0.0, {}};
      if (huge && rows.long_row > rows.rows)
        size_.notes.push_back(spec + ": LONG = " + std::to_string(rows.long_row) + " is above ROWS = " +
                              std::to_string(rows.rows) + ", so the matrix has " + std::to_string(rows.cols) +
                              " columns (max(ROWS, LONG): the long row's columns are distinct)");
    } else {
      const RmatSpec rmat = read_rmat(SpecReader(spec, 2, kRmatSynopsis));
      // The edges, packed in 8 bytes, as drawn and as sorted by row; the permutation; the rows' counts.
      size_ = {rmat.vertices(),
               rmat.vertices(),
               rmat.edges(),
               16.0 * static_cast<double>(rmat.edges()) + 8.0 * static_cast<double>(rmat.vertices()),
               {}};
    }
    return;
  }
  struct stat status {};
  const bool path_like = spec.find('/') != std::string::npos ||
                         (spec.find('.') != std::string::npos && spec.find(':') == std::string::npos);
  if (stat(spec.c_str(), &status) != 0 && errno == ENOENT && !path_like)
    throw MatrixError(spec + ": unknown generator '" + spec_name(spec) + "' (known: " + known_generators() +
                      "), and no file of that name");
  OpenFile file(spec);
  stream_ = !file.regular();
  if (stream_) {
    stream_text_ = read_whole_file(spec, file);
    size_ = MatrixMarketParser(spec, stream_text_).header();
  } else {
    const std::string header = read_header_text(spec, file);
    size_ = MatrixMarketParser(spec, header, file.bytes()).header();
  }
}

CsrMatrix MatrixSource::load(std::uint64_t seed) {
  if (generated_) return generate_matrix(spec_, seed);
  if (!stream_) return read_matrix_market(spec_);
  const std::string text = std::move(stream_text_);
  stream_text_.clear();
  return MatrixMarketParser(spec_, text).parse();
}

CsrMatrix load_matrix(const std::string& spec, std::uint64_t seed) { return MatrixSource(spec).load(seed); }

std::vector<double> make_x(std::size_t count, std::uint64_t seed) {
  std::vector<double> x(count);
  constexpr std::int64_t kPerChunk = 1 << 16;
  const std::int64_t total = static_cast<std::int64_t>(count);
  for_each_chunk((total + kPerChunk - 1) / kPerChunk, [&](std::int64_t chunk) {
    RandomStream random(seed, Stream::x, static_cast<std::uint64_t>(chunk));
    const std::int64_t last = std::min(total, (chunk + 1) * kPerChunk);
    for (std::int64_t i = chunk * kPerChunk; i < last; ++i) x[i] = unit_value(random.next());
  });
  // Never all equal: a constant x would hide a stage that mixes up columns.
  if (count >= 2 && std::all_of(x.begin(), x.end(), [&](double value) { return value == x[0]; }))
    x[count - 1] = x[0] == 0.5 ? -0.5 : 0.5;
  return x;
}

template <class T>
void spmv_reference(const CsrMatrix& matrix, const std::vector<double>& x, std::vector<double>& y,
                    std::vector<double>* scale) {
  if (x.size() != static_cast<std::size_t>(matrix.cols))
    throw std::invalid_argument("spmv_reference: x has " + std::to_string(x.size()) + " values for " +
                                std::to_string(matrix.cols) + " columns");
  // x as T sees it: rounded to T, held in double.
  std::vector<double> x_rounded;
  if constexpr (!std::is_same_v<T, double>) {
    x_rounded.resize(x.size());
    constexpr std::int64_t kPerChunk = 1 << 16;
    const std::int64_t total = static_cast<std::int64_t>(x.size());
    for_each_chunk((total + kPerChunk - 1) / kPerChunk, [&](std::int64_t chunk) {
      const std::int64_t last = std::min(total, (chunk + 1) * kPerChunk);
      for (std::int64_t i = chunk * kPerChunk; i < last; ++i) x_rounded[i] = static_cast<double>(static_cast<T>(x[i]));
    });
  }
  const std::vector<double>& x_as_t = std::is_same_v<T, double> ? x : x_rounded;
  y.assign(static_cast<std::size_t>(matrix.rows), 0.0);
  if (scale) scale->assign(static_cast<std::size_t>(matrix.rows), 0.0);
  for_each_row_chunk(matrix.rows, [&](std::int64_t first_row, std::int64_t last_row, std::int64_t) {
    for (std::int64_t row = first_row; row < last_row; ++row) {
      double sum = 0.0, magnitude = 0.0;
      for (std::int32_t j = matrix.offsets[row]; j < matrix.offsets[row + 1]; ++j) {
        const double product = static_cast<double>(static_cast<T>(matrix.values[j])) * x_as_t[matrix.columns[j]];
        sum += product;
        magnitude += std::abs(product);
      }
      y[row] = sum;
      if (scale) (*scale)[row] = (matrix.row_length(static_cast<std::int32_t>(row)) + 2.0) * magnitude;
    }
  });
}

template void spmv_reference<float>(const CsrMatrix&, const std::vector<double>&, std::vector<double>&,
                                    std::vector<double>*);
template void spmv_reference<double>(const CsrMatrix&, const std::vector<double>&, std::vector<double>&,
                                     std::vector<double>*);

}  // namespace stepwise::spmv
