#include "generators.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/data.hpp"
#include "host/parallel.hpp"
#include "host/sizes.hpp"
#include "matrix_assembly.hpp"

namespace stepwise::spmv {

using namespace detail;

namespace {

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

}  // namespace

const std::vector<std::string>& generator_synopses() {
  static const std::vector<std::string> synopses = [] {
    std::vector<std::string> lines;
    for (const Generator& generator : generators()) lines.push_back(generator.synopsis);
    return lines;
  }();
  return synopses;
}

std::string known_generators() {
  std::string known;
  for (const Generator& generator : generators()) known += std::string(known.empty() ? "" : ", ") + generator.name;
  return known;
}

std::string generator_name(const std::string& spec) { return spec.substr(0, spec.find(':')); }

bool is_generator_spec(const std::string& spec) {
  const std::string name = generator_name(spec);
  return std::any_of(generators().begin(), generators().end(),
                     [&](const Generator& generator) { return name == generator.name; });
}

CsrMatrix generate_matrix(const std::string& spec, std::uint64_t seed) {
  const std::string name = generator_name(spec);
  if (name == "lecture") return lecture_matrix(spec);
  if (name == "stencil5") return stencil5_matrix(spec);
  if (name == "stencil27") return stencil27_matrix(spec);
  if (name == "uniform") return uniform_matrix(spec, seed);
  if (name == "rmat") return rmat_matrix(spec, seed);
  if (name == "huge-row") return huge_row_matrix(spec, seed);
  throw MatrixError(spec + ": unknown generator '" + name + "' (known: " + known_generators() + ")");
}

MatrixSize generator_size(const std::string& spec) {
  const std::string name = generator_name(spec);
  if (name == "lecture") {
    lecture_matrix(spec);  // checks that it has no arguments
    return {4, 4, 7, 3, 0.0, {}};
  }
  if (name == "stencil5" || name == "stencil27") {
    const bool five = name == "stencil5";
    const SpecReader reader(spec, 1, five ? kStencil5Synopsis : kStencil27Synopsis);
    const GridSpec grid = five ? read_stencil5(reader) : read_stencil27(reader);
    // An inner point's row: its neighbours in each dimension of n points, min(n, 3) with itself.
    const std::int64_t sx = std::min<std::int64_t>(grid.nx, 3), sy = std::min<std::int64_t>(grid.ny, 3);
    const std::int64_t longest = five ? sx + sy - 1 : sx * sy * std::min<std::int64_t>(grid.nz, 3);
    return {grid.rows(), grid.rows(), five ? stencil5_nonzeros(grid) : stencil27_nonzeros(grid), longest, 0.0, {}};
  }
  if (name == "uniform" || name == "huge-row") {
    const bool huge = name == "huge-row";
    const SpecReader reader(spec, huge ? 3 : 2, huge ? kHugeRowSynopsis : kUniformSynopsis);
    const RandomRowsSpec rows = huge ? read_huge_row(reader) : read_uniform(reader);
    const std::int64_t longest = !huge ? rows.k : rows.rows > 1 ? std::max(rows.k, rows.long_row) : rows.long_row;
    MatrixSize size{rows.rows, rows.cols, rows.nonzeros(), longest, 0.0, {}};
    if (huge && rows.long_row > rows.rows)
      size.notes.push_back(spec + ": LONG = " + std::to_string(rows.long_row) + " is above ROWS = " +
                           std::to_string(rows.rows) + ", so the matrix has " + std::to_string(rows.cols) +
                           " columns (max(ROWS, LONG): the long row's columns are distinct)");
    return size;
  }
  if (name == "rmat") {
    const RmatSpec rmat = read_rmat(SpecReader(spec, 2, kRmatSynopsis));
    // The edges, packed in 8 bytes, as drawn and as sorted by row; the permutation; the rows' counts.
    // A row's repeated edges are merged: it has at most one nonzero per column.
    return {rmat.vertices(),
            rmat.vertices(),
            rmat.edges(),
            rmat.vertices(),
            16.0 * static_cast<double>(rmat.edges()) + 8.0 * static_cast<double>(rmat.vertices()),
            {}};
  }
  throw MatrixError(spec + ": unknown generator '" + name + "' (known: " + known_generators() + ")");
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

}  // namespace stepwise::spmv
